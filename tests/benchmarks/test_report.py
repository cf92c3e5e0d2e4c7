"""benchmarks.report: the timing regimes leave the garbage collector as they found it."""
import gc
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from fake_clock import FakeClock

from benchmarks import cases, report


@pytest.mark.parametrize("regime", report.REGIMES)
def test_measure_times_each_regime_and_turns_the_collector_back_on(regime):
    seen = []
    case = cases.Case("probe", lambda: seen.append(gc.isenabled()))
    assert report.measure(case, min_time=0.0, min_rounds=3, regime=regime) >= 0
    assert len(seen) == 3 and seen == [regime != "gc off"] * 3
    assert gc.isenabled()


def test_measure_prepares_the_case_before_its_runs():
    """A case whose runs need what ``prepare`` makes (a settled tick's board) is prepared
    once, before the first run, and not again, and released after the last (untimed: as
    an interleaved block does)."""
    calls = []
    case = cases.Case("probe", lambda: calls.append("run"), setup=lambda: calls.append("setup"),
                      prepare=lambda: calls.append("prepare"), release=lambda: calls.append("release"))
    report.measure(case, min_time=0.0, min_rounds=2)
    assert calls == ["prepare", "setup", "run", "setup", "run", "release"]


def test_the_settled_tick_rows_measure_engine_and_baseline():
    """The report's settled rows (the engine's check on the board a tick left, the
    baseline's on its own settled board), on a small board."""
    (row,) = report.tick_rows([(1, 50)], min_time=0.0, baseline_games=None, settled=True)
    assert row["engine_s"] > 0 and row["baseline_s"] > 0 and row["baseline_games"] == 1


def test_target_lines_say_met_or_missed():
    assert report.Target("x", 2.0, 1.0).line().startswith("  [met]")
    assert "[MISSED]" in report.Target("y", 4.0, 3.0, higher_is_better=False).line()


def test_the_commit_measured_is_the_engines_checkout_wherever_the_report_runs(tmp_path, monkeypatch):
    """The report prints the commit of the checkout it imports the engine from: the same
    from the repository and from a directory outside any checkout."""
    from pathlib import Path

    import ecs
    monkeypatch.chdir(Path(ecs.__file__).resolve().parent)
    here = report.commit()
    monkeypatch.chdir(tmp_path)
    assert report.commit() == here


def test_the_whole_report_runs_on_small_boards(monkeypatch, tmp_path, capsys):
    """``python -m benchmarks.report`` end to end, on small boards and batches (the sizes
    it names, made small): every section measures, and every target is judged (nothing
    else runs the report whole: the CI runs the suites, not the report)."""
    monkeypatch.setattr(cases, "SIZES", (100,))
    monkeypatch.setattr(cases, "BATCHES", ((2, 100), (4, 100), (8, 50)))
    monkeypatch.setattr(cases, "CLONE_GAME", (1, 1_000))
    monkeypatch.setattr(cases, "CLONE_BATCH", (4, 100))
    monkeypatch.setattr(cases, "ACTION_SIZES", (100,))
    monkeypatch.setattr(report, "INTERLEAVED_BATCHES", ((4, 50),))
    monkeypatch.setattr(report, "HELD_CLONES", ((100, 2),))
    monkeypatch.setattr(report, "memory_row", lambda games, n: report.memory_probe(4, 50))
    monkeypatch.setattr(report.os, "sched_setaffinity", lambda *a: None)   # (the suite's process)
    monkeypatch.setattr(report.interleave, "calibrate", lambda case, budget: 2)   # runs a block
    monkeypatch.setattr(gc, "collect", lambda *a: 0)   # (a full collection of the suite's heap: 70 ms)
    assert report.main(["--quick", "--plot", str(tmp_path / "t.png")]) == 0
    out = capsys.readouterr().out
    # single-game targets (15 a regime: no 1x1000 step), throughput (1 board, 4 batch, 3 more)
    assert out.count("[met]") + out.count("[MISSED]") == 2 * 15 + 8
    assert "interleaved, disturbed" in out and "memory per held clone" in out and (tmp_path / "t.png").exists()


