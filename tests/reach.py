"""The differential tests' coverage guards: a fixed-seed run of a property test's strategy
must reach each rule it names (as its reference model counts them) a few times, so that a
generator that stops reaching one fails, not silently.

Each run is a process of its own: hypothesis draws from the constants of the modules
loaded, so in a test session the same seed draws other games as other tests run first.
The games drawn also move with hypothesis's release, so a minimum is kept at about a third
of what the runs reach.
"""
from __future__ import annotations

import collections
import json
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, Phase, settings


def fixed_seed(examples: int) -> settings:
    """The settings of a coverage run: ``examples`` games drawn from a fixed seed."""
    return settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                    phases=[Phase.generate], suppress_health_check=list(HealthCheck))


def assert_reached(module: str, call: str, wanted: dict[str, int]) -> None:
    """Run ``module.call`` (a Python expression that returns the rule counts) in a new
    process, and check each rule of ``wanted`` is reached at least as often as it says."""
    code = ("import json, sys; import ecs; sys.path.insert(0, sys.argv[1]); "
            f"import {module} as t; print(json.dumps(t.{call}))")
    run = subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    total = collections.Counter(json.loads(run.stdout.splitlines()[-1]))
    short = {rule: (total[rule], n) for rule, n in wanted.items() if total[rule] < n}
    assert not short, f"rules reached too rarely (reached, wanted): {short}; all: {dict(total)}"
