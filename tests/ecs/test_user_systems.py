"""A host engine's own rules in the schedule, as a host writes them from docs/api.md ("The
schedule and custom systems"): what it may replace and how its systems are run."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ecs import IllegalActionError, Schedule, World, zones
from ecs.check import Check, System, When
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


class _Nonsense(System):
    """A host's rule that decides nonsense: a loss for player index 7 of a two-player game."""
    causes = ("host",)

    def process(self, game: Game, check: Check) -> None:
        check.lose(np.array([0]), np.array([7]), "host")


class _NonsenseAtMainPhase(_Nonsense):
    when = When.MAIN_PHASE


@pytest.mark.parametrize("how", ["beside the ruleset's", "alone", "at a main phase"])
def test_a_host_systems_refused_decision_names_the_system_and_changes_nothing(how: str) -> None:
    """A decision the World cannot apply raises naming the host's system whose decision it
    is, wherever the system runs (every check beside the ruleset's systems, a schedule of
    its own, the beginning of a main phase), and nothing of that check is written."""
    w = World(seed=0)
    w.schedule = (Schedule([_Nonsense]) if how == "alone" else
                  w.schedule.with_systems(_NonsenseAtMainPhase if how == "at a main phase" else _Nonsense))
    p, q = w.add_player(), w.add_player()
    rock = w.add_object(p, "artifact", counters={"charge": 2})
    step = w.step
    with pytest.raises(IllegalActionError, match=r"system _Nonsense(AtMainPhase)?: a loss .*player index 7"):
        w.begin_main_phase(p) if how == "at a main phase" else w.tick()
    assert w.step == step and w.counters(rock) == {"charge": 2}
    assert not w.has_lost(p) and not w.has_lost(q) and w.active_player() in (-1, p)
