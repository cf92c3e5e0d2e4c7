"""What the systems' passes share: chunks of game rows, the battlefield's extent, hits.

The record systems decide into and their base class are ``ecs.check``."""
from __future__ import annotations

import numpy as np

from ecs import zones
from ecs.check import Check
from ecs.game import Game

CHUNK_ELEMENTS = 1 << 16   # rows x columns per pass chunk: temporaries stay in the L2 cache


Rows = slice | np.ndarray   # game rows of a chunk: a range, or the indices of a few games


def game_chunks(world: Game, n_cols: int | None = None,
                live: np.ndarray | None = None) -> list[Rows]:
    """Game rows to process at a time, so a pass streams each plane once (``n_cols``: the
    columns a pass reads, default all). Given ``live`` (B,) bool with under half of the
    games set, the chunks index those games only (a gather beats streaming then); else
    they are slices of every game, and the caller masks with ``live[rows, None]``."""
    n = world.store.n_cols if n_cols is None else n_cols
    per = max(1, CHUNK_ELEMENTS // max(n, 1))
    if live is not None and 2 * int(np.count_nonzero(live)) < live.size:
        idx = np.flatnonzero(live)
        return [idx[i:i + per] for i in range(0, idx.size, per)]
    return [slice(g, min(g + per, world.batch)) for g in range(0, world.batch, per)]


BLOCK_COLUMNS = 256
_BF_BYTE = bytes([zones.BATTLEFIELD])


def battlefield_extent(world: Game, pending: Check) -> int:
    """How many leading columns hold every permanent of every game: the battlefield
    systems skip the tail past the last one (cards in other zones, free slots). Scans the
    zones back from the end in blocks."""
    if "bf_extent" not in pending.memo:
        s = world.store
        end = s.n_cols
        if end <= BLOCK_COLUMNS:   # a small board: nothing worth skipping
            pending.memo["bf_extent"] = end
            return end
        zone = s.a["zone"]
        if world.batch == 1:   # one row of int8 codes: the last battlefield byte, found in C
            end = zone[0, :end].tobytes().rfind(_BF_BYTE) + 1
        while end > 0 and world.batch > 1:   # (the blocks of every game's rows)
            start = max(0, end - BLOCK_COLUMNS)
            block = zone[:, start:end] == zones.BATTLEFIELD
            if block.any():
                end = start + 1 + int(np.flatnonzero(block.any(axis=0))[-1])
                break
            end = start
        pending.memo["bf_extent"] = end
    return pending.memo["bf_extent"]


def hits(mask: np.ndarray, rows: Rows) -> tuple[np.ndarray, np.ndarray]:
    """(games, columns) where a chunk's mask is set; cheap when it is empty."""
    flat = np.flatnonzero(mask)   # 1-D nonzero is several times faster than 2-D
    if flat.size == 0:
        return _EMPTY, _EMPTY
    return unravel(flat, mask.shape[1], rows)


def unravel(flat: np.ndarray, n_cols: int, rows: Rows) -> tuple[np.ndarray, np.ndarray]:
    """(games, columns) of flat indices into a chunk of ``n_cols`` columns."""
    g = flat // n_cols
    return (g + rows.start if isinstance(rows, slice) else rows[g]), flat - g * n_cols


_EMPTY = np.zeros(0, np.int64)
