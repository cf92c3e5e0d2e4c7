"""ecs.schedule: a tick of a state that a tick of the same schedule left settled, unwritten
since, looks at nothing (``Store.settled``); every write, restore and replaced array or
schedule makes the next tick check again (704.3), and a differential run against ticks that
always check (``scalar_paths.general``) gives the same states, events and tick results."""
from __future__ import annotations

import abc
import copy
import pickle
from typing import Any, Callable

import esper
import numpy as np
import pytest
from host_rules import Thaw
from hypothesis import example, given, settings
from hypothesis import strategies as st
from profiles import examples
from scalar_paths import general

from ecs import IllegalActionError, World
from ecs.args import FEW
from ecs.check import Check, Probe, System, SystemType, When
from ecs.schedule import Schedule
from ecs.systems.lethality import Lethality


def _board() -> tuple[World, dict[str, int]]:
    w = World(seed=3)
    p, q = w.add_player(life=5), w.add_player()
    ids = {"p": p, "q": q,
           "bear": w.add_object(p, "creature", power=2, toughness=2),
           "wall": w.add_object(q, "creature", power=0, toughness=4),
           "token": w.add_object(q, "creature", power=1, toughness=1, token=True),
           "walker": w.add_object(p, "planeswalker", loyalty=3)}
    assert w.tick() == 0
    return w, ids


