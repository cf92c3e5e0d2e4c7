"""A host engine embedding the core: what it relies on across copies of a World."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ecs import World
from ecs.rules import Magic


class HardenedScales(Magic):
    """A host's replacement (614.1a): one more +1/+1 counter is put wherever any would be
    (122.6)."""

    def place(self, world: Any, kind: str, g: np.ndarray, c: np.ndarray, amount: np.ndarray,
              cause: str, by: Any, e: np.ndarray | None = None) -> None:
        if kind == "+1/+1":
            amount = np.where(amount > 0, amount + 1, amount)
        super().place(world, kind, g, c, amount, cause, by, e)


@pytest.mark.parametrize("copy", ["clone", "fork", "select"])
def test_host_ruleset_replacing_a_122_6_placement_goes_on_in_every_copy(copy: str) -> None:
    """A host's ruleset (its replacement of putting counters, 122.6) is the copy's too:
    a clone, a fork and a selection play the position as the World they came from."""
    w = World(batch=2, seed=1)
    w.ruleset = HardenedScales()
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    other = {"clone": w.clone, "fork": lambda: w.fork(0, 2), "select": lambda: w.select([1, 0])}[copy]()
    assert isinstance(other.ruleset, HardenedScales)
    other.put_counters(bear, "+1/+1", 1)
    assert other.count(bear, "+1/+1").tolist() == [2, 2]
