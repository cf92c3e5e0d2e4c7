"""``World.atomic()``: a block of calls made as one (docs/api.md, "A ruleset's hook
replaced"). A host's hook runs inside an action, after some of its writes (its event step,
counters removed from a move's source, a first kind proliferated, an object made or
moved); one that raises, a host's bug or a refusal, inside ``atomic()`` leaves the World
exactly as before the block, the event log and its step included, and the exception
reaches the caller as the hook raised it. So does an action's bad input in a host's
effect of several actions, and a tick.

Each case installs a subclass of the World's ruleset whose hook does its work (the
built-in's, through ``super()``) and then raises ``Refused``: the harshest case, a hook
that wrote before raising. One game and a batch of 3, the single-game scalar paths and
the general path (``tests/scalar_paths.py``).
"""
from __future__ import annotations

from typing import Any, Callable

import pytest

from ecs import CounterError, World
from ecs.rules import GrandArchive, Magic
from tests.scalar_paths import run_on
from tests.state import full_state


class Refused(Exception):
    """A host's own exception: not a CounterError, and not to be wrapped."""


def _refusing(base: type, hook: str) -> Any:
    """An instance of a subclass of ``base`` whose ``hook`` does the built-in's work, then
    raises ``Refused``."""
    def raising(self: Any, *a: Any, **k: Any) -> Any:
        getattr(super(cls, self), hook)(*a, **k)
        raise Refused(hook)

    cls = type(f"Refusing_{hook}", (base,), {hook: raising})
    return cls()


def _mtg(batch: int) -> tuple[World, dict[str, int]]:
    """Two players; a bear with charge and +1/+1 counters and a shield, a damaged creature
    with a charge counter, a planeswalker, a source, a creature planeswalker in hand, three
    library cards of ``p``'s, a creature of toughness 0 (704.5f: it dies at the next check)."""
    w = World(seed=3, batch=batch)
    p, q = w.add_player(), w.add_player()
    ids = {"p": p, "q": q}
    ids["bear"] = w.add_object(p, {"creature"}, power=2, toughness=3,
                               counters={"charge": 2, "+1/+1": 1, "shield": 1})
    ids["elk"] = w.add_object(q, {"creature"}, power=2, toughness=2, counters={"charge": 1})
    ids["walker"] = w.add_object(q, {"planeswalker"}, loyalty=4)
    ids["source"] = w.add_object(q, {"creature"}, power=1, toughness=1)
    ids["hand"] = w.add_object(p, {"creature", "planeswalker"}, power=1, toughness=1, loyalty=2, zone="hand")
    w.add_objects(3, p, {"creature"}, zone="library")
    w.deal_damage(ids["elk"], 1)
    ids["frail"] = w.add_object(q, {"creature"}, power=1, toughness=1, counters={"-1/-1": 1})   # dies at a check
    return w, ids


def _ga(batch: int) -> tuple[World, dict[str, int]]:
    """Two players; a champion with enlighten and damage counters, an ally with debuff and
    charge counters, an ally with durability counters and damage, an ally in hand, a
    regalia, three deck cards of ``p``'s."""
    w = World("grand_archive", seed=3, batch=batch)
    p, q = w.add_player(), w.add_player()
    ids = {"p": p, "q": q}
    ids["champion"] = w.add_object(p, {"champion"}, power=1, life=20, level=1,
                                   counters={"enlighten": 3, "damage": 1})
    ids["ally"] = w.add_object(p, {"ally"}, power=2, life=3, counters={"debuff": 1, "charge": 1})
    ids["ally2"] = w.add_object(q, {"ally"}, power=1, life=2, durability=2)
    ids["hand"] = w.add_object(p, {"ally"}, power=1, life=1, durability=2, zone="hand")
    ids["regalia"] = w.add_object(q, {"regalia"})
    w.add_objects(3, p, {"ally"}, zone="deck")
    w.deal_damage(ids["ally2"], 1)
    return w, ids