def _checks(w: World, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the checks the World's ticks make from now on."""
    made: list[int] = []
    schedule = w.schedule
    real = schedule._check

    def spy(*args: Any) -> Any:
        made.append(1)
        return real(*args)

    monkeypatch.setattr(schedule, "_check", spy)
    return made


def test_a_tick_of_an_unwritten_settled_state_makes_no_check_704_3(monkeypatch: pytest.MonkeyPatch) -> None:
    w, ids = _board()
    made = _checks(w, monkeypatch)
    assert w.tick() == 0 and w.tick() == 0 and not made
    w.clear_events()   # the log is not the state
    w.count(ids["bear"], "+1/+1")
    assert w.tick() == 0 and not made
    w.put_counters(ids["bear"], "+1/+1", 1)   # a write: the next tick checks, once
    assert w.tick() == 0 and len(made) == 1
    assert w.tick() == 0 and len(made) == 1


@pytest.mark.parametrize("action", ["put_counters", "deal_damage", "set_pt"])
def test_704_3_a_write_by_the_general_path_after_a_settled_tick_is_checked_by_the_next(action: str) -> None:
    """Every write ends a settled mark, ``Store.mut``'s too: after a settled tick, an action
    on more objects than a single game's plain-int path takes (``ecs.args.FEW``) writes by
    the general path, and the next tick checks. Each 2/2 dies: two -1/-1 counters
    (704.5f), 2 damage (704.5g), set to 0/0 (704.5f)."""
    w = World(seed=3)
    p = w.add_player()
    ids = w.add_objects(FEW + 1, p, "creature", power=2, toughness=2)
    assert w.tick() == 0 and w.tick() == 0
    if action == "put_counters":
        w.put_counters(ids, "-1/-1", 2)
    elif action == "deal_damage":
        w.deal_damage(ids, 2)
    else:
        w.set_pt(ids, 0, 0)
    assert w.tick() == 1 and not w.objects(zone="battlefield")


def test_a_system_process_replaced_after_a_settled_tick_runs_at_the_next(monkeypatch: pytest.MonkeyPatch) -> None:
    """A schedule trusts its probe only while the processes it covers are those it was
    built for: one replaced after a settled tick (a host's rule, a test's spy) decides at
    the next tick; once put back, the state a replaced process's tick left is checked once
    more, and a tick of that settled state then looks at nothing again."""
    w, _ = _board()
    seen: list[int] = []
    real = Lethality.process
    before = SystemType.replaced

    def spy(self: Any, world: Any, pending: Check) -> None:
        seen.append(1)
        real(self, world, pending)

    monkeypatch.setattr(Lethality, "process", spy)
    assert SystemType.replaced == before + 1
    assert w.tick() == 0 and seen == [1]
    monkeypatch.undo()
    made = _checks(w, monkeypatch)
    assert w.tick() == 0 and made == [1] and seen == [1]
    assert w.tick() == 0 and made == [1]

    class Spare(System, abc.ABC):   # (a host's abstract base of its systems: no metaclass conflict)
        def process(self, game: Any, check: Check) -> None:  # pragma: no cover - never run
            pass
    del Spare.process
    assert SystemType.replaced == before + 3   # set, put back, deleted


def test_a_state_a_replaced_process_left_is_checked_again_once_it_is_put_back_704_5f(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """704.3, 704.5f: a tick under a host's replaced Lethality process that kills nothing
    leaves a creature with toughness 0 on the battlefield; with the ruleset's own process
    back, the next tick checks that state (it was not settled under the rules now in
    force) and the creature dies."""
    w, _ = _board()
    p = w.players()[0]
    doomed = w.add_object(p, "creature", power=1, toughness=1)
    w.tick()

    def spared(self: Any, world: Any, pending: Check) -> None:   # the host's rule: nothing dies
        pass

    monkeypatch.setattr(Lethality, "process", spared)
    w.put_counters(doomed, "-1/-1", 1)
    assert w.tick() == 0 and w.zone(doomed) == "battlefield"
    monkeypatch.undo()
    assert w.tick() == 1 and not w.exists(doomed)


#: Writes after a settled tick, each making a state-based action happen at the next tick.
WRITES: dict[str, tuple[Callable[[World, dict[str, int]], Any], Callable[[World, dict[str, int]], bool]]] = {
    "704.5f -1/-1 counters": (lambda w, i: w.put_counters(i["bear"], "-1/-1", 2),
                              lambda w, i: not w.exists(i["bear"])),
    "704.5g damage": (lambda w, i: w.deal_damage(i["wall"], 4), lambda w, i: not w.exists(i["wall"])),
    "704.5f a host's toughness": (lambda w, i: w.modify_pt(i["bear"], toughness=-2),
                                  lambda w, i: not w.exists(i["bear"])),
    "704.5a life": (lambda w, i: w.lose_life(i["p"], 5), lambda w, i: bool(w.has_lost(i["p"]))),
    "704.5c poison": (lambda w, i: w.put_counters(i["q"], "poison", 10), lambda w, i: bool(w.has_lost(i["q"]))),
    "704.5d a token leaves": (lambda w, i: w.move_zone(i["token"], "graveyard"),
                              lambda w, i: not w.store.a["token"].any()),   # it ceased to exist
    "704.5i loyalty": (lambda w, i: w.remove_counters(i["walker"], "loyalty", 3),
                       lambda w, i: not w.exists(i["walker"])),
    "704.5g a hold lifted": (lambda w, i: w.set_hold(i["wall"], False),
                             lambda w, i: not w.exists(i["wall"])),
    "an array replaced": (lambda w, i: w.store.a.__setitem__("damage", np.full_like(w.store.a["damage"], 9)),
                          lambda w, i: not w.exists(i["wall"])),
}


@pytest.mark.parametrize("name", WRITES)
def test_every_write_makes_the_next_tick_check(name: str) -> None:
    w, ids = _board()
    if name == "704.5g a hold lifted":   # held with lethal damage, then settled as held
        w.set_hold(ids["wall"], True)
        w.deal_damage(ids["wall"], 4)
        assert w.tick() == 0 and w.exists(ids["wall"])
    write, happened = WRITES[name]
    assert w.tick() == 0 and not happened(w, ids)
    write(w, ids)
    assert w.tick() >= 1 and happened(w, ids), name


def test_a_clone_and_its_source_each_check_their_own_writes() -> None:
    """A clone of a settled state is settled; a write in one makes that one check (704.5f)."""
    w, ids = _board()
    other = w.clone()
    other.put_counters(ids["bear"], "-1/-1", 2)
    assert w.tick() == 0 and w.exists(ids["bear"])
    assert other.tick() == 1 and not other.exists(ids["bear"])
    w.put_counters(ids["bear"], "-1/-1", 2)
    assert w.tick() == 1 and not w.exists(ids["bear"])


def test_a_restored_snapshot_is_settled_only_as_a_tick_of_this_schedule_left_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A settled snapshot restores settled; one taken before a tick, pickled, or restored under
    another schedule (a host's system joins the check) makes the next tick check."""
    w, ids = _board()
    settled = w.snapshot()
    w.put_counters(ids["bear"], "-1/-1", 2)
    lethal = w.snapshot()   # (not ticked)
    made = _checks(w, monkeypatch)
    w.restore(settled)
    assert w.tick() == 0 and not made
    w.restore(lethal)
    assert w.tick() == 1 and not w.exists(ids["bear"]) and made
    made.clear()
    w.restore(pickle.loads(pickle.dumps(settled)))
    assert pickle.loads(pickle.dumps(settled))["settled"] is None
    assert w.tick() == 0 and len(made) == 1

    seen: list[int] = []

    class Host(esper.Processor):   # a host's system: decides from what the store does not hold
        def process(self, game: World, check: Check) -> None:
            seen.append(1)

    w.schedule = w.schedule.with_systems(Host())
    w.restore(settled)
    assert w.tick() == 0 and w.tick() == 0 and len(seen) == 2


def test_a_state_settled_without_a_system_is_checked_by_a_schedule_with_it() -> None:
    """Settled under a schedule without Lethality, a creature with lethal damage lives; the
    same snapshot restored under the ruleset's schedule is checked, and it dies (704.5g)."""
    w, ids = _board()
    full = w.schedule
    w.schedule = Schedule([s for s in full.systems if not isinstance(s, Lethality)])
    w.deal_damage(ids["wall"], 4)
    assert w.tick() == 0 and w.exists(ids["wall"])
    snap = w.snapshot()
    w.schedule = full
    w.restore(snap)
    assert w.tick() == 1 and not w.exists(ids["wall"])


ACTIONS = ["put", "put", "remove", "damage", "damage", "deathtouch", "modify_pt", "clear_pt", "hold",
           "unhold", "cap", "move_counters", "proliferate", "add", "move", "lose_life", "destroy",
           "tick", "tick", "tick", "snapshot", "snapshot", "restore", "restore", "clone", "clear_events"]
KINDS = ["+1/+1", "-1/-1", "loyalty", "poison", "charge"]


def _play(steps: list[tuple[str, int, str, int]]) -> tuple[World, list[Any]]:
    w, named = _board()
    ids = list(named.values())
    snaps: list[Any] = [w.snapshot()]
    seen: list[Any] = []
    for op, who, kind, n in steps:
        e = ids[who % len(ids)]
        try:
            if op == "put":
                w.put_counters(e, kind, n)
            elif op == "remove":
                w.remove_counters(e, kind, n)
            elif op == "damage":
                w.deal_damage(e, n)
            elif op == "deathtouch":
                w.deal_damage(e, n, deathtouch=True)
            elif op == "cap":
                w.set_cap(e, kind, n)
            elif op == "move_counters":
                w.move_counters(e, ids[(who + 1) % len(ids)], kind, n)
            elif op == "proliferate":
                w.proliferate(e)
            elif op == "add":   # toughness 0 dies (704.5f)
                ids.append(w.add_object(ids[0], "creature", power=1, toughness=n, token=n % 2 == 1))
            elif op == "move":   # a token put into a graveyard ceases to exist (704.5d)
                new = w.move_zone(e, ("graveyard", "battlefield")[n % 2])
                ids[who % len(ids)] = int(np.asarray(new).ravel()[0])
            elif op == "modify_pt":
                w.modify_pt(e, toughness=-n)
            elif op == "clear_pt":
                w.clear_pt(e)
            elif op in ("hold", "unhold"):
                w.set_hold(e, op == "hold")
            elif op == "lose_life":
                w.lose_life(ids[n % 2], n)
            elif op == "destroy":
                w.destroy(e)
            elif op == "tick":
                seen.append(w.tick())
            elif op == "snapshot":
                snaps.append(w.snapshot())
            elif op == "restore":
                w.restore(snaps[n % len(snaps)])
            elif op == "clone":
                w = w.clone()
            else:
                w.clear_events()
        except Exception as exc:   # the same refusal on both sides
            seen.append(type(exc).__name__)
    seen.append(w.tick())
    return w, seen


@settings(max_examples=examples(100), deadline=None)
@example([("put", 2, "-1/-1", 2)])   # a write after the settled tick (704.5f)
@example([("put", 2, "-1/-1", 2), ("snapshot", 0, "", 0), ("tick", 0, "", 0), ("restore", 0, "", 1)])
@given(st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 5), st.sampled_from(KINDS),
                          st.integers(0, 4)), max_size=30))
