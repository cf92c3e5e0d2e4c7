"""One tick (state-based actions to their fixed point) on a single random board, engine
beside baseline at each size; compare within a group (``--benchmark-group-by=group``)."""
from __future__ import annotations

from typing import Any

import pytest

from .cases import SIZES, baseline_tick, bench, engine_tick

# Fewer rounds where one round is slow (the baseline rebuilds its board before each).
ROUNDS = {100: 50, 1_000: 30, 10_000: 10, 100_000: 3}


@pytest.mark.parametrize("n", SIZES)
def test_engine_tick(benchmark: Any, n: int) -> None:
    assert bench(benchmark, engine_tick(1, n), ROUNDS[n], f"tick 1x{n}") >= 1


@pytest.mark.parametrize("n", SIZES)
def test_baseline_tick(benchmark: Any, n: int) -> None:
    bench(benchmark, baseline_tick(1, n), ROUNDS[n], f"tick 1x{n}")


@pytest.mark.parametrize("n", SIZES)
def test_engine_settled_tick(benchmark: Any, n: int) -> None:
    """The board a tick left: one check that finds nothing (the cost of checking alone)."""
    assert bench(benchmark, engine_tick(1, n, settled=True), ROUNDS[n], f"settled 1x{n}") == 0


@pytest.mark.parametrize("n", SIZES)
def test_baseline_settled_tick(benchmark: Any, n: int) -> None:
    bench(benchmark, baseline_tick(1, n, settled=True), ROUNDS[n], f"settled 1x{n}")
