"""Save files: the parts of a World as a standard ``.npz``, and back.

This module knows nothing of World. ``Parts`` is what a World is made of, as plain values
(its configuration and the dict ``World.snapshot()`` returns); ``save(parts, path)`` writes
them and ``load(path)`` returns them, checked, for ecs.world to build the World from.

The file is an uncompressed ``.npz`` (``numpy.load(path, allow_pickle=False)`` reads it):
``store.*`` (the store's arrays), ``log.*`` (the event log's columns), ``names``, ``rng``
and ``seed.*`` (generator and seed sequence), ``config.*``, ``magic``, ``format_version``
and a SHA-256 ``digest`` of all the others.

Writing: a temporary file with an unpredictable name is created exclusively beside the
target (``.{name}.tcgtmp-{pid}-{random}``; never a file or link someone planted), written,
fsynced, renamed over the target, and the folder fsynced. Temporary files of writers whose
process is gone (killed mid-write) are removed by the next save to that name.

Reading does work in proportion to the file's size: the archive directory must list this
format's members, stored (a deflated member could expand a thousandfold), and no more
bytes than the file holds; the version is checked (``_check_version``, the one place);
every member's ``.npy`` header must give the dtype and shape that the header arrays
(``config.batch``, ``store.meta``, ``log.meta``) and the other members imply, and the
archive its exact size, before any data is read. Then the digest, then every relation
between the arrays (``_check_parts``): ids and columns, players and teams, zones, kinds,
caps, empty slots, events and their last-known information, the generator and the seed;
and every value within what the actions make of it (life totals, stats and a host's
effects, library positions, team keys, Grand Archive state in a Magic file).
Every problem is a SnapshotError naming the file and the array; a World is built only
from a file that passes everything.
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import numbers
import os
import secrets
import stat
import zipfile
from dataclasses import dataclass
from typing import IO, Any, Callable, Collection, Mapping, Sequence

import numpy as np

from . import sets, zones
from .components import (
    ALL_FIELDS,
    BAN_ALL,
    CAP,
    CARD_FIELDS,
    GAME,
    GAME_CAP,
    GAME_COLUMN,
    GAME_PLAYER,
    HOST_EFFECT_FIELDS,
    HOST_MARK,
    PLAYER,
    TYPE_BIT,
)
from .components.game import NO_CAP
from .errors import CounterError, SnapshotError
from .events import (
    ACTION,
    CAUSES,
    COUNTER,
    DAMAGE,
    GAME_END,
    LOG_COLUMNS,
    LOST,
    N_TYPES,
    RESERVE,
    TAP,
    ZONE,
    ZONE_TOKEN,
    EventLog,
    zone_kind_code,
)
from .host import marks
from .kinds import KEYWORD_BIT, validate_kind
from .limits import MAX_COUNT, MAX_LIFE, MAX_PASSES, MAX_STAT, MAX_TEAM
from .rules import GrandArchive, get_ruleset
from .rules import Magic as Ruleset

#: Version of the file format; ``load`` refuses any other (``_check_version``). 2: the
#: host-state and immortality arrays and the reserve and action events. 3: slots per game
#: (every object field is (B, n), no free list). 4: an id may sit in different columns in
#: different games; a version-3 file is a version-4 file whose ids never do, and loads.
FORMAT_VERSION = 4
_READS = (3, FORMAT_VERSION)   # the versions ``load`` reads
MAGIC = "tcg-counters-world"

#: Bounds on what a file may ask for that its size does not bound: building a
#: ``SeedSequence`` costs the square of its pool size (30,000 words: 4 s), and counters
#: that a World increments must not pass int64.
MAX_POOL_SIZE = 256
MAX_ENTROPY_DIGITS = 200
MAX_COUNTER = 2**62   # log.meta's step and seed.n_spawned

#: Temporary files of ``save`` are named ``.{name}{_TMP}{pid}-{random}``.
_TMP = ".tcgtmp-"

_LKI_COLUMNS = ("lki_row", "lki_kind", "lki_count")
#: Store arrays a file does not hold: a load makes them from the others (``ecs.host.marks``).
_DERIVED = (HOST_MARK.name,)
_SHAPE_CLASS = {GAME_COLUMN: ("B", "n"), GAME_PLAYER: ("B", "P"), PLAYER: ("P",),
                GAME: ("B",), CAP: ("caps",), GAME_CAP: ("B", "caps")}
#: Every array of the format: (dtype, shape), a dtype of "str" being text of any length.
#: A dimension is a number, None (any), or a name: "B" (config.batch), "n" (store.meta),
#: "rows" (log.meta), or the size of the first array listed with it. The id -> column
#: index is not saved: a load rebuilds it from store.entity_id.
_SPEC: dict[str, tuple[Any, tuple[int | str | None, ...] | None]] = {
    "magic": ("str", ()), "format_version": (np.int64, ()), "digest": ("str", ()),
    "config.ruleset": ("str", ()), "config.batch": (np.int64, ()),
    "config.two_headed_giant": (np.bool_, ()), "config.max_passes": (np.int64, ()),
    "names": ("str", ("names",)), "rng": (np.uint64, (6,)),
    "seed.entropy": ("str", None),   # () for an int, (k,) for a sequence
    "seed.spawn_key": (np.int64, ("spawn_key",)), "seed.pool_size": (np.int64, ()),
    "seed.n_spawned": (np.int64, ()),
    "store.meta": (np.int64, (3,)), "store.kind_names": ("str", ("K",)),
    "store.counts": (np.int32, ("K", "B", "n")),
    **{"store." + f.name: (f.dtype, _SHAPE_CLASS[f.shape]) for f in ALL_FIELDS if f.name not in _DERIVED},
    "log.meta": (np.int64, (2,)),
    **{"log." + c: (np.int64, ("rows",)) for c in LOG_COLUMNS},
    **{"log." + c: (np.int64, ("lki",)) for c in _LKI_COLUMNS},
}
_STORE_KEYS = frozenset(k[6:] for k in _SPEC if k.startswith("store."))
#: Members read before the others: what the rest of the header checks need.
_HEADER_ARRAYS = ("config.batch", "store.meta", "log.meta")
_PLAYER = TYPE_BIT["player"]
_ALL_TYPES = sum(TYPE_BIT.values())
_ALL_KEYWORDS = sum(KEYWORD_BIT.values())
_FIELDS = {f.name: f for f in ALL_FIELDS}
#: Printed stats (World.add_objects) and the host's set and modified power and toughness
#: (ecs.host): at most MAX_STAT in size, where not their fill.
_STATS = ("power", "toughness", "loyalty", "defense", "durability", "level") + tuple(
    f.name for f in HOST_EFFECT_FIELDS if f.name.startswith("pt_"))
_UNSIGNED_STATS = ("loyalty", "defense", "durability")
#: Store arrays only Grand Archive writes (set_immortal; a champion leaving, GA Ending 5).
_GRAND_ARCHIVE_ONLY = ("immortal", "champion_left")


@dataclass(frozen=True)
class Parts:
    """What a World is made of: its configuration and a ``World.snapshot()``-shaped dict
    (``store``, ``log``, ``rng``, ``names``, ``seed_seq``, ``n_spawned``)."""
    ruleset: str
    batch: int
    two_headed_giant: bool
    max_passes: int
    snapshot: Mapping[str, Any]

    @property
    def seed_seq(self) -> np.random.SeedSequence:
        entropy, spawn_key, pool_size = self.snapshot["seed_seq"]
        return np.random.SeedSequence(entropy, spawn_key=spawn_key, pool_size=pool_size)


# ---- saving --------------------------------------------------------------------------------
def save(parts: Parts, path: str | os.PathLike[str]) -> None:
    """Write ``parts`` to ``path`` (used as given) atomically: readers see the old file or
    the new one, whole, even if this process dies or other writers save to that path."""
    path = _path(path)
    arrays = _to_arrays(parts)
    folder, name = os.path.split(os.path.abspath(path))
    prefix = f".{name[:100]}{_TMP}"
    _remove_leftovers(folder, prefix)
    try:
        fd, tmp = _create_exclusive(folder, f"{prefix}{os.getpid()}-")
    except OSError as exc:
        raise _as_open_raises(exc, path) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            np.savez(fh, **arrays)  # type: ignore[arg-type]
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and exc.filename in (None, tmp):
            raise _as_open_raises(exc, path) from None
        raise
    _fsync_folder(folder)


def _as_open_raises(exc: OSError, path: str) -> OSError:
    """``exc`` naming ``path``, as ``open(path, "wb")`` would raise it, not the temporary
    file the save writes first (a name the caller never gave)."""
    if exc.errno is None:
        return exc
    return type(exc)(exc.errno, exc.strerror, path)


def _path(path: Any) -> str:
    """``path`` as a str; a SnapshotError for anything that is not a path."""
    try:
        return os.fspath(path)
    except TypeError:
        raise SnapshotError(f"{path!r} is not a path to a save file (a str or an "
                            "os.PathLike)") from None


def _create_exclusive(folder: str, prefix: str) -> tuple[int, str]:
    """A new file ``prefix + random`` in ``folder``, created by this call (O_EXCL: an
    existing file or link of that name, even a dangling one, is never opened)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) \
        | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        tmp = os.path.join(folder, prefix + secrets.token_hex(8))
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", os.path.join(folder, prefix))


