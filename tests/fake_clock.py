"""A stand-in for ``time.perf_counter`` in the benchmarks' tests: each test moves it by what
a step of a run costs, so the figures a harness computes are known exactly."""
from __future__ import annotations


class FakeClock:
    """Reads ``now``; ``spend`` moves it on."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def spend(self, seconds: float) -> None:
        self.now += seconds
