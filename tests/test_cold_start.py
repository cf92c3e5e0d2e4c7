"""Cold start: a first run says on stderr that the kernels compile, compiles them once, and
reports the time this took (``throughput.startup_s``, ``compiled``) beside the games' own;
a second run loads them from numba's disk cache and stays quiet."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

from numba import njit

from ecs import World, kernels, warmup

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
    """With an empty numba cache the run writes the compile line (once) while
    it compiles and counts the compile in ``startup_s``; the next run compiles nothing."""
    cold, err = _simulate(tmp_path)
    assert err.count(warmup.MESSAGE) == 1   # by this process, not again by its forked helper
    World()   # every kernel's module imported here too, as in the run
    # each once, in this process or its helper; not the optional probe (a batched run's)
    assert cold["compiled"] == len([k for k in kernels.KERNELS if not k.optional]) == len(kernels.KERNELS) - 1
    assert cold["startup_s"] > 0 and cold["elapsed_s"] > 0
    assert f"kernels loaded, {cold['compiled']} compiled" in err   # the table (on stderr)
    warm, err = _simulate(tmp_path)
    assert warmup.MESSAGE not in err
    assert warm["compiled"] == 0
    assert warm["startup_s"] > 0


def test_the_command_loads_numba_without_scipy_linalg() -> None:
    """The command's process (``python -m ecs``) loads numba's array functions before numba's
    first compile or load, with SciPy's linear algebra hidden from numba's BLAS probe; SciPy
    still imports afterwards (if installed)."""
    code = ("import importlib.util, sys\n"
            "from ecs.__main__ import _without_blas_probe\n"
            "_without_blas_probe()\n"
            "assert 'numba.np.arraymath' in sys.modules\n"
            "assert sys.modules.get('scipy.linalg') is None, 'scipy.linalg was imported'\n"
            "if importlib.util.find_spec('scipy') is not None:\n"
            "    import scipy.linalg\n"
            "    assert scipy.linalg.norm([3.0, 4.0]) == 5.0\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stderr
