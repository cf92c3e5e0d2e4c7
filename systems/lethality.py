"""Lethality: the state-based actions that kill objects and players (MTG CR 704.5a, c, f,
g, h, i, v; Two-Headed Giant 704.6a, b).

Decided for every game and object at once from the same state; indestructible (702.12b)
only stops 704.5g and 704.5h, and shield counters never stop a state-based action.
Toughness honours a host's layer 7b/7c effects (613.4, ``ecs.host``); a permanent the
host holds (``sba_hold``, e.g. a battle that is the source of a trigger still on the
stack, 704.5v) stays; a player who can't lose for a reason does not lose for it.
"""
from __future__ import annotations

import functools
from typing import Any

import numpy as np
from numba import njit

from ecs import stats, zones
from ecs.check import Check, System
from ecs.components import TYPE_BIT
from ecs.components.card import NO_STAT
from ecs.events import CAUSE
from ecs.game import Game
from ecs.kernels import I64, INDEX, array, compact, empty, flat, grown, head, kernel, reads, room_for
from ecs.kinds import KEYWORD_BIT
from ecs.limits import POISON_TO_LOSE, TWO_HEADED_GIANT_POISON_TO_LOSE
from ecs.prefetch import AHEAD, prefetch_read

from .base import battlefield_extent
from .parallel import split


class Lethality(System):
    causes = ("704.5a", "704.5c", "704.5f", "704.5g", "704.5h", "704.5i", "704.5v",
              "704.6a", "704.6b")

    def process(self, world: Game, pending: Check) -> None:
        permanents(world, pending)
        if NO_LOSSES not in pending.memo:
            players(world, pending)


#: ``Check.memo`` keys the probe (``systems.settled``) fills in a first check of one game:
#: the (3, rows) games, columns and rule codes of the permanents that die there (``dying``,
#: but those the host holds), and that no player loses.
PROBED_DYING, NO_LOSSES = "probed dying", "probed: no losses"


def permanents(world: Game, pending: Check) -> None:
    """Every permanent of the live games that dies, with its rule, in one compiled pass
    (a re-check: over the permanents the last perform touched, ``Check.touched``; each
    permanent's rule reads its own state alone; rows the probe found, as they are)."""
    probed = pending.memo.get(PROBED_DYING)
    if probed is not None:
        pending.move(probed[0], probed[1], zones.GRAVEYARD, probed[2])
        return
    s = world.store
    state = (s.a["zone"], s.counts, s.a["damage"], s.a["deathtouch_hit"], s.a["types"],
             s.a["toughness"], s.a["keywords"], s.a["pt_set_toughness"], s.a["pt_mod_toughness"])
    if pending.touched is None:
        n = battlefield_extent(world, pending)
        if n == 0:
            return
        games, kinds = pending.live_indices(world), rule_kinds(world)
        g, c, cause = split(lambda part: dying(*state, part, n, *kinds), games, games.size * n)
    else:
        g, c, cause = dying_at(*state, pending.touched, s.capacity, pending.live_games(world),
                                *rule_kinds(world))
    if g.size and not s.at_fill("sba_hold"):
        stay = s.a["sba_hold"][g, c]
        if stay.any():
            g, c, cause = g[~stay], c[~stay], cause[~stay]
    pending.move(g, c, zones.GRAVEYARD, cause)


def rule_kinds(world: Game) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
    """The planes dying reads, cached per kind names and ruleset: the toughness kinds and their change
    per counter, the indestructible keyword counters, loyalty and defense (-1: none)."""
    def make() -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
        index = world.store.kind_index
        return (*stats.pt_planes(world, 1), np.array(stats.keyword_kinds(world, "indestructible"), np.int64),
                index.get("loyalty", -1), index.get("defense", -1))
    return world.store.derived("lethality kinds", make, rules=world.ruleset)


