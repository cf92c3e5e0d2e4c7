"""One tick on a batch of random games sharing one layout (games x objects). The baseline
plays games one after another, so it is timed on its first 64 games of each batch."""
from __future__ import annotations

from typing import Any

import pytest

from .cases import BATCHES, baseline_tick, bench, engine_tick, store_nbytes

BASELINE_GAMES = 64


@pytest.mark.parametrize("games, n", BATCHES)
def test_engine_batch_tick(benchmark: Any, games: int, n: int) -> None:
    case = engine_tick(games, n)
    case.info["store_bytes_per_object"] = store_nbytes(games, n) / (games * n)
    assert bench(benchmark, case, 5, f"batch {games}x{n}") >= 1


@pytest.mark.parametrize("games, n", BATCHES)
def test_baseline_batch_tick(benchmark: Any, games: int, n: int) -> None:
    bench(benchmark, baseline_tick(games, n, BASELINE_GAMES), 2, f"batch {games}x{n}")
