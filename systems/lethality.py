"""Lethality: the state-based actions that kill objects and players (MTG CR 704.5a, c, f,
g, h, i, v; Two-Headed Giant 704.6a, b).

Decided for every game and object at once from the same state; indestructible (702.12b)
only stops 704.5g and 704.5h, and shield counters never stop a state-based action.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from components import TYPE_BIT
from components.card import NO_STAT
from ecs import stats, zones
from ecs.events import CAUSE

from .base import Pending, System, battlefield_extent, game_chunks

if TYPE_CHECKING:
    from ecs.world import World


class Lethality(System):
    def process(self, world: "World", pending: Pending) -> None:
        permanents(world, pending)
        players(world, pending)


def permanents(world: "World", pending: Pending) -> None:
    """One mask per chunk of every permanent that may die, one nonzero, then each hit gets
    its rule (704.5f before g before h, then i and v), looking only at the hits."""
    s = world.store
    n = battlefield_extent(world, pending)
    if n == 0:
        return
    cols = slice(0, n)
    types = s.a["types"][:n]
    creature = (types & TYPE_BIT["creature"]) != 0
    counted = []   # (count plane or None, rule, is that type) of 704.5i and 704.5v
    for t, kind, rule in (("planeswalker", "loyalty", "704.5i"), ("battle", "defense", "704.5v")):
        is_t = (types & TYPE_BIT[t]) != 0
        if is_t.any():
            k = s.kind_index.get(kind)
            counted.append((None if k is None else s.counts[k, :, :n], CAUSE[rule], is_t))
    any_creature = creature.any()
    if not (any_creature or counted):
        return
    ongoing = world.ongoing
    every_game = bool(ongoing.all())
    kinds = stats.pt_kinds(world, 1)
    tough = s.a["toughness"][:n]
    base = np.where(tough == NO_STAT, 0, tough).astype(np.int32)
    for rows in game_chunks(world):
        on_bf = s.a["zone"][rows, cols] == zones.BATTLEFIELD
        if not every_game:
            on_bf &= ongoing[rows, None]
        if any_creature:
            may_die = _creature_may_die(world, rows, base, kinds)
            may_die &= creature
        else:
            may_die = np.zeros(on_bf.shape, bool)
        for plane, _, is_t in counted:
            may_die |= (plane[rows] == 0) & is_t if plane is not None else is_t
        may_die &= on_bf
        flat = np.flatnonzero(may_die)
        if flat.size == 0:
            continue
        gi, c = np.divmod(flat, n)
        g = gi + rows.start
        cause = np.zeros(flat.size, np.int64)   # 0: saved (indestructible); no rule has code 0
        if any_creature:
            tc = stats.pt_at(world, g, c, 1, kinds)
            live = creature[c]
            dead = live & (tc <= 0)
            cause[dead] = CAUSE["704.5f"]
            live &= ~dead
            alive = live & ~stats.has_keyword_at(world, g, c, "indestructible")
            lethal = alive & (s.a["damage"][g, c] >= tc)
            cause[lethal] = CAUSE["704.5g"]
            cause[alive & ~lethal & s.a["deathtouch_hit"][g, c]] = CAUSE["704.5h"]
        for plane, rule, is_t in counted:
            zero = (cause == 0) & is_t[c]
            if plane is not None:
                zero &= plane[g, c] == 0
            cause[zero] = rule
        go = cause != 0
        pending.move(g[go], c[go], zones.GRAVEYARD, cause[go])


def _creature_may_die(world: "World", rows: slice, base: np.ndarray,
                      kinds: list[tuple[int, int]]) -> np.ndarray:
    """A superset of the objects with toughness <= 0, lethal damage or deathtouch damage in
    a chunk (every object treated as a creature; the caller masks and classifies exactly).
    With at most one +1 and one -1 toughness kind (the usual +1/+1, -1/-1) it stays in
    int32, twice as fast as int64: d = minus - plus is exact, toughness <= 0 is d >= base,
    and damage >= base - d may wrap only where the toughness passes int32, which no
    damage reaches (a false hit at worst, dropped by the exact check)."""
    s = world.store
    n = base.size
    damage = s.a["damage"][rows, :n]
    plus = [k for k, mod in kinds if mod == 1]
    minus = [k for k, mod in kinds if mod == -1]
    if len(plus) + len(minus) == len(kinds) and len(plus) <= 1 and len(minus) <= 1:
        d = s.counts[minus[0], rows, :n] if minus else np.zeros(damage.shape, np.int32)
        if plus:
            d = d - s.counts[plus[0], rows, :n]
        with np.errstate(over="ignore"):
            may_die = damage >= base - d
        may_die |= d >= base
    else:
        t = stats.pt(world, slice(0, n), 1, rows, kinds)
        may_die = t <= 0
        may_die |= damage >= t
    may_die |= s.a["deathtouch_hit"][rows, :n]
    return may_die


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
