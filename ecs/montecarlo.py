"""Batch Monte Carlo evaluation of a scenario, sharded over any concurrent.futures.Executor.

Games are numbered 0..games-1 and grouped in blocks of ``BLOCK`` games. Block ``b`` draws
all its random numbers from ``SeedSequence(seed, spawn_key=(b,))`` (the b-th child of
``SeedSequence(seed).spawn``), one fixed-width row per game per effect draw, so a game's
fate depends on the seed and its block only: results are identical whatever the number
of workers or the batch size. A shard is a run of whole blocks played as one
``World(batch=...)``; its per-game outcome arrays are concatenated in game order and the
statistics are computed once, on all of them.
"""
from __future__ import annotations

import math
import os
import signal
import sys
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from ecs.components import type_mask

from . import counting
from .errors import CounterError
from .perform import DRAW, ONGOING
from .scenario import DEFAULT, Effect, Filter, Scenario, ScenarioError, load
from .world import World

#: What a random damage target may be (CR 120.3; GA: units).
DAMAGEABLE = {"mtg": ("creature", "planeswalker", "battle"), "grand_archive": ("champion", "ally")}
BLOCK = 32                 # games per random-number block (fixed: results depend on it)
MAX_BATCH = 1024           # default cap on games per shard
Z95 = 1.959963984540054    # two-sided 95% normal quantile


# ---- statistics ------------------------------------------------------------------------
def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for k successes in n trials (nan, nan when n == 0)."""
    if n == 0:
        return math.nan, math.nan
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo, hi = max(0.0, centre - half), min(1.0, centre + half)
    return (0.0 if k == 0 else lo), (1.0 if k == n else hi)  # exact at the ends


def _num(x: float) -> float | None:
    """JSON has no NaN: an undefined statistic (no games) is null."""
    return None if math.isnan(x) else x


@dataclass(frozen=True)
class Estimate:
    """A probability estimated from ``k`` of ``n`` games, with its 95% Wilson interval."""
    k: int
    n: int

    @property
    def p(self) -> float:
        return self.k / self.n if self.n else math.nan

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.k, self.n)

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.ci
        return {"p": _num(self.p), "ci95": [_num(lo), _num(hi)], "k": self.k, "n": self.n}

    @classmethod
    def of(cls, flags: np.ndarray) -> "Estimate":
        return cls(int(np.count_nonzero(flags)), int(flags.size))


@dataclass(frozen=True)
class Distribution:
    """Mean and 5th/95th percentiles of a per-game quantity."""
    mean: float
    p5: float
    p95: float
    min: float
    max: float

    @classmethod
    def of(cls, values: np.ndarray) -> "Distribution":
        if values.size == 0:
            return cls(*(math.nan,) * 5)
        p5, p95 = np.percentile(values, [5, 95])
        return cls(float(values.mean()), float(p5), float(p95), float(values.min()),
                   float(values.max()))

    def to_dict(self) -> dict[str, float | None]:
        return {"mean": _num(self.mean), "p5": _num(self.p5), "p95": _num(self.p95),
                "min": _num(self.min), "max": _num(self.max)}


# ---- one shard: setup, random targets, the turn loop -------------------------------------
class _Board:
    """The scenario's objects in one World: their ids, entries and static properties."""

    def __init__(self, world: World, sc: Scenario) -> None:
        self.world, self.sc = world, sc
        self.players = np.array([_add_player(world, p) for p in sc.players], np.int64)
        for pid, p in zip(self.players, sc.players):
            if p.poison:
                world.put_counters(int(pid), "poison", p.poison)
        ids = [_add_objects(world, o, int(self.players[o.controller])) for o in sc.objects]
        self.ids = np.concatenate(ids) if ids else np.zeros(0, np.int64)
        self.entry = np.repeat(np.arange(len(sc.objects)), [o.count for o in sc.objects])
        self.starts = np.cumsum([0] + [o.count for o in sc.objects])[:-1]
        self.ctrl = np.array([o.controller for o in sc.objects], np.int64)[self.entry]
        self.types = np.array([type_mask(o.types) for o in sc.objects], np.int64)[self.entry]
        self.token = np.array([o.token for o in sc.objects], bool)[self.entry]
        self._cache: dict[str, np.ndarray] = {}

    def refresh(self) -> None:
        """Forget cached reads. Within one draw every effect touches its own games only, so
        reads taken before the draw stay valid for the games each effect still has to do."""
        self._cache.clear()

    def _read(self, feature: str) -> np.ndarray:
        """(B, N) int: one ``World.observe`` feature of the scenario's original objects
        (0 where an object no longer exists: it changed zones, CR 400.7), cached."""
        if feature not in self._cache:
            obs, _ = self.world.observe(self.ids, [feature], dtype=np.int32)
            self._cache[feature] = obs[:, :, 0]
        return self._cache[feature]

    def present(self, zone: str | None = "battlefield") -> np.ndarray:
        """(B, N) bool: the original object is still there (in ``zone``)."""
        return self._read("present" if zone is None else f"zone:{zone}") != 0

    def counts(self, kind: str) -> np.ndarray:
        """(B, N) counts of ``kind`` on the scenario's original objects."""
        return self._read(f"counter:{kind}").astype(np.int64)

    def static(self, f: Filter, action: str = "") -> np.ndarray:
        """(N,) bool: objects whose entry, controller, types and token-ness match ``f``
        (and, for damage, that can be dealt damage at all)."""
        ok = np.ones(self.ids.size, bool)
        if action == "deal_damage":
            ok &= (self.types & type_mask(DAMAGEABLE[self.sc.ruleset])) != 0
        if f.names:
            ok &= np.isin(self.entry, f.names)
        if f.controller is not None:
            ok &= self.ctrl == f.controller
        if f.types:
            t = type_mask(f.types)
            ok &= (self.types & t) == t
        if f.token is not None:
            ok &= self.token == f.token
        return ok

    def candidates(self, f: Filter, games: np.ndarray, action: str = "") -> np.ndarray:
        """(G, N) bool: objects on the battlefield matching ``f`` in each selected game."""
        mask = self.present()[games] & self.static(f, action)[None, :]
        if f.has is not None:
            mask &= self.counts(f.has)[games] > 0
        return mask


