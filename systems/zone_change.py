"""ZoneChange: tokens outside the battlefield cease to exist (CR 704.5d).

The moves themselves, for every cause, are ``ecs.relocation.move_objects``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ecs import zones
from ecs.check import Check, System
from ecs.game import Game
from ecs.kernels import I64, INDEX, empty, grown, head, kernel, reads, room_for


class ZoneChange(System):
    causes = ("704.5d",)

    def process(self, world: Game, pending: Check) -> None:
        s = world.store
        g, c = ceasing(s.a["token"], s.a["zone"], pending.live_indices(world), s.n_cols)
        pending.move(g, c, zones.NONE, "704.5d")


_NONE, _BF = zones.NONE, zones.BATTLEFIELD


@njit(cache=True, inline="always")
def _ceases(token_row: np.ndarray, zone_row: np.ndarray, c: int) -> bool:  # pragma: no cover
    """Whether column ``c`` of a game's rows is a token in a zone other than the
    battlefield (and still exists): 704.5d. Without a branch, so a loop vectorizes."""
    return token_row[c] & (zone_row[c] != _NONE) & (zone_row[c] != _BF)


@kernel(reads("token"), reads("zone"), INDEX, I64, uses=(grown,), system=ZoneChange)
def ceasing(token: np.ndarray, zone: np.ndarray, games: np.ndarray, n: int
            ) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """(games, columns) of the tokens in ``games`` x the first ``n`` columns that are in a
    zone other than the battlefield (and still exist): they cease to exist. Per game row,
    one loop without branches or stores that the compiler vectorizes asks whether it has any; a row
    with any is looked at again, gathering its columns without a branch per column. The
    outputs are made at the first find (``room_for``)."""
    out_g = out_c = cols = empty(0, np.int64)
    m = 0
    for g in games:
        tr, zr = token[g], zone[g]
        found = False
        for c in range(n):
            found |= _ceases(tr, zr, c)
        if not found:   # every row without a token off the battlefield
            continue
        if cols.size < n:
            cols = empty(n, np.int64)
        k = 0
        for c in range(n):
            cols[k] = c
            k += _ceases(tr, zr, c)
        if m + k > out_g.size:
            need = room_for(out_g, m + k, games.size * n)
            out_g, out_c = grown(out_g, m, need), grown(out_c, m, need)
        for j in range(k):
            out_g[m], out_c[m] = g, cols[j]
            m += 1
    return head(out_g, m), head(out_c, m)
