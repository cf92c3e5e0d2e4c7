"""Both benchmark baselines (naive esper and the stronger ``EsperGame``) and the engine give
identical results on the same random boards, so the ratios compare equal work: every
object's existence, zone, counters and marked damage, every zone's size and every player's
loss, after one tick(), and after the self-play step the suites time, on the game and on
a clone of it."""
from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from benchmarks import cases
from benchmarks.boards import BoardSpec, Built, build_baseline, build_engine, make_board
from benchmarks.esper_baseline import EsperGame
from benchmarks.naive_esper import NaiveBatch, NaiveGame

BASELINES = pytest.mark.parametrize("game", [NaiveGame, EsperGame], ids=["naive", "esper"])

# (objects, games, seed): single boards and batches; over all of them, some objects die on
# a later check than the first and some games end (so the frozen-game rule is exercised).
BOARDS = [(400, 1, 1), (1000, 1, 2), (250, 16, 3), (120, 40, 4)]

GameState = dict[str, Any]


def engine_state(built: Built) -> list[GameState]:
    """Per game: each object's (zone, counters, damage) or None if gone; zone sizes; losses."""
    w = built.world
    games: list[GameState] = [{"objects": [], "lost": [], "sizes": {}} for _ in range(w.batch)]
    for e in built.objects.tolist():
        present = np.atleast_1d(w.exists(e))
        if present.any():
            zone, damage = np.atleast_1d(w.zone(e)), np.atleast_1d(w.damage(e))
            ctr = {kind: np.atleast_1d(v) for kind, v in w.counters(e).items()}
        for g, state in enumerate(games):
            state["objects"].append(
                (str(zone[g]), {k: int(v[g]) for k, v in ctr.items() if v[g]}, int(damage[g]))
                if present[g] else None)
    for p in built.players.tolist():
        for g, lost in enumerate(np.atleast_1d(w.has_lost(p))):
            games[g]["lost"].append(bool(lost))
    for name in ("battlefield", "graveyard"):
        _, mask = w.object_mask(name)
        for g, size in enumerate(mask.sum(axis=1)):
            if size:
                games[g]["sizes"][name] = int(size)
    return games


def baseline_state(built: Built) -> list[GameState]:
    out = []
    for game, ents, players in zip(built.world.games, built.objects, built.players):
        out.append({
            "objects": [(game.zone(e), game.counters(e), game.damage(e)) if game.exists(e) else None
                        for e in ents.tolist()],
            "lost": [game.player(p).lost for p in players.tolist()],
            "sizes": game.zone_sizes(),
        })
    return out


def assert_same(engine: list[GameState], baseline: list[GameState]) -> None:
    assert len(engine) == len(baseline)
    for g, (e, b) in enumerate(zip(engine, baseline)):
        assert e["lost"] == b["lost"], f"game {g}: players' losses differ"
        assert e["sizes"] == b["sizes"], f"game {g}: zone sizes differ"
        diff = [i for i, (x, y) in enumerate(zip(e["objects"], b["objects"])) if x != y]
        assert not diff, (f"game {g}: {len(diff)} objects differ, first object {diff[0]}: "
                          f"engine {e['objects'][diff[0]]}, baseline {b['objects'][diff[0]]}")


def run_both(spec: BoardSpec, game: type[NaiveGame] = NaiveGame
             ) -> tuple[list[GameState], list[GameState], int]:
    engine, baseline = build_engine(spec), build_baseline(spec, game)
    try:
        before_e, before_b = engine_state(engine), baseline_state(baseline)
        assert_same(before_e, before_b)  # the builders load the same board
        checks = engine.world.tick()
        baseline.world.tick()
        return engine_state(engine), baseline_state(baseline), checks
    finally:
        baseline.world.close()


def planted(spec: BoardSpec) -> BoardSpec:
    """``spec`` with, in every game, a creature that the second check kills (its cap takes
    its +1/+1 counters on the first check, then its damage is lethal), and a player at 0
    life in every other game (those games end on the first check and are frozen, README)."""
    arrays = {name: arr.copy() for name, arr in vars(spec).items()}
    i = int(np.flatnonzero(spec.card_type == 0)[0])
    arrays["plus"][:, i], arrays["minus"][:, i], arrays["cap_plus"][i] = 3, 0, 0
    arrays["damage"][:, i], arrays["deathtouch"][:, i] = spec.toughness[i], False
    arrays["life"][::2, 0] = 0
    return dataclasses.replace(spec, **arrays)


@BASELINES
@pytest.mark.parametrize("n, games, seed", BOARDS)
def test_same_results_after_tick(n: int, games: int, seed: int, game: type[NaiveGame]) -> None:
    engine, baseline, _ = run_both(make_board(n, games=games, seed=seed), game)
    assert_same(engine, baseline)


