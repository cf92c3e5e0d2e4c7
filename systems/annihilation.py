"""Annihilation: +1/+1 and -1/-1 counters on a permanent cancel in pairs (CR 122.3, 704.5q).

A state-based action on permanents only: cards in other zones keep both kinds. (Grand
Archive buff/debuff counters cancel as they are placed instead; see ecs.rulesets.)
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ecs import zones

from .base import Pending, System, game_chunks, hits

if TYPE_CHECKING:
    from ecs.world import World


class Annihilation(System):
    def process(self, world: "World", pending: Pending) -> None:
        s = world.store
        plus, minus = s.plane("+1/+1"), s.plane("-1/-1")
        if plus is None or minus is None:
            return
        for rows in game_chunks(world):
            both = (plus[rows] > 0) & (minus[rows] > 0)
            if not both.any():
                continue
            both &= s.a["zone"][rows, : s.n_cols] == zones.BATTLEFIELD
            both &= world.ongoing[rows, None]
            g, c = hits(both, rows)
            if g.size:
                amount = np.minimum(plus[g, c], minus[g, c])
                pending.remove(s.kind_index["+1/+1"], g, c, amount, "704.5q")
                pending.remove(s.kind_index["-1/-1"], g, c, amount, "704.5q")
