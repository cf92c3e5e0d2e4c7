"""A host engine's own rules in the schedule, as a host writes them from docs/api.md ("The
schedule and custom systems"): what it may replace and how its systems are run."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ecs import World, zones
from ecs.check import Check
from ecs.game import Game


def _exile_every_permanent(seen: list[int]) -> Any:
    """A host's replacement ``process``: every permanent of the checked games is exiled."""
    def process(game: Game, check: Check) -> None:
        seen.append(1)
        s = game.store
        on = s.a["zone"][:, : s.n_cols] == zones.BATTLEFIELD
        on[~check.live_games(game)] = False
        g, c = np.nonzero(on)
        check.move(g, c, zones.EXILE, "host")
    return process


@pytest.mark.parametrize("batch", [1, 3])
def test_704_3_a_process_replaced_on_a_ruleset_systems_instance_decides_at_the_next_check(batch: int) -> None:
    """A ``process`` replaced at run time on one system instance (not its class) runs at the
    next check, as one replaced on the class does: the pre-check that answers for the
    ruleset's own process does not answer for the host's."""
    w = World(seed=0, batch=batch)
    p = w.add_player()
    rock = w.add_object(p, "artifact")
    assert w.tick() == 0
    seen: list[int] = []
    lethality = next(s for s in w.systems if type(s).__name__ == "Lethality")
    lethality.process = _exile_every_permanent(seen)
    try:
        assert w.tick() == 1 and seen
        assert not np.any(w.exists(rock)) and w.objects(zone="exile")
    finally:
        del lethality.process
    seen.clear()
    w.add_object(p, "artifact")
    assert w.tick() == 0 and not seen   # put back: the ruleset's own Lethality again