def _remove_leftovers(folder: str, prefix: str) -> None:
    """Remove ``prefix{pid}-{random}`` files whose writer's process is gone."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if not entry.name.startswith(prefix):
            continue
        pid, _, rest = entry.name[len(prefix):].partition("-")
        if rest and pid.isascii() and pid.isdigit() and not _alive(int(pid)):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)


def _alive(pid: int) -> bool:
    """Might process ``pid`` still be writing? (True when that can't be told.)"""
    if os.name != "posix" or not 0 < pid < 2**31 or pid == os.getpid():
        return True   # (os.kill on Windows would end the process)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:   # e.g. another user's process
        return True
    return True


def _fsync_folder(folder: str) -> None:
    """Make the rename durable (POSIX: fsync the folder; elsewhere there is no such call)."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno != errno.EINVAL:   # a file system that can't sync folders
            raise
    finally:
        os.close(fd)


def _to_arrays(parts: Parts, signed: bool = True) -> dict[str, np.ndarray]:
    """The save format's arrays of ``parts``; ``signed``: with their digest (a snapshot
    only checked in memory has no use for one: an empty digest)."""
    snap = parts.snapshot
    unknown = set(snap["store"]) ^ _STORE_KEYS.union(_DERIVED)
    if unknown:
        raise SnapshotError(f"store arrays {sorted(unknown)} do not match the save format of "
                            "ecs.persist (_SPEC)")
    entropy, spawn_key, pool_size = snap["seed_seq"]
    values = _integers([entropy] if isinstance(entropy, numbers.Number) else entropy, "seed entropy")
    spawn_key = _integers(spawn_key, "seed spawn key")
    pool_size = _integers([pool_size], "seed pool size")[0]
    n_spawned = _integers([snap["n_spawned"]], "n_spawned")[0]
    problem = _seed_problem(values, spawn_key, pool_size, n_spawned)
    if problem or not -2**63 <= parts.max_passes < 2**63:
        raise SnapshotError(f"can't save this World: {problem or 'max_passes past int64'}")
    text = np.array([str(v) for v in values], dtype=str)
    out: dict[str, np.ndarray] = {
        "magic": np.array(MAGIC),
        "format_version": np.array(FORMAT_VERSION, np.int64),
        "config.ruleset": np.array(parts.ruleset),
        "config.batch": np.array(parts.batch, np.int64),
        "config.two_headed_giant": np.array(bool(parts.two_headed_giant)),
        "config.max_passes": np.array(parts.max_passes, np.int64),
        "names": np.array(_texts(snap["names"], "card name"), dtype=str).reshape(-1),
        "rng": _rng_words(snap["rng"]),
        "seed.entropy": text.reshape(()) if isinstance(entropy, numbers.Integral) else text,
        "seed.spawn_key": np.array(spawn_key, np.int64).reshape(-1),
        "seed.pool_size": np.array(pool_size, np.int64),
        "seed.n_spawned": np.array(n_spawned, np.int64),
    }
    for key, arr in snap["store"].items():
        if key not in _DERIVED:
            out["store." + key] = np.asarray(arr)
    log = EventLog()
    log.restore(snap["log"])
    table = log.table()
    for key in LOG_COLUMNS + _LKI_COLUMNS:
        out["log." + key] = table[key].astype(np.int64)
    out["log.meta"] = np.array(_integers([log.rows, log.step], "log rows and step"), np.int64)
    out["digest"] = np.array(digest(out) if signed else "")
    return out


def _integers(values: Any, what: str) -> list[int]:
    """``values`` as Python ints; a SnapshotError for anything else (a float, a bool), not a
    value cut to an integer."""
    out = []
    for v in values:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Integral):
            raise SnapshotError(f"snapshot: {what} {v!r} is not an integer")
        out.append(int(v))
    return out


def _texts(values: Any, what: str) -> list[str]:
    """``values`` as a list of str; a SnapshotError for anything else, not its text."""
    out = list(values)
    bad = next((v for v in out if not isinstance(v, str)), None)
    if bad is not None:
        raise SnapshotError(f"snapshot: {what} {bad!r} is not a str")
    return out


def _seed_problem(entropy: list[int], spawn_key: Sequence[int], pool_size: int,
                  n_spawned: int) -> str | None:
    """What keeps a seed sequence out of a file, if anything (save and load both ask)."""
    if not all(0 <= e < 10**MAX_ENTROPY_DIGITS for e in entropy):
        return f"seed entropy is negative or longer than {MAX_ENTROPY_DIGITS} digits"
    if not 4 <= pool_size <= MAX_POOL_SIZE:
        return f"seed pool size {pool_size} is outside 4..{MAX_POOL_SIZE}"
    if not (all(0 <= k <= MAX_COUNTER for k in spawn_key) and 0 <= n_spawned <= MAX_COUNTER):
        return f"seed spawn key {tuple(spawn_key)[:8]} or n_spawned {n_spawned} outside 0..2**62"
    return None


def _rng_words(state: Mapping[str, Any]) -> np.ndarray:
    """A PCG64 state as 6 words: state (low, high), increment (low, high), has_uint32,
    uinteger."""
    if state.get("bit_generator") != "PCG64":
        raise SnapshotError(f"can only save a PCG64 generator, not {state.get('bit_generator')!r}")
    mask = (1 << 64) - 1
    st, inc, has_uint32, uinteger = _integers((state["state"]["state"], state["state"]["inc"],
                                               state["has_uint32"], state["uinteger"]), "generator state")
    return np.array([st & mask, st >> 64, inc & mask, inc >> 64, has_uint32, uinteger], np.uint64)


def _rng_state(words: np.ndarray) -> dict[str, Any]:
    w = [int(x) for x in words]
    return {"bit_generator": "PCG64",
            "state": {"state": w[0] | (w[1] << 64), "inc": w[2] | (w[3] << 64)},
            "has_uint32": w[4], "uinteger": w[5]}


def digest(arrays: Mapping[str, np.ndarray]) -> str:
    """SHA-256 over every array but ``digest`` (name, dtype, shape and bytes, by name)."""
    h = hashlib.sha256()
    for key in sorted(arrays):
        if key == "digest":
            continue
        arr = np.ascontiguousarray(arrays[key])
        h.update(f"{key}|{arr.dtype.str}|{arr.shape}|".encode())
        h.update(arr.data)
    return h.hexdigest()


# ---- loading -------------------------------------------------------------------------------
def load(path: str | os.PathLike[str]) -> Parts:
    """The parts of the World saved in ``path``, every relation between them checked; a
    SnapshotError naming the file and the array for anything else."""
    where = _path(path)
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) \
        | getattr(os, "O_NONBLOCK", 0)   # (opening a FIFO does not wait for a writer)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise SnapshotError(f"{where}: no such file") from None
    except OSError as exc:
        raise SnapshotError(f"{where}: can't be read: {exc}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise SnapshotError(f"{where}: not a regular file")
    with open(fd, "rb") as fh:
        arrays = _read(fh, where)
    return _check_parts(_Checker(arrays, where))


class _Checker:
    """A file's arrays and the checks on them: every problem a SnapshotError naming it."""

    def __init__(self, arrays: Mapping[str, np.ndarray], where: str) -> None:
        self.arrays, self.where = arrays, where

    def fail(self, msg: str) -> SnapshotError:
        return SnapshotError(f"{self.where}: {msg}")

    def __getitem__(self, key: str) -> np.ndarray:
        return self.arrays[key]

    def scalar(self, key: str) -> Any:
        return self.arrays[key].item()

    def range(self, key: str, arr: np.ndarray, lo: int, hi: int, of: str = "") -> None:
        """All values in [lo, hi); ``of``: which of the array's values these are, if not all."""
        if arr.size and (arr.min() < lo or arr.max() >= hi):
            bad = arr[(arr < lo) | (arr >= hi)].flat[0]
            raise self.fail(f"array {key!r} holds {bad}{of}, outside {lo}..{hi - 1}")

    def require(self, ok: Any, msg: str) -> None:
        if not np.all(ok):
            raise self.fail(msg)


