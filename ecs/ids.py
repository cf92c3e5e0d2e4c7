"""Which column each id names in each game: the store's index from ids to columns, in pages.

Most ids name one column in every game they are in (an object made in one game, or in
games whose free slots agree). An object made in several games at once takes each game's
own lowest free slot (``ecs.store``), so in games that diverged one id may sit in a
different column per game: a *spread* id, whose columns, one per game, are a row of
``spread``. A page entry is the id's column (>= 0), -1 for an id in no game, or
``-2 - row`` for a spread id.

Ids are never reused, so a dense table over every id ever made would grow with a run's
history (a long batched self-play run makes millions). The index keeps the ids in pages of
``PAGE`` and drops a page once none of its ids is in any game, and a spread row once its
id is in no game: a sweep of the slots finds them when the pages (rows) held have grown by
an eighth since the last sweep (pages: and by a page per ``8 * PAGE`` slots), so its cost
is amortized over the ids made in between. A dropped id maps to -1, "in no game", which is
what a stale id is. Which row holds a page is itself paged: a page's chunk (``CHUNK``
pages) names a row of ``chunks``, which names the page's row, and a sweep keeps the chunks
of the pages it keeps. What grows with history is the chunk directory, 4 bytes per
``CHUNK * PAGE`` ids made (a table over every page would hold 4 bytes per ``PAGE``: some
90 MB an hour in the soak's 4,096 games, against 0.7 MB). A chunk is as small as a page: a
single game's index, which each clone that changes zones copies, holds one.
"""
from __future__ import annotations

from typing import Any, Callable, cast

import numpy as np
from numba import njit

from . import sets
from .kernels import I64, INDEX, array, empty, kernel, reads

PAGE_BITS = 7
PAGE = 1 << PAGE_BITS
_MASK = PAGE - 1
CHUNK_BITS = 7
CHUNK = 1 << CHUNK_BITS   # pages per row of ``IdIndex.chunks``
_CHUNK_MASK = CHUNK - 1
_MIN_ROWS = 4   # pages (and spread rows) held before the first sweep


