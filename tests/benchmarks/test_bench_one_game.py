"""benchmarks.bench_one_game: in the disturbed regime the other work comes before each run
and after its own setup (so the setup does not warm the caches again), never in the hot
one; each benchmark times its side's op."""
from __future__ import annotations

import pytest
from fake_benchmark import FakeBenchmark

from benchmarks import bench_one_game, cases, interleave


def _probe(log: list[str]) -> cases.Case:
    return cases.Case("probe", run=lambda: log.append("run"), setup=lambda: log.append("setup"))


@pytest.mark.parametrize("regime", interleave.REGIMES)
@pytest.mark.parametrize("call", ["op", "host call"])
def test_the_disturbance_comes_after_each_runs_setup_in_the_disturbed_regime_only(call, regime, monkeypatch):
    log: list[str] = []
    monkeypatch.setattr(interleave, "disturb", lambda: log.append("disturb"))
    monkeypatch.setattr(cases, "engine_op", lambda n, op: _probe(log))
    monkeypatch.setattr(cases, "host_op", lambda n, op: _probe(log))
    fake = FakeBenchmark(rounds=2)
    if call == "op":
        bench_one_game.test_one_game(fake, 100, "destroy", "engine", regime)
    else:
        bench_one_game.test_host_call(fake, 100, "set_pt", regime)
    one = ["setup", "disturb", "run"] if regime == "disturbed" else ["setup", "run"]
    assert log == one * 2


@pytest.mark.parametrize("side", ["engine", "esper"])
@pytest.mark.parametrize("op", [*bench_one_game.STEPS, "count"])
def test_each_one_game_benchmark_times_its_sides_op(op, side):
    fake = FakeBenchmark(rounds=1)
    bench_one_game.test_one_game(fake, 100, op, side, "hot")
    what = {"self-play step": "step", "clone+self-play step": "clone+step",
            cases.EARLY: "clone+step early root"}.get(op, op)
    assert fake.name == f"{side} {what} 1x100" and fake.group == f"one game {op} 1x100 (hot)"
