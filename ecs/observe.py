"""Observations for learning agents: one dense ``(batch, objects, features)`` tensor.

``ecs.world.World`` offers ``observe`` and ``observation_features`` as its methods.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from . import args, counting, zones
from .components import TYPE_BIT
from .components.card import NO_STAT
from .errors import InvalidGameError, InvalidTypeError, UnknownEntityError
from .game import Game
from .kinds import KEYWORD_BIT, keyword_of

_REAL_ZONES = tuple(z for z in zones.ZONES if z not in ("none", "player"))
#: The stat features that an object (or player) may lack; ``has:<stat>`` says which.
_STATS = ("power", "toughness", "loyalty", "defense", "life")


def observation_features(world: Game) -> list[str]:
    """The default feature list of ``observe``: fixed features, then one
    ``counter:<kind>`` per kind used so far in this World (so it can grow; pass an
    explicit list to ``observe`` for a fixed layout)."""
    return (["present"] + [f"zone:{z}" for z in _REAL_ZONES]
            + ["tapped", "token", "controller", "power", "toughness", "loyalty", "defense",
               "damage", "life", "lost"] + [f"has:{stat}" for stat in _STATS]
            + [f"counter:{k}" for k in world.store.kind_names])


def observe(world: Game, ids: Any, features: Sequence[str] | None = None,
            dtype: Any = np.float32) -> tuple[np.ndarray, list[str]]:
    """Counters, stats, zones and flags of objects (or players) as one dense tensor of
    shape ``(batch, len(ids), len(features))`` and the feature names.

    ``ids``: ``m`` ids (the same objects in every game) or a ``(batch, m)`` array (one
    row per game, e.g. each game's current id of a card). ``-1`` pads, and an id that no
    longer exists (it changed zones, CR 400.7) or is absent from a game gives a row of
    zeros there (``present`` 0). Ids that never existed raise ``UnknownEntityError``.
    ``dtype`` is ``float32`` or ``int32``. Feature names (``observation_features()``
    gives the default list):

    * ``present``, ``zone`` (the ecs.zones code) and ``zone:<name>`` (one-hot),
      ``tapped``, ``token``, ``controller`` (player index), ``damage``;
    * ``power``, ``toughness`` (printed plus counters, 122.1a; 0 without a printed
      value), ``loyalty``, ``defense`` (counters on the battlefield, printed elsewhere);
    * ``life`` (of a player; its team's in Two-Headed Giant), ``lost``;
    * ``has:<stat>`` for each of those five: 1 where the stat exists (a printed power or
      toughness; a planeswalker's loyalty, a battle's defense; a player's life), else 0.
      A missing stat reads 0 in the value feature, as a real 0 does: the mask tells them
      apart, in both dtypes (not NaN: int32 has none, and a NaN in a float observation
      poisons whatever sums it, e.g. a network's input layer);
    * ``counter:<kind>`` (count; 0 for kinds never used), ``type:<type>``,
      ``keyword:<keyword>`` (printed or from a keyword counter, 122.1b).

    The work is vectorized over games and objects (a loop over features only)."""
    s = world.store
    B = world.batch
    try:
        out_dtype = np.dtype(dtype)
    except TypeError:
        raise InvalidTypeError(f"observe dtype must be float32 or int32, got {dtype!r}") from None
    if out_dtype not in (np.dtype(np.float32), np.dtype(np.int32)):
        raise InvalidTypeError(f"observe dtype must be float32 or int32, got {dtype!r}")
    arr = np.asarray(ids)
    if arr.dtype == bool or not (arr.size == 0 or np.issubdtype(arr.dtype, np.integer)):
        raise UnknownEntityError(f"ids must be integers, got {ids!r}")
    arr = arr.astype(np.int64)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim not in (1, 2) or (arr.ndim == 2 and arr.shape[0] != B):
        raise InvalidGameError(f"ids of shape {arr.shape}: expected (m,) or ({B}, m)")
    bad = arr[(arr < -1) | (arr >= s.next_id)]
    if bad.size:
        raise UnknownEntityError(f"entity {int(bad[0])} does not exist in this World")
    if isinstance(features, str):
        raise InvalidTypeError("features must be a list of feature names, not one string")
    names = list(observation_features(world, ) if features is None else features)

    g = np.arange(B)[:, None]
    shape = (B, arr.shape[-1])
    entry = s.ids.lookup(arr.ravel()).reshape(arr.shape) if arr.ndim == 1 else None
    if entry is not None and (entry > -2).all():   # one column per id wherever it is
        cc = np.clip(entry, 0, max(s.n_cols - 1, 0))

        def take(x: np.ndarray) -> np.ndarray:
            return np.take(x, cc, axis=1)   # a column gather: cheaper than (g, c) or [:, cc]
        present = take(s.a["entity_id"]) == arr
        nowhere = np.flatnonzero((entry < 0) | (entry >= s.n_cols))   # pads, ids gone
        if nowhere.size:
            present[:, nowhere] = False
    else:   # (B, m) ids, or some id in different columns in different games
        cols = s.locate(g, arr)
        cc = np.maximum(cols, 0)
        flat = g * s.capacity + cc

        def take(x: np.ndarray) -> np.ndarray:   # a (B, capacity) array of the store
            assert x.shape == (B, s.capacity)
            return np.take(x, flat)   # (a flat gather: some 5x cheaper than x[g, cc])
        present = cols >= 0
    zone = take(s.a["zone"])
    # Each feature into a plane of its own, then one transposing copy: written in place at
    # a stride of len(names), each feature touched every cache line of the output.
    planes = np.empty((len(names),) + shape, out_dtype)
    for j, name in enumerate(names):
        planes[j] = _feature(world, name, take, cc, zone)
    out = np.ascontiguousarray(planes.transpose(1, 2, 0))
    absent = np.flatnonzero(~present)   # (a boolean mask over (B, m) is some 5x slower)
    if absent.size:
        out.reshape(-1, len(names))[absent] = 0
    return out, names


def _feature(world: Game, name: str, take: Any, cc: np.ndarray,
             zone: np.ndarray) -> Any:
    """One feature of columns ``cc``, broadcastable to (B, m); ``take`` gathers them from
    a (B, C) array (masking by presence is the caller's)."""
    s = world.store
    a = s.a
    if not isinstance(name, str):
        raise InvalidTypeError(f"feature names are strings, got {name!r}")
    if name == "present":
        return np.ones(1, np.int64)
    if name == "zone":
        return zone
    if name.startswith("zone:"):
        z = name[5:]
        if z not in _REAL_ZONES and z not in world.ruleset.zone_aliases:
            raise InvalidTypeError(f"unknown feature {name!r}: no zone {z!r}")
        return zone == zones.zone_code(z, world.ruleset.zone_aliases)
    if name in ("tapped", "damage"):
        return take(a[name])
    if name in ("token", "controller"):
        return take(a[name])
    if name.startswith("has:"):
        stat = name[4:]
        if stat not in _STATS:
            raise InvalidTypeError(f"unknown feature {name!r}: expected has:<stat> of {_STATS}")
        if stat == "life":
            return zone == zones.PLAYER
        has = take(a[stat]) != NO_STAT
        if stat in ("loyalty", "defense"):
            has &= (take(a["types"]) & TYPE_BIT["planeswalker" if stat == "loyalty" else "battle"]) != 0
        return has
    if name in ("power", "toughness"):
        printed = take(a[name])
        value = np.where(printed == NO_STAT, 0, printed).astype(np.int64)
        set_to = take(a["pt_set_" + name])   # a host's layer 7b and 7c effects (ecs.host)
        value = np.where(set_to == NO_STAT, value, set_to) + take(a["pt_mod_" + name])
        which = 0 if name == "power" else 1
        for k, kind in enumerate(s.kind_names):
            mod = world.ruleset.pt_modifier(kind)
            if mod is not None and mod[which]:
                value = value + mod[which] * take(s.counts[k]).astype(np.int64)
        return np.where(printed == NO_STAT, 0, value)
    if name in ("loyalty", "defense"):
        printed = take(a[name])
        type_ok = (take(a["types"]) & TYPE_BIT["planeswalker" if name == "loyalty" else "battle"]) != 0
        has = type_ok & (printed != NO_STAT)
        ki = s.kind_index.get(name)   # not k: the int of the loops above and below
        count = take(s.counts[ki]) if ki is not None else 0
        return np.where(has, np.where(zone == zones.BATTLEFIELD, count, printed), 0)
    if name in ("life", "lost"):
        if s.n_players == 0:
            return np.zeros(1, np.int64)
        is_player = zone == zones.PLAYER
        idx = np.maximum(take(a["controller"]), 0).astype(np.int64)
        if name == "life" and world.two_headed_giant:
            idx = a["player_head"][idx].astype(np.int64)
        return np.where(is_player, a[name][np.arange(world.batch)[:, None], idx], 0)
    if name.startswith("counter:"):
        kind = args.kind(world, name[8:])
        ki = s.kind_index.get(kind)
        if ki is None:
            return np.zeros(1, np.int64)
        if not counting.shared(world, kind):
            return take(s.counts[ki])
        gg, c2 = np.broadcast_arrays(np.arange(world.batch)[:, None], cc)
        holder = counting.holder(world, kind, gg.ravel(), c2.ravel()).reshape(gg.shape)
        return s.counts[ki][gg, holder]
    if name.startswith("type:"):
        t = name[5:]
        if t not in TYPE_BIT:
            raise InvalidTypeError(f"unknown feature {name!r}: no card type {t!r}")
        return (take(a["types"]) & TYPE_BIT[t]) != 0
    if name.startswith("keyword:"):
        kw = name[8:]
        if kw not in KEYWORD_BIT:
            raise InvalidTypeError(f"unknown feature {name!r}: no keyword {kw!r}")
        value = (take(a["keywords"]) & KEYWORD_BIT[kw]) != 0
        for k, kind in enumerate(s.kind_names):
            if keyword_of(kind) == kw:
                value = value | (take(s.counts[k]) > 0)
        return value
    raise InvalidTypeError(f"unknown observation feature {name!r}; see World.observe")
