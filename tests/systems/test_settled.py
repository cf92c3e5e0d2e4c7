"""The pre-check of the state-based systems (systems.settled) against the systems.

The schedule runs a covered system only where the probe's bit for it acts, so a clear
bit must mean the system decides nothing (704.3: then leaving it out of the simultaneous
check changes nothing). On random states (objects of every type, tokens in other zones,
counters of the kinds the checks read, caps, marked and deathtouch damage, holds, host
P/T effects, players at low life, poisoned, protected, or who drew from an empty library,
Two-Headed Giant, batches whose games differ), for the first check and for every re-check
a tick makes (``Check.live`` and ``Check.touched``): each covered system decides something
exactly when its bit acts (EmptyDraw's bit is its guard: only "clear means nothing").
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

import ecs
from ecs import World
from ecs.check import Check, When
from ecs.perform import perform
from ecs.rules import Magic
from ecs.schedule import Schedule
from ecs.systems import CapEnforcement, EmptyDraw, GAStateChecks, settled

ALL_PARTS = (settled.ZONE_CHANGE | settled.ANNIHILATION | settled.CAPS | settled.DEATHS
             | settled.LOSSES | settled.EMPTY_DRAW)
TYPES = [("creature",), ("creature",), ("creature", "artifact"), ("planeswalker",),
         ("battle",), ("artifact",), ("land",)]
KINDS = ["+1/+1", "-1/-1", "+1/+1", "-1/-1", "+0/+1", "-0/-1", "indestructible", "loyalty",
         "defense", "charge", "shield"]
ZONES = ["battlefield"] * 5 + ["graveyard", "hand", "exile"]


def _try(f: Any, *a: Any, **k: Any) -> None:
    try:
        f(*a, **k)
    except ecs.CounterError:   # an action the rules refuse: the state is unchanged
        pass


def random_world(seed: int, batch: int, thg: bool) -> World:
    rng = np.random.default_rng(seed)
    w = World(batch=batch, two_headed_giant=thg)

    def some() -> Any:   # the games an action applies to: all, or a random subset
        if batch == 1 or rng.random() < 0.5:
            return None
        return np.flatnonzero(rng.random(batch) < 0.5).tolist() or [0]

    players = [w.add_player(team=i // 2) if thg else w.add_player() for i in range(4 if thg else 2)]
    for _ in range(int(rng.integers(1, 14))):
        types = TYPES[rng.integers(len(TYPES))]
        e = w.add_object(players[rng.integers(len(players))], types,
                         zone=ZONES[rng.integers(len(ZONES))], token=bool(rng.random() < 0.3),
                         power=1,
                         toughness=int(rng.integers(0, 4)) if "creature" in types else None,
                         loyalty=int(rng.integers(0, 3)) if "planeswalker" in types else None,
                         defense=int(rng.integers(0, 3)) if "battle" in types else None,
                         games=some())
        for _ in range(int(rng.integers(0, 4))):
            _try(w.put_counters, e, KINDS[rng.integers(len(KINDS))], int(rng.integers(1, 4)),
                 games=some(), where="present")
        if rng.random() < 0.2:
            _try(w.set_cap, e, KINDS[rng.integers(4)], int(rng.integers(0, 3)), games=some())
        if rng.random() < 0.3:
            _try(w.deal_damage, e, int(rng.integers(1, 4)), deathtouch=bool(rng.random() < 0.3),
                 games=some(), where="present")
        if rng.random() < 0.1:
            _try(w.set_hold, e, True, games=some())
        if rng.random() < 0.1:
            _try(w.modify_pt, e, 0, int(rng.integers(-2, 3)), games=some())
    for p in players:
        if rng.random() < 0.3:
            _try(w.lose_life, p, int(rng.integers(15, 45)), games=some())
        if rng.random() < 0.2:
            _try(w.put_counters, p, "poison", int(rng.integers(5, 16)), games=some())
        if rng.random() < 0.2:
            _try(w.set_cant_lose, p, ["life", "poison"][rng.integers(2)], games=some())
        if rng.random() < 0.15:
            _try(w.draw, p, 1, games=some())   # an empty library: 704.5b at the next check
    return w


def assert_probe_agrees(w: World, live: np.ndarray | None, touched: np.ndarray | None) -> None:
    acting = settled.PROBE.acting(w, live, touched, ALL_PARTS)
    for system in w.systems:
        if getattr(system, "when", When.EVERY_CHECK) != When.EVERY_CHECK:
            continue
        decided = Check(live=live, touched=touched)
        system.process(w, decided)
        bit = type(system).part & acting
        if isinstance(system, EmptyDraw):
            assert bit or decided.empty(), "EmptyDraw decided with its bit clear"
        else:
            assert bool(bit) == (not decided.empty()), (type(system).__name__, acting, decided)


def bounded(w: World, acted: int) -> None:
    """A tick done by hand stops as ``tick()`` does where its checks still act after
    ``max_passes`` (SBALoopError there): a system that keeps deciding what was done (a
    loss of a player who has lost) fails the test instead of looping on."""
    if acted > w.max_passes:
        raise AssertionError(f"the checks still act after {w.max_passes} passes (704.3)")


def probe_through_a_tick(w: World) -> int:
    """Check the probe at every check of a tick done by hand as ``ecs.schedule.tick``
    does it (all systems run); returns the checks that acted."""
    live = touched = None
    acted = 0
    s = w.store
    while True:   # (at most max_passes + 1 checks: ``bounded``)
        assert_probe_agrees(w, live, touched)
        check = w.schedule.run(w, Check(live=live, touched=touched))
        if np.count_nonzero(s.a["deathtouch_hit"]):
            s.mut("deathtouch_hit")[w.ongoing] = False
        if check.empty():
            return acted
        acted += 1
        bounded(w, acted)
        w.log.next_step()
        touched = perform(w, check)
        live = check.games_named(w.batch) & w.ongoing
        if not live.any():
            return acted


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([1, 1, 3]), st.booleans())
def test_704_3_a_clear_probe_bit_means_the_system_decides_nothing(seed: int, batch: int,
                                                                   thg: bool) -> None:
    w = random_world(seed, batch, thg)
    twin = w.clone()
    assert probe_through_a_tick(w) == twin.tick()   # the schedule's tick agrees
    assert settled.PROBE.acting(twin, None, None, ALL_PARTS) & ~settled.EMPTY_DRAW == 0


def test_704_3_a_settled_check_runs_no_system() -> None:
    """A board with nothing to do: the schedule's check is None (no Check, no system run)
    and the tick performs nothing; one with something to do gets the systems' check."""
    w = World()
    p = w.add_player()
    e = w.add_object(p, "creature", power=2, toughness=2, counters={"+1/+1": 1})
    assert w.schedule.check(w, None, None) is None and w.tick() == 0
    w.put_counters(e, "-1/-1", 1)
    check = w.schedule.check(w, None, None)
    assert check is not None and [r.cause for r in check.removals] == ["704.5q"]