def _add_player(world: World, p: Any) -> int:
    pid = world.add_player(**({"life": p.life} if p.life is not None else {}),
                           **({"team": p.team} if p.team is not None else {}))
    if p.reserve:
        world.set_reserve(pid, p.reserve)
    return pid


def _add_objects(world: World, o: Any, controller: int) -> np.ndarray:
    kw = dict(o.stats)
    return np.asarray(world.add_objects(
        o.count, controller, o.types, zone=o.zone, keywords=o.keywords, token=o.token,
        name=o.name, counters=dict(o.counters) or None, caps=dict(o.caps) or None, **kw), np.int64)


def pick(mask: np.ndarray, u: np.ndarray, k: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Choose up to ``k`` distinct True columns per row of ``mask`` (G, N), uniformly without
    replacement, using the row's uniforms ``u`` (G, >=k); k=None takes every True column.
    Returns (index, valid), both (G, m), invalid slots padded with the row's first pick."""
    g = mask.shape[0]
    cnt = mask.sum(axis=1)
    rows, cols = np.nonzero(mask)                  # row-major: each row's columns in order
    first = np.concatenate([[0], np.cumsum(cnt)[:-1]]).astype(np.int64)
    if k is None:
        m = int(cnt.max(initial=0))
        rank = np.broadcast_to(np.arange(m), (g, m))
    else:
        m = k
        rank = np.zeros((g, k), np.int64)
        for j in range(k):  # k is small (at most 64): loops over picks, never over objects
            left = np.maximum(cnt - j, 1)
            r = np.minimum((u[:, j] * left).astype(np.int64), left - 1)
            for s_ in np.sort(rank[:, :j], axis=1).T:  # rank among the rest -> rank among all
                r += s_ <= r
            rank[:, j] = r
    valid = rank < cnt[:, None]
    idx = np.where(valid, cols[np.where(valid, first[:, None] + rank, 0)] if cols.size else 0, 0)
    if m:
        idx = np.where(valid, idx, idx[:, :1])
    return idx.astype(np.int64), valid


def _amount(e: Effect, u: np.ndarray) -> np.ndarray:
    lo, hi = e.n
    return np.minimum(lo + (u * (hi - lo + 1)).astype(np.int64), hi)


def _player_target(board: _Board, f: Filter, games: np.ndarray, u: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
    """(G,) player ids and which games have one (a random player still in the game for -1)."""
    w = board.world
    if f.player is not None and f.player >= 0:
        return np.full(games.size, board.players[f.player]), np.ones(games.size, bool)
    alive = np.stack([~np.asarray(w.has_lost(int(p)), bool)[games] for p in board.players], 1)
    idx, valid = pick(alive, u[:, None], 1)
    return board.players[idx[:, 0]], valid[:, 0]


def apply_effect(board: _Board, e: Effect, games: np.ndarray, u: np.ndarray) -> None:
    """Perform effect ``e`` in the selected games; ``u`` is (G, width) uniforms per game:
    column 0 chose the effect, 1 the amount, 2 the source, 3.. the targets."""
    w, a = board.world, e.action
    if a == "nothing" or games.size == 0:
        return
    if a == "begin_main_phase":
        # The next player's main phase in the engine's turn order: GA wither (paying the
        # reserve the default policy allows), MTG rad counters; it checks SBAs itself.
        w.begin_main_phase(games=games)
        return
    n = _amount(e, u[:, 1])
    t = e.target
    if t is not None and t.player is not None:
        pid, ok = _player_target(board, t, games, u[:, 3])
        g, pid, n = games[ok], pid[ok][:, None], n[ok][:, None]
        if g.size == 0:
            return
        if a in ("put_counters", "remove_counters"):
            getattr(w, a)(pid, e.kind, n, games=g)
        elif a == "deal_damage":
            w.deal_damage(pid, n, games=g, **{f: True for f in e.flags})
        else:
            getattr(w, a)(pid, n, games=g)
        return
    if a == "move_counters":
        assert e.source is not None and t is not None and e.kind is not None
        s_idx, s_ok = pick(board.candidates(e.source, games), u[:, 2:3], 1)
        d_idx, d_ok = pick(board.candidates(t, games), u[:, 3:4], 1)
        ok = s_ok[:, 0] & d_ok[:, 0]
        if ok.any():
            w.move_counters(board.ids[s_idx[ok]], board.ids[d_idx[ok]], e.kind, n[ok][:, None],
                            games=games[ok])
        return
    if t is None:  # proliferate with no target filter: every object
        t = Filter()
    idx, valid = pick(board.candidates(t, games, a), u[:, 3:], e.targets)
    has = np.array(valid.any(axis=1))
    ids = board.ids[idx]
    if a == "proliferate" and e.players:  # every player too; pad games without objects
        everyone = np.broadcast_to(board.players, (games.size, board.players.size))
        ids = np.concatenate([np.where(valid, ids, everyone[:, :1]), everyone], 1)
        has[:] = True
    g, ids, valid, n = games[has], ids[has], valid[has], n[has]
    if g.size == 0:
        return
    amounts = np.where(valid, n[:, None], 0) if valid.shape == ids.shape else n[:, None]
    if a in ("put_counters", "remove_counters"):
        getattr(w, a)(ids, e.kind, amounts, games=g)
    elif a == "deal_damage":
        w.deal_damage(ids, amounts, games=g, **{f: True for f in e.flags})
    elif a == "proliferate":   # only those with a counter can be chosen (701.34a): -1 pads
        ok = np.ones(ids.shape, bool)
        ok[:, :valid.shape[1]] = valid
        w.proliferate(np.where(ok & _has_counters(w, g, ids), ids, -1), games=g, where="present")
    elif a in ("destroy", "sacrifice"):
        getattr(w, a)(ids, games=g)  # padded duplicates are merged by the engine
    elif a == "move_zone":
        for j in range(valid.shape[1]):  # distinct picks: one call per pick slot
            v = valid[:, j]
            if v.any():
                w.move_zone(ids[v, j][:, None], str(e.zone), games=g[v])
    else:
        raise ScenarioError(f"unknown action {a!r}")


def _has_counters(w: World, g: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """(G, m) bool: which ids have a counter in their game (a player the team's poison)."""
    s = w.store
    cols = s.col_of_id[ids].astype(np.int64)
    gg = np.broadcast_to(g[:, None], cols.shape)
    out = np.zeros(cols.shape, bool)
    for k, kind in enumerate(s.kind_names):
        out |= s.counts[k, gg, counting.holder(w, kind, np.where(cols < 0, 0, cols))] > 0
    return out & (cols >= 0)


def _width(sc: Scenario) -> int:
    k = max([e.targets or 1 for e in sc.effects], default=1)
    return 3 + k


def _block_rngs(seed: int, first_block: int, n_blocks: int) -> list[np.random.Generator]:
    return [np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(b,)))
            for b in range(first_block, first_block + n_blocks)]


def _ongoing(world: World) -> np.ndarray:
    return np.asarray(world.result()) == ONGOING


def play_shard(sc: Scenario, seed: int, first_block: int, n_blocks: int) -> dict[str, np.ndarray]:
    """Play blocks ``first_block .. first_block + n_blocks - 1`` as one World; returns the
    per-game outcome arrays (leading axis: the shard's games, in order) and ``ticks``."""
    b = n_blocks * BLOCK
    # Every random choice comes from the block generators; the World's own generator
    # (library shuffles) is never used here, so its seed cannot make results shard-dependent.
    world = World(ruleset=sc.ruleset, batch=b, seed=[seed, first_block],
                  two_headed_giant=sc.two_headed_giant)
    board = _Board(world, sc)
    rngs = _block_rngs(seed, first_block, n_blocks)
    width = _width(sc)
    weights = np.array([e.weight for e in sc.effects])
    cum = np.cumsum(weights) / weights.sum()
    length = np.zeros(b, np.int32)
    ticks = 0
    world.tick()
    for turn in range(sc.turns):
        ongoing = _ongoing(world)
        if not ongoing.any():
            break
        if sc.begin_main_phase:
            board.refresh()
            apply_effect(board, Effect("begin_main_phase", 1.0), np.flatnonzero(ongoing),
                         np.zeros((b, width)))
            ticks += int(ongoing.sum())
            world.tick()
            world.clear_events()
        for _ in range(sc.effects_per_turn):
            u = np.concatenate([r.random((BLOCK, width)) for r in rngs])
            choice = np.minimum(np.searchsorted(cum, u[:, 0], side="right"), len(cum) - 1)
            ongoing = _ongoing(world)
            board.refresh()
            for i, e in enumerate(sc.effects):
                sel = np.flatnonzero(ongoing & (choice == i))
                apply_effect(board, e, sel, u[sel])
            ticks += int(ongoing.sum())
            world.tick()
            world.clear_events()  # nobody reads them here: keep memory flat
        still = _ongoing(world)
        if still.any():
            world.cleanup(games=np.flatnonzero(still))  # damage wears off (CR 514.2)
        length[(length == 0) & ~still] = turn + 1
    ongoing = _ongoing(world)
    length[length == 0] = sc.turns
    board.refresh()
    return _outcome(board, ongoing, length, ticks)


def _outcome(board: _Board, ongoing: np.ndarray, length: np.ndarray, ticks: int
             ) -> dict[str, np.ndarray]:
    w, sc = board.world, board.sc
    here = board.present(zone=None)                      # (B, N): the same object still exists
    starts = board.starts
    seg: Callable[[np.ndarray], np.ndarray] = \
        (lambda x: np.add.reduceat(x, starts, axis=1)) if starts.size else \
        (lambda x: np.zeros((x.shape[0], 0), x.dtype))
    survivors = seg(here.astype(np.int32))
    kinds = sc.report_kinds
    counts = np.stack([seg(np.where(here, board.counts(k), 0)) for k in kinds], axis=2) \
        if kinds else np.zeros((w.batch, len(sc.objects), 0), np.int64)
    res = np.asarray(w.result())
    per_player: Callable[[Callable[[int], Any]], np.ndarray] = \
        lambda f: np.stack([np.asarray(f(int(p))) for p in board.players], 1)  # noqa: E731
    return {
        "survivors": survivors, "counts": counts.astype(np.int64),
        "lost": per_player(w.has_lost).astype(bool), "draw": res == DRAW, "ended": ~ongoing,
        "length": length, "life": per_player(w.life).astype(np.int64),
        "poison": per_player(lambda p: w.count(p, "poison")).astype(np.int64),
        "ticks": np.array([ticks], np.int64),
    }


def check(sc: Scenario) -> None:
    """Build the scenario in a 2-game World and try every effect once: raise a ScenarioError
    naming the field when the engine refuses something, before any real work starts."""
    where = "objects"
    try:
        world = World(ruleset=sc.ruleset, batch=2, two_headed_giant=sc.two_headed_giant)
        board = _Board(world, sc)
        world.tick()
        snap = world.snapshot()
        u = np.full((2, _width(sc)), 0.5)
        for i, e in enumerate(sc.effects):
            where = f"effects[{i}] ({e.action})"
            for key, f in (("source", e.source), ("target", e.target)):
                if f is not None and f.player is None and not board.static(f, e.action).any():
                    raise ScenarioError(f"{sc.source}: effects[{i}].{key}: expected a filter that "
                                        f"matches at least one object that can be a {e.action} "
                                        "target; it matches none")
            world.restore(snap)
            board.refresh()
            apply_effect(board, e, np.flatnonzero(_ongoing(world)), u)
            world.tick()
    except ScenarioError:
        raise
    except CounterError as err:
        raise ScenarioError(f"{sc.source}: {where}: the engine refused it: {err}") from None


# ---- the result --------------------------------------------------------------------------
@dataclass
class Result:
    """Statistics of a run; ``raw`` keeps the per-game arrays (not in ``to_dict``)."""
    scenario: Scenario
    seed: int
    requested: int
    raw: dict[str, np.ndarray]
    elapsed: float = 0.0
    workers: int | str = 1
    batch: int = 0
    interrupted: bool = False
    survival: dict[str, Estimate] = field(init=False)
    survivors: dict[str, Distribution] = field(init=False)
    counters: dict[str, dict[str, Distribution]] = field(init=False)
    loss: dict[str, Estimate] = field(init=False)
    draw: Estimate = field(init=False)
    ended: Estimate = field(init=False)
    length: Distribution = field(init=False)
    life: dict[str, Distribution] = field(init=False)
    poison: dict[str, Distribution] = field(init=False)

    def __post_init__(self) -> None:
        r, sc = self.raw, self.scenario
        names = [o.name for o in sc.objects]
        pnames = [p.name for p in sc.players]
        self.survival = {n: Estimate.of(r["survivors"][:, i] > 0) for i, n in enumerate(names)}
        self.survivors = {n: Distribution.of(r["survivors"][:, i]) for i, n in enumerate(names)}
        self.counters = {n: {k: Distribution.of(r["counts"][:, i, j])
                             for j, k in enumerate(sc.report_kinds)} for i, n in enumerate(names)}
        self.loss = {p: Estimate.of(r["lost"][:, i]) for i, p in enumerate(pnames)}
        self.draw, self.ended = Estimate.of(r["draw"]), Estimate.of(r["ended"])
        self.length = Distribution.of(r["length"])
        self.life = {p: Distribution.of(r["life"][:, i]) for i, p in enumerate(pnames)}
        self.poison = {p: Distribution.of(r["poison"][:, i]) for i, p in enumerate(pnames)}

    @property
    def games(self) -> int:
        return int(self.raw["length"].size)

    @property
    def ticks(self) -> int:
        return int(self.raw["ticks"].sum())

    @property
    def games_per_s(self) -> float:
        return self.games / self.elapsed if self.elapsed > 0 else math.nan

    @property
    def ticks_per_s(self) -> float:
        return self.ticks / self.elapsed if self.elapsed > 0 else math.nan

    def to_dict(self, timing: bool = True) -> dict[str, Any]:
        """Everything as JSON-ready values (``timing=False`` drops run-dependent fields)."""
        sc = self.scenario
        d: dict[str, Any] = {
            "scenario": sc.name, "source": sc.source, "ruleset": sc.ruleset, "turns": sc.turns,
            "seed": self.seed, "games": self.games, "requested": self.requested,
            "complete": self.games == self.requested and not self.interrupted,
            "survival": {n: e.to_dict() | {"copies": o.count} for (n, e), o in
                         zip(self.survival.items(), sc.objects)},
            "survivors": {n: d.to_dict() for n, d in self.survivors.items()},
            "counters": {n: {k: v.to_dict() for k, v in ks.items()} for n, ks in self.counters.items()},
            "loss": {p: e.to_dict() for p, e in self.loss.items()},
            "draw": self.draw.to_dict(), "ended": self.ended.to_dict(),
            "length": self.length.to_dict(),
            "life": {p: v.to_dict() for p, v in self.life.items()},
            "poison": {p: v.to_dict() for p, v in self.poison.items()},
            "ticks": self.ticks,
        }
        if timing:
            d["throughput"] = {"elapsed_s": self.elapsed, "games_per_s": _num(self.games_per_s),
                               "ticks_per_s": _num(self.ticks_per_s), "workers": self.workers,
                               "batch": self.batch}
        return d


# ---- sharding and executors ---------------------------------------------------------------
def plan(games: int, batch: int) -> list[tuple[int, int]]:
    """Shards as (first block, number of blocks): ``batch`` rounded up to whole blocks."""
    n_blocks = -(-games // BLOCK)
    per = max(1, -(-batch // BLOCK))
    return [(b, min(per, n_blocks - b)) for b in range(0, n_blocks, per)]


def default_batch(games: int, workers: int) -> int:
    """About four shards per worker (for balance and progress), at most MAX_BATCH games."""
    return int(min(MAX_BATCH, max(BLOCK, -(-games // (4 * max(1, workers))))))


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C


def dask_executor(scheduler: str) -> tuple[Executor, Callable[[], None]]:
    """An executor on a Dask cluster (``dask[distributed]`` is imported only here)."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise RuntimeError("--scheduler needs Dask: pip install 'tcg-counters[dask]'") from None
    client = Client(scheduler)
    return client.get_executor(), client.close


def resolve(scenario: Scenario | str | os.PathLike[str] | None) -> Scenario:
    if isinstance(scenario, Scenario):
        return scenario
    return load(DEFAULT if scenario is None else os.fspath(scenario))


def run(scenario: Scenario | str | os.PathLike[str] | None = None, games: int = 10_000,
        seed: int = 1, executor: Executor | None = None, *, workers: int | None = None,
        batch: int | None = None, progress: bool = False, scheduler: str | None = None,
        on_shard: Callable[[int], None] | None = None) -> Result:
    """Play ``games`` games of ``scenario`` (a Scenario, a file, an embedded name or None
    for the default) and return their statistics.

    ``executor`` may be any concurrent.futures.Executor (e.g. a Dask ``Client.get_executor()``);
    without one, ``scheduler`` names a Dask scheduler, else ``workers`` local processes
    (default: every core; 1 runs in this process). Ctrl-C stops the run: the games already
    finished are returned with ``interrupted=True``."""
    sc = resolve(scenario)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive integer, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    check(sc)
    workers = workers or os.cpu_count() or 1
    batch = batch or default_batch(games, workers)
    shards = plan(games, batch)
    close: Callable[[], None] | None = None
    label: int | str = workers
    if executor is None and scheduler is not None:
        executor, close = dask_executor(scheduler)
        label = f"dask {scheduler}"
    elif executor is None and workers > 1 and len(shards) > 1:
        executor = ProcessPoolExecutor(min(workers, len(shards)), initializer=_ignore_sigint)
        close = lambda: executor.shutdown(wait=True, cancel_futures=True)  # noqa: E731
    elif executor is not None:
        label = type(executor).__name__
    done: dict[int, dict[str, np.ndarray]] = {}
    interrupted = False
    bar = None
    start = time.perf_counter()
    futures: dict[Future[dict[str, np.ndarray]], int] = {}
    try:
        if executor is None:
            label = 1
            bar = _bar(games, progress)
            for i, (fb, nb) in enumerate(shards):
                done[i] = play_shard(sc, seed, fb, nb)
                _advance(bar, on_shard, nb)
        else:
            futures = {executor.submit(play_shard, sc, seed, fb, nb): i
                       for i, (fb, nb) in enumerate(shards)}
            bar = _bar(games, progress)  # after the pool has forked: tqdm starts a thread
            for f in as_completed(futures):
                done[futures[f]] = f.result()
                _advance(bar, on_shard, shards[futures[f]][1])
    except KeyboardInterrupt:
        interrupted = True
        for f in futures:
            f.cancel()
        for f, i in futures.items():  # keep shards that finished meanwhile
            if f.done() and not f.cancelled() and f.exception() is None:
                done[i] = f.result()
        if isinstance(executor, ProcessPoolExecutor) and close is not None:
            close = lambda: _kill_pool(executor)  # noqa: E731
    finally:
        elapsed = time.perf_counter() - start
        if bar is not None:
            bar.close()
        if close is not None:
            close()
    order = sorted(done)
    raw = _merge(sc, [done[i] for i in order], [shards[i] for i in order], games)
    return Result(sc, seed, games, raw, elapsed, label, batch, interrupted)


def _kill_pool(executor: ProcessPoolExecutor) -> None:
    """Stop a local pool at once on Ctrl-C: running shards are abandoned."""
    procs = list(getattr(executor, "_processes", {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        p.terminate()


def _merge(sc: Scenario, parts: list[dict[str, np.ndarray]], shards: list[tuple[int, int]],
           games: int) -> dict[str, np.ndarray]:
    """Concatenate shard outcomes in game order, dropping the padding games past ``games``."""
    e, p, k = len(sc.objects), len(sc.players), len(sc.report_kinds)
    empty = {"survivors": (e,), "counts": (e, k), "lost": (p,), "draw": (), "ended": (),
             "length": (), "life": (p,), "poison": (p,)}
    keep = [np.arange(fb * BLOCK, (fb + nb) * BLOCK) < games for fb, nb in shards]
    out = {key: np.concatenate([part[key][m] for part, m in zip(parts, keep)]) if parts
           else np.zeros((0,) + shape, np.int64) for key, shape in empty.items()}
    out["ticks"] = np.array([sum(int(part["ticks"].sum()) for part in parts)], np.int64)
    return out


def _bar(total: int, enabled: bool) -> Any:
    if not enabled:
        return None
    from tqdm import tqdm
    return tqdm(total=total, unit="game", delay=1.0, file=sys.stderr, dynamic_ncols=True)


def _advance(bar: Any, on_shard: Callable[[int], None] | None, n_blocks: int) -> None:
    if bar is not None:
        bar.update(min(n_blocks * BLOCK, bar.total - bar.n))
    if on_shard is not None:
        on_shard(n_blocks * BLOCK)


__all__ = ["BLOCK", "Distribution", "Estimate", "Result", "check", "pick", "plan", "play_shard",
           "run", "wilson"]
