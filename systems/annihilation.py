"""Annihilation: +1/+1 and -1/-1 counters on a permanent cancel in pairs (CR 122.3, 704.5q).

A state-based action on permanents only: cards in other zones keep both kinds. (Grand
Archive buff/debuff counters cancel as they are placed instead; see ecs.rulesets.)
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ecs import zones

from .base import Pending, System, battlefield_extent, game_chunks, live_games, unravel

if TYPE_CHECKING:
    from ecs.world import World


class Annihilation(System):
    def process(self, world: "World", pending: Pending) -> None:
        s = world.store
        kp, km = s.kind_index.get("+1/+1"), s.kind_index.get("-1/-1")
        if kp is None or km is None:
            return
        n = battlefield_extent(world, pending)
        plus, minus = s.counts[kp, :, :n], s.counts[km, :, :n]
        live = live_games(world, pending)
        found = []
        for rows in game_chunks(world, n, live):
            pairs = np.minimum(plus[rows], minus[rows])    # the counters that cancel
            both = pairs > 0
            if not both.any():
                continue
            both &= s.a["zone"][rows, :n] == zones.BATTLEFIELD
            both &= live[rows, None]
            flat = np.flatnonzero(both)   # 1-D: reads the amounts without a 2-D gather
            found.append((*unravel(flat, n, rows), pairs.ravel()[flat]))
        if found:   # one removal per kind for the whole check, not one per chunk
            g, c, amount = (np.concatenate(x) for x in zip(*found)) if len(found) > 1 else found[0]
            pending.remove(kp, g, c, amount, "704.5q")
            pending.remove(km, g, c, amount, "704.5q")
