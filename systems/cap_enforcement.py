"""CapEnforcement: "can't have more than N counters of a kind" (CR 122.4, 704.5r).

Caps are sparse (few objects have one): entries (column, kind) with a per-game value,
-1 meaning no cap in that game.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ecs import zones

from .base import Pending, System, live_games

if TYPE_CHECKING:
    from ecs.world import World


class CapEnforcement(System):
    def process(self, world: "World", pending: Pending) -> None:
        s = world.store
        cols, kinds, cap = s.a["cap_col"], s.a["cap_kind"], s.a["cap_val"]
        if cols.size == 0:
            return
        have = s.counts[kinds, :, cols].T            # (B, M)
        over = have > cap
        over &= cap >= 0                             # -1: no cap in that game
        if not over.any():                           # the usual case: nothing to look up
            return
        over &= s.a["zone"][:, cols] == zones.BATTLEFIELD
        over &= live_games(world, pending)[:, None]
        g, m = np.nonzero(over)
        pending.remove(kinds[m], g, cols[m].astype(np.int64), have[g, m] - cap[g, m], "704.5r")
