"""The top-level folders ``systems/`` and ``components/`` are the packages ``ecs.systems``
and ``ecs.components`` (docs/design.md, pyproject.toml): one import namespace, so an
embedding project's own ``systems`` or ``components`` never shadows ours."""
from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

import ecs.components
import ecs.systems

ROOT = Path(__file__).resolve().parents[1]
_NAMED = re.compile(r"^\s*(from|import)\s[^#\n]*\b(systems|components)\b", re.M)


@pytest.mark.parametrize("package", [ecs.systems, ecs.components], ids=["systems", "components"])
def test_each_top_level_folder_is_its_ecs_package(package):
    """In the tree ``ecs/<name>`` is a link to ``<name>/`` and the install maps one to the
    other: what ``ecs.<name>`` imports is the top-level folder's code."""
    name = package.__name__.rpartition(".")[2]
    assert (ROOT / "ecs" / name).resolve() == (ROOT / name).resolve()
    assert Path(package.__file__).resolve().parent == (ROOT / name).resolve()
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert setuptools["package-dir"][f"ecs.{name}"] == name and f"ecs.{name}" in setuptools["packages"]


def test_no_module_imports_systems_or_components_outside_ecs():
    """Code, tests and examples import ``ecs.systems``/``ecs.components`` (or relatively),
    never a top-level ``systems`` or ``components``, which an install does not have."""
    found = []
    for folder in ("ecs", "systems", "components", "tests", "examples", "benchmarks"):
        for path in (ROOT / folder).rglob("*.py"):
            if (ROOT / "ecs") in path.parents and path.parent.name in ("systems", "components"):
                continue   # (the links: the same files as systems/ and components/)
            text = path.read_text()
            if _NAMED.search(text) is None:   # (parsing every file would take seconds)
                continue
            for node in ast.walk(ast.parse(text, str(path))):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level
                         else [])
                found += [f"{path.relative_to(ROOT)}: {n}" for n in names
                          if n.partition(".")[0] in ("systems", "components")]
    assert found == []
