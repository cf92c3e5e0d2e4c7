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
          "tests/test_batch_differential.py", "tests/test_differential_ga.py",
          # Two tests whose kernels the others run too, but whose read-only clones and states
          # compile a dozen more signatures (minutes with bounds checks): the settled probe's
          # random states (its passes are the systems' own, run above) and
          "--deselect",
          "tests/systems/test_settled.py::test_704_3_a_clear_probe_bit_means_the_system_decides_nothing",
          # the batch's long uniform runs (the random batch runs cover their kernels).
          "--deselect",
          "tests/test_batch_differential.py::test_long_uniform_runs_of_a_batch_equal_single_games"]


def test_compiled_kernels_stay_in_bounds(tmp_path):
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path),
               HYPOTHESIS_PROFILE="dev")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                          *SUITES], cwd=ROOT, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