def _read(fh: IO[bytes], where: str) -> dict[str, np.ndarray]:
    """Every array of the file, after checking the archive directory and every header
    against what the format and the header arrays imply."""
    try:
        with zipfile.ZipFile(fh) as zf:
            infos = _members(zf, where, os.fstat(fh.fileno()).st_size)
            headers: dict[str, _Header] = {}

            def header(key: str) -> _Header:
                if key not in headers:
                    headers[key] = _header(zf, infos[key], where)
                return headers[key]
            read = _check_layout(infos, header, lambda key: _read_member(zf, infos[key], header(key)), where)
            for key, info in infos.items():
                if key not in read:
                    read[key] = _read_member(zf, info, header(key))
    except SnapshotError:
        raise
    except Exception as exc:  # zipfile, npy header, CRC, ... all mean damaged
        raise SnapshotError(f"{where}: not a readable tcg-counters save file (truncated or "
                            f"corrupted?): {type(exc).__name__}: {exc}") from None
    if str(read["digest"]) != digest(read):
        raise SnapshotError(f"{where}: checksum mismatch: the file is corrupted")
    for key, arr in read.items():
        _check_values(key, arr, where)
    return read


def _check_layout(keys: Collection[str], header: Callable[[str], _Header],
                  value: Callable[[str], np.ndarray], where: str) -> dict[str, np.ndarray]:
    """The arrays ``keys`` are those of the format, each of the dtype and shape it and the
    header arrays imply (``header(key)``: its shape and dtype); returns the arrays it read
    (``value(key)``) to know them: the version and the header arrays."""
    read: dict[str, np.ndarray] = {}
    for key in ("magic", "format_version"):   # the version first
        head = header(key) if key in keys else None
        if head and head[0] == ():   # (a scalar: a few bytes)
            read[key] = value(key)
    _check_version(read, where)
    missing = sorted(set(_SPEC) - set(keys))
    if missing:
        raise SnapshotError(f"{where}: missing array {missing[0]!r}")
    extra = sorted(set(keys) - set(_SPEC))
    if extra:
        raise SnapshotError(f"{where}: unexpected arrays {extra}")
    for key in _HEADER_ARRAYS:
        _expect(key, header(key), {}, where)
        read[key] = value(key)
    dims = _header_dims(read, where)
    for key in _SPEC:   # in order: the first array with a named dimension sizes it
        _expect(key, header(key), dims, where)
    return read