def test_skipped_ticks_equal_ticks_that_always_check(steps: list[tuple[str, int, str, int]]) -> None:
    """704.3 on random play (counters and their moves, damage and deathtouch, caps, a host's
    toughness and holds, life, new objects, zone changes, snapshots restored, clones): the
    same tick results, state and events."""
    fast, a = _play(steps)
    with general():
        slow, b = _play(steps)
    assert a == b
    sa, sb = fast.snapshot()["store"], slow.snapshot()["store"]
    assert sa.keys() == sb.keys()
    for k in sa:
        np.testing.assert_array_equal(sa[k], sb[k], err_msg=k)
    ta, tb = fast.event_table(), slow.event_table()
    for k in ta:
        np.testing.assert_array_equal(ta[k], tb[k], err_msg=k)


@pytest.mark.parametrize("systems", [None, 5, "Lethality", [object()], [Lethality, 3]])
def test_a_schedule_of_anything_but_systems_is_refused(systems: Any) -> None:
    """``Schedule`` takes a sequence of systems (esper Processors with ``process``):
    anything else raises IllegalActionError, a CounterError, naming what it got."""
    with pytest.raises(IllegalActionError, match="system"):
        Schedule(systems)


def test_with_systems_inserts_before_the_first_match_or_after_the_last() -> None:
    """``with_systems`` puts a host's systems just before the first system ``before``
    names or just after the last one ``after`` names (by class, class name or instance),
    at the end with neither; the schedule it is called on is unchanged."""
    first, second = Thaw(), Thaw()
    base = Schedule([first, Lethality, second])
    for anchor in (Thaw, "Thaw"):
        after = base.with_systems(Lethality, after=anchor).systems
        assert after[:3] == base.systems and isinstance(after[3], Lethality)
        before = base.with_systems(Lethality, before=anchor).systems
        assert isinstance(before[0], Lethality) and before[1:] == base.systems
    mid = base.with_systems(Lethality, after=first).systems
    assert mid[0] is first and isinstance(mid[1], Lethality) and mid[2:] == base.systems[1:]
    assert base.with_systems(Lethality).systems[:3] == base.systems and len(base.systems) == 3


