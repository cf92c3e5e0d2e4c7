"""EmptyDraw: a player who attempted to draw from an empty library since the last check
loses the game (MTG CR 704.5b). The Grand Archive equivalent (Ending the Game 5) is one
of the game-ending checks in systems.ga_checks."""
from __future__ import annotations

import numpy as np

from ecs.check import Check, System
from ecs.game import Game


def empty_draw_losses(world: Game, pending: Check, cause: str) -> None:
    s = world.store
    tried = s.a["drew_empty"]
    if s.n_players == 0 or not tried.any():
        return
    g, p = np.nonzero(tried & ~s.a["lost"] & pending.live_games(world)[:, None])
    pending.lose(g, p, cause)


class EmptyDraw(System):
    causes = ("draw",)

    def process(self, world: Game, pending: Check) -> None:
        empty_draw_losses(world, pending, "draw")
