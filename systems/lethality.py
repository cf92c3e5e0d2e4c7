"""Lethality: the state-based actions that kill objects and players (MTG CR 704.5a, c, f,
g, h, i, v; Two-Headed Giant 704.6a, b).

Decided for every game and object at once from the same state; indestructible (702.12b)
only stops 704.5g and 704.5h, and shield counters never stop a state-based action.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from components import TYPE_BIT
from ecs import stats, zones

from .base import Pending, System

if TYPE_CHECKING:
    from ecs.world import World


class Lethality(System):
    def process(self, world: "World", pending: Pending) -> None:
        permanents(world, pending)
        players(world, pending)


def permanents(world: "World", pending: Pending) -> None:
    s = world.store
    n = s.n_cols
    types = s.a["types"][:n]
    on_bf = (s.a["zone"][:, :n] == zones.BATTLEFIELD) & world.ongoing[:, None]
    creature = (types & TYPE_BIT["creature"]) != 0
    if creature.any():
        t = stats.pt(world, slice(0, n), 1)
        live = on_bf & creature
        g, c = np.nonzero(live & (t <= 0))
        pending.move(g, c, zones.GRAVEYARD, "704.5f")
        alive = live & (t > 0) & ~stats.has_keyword(world, slice(0, n), "indestructible")
        lethal = alive & (s.a["damage"][:, :n] >= t)
        g, c = np.nonzero(lethal)
        pending.move(g, c, zones.GRAVEYARD, "704.5g")
        g, c = np.nonzero(alive & ~lethal & s.a["deathtouch_hit"][:, :n])
        pending.move(g, c, zones.GRAVEYARD, "704.5h")
    for type_name, kind, rule in (("planeswalker", "loyalty", "704.5i"), ("battle", "defense", "704.5v")):
        is_t = (types & TYPE_BIT[type_name]) != 0
        if not is_t.any():
            continue
        plane = s.plane(kind)
        zero = on_bf & is_t if plane is None else on_bf & is_t & (plane == 0)
        g, c = np.nonzero(zero)
        pending.move(g, c, zones.GRAVEYARD, rule)


def players(world: "World", pending: Pending) -> None:
    s = world.store
    if s.n_players == 0:
        return
    heads = s.a["player_head"]
    # Two-Headed Giant: the team's life and poison live on its first player (810.10).
    holder = heads if world.two_headed_giant else np.arange(s.n_players)
    life = s.a["life"][:, holder]
    poison_plane = s.plane("poison")
    poison = (np.zeros_like(life) if poison_plane is None
              else poison_plane[:, s.a["player_col"][holder]])
    in_game = ~s.a["lost"] & world.ongoing[:, None]
    life_rule, poison_rule, limit = (("704.6a", "704.6b", 15) if world.two_headed_giant
                                     else ("704.5a", "704.5c", 10))
    g, p = np.nonzero(in_game & (life <= 0))
    pending.lose(g, p, life_rule)
    g, p = np.nonzero(in_game & (poison >= limit))
    pending.lose(g, p, poison_rule)