def check_snapshot(snap: Any, ruleset: str, batch: int, two_headed_giant: bool,
                   max_passes: int) -> Mapping[str, Any]:
    """A snapshot that ``World.restore`` does not know as ``World.snapshot()``'s (a copy,
    a pickle, a dict made by hand), checked as the save file of a World of this
    configuration would be, after its ``config`` (a dict made by hand may have none):
    the snapshot to restore, made of its checked arrays (what only a process knows,
    whether a tick left it settled, is not kept). SnapshotError for anything else."""
    where = "snapshot"
    if not isinstance(snap, Mapping):
        raise SnapshotError(f"{where}: {type(snap).__name__} is not a snapshot (World.snapshot()'s mapping)")
    fits = (ruleset, batch, two_headed_giant)
    config = snap.get("config", fits)   # (a snapshot made by hand may not say)
    if not (type(config) is tuple and all(type(x) in (str, int, bool) for x in config) and config == fits):
        raise misfit(config, fits)
    try:
        arrays = _to_arrays(Parts(ruleset, batch, two_headed_giant, max_passes, snap), signed=False)
    except SnapshotError:
        raise
    except Exception as exc:   # a key missing, a value of another type: not a snapshot
        raise SnapshotError(f"{where}: not a snapshot of a World: {type(exc).__name__}: {exc}") from None
    _check_layout(arrays, lambda key: (np.shape(arrays[key]), arrays[key].dtype, 0),
                  arrays.__getitem__, where)
    for key, arr in arrays.items():
        _check_values(key, arr, where)
    return _check_parts(_Checker(arrays, where)).snapshot


def misfit(config: Any, fits: tuple[str, int, bool]) -> SnapshotError:
    """The error for a snapshot of a World of ``config`` (ruleset, batch size, Two-Headed
    Giant setting) restored into one of ``fits``."""
    return SnapshotError(f"a snapshot of a World of {config!r} (ruleset, batch, Two-Headed Giant) "
                         f"does not fit this World of {fits}")


def _members(zf: zipfile.ZipFile, where: str, file_size: int) -> dict[str, zipfile.ZipInfo]:
    """The ``.npy`` members by array name: each once, stored, all within the file."""
    infos: dict[str, zipfile.ZipInfo] = {}
    for info in zf.infolist():
        key = info.filename.removesuffix(".npy")
        if key == info.filename or key in infos:
            raise SnapshotError(f"{where}: member {info.filename!r} is not one array of a "
                                "tcg-counters save file")
        if info.compress_type != zipfile.ZIP_STORED:
            raise SnapshotError(f"{where}: array {key!r} is compressed; save files are "
                                "stored uncompressed")
        if info.compress_size != info.file_size:
            raise SnapshotError(f"{where}: array {key!r} is stored in {info.compress_size} "
                                f"bytes where the archive directory says it holds {info.file_size}")
        infos[key] = info
    if sum(info.file_size for info in infos.values()) > file_size:
        raise SnapshotError(f"{where}: the archive directory lists more bytes than the "
                            f"file's {file_size}")
    return infos


