"""A main phase whose triggers act (GA Counters "Wither"; CR 728.1 rad counters) in a World
of one game, against the same game in a batch: the single-game path (``ecs.turns``'
plain ints) and the general one decide and log the same; the rulesets' phase systems run
unchecked only while their own process is the one they run (``ecs.check.vouch``); the
default wither policy's one-sort greedy keeps the most value (``pay_most``)."""
from __future__ import annotations

import dataclasses
import itertools
from typing import Any, Callable

import numpy as np
import pytest
import scalar_paths

from ecs import IllegalActionError, PolicyError, World
from ecs.check import VOUCHED, Check
from ecs.components import TYPE_BIT
from ecs.schedule import Schedule
from ecs.systems import Rad, WitherUpkeep
from ecs.systems.wither_upkeep import pay_most, pay_nothing

# How the other games of a batch of three differ from game 1, the one compared: they have
# nothing to do, or they are the same game.
OTHERS = ("idle", "same")


def _per_game(batch: int, others: str, amount: int) -> Any:
    """``amount`` in the game compared (game 1 of a batch); in the other games 0 or it."""
    if batch == 1:
        return amount
    return np.array([0 if others == "idle" else amount, amount, 0 if others == "idle" else amount])


def _ga(batch: int, others: str) -> tuple[World, list[int], list[int]]:
    """Two players with champions and allies; wither counters on four of the first player's
    objects (a champion among them) and one of the second's; 3 reserve: short of the 6 due."""
    w = World(ruleset="grand_archive", batch=batch, seed=3)
    a, b = w.add_player(), w.add_player()
    objs = [w.add_object(a, "champion", power=2, life=20), w.add_object(b, "champion", power=2, life=20)]
    for i in range(12):
        objs.append(w.add_object((a, b)[i % 2], "ally", power=1, life=2 + i % 3, name=f"ally{i}"))
    objs.append(w.add_object(a, "weapon", durability=2))
    for e, n in ((objs[0], 2), (objs[2], 1), (objs[4], 2), (objs[-1], 1), (objs[3], 1)):
        w.put_counters(e, "wither", _per_game(batch, others, n))
    w.set_reserve(a, 3)
    w.set_reserve(b, 1)
    w.tick()
    w.clear_events()
    return w, [a, b], objs


def _mtg(batch: int, others: str, two_headed_giant: bool = False) -> tuple[World, list[int], list[int]]:
    """Two players (a team of two against one in Two-Headed Giant), libraries of mixed
    cards, rad counters on the first player (and on the teammate: two triggers, 805.4)."""
    w = World(batch=batch, seed=3, two_headed_giant=two_headed_giant)
    players = ([w.add_player(team=0), w.add_player(team=0), w.add_player(team=1)] if two_headed_giant
               else [w.add_player(), w.add_player()])
    objs = []
    for i in range(10):
        for p in players[:2]:
            objs.append(w.add_object(p, ("sorcery", "land", "creature")[i % 3], zone="library", name=f"card{i}"))
    objs.append(w.add_object(players[0], "creature", power=2, toughness=2))
    w.put_counters(players[0], "rad", _per_game(batch, others, 4))
    if two_headed_giant:
        w.put_counters(players[1], "rad", _per_game(batch, others, 2))
    w.tick()
    w.clear_events()
    return w, players, objs


def _state(w: World, players: list[int], objs: list[int], game: int) -> dict[str, Any]:
    """What the compared game holds: each object's presence, zone and counters, each player's
    life, reserve (GA), counters and library, and the turn player."""
    def one(x: Any) -> Any:
        return x if w.batch == 1 else (x[game].item() if isinstance(x, np.ndarray) else x[game])
    out: dict[str, Any] = {"active": one(w.active_player())}
    for e in objs:
        there = bool(one(w.exists(e)))
        out[f"object {e}"] = (there, one(w.zone(e)) if there else None,
                              {k: one(w.count(e, k)) for k in ("wither", "durability")} if there else None)
    for p in players:
        out[f"player {p}"] = (one(w.life(p)), one(w.reserve(p)) if w.ruleset.name == "grand_archive" else None,
                              one(w.count(p, "rad")) if w.ruleset.name != "grand_archive" else None,
                              w.library(p, game=game))
    return out


