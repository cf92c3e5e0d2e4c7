"""The package's types serve its users: a user's program over the public API
(tests/typed_user_program.py: a search, a batch, a Monte Carlo run, a host's system,
handler and ruleset, the Grand Archive's actions) and the shipped example of a host
engine (examples/host.py) type-check under mypy strict with no cast; the program's
``assert_type`` lines pin what the reads and actions return (never ``Any``). The
configuration in pyproject.toml is strict (the program turns on, for itself, the one
check the package leaves off: returning Any). One mypy run; it shares
tests/test_typing.py's cache (.mypy_cache, the same options), so the package is not
checked again."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = ["tests/typed_user_program.py", "examples/host.py"]


# (as tests/test_typing.py: the annotations name NumPy >= 2.3's stubs' types)
@pytest.mark.skipif(np.lib.NumpyVersion(np.__version__) < "2.3.0",
                    reason="typing is checked against the type stubs of NumPy >= 2.3")
def test_typed_user_programs_type_check_without_casts():
    r = subprocess.run([sys.executable, "-m", "mypy", *PROGRAMS],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    if r.returncode != 0 or "Success: no issues found" not in r.stdout:
        pytest.fail(f"mypy (exit {r.returncode}):\n{r.stdout}{r.stderr}", pytrace=False)