def test_with_systems_refuses_before_and_after_together_and_an_anchor_it_lacks() -> None:
    """Only one place can be named: ``before=`` and ``after=`` together raise
    IllegalActionError, as does an anchor that is no system of the schedule."""
    base = Schedule([Thaw, Lethality])
    with pytest.raises(IllegalActionError, match="not both"):
        base.with_systems(Thaw, before=Lethality, after=Lethality)
    with pytest.raises(IllegalActionError, match="no system 'Rad'"):
        base.with_systems(Thaw, after="Rad")


@pytest.mark.parametrize("batch", [1, 2])
def test_704_3_a_host_systems_removals_and_a_death_perform_together_in_a_batch(batch: int) -> None:
    """A host's removal decided in the same check as a death (704.3) is performed with it,
    in a batch as in one game: any integer rows a system gives are taken."""
    w = World(batch=batch, seed=0)
    w.schedule = Schedule([*w.ruleset.systems, Thaw])
    p = w.add_player()
    torch = w.add_object(p, "artifact", counters={"ice": 2, "fire": 3})
    bear = w.add_object(p, "creature", power=2, toughness=2, counters={"-1/-1": 2})
    assert w.tick() == 1
    assert np.all(w.count(torch, "fire") == 1) and np.all(w.count(torch, "ice") == 0)
    assert not np.any(w.exists(bear))


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_copied_world_runs_its_systems_once_the_original_is_gone(how: str) -> None:
    """A deep copy or a pickle of a World (what a worker process is sent) plays as the
    original: its beginning-of-main-phase system (rad, 728.1) and a host's own system
    run, though the original and its schedule were freed (the schedule's esper contexts
    are its own, made again for the copy)."""
    import gc

    def made() -> tuple[World, int, int]:
        w = World(seed=0)
        w.schedule = Schedule([*w.ruleset.systems, Thaw])
        p, _ = w.add_player(), w.add_player()
        for _ in range(3):
            w.add_object(p, "creature", zone="library", power=1, toughness=1)
        torch = w.add_object(p, "artifact")
        w.put_counters(p, "rad", 3)
        w.tick()
        return w, p, torch

    def played(w: World, p: int, torch: int) -> tuple[Any, ...]:
        w.put_counters(torch, "ice", 2)
        w.put_counters(torch, "fire", 3)
        ticked = w.tick()
        w.begin_main_phase(p)
        return ticked, w.counters(torch), w.count(p, "rad"), len(w.library(p))

    original, p, torch = made()
    copied = copy.deepcopy(original) if how == "deepcopy" else pickle.loads(pickle.dumps(original))
    del original
    gc.collect()
    assert played(copied, p, torch) == played(*made()) == (1, {"fire": 1}, 0, 0)


