"""Batch Monte Carlo: statistics, random targets, determinism whatever the sharding,
executors (local processes, threads, Dask) and interruption."""
from __future__ import annotations

import json
import math
import os
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pytest
from scenario_text import scenario_text

from ecs import executors, limits
from ecs import montecarlo as mc
from ecs.errors import InvalidCountError
from ecs.scenario import load, loads
from ecs.world import World

P, T = 0.3, 10
BEAR = f"""
ruleset = "mtg"
turns = {T}
[[players]]
name = "alice"
[[players]]
name = "bob"
[[objects]]
name = "bear"
controller = "alice"
types = ["creature"]
power = 2
toughness = 2
[[effects]]
action = "put_counters"
weight = {P}
kind = "-1/-1"
target = {{ name = "bear" }}
[[effects]]
action = "nothing"
weight = {1 - P}
"""


def block_uniforms(seed: int, games: int, draws: int, width: int) -> np.ndarray:
    """The documented stream: block b's generator is SeedSequence(seed, spawn_key=(b,)); each
    effect draw takes one (BLOCK, width) array. Returns (games, draws, width)."""
    blocks = -(-games // mc.BLOCK)
    out = np.empty((blocks * mc.BLOCK, draws, width))
    for b in range(blocks):
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(b,)))
        for d in range(draws):
            out[b * mc.BLOCK:(b + 1) * mc.BLOCK, d] = rng.random((mc.BLOCK, width))
    return out[:games]


# ---- statistics ------------------------------------------------------------------------------
def test_wilson_interval_known_values() -> None:
    lo, hi = mc.wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = mc.wilson(0, 10)
    assert lo == 0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = mc.wilson(10, 10)
    assert hi == 1 and lo == pytest.approx(0.7225, abs=1e-4)
    assert all(math.isnan(x) for x in mc.wilson(0, 0))
    e = mc.Estimate(30, 100)
    assert e.p == 0.3 and e.ci[0] < 0.3 < e.ci[1]
    assert e.to_dict() == {"p": 0.3, "ci95": list(e.ci), "k": 30, "n": 100}


def test_distribution_mean_and_percentiles() -> None:
    d = mc.Distribution.of(np.arange(101))
    assert (d.mean, d.p5, d.p95, d.min, d.max) == (50, 5, 95, 0, 100)
    assert d.to_dict() == {"mean": 50, "p5": 5, "p95": 95, "min": 0, "max": 100}
    assert mc.Distribution.of(np.zeros(0)).to_dict()["mean"] is None  # JSON-safe


# ---- random targets ----------------------------------------------------------------------------
def test_pick_is_uniform_distinct_and_vectorized() -> None:
    rng = np.random.default_rng(0)
    mask = rng.random((4000, 9)) < 0.5
    mask[0] = False
    idx, valid = mc.pick(mask, rng.random((4000, 3)), 3)
    assert idx.shape == valid.shape == (4000, 3)
    assert (valid.sum(1) == np.minimum(mask.sum(1), 3)).all()
    rows = np.broadcast_to(np.arange(4000)[:, None], idx.shape)
    assert mask[rows[valid], idx[valid]].all()              # only candidates
    srt = np.sort(np.where(valid, idx, -1 - np.arange(3)), axis=1)
    assert (np.diff(srt, axis=1) != 0).all()                # distinct within a game
    assert (idx[~valid.any(1)] == 0).all()
    assert (idx[~valid] == np.broadcast_to(idx[:, :1], idx.shape)[~valid]).all()  # pads
    full = np.ones((90_000, 6), bool)
    idx, _ = mc.pick(full, rng.random((90_000, 2)), 2)
    freq = np.bincount(idx.ravel(), minlength=6) / idx.size
    assert np.allclose(freq, 1 / 6, atol=0.005)
    pairs = np.bincount(idx[:, 0] * 6 + idx[:, 1], minlength=36).reshape(6, 6)
    assert (np.diag(pairs) == 0).all() and pairs[~np.eye(6, dtype=bool)].min() > 2000
    every, valid = mc.pick(mask, None, None)
    assert (valid.sum(1) == mask.sum(1)).all()
    assert mask[np.broadcast_to(np.arange(4000)[:, None], every.shape)[valid], every[valid]].all()


