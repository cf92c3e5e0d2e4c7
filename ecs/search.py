"""Batch and tree-search support: fork, select, save/load and observations (issue 4).

``World.snapshot()``/``restore()``/``clone()`` (in ``ecs.world``) copy the state as arrays.
This mixin adds what a search or a Monte Carlo evaluator needs on top of them:

* ``fork(game, n)``: a new World of ``n`` games, each a copy of one game of this one (the
  start of a Monte Carlo evaluation from a position), with its own random generator;
* ``select(games)``: a new World keeping some games, in the given order;
* ``save(path)`` / ``World.load(path)``: the World as a standard ``.npz`` file (the
  format, its checks and the safe writing are ecs.persist's);
* ``observe(ids, features)``: one dense ``(batch, objects, features)`` tensor for learning
  agents;
* ``spawn_seeds(n)``: ``SeedSequence`` children for forks and Monte Carlo shards.

Randomness: every World owns ``seed_seq`` (a ``numpy.random.SeedSequence``) and
``rng = default_rng(seed_seq)``. The k-th child handed out (by ``spawn_seeds``, ``fork``
or ``select``) is ``SeedSequence(entropy, spawn_key=seed_seq.spawn_key + (k,))``, exactly
what ``SeedSequence.spawn`` gives, but numbered by ``World.n_spawned``, which is part of
the snapshot: after ``restore`` the same children come out again, so the same seed and
the same actions always give bit-identical Worlds.
"""
from __future__ import annotations

import numbers
import os
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np

from components import ALL_FIELDS, COLUMN, GAME_PLAYER, TYPE_BIT
from components.card import NO_STAT

from . import persist, zones
from .errors import InvalidGameError, InvalidTypeError, SnapshotError, UnknownEntityError
from .kinds import KEYWORD_BIT, keyword_of
from .selection import select_games

if TYPE_CHECKING:
    from .events import EventLog
    from .rulesets import Ruleset
    from .store import Store
    from .world import World

_FIELDS = {f.name: f for f in ALL_FIELDS}
#: Store arrays outside ``components`` whose first axis is the game (see ecs.store).
_GAME_AXIS_EXTRA = ("cap_val", "winner")
#: Store arrays outside ``components`` with no game axis.
_SHARED_EXTRA = ("player_col", "player_team", "player_head", "cap_col", "cap_kind")
_LOG_COLUMNS = ("type", "step", "game", "entity", "kind", "before", "after", "cause", "other",
                "from_zone", "to_zone")
#: Zones an object can be in (code 0 "none" and the "player" marker excluded).
_REAL_ZONES = tuple(z for z in zones.ZONES if z not in ("none", "player"))


def _game_axis(name: str) -> bool:
    """Does store array ``name`` have the game as its first axis?"""
    f = _FIELDS.get(name)
    if f is not None:
        return f.shape != COLUMN
    if name in _GAME_AXIS_EXTRA:
        return True
    if name in _SHARED_EXTRA:
        return False
    raise SnapshotError(f"store array {name!r} is unknown to ecs.search: say whether it is "
                        "per game (_GAME_AXIS_EXTRA) or shared (_SHARED_EXTRA)")


# ---- taking games out of a World ---------------------------------------------------------
def _take_store(store: Any, idx: np.ndarray) -> dict[str, Any]:
    """A ``Store.snapshot()``-shaped dict whose games are ``store``'s games ``idx``."""
    n, k = store.n_cols, store.n_kinds
    snap: dict[str, Any] = {"counts": store.counts[:k][:, idx, :n]}
    for name, arr in store.a.items():
        f = _FIELDS.get(name)
        used = arr[..., :n] if f is not None and f.shape != GAME_PLAYER else arr
        snap[name] = used[idx] if _game_axis(name) else used.copy()
    snap["col_of_id"] = store.col_of_id[: store.next_id].copy()
    snap["free"] = np.asarray(store.free, np.int64)
    snap["meta"] = np.array([idx.size, n, store.next_id], np.int64)
    snap["kind_names"] = np.array(store.kind_names, dtype=str)
    return snap