class Boon(System):
    """A host's rule for the life bound tests: a player's 'boon' counters are removed and
    give that player ``Boon.life`` life, in one check."""
    causes = ("remove",)
    life = 2**31 - 1

    def process(self, world: Any, check: Check) -> None:
        s = world.store
        boon = s.plane("boon")
        if boon is None:
            return
        boon = boon.copy()
        boon[~check.live_games(world)] = 0
        g, c = np.nonzero(boon)
        if g.size:
            check.remove(s.kind_index["boon"], g, c, boon[g, c].astype(np.int64), "remove")
            players = s.a["controller"][g, c].astype(np.int64)
            check.add_to_players("life", g, players, np.full(g.size, Boon.life, np.int64), "remove")


def test_a_systems_life_change_stops_at_max_life_and_a_huge_one_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A system's life gain stops at MAX_LIFE (a total past it is none an action makes or a
    file holds), however many rows add up; one amount past MAX_COUNT in size is refused at
    the decision (InvalidCountError), before anything changes."""
    from ecs import InvalidCountError
    from ecs.limits import MAX_LIFE
    w = World(seed=0)
    w.schedule = Schedule([*w.ruleset.systems, Boon])
    p = w.add_player(life=MAX_LIFE - 5)
    w.add_player()
    w.put_counters(p, "boon", 3)
    assert w.tick() == 1 and w.life(p) == MAX_LIFE and w.count(p, "boon") == 0
    monkeypatch.setattr(Boon, "life", 2**62)
    w.put_counters(p, "boon", 1)
    with pytest.raises(InvalidCountError, match=f"life change {2**62} of a player is more than {2**31 - 1}"):
        w.tick()
    assert w.life(p) == MAX_LIFE and w.count(p, "boon") == 1


def test_a_tick_of_some_games_leaves_the_others_to_the_next_tick() -> None:
    """A tick of the games an action selected (begin_main_phase's, of game 0) marks nothing
    settled: the next tick of every game checks game 1, where a creature is at toughness 0
    (704.5f)."""
    w = World(batch=2, seed=1)
    p, _ = w.add_player(), w.add_player()
    bear = w.add_object(p, "creature", power=1, toughness=1)
    w.put_counters(bear, "-1/-1", 1, games=[1])
    w.begin_main_phase(p, games=[0])
    assert w.exists(bear).tolist() == [True, True]
    assert w.tick() == 1 and w.exists(bear).tolist() == [True, False]


def test_a_tick_may_make_max_passes_checks_that_act() -> None:
    """704.3: a token at toughness 0 dies in one check and ceases to exist in the next; a
    tick allowed two checks makes both, and one allowed a single check raises SBALoopError."""
    from ecs import SBALoopError
    for passes in (2, 1):
        w = World(seed=2)
        p = w.add_player()
        token = w.add_object(p, "creature", power=1, toughness=0, token=True)
        w.max_passes = passes
        if passes == 2:
            assert w.tick() == 2 and not w.exists(token)
        else:
            with pytest.raises(SBALoopError, match="after 1 checks"):
                w.tick()


class _Windfall(System):
    """A host's beginning-of-main-phase rule: the turn player gains ``life`` life."""
    when = When.MAIN_PHASE
    causes = ("remove",)
    life = 2**62

    def process(self, world: Any, check: Check) -> None:
        phase = check.phase
        assert phase is not None
        check.add_to_players("life", phase.games, phase.player,
                             np.full(phase.games.size, self.life, np.int64), "remove")


def test_a_main_phase_systems_decisions_are_checked_before_anything_is_applied() -> None:
    """A host's phase system (``When.MAIN_PHASE``) is checked as a state-based one is: a
    life change past MAX_COUNT in size is refused at the decision (InvalidCountError), and
    so is a removal from a column no object has (IllegalActionError), nothing changed; a
    fitting decision is applied at the beginning of the main phase."""
    from ecs import InvalidCountError
    w = World(seed=0)
    w.schedule = w.schedule.with_systems(_Windfall())
    p, _ = w.add_player(), w.add_player()
    with pytest.raises(InvalidCountError, match=f"life change {2**62}"):
        w.begin_main_phase(p)
    assert w.life(p) == 20

    class Stray(_Windfall):   # a removal from a column no object has
        def process(self, world: Any, check: Check) -> None:
            games = check.phase.games if check.phase is not None else np.zeros(0, np.int64)
            check.remove(0, games, np.full(games.size, 10**6, np.int64), np.ones(games.size, np.int64), "remove")

    w.schedule = Schedule([*w.ruleset.systems, Stray])
    with pytest.raises(IllegalActionError, match="column 1000000 is outside"):
        w.begin_main_phase(p)
    assert w.life(p) == 20
    w.schedule = Schedule([*w.ruleset.systems, type("Smaller", (_Windfall,), {"life": 3})])
    before = esper.current_world
    w.begin_main_phase(p)
    assert w.life(p) == 23
    assert esper.current_world == before   # (the schedule's esper context was left)


class _Own(Schedule):
    """A host's schedule class, made from its systems alone."""


def test_a_schedule_subclass_pickles_and_copies_as_itself() -> None:
    s = _Own(World().ruleset.systems)
    for made in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s)):
        assert type(made) is _Own and [type(x) for x in made.systems] == [type(x) for x in s.systems]


