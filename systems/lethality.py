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

from .base import Pending, System, game_chunks, hits

if TYPE_CHECKING:
    from ecs.world import World


class Lethality(System):
    def process(self, world: "World", pending: Pending) -> None:
        permanents(world, pending)
        players(world, pending)


def permanents(world: "World", pending: Pending) -> None:
    s = world.store
    n = s.n_cols
    cols = slice(0, n)
    types = s.a["types"][:n]
    creature = (types & TYPE_BIT["creature"]) != 0
    counted = [(kind, rule, (types & TYPE_BIT[t]) != 0) for t, kind, rule in
               (("planeswalker", "loyalty", "704.5i"), ("battle", "defense", "704.5v"))]
    counted = [(s.plane(kind), rule, is_t) for kind, rule, is_t in counted if is_t.any()]
    any_creature = creature.any()
    for rows in game_chunks(world):
        on_bf = s.a["zone"][rows, cols] == zones.BATTLEFIELD
        on_bf &= world.ongoing[rows, None]
        if any_creature:
            live = on_bf & creature
            t = stats.pt(world, cols, 1, rows)
            pending.move(*hits(live & (t <= 0), rows), zones.GRAVEYARD, "704.5f")
            live &= t > 0
            damage, touched = s.a["damage"][rows, cols], s.a["deathtouch_hit"][rows, cols]
            lethal = live & (damage >= t)
            touched = live & touched & ~lethal
            if lethal.any() or touched.any():
                alive = ~stats.has_keyword(world, cols, "indestructible", rows)
                pending.move(*hits(lethal & alive, rows), zones.GRAVEYARD, "704.5g")
                pending.move(*hits(touched & alive, rows), zones.GRAVEYARD, "704.5h")
        for plane, rule, is_t in counted:
            zero = on_bf & is_t
            if plane is not None:
                zero &= plane[rows] == 0
            pending.move(*hits(zero, rows), zones.GRAVEYARD, rule)


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
