"""Observations for learning agents: one dense ``(batch, objects, features)`` tensor.

``ecs.world.World`` offers ``observe`` and ``observation_features`` as its methods.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from . import args, counting, stats, zones
from .components import TYPE_BIT
from .components.card import NO_STAT
from .errors import InvalidGameError, InvalidTypeError, UnknownEntityError
from .game import Game
from .kinds import KEYWORD_BIT
from .limits import MAX_ID

_REAL_ZONES = tuple(z for z in zones.ZONES if z not in ("none", "player"))
#: The stat features that an object (or player) may lack; ``has:<stat>`` says which. The
#: default features have the first five: GA's level and durability came later, and a
#: default layout that grew would change every existing observation's shape.
_STATS = ("power", "toughness", "loyalty", "defense", "life", "level", "durability")
_DEFAULT_STATS = _STATS[:5]


def observation_features(world: Game) -> list[str]:
    """The default feature list of ``observe``: fixed features, then one
    ``counter:<kind>`` per kind used so far in this World (so it can grow; pass an
    explicit list to ``observe`` for a fixed layout)."""
    return (["present"] + [f"zone:{z}" for z in _REAL_ZONES]
            + ["tapped", "token", "controller", "power", "toughness", "loyalty", "defense",
               "damage", "life", "lost"] + [f"has:{stat}" for stat in _DEFAULT_STATS]
            + [f"counter:{k}" for k in world.store.kind_names])


def observe(world: Game, ids: args.Ids, features: Sequence[str] | None = None,
            dtype: Any = np.float32) -> tuple[np.ndarray, list[str]]:
    """Counters, stats, zones and flags of objects (or players) as one dense tensor of
    shape ``(batch, len(ids), len(features))`` and the feature names.

    ``ids``: ``m`` ids (the same objects in every game) or a ``(batch, m)`` array (one
    row per game, e.g. each game's current id of a card). ``-1`` pads, and an id that no
    longer exists (it changed zones, CR 400.7) or is absent from a game gives a row of
    zeros there (``present`` 0). Ids that never existed raise ``UnknownEntityError``.
    ``dtype`` is ``float32`` or ``int32`` (a value past int32's range reads its bound,
    never a wrapped value). Feature names (``observation_features()``
    gives the default list):

    * ``present``, ``zone`` (the ecs.zones code) and ``zone:<name>`` (one-hot),
      ``tapped``, ``token``, ``controller`` (player index), ``damage``;
    * ``power``, ``toughness`` (printed plus counters, 122.1a; 0 without a printed
      value), ``loyalty``, ``defense`` (counters on the battlefield, printed elsewhere);
    * ``life`` (of a player; its team's in Two-Headed Giant), ``lost``, ``reserve``
      (Grand Archive's, as ``reserve(p)``; 0 in Magic; not in the default list);
    * Grand Archive's ``level`` (LV: the base level plus level counters on a champion,
      as ``stat(e, "level")``), ``base_level`` (``base_level(e)``) and ``durability``
      (counters on the field, printed elsewhere, as ``stat(e, "durability")``); not in
      the default list;
    * ``has:<stat>`` for each of those stats (``has:level`` for both levels): 1 where the
      stat exists (a printed power or toughness, or a creature's the host set, 613.4b; a
      planeswalker's loyalty, a battle's defense, printed or on the battlefield, 306.5c,
      310.4c; a player's life; a printed level or durability), else 0. The default list
      has the first five.
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
    # (-1 pads; checked before the cast: a uint64 past int64 would wrap to it; a mask is no id array)
    arr = args.integer_array(ids, "entity", -1, MAX_ID, UnknownEntityError)
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

    steps = _plan(world, names)   # (raises for a bad name before any work)

    g = np.arange(B)[:, None]
    shape = (B, arr.shape[-1])
    entry = s.ids.lookup(arr.ravel()).reshape(arr.shape) if arr.ndim == 1 else None
    if entry is not None and (s.ids.n_spread == 0 or (entry > -2).all()):   # one column per id
        cc = np.minimum(np.maximum(entry, 0), max(s.n_cols - 1, 0))

        def take(x: np.ndarray) -> np.ndarray:
            return x.take(cc, axis=1)   # a column gather: cheaper than (g, c) or [:, cc]
        present = take(s.a["entity_id"]) == arr
        nowhere = (entry < 0) | (entry >= s.n_cols)   # pads, ids gone
        if nowhere.any():
            present[:, nowhere] = False
    else:   # (B, m) ids, or some id in different columns in different games
        cols = s.locate(g, arr)
        cc = np.maximum(cols, 0)
        flat = g * s.capacity + cc

        def take(x: np.ndarray) -> np.ndarray:   # a (B, capacity) array of the store
            assert x.shape == (B, s.capacity)
            return x.take(flat)   # (a flat gather: some 5x cheaper than x[g, cc])
        present = cols >= 0
    # Each feature into a plane of its own, then one transposing copy: written in place at
    # a stride of len(names), each feature touched every cache line of the output.
    planes = np.empty((len(names),) + shape, out_dtype)
    got = _Gathered(world, take, cc)
    whole = out_dtype == np.int32   # (saturated, never wrapped: life and stats are int64)
    for where, value in steps:
        v = value(got)
        if whole and isinstance(v, np.ndarray) and v.dtype.kind in "iu" and v.dtype.itemsize >= 4 \
                and v.dtype != out_dtype:
            v = np.clip(v, _INT32.min, _INT32.max)
        planes[where] = v
    out = np.ascontiguousarray(planes.transpose(1, 2, 0))
    absent = (~present).ravel().nonzero()[0]   # (a boolean mask over (B, m) is some 5x slower)
    if absent.size and names:
        out.reshape(-1, len(names))[absent] = 0
    return out, names


_INT32 = np.iinfo(np.int32)


class _Gathered(dict[Any, np.ndarray]):
    """The store's arrays at the observed rows, each gathered once per call (``take``):
    ``got[name]`` a field's, ``got[k]`` counter plane ``k``'s. Features share them
    (``zone`` alone serves some ten)."""

    def __init__(self, world: Game, take: Callable[[np.ndarray], np.ndarray], cc: np.ndarray) -> None:
        super().__init__()
        self.world, self.take, self.cc = world, take, cc

    def __missing__(self, key: str | int) -> np.ndarray:
        s = self.world.store
        got = self[key] = self.take(s.counts[key] if isinstance(key, int) else s.a[key])
        return got

    def has(self, stat: str) -> np.ndarray:
        """Where ``stat`` exists (the ``has:<stat>`` feature), kept: its value feature
        reads it too."""
        key = ("has", stat)
        got = self.get(key)
        if got is None:
            if stat == "life":
                got = self["zone"] == zones.PLAYER
            elif stat in ("power", "toughness"):   # as the reads decide (the ruleset's rule)
                got = self.world.ruleset.pt_exists(self["types"], self[stat], self["pt_set_" + stat])
            elif stat in _TYPED:   # a planeswalker's loyalty, a battle's defense: printed, or
                # its counters on the battlefield (306.5c, 310.4c)
                got = (((self[stat] != NO_STAT) | (self["zone"] == zones.BATTLEFIELD))
                       & ((self["types"] & _TYPED[stat]) != 0))
            else:   # GA level, durability: where printed, whatever the types (``grand_archive.stat``)
                got = self[stat] != NO_STAT
            self[key] = got
        return got


_TYPED = {"loyalty": TYPE_BIT["planeswalker"], "defense": TYPE_BIT["battle"]}


#: A feature's value from the gathered rows: an array broadcastable to its plane(s).
Value = Callable[[_Gathered], Any]
Steps = tuple[tuple[Any, Value], ...]   # (the planes written, by index or slice; their value)

_PLANS: dict[tuple[Any, ...], Steps] = {}
_MAX_PLANS = 64   # feature lists x kinds layouts held (a caller uses a few lists)


def _plan(world: Game, names: list[str]) -> Steps:
    """The steps that compute ``names``: each feature's value, the zone one-hots as one
    compare. Cached per feature list, ruleset, kinds layout and Two-Headed Giant (what a
    feature's meaning depends on, besides the state read at each call)."""
    s = world.store
    key = (tuple(names), world.ruleset, s.kinds_layout, world.two_headed_giant)
    try:
        steps = _PLANS.get(key)
    except TypeError:   # (an unhashable name)
        steps = None
    if steps is None:
        for name in names:
            if not isinstance(name, str):
                raise InvalidTypeError(f"feature names are strings, got {name!r}")
        zone_at, codes, out = [], [], []
        for j, name in enumerate(names):
            code = _zone_feature(world, name)
            if code is not None:
                zone_at.append(j)
                codes.append(code)
            else:
                out.append((j, _feature(world, name)))
        if zone_at:
            one_hot = np.array(codes)[:, None, None]
            out.append((_indices(zone_at), lambda got: got["zone"] == one_hot))
        steps = tuple(out)
        if len(_PLANS) >= _MAX_PLANS:   # (all at once: one call, safe beside other threads)
            _PLANS.clear()
        _PLANS[key] = steps
    return steps


def _indices(at: list[int]) -> Any:
    """The plane indices ``at`` as a slice where they are consecutive (a cheaper write)."""
    return slice(at[0], at[-1] + 1) if at == list(range(at[0], at[-1] + 1)) else np.array(at)


def _zone_feature(world: Game, name: str) -> int | None:
    """The zone code of a ``zone:<name>`` feature (None for other features)."""
    if not name.startswith("zone:"):
        return None
    z = name[5:]
    if z not in _REAL_ZONES and z not in world.ruleset.zone_aliases:
        raise InvalidTypeError(f"unknown feature {name!r}: no zone {z!r}")
    return zones.zone_code(z, world.ruleset.zone_aliases)


def _feature(world: Game, name: str) -> Value:
    """The value of one feature (masking by presence is the caller's)."""
    s = world.store
    if name == "present":
        return lambda got: 1
    if name in ("zone", "tapped", "damage", "token", "controller"):
        return lambda got: got[name]
    if name.startswith("has:"):
        stat = name[4:]
        if stat not in _STATS:
            raise InvalidTypeError(f"unknown feature {name!r}: expected has:<stat> of {_STATS}")
        return lambda got: got.has(stat)
    if name in ("power", "toughness"):
        which = 0 if name == "power" else 1
        stats.pt_kinds(world, which)   # (raises for a kind the ruleset can't count)
        return lambda got: np.where(got.has(name), stats.pt(got.world, which, got.__getitem__), 0)
    if name in ("loyalty", "defense", "durability"):
        ki = s.kind_index.get(name)

        def counted(got: _Gathered) -> Any:   # counters on the battlefield, printed elsewhere
            count = got[ki] if ki is not None else 0
            return np.where(got.has(name), stats.counted(got["zone"], got[name], count), 0)
        return counted
    if name in ("level", "base_level"):
        ki = s.kind_index.get("level")

        def level(got: _Gathered) -> Any:   # GA LV, or the base level alone
            value = (stats.level(got["types"], got["level"], got[ki]) if name == "level" and ki is not None
                     else got["level"].astype(np.int64))
            return np.where(got.has("level"), value, 0)
        return level
    if name in ("life", "lost", "reserve"):
        return _player(name, name == "life" and world.two_headed_giant)
    if name.startswith("counter:"):
        kind = args.kind(world, name[8:])
        ki = s.kind_index.get(kind)
        if ki is None:
            return lambda got: 0
        if not counting.shared(world, kind):
            return lambda got: got[ki]

        def shared(got: _Gathered) -> Any:   # 810.10: a Two-Headed Giant player's poison is the team's
            w = got.world
            gg, c2 = np.broadcast_arrays(np.arange(w.batch)[:, None], got.cc)
            holder = counting.holder(w, kind, gg.ravel(), c2.ravel()).reshape(gg.shape)
            return w.store.counts[ki][gg, holder]
        return shared
    if name.startswith("type:"):
        t = name[5:]
        if t not in TYPE_BIT:
            raise InvalidTypeError(f"unknown feature {name!r}: no card type {t!r}")
        bit = TYPE_BIT[t]
        return lambda got: (got["types"] & bit) != 0
    if name.startswith("keyword:"):
        kw = name[8:]
        if kw not in KEYWORD_BIT:
            raise InvalidTypeError(f"unknown feature {name!r}: no keyword {kw!r}")
        bit, granting = KEYWORD_BIT[kw], stats.keyword_kinds(world, kw)

        def keyword(got: _Gathered) -> Any:   # printed, or a keyword counter (122.1b)
            value = (got["keywords"] & bit) != 0
            for k in granting:
                value = value | (got[k] > 0)
            return value
        return keyword
    raise InvalidTypeError(f"unknown observation feature {name!r}; see World.observe")


def _player(name: str, team: bool) -> Value:
    """A player's life (``team``: its team's, Two-Headed Giant), whether it lost, or its
    reserve (Grand Archive)."""
    def value(got: _Gathered) -> Any:
        s = got.world.store
        if s.n_players == 0:
            return 0
        idx = np.maximum(got["controller"], 0)
        if team:
            idx = s.a["player_head"].take(idx)
        of = s.a[name]   # (games, players): each row's player in its own game
        at = idx if s.batch == 1 else idx + np.arange(s.batch)[:, None] * of.shape[1]
        return np.where(got.has("life"), of.take(at), 0)   # (a player's row: has:life)
    return value