def _check_version(read: Mapping[str, np.ndarray], where: str) -> None:
    """The one place the format version is checked."""
    magic = read.get("magic")
    if magic is None or magic.dtype.kind != "U" or magic.shape != () or str(magic) != MAGIC:
        raise SnapshotError(f"{where}: not a tcg-counters save file")
    version = read.get("format_version")
    if version is None or version.dtype != np.int64 or version.shape != ():
        raise SnapshotError(f"{where}: missing array 'format_version' (an int64 scalar)")
    v = int(version)
    if v > FORMAT_VERSION:
        raise SnapshotError(f"{where}: format version {v} is newer than this library's "
                            f"{FORMAT_VERSION}; upgrade tcg-counters to read it")
    if v in (1, 2):
        raise SnapshotError(f"{where}: format version {v} was written by an older tcg-counters, "
                            "whose objects shared one column across the batch; this library "
                            f"reads versions {_READS[0]}-{FORMAT_VERSION} only (build the World again, e.g. "
                            "from its scenario, and save it anew)")
    if v not in _READS:
        raise SnapshotError(f"{where}: unknown format version {v}; this library reads "
                            f"version {FORMAT_VERSION}")


#: A member's .npy header: shape, dtype and where its data starts.
_Header = tuple[tuple[int, ...], "np.dtype[Any]", int]


def _header(zf: zipfile.ZipFile, info: zipfile.ZipInfo, where: str) -> _Header:
    """A member's shape and dtype from its ``.npy`` header (the data is not read); its
    size in the archive directory must be exactly what the header implies."""
    fmt = np.lib.format
    with zf.open(info) as fp:
        version = fmt.read_magic(fp)
        if version == (1, 0):
            shape, fortran, dtype = fmt.read_array_header_1_0(fp)
        elif version == (2, 0):
            shape, fortran, dtype = fmt.read_array_header_2_0(fp)
        else:
            raise SnapshotError(f"{where}: array {info.filename!r} has .npy version {version}")
        start = fp.tell()
    if fortran or dtype.hasobject:
        raise SnapshotError(f"{where}: array {info.filename!r} is not a plain C-ordered array")
    size = start + int(np.prod(shape, dtype=object)) * dtype.itemsize
    if size != info.file_size:
        raise SnapshotError(f"{where}: array {info.filename!r} is {info.file_size} bytes in "
                            f"the archive, its header says {size}")
    return shape, dtype, start


def _read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, header: _Header) -> np.ndarray:
    """The (read-only) array of a member whose header was checked; reading the member to
    its end checks its CRC."""
    shape, dtype, start = header
    with zf.open(info) as fp:
        fp.read(start)
        data = fp.read(info.file_size - start)
        fp.read(1)
    if not data:   # (frombuffer refuses an empty buffer of a zero-size dtype)
        return np.zeros(shape, dtype)
    return np.frombuffer(data, dtype).reshape(shape)


def _header_dims(read: Mapping[str, np.ndarray], where: str) -> dict[str, int]:
    """The sizes the header arrays give (their dtype and shape already checked)."""
    batch = int(read["config.batch"])
    mb, n, next_id = (int(x) for x in read["store.meta"])
    rows, step = (int(x) for x in read["log.meta"])
    if batch < 1:
        raise SnapshotError(f"{where}: config.batch {batch} is not positive")
    if mb != batch:
        raise SnapshotError(f"{where}: store.meta says batch {mb}, the configuration {batch}")
    if not 0 <= n <= next_id:
        raise SnapshotError(f"{where}: store.meta: {n} columns and {next_id} ids do not fit")
    if rows < 0 or not 0 <= step <= MAX_COUNTER:
        raise SnapshotError(f"{where}: log.meta: {rows} rows at step {step}")
    return {"B": batch, "n": n, "rows": rows}


def _expect(key: str, header: _Header, dims: dict[str, int], where: str) -> None:
    """The header of array ``key`` is as ``_SPEC`` and ``dims`` say; names of dimensions
    not yet in ``dims`` are taken from it."""
    shape, dtype, _ = header
    want_dtype, want = _SPEC[key]
    if want_dtype == "str":
        if dtype.kind != "U":
            raise SnapshotError(f"{where}: array {key!r} has dtype {dtype}, expected text")
    elif dtype != np.dtype(want_dtype):
        raise SnapshotError(f"{where}: array {key!r} has dtype {dtype}, expected "
                            f"{np.dtype(want_dtype)}")
    if want is None:
        ok = len(shape) <= 1
    else:
        ok = len(shape) == len(want)
        for w, a in zip(want, shape) if ok else ():
            if isinstance(w, str):
                w = dims.setdefault(w, a)
            ok &= w is None or w == a
    if not ok:
        expected = "() or (?,)" if want is None else str(tuple(
            "?" if w is None else dims.get(w, w) if isinstance(w, str) else w for w in want))
        raise SnapshotError(f"{where}: array {key!r} has shape {shape}, expected {expected}")


def _check_values(key: str, arr: np.ndarray, where: str) -> None:
    """Booleans are 0 or 1 and text is Unicode (NumPy reads any bytes as either)."""
    if arr.dtype == np.bool_ and arr.size and arr.reshape(-1).view(np.uint8).max() > 1:
        raise SnapshotError(f"{where}: array {key!r} holds booleans that are neither 0 nor 1")
    if arr.dtype.kind == "U" and arr.size:
        code = arr.reshape(-1).view(np.uint32)
        if (code > 0x10FFFF).any() or ((code >= 0xD800) & (code < 0xE000)).any():
            raise SnapshotError(f"{where}: array {key!r} is not Unicode text")


