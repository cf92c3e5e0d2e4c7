"""The counter store: dense NumPy arrays for every component, and the id -> slot index.

Layout (docs/design.md): every object of a game lives in a slot, a column of that game;
counter counts are kind-major, one contiguous (B, C) int32 plane per kind in ``counts[k]``,
so a system reads only the planes it needs, and the other components are (B, C) arrays
declared in ``components``. Slots are per game: a slot an object leaves in one game (it
ceased to exist) takes that game's next new object, the lowest free slot first, so a
game's columns follow what it holds at once, not its history. A card that changes zones
keeps its slot under a new id (400.7), so zone changes allocate nothing.

Ids are never reused. An object made in several games at once is one id in all of them,
in each game's own free slot, so where games diverged one id may sit in different columns
(a player's column is the same in every game). The index (``ecs.ids``) maps an id and a
game to a column; whether id ``e`` is in game ``g`` is ``entity_id[g, column] == e``.
Object ids are allocated here in vectorized blocks (esper's per-entity creation would put
a Python loop in the state-based actions, which create thousands of new objects per pass).
"""
from __future__ import annotations

import array as pyarray
import itertools
import operator
import sys
import weakref
from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping, TypeVar

import numpy as np
import numpy.typing as npt

from ecs.components import (
    ALL_FIELDS,
    CAP,
    GAME,
    GAME_CAP,
    GAME_COLUMN,
    GAME_PLAYER,
    HOST_MARK,
    HOST_OBJECT_FIELDS,
    OBJECT_STATE_FIELDS,
    PLAYER,
    Field,
)

from . import sets
from .errors import UnknownEntityError
from .frozen import ReadOnlyDict
from .ids import IdIndex, column_in
from .kernels import I64, INDEX, array, empty, kernel, reads, writes
from .kinds import validate_kind
from .prefetch import AHEAD, prefetch_write
from .zones import RADIX

_BY_NAME: dict[str, Field] = {f.name: f for f in ALL_FIELDS}
_BY_COLUMN = tuple(f for f in ALL_FIELDS if f.shape == GAME_COLUMN)
_SLOT_NAMES = frozenset(f.name for f in _BY_COLUMN)   # snapshots slice them as arr[:, :n]
#: The fields whose untouched state ``Store`` tracks (``_clean``): what ends with an object (its
#: state, the host's effects on it), which a zone change resets and which most games never set.
_TRACKED = OBJECT_STATE_FIELDS + HOST_OBJECT_FIELDS
_TRACKED_NAMES = frozenset(f.name for f in _TRACKED)
#: The host's effects and their mark, which ``reset`` looks for only where the mark is set.
_MARKED = frozenset(f.name for f in HOST_OBJECT_FIELDS)
_NO_SLOTS = np.zeros(0, np.int64)
_NO_FIELDS: Mapping[str, int] = MappingProxyType({})
#: The rows' game of one row of a single game (read-only: rows are never written to).
GAME_ZERO = np.zeros(1, np.int64)
GAME_ZERO.flags.writeable = False
# Layout ids are unique across stores: equal ids mean equal slots in use and players
# (what changes only with alloc, release or a new player). A kinds-layout id names a
# tuple of kind names, the same tuple the same id in one process (``kinds_layout``): a
# search whose children make a kind the root lacks comes back to it at every step. Values
# derived from the kind names are cached per kinds-layout id, valid in clones and after
# restores.
_LAYOUT_IDS = itertools.count()
_KINDS_LAYOUTS: dict[tuple[str, ...], int] = {}
_DERIVED_LAYOUTS = 8   # kinds layouts whose derived values a store (and its clones) keeps
# Array versions, unique across stores like layout ids: a store's ``a.version`` changes
# whenever one of its array objects is replaced (copied on write, grown, appended to,
# restored), so a tuple of its arrays cached under a version stays valid while it holds.
_ARRAY_VERSIONS = itertools.count()
T = TypeVar("T")
# Copy on write: a clone shares every array with its source until either writes it, and
# whoever writes first through ``Store.mut`` copies it. The arrays are the attributes
# "counts" and the values of ``Store.a`` (its keys are fixed by __init__; _ALL_ARRAYS, the
# names of them all, is read from a Store made below the class); the id index (``ids``)
# copies its own on write.
_NONE_SHARED: frozenset[str] = frozenset()
#: Tests set this: clone() then also marks shared arrays read-only, so a write that does not
#: go through ``Store.mut`` raises instead of reaching the other store (about 2 us a clone).
CHECK_SHARING = False
#: Tests clear this: a single game's action or read with scalar arguments then takes the
#: general (vectorized) path, which its scalar fast path must match exactly, and every tick
#: checks (none is skipped as ``settled``).
SCALAR_PATHS = True


def _none() -> None:
    return None