_BF = zones.BATTLEFIELD
# A game row with fewer permanents than 1/SPARSE of the columns ``dying`` reads (a long
# game's graveyards: cards are objects too, 400.7) is decided permanent by permanent, by
# ``dying_at`` on the slots of the blocks of columns that hold one: the vectorized loop
# costs some 1.4 ns a column, the per-permanent one some 15-20 ns a permanent.
# (Rows narrower than ``_WIDE_ROW`` are not counted: the whole loop costs ~1.4 us there.)
SPARSE, _WIDE_ROW, _BLOCK = 16, 1_024, 256
_CREATURE, _PLANESWALKER, _BATTLE = TYPE_BIT["creature"], TYPE_BIT["planeswalker"], TYPE_BIT["battle"]
_INDESTRUCTIBLE = KEYWORD_BIT["indestructible"]
# int32, as the codes and the row of them: half the width of int64 in the vectorized loop
_F, _G, _H, _I, _V = (np.int32(CAUSE[r]) for r in ("704.5f", "704.5g", "704.5h", "704.5i", "704.5v"))


@njit(cache=True, inline="always")
def _rule(t: int | np.int64, on_bf: bool, creature: bool, walker: bool, battle: bool,
          saved: bool, damage: int, deathtouch: bool, loyaltyless: bool, defenseless: bool
          ) -> int | np.integer[Any]:  # pragma: no cover - compiled
    """The rule code a permanent dies by, 0 if it stays: toughness ``t`` <= 0 (704.5f,
    whatever else), else lethal damage (704.5g) or deathtouch damage since the last check
    (704.5h) unless ``saved`` by indestructible (702.12b), then a planeswalker with no
    loyalty (704.5i) or a battle with no defense counters (704.5v). Without a branch, so
    a loop over a row vectorizes (``~`` on a numba bool is logical not)."""
    creature_bf = creature & on_bf
    f = creature_bf & (t <= 0)
    destroyable = creature_bf & ~f & ~saved
    lethal = destroyable & (damage >= t)
    touched = destroyable & ~lethal & deathtouch
    creature_dies = f | lethal | touched
    i = walker & on_bf & ~creature_dies & loyaltyless
    v = battle & on_bf & ~creature_dies & ~i & defenseless
    return (np.int32(f) * _F + np.int32(lethal) * _G + np.int32(touched) * _H + np.int32(i) * _I
            + np.int32(v) * _V)


@njit(cache=True, inline="always")
def _card(types: np.ndarray, toughness: np.ndarray, keywords: np.ndarray, c: int
          ) -> tuple[int | np.int64, bool, bool, bool, bool]:  # pragma: no cover - compiled
    """What ``_rule`` reads of column ``c``'s card (``types``, ``toughness``, ``keywords``:
    one game's rows): printed toughness (0 if none), whether it is a creature,
    planeswalker, battle, and has the indestructible keyword."""
    return ((0 if toughness[c] == NO_STAT else np.int64(toughness[c])),
            (types[c] & _CREATURE) != 0, (types[c] & _PLANESWALKER) != 0,
            (types[c] & _BATTLE) != 0, (keywords[c] & _INDESTRUCTIBLE) != 0)


@njit(cache=True)
def _on(zr: np.ndarray, n: int) -> int:  # pragma: no cover - compiled
    """How many of the first ``n`` zone codes ``zr`` are the battlefield's."""
    on = 0
    for c in range(n):
        on += zr[c] == _BF
    return on


