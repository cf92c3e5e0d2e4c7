"""ruff, configured in pyproject.toml, finds nothing."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_reports_nothing():
    r = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-2000:]


def test_property_tests_take_their_count_from_the_profile():
    """A hypothesis test's count is its ``ci`` count given to ``profiles.examples``, so that
    ``HYPOTHESIS_PROFILE=thorough`` draws the profile's many examples in every test: a
    number written into ``settings(max_examples=...)`` would hold under every profile."""
    fixed = [f"{p.relative_to(ROOT)}:{i}" for p in sorted((ROOT / "tests").rglob("*.py"))
             for i, line in enumerate(p.read_text().splitlines(), 1)
             if re.search(r"max_examples=\s*\d", line) and p.name != "conftest.py"]
    assert not fixed, fixed
