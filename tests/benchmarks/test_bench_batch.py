"""benchmarks.bench_batch: the baseline plays the first 64 games of a batch and says so; the
host-effects and threads benchmarks time the tick they name, the serial side on one thread
and the threaded one on every core, and the thread count is put back after."""
from __future__ import annotations

import pytest
from fake_benchmark import FakeBenchmark

from benchmarks import bench_batch
from benchmarks.cases import store_nbytes
from ecs.systems import parallel


def test_the_baseline_batch_tick_plays_the_first_64_games():
    fake = FakeBenchmark(rounds=1)
    bench_batch.test_baseline_batch_tick(fake, 70, 10)
    assert bench_batch.BASELINE_GAMES == 64   # (the module docstring's)
    assert fake.extra_info["games_run"] == 64 and fake.extra_info["objects"] == 64 * 10


def test_the_engine_batch_ticks_time_their_board_and_its_bytes():
    fake = FakeBenchmark()
    bench_batch.test_engine_batch_tick(fake, 4, 50)
    assert (fake.name, fake.group) == ("engine 4x50", "batch 4x50")
    assert fake.extra_info["store_bytes_per_object"] == store_nbytes(4, 50) / (4 * 50)
    host = FakeBenchmark()
    bench_batch.test_engine_batch_tick_host_effects(host, 4, 50)
    assert host.name == "engine 4x50 host effects"


@pytest.mark.parametrize("settled", [False, True], ids=["acting", "settled"])
@pytest.mark.parametrize("threads", ["serial", "threaded"])
def test_the_threads_benchmarks_time_their_tick_on_their_threads(settled, threads, monkeypatch):
    monkeypatch.setattr(parallel, "_cores", lambda: 5)
    before = parallel.threads()
    parallel.set_threads(3)
    try:
        fake = FakeBenchmark(spy=parallel.threads)
        bench_batch.test_engine_batch_tick_threads(fake, 4, 50, settled, threads)
        assert fake.seen == [1 if threads == "serial" else 5] * 2
        assert parallel.threads() == 3
        assert fake.name == f"engine {'settled ' if settled else ''}4x50 {threads}"
        assert fake.group == f"threads 4x50 {'settled' if settled else 'acting'}"
    finally:
        parallel.set_threads(before)


@pytest.mark.parametrize("call", bench_batch.BATCH_CALLS)
def test_a_batch_call_is_timed_on_the_board_of_its_group(call, monkeypatch):
    asked = []
    monkeypatch.setattr(bench_batch, "batch_call", lambda games, n, c: asked.append((games, n, c)))
    monkeypatch.setattr(bench_batch, "bench", lambda benchmark, case, rounds, group: asked.append(group))
    bench_batch.test_engine_batch_call(FakeBenchmark(), call)
    (games, n, c), group = asked
    assert c == call and group == f"batch call {call} {games}x{n}"
