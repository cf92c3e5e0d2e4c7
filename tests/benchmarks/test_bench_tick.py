"""benchmarks.bench_tick: each benchmark times the tick its name says (acting, or settled:
one check of the board a tick left), on its own side, in the group of its board."""
from __future__ import annotations

import pytest
from fake_benchmark import FakeBenchmark

from benchmarks import bench_tick

SUITE = [(bench_tick.test_engine_tick, "engine 1x100", "tick 1x100"),
         (bench_tick.test_baseline_tick, "naive esper 1x100", "tick 1x100"),
         (bench_tick.test_engine_settled_tick, "engine settled 1x100", "settled 1x100"),
         (bench_tick.test_baseline_settled_tick, "naive esper settled 1x100", "settled 1x100")]


@pytest.mark.parametrize("bench, name, group", SUITE, ids=[s[0].__name__ for s in SUITE])
def test_each_tick_benchmark_times_the_tick_of_its_group(bench, name, group):
    fake = FakeBenchmark()
    bench(fake, 100)
    assert (fake.name, fake.group) == (name, group)
