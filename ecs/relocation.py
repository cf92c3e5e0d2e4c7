"""Zone relocation: how objects change zones (CR 400.7, 122.2), for every cause.

Actions (destroy, sacrifice, move_zone, draw, mill) and the state-based actions that
perform moves all go through ``move_objects``. A moved object becomes a new object with a
new id (one per column and destination, shared by every game in which it moved) in the
same slot: the card keeps its characteristics; its counters, marks and effects cease to
exist without "removed" events, and the zone-change event carries its last-known counters.
An object that ceases to exist (a token leaving the battlefield) frees its slot.
Replacement effects on the way: the ruleset's own (Grand Archive champions are banished
instead), a host's redirect of a dying permanent (``ecs.host.set_redirect``), then
finality (122.1h). The new object is its owner's, under its owner's control (110.2,
400.7), and the host's per-object effects end with the old one.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from . import zones
from .components import HOST_OBJECT_FIELDS, OBJECT_STATE_FIELDS
from .counting import enter_battlefield
from .events import CAUSE, ZONE
from .game import Game
from .prefetch import AHEAD, prefetch_read, prefetch_write


def move_objects(world: Game, games: np.ndarray, cols: np.ndarray, dest: np.ndarray,
                 cause: str | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Move objects (one row per distinct (game, column); ``cause`` a name or per-row CAUSE
    codes); returns the new id of each row (-1 when it ceased to exist) and the zone it
    went to, replacement effects applied. Records events with LKI."""
    s, log = world.store, world.log
    # contiguous int64 rows: one compiled signature per kernel (each costs a compile)
    games, cols = np.ascontiguousarray(games, np.int64), np.ascontiguousarray(cols, np.int64)
    frm = _zones_at(s.a["zone"], games, cols)
    dest = world.ruleset.replace_zone_change(world, games, cols, frm, dest.astype(np.int64))  # a copy
    # "If it would die, put it into <zone> instead" (a host's replacement, 614.1a): before
    # finality, whose exile then only replaces what still goes to the graveyard.
    redirect = s.a["redirect"][games, cols].astype(np.int64)
    dies = (frm == zones.BATTLEFIELD) & (dest == zones.GRAVEYARD) & (redirect >= 0)
    if dies.any():
        dest[dies] = redirect[dies]
    # CR 122.1h: finality counters turn battlefield -> graveyard into exile.
    fin = s.plane("finality")
    if fin is not None:
        to_exile = (frm == zones.BATTLEFIELD) & (dest == zones.GRAVEYARD) & (fin[games, cols] > 0)
        dest[to_exile] = zones.EXILE
    old_ids = s.a["entity_id"][games, cols]

    # New objects: one id per distinct (old id, destination), shared across the games it
    # moved in, in the slot the old object leaves (an id names one card in every game).
    new_ids = np.full(games.size, -1, np.int64)
    arrive = dest != zones.NONE
    every = bool(arrive.all())   # rows that arrive somewhere: usually all of them
    ga, ca, da = (games, cols, dest) if every else (games[arrive], cols[arrive], dest[arrive])
    if ga.size:
        # one game: its rows are distinct objects, so the keys are distinct too
        old = old_ids if every else old_ids[arrive]
        uniq, inv = _unique_inverse(old * zones.RADIX + da, s.next_id * zones.RADIX,
                                    distinct=s.batch == 1)
        col = np.empty(uniq.size, np.int64)
        col[inv] = ca                      # each new object's slot: its old one's
        ids = s.reissue(col)[inv]
        if every:
            new_ids = ids
        else:
            new_ids[arrive] = ids

    rows = log.record(ZONE, CAUSE[cause] if isinstance(cause, str) else cause, game=games,
                      entity=old_ids, other=new_ids, from_zone=frm, to_zone=dest,
                      fresh=("entity", "other", "from_zone"))
    r, k, had = _relocate(s.mut("counts"), s.n_kinds, games, cols, dest, s.mut("zone"),
                          s.mut("tapped"), s.mut("damage"), s.mut("deathtouch_hit"),
                          s.capped_columns(), s.a["cap_col"], s.mut("cap_val"))
    log.record_lki(rows[r], k, had)
    if ga.size:
        s.mut("entity_id")[ga, ca] = new_ids if every else new_ids[arrive]
        _new_object_state(world, ga, ca)
    _end_host_effects(world, games, cols)
    if not every:   # what ceased to exist frees its slot
        s.release(games[~arrive], cols[~arrive])

    # Entering the battlefield with counters (122.6, 306.5b, 310.4b, and the ruleset's own).
    enter = dest == zones.BATTLEFIELD
    if enter.any():
        enter_battlefield(world, games[enter], cols[enter], None)
    return new_ids, dest


#: Object state _relocate does not reset itself: it ends with the object too (400.7).
_OTHER_STATE = tuple(f for f in OBJECT_STATE_FIELDS
                     if f.name not in ("zone", "tapped", "damage", "deathtouch_hit"))


