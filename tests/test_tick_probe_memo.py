"""What the probe hands a one-game tick, against the general path.

In the first check of a one-game tick the probe (``systems.settled``) leaves Lethality the
permanents that die, but those the host holds, and says when no player loses (in a Grand
Archive game where no game ends and nobody leaves, it leaves GAStateChecks what falls,
Types of Checks 2-3); it also says whether any deathtouch mark is set, so the tick clears
the marks (704.5h: damage "since the last check") without looking again. With
``ecs.store.SCALAR_PATHS`` cleared the same ticks take the general path; state and events
must be equal, and each case checks the rule itself too.
"""
from __future__ import annotations

from typing import Callable

import numpy as np
from scalar_paths import general

from ecs import World
from ecs.events import CAUSE
from ecs.systems import settled
from ecs.systems.ga_checks import BY_DAMAGE, BY_DURABILITY, PROBED_FALLING
from ecs.systems.lethality import NO_LOSSES, PROBED_DYING


def _both(build: Callable[[], tuple[World, list[int]]]) -> tuple[World, World, list[int]]:
    """The board ticked on the scalar paths and on the general ones; equal event tables."""
    fast, ids = build()
    fast.tick()
    with general():
        slow, _ = build()
        slow.tick()
    a, b = fast.event_table(), slow.event_table()
    assert a.keys() == b.keys()
    for name in a:
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)
    return fast, slow, ids


def _deaths_and_a_hold() -> tuple[World, list[int]]:
    w = World(seed=5)
    p, q = w.add_player(), w.add_player()
    dead = [w.add_object(p, "creature", power=1, toughness=t) for t in (1, 2, 3)]
    held = w.add_object(q, "creature", power=1, toughness=1)
    for e in dead + [held]:
        w.put_counters(e, "-1/-1", 3)
    w.set_hold(held)
    return w, dead + [held]


def test_704_5f_the_probed_deaths_leave_the_held_permanent():
    fast, slow, ids = _both(_deaths_and_a_hold)
    for w in (fast, slow):
        assert [w.exists(e) for e in ids] == [False, False, False, True]   # 704.5f; the hold stays
        assert w.result() == "ongoing"


def _deaths_and_a_loss() -> tuple[World, list[int]]:
    w = World(seed=6)
    p, q = w.add_player(life=3), w.add_player(life=0)
    bear = w.add_object(p, "creature", power=2, toughness=2)
    w.deal_damage(bear, 2)
    return w, [bear, p, q]


def test_704_5a_g_a_loss_beside_a_death_is_not_skipped():
    fast, slow, (bear, p, q) = _both(_deaths_and_a_loss)
    for w in (fast, slow):
        assert not w.exists(bear)          # 704.5g
        assert w.has_lost(q) and not w.has_lost(p)   # 704.5a
        assert w.result() == p             # 104.2a


def test_the_probe_memo_names_the_dying_and_no_loss():
    """The memo itself: the rows that die (not the held one), and no player losing."""
    w, ids = _deaths_and_a_hold()
    memo: dict[str, object] = {}
    found = settled.acting(w, None, None, settled.DEATHS | settled.LOSSES, memo)
    assert found == settled.DEATHS
    rows = memo[PROBED_DYING]
    assert isinstance(rows, np.ndarray)
    assert sorted(rows[1].tolist()) == sorted(w.store.present(0, e) for e in ids[:3])
    assert rows[2].tolist() == [CAUSE["704.5f"]] * 3
    assert memo[NO_LOSSES] is True


def _deathtouch_then_indestructible() -> tuple[World, list[int]]:
    w = World(seed=7)
    p, _ = w.add_player(), w.add_player()
    ind = w.add_object(p, "creature", power=1, toughness=5, counters={"indestructible": 1})
    w.deal_damage(ind, 1, deathtouch=True)
    return w, [ind]