def test_plan_covers_every_block_once() -> None:
    shards = list(mc.plan(1000, 100))    # 100 rounds up to 4 blocks of 32
    assert shards[0] == (0, 4) and sum(n for _, n in shards) == -(-1000 // mc.BLOCK)
    assert [b for b, _ in shards] == list(range(0, 32, 4))
    assert list(mc.plan(5, 10_000)) == [(0, 1)]
    assert mc.default_batch(100, 8) == mc.BLOCK


def test_the_default_batch_is_the_fewest_shards_that_keep_every_worker_busy() -> None:
    """A shard's Python costs about the same at any size: one shard per worker (whole
    blocks, as even as blocks allow) until a shard would pass MAX_CELLS or MAX_BATCH."""
    assert mc.default_batch(10_000, 2, 47) == 157 * mc.BLOCK      # 313 blocks: 157 + 156
    assert mc.default_batch(10_000, 1, 47) == 313 * mc.BLOCK
    assert mc.default_batch(10_000, 3, 47) == 105 * mc.BLOCK
    big = mc.MAX_CELLS // 47 // mc.BLOCK      # blocks of 47-object games in one shard
    n = 3 * big * mc.BLOCK
    per = mc.default_batch(n, 2, 47)          # 3 shards would do; 4 keep both workers busy
    assert per == -(-3 * big // 4) * mc.BLOCK <= big * mc.BLOCK
    assert mc.default_batch(10**12, 2, 1) == mc.MAX_BATCH


def test_the_default_batch_keeps_every_worker_of_an_executor_busy() -> None:
    """With an executor the shards are counted for what it plays at once (a Dask cluster's
    threads), not for this machine's cores: 1,000 games are 32 blocks, 7 a shard for 5."""
    with ThreadPoolExecutor(5) as ex:
        r = mc.run("bear_decay", games=1_000, executor=ex)
    assert r.batch == mc.default_batch(1_000, 5) == 7 * mc.BLOCK and r.games == 1_000


# ---- the tiny scenario computed by hand ----------------------------------------------------------
def test_bear_survival_matches_the_exact_binomial() -> None:
    """One 2/2; each turn with probability p a -1/-1 counter: it dies at the second
    (CR 704.5f), so P(survive T turns) = (1-p)^T + T p (1-p)^(T-1). The 95% CI covers it,
    and so does the CI of P(exactly one counter at the end) = T p (1-p)^(T-1)."""
    r = mc.run(loads(BEAR, "bear.toml"), games=10_000, seed=1, workers=1, keep_games=True)
    exact = (1 - P) ** T + T * P * (1 - P) ** (T - 1)
    lo, hi = r.survival["bear"].ci
    assert r.survival["bear"].n == 10_000 and lo <= exact <= hi
    one = T * P * (1 - P) ** (T - 1)
    lo, hi = mc.Estimate.of(r.raw["counts"][:, 0, 0] == 1).ci
    assert lo <= one <= hi
    assert r.counters["bear"]["-1/-1"].mean == pytest.approx(r.raw["counts"].mean())
    assert r.counters["bear"]["-1/-1"].max == 1
    assert r.loss["alice"].k == r.draw.k == r.ended.k == 0 and r.length.mean == T


def test_bear_games_are_exactly_the_model_game_by_game() -> None:
    """With the documented per-block random stream, each game's fate is computable exactly:
    the bear survives iff at most one of the T effect draws chose the -1/-1 counter."""
    games, seed = 1000, 5
    r = mc.run(loads(BEAR, "bear.toml"), games=games, seed=seed, workers=1, batch=96,
               keep_games=True)
    u = block_uniforms(seed, games, T, 4)[:, :, 0]
    hits = (u < P).sum(axis=1)
    assert np.array_equal(r.raw["survivors"][:, 0], (hits <= 1).astype(int))
    assert np.array_equal(r.raw["counts"][:, 0, 0], np.where(hits == 1, 1, 0))
    assert r.survival["bear"].k == int((hits <= 1).sum())


def test_certain_outcomes_are_exact() -> None:
    sure = BEAR.replace(f"weight = {P}", "weight = 1").replace(f"weight = {1 - P}", "weight = 0")
    r = mc.run(loads(sure, "sure.toml"), games=100, workers=1)
    assert r.survival["bear"].k == 0 and r.survival["bear"].ci[0] == 0
    one = sure.replace(f"turns = {T}", "turns = 1")
    r = mc.run(loads(one, "one.toml"), games=100, workers=1)
    d = r.counters["bear"]["-1/-1"]
    assert r.survival["bear"].p == 1 and (d.mean, d.p5, d.p95) == (1, 1, 1)


def test_losses_and_game_lengths_are_exact() -> None:
    """Each turn with probability q, 10 damage to bob (life 10): bob loses at the first hit
    (704.5a), which ends the game; length = the turn of the first hit, else T."""
    q = 0.2
    text = (BEAR.replace('name = "bob"', 'name = "bob"\nlife = 10')
            .replace('action = "put_counters"', 'action = "deal_damage"\nn = 10')
            .replace('kind = "-1/-1"\ntarget = { name = "bear" }', 'target = { player = "bob" }')
            .replace(f"weight = {P}", f"weight = {q}").replace(f"weight = {1 - P}", f"weight = {1 - q}"))
    games = 2000
    r = mc.run(loads(text, "burn.toml"), games=games, seed=3, workers=1, keep_games=True)
    hit = block_uniforms(3, games, T, 4)[:, :, 0] < q
    first = np.where(hit.any(1), hit.argmax(1) + 1, T)
    assert np.array_equal(r.raw["lost"][:, 1], hit.any(1)) and not r.raw["lost"][:, 0].any()
    assert np.array_equal(r.raw["length"], first)
    assert r.ticks == int(first.sum())   # one check a turn, of the games still going (docs)
    assert r.ended.k == r.loss["bob"].k and r.draw.k == 0
    lo, hi = r.loss["bob"].ci
    assert lo <= 1 - (1 - q) ** T <= hi


def test_a_game_that_ended_takes_no_more_of_its_turns_effects() -> None:
    """Two effect draws a turn, each 10 damage to bob (life 10) with probability q: the
    draw that kills him ends the game (704.5a), even at a turn's first draw; the turn's
    second draw neither hits him again nor counts a check. A game ticks once a draw up
    to its first hit, and lasts to that draw's turn."""
    q, turns, games, seed = 0.2, 4, 256, 12
    text = scenario_text(turns, 'name = "alice"\n\nname = "bob"\nlife = 10', "",
                  f'action = "deal_damage"\nweight = {q}\nn = 10\ntarget = {{ player = "bob" }}'
                  f'\n\naction = "nothing"\nweight = {1 - q}', top="effects_per_turn = 2")
    r = mc.run(loads(text, "twice.toml"), games=games, seed=seed, workers=1, keep_games=True)
    hit = block_uniforms(seed, games, 2 * turns, 4)[:, :, 0] < q
    draws = np.where(hit.any(1), hit.argmax(1) + 1, 2 * turns)
    assert (hit.any(1) & (draws % 2 == 1)).any()      # some games end at a first draw
    assert np.array_equal(r.raw["life"][:, 1], np.where(hit.any(1), 0, 10))
    assert np.array_equal(r.raw["ticks"], draws) and r.ticks == int(draws.sum())
    assert np.array_equal(r.raw["length"], (draws + 1) // 2)


def test_a_game_over_before_the_first_turn_lasted_0_turns() -> None:
    """A player starting at 0 life has lost before turn 1 (704.5a): such a game was reported
    as lasting every turn. Its length is the turn it ended in: 0."""
    dead = BEAR.replace('name = "bob"', 'name = "bob"\nlife = 0')
    r = mc.run(loads(dead, "dead.toml"), games=64, workers=1)
    assert r.loss["bob"].k == r.ended.k == 64
    assert (r.length.min, r.length.max) == (0, 0)


# ---- rules the job must keep, each pinned by a certain result or a hand-written model ----------
def test_an_object_that_never_leaves_the_graveyard_survives() -> None:
    """Survival is "still the same object" (CR 400.7), wherever it started: a card that starts
    in the graveyard and is never moved survives every game. Targets are picked on the
    battlefield only: "destroy a creature" always destroys the bear, never the dead one."""
    text = scenario_text(3, 'name = "alice"\n\nname = "bob"',
                  'name = "dead"\ncontroller = "alice"\ntypes = ["creature"]\npower = 2\n'
                  'toughness = 2\nzone = "graveyard"\n\n'
                  'name = "bear"\ncontroller = "bob"\ntypes = ["creature"]\npower = 2\ntoughness = 2',
                  'action = "destroy"\ntarget = { types = ["creature"] }')
    r = mc.run(loads(text, "graveyard.toml"), games=256, seed=2, workers=1, keep_games=True)
    assert r.survival["dead"].k == 256 and r.survival["bear"].k == 0
    assert (r.raw["survivors"] == [1, 0]).all()


def test_an_entry_of_copies_survives_while_at_least_one_copy_does() -> None:
    """Three copies; each turn, with probability q, one copy still on the battlefield is
    destroyed. A game's survivors are 3 - min(hits, 3), and the entry survives (docs: at
    least one copy does) iff hits < 3. The entries before and after it are never touched."""
    q, turns, games, seed = 0.5, 6, 1000, 11
    solo = 'controller = "alice"\ntypes = ["creature"]\npower = 1\ntoughness = 1'
    text = scenario_text(turns, 'name = "alice"\n\nname = "bob"',
                  f'name = "wolf"\n{solo}\n\nname = "bears"\n{solo}\ncount = 3\n\n'
                  f'name = "owl"\n{solo}',
                  f'action = "destroy"\nweight = {q}\ntarget = {{ name = "bears" }}\n\n'
                  f'action = "nothing"\nweight = {1 - q}')
    r = mc.run(loads(text, "copies.toml"), games=games, seed=seed, workers=1, keep_games=True)
    hits = (block_uniforms(seed, games, turns, 4)[:, :, 0] < q).sum(axis=1)
    left = 3 - np.minimum(hits, 3)
    assert (left == 0).any() and (left == 3).any() and ((left == 1) | (left == 2)).any()
    assert np.array_equal(r.raw["survivors"], np.stack([np.ones(games), left, np.ones(games)], 1))
    assert r.survival["bears"] == mc.Estimate(int((hits < 3).sum()), games)
    assert r.survival["wolf"].k == r.survival["owl"].k == games
    d = r.survivors["bears"]
    assert (d.min, d.max, d.mean) == (0, 3, pytest.approx(left.mean()))
    assert r.to_dict()["survival"]["bears"]["copies"] == 3


def test_a_random_player_target_is_a_player_still_in_the_game() -> None:
    """Three players, 1 damage a turn to a random player (docs: "a random player still in the
    game"). carol, at 1 life, loses at her first hit (704.5a) and is never picked again: the
    others take the rest. The slow model: each turn the pick is uniform among the players still
    in, the k-th of them in turn order for the uniform u in [k/n, (k+1)/n)."""
    turns, games, seed = 10, 500, 4
    text = scenario_text(turns, 'name = "alice"\n\nname = "bob"\n\nname = "carol"\nlife = 1',
                  'name = "bear"\ncontroller = "alice"\ntypes = ["creature"]\npower = 2\n'
                  'toughness = 2',
                  'action = "deal_damage"\nn = 1\ntarget = { player = "any" }')
    r = mc.run(loads(text, "any.toml"), games=games, seed=seed, workers=1, keep_games=True)
    u = block_uniforms(seed, games, turns, 4)[:, :, 3]
    life = np.tile([20, 20, 1], (games, 1))
    for g in range(games):
        for t in range(turns):
            still = [p for p in range(3) if life[g, p] > 0]
            life[g, still[min(int(u[g, t] * len(still)), len(still) - 1)]] -= 1
    assert np.array_equal(r.raw["life"], life)
    assert (r.raw["life"][:, 2] >= 0).all()                  # never hit after she lost
    assert np.array_equal(r.raw["lost"], life <= 0) and r.raw["lost"][:, 2].mean() > 0.9
    assert r.ended.k == 0 and r.draw.k == 0


def test_a_player_who_lost_before_the_first_turn_is_never_a_random_target() -> None:
    """carol starts at 0 life and has lost before turn 1: every gain of a random player goes
    to alice or bob, who end with 40 + turns life between them in every game."""
    turns = 8
    text = scenario_text(turns, 'name = "alice"\n\nname = "bob"\n\nname = "carol"\nlife = 0',
                  'name = "bear"\ncontroller = "alice"\ntypes = ["creature"]\npower = 2\n'
                  'toughness = 2',
                  'action = "gain_life"\nn = 1\ntarget = { player = "any" }')
    r = mc.run(loads(text, "lost.toml"), games=256, seed=6, workers=1, keep_games=True)
    assert (r.raw["life"][:, :2].sum(axis=1) == 40 + turns).all()
    assert (r.raw["life"][:, 2] == 0).all() and r.raw["lost"][:, 2].all()
    assert abs(r.raw["life"][:, 0].mean() - 20 - turns / 2) < 0.5   # half each, about


@pytest.mark.parametrize("lo, hi", [(2, 5), (0, 1), (3, 3)])
def test_an_amount_range_is_drawn_over_the_whole_range_and_nothing_outside(lo: int, hi: int
                                                                          ) -> None:
    """``n = [lo, hi]`` is inclusive, drawn uniformly per game (docs): one gain of n life in
    one turn. Each game's n is lo + floor(u (hi - lo + 1)) for its amount uniform u; every
    value of the range occurs, about equally often, and none outside it (a fixed seed:
    the counts are always the same)."""
    games, seed = 4000, 9
    text = scenario_text(1, 'name = "alice"\n\nname = "bob"', "",
                  f'action = "gain_life"\nn = [{lo}, {hi}]\ntarget = {{ player = "alice" }}')
    r = mc.run(loads(text, "range.toml"), games=games, seed=seed, workers=1, keep_games=True)
    n = r.raw["life"][:, 0] - 20
    u = block_uniforms(seed, games, 1, 4)[:, 0, 1]
    assert np.array_equal(n, lo + (u * (hi - lo + 1)).astype(int))
    values, counts = np.unique(n, return_counts=True)
    assert values.tolist() == list(range(lo, hi + 1))
    assert (abs(counts - games / values.size) < 0.1 * games / values.size).all()
    assert (r.raw["life"][:, 1] == 20).all()


@pytest.mark.parametrize("effect, counters, left", [
    ('action = "put_counters"\nkind = "+1/+1"', 4, 2), ('action = "proliferate"', 4, 2),
    ('action = "destroy"', 0, 0), ('action = "move_zone"\nzone = "graveyard"', 0, 0)],
    ids=["put", "proliferate", "destroy", "move_zone"])
def test_more_targets_than_candidates_touch_every_candidate_once_and_nothing_else(
        effect: str, counters: int, left: int) -> None:
    """One turn, one effect on up to 3 target bears with two bears on the battlefield, a
    +1/+1 counter each (docs: up to ``targets`` distinct matches): each bear gets one more
    counter (proliferate, 701.34a: one more of each kind it has), or is destroyed, or put
    into the graveyard, once; the wolf before them in the file, no match, is never touched."""
    solo = 'types = ["creature"]\npower = 2\ntoughness = 2'
    text = scenario_text(1, 'name = "alice"\n\nname = "bob"',
                  f'name = "wolf"\ncontroller = "alice"\n{solo}\n\n'
                  f'name = "bears"\ncontroller = "bob"\n{solo}\ncount = 2\n'
                  'counters = { "+1/+1" = 1 }',
                  f'{effect}\ntargets = 3\ntarget = {{ name = "bears" }}')
    r = mc.run(loads(text, "targets.toml"), games=64, workers=1, keep_games=True)
    assert (r.raw["survivors"] == [1, left]).all()
    assert (r.raw["counts"].sum(axis=2) == [0, counters]).all()


def test_122_5_move_counters_moves_from_a_random_source_to_a_random_target() -> None:
    """Each turn, with probability 1/2, one +1/+1 counter moves (CR 122.5) from one of bob's
    two creatures (the source uniform picks it) to alice's "t", else "t" is destroyed; once
    "t" is gone nothing moves, and nothing ever lands on "x", the entry before it (no match).
    The slow model of each game against the run's."""
    turns, games, seed = 3, 512, 14
    body = 'types = ["creature"]\npower = 1\ntoughness = 1'
    text = scenario_text(turns, 'name = "alice"\n\nname = "bob"',
                  f'name = "x"\ncontroller = "alice"\n{body}\n\n'
                  f'name = "t"\ncontroller = "alice"\n{body}\n\n'
                  f'name = "s1"\ncontroller = "bob"\n{body}\ncounters = {{ "+1/+1" = 3 }}\n\n'
                  f'name = "s2"\ncontroller = "bob"\n{body}\ncounters = {{ "+1/+1" = 3 }}',
                  'action = "move_counters"\nkind = "+1/+1"\nsource = { controller = "bob" }\n'
                  'target = { name = "t" }\n\naction = "destroy"\ntarget = { name = "t" }')
    sc = loads(text, "move.toml")
    r = mc.run(sc, games=games, seed=seed, workers=1, keep_games=True)
    u = block_uniforms(seed, games, turns, 4)
    want = np.tile([0, 0, 3, 3], (games, 1))
    alive, late = np.ones(games, bool), np.zeros(games, bool)
    for g in range(games):
        for t in range(turns):
            if u[g, t, 0] >= 0.5:
                alive[g], want[g, 1] = False, 0
            elif not alive[g]:
                late[g] = True     # a move with no target left
            else:
                src = 2 + int(u[g, t, 2] * 2)
                want[g, src] -= 1
                want[g, 1] += 1
    assert alive.any() and late.any() and (want[:, 1] >= 2).any()
    assert (want[:, 2] != want[:, 3]).any()          # both sources were picked
    assert np.array_equal(r.raw["counts"][:, :, sc.report_kinds.index("+1/+1")], want)
    assert np.array_equal(r.raw["survivors"][:, 1], alive.astype(int))


def test_damage_wears_off_at_the_end_of_every_turn() -> None:
    """A 2/2 and two effect draws a turn, each 1 damage to it with probability q: damage wears
    off at cleanup (CR 514.2), so it dies (704.5g) iff both draws of one turn hit it, not at
    its second damage over the game, nor never."""
    q, turns, games, seed = 0.4, 6, 1000, 8
    text = scenario_text(turns, 'name = "alice"\n\nname = "bob"',
                  'name = "bear"\ncontroller = "alice"\ntypes = ["creature"]\npower = 2\n'
                  'toughness = 2',
                  f'action = "deal_damage"\nweight = {q}\nn = 1\ntarget = {{ name = "bear" }}\n\n'
                  f'action = "nothing"\nweight = {1 - q}', top="effects_per_turn = 2")
    r = mc.run(loads(text, "cleanup.toml"), games=games, seed=seed, workers=1, keep_games=True)
    hit = (block_uniforms(seed, games, 2 * turns, 4)[:, :, 0] < q).reshape(games, turns, 2)
    alive = ~hit.all(axis=2).any(axis=1)
    assert alive.any() and (~alive).any() and (alive & (hit.sum(axis=(1, 2)) >= 2)).any()
    assert np.array_equal(r.raw["survivors"][:, 0], alive.astype(int))


def test_each_target_filter_field_narrows_the_candidates() -> None:
    """Six objects; each effect's filter matches one of them only (docs: name, controller,
    types: all of them, token, has; deal_damage: only what can be dealt damage, 120.3), and
    each effect puts its own kind of counter: a kind is only ever on its one object, as many
    as the effect was drawn (equal weights: the draw is floor(6 u))."""
    turns, per, games, seed = 3, 2, 512, 13
    objects = "\n\n".join(f'name = "{n}"\ncontroller = "{c}"\ntypes = {t}\n{extra}' for n, c, t, extra in [
        ("golem", "alice", '["artifact", "creature"]', "power = 3\ntoughness = 10"),
        ("bear", "alice", '["creature"]', "power = 2\ntoughness = 2"),
        ("rock", "alice", '["artifact"]', ""),
        ("ogre", "bob", '["creature"]', "power = 3\ntoughness = 3"),
        ("sap", "alice", '["creature"]', "power = 1\ntoughness = 1\ntoken = true"),
        ("knight", "alice", '["creature"]', 'power = 2\ntoughness = 2\ncounters = { shield = 1 }')])
    filters = [("charge", 'types = ["artifact", "creature"]', "golem"),
               ("time", 'controller = "bob"', "ogre"),
               ("fade", "token = true", "sap"),
               ("age", 'has = "shield"', "knight"),
               ("lore", 'name = "bear"', "bear")]
    effects = "\n\n".join(f'action = "put_counters"\nkind = "{k}"\ntarget = {{ {f} }}'
                          for k, f, _ in filters)
    effects += ('\n\naction = "deal_damage"\nn = 1\nwither = true\n'   # -1/-1 counters (120.3d)
                'target = { controller = "alice", types = ["artifact"] }')
    filters.append(("-1/-1", "", "golem"))          # rock is an artifact, but no creature
    text = scenario_text(turns, 'name = "alice"\n\nname = "bob"', objects, effects,
                  top=f"effects_per_turn = {per}")
    sc = loads(text, "filters.toml")
    r = mc.run(sc, games=games, seed=seed, workers=1, keep_games=True)
    assert r.error is None and all(e.k == games for e in r.survival.values())
    drawn = (block_uniforms(seed, games, turns * per, 4)[:, :, 0] * 6).astype(int)
    names = [o.name for o in sc.objects]
    for i, (kind, _, on) in enumerate(filters):
        counts = r.raw["counts"][:, :, sc.report_kinds.index(kind)]
        want = np.zeros((games, len(names)), np.int64)
        want[:, names.index(on)] = (drawn == i).sum(axis=1)
        assert np.array_equal(counts, want), kind


def test_120_3b_infect_damage_to_a_player_target_gives_poison_counters() -> None:
    """deal_damage's keywords reach a player target too: 3 infect damage to bob a turn gives
    him 3 poison counters and costs him no life (120.3b); at 12 he has lost (704.5c), in turn 4
    of every game. Plain damage would leave him at 5 life after 5 turns."""
    text = scenario_text(5, 'name = "alice"\n\nname = "bob"', "",
                         'action = "deal_damage"\nn = 3\ninfect = true\ntarget = { player = "bob" }')
    r = mc.run(loads(text, "infect.toml"), games=64, seed=1, workers=1, keep_games=True)
    assert r.loss["bob"].k == 64 and r.loss["alice"].k == 0
    assert (r.length.min, r.length.max) == (4, 4)
    assert (r.raw["life"][:, 1] == 20).all() and (r.raw["poison"][:, 1] == 12).all()


@pytest.mark.parametrize("action, survives", [("destroy", True), ("sacrifice", False)])
def test_122_1c_a_shield_counter_stops_a_destroy_effect_not_a_sacrifice(action: str, survives: bool) -> None:
    """A knight with a shield counter: a destroy effect removes the counter instead (122.1c)
    and the knight survives the turn; a sacrifice is no destruction (701.21a) and it dies."""
    text = scenario_text(1, 'name = "alice"\n\nname = "bob"',
                         'name = "knight"\ncontroller = "alice"\ntypes = ["creature"]\npower = 2\n'
                         'toughness = 2\ncounters = { shield = 1 }',
                         f'action = "{action}"\ntarget = {{ name = "knight" }}')
    r = mc.run(loads(text, f"{action}.toml"), games=64, seed=1, workers=1)
    assert r.survival["knight"].k == (64 if survives else 0)
    assert r.counters["knight"]["shield"].max == 0


def test_810_8a_a_two_headed_giant_team_shares_its_life_and_loses_together() -> None:
    """two_headed_giant = true: a team's life is its players' 15 each together (810.4), so 10
    life lost by bob a turn ends his team's 30 in turn 3 (704.6a), and his teammate loses with him
    (810.8a) while the other team loses nothing. Alone, at 20 life, he would lose in turn 2."""
    players = ('name = "alice"\nteam = "red"\n\nname = "bob"\nteam = "blue"\n\n'
               'name = "carol"\nteam = "red"\n\nname = "dave"\nteam = "blue"')
    text = scenario_text(4, players, "", 'action = "lose_life"\nn = 10\ntarget = { player = "bob" }',
                         top="two_headed_giant = true")
    r = mc.run(loads(text, "2hg.toml"), games=64, seed=1, workers=1, keep_games=True)
    assert [r.loss[p].k for p in ("alice", "bob", "carol", "dave")] == [0, 64, 0, 64]
    assert (r.length.min, r.length.max) == (3, 3)
    assert (r.raw["life"] == [30, 0, 30, 0]).all()


def test_both_players_losing_at_once_is_a_draw() -> None:
    """Both at 9 poison, and every turn a proliferate of every player: both reach 10 at
    once (704.5c) and lose together, a draw (104.4a) in turn 1 of every game."""
    text = scenario_text(3, 'name = "alice"\npoison = 9\n\nname = "bob"\npoison = 9', "",
                  'action = "proliferate"\nplayers = true')
    r = mc.run(loads(text, "draw.toml"), games=64, seed=1, workers=1, keep_games=True)
    assert r.draw.k == r.ended.k == r.loss["alice"].k == r.loss["bob"].k == 64
    assert (r.length.min, r.length.max) == (1, 1) and (r.raw["poison"] == 10).all()
    assert r.ticks == 64


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_each_turn_begins_with_the_next_players_main_phase(turns: int) -> None:
    """begin_main_phase = true: each turn begins with the next player's main phase, where
    (GA wither) its controller pays 1 reserve per wither counter on a permanent or sacrifices
    it. Turn 1 is alice's: she pays her 1 reserve; turn 2 bob's: with none he sacrifices his
    ally. The main phase is a check of its own: 2 a turn with one effect draw."""
    champ = 'types = ["champion"]\nlife = 20'
    ally = 'types = ["ally"]\npower = 1\nlife = 2\ncounters = { wither = 1 }'
    text = scenario_text(turns, 'name = "alice"\nreserve = 1\n\nname = "bob"',
                  f'name = "alice_champion"\ncontroller = "alice"\n{champ}\n\n'
                  f'name = "bob_champion"\ncontroller = "bob"\n{champ}\n\n'
                  f'name = "alice_ally"\ncontroller = "alice"\n{ally}\n\n'
                  f'name = "bob_ally"\ncontroller = "bob"\n{ally}',
                  'action = "nothing"', top="begin_main_phase = true"
                  ).replace('ruleset = "mtg"', 'ruleset = "grand_archive"')
    r = mc.run(loads(text, "main.toml"), games=64, seed=1, workers=1, keep_games=True)
    assert r.survival["alice_ally"].k == 64 and (r.raw["reserve"][:, 0] == 0).all()
    assert r.survival["bob_ally"].k == (64 if turns < 2 else 0)
    assert r.counters["alice_ally"]["wither"].max == 0
    assert r.ticks == 64 * 2 * turns and r.ended.k == 0


# ---- the engine refusing an action in the middle of a run -----------------------------------
#: In game 256 (of seed 1) the bear gets a second 1.5e9 +1/+1 counters: past int32.
OVERFLOW = (BEAR.replace("turns = 10", "turns = 2").replace('kind = "-1/-1"', 'kind = "+1/+1"\n'
                                                          'n = 1500000000')
            .replace(f"weight = {P}", "weight = 0.05").replace(f"weight = {1 - P}", "weight = 1"))


@pytest.mark.parametrize("workers, batch", [(1, 32), (1, 1024), (2, 64)])
def test_an_engine_error_names_the_runs_game_and_keeps_the_finished_games(
        workers: int, batch: int) -> None:
    """The engine named the shard's own game ("game 0" with --batch 32, "game 256" with
    1024) and run() raised, dropping every finished game. Now ``error`` says what it refused,
    in which game of the run and to which entry; the shards that finished are counted."""
    sc = loads(OVERFLOW, "overflow.toml")
    r = mc.run(sc, games=1024, workers=workers, batch=batch)
    assert r.error is not None and not r.complete and r.to_dict()["error"] == r.error
    m = re.search(r"^the engine refused an action: CountOverflowError: .*entity \d+ \(bear\) "
                  r"in game (\d+) ", r.error)
    assert m, r.error
    assert r.games % batch == 0 and r.survival["bear"].n == r.games
    if workers == 1:   # shards in order: every one before the first failing game's
        assert int(m[1]) == 256 and r.games == 256 // batch * batch
    else:              # shards finish in any order: some failing game stopped it
        assert int(m[1]) >= 256 and r.games <= 1024 - batch


def test_a_kind_named_like_a_game_is_left_as_it_is_in_the_message() -> None:
    """The run's game numbers replace the shard's in the engine's message, but not inside
    the quotes that hold a counter kind: a kind may be named 'game 1'."""
    sc = loads(OVERFLOW.replace('kind = "+1/+1"', 'kind = "game 1"'), "overflow.toml")
    r = mc.run(sc, games=1024, workers=1, batch=64)
    assert r.error is not None and "'game 1' counters" in r.error, r.error
    assert re.search(r"entity \d+ \(bear\) in game 256 ", r.error), r.error


def test_the_game_named_is_the_first_that_fails() -> None:
    sc = loads(OVERFLOW, "overflow.toml")
    assert mc.run(sc, games=256, workers=1).complete
    assert mc.run(sc, games=257, workers=1).error is not None


def test_check_tries_each_effect_on_the_board_as_it_starts() -> None:
    """OVERFLOW's effects twice: two effects of 1.5e9 +1/+1 counters each, fine alone (both
    in one game pass int32: the run's error, in the game that draws both). check() tries
    every effect on the starting board, not on the last one's, and takes the scenario."""
    sc = loads(OVERFLOW + OVERFLOW[OVERFLOW.index("[[effects]]"):], "twice.toml")
    assert [e.action for e in sc.effects] == ["put_counters", "nothing"] * 2
    mc.check(sc)


def test_a_batch_past_what_a_world_holds_is_refused_before_any_game(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Shards of 30,000 games of 5,000 tokens pass the engine's MAX_SLOTS (games x columns):
    that stopped the run with the engine's InvalidCountError. ``max_batch`` is the bound: a
    World of one more block refuses the board."""
    sc = loads(BEAR.replace("toughness = 2", "toughness = 2\ncount = 5000"), "swarm.toml")
    most = mc.max_batch(sc)
    assert most % mc.BLOCK == 0 and most * 5002 <= limits.MAX_SLOTS
    w = World(batch=most + mc.BLOCK)
    w.add_player(), w.add_player()
    with pytest.raises(InvalidCountError, match="MAX_SLOTS"):
        w.add_objects(5000, 0, "creature", power=2, toughness=2)
    played: list[object] = []
    monkeypatch.setattr(mc, "play_shard", lambda *a: played.append(a))
    with pytest.raises(mc.ArgumentError, match=f"batch must be at most {most:,} games") as e:
        mc.run(sc, games=30_000, workers=1, batch=30_000)
    assert (e.value.name, e.value.value) == ("batch", 30_000) and played == []
    with pytest.raises(ValueError, match="batch must be an integer in 1.."):
        mc.run(sc, games=64, workers=1, batch=0)


def test_run_takes_its_counts_bounds_and_refuses_past_them_and_bools() -> None:
    """Seed 0 and 1 game are taken; 0 games, seed -1 or 2^63, and True or 1.0 (not counts,
    though Python adds them as numbers) are refused, naming the argument and the value."""
    r = mc.run("bear_decay", games=1, seed=0, workers=1)
    assert r.complete and (r.games, r.seed) == (1, 0)
    for name, bad in (("games", 0), ("games", True), ("seed", -1), ("seed", 2**63),
                      ("seed", 1.0), ("batch", True)):
        with pytest.raises(mc.ArgumentError, match=f"^{name} must be an integer in ") as e:
            mc.run("bear_decay", workers=1, **{name: bad})
        assert (e.value.name, e.value.value) == (name, bad)


def test_a_run_of_one_shard_plays_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """One shard (64 games, batch 64) with 2 workers: no pool is started for it (none could
    be here), it plays in this process, reported as 1 worker."""
    monkeypatch.setattr(executors, "ProcessPoolExecutor", None)
    r = mc.run("bear_decay", games=64, workers=2, batch=64)
    assert r.complete and r.workers == 1


def test_a_batch_at_the_bound_or_past_a_short_run_is_accepted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``max_batch`` itself is a batch a World holds; a bigger one is refused only when the
    run's shards would be that big (a shard is never bigger than the run)."""
    monkeypatch.setattr(mc, "max_batch", lambda sc: 2 * mc.BLOCK)
    assert mc.run("bear_decay", games=64, workers=1, batch=64).batch == 64
    assert mc.run("bear_decay", games=40, workers=1, batch=10_000).batch == 64
    with pytest.raises(mc.ArgumentError, match="batch must be at most 64 games"):
        mc.run("bear_decay", games=65, workers=1, batch=96)


def test_a_run_without_a_finished_game_reports_every_figure_as_null() -> None:
    """The one shard fails (OVERFLOW's game 256) and no game counts: every probability and
    statistic is undefined, null in JSON (which has no NaN), and the kept arrays are empty,
    of the shapes and types of a finished run's."""
    sc = loads(OVERFLOW, "overflow.toml")
    r = mc.run(sc, games=1024, workers=1, batch=1024, keep_games=True)
    ok = mc.run(sc, games=32, workers=1, keep_games=True)
    assert r.games == 0 and r.error is not None and ok.complete and r.raw.keys() == ok.raw.keys()
    for k, v in ok.raw.items():
        assert (r.raw[k].shape, r.raw[k].dtype) == ((0,) + v.shape[1:], v.dtype), k
    d = json.loads(json.dumps(r.to_dict(), allow_nan=False))
    assert (d["games"], d["requested"], d["complete"]) == (0, 1024, False)
    assert d["survival"]["bear"] == {"p": None, "ci95": [None, None], "k": 0, "n": 0, "copies": 1}
    assert d["loss"]["alice"] == {"p": None, "ci95": [None, None], "k": 0, "n": 0}
    nothing = dict.fromkeys(("mean", "p5", "p95", "min", "max"))
    assert d["counters"]["bear"]["+1/+1"] == d["length"] == d["life"]["bob"] == nothing


# ---- determinism -------------------------------------------------------------------------------
def _same(a: mc.Result, b: mc.Result) -> None:
    assert a.raw.keys() == b.raw.keys()
    for k in a.raw:
        assert np.array_equal(a.raw[k], b.raw[k]), k
    assert a.to_dict(timing=False) == b.to_dict(timing=False)


@pytest.fixture(scope="module")
def reference() -> mc.Result:
    return mc.run("mtg_skirmish", games=300, seed=7, workers=1, batch=32, keep_games=True)


def test_same_seed_same_result_whatever_the_batch_and_workers(reference: mc.Result) -> None:
    assert reference.games == 300 and 0 < reference.survival["walker"].k < 300
    again = {"games": 300, "seed": 7, "keep_games": True}
    _same(reference, mc.run("mtg_skirmish", workers=1, batch=1024, **again))
    _same(reference, mc.run("mtg_skirmish", workers=2, batch=96, **again))
    with ThreadPoolExecutor(3) as ex:
        _same(reference, mc.run("mtg_skirmish", executor=ex, batch=64, **again))
    other = mc.run("mtg_skirmish", games=300, seed=8, workers=1, keep_games=True)
    assert not np.array_equal(other.raw["survivors"], reference.raw["survivors"])


def test_more_games_extend_the_same_games(reference: mc.Result) -> None:
    """Game i depends on its block only: the first 300 of 400 games are the same 300."""
    more = mc.run("mtg_skirmish", games=400, seed=7, workers=1, batch=128, keep_games=True)
    for k in ("survivors", "counts", "lost", "length", "life", "poison"):
        assert np.array_equal(more.raw[k][:300], reference.raw[k]), k


def test_dask_cluster_gives_the_local_result(reference: mc.Result) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        r = mc.run("mtg_skirmish", games=300, seed=7, executor=client.get_executor(), batch=64,
                   keep_games=True)
        _same(reference, r)
        _same(reference, mc.run("mtg_skirmish", games=300, seed=7, batch=128,
                                scheduler=cluster.scheduler_address, keep_games=True))


# ---- the result object, interruption, the big and GA scenarios ---------------------------------
def test_every_figure_is_that_of_the_games_played(reference: mc.Result) -> None:
    """Each entry's survival, survivors and counters of each kind, each player's loss and
    stats, the draws, endings, lengths and checks: each is the figure of its own column of
    the per-game arrays (entries, kinds and players in their scenario's order)."""
    r, raw, sc = reference, reference.raw, reference.scenario
    for i, o in enumerate(sc.objects):
        assert r.survival[o.name] == mc.Estimate.of(raw["survivors"][:, i] > 0), o.name
        assert r.survivors[o.name] == mc.Distribution.of(raw["survivors"][:, i]), o.name
        for j, kind in enumerate(sc.report_kinds):
            want = mc.Distribution.of(raw["counts"][:, i, j])
            assert r.counters[o.name][kind] == want, (o.name, kind)
    for i, p in enumerate(sc.players):
        assert r.loss[p.name] == mc.Estimate.of(raw["lost"][:, i]), p.name
        for stat in mc.PLAYER_STATS[sc.ruleset]:
            assert r.player_stats[stat][p.name] == mc.Distribution.of(raw[stat][:, i]), stat
    assert (r.draw, r.ended) == (mc.Estimate.of(raw["draw"]), mc.Estimate.of(raw["ended"]))
    assert r.length == mc.Distribution.of(raw["length"]) and r.ticks == raw["ticks"].sum()
    # the columns differ, so that one read for another shows
    assert r.loss["alice"] != r.loss["bob"] and r.player_stats["life"]["alice"] != \
        r.player_stats["life"]["bob"]
    assert len({str(ks) for ks in r.counters.values()}) == len(sc.objects)


def test_result_to_dict_is_json(reference: mc.Result) -> None:
    d = json.loads(json.dumps(reference.to_dict(), allow_nan=False))
    assert d["games"] == d["requested"] == 300 and d["complete"] is True
    assert set(d["survival"]) == {o.name for o in reference.scenario.objects}
    assert set(d["survival"]["walker"]) == {"p", "ci95", "k", "n", "copies"}
    assert set(d["counters"]["hydra"]["+1/+1"]) == {"mean", "p5", "p95", "min", "max"}
    assert set(d["loss"]) == {"alice", "bob"} and "draw" in d and "length" in d
    assert d["throughput"]["games_per_s"] > 0 and d["throughput"]["ticks_per_s"] > 0


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_returns_the_games_that_finished(reference: mc.Result, workers: int) -> None:
    seen: list[int] = []

    def interrupt(n: int) -> None:
        seen.append(n)
        raise KeyboardInterrupt

    r = mc.run("mtg_skirmish", games=300, seed=7, workers=workers, batch=64, on_shard=interrupt,
               keep_games=True)
    assert r.interrupted and seen == [64] and r.requested == 300
    assert r.to_dict()["complete"] is False and r.survival["walker"].n == r.games
    if workers == 1:  # in process, the first shard is games 0..63
        assert r.games == 64
        assert np.array_equal(r.raw["survivors"], reference.raw["survivors"][:64])
    else:  # shards that finished while stopping are kept too
        assert 64 <= r.games < 300


def test_proliferate_players_when_no_object_matches() -> None:
    """Proliferate with players = true in games where the filtered object is gone: the
    players still get their poison counter (701.34a)."""
    text = (BEAR.replace('name = "bob"', 'name = "bob"\npoison = 1')
            .replace('action = "nothing"', 'action = "proliferate"\nplayers = true\n'
                     'target = { name = "bear" }'))
    r = mc.run(loads(text, "prolif.toml"), games=256, seed=4, workers=1, keep_games=True)
    u = block_uniforms(4, 256, T, 4)[:, :, 0]
    poison = np.minimum(1 + (u >= P).sum(axis=1), 10)   # 10 poison: bob loses (704.5c)
    assert np.array_equal(r.raw["poison"][:, 1], poison)
    assert np.array_equal(r.raw["lost"][:, 1], poison == 10)
    assert (r.raw["poison"][:, 0] == 0).all() and r.survival["bear"].k < 256


def test_thousands_of_permanents() -> None:
    sc = load("token_swarm")
    assert sc.n_objects >= 2000
    r = mc.run(sc, games=40, seed=2, workers=1, keep_games=True)
    soldiers = r.raw["survivors"][:, 2]
    assert r.games == 40 and (soldiers <= 1000).all() and (soldiers < 1000).any()
    assert r.counters["alice_soldiers"]["+1/+1"].max > 0


def test_grand_archive_scenario_runs() -> None:
    sc = load("ga_wither")
    assert sc.ruleset == "grand_archive"
    r = mc.run(sc, games=64, seed=1, workers=1)
    assert r.games == 64


# ---- streaming statistics -----------------------------------------------------------
def test_histogram_gives_numpys_inverted_cdf_percentiles_and_merges_exactly() -> None:
    """Percentiles of counts are values that occurred (integers), the "inverted CDF" of
    NumPy; a histogram folded from parts in any order equals the histogram of the whole."""
    rng = np.random.default_rng(3)
    for n in (1, 2, 19, 20, 21, 100, 1001):
        x = rng.integers(-5, 40, n)
        d = mc.Distribution.of(x)
        p5, p95 = np.percentile(x, [5, 95], method="inverted_cdf")
        assert (d.p5, d.p95, d.min, d.max) == (p5, p95, x.min(), x.max())
        assert d.mean == pytest.approx(x.mean())
        parts = np.array_split(x, 4)
        h = mc.Histogram()
        for part in parts[::-1]:
            h.add(mc.Histogram.of(part))
        assert h.distribution() == d and h.n == n and h.count(7) == int((x == 7).sum())


def test_survivor_percentiles_are_counts_that_occurred() -> None:
    """"5%-95% 2.95-5" was an interpolated count of survivors; now every percentile is the
    number of survivors of some game."""
    r = mc.run("mtg_skirmish", games=256, seed=2, workers=1, keep_games=True)
    saps = r.raw["survivors"][:, [o.name for o in r.scenario.objects].index("saprolings")]
    d = r.survivors["saprolings"]
    assert d.p5 in saps and d.p95 in saps and d.p5 < d.p95
    assert d.p5 == np.percentile(saps, 5, method="inverted_cdf")


def test_a_run_holds_no_per_game_arrays_unless_asked() -> None:
    r = mc.run("bear_decay", games=100, workers=1)
    assert r.raw is None and r.games == 100 and r.survival["bear"].n == 100


def test_ticks_count_the_games_asked_for_not_the_padding() -> None:
    """40 games play as two blocks of 32: the 24 padding games are not counted. The
    bear never ends a game: each of the 40 games ticks once per turn."""
    r = mc.run(loads(BEAR, "bear.toml"), games=40, workers=1, batch=64)
    assert r.ticks == 40 * T and r.batch == 64


def test_progress_and_on_shard_count_the_games_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """40 games in shards of 32: the second shard's 24 padding games are played but not
    reported, to ``on_shard`` nor to the progress bar, which ends at the 40 games asked."""
    class Bar:
        def __init__(self, total: int) -> None:
            self.total, self.steps, self.closed = total, [], False

        def update(self, n: int) -> None:
            self.steps.append(n)

        def close(self) -> None:
            self.closed = True

    bars: list[Bar] = []
    monkeypatch.setattr(mc, "_bar", lambda total, enabled: bars.append(Bar(total)) or bars[-1])
    seen: list[int] = []
    r = mc.run(loads(BEAR, "bear.toml"), games=40, workers=1, batch=32, progress=True,
               on_shard=seen.append)
    assert seen == [32, 8] and r.games == 40
    assert [(b.total, b.steps, b.closed) for b in bars] == [(40, [32, 8], True)]


def test_the_batch_reported_is_the_one_used() -> None:
    assert mc.run("bear_decay", games=100, workers=1, batch=40).batch == 64      # whole blocks
    assert mc.run("bear_decay", games=40, workers=1, batch=1000).batch == 64    # 2 blocks at most


def test_a_trillion_games_stream(reference: mc.Result) -> None:
    """10^12 games start at once (no list of 3*10^10 shards, no futures for all of them) and
    stop on Ctrl-C with the games that finished; a local pool holds a window of shards."""
    def interrupt(n: int) -> None:
        raise KeyboardInterrupt

    for workers in (1, 2):
        r = mc.run("mtg_skirmish", games=10**12, seed=7, workers=workers, batch=64,
                   on_shard=interrupt)
        assert r.interrupted and r.requested == 10**12 and 64 <= r.games <= 64 * 6
        assert r.to_dict()["complete"] is False and r.batch == 64
    with pytest.raises(ValueError, match="games must be an integer in 1.."):
        mc.run("bear_decay", games=mc.MAX_GAMES + 1)


def test_big_boards_get_smaller_shards() -> None:
    """token_swarm (2,002 permanents) is slower per game in shards of 512 games than of
    256: the default batch keeps games x objects within MAX_CELLS."""
    assert mc.default_batch(10_000, 2, 2002) == 256 <= mc.MAX_CELLS // 2002
    assert mc.default_batch(10_000, 2, 10**6) == mc.BLOCK


def test_weights_too_large_to_sum_give_the_right_probabilities() -> None:
    """Weights of 1e308 summed to inf: the draw probabilities were nan. Scaled by a
    power of two first, they are exactly those of the same weights at 1."""
    one = BEAR.replace(f"weight = {P}", "weight = 1").replace(f"weight = {1 - P}", "weight = 1")
    huge = one.replace("weight = 1", "weight = 1e308")
    a = mc.run(loads(one, "one.toml"), games=256, seed=5, workers=1, keep_games=True)
    b = mc.run(loads(huge, "one.toml"), games=256, seed=5, workers=1, keep_games=True)
    _same(a, b)
    assert 0 < a.survival["bear"].k < 256


# ---- executors: spawn, lost workers, a lost scheduler -------------------------
def test_a_spawn_process_pool_gives_the_local_result() -> None:
    """The module works under the spawn start method (what macOS and Windows use): a worker
    imports it afresh and plays shards of a pickled Scenario."""
    import multiprocessing
    local = mc.run("bear_decay", games=96, seed=7, workers=1, keep_games=True)
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as ex:
        _same(local, mc.run("bear_decay", games=96, seed=7, executor=ex, batch=32,
                            keep_games=True))


def test_a_killed_local_worker_is_replaced_and_nothing_is_lost(reference: mc.Result) -> None:
    """A worker of the local pool dies (OOM killer, kill -9): its shard and the pool's other
    pending shards are played again in a new pool; the result is the same."""
    import multiprocessing
    killed: list[int] = []

    def kill_one(n: int) -> None:
        if not killed:
            victim = multiprocessing.active_children()[0]
            killed.append(victim.pid or 0)
            os.kill(victim.pid or 0, signal.SIGKILL)

    r = mc.run("mtg_skirmish", games=300, seed=7, workers=2, batch=64, on_shard=kill_one,
               keep_games=True)
    assert killed and r.error is None and not r.interrupted
    _same(reference, r)


def test_a_worker_killed_while_it_sends_a_result_is_replaced() -> None:
    """A worker killed mid-send leaves half a message in the pool's result pipe, and the pool's
    thread waits for the rest for ever: its futures never finished, and the run hung. Now the
    run sees the dead worker, breaks the pool and plays the lost shards in a new one. (In a
    child process: without the fix it would hang.)"""
    from test_cli_signals import HALF_A_MESSAGE, _finish, _start
    kill = "os.kill(next(iter(pools[0]._processes)), signal.SIGKILL)"
    code = HALF_A_MESSAGE.replace("THEN", kill) + (
        "import numpy as np\n"
        "r = mc.run('bear_decay', games=640, seed=3, workers=2, batch=64, keep_games=True)\n"
        "ref = mc.run('bear_decay', games=640, seed=3, workers=1, keep_games=True)\n"
        "same = all(np.array_equal(r.raw[k], ref.raw[k]) for k in ref.raw)\n"
        "print(len(pools), r.games, r.error, same)\n")
    out, err = _finish(_start(code), 120)
    assert out == "2 640 None True\n", err[-3000:]


class FlakyExecutor(ThreadPoolExecutor):
    """Loses every shard starting at ``block`` ``losses`` times (a worker that dies), or for
    ever (losses=None): its future fails as a Dask future of a killed worker does."""

    def __init__(self, block: int, losses: int | None) -> None:
        super().__init__(2)
        self.block, self.losses, self.lost = block, losses, 0

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def]
        if args[2] == self.block and (self.losses is None or self.lost < self.losses):
            self.lost += 1
            f: Future[object] = Future()
            f.set_exception(RuntimeError("KilledWorker: the worker died 3 times"))
            return f
        return super().submit(fn, *args, **kwargs)


def test_a_lost_shard_is_resubmitted(reference: mc.Result) -> None:
    with FlakyExecutor(block=3, losses=mc.RETRIES) as ex:
        r = mc.run("mtg_skirmish", games=300, seed=7, executor=ex, batch=96, keep_games=True)
    assert ex.lost == mc.RETRIES and r.error is None
    _same(reference, r)


def test_a_shard_lost_for_good_stops_the_run_with_the_finished_games() -> None:
    """Past RETRIES the run stops as Ctrl-C does: no exception, the finished games kept."""
    with FlakyExecutor(block=20, losses=None) as ex:
        r = mc.run("bear_decay", games=3200, seed=7, executor=ex, batch=32)
    assert ex.lost == mc.RETRIES + 1 and not r.interrupted and not r.complete
    assert r.error is not None and "games 640..671 were lost 3 times" in r.error
    assert "KilledWorker" in r.error and 10 * 32 <= r.games < 3200
    assert r.to_dict()["error"] == r.error and r.survival["bear"].n == r.games


class ReconnectingExecutor(ThreadPoolExecutor):
    """Loses its scheduler when shard ``block`` is submitted, as a Dask client's executor
    does: the client turns ``connecting`` and cancels every future it holds (and those
    submitted meanwhile), then after ``delay`` s is ``running`` again or gives up
    (``closed``, and refuses work). ``cancelled`` holds the attempt number of each shard
    it cancelled (0: its first submission)."""

    def __init__(self, block: int, then: str, delay: float = 0.3) -> None:
        super().__init__(2)
        self.block, self.then, self.delay = block, then, delay
        self.cancelled: list[int] = []
        self._client = type("Client", (), {"status": "running"})()

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def]
        if self._client.status == "running" and args[2] == self.block and not self.cancelled:
            self._client.status = "connecting"
            threading.Timer(self.delay, setattr, (self._client, "status", self.then)).start()
        if self._client.status == "closed":
            raise RuntimeError("Client is closed")
        if self._client.status == "connecting":
            self.cancelled.append(args[-1])
            f: Future[object] = Future()
            f.cancel()
            f.set_running_or_notify_cancel()
            return f
        return super().submit(fn, *args, **kwargs)


class HeldExecutor(Executor):
    """Plays a shard only when told, in the caller's thread, so that shards finish in the
    test's order: ``release(block)`` plays the shard starting at ``block``; ``plays`` maps a
    submission (block, attempt) to the shards released as it arrives; shards of ``lose``
    fail at once, as a killed worker's do. It plays 2 shards at once (for the window)."""
    _max_workers = 2

    def __init__(self, plays: dict[tuple[int, int], list[int]] | None = None,
                 lose: tuple[int, ...] = ()) -> None:
        self.plays, self.lose = plays or {}, set(lose)
        self.held: dict[int, tuple[Future[object], Callable[..., object], tuple[object, ...]]] = {}
        self.futures: dict[int, Future[object]] = {}    # each block's latest
        self.submitted: list[tuple[int, int]] = []
        self.played: list[int] = []

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def]
        block, attempt = args[2], args[-1]
        self.submitted.append((block, attempt))
        f: Future[object] = Future()
        self.futures[block] = f
        if block in self.lose:
            f.set_exception(RuntimeError("KilledWorker: the worker died"))
        else:
            self.held[block] = (f, fn, args)
        for b in self.plays.get((block, attempt), []):
            self.release(b)
        return f

    def release(self, block: int) -> None:
        f, fn, args = self.held.pop(block)
        self.played.append(block)
        if f.set_running_or_notify_cancel():
            f.set_result(fn(*args))


def test_raw_games_are_in_game_order_whatever_order_shards_finish() -> None:
    """Three shards finish last first (each one's on_shard lets the one before it play):
    the kept games are still in game order, those of the local run."""
    ex = HeldExecutor(plays={(2, 0): [2]})
    r = mc.run("bear_decay", games=96, seed=3, executor=ex, batch=32, keep_games=True,
               on_shard=lambda n: ex.held and ex.release(max(ex.held)))
    assert ex.played == [2, 1, 0]
    _same(mc.run("bear_decay", games=96, seed=3, workers=1, keep_games=True), r)


def test_a_run_submits_a_window_of_shards_and_ctrl_c_keeps_those_that_finished() -> None:
    """A run of 100 shards submits a window of them, not all: two per shard the executor
    plays at once, and one more. Ctrl-C (here from on_shard) as the first is folded in:
    the shard that finished meanwhile counts too (not told to on_shard: the run is
    stopping), and those still waiting are cancelled."""
    ex = HeldExecutor(plays={(1, 0): [0]})
    seen: list[int] = []

    def stop(n: int) -> None:
        seen.append(n)
        ex.release(1)
        raise KeyboardInterrupt

    r = mc.run("bear_decay", games=100 * mc.BLOCK, executor=ex, batch=mc.BLOCK, on_shard=stop)
    assert ex.submitted == [(b, 0) for b in range(2 * ex._max_workers + 1)]
    assert r.interrupted and r.games == 2 * mc.BLOCK and seen == [mc.BLOCK]
    assert sorted(ex.held) == [2, 3, 4] and all(ex.futures[b].cancelled() for b in ex.held)


def test_a_shard_that_finishes_as_a_lost_one_stops_the_run_counts() -> None:
    """Block 0's shard is lost every time: its third loss (RETRIES) stops the run. Block
    1's shard finishes with it and block 2's while it is folded in: both count; block 3's,
    never played, is cancelled."""
    ex = HeldExecutor(plays={(0, mc.RETRIES): [1]}, lose=(0,))
    r = mc.run("bear_decay", games=4 * mc.BLOCK, executor=ex, batch=mc.BLOCK,
               on_shard=lambda n: ex.held.get(2) and ex.release(2))
    assert r.error is not None and not r.interrupted, r.error
    assert r.error.startswith(f"games 0..31 were lost {mc.RETRIES + 1} times: RuntimeError")
    assert r.games == 2 * mc.BLOCK and ex.played == [1, 2]
    assert list(ex.held) == [3] and ex.futures[3].cancelled()


def test_interrupt_as_the_shards_in_flight_finish_marks_the_run_interrupted() -> None:
    """interrupt() (from on_shard) as every shard in flight has finished: no more are
    submitted and nothing is left to wait for; the run returns with those games, marked
    interrupted (not as if it had played them all)."""
    ex = HeldExecutor(plays={(4, 0): [0, 1, 2, 3, 4]})
    r = mc.run("bear_decay", games=10 * mc.BLOCK, executor=ex, batch=mc.BLOCK,
               on_shard=lambda n: mc.interrupt())
    assert r.interrupted and r.error is None and not r.complete
    assert r.games == 5 * mc.BLOCK and len(ex.submitted) == 5


def test_a_dask_reconnection_costs_no_retries(reference: mc.Result) -> None:
    """A scheduler connection that drops and comes back: the shards it cancelled are
    resubmitted once it is back, not spent while it reconnects; the result is the same."""
    with ReconnectingExecutor(block=3, then="running") as ex:
        r = mc.run("mtg_skirmish", games=300, seed=7, executor=ex, batch=96, keep_games=True)
    assert ex.cancelled and set(ex.cancelled) == {0} and r.error is None
    _same(reference, r)


def test_a_dask_scheduler_that_never_comes_back_is_named() -> None:
    """The client gives up reconnecting: the run stops with the finished games and says the
    scheduler was lost, not that a shard was cancelled RETRIES + 1 times."""
    with ReconnectingExecutor(block=20, then="closed") as ex:
        r = mc.run("bear_decay", games=3200, seed=7, executor=ex, batch=32)
    assert ex.cancelled and set(ex.cancelled) == {0}
    assert not r.complete and 10 * 32 <= r.games < 3200
    assert r.error == "the Dask client lost its scheduler (closed)"


def test_a_lost_dask_scheduler_keeps_the_finished_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scheduler dies mid-run: the client gives up reconnecting, and the run returns the
    games that finished instead of waiting for ever or raising."""
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(executors, "CONNECT_TIMEOUT", 1.0)
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                       dashboard_address=None)
    closing: list[threading.Thread] = []

    def close_the_cluster(n: int) -> None:
        if not closing:
            closing.append(threading.Thread(target=cluster.close))
            closing[0].start()

    try:
        r = mc.run("bear_decay", games=100_000, seed=1, batch=64, on_shard=close_the_cluster,
                   scheduler=cluster.scheduler_address)
    finally:
        closing[0].join() if closing else cluster.close()
    assert r.error is not None and "scheduler" in r.error
    assert 64 <= r.games < 100_000 and not r.complete


# ---- Ctrl-C that a library swallows -----------------------------------------------
@pytest.fixture
def ctrl_c() -> Iterator[None]:
    """Python's own Ctrl-C handler, as an interactive run has it: a run started with Ctrl-C
    ignored (a background job, ``nohup``) leaves it ignored, and these tests' Ctrl-C would
    not arrive."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


def _swallowed_ctrl_c() -> None:
    """Ctrl-C arrives, and the code it lands in eats the KeyboardInterrupt, as numba's
    compiler does when it lands in Python code called from C that clears errors."""
    try:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.1)            # the handler runs here
    except KeyboardInterrupt:
        pass


