"""Batch and tree-search support: fork, select, save/load and observations (issue 4).

``World.snapshot()``/``restore()``/``clone()`` (in ``ecs.world``) copy the state as arrays.
This mixin adds what a search or a Monte Carlo evaluator needs on top of them:

* ``fork(game, n)``: a new World of ``n`` games, each a copy of one game of this one (the
  start of a Monte Carlo evaluation from a position), with its own random generator;
* ``select(games)``: a new World keeping some games, in the given order;
* ``save(path)`` / ``World.load(path)``: the snapshot as a standard ``.npz`` file with a
  format version, checked completely before a World is built;
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

import hashlib
import numbers
import os
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence, cast

import numpy as np

from ecs.components import ALL_FIELDS, COLUMN, GAME_COLUMN, GAME_PLAYER, TYPE_BIT
from ecs.components.card import NO_STAT

from . import zones
from .errors import (CounterError, InvalidGameError, InvalidTypeError, SnapshotError,
                     UnknownEntityError)
from .events import CAUSES
from .kinds import KEYWORD_BIT, keyword_of, validate_kind
from .selection import select_games

if TYPE_CHECKING:
    from .events import EventLog
    from .rulesets import Ruleset
    from .store import Store
    from .world import World

#: Version of the ``save`` file format; ``load`` refuses newer files.
FORMAT_VERSION = 1
MAGIC = "tcg-counters-world"

_FIELDS = {f.name: f for f in ALL_FIELDS}
#: Store arrays outside ``components`` whose first axis is the game (see ecs.store).
_GAME_AXIS_EXTRA = ("cap_val", "winner")
#: Store arrays outside ``components`` with no game axis.
_SHARED_EXTRA = ("player_col", "player_team", "player_head", "cap_col", "cap_kind")
_LOG_COLUMNS = ("type", "step", "game", "entity", "kind", "before", "after", "cause", "other",
                "from_zone", "to_zone")
_LKI_COLUMNS = ("lki_row", "lki_kind", "lki_count")
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

    # ---- save and load --------------------------------------------------------------------
    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the whole World (state, events, generator, configuration) to ``path`` as an
        uncompressed ``.npz`` (``numpy.load`` reads it; no pickles). The name is used as
        given. The file is written beside ``path`` and renamed, so a crash never leaves a
        half-written file under that name."""
        arrays = _to_arrays(cast("World", self))
        path = os.fspath(path)
        tmp = f"{path}.tmp-{os.getpid()}"
        try:
            with open(tmp, "wb") as fh:
                np.savez(fh, **arrays)  # type: ignore[arg-type]
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "World":
        """Read a World written by ``save``. A missing, truncated or corrupted file, a file
        of a newer format version or one whose arrays do not fit together raises
        ``ecs.errors.SnapshotError``; everything is checked before a World is built."""
        arrays = _read_npz(path)
        return _from_arrays(arrays, str(path))

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


# ---- the file format -------------------------------------------------------------------------
def _int_words(x: Any, bits: int) -> list[int]:
    """A non-negative int as little-endian words of ``bits`` bits (at least one word)."""
    x = int(x)
    if x < 0:
        raise SnapshotError(f"can't save the negative seed value {x}")
    words = []
    while True:
        words.append(x & ((1 << bits) - 1))
        x >>= bits
        if not x:
            return words


def _entropy_text(entropy: Any) -> np.ndarray:
    """SeedSequence entropy (an int or a sequence of ints) as decimal text, shape () or (k,)."""
    if isinstance(entropy, numbers.Integral):
        return np.array(str(int(entropy)))
    return np.array([str(int(e)) for e in entropy], dtype=str).reshape(-1)


def _entropy_value(text: np.ndarray) -> Any:
    def one(t: str) -> int:
        if not (0 < len(t) <= 200 and t.isascii() and t.isdigit()):
            raise SnapshotError(f"seed entropy {t[:50]!r} is not a non-negative integer")
        return int(t)
    if text.ndim == 0:
        return one(str(text))
    if text.ndim != 1 or text.size == 0:
        raise SnapshotError(f"seed entropy of shape {text.shape}")
    return [one(str(t)) for t in text]


def _rng_words(state: Mapping[str, Any]) -> np.ndarray:
    if state.get("bit_generator") != "PCG64":
        raise SnapshotError(f"can only save a PCG64 generator, not {state.get('bit_generator')!r}")
    st = state["state"]
    s_words = _int_words(st["state"], 64) + [0]
    i_words = _int_words(st["inc"], 64) + [0]
    return np.array(s_words[:2] + i_words[:2] + [int(state["has_uint32"]), int(state["uinteger"])],
                    np.uint64)


