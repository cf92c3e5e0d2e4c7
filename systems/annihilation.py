"""Annihilation: +1/+1 and -1/-1 counters on a permanent cancel in pairs (CR 122.3, 704.5q).

A state-based action on permanents only: cards in other zones keep both kinds. (Grand
Archive buff/debuff counters cancel as they are placed instead; see ecs.rulesets.)
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ecs import zones

from .base import Pending, System

if TYPE_CHECKING:
    from ecs.world import World


class Annihilation(System):
    def process(self, world: "World", pending: Pending) -> None:
        s = world.store
        plus, minus = s.plane("+1/+1"), s.plane("-1/-1")
        if plus is None or minus is None:
            return
        n = np.minimum(plus, minus)
        n *= (s.a["zone"][:, : s.n_cols] == zones.BATTLEFIELD) & world.ongoing[:, None]
        g, c = np.nonzero(n)
        if g.size:
            amount = n[g, c]
            pending.remove(s.kind_index["+1/+1"], g, c, amount, "704.5q")
            pending.remove(s.kind_index["-1/-1"], g, c, amount, "704.5q")
