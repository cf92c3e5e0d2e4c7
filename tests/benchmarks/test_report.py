"""benchmarks.report: the timing regimes leave the garbage collector as they found it."""
import gc
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

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
    monkeypatch.setattr(report, "memory_row", lambda games, n: report.memory_probe(4, 50))
    monkeypatch.setattr(report.os, "sched_setaffinity", lambda *a: None)   # (the suite's process)
    monkeypatch.setattr(report.interleave, "calibrate", lambda case, budget: 2)   # runs a block
    monkeypatch.setattr(gc, "collect", lambda *a: 0)   # (a full collection of the suite's heap: 70 ms)
    assert report.main(["--quick", "--plot", str(tmp_path / "t.png")]) == 0
    out = capsys.readouterr().out
    # single-game targets (15 a regime: no 1x1000 step), throughput (1 board, 4 batch, 3 more)
    assert out.count("[met]") + out.count("[MISSED]") == 2 * 15 + 8
    assert "interleaved, disturbed" in out and (tmp_path / "t.png").exists()


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
