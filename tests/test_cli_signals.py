"""Ctrl-C on the command line: the whole process group gets SIGINT, as
in a terminal; the run stops at once, prints the games that finished, exits 130, and never
shows a traceback, whenever the signal comes. SIGTERM to the main process does the same,
exit 143; a killed main process leaves no worker behind."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from ecs import cli, montecarlo
from ecs.scenario import DEFAULT

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _start(code: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env(), cwd=ROOT,
                            start_new_session=True)


def _finish(p: subprocess.Popen[str], timeout: float) -> tuple[str, str]:
    """Its output once it exits; a run that does not stop in time is killed, and fails."""
    try:
        return p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        pytest.fail(f"still running after {timeout} s; stderr: {err[-2000:]}")


SIMULATE = ["simulate", "--games", "1000000", "--workers", "2", "--batch", "64"]
RUN_CLI = "import sys; from ecs.cli import main; sys.exit(main(sys.argv[1:]))"


@pytest.fixture(scope="module", autouse=True)
def warm_kernel_cache() -> None:
    """In a fresh checkout the kernels compile into numba's on-disk cache on the first run;
    a short run first keeps that out of the timings below."""
    subprocess.run([sys.executable, "-m", "ecs", "simulate", "--games", "64", "--workers", "1",
                    "--no-progress"], capture_output=True, env=_env(), cwd=ROOT, timeout=300,
                   check=True)


def _stopped_cleanly(p: subprocess.Popen[str], out: str, err: str) -> None:
    assert p.returncode == 130, err
    assert "Traceback" not in err and "Error" not in err and "Bad file descriptor" not in err, err
    assert "INTERRUPTED" in out and "of 1,000,000 games finished" in out


class _Stderr:
    """Reads a run's stderr as it comes; ``progress`` is set once the bar shows finished games."""

    def __init__(self, p: subprocess.Popen[str]) -> None:
        self.p, self.seen, self.progress = p, [""], threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        assert self.p.stderr is not None
        while ch := self.p.stderr.read(1):
            self.seen.append(ch)
            if re.search(r"\| *[1-9][\d,]*/1000000", "".join(self.seen[-80:])):
                self.progress.set()

    def wait_for_progress(self) -> None:
        if not self.progress.wait(120):
            os.killpg(self.p.pid, signal.SIGKILL)
            pytest.fail("no progress: " + self.text())

    def text(self) -> str:
        self.thread.join(10)
        return "".join(self.seen)


def test_ctrl_c_after_games_finished_reports_them() -> None:
    """SIGINT once the progress bar shows finished games: the run stops within seconds and
    prints them (the summary has a Survival table)."""
    p = _start(RUN_CLI, *SIMULATE)
    err = _Stderr(p)
    err.wait_for_progress()
    os.killpg(p.pid, signal.SIGINT)
    start = time.monotonic()
    out = _finish(p, 60)[0]
    assert time.monotonic() - start < 20
    _stopped_cleanly(p, out, err.text())
    assert "Survival" in out


def _group_gone(pgid: int, timeout: float) -> bool:
    """Every process of the group has exited (a worker left behind would be found)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def _sigterm_stops_the_run(code: str) -> None:
    """SIGTERM to the main process of a simulate run ``code`` starts, once it shows progress:
    the workers stopped, the finished games printed, exit status 143 (128 + SIGTERM)."""
    p = _start(code, *SIMULATE)
    err = _Stderr(p)
    err.wait_for_progress()
    os.kill(p.pid, signal.SIGTERM)
    out = _finish(p, 60)[0]
    text = err.text()
    assert p.returncode == 143, text
    assert "Traceback" not in text and "Error" not in text, text
    assert "INTERRUPTED" in out and "of 1,000,000 games finished" in out and "Survival" in out
    assert _group_gone(p.pid, 10)


def test_sigterm_to_the_main_process_stops_its_workers_and_reports() -> None:
    """``kill PID`` (SIGTERM to the main process only, not its group) stops the run as
    Ctrl-C does: no worker is left running, holding stdout and stderr open."""
    _sigterm_stops_the_run(RUN_CLI)


def test_sigterm_with_ctrl_c_ignored_stops_the_run_as_ctrl_c_would() -> None:
    """A background job (``cmd &`` in a script) starts with SIGINT ignored, so the run installs
    no Ctrl-C handler of its own; SIGTERM still reaches it through ``montecarlo.interrupt``
    and stops it between shards: the workers stopped, the finished games printed, 143."""
    _sigterm_stops_the_run("import signal; signal.signal(signal.SIGINT, signal.SIG_IGN)\n" + RUN_CLI)


#: Python run in the child after its Ctrl-C set-up: ``demo`` (no run of montecarlo, nothing for
#: ``interrupt`` to stop) waits for a signal where it builds its first board; then the
#: status main() returned, and a SIGTERM of its own, which ends the process (the default
#: action) once the command's handler is gone. (Short sleeps, not ``signal.pause()``: a
#: signal that lands after the interpreter's last look and before pause() blocks would
#: leave it waiting for another.)
OUTSIDE_A_RUN = """
import os, signal, sys, time
from ecs import cli
def wait_for_a_signal(objects, batch):
    print("waiting", file=sys.stderr, flush=True)
    while True:
        time.sleep(0.01)
