"""The differential tests' coverage guards: a seeded run of a property test's strategy must
reach each rule it names (as its reference model counts them) a few times, so that a
generator that stops reaching one fails, not silently.

The run does not draw through hypothesis: the games a fixed hypothesis seed draws move with
each hypothesis release and with the constants of every module loaded, and they cluster (a
run's examples are variations of one another), so a rule reached 25 times under one seed
was reached 0 to 8 times under others. Here the strategy's own code runs with ``strategies``
in place of ``hypothesis.strategies``: each draw is a uniform one from a seeded
``random.Random``, so the games depend on the strategy's code alone, and each game is drawn
independently of the others.
"""
from __future__ import annotations

import collections
import random
from types import ModuleType, SimpleNamespace
from typing import Any, Callable, Iterator, Sequence
from unittest import mock

Strategy = Callable[[random.Random], Any]


def _lists(elements: Strategy, *, min_size: int = 0, max_size: int,
           unique: bool = False) -> Strategy:
    """A list of a uniform size; with ``unique`` a duplicate drawn is dropped, so the list
    may come out shorter (never empty where ``min_size`` is 1; a larger one is refused)."""
    if unique and min_size > 1:
        raise NotImplementedError("unique lists of at least two elements")

    def draw(r: random.Random) -> list[Any]:
        out: list[Any] = []
        for _ in range(r.randint(min_size, max_size)):
            x = elements(r)
            if not (unique and x in out):
                out.append(x)
        return out
    return draw


def _dictionaries(keys: Strategy, values: Strategy, *, max_size: int) -> Strategy:
    """A dict of up to ``max_size`` entries (a key drawn twice keeps its last value)."""
    return lambda r: {keys(r): values(r) for _ in range(r.randint(0, max_size))}


def _sampled_from(values: Sequence[Any]) -> Strategy:
    values = list(values)
    return lambda r: r.choice(values)


def _permutations(values: Sequence[Any]) -> Strategy:
    values = list(values)
    return lambda r: r.sample(values, len(values))


#: the part of ``hypothesis.strategies`` the differentials' games draw from, as uniform draws
strategies = SimpleNamespace(
    integers=lambda lo, hi: (lambda r: r.randint(lo, hi)),
    booleans=lambda: (lambda r: r.random() < 0.5),
    floats=lambda lo, hi: (lambda r: r.uniform(lo, hi)),
    just=lambda value: (lambda r: value),
    none=lambda: (lambda r: None),
    one_of=lambda *options: (lambda r: r.choice(options)(r)),
    sampled_from=_sampled_from,
    permutations=_permutations,
    lists=_lists,
    dictionaries=_dictionaries,
)


class RandomData:
    """Stands for hypothesis's ``st.data()`` in a coverage run: ``draw`` of a strategy of
    ``strategies`` is a draw from ``rng``."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def draw(self, strategy: Strategy, label: str | None = None) -> Any:
        return strategy(self.rng)


def _ignore(*args: Any, **kwargs: Any) -> None:
    return None


def games(module: ModuleType, examples: int, seed: int = 0) -> Iterator[RandomData]:
    """``examples`` ``RandomData`` from one seeded generator, one per game, while
    ``module``'s ``st`` is ``strategies`` and its hypothesis ``note`` and ``event`` (which
    need a hypothesis test around them) do nothing."""
    names = {name: value for name, value in (("st", strategies), ("note", _ignore), ("event", _ignore))
             if hasattr(module, name)}
    rng = random.Random(seed)
    with mock.patch.multiple(module, **names):
        for _ in range(examples):
            yield RandomData(rng)


def assert_reached(total: collections.Counter[str], wanted: dict[str, int]) -> None:
    """Each rule of ``wanted`` reached in ``total`` at least as often as it says."""
    short = {rule: (total[rule], n) for rule, n in wanted.items() if total[rule] < n}
    assert not short, f"rules reached too rarely (reached, wanted): {short}; all: {dict(total)}"
