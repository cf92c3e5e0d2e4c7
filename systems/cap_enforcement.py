"""CapEnforcement: "can't have more than N counters of a kind" (CR 122.4, 704.5r).

Caps are sparse (few objects have one): entries (column, kind) with a per-game value,
``NO_CAP`` (-1; the kernels read any negative value as none) meaning no cap in that game.
"""
from __future__ import annotations

import numpy as np

from ecs import zones
from ecs.check import Check, System
from ecs.game import Game
from ecs.kernels import INDEX, array, empty, grown, head, kernel, reads, room


class CapEnforcement(System):
    causes = ("704.5r",)

    def process(self, world: Game, pending: Check) -> None:
        s = world.store
        cols, kinds = s.a["cap_col"], s.a["cap_kind"]
        if cols.size == 0:
            return
        if pending.touched is None:
            g, m, excess = over(s.counts, s.a["zone"], cols, kinds, s.a["cap_val"],
                                 pending.live_indices(world))
        else:   # a re-check: a permanent's caps are its own state (a perform never raises
            # a count but on entering, nor lowers a cap), so only touched ones can be over
            g, m, excess = over_at(s.counts, s.a["zone"], cols, kinds, s.a["cap_val"],
                                    pending.touched, s.capped_columns(), pending.live_games(world))
        pending.remove(kinds[m], g, cols[m].astype(np.int64), excess, "704.5r")


_BF = zones.BATTLEFIELD


@kernel(reads("counts"), reads("zone"), reads("cap_col"), reads("cap_kind"), reads("cap_val"), INDEX,
        uses=(grown,), system=CapEnforcement)
def over(counts: np.ndarray, zone: np.ndarray, cols: np.ndarray, kinds: np.ndarray,
          cap: np.ndarray, games: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """(games, cap entries, counters over the cap) of the permanents in ``games`` with
    more counters of a capped kind than their cap in that game."""
    out_g = empty(room(games.size * cols.size), np.int64)
    out_m = empty(out_g.size, np.int64)
    out_x = empty(out_g.size, np.int64)
    n = 0
    for g in games:
        if n + cols.size > out_g.size:   # (room for a game's entries, outside their loop)
            out_g, out_m, out_x = (grown(out_g, n, n + cols.size), grown(out_m, n, n + cols.size),
                                   grown(out_x, n, n + cols.size))
        for m in range(cols.size):
            limit = cap[g, m]
            if limit >= 0:
                have = counts[kinds[m], g, cols[m]]
                if have > limit and zone[g, cols[m]] == _BF:
                    out_g[n], out_m[n], out_x[n] = g, m, have - limit
                    n += 1
    return head(out_g, n), head(out_m, n), head(out_x, n)


@kernel(reads("counts"), reads("zone"), reads("cap_col"), reads("cap_kind"), reads("cap_val"), INDEX,
        array(np.bool_, 1), array(np.bool_, 1), uses=(grown,), system=CapEnforcement)
def over_at(counts: np.ndarray, zone: np.ndarray, cols: np.ndarray, kinds: np.ndarray,
             cap: np.ndarray, slots: np.ndarray, capped: np.ndarray, live: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """``over`` for the flat ``slots`` (game * capacity + column) of the ``live`` games
    (``capped``: the columns with cap entries)."""
    out_g = empty(room(slots.size * cols.size), np.int64)
    out_m = empty(out_g.size, np.int64)
    out_x = empty(out_g.size, np.int64)
    n = 0
    width = zone.shape[1]
    for a in slots:
        g, c = a // width, a % width
        if not (live[g] and capped[c] and zone[g, c] == _BF):
            continue
        if n + cols.size > out_g.size:
            out_g, out_m, out_x = (grown(out_g, n, n + cols.size), grown(out_m, n, n + cols.size),
                                   grown(out_x, n, n + cols.size))
        for m in range(cols.size):
            limit = cap[g, m]
            if cols[m] == c and limit >= 0 and counts[kinds[m], g, c] > limit:
                out_g[n], out_m[n], out_x[n] = g, m, counts[kinds[m], g, c] - limit
                n += 1
    return head(out_g, n), head(out_m, n), head(out_x, n)
