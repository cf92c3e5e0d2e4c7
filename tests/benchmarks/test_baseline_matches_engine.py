"""The benchmark baseline and the engine give identical results on the same random boards,
so the throughput ratios compare equal work: every object's existence, zone, counters and
marked damage, every zone's size and every player's loss, after one tick()."""
from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from benchmarks.boards import BoardSpec, Built, build_baseline, build_engine, make_board

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


def run_both(spec: BoardSpec) -> tuple[list[GameState], list[GameState], int]:
    engine, baseline = build_engine(spec), build_baseline(spec)
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


@pytest.mark.parametrize("n, games, seed", BOARDS)
def test_same_results_after_tick(n: int, games: int, seed: int) -> None:
    engine, baseline, _ = run_both(make_board(n, games=games, seed=seed))
    assert_same(engine, baseline)


def test_same_results_on_a_board_with_later_deaths_and_ended_games() -> None:
    spec = planted(make_board(200, games=6, seed=9))
    engine, baseline, checks = run_both(spec)
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