@pytest.mark.usefixtures("ctrl_c")
def test_ctrl_c_swallowed_before_the_run_still_stops_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lost Ctrl-C: an interrupt while the kernels load vanished and the run
    went on for ever. The run remembers it and stops before playing."""
    played: list[object] = []
    real = mc.check
    monkeypatch.setattr(mc, "check", lambda sc: (real(sc), _swallowed_ctrl_c()))
    monkeypatch.setattr(mc, "play_shard", lambda *a: played.append(a))
    with pytest.raises(KeyboardInterrupt):
        mc.run("bear_decay", games=1000, workers=1)
    assert played == []
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler   # restored


@pytest.mark.usefixtures("ctrl_c")
def test_ctrl_c_swallowed_in_a_shard_stops_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Swallowed while a shard plays in this process: the run stops after that shard."""
    real = mc.play_shard

    def play_and_swallow(*a: object) -> dict[str, np.ndarray]:
        out = real(*a)  # type: ignore[arg-type]
        _swallowed_ctrl_c()
        return out

    monkeypatch.setattr(mc, "play_shard", play_and_swallow)
    r = mc.run("bear_decay", games=10**6, batch=64, workers=1)
    assert r.interrupted and r.games == 64


# ---- an application's own signal handling ---------------------------------------------
@pytest.fixture
def own_sigint() -> Iterator[None]:
    """SIGINT handled by the application: a run leaves it alone."""
    old = signal.signal(signal.SIGINT, lambda signum, frame: None)
    yield
    signal.signal(signal.SIGINT, old)


