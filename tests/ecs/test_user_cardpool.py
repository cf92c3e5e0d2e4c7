"""A host engine's card pool of counter cards on the public API: replacement effects on
putting counters as a ruleset's ``place`` hook (614.1a, 122.6), and what the core must
keep true under them."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ecs import CountOverflowError, World
from ecs.limits import MAX_COUNT
from ecs.rules import Magic


class DoublingSeason(Magic):
    """"If an effect would put one or more counters on a permanent you control, it puts
    twice that many of those counters on that permanent instead" (614.1a), on every put."""

    def place(self, world: Any, kind: str, g: np.ndarray, c: np.ndarray, amount: np.ndarray,
              cause: str, by: Any, e: np.ndarray | None = None) -> None:
        super().place(world, kind, g, c, np.asarray(amount, np.int64) * 2, cause, by, e)


@pytest.mark.parametrize("batch", [1, 3])
def test_hook_doubling_past_count_limit_raises_overflow_not_wrap(batch: int) -> None:
    """122.6 / 614.1a under the count limit: a put the action's own check lets through
    (2**30 + 5 fits) that a host's placement replacement doubles past 2**31 - 1 raises
    CountOverflowError and writes nothing, in one game and in a batch; it never wraps to a
    negative count nor logs a count past the limit."""
    w = World(seed=1, batch=batch)
    w.ruleset = DoublingSeason()
    me = w.add_player()
    relic = w.add_object(me, "artifact")
    with pytest.raises(CountOverflowError, match="charge"):
        w.put_counters(relic, "charge", 2**30 + 5)
    assert np.all(np.asarray(w.count(relic, "charge")) == 0)
    assert w.events() == []


@pytest.mark.parametrize("batch", [1, 3])
def test_hook_doubling_within_count_limit_is_made(batch: int) -> None:
    """614.1a: a doubled put that lands just below 2**31 - 1 is made."""
    w = World(seed=1, batch=batch)
    w.ruleset = DoublingSeason()
    me = w.add_player()
    relic = w.add_object(me, "artifact", counters={"charge": 1})   # enters with 2 (122.6)
    w.put_counters(relic, "charge", (MAX_COUNT - 2) // 2)
    w.put_counters(relic, "charge", 0)
    assert np.all(np.asarray(w.count(relic, "charge")) == 2 + (MAX_COUNT - 3))
