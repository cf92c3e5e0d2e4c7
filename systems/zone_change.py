"""ZoneChange: tokens outside the battlefield cease to exist (CR 704.5d).

The moves themselves, for every cause, are ``ecs.relocation.move_objects``.
"""
from __future__ import annotations

import numpy as np

from ecs import zones
from ecs.check import Check, System
from ecs.game import Game


class ZoneChange(System):
    causes = ("704.5d",)

    def process(self, world: Game, pending: Check) -> None:
        s = world.store
        n = s.n_cols
        token = s.a["token"][:, :n]
        if not token.any():
            return
        zone = s.a["zone"][:, :n]
        live = pending.live_games(world)[:, None]
        g, c = np.nonzero(live & token & (zone != zones.NONE) & (zone != zones.BATTLEFIELD))
        pending.move(g, c, zones.NONE, "704.5d")
