"""Cold start: a first run says on stderr that the kernels compile, compiles them once, and
reports the time this took (``throughput.startup_s``, ``compiled``) beside the games' own;
a second run loads them from numba's disk cache and stays quiet."""
from __future__ import annotations

import gc
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from numba import njit

import ecs.__main__ as ecs_main
from ecs import World, cli, kernels, warmup
from ecs.systems import GAStateChecks

ROOT = Path(__file__).resolve().parents[1]


def test_watch_writes_the_line_only_when_numba_compiles() -> None:
    """A real compilation writes MESSAGE, ended by the seconds taken, and is counted once
    (the kernel, not its helpers); a call that compiles nothing writes nothing."""
    @njit(cache=False)
    def helper(x: int) -> int:
        return x + 1

    @njit(cache=False)
    def kernel(x: int) -> int:
        return helper(x) * 2

    cold = io.StringIO()
    with warmup.watch(cold) as seen:
        assert kernel(1) == 4
    assert seen.count == 1
    assert cold.getvalue().startswith(warmup.MESSAGE) and cold.getvalue().endswith(" s\n")
    warm = io.StringIO()
    with warmup.watch(warm) as seen:
        assert kernel(2) == 6
    assert (seen.count, warm.getvalue()) == (0, "")


def _simulate(cache: Path) -> tuple[dict[str, float], str]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache),
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    p = subprocess.run([sys.executable, "-m", "ecs", "simulate", "bear_decay", "--games", "32",
                        "--workers", "1", "--no-progress", "--json", "-"],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)["throughput"], p.stderr


