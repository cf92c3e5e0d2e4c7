"""What every state-based system shares: the Pending record of one check.

Systems never write the state. Each reads the same state (the snapshot of this check)
and appends what it decided to ``Pending``; the World then performs everything together
as one event (CR 704.3) and checks again. So the order of the systems cannot change a
result, only the order of rows in the event log.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import esper
import numpy as np

from ecs import zones

if TYPE_CHECKING:
    from ecs.world import World


@dataclass
class Pending:
    # (kind id or per-row kind ids, games, columns, amounts, cause, settles): counters to
    # remove; see ``remove`` for ``settles``
    removals: list[tuple[int | np.ndarray, np.ndarray, np.ndarray, np.ndarray, str, bool]] = field(default_factory=list)
    # (games, columns, destination zone codes, cause or per-row ecs.events.CAUSE codes):
    # objects to move, distinct (game, column) rows per entry; zone 0 ceases to exist
    moves: list[tuple[np.ndarray, np.ndarray, np.ndarray, str | np.ndarray]] = field(default_factory=list)
    # (games, player indices, cause): players who lose
    losses: list[tuple[np.ndarray, np.ndarray, str]] = field(default_factory=list)

    def remove(self, kind: int | np.ndarray, games: np.ndarray, cols: np.ndarray,
               amounts: np.ndarray, cause: str, settles: bool = False) -> None:
        """Remove counters. ``settles``: the deciding system guarantees that this removal,
        performed with whatever else the check decided, leaves nothing for any system to
        do that those other decisions would not (Annihilation: the removed pairs change
        no characteristic a check reads). Then it calls for no re-check of its own."""
        if games.size:
            kinds: int | np.ndarray = int(kind) if np.ndim(kind) == 0 else np.asarray(kind, np.int64)
            self.removals.append((kinds, games, cols, amounts, cause, settles))

    def move(self, games: np.ndarray, cols: np.ndarray, zone: int | np.ndarray,
             cause: str | np.ndarray) -> None:
        if games.size:   # np.full, not np.broadcast_to: a few times cheaper for few rows
            z = np.full(games.shape, zone, np.int64) if np.ndim(zone) == 0 else np.asarray(zone, np.int64)
            self.moves.append((games, cols, z, cause))

    def lose(self, games: np.ndarray, players: np.ndarray, cause: str) -> None:
        if games.size:
            self.losses.append((games, players, cause))

    # Values derived from the state of this check, shared by the systems that need them
    # (the state does not change while a check runs: systems only read).
    memo: dict[str, Any] = field(default_factory=dict)
    # (B,) bool: the games this check looks at (a subset of the ongoing ones); None: every
    # ongoing game. World.tick narrows a re-check to the games the last perform changed.
    live: np.ndarray | None = None
    # In a re-check: the sorted distinct flat slots (game * capacity + column) of the
    # permanents the last perform changed other than by settling removals; None in a
    # first check. A system that decides each permanent from that permanent's own state
    # alone (zone, counters, damage, card) need look only at these (704.3): any other is
    # as the last check saw it (settling removals change nothing such a system reads,
    # and deathtouch marks cleared since only take reasons away), and that check decided
    # nothing for it, or it would have been touched or have left.
    touched: np.ndarray | None = None

    def empty(self) -> bool:
        return not (self.removals or self.moves or self.losses)

    def games_named(self, batch: int) -> np.ndarray:
        """(B,) bool: the games some decision of this check names, settling removals aside
        (a game they alone name is left as the check found it, for what the checks read)."""
        named = np.zeros(batch, bool)
        for _, g, _, _, _, settles in self.removals:
            if not settles:
                named[g] = True
        for g, *_ in self.moves + self.losses:
            named[g] = True
        return named


def live_games(world: "World", pending: Pending) -> np.ndarray:
    """(B,) bool: the games a system looks at in this check (never an ended game)."""
    if pending.live is None:
        if "ongoing" not in pending.memo:
            pending.memo["ongoing"] = world.ongoing
        return pending.memo["ongoing"]
    return pending.live


def live_indices(world: "World", pending: Pending) -> np.ndarray:
    """The indices of ``live_games``, for the compiled systems (computed once a check)."""
    if "live indices" not in pending.memo:
        pending.memo["live indices"] = np.flatnonzero(live_games(world, pending))
    return pending.memo["live indices"]


CHUNK_ELEMENTS = 1 << 16   # rows x columns per pass chunk: temporaries stay in the L2 cache


Rows = slice | np.ndarray   # game rows of a chunk: a range, or the indices of a few games


def game_chunks(world: "World", n_cols: int | None = None,
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


def battlefield_extent(world: "World", pending: Pending) -> int:
    """How many leading columns hold every permanent of every game. Objects that left the
    battlefield get new columns at the end (CR 400.7), so after deaths a long tail holds
    none: the battlefield systems skip it. Scans the zones back from the end in blocks."""
    if "bf_extent" not in pending.memo:
        s = world.store
        end = s.n_cols
        if end <= BLOCK_COLUMNS:   # a small board: nothing worth skipping
            pending.memo["bf_extent"] = end
            return end
        zone = s.a["zone"]
        while end > 0:
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


class System(esper.Processor):
    """A state-based system: ``process(world, pending)`` decides, never writes."""

    #: Higher runs first (esper's convention); fixed by the ordered list in systems/__init__.
    priority = 0

    def process(self, world: "World", pending: Pending) -> None:  # pragma: no cover - abstract
        raise NotImplementedError
