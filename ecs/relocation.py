"""Zone relocation: how objects change zones (CR 400.7, 122.2), for every cause.

Actions (destroy, sacrifice, move_zone, draw, mill) and the state-based actions that
perform moves all go through ``move_objects`` (one row: ``move_one``, the same steps in plain
ints, which the single-game actions call directly). A moved object becomes a new object with a
new id (one per old id and destination, shared by the games in which it moved together)
in the same slot: the card keeps its characteristics; its counters, marks and effects cease to
exist without "removed" events, and the zone-change event carries its last-known counters.
An object that ceases to exist (a token leaving the battlefield) frees its slot.
Replacement effects on the way: the ruleset's own (Grand Archive champions are banished
instead), a host's redirect of a dying permanent (``ecs.host.set_redirect``), then
finality (122.1h); a card they send to the zone it is in stays, the same object (no zone
change: a champion in banishment sent to the graveyard, GA Champion 8; its new id is -1).
The new object is its owner's, under its owner's control (110.2, 400.7), and the host's
per-object effects end with the old one.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from . import library, zones
from . import store as store_module
from .components import HOST_OBJECT_FIELDS, OBJECT_STATE_FIELDS
from .components.game import NO_CAP
from .counting import FEW_CAPS, enter_battlefield, enter_battlefield_one, scalar_hook, slot_ids
from .events import CAUSE, ZONE, zone_kind
from .game import Game
from .kernels import I64, INDEX, array, empty, flat, grown, head, kernel, reads, room, writes
from .prefetch import AHEAD, prefetch_read, prefetch_write


def move_objects(world: Game, games: np.ndarray, cols: np.ndarray, dest: np.ndarray,
                 cause: str | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Move objects (one row per distinct (game, column); ``cause`` a name or per-row CAUSE
    codes); returns the new id of each row (-1 when it ceased to exist) and the zone it
    went to, replacement effects applied. Records events with LKI."""
    if games.size == 1 and store_module.SCALAR_PATHS:   # one row (a single game's action or death)
        new, to = move_one(world, int(games[0]), int(cols[0]), int(dest[0]),
                           CAUSE[cause] if isinstance(cause, str) else int(cause[0]))
        return np.array([new], np.int64), np.array([to], np.int64)
    s = world.store
    # contiguous int64 rows: one compiled signature per kernel (each costs a compile)
    games, cols = np.ascontiguousarray(games, np.int64), np.ascontiguousarray(cols, np.int64)
    at = games * s.capacity + cols   # flat slots: a take is several times a 2-D gather's speed
    frm, lki_code = _leaving(s.a["zone"], s.a["types"], s.a["token"], games, cols)
    dest = world.ruleset.replace_zone_change(world, games, cols, frm, dest.astype(np.int64))  # a copy
    # "If it would die, put it into <zone> instead" (a host's replacement, 614.1a): before
    # finality, whose exile then only replaces what still goes to the graveyard.
    if not s.at_fill("redirect"):
        redirect = _take(s.a["redirect"], at).astype(np.int64)
        dies = (frm == zones.BATTLEFIELD) & (dest == zones.GRAVEYARD) & (redirect >= 0)
        if dies.any():
            dest[dies] = redirect[dies]
    # CR 122.1h: finality counters turn battlefield -> graveyard into exile.
    fin = s.kind_index.get("finality")
    if fin is not None:
        had = _take(s.counts[fin], at) > 0
        to_exile = (frm == zones.BATTLEFIELD) & (dest == zones.GRAVEYARD) & had
        dest[to_exile] = zones.EXILE
    kept = dest == frm
    if kept.any():   # a replacement sent a card to the zone it is in: no zone change (GA Champion 8)
        go = ~kept
        new_ids = np.full(games.size, -1, np.int64)
        if go.any():
            new_ids[go] = _moved(world, games[go], cols[go], at[go], frm[go], dest[go],
                                 cause if isinstance(cause, str) else cause[go], lki_code[go])
        return new_ids, dest
    return _moved(world, games, cols, at, frm, dest, cause, lki_code), dest