def _events(w: World, game: int) -> list[Any]:
    """The events of ``game`` as a World of that game alone would log them (game 0)."""
    return [dataclasses.replace(e, game=0) for e in w.events() if e.game == game]


def _steps(w: World, game: int) -> list[int]:
    return [int(s) for s, g in zip(w.event_table()["step"], w.event_table()["game"]) if g == game]


CASES: dict[str, Callable[..., tuple[World, list[int], list[int]]]] = {
    "GA wither, short of reserve": _ga, "GA wither, nothing paid": _ga,
    "MTG rad milling": _mtg, "MTG rad, a Two-Headed Giant team": lambda b, o: _mtg(b, o, True)}


def _policy(case: str) -> Any:
    return pay_nothing if case == "GA wither, nothing paid" else None


@pytest.mark.parametrize("others", OTHERS)
@pytest.mark.parametrize("case", list(CASES))
def test_one_game_main_phase_logs_and_leaves_what_the_same_game_in_a_batch_does(case: str, others: str) -> None:
    """GA Wither 1-5 (pay for some, sacrifice the rest, remove every counter) and CR 728.1
    (mill, lose life, remove rad counters; 805.4: each of the team's players' triggers in
    seat order): a World of one game on its scalar path, the same World on the general path
    and game 1 of a batch of three (the others idle or the same) log the same events in the
    same steps and leave the same state."""
    build = CASES[case]
    results = []
    for batch, general in ((1, False), (1, True), (3, True), (3, False)):
        w, players, objs = build(batch, others)
        game = 0 if batch == 1 else 1
        with scalar_paths.run_on("general" if general else "scalar"):
            w.begin_main_phase(players[0], policy=_policy(case))
        results.append((_events(w, game), _steps(w, game), _state(w, players, objs, game)))
    assert results[0][0], "the triggers acted"
    for other in results[1:]:
        assert other == results[0]