def _due(held: int, kept: int, slots: int = 0) -> bool:
    """Whether rows ``held`` (pages, or spread rows) are due a sweep, ``kept`` having been
    kept by the last: an eighth more, so the rows held stay within 1.125x of those in use
    while a sweep's cost (a pass over the slots) is amortized over the rows made; and, for
    a sweep that reads ``slots`` slots, a row more per ``8 * PAGE`` of them. Without that
    floor a big batch whose games share their ids (a few pages for a million slots) swept
    them all for the first new page after each restore; with it the pages held beyond
    those in use cost at most half a byte per slot."""
    return held >= max(kept + max(kept // 8, slots // (8 * PAGE)), _MIN_ROWS)


def _grown(rows: int) -> int:
    """A table's next size in rows: an eighth more, as the store's columns grow."""
    return rows + rows // 8 + _MIN_ROWS


def _larger(table: np.ndarray, rows: int, keep: int) -> np.ndarray:
    """``table`` grown to ``rows`` rows: its first ``keep`` rows, then rows of -1."""
    out = np.full((rows, *table.shape[1:]), -1, table.dtype)
    out[:keep] = table[:keep]
    return out


_NO_GAMES = np.zeros(0, np.int64)


class IdIndex:
    """The id -> column map of one store of ``batch`` games; copy on write between clones."""

    def __init__(self, batch: int) -> None:
        self.dir = np.full(0, -1, np.int32)               # chunk number -> row of ``chunks``
        self.chunks = np.full((0, CHUNK), -1, np.int32)   # its pages' rows of ``pages``
        self.n_chunks = 0   # rows of ``chunks`` in use
        self.pages = np.full((0, PAGE), -1, np.int32)     # row -> the entries of its ids
        self.page_at = np.full(0, -1, np.int64)           # row -> its page number
        self.rows = 0       # rows in use
        self.swept = 0      # rows in use after the last sweep
        self.spread = np.full((0, batch), -1, np.int32)   # spread row -> column per game
        self.spread_id = np.full(0, -1, np.int64)         # spread row -> its id
        self.n_spread = 0   # spread rows in use
        self.spread_kept = 0   # spread rows in use after the last sweep of them
        self._shared = False
        self._pv: tuple[Any, ...] | None = None   # ``_views``

    def __getstate__(self) -> dict[str, object]:
        d = self.__dict__.copy()
        d["_pv"] = None   # (memoryviews don't pickle)
        return d

    def __setstate__(self, d: dict[str, object]) -> None:
        self.__dict__ = {"_pv": None, **d}
        page_of = self.__dict__.pop("page_of", None)
        if isinstance(page_of, np.ndarray):   # pickled with a dense page table: each row's page from it
            held = np.flatnonzero(page_of >= 0)
            self.page_at = np.full(self.pages.shape[0], -1, np.int64)
            self.page_at[page_of[held]] = held
            self.dir = np.full(0, -1, np.int32)
            self._index_pages(self.rows)

    def _views(self) -> tuple[memoryview, memoryview, memoryview]:
        """Memoryviews of ``dir``, ``chunks`` and ``pages``, for plain reads and writes of
        one entry (see ``ecs.store.Views``), made again when any of them was replaced."""
        v = self._pv
        if v is None or v[0] is not self.dir or v[1] is not self.chunks or v[2] is not self.pages:
            arrays = self.dir, self.chunks, self.pages
            v = self._pv = (*arrays, tuple(memoryview(cast(Any, a)) for a in arrays))
        views: tuple[memoryview, memoryview, memoryview] = v[3]
        return views

    def _row(self, p: int) -> int:
        """The row of page ``p`` (-1: none), with plain reads."""
        dir_, chunks, _ = self._views()
        d = p >> CHUNK_BITS
        r: int = dir_[d] if d < len(dir_) else -1
        return -1 if r < 0 else chunks[r, p & _CHUNK_MASK]

    def _rows(self, ps: np.ndarray) -> np.ndarray:
        """``_row`` of each of the page numbers ``ps`` (an int64 array)."""
        d = ps >> CHUNK_BITS
        r = np.full(ps.size, -1, np.int64)
        there = d < self.dir.size
        r[there] = self.dir[d[there]]
        out = np.full(ps.size, -1, np.int64)
        held = r >= 0
        out[held] = self.chunks[r[held], ps[held] & _CHUNK_MASK]
        return out

    def _place(self, p: int, row: int) -> None:
        """Page ``p`` (new) goes in row ``row``: its chunk's row, made if it has none."""
        d = p >> CHUNK_BITS
        if d >= self.dir.size:
            self.dir = _larger(self.dir, max(d + 1, 2 * self.dir.size), self.dir.size)
        if self.dir.item(d) < 0:
            if self.n_chunks == self.chunks.shape[0]:
                self.chunks = _larger(self.chunks, self.n_chunks + self.n_chunks // 8 + 1, self.n_chunks)
            self.dir[d] = self.n_chunks
            self.n_chunks += 1
        self.chunks[self.dir.item(d), p & _CHUNK_MASK] = row
        self.page_at[row] = p

    def _index_pages(self, k: int) -> None:
        """Make ``dir`` and ``chunks`` anew for the pages of rows ``0..k`` (``page_at``)."""
        ps = self.page_at[:k]
        d = ps >> CHUNK_BITS
        used, inv = sets.distinct_inverse(d)
        self.dir = np.full(max(self.dir.size, int(used[-1]) + 1 if k else 0), -1, np.int32)
        self.dir[used] = np.arange(used.size, dtype=np.int32)
        self.chunks = np.full((used.size, CHUNK), -1, np.int32)
        self.chunks[inv, ps & _CHUNK_MASK] = np.arange(k, dtype=np.int32)
        self.n_chunks = int(used.size)

    def _arrays(self) -> tuple[np.ndarray, ...]:
        return self.dir, self.chunks, self.pages, self.page_at, self.spread, self.spread_id

    @property
    def nbytes(self) -> int:
        return int(sum(a.nbytes for a in self._arrays()))

    def clone(self, read_only: bool = False) -> IdIndex:
        """An index sharing this one's arrays until either side writes (``read_only``: mark
        them so, to catch a write that skips the copy)."""
        other = IdIndex.__new__(IdIndex)
        other.__dict__ = self.__dict__.copy()
        self._shared = other._shared = True
        if read_only:
            for arr in self._arrays():
                arr.flags.writeable = False
        return other

    def assign(self, other: IdIndex) -> None:
        """Hold ``other``'s entries, in arrays of this index's own: written in place where
        this index's are not shared and have the same shapes (a search restoring one
        snapshot again and again: the memoryviews of one-entry reads stay good, where a
        restore's first new id made them anew, some 1-4 us), else copies."""
        mine, theirs = self._arrays(), other._arrays()
        # (rows alone may differ, and the games of ``spread``: shapes compared cost a us)
        in_place = (not self._shared and all(len(a) == len(b) for a, b in zip(mine, theirs))
                    and self.spread.shape == other.spread.shape)
        pv = self._pv   # (``_views`` checks that its arrays are still ours)
        self.__dict__ = other.__dict__.copy()   # (its counts; its arrays, until replaced here)
        self._pv, self._shared = pv, True
        if in_place:
            for a, b in zip(mine, theirs):
                a[...] = b
            self.dir, self.chunks, self.pages, self.page_at, self.spread, self.spread_id = mine
            self._shared = False
        else:
            self._own()

    def _own(self) -> None:
        if self._shared:
            self.dir, self.chunks = self.dir.copy(), self.chunks.copy()
            self.pages, self.page_at = self.pages.copy(), self.page_at.copy()
            self.spread, self.spread_id, self._shared = self.spread.copy(), self.spread_id.copy(), False

    def lookup(self, ids: np.ndarray, games: np.ndarray | None = None) -> np.ndarray:
        """The column id ``ids[i]`` would sit in in game ``games[i]`` (flat int64 arrays);
        -1 for -1 and for ids in no game. Whether it is there is the slot's to say.
        Without ``games``: the ids' page entries (a spread id's is <= -2)."""
        return _lookup(self.dir, self.chunks, self.pages, self.spread, _NO_GAMES if games is None else games, ids)

    def one(self, e: int, game: int = 0) -> int:
        """``lookup`` of one id in one game, with plain reads."""
        dir_, chunks, pages = self._views()   # (``_row`` written out: a call is 30% of this path)
        p = e >> PAGE_BITS
        d = p >> CHUNK_BITS
        r: int = dir_[d] if d < len(dir_) else -1
        row: int = -1 if r < 0 else chunks[r, p & _CHUNK_MASK]
        c: int = -1 if row < 0 else pages[row, e & _MASK]
        return c if c > -2 else self.spread.item(-2 - c, game)

    def any_spread(self, ids: np.ndarray) -> bool:
        """Whether some of the (flat int64) ``ids`` is a spread id."""
        return self.n_spread > 0 and bool((self.lookup(ids) <= -2).any())

    def add_one(self, e: int, col: int, slots: Callable[[], np.ndarray]) -> None:
        """``add`` of the one new id ``e`` in column ``col`` (a single game's zone change):
        a plain write when its page is there, in this index's own arrays (a clone's index
        copies its source's first: ``add``'s general path costs a clone's zone change some
        20 us more)."""
        self._own()
        row = self._row(e >> PAGE_BITS)
        if row < 0:
            self.add(e, np.array([col], np.int64), slots)
        else:
            self._views()[2][row, e & _MASK] = col

    def add(self, first: int, cols: np.ndarray, slots: Callable[[], np.ndarray]) -> None:
        """Map the new ids ``first``, ``first + 1``, ... to their entries ``cols`` (the
        column of each in every game it is in). ``slots()`` gives the store's (B, C) ids
        in its slots now (-1: free), for a sweep (the new ids need not be among them)."""
        if cols.size == 0:
            return
        self._own()
        lo, hi = first >> PAGE_BITS, (first + cols.size - 1) >> PAGE_BITS
        if lo == hi:   # (most adds: one page, with plain reads)
            if self._row(lo) < 0:
                self._new_rows([lo], lo, slots)
        else:
            ps = np.arange(lo, hi + 1)
            self._new_rows(ps[self._rows(ps) < 0].tolist(), lo, slots)
        ids = np.arange(first, first + cols.size, dtype=np.int64)
        self.pages[self._rows(ids >> PAGE_BITS), ids & _MASK] = cols

    def add_per_game(self, first: int, n: int, at: np.ndarray, games: np.ndarray, cols: np.ndarray,
                     slots: Callable[[], np.ndarray]) -> None:
        """``add`` of ``n`` new ids given slot by slot: id ``first + at[i]`` is in game
        ``games[i]`` at column ``cols[i]`` (one slot per game). An id whose games agree on
        its column gets that column; the others a spread row."""
        self._own()
        lo = np.full(n, np.iinfo(np.int64).max, np.int64)
        hi = np.full(n, -1, np.int64)
        np.minimum.at(lo, at, cols)
        np.maximum.at(hi, at, cols)
        apart = np.flatnonzero((lo != hi) & (hi >= 0))
        if apart.size:
            rows = self._spread_rows(apart.size, slots)
            row_of = np.full(n, -1, np.int64)
            row_of[apart] = rows
            r = row_of[at]
            mine = r >= 0
            self.spread[r[mine], games[mine]] = cols[mine]
            self.spread_id[rows] = first + apart
            hi[apart] = -2 - rows
        self.add(first, hi, slots)

    def _spread_rows(self, m: int, slots: Callable[[], np.ndarray]) -> np.ndarray:
        """``m`` spread rows for new ids (all -1), after a sweep or growth if they do not fit."""
        if self.n_spread + m > self.spread.shape[0]:
            if _due(self.n_spread, self.spread_kept):
                self._sweep_spread(slots())
            need = self.n_spread + m
            if need > self.spread.shape[0]:
                size = max(need, _grown(self.spread.shape[0]))
                self.spread = _larger(self.spread, size, self.n_spread)
                self.spread_id = _larger(self.spread_id, size, self.n_spread)
        rows = np.arange(self.n_spread, self.n_spread + m)
        self.n_spread += m
        return rows

    def _sweep_spread(self, slots: np.ndarray) -> None:
        """Drop the spread rows of ids in no game (``slots``: the store's (B, C) ids in its
        slots); the rows kept move to the front, and their ids' entries follow them. A
        row's id is in game g when its slot there holds it: one gather per row and game."""
        n = self.n_spread
        ids = self.spread_id[:n].copy()
        keep = _spread_kept(slots, self.spread, self.spread_id, n)
        entry = np.where(keep, -2 - np.cumsum(keep) + 1, -1)   # kept row k -> -2 - its new row
        row = self._rows(ids >> PAGE_BITS)
        on_page = row >= 0   # an id whose page was dropped has no entry to rewrite
        self.pages[row[on_page], ids[on_page] & _MASK] = entry[on_page]
        self.n_spread = self.spread_kept = int(np.count_nonzero(keep))

    def _new_rows(self, pages: list[int], keep_from: int, slots: Callable[[], np.ndarray]) -> None:
        """Rows for the new ``pages``, after a sweep if the rows held with them are due one:
        one sweep and one growth for all of them (an acting tick of a big batch makes
        hundreds of pages at once; a sweep per page found nothing the first had not)."""
        if not pages:
            return
        in_slots = slots()
        if _due(self.rows + len(pages) - 1, self.swept, in_slots.size):
            self._sweep(keep_from, in_slots)
        need = self.rows + len(pages)
        if need > self.pages.shape[0]:
            size = max(need, _grown(self.pages.shape[0]))
            self.pages = _larger(self.pages, size, self.rows)
            self.page_at = _larger(self.page_at, size, self.rows)
        for p in pages:
            self._place(p, self.rows)
            self.rows += 1

    def _sweep(self, keep_from: int, slots: np.ndarray) -> None:
        """Drop the pages below ``keep_from`` that hold no id in ``slots`` (the store's
        (B, C) ids in its slots, -1: free); the rows kept move to the front, in order."""
        n = self.rows
        keep = _rows_held(slots, self.dir, self.chunks, n)
        keep |= self.page_at[:n] >= keep_from
        kept = _pages_kept(self.pages, self.page_at, keep)
        self._index_pages(kept)
        self.rows = self.swept = kept

    @classmethod
    def of_copies(cls, entity_id: np.ndarray, n: int) -> IdIndex:
        """``of_slots`` of ``n`` games that are each a copy of the one game whose slots are
        ``entity_id`` (a (1, columns) store array: a fork's), made from that game's slots
        alone: every id sits in the same column in each copy, so none is spread."""
        index = cls.of_slots(entity_id)   # (one game: no spread ids)
        index.spread = np.full((0, n), -1, np.int32)
        return index

    @classmethod
    def of_slots(cls, entity_id: np.ndarray) -> IdIndex:
        """The index of the ids in the slots ``entity_id`` (a (B, n) store array): what a
        restored or loaded store maps (ids in no slot map to -1 anyway). Each id's entry
        is written from its slots, the last write winning; the ids whose slots then do
        not all read their column back are the spread ones (none in one game)."""
        index = cls(entity_id.shape[0])
        games, cols = np.nonzero(entity_id >= 0)
        ids = entity_id[games, cols]
        if ids.size == 0:
            return index
        used, row = sets.distinct_inverse(ids >> PAGE_BITS)
        index.page_at = used.astype(np.int64)
        index._index_pages(used.size)
        index.pages = np.full((used.size, PAGE), -1, np.int32)
        index.rows = index.swept = int(used.size)
        at = ids & _MASK
        index.pages[row, at] = cols
        apart = index.pages[row, at] != cols
        if apart.any():
            spread = sets.distinct(ids[apart])
            mine = np.isin(ids, spread)
            r = np.searchsorted(spread, ids[mine])
            index.spread = np.full((spread.size, entity_id.shape[0]), -1, np.int32)
            index.spread[r, games[mine]] = cols[mine]
            index.spread_id = spread.astype(np.int64)
            index.pages[index._rows(spread >> PAGE_BITS), spread & _MASK] = -2 - np.arange(spread.size)
            index.n_spread = index.spread_kept = int(spread.size)
        return index


@njit(cache=True)
def row_in(dir_: np.ndarray, chunks: np.ndarray, p: int) -> int:  # pragma: no cover - compiled
    """The row of page ``p`` (-1: none), for compiled callers."""
    d = p >> CHUNK_BITS
    if d >= dir_.size or dir_[d] < 0:
        return -1
    return chunks[dir_[d], p & _CHUNK_MASK]


# (Not inlined by numba: its IR inlined into a caller's loop made a lookup some 15 ns,
# against 2 when LLVM inlines the call.)
@njit(cache=True)
def column_in(dir_: np.ndarray, chunks: np.ndarray, pages: np.ndarray, spread: np.ndarray,
              e: int, g: int) -> int:  # pragma: no cover - compiled
    """The column id ``e`` would sit in in game ``g`` (-1: none; g < 0: its page entry),
    for compiled callers."""
    if e < 0:
        return -1
    r = row_in(dir_, chunks, e >> PAGE_BITS)
    if r < 0:
        return -1
    c = pages[r, e & _MASK]
    return c if c > -2 or g < 0 else spread[-2 - c, g]


@kernel(reads("entity_id"), array(np.int32, 1), array(np.int32, 2), I64)
def _rows_held(slots: np.ndarray, dir_: np.ndarray, chunks: np.ndarray,
               n_rows: int) -> np.ndarray:  # pragma: no cover - compiled
    """(n_rows,) bool: the rows of the pages of the ids in ``slots`` (the store's (B, C)
    ids in its slots, -1: free), in one pass over them: NumPy's ``np.unique`` of their ids
    sorts copies of them all (at 4,096 games of 71 objects, 20 ms and some 7 MB against
    0.15 ms)."""
    out = empty(n_rows, np.bool_)
    for r in range(n_rows):
        out[r] = False
    for g in range(slots.shape[0]):
        row = slots[g]
        for c in range(row.size):
            if row[c] >= 0:
                r = row_in(dir_, chunks, row[c] >> PAGE_BITS)
                if r >= 0:
                    out[r] = True
    return out


@kernel(reads("entity_id"), array(np.int32, 2, readonly=False), array(np.int64, 1, readonly=False), I64)
def _spread_kept(slots: np.ndarray, spread: np.ndarray, spread_id: np.ndarray,
                 n: int) -> np.ndarray:  # pragma: no cover - compiled
    """(n,) bool: which of the first ``n`` spread rows hold an id still in some game's
    slot (``slots``: the store's (B, C) ids); those rows move to the front in place, in
    order, and the rest up to ``n`` become -1. In place, without the (n, B) temporaries of
    a NumPy gather (some 5 MB a sweep at 4,096 games)."""
    keep = empty(n, np.bool_)
    for r in range(n):
        keep[r] = False
        for g in range(spread.shape[1]):
            c = spread[r, g]
            if 0 <= c < slots.shape[1] and slots[g, c] == spread_id[r]:
                keep[r] = True
                break
    _to_front(spread, spread_id, keep, n)
    return keep


@kernel(array(np.int32, 2, readonly=False), array(np.int64, 1, readonly=False), array(np.bool_, 1))
def _pages_kept(pages: np.ndarray, page_at: np.ndarray, keep: np.ndarray) -> int:  # pragma: no cover - compiled
    """Move the rows ``keep`` marks (of the first ``keep.size`` rows of ``pages`` and
    ``page_at``) to the front in place, in order, the rest of those rows becoming -1;
    returns how many were kept. In place: a NumPy gather of the kept rows was a temporary
    of 512 bytes a row (1.3 MB a sweep at 1,024 games), the largest a step allocates, and
    glibc kept a block of its size free at the heap's top."""
    return _to_front(pages, page_at, keep, keep.size)


@njit(cache=True, inline="always")
def _to_front(rows: np.ndarray, ids: np.ndarray, keep: np.ndarray, n: int) -> int:  # pragma: no cover - compiled
    """Move the first ``n`` rows of ``rows`` and ``ids`` that ``keep`` marks to the front
    in place, in order, the rest of those ``n`` becoming -1; returns how many were kept.
    Rows are copied element by element: a row assignment compiles numba's broadcasting,
    some 2 s of a cold start."""
    kept = 0
    for r in range(n):
        if keep[r]:
            if kept < r:
                for i in range(rows.shape[1]):
                    rows[kept, i] = rows[r, i]
                ids[kept] = ids[r]
            kept += 1
    for r in range(kept, n):
        for i in range(rows.shape[1]):
            rows[r, i] = -1
        ids[r] = -1
    return kept


@kernel(array(np.int32, 1), array(np.int32, 2), array(np.int32, 2), array(np.int32, 2), INDEX, INDEX)
def _lookup(dir_: np.ndarray, chunks: np.ndarray, pages: np.ndarray, spread: np.ndarray,
            games: np.ndarray, ids: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """``IdIndex.lookup``: ``games`` has one game per id, or none (page entries)."""
    out = empty(ids.size, np.int64)
    for i in range(ids.size):
        out[i] = column_in(dir_, chunks, pages, spread, ids[i], games[i] if games.size else -1)
    return out