@pytest.mark.usefixtures("own_sigint")
def test_interrupt_stops_a_run_as_ctrl_c_does() -> None:
    """``interrupt()`` from the run's thread (as an application's signal handler calls it):
    the run stops at once with the games that finished; no run, nothing to stop."""
    def stop(n: int) -> None:
        assert mc.interrupt()

    r = mc.run("bear_decay", games=10**6, batch=64, workers=1, on_shard=stop)
    assert r.interrupted and r.games == 64 and r.error is None
    assert not mc.interrupt()


def test_interrupt_from_another_thread_stops_the_run_at_a_shard() -> None:
    """From another thread it only asks: the run stops before its next shard."""
    first = threading.Event()
    asked: list[bool] = []

    def ask() -> None:
        first.wait(60)
        asked.append(mc.interrupt())

    t = threading.Thread(target=ask)
    t.start()
    r = mc.run("bear_decay", games=10**6, batch=64, workers=1,
               on_shard=lambda n: (first.set(), time.sleep(0.2)))
    t.join()
    assert asked == [True] and r.interrupted and 64 <= r.games < 10**6


def test_interrupt_stops_the_newest_run_only() -> None:
    """A run started inside another (here from its on_shard): interrupt() stops the inner,
    newest one; the outer one plays on to its end."""
    inner: list[mc.Result] = []

    def nested(n: int) -> None:
        if not inner:
            inner.append(mc.run("bear_decay", games=10**6, batch=64, workers=1,
                                on_shard=lambda n: mc.interrupt()))

    r = mc.run("bear_decay", games=128, batch=64, workers=1, on_shard=nested)
    assert inner[0].interrupted and inner[0].games == 64
    assert r.complete and r.games == 128