def _rng_state(words: np.ndarray) -> dict[str, Any]:
    w = [int(x) for x in words]
    return {"bit_generator": "PCG64", "state": {"state": w[0] | (w[1] << 64), "inc": w[2] | (w[3] << 64)},
            "has_uint32": w[4], "uinteger": w[5]}


def digest(arrays: Mapping[str, np.ndarray]) -> str:
    """SHA-256 over every array but ``digest`` (name, dtype, shape and bytes, by name)."""
    h = hashlib.sha256()
    for key in sorted(arrays):
        if key == "digest":
            continue
        arr = np.ascontiguousarray(arrays[key])
        h.update(f"{key}|{arr.dtype.str}|{arr.shape}|".encode())
        h.update(arr.tobytes())
    return h.hexdigest()


def _to_arrays(world: "World") -> dict[str, np.ndarray]:
    snap = world.snapshot()
    out: dict[str, np.ndarray] = {
        "magic": np.array(MAGIC),
        "format_version": np.array(FORMAT_VERSION, np.int64),
        "config.ruleset": np.array(world.ruleset.name),
        "config.batch": np.array(world.batch, np.int64),
        "config.two_headed_giant": np.array(world.two_headed_giant),
        "config.max_passes": np.array(world.max_passes, np.int64),
        "names": np.array(snap["names"], dtype=str).reshape(-1),
        "rng": _rng_words(snap["rng"]),
        "seed.entropy": _entropy_text(snap["seed_seq"][0]),
        "seed.spawn_key": np.array(snap["seed_seq"][1], np.int64).reshape(-1),
        "seed.pool_size": np.array(snap["seed_seq"][2], np.int64),
        "seed.n_spawned": np.array(snap["n_spawned"], np.int64),
    }
    for key, arr in snap["store"].items():
        out["store." + key] = np.asarray(arr)
    log = world.log
    table = log.table()
    for key in _LOG_COLUMNS + _LKI_COLUMNS:
        out["log." + key] = table[key].astype(np.int64)
    out["log.meta"] = np.array([log.rows, log.step], np.int64)
    out["digest"] = np.array(digest(out))
    return out


def _read_npz(path: str | os.PathLike[str]) -> dict[str, np.ndarray]:
    """Every member of the file, read completely (so zip CRCs are checked)."""
    try:
        with np.load(path, allow_pickle=False) as npz:
            return {key: npz[key] for key in npz.files}
    except FileNotFoundError:
        raise SnapshotError(f"{path}: no such file") from None
    except Exception as exc:  # zipfile, npy header, decompression, ... all mean damaged
        raise SnapshotError(f"{path}: not a readable tcg-counters save file (truncated or "
                            f"corrupted?): {type(exc).__name__}: {exc}") from None


class _Checker:
    """Validation of a loaded file: every problem is a SnapshotError naming the array."""

    def __init__(self, arrays: Mapping[str, np.ndarray], where: str) -> None:
        self.arrays, self.where = arrays, where

    def fail(self, msg: str) -> SnapshotError:
        return SnapshotError(f"{self.where}: {msg}")

    def get(self, key: str, dtype: Any, shape: tuple[int | None, ...] | None = None) -> np.ndarray:
        if key not in self.arrays:
            raise self.fail(f"missing array {key!r}")
        arr = self.arrays[key]
        if dtype == "str":
            if arr.dtype.kind != "U":
                raise self.fail(f"array {key!r} has dtype {arr.dtype}, expected text")
        elif arr.dtype != np.dtype(dtype):
            raise self.fail(f"array {key!r} has dtype {arr.dtype}, expected {np.dtype(dtype)}")
        if shape is not None:
            if arr.ndim != len(shape) or any(w is not None and w != a for w, a in zip(shape, arr.shape)):
                raise self.fail(f"array {key!r} has shape {arr.shape}, expected "
                                f"{tuple('?' if w is None else w for w in shape)}")
        return arr

    def scalar(self, key: str, dtype: Any) -> Any:
        return self.get(key, dtype, ()).item()

    def range(self, key: str, arr: np.ndarray, lo: int, hi: int) -> None:
        """All values in [lo, hi)."""
        if arr.size and (arr.min() < lo or arr.max() >= hi):
            raise self.fail(f"array {key!r} has values outside {lo}..{hi - 1}")


