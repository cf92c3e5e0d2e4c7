"""README.md is documentation that runs: its Python examples, its scenario example and
its two commands (the test command is the one CI calls)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
BLOCKS = re.findall(r"```python\n(.*?)```", README, re.S)


def test_readme_has_examples():
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_python_example_runs(code):
    """Each example runs on its own, as a newcomer would paste it; its asserts hold."""
    exec(compile(code, "README.md", "exec"), {"__name__": "readme"})


def test_ci_runs_the_readme_test_command():
    test_command = 'python -m pip install -e ".[test]" && python -m pytest'
    assert f"    {test_command}\n" in README
    assert test_command in (ROOT / ".ci" / "run").read_text()
