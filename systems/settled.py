"""The pre-check of the Magic state-based systems: which of them would decide anything.

One compiled call (``acting``) runs the compiled passes of ZoneChange, Annihilation,
CapEnforcement and Lethality themselves (and EmptyDraw's guard) - the same functions
their ``process`` calls, so each rule is declared once - over the games a check looks
at, and reports which of them found something. The schedule (``ecs.schedule``) then runs
only those systems: a settled check (nothing to do, the common case in a game loop) is
this one call, where the systems took some 35 us of Python glue and kernel dispatch on a
100-object game.

The systems' passes return what they found; here only whether it is empty counts. Games
are taken a chunk at a time, and the pass stops at the first chunk after which every
asked part has been found acting. On a wide check (``WIDE``, ``WIDE_TOUCHED``) it
answers "all" without looking: the systems then run as they would without it.
"""
from __future__ import annotations

from typing import Any, Callable, NamedTuple, cast

import numpy as np
from numba import njit

from ecs import store
from ecs.addresses import Table
from ecs.check import MARKED, Probe
from ecs.game import Game
from ecs.kernels import BOOL, I64, INDEX, array, kernel
from ecs.perform import ONGOING

from .annihilation import Annihilation, pairs, pairs_at
from .base import CHUNK_ELEMENTS
from .cap_enforcement import CapEnforcement, over, over_at
from .empty_draw import EmptyDraw
from .lethality import (
    NO_LOSSES,
    PROBED_DYING,
    Lethality,
    dying,
    dying_at,
    losing,
    player_rules,
    rule_kinds,
)
from .zone_change import ZoneChange, ceasing

# The parts (bits) of the pre-check; Lethality decides deaths and losses.
ZONE_CHANGE, ANNIHILATION, CAPS, DEATHS, LOSSES, EMPTY_DRAW = 1, 2, 4, 8, 16, 32
# Objects (a first check: games x columns; a re-check: touched slots, read scattered) above
# which the probe stands aside: its fixed-cost saving is noise there, and where the
# systems act it would make their passes twice (1024x200 acting ticks: 7% slower with it).
WIDE, WIDE_TOUCHED = CHUNK_ELEMENTS, 2_048
_NONE = np.zeros(0, np.int64)
_NO_CAPS = np.zeros(0, np.bool_)
_EVERY = np.zeros(0, np.bool_)   # as ``live``: every ongoing game

# The arrays the passes read, handed over as one table (``ecs.addresses``): unboxing them
# one by one was most of a settled tick's call, and more of it than its work when cold.
ARRAYS = Table("winner", "zone", "token", "counts", "damage", "deathtouch_hit", "types", "toughness",
               "keywords", "pt_set_toughness", "pt_mod_toughness", "sba_hold", "index", "index", "index",
               "cap_col", "cap_kind", "cap_val", "life", "player_col", "int32 index", "cant_lose_life",
               "cant_lose_poison", "lost", "drew_empty")
(_WINNER, _ZONE, _TOKEN, _COUNTS, _DAMAGE, _DEATHTOUCH, _TYPES, _TOUGHNESS, _KEYWORDS, _SET_T, _MOD_T,
 _HOLD, _TOUGH_K, _TOUGH_MOD, _IND_K, _CAP_COL, _CAP_KIND, _CAP_VAL, _LIFE, _PLAYER_COL, _HOLDER,
 _SAFE_LIFE, _SAFE_POISON, _LOST, _DREW_EMPTY) = range(len(ARRAYS.rows))
view = ARRAYS.view


