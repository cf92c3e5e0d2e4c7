"""ecs, systems and components type-check cleanly: mypy with the configuration in
pyproject.toml ([tool.mypy]: strict) reports no error. Its cache is .mypy_cache, so a
second run takes about a second (a first one about seven)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


# NumPy's own type stubs change between releases (before 2.3 a bare np.ndarray has no
# default type parameters, and shapes are typed differently): the code is kept clean
# against the stubs of the NumPy that a fresh install, as in CI, gets.
@pytest.mark.skipif(np.lib.NumpyVersion(np.__version__) < "2.3.0",
                    reason="typing is checked against the type stubs of NumPy >= 2.3")
def test_mypy_reports_no_errors():
    r = subprocess.run([sys.executable, "-m", "mypy", "-p", "ecs", "-p", "systems",
                        "-p", "components"], cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    if r.returncode != 0 or "Success: no issues found" not in r.stdout:
        pytest.fail(f"mypy (exit {r.returncode}):\n{r.stdout}{r.stderr}", pytrace=False)
