"""ZoneChange: tokens outside the battlefield cease to exist (CR 704.5d).

The moves themselves, for every cause, are ``ecs.relocation.move_objects``.
"""
from __future__ import annotations

import numpy as np

from ecs import zones
from ecs.check import Check, System
from ecs.game import Game
from ecs.kernels import I64, INDEX, compact, empty, grown, head, kernel, reads, room


class ZoneChange(System):
    causes = ("704.5d",)

    def process(self, world: Game, pending: Check) -> None:
        s = world.store
        g, c = ceasing(s.a["token"], s.a["zone"], pending.live_indices(world), s.n_cols)
        pending.move(g, c, zones.NONE, "704.5d")


_NONE, _BF = zones.NONE, zones.BATTLEFIELD


@kernel(reads("token"), reads("zone"), INDEX, I64, uses=(grown,), system=ZoneChange)
def ceasing(token: np.ndarray, zone: np.ndarray, games: np.ndarray, n: int
            ) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """(games, columns) of the tokens in ``games`` x the first ``n`` columns that are in a
    zone other than the battlefield (and still exist): they cease to exist. Per game row,
    one loop without branches that the compiler vectorizes, then the columns found
    gathered (as ``annihilation.pairs``)."""
    out_g = empty(room(games.size * n), np.int64)
    out_c = empty(out_g.size, np.int64)
    m = 0
    hit = empty(n, np.bool_)
    cols = empty(n, np.int64)
    for g in games:
        tr, zr = token[g], zone[g]
        found = 0
        for c in range(n):
            hit[c] = tr[c] & (zr[c] != _NONE) & (zr[c] != _BF)
            found += hit[c]
        if found == 0:   # every row without a token off the battlefield
            continue
        k = compact(hit, n, cols)
        if m + k > out_g.size:
            out_g, out_c = grown(out_g, m, m + k), grown(out_c, m, m + k)
        for j in range(k):
            out_g[m], out_c[m] = g, cols[j]
            m += 1
    return head(out_g, m), head(out_c, m)
