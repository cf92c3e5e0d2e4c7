"""Annihilation: +1/+1 and -1/-1 counters on a permanent cancel in pairs (CR 122.3, 704.5q).

A state-based action on permanents only: cards in other zones keep both kinds. (Grand
Archive buff/debuff counters cancel as they are placed instead; see ecs.rules.grand_archive.)
"""
from __future__ import annotations

import numpy as np

from ecs import zones
from ecs.check import Check, System
from ecs.game import Game
from ecs.kernels import I64, INDEX, array, compact, empty, flat, grown, head, kernel, reads, room_for
from ecs.prefetch import AHEAD, prefetch_read, prefetch_span

from .base import battlefield_extent


class Annihilation(System):
    causes = ("704.5q",)

    def process(self, world: Game, pending: Check) -> None:
        s = world.store
        kp, km = s.kind_index.get("+1/+1"), s.kind_index.get("-1/-1")
        if kp is None or km is None:
            return
        plus, minus, zone = s.counts[kp], s.counts[km], s.a["zone"]
        if pending.touched is None:
            g, c, amount = pairs(zone, plus, minus, pending.live_indices(world),
                                  battlefield_extent(world, pending))
        else:   # a re-check: the permanents the last perform touched (each decided alone)
            g, c, amount = pairs_at(zone, plus, minus, pending.touched, s.capacity,
                                     pending.live_games(world))
        # One paired removal, N of each kind from the same rows. Settling (Check.remove):
        # it changes no characteristic a check reads (P/T, loyalty, defense, keyword
        # counters), and leaves no pair.
        pending.remove((kp, km), g, c, amount, "704.5q", settles=True)


_BF = zones.BATTLEFIELD


@kernel(reads("zone"), reads("counts", 2), reads("counts", 2), INDEX, I64, uses=(grown,), system=Annihilation)
def pairs(zone: np.ndarray, plus: np.ndarray, minus: np.ndarray, games: np.ndarray, n: int
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """(games, columns, pairs) of the permanents in ``games`` x the first ``n`` columns
    with both kinds: as many of each as the smaller count are removed. The rows of the
    game two ahead are prefetched (ecs.prefetch.prefetch_span); the outputs are made at
    the first find (``room_for``)."""
    out_g = out_c = out_a = having = empty(0, np.int64)
    m = 0
    count = empty(n, np.int32)
    cap, zone_f, plus_f, minus_f = zone.shape[1], flat(zone), flat(plus), flat(minus)
    for j in range(games.size):
        g = games[j]
        if j + 2 < games.size:
            ahead = games[j + 2] * cap
            prefetch_span(zone_f, ahead, n)
            prefetch_span(plus_f, ahead, n)
            prefetch_span(minus_f, ahead, n)
        zr, pr, mr = zone[g], plus[g], minus[g]
        found = 0
        for c in range(n):   # branchless over row views: the compiler vectorizes it
            p, q = pr[c], mr[c]
            count[c] = (p if p < q else q) * (zr[c] == _BF)
            found += count[c] > 0
        if found == 0:   # most rows of a settled board
            continue
        if having.size < n:
            having = empty(n, np.int64)
        k = compact(count, n, having)   # the columns with pairs
        if m + k > out_g.size:
            need = room_for(out_g, m + k, games.size * n)
            out_g, out_c, out_a = grown(out_g, m, need), grown(out_c, m, need), grown(out_a, m, need)
        for i in range(k):
            out_g[m], out_c[m], out_a[m] = g, having[i], count[having[i]]
            m += 1
    return head(out_g, m), head(out_c, m), head(out_a, m)


@kernel(reads("zone"), reads("counts", 2), reads("counts", 2), INDEX, I64, array(np.bool_, 1), system=Annihilation)
def pairs_at(zone: np.ndarray, plus: np.ndarray, minus: np.ndarray, slots: np.ndarray,
              cap: int, live: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """``pairs`` for the flat ``slots`` (game * ``cap`` + column) of the ``live`` games,
    prefetching the slot ``AHEAD`` on."""
    out_g = empty(slots.size, np.int64)
    out_c = empty(slots.size, np.int64)
    out_a = empty(slots.size, np.int64)
    m = 0
    zone_f, plus_f, minus_f = flat(zone), flat(plus), flat(minus)
    for i in range(slots.size):
        if i + AHEAD < slots.size:
            b = slots[i + AHEAD]
            prefetch_read(zone_f, b)
            prefetch_read(plus_f, b)
            prefetch_read(minus_f, b)
        a = slots[i]
        g, c = a // cap, a % cap
        p, q = plus[g, c], minus[g, c]
        found = p if p < q else q
        if live[g] and found > 0 and zone[g, c] == _BF:
            out_g[m], out_c[m], out_a[m] = g, c, found
            m += 1
    return head(out_g, m), head(out_c, m), head(out_a, m)