def _take_log(table: Mapping[str, np.ndarray], idx: np.ndarray, step: int) -> dict[str, Any]:
    """An ``EventLog.snapshot()`` holding the events of games ``idx`` (new game j is old game
    ``idx[j]``; one old game may be taken several times, as by ``fork``)."""
    game = table["game"]
    order = np.argsort(idx, kind="stable")
    sidx = idx[order]
    lo = np.searchsorted(sidx, game, "left")
    hi = np.searchsorted(sidx, game, "right")
    reps = hi - lo                                   # copies of each old row
    rows = np.repeat(np.arange(game.size), reps)     # old row of each new row, in order
    first = np.repeat(lo, reps)
    offset = np.arange(rows.size) - np.repeat(np.cumsum(reps) - reps, reps)
    new_game = order[first + offset]
    chunk = {c: table[c][rows] for c in _LOG_COLUMNS}
    chunk["game"] = new_game.astype(np.int64)
    # LKI rows follow their event row into each of its copies.
    start = np.cumsum(reps) - reps
    lr = table["lki_row"]
    lreps = reps[lr] if lr.size else np.zeros(0, np.int64)
    lki_src = np.repeat(np.arange(lr.size), lreps)
    lki_row = np.repeat(start[lr] if lr.size else lr, lreps) + (
        np.arange(lki_src.size) - np.repeat(np.cumsum(lreps) - lreps, lreps))
    lki = {"row": lki_row.astype(np.int64), "kind": table["lki_kind"][lki_src],
           "count": table["lki_count"][lki_src]}
    return {"chunks": [chunk] if rows.size else [], "lki": [lki] if lki_row.size else [],
            "rows": int(rows.size), "step": int(step)}


def _fork_log(table: Mapping[str, np.ndarray], game: int, n: int, step: int) -> dict[str, Any]:
    """``_take_log(table, [game] * n, step)``, by np.repeat (forks of big logs are common)."""
    def rep(x: np.ndarray) -> np.ndarray:   # np.repeat(x, n), but a fast strided copy
        return np.broadcast_to(x[:, None], (x.size, n)).reshape(-1)

    sel = table["game"] == game
    k = int(sel.sum())
    chunk = {c: rep(table[c][sel]) for c in _LOG_COLUMNS if c != "game"}
    chunk["game"] = np.broadcast_to(np.arange(n, dtype=np.int64), (k, n)).reshape(-1)
    pos = np.cumsum(sel) - 1                      # old row -> its index among the kept
    lsel = sel[table["lki_row"]] if table["lki_row"].size else np.zeros(0, bool)
    lrow = (pos[table["lki_row"][lsel]][:, None] * n + np.arange(n)).reshape(-1)
    lki = {"row": lrow.astype(np.int64), "kind": rep(table["lki_kind"][lsel]),
           "count": rep(table["lki_count"][lsel])}
    return {"chunks": [chunk] if k else [], "lki": [lki] if lrow.size else [],
            "rows": k * n, "step": int(step)}


def _seed_tuple(ss: np.random.SeedSequence) -> tuple[Any, tuple[int, ...], int]:
    return (ss.entropy, tuple(ss.spawn_key), ss.pool_size)


