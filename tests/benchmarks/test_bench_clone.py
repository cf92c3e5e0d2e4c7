"""benchmarks.bench_clone: each benchmark copies what its name says (the naive baseline's
deepcopy, the esper baseline's clone, snapshot+restore, each search), and the floor copies
as many bytes as the engine's state."""
from __future__ import annotations

import pytest
from fake_benchmark import FakeBenchmark

from benchmarks import bench_clone
from benchmarks.cases import SEARCHES, store_nbytes


@pytest.mark.parametrize("bench, name", [(bench_clone.test_baseline_deepcopy, "baseline deepcopy 1x1000"),
                                         (bench_clone.test_esper_baseline_clone, "esper clone 1x1000")],
                         ids=["deepcopy", "esper clone"])
def test_each_baseline_copy_is_the_one_named(bench, name):
    fake = FakeBenchmark(rounds=1)
    bench(fake)
    assert (fake.name, fake.group) == (name, "clone 1x1000")


def test_the_engines_copies_and_the_floor_are_timed_on_the_same_state():
    raw, snap = FakeBenchmark(rounds=1), FakeBenchmark(rounds=1)
    bench_clone.test_raw_copy(raw, 1, 100)
    bench_clone.test_engine_snapshot_restore(snap, 1, 100)
    assert raw.extra_info["bytes"] == snap.extra_info["bytes"] == store_nbytes(1, 100)
    assert snap.name == "engine snapshot+restore 1x100" and raw.group == snap.group == "clone 1x100"


@pytest.mark.parametrize("what", SEARCHES)
def test_each_search_benchmark_times_its_search(what):
    fake = FakeBenchmark(rounds=1)
    bench_clone.test_engine_search(fake, what, 100)
    assert fake.name == f"engine search: {what} 1x100" and fake.group == f"search: {what} 1x100"
