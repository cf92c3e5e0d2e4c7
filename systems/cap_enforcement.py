"""CapEnforcement: "can't have more than N counters of a kind" (CR 122.4, 704.5r).

Caps are sparse (few objects have one): entries (column, kind) with a per-game value,
-1 meaning no cap in that game.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from ecs import zones

from .base import Pending, System, live_indices

if TYPE_CHECKING:
    from ecs.world import World


class CapEnforcement(System):
    def process(self, world: "World", pending: Pending) -> None:
        s = world.store
        cols, kinds = s.a["cap_col"], s.a["cap_kind"]
        if cols.size == 0:
            return
        g, m, excess = _over(s.counts, s.a["zone"], cols, kinds, s.a["cap_val"],
                             live_indices(world, pending))
        pending.remove(kinds[m], g, cols[m].astype(np.int64), excess, "704.5r")


_BF = zones.BATTLEFIELD


@njit(cache=True)
def _over(counts, zone, cols, kinds, cap, games):  # pragma: no cover - compiled
    """(games, cap entries, counters over the cap) of the permanents in ``games`` with
    more counters of a capped kind than their cap in that game."""
    out_g = np.empty(games.size * cols.size, np.int64)
    out_m = np.empty(games.size * cols.size, np.int64)
    out_x = np.empty(games.size * cols.size, np.int64)
    n = 0
    for g in games:
        for m in range(cols.size):
            limit = cap[g, m]
            if limit >= 0:
                have = counts[kinds[m], g, cols[m]]
                if have > limit and zone[g, cols[m]] == _BF:
                    out_g[n], out_m[n], out_x[n] = g, m, have - limit
                    n += 1
    return out_g[:n], out_m[:n], out_x[:n]
