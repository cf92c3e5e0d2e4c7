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
from typing import TYPE_CHECKING, Any, Iterable, Mapping

import numpy as np

from ecs.components import ALL_FIELDS, CAP, COLUMN, GAME, GAME_CAP, GAME_COLUMN, GAME_PLAYER, PLAYER, TYPE_BIT

from . import zones
from .batch import seed_key
from .errors import CounterError, SnapshotError
from .events import CAUSES, N_TYPES
from .events import LOG_COLUMNS as _LOG_COLUMNS
from .kinds import validate_kind

if TYPE_CHECKING:
    from .world import World

#: Version of the ``save`` file format; ``load`` refuses newer files.
FORMAT_VERSION = 1
MAGIC = "tcg-counters-world"

_FIELDS = {f.name: f for f in ALL_FIELDS}
_LKI_COLUMNS = ("lki_row", "lki_kind", "lki_count")
#: Zones an object can be in (code 0 "none" and the "player" marker excluded).
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
    from .rules import get_ruleset
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
    ncap = ck.get("store.cap_col", np.int32, (None,)).size
    for f in ALL_FIELDS:
        shape = {COLUMN: (n,), GAME_COLUMN: (B, n), GAME_PLAYER: (B, P), PLAYER: (P,), GAME: (B,),
                 CAP: (ncap,), GAME_CAP: (B, ncap)}[f.shape]
        ck.get("store." + f.name, f.dtype, shape)
    ck.range("store.zone", arrays["store.zone"], 0, len(zones.ZONES))
    ck.range("store.controller", arrays["store.controller"], -1, P)
    ck.range("store.name_id", arrays["store.name_id"], -1, len(names))
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
    ck.range("log.type", cols["type"], 0, N_TYPES)
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
                       "seed_seq": seed_key(seed_seq), "n_spawned": n_spawned})
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
    return base


__all__ = ["FORMAT_VERSION", "MAGIC", "digest", "load", "save"]


def save(world: Any, path: str | os.PathLike[str]) -> None:
    """Write the whole World (state, events, generator, configuration) to ``path`` as an
    uncompressed ``.npz`` (``numpy.load`` reads it; no pickles). The name is used as
    given. The file is written beside ``path`` and renamed, so a crash never leaves a
    half-written file under that name."""
    arrays = _to_arrays(world)
    path = os.fspath(path)
    tmp = f"{path}.tmp-{os.getpid()}"
    try:
        with open(tmp, "wb") as fh:
            np.savez(fh, **arrays)  # type: ignore[arg-type]
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def load(path: str | os.PathLike[str]) -> Any:
    """Read a World written by ``save``. A missing, truncated or corrupted file, a file
    of a newer format version or one whose arrays do not fit together raises
    ``ecs.errors.SnapshotError``; everything is checked before a World is built."""
    arrays = _read_npz(path)
    return _from_arrays(arrays, str(path))