def wider(n: int, batch: int) -> int:
    """The columns a store of ``batch`` games grows to from ``n``: an eighth more, at least
    a few columns (fewer where they would pass 2**18 slots: a batch of a million empty
    games needs none). A column is a slot in every game: the headroom a long batched run
    holds all along (geometric, so growing to C columns copies each slot a few times)."""
    return n + max(n // 8, 1, min(8, 2**18 // batch))


def _holds_fill(arr: np.ndarray, fill: Any) -> bool:
    """Whether every element of ``arr`` is ``fill`` (for a 0 fill, without a temporary)."""
    return not (arr.any() if fill == 0 else (arr != fill).any())


def kinds_layout(names: tuple[str, ...]) -> int:
    """The kinds-layout id of the kind names ``names`` (in plane order) in this process."""
    got = _KINDS_LAYOUTS.get(names)
    if got is None:
        got = _KINDS_LAYOUTS[names] = next(_LAYOUT_IDS)
    return got


class LocalId(int):
    """A number of this process's as a snapshot holds it (``World.snapshot``: the store's
    layout id, the schedule and ruleset a tick left the state settled under,
    ``Schedule.ruling``): a pickled or deep-copied one
    reads back as None, and restoring that snapshot takes a fresh layout id and looks at
    the whole state again (in another process the number may name something else)."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return (_none, ())


class Snapshot(ReadOnlyDict[str, np.ndarray]):
    """``Store.snapshot``'s arrays, read-only (the mapping and its arrays), with what the
    store knew of them when it took them: its id index (``index``, sharing the store's
    arrays until the store writes them) and the tracked fields that hold their fill
    (``clean``; those in ``unknown`` may too, until a restore looks). ``restore`` trusts
    them only while the arrays are read-only; a copy (``dict(snap)``, a pickle, a deep
    copy) is the arrays alone, which ``restore`` reads whole. Arrays a snapshot has in
    common with the one before it (nothing wrote them in between) are the same read-only
    objects."""

    index: IdIndex | None = None
    clean: frozenset[str] = frozenset()
    unknown: frozenset[str] = frozenset()   # tracked fields not looked at yet
    meta: tuple[int, int, int, list[str]] | None = None   # (batch, n_cols, next_id, kind names)

    @classmethod
    def carrying(cls, arrays: dict[str, np.ndarray], index: IdIndex) -> Snapshot:
        """A snapshot of ``arrays`` (shaped as ``Store.snapshot``'s, made outside a store: a
        fork's, which are its own) that carries ``index``, the id index of its slots; the
        arrays are read-only from now on, and a restore looks at the tracked fields."""
        snap = cls(arrays)
        for arr in snap.values():
            arr.setflags(write=False)
        snap.index, snap.unknown = index, _TRACKED_NAMES
        return snap


class Arrays(dict[str, np.ndarray]):
    """``Store.a``: the arrays by name, and ``version``, a new one whenever any of them is
    replaced (every way a dict is written bumps it; reads are plain dict reads)."""

    __slots__ = ("version",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.version = next(_ARRAY_VERSIONS)

    def __setitem__(self, name: str, arr: np.ndarray) -> None:
        super().__setitem__(name, arr)
        self.version = next(_ARRAY_VERSIONS)

    def __delitem__(self, name: str) -> None:
        super().__delitem__(name)
        self.version = next(_ARRAY_VERSIONS)

    def update(self, *args: Any, **kwargs: Any) -> None:
        super().update(*args, **kwargs)
        self.version = next(_ARRAY_VERSIONS)

    def __ior__(self, other: Any) -> "Arrays":  # type: ignore[misc,override]  # (dict's skips update)
        self.update(other)
        return self

    def setdefault(self, name: str, arr: Any = None) -> np.ndarray:
        self.version = next(_ARRAY_VERSIONS)
        return super().setdefault(name, arr)

    def pop(self, name: str, *default: Any) -> Any:
        self.version = next(_ARRAY_VERSIONS)
        return super().pop(name, *default)

    def popitem(self) -> tuple[str, np.ndarray]:
        self.version = next(_ARRAY_VERSIONS)
        return super().popitem()

    def clear(self) -> None:
        super().clear()
        self.version = next(_ARRAY_VERSIONS)


class Views(dict[str, memoryview]):
    """``Store.views()``: a memoryview of each array by name, made on first use from the
    store's ``arrays``, valid while its ``a.version`` is ``version`` (its arrays are then
    the same objects). A single game's scalar paths read and write plain values through them:
    indexing a memoryview is a small part of the interpreter, where NumPy's scalar entry
    points (item, setitem, tolist of a slice) are each a path of their own, cold after other
    work (about 10 us for the first, against 3 for a memoryview's). A copy on write keeps
    them (``rebase``); a clone's start as its source's, and the views a clone makes of
    arrays both still hold are its source's too (``previous``)."""

    __slots__ = ("version", "arrays", "counts", "previous")

    def __init__(self, version: int, arrays: dict[str, np.ndarray], counts: np.ndarray,
                 previous: Views | None = None) -> None:
        super().__init__()
        self.version, self.arrays, self.counts, self.previous = version, arrays, counts, previous

    def renewed(self, version: int, arrays: dict[str, np.ndarray], counts: np.ndarray) -> "Views":
        """The views for ``version``, which take those of these views over arrays that are
        still the same objects as they are first used (a copy on write replaces one array:
        the others' views stay good). One step back only: older views are let go."""
        self.previous = None
        return Views(version, arrays, counts, self)

    def rebase(self, version: int, name: str, counts: np.ndarray) -> None:
        """Go on as the views for ``version``, where only the array ``name`` was replaced
        (``counts``: the count planes now): a copy on write, whose store owns these views
        (others may hold them only as ``previous``, which is checked per array). The views
        they were made from are let go: a chain of clones, each writing, must not keep
        every older World's arrays alive."""
        self.version, self.counts, self.previous = version, counts, None
        # The new array's view at once, not on first use: a clone in another thread that
        # holds these views as its ``previous`` adds a view only where none is
        # (``__missing__``), and may have checked the version before it changed here.
        arr: Any = counts if name == "counts" else self.arrays[name]
        self[name] = memoryview(arr)

    def __missing__(self, name: str) -> memoryview:
        arr: Any = self.counts if name == "counts" else self.arrays[name]   # (a buffer: NumPy's stubs don't say)
        previous = self.previous
        view = previous.get(name) if previous is not None else None
        if view is None or view.obj is not arr:
            view = memoryview(arr)
            if previous is not None and previous.version == self.version:   # a clone's source's: the same
                previous.setdefault(name, view)   # arrays, until either copies one (``rebase``)
        self[name] = view
        return view


_WRITEABLE = operator.attrgetter("flags.writeable")
_NO_VIEWS = Views(-1, {}, np.zeros(0, np.int32))   # matches no store's version


class Store:
    """All arrays of one World; see the module docstring for the layout."""

    def __init__(self, batch: int, capacity: int = 64, kind_capacity: int = 2) -> None:
        self.batch = batch
        self.n_cols = 0
        self.next_id = 0
        self.kind_names: list[str] = []
        self.kind_index: dict[str, int] = {}
        self.a = Arrays()
        self.counts = np.zeros((kind_capacity, batch, capacity), np.int32)
        for f in ALL_FIELDS:
            shape = {GAME_COLUMN: (batch, capacity), GAME_PLAYER: (batch, 0),
                     PLAYER: (0,), GAME: (batch,), CAP: (0,), GAME_CAP: (batch, 0)}[f.shape]
            self.a[f.name] = np.full(shape, f.fill, f.dtype)
        self.ids = IdIndex(batch)
        # names of arrays that may be shared with a clone (copy on write); an array replaced
        # since (grown, appended to) stays listed: its next ``mut`` copies it needlessly, once
        self._shared: set[str] | frozenset[str] = _NONE_SHARED
        # one object held by this store and every store cloned from it (and from those):
        # while no other holds it, no array of this store is shared (``restore``)
        self._lineage = object()
        self.layout = next(_LAYOUT_IDS)
        self.kinds_layout = kinds_layout(())
        # kinds-layout id -> (name, ruleset or None) -> derived value (never mutated);
        # shared with clones
        self._derived: dict[int, dict[tuple[str, Any], Any]] = {}
        # (key, value) a caller caches here under a key holding ``arrays_version()`` (e.g.
        # the probe's arguments, ``systems.settled``); shared with clones, which are valid
        # under the same key: a version is unique across stores
        self.memo: tuple[Any, Any] = ((), None)
        # (name, key) -> a value made from arrays that the caller checks are still the
        # store's (the probe's address tables, ``systems.settled``): one dict shared with
        # clones, so a search's clones of an unticked root make it once
        self.tables: dict[tuple[str, Any], Any] = {}
        # the slots of the last restore and the index made from them (``_index_of``)
        self._restored: tuple[np.ndarray, IdIndex] | None = None
        # the read-only snapshot the arrays last matched, taken or restored (``_sync``):
        # it (a weak reference to a ``Snapshot``: a snapshot the caller dropped is not kept
        # alive), ``a.version`` then, its clean fields and those not looked at, and its
        # batch, columns, next id and kind names; and the names of the arrays written since (``mut``), each then this
        # store's own: what ``restore`` rewrites, and what ``snapshot`` copies
        self._synced: tuple[Callable[[], dict[str, Any] | None], int,
                            tuple[frozenset[str], frozenset[str]],
                            tuple[int, int, int, list[str]]] | None = None
        self._written: set[str] = set()
        # and the names written since before a clone took this store's ownership of them
        # (``clone``): ``restore`` rewrites them too once the clones are gone
        self._written_shared: frozenset[str] = _NONE_SHARED
        # the tracked fields (_TRACKED) known to hold their fill in every slot: ``reset``
        # need not read them (``mut`` takes a name out; ``restore`` finds them again)
        self._clean = {f.name for f in _TRACKED}
        self._views = _NO_VIEWS
        # (the serial of the schedule whose tick left this state settled, ``a.version``,
        # ``SystemType.replaced`` then and the World's ruleset): its next tick has nothing to
        # look at (``World.tick``). Every write clears it (``mut``, ``write``, ``restore``); an
        # array replaced changes the version.
        self.settled: tuple[int, int, int, Any] | None = None

    def __getstate__(self) -> dict[str, Any]:
        """A pickle or deep copy leaves ``memo`` and ``tables`` behind (array versions are unique in one
        process only), what it knows of its last restore (``restore``), its views and the
        values derived per kinds layout: layout ids are one process's numbers too, and
        another process may give the copy's next layout the number of an old one."""
        d = self.__dict__.copy()
        d["memo"], d["_restored"], d["_synced"], d["_derived"] = ((), None), None, None, {}
        d["tables"] = {}   # (addresses are this process's)
        d["settled"] = None   # (a schedule's serial is this process's too)
        del d["_views"]
        return d

    def __setstate__(self, d: dict[str, Any]) -> None:
        d.setdefault("_clean", set())   # (nothing known clean in a store pickled without it)
        d.setdefault("_lineage", object())   # (a copy keeps it: stores copied together share it)
        d.setdefault("_written_shared", _NONE_SHARED)
        d.pop("_restored_from", None)   # (its former name)
        d.setdefault("_synced", None)
        d["settled"] = None
        self.__dict__ = d
        self._views = _NO_VIEWS
        self.layout, self.kinds_layout = next(_LAYOUT_IDS), kinds_layout(tuple(self.kind_names))   # this process's

    def views(self) -> Views:
        """Memoryviews of the arrays (``Views``), for plain reads of single values; a write
        through one goes through ``mut`` first (``write``)."""
        v = self._views
        if v.version != self.a.version:
            v = self._views = v.renewed(self.a.version, self.a, self._counts)
        return v

    def write(self, name: str, at: tuple[int, ...], value: int | bool) -> None:
        """``mut(name)[at] = value`` of one element, through the views (``Views``)."""
        if name not in self._written:   # (what mut does; a name written is owned and not clean)
            self.mut(name)
        self.settled = None
        self.views()[name][at] = value

    def at_fill(self, name: str) -> bool:
        """Whether the field ``name`` is known to hold its fill value in every slot (a tracked
        field, ``_TRACKED``, that nothing wrote since a restore found it so): a pass may skip
        reading it."""
        return name in self._clean

    def derived(self, name: str, make: Callable[..., T], args: tuple[Any, ...] = (),
                rules: Any = None) -> T:
        """``make(*args)``, cached per kinds layout: for values computed from the kind names
        only, or from them and the ruleset ``rules`` (cached per both: a World's ruleset may
        be replaced, and clones sharing this cache may play by another); a check on a small
        board would otherwise spend much of its time recomputing them. Callers must not
        mutate the value."""
        key = self.kinds_layout
        per = self._derived.pop(key, None)
        if per is None:
            per = {}
            kept = list(self._derived)   # (one call: clones playing in other threads share the dict)
            if len(kept) >= _DERIVED_LAYOUTS:
                self._derived.pop(kept[0], None)   # the least recently used
        self._derived[key] = per
        value = (name, rules)
        if value not in per:
            per[value] = make(*args)
        return per[value]

    def _set_counts(self, planes: np.ndarray) -> None:
        self._counts = planes
        self.a.version = next(_ARRAY_VERSIONS)

    # The (kinds, games, columns) count planes; replacing them bumps ``a.version`` (a C
    # getter: counts are read on every path)
    counts = property(operator.attrgetter("_counts"), _set_counts)

    def arrays_version(self) -> int:
        """Changes whenever any array object of this store (``a`` or ``counts``) is replaced:
        a value holding its arrays, cached under it, is valid while it is unchanged."""
        return self.a.version

    # ---- shape -----------------------------------------------------------------------
    @property
    def capacity(self) -> int:
        return self.counts.shape[2]

    @property
    def n_players(self) -> int:
        return self.a["player_col"].shape[0]

    @property
    def n_kinds(self) -> int:
        return len(self.kind_names)

    def mut(self, name: str) -> np.ndarray:
        """The array ``name`` (a key of ``a``, or "counts") for writing: every
        write into the store goes through here, which first copies an array this store still
        shares with a clone or the store it was cloned from (copy on write), and notes the
        name for ``restore``."""
        self._written.add(name)
        self._clean.discard(name)
        self.settled = None
        if name in self._shared:
            self._own(name)
        return self.counts if name == "counts" else self.a[name]

    def _own(self, name: str) -> None:
        """Copy the array ``name`` this store shares with a clone (``mut``)."""
        own = self._shared if isinstance(self._shared, set) else set(self._shared)
        own.discard(name)     # (clone() hands both stores one frozenset: made their own here)
        self._shared = own
        v = self._views
        current = v.version == self.a.version
        if name == "counts":   # unused planes, a big batch's largest part, stay behind
            self.counts = self.counts[: max(self.n_kinds, 1)].copy()
        else:
            self.a[name] = self.a[name].copy()
        if current:   # the views of the other arrays stay good: this store's views go on
            v.rebase(self.a.version, name, self._counts)

    def _grow_columns(self, need: int) -> None:
        cap = self.capacity
        if need <= cap:
            return
        new = max(need, wider(cap, self.batch))
        counts = np.zeros((self.counts.shape[0], self.batch, new), np.int32)
        counts[:, :, :cap] = self.counts
        self.counts = counts
        for f in _BY_COLUMN:
            old = self.a[f.name]
            grown = np.full((self.batch, new), f.fill, f.dtype)
            grown[:, :cap] = old
            self.a[f.name] = grown
        self._views = _NO_VIEWS   # (views of the old arrays would only keep them alive)

    # ---- kinds -----------------------------------------------------------------------
    def kind_id(self, kind: str, create: bool) -> int:
        """The plane index of ``kind``; -1 for a valid kind never used (when not creating)."""
        k = self.kind_index.get(kind)
        if k is not None:
            return k
        validate_kind(kind)
        if not create:
            return -1
        k = len(self.kind_names)
        if k == self.counts.shape[0]:
            grown = np.zeros((2 * k, self.batch, self.capacity), np.int32)
            grown[:k] = self.counts
            self.counts = grown
        self.kind_names.append(kind)
        self.kind_index[kind] = k
        self.kinds_layout = kinds_layout(tuple(self.kind_names))
        return k

    def plane(self, kind: str) -> np.ndarray | None:
        """The (B, n_cols) count plane of ``kind``, None if it was never used."""
        k = self.kind_index.get(kind)
        return None if k is None else self.counts[k, :, : self.n_cols]

    # ---- slots and ids --------------------------------------------------------------
    def alloc(self, n: int, games: np.ndarray | None = None, common: bool = False
              ) -> tuple[np.ndarray, np.ndarray]:
        """``n`` new objects in games ``games`` (None: every game): the (G, n) columns, in
        each game its lowest free ones, ascending, then fresh ones (``common``: (n,)
        columns free in every one of those games, for players); and the new ids, written
        to ``entity_id`` there. A free slot holds its fields' fill values (``release``),
        so the caller writes only what it sets."""
        self.layout = next(_LAYOUT_IDS)
        if games is None:
            games = np.arange(self.batch, dtype=np.int64)
        if common:   # (players: a few at setup, so NumPy over the slots rather than a kernel)
            free = (self.a["entity_id"][games, : self.n_cols] < 0).all(axis=0)
            reuse = np.flatnonzero(free)[:n]
            cols = np.concatenate([reuse, np.arange(self.n_cols, self.n_cols + n - reuse.size)])
            top = self.n_cols + n - reuse.size
        else:
            cols, top = _free_per_game(self.a["entity_id"], games, self.n_cols, n)
        self._grow_columns(top)
        self.n_cols = max(self.n_cols, top)
        if common:
            ids = self._new_ids(cols)
        elif games.size == 0:   # objects in no game: ids that name nothing
            ids = self._new_ids(np.full(n, -1, np.int64))
        elif (cols == cols[:1]).all():   # the same columns in every game
            ids = self._new_ids(cols[0])
        else:
            ids = self._new_ids_at(n, np.tile(np.arange(n), games.size), np.repeat(games, n), cols.ravel())
        if games.size == self.batch and common:
            self.mut("entity_id")[:, cols] = ids
        else:
            self.mut("entity_id")[games[:, None], cols] = ids
        return cols, ids

    def alloc_one(self, fields: Mapping[str, int] = _NO_FIELDS) -> tuple[int, int]:
        """``alloc`` of one object in a store of one game, in plain ints: (its column, its
        id), with ``fields`` (name -> value) written in its slot. The lowest free column is
        the first minimum of the slots' ids (a free slot holds -1, an id is 0 or more),
        which ``argmin`` finds without a compiled call, some 1 us at 6,000 columns (a long
        game's graveyard keeps its slots: the search spans them, so it must cost little
        per slot)."""
        self.layout = next(_LAYOUT_IDS)
        ids = self.a["entity_id"][0, : self.n_cols]
        col = int(ids.argmin()) if self.n_cols else 0
        if not (self.n_cols and ids[col] < 0):
            col = self.n_cols
        self._grow_columns(col + 1)
        self.n_cols = max(self.n_cols, col + 1)
        e = self.reissue_one(col)
        for name in ("entity_id", *fields):   # (``write`` of each: the views fetched once)
            if name not in self._written:
                self.mut(name)
        self.settled = None
        v = self.views()
        v["entity_id"][0, col] = e
        for name, value in fields.items():
            v[name][0, col] = value
        return col, e

    def reissue_for(self, old: np.ndarray, games: np.ndarray, cols: np.ndarray,
                    dest: np.ndarray) -> np.ndarray:
        """The new ids of objects that changed zones (400.7), one per row: the card whose
        id is ``old[i]`` keeps its slot, column ``cols[i]`` of game ``games[i]``, and goes
        to zone ``dest[i]``. Rows of one old id and destination (the same object in
        several games) share one new id, so an id still names one card; the caller writes
        them to ``entity_id``."""
        if self.batch == 1:   # one game: every row is another object
            return self._new_ids(cols)
        # The new ids count on in the order the rows first name each (id, zone), as one
        # game's do: a batch whose games move the same cards gives each game's ids.
        if not self.ids.any_spread(old):   # then a column holds one of them in every game...
            key = cols * RADIX + dest
            uniq, inv = _unique_inverse(key, self.capacity * RADIX)
            first = np.empty(uniq.size, np.int64)
            first[inv] = old
            if (first[inv] == old).all():   # ...and each (column, zone) is one (id, zone)
                rank = sets.rank_by_first(uniq.size, inv)
                in_order = np.empty_like(uniq)
                in_order[rank] = uniq // RADIX
                base = self.next_id
                self._new_ids(in_order)   # (ids base, base + 1, ... in that order)
                return rank[inv] + base
        # By (old id, zone): where an old id sat in different columns, its new id does too.
        uniq, inv = sets.distinct_inverse(old * RADIX + dest)
        inv = sets.rank_by_first(uniq.size, inv)[inv]
        return self._new_ids_at(uniq.size, inv, games, cols)[inv]

    def reissue_one(self, col: int) -> int:
        """``reissue_for`` of one row: the new id of the object in column ``col``."""
        e = self.next_id
        self.ids.add_one(e, col, self._slots)
        self.next_id += 1
        return e

    def _new_ids(self, cols: np.ndarray) -> np.ndarray:
        """New ids, one per column of ``cols``: each sits in its column in every game."""
        ids = np.arange(self.next_id, self.next_id + cols.size, dtype=np.int64)
        self.ids.add(self.next_id, cols, self._slots)
        self.next_id += cols.size
        return ids

    def _new_ids_at(self, n: int, at: np.ndarray, games: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """``n`` new ids given slot by slot: new id ``at[i]`` sits in game ``games[i]`` at
        column ``cols[i]`` (``IdIndex.add_per_game``)."""
        ids = np.arange(self.next_id, self.next_id + n, dtype=np.int64)
        self.ids.add_per_game(self.next_id, n, at, games, cols, self._slots)
        self.next_id += n
        return ids

    def _slots(self) -> np.ndarray:
        """The (B, C) ids in the slots, -1 where free (every column from ``n_cols`` on)."""
        return self.a["entity_id"]

    def release(self, at: np.ndarray) -> None:
        """Free the slots at flat indices ``at`` (game * capacity + column), distinct, whose
        object ceased to exist and was relocated out (``ecs.relocation``: its counters,
        caps and state cleared, 122.2, 122.4): the rest of their fields (the card, the id)
        get their fill values back, so the game's next new object starts clean."""
        if at.size == 0:
            return
        self.layout = next(_LAYOUT_IDS)
        if at.size == 1 and SCALAR_PATHS:
            self.reset_one(*divmod(int(at[0]), self.capacity), _BY_COLUMN)
        else:
            self.reset(at, _BY_COLUMN)

    def reset(self, at: np.ndarray, fields: Iterable[Field]) -> None:
        """Put the (games, columns) ``fields`` back to their fill values at the flat slots
        ``at`` (game * capacity + column). Each is read first and written only where it
        differs: a write copies an array a clone still shares. A host's effects are read
        only at the slots ``HOST_MARK`` marks (``ecs.host.marks``): one gather of a byte per
        slot, where most slots that change hold none of them."""
        a, clean = self.a, self._clean
        marked = None
        for f in fields:
            if f.name in clean:
                continue
            where = at
            if f.name in _MARKED:
                if marked is None:   # (at the first of them: before the mark itself is reset)
                    marked = (_NO_SLOTS if HOST_MARK.name in clean
                              else at[a[HOST_MARK.name].reshape(-1).take(at)])
                where = marked
            left = a[f.name].reshape(-1).take(where) != f.fill
            if left.any():
                self.mut(f.name).reshape(-1)[where[left]] = f.fill

    def reset_one(self, g: int, col: int, fields: Iterable[Field]) -> None:
        """``reset`` of the one slot (game ``g``, column ``col``), with plain reads."""
        v, clean = self.views(), self._clean
        marked = HOST_MARK.name not in clean and v[HOST_MARK.name][g, col]
        for f in fields:
            if f.name not in clean and (marked or f.name not in _MARKED) and v[f.name][g, col] != f.fill:
                self.write(f.name, (g, col), f.fill)
                v = self.views()   # (the write may have copied the array)

    def capped_columns(self) -> np.ndarray:
        """(capacity,) bool: the columns with a cap entry (122.4), a lookup table for the
        compiled passes over caps."""
        capped = np.zeros(self.capacity, np.bool_)
        capped[self.a["cap_col"]] = True
        return capped

    def known(self, ids: npt.ArrayLike) -> None:
        """UnknownEntityError for ``ids`` (any shape) that never existed in this World."""
        ids = np.asarray(ids, np.int64)
        bad = ids[(ids < 0) | (ids >= self.next_id)]
        if bad.size:
            raise UnknownEntityError(f"entity {int(bad.flat[0])} does not exist in this World")

    def locate(self, games: npt.ArrayLike, ids: npt.ArrayLike) -> np.ndarray:
        """The columns of ``ids`` (checked by ``known``, or -1) in games ``games`` (broadcast
        with them), -1 where the id is not in that game (it changed zones, ceased to exist
        or was never there; -1 ids too)."""
        g, e = np.asarray(games, np.int64), np.asarray(ids, np.int64)
        shape = np.broadcast_shapes(g.shape, e.shape)
        # a broadcast view handed to a kernel warns (NumPy's FutureWarning on its writable
        # flag): copy what is broadcast
        g = g if g.shape == shape else np.broadcast_to(g, shape).copy()
        e = e if e.shape == shape else np.broadcast_to(e, shape).copy()
        ix = self.ids
        out = _locate(self.a["entity_id"], ix.dir, ix.chunks, ix.pages, ix.spread, self.n_cols,
                      np.ascontiguousarray(g).ravel(), np.ascontiguousarray(e).ravel())
        return out.reshape(g.shape)

    def present(self, game: int, e: int) -> int:
        """``locate`` for one game and one int id as an int (-1 too for an id never made):
        the single game's fast path. The column an id was last found in is a hint tried
        first: whether ``e`` is there is the slot's to say, so a stale hint (another World's,
        from before a zone change, or another id's with the same low bits) costs only the
        index lookup it saved."""
        if not 0 <= e < self.next_id:
            return -1
        slots = self.views()["entity_id"]
        c = _HINTS[e & _HINT_MASK]
        if 0 <= c < self.n_cols and slots[game, c] == e:
            return c
        c = self.ids.one(e, game)
        if 0 <= c < self.n_cols and slots[game, c] == e:
            _HINTS[e & _HINT_MASK] = c
            return c
        return -1

    # ---- players ---------------------------------------------------------------------
    def add_player_arrays(self, col: int, team: int, head: int, life: int) -> int:
        """Append a player (already given column ``col``); returns its player index."""
        self.layout = next(_LAYOUT_IDS)
        for name, value in (("player_col", col), ("player_team", team), ("player_head", head)):
            self.a[name] = np.append(self.a[name], np.int32(value))
        for f in ALL_FIELDS:
            if f.shape == GAME_PLAYER:
                col_vals = np.full((self.batch, 1), life if f.name == "life" else f.fill, f.dtype)
                self.a[f.name] = np.concatenate([self.a[f.name], col_vals], axis=1)
        return self.n_players - 1

    # ---- snapshots -------------------------------------------------------------------
    def snapshot(self) -> Snapshot:
        """Read-only copies of the used part of every array (no Python objects deep-copied):
        a snapshot is a value, which ``restore`` may then trust unchanged (and with it the id
        index and clean fields it carries, ``Snapshot``). An array not written since the
        snapshot this store last took or restored is that snapshot's own, not a copy."""
        n, k = self.n_cols, self.n_kinds
        base, last, written = self._base(), self._synced, self._written | self._written_shared
        if (not isinstance(base, Snapshot) or last is None
                or (last[3][0], last[3][1], last[3][3]) != (self.batch, n, self.kind_names)):
            base = None   # (its arrays are of another shape, or a plain dict's, which may hold more)
        # The arrays not written since are base's (values: shared), in one copy of its dict.
        fresh: dict[str, np.ndarray] = {}
        for name in ("counts", *self.a) if base is None else written:
            arr = self.counts[:k, :, :n] if name == "counts" else self.a[name]
            arr = arr[:, :n].copy() if name in _SLOT_NAMES else arr.copy()
            arr.setflags(write=False)   # (half the cost of setting ``flags.writeable``)
            fresh[name] = arr
        if base is None or last is None or last[3][2] != self.next_id:   # (else base's, the same)
            meta = fresh["meta"] = np.array([self.batch, n, self.next_id], np.int64)
            meta.setflags(write=False)
        if base is None:   # (else base's: the same names)
            kinds = fresh["kind_names"] = np.array(self.kind_names, dtype=str)
            kinds.setflags(write=False)
        snap = Snapshot(fresh) if base is None else Snapshot(base, **fresh)
        # The tracked fields that hold their fill: those known so (``_clean``), and as in
        # the snapshot whose array this one shares; the others are looked at by the first
        # restore that needs them (``_clean_of``), not by a snapshot that may be dropped.
        if base is None or last is None:
            clean, unknown = frozenset(self._clean), _TRACKED_NAMES.difference(self._clean)
        else:
            kept, unwritten = last[2], _TRACKED_NAMES - written
            clean = (kept[0] & unwritten).union(self._clean)
            unknown = ((_TRACKED_NAMES & written) | (kept[1] & unwritten)) - clean
        snap.index = self.ids.clone(read_only=CHECK_SHARING)
        snap.clean, snap.unknown = clean, unknown
        snap.meta = (self.batch, n, self.next_id, list(self.kind_names))
        self._sync(snap, (snap.clean, snap.unknown), snap.meta)
        return snap

    @staticmethod
    def _clean_of(snap: Snapshot) -> frozenset[str]:
        """The tracked fields that hold their fill in ``snap`` (a read-only ``Snapshot``):
        its ``unknown`` fields looked at once, the answer kept in it."""
        if snap.unknown:
            snap.clean = snap.clean | frozenset(f.name for f in _TRACKED if f.name in snap.unknown
                                                and _holds_fill(snap[f.name], f.fill))
            snap.unknown = frozenset()
        return snap.clean

    def _base(self) -> dict[str, Any] | None:
        """The snapshot this store's arrays last matched (``_synced``), while it lives and
        no array was replaced since: an array not written since (``_written``) holds its
        values."""
        last = self._synced
        return last[0]() if last is not None and last[1] == self.a.version else None

    def _sync(self, snap: dict[str, Any], clean: tuple[frozenset[str], frozenset[str]],
              meta: tuple[int, int, int, list[str]]) -> None:
        """Note that the arrays now hold ``snap``'s values (taken or restored), a read-only
        snapshot; ``clean``: the tracked fields that hold their fill in it, and those not
        looked at yet; nothing is written since."""
        held = weakref.ref(snap) if isinstance(snap, Snapshot) else (lambda: snap)   # (a plain dict: held)
        self._synced = (held, self.a.version, clean, meta)
        self._written = set()
        self._written_shared = _NONE_SHARED

    def restore(self, snap: dict[str, Any], layout: int | None = None) -> None:
        """Make this store equal to ``snap``, whose layout id is ``layout`` when known (the
        id is not in the snapshot's arrays: it means nothing in another process). Arrays
        that are big enough and not shared with a clone (one still alive) are written in
        place (no allocation, and the capacity headroom is kept); others are reallocated with
        headroom, so the next ``alloc`` or new kind does not reallocate everything.

        While no array was replaced or shared since the snapshot this store last took or
        restored (read-only, so unchanged), an array not written since (``mut`` notes them)
        holds that snapshot's values: restoring it again (a search's usual undo) rewrites
        only the arrays written, and restoring another rewrites only those and the arrays
        the two snapshots do not share (a depth-first search's snapshots share most)."""
        self.settled = None   # (``World.restore`` knows whether the snapshot was settled)
        shared = self._shared
        if shared and sys.getrefcount(self._lineage) <= _ALONE:   # every clone is gone
            shared = _NONE_SHARED
            if CHECK_SHARING:   # (the guard clone() set: the arrays are this store's alone)
                for arr in (self.counts, *self.a.values()):
                    arr.flags.writeable = True
                self._views = _NO_VIEWS   # (made of them read-only)
        last = self._synced
        # Read-only when it was restored or taken last too (a value: nothing makes it
        # writeable but tampering with its flags); else looked at (no generator frame per array).
        frozen = (last is not None and last[0]() is snap) or not any(map(_WRITEABLE, snap.values()))
        known = snap if frozen and isinstance(snap, Snapshot) else None   # (what the store knew)
        base = None if shared else self._base()
        again = base is not None and base is snap   # (the snapshot restored or taken last)
        written = self._written | self._written_shared
        if again and last is not None:   # (read from it before, into Python values)
            batch, n, next_id, kind_names = last[3]
        elif known is not None and known.meta is not None:   # (as its store read them)
            batch, n, next_id, kind_names = known.meta
        else:
            batch, n, next_id = np.asarray(snap["meta"]).tolist()   # (Python values in one call)
            kind_names = [str(x) for x in np.asarray(snap["kind_names"]).tolist()]
        self.layout = next(_LAYOUT_IDS) if layout is None else int(layout)
        k = len(kind_names)
        old_n, old_k = self.n_cols, self.n_kinds
        if kind_names != self.kind_names:
            self.kinds_layout = kinds_layout(tuple(kind_names))
            self.kind_names = list(kind_names)   # (the store's own: new kinds append to it)
            self.kind_index = {name: i for i, name in enumerate(kind_names)}
        self._shared = _NONE_SHARED   # (fresh arrays below where shared, not copies)
        if shared or batch != self.batch or n > self.capacity or k > self.counts.shape[0]:
            cap, old_n, old_k, base = wider(n, batch), 0, 0, None   # (fresh arrays hold their fill values)
            self.counts = np.zeros((k + 1, batch, cap), np.int32)
            for f in _BY_COLUMN:
                self.a[f.name] = np.full((batch, cap), f.fill, f.dtype)
            self._views = _NO_VIEWS   # (views of the old arrays would only keep them alive)
        self.batch, self.n_cols, self.next_id = batch, n, next_id
        # What to rewrite (None: every array): an array not written since the snapshot
        # it last matched (``base``) holds its values, and ``snap``'s where they share it.
        stale = (None if base is None else written if again else written.union(itertools.compress(
            _ALL_ARRAYS, map(operator.is_not, map(snap.__getitem__, _ALL_ARRAYS), map(base.get, _ALL_ARRAYS)))))
        # Invariant alloc and kind_id rely on: free slots, columns past n_cols and planes
        # past n_kinds hold their fill values (0 counts); reset what the old state used there.
        if stale is None or "counts" in stale:
            counts = self.counts
            counts[:k, :, :n] = snap["counts"]
            counts[:k, :, n:old_n] = 0
            counts[k:old_k, :, :old_n] = 0
        for name in (self.a if stale is None else [x for x in stale if x in self.a]):
            arr = self.a[name]
            if name not in _SLOT_NAMES:
                new = snap[name]
                if name in shared or arr.shape != new.shape or arr.dtype != new.dtype:
                    self.a[name] = new.copy()
                else:   # in place: the array objects, and what is cached under them, stay
                    arr[...] = new
                continue
            arr[:, :n] = snap[name]
            if old_n > n:
                arr[:, n:old_n] = _BY_NAME[name].fill
        if stale is None or "entity_id" in stale:   # (the index changes only as the slots do)
            self.ids.assign(known.index if known is not None and known.index is not None
                            else self._index_of(self.a["entity_id"][:, :n]))
        # (A pass over each field, 1.3 ms at 1024x1000, spares the next zone change's reset
        # a gather of each at every changed slot: some 5 ms of an acting tick there.)
        if again and last is not None and not last[2][1]:   # the snapshot restored or taken last, again
            clean = last[2][0]
        elif known is not None:   # (found when it was taken, or looked at once)
            clean = self._clean_of(known)
        else:
            clean = frozenset(f.name for f in _TRACKED if _holds_fill(snap[f.name], f.fill))
        self._clean = set(clean)
        if frozen:
            self._sync(snap, (clean, frozenset()), (batch, n, next_id, kind_names))
        else:
            self._synced, self._written, self._written_shared = None, set(), _NONE_SHARED

    def _index_of(self, slots: np.ndarray) -> IdIndex:
        """``IdIndex.of_slots(slots)``, kept for the slots last restored: a search restores
        one snapshot again and again, and the index is a function of the slots (a copy of
        them is compared: a snapshot is the caller's to change). The store's index takes
        its entries into arrays of its own (``IdIndex.assign``): a shared one would be
        copied by the zone change after the restore."""
        last = self._restored
        if last is None or last[0].shape != slots.shape or not np.array_equal(last[0], slots):
            last = self._restored = (slots.copy(), IdIndex.of_slots(slots))
        return last[1]

    def clone(self) -> Store:
        """An independent copy that shares every array with this store until either writes
        it (``mut``): cloning costs a few dict copies whatever the size, and a clone pays
        only for the arrays its actions then write (a search tree's node touches few)."""
        other = Store.__new__(Store)
        d = self.__dict__.copy()    # ints, layout ids and the derived-value cache: shared
        d["kind_names"] = list(self.kind_names)
        d["kind_index"], d["a"] = dict(self.kind_index), Arrays(self.a)
        d["a"].version = self.a.version   # the same arrays (until either replaces one)
        d["_shared"] = self._shared = _ALL_ARRAYS
        if self._written:
            self._written_shared = self._written_shared | self._written
        self._written = set()   # (a name written is one this store owns: none is now)
        d["ids"] = self.ids.clone(read_only=CHECK_SHARING)
        d["_written"], d["_written_shared"] = set(), _NONE_SHARED
        d["_synced"], d["_clean"] = None, set(self._clean)
        # The clone's views start as this store's (the same arrays, until a write copies
        # one: ``write``), and take the ones made later. Where CHECK_SHARING makes the shared arrays
        # read-only, both sides start afresh (a view made before would write past that guard).
        if CHECK_SHARING:
            d["_views"] = self._views = _NO_VIEWS
        else:
            d["_views"] = Views(self.a.version, d["a"], self._counts, self._views)
            if self._views.version == self.a.version:
                d["_views"].update(self._views)
        other.__dict__ = d
        if CHECK_SHARING:
            for arr in (self.counts, *self.a.values()):
                arr.flags.writeable = False
        return other


_ALL_ARRAYS = frozenset(("counts", *Store(1, capacity=0, kind_capacity=1).a))
# ``sys.getrefcount`` of a store's lineage held by it alone: its ``__dict__`` and the call's
# argument (a clone freed is gone at once: nothing of a World refers back to it)
_ALONE = 2

# The column ``Store.present`` last found an id in, in any store (a hint, which the slot
# confirms), by the id's low bits: a fixed table. Ids are never reused, so a single game's
# long run looks up new ids without end, and a table of every id looked up would follow
# the run's history, not its board.
_HINT_MASK = (1 << 16) - 1
_HINTS = pyarray.array("i", [-1]) * (_HINT_MASK + 1)


@kernel(writes("counts", 1), INDEX, INDEX)
def add_clamped(plane: np.ndarray, at: np.ndarray, delta: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, bool]:  # pragma: no cover - compiled
    """Add ``delta`` (one value, or one per row) to ``plane[at]``, clamped at 0, as NumPy's
    ``plane[at] = np.maximum(plane[at] + delta, 0)`` does it (every read before any
    write; of repeated rows the last write stays). Returns (before, after, every row
    changed): the counts of one event. The reads prefetch the row ``AHEAD`` on
    (ecs.prefetch: scattered rows miss one after another), for writing: the second loop
    writes them."""
    before = empty(at.size, np.int64)
    after = empty(at.size, np.int64)
    for i in range(at.size):
        if i + AHEAD < at.size:
            prefetch_write(plane, at[i + AHEAD])
        before[i] = plane[at[i]]
    every = True
    for i in range(at.size):
        a = before[i] + (delta[i] if delta.size == at.size else delta[0])
        a = a if a > 0 else 0
        after[i] = a
        plane[at[i]] = a
        every &= a != before[i]
    return before, after, every


@kernel(writes("counts", 2), INDEX, INDEX, INDEX, uses=(add_clamped,))
def remove_clamped(planes: np.ndarray, kinds: np.ndarray, at: np.ndarray, amount: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """``add_clamped(planes[kinds[j]], at, -amount)`` for each of the distinct ``kinds``
    (``planes``: the (K, B * C) count planes, ``amount`` one per row), as (before, after,
    every row changed) with one row per kind. Rows strictly increasing (distinct: a
    read-modify-write per row is then exactly add_clamped's every read before any write)
    take one pass for all kinds, prefetching the row ``AHEAD`` on (704.5q's +1/+1 and
    -1/-1 at 4096x200: 0.74 -> 0.32 ms against two add_clamped); other rows take
    add_clamped's two loops per kind."""
    nk, n = kinds.size, at.size
    before = empty((nk, n), np.int64)
    after = empty((nk, n), np.int64)
    every = empty(nk, np.bool_)   # (not np.ones: compiled for this kernel alone, ~0.2 s)
    for j in range(nk):
        every[j] = True
    increasing = True
    for i in range(1, n):
        if at[i] <= at[i - 1]:
            increasing = False
            break
    if not increasing:
        minus = empty(n, np.int64)
        for i in range(n):   # (a loop: ``-amount`` compiles an array expression, ~0.3 s)
            minus[i] = -amount[i]
        for j in range(nk):
            was, now, every[j] = add_clamped(planes[kinds[j]], at, minus)
            for i in range(n):   # a loop: a row assignment compiles a shape check (~3 s)
                before[j, i], after[j, i] = was[i], now[i]
        return before, after, every
    if nk == 2:   # the usual pair (704.5q): the two planes and rows held outside the loop
        p, q = planes[kinds[0]], planes[kinds[1]]
        bp, ap, bq, aq = before[0], after[0], before[1], after[1]
        ep = eq = True
        for i in range(n):
            if i + AHEAD < n:
                prefetch_write(p, at[i + AHEAD])
                prefetch_write(q, at[i + AHEAD])
            a, d = at[i], amount[i]
            b = p[a]
            x = b - d if b > d else 0
            p[a], bp[i], ap[i] = x, b, x
            ep &= x != b
            b = q[a]
            x = b - d if b > d else 0
            q[a], bq[i], aq[i] = x, b, x
            eq &= x != b
        every[0], every[1] = ep, eq
        return before, after, every
    for i in range(n):
        if i + AHEAD < n:
            for j in range(nk):
                prefetch_write(planes[kinds[j]], at[i + AHEAD])
        a, d = at[i], amount[i]
        for j in range(nk):
            plane = planes[kinds[j]]
            b = plane[a]
            x = b - d if b > d else 0
            plane[a], before[j, i], after[j, i] = x, b, x
            every[j] &= x != b
    return before, after, every


@kernel(reads("entity_id"), INDEX, I64, I64)
def _free_per_game(entity_id: np.ndarray, games: np.ndarray, n_cols: int,
                   n: int) -> tuple[np.ndarray, int]:  # pragma: no cover - compiled
    """(G, n): in each game of ``games`` its lowest ``n`` free columns below ``n_cols``,
    then fresh ones from ``n_cols`` on; and the columns in use after them."""
    out = empty((games.size, n), np.int64)
    top = n_cols
    for i in range(games.size):
        g = games[i]
        m = 0
        for c in range(n_cols):
            if m == n:
                break
            if entity_id[g, c] < 0:
                out[i, m] = c
                m += 1
        for j in range(n - m):
            out[i, m + j] = n_cols + j
        if n_cols + n - m > top:
            top = n_cols + n - m
    return out, top


@kernel(reads("entity_id"), array(np.int32, 1), array(np.int32, 2), array(np.int32, 2), array(np.int32, 2),
        I64, INDEX, INDEX)
def _locate(entity_id: np.ndarray, dir_: np.ndarray, chunks: np.ndarray, pages: np.ndarray,
            spread: np.ndarray, n_cols: int, games: np.ndarray, ids: np.ndarray
            ) -> np.ndarray:  # pragma: no cover - compiled
    """``Store.locate`` on flat (game, id) pairs of known ids (-1 ids: absent)."""
    out = empty(ids.size, np.int64)
    for i in range(ids.size):
        e, g = ids[i], games[i]
        c = column_in(dir_, chunks, pages, spread, e, g)
        out[i] = c if 0 <= c < n_cols and entity_id[g, c] == e else -1
    return out


def _unique_inverse(key: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """``sets.distinct_inverse(key)`` for ints in [0, size): through a lookup table
    when it is small against the rows (no sort, and far less fixed cost on small boards)."""
    if size > 16 * key.size + 4096:
        return sets.distinct_inverse(key)
    seen = np.zeros(size, bool)
    seen[key] = True
    uniq = np.flatnonzero(seen)
    rank = np.empty(size, np.int64)
    rank[uniq] = np.arange(uniq.size)
    return uniq, rank[key]

