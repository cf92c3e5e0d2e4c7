"""One Magic game at a time: single actions, reads, ticks (``cases.OPS``), a self-play step
(three actions and a tick), clone + step, and two clone + step children of an early root
(``cases.EARLY``), on settled 100- and 1,000-object games, the engine beside the esper
baseline (``benchmarks.esper_baseline``), hot and after other work
(``interleave.disturb`` before each round, untimed). Compare within a group
(``--benchmark-group-by=group``). pytest-benchmark times one side after the other; the
targets are judged on the report's interleaved contests of the same cases
(``python -m benchmarks.report --only interleaved``)."""
from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from . import cases, interleave

STEPS = ("self-play step", "clone+self-play step", cases.EARLY)
ROUNDS = {"hot": 300, "disturbed": 50}


def _case(side: str, n: int, op: str) -> cases.Case:
    engine = side == "engine"
    if op == cases.EARLY:
        return (cases.engine_early_step if engine else cases.esper_early_step)(n)
    if op in STEPS:
        return (cases.engine_step if engine else cases.esper_step)(n, op.startswith("clone"))
    return (cases.engine_op if engine else cases.esper_op)(n, op)


def _in(regime: str, case: cases.Case) -> cases.Case:
    """``case`` with other work before each run after its setup (``disturbed``)."""
    if regime != "disturbed":
        return case
    fresh = case.setup

    def setup() -> None:   # (returns None: pytest-benchmark takes what a setup returns as arguments)
        fresh()
        interleave.disturb()
    return dataclasses.replace(case, setup=setup)


@pytest.mark.parametrize("regime", interleave.REGIMES)
@pytest.mark.parametrize("side", ("engine", "esper"))
@pytest.mark.parametrize("op", cases.OPS + STEPS)
@pytest.mark.parametrize("n", (100, 1000))
def test_one_game(benchmark: Any, n: int, op: str, side: str, regime: str) -> None:
    case = _in(regime, _case(side, n, op))
    out = cases.bench(benchmark, case, ROUNDS[regime], f"one game {op} 1x{n} ({regime})")
    if side == "engine" and op.startswith("tick"):   # the tick does what the case says
        assert out == (1 if op == "tick (one death)" else 0)


@pytest.mark.parametrize("regime", interleave.REGIMES)
@pytest.mark.parametrize("op", cases.HOST_OPS)
@pytest.mark.parametrize("n", (100, 1000))
def test_host_call(benchmark: Any, n: int, op: str, regime: str) -> None:
    """A host engine's call on one object (``cases.HOST_OPS``); engine only."""
    cases.bench(benchmark, _in(regime, cases.host_op(n, op)), ROUNDS[regime], f"one game host {op} 1x{n} ({regime})")