def _from_arrays(arrays: Mapping[str, np.ndarray], where: str) -> "World":
    from .rulesets import get_ruleset
    from .world import World

    ck = _Checker(arrays, where)
    if "magic" not in arrays or arrays["magic"].dtype.kind != "U" or arrays["magic"].shape != () \
            or str(arrays["magic"]) != MAGIC:
        raise ck.fail("not a tcg-counters save file")
    version = ck.scalar("format_version", np.int64)
    if version > FORMAT_VERSION:
        raise ck.fail(f"format version {version} is newer than this library's {FORMAT_VERSION}; "
                      "upgrade tcg-counters to read it")
    if version != FORMAT_VERSION:
        raise ck.fail(f"unknown format version {version}")
    if "digest" not in arrays or arrays["digest"].dtype.kind != "U" or arrays["digest"].shape != ():
        raise ck.fail("missing array 'digest'")
    if str(arrays["digest"]) != digest(arrays):
        raise ck.fail("checksum mismatch: the file is corrupted")
    extra = set(arrays) - _expected_keys(arrays)
    if extra:
        raise ck.fail(f"unexpected arrays {sorted(extra)}")

    # Configuration.
    ruleset = str(ck.get("config.ruleset", "str", ()))
    try:
        get_ruleset(ruleset)
    except CounterError:
        raise ck.fail(f"unknown ruleset {ruleset!r}") from None
    B = ck.scalar("config.batch", np.int64)
    if B < 1:
        raise ck.fail(f"batch {B} is not positive")
    two_hg = ck.scalar("config.two_headed_giant", np.bool_)
    max_passes = ck.scalar("config.max_passes", np.int64)
    names = [str(x) for x in ck.get("names", "str", (None,))]

    # Generator and seed.
    rng = ck.get("rng", np.uint64, (6,))
    if int(rng[4]) not in (0, 1) or int(rng[5]) >= 2**32 or not int(rng[2]) & 1:
        raise ck.fail("array 'rng' is not a PCG64 state")
    try:
        entropy = _entropy_value(ck.get("seed.entropy", "str"))
    except SnapshotError as exc:
        raise ck.fail(str(exc)) from None
    spawn_key = ck.get("seed.spawn_key", np.int64, (None,))
    pool_size = ck.scalar("seed.pool_size", np.int64)
    n_spawned = ck.scalar("seed.n_spawned", np.int64)
    if (spawn_key < 0).any() or pool_size < 4 or n_spawned < 0:
        raise ck.fail("seed arrays are not a SeedSequence")

    # Store.
    meta = ck.get("store.meta", np.int64, (3,))
    mb, n, next_id = (int(x) for x in meta)
    if mb != B:
        raise ck.fail(f"store.meta says batch {mb}, the configuration {B}")
    if not 0 <= n <= next_id:
        raise ck.fail(f"store.meta: {n} columns and {next_id} ids do not fit")
    kind_names = [str(x) for x in ck.get("store.kind_names", "str", (None,))]
    K = len(kind_names)
    try:
        rs = get_ruleset(ruleset)
        for kind in kind_names:
            rs.validate_kind(validate_kind(kind))
    except CounterError as exc:
        raise ck.fail(f"store.kind_names: {exc}") from None
    if len(set(kind_names)) != K:
        raise ck.fail("store.kind_names names a kind twice")
    counts = ck.get("store.counts", np.int32, (K, B, n))
    if counts.size and counts.min() < 0:
        raise ck.fail("store.counts has negative counts")
    pcol = ck.get("store.player_col", np.int32, (None,))
    P = pcol.size
    ck.range("store.player_col", pcol, 0, n)
    ck.get("store.player_team", np.int32, (P,))
    ck.range("store.player_head", ck.get("store.player_head", np.int32, (P,)), 0, max(P, 1))
    for f in ALL_FIELDS:
        shape = {COLUMN: (n,), GAME_COLUMN: (B, n), GAME_PLAYER: (B, P)}[f.shape]
        ck.get("store." + f.name, f.dtype, shape)
    ck.range("store.zone", arrays["store.zone"], 0, len(zones.ZONES))
    ck.range("store.controller", arrays["store.controller"], -1, P)
    ck.range("store.name_id", arrays["store.name_id"], -1, len(names))
    ncap = ck.get("store.cap_col", np.int32, (None,)).size
    ck.range("store.cap_col", arrays["store.cap_col"], 0, n)
    ck.range("store.cap_kind", ck.get("store.cap_kind", np.int32, (ncap,)), 0, K)
    ck.get("store.cap_val", np.int64, (B, ncap))
    ck.range("store.winner", ck.get("store.winner", np.int16, (B,)), -2, P)
    col_of_id = ck.get("store.col_of_id", np.int32, (next_id,))
    ck.range("store.col_of_id", col_of_id, -1, n)
    entity_id = arrays["store.entity_id"]
    ck.range("store.entity_id", entity_id, -1, next_id)
    live = np.flatnonzero(col_of_id >= 0)
    if (entity_id[col_of_id[live]] != live).any() or \
            (col_of_id[entity_id[entity_id >= 0]] != np.flatnonzero(entity_id >= 0)).any():
        raise ck.fail("store.col_of_id and store.entity_id disagree")
    free = ck.get("store.free", np.int64, (None,))
    if sorted(free.tolist()) != np.flatnonzero(entity_id < 0).tolist():
        raise ck.fail("store.free does not list exactly the free columns")
    if (arrays["store.zone"][:, entity_id < 0] != zones.NONE).any():
        raise ck.fail("a free column is in a zone")
    if P and (arrays["store.types"][pcol] & TYPE_BIT["player"] == 0).any():
        raise ck.fail("store.player_col names a column that is not a player")

    # Event log.
    rows, step = (int(x) for x in ck.get("log.meta", np.int64, (2,)))
    cols = {c: ck.get("log." + c, np.int64, (rows,)) for c in _LOG_COLUMNS}
    ck.range("log.type", cols["type"], 0, 4)
    ck.range("log.game", cols["game"], 0, B)
    ck.range("log.cause", cols["cause"], 0, len(CAUSES))
    ck.range("log.from_zone", cols["from_zone"], 0, len(zones.ZONES))
    ck.range("log.to_zone", cols["to_zone"], 0, len(zones.ZONES))
    ck.range("log.kind", cols["kind"], -1, K)
    ck.range("log.step", cols["step"], 0, step + 1)
    if ((cols["type"] == 0) & (cols["kind"] < 0)).any():
        raise ck.fail("a counter event names no kind")
    player_rows = cols["type"] == 0
    ck.range("log.other", cols["other"][player_rows], -1, P)
    nl = ck.get("log.lki_row", np.int64, (None,)).size
    ck.range("log.lki_row", arrays["log.lki_row"], 0, rows)
    ck.range("log.lki_kind", ck.get("log.lki_kind", np.int64, (nl,)), 0, K)
    ck.get("log.lki_count", np.int64, (nl,))

    store_snap = {key[6:]: arrays[key] for key in arrays if key.startswith("store.")}
    log_snap = {"chunks": [{c: cols[c].copy() for c in _LOG_COLUMNS}] if rows else [],
                "lki": [{"row": arrays["log.lki_row"].copy(), "kind": arrays["log.lki_kind"].copy(),
                         "count": arrays["log.lki_count"].copy()}] if nl else [],
                "rows": rows, "step": step}
    try:
        seed_seq = np.random.SeedSequence(entropy,
                                          spawn_key=tuple(int(x) for x in spawn_key),
                                          pool_size=pool_size)
        world = World(ruleset, B, seed_seq, two_headed_giant=two_hg, max_passes=max_passes)
        world.restore({"store": store_snap, "log": log_snap, "rng": _rng_state(rng), "names": names,
                       "seed_seq": _seed_tuple(seed_seq), "n_spawned": n_spawned})
    except SnapshotError:
        raise
    except Exception as exc:  # anything the checks above missed: still no half-loaded World
        raise ck.fail(f"could not rebuild the World: {type(exc).__name__}: {exc}") from None
    return world


def _expected_keys(arrays: Iterable[str]) -> set[str]:
    base = {"magic", "format_version", "digest", "config.ruleset", "config.batch",
            "config.two_headed_giant", "config.max_passes", "names", "rng", "seed.entropy",
            "seed.spawn_key", "seed.pool_size", "seed.n_spawned", "log.meta",
            "store.counts", "store.col_of_id", "store.free", "store.meta", "store.kind_names"}
    base |= {"log." + c for c in _LOG_COLUMNS + _LKI_COLUMNS}
    base |= {"store." + f.name for f in ALL_FIELDS}
    base |= {"store." + k for k in _GAME_AXIS_EXTRA + _SHARED_EXTRA}
    return base


__all__ = ["FORMAT_VERSION", "MAGIC", "SearchActions", "digest"]
