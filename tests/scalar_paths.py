"""The switch the tests of the single-game scalar paths use to run the general paths
against them (``ecs.store.SCALAR_PATHS``)."""
from __future__ import annotations

from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Iterator

from ecs import store


@contextmanager
def general() -> Iterator[None]:
    """Every call inside takes the general (vectorized) path."""
    store.SCALAR_PATHS = False
    try:
        yield
    finally:
        store.SCALAR_PATHS = True


def run_on(path: str) -> AbstractContextManager[None]:
    """A test parametrized over ``"scalar"`` and ``"general"``: the calls inside take that path."""
    return general() if path == "general" else nullcontext()