def test_the_held_clone_section_runs_alone_under_its_own_name(monkeypatch, capsys):
    """``--only held-clones``: the bytes per held clone of each side, their ratio and each
    over the engine root's live state, and no other section."""
    monkeypatch.setattr(report, "HELD_CLONES", ((100, 2),))
    monkeypatch.setattr(report.os, "sched_setaffinity", lambda *a: None)
    monkeypatch.setattr(report, "interleaved_section", lambda *a: pytest.fail("not asked for"))
    monkeypatch.setattr(report, "tick_rows", lambda *a, **k: pytest.fail("not asked for"))
    assert report.main(["--only", "held-clones"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.split("|")[1:2] == [" 1x100 "])
    cells = [c.strip() for c in row.strip("|").split("|")]
    live, engine, esper_ = (float(c.replace(",", "")) for c in cells[2:5])
    assert cells[1] == "2" and 0 < engine < esper_
    ratios = [float(c.rstrip("x")) for c in cells[5:]]
    assert ratios == pytest.approx([esper_ / engine, engine / live, esper_ / live], rel=0.01)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads Linux's VmHWM")
def test_the_memory_probe_reads_its_own_peak_not_its_parents():
    """The memory probe runs in a process of its own, started by the report's: its peak
    must be its own. A child's ``ru_maxrss`` keeps its parent's peak over the fork and
    exec (Linux), so a report that held big batches read their RSS as the probe's."""
    ballast = np.ones(512 * 2**20 // 8)   # 512 MB resident here
    out = subprocess.run([sys.executable, "-c", "from benchmarks import report; print(report.peak_rss())"],
                         capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert int(out.stdout) < 256 * 2**20 <= ballast.nbytes // 2


@pytest.mark.parametrize("regime", report.REGIMES)
def test_measure_times_the_run_alone_and_gives_the_median_run(regime, monkeypatch):
    """Runs of 1, 2 and 3 s between setups, teardowns and frees of what they made that
    cost 100 s each: the figure is 2 s, the median run, whatever the regime."""
    clock = FakeClock()
    monkeypatch.setattr(report, "time", SimpleNamespace(perf_counter=clock))
    monkeypatch.setattr(gc, "collect", lambda *a: 0)
    runs = iter([1.0, 2.0, 3.0])

    class Made:
        def __del__(self) -> None:
            clock.spend(100.0)

    def run() -> Made:
        clock.spend(next(runs))
        return Made()

    case = cases.Case("probe", run, setup=lambda: clock.spend(100.0), teardown=lambda: clock.spend(100.0))
    assert report.measure(case, min_time=0.0, min_rounds=3, regime=regime) == 2.0


def test_a_tick_rows_ratio_counts_the_objects_each_side_checked(monkeypatch):
    """A batch whose baseline plays its first games only: the ratio is of objects checked
    per second (the engine's all games', the baseline's its own), not of the times."""
    monkeypatch.setattr(report, "measure", lambda case, *a, **k: 1.0 if case.name.startswith("engine") else 2.0)
    (row,) = report.tick_rows([(4, 50)], min_time=0.0, baseline_games=2)
    assert row["baseline_games"] == 2
    assert (row["engine_ops"], row["baseline_ops"], row["ratio"]) == (200.0, 50.0, 4.0)


def test_a_target_met_exactly_is_met():
    """"At least 1x", "within 3x": the goal itself meets a target either way."""
    assert report.Target("x", 1.0, 1.0).met and report.Target("y", 3.0, 3.0, higher_is_better=False).met
    assert not report.Target("x", 0.99, 1.0).met and not report.Target("y", 3.01, 3.0, False).met


def test_the_single_game_targets_are_the_documented_ones_judged_on_the_median_ratio():
    """docs/performance.md: actions and reads within 2x of the esper baseline (0.5), a
    self-play step 3x faster at 100 objects and 10x at 1,000, a settled tick 3x at 100, in
    both regimes; each judged on the ratio of the medians, not the best round's."""
    from benchmarks import interleave
    names = [f"{op} 1x100" for op in cases.OPS] + [f"self-play step (3 actions + tick) 1x{n}" for n in (100, 1000)]
    names.append("settled tick 1x100")
    got = {}
    for regime in interleave.REGIMES:
        for name in names:
            contest = interleave.Contest(name, cases.Case("e", lambda: None), {"esper": cases.Case("b", lambda: None)})
            sides = {"engine": interleave.Side([1.0, 1.0]), "esper": interleave.Side([1.0, 3.0])}
            got[(name, regime)] = interleave.Outcome(contest, regime, sides)
    targets = report.single_game_targets(got)
    assert {t.value for t in targets} == {2.0} and all(t.higher_is_better for t in targets)
    goals = {t.what: t.goal for t in targets}
    for regime in interleave.REGIMES:
        assert all(goals[f"{regime}: {op} 1x100, speedup vs esper"] == 0.5 for op in cases.OPS)
        assert goals[f"{regime}: self-play step (3 actions + tick) 1x100, speedup vs esper"] == 3
        assert goals[f"{regime}: self-play step (3 actions + tick) 1x1000, speedup vs esper"] == 10
        assert goals[f"{regime}: settled tick 1x100, speedup vs esper"] == 3
    assert len(targets) == 2 * (len(cases.OPS) + 3)


def test_the_throughput_targets_are_the_documented_ones_judged_on_the_figures(monkeypatch, capsys):
    """docs/performance.md: an acting tick at least 1x the naive baseline at 100 objects,
    8x at 1,000, 40x at 10,000; 1024x1000 and 4096x200 at 10^8 objects/s, acting and
    settled; clone() within 3x a raw copy and over 1,000x faster than deepcopy; 4096x1000
    within 4 GiB. The measurements are stubbed with figures each side of the lines."""
    ratio = {100: 1.0, 1_000: 7.0, 10_000: 30.0, 100_000: 50.0}

    def tick_rows(shapes, min_time, baseline_games, settled=False, regime="loop"):
        return [dict(games=g, n=n, engine_s=1.0, engine_ops=5e7 if settled else 2e8, baseline_s=1.0,
                     baseline_ops=1.0, baseline_games=g, ratio=ratio.get(n, 1.0)) for g, n in shapes]
    clone = dict(bytes=1000, raw_s=1.0, clone_s=4.0, written_s=5.0, snap_s=5.0)
    monkeypatch.setattr(report, "tick_rows", tick_rows)
    monkeypatch.setattr(report, "interleaved_section", lambda *a: {})
    monkeypatch.setattr(report, "single_game_targets", lambda got: [])
    monkeypatch.setattr(report, "host_section", lambda *a: [])
    monkeypatch.setattr(report, "held_clone_section", lambda: [])
    monkeypatch.setattr(report, "clone_rows", lambda min_time: [
        dict(games=1, n=1000, deepcopy_s=2000.0, esper_clone_s=100.0, **clone), dict(games=1024, n=1000, **clone)])
    monkeypatch.setattr(report, "memory_row", lambda games, n: dict(games=games, n=n, store_bytes=2**30,
                                                                    peak_rss=5 * report.GIB))
    monkeypatch.setattr(report, "plot", lambda *a: None)
    monkeypatch.setattr(report.os, "sched_setaffinity", lambda *a: None)
    assert report.main(["--quick"]) == 0
    out = capsys.readouterr().out.split("throughput targets:\n")[1].splitlines()
    assert out[:10] == [
        "  [MISSED] 10,000 objects: engine/baseline speed per tick: 30 (target >= 40)",
        "  [MISSED] 1,000 objects: engine/baseline speed per tick: 7 (target >= 8)",
        "  [met] 100 objects: engine/baseline speed per tick: 1 (target >= 1)",
        "  [met] batch 1024x1000: objects/s on one core, acting tick: 2e+08 (target >= 1e+08)",
        "  [MISSED] batch 1024x1000: objects/s on one core, settled tick (one check): 5e+07 (target >= 1e+08)",
        "  [met] batch 4096x200: objects/s on one core, acting tick: 2e+08 (target >= 1e+08)",
        "  [MISSED] batch 4096x200: objects/s on one core, settled tick (one check): 5e+07 (target >= 1e+08)",
        "  [MISSED] clone of a 1,000-object game / raw copy of its bytes: 4 (target <= 3)",
        "  [MISSED] deepcopy of the baseline / clone of a 1,000-object game: 500 (target >= 1,000)",
        "  [MISSED] 4096x1000 batch peak memory, GiB: 5 (target <= 4)"]


def test_a_target_line_writes_its_figures_as_read():
    """A thousand reads 1,000 (not 1e+03); ratios keep three digits; objects per second go
    in powers of ten."""
    assert [report.figure(x) for x in (0.364, 7.06, 500, 1000, 12_345, 2e8)] == [
        "0.364", "7.06", "500", "1,000", "12,345", "2e+08"]
    assert report.Target("clone", 1500, 1000).line() == "  [met] clone: 1,500 (target >= 1,000)"


def test_the_memory_probe_generates_builds_and_ticks_the_batch_asked_for(monkeypatch):
    """Its peak is that of the games x n batch through its first tick (the 4 GiB target's)."""
    from benchmarks.boards import build_engine, make_board
    from ecs import schedule
    calls = []
    real = schedule._tick
    monkeypatch.setattr(schedule, "_tick", lambda *a: (calls.append(1), real(*a))[1])
    got = report.memory_probe(4, 50)
    assert calls and (got["games"], got["n"]) == (4, 50)
    assert got["store_bytes"] == cases.state_nbytes(build_engine(make_board(50, games=4, seed=cases.SEED)).world)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads Linux's VmHWM")
def test_the_peak_is_the_highest_resident_memory_not_the_current():
    """256 MiB written then freed: the peak keeps them, to the byte's scale (kB of 1,024)."""
    code = ("import numpy as np; from benchmarks import report, soak\n"
            "now = soak.rss()[0]; a = np.ones(256 * 2**20 // 8); top = now + a.nbytes; del a\n"
            "print(report.peak_rss() / top, soak.rss()[0] / top)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])
    peak, after = (float(x) for x in out.stdout.split())
    assert 0.995 < peak < 1.01 and after < 0.5