# ---- every relation between the arrays ------------------------------------------------------
def _check_parts(ck: _Checker) -> Parts:
    """Parts from arrays of the right dtypes and shapes, after checking every relation
    between them that the engine keeps."""
    ruleset = str(ck["config.ruleset"])
    try:
        rules = get_ruleset(ruleset)
    except CounterError:
        raise ck.fail(f"unknown ruleset {ruleset!r}") from None
    ck.require(rules.two_headed_giant or not ck["config.two_headed_giant"],
               f"a {ruleset} game in Two-Headed Giant, a Magic variant (CR 810) the {ruleset} "
               "ruleset does not have (earlier versions made one, playing Magic's "
               "team rules)")
    names = [str(x) for x in ck["names"]]
    ck.require(len(set(names)) == len(names), "array 'names' names a card twice")
    seed_seq = _check_seed(ck)
    kind_names = _check_store(ck, rules, len(names))
    _check_log(ck, len(kind_names), len(names))
    rows, step = (int(x) for x in ck["log.meta"])
    nl = ck["log.lki_row"].size
    log = {"chunks": [{c: ck["log." + c] for c in LOG_COLUMNS}] if rows else [],
           "lki": [{"row": ck["log.lki_row"], "kind": ck["log.lki_kind"],
                    "count": ck["log.lki_count"]}] if nl else [],
           "rows": rows, "step": step}
    store = {k[6:]: v for k, v in ck.arrays.items() if k.startswith("store.")}
    store[HOST_MARK.name] = marks(store)
    snapshot = {"store": store,
                "log": log, "rng": _rng_state(ck["rng"]), "names": names,
                "seed_seq": seed_seq, "n_spawned": ck.scalar("seed.n_spawned")}
    max_passes = ck.scalar("config.max_passes")
    ck.require(1 <= max_passes <= MAX_PASSES, f"config.max_passes {max_passes} is outside "
               f"1..{MAX_PASSES} (what World accepts)")
    return Parts(ruleset, ck.scalar("config.batch"), ck.scalar("config.two_headed_giant"),
                 max_passes, snapshot)


def _check_seed(ck: _Checker) -> tuple[Any, tuple[int, ...], int]:
    """The generator state and the seed sequence (entropy, spawn key, pool size)."""
    rng = ck["rng"]
    if int(rng[4]) not in (0, 1) or int(rng[5]) >= 2**32 or not int(rng[2]) & 1:
        raise ck.fail("array 'rng' is not a PCG64 state")
    text = ck["seed.entropy"]
    digits = [str(t) for t in text.reshape(-1)]
    if not all(0 < len(t) <= MAX_ENTROPY_DIGITS and t.isascii() and t.isdigit() for t in digits):
        raise ck.fail(f"seed entropy {digits[:3]!r} is not non-negative integers of up to "
                      f"{MAX_ENTROPY_DIGITS} digits")
    entropy = [int(t) for t in digits]
    spawn_key = [int(x) for x in ck["seed.spawn_key"]]
    pool_size = ck.scalar("seed.pool_size")
    problem = _seed_problem(entropy, spawn_key, pool_size, ck.scalar("seed.n_spawned"))
    if problem:
        raise ck.fail(problem)
    return entropy[0] if text.ndim == 0 else entropy, tuple(spawn_key), pool_size