class ClusterExecutor(ThreadPoolExecutor):
    """Looks like a Dask ClientExecutor: its ``_client`` tells how many threads each worker
    of the cluster has (``threads``), and the executor itself plays one shard at a time."""

    def __init__(self, threads: dict[str, int]) -> None:
        super().__init__(1)
        self._client = type("Client", (), {"nthreads": lambda _: threads})()


def test_the_default_batch_counts_every_thread_of_a_dask_cluster() -> None:
    """A Dask cluster plays as many shards at once as its workers have threads, 3 + 2 here:
    320 games (10 blocks) are 5 shards of 2 blocks, not the one shard of one thread."""
    with ClusterExecutor({"tcp://a": 3, "tcp://b": 2}) as ex:
        r = mc.run("bear_decay", games=320, executor=ex)
    assert r.batch == mc.default_batch(320, 5) == 2 * mc.BLOCK and r.games == 320


def test_the_window_of_an_executor_is_its_own_not_that_of_workers() -> None:
    """``workers`` sizes a local pool only: with an executor the window of shards submitted
    is two per shard it plays at once, and one more, whatever ``workers`` says."""
    ex = HeldExecutor(plays={(0, 0): [0]})
    r = mc.run("bear_decay", games=100 * mc.BLOCK, executor=ex, workers=7, batch=mc.BLOCK,
               on_shard=lambda n: mc.interrupt())
    assert ex.submitted == [(b, 0) for b in range(2 * ex._max_workers + 1)]
    assert r.interrupted and r.games == mc.BLOCK


