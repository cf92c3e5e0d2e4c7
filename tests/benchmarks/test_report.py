"""benchmarks.report: the timing regimes leave the garbage collector as they found it."""
import gc

import pytest

from benchmarks import cases, report


@pytest.mark.parametrize("regime", report.REGIMES)
def test_measure_times_each_regime_and_turns_the_collector_back_on(regime):
    seen = []
    case = cases.Case("probe", lambda: seen.append(gc.isenabled()))
    assert report.measure(case, min_time=0.0, min_rounds=3, regime=regime) >= 0
    assert len(seen) == 3 and seen == [regime != "gc off"] * 3
    assert gc.isenabled()


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