cli._board = wait_for_a_signal
print(cli.main(["demo"]), flush=True)
os.kill(os.getpid(), signal.SIGTERM)
"""

CTRL_C = {"ignored": "signal.signal(signal.SIGINT, signal.SIG_IGN)",
          "python's": "pass",
          "the program's": "def on_int(signum, frame):\n"
                           "    print('Ctrl-C', file=sys.stderr)\n"
                           "    raise KeyboardInterrupt\n"
                           "signal.signal(signal.SIGINT, on_int)"}


@pytest.mark.parametrize("ctrl_c, sig, status, said", [
    ("ignored", signal.SIGTERM, 143, "tcg-counters: terminated\n"),
    ("python's", signal.SIGTERM, 143, "tcg-counters: terminated\n"),
    ("the program's", signal.SIGTERM, 143, "Ctrl-C\ntcg-counters: terminated\n"),
    ("python's", signal.SIGINT, 130, "tcg-counters: interrupted\n")],
    ids=["sigterm-ctrl-c-ignored", "sigterm", "sigterm-own-ctrl-c-handler", "ctrl-c"])
def test_a_signal_outside_a_run_ends_the_command_and_its_handler_goes(
        ctrl_c: str, sig: int, status: int, said: str) -> None:
    """Outside a run SIGTERM ends the command as Ctrl-C would (through Ctrl-C's handler, the
    program's own if it has one), also with Ctrl-C ignored: one line, status 143; Ctrl-C
    itself 130. Afterwards SIGTERM has its default action again."""
    p = _start(f"import signal, sys\n{CTRL_C[ctrl_c]}\n{OUTSIDE_A_RUN}")
    assert p.stderr is not None and p.stderr.readline() == "waiting\n"
    os.kill(p.pid, sig)
    out, err = _finish(p, 60)
    assert (out, err, p.returncode) == (f"{status}\n", said, -signal.SIGTERM)


def test_a_programs_own_sigterm_handler_is_left_alone(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """main() called by a program that handles SIGTERM itself: the program's handler gets a
    SIGTERM sent during the command, which finishes, and is still in place afterwards."""
    got: list[int] = []
    real = cli.embedded

    def embedded() -> dict[str, str]:
        os.kill(os.getpid(), signal.SIGTERM)
        return real()

    def handler(signum: int, frame: Any) -> None:
        got.append(signum)

    monkeypatch.setattr(cli, "embedded", embedded)
    old = signal.signal(signal.SIGTERM, handler)
    try:
        assert cli.main(["scenarios"]) == 0
        assert signal.getsignal(signal.SIGTERM) is handler
    finally:
        signal.signal(signal.SIGTERM, old)
    assert got == [signal.SIGTERM] and DEFAULT in capsys.readouterr().out


def test_main_runs_in_a_thread_other_than_the_main_one(capsys: pytest.CaptureFixture[str]) -> None:
    """Only the main thread installs signal handlers: from another thread the command runs
    with none of its own (it raised ValueError)."""
    status: list[int] = []
    thread = threading.Thread(target=lambda: status.append(cli.main(["scenarios"])))
    thread.start()
    thread.join(60)
    assert status == [0] and DEFAULT in capsys.readouterr().out


def test_ctrl_c_before_any_game_finished_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C while the scenario is checked (its kernels loading; faked here): nothing to
    report, one line, status 130, no output written."""
    def interrupted(sc: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(montecarlo, "check", interrupted)
    js = tmp_path / "r.json"
    assert cli.main(["simulate", "bear_decay", "--workers", "1", "--json", str(js)]) == 130
    assert capsys.readouterr() == ("", "tcg-counters: stopped before any game finished\n")
    assert not js.exists()


def test_workers_exit_when_the_main_process_is_killed() -> None:
    """SIGKILL leaves nobody to stop the workers: they notice their parent is gone and exit."""
    p = _start(RUN_CLI, *SIMULATE)
    err = _Stderr(p)
    err.wait_for_progress()
    os.kill(p.pid, signal.SIGKILL)
    _finish(p, 30)            # the workers' ends of stdout and stderr close as they exit
    err.text()
    assert p.returncode == -signal.SIGKILL
    assert _group_gone(p.pid, 10)


def test_ctrl_c_while_the_workers_start() -> None:
    """SIGINT to the process group right after each worker process starts, before its
    initializer could ignore SIGINT: a worker used to die with a KeyboardInterrupt traceback
    and break the pool. Now the workers hold SIGINT until they ignore it, and the parent stops."""
    code = ("import os, signal, sys\n"
            "import multiprocessing.process as mp\n"
            "start = mp.BaseProcess.start\n"
            "def start_and_interrupt(self):\n"
            "    start(self)\n"
            "    os.killpg(0, signal.SIGINT)\n"
            "mp.BaseProcess.start = start_and_interrupt\n" + RUN_CLI)
    p = _start(code, *SIMULATE, "--no-progress")
    out, err = _finish(p, 60)
    _stopped_cleanly(p, out, err)


def test_ctrl_c_while_the_command_imports_its_modules() -> None:
    """An interrupt while `python -m ecs` imports the command: one line, exit 130."""
    code = ("import builtins, os, runpy, signal, sys\n"
            "import ecs\n"
            "real = builtins.__import__\n"
            "def interrupt_at_cli(name, *a, **k):\n"
            "    if name == 'cli':\n"
            "        os.kill(os.getpid(), signal.SIGINT)\n"
            "    return real(name, *a, **k)\n"
            "builtins.__import__ = interrupt_at_cli\n"
            "sys.argv = ['ecs', 'scenarios']\n"
            "runpy.run_module('ecs', run_name='__main__')\n")
    p = _start(code)
    out, err = _finish(p, 60)
    assert (p.returncode, out, err) == (130, "", "tcg-counters: interrupted\n")


#: Python run in the child: hook the first shard's arrival to break the local pool's result
#: pipe as a worker killed mid-send does (half a message: a header promising 1 MB, 10 bytes).
HALF_A_MESSAGE = """
import os, signal, struct, sys
from ecs import executors, montecarlo as mc
pools = []
start, add = executors.Pool._start, mc._Collector.add
def start_and_keep(self):
    pools.append(start(self))
    return pools[-1]
def add_then_break(self, *a, **k):
    add(self, *a, **k)
    if len(pools) == 1 and not hasattr(mc, "broken"):
        mc.broken = True
        writer = pools[0]._result_queue._writer
        os.write(writer.fileno(), struct.pack("!i", 1 << 20) + b"x" * 10)
        THEN
executors.Pool._start, mc._Collector.add = start_and_keep, add_then_break
"""


def test_ctrl_c_with_half_a_result_in_the_pipe() -> None:
    """The lost Ctrl-C: a worker killed while it sent a result left the pool's
    thread waiting for the rest of the message; the run printed its summary and then never
    exited (the interpreter waits for that thread). Now it exits at once."""
    code = HALF_A_MESSAGE.replace("THEN", "os.killpg(0, signal.SIGINT)") + RUN_CLI
    p = _start(code, *SIMULATE, "--no-progress")
    out, err = _finish(p, 60)
    _stopped_cleanly(p, out, err)


def test_import_ecs_loads_no_engine_so_ctrl_c_while_loading_is_caught() -> None:
    """``import ecs`` (run before ``python -m ecs`` or ``tcg-counters`` reach their
    Ctrl-C handling) loads no kernels; the engine loads inside the handled region."""
    code = "import sys, ecs; print('numba' in sys.modules, 'ecs.world' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.stdout.split() == ["False", "False"], r.stderr