def acting(world: Game, live: np.ndarray | None, touched: np.ndarray | None, parts: int,
           memo: dict[str, Any] | None = None) -> int:
    """The bits of ``parts`` whose systems would decide something in a check of ``live``
    (None: every ongoing game) and ``touched`` (``ecs.check.Check``), and ``MARKED`` if asked
    and a deathtouch mark is set in a game looked at. ``memo`` (a first check of one game):
    given what Lethality's passes found, for its ``process`` (``lethality.PROBED_DYING``,
    ``lethality.NO_LOSSES``)."""
    s = world.store
    if live is not None or touched is not None or world.two_headed_giant:
        return _ask(world, live, touched, parts)
    # A first check (the settled tick's only one): its arguments are cached with the table
    # of the arrays they read (``First``), and the kernel is called through its compiled
    # entry point, skipping numba's typing (the dispatcher typed them when they were made).
    key = (s.a.version, s.layout, s.kinds_layout, parts)   # (``arrays_version``, without a call)
    if s.memo[0] == key:
        args = s.memo[1].args
        if not isinstance(args, tuple):
            return args
        found = int((_ENTRY or _entry())(*args))
    else:
        args = _first(world, parts, key).args
        if not isinstance(args, tuple):
            return args
        found = int(_acting(*args))
    if not found:   # settled (no module global read on the way: each is a cache miss in a cold tick)
        return 0
    rows = args[-1]
    if found & (DEATHS | LOSSES) and memo is not None and rows.shape[1] and parts & DEATHS and store.SCALAR_PATHS:
        # Lethality will run: the permanents that die, in a one-game check's one chunk (the
        # general paths, which the tests compare, find them again)
        memo[PROBED_DYING] = rows[:, : found >> _ROWS].copy()
        if not found & LOSSES:
            memo[NO_LOSSES] = True
    return found & _BITS


def _ask(world: Game, live: np.ndarray | None, touched: np.ndarray | None, parts: int) -> int:
    """``acting`` of a re-check, or of a two-headed game: through the dispatcher, on the
    cached table (with the player rules as they are now in a two-headed game)."""
    s = world.store
    key = (s.a.version, s.layout, s.kinds_layout, parts)
    first = s.memo[1] if s.memo[0] == key else _first(world, parts, key)
    arrays, table = first.arrays, first.table
    if world.two_headed_giant:
        arrays, table = _player_rules_now(world, arrays, table)
    args = _arguments(world, live, touched, parts, table, first.values)
    return int(_acting(*args)) & _BITS if isinstance(args, tuple) else args


# ``_acting`` returns the bits found, and above ``_ROWS`` how many rows it left in ``rows``.
_ROWS = 32
_BITS = (1 << _ROWS) - 1
_NO_ROWS = np.zeros((3, 0), np.int64)


class Values(NamedTuple):
    """What ``_acting`` takes of the kind names and the rules besides arrays."""
    loyalty: int
    defense: int
    poison_to_lose: int


class First(NamedTuple):
    """What ``Store.memo`` holds for the probe, under the store's array version, layout and
    kind names and the parts asked: a first check's arguments (or its answer where no pass
    needs to run), the arrays the passes read and their table (``ARRAYS``), which points
    into them (they are kept alive here), and the values the kernel takes besides them
    (``Values``)."""
    args: tuple[Any, ...] | int
    arrays: tuple[np.ndarray, ...]
    table: np.ndarray
    values: Values


def _first(world: Game, parts: int, key: tuple[int, ...]) -> First:
    """``First`` for the store as it is now, cached under ``key``."""
    s, a = world.store, world.store.a
    tough_k, tough_mod, ind_k, loyalty_k, defense_k = rule_kinds(world)
    holder, limit, safe_life, safe_poison = player_rules(world)
    arrays = (a["winner"], a["zone"], a["token"], s.counts, a["damage"], a["deathtouch_hit"], a["types"],
              a["toughness"], a["keywords"], a["pt_set_toughness"], a["pt_mod_toughness"], a["sba_hold"],
              tough_k, tough_mod, ind_k, a["cap_col"], a["cap_kind"], a["cap_val"], a["life"], a["player_col"],
              holder, safe_life, safe_poison, a["lost"], a["drew_empty"])
    table = ARRAYS.of(arrays)
    values = Values(loyalty_k, defense_k, limit)
    first = First(_arguments(world, None, None, parts, table, values), arrays, table, values)
    s.memo = (key, first)
    return first


def _player_rules_now(world: Game, arrays: tuple[np.ndarray, ...], table: np.ndarray
                      ) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """``arrays`` and ``table`` with a two-headed game's player rules as they are now: they
    are made from the flags' values (a team stays in when a teammate's flag is set, 810.8),
    which change in place; rows made anew only where not the same arrays."""
    holder, _, safe_life, safe_poison = player_rules(world)
    now = (holder, safe_life, safe_poison)
    if all(x is y for x, y in zip(now, arrays[_HOLDER:_SAFE_POISON + 1])):
        return arrays, table
    arrays = arrays[:_HOLDER] + now + arrays[_SAFE_POISON + 1:]
    return arrays, ARRAYS.of(arrays)