@pytest.mark.parametrize("batch", [1, 3])
def test_a_wither_policy_that_raises_changes_nothing_in_one_game_or_a_batch(batch: int) -> None:
    """GA Wither 3: a policy's own error is a PolicyError, and the main phase is undone
    whole, the turn player's flag too (a batch of three: every game)."""
    w, players, objs = _ga(batch, "same")

    def broken(*_: Any) -> Any:
        raise ValueError("no answer")

    before, events = w.snapshot(), w.events()
    with pytest.raises(PolicyError, match="raised ValueError: no answer"):
        w.begin_main_phase(players[0], policy=broken)
    after = w.snapshot()
    assert w.events() == events
    for key, value in before.items():
        if isinstance(value, np.ndarray):
            assert np.array_equal(after[key], value), key
    assert _state(w, players, objs, batch // 2) == _state(*_ga(batch, "same"), batch // 2)


def test_the_rulesets_phase_systems_are_vouched_for_with_their_own_process() -> None:
    """Rad (728.1) and WitherUpkeep (GA Wither) decide within the state by construction:
    the schedule runs them unchecked. A process replaced on an instance is checked again
    (ecs.decisions): its bad decision raises before anything is written."""
    assert VOUCHED[Rad] is Rad.process and VOUCHED[WitherUpkeep] is WitherUpkeep.process
    w = World(seed=0)
    p, _ = w.add_player(), w.add_player()
    w.put_counters(p, "rad", 1)
    w.add_object(p, "sorcery", zone="library")
    w.clear_events()
    rad = Rad()

    def stray(world: Any, check: Check) -> None:   # a removal from a column no object has
        games = check.phase.games if check.phase is not None else np.zeros(0, np.int64)
        check.remove(0, games, np.full(games.size, 10**6, np.int64), np.ones(games.size, np.int64), "rad")

    rad.process = stray   # type: ignore[method-assign]
    w.schedule = Schedule([rad if s is Rad else s for s in w.ruleset.systems])
    with pytest.raises(IllegalActionError, match="system Rad: .*column 1000000"):
        w.begin_main_phase(p)
    assert w.count(p, "rad") == 1 and w.events() == []


@pytest.mark.parametrize("batch", [1, 3])
def test_wither_under_a_hosts_ruleset_is_checked_where_its_hook_gives_no_zone(batch: int) -> None:
    """GA Wither 3 (an unpaid object is sacrificed): WitherUpkeep asks the ruleset where a
    sacrifice goes (``sacrifice_zone``); a host's ruleset that answers a zone the World
    lacks is refused naming the system, before anything is written, as a host's own
    system's decision would be (the rulesets' phase systems are trusted under the built-in
    rulesets only)."""
    w, players, objs = _ga(batch, "same")

    class Nowhere(type(w.ruleset)):  # type: ignore[misc]
        def sacrifice_zone(self, world: Any, games: Any, cols: Any) -> Any:
            return np.full(np.size(games), 99, np.int64)

    w.ruleset = Nowhere()
    before, events = w.snapshot(), w.events()
    with pytest.raises(IllegalActionError, match="system WitherUpkeep: .*zone 99"):
        w.begin_main_phase(players[0], policy=pay_nothing)
    after = w.snapshot()
    assert w.events() == events
    for key, value in before["store"].items():
        if isinstance(value, np.ndarray):
            assert np.array_equal(after["store"][key], value), key


def _value(w: World, ids: np.ndarray, cost: np.ndarray, pay: np.ndarray) -> tuple[int, int, int]:
    """pay_most's order of value: champions kept, other objects kept, reserve left (an
    immortal object is kept unpaid, Immortality 1.2)."""
    champ = np.array([bool(w.store.a["types"][0, w.store.locate(0, e)] & TYPE_BIT["champion"]) if e >= 0
                      else False for e in ids])
    immortal = np.array([bool(w.is_immortal(int(e))) if e >= 0 else False for e in ids])
    kept = (cost == 0) | pay | immortal
    due = cost > 0
    return (int((kept & due & champ).sum()), int((kept & due & ~champ).sum()), -int((cost * pay).sum()))


def test_pay_most_keeps_the_most_value_a_subset_of_payments_can() -> None:
    """GA Wither 3 paid per object in full: the default policy's choice is affordable and
    as good, by its order (champions kept, then other objects kept, then the least reserve
    spent), as the best of every subset of payments; never paying for an immortal object."""
    rng = np.random.default_rng(7)
    for trial in range(60):
        w = World(ruleset="grand_archive", seed=trial)
        a = w.add_player()
        ids = [w.add_object(a, ("champion", "ally", "weapon")[int(rng.integers(0, 3))],
                            **({"durability": 2} if k % 3 == 2 else {"power": 1, "life": 3}))
               for k in range(int(rng.integers(1, 7)))]
        if rng.random() < 0.3:
            w.set_immortal(ids[0], True)
        row = np.array(ids)
        cost = rng.integers(0, 4, row.size)
        row[cost == 0] = -1   # (a pad, as WitherUpkeep gives an object without counters)
        reserve = int(rng.integers(0, 9))
        pay = pay_most(w, np.zeros(1, np.int64), row[None], cost[None], np.array([reserve]))[0]
        assert int((cost * pay).sum()) <= reserve
        immortal = np.array([e >= 0 and bool(w.is_immortal(int(e))) for e in row])
        assert not (pay & immortal).any()
        best = max(_value(w, row, cost, np.array(s, bool))
                   for s in itertools.product((False, True), repeat=row.size)
                   if int((cost * np.array(s, bool)).sum()) <= reserve)
        assert _value(w, row, cost, pay) == best, (trial, row, cost, reserve, pay)
