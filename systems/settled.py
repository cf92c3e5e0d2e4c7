"""The pre-check of the rulesets' state-based systems: which of them would decide anything.

One compiled call (``acting``) runs the compiled passes of ZoneChange, Annihilation,
CapEnforcement, Lethality and the Grand Archive's checks themselves (and EmptyDraw's
guard) - the same functions their ``process`` calls, so each rule is declared once - over
the games a check looks at, and reports which of them found something. The schedule
(``ecs.schedule``) then runs only those systems: a settled check (nothing to do, the
common case in a game loop) is this one call, where the systems took some 35 us of Python
glue and kernel dispatch on a 100-object game (about 100 us for Grand Archive's).

The systems' passes return what they found; here only whether it is empty counts. Games
are taken a chunk at a time, and the pass stops at the first chunk after which every
asked part has been found acting. On a wide check (``WIDE``, ``WIDE_TOUCHED``) it
answers "all" without looking: the systems then run as they would without it.

Its kernel is optional (``ecs.kernels``): compiled for a World of one game, whose settled
ticks it is for, and otherwise only loaded if cached. Batched runs do without it (the
Monte Carlo job: as fast within noise, and a cold first run does not compile it); where
it is not compiled the probe answers "all", as where wide.
"""
from __future__ import annotations

import operator
import threading
from typing import Any, Callable, cast

import numpy as np
from numba import njit

from ecs import kernels, store
from ecs.check import MARKED, Probe
from ecs.game import Game
from ecs.kernels import BOOL, I64, INDEX, TABLE, array, at, empty, head, kernel, reads
from ecs.perform import ONGOING

