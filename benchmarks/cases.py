"""The measured operations, shared by the pytest-benchmark suites and the report.

A ``Case`` is a ``run`` to time and a ``setup`` that puts the state back before each
run, outside the timed region (a tick changes the board, so every run starts from the
same generated board). Built boards are cached so the suites and the report build each
one once per process.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .boards import BoardSpec, Built, build_baseline, build_engine, make_board
from .naive_esper import NaiveGame

SIZES = (100, 1_000, 10_000, 100_000)              # single board, one tick
BATCHES = ((64, 1_000), (1_024, 1_000), (4_096, 200))  # (games, objects), one tick
CLONE_GAME = (1, 1_000)
CLONE_BATCH = (1_024, 1_000)
SEED = 2024


def _nothing() -> None:
    return None


@dataclass
class Case:
    name: str
    run: Callable[[], Any]
    setup: Callable[[], Any] = _nothing      # before each run, not timed
    teardown: Callable[[], Any] = _nothing   # after each run, not timed
    objects: int = 0        # objects checked by one run (games x objects), 0 if not a tick
    info: dict[str, Any] = field(default_factory=dict)


@functools.lru_cache(maxsize=None)
def board(games: int, n: int) -> BoardSpec:
    """The board of a measurement. A single game never starts with a losing player: a game
    that ends on the first check is frozen (README), which would leave later checks out."""
    return make_board(n, games=games, seed=SEED + 7919 * games + n,
                      loss_rate=0.0 if games == 1 else 0.03)


@functools.lru_cache(maxsize=None)
def engine(games: int, n: int) -> tuple[Built, dict[str, Any]]:
    """The engine loaded with ``board(games, n)``, and its snapshot before any tick. The
    events of building it are cleared (a simulator clears its log between moves too), so
    snapshots, restores and clones copy the game state, not a log of how it was set up."""
    built = build_engine(board(games, n))
    built.world.clear_events()
    return built, built.world.snapshot()


def snapshot_nbytes(snap: Any) -> int:
    """Bytes of the NumPy arrays in a snapshot (nested dicts and lists walked)."""
    if isinstance(snap, np.ndarray):
        return snap.nbytes
    if isinstance(snap, dict):
        return sum(snapshot_nbytes(v) for v in snap.values())
    if isinstance(snap, (list, tuple)):
        return sum(snapshot_nbytes(v) for v in snap)
    return 0


def state_nbytes(world: Any) -> int:
    """Bytes of a World's game state: the engine's ``nbytes`` if it has one, else the store
    arrays of a snapshot (the used part of every array, no spare capacity)."""
    nbytes = getattr(world, "nbytes", None)
    return int(nbytes) if nbytes is not None else snapshot_nbytes(world.snapshot()["store"])


def store_nbytes(games: int, n: int) -> int:
    """``state_nbytes`` of ``engine(games, n)`` as built, before any tick."""
    built, snap = engine(games, n)
    built.world.restore(snap)
    return state_nbytes(built.world)


# ---- ticks -----------------------------------------------------------------------------
# A tick on the generated board acts (counters are removed, objects die, the check repeats);
# a ``settled`` tick runs on the board that tick left, where one check finds nothing to do:
# the cost of checking alone, the common case in a game loop.

@functools.lru_cache(maxsize=None)
def _settled_snapshot(games: int, n: int) -> dict[str, Any]:
    built, snap = engine(games, n)
    built.world.restore(snap)
    built.world.tick()
    built.world.clear_events()
    return built.world.snapshot()


def engine_tick(games: int, n: int, settled: bool = False) -> Case:
    built, snap = engine(games, n)
    w = built.world
    start = _settled_snapshot(games, n) if settled else snap

    def setup() -> None:
        w.restore(start)

    return Case(f"engine {'settled ' if settled else ''}{games}x{n}", w.tick, setup,
                objects=games * n)


def baseline_tick(games: int, n: int, max_games: int | None = None, settled: bool = False) -> Case:
    """The baseline's tick on ``board(games, n)``, rebuilt (and ticked once if ``settled``)
    before each run. The baseline runs games one after another, so a big batch may be
    measured on its first ``max_games`` games (``info["games_run"]``)."""
    spec = board(games, n)
    played = games if max_games is None else min(games, max_games)
    if played < games:
        spec = spec.select(slice(0, played))
    state: dict[str, Built] = {}

    def setup() -> None:
        if "built" in state:
            state.pop("built").world.close()
        state["built"] = build_baseline(spec)
        if settled:
            state["built"].world.tick()

    return Case(f"baseline {'settled ' if settled else ''}{games}x{n}",
                lambda: state["built"].world.tick(), setup,
                objects=played * n, info={"games_run": played})


# ---- copies ----------------------------------------------------------------------------
def _restored(games: int, n: int) -> tuple[Any, Callable[[], None]]:
    """The engine world of ``board(games, n)`` and a setup that restores it as built."""
    built, snap = engine(games, n)
    return built.world, lambda: built.world.restore(snap)


def engine_clone(games: int, n: int) -> Case:
    w, setup = _restored(games, n)
    return Case(f"engine clone {games}x{n}", w.clone, setup, info={"bytes": store_nbytes(games, n)})


def engine_clone_written(games: int, n: int) -> Case:
    """clone(), then a write to every array of the clone: what copy on write defers from the
    clone to its first writes, all of it (an action writes a few arrays only)."""
    w, setup = _restored(games, n)

    def run() -> Any:
        c = w.clone()
        for name in ("counts", "col_of_id", *c.store.a):
            c.store.mut(name)
        return c

    return Case(f"engine clone+written {games}x{n}", run, setup, info={"bytes": store_nbytes(games, n)})


def engine_snapshot_restore(games: int, n: int) -> Case:
    w, setup = _restored(games, n)
    return Case(f"engine snapshot+restore {games}x{n}", lambda: w.restore(w.snapshot()), setup,
                info={"bytes": store_nbytes(games, n)})


def raw_copy(nbytes: int) -> Case:
    """np.copyto of ``nbytes`` bytes into a preallocated buffer: the physical floor of a clone."""
    src = np.ones(nbytes, np.uint8)
    dst = np.zeros_like(src)
    return Case(f"np.copyto {nbytes} B", lambda: np.copyto(dst, src), info={"bytes": nbytes})


def baseline_deepcopy(games: int, n: int) -> Case:
    """copy.deepcopy of the baseline's esper world(s): how an esper user clones a game."""
    worlds = build_baseline(board(games, n)).world.games
    twins: list[NaiveGame] = []

    def teardown() -> None:
        while twins:
            twins.pop().close()

    return Case(f"baseline deepcopy {games}x{n}", lambda: twins.extend(g.clone() for g in worlds),
                teardown=teardown)


def bench(benchmark: Any, case: Case, rounds: int, group: str) -> Any:
    """Time ``case`` with pytest-benchmark (with --benchmark-disable: run it once)."""
    benchmark.group = group
    benchmark.name = case.name
    benchmark.extra_info.update(objects=case.objects, **case.info)
    return benchmark.pedantic(case.run, setup=case.setup, teardown=case.teardown, rounds=rounds)