@pytest.mark.parametrize("batch", [1, 70])
def test_704_5a_a_loss_a_perform_causes_is_found_by_the_recheck(batch: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A host's system (Boon, here draining 5 life) takes a player to -2 life in the first
    check while a token dies; the re-check finds the token in the graveyard (704.5d) and the
    player's loss (704.5a). With 70 games of ~1,000 columns the re-check's probe takes its
    games in two chunks: the loss in the last game (the second chunk) is found after the
    first chunk's 704.5d."""
    monkeypatch.setattr(Boon, "life", -5)
    w = World(batch=batch, seed=2)
    w.schedule = Schedule([*w.ruleset.systems, Boon])
    p, q = w.add_player(life=3), w.add_player()
    if batch > 1:
        w.add_objects(1_000, q, "artifact")
    token = w.add_object(q, "creature", power=1, toughness=0, token=True)
    w.put_counters(p, "boon", 1, games=[batch - 1])
    assert w.tick() == 2
    assert not np.any(w.exists(token))   # died (704.5f), then ceased to exist (704.5d)
    lost = np.atleast_1d(w.has_lost(p))
    assert lost[-1] and not lost[:-1].any()
    assert w.tick() == 0


def test_704_5h_a_tick_of_some_games_keeps_the_deathtouch_marks_of_the_others() -> None:
    """Deathtouch damage marks are "since the last check" of their game: a tick of game 0
    alone (begin_main_phase's selection) leaves game 1's mark, and the next tick of every
    game destroys the creature dealt deathtouch damage there (704.5h)."""
    w = World(batch=2, seed=1)
    p, q = w.add_player(), w.add_player()
    viper = w.add_object(q, "creature", power=1, toughness=1, keywords=["deathtouch"])
    bear = w.add_object(p, "creature", power=2, toughness=4)
    w.deal_damage(bear, 1, source=viper, games=[1])
    w.begin_main_phase(p, games=[0])
    assert w.exists(bear).tolist() == [True, True]
    assert w.tick() == 1 and w.exists(bear).tolist() == [True, False]


def test_a_tick_of_some_games_leaves_a_game_that_ended_in_it_as_it_ended_704_3() -> None:
    """begin_main_phase of game 0 checks its state-based actions before and after the
    phase: where the first check ends the game (704.5a) while a 1/0 token dies (704.5f),
    the check after the phase looks at no ended game, and the token stays in the graveyard
    as the game ended (in game 1, not selected, nothing happens)."""
    w = World(batch=2, seed=1)
    p, q = w.add_player(), w.add_player()
    token = w.add_object(q, "creature", power=1, toughness=0, token=True)
    w.lose_life(q, 20, games=[0])
    w.begin_main_phase(p, games=[0])
    assert w.result().tolist() == [p, -1]
    assert len(w.objects("graveyard", game=0)) == 1 and w.exists(token).tolist() == [False, True]


def test_704_3_each_check_that_acts_is_its_own_event_step() -> None:
    """A 1/0 token dies in one check (704.5f) and ceases to exist in the next (704.5d): each
    check's rows are one step, the second's the next one."""
    w = World(seed=2)
    p = w.add_player()
    w.add_object(p, "creature", power=1, toughness=0, token=True)
    step = w.step
    assert w.tick() == 2
    rows = w.event_table(since=step)
    assert rows["step"].tolist() == [step + 1, step + 2] and w.step == step + 2


def test_a_quiet_main_phase_takes_no_event_step() -> None:
    """A beginning of a main phase where no phase system decides anything (no rad counters,
    728.1) records nothing and takes no step, as a quiet tick."""
    w = World(seed=0)
    p, _ = w.add_player(), w.add_player()
    w.add_object(p, "creature", power=2, toughness=2)
    w.tick()
    step = w.step
    w.begin_main_phase(p)
    assert w.step == step and not w.events_since(step)


def test_704_3_annihilation_alone_in_one_game_calls_for_no_recheck(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a one-game World a check that only annihilates +1/+1 and -1/-1 pairs (704.5q, a
    settling removal) is the tick's last: no second check is made."""
    w, ids = _board()
    w.put_counters(ids["bear"], "+1/+1", 2)
    w.put_counters(ids["bear"], "-1/-1", 1)
    made = _checks(w, monkeypatch)
    assert w.tick() == 1 and len(made) == 1
    assert w.counters(ids["bear"]) == {"+1/+1": 1}


def test_704_5h_a_check_whose_one_probe_reports_no_marks_still_clears_them():
    """704.5h looks at deathtouch damage "since the last time state-based actions were
    checked". A host's schedule whose one probe does not report marks (``Probe(marks=False)``)
    and finds nothing still checked: the mark is cleared, so the ruleset's next check does
    not destroy the creature for damage dealt before it."""
    class Quiet(System):
        def process(self, game: Any, check: Check) -> None:
            return None

    probe = Probe(lambda game, live, touched, parts, memo=None: 0)
    probe.cover(Quiet, 1)
    w = World(seed=0)
    bear = w.add_object(w.add_player(), "creature", power=2, toughness=5)
    rules = w.schedule
    w.deal_damage(bear, 1, deathtouch=True)
    w.schedule = Schedule([Quiet()])
    assert w.tick() == 0
    w.schedule = rules
    w.tick()
    assert w.exists(bear) and w.damage(bear) == 1
