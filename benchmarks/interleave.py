"""Engine and baselines timed interleaved in one process, the collector handled alike.

A ``Contest`` is one operation done by the engine and by one or more baselines. Each
round times a block of runs of every side in turn (engine, baseline, ..., then the next
round), so drift of the machine (other load, frequency, the heap growing) falls on all
sides alike instead of on whichever ran second. Before each block: ``prepare``, then
``gc.collect()``; during the block the collector is off and back on after it, for every
side the same (collections triggered by one side's garbage no longer land in the timed
region of whichever side happens to run next); after it, ``release``.
``setup``/``teardown`` run between the timed runs, untimed.

Two regimes:
- ``hot``: runs follow each other; code and data stay in the CPU caches.
- ``disturbed``: before each run, other work (a pass over a buffer bigger than the last
  level cache, and a burst of small Python objects), as when a simulator does its own work
  (search, a policy) between calls into the core.

Figures: each side's median over the rounds of its round's median run; the speedup of the
engine over a baseline is the ratio of those (baseline / engine: > 1 means the engine is
faster), with its min-max spread over the rounds' ratios, which holds it: every round's
baseline is at least the least ratio times that round's engine, so their medians are too.
"""
from __future__ import annotations

import gc
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .cases import Case

REGIMES = ("hot", "disturbed")
_JUNK = np.zeros(48 * 2**20 // 8)  # 48 MiB: more than the last-level cache of most machines


def disturb() -> None:
    """Other work between two runs: evicts the CPU caches and churns Python's allocator."""
    np.add(_JUNK, 1.0, out=_JUNK)
    scratch = [{"i": i, "s": str(i)} for i in range(20_000)]
    scratch.clear()


def block(case: Case, runs: int, regime: str) -> list[float]:
    """Seconds of ``runs`` timed runs of ``case`` in one block (see the module docstring)."""
    if regime not in REGIMES:
        raise ValueError(f"unknown regime {regime!r}; expected one of {REGIMES}")
    case.prepare()
    times = []
    gc.collect()
    gc.disable()
    try:
        for _ in range(runs):
            case.setup()
            if regime == "disturbed":
                disturb()
            t0 = time.perf_counter()
            made = case.run()
            t1 = time.perf_counter()
            del made
            case.teardown()
            times.append(t1 - t0)
    finally:
        gc.enable()
        case.release()
    return times


@dataclass
class Contest:
    name: str
    engine: Case
    baselines: dict[str, Case]        # label -> case
    objects: int = 0                  # objects one run checks (ticks), for objects/s
    # a baseline that plays fewer games of a batch than the engine: the engine's objects
    # checked / its own (all games' for an acting tick, those still going for a settled one)
    scale: dict[str, float] = field(default_factory=dict)


@dataclass
class Side:
    round_medians: list[float] = field(default_factory=list)   # each round's median run

    @property
    def median(self) -> float:
        """The median of the rounds' medians."""
        return statistics.median(self.round_medians)


@dataclass
class Outcome:
    contest: Contest
    regime: str
    sides: dict[str, Side]            # "engine" and each baseline label

    def speedup(self, baseline: str) -> tuple[float, float, float]:
        """baseline / engine time: the ratio of the medians, and the min and max of the
        per-round ratios (which bound it: see the module docstring)."""
        e, b = self.sides["engine"], self.sides[baseline]
        k = self.contest.scale.get(baseline, 1.0)
        per_round = [k * tb / te for te, tb in zip(e.round_medians, b.round_medians)]
        return k * b.median / e.median, min(per_round), max(per_round)


def calibrate(case: Case, budget: float, low: int = 5, high: int = 300) -> int:
    """Runs per block so that one block (untimed setups included) takes about ``budget``
    seconds."""
    t0 = time.perf_counter()
    block(case, 2, "hot")
    return max(low, min(high, int(budget / max((time.perf_counter() - t0) / 2, 1e-7))))


def compare(contest: Contest, regime: str, rounds: int = 5, budget: float = 0.05) -> Outcome:
    sides = {"engine": contest.engine, **contest.baselines}
    runs = {label: calibrate(case, budget) for label, case in sides.items()}
    out = {label: Side() for label in sides}
    for _ in range(rounds):
        for label, case in sides.items():
            out[label].round_medians.append(statistics.median(block(case, runs[label], regime)))
    return Outcome(contest, regime, out)


def fmt_speedup(outcome: Outcome, baseline: str) -> str:
    mid, low, high = outcome.speedup(baseline)
    return f"{mid:.3g}x ({low:.3g}-{high:.3g})"


def summary(outcomes: list[Outcome]) -> list[dict[str, Any]]:
    """One plain dict per outcome (for tables and JSON)."""
    rows = []
    for o in outcomes:
        row: dict[str, Any] = dict(name=o.contest.name, regime=o.regime,
                                   engine_s=o.sides["engine"].median)
        for label in o.contest.baselines:
            row[f"{label}_s"] = o.sides[label].median
            row[f"{label}_speedup"] = o.speedup(label)
        rows.append(row)
    return rows


# ---- the contests of the report ---------------------------------------------------------
def tick_contest(games: int, n: int, settled: bool, max_games: int | None = None) -> Contest:
    """A tick, engine against both baselines (a batch: the baselines play ``max_games``)."""
    from . import cases
    from .esper_baseline import EsperGame
    from .naive_esper import NaiveGame

    base = {cases.BASELINE_NAMES[g]: cases.baseline_tick(games, n, max_games, settled, g)
            for g in (NaiveGame, EsperGame)}
    engine = cases.engine_tick(games, n, settled)
    return Contest(f"{'settled' if settled else 'acting'} tick {games}x{n}", engine, base,
                   objects=engine.objects, scale={label: engine.objects / b.objects for label, b in base.items()})


def action_contests(n: int) -> list[Contest]:
    """Single actions, reads, a self-play step, clone+step, and two clone+step children of
    an early root (``cases.engine_early_step``), engine against EsperGame."""
    from . import cases

    out = [Contest(f"{op} 1x{n}", cases.engine_op(n, op), {"esper": cases.esper_op(n, op)})
           for op in cases.OPS]
    out += [Contest(f"{'clone+' if clone else ''}self-play step (3 actions + tick) 1x{n}",
                    cases.engine_step(n, clone), {"esper": cases.esper_step(n, clone)})
            for clone in (False, True)]
    out.append(Contest(f"{cases.EARLY} (2 children) 1x{n}", cases.engine_early_step(n),
                       {"esper": cases.esper_early_step(n)}))
    return out
