"""The compiled kernels (numba, in systems/ and ecs/store.py) index arrays unchecked, so an
index out of bounds would corrupt memory silently. This runs the engine's behaviour tests
and short differential runs again with numba's bounds checking on (NUMBA_BOUNDSCHECK=1,
compiled into a cache of their own), where such an index raises IndexError instead."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUITES = ["tests/ecs", "tests/systems", "tests/test_differential.py",
          "tests/test_batch_differential.py", "tests/test_differential_ga.py"]
#: the differentials' coverage guards left out: their long seeded runs (half this run's
#: time) check the strategies' reach, which bounds checking does not change
SKIP = "not reached"


def test_compiled_kernels_stay_in_bounds(tmp_path):
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path),
               HYPOTHESIS_PROFILE="dev")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                          "-k", SKIP, *SUITES], cwd=ROOT, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