def test_704_3_a_replaced_process_is_not_trusted() -> None:
    """A system whose decisions the probe does not cover (a subclass, a replaced process)
    always runs: its decisions reach the check even where the probe sees nothing."""
    class Hosted(CapEnforcement):
        def process(self, world: Any, pending: Check) -> None:
            pending.lose(np.array([0]), np.array([0]), "704.5a")

    w = World()
    a, b = w.add_player(), w.add_player()
    w.schedule = Schedule([Hosted])
    w.tick()
    assert w.has_lost(a) and not w.has_lost(b)


def test_704_3_a_replaced_process_has_its_decisions_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A covered system whose ``process`` was replaced runs as a host's does: what it
    decides is checked before anything is applied (a removal from a column no object has:
    IllegalActionError naming it), and nothing changes."""
    def stray(self: Any, world: Any, pending: Check) -> None:
        pending.remove(0, np.array([0]), np.array([10**6]), np.array([1]), "704.5r")

    w = World()
    p = w.add_player()
    bear = w.add_object(p, "creature", power=1, toughness=1, counters={"+1/+1": 1})
    monkeypatch.setattr(CapEnforcement, "process", stray)
    with pytest.raises(ecs.IllegalActionError, match="column 1000000 is outside"):
        w.tick()
    assert w.counters(bear) == {"+1/+1": 1}


GA_TYPES = [("champion",), ("ally",), ("ally",), ("weapon",), ("weapon", "item"), ("item",),
            ("regalia",)]
GA_KINDS = ["buff", "debuff", "buff", "damage", "durability", "durability", "charge"]
GA_ZONES = ["field"] * 5 + ["graveyard", "hand", "banishment"]


def random_ga_world(seed: int, batch: int) -> World:
    """A Grand Archive board of three players (one's loss leaves a game going): units with
    life, buff/debuff and damage counters, marked damage, weapons with durability, immortal
    objects, host life effects, champions destroyed (Ending the Game 5) and empty draws."""
    rng = np.random.default_rng(seed)
    w = World(ruleset="grand_archive", batch=batch)

    def some() -> Any:
        if batch == 1 or rng.random() < 0.5:
            return None
        return np.flatnonzero(rng.random(batch) < 0.5).tolist() or [0]

    players = [w.add_player() for _ in range(3)]
    champions = [w.add_object(p, "champion", life=int(rng.integers(1, 6)), power=1) for p in players]
    for p in players:
        if rng.random() < 0.3:   # a second champion: losing the first is no loss
            w.add_object(p, "champion", life=int(rng.integers(1, 6)), power=1, games=some())
    for _ in range(int(rng.integers(1, 12))):
        types = GA_TYPES[rng.integers(len(GA_TYPES))]
        unit = "ally" in types or "champion" in types
        zone = GA_ZONES[rng.integers(len(GA_ZONES))]
        if "champion" in types and zone == "graveyard":   # banished instead (Champion 8)
            zone = "banishment"
        e = w.add_object(players[rng.integers(len(players))], types,
                         zone=zone, token=bool(rng.random() < 0.2),
                         power=1 if unit else None, life=int(rng.integers(0, 4)) if unit else None,
                         durability=int(rng.integers(0, 3)) if "weapon" in types and rng.random() < 0.8 else None,
                         games=some())
        for _ in range(int(rng.integers(0, 4))):
            _try(w.put_counters, e, GA_KINDS[rng.integers(len(GA_KINDS))], int(rng.integers(1, 4)),
                 games=some(), where="present")
        if rng.random() < 0.3:
            _try(w.deal_damage, e, int(rng.integers(1, 4)), games=some(), where="present")
        if rng.random() < 0.15:
            _try(w.set_immortal, e, True, games=some())
        if rng.random() < 0.1:
            _try(w.modify_pt, e, 0, int(rng.integers(-2, 3)), games=some())
    for p, champion in zip(players, champions):
        if rng.random() < 0.3:
            _try(w.deal_damage, champion, int(rng.integers(1, 6)), games=some())
        if rng.random() < 0.25:
            _try(w.destroy, champion, games=some())   # it leaves the field: Ending the Game 5
        if rng.random() < 0.1:
            _try(w.draw, p, 1, games=some())          # an empty deck: a loss at the next check
    return w


def assert_ga_probe_agrees(w: World, live: np.ndarray | None, touched: np.ndarray | None) -> None:
    """As ``assert_probe_agrees``, for GAStateChecks: a clear bit means it decides nothing;
    the bit may act without a decision only where a player in a game looked at has lost or
    drew from an empty deck (the probe does not look further there)."""
    acting = settled.PROBE.acting(w, live, touched, settled.ZONE_CHANGE | settled.CAPS | settled.GA_CHECKS)
    looked = w.ongoing if live is None else live & w.ongoing
    flagged = (w.store.a["lost"] | w.store.a["drew_empty"])[looked].any()
    for system in w.systems:
        if getattr(system, "when", When.EVERY_CHECK) != When.EVERY_CHECK:
            continue
        decided = Check(live=live, touched=touched)
        system.process(w, decided)
        bit = bool(type(system).part & acting)
        if isinstance(system, GAStateChecks):
            assert bit or decided.empty(), "GAStateChecks decided with its bit clear"
            assert bit == (not decided.empty()) or flagged, (acting, decided)
        else:
            assert bit == (not decided.empty()), (type(system).__name__, acting, decided)


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([1, 1, 3]))
def test_ga_types_of_checks_a_clear_probe_bit_means_the_checks_decide_nothing(seed: int, batch: int) -> None:
    """Types of Checks 1-3 and Ending the Game 5, 7 (the GA rules): the probe's
    Grand Archive part against GAStateChecks at every check of a tick, and the schedule's
    tick (which skips the checks where the bit is clear) against one that runs them all."""
    w = random_ga_world(seed, batch)
    twin = w.clone()
    live = touched = None
    acted = 0
    while True:   # (at most max_passes + 1 checks: ``bounded``)
        assert_ga_probe_agrees(w, live, touched)
        check = w.schedule.run(w, Check(live=live, touched=touched))
        if check.empty():
            break
        acted += 1
        bounded(w, acted)
        w.log.next_step()
        touched = perform(w, check)
        live = check.games_named(w.batch) & w.ongoing
        if not live.any():
            break
    assert twin.tick() == acted
    np.testing.assert_array_equal(twin.store.counts, w.store.counts)
    np.testing.assert_array_equal(twin.store.a["zone"], w.store.a["zone"])
    assert settled.PROBE.acting(twin, None, None, settled.GA_CHECKS) & settled.GA_CHECKS == 0 or (
        (twin.store.a["lost"] | twin.store.a["drew_empty"])[twin.ongoing].any())


def _unprobed(*args: Any) -> int:
    raise AssertionError("the probe's kernel was called where it is not ready")


@pytest.mark.parametrize("seed", range(6))
def test_704_3_where_the_probe_kernel_is_not_compiled_the_systems_run(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The probe's kernel is optional (``ecs.kernels``): in a process that has not compiled
    it (a batched run's) the probe answers "all" without calling it, the systems run, and
    a tick does what it does with the probe: the same checks, state and events."""
    w = random_world(seed, 1, seed % 2 == 1)
    twin = w.clone()
    with_probe = twin.tick()
    monkeypatch.setattr(settled.kernels, "frozen", lambda dispatcher: False)
    monkeypatch.setattr(settled, "_acting", _unprobed)
    monkeypatch.setattr(settled, "_ENTRY", _unprobed)
    assert settled.PROBE.acting(w, None, None, ALL_PARTS) == ALL_PARTS
    assert w.tick() == with_probe
    np.testing.assert_array_equal(w.store.counts, twin.store.counts)
    for name, column in twin.event_table().items():
        np.testing.assert_array_equal(w.event_table()[name], column, err_msg=name)


def test_704_6a_a_two_headed_giant_team_loses_once_a_teammates_cant_lose_ends() -> None:
    """810.8: a teammate's "can't lose" keeps the team at 0 life in; once it ends, the next
    check finds the team's loss (704.6a). The probe's player rules of a Two-Headed Giant game
    are made from the flags' values at each call, never kept from an earlier one."""
    w = World(two_headed_giant=True)
    a, b = w.add_player(team=0), w.add_player(team=0)
    c, _ = w.add_player(team=1), w.add_player(team=1)
    w.set_cant_lose(b, "life")
    w.lose_life(a, 30)
    assert w.tick() == 0 and w.tick() == 0 and not w.has_lost(a)
    w.set_cant_lose(b, "life", False)
    assert w.tick() == 1
    assert w.has_lost(a) and w.has_lost(b) and w.result() == c   # the other team wins (104.2a)


@pytest.mark.parametrize("write", [False, True])
def test_704_3_a_schedule_assigned_after_a_settled_tick_checks_with_its_own_systems(write: bool) -> None:
    """Settled under a schedule without Lethality (the probe asked about CapEnforcement
    alone), a creature at toughness 0 lives; under the ruleset's schedule, assigned after
    that tick (no restore between), the next tick asks the probe about every system of the
    new schedule and the creature dies (704.5f), with or without a write between."""
    w = World(seed=1)
    p, _ = w.add_player(), w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    other = w.add_object(p, "artifact")
    full = w.schedule
    w.schedule = Schedule([CapEnforcement])
    w.put_counters(bear, "-1/-1", 2)
    assert w.tick() == 0 and w.exists(bear)
    w.schedule = full
    if write:   # (a write: the probe's cached arguments are re-armed, not reused as they are)
        w.put_counters(other, "charge", 1)
    assert w.tick() == 1 and not w.exists(bear)


def test_704_5a_b_the_one_player_of_a_game_loses() -> None:
    """A World of one player: life 0 (704.5a) and a draw from an empty library (704.5b) each
    end its game, in which that player lost (104.4a: every player lost, a draw)."""
    for act in ("life", "draw"):
        w = World()
        p = w.add_player()
        if act == "life":
            w.lose_life(p, 20)
        else:
            w.draw(p, 1)
        assert w.tick() == 1 and w.has_lost(p) and w.result() == "draw", act


def test_704_3_wide_checks_and_rechecks_run_the_systems() -> None:
    """Past the probe's width (``settled.WIDE`` objects in a first check, ``WIDE_TOUCHED``
    touched slots in a re-check) it answers "all" without looking, every time it is asked:
    the systems decide, and what dies dies (704.5f), a token in the graveyard ceases (704.5d),
    and a deathtouch mark is cleared after the check (704.5h: "since the last check")."""
    w = World(seed=4)
    p, q = w.add_player(), w.add_player()
    w.add_objects(settled.WIDE, q, "artifact")
    bear = w.add_object(p, "creature", power=2, toughness=2)
    wall = w.add_object(p, "creature", power=0, toughness=4, counters={"indestructible": 1})
    w.put_counters(bear, "-1/-1", 2)
    w.deal_damage(wall, 1, deathtouch=True)
    parts = settled.ZONE_CHANGE | settled.DEATHS
    assert settled.acting(w, None, None, parts) == settled.acting(w, None, None, parts) == parts
    assert w.tick() == 1 and not w.exists(bear)
    w.remove_counters(wall, "indestructible", 1)
    assert w.tick() == 0 and w.exists(wall)

    w = World(seed=4)
    p = w.add_player()
    tokens = w.add_objects(settled.WIDE_TOUCHED + 1, p, "creature", power=1, toughness=0, token=True)
    assert w.tick() == 2
    assert not any(w.exists(int(t)) for t in tokens)


@pytest.mark.parametrize("acting_game", [0, 1, 2])
def test_704_5f_a_batch_where_one_game_has_work_checks_that_game(acting_game: int) -> None:
    """A batch of three games where only one (the first, a middle or the last) has a
    creature at toughness 0: the probe's first check of the batch names Lethality's part,
    the tick puts that creature into its owner's graveyard (704.5f) and the other games'
    stay; the next tick has nothing to do."""
    w = World(batch=3)
    p, _ = w.add_player(), w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    w.put_counters(bear, "-1/-1", 2, games=[acting_game])
    assert settled.acting(w, None, None, settled.DEATHS) == settled.DEATHS
    assert w.tick() == 1
    assert np.asarray(w.exists(bear)).tolist() == [g != acting_game for g in range(3)]
    assert w.tick() == 0


@pytest.mark.parametrize("part", ["annihilation", "cap"])
def test_704_5q_r_a_recheck_probe_looks_at_the_touched_slot(part: str) -> None:
    """A re-check asked about the touched slots (``Check.touched``: game * capacity +
    column) of a batch: a permanent there with +1/+1 and -1/-1 counters (704.5q) or more
    counters than its cap (704.5r) acts, in the game looked at only; the same permanent
    left out of the touched slots is not looked at."""
    w = World(batch=2)
    p, _ = w.add_player(), w.add_player()
    w.add_object(p, "artifact")
    e = w.add_object(p, "creature", power=2, toughness=4)
    if part == "annihilation":
        w.put_counters(e, "+1/+1", 1, games=[1])
        w.put_counters(e, "-1/-1", 1, games=[1])
        bit = settled.ANNIHILATION
    else:
        w.put_counters(e, "+1/+1", 3, games=[1])
        w.set_cap(e, "+1/+1", 1, games=[1])   # (a cap set below the count: 704.5r's case)
        bit = settled.CAPS
    s = w.store
    slot = np.array([1 * s.capacity + s.present(1, e)], np.int64)
    both, second = np.array([True, True]), np.array([False, True])
    assert settled.acting(w, both, slot, bit) == bit
    assert settled.acting(w, second, slot, bit) == bit
    assert settled.acting(w, np.array([True, False]), slot, bit) == 0   # game 1 not looked at
    other = np.array([1 * s.capacity + s.present(1, e) - 1], np.int64)   # the artifact's slot
    assert settled.acting(w, both, other, bit) == 0


def test_704_5f_a_hold_released_then_cloned_dies_in_the_original_too() -> None:
    """A held creature at toughness 0 stays through settled ticks (the host's hold); the
    hold released, a clone taken and ticked first (it shares the probe's tables with the
    original), the original's next tick puts its creature into the graveyard too (704.5f):
    the probe's cached arguments of the held state are not reused. A clone taken while it
    was held keeps the hold, and its creature."""
    w = World(seed=3)
    p, _ = w.add_player(), w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2, counters={"-1/-1": 2})
    w.set_hold(bear)
    assert w.tick() == 0 and w.tick() == 0 and w.exists(bear)
    held = w.clone()   # (shares the holds: the release below copies them)
    w.set_hold(bear, False)
    twin = w.clone()
    assert twin.tick() == 1 and not twin.exists(bear)
    assert w.tick() == 1 and not w.exists(bear)
    assert held.tick() == 0 and held.exists(bear)