def _arguments(world: Game, live: np.ndarray | None, touched: np.ndarray | None, parts: int,
               table: np.ndarray, values: Values) -> tuple[Any, ...] | int:
    """``_acting``'s arguments for ``acting`` on ``table`` (``ARRAYS``), or its answer where
    no pass needs to run."""
    s = world.store
    plus, minus = s.kind_index.get("+1/+1", -1), s.kind_index.get("-1/-1", -1)
    if plus < 0 or minus < 0:   # Annihilation returns at once
        parts &= ~ANNIHILATION
    if s.a["cap_col"].size == 0:  # CapEnforcement returns at once
        parts &= ~CAPS
    if s.n_players == 0:        # no player to lose
        parts &= ~(LOSSES | EMPTY_DRAW)
    if not parts:
        return 0
    if world.batch * s.n_cols > WIDE if touched is None else touched.size > WIDE_TOUCHED:
        return parts   # the systems' passes dominate there (see WIDE): all of them run
    capped = s.capped_columns() if touched is not None and parts & CAPS else _NO_CAPS
    return (parts, _EVERY if live is None else live, _NONE if touched is None else touched,
            touched is not None, s.capacity, s.n_cols, plus, minus, values.loyalty, values.defense,
            s.kind_index.get("poison", -1), values.poison_to_lose, capped, table,
            # room for the rows dying in a first check of one game (handed to Lethality)
            np.empty((3, s.n_cols), np.int64) if world.batch == 1 and live is None else _NO_ROWS)


def _entry() -> Callable[..., int]:
    """``_acting``'s compiled entry point: its one signature's (``ecs.kernels``) native
    wrapper, which unboxes arguments without checking their types - only for arguments
    the dispatcher has accepted."""
    global _ENTRY
    if _ENTRY is None:
        compiled = list(cast(Any, _acting).overloads.values())   # one, once ecs.kernels.ready ran
        if len(compiled) != 1:
            return _acting   # (not compiled yet in this process): the dispatcher
        _ENTRY = compiled[0].entry_point
    return _ENTRY


_ENTRY: Callable[..., int] | None = None


@kernel(I64, array(np.bool_, 1), INDEX, BOOL, I64, I64, I64, I64, I64, I64, I64, I64, array(np.bool_, 1),
        array(np.int64, 2), array(np.int64, 2, readonly=False),
        uses=(ceasing, pairs, pairs_at, over, over_at, dying, dying_at, losing))