@njit(cache=True, inline="always")
def _temporaries(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover
    """``dying``'s rows of ``n`` temporaries: toughness from the kinds past the first two
    (0), indestructible counters (122.1b; False), rule codes."""
    extra = empty(n, np.int64)
    saved = empty(n, np.bool_)
    for c in range(n):   # (loops: an array assignment compiles a shape check, ~2 s)
        extra[c] = 0
        saved[c] = False
    return extra, saved, empty(n, np.int32)


# What dying and dying_at read (their declared signature; the probe passes the same):
# zone, counts, damage, deathtouch mark, types, toughness, keywords, the host's set and
# modified toughness, ..., and the planes of ``rule_kinds``.
DYING_READS = (reads("zone"), reads("counts"), reads("damage"), reads("deathtouch_hit"), reads("types"),
               reads("toughness"), reads("keywords"), reads("pt_set_toughness"), reads("pt_mod_toughness"))
DYING_KINDS = (INDEX, INDEX, INDEX, I64, I64)


@kernel(*DYING_READS, INDEX, I64, array(np.bool_, 1), *DYING_KINDS, system=Lethality)
def dying_at(zone: np.ndarray, counts: np.ndarray, damage: np.ndarray, deathtouch: np.ndarray,
              types: np.ndarray, toughness: np.ndarray, keywords: np.ndarray, set_t: np.ndarray,
              mod_t: np.ndarray, slots: np.ndarray, cap: int, live: np.ndarray,
              tough_k: np.ndarray, tough_mod: np.ndarray,
              ind_k: np.ndarray, loyalty_k: int, defense_k: int
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """``dying`` for the flat ``slots`` (game * ``cap`` + column) of the ``live`` games.
    The lines it reads of the slot ``AHEAD`` on are prefetched (scattered slots: each
    miss was waited on in turn)."""
    out_g = empty(slots.size, np.int64)
    out_c = empty(slots.size, np.int64)
    out_r = empty(slots.size, np.int64)
    m = 0
    zone_f, damage_f, deathtouch_f = flat(zone), flat(damage), flat(deathtouch)
    counts_f, plane = flat(counts), zone.size
    for i in range(slots.size):
        if i + AHEAD < slots.size:
            b = slots[i + AHEAD]
            prefetch_read(zone_f, b)
            prefetch_read(damage_f, b)
            prefetch_read(deathtouch_f, b)
            for k in tough_k:
                prefetch_read(counts_f, k * plane + b)
            for k in ind_k:
                prefetch_read(counts_f, k * plane + b)
            if loyalty_k >= 0:
                prefetch_read(counts_f, loyalty_k * plane + b)
            if defense_k >= 0:
                prefetch_read(counts_f, defense_k * plane + b)
        a = slots[i]
        g, c = a // cap, a % cap
        if not live[g]:
            continue
        t, creature, walker, battle, saved = _card(types[g], toughness[g], keywords[g], c)
        if set_t[g, c] != NO_STAT:
            t = np.int64(set_t[g, c])
        t += mod_t[g, c]
        for j in range(tough_k.size):
            t += tough_mod[j] * counts[tough_k[j], g, c]
        for k in ind_k:
            saved |= counts[k, g, c] > 0
        rule = _rule(t, zone[g, c] == _BF, creature, walker, battle, saved, damage[g, c],
                     deathtouch[g, c], loyalty_k < 0 or counts[loyalty_k, g, c] == 0,
                     defense_k < 0 or counts[defense_k, g, c] == 0)
        if rule:
            out_g[m], out_c[m], out_r[m] = g, c, rule
            m += 1
    return head(out_g, m), head(out_c, m), head(out_r, m)


@kernel(*DYING_READS, INDEX, I64, *DYING_KINDS, uses=(grown, dying_at), nogil=True, system=Lethality)
def dying(zone: np.ndarray, counts: np.ndarray, damage: np.ndarray, deathtouch: np.ndarray,
           types: np.ndarray, toughness: np.ndarray, keywords: np.ndarray, set_t: np.ndarray,
           mod_t: np.ndarray, games: np.ndarray, n: int, tough_k: np.ndarray,
           tough_mod: np.ndarray, ind_k: np.ndarray, loyalty_k: int,
           defense_k: int
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """(games, columns, rule codes) of the permanents in ``games`` x the first ``n`` columns
    that die (``_rule``). Toughness is summed in int64: exact for any int32 counts; the
    printed value or the one ``set_t`` gives (613.4b), plus ``mod_t`` (613.4c) and counters.

    Per game row, over row views: one loop without branches that the compiler vectorizes
    reads each object's card, the host's effects and the first two toughness kinds
    (+1/+1 and -1/-1 on the usual board; any others, and indestructible counters, are
    summed first into rows of their own) and gives it its rule code; then the columns of
    the nonzero codes are gathered without a branch per object. (A branch per object cost
    a misprediction per death, ~8% of a random board; a loop per step with rows of
    temporaries between them, 15% more than the one loop.) A wide row of few permanents
    among cards in other zones (``SPARSE``) is decided by ``dying_at`` on its permanents.
    The outputs, and the row of columns found, are made at the first find (``room_for``)."""
    out_g = out_c = out_r = dead = empty(0, np.int64)
    m = 0
    # a kind never used: every planeswalker (battle) has none; read plane 0 and ignore it
    no_loyalty, lk = loyalty_k < 0, loyalty_k if loyalty_k > 0 else 0
    no_defense, dk = defense_k < 0, defense_k if defense_k > 0 else 0
    # the first two toughness kinds, fused in the loop (fewer: plane 0, counted 0 times);
    # their changes as int32 (``stats.pt_kinds`` bounds them) make int32 x int32 products,
    # one instruction a lane where int64 x int64 takes six
    k0, m0 = (tough_k[0], np.int32(tough_mod[0])) if tough_k.size > 0 else (0, np.int32(0))
    k1, m1 = (tough_k[1], np.int32(tough_mod[1])) if tough_k.size > 1 else (0, np.int32(0))
    # the loop's rows of temporaries; in wide rows made at the first that takes the loop
    # (a long game's sparse rows need none)
    wide = n >= _WIDE_ROW
    extra, saved, rule = _temporaries(0 if wide else n)
    cap, live = zone.shape[1], empty(0, np.bool_)   # (``dying_at``'s, for sparse rows)
    for g in games:
        zr, dr, dtr, sr, mr = zone[g], damage[g], deathtouch[g], set_t[g], mod_t[g]
        yr, tr, kr = types[g], toughness[g], keywords[g]
        on = _on(zr, n) if wide else n
        if on * SPARSE < n:   # a few permanents among many cards (graveyards): those alone
            if live.size == 0:
                live = np.ones(zone.shape[0], np.bool_)
            slots, k = empty(on, np.int64), 0
            for b in range(0, n, _BLOCK):   # blocks of columns, skipping those without one
                e = b + _BLOCK if b + _BLOCK < n else n
                if _on(zr[b:e], e - b) == 0:
                    continue
                for c in range(b, e):
                    if zr[c] == _BF:
                        slots[k] = g * cap + c
                        k += 1
            dg, dc, dr_ = dying_at(zone, counts, damage, deathtouch, types, toughness, keywords,
                                   set_t, mod_t, slots, cap, live, tough_k, tough_mod, ind_k,
                                   loyalty_k, defense_k)
            if m + dg.size > out_g.size:
                need = room_for(out_g, m + dg.size, games.size * n)
                out_g, out_c, out_r = grown(out_g, m, need), grown(out_c, m, need), grown(out_r, m, need)
            for j in range(dg.size):
                out_g[m], out_c[m], out_r[m] = dg[j], dc[j], dr_[j]
                m += 1
            continue
        if rule.size < n:
            extra, saved, rule = _temporaries(n)
        lr, br, p0, p1 = counts[lk, g], counts[dk, g], counts[k0, g], counts[k1, g]
        if tough_k.size > 2:
            for c in range(n):
                extra[c] = 0
            for j in range(2, tough_k.size):
                row, mod = counts[tough_k[j], g], tough_mod[j]
                for c in range(n):
                    extra[c] += mod * row[c]
        if ind_k.size:
            for c in range(n):
                saved[c] = False
            for k in ind_k:
                row = counts[k, g]
                for c in range(n):
                    saved[c] |= row[c] > 0
        hits = 0
        for c in range(n):
            base, creature, walker, battle, indestructible = _card(yr, tr, kr, c)
            t = ((base if sr[c] == NO_STAT else np.int64(sr[c])) + mr[c] + extra[c]
                 + np.int64(m0) * np.int64(p0[c]) + np.int64(m1) * np.int64(p1[c]))
            rule[c] = _rule(t, zr[c] == _BF, creature, walker, battle, indestructible | saved[c],
                            dr[c], dtr[c], no_loyalty | (lr[c] == 0), no_defense | (br[c] == 0))
            hits += rule[c] != 0
        if hits == 0:   # most rows of a settled board
            continue
        if dead.size < n:
            dead = empty(n, np.int64)
        k = compact(rule, n, dead)
        if m + k > out_g.size:
            need = room_for(out_g, m + k, games.size * n)
            out_g, out_c, out_r = grown(out_g, m, need), grown(out_c, m, need), grown(out_r, m, need)
        for j in range(k):
            out_g[m], out_c[m], out_r[m] = g, dead[j], rule[dead[j]]
            m += 1
    return head(out_g, m), head(out_c, m), head(out_r, m)


def players(world: Game, pending: Check) -> None:
    """Players at 0 or less life (704.5a) or with 10 or more poison counters (704.5c); in
    Two-Headed Giant the team's life and poison, held by its first player (810.10), at 0
    or 15 (704.6a, 704.6b), and both players of the team lose (``player_rules``)."""
    s = world.store
    if s.n_players == 0:
        return
    g, p, poisoned = losing(s.a["life"], s.counts, s.kind_index.get("poison", -1),
                            s.a["player_col"], *player_rules(world), s.a["lost"],
                            pending.live_indices(world))
    if g.size:
        thg = world.two_headed_giant
        life_rule, poison_rule = ("704.6a", "704.6b") if thg else ("704.5a", "704.5c")
        pending.lose(g[~poisoned], p[~poisoned], life_rule)
        pending.lose(g[poisoned], p[poisoned], poison_rule)


def player_rules(world: Game) -> tuple[np.ndarray, int, np.ndarray, np.ndarray]:
    """What ``losing`` reads besides the state: each player's holder of life and poison
    (in Two-Headed Giant the team's first player, 810.10), the poison counters to lose,
    and who can't lose by life or by poison (``cant_lose_life``, ``cant_lose_poison``; in
    Two-Headed Giant a teammate's flag keeps the whole team in: it loses or not as one,
    810.8)."""
    s = world.store
    safe_life, safe_poison = s.a["cant_lose_life"], s.a["cant_lose_poison"]
    if not world.two_headed_giant:
        return _each_own(s.n_players), POISON_TO_LOSE, safe_life, safe_poison
    holder = s.a["player_head"]
    if safe_life.any() or safe_poison.any():
        same = holder[:, None] == holder[None, :]   # (P, P): players of one team
        safe_life = (safe_life.astype(np.int64) @ same) > 0
        safe_poison = (safe_poison.astype(np.int64) @ same) > 0
    return holder, TWO_HEADED_GIANT_POISON_TO_LOSE, safe_life, safe_poison


@functools.lru_cache(maxsize=64)
def _each_own(n_players: int) -> np.ndarray:
    """Each player holds their own life and poison (read-only: shared by every call)."""
    holder = np.arange(n_players, dtype=np.int32)
    holder.flags.writeable = False
    return holder


@kernel(reads("life"), reads("counts"), I64, reads("player_col"), array(np.int32, 1), I64,
        reads("cant_lose_life"), reads("cant_lose_poison"), reads("lost"), INDEX, system=Lethality)
def losing(life: np.ndarray, counts: np.ndarray, poison_k: int, player_col: np.ndarray,
           holder: np.ndarray, limit: int, safe_life: np.ndarray, safe_poison: np.ndarray,
           lost: np.ndarray, games: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """(games, players, by poison) of the players in ``games`` who have not lost and whose
    holder's life is 0 or less, or whose holder has ``limit`` poison counters or more (a
    player at both appears twice, first for life), but where ``safe_life`` (``safe_poison``)
    says that player can't lose for that reason."""
    out_g = empty(2 * games.size * holder.size, np.int64)
    out_p = empty(2 * games.size * holder.size, np.int64)
    out_poison = empty(2 * games.size * holder.size, np.bool_)
    m = 0
    for by_poison in (False, True):
        for g in games:
            for p in range(holder.size):
                h = holder[p]
                if by_poison:
                    hit = (poison_k >= 0 and counts[poison_k, g, player_col[h]] >= limit
                           and not safe_poison[g, p])
                else:
                    hit = life[g, h] <= 0 and not safe_life[g, p]
                if hit and not lost[g, p]:
                    out_g[m], out_p[m], out_poison[m] = g, p, by_poison
                    m += 1
    return head(out_g, m), head(out_p, m), head(out_poison, m)
