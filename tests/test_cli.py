"""The command line: simulate (summary, JSON, PNG, errors, Ctrl-C), scenarios and demo."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ecs.cli import main
from ecs.scenario import DEFAULT, embedded

ROOT = Path(__file__).resolve().parents[1]


def test_scenarios_lists_the_embedded_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenarios"]) == 0
    out = capsys.readouterr().out
    for name in embedded():
        assert name in out
    assert f"{DEFAULT} (default)" in out


def test_simulate_prints_a_summary_and_writes_json_and_png(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    js, png = tmp_path / "r.json", tmp_path / "r.png"
    rc = main(["simulate", "bear_decay", "--games", "200", "--seed", "3", "--workers", "1",
               "--batch", "64", "--json", str(js), "--plot", str(png), "--no-progress"])
    assert rc == 0
    out = capsys.readouterr().out
    for words in ("Scenario bear_decay (mtg", "200 games, seed 3", "games/s", "Survival",
                  "bear", "95% CI", "Players", "alice", "draw", "game length", "-1/-1"):
        assert words in out, words
    d = json.loads(js.read_text())
    assert d["games"] == 200 and d["seed"] == 3 and "bear" in d["survival"]
    assert d["throughput"]["batch"] == 64
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000


def test_simulate_without_a_scenario_runs_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "40", "--workers", "1", "--no-progress", "--json", "-"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Scenario {DEFAULT} ")
    d = json.loads(out[out.index("\n{") + 1:])
    assert d["scenario"] == DEFAULT and d["games"] == 40


def test_summary_columns_line_up_with_long_labels(capsys: pytest.CaptureFixture[str]) -> None:
    """Every probability row starts its confidence interval in the same column, also for
    an entry of many copies ("saprolings (any of 40)")."""
    assert main(["simulate", "mtg_skirmish", "--games", "64", "--workers", "1"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.endswith("]")]
    assert any("(any of" in r for r in rows)
    assert len({r.index("[") for r in rows}) == 1


def test_a_bad_scenario_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    text = (ROOT / "ecs" / "scenarios" / "bear_decay.toml").read_text()
    bad.write_text(text.replace("turns = 10", "turns = -1"))
    assert main(["simulate", str(bad), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: turns: expected an integer in 1..100000, got -1" in err
    assert main(["simulate", str(tmp_path / "missing.toml")]) == 2
    assert "missing.toml: cannot read the scenario" in capsys.readouterr().err
    assert main(["simulate", "bear_decay", "--seed", "-1", "--no-progress"]) == 2
    assert "seed must be a non-negative integer, got -1" in capsys.readouterr().err


@pytest.mark.parametrize("args", [["simulate", "--games", "0"], ["simulate", "--workers", "x"],
                                  ["frobnicate"], []])
def test_bad_arguments_exit_2(args: list[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(args)
    assert e.value.code == 2


def test_demo_prints_timings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--objects", "3000"]) == 0
    out = capsys.readouterr().out
    assert "3,000 creatures" in out and "first tick" in out and "objects/s" in out


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def test_python_dash_m_ecs() -> None:
    p = subprocess.run([sys.executable, "-m", "ecs", "scenarios"], capture_output=True, text=True,
                       env=_env(), cwd=ROOT, timeout=60)
    assert p.returncode == 0 and DEFAULT in p.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_cleanly_and_reports_what_finished() -> None:
    """Ctrl-C reaches the whole process group (the parent and its workers, as in a terminal):
    the run stops within seconds, prints the games that finished, exits 130."""
    # A short run first compiles the kernels into numba's on-disk cache: in a fresh checkout
    # the interrupt would otherwise come while they compile, before any game finished.
    subprocess.run([sys.executable, "-m", "ecs", "simulate", "--games", "64", "--workers", "1",
                    "--no-progress"], capture_output=True, env=_env(), cwd=ROOT, timeout=300, check=True)
    p = subprocess.Popen([sys.executable, "-m", "ecs", "simulate", "--games", "1000000",
                          "--workers", "2", "--batch", "64"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=_env(), cwd=ROOT,
                         start_new_session=True)
    time.sleep(6)
    os.killpg(p.pid, signal.SIGINT)
    start = time.monotonic()
    out, err = p.communicate(timeout=60)
    assert time.monotonic() - start < 20
    assert p.returncode == 130, err
    assert "INTERRUPTED" in out and "of 1,000,000 games finished" in out and "Survival" in out
    assert "Traceback" not in err and "game" in err  # the progress bar was shown


def test_simulate_on_a_dask_scheduler(tmp_path: Path) -> None:
    """--scheduler ADDRESS runs the shards on a Dask cluster; the result equals the local one."""
    distributed = pytest.importorskip("distributed")
    local, remote = tmp_path / "local.json", tmp_path / "dask.json"
    common = ["simulate", "bear_decay", "--games", "300", "--seed", "9", "--no-progress", "--json"]
    assert main(common + [str(local), "--workers", "1"]) == 0
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        assert main(common + [str(remote), "--scheduler", cluster.scheduler_address,
                              "--batch", "64"]) == 0
    a, b = json.loads(local.read_text()), json.loads(remote.read_text())
    assert b["throughput"]["workers"].startswith("dask ")
    a.pop("throughput"), b.pop("throughput")
    assert a == b
