"""EmptyDraw: a player who attempted to draw from an empty library since the last check
loses the game (MTG CR 704.5b). The Grand Archive equivalent (Ending the Game 5) is one
of the game-ending checks in systems.ga_checks."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .base import Pending, System, live_games

if TYPE_CHECKING:
    from ecs.world import World


def empty_draw_losses(world: "World", pending: Pending, cause: str) -> None:
    s = world.store
    tried = s.a["drew_empty"]
    if s.n_players == 0 or not tried.any():
        return
    g, p = np.nonzero(tried & ~s.a["lost"] & live_games(world, pending)[:, None])
    pending.lose(g, p, cause)


class EmptyDraw(System):
    def process(self, world: "World", pending: Pending) -> None:
        empty_draw_losses(world, pending, "draw")