#: (name, ruleset maker and base, hook that raises, the action) of every public action that
#: calls a ruleset hook after it has written something.
Case = tuple[str, Callable[[int], tuple[World, dict[str, int]]], type, str, Callable[[World, dict[str, int]], Any]]
CASES: list[Case] = [
    ("put_counters", _mtg, Magic, "place", lambda w, i: w.put_counters(i["bear"], "charge", 2)),
    ("put_counters few", _mtg, Magic, "place", lambda w, i: w.put_counters([i["bear"], i["elk"]], "charge")),
    ("put_counters by", _mtg, Magic, "place", lambda w, i: w.put_counters(i["bear"], "charge", 1, by=i["q"])),
    ("move_counters", _mtg, Magic, "place", lambda w, i: w.move_counters(i["bear"], i["elk"], "charge", 2)),
    ("proliferate", _mtg, Magic, "place", lambda w, i: w.proliferate([i["bear"], i["elk"]])),
    ("add_object counters", _mtg, Magic, "place",
     lambda w, i: w.add_object(i["p"], {"creature"}, power=1, toughness=1, counters={"charge": 2})),
    ("add_object loyalty", _mtg, Magic, "place", lambda w, i: w.add_object(i["p"], {"planeswalker"}, loyalty=3)),
    ("add_object enter_counters", _mtg, Magic, "enter_counters",
     lambda w, i: w.add_object(i["p"], {"planeswalker"}, loyalty=3)),
    ("move_zone counters", _mtg, Magic, "place",
     lambda w, i: w.move_zone(i["hand"], "battlefield", counters={"charge": 1, "+1/+1": 2})),
    ("move_zone", _mtg, Magic, "replace_zone_change", lambda w, i: w.move_zone(i["bear"], "exile")),
    ("move_zone few", _mtg, Magic, "replace_zone_change", lambda w, i: w.move_zone([i["bear"], i["elk"]], "exile")),
    ("move_zone enters", _mtg, Magic, "place", lambda w, i: w.move_zone(i["hand"], "battlefield")),
    ("destroy", _mtg, Magic, "replace_zone_change", lambda w, i: w.destroy([i["bear"], i["elk"]])),
    ("sacrifice", _mtg, Magic, "replace_zone_change", lambda w, i: w.sacrifice(i["elk"])),
    ("sacrifice few", _mtg, Magic, "sacrifice_zone", lambda w, i: w.sacrifice([i["elk"], i["source"]])),
    ("deal_damage wither", _mtg, Magic, "place",
     lambda w, i: w.deal_damage([i["bear"], i["elk"], i["walker"]], 1, wither=True, unpreventable=True)),
    ("deal_damage wither one", _mtg, Magic, "place", lambda w, i: w.deal_damage(i["elk"], 1, wither=True)),
    ("deal_damage infect", _mtg, Magic, "place",
     lambda w, i: w.deal_damage([i["elk"], i["p"]], 1, source=i["source"], infect=True)),
    ("deal_damage", _mtg, Magic, "deal_damage", lambda w, i: w.deal_damage([i["elk"], i["walker"]], 1)),
    ("cleanup", _mtg, Magic, "cleanup", lambda w, i: w.cleanup()),
    ("set_controller", _mtg, Magic, "control_changed", lambda w, i: w.set_controller(i["bear"], i["q"])),
    ("begin_main_phase", _mtg, Magic, "replace_zone_change", lambda w, i: w.begin_main_phase(i["p"])),
    ("draw", _mtg, Magic, "replace_zone_change", lambda w, i: w.draw(i["p"], 2)),
    ("mill", _mtg, Magic, "replace_zone_change", lambda w, i: w.mill(i["p"], 2)),
    ("ga put_counters buff", _ga, GrandArchive, "place", lambda w, i: w.put_counters(i["ally"], "buff", 2)),
    ("ga move_counters", _ga, GrandArchive, "place", lambda w, i: w.move_counters(i["ally"], i["ally2"], "charge")),
    ("ga add_object durability", _ga, GrandArchive, "place",
     lambda w, i: w.add_object(i["p"], {"ally"}, power=1, life=1, durability=2)),
    ("ga deal_damage champion", _ga, GrandArchive, "place",
     lambda w, i: w.deal_damage([i["champion"], i["ally2"]], 2)),
    ("ga deal_damage one", _ga, GrandArchive, "place", lambda w, i: w.deal_damage(i["champion"], 2)),
    ("ga cleanup", _ga, GrandArchive, "cleanup", lambda w, i: w.cleanup()),
    ("ga sacrifice", _ga, GrandArchive, "replace_zone_change",
     lambda w, i: w.sacrifice([i["regalia"], i["ally2"]])),
    ("ga activate_enlighten", _ga, GrandArchive, "replace_zone_change",
     lambda w, i: w.activate_enlighten(i["champion"])),
    ("ga move_zone enters", _ga, GrandArchive, "place", lambda w, i: w.move_zone(i["hand"], "field")),
]


@pytest.mark.parametrize("path", ["scalar", "general"])
@pytest.mark.parametrize("batch", [1, 3])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_an_action_whose_host_hook_raises_in_atomic_changes_nothing(case: Case, batch: int, path: str) -> None:
    """122.6 / 614.1a (a host's replacement effects as ruleset hooks): an action in
    ``atomic()`` whose hook raises after the action wrote something raises the host's
    exception as it is and changes nothing: every store array, the event log and its step,
    the generator."""
    _, build, base, hook, act = case
    w, ids = build(batch)
    w.ruleset = _refusing(base, hook)
    with run_on(path):
        before = full_state(w)
        with pytest.raises(Refused) as raised, w.atomic():
            act(w, ids)
        after = full_state(w)
    assert type(raised.value) is Refused and raised.value.args == (hook,)
    assert after == before


@pytest.mark.parametrize("batch", [1, 3])
def test_704_3_a_tick_whose_host_hook_raises_in_atomic_changes_nothing(batch: int) -> None:
    """704.3: a tick performs check after check; a host's zone-change hook raising in the
    first check's perform, inside ``atomic()``, leaves no check performed."""
    w, ids = _mtg(batch)
    w.ruleset = _refusing(Magic, "replace_zone_change")
    before = full_state(w)
    with pytest.raises(Refused), w.atomic():
        w.tick()   # 704.5f: the 1/1 with a -1/-1 counter dies
    assert full_state(w) == before


@pytest.mark.parametrize("batch", [1, 3])
def test_a_host_effect_of_several_actions_is_undone_whole_by_bad_input(batch: int) -> None:
    """A host's effect made of several actions (counters put, then moved, then a bad
    kind): the bad input raises its CounterError and the block's earlier actions are undone
    too; a block that raises nothing keeps everything, as the same calls outside one."""
    w, ids = _mtg(batch)
    before = full_state(w)
    with pytest.raises(CounterError), w.atomic():
        w.put_counters(ids["bear"], "charge", 2)
        w.move_counters(ids["bear"], ids["elk"], "charge", 3)
        w.put_counters(ids["elk"], "not a kind!", 1)
    assert full_state(w) == before
    plain, _ = _mtg(batch)
    with w.atomic():
        w.put_counters(ids["bear"], "charge", 2)
        with w.atomic():   # (nested: the inner block is part of the outer)
            w.move_counters(ids["bear"], ids["elk"], "charge", 3)
    plain.put_counters(ids["bear"], "charge", 2)
    plain.move_counters(ids["bear"], ids["elk"], "charge", 3)
    assert full_state(w) == full_state(plain)