def test_first_run_says_it_compiles_and_reports_the_startup(tmp_path: Path) -> None:
    """With an empty numba cache the run writes the compile line (once) while it compiles
    the kernels of the scenario's ruleset and counts the compile in ``startup_s``; the next
    run compiles nothing; a schedule given another ruleset's system compiles its kernels."""
    cold, err = _simulate(tmp_path)
    assert err.count(warmup.MESSAGE) == 1   # by this process, not again by its forked helper
    World()   # every kernel's module imported here too, as in the run
    # each once, in this process or its helper: those of a Magic World (the scenario's), not
    # the optional probe (a batched run's) nor the Grand Archive's checks'
    magic = kernels.needed(False, World().ruleset.systems)
    assert cold["compiled"] == len(magic)
    assert magic == [k for k in kernels.KERNELS if not k.optional and k.system is not GAStateChecks]
    assert len(magic) < len(kernels.KERNELS) - 2
    assert cold["startup_s"] > 0 and cold["elapsed_s"] > 0
    assert f"kernels: {cold['compiled']} compiled, the others loaded" in err   # the table (on stderr)
    warm, err = _simulate(tmp_path)
    assert warmup.MESSAGE not in err
    assert warm["compiled"] == 0
    assert warm["startup_s"] > 0
    # The Grand Archive's checks' kernels, which no Magic run compiled, compile for a
    # schedule that has them (a host's), before its first tick
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path),
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    p = subprocess.run([sys.executable, "-c", _HOST_SCHEDULE], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr


_HOST_SCHEDULE = """
from ecs import World, kernels
from ecs.systems import GAStateChecks, ga_checks, lethality
w = World(batch=2)
assert kernels.frozen(lethality.dying) and not kernels.frozen(ga_checks.falling)
p = w.add_player()
ally = w.add_object(p, "creature", power=1, toughness=1)
w.schedule = w.schedule.with_systems(GAStateChecks)
assert kernels.frozen(ga_checks.falling)
w.deal_damage(ally, 1)
w.tick()
assert not w.exists(ally).any()
"""


def test_the_command_loads_numba_without_scipy_linalg() -> None:
    """The command's process (``python -m ecs``) loads numba's array functions before numba's
    first compile or load, with SciPy's linear algebra hidden from numba's BLAS probe; SciPy
    still imports afterwards (if installed)."""
    code = ("import importlib.util, sys\n"
            "from ecs.__main__ import _without_blas_probe\n"
            "_without_blas_probe()\n"
            "assert 'numba.np.arraymath' in sys.modules\n"
            "assert not [m for m in sys.modules if m.startswith('scipy.linalg')], 'scipy.linalg was imported'\n"
            "if importlib.util.find_spec('scipy') is not None:\n"
            "    import scipy.linalg\n"
            "    assert scipy.linalg.norm([3.0, 4.0]) == 5.0\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stderr


_PROBE = ("import re, sys\n"
          "from numba import njit\n"
          "for i in range(int(sys.argv[1])):   # other compiles first: later ones get other numbers\n"
          "    njit(lambda x, i=i: x + i)(1)\n"
          "from ecs import World\n"
          "from ecs.systems.annihilation import pairs\n"
          "w = World(batch=1)\n"
          "p = w.add_player()\n"
          "bear = w.add_object(p, 'creature', power=2, toughness=2, counters={'+1/+1': 1, '-1/-1': 1})\n"
          "w.tick()\n"
          "assert w.count(bear, '+1/+1') == 0   # the probe found the pair (704.5q)\n"
          "name = next(iter(pairs.overloads.values())).fndesc.mangled_name\n"
          "print(re.search(r'pairsB\\d+v(\\d+)', name)[1])\n")


def _probe(cache: Path, shift: int) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache),
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-c", _PROBE, str(shift)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_a_kernel_compiled_anew_does_not_abort_the_compile_of_its_caller(tmp_path: Path) -> None:
    """After an edit or an upgrade, a kernel compiled anew gets another symbol (numba's names
    hold the number of the process's compile). The settled probe calls its kernels by symbol
    and recompiles with them (704.5q is still found); no helper of it compiled against the
    old symbol is loaded from the disk cache, which would abort the process ("LLVM ERROR:
    Symbol not found")."""
    first = _probe(tmp_path, 0)
    assert first.returncode == 0, first.stderr
    for gone in [*tmp_path.rglob("annihilation.pairs-*"), *tmp_path.rglob("settled._acting-*")]:
        gone.unlink()   # as an edit of the kernel (and so of its caller's key) would
    again = _probe(tmp_path, int(first.stdout) + 1)
    assert again.returncode == 0, again.stderr
    assert int(again.stdout) != int(first.stdout)   # pairs has another symbol now


def test_watch_counts_every_kernel_and_writes_the_line_once() -> None:
    """Two kernels compiled in one block: both counted, the line written once, at the first."""
    @njit(cache=False)
    def one(x: int) -> int:
        return x + 1

    @njit(cache=False)
    def two(x: int) -> int:
        return x * 2

    cold = io.StringIO()
    with warmup.watch(cold) as seen:
        assert (one(1), two(1)) == (2, 2)
    assert seen.count == 2 and cold.getvalue().count(warmup.MESSAGE) == 1


def test_watch_shows_the_line_while_the_compile_runs() -> None:
    """The line is flushed as the compile starts, before its end (no newline would show it
    on a terminal's stderr): it says what the wait is for while it lasts."""
    flushed: list[str] = []

    class Stream(io.StringIO):
        def flush(self) -> None:
            flushed.append(self.getvalue())

    @njit(cache=False)
    def kernel(x: int) -> int:
        return x - 1

    with warmup.watch(Stream()):
        assert kernel(1) == 0
    assert flushed[0] == warmup.MESSAGE and flushed[-1].endswith(" s\n")


def test_a_forked_helpers_compiles_are_quiet_there_and_counted_here(monkeypatch: Any) -> None:
    """The listener a forked helper inherits writes nothing there (another process); the
    kernels the helpers compiled (``kernels.helped``) count in the block's ``count``."""
    inherited = warmup.Compiles(io.StringIO())
    inherited.pid = os.getpid() + 1       # as in a child forked after it was made
    inherited.on_start(None)
    inherited.on_end(None)
    assert inherited.count == 1 and inherited.stream.getvalue() == ""
    helped = iter([5, 8])
    monkeypatch.setattr(kernels, "helped", lambda: next(helped))
    with warmup.watch(io.StringIO()) as seen:
        pass
    assert seen.count == 3


def test_a_block_whose_kernels_the_helper_compiled_alone_says_so_in_one_line(monkeypatch: Any) -> None:
    """Where the forked helper compiled every kernel of a block and this process none, the
    block's line still names what took the time: MESSAGE, then the seconds."""
    helped = iter([0, 2])
    monkeypatch.setattr(kernels, "helped", lambda: next(helped))
    out = io.StringIO()
    with warmup.watch(out) as seen:
        pass
    assert seen.count == 2
    assert out.getvalue().startswith(warmup.MESSAGE + " ") and out.getvalue().endswith(" s\n")
    assert out.getvalue().count(warmup.MESSAGE) == 1


def test_the_probe_keeps_a_scipy_linalg_already_imported(monkeypatch: Any) -> None:
    """SciPy's linear algebra imported before (by a program): hidden from nothing, and the
    module stays the one imported."""
    scipy_linalg = pytest.importorskip("scipy.linalg")
    monkeypatch.setitem(sys.modules, "scipy.linalg", scipy_linalg)
    ecs_main._without_blas_probe()
    assert sys.modules["scipy.linalg"] is scipy_linalg


def test_the_command_hides_scipy_linalg_then_runs_then_freezes(monkeypatch: Any) -> None:
    """``python -m ecs``: the BLAS probe's import is skipped before the command's modules
    load, the command runs, and the objects left are frozen for the exit (not collected)."""
    steps: list[str] = []
    monkeypatch.setattr(ecs_main, "_without_blas_probe", lambda: steps.append("probe"))
    monkeypatch.setattr(cli, "main", lambda: steps.append("main") or 7)
    monkeypatch.setattr(gc, "freeze", lambda: steps.append("freeze"))
    assert ecs_main.run() == 7
    assert steps == ["probe", "main", "freeze"]