@BASELINES
@pytest.mark.parametrize("games, n", [(1, 100), (1, 1_000), (64, 1_000)])
def test_same_results_on_the_timed_boards(games: int, n: int, game: type[NaiveGame]) -> None:
    """The boards the report and the suites time (cases.board), ticked twice: the second
    tick is the settled one, its check made as the settled cases make it (it must change
    nothing on either side)."""
    engine, baseline = build_engine(cases.board(games, n)), build_baseline(cases.board(games, n), game)
    try:
        engine.world.tick()
        baseline.world.tick()
        assert_same(engine_state(engine), baseline_state(baseline))
        assert cases.checked_tick(engine.world) == 0
        cases.checked_baseline_tick(baseline.world)
        assert_same(engine_state(engine), baseline_state(baseline))
    finally:
        baseline.world.close()


@pytest.mark.parametrize("n", cases.ACTION_SIZES)
def test_esper_baseline_matches_engine_after_the_timed_self_play_step(n: int) -> None:
    """The self-play step (cases.step, then a tick) on the settled board gives the
    same state in EsperGame as in the engine, so the step, action and read suites compare
    equal work; a step's -1/-1 counters kill when the target has toughness 2."""
    spec = cases.board(1, n)
    engine, baseline = build_engine(spec), build_baseline(spec, EsperGame)
    try:
        engine.world.tick()
        baseline.world.tick()
        a, b, c = cases.targets(n)
        cases.step(engine.world, tuple(int(engine.objects[i]) for i in (a, b, c)))
        cases.step(baseline.world.games[0], tuple(int(baseline.objects[0, i]) for i in (a, b, c)))
        assert_same(engine_state(engine), baseline_state(baseline))  # before the tick too
        engine.world.tick()
        baseline.world.tick()
        after = engine_state(engine)
        assert_same(after, baseline_state(baseline))
        assert (after[0]["objects"][b] is None) == (spec.toughness[b] <= 2)
        assert after[0]["objects"][a][1] == {"+1/+1": 1} and after[0]["objects"][c][2] == 1
    finally:
        baseline.world.close()


@pytest.mark.parametrize("n", cases.ACTION_SIZES)
def test_a_clone_of_the_esper_baseline_plays_as_the_engine(n: int) -> None:
    """The clone + self-play step the suites time: ``EsperGame``'s clone of the settled
    board (its mutable components copied, the card's shared), stepped and ticked, gives
    the engine's state, and the game it was taken from stays the settled board."""
    spec = cases.board(1, n)
    engine, baseline = build_engine(spec), build_baseline(spec, EsperGame)
    twin = None
    try:
        engine.world.tick()
        baseline.world.tick()
        settled = engine_state(engine)
        twin = baseline.world.games[0].clone()
        cloned = Built(NaiveBatch([twin]), baseline.objects, baseline.players)
        a, b, c = cases.targets(n)
        cases.step(engine.world, tuple(int(engine.objects[i]) for i in (a, b, c)))
        cases.step(twin, tuple(int(baseline.objects[0, i]) for i in (a, b, c)))
        engine.world.tick()
        twin.tick()
        assert_same(engine_state(engine), baseline_state(cloned))
        assert_same(settled, baseline_state(baseline))
        assert engine_state(engine) != settled
    finally:
        if twin is not None:
            twin.close()
        baseline.world.close()


@pytest.mark.parametrize("n", cases.ACTION_SIZES)
def test_the_early_roots_two_timed_children_are_the_same_in_esper_as_in_the_engine(n: int) -> None:
    """``cases.EARLY``: the run's two children of the early root, one given two -1/-1
    counters and one two damage (704.5f, 704.5g), each ticked, give the same state in
    EsperGame as in the engine, so the contest compares equal work; the roots stay as
    they were."""
    _, restore, _ = cases._engine_settled(n, early=True)
    restore()   # (its World as the settled early root)
    engine, _ = cases.engine(1, n, early=True)
    baseline, _ = cases._esper_root(n, early=True)
    root = engine_state(engine)
    assert_same(root, baseline_state(baseline))
    sides = cases.engine_early_step(n), cases.esper_early_step(n)
    for case in sides:
        case.prepare()
    try:
        children = [case.run() for case in sides]
        got = [engine_state(Built(c, engine.objects, engine.players)) for c in children[0]]
        for e, twin in zip(got, children[1]):
            assert_same(e, baseline_state(Built(NaiveBatch([twin]), baseline.objects, baseline.players)))
    finally:
        for case in sides:
            case.teardown()
            case.release()
    a, b, _ = cases.targets(n)
    countered, damaged = got[0][0]["objects"], got[1][0]["objects"]
    assert countered[a][1] == damaged[a][1] == {"+1/+1": 1}
    if cases.early_board(n).toughness[b] <= 2:
        assert countered[b] is None and damaged[b] is None
    else:
        assert countered[b][1] == {"-1/-1": 2} and damaged[b][2] == 2
    assert engine_state(engine) == root
    assert_same(root, baseline_state(baseline))