def _check_store(ck: _Checker, rules: Ruleset, n_names: int) -> list[str]:
    """The store's arrays: ids and columns, players, card fields, zones, empty slots, caps
    and results. Returns the kind names."""
    a = {k[6:]: v for k, v in ck.arrays.items() if k.startswith("store.")}
    kind_names = [str(x) for x in a["kind_names"]]
    K, P = len(kind_names), a["player_col"].size
    n, next_id = (int(x) for x in a["meta"][1:])
    try:
        for kind in kind_names:
            rules.validate_kind(validate_kind(kind))
    except CounterError as exc:
        raise ck.fail(f"store.kind_names: {exc}") from None
    ck.require(len(set(kind_names)) == K, "store.kind_names names a kind twice")
    ck.range("store.counts", a["counts"], 0, MAX_COUNT + 1)

    # Ids and slots: an id is in one slot of each game it is in, whichever column (a slot
    # in use holds an id; a free one, -1, holds every field's fill value: checked below).
    entity_id = a["entity_id"]
    ck.range("store.entity_id", entity_id, -1, next_id)
    live = entity_id >= 0                           # (B, n)
    each = np.sort(entity_id, axis=1)
    ck.require((each[:, 1:] != each[:, :-1]) | (each[:, 1:] < 0),
               "store.entity_id holds one id in two slots of a game")

    # Players: their columns, typed "player" and nothing else, in the "player" zone of
    # every game, controlled by themselves; no other column is any of that.
    pcol = a["player_col"]
    ck.range("store.player_col", pcol, 0, n)
    is_player = np.zeros(n, bool)
    is_player[pcol] = True
    ck.require(np.count_nonzero(is_player) == P, "store.player_col names a column twice")
    types, zone = a["types"], a["zone"]
    ck.require(types[:, pcol] == _PLAYER, "store.player_col names a column that is not a player")
    ck.require((types[:, ~is_player] & _PLAYER) == 0, "an object column is typed as a player")
    ck.require(a["controller"][:, pcol] == np.arange(P), "a player does not control itself")
    ck.require(entity_id[:, pcol] == entity_id[:1, pcol], "a player has different ids in two games")
    for f in CARD_FIELDS:   # the rest of a player's card fields are blank (not a token...)
        if f.name not in ("entity_id", "types", "controller"):
            ck.require(a[f.name][:, pcol] == f.fill, f"a player has store.{f.name}")
    ck.range("store.zone", zone, 0, len(zones.ZONES))
    ck.require((zone[:, is_player] == zones.PLAYER).all(), "a player is missing from a game")
    ck.require((zone[:, ~is_player] != zones.PLAYER).all(), "an object is in the player zone")
    _check_teams(ck, a, P)

    # Card fields.
    ck.require((types | _ALL_TYPES) == _ALL_TYPES, "store.types holds an unknown type bit")
    ck.require((a["keywords"] | _ALL_KEYWORDS) == _ALL_KEYWORDS,
               "store.keywords holds an unknown keyword")
    # The objects' types only: a file an earlier version wrote may hold what add_object
    # refuses now (a Grand Archive champion in a graveyard, Magic's keywords), which loads
    # as it was saved rather than lose the file.
    objects = types[live & ~is_player]
    try:
        rules.check_new_objects(int(np.bitwise_or.reduce(objects)) if objects.size else 0, zones.NONE, 0)
    except CounterError as exc:
        raise ck.fail(f"store.types: {exc}") from None
    ck.range("store.controller", a["controller"][live], 0, P)
    ck.range("store.owner", a["owner"], -1, P)
    ck.range("store.name_id", a["name_id"], -1, n_names)
    for name in _STATS:   # (the fill: no such stat, or no effect)
        v = a[name][a[name] != _FIELDS[name].fill]
        ck.range("store." + name, v, 0 if name in _UNSIGNED_STATS else -MAX_STAT, MAX_STAT + 1)
    redirect = a["redirect"]   # a zone set_redirect names (zones.zone_code, not the battlefield), or none
    redirect = redirect[redirect != _FIELDS["redirect"].fill]
    ck.range("store.redirect", redirect, zones.LIBRARY, zones.PLAYER, " as a zone to go to instead of dying")
    ck.require(redirect != zones.BATTLEFIELD, "store.redirect holds the battlefield as a zone to go to "
               "instead of dying")
    # A host's effects are on objects (a player's column has only its prohibitions), and a
    # prohibition names one of the World's kinds (a plane below BAN_ALL) or every kind.
    for f in HOST_EFFECT_FIELDS:
        if f.name != "ban":
            ck.require(a[f.name][:, pcol] == f.fill, f"a player has store.{f.name}, an effect on objects")
    # GA Immortality is an object's (set_immortal refuses a player).
    ck.require(~a["immortal"][:, pcol], "a player has store.immortal, an object's Immortality")
    kinds_banned = np.uint64((1 << min(K, BAN_ALL)) - 1 | 1 << BAN_ALL)
    ck.require((a["ban"] & ~kinds_banned) == 0, "store.ban prohibits a kind the World does not have")
    if not isinstance(rules, GrandArchive):
        for name in _GRAND_ARCHIVE_ONLY:
            ck.require(~a[name], f"store.{name} holds True in a {rules.name!r} World: only the "
                       "Grand Archive sets it")

    # Slots: a free slot holds every field's fill value, an object is in a zone; only
    # permanents are tapped or have damage marked (leaving the battlefield clears them).
    for f in ALL_FIELDS:
        if f.shape == GAME_COLUMN and f.name != "entity_id" and f.name not in _DERIVED:
            ck.require(a[f.name][~live] == f.fill, f"a free slot holds store.{f.name}")
    ck.require((a["counts"][:, ~live] == 0).all(), "a free slot holds counters")
    ck.require(zone[live] != zones.NONE, "an object is in no zone")
    absent = ~live
    ck.range("store.damage", a["damage"], 0, MAX_COUNT + 1)
    # A library's order (ecs.library): ordering and shuffling number one from -(its size),
    # arrivals count on; a card leaving it leaves its position behind (the fill).
    position, shelved = a["position"], zone == zones.LIBRARY
    ck.range("store.position", position[shelved], -n, np.iinfo(position.dtype).max + 1, " in a library")
    ck.range("store.position", position[~shelved], 0, 1, " off a library")
    off = zone != zones.BATTLEFIELD
    for name in ("tapped", "damage", "deathtouch_hit"):
        ck.require(a[name][off] == 0, f"an object off the battlefield has store.{name}")

    # Caps (122.4): one entry per (column, kind), none where the slot is free.
    cap_col, cap_kind, cap_val = a["cap_col"], a["cap_kind"], a["cap_val"]
    ck.range("store.cap_col", cap_col, 0, n)
    ck.range("store.cap_kind", cap_kind, 0, K)
    ck.require(not sets.repeats(cap_col.astype(np.int64) * max(K, 1) + cap_kind),
               "two caps name the same object and kind")
    ck.require(cap_val >= NO_CAP, f"store.cap_val holds a cap below {NO_CAP} (none)")
    ck.require(cap_val[absent[:, cap_col]] == NO_CAP, "an absent object has a cap")

    # Players' state and results.
    ck.range("store.life", a["life"], -MAX_LIFE, MAX_LIFE + 1)
    ck.range("store.reserve", a["reserve"], 0, MAX_COUNT + 1)
    act = a["active"]
    if bool(ck["config.two_headed_giant"]) and P:   # the active team's players (805.4)
        team = a["player_team"]
        ck.require(~(act & (team[None, :] != team[np.argmax(act, axis=1)][:, None])).any(axis=1),
                   "a game has turn players of two teams")
    else:
        ck.require(act.sum(axis=1) <= 1, "a game has two turn players")
    winner = a["winner"].astype(np.int64)
    ck.range("store.winner", winner, -2, P)
    won = np.flatnonzero(winner >= 0)
    ck.require(~a["lost"][won, winner[won]], "a game's winner has lost it")
    if P:
        ck.require(_first_of_team(a["player_team"])[winner[won]] == winner[won],
                   "a game's winner is not its team's first player (CR 104.2a)")
    return kind_names


def _first_of_team(team: np.ndarray) -> np.ndarray:
    """For each player, the first player of its team."""
    teams, first = sets.distinct_first(team)
    return np.asarray(first[np.searchsorted(teams, team)])