def _moved(world: Game, games: np.ndarray, cols: np.ndarray, at: np.ndarray, frm: np.ndarray,
           dest: np.ndarray, cause: str | np.ndarray, lki_code: np.ndarray) -> np.ndarray:
    """``move_objects`` of rows whose destinations are decided (``frm`` the zones they
    leave, ``at`` their flat slots, ``lki_code`` their zone rows' ``kind``): the new ids."""
    s, log = world.store, world.log
    old_ids = slot_ids(world, at)

    # New objects: one id per distinct (old id, destination), shared across the games it
    # moved in, in the slots the old object leaves (an id names one card in every game).
    new_ids = np.full(games.size, -1, np.int64)
    arrive = dest != zones.NONE
    every = bool(arrive.all())   # rows that arrive somewhere: usually all of them
    ga, ca, da, old = ((games, cols, dest, old_ids) if every
                       else (games[arrive], cols[arrive], dest[arrive], old_ids[arrive]))
    if ca.size:
        ids = s.reissue_for(old, ga, ca, da)
        if every:
            new_ids = ids
        else:
            new_ids[arrive] = ids

    # (a zone row's ``before``: its last-known controller's index + 1, ``after`` its name's
    # index + 1; 0, none, in older files and while the World has named no card; ``kind``
    # its types and token flag, events.zone_kind)
    named = np.add(_take(s.a["name_id"], at), 1, dtype=np.int64) if len(world.names) else 0
    rows = log.record(ZONE, CAUSE[cause] if isinstance(cause, str) else cause, game=games,
                      entity=old_ids, kind=lki_code, before=s.a["controller"].reshape(-1)[at] + 1,
                      after=named, other=new_ids, from_zone=frm, to_zone=dest,
                      fresh=("entity", "kind", "before", "after", "other", "from_zone"))
    r, k, had = _relocate(s.mut("counts"), s.n_kinds, games, cols, dest, s.mut("zone"),
                          s.mut("tapped"), s.mut("damage"), s.mut("deathtouch_hit"),
                          s.capped_columns(), s.a["cap_col"], s.mut("cap_val"))
    log.record_lki(rows[r], k, had)
    s.mut("entity_id").reshape(-1)[at] = new_ids   # -1, the fill, where none arrived
    _end_object_state(world, at, arrive)
    if not every:   # what ceased to exist frees its slot
        s.release(at[~arrive])
    shelved = dest == zones.LIBRARY
    if shelved.any():
        library.arrive(world, games[shelved], cols[shelved])

    # Entering the battlefield with counters (122.6, 306.5b, 310.4b, and the ruleset's own).
    enter = dest == zones.BATTLEFIELD
    if enter.any():
        enter_battlefield(world, games[enter], cols[enter])
    return new_ids


_REPLACE = ("replace_zone_change",)


def move_one(world: Game, g: int, col: int, dest: int, code: int) -> tuple[int, int]:
    """``move_objects`` of one row in plain ints (``code``: a CAUSE code): the same steps,
    rule by rule, without gathers, kernel calls and an event chunk, which cost a one-row
    move some 150 us; values are read and written through the store's views (``Store.
    views``). The ruleset's zone-change replacement is its plain-int form
    (``replace_zone_change_one``)."""
    s, log = world.store, world.log
    v = s.views()
    frm = v["zone"][g, col]
    replace = scalar_hook(world, "replace_zone_change_one", _REPLACE)
    if replace is not None:
        dest = replace(world, g, col, frm, dest)
    else:   # (a subclass replaced the hook alone: its own, given (1,) arrays)
        dest = int(world.ruleset.replace_zone_change(
            world, np.array([g], np.int64), np.array([col], np.int64), np.array([frm], np.int64),
            np.array([dest], np.int64))[0])
    if frm == zones.BATTLEFIELD and dest == zones.GRAVEYARD:
        redirect = v["redirect"][g, col]   # a host's "if it would die" (614.1a), then 122.1h
        dest = redirect if redirect >= 0 else dest
        fin = s.kind_index.get("finality")
        if dest == zones.GRAVEYARD and fin is not None and v["counts"][fin, g, col] > 0:
            dest = zones.EXILE
    elif dest == frm:   # a replacement sent it to its own zone (GA Champion 8)
        return -1, dest
    old = v["entity_id"][g, col]
    new = s.reissue_one(col) if dest != zones.NONE else -1
    log.one(ZONE, code, g, old, zone_kind(v["types"][g, col], v["token"][g, col]),
            v["controller"][g, col] + 1, v["name_id"][g, col] + 1, new, frm, dest)
    # what _relocate does: counters cease to exist (122.2) into the event's LKI, caps end
    # (122.4), state cleared (with the rest, _end_object_state); read first, written only
    # where it changes (a clone shares the arrays)
    counts = v["counts"]
    kinds, had = [], []
    for k in range(len(s.kind_names)):   # (a loop, not comprehensions: no frames of their own)
        n = counts[k, g, col]
        if n:
            kinds.append(k)
            had.append(n)
    if kinds:
        log.lki_one(log.rows - 1, kinds, had)
        for k in kinds:
            s.write("counts", (k, g, col), 0)
    s.write("zone", (g, col), dest)
    capped = v["cap_col"]   # (a few entries, searched as a list: cheaper than a ufunc, cold or hot)
    if len(capped) > FEW_CAPS or capped and col in capped.tolist():
        cap_col = s.a["cap_col"]
        caps = (cap_col == col).nonzero()[0]
        if caps.size and (s.a["cap_val"][g, caps] != NO_CAP).any():
            s.mut("cap_val")[g, caps] = NO_CAP
    s.write("entity_id", (g, col), new)
    # _end_object_state of the slot, with the tapped state, damage and deathtouch mark
    s.reset_one(g, col, _ENDING_ONE)
    owner = s.views()["owner"][g, col]
    if owner >= 0 and dest != zones.NONE:
        s.write("controller", (g, col), owner)
        s.write("owner", (g, col), -1)
    if dest == zones.NONE:   # it ceased to exist: its slot is free
        s.release(np.array([g * s.capacity + col], np.int64))
    if dest == zones.LIBRARY:
        library.arrive_one(world, g, [col])
    if dest == zones.BATTLEFIELD:
        enter_battlefield_one(world, g, [col])
    return new, dest