def test_an_executor_that_refuses_a_resubmission_stops_the_run_saying_so() -> None:
    """Block 0's shard is lost, and the executor (not a pool of the run's own, which would
    be replaced) refuses to take it again: the run stops with the executor's own words."""
    class Refusing(HeldExecutor):
        def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def]
            if args[-1] > 0:
                raise RuntimeError("cannot schedule new futures after shutdown")
            return super().submit(fn, *args, **kwargs)

    ex = Refusing(lose=(0,))
    r = mc.run("bear_decay", games=2 * mc.BLOCK, executor=ex, batch=mc.BLOCK)
    assert r.error == ("the executor takes no more work: RuntimeError: cannot schedule new "
                       "futures after shutdown")
    assert r.games == 0 and not r.interrupted and ex.futures[1].cancelled()


def test_a_run_that_took_no_time_has_no_rate() -> None:
    """Games and checks per second of a run whose clock read 0 s are undefined (null in
    JSON), not a division by zero."""
    sc = load("bear_decay")
    r = mc.Result(sc, 1, 1, mc.Tally(sc), elapsed=0.0)
    assert math.isnan(r.games_per_s) and math.isnan(r.ticks_per_s)
    assert r.to_dict()["throughput"]["games_per_s"] is None


def test_a_programs_own_ctrl_c_handler_is_left_alone_during_a_run() -> None:
    """A run installs its Ctrl-C handler over Python's default one only: an application's
    own SIGINT handler stays in place throughout (it may call ``interrupt``)."""
    def mine(signum: int, frame: object) -> None:
        pass

    seen: list[object] = []
    old = signal.signal(signal.SIGINT, mine)
    try:
        r = mc.run("bear_decay", games=64, workers=1, batch=32,
                   on_shard=lambda n: seen.append(signal.getsignal(signal.SIGINT)))
    finally:
        signal.signal(signal.SIGINT, old)
    assert r.complete and seen == [mine, mine]


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads /proc")
def test_local_workers_ignore_ctrl_c_and_leave_it_to_the_run() -> None:
    """Ctrl-C in a terminal reaches the whole process group: each local worker ignores it
    (the run stops the workers itself), rather than dying mid-shard with a traceback."""
    import multiprocessing
    ignored: list[bool] = []

    def look(n: int) -> None:
        for child in multiprocessing.active_children():
            with open(f"/proc/{child.pid}/status") as f:
                m = re.search(r"SigIgn:\s*([0-9a-f]+)", f.read())
            assert m
            ignored.append(bool(int(m[1], 16) >> (signal.SIGINT - 1) & 1))

    r = mc.run("bear_decay", games=128, workers=2, batch=32, on_shard=look)
    assert r.complete and ignored and all(ignored)


def test_the_largest_seed_is_taken() -> None:
    """Seeds run up to 2^63 - 1 inclusive (refused only past it)."""
    r = mc.run("bear_decay", games=1, seed=2**63 - 1, workers=1)
    assert r.complete and r.seed == 2**63 - 1


def test_a_batch_or_a_worker_count_under_one_still_makes_shards_of_whole_blocks() -> None:
    """``plan`` and ``default_batch`` take any count: a batch under one game is one block a
    shard, fewer than one worker is one worker."""
    assert list(mc.plan(64, 0)) == [(0, 1), (1, 1)]
    assert mc.default_batch(64, 0) == mc.default_batch(64, -1) == mc.default_batch(64, 1) == 64


def test_a_tally_takes_a_part_of_no_games() -> None:
    """Folding in a part of no games changes nothing (its arrays have no rows to reshape)."""
    sc = load("bear_decay")
    part = mc.play_shard(sc, 1, 0, 1)
    t = mc.Tally(sc)
    t.add({k: v[:0] for k, v in part.items()})
    t.add(part)
    assert (t.games, t.ticks) == (mc.BLOCK, int(part["ticks"].sum()))
    assert mc.Result(sc, 1, mc.BLOCK, t).survival["bear"].n == mc.BLOCK