from .annihilation import Annihilation, pairs, pairs_at
from .base import CHUNK_ELEMENTS
from .cap_enforcement import CapEnforcement, over, over_at
from .empty_draw import EmptyDraw
from .ga_checks import FALLING_READS, PROBED_FALLING, GAStateChecks, champions_gone, falling
from .lethality import (
    DYING_KINDS,
    DYING_READS,
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
ZONE_CHANGE, ANNIHILATION, CAPS, DEATHS, LOSSES, EMPTY_DRAW, GA_CHECKS = 1, 2, 4, 8, 16, 32, 64
# Objects (a first check: games x columns; a re-check: touched slots, read scattered) above
# which the probe stands aside: its fixed-cost saving is noise there, and where the
# systems act it would make their passes twice (1024x200 acting ticks: 7% slower with it).
WIDE, WIDE_TOUCHED = CHUNK_ELEMENTS, 2_048
_NONE = np.zeros(0, np.int64)
_NO_CAPS = np.zeros(0, np.bool_)
_EVERY = np.zeros(0, np.bool_)   # as ``live``: every ongoing game


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
    # A first check (the settled tick's only one): its arguments (the arrays actions write,
    # and an address table of the others and of values of the layout and kind names) are
    # cached under all three, and the kernel is called through its compiled entry point,
    # skipping numba's typing (the dispatcher typed these when they were cached). A
    # two-headed game's player rules are read from the flags' values: not cached. The
    # ruleset too: the planes and changes per counter the passes read are its (``rule_kinds``).
    key = (s.a.version, s.layout, s.kinds_layout, parts, world.ruleset)   # (``arrays_version``, without its call)
    cached: tuple[tuple[Any, ...], tuple[Any, ...]] | int
    if s.memo[0] == key:
        cached = s.memo[1]
        if not isinstance(cached, tuple):
            return cached
        call = _ENTRY or _entry()
    else:
        cached = _rearmed(s, key) or _arguments(world, None, None, parts)
        s.memo = (key, cached)
        if not isinstance(cached, tuple):
            return cached
        call = _acting
    rows = cached[0][-1]
    if rows is not getattr(_SCRATCH, "rows", _NO_ROWS) and s.batch == 1:   # (``_room``)
        cached = ((*cached[0][:-1], _room(s.n_cols)), cached[1])
        s.memo, rows = (key, cached), cached[0][-1]
    found = int(call(*cached[0]))
    if not found:   # settled (no module global read on the way: each is a cache miss in a cold tick)
        return 0
    if memo is None or not rows.shape[1] or not store.SCALAR_PATHS:
        return found & _BITS
    # (the general paths, which the tests compare, find what follows again)
    if found & (DEATHS | LOSSES) and parts & DEATHS:
        # Lethality will run: the permanents that die, in a one-game check's one chunk
        memo[PROBED_DYING] = rows[:, : found >> _ROWS].copy()
        if not found & LOSSES:
            memo[NO_LOSSES] = True
    elif found & GA_CHECKS and found >> _ROWS:
        # GAStateChecks will run, in a game that goes on and that nobody leaves: what falls
        memo[PROBED_FALLING] = rows[:, : found >> _ROWS].copy()
    return found & _BITS


def _ask(world: Game, live: np.ndarray | None, touched: np.ndarray | None, parts: int) -> int:
    made = _arguments(world, live, touched, parts)
    return int(_acting(*made[0])) & _BITS if isinstance(made, tuple) else made


# ``_acting`` returns the bits found, and above ``_ROWS`` how many rows it left in ``rows``.
_ROWS = 32
_BITS = (1 << _ROWS) - 1
_NO_ROWS = np.zeros((3, 0), np.int64)
_SCRATCH = threading.local()


def _room(n: int) -> np.ndarray:
    """The room for the rows dying in a first check of one game of ``n`` columns (handed
    to Lethality, copied before ``acting`` returns): this thread's, one buffer for every World
    it checks. A clone holding a room of its own would cost a search 24 KB a node at 1,000
    objects; one held in arguments a clone shares with its source, written by two threads at
    once, would give each the other's dying permanents. ``acting`` calls with this thread's."""
    rows: np.ndarray = getattr(_SCRATCH, "rows", _NO_ROWS)
    if rows.shape[1] < n:
        rows = _SCRATCH.rows = np.empty((3, max(n, 2 * rows.shape[1])), np.int64)
    return rows


_PROBE_TABLE = "settled probe"   # its key in ``Store.tables``, with the kinds layout
#: The probe's tables kept at once, one per kinds layout, the least used lately evicted
#: (``Store.tables`` is one dict for a store and its clones): a search's clones of a root,
#: some of which made a new kind plane (a first -1/-1 counter), would otherwise remake the
#: table from one clone to the next.
_TABLES_KEPT = 4


def _arguments(world: Game, live: np.ndarray | None, touched: np.ndarray | None,
               parts: int) -> tuple[tuple[Any, ...], tuple[Any, ...]] | int:
    """``_acting``'s arguments for ``acting`` and the values of their address table (held
    by whoever calls with them), or its answer where no pass needs to run. The table is
    the one last made in this store or a clone of it (``Store.tables``) where its arrays
    are the same objects: an action's copy on write (in a clone) replaces arrays passed as
    arguments, not those of the table."""
    if not kernels.frozen(_acting):   # not compiled in this process (a batched run's)
        return parts   # as where wide: all of them run
    s = world.store
    a = s.a
    plus, minus = s.kind_index.get("+1/+1", -1), s.kind_index.get("-1/-1", -1)
    if plus < 0 or minus < 0:   # Annihilation returns at once
        parts &= ~ANNIHILATION
    if a["cap_col"].size == 0:  # CapEnforcement returns at once
        parts &= ~CAPS
    if s.n_players == 0:        # no player to lose
        parts &= ~(LOSSES | EMPTY_DRAW)
    if not parts:
        return 0
    if world.batch * s.n_cols > WIDE if touched is None else touched.size > WIDE_TOUCHED:
        return parts   # the systems' passes dominate there (see WIDE): all of them run
    capped = s.capped_columns() if touched is not None and parts & CAPS else _NO_CAPS
    holder, limit, safe_life, safe_poison = player_rules(world)
    tough_k, tough_mod, ind_k, loyalty_k, defense_k = rule_kinds(world)
    kept = ((a["token"], a["types"], a["toughness"], a["keywords"], a["pt_set_toughness"],
             a["pt_mod_toughness"], a["sba_hold"], tough_k, tough_mod, ind_k, a["cap_col"], a["cap_kind"],
             a["player_col"], holder, safe_life, safe_poison, a["drew_empty"], a["durability"],
             a["immortal"], a["controller"], a["champion_left"]),
            (s.capacity, s.n_cols, plus, minus, loyalty_k, defense_k, s.kind_index.get("poison", -1),
             limit, s.kind_index.get("damage", -1), s.kind_index.get("durability", -1)))
    last = _table(s)
    if last is not None and all(map(operator.is_, kept[0], last[0][0])) and kept[1] == last[0][1]:
        kept, table = last[0], last[1]
    else:
        # (the dict is shared with clones, which may play in other threads: its keys are
        # read in one call, and a table another thread dropped meanwhile is None)
        near = last or next((t for k in reversed(list(s.tables))
                             if k[0] == _PROBE_TABLE and (t := s.tables.get(k)) is not None), None)
        table = kernels.addresses((*kept[0], *kept[1]), _TABLE,
                                  None if near is None else ((*near[0][0], *near[0][1]), near[1]))
        made = {id(arr) for arr in kept[0]}
        held = [(name, arr) for name, arr in a.items() if id(arr) in made]
        s.tables[(_PROBE_TABLE, s.kinds_layout)] = (kept, table, tuple(name for name, _ in held),
                                                    tuple(arr for _, arr in held))
        mine = [k for k in list(s.tables) if k[0] == _PROBE_TABLE]
        for k in mine[: max(len(mine) - _TABLES_KEPT, 0)]:
            s.tables.pop(k, None)
    return (parts, table, _EVERY if live is None else live, _NONE if touched is None else touched,
            touched is not None, capped, *_written(s),
            # room for the rows dying in a first check of one game (handed to Lethality)
            _room(s.n_cols) if world.batch == 1 and live is None else _NO_ROWS), kept


def _written(s: store.Store) -> tuple[np.ndarray, ...]:
    """The arrays a single game's actions write, passed as ``_acting``'s own arguments."""
    a = s.a
    return a["winner"], a["zone"], s.counts, a["damage"], a["deathtouch_hit"], a["cap_val"], a["life"], a["lost"]


def _rearmed(s: store.Store, key: tuple[Any, ...]) -> tuple[tuple[Any, ...], tuple[Any, ...]] | None:
    """The arguments last cached (``acting``) with the written arrays the store holds now,
    where nothing else they name changed: the same layouts, parts and ruleset, and the store's
    arrays in the address table still the store's. A clone's first check after its actions
    copied what they write (copy on write) so skips ``_arguments``."""
    last_key, cached = s.memo
    if not isinstance(cached, tuple) or last_key[1:] != key[1:]:
        return None
    args, kept = cached
    last = _table(s)
    if last is None or last[0] is not kept or not all(map(operator.is_, map(s.a.__getitem__, last[2]), last[3])):
        return None
    return (*args[:6], *_written(s), args[-1]), kept   # (the room: ``acting`` checks it is this thread's)


def _table(s: store.Store) -> tuple[Any, ...] | None:
    """The probe's table of the store's kinds layout (``Store.tables``), if kept, marked the
    last used (``_TABLES_KEPT``)."""
    slot = (_PROBE_TABLE, s.kinds_layout)
    last = s.tables.pop(slot, None)
    if last is not None:
        s.tables[slot] = last
    return last


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


# The rows of ``_acting``'s address table (``ecs.kernels.addresses``), in ``_arguments``'s
# order: the arrays a single game's actions do not replace (a copy on write in a clone
# replaces the written ones, which are arguments of their own), then the ints.
_TABLE = (reads("token"), *DYING_READS[4:], reads("sba_hold"), *DYING_KINDS[:3], reads("cap_col"),
          reads("cap_kind"), reads("player_col"), array(np.int32, 1), reads("cant_lose_life"),
          reads("cant_lose_poison"), reads("drew_empty"), *FALLING_READS[5:7], reads("controller"),
          reads("champion_left"), *(I64,) * 10)


@kernel(I64, TABLE, array(np.bool_, 1), INDEX, BOOL, array(np.bool_, 1), reads("winner"), reads("zone"),
        reads("counts"), reads("damage"), reads("deathtouch_hit"), reads("cap_val"), reads("life"),
        reads("lost"), array(np.int64, 2, readonly=False),
        uses=(ceasing, pairs, pairs_at, over, over_at, dying, dying_at, losing, falling, champions_gone),
        optional=True)
def _acting(parts: int, table: np.ndarray, live: np.ndarray, slots: np.ndarray, recheck: bool,
            capped: np.ndarray, winner: np.ndarray, zone: np.ndarray, counts: np.ndarray,
            damage: np.ndarray, deathtouch: np.ndarray, cap_val: np.ndarray, life: np.ndarray,
            lost: np.ndarray, rows: np.ndarray) -> int:  # pragma: no cover - compiled
    """``_decide`` of the arguments and the table's rows (``_TABLE``): 14 arrays to unbox
    in a call, where there were 30 (after other work, a few cache misses each)."""
    t = _TABLE
    return _decide(parts, winner, live, slots, recheck, table[21, 0], table[22, 0], zone,
                   at(table, 0, t[0]), counts, damage, deathtouch, at(table, 1, t[1]), at(table, 2, t[2]),
                   at(table, 3, t[3]), at(table, 4, t[4]), at(table, 5, t[5]), at(table, 6, t[6]),
                   table[23, 0], table[24, 0], at(table, 7, t[7]), at(table, 8, t[8]), at(table, 9, t[9]),
                   table[25, 0], table[26, 0], at(table, 10, t[10]), at(table, 11, t[11]), cap_val,
                   capped, life, table[27, 0], at(table, 12, t[12]), at(table, 13, t[13]), table[28, 0],
                   at(table, 14, t[14]), at(table, 15, t[15]), lost, at(table, 16, t[16]),
                   at(table, 17, t[17]), at(table, 18, t[18]), at(table, 19, t[19]), at(table, 20, t[20]),
                   table[29, 0], table[30, 0], rows)


# Not cached on its own: it calls the kernels ``_acting`` uses by their symbols, whose names
# hold the number of the process's compile that made them; numba's key of a cached
# ``_decide`` would not see a callee compiled anew under another (``_acting``'s own key does,
# ``kernels._keyed``), and linking it would abort the process. It is compiled with
# ``_acting`` and cached inside it.
@njit(cache=False)
def _decide(parts: int, winner: np.ndarray, live: np.ndarray, slots: np.ndarray,
            recheck: bool, capacity: int, n: int, zone: np.ndarray, token: np.ndarray,
            counts: np.ndarray, damage: np.ndarray, deathtouch: np.ndarray, types: np.ndarray,
            toughness: np.ndarray, keywords: np.ndarray, set_t: np.ndarray, mod_t: np.ndarray,
            hold: np.ndarray, plus: int, minus: int, tough_k: np.ndarray,
            tough_mod: np.ndarray, ind_k: np.ndarray, loyalty_k: int, defense_k: int,
            cap_col: np.ndarray, cap_kind: np.ndarray, cap_val: np.ndarray,
            capped: np.ndarray, life: np.ndarray, poison_k: int, player_col: np.ndarray,
            holder: np.ndarray, limit: int, safe_life: np.ndarray, safe_poison: np.ndarray,
            lost: np.ndarray, drew_empty: np.ndarray, durability: np.ndarray, immortal: np.ndarray,
            controller: np.ndarray, champion_left: np.ndarray, damage_k: int, durability_k: int,
            rows: np.ndarray) -> int:  # pragma: no cover
    """``acting`` compiled: the systems' own passes, asked only whether they find any; the
    rows ``dying`` finds, but those the host holds, are left in ``rows`` where they fit
    (one game: its one chunk), their number returned above ``_ROWS``.
    (Loops, not ``winner == ONGOING``, ``np.flatnonzero`` or ``.any()``: numba compiles
    each of those for this kernel alone, about 0.6 s of a cold start.)"""
    if live.size == 0:
        live = _ongoing(winner)
    games = empty(live.size, np.int64)
    m = 0
    for i in range(live.size):
        games[m] = i
        m += live[i]
    games = head(games, m)
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
        parts &= ZONE_CHANGE | LOSSES | EMPTY_DRAW | GA_CHECKS   # the per-game parts, below
    per = CHUNK_ELEMENTS // n if n > 1 else CHUNK_ELEMENTS
    per = per if per > 1 else 1
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
        # The Grand Archive's checks, over every object of the games (as GAStateChecks looks;
        # a re-check too): a draw from an empty deck and a player who lost (whose objects
        # leave, Ending the Game 7) are taken as acting without looking further
        if ask & GA_CHECKS:
            if (_marked(drew_empty, chunk) or _marked(lost, chunk)
                    or champions_gone(types, zone, controller, champion_left, lost, chunk, n)[0].size):
                found |= GA_CHECKS
            else:   # no game ends and no player leaves: what falls is the whole decision
                g, c, r = falling(zone, counts, damage, types, toughness, durability, immortal,
                                  set_t, mod_t, chunk, n, tough_k, tough_mod, damage_k, durability_k)
                if g.size:
                    found |= GA_CHECKS
                    if g.size <= rows.shape[1] and not parts & DEATHS:   # (rows: Lethality's first)
                        for i in range(g.size):
                            rows[0, i], rows[1, i], rows[2, i] = g[i], c[i], r[i]
                        found |= g.size << _ROWS
        if found & parts == parts:
            break
    return found


@njit(cache=True, inline="always")
def _ongoing(winner: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """``winner == ONGOING``."""
    live = empty(winner.size, np.bool_)
    for g in range(winner.size):
        live[g] = winner[g] == ONGOING
    return live


@njit(cache=True, inline="always")
def _marked(marks: np.ndarray, games: np.ndarray) -> bool:  # pragma: no cover - compiled
    """Whether any of the (B, C) ``marks`` is set in the rows ``games``. A row's flags are
    joined in a loop without a branch, which the compiler vectorizes (a return at the
    first flag set kept it scalar: some 0.5 us of a 1,000-column row)."""
    for g in games:
        row, seen = marks[g], False
        for c in range(row.size):
            seen |= row[c]
        if seen:
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
                       (EmptyDraw, EMPTY_DRAW), (GAStateChecks, GA_CHECKS)):
    PROBE.cover(_system, _part)
