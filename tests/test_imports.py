"""Every module imports on its own, first, in a fresh interpreter: no import cycle depends
on which of ecs, systems or components a user (or a test file) happens to import first."""
from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES: list[str] = []
for pkg in ("ecs", "systems", "components"):
    MODULES.append(pkg)
    MODULES += [f"{pkg}.{m.name}" for m in pkgutil.iter_modules([str(ROOT / pkg)])
                if m.name != "__main__"]          # __main__ runs the CLI


@pytest.mark.parametrize("module", MODULES)
def test_module_imports_first(module):
    r = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
