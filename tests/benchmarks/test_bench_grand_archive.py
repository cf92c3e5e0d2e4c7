"""benchmarks.bench_grand_archive: every run of an op starts from the settled board, the
settled tick makes its check each run (the mark of a state a tick left cleared), and the
self-play step ticks."""
from __future__ import annotations

import numpy as np
import pytest
from fake_benchmark import FakeBenchmark

from benchmarks import bench_grand_archive, cases
from ecs import schedule


def _ticks(monkeypatch) -> list[int]:
    calls: list[int] = []
    real = schedule._tick
    monkeypatch.setattr(schedule, "_tick", lambda *a: (calls.append(1), real(*a))[1])
    return calls


@pytest.mark.parametrize("op", [op for op in cases.GA_OPS if op != "settled tick"])
def test_every_run_of_a_grand_archive_op_starts_from_the_settled_board(op):
    w, snap, _ = cases._ga_settled(100)
    w.restore(snap)
    ids = [*w.players(), *w.objects()]
    settled = w.observe(ids)[0].copy()
    fake = FakeBenchmark(rounds=3, spy=lambda: w.observe(ids)[0].copy())
    bench_grand_archive.test_grand_archive_one_game(fake, op)
    for seen in fake.seen:
        np.testing.assert_array_equal(seen, settled)
    assert fake.name == f"grand archive {op} 1x100"


def test_every_run_of_the_grand_archive_settled_tick_makes_its_check(monkeypatch):
    calls = _ticks(monkeypatch)
    bench_grand_archive.test_grand_archive_one_game(FakeBenchmark(rounds=3), "settled tick")
    assert len(calls) == 3


def test_the_grand_archive_self_play_step_ticks(monkeypatch):
    calls = _ticks(monkeypatch)
    bench_grand_archive.test_grand_archive_one_game(FakeBenchmark(rounds=2), "self-play step")
    assert len(calls) >= 2
