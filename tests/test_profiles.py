"""The hypothesis profiles of tests/conftest.py: ``ci`` draws the same examples on every
run, and ``--hypothesis-seed`` draws others, still at ``ci``'s counts."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
DRAWS = '''
from hypothesis import given, strategies as st
from profiles import examples
from hypothesis import settings

@settings(max_examples=examples(8))
@given(st.integers(0, 10**12))
def test_draw(x):
    print("DRAW", x)
'''


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A suite of one property test under this suite's conftest and profiles."""
    root = tmp_path_factory.mktemp("profiles")
    for name in ("conftest.py", "profiles.py"):
        shutil.copy(HERE / name, root / name)
    (root / "test_draws.py").write_text(DRAWS)
    return root


@pytest.fixture(params=[False, True], ids=["local", "CI"])
def ci(request: pytest.FixtureRequest) -> bool:
    """Whether the suite runs under a ``CI`` variable, under which hypothesis's own default
    settings derandomize."""
    return bool(request.param)


def draws(suite: Path, ci: bool, *options: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("HYPOTHESIS_PROFILE", "CI")}
    if ci:
        env["CI"] = "true"
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", *options],
                       cwd=suite, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return [line for line in r.stdout.splitlines() if line.startswith("DRAW")]


def test_ci_draws_the_same_examples_every_run(suite: Path, ci: bool) -> None:
    first = draws(suite, ci)
    assert len(first) >= 8 and draws(suite, ci) == first


def test_a_hypothesis_seed_draws_other_examples_at_ci_counts(suite: Path, ci: bool) -> None:
    """Under ``ci`` (derandomized) a seed would be left unused: ``--hypothesis-seed`` is how
    a property test is replayed from another start, and the same seed replays the same."""
    one, two = draws(suite, ci, "--hypothesis-seed=1"), draws(suite, ci, "--hypothesis-seed=2")
    assert len(one) >= 8 and len(two) >= 8
    assert one != two != draws(suite, ci)
    assert draws(suite, ci, "--hypothesis-seed=1") == one