def test_704_5g_a_snapshot_of_an_array_replaced_after_a_settled_tick_is_not_settled() -> None:
    """After a settled tick the damage array is replaced (not written through the store's
    ``mut``: its version changes, its settled mark is not cleared); a snapshot taken then is
    not settled, so restoring it, the next tick checks and the creature with lethal damage
    dies (704.5g)."""
    w = World(seed=2)
    p, _ = w.add_player(), w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    assert w.tick() == 0
    w.store.a["damage"] = np.full_like(w.store.a["damage"], 2)
    snap = w.snapshot()
    assert snap["settled"] is None
    w.restore(snap)
    assert w.tick() == 1 and not w.exists(bear)


def test_704_5f_a_batch_of_exactly_the_probes_width_checks_its_last_game() -> None:
    """At exactly ``settled.WIDE`` objects (games x columns) the probe still looks, a chunk
    of games at a time: a creature at toughness 0 in the last game alone is found (704.5f)."""
    batch = 4
    w = World(batch=batch)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    w.add_objects(settled.WIDE // batch - w.store.n_cols, p, "artifact")
    assert batch * w.store.n_cols == settled.WIDE
    w.put_counters(bear, "-1/-1", 2, games=[batch - 1])
    assert settled.acting(w, None, None, settled.DEATHS) == settled.DEATHS
    assert w.tick() == 1
    assert np.asarray(w.exists(bear)).tolist() == [True] * (batch - 1) + [False]


def test_704_5f_the_probe_asks_by_a_ruleset_installed_since_its_arguments_were_cached() -> None:
    """704.5f: the probe's arguments cached under one ruleset (the changes per counter its
    passes read) are not reused once the World plays by another, whose "growth" counters
    take a creature's toughness to 0: the probe finds it dying, under the same arrays."""
    class Wilt(Magic):   # (a host's ruleset: "growth" counters give -0/-1 each)
        def pt_modifier(self, kind: str) -> tuple[int, int] | None:
            return (0, -1) if kind == "growth" else super().pt_modifier(kind)

    w = World()
    p = w.add_player()
    w.add_object(p, "creature", power=1, toughness=1, counters={"growth": 1})
    parts = settled.DEATHS | settled.LOSSES
    assert settled.acting(w, None, None, parts) == 0   # (cached: Magic counts no growth)
    w.ruleset = Wilt()
    assert settled.acting(w, None, None, parts) & settled.DEATHS