def _new_object_state(world: Game, games: np.ndarray, cols: np.ndarray) -> None:
    """The new objects in the slots (``games``, ``cols``): the rest of the old object's
    state ends (a library position, Immortality), and a control change ends: the new object
    is its owner's (110.2)."""
    s = world.store
    for f in _OTHER_STATE:
        left = s.a[f.name][games, cols] != f.fill
        if left.any():
            s.mut(f.name)[games[left], cols[left]] = f.fill
    owner = s.a["owner"][games, cols]
    changed = owner >= 0
    if changed.any():
        g, c = games[changed], cols[changed]
        s.mut("controller")[g, c] = owner[changed]
        s.mut("owner")[g, c] = -1


def _end_host_effects(world: Game, games: np.ndarray, cols: np.ndarray) -> None:
    """The host's per-object effects end with the object (400.7): its old slots get the
    fill values back (read first: writing would copy an array a clone still shares)."""
    s = world.store
    for f in HOST_OBJECT_FIELDS:
        left = s.a[f.name][games, cols] != f.fill
        if left.any():
            s.mut(f.name)[games[left], cols[left]] = f.fill


@njit(cache=True)
def _relocate(counts: np.ndarray, n_kinds: int, games: np.ndarray, cols: np.ndarray,
              dest: np.ndarray, zone: np.ndarray, tapped: np.ndarray,
              damage: np.ndarray, deathtouch: np.ndarray, capped: np.ndarray, cap_col: np.ndarray,
              cap_val: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """Move each row's object in its slot (``games[i]``, ``cols[i]``) to zone ``dest[i]``
    (0: it ceased to exist): its counters cease to exist (122.2), its tapped state, marked
    damage and deathtouch mark are cleared, and its caps end (122.4; ``capped``: the
    columns with cap entries). Returns the counters it had as (row, kind, count), row by
    row: the last-known information. Rows outer, kinds inner: each slot's lines are visited
    once (a kind-major walk streamed every plane per kind).
    The lines of the slot ``AHEAD`` rows on are prefetched (ecs.prefetch: 2.9 -> 1.0 ms
    at 4096x200, where the walk waited on each slot's misses in turn).
    (reshape makes views of the C-contiguous store arrays; numba raises on any other.)"""
    cap = zone.shape[1]
    planes = counts.reshape(counts.shape[0], -1)
    counts_f, plane_size = counts.reshape(-1), planes.shape[1]
    zone_f, tapped_f = zone.reshape(-1), tapped.reshape(-1)
    damage_f, deathtouch_f = damage.reshape(-1), deathtouch.reshape(-1)
    out_r = np.empty(n_kinds * games.size, np.int64)
    out_k = np.empty(n_kinds * games.size, np.int64)
    out_v = np.empty(n_kinds * games.size, np.int64)
    m = 0
    for i in range(games.size):
        if i + AHEAD < games.size:   # the slot of a row ahead: read its counts, clear the rest
            b = games[i + AHEAD] * cap + cols[i + AHEAD]
            for k in range(n_kinds):
                prefetch_read(counts_f, k * plane_size + b)
            prefetch_write(zone_f, b)
            prefetch_write(tapped_f, b)
            prefetch_write(damage_f, b)
            prefetch_write(deathtouch_f, b)
        g, c = games[i], cols[i]
        a = g * cap + c
        for k in range(n_kinds):
            v = planes[k, a]
            if v != 0:
                out_r[m], out_k[m], out_v[m] = i, k, v
                m += 1
                planes[k, a] = 0
        zone_f[a], tapped_f[a], damage_f[a], deathtouch_f[a] = dest[i], False, 0, False
        if capped[c]:
            for e in range(cap_col.size):
                if cap_col[e] == c:
                    cap_val[g, e] = -1
    return out_r[:m], out_k[:m], out_v[:m]




@njit(cache=True)
def _zones_at(zone: np.ndarray, games: np.ndarray,
              cols: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """The zone codes of the slots (``games[i]``, ``cols[i]``), as int64 (one pass, where
    NumPy took a flat index, a take and a cast), prefetching the row ``AHEAD`` on."""
    out = np.empty(games.size, np.int64)
    cap, zone_f = zone.shape[1], zone.reshape(-1)
    for i in range(games.size):
        if i + AHEAD < games.size:
            prefetch_read(zone_f, games[i + AHEAD] * cap + cols[i + AHEAD])
        out[i] = zone[games[i], cols[i]]
    return out


def _unique_inverse(key: np.ndarray, size: int, distinct: bool) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(key, return_inverse=True)`` for ints in [0, size): for keys known to be
    ``distinct`` a sort and its inverse permutation; else through a lookup table when it is
    small against the rows (no sort, and far less fixed cost on small boards)."""
    if distinct:
        order = key.argsort()
        inv = np.empty(key.size, np.int64)
        inv[order] = np.arange(key.size)
        return key[order], inv
    if size > 16 * key.size + 4096:
        return np.unique(key, return_inverse=True)
    seen = np.zeros(size, bool)
    seen[key] = True
    uniq = np.flatnonzero(seen)
    rank = np.empty(size, np.int64)
    rank[uniq] = np.arange(uniq.size)
    return uniq, rank[key]

