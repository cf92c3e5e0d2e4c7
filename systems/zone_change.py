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
        token_cols = np.flatnonzero(s.a["token"][: s.n_cols])
        if token_cols.size == 0:
            return
        zone = s.a["zone"][:, token_cols]
        live = pending.live_games(world)[:, None]
        g, i = np.nonzero(live & (zone != zones.NONE) & (zone != zones.BATTLEFIELD))
        pending.move(g, token_cols[i], zones.NONE, "704.5d")
