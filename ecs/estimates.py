"""Estimates of a Monte Carlo run: Wilson intervals of probabilities, and exact
distributions of integer per-game quantities folded in from any number of games."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import sets

Z95 = 1.959963984540054    # two-sided 95% normal quantile


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for k successes in n trials (nan, nan when n == 0)."""
    if n == 0:
        return math.nan, math.nan
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo, hi = max(0.0, centre - half), min(1.0, centre + half)
    return (0.0 if k == 0 else lo), (1.0 if k == n else hi)  # exact at the ends


def json_number(x: float) -> float | None:
    """JSON has no NaN: an undefined statistic (no games) is null."""
    return None if math.isnan(x) else x


@dataclass(frozen=True)
class Estimate:
    """A probability estimated from ``k`` of ``n`` games, with its 95% Wilson interval."""
    k: int
    n: int

    @property
    def p(self) -> float:
        return self.k / self.n if self.n else math.nan

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.k, self.n)

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.ci
        return {"p": json_number(self.p), "ci95": [json_number(lo), json_number(hi)], "k": self.k, "n": self.n}

    @classmethod
    def of(cls, flags: np.ndarray) -> "Estimate":
        return cls(int(np.count_nonzero(flags)), int(flags.size))


@dataclass(frozen=True)
class Distribution:
    """Mean and 5th/95th percentiles of a per-game quantity."""
    mean: float
    p5: float
    p95: float
    min: float
    max: float

    @classmethod
    def of(cls, values: np.ndarray) -> "Distribution":
        return Histogram.of(values).distribution()

    def to_dict(self) -> dict[str, float | None]:
        return {"mean": json_number(self.mean), "p5": json_number(self.p5), "p95": json_number(self.p95),
                "min": json_number(self.min), "max": json_number(self.max)}


class Histogram:
    """How many games had each value of an integer quantity: its exact mean and percentiles
    (values that occurred: the "inverted CDF" definition) from any number of games, in memory
    bounded by the number of distinct values. Merging is exact and order-independent."""

    def __init__(self) -> None:
        self.values = np.zeros(0, np.int64)
        self.counts = np.zeros(0, np.int64)

    @classmethod
    def of(cls, values: np.ndarray) -> "Histogram":
        h = cls()
        v, c = sets.distinct_counts(np.asarray(values, np.int64))
        h.values, h.counts = v, c.astype(np.int64)
        return h

    def add(self, other: "Histogram") -> None:
        if not self.values.size:
            self.values, self.counts = other.values, other.counts
            return
        v, inv = sets.distinct_inverse(np.concatenate([self.values, other.values]))
        c = np.zeros(v.size, np.int64)
        np.add.at(c, inv, np.concatenate([self.counts, other.counts]))
        self.values, self.counts = v, c

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    def count(self, value: int) -> int:
        return int(self.counts[self.values == value].sum())

    def percentile(self, q: int) -> float:
        """The smallest value at least ``q`` percent of the games have at most."""
        rank = max(1, -(-q * self.n // 100))             # ceil(q n / 100), in integers
        return float(self.values[np.searchsorted(np.cumsum(self.counts), rank)])

    def distribution(self) -> Distribution:
        n = self.n
        if n == 0:
            return Distribution(*(math.nan,) * 5)
        mean = float(np.dot(self.values.astype(np.float64), self.counts.astype(np.float64)) / n)
        return Distribution(mean, self.percentile(5), self.percentile(95),
                            float(self.values[0]), float(self.values[-1]))
