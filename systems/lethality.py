"""Lethality: the state-based actions that kill objects and players (MTG CR 704.5a, c, f,
g, h, i, v; Two-Headed Giant 704.6a, b).

Decided for every game and object at once from the same state; indestructible (702.12b)
only stops 704.5g and 704.5h, and shield counters never stop a state-based action.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from components import TYPE_BIT
from components.card import NO_STAT
from ecs import stats, zones
from ecs.events import CAUSE
from ecs.kinds import KEYWORD_BIT

from .base import Pending, System, battlefield_extent, live_indices

if TYPE_CHECKING:
    from ecs.world import World


class Lethality(System):
    def process(self, world: "World", pending: Pending) -> None:
        permanents(world, pending)
        players(world, pending)


def permanents(world: "World", pending: Pending) -> None:
    """Every permanent of the live games that dies, with its rule, in one compiled pass."""
    s = world.store
    n = battlefield_extent(world, pending)
    if n == 0:
        return
    tough_k, tough_mod, ind_k, loyalty_k, defense_k = _kinds(world)
    g, c, cause = _dying(s.a["zone"], s.counts, s.a["damage"], s.a["deathtouch_hit"],
                         s.a["types"], s.a["toughness"], s.a["keywords"],
                         live_indices(world, pending), n,
                         tough_k, tough_mod, ind_k, loyalty_k, defense_k)
    pending.move(g, c, zones.GRAVEYARD, cause)


def _kinds(world: "World") -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
    """The planes _dying reads, cached per kind names: the toughness kinds and their change
    per counter, the indestructible keyword counters, loyalty and defense (-1: none)."""
    def make() -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
        kinds = stats.pt_kinds(world, 1)
        index = world.store.kind_index
        return (np.array([k for k, _ in kinds], np.int64), np.array([m for _, m in kinds], np.int64),
                np.array(stats.keyword_kinds(world, "indestructible"), np.int64),
                index.get("loyalty", -1), index.get("defense", -1))
    return world.store.derived("lethality kinds", make, kinds_only=True)


_BF = zones.BATTLEFIELD
_CREATURE, _PLANESWALKER, _BATTLE = TYPE_BIT["creature"], TYPE_BIT["planeswalker"], TYPE_BIT["battle"]
_INDESTRUCTIBLE = KEYWORD_BIT["indestructible"]
_F, _G, _H, _I, _V = (CAUSE[r] for r in ("704.5f", "704.5g", "704.5h", "704.5i", "704.5v"))


@njit(cache=True)
def _dying(zone, counts, damage, deathtouch, types, toughness, keywords, games, n,
           tough_k, tough_mod, ind_k, loyalty_k, defense_k):  # pragma: no cover - compiled
    """(games, columns, rule codes) of the permanents in ``games`` x the first ``n`` columns
    that die: toughness <= 0 (704.5f, whatever else), else lethal damage (704.5g) or
    deathtouch damage since the last check (704.5h) unless indestructible (702.12b), then
    a planeswalker with no loyalty (704.5i) or a battle with no defense counters (704.5v).
    Toughness is summed in int64: exact for any int32 counts.

    Per game row: toughness and a mask of the objects that may die, in branchless loops
    the compiler vectorizes; only the masked objects of rows with any get their rule."""
    out_g = np.empty(games.size * n, np.int64)   # room for all; untouched pages cost nothing
    out_c = np.empty(games.size * n, np.int64)
    out_r = np.empty(games.size * n, np.int64)
    m = 0
    base = np.empty(n, np.int64)
    creature = np.empty(n, np.bool_)
    walker = np.empty(n, np.bool_)
    battle = np.empty(n, np.bool_)
    for c in range(n):
        base[c] = 0 if toughness[c] == NO_STAT else toughness[c]
        creature[c] = (types[c] & _CREATURE) != 0
        walker[c] = (types[c] & _PLANESWALKER) != 0
        battle[c] = (types[c] & _BATTLE) != 0
    # a kind never used: every planeswalker (battle) has none; read plane 0 and ignore it
    no_loyalty, lk = loyalty_k < 0, max(loyalty_k, 0)
    no_defense, dk = defense_k < 0, max(defense_k, 0)
    tough = np.empty(n, np.int64)
    may_die = np.empty(n, np.bool_)
    for g in games:
        tough[:] = base
        for j in range(tough_k.size):
            k, mod = tough_k[j], tough_mod[j]
            for c in range(n):
                tough[c] += mod * counts[k, g, c]
        any_may_die = False
        for c in range(n):
            may_die[c] = (zone[g, c] == _BF) & (
                (creature[c] & ((tough[c] <= 0) | (damage[g, c] >= tough[c]) | deathtouch[g, c]))
                | (walker[c] & (no_loyalty | (counts[lk, g, c] == 0)))
                | (battle[c] & (no_defense | (counts[dk, g, c] == 0))))
            any_may_die |= may_die[c]
        if not any_may_die:
            continue
        for c in range(n):
            if not may_die[c]:
                continue
            rule = 0
            if creature[c]:
                t = tough[c]
                if t <= 0:
                    rule = _F
                elif damage[g, c] >= t or deathtouch[g, c]:
                    saved = (keywords[c] & _INDESTRUCTIBLE) != 0
                    for k in ind_k:
                        saved = saved or counts[k, g, c] > 0
                    if not saved:
                        rule = _G if damage[g, c] >= t else _H
            if rule == 0 and walker[c] and (no_loyalty or counts[lk, g, c] == 0):
                rule = _I
            if rule == 0 and battle[c] and (no_defense or counts[dk, g, c] == 0):
                rule = _V
            if rule:
                out_g[m], out_c[m], out_r[m] = g, c, rule
                m += 1
    return out_g[:m], out_c[:m], out_r[:m]


def players(world: "World", pending: Pending) -> None:
    """Players at 0 or less life (704.5a) or with 10 or more poison counters (704.5c); in
    Two-Headed Giant the team's life and poison, held by its first player (810.10), at 0
    or 15 (704.6a, 704.6b), and both players of the team lose."""
    s = world.store
    if s.n_players == 0:
        return
    two_headed = world.two_headed_giant
    holder = s.a["player_head"] if two_headed else np.arange(s.n_players, dtype=np.int32)
    g, p, poisoned = _losing(s.a["life"], s.counts, s.kind_index.get("poison", -1),
                             s.a["player_col"], holder, 15 if two_headed else 10, s.a["lost"],
                             live_indices(world, pending))
    if g.size:
        life_rule, poison_rule = ("704.6a", "704.6b") if two_headed else ("704.5a", "704.5c")
        pending.lose(g[~poisoned], p[~poisoned], life_rule)
        pending.lose(g[poisoned], p[poisoned], poison_rule)


@njit(cache=True)
def _losing(life, counts, poison_k, player_col, holder, limit, lost, games):  # pragma: no cover - compiled
    """(games, players, by poison) of the players in ``games`` who have not lost and whose
    holder's life is 0 or less, or whose holder has ``limit`` poison counters or more (a
    player at both appears twice, first for life)."""
    out_g = np.empty(2 * games.size * holder.size, np.int64)
    out_p = np.empty(2 * games.size * holder.size, np.int64)
    out_poison = np.empty(2 * games.size * holder.size, np.bool_)
    m = 0
    for by_poison in (False, True):
        for g in games:
            for p in range(holder.size):
                h = holder[p]
                if by_poison:
                    hit = poison_k >= 0 and counts[poison_k, g, player_col[h]] >= limit
                else:
                    hit = life[g, h] <= 0
                if hit and not lost[g, p]:
                    out_g[m], out_p[m], out_poison[m] = g, p, by_poison
                    m += 1
    return out_g[:m], out_p[:m], out_poison[:m]