@BASELINES
def test_same_results_on_a_board_with_later_deaths_and_ended_games(game: type[NaiveGame]) -> None:
    spec = planted(make_board(200, games=6, seed=9))
    engine, baseline, checks = run_both(spec, game)
    ended = [sum(state["lost"]) > 0 for state in engine]
    assert checks >= 2 and all(ended[::2]) and not all(ended[1::2])
    assert_same(engine, baseline)


def test_one_board_repeated_in_a_batch() -> None:
    """build_engine(spec, batch) repeats a one-game board: every game matches the baseline."""
    spec = make_board(300, seed=5)
    engine = build_engine(spec, batch=3)
    baseline = build_baseline(spec)
    try:
        engine.world.tick()
        baseline.world.tick()
        assert_same(engine_state(engine), baseline_state(baseline) * 3)
    finally:
        baseline.world.close()


def test_the_single_game_reads_timed_give_the_engines_values() -> None:
    """The reads the suites time (count, counters, damage), on their settled board after a
    self-play step's actions, so that counters and damage are there: the same values."""
    w, restore, ids = cases._engine_settled(100)
    restore()   # (the cached world may hold what an earlier test left)
    game, esper_ids = cases._esper_settled(100)
    twin = game.clone()
    try:
        cases.step(w, ids)
        cases.step(twin, esper_ids)
        for e, x in zip(ids, esper_ids):
            assert (w.count(e, "+1/+1"), w.counters(e), w.damage(e)) == \
                (twin.count(x, "+1/+1"), twin.counters(x), twin.damage(x))
        assert any(w.counters(e) for e in ids) and any(w.damage(e) for e in ids)
    finally:
        restore()
        twin.close()




def test_the_observation_timed_is_the_engines() -> None:
    """The suites' ``observe`` (the baseline's features, ``esper_baseline.OBSERVED``) of
    every player and object: the same tensor on the settled board, after a self-play
    step's counters and damage, and after a destroy (the old id reads absent, 400.7)."""
    from benchmarks.esper_baseline import OBSERVED
    w, restore, ids = cases._engine_settled(100)
    restore()   # (the cached world may hold what an earlier test left)
    game, esper_ids = cases._esper_settled(100)
    every, esper_every = cases._engine_observed(100), cases._esper_observed(100)
    twin = game.clone()
    try:
        def same() -> np.ndarray:
            obs, names = w.observe(every, OBSERVED)
            assert names == list(OBSERVED)
            np.testing.assert_array_equal(obs, twin.observe(esper_every))
            return obs
        settled = same()
        cases.step(w, ids)
        cases.step(twin, esper_ids)
        assert (same() != settled).any()
        w.destroy(ids[0])
        twin.destroy(esper_ids[0])
        assert not same()[0, every.index(ids[0])].any()
        assert settled[..., [OBSERVED.index(f) for f in ("life", "has:power", "counter:poison")]].any(axis=(0, 1)).all()
    finally:
        restore()
        twin.close()


@pytest.mark.parametrize("op", ["put_counters", "deal_damage", "destroy"])
def test_the_actions_on_three_targets_timed_give_the_engines_results(op: str) -> None:
    """The suites' actions on three targets (the engine's one call, esper's three) leave
    the same board: +1/+1 counters (CR 122.6), marked damage (120.3e) or the objects gone
    to the graveyard as new ones (701.8, 400.7)."""
    w, restore, ids = cases._engine_settled(100)
    restore()   # (the cached world may hold what an earlier test left)
    game, esper_ids = cases._esper_settled(100)
    twin = game.clone()
    rest: tuple[Any, ...] = {"put_counters": ("+1/+1", 1), "deal_damage": (1,), "destroy": ()}[op]
    try:
        getattr(w, op)(list(ids), *rest)
        cases._each(getattr(twin, op), esper_ids, *rest)
        assert [w.exists(e) for e in ids] == [twin.exists(x) for x in esper_ids] == [op != "destroy"] * 3
        if op != "destroy":
            assert [(w.counters(e), w.damage(e)) for e in ids] == \
                [(twin.counters(x), twin.damage(x)) for x in esper_ids]
            assert [w.count(e, "+1/+1") + w.damage(e) for e in ids] == [1, 1, 1]
    finally:
        restore()
        twin.close()


def test_the_object_made_timed_is_the_engines() -> None:
    """The suites' new creature (the engine's ``add_object``, esper's entity of the same
    components): the same counters, damage and power after a tick that keeps it (704.5f)."""
    w, restore, _ = cases._engine_settled(100)
    restore()   # (the cached world may hold what an earlier test left)
    game, _ = cases._esper_settled(100)
    twin = game.clone()
    try:
        e = w.add_object(w.players()[0], "creature", power=2, toughness=2)
        x = twin.add_object(cases.new_creature(2, 2))
        w.tick()
        twin.tick()
        assert w.exists(e) and twin.exists(x)
        assert (w.counters(e), w.damage(e), w.zone(e)) == (twin.counters(x), twin.damage(x), twin.zone(x))
    finally:
        restore()
        twin.close()