def _check_teams(ck: _Checker, a: Mapping[str, np.ndarray], P: int) -> None:
    """Team keys are as ``add_player`` gives them: a team named (0..MAX_TEAM), which every
    Two-Headed Giant player has (810.1), or elsewhere a player's own key (-1 - its index).
    In Two-Headed Giant a team's life and poison are its first player's (810.10)."""
    team, head = a["player_team"], a["player_head"]
    if not P:
        return
    two_headed = bool(ck["config.two_headed_giant"])
    named = np.ones(P, bool) if two_headed else team != -1 - np.arange(P)
    ck.range("store.player_team", team[named], 0, MAX_TEAM + 1,
             " as a Two-Headed Giant player's team" if two_headed else " as a team named")
    want = _first_of_team(team) if two_headed else np.arange(P)
    ck.require(head == want, "store.player_head is not each player's team head")


def _check_log(ck: _Checker, K: int, n_names: int) -> None:
    """Each event row names what existed: entities, kinds, players, zones, causes; rows
    are in step order; LKI rows are zone changes."""
    rows, step = (int(x) for x in ck["log.meta"])
    c = {name: ck["log." + name] for name in LOG_COLUMNS}
    B, next_id = ck.scalar("config.batch"), int(ck["store.meta"][2])
    P = ck["store.player_col"].size
    player_ids = ck["store.entity_id"][0, ck["store.player_col"]]
    ty = c["type"]
    ck.range("log.type", ty, 0, N_TYPES)
    ck.range("log.game", c["game"], 0, B)
    ck.range("log.cause", c["cause"], 0, len(CAUSES))
    ck.range("log.step", c["step"], 0, step + 1)
    ck.require(np.diff(c["step"]) >= 0, "log.step is not in order")
    counter, zone_, acted = ty == COUNTER, ty == ZONE, ty == ACTION
    tapped, damaged = ty == TAP, ty == DAMAGE
    ended = ty == GAME_END
    players = (ty == LOST) | (ty == RESERVE)
    ck.range("log.entity", c["entity"][counter | zone_ | acted | tapped | damaged], 0, next_id)
    ck.require(np.isin(c["entity"][players], player_ids), "a loss or a payment names a non-player")
    ck.require(np.isin(c["entity"][ended], np.append(player_ids, -1)),
               "a game's end names a non-player")
    # counter events
    ck.range("log.kind", c["kind"][counter], 0, K)
    counts = counter | acted | (ty == RESERVE) | tapped | damaged   # events with before/after
    # a tap event: tapped before and after (0 or 1); damage: asked (before) and dealt (after)
    ck.range("log.before", c["before"][tapped], 0, 2)
    ck.range("log.after", c["after"][tapped], 0, 2)
    ck.require(c["after"][damaged] <= c["before"][damaged], "a damage event deals more than asked")
    ck.range("log.other", c["other"][damaged], -1, next_id)   # the source, if any
    ck.range("log.kind", c["kind"][acted], -1, K)
    ck.range("log.before", c["before"][counts], 0, MAX_COUNT + 1)
    ck.range("log.after", c["after"][counts], 0, MAX_COUNT + 1)
    ck.require(c["before"][counter] != c["after"][counter], "a counter event changes nothing")
    ck.range("log.other", c["other"][counter], -1, P)
    ck.range("log.other", c["other"][acted], 0, P, " as the player who acted")
    # zone changes: a real zone to a real zone (a new id) or to none (no new id)
    old, new, to = c["entity"][zone_], c["other"][zone_], c["to_zone"][zone_]
    ck.range("log.from_zone", c["from_zone"][zone_], 1, zones.PLAYER)
    ck.range("log.to_zone", to, 0, zones.PLAYER)
    ck.require(((new == -1) & (to == zones.NONE))
               | ((to != zones.NONE) & (new > old) & (new < next_id)),
               "a zone change names a new object that does not fit")
    # the columns a kind of event does not use hold their defaults
    ck.require(counter | acted | zone_ | (c["kind"] == -1),
               "log.kind is set on an event that is not a counter's, an action's or a zone change's")
    # a zone change's kind: events.zone_kind of its card types and token flag, or -1 (files saved before)
    code = zone_kind_code(c["kind"][zone_])
    code = code[code != -1]
    ck.require((code >= 0) & ((code & ~((_ALL_TYPES & ~_PLAYER) | ZONE_TOKEN)) == 0),
               "log.kind holds an unknown type or flag as a zone change's types and token flag")
    ck.range("log.before", c["before"][zone_], 0, P + 1, " as a zone change's controller (index + 1)")
    ck.range("log.after", c["after"][zone_], 0, n_names + 1, " as a zone change's card name (index + 1)")
    for name in ("before", "after"):
        ck.require(counts | zone_ | (c[name] == 0),
                   f"log.{name} is set on an event that has no counts")
    for name in ("from_zone", "to_zone"):
        ck.require(zone_ | (c[name] == 0),
                   f"log.{name} is set on an event that is not a zone change")
    ck.require(counter | zone_ | acted | damaged | (c["other"] == -1),
               "log.other is set on a loss, a payment or an end")
    # last-known information: counters an object had as it changed zones
    lrow, lkind, lcount = ck["log.lki_row"], ck["log.lki_kind"], ck["log.lki_count"]
    ck.range("log.lki_row", lrow, 0, rows)
    ck.range("log.lki_kind", lkind, 0, K)
    ck.range("log.lki_count", lcount, 1, MAX_COUNT + 1)
    ck.require(ty[lrow] == ZONE, "log.lki_row names an event that is not a zone change")
    ck.require(not sets.repeats(lrow * max(K, 1) + lkind),
               "log.lki_row names a kind of one event twice")


__all__ = ["FORMAT_VERSION", "MAGIC", "Parts", "check_snapshot", "digest", "load", "misfit", "save"]
