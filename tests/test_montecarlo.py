"""Batch Monte Carlo: statistics, random targets, determinism whatever the sharding,
executors (local processes, threads, Dask) and interruption."""
from __future__ import annotations

import json
import math
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from ecs import montecarlo as mc
from ecs.rules import RULESETS
from ecs.scenario import load, loads

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
    shards = mc.plan(1000, 100)          # 100 rounds up to 4 blocks of 32
    assert shards[0] == (0, 4) and sum(n for _, n in shards) == -(-1000 // mc.BLOCK)
    assert [b for b, _ in shards] == list(range(0, 32, 4))
    assert mc.plan(5, 10_000) == [(0, 1)]
    assert mc.default_batch(10_000, 2) == 1024 and mc.default_batch(100, 8) == mc.BLOCK


# ---- the tiny scenario computed by hand ----------------------------------------------------------
def test_bear_survival_matches_the_exact_binomial() -> None:
    """One 2/2; each turn with probability p a -1/-1 counter: it dies at the second
    (CR 704.5f), so P(survive T turns) = (1-p)^T + T p (1-p)^(T-1). The 95% CI covers it,
    and so does the CI of P(exactly one counter at the end) = T p (1-p)^(T-1)."""
    r = mc.run(loads(BEAR, "bear.toml"), games=10_000, seed=1, workers=1)
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
    r = mc.run(loads(BEAR, "bear.toml"), games=games, seed=seed, workers=1, batch=96)
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
    r = mc.run(loads(text, "burn.toml"), games=games, seed=3, workers=1)
    hit = block_uniforms(3, games, T, 4)[:, :, 0] < q
    first = np.where(hit.any(1), hit.argmax(1) + 1, T)
    assert np.array_equal(r.raw["lost"][:, 1], hit.any(1)) and not r.raw["lost"][:, 0].any()
    assert np.array_equal(r.raw["length"], first)
    assert r.ended.k == r.loss["bob"].k and r.draw.k == 0
    lo, hi = r.loss["bob"].ci
    assert lo <= 1 - (1 - q) ** T <= hi


# ---- determinism -------------------------------------------------------------------------------
def _same(a: mc.Result, b: mc.Result) -> None:
    assert a.raw.keys() == b.raw.keys()
    for k in a.raw:
        assert np.array_equal(a.raw[k], b.raw[k]), k
    assert a.to_dict(timing=False) == b.to_dict(timing=False)


@pytest.fixture(scope="module")
def reference() -> mc.Result:
    return mc.run("mtg_skirmish", games=300, seed=7, workers=1, batch=32)


def test_same_seed_same_result_whatever_the_batch_and_workers(reference: mc.Result) -> None:
    assert reference.games == 300 and 0 < reference.survival["walker"].k < 300
    _same(reference, mc.run("mtg_skirmish", games=300, seed=7, workers=1, batch=1024))
    _same(reference, mc.run("mtg_skirmish", games=300, seed=7, workers=2, batch=96))
    with ThreadPoolExecutor(3) as ex:
        _same(reference, mc.run("mtg_skirmish", games=300, seed=7, executor=ex, batch=64))
    other = mc.run("mtg_skirmish", games=300, seed=8, workers=1)
    assert not np.array_equal(other.raw["survivors"], reference.raw["survivors"])


def test_more_games_extend_the_same_games(reference: mc.Result) -> None:
    """Game i depends on its block only: the first 300 of 400 games are the same 300."""
    more = mc.run("mtg_skirmish", games=400, seed=7, workers=1, batch=128)
    for k in ("survivors", "counts", "lost", "length", "life", "poison"):
        assert np.array_equal(more.raw[k][:300], reference.raw[k]), k


def test_dask_cluster_gives_the_local_result(reference: mc.Result) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        r = mc.run("mtg_skirmish", games=300, seed=7, executor=client.get_executor(), batch=64)
        _same(reference, r)
        _same(reference, mc.run("mtg_skirmish", games=300, seed=7, batch=128,
                                scheduler=cluster.scheduler_address))


# ---- the result object, interruption, the big and GA scenarios ---------------------------------
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

    r = mc.run("mtg_skirmish", games=300, seed=7, workers=workers, batch=64, on_shard=interrupt)
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
    r = mc.run(loads(text, "prolif.toml"), games=256, seed=4, workers=1)
    u = block_uniforms(4, 256, T, 4)[:, :, 0]
    poison = np.minimum(1 + (u >= P).sum(axis=1), 10)   # 10 poison: bob loses (704.5c)
    assert np.array_equal(r.raw["poison"][:, 1], poison)
    assert np.array_equal(r.raw["lost"][:, 1], poison == 10)
    assert (r.raw["poison"][:, 0] == 0).all() and r.survival["bear"].k < 256


def test_thousands_of_permanents() -> None:
    sc = load("token_swarm")
    assert sc.n_objects >= 2000
    r = mc.run(sc, games=40, seed=2, workers=1)
    soldiers = r.raw["survivors"][:, 2]
    assert r.games == 40 and (soldiers <= 1000).all() and (soldiers < 1000).any()
    assert r.counters["alice_soldiers"]["+1/+1"].max > 0


def test_grand_archive_scenario_runs() -> None:
    sc = load("ga_wither")
    if sc.ruleset not in RULESETS:
        pytest.skip("the grand_archive ruleset is not in the engine yet")
    r = mc.run(sc, games=64, seed=1, workers=1)
    assert r.games == 64
