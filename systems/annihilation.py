"""Annihilation: +1/+1 and -1/-1 counters on a permanent cancel in pairs (CR 122.3, 704.5q).

A state-based action on permanents only: cards in other zones keep both kinds. (Grand
Archive buff/debuff counters cancel as they are placed instead; see ecs.rulesets.)
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from ecs import zones

from .base import Pending, System, battlefield_extent, live_indices

if TYPE_CHECKING:
    from ecs.world import World


class Annihilation(System):
    def process(self, world: "World", pending: Pending) -> None:
        s = world.store
        kp, km = s.kind_index.get("+1/+1"), s.kind_index.get("-1/-1")
        if kp is None or km is None:
            return
        n = battlefield_extent(world, pending)
        g, c, amount = _pairs(s.a["zone"], s.counts[kp], s.counts[km],
                              live_indices(world, pending), n)
        pending.remove(kp, g, c, amount, "704.5q")
        pending.remove(km, g, c, amount, "704.5q")


_BF = zones.BATTLEFIELD


@njit(cache=True)
def _pairs(zone, plus, minus, games, n):  # pragma: no cover - compiled
    """(games, columns, pairs) of the permanents in ``games`` x the first ``n`` columns
    with both kinds: as many of each as the smaller count are removed."""
    out_g = np.empty(games.size * n, np.int64)   # room for all; untouched pages cost nothing
    out_c = np.empty(games.size * n, np.int64)
    out_a = np.empty(games.size * n, np.int64)
    m = 0
    pairs = np.empty(n, np.int32)
    for g in games:
        found = False
        for c in range(n):   # branchless, so the compiler vectorizes it; most rows find none
            pairs[c] = min(plus[g, c], minus[g, c]) * (zone[g, c] == _BF)
            found |= pairs[c] > 0
        if not found:
            continue
        for c in range(n):
            if pairs[c] > 0:
                out_g[m], out_c[m], out_a[m] = g, c, pairs[c]
                m += 1
    return out_g[:m], out_c[:m], out_a[:m]
