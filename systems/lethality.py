"""Lethality: the state-based actions that kill objects and players (MTG CR 704.5a, c, f,
g, h, i, v; Two-Headed Giant 704.6a, b).

Decided for every game and object at once from the same state; indestructible (702.12b)
only stops 704.5g and 704.5h, and shield counters never stop a state-based action.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from components import TYPE_BIT
from components.card import NO_STAT
from ecs import stats, zones
from ecs.events import CAUSE

from .base import Pending, Rows, System, battlefield_extent, game_chunks, live_games, unravel

if TYPE_CHECKING:
    from ecs.world import World


class Lethality(System):
    def process(self, world: "World", pending: Pending) -> None:
        permanents(world, pending)
        players(world, pending)


@dataclass(frozen=True)
class _Layout:
    """What permanents() reads from the card fields of the first ``n`` columns; cached per
    store layout (it changes only with alloc)."""
    creature: np.ndarray        # (n,) bool
    any_creature: bool
    # 704.5i and 704.5v: (counter kind, rule code, is that type, its columns); few objects
    # are planeswalkers or battles, so their test reads only their columns.
    counted: list[tuple[str, int, np.ndarray, np.ndarray]]
    base: np.ndarray            # (n,) int32 printed toughness, 0 where there is none

    @staticmethod
    def of(world: "World", n: int) -> "_Layout":
        s = world.store
        types = s.a["types"][:n]
        creature = (types & TYPE_BIT["creature"]) != 0
        counted = []
        for t, kind, rule in (("planeswalker", "loyalty", "704.5i"), ("battle", "defense", "704.5v")):
            of_t = np.flatnonzero(types & TYPE_BIT[t])
            if of_t.size:
                counted.append((kind, CAUSE[rule], (types & TYPE_BIT[t]) != 0, of_t))
        printed = s.a["toughness"][:n]
        return _Layout(creature, bool(creature.any()), counted,
                       np.where(printed == NO_STAT, np.int32(0), printed))


def _toughness_kinds(world: "World") -> tuple[list[tuple[int, int]], tuple[int, int] | None]:
    """stats.pt_kinds(world, 1), and for the int32 fast path of _creature_may_die the +1
    and -1 toughness planes (-1: none), or None when there are more kinds than one of
    each; cached per kind names."""
    def make() -> tuple[list[tuple[int, int]], tuple[int, int] | None]:
        kinds = stats.pt_kinds(world, 1)
        plus = [k for k, mod in kinds if mod == 1]
        minus = [k for k, mod in kinds if mod == -1]
        fast = len(plus) + len(minus) == len(kinds) and len(plus) <= 1 and len(minus) <= 1
        return kinds, ((plus or [-1])[0], (minus or [-1])[0]) if fast else None
    return world.store.derived("lethality toughness", make, kinds_only=True)


def permanents(world: "World", pending: Pending) -> None:
    """One mask per chunk of every permanent that may die, one nonzero, then each hit gets
    its rule (704.5f before g before h, then i and v), looking only at the hits."""
    s = world.store
    n = battlefield_extent(world, pending)
    if n == 0:
        return
    lay = s.derived(f"lethality {n}", lambda: _Layout.of(world, n))
    creature, any_creature = lay.creature, lay.any_creature
    if not (any_creature or lay.counted):
        return
    counted = [(s.kind_index.get(kind), code, is_t, of_t) for kind, code, is_t, of_t in lay.counted]
    live = live_games(world, pending)
    every_game = bool(live.all())
    found = []
    for rows in game_chunks(world, n, live):
        on_bf = s.a["zone"][rows, :n] == zones.BATTLEFIELD
        if not every_game:
            on_bf &= live[rows, None]
        if any_creature:
            may_die, dead, tough = _creature_may_die(world, rows, lay.base)
            may_die &= creature
        else:
            may_die = np.zeros(on_bf.shape, bool)
        for k, _, _, of_t in counted:
            may_die[:, of_t] |= s.counts[k, rows][:, of_t] == 0 if k is not None else True
        may_die &= on_bf
        flat = np.flatnonzero(may_die)
        if flat.size == 0:
            continue
        g, c = unravel(flat, n, rows)
        at = g * s.capacity + c   # into the raveled (B, capacity) arrays: 1-D gathers are cheaper
        cause = np.zeros(flat.size, np.int64)   # 0: saved (indestructible); no rule has code 0
        if any_creature:
            is_creature = creature[c]
            dead_h = dead.ravel()[flat]
            cause[is_creature & dead_h] = CAUSE["704.5f"]
            alive = is_creature & ~dead_h & ~stats.has_keyword_at(world, g, c, "indestructible")
            tough_h = tough.ravel()[flat]
            lethal = alive & (tough_h > 0) & (s.a["damage"].ravel()[at] >= tough_h)
            cause[lethal] = CAUSE["704.5g"]
            cause[alive & ~lethal & s.a["deathtouch_hit"].ravel()[at]] = CAUSE["704.5h"]
        for k, code, is_t, _ in counted:
            r = (cause == 0) & is_t[c]
            if k is not None:
                r &= s.counts[k].ravel()[at] == 0
            cause[r] = code
        go = cause != 0
        found.append((g[go], c[go], cause[go]))
    if found:   # one move for the whole check, not one per chunk
        g, c, cause = (np.concatenate(x) for x in zip(*found)) if len(found) > 1 else found[0]
        pending.move(g, c, zones.GRAVEYARD, cause)


def _creature_may_die(world: "World", rows: Rows, base: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For a chunk, every object treated as a creature (the caller masks): (may die: a
    superset of toughness <= 0, lethal damage or deathtouch damage; toughness <= 0, exact;
    toughness, exact where it is > 0 and fits int32, negative where it passes int32).

    With at most one +1 and one -1 toughness kind (the usual +1/+1, -1/-1) it stays in
    int32, twice as fast as int64: d = minus - plus is exact, toughness <= 0 is d >= base,
    and base - d wraps (to a negative number) only where the toughness passes int32,
    which no damage reaches: a false hit at worst, which the caller drops."""
    s = world.store
    n = base.size
    damage = s.a["damage"][rows, :n]
    kinds, plus_minus = _toughness_kinds(world)
    if plus_minus is not None:
        plus, minus = plus_minus
        d = s.counts[minus, rows, :n] if minus >= 0 else np.zeros(damage.shape, np.int32)
        if plus >= 0:
            d = d - s.counts[plus, rows, :n]
        dead = d >= base
        tough = base - d
    else:
        tough = stats.pt(world, slice(0, n), 1, rows, kinds)
        dead = tough <= 0
    may_die = damage >= tough
    may_die |= dead
    may_die |= s.a["deathtouch_hit"][rows, :n]
    return may_die, dead, tough


def players(world: "World", pending: Pending) -> None:
    s = world.store
    if s.n_players == 0:
        return
    heads = s.a["player_head"]
    # Two-Headed Giant: the team's life and poison live on its first player (810.10).
    holder = heads if world.two_headed_giant else slice(None)
    life_rule, poison_rule, limit = (("704.6a", "704.6b", 15) if world.two_headed_giant
                                     else ("704.5a", "704.5c", 10))
    no_life = s.a["life"][:, holder] <= 0
    poison_plane = s.plane("poison")
    poisoned = (np.zeros_like(no_life) if poison_plane is None
                else poison_plane[:, s.a["player_col"][holder]] >= limit)
    if not (no_life.any() or poisoned.any()):   # the usual case: nobody is at a loss
        return
    in_game = ~s.a["lost"] & live_games(world, pending)[:, None]
    g, p = np.nonzero(in_game & no_life)
    pending.lose(g, p, life_rule)
    g, p = np.nonzero(in_game & poisoned)
    pending.lose(g, p, poison_rule)