def _acting(parts: int, live: np.ndarray, slots: np.ndarray, recheck: bool, capacity: int, n: int,
            plus: int, minus: int, loyalty_k: int, defense_k: int, poison_k: int, limit: int,
            capped: np.ndarray, table: np.ndarray, rows: np.ndarray) -> int:  # pragma: no cover
    """``acting`` compiled: the systems' own passes, asked only whether they find any; the
    rows ``dying`` finds, but those the host holds, are left in ``rows`` where they fit
    (one game: its one chunk), their number returned above ``_ROWS``. ``table``: the
    arrays of ``ARRAYS``.
    (Loops, not ``winner == ONGOING``, ``np.flatnonzero`` or ``.any()``: numba compiles
    each of those for this kernel alone, about 0.6 s of a cold start.)"""
    winner, zone, token, counts = view(table, _WINNER), view(table, _ZONE), view(table, _TOKEN), view(table, _COUNTS)
    damage, deathtouch, types = view(table, _DAMAGE), view(table, _DEATHTOUCH), view(table, _TYPES)
    toughness, keywords, hold = view(table, _TOUGHNESS), view(table, _KEYWORDS), view(table, _HOLD)
    set_t, mod_t = view(table, _SET_T), view(table, _MOD_T)
    tough_k, tough_mod, ind_k = view(table, _TOUGH_K), view(table, _TOUGH_MOD), view(table, _IND_K)
    cap_col, cap_kind, cap_val = view(table, _CAP_COL), view(table, _CAP_KIND), view(table, _CAP_VAL)
    life, player_col, holder = view(table, _LIFE), view(table, _PLAYER_COL), view(table, _HOLDER)
    safe_life, safe_poison = view(table, _SAFE_LIFE), view(table, _SAFE_POISON)
    lost, drew_empty = view(table, _LOST), view(table, _DREW_EMPTY)
    if live.size == 0:
        live = _ongoing(winner)
    games = np.empty(live.size, np.int64)
    m = 0
    for i in range(live.size):
        games[m] = i
        m += live[i]
    games = games[:m]
    found = 0
    if parts & MARKED and _marked(deathtouch, games):
        found |= MARKED
    # EmptyDraw's own guard: nobody tried to draw from an empty library (else it runs)
    if parts & EMPTY_DRAW and _some(drew_empty):
        found |= EMPTY_DRAW
    if recheck:   # the per-permanent passes look at the touched slots only
        if parts & ANNIHILATION and pairs_at(zone, counts[plus], counts[minus], slots,
                                             capacity, live)[0].size:
            found |= ANNIHILATION
        if parts & CAPS and over_at(counts, zone, cap_col, cap_kind, cap_val, slots, capped,
                                    live)[0].size:
            found |= CAPS
        if parts & DEATHS:
            g, c, _ = dying_at(zone, counts, damage, deathtouch, types, toughness, keywords,
                               set_t, mod_t, slots, capacity, live, tough_k, tough_mod, ind_k,
                               loyalty_k, defense_k)
            if _unheld(hold, g, c):
                found |= DEATHS
        parts &= ZONE_CHANGE | LOSSES | EMPTY_DRAW   # the per-game parts, below
    per = max(1, CHUNK_ELEMENTS // max(n, 1))
    for start in range(0, games.size, per):
        chunk = games[start:start + per]
        ask = parts & ~found
        if ask & ZONE_CHANGE and ceasing(token, zone, chunk, n)[0].size:
            found |= ZONE_CHANGE
        if ask & ANNIHILATION and pairs(zone, counts[plus], counts[minus], chunk, n)[0].size:
            found |= ANNIHILATION
        if ask & CAPS and over(counts, zone, cap_col, cap_kind, cap_val, chunk)[0].size:
            found |= CAPS
        if ask & DEATHS:
            g, c, r = dying(zone, counts, damage, deathtouch, types, toughness, keywords,
                            set_t, mod_t, chunk, n, tough_k, tough_mod, ind_k, loyalty_k,
                            defense_k)
            if _unheld(hold, g, c):
                found |= DEATHS
            if g.size <= rows.shape[1]:   # the permanents that die: those the host holds stay
                k = 0
                for i in range(g.size):
                    rows[0, k], rows[1, k], rows[2, k] = g[i], c[i], r[i]
                    k += not hold[g[i], c[i]]
                found |= k << _ROWS
        if ask & LOSSES and losing(life, counts, poison_k, player_col, holder, limit,
                                   safe_life, safe_poison, lost, chunk)[0].size:
            found |= LOSSES
        if found & parts == parts:
            break
    return found


@njit(cache=True, inline="always")
def _ongoing(winner: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """``winner == ONGOING``."""
    live = np.empty(winner.size, np.bool_)
    for g in range(winner.size):
        live[g] = winner[g] == ONGOING
    return live


@njit(cache=True, inline="always")
def _marked(marks: np.ndarray, games: np.ndarray) -> bool:  # pragma: no cover - compiled
    """Whether any of the (B, C) ``marks`` is set in the rows ``games``."""
    for g in games:
        for c in range(marks.shape[1]):
            if marks[g, c]:
                return True
    return False


@njit(cache=True, inline="always")
def _some(flags: np.ndarray) -> bool:  # pragma: no cover - compiled
    """Whether any of the 2-D ``flags`` is set."""
    for p in range(flags.shape[0]):
        for g in range(flags.shape[1]):
            if flags[p, g]:
                return True
    return False


@njit(cache=True, inline="always")
def _unheld(hold: np.ndarray, g: np.ndarray, c: np.ndarray) -> bool:  # pragma: no cover
    """Whether any of the rows (g, c) is not held by the host (``sba_hold``, 704.5v)."""
    for i in range(g.size):
        if not hold[g[i], c[i]]:
            return True
    return False


PROBE = Probe(acting, marks=True)
# Each class is covered here, where the probe is defined (the probe runs the passes of
# those modules, so they cannot name it themselves).
for _system, _part in ((ZoneChange, ZONE_CHANGE), (Annihilation, ANNIHILATION),
                       (CapEnforcement, CAPS), (Lethality, DEATHS | LOSSES),
                       (EmptyDraw, EMPTY_DRAW)):
    PROBE.cover(_system, _part)
