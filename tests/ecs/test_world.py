"""ecs.world: what a World's tick takes as settled, where the rules it plays by change."""
from __future__ import annotations

import pickle

from ecs import World
from ecs.rules import Magic


class Wilt(Magic):
    """A host's ruleset: "growth" counters give -0/-1 each."""

    def pt_modifier(self, kind: str) -> tuple[int, int] | None:
        return (0, -1) if kind == "growth" else super().pt_modifier(kind)


def _settled_growing_creature() -> tuple[World, int]:
    """A World of one game whose creature has a growth counter, ticked (settled) under Magic."""
    w = World()
    p = w.add_player()
    bear = w.add_object(p, "creature", power=1, toughness=1, counters={"growth": 1})
    assert w.tick() == 0 and w.exists(bear)
    return w, bear


def test_704_5f_a_state_settled_under_one_ruleset_is_checked_under_another_installed_since() -> None:
    """704.3, 704.5f: a state a tick left settled under Magic is checked again once a host's
    ruleset, under which its creature has toughness 0, is installed, as a fresh copy of the
    World is: the creature dies."""
    w, bear = _settled_growing_creature()
    w.ruleset = Wilt()
    fresh = pickle.loads(pickle.dumps(w))
    assert fresh.tick() == 1 and not fresh.exists(bear)
    assert w.tick() == 1 and not w.exists(bear)


def test_704_5f_a_snapshot_settled_under_another_ruleset_restores_unsettled() -> None:
    """704.3, 704.5f: a snapshot taken settled under Magic, restored after a host's ruleset
    was installed, is checked by the next tick (the creature at toughness 0 dies); one taken
    settled under the ruleset now in force restores settled."""
    w, bear = _settled_growing_creature()
    under_magic = w.snapshot()
    w.ruleset = Wilt()
    w.restore(under_magic)
    assert w.tick() == 1 and not w.exists(bear)
    w.restore(under_magic)
    assert w.tick() == 1   # (taken, settled, under the other ruleset)
    after = w.snapshot()
    w.restore(after)
    assert w.store.settled is not None and w.tick() == 0


def test_704_3_a_settled_snapshot_restores_settled_however_many_other_worlds_ticked_since() -> None:
    """704.3: a search's root snapshot, taken settled, restores as settled (its next tick
    makes no check) after a hundred other Worlds were ticked and snapshotted: the number
    naming its rules is its schedule's, not one of a process-wide table that forgets."""
    w, _ = _settled_growing_creature()
    root = w.snapshot()
    for _ in range(100):
        other, _ = _settled_growing_creature()
        other.snapshot()
        other.restore(other.snapshot())
    w.restore(root)
    assert w.store.settled is not None
    checks = []
    real = w.schedule._check
    w.schedule._check = lambda *a: checks.append(1) or real(*a)   # type: ignore[method-assign]
    assert w.tick() == 0 and checks == []
