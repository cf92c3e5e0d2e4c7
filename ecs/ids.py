"""Which column each id names: the store's index from ids to columns, kept in pages.

An id names one column in every game it is in (``ecs.store``). Ids are never reused, so a
dense table over every id ever made would grow with a run's history (a long batched
self-play run makes millions). The index keeps the ids in pages of ``PAGE`` and drops a
page once none of its ids is in any game: a sweep of the slots in use finds them when the
pages held have doubled since the last sweep, so its cost is amortized over the ids made
in between. A dropped id maps to -1, "in no game", which is what a stale id is.
"""
from __future__ import annotations

from typing import Callable

import numpy as np
from numba import njit

from .kernels import array, kernel

PAGE_BITS = 10
PAGE = 1 << PAGE_BITS
_MASK = PAGE - 1
_MIN_ROWS = 4   # pages held before the first sweep


class IdIndex:
    """The id -> column map of one store; copy on write between clones."""

    def __init__(self) -> None:
        self.page_of = np.full(0, -1, np.int32)           # page number -> row of ``pages``
        self.pages = np.full((0, PAGE), -1, np.int32)     # row -> the columns of its ids
        self.rows = 0       # rows in use
        self.swept = 0      # rows in use after the last sweep
        self._shared = False

    @property
    def nbytes(self) -> int:
        return int(self.page_of.nbytes + self.pages.nbytes)

    def clone(self, read_only: bool = False) -> IdIndex:
        """An index sharing this one's arrays until either side writes (``read_only``: mark
        them so, to catch a write that skips the copy)."""
        other = IdIndex.__new__(IdIndex)
        other.__dict__ = self.__dict__.copy()
        self._shared = other._shared = True
        if read_only:
            self.page_of.flags.writeable = self.pages.flags.writeable = False
        return other

    def _own(self) -> None:
        if self._shared:
            self.page_of, self.pages, self._shared = self.page_of.copy(), self.pages.copy(), False

    def lookup(self, ids: np.ndarray) -> np.ndarray:
        """The columns of int64 ``ids`` (any shape); -1 for -1 and for ids in no game."""
        flat = np.ascontiguousarray(ids, np.int64).reshape(-1)
        return _lookup(self.page_of, self.pages, flat).reshape(np.shape(ids))

    def one(self, e: int) -> int:
        """``lookup`` of one id, with plain reads."""
        p = e >> PAGE_BITS
        row = self.page_of.item(p) if p < self.page_of.size else -1   # (item: a Python int)
        return -1 if row < 0 else self.pages.item(row, e & _MASK)

    def add(self, first: int, cols: np.ndarray, live_ids: Callable[[], np.ndarray]) -> None:
        """Map the new ids ``first``, ``first + 1``, ... to ``cols``. ``live_ids()`` gives
        the ids in some slot now, for a sweep (the new ids need not be among them)."""
        if cols.size == 0:
            return
        self._own()
        lo, hi = first >> PAGE_BITS, (first + cols.size - 1) >> PAGE_BITS
        if hi >= self.page_of.size:
            grown = np.full(max(hi + 1, 2 * self.page_of.size), -1, np.int32)
            grown[: self.page_of.size] = self.page_of
            self.page_of = grown
        for p in range(lo, hi + 1):   # pages, not ids: one per PAGE ids made
            if self.page_of.item(p) < 0:
                self._new_row(p, lo, live_ids)
        if cols.size == 1:   # one id (a single game's zone change): a plain write
            self.pages[self.page_of.item(lo), first & _MASK] = cols.item(0)
            return
        ids = np.arange(first, first + cols.size, dtype=np.int64)
        self.pages[self.page_of[ids >> PAGE_BITS], ids & _MASK] = cols

    def _new_row(self, page: int, keep_from: int, live_ids: Callable[[], np.ndarray]) -> None:
        if self.rows >= max(2 * self.swept, _MIN_ROWS):
            self._sweep(keep_from, live_ids())
        if self.rows == self.pages.shape[0]:
            grown = np.full((max(2 * self.rows, _MIN_ROWS), PAGE), -1, np.int32)
            grown[: self.rows] = self.pages[: self.rows]
            self.pages = grown
        self.page_of[page] = self.rows
        self.rows += 1

    def _sweep(self, keep_from: int, live: np.ndarray) -> None:
        """Drop the pages below ``keep_from`` that hold no id of ``live``; the rows kept
        move to the front, in page order."""
        held = np.flatnonzero(self.page_of >= 0)
        keep = np.zeros(self.page_of.size, bool)
        keep[np.unique(live >> PAGE_BITS)] = True
        keep[keep_from:] = True
        kept = held[keep[held]]
        rows = self.page_of[kept]
        self.pages[: kept.size] = self.pages[rows]
        self.pages[kept.size: self.rows] = -1
        self.page_of[held] = -1
        self.page_of[kept] = np.arange(kept.size, dtype=np.int32)
        self.rows = self.swept = int(kept.size)

    @classmethod
    def of_slots(cls, entity_id: np.ndarray) -> IdIndex:
        """The index of the ids in the slots ``entity_id`` (a (B, n) store array): what a
        restored or loaded store maps (ids in no slot map to -1 anyway)."""
        index = cls()
        live = entity_id >= 0
        ids = entity_id[live]
        if ids.size == 0:
            return index
        cols = np.nonzero(live)[1].astype(np.int32)
        used = np.unique(ids >> PAGE_BITS)
        index.page_of = np.full(int(used[-1]) + 1, -1, np.int32)
        index.page_of[used] = np.arange(used.size, dtype=np.int32)
        index.pages = np.full((used.size, PAGE), -1, np.int32)
        index.pages[index.page_of[ids >> PAGE_BITS], ids & _MASK] = cols
        index.rows = index.swept = int(used.size)
        return index


@njit(cache=True, inline="always")
def column_of(page_of: np.ndarray, pages: np.ndarray, e: int) -> int:  # pragma: no cover - compiled
    """The column of id ``e`` (-1: none), for compiled callers."""
    if e < 0:
        return -1
    p = e >> PAGE_BITS
    if p >= page_of.size or page_of[p] < 0:
        return -1
    return pages[page_of[p], e & _MASK]


@kernel(array(np.int32, 1), array(np.int32, 2), array(np.int64, 1))
def _lookup(page_of: np.ndarray, pages: np.ndarray,
            ids: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    out = np.empty(ids.size, np.int64)
    for i in range(ids.size):
        out[i] = column_of(page_of, pages, ids[i])
    return out
