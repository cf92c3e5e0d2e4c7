"""One tick on a batch of random games sharing one layout (games x objects). The baseline
plays games one after another, so it is timed on its first 64 games of each batch. The
``threads`` groups time the same tick with the wide passes split across every core and
serially (``ecs.systems.parallel``); the ``batch call`` groups a host's calls besides the
tick (``cases.BATCH_CALLS``)."""
from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from ecs.systems import parallel

from .cases import BATCH_CALLS, BATCHES, baseline_tick, batch_call, bench, engine_tick, store_nbytes

BASELINE_GAMES = 64


@pytest.mark.parametrize("games, n", BATCHES)
def test_engine_batch_tick(benchmark: Any, games: int, n: int) -> None:
    case = engine_tick(games, n)
    case.info["store_bytes_per_object"] = store_nbytes(games, n) / (games * n)
    assert bench(benchmark, case, 5, f"batch {games}x{n}") >= 1


@pytest.mark.parametrize("games, n", BATCHES)
def test_engine_batch_tick_host_effects(benchmark: Any, games: int, n: int) -> None:
    """The same tick under a host engine's effects (``cases.host_effects``): the fields
    they set are read and reset where objects leave, not skipped as empty."""
    assert bench(benchmark, engine_tick(games, n, host=True), 5, f"batch {games}x{n}") >= 1


@pytest.mark.parametrize("games, n", BATCHES)
def test_baseline_batch_tick(benchmark: Any, games: int, n: int) -> None:
    bench(benchmark, baseline_tick(games, n, BASELINE_GAMES), 2, f"batch {games}x{n}")


@pytest.mark.parametrize("call", BATCH_CALLS)
def test_engine_batch_call(benchmark: Any, call: str) -> None:
    """A host's call on a batch besides the tick (``cases.BATCH_CALLS``)."""
    bench(benchmark, batch_call(1_024, 1_000, call), 5, f"batch call {call} 1024x1000")


# The wide passes split across every core (systems.parallel) against one call, on the same
# board: a group per board and tick, both sides named (threaded / serial).
THREADED = ((64, 1_000), (1_024, 200), (4_096, 200))


@pytest.mark.parametrize("threads", ["serial", "threaded"])
@pytest.mark.parametrize("settled", [False, True], ids=["acting", "settled"])
@pytest.mark.parametrize("games, n", THREADED)
def test_engine_batch_tick_threads(benchmark: Any, games: int, n: int, settled: bool,
                                   threads: str) -> None:
    case = engine_tick(games, n, settled)
    before = parallel.threads()
    parallel.set_threads(1 if threads == "serial" else None)
    try:
        bench(benchmark, dataclasses.replace(case, name=f"{case.name} {threads}"), 5,
              f"threads {games}x{n} {'settled' if settled else 'acting'}")
    finally:
        parallel.set_threads(before)