class SearchActions:
    """Mixed into ecs.world.World."""

    # The parts of World this mixin uses (ecs.world defines them). ``self`` is always a
    # World: where a function takes one, the mixin passes ``cast("World", self)``.
    if TYPE_CHECKING:
        ruleset: Ruleset
        two_headed_giant: bool
        max_passes: int
        n_spawned: int
        names: list[str]
        store: Store
        log: EventLog

        @property
        def batch(self) -> int: ...
        @property
        def seed_seq(self) -> np.random.SeedSequence: ...
        def _kind(self, kind: Any) -> str: ...
        def snapshot(self) -> dict[str, Any]: ...
        def restore(self, snap: Mapping[str, Any]) -> None: ...
        def _holder(self, kind: str, c: np.ndarray) -> np.ndarray: ...

    # ---- randomness --------------------------------------------------------------------
    def spawn_seeds(self, n: int) -> list[np.random.SeedSequence]:
        """``n`` new children of this World's ``seed_seq`` (for Monte Carlo shards: give
        shard i the i-th child and results do not depend on the number of workers)."""
        if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 0:
            raise InvalidGameError(f"number of seeds must be a non-negative integer, got {n!r}")
        ss = self.seed_seq
        first = self.n_spawned
        self.n_spawned += int(n)
        return [np.random.SeedSequence(ss.entropy, spawn_key=tuple(ss.spawn_key) + (first + i,),
                                       pool_size=ss.pool_size) for i in range(int(n))]

    def _new_world(self, store_snap: dict[str, Any], log_snap: dict[str, Any],
                   child: np.random.SeedSequence) -> "World":
        from .world import World
        batch = int(store_snap["meta"][0])
        other = World(self.ruleset.name, batch, child, two_headed_giant=self.two_headed_giant,
                      max_passes=self.max_passes)
        other.restore({"store": store_snap, "log": log_snap, "rng": other.rng.bit_generator.state,
                       "names": list(self.names), "seed_seq": _seed_tuple(child), "n_spawned": 0})
        return other

    # ---- fork and select -----------------------------------------------------------------
    def fork(self, game: int, n: int, events: bool = True) -> "World":
        """A new World of ``n`` games, each a copy of game ``game`` of this one (its objects,
        ids, counters, players and, unless ``events=False``, its events), with its own
        generator seeded by a child of this World's seed sequence. A finished game can be
        forked (its copies stay finished). ``events=False`` starts with an empty event log:
        the cheap start of a Monte Carlo evaluation when the history is not needed."""
        if isinstance(game, (bool, np.bool_)) or not isinstance(game, numbers.Integral):
            raise InvalidGameError(f"fork needs one game index, got {game!r}")
        if not 0 <= game < self.batch:
            raise InvalidGameError(f"game index {game} is outside the batch of {self.batch}")
        if isinstance(n, (bool, np.bool_)) or not isinstance(n, numbers.Integral) or n < 1:
            raise InvalidGameError(f"fork needs a positive number of games, got {n!r}")
        idx = np.full(int(n), int(game), np.int64)
        child = self.spawn_seeds(1)[0]
        log = (_fork_log(self.log.table(), int(game), int(n), self.log.step) if events else
               {"chunks": [], "lki": [], "rows": 0, "step": self.log.step})
        return self._new_world(_take_store(self.store, idx), log, child)

    def select(self, games: Any) -> "World":
        """A new World keeping games ``games`` (an index, a boolean mask or an index array;
        finished games may be kept), in that order, with its own generator seeded by a child
        of this World's seed sequence. Ids are unchanged; events are renumbered by game."""
        idx = select_games(games, np.ones(self.batch, bool))
        if idx.size == 0:
            raise InvalidGameError("select needs at least one game")
        child = self.spawn_seeds(1)[0]
        return self._new_world(_take_store(self.store, idx),
                               _take_log(self.log.table(), idx, self.log.step), child)

    # ---- save and load (the file format: ecs.persist) -------------------------------------
    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the whole World (state, events, generator, configuration) to ``path``, an
        uncompressed ``.npz``; the file under that name is replaced atomically."""
        persist.save(persist.Parts(self.ruleset.name, self.batch, self.two_headed_giant,
                                   self.max_passes, self.snapshot()), path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "World":
        """The World saved in ``path``; ``SnapshotError`` for a missing, damaged or
        inconsistent file or another format version (checked before a World is built)."""
        from .world import World
        parts = persist.load(path)
        # One game at first: restore sizes the store for the file's games (a World of
        # parts.batch games would first allocate its default capacity in each).
        world = World(parts.ruleset, 1, parts.seed_seq, two_headed_giant=parts.two_headed_giant,
                      max_passes=parts.max_passes)
        world.restore(parts.snapshot)
        return world

    # ---- observations -------------------------------------------------------------------
    def observation_features(self) -> list[str]:
        """The default feature list of ``observe``: fixed features, then one
        ``counter:<kind>`` per kind used so far in this World (so it can grow; pass an
        explicit list to ``observe`` for a fixed layout)."""
        return (["present"] + [f"zone:{z}" for z in _REAL_ZONES]
                + ["tapped", "token", "controller", "power", "toughness", "loyalty", "defense",
                   "damage", "life", "lost"]
                + [f"counter:{k}" for k in self.store.kind_names])

    def observe(self, ids: Any, features: Sequence[str] | None = None,
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
        * ``counter:<kind>`` (count; 0 for kinds never used), ``type:<type>``,
          ``keyword:<keyword>`` (printed or from a keyword counter, 122.1b).

        The work is vectorized over games and objects (a loop over features only)."""
        s = self.store
        B = self.batch
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
        names = list(self.observation_features() if features is None else features)

        cols = np.where(arr >= 0, s.col_of_id[np.maximum(arr, 0)], -1).astype(np.int64)
        cc = np.maximum(cols, 0)         # (m,): the same columns in every game; or (B, m)
        shape = (B, arr.shape[-1])
        g = np.arange(B)[:, None]
        if arr.ndim == 1:
            def take(x: np.ndarray, c: np.ndarray = cc) -> np.ndarray:
                return x[:, c]           # a plain column gather: much cheaper than (g, c)
        else:
            def take(x: np.ndarray, c: np.ndarray = cc) -> np.ndarray:
                return x[g, c]
        zone = take(s.a["zone"])
        present = (cols >= 0) & (zone != zones.NONE)
        out = np.empty(shape + (len(names),), out_dtype)
        for j, name in enumerate(names):
            out[:, :, j] = np.broadcast_to(self._feature(name, take, cc, zone), shape)
        out[~present] = 0
        return out, names

    def _feature(self, name: str, take: Any, cc: np.ndarray,
                 zone: np.ndarray) -> Any:
        """One feature of columns ``cc``, broadcastable to (B, m); ``take`` gathers the
        columns of a (B, C) array (masking by presence is the caller's)."""
        s = self.store
        a = s.a
        if not isinstance(name, str):
            raise InvalidTypeError(f"feature names are strings, got {name!r}")
        if name == "present":
            return np.ones(1, np.int64)
        if name == "zone":
            return zone
        if name.startswith("zone:"):
            z = name[5:]
            if z not in _REAL_ZONES and z not in self.ruleset.zone_aliases:
                raise InvalidTypeError(f"unknown feature {name!r}: no zone {z!r}")
            return zone == zones.zone_code(z, self.ruleset.zone_aliases)
        if name in ("tapped", "damage"):
            return take(a[name])
        if name in ("token", "controller"):
            return a[name][cc]
        if name in ("power", "toughness"):
            printed = a[name][cc]
            value = np.where(printed == NO_STAT, 0, printed).astype(np.int64)
            which = 0 if name == "power" else 1
            for k, kind in enumerate(s.kind_names):
                mod = self.ruleset.pt_modifier(kind)
                if mod is not None and mod[which]:
                    value = value + mod[which] * take(s.counts[k]).astype(np.int64)
            return np.where(printed == NO_STAT, 0, value)
        if name in ("loyalty", "defense"):
            printed = a[name][cc]
            type_ok = (a["types"][cc] & TYPE_BIT["planeswalker" if name == "loyalty" else "battle"]) != 0
            has = type_ok & (printed != NO_STAT)
            ki = s.kind_index.get(name)   # not k: the int of the loops above and below
            count = take(s.counts[ki]) if ki is not None else 0
            return np.where(has, np.where(zone == zones.BATTLEFIELD, count, printed), 0)
        if name in ("life", "lost"):
            if s.n_players == 0:
                return np.zeros(1, np.int64)
            is_player = zone == zones.PLAYER
            idx = np.maximum(a["controller"][cc], 0).astype(np.int64)
            if name == "life" and self.two_headed_giant:
                idx = a["player_head"][idx].astype(np.int64)
            return np.where(is_player, a[name][np.arange(self.batch)[:, None], idx], 0)
        if name.startswith("counter:"):
            kind = self._kind(name[8:])
            ki = s.kind_index.get(kind)
            if ki is None:
                return np.zeros(1, np.int64)
            holder = self._holder(kind, cc.ravel()).reshape(cc.shape)
            return take(s.counts[ki], holder)
        if name.startswith("type:"):
            t = name[5:]
            if t not in TYPE_BIT:
                raise InvalidTypeError(f"unknown feature {name!r}: no card type {t!r}")
            return (a["types"][cc] & TYPE_BIT[t]) != 0
        if name.startswith("keyword:"):
            kw = name[8:]
            if kw not in KEYWORD_BIT:
                raise InvalidTypeError(f"unknown feature {name!r}: no keyword {kw!r}")
            value = (a["keywords"][cc] & KEYWORD_BIT[kw]) != 0
            for k, kind in enumerate(s.kind_names):
                if keyword_of(kind) == kw:
                    value = value | (take(s.counts[k]) > 0)
            return value
        raise InvalidTypeError(f"unknown observation feature {name!r}; see World.observe")


__all__ = ["SearchActions"]