def _take(arr: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The values of a (B, C) array at flat slots ``at``."""
    return arr.reshape(-1).take(at)


_CLEARED = ("tapped", "damage", "deathtouch_hit")   # what _relocate clears besides zone and counters
#: What ends with the object besides what _relocate clears (400.7): the rest of its state
#: (a library position, Immortality) and the host's effects on it.
_ENDING = tuple(f for f in OBJECT_STATE_FIELDS
                if f.name not in ("zone",) + _CLEARED) + HOST_OBJECT_FIELDS
#: ``_ENDING`` of one slot (``move_one``), with what _relocate clears.
_ENDING_ONE = tuple(f for f in OBJECT_STATE_FIELDS if f.name in _CLEARED) + _ENDING


def _end_object_state(world: Game, at: np.ndarray, arrive: np.ndarray) -> None:
    """The old objects' state and the host's effects on them end (400.7), and a control
    change ends: a new object is its owner's (110.2). Fields are read first: writing would
    copy an array a clone still shares."""
    s = world.store
    s.reset(at, _ENDING)
    owner = _take(s.a["owner"], at)
    changed = (owner >= 0) & arrive
    if changed.any():
        back = at[changed]
        s.mut("controller").reshape(-1)[back] = owner[changed]
        s.mut("owner").reshape(-1)[back] = -1


_BLOCK = 1024   # rows of _relocate between two looks at its outputs' room


@kernel(writes("counts"), I64, INDEX, INDEX, INDEX, writes("zone"), writes("tapped"),
        writes("damage"), writes("deathtouch_hit"), array(np.bool_, 1), reads("cap_col"), writes("cap_val"),
        uses=(grown,))
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
    (``flat`` views of the C-contiguous store arrays.)"""
    cap = zone.shape[1]
    counts_f, plane_size = flat(counts), zone.size
    zone_f, tapped_f = flat(zone), flat(tapped)
    damage_f, deathtouch_f = flat(damage), flat(deathtouch)
    out_r = empty(room(n_kinds * games.size), np.int64)
    out_k = empty(out_r.size, np.int64)
    out_v = empty(out_r.size, np.int64)
    m = 0
    for start in range(0, games.size, _BLOCK):
        end = min(start + _BLOCK, games.size)
        need = m + (end - start) * n_kinds
        if need > out_r.size:   # (room for a block: a growth check per row cost the walk 1.8x)
            out_r, out_k, out_v = grown(out_r, m, need), grown(out_k, m, need), grown(out_v, m, need)
        for i in range(start, end):
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
                v = counts_f[k * plane_size + a]
                if v != 0:
                    out_r[m], out_k[m], out_v[m] = i, k, v
                    m += 1
                    counts_f[k * plane_size + a] = 0
            zone_f[a], tapped_f[a], damage_f[a], deathtouch_f[a] = dest[i], False, 0, False
            if capped[c]:
                for e in range(cap_col.size):
                    if cap_col[e] == c:
                        cap_val[g, e] = NO_CAP
    return head(out_r, m), head(out_k, m), head(out_v, m)




_zone_kind = njit(cache=True, inline="always")(zone_kind)   # (compiled into _leaving)


@kernel(reads("zone"), reads("types"), reads("token"), INDEX, INDEX)
def _leaving(zone: np.ndarray, types: np.ndarray, token: np.ndarray, games: np.ndarray,
             cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """The zone codes of the slots (``games[i]``, ``cols[i]``), as int64, and their zone
    rows' ``kind`` (``events.zone_kind`` of their types and token flag) as they leave. One
    pass (where NumPy took a flat index, a take and a cast per field), prefetching the row
    ``AHEAD`` on."""
    out = empty(games.size, np.int64)
    code = empty(games.size, np.int64)
    cap, zone_f, types_f, token_f = zone.shape[1], flat(zone), flat(types), flat(token)
    for i in range(games.size):
        if i + AHEAD < games.size:
            b = games[i + AHEAD] * cap + cols[i + AHEAD]
            prefetch_read(zone_f, b)
            prefetch_read(types_f, b)
            prefetch_read(token_f, b)
        a = games[i] * cap + cols[i]
        out[i] = zone_f[a]
        code[i] = _zone_kind(types_f[a], token_f[a])   # (uint32 | int64: an int64)
    return out, code