def test_704_5h_marks_cleared_by_the_first_check_of_a_settled_tick():
    fast, slow, (ind,) = _both(_deathtouch_then_indestructible)
    for w in (fast, slow):
        assert not w.store.a["deathtouch_hit"].any()   # the check is past: the mark is gone
        w.remove_counters(ind, "indestructible", 1)
        w.tick()
        assert w.exists(ind)                            # 704.5h: not since the last check


def test_704_5f_an_object_made_after_a_settled_tick_is_checked_by_the_next():
    """A creature with toughness 0 made after settled ticks, in a column the game never
    used, dies on the next tick (704.5f): the probe's cached arguments follow the
    store's columns."""
    w = World(seed=5)
    p = w.add_player()
    w.add_objects(3, p, "creature", power=1, toughness=1)
    w.tick()
    w.tick()   # settled: the probe's arguments are cached
    e = w.add_object(p, "creature", power=1, toughness=0)
    w.tick()
    assert not w.exists(e)
    assert len(w.objects(zone="graveyard")) == 1   # 400.7: the card, a new object


def _ga_falls() -> tuple[World, list[int]]:
    """A Grand Archive game where an ally takes lethal damage, a weapon has no durability
    counters left and an immortal ally is past its life: what the probe finds falling."""
    w = World(ruleset="grand_archive", seed=8)
    p, q = w.add_player(), w.add_player()
    w.add_object(p, "champion", life=20)
    w.add_object(q, "champion", life=20)
    ally = w.add_object(p, "ally", power=1, life=2)
    weapon = w.add_object(q, "weapon", durability=1)
    undying = w.add_object(q, "ally", power=1, life=1)
    w.set_immortal(undying)
    w.deal_damage(ally, 2)
    w.deal_damage(undying, 3)
    w.remove_counters(weapon, "durability", 1)
    return w, [ally, weapon, undying]


def test_ga_types_of_checks_2_3_the_probed_falls_equal_the_general_path():
    """Types of Checks 2 (the ally dies by damage) and 3 (the weapon at 0 durability is
    destroyed) from the probe's rows; Immortality 1.1 keeps the immortal ally."""
    fast, slow, (ally, weapon, undying) = _both(_ga_falls)
    for w in (fast, slow):
        assert not w.exists(ally) and not w.exists(weapon) and w.exists(undying)
        assert w.result() == "ongoing"


def test_the_probe_memo_names_what_falls_only_where_no_game_ends():
    """The memo: the rows ``falling`` finds, by damage and by durability; none once a
    champion has left the field (Ending the Game 5 is then asked first)."""
    w, (ally, weapon, _) = _ga_falls()
    memo: dict[str, object] = {}
    assert settled.acting(w, None, None, settled.GA_CHECKS, memo) == settled.GA_CHECKS
    rows = memo[PROBED_FALLING]
    assert isinstance(rows, np.ndarray)
    cols = [w.store.present(0, e) for e in (ally, weapon)]
    assert dict(zip(rows[1].tolist(), rows[2].tolist())) == {cols[0]: BY_DAMAGE, cols[1]: BY_DURABILITY}
    champion = int(w.objects(zone="battlefield")[0])
    w.destroy(champion)
    memo.clear()
    assert settled.acting(w, None, None, settled.GA_CHECKS, memo) == settled.GA_CHECKS
    assert PROBED_FALLING not in memo


def test_the_general_paths_get_no_memo_from_the_probe():
    """The probe fills the memo on the scalar paths only: with them cleared the systems find
    what dies (and what falls) themselves, so the comparisons above compare two paths."""
    for build, parts in ((_deaths_and_a_hold, settled.DEATHS | settled.LOSSES), (_ga_falls, settled.GA_CHECKS)):
        w, _ = build()
        memo: dict[str, object] = {}
        with general():
            assert settled.acting(w, None, None, parts, memo) == parts & ~settled.LOSSES
        assert memo == {}
        assert settled.acting(w, None, None, parts, memo) == parts & ~settled.LOSSES and memo
