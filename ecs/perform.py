"""Performing one check: every decision of the systems applied together (CR 704.3).

The systems (``systems/``) only read the state and record what they decided in a
``Pending``; ``perform`` applies all of it at once, as one event: counters removed from
permanents that stay, objects moved with their last-known information (704.8), players
who lose and the games that end. It returns what the next check needs to look at.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from ecs.systems.base import Pending
from ecs.systems.zone_change import move_objects

from . import zones
from .events import CAUSE, GAME_END, LOST
from .prefetch import AHEAD, prefetch_read
from .store import remove_clamped

if TYPE_CHECKING:
    from .world import World

ONGOING, DRAW = -1, -2  # codes of World.result() in a batch (else the winner's id)
_NO_SLOTS = np.zeros(0, np.int64)


def perform(world: "World", pending: Pending) -> np.ndarray:
    """Perform one check's decisions simultaneously (704.3): counters removed from
    permanents that stay, moves with LKI from before the check (704.8), losses.
    Returns ``Pending.touched`` for the re-check: the flat slots of the permanents it
    changed, but by settling removals."""
    s = world.store
    # Flat (game, column) indices: one lookup each, cheaper than indexing with g and c.
    cap = s.capacity
    leaving: np.ndarray | None = None
    if pending.moves:
        leaving = np.zeros(world.batch * cap, bool)
        # An object leaves once: the first system's decision names the cause (the rows
        # of one Pending.move are distinct, so only later entries need the check).
        parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        for g, c, z, why in pending.moves:
            at = g * cap + c
            if parts:
                new = ~leaving[at]
                g, c, z, at = g[new], c[new], z[new], at[new]
                why = why if isinstance(why, str) else why[new]
            leaving[at] = True
            parts.append((g, c, z, np.full(g.size, CAUSE[why]) if isinstance(why, str) else why))
        g, c, z, cause = ((np.concatenate([p[i] for p in parts]) for i in range(4))
                          if len(parts) > 1 else parts[0])
    # Removals of one kind for one reason are one _change (one event chunk), in the
    # order they were first decided.
    removals: dict[tuple[int, str, bool], list[tuple[np.ndarray, ...]]] = {}
    # rows shared by entries (704.5q): (games, cols, at, amount, the staying rows or None)
    seen: dict[tuple[int, ...],
               tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]] = {}
    for kinds, rg, rc, amount, why, settles in pending.removals:
        key = (id(rg), id(rc), id(amount))   # the entries hold the arrays: ids stay unique
        if key not in seen:
            at = rg * cap + rc
            # counters on an object that leaves go with it
            seen[key] = (rg, rc, at, amount, None) if leaving is None else _staying(leaving, rg, rc, at, amount)
        rg, rc, at, amount, stay = seen[key]
        if stay is not None and not isinstance(kinds, int):
            kinds = kinds[stay]
        if isinstance(kinds, int):   # one kind (Pending.remove keeps a scalar kind)
            removals.setdefault((kinds, why, settles), []).append((rg, rc, at, amount))
            continue
        for k in _distinct(kinds):
            r = kinds == k
            removals.setdefault((int(k), why, settles), []).append((rg[r], rc[r], at[r], amount[r]))
    touched = []   # (games, columns) of the permanents changed, but by settling removals
    groups = list(removals.items())
    i = 0
    while i < len(groups):
        (k, why, settles), rows = groups[i]
        rg, rc, at, amount = (np.concatenate(x) for x in zip(*rows)) if len(rows) > 1 else rows[0]
        # the groups that follow on the same rows (704.5q's two kinds): one pass for all
        j, ks = i + 1, [k]
        while (len(rows) == 1 and j < len(groups) and len(groups[j][1]) == 1
               and groups[j][1][0][2] is at and groups[j][0][0] not in ks
               and amount.shape == at.shape):
            ks.append(groups[j][0][0])
            j += 1
        if len(ks) == 1 or at.size == 0:
            world._change(s.kind_names[k], rg, rc, -amount, why, at=at)
            if not settles:
                touched.append((rg, rc))
            i += 1
            continue
        # each kind's rows of before and after go to its event chunk: all of the buffers
        # is these events
        counts = s.mut("counts")
        before, after, every = remove_clamped(counts.reshape(counts.shape[0], -1),
                                              np.array(ks, np.int64), at, amount)
        for m, ((k, why, settles), _) in enumerate(groups[i:j]):
            world._changed(k, rg, rc, before[m], after[m], bool(every[m]), why)
            if not settles:
                touched.append((rg, rc))
        i = j
    if pending.moves:
        new_ids, dest = move_objects(world, g, c, z, cause)
        enter = np.flatnonzero(dest == zones.BATTLEFIELD)
        if enter.size:   # new permanents
            touched.append((g[enter], s.col_of_id[new_ids[enter]]))
    if pending.losses:
        lose(world, pending.losses)
    cap = s.capacity   # the moves may have grown it
    return _distinct(np.concatenate([tg * cap + tc for tg, tc in touched])) if touched else _NO_SLOTS


def _distinct(x: np.ndarray) -> np.ndarray:
    """``np.unique(x)`` by sorting: NumPy 2.4's hash-based np.unique costs some 10-40 us
    even on a few hundred ints and is ~20x slower than a sort on 60,000 (the touched slots)."""
    x = np.sort(x)
    return x[np.concatenate(([True], x[1:] != x[:-1]))] if x.size else x


@njit(cache=True)
def _staying(leaving: np.ndarray, games: np.ndarray, cols: np.ndarray, at: np.ndarray,
             amount: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          np.ndarray]:  # pragma: no cover - compiled
    """The rows whose flat slot ``at`` is not ``leaving``: (games, cols, at, amount, row
    indices), in one pass (NumPy took a gather, a nonzero and four takes), prefetching
    the row ``AHEAD`` on."""
    keep = np.empty(at.size, np.int64)
    m = 0
    for i in range(at.size):
        if i + AHEAD < at.size:
            prefetch_read(leaving, at[i + AHEAD])
        keep[m] = i
        m += not leaving[at[i]]
    keep = keep[:m]
    return games[keep], cols[keep], at[keep], amount[keep], keep


def lose(world: "World", losses: list[tuple[np.ndarray, np.ndarray, str]]) -> None:
    """Players lose (each once, with the first cause named); a game with one team left is
    won by that team's first player (104.2a), with none left a draw (104.4a)."""
    s = world.store
    lost = s.mut("lost")
    for g, p, cause in losses:
        new = ~lost[g, p]
        key = _distinct(g[new] * s.n_players + p[new])
        g, p = key // s.n_players, key % s.n_players
        lost[g, p] = True
        world.log.record(LOST, cause, game=g, entity=s.a["entity_id"][s.a["player_col"][p]])
    games = _distinct(np.concatenate([g for g, _, _ in losses]))
    # each player's team as an index into the sorted distinct teams (a few players: Python)
    teams = s.a["player_team"].tolist()
    index = {t: i for i, t in enumerate(sorted(set(teams)))}
    onehot = np.zeros((s.n_players, len(index)), np.int64)
    onehot[np.arange(s.n_players), [index[t] for t in teams]] = 1
    teams_left = ((~lost[games]).astype(np.int64) @ onehot) > 0     # (G, T)
    n_left = teams_left.sum(axis=1)
    draw = games[n_left == 0]
    s.mut("winner")[draw] = DRAW
    world.log.record(GAME_END, "104.4a", game=draw, entity=-1)
    won = n_left == 1
    if won.any():
        win_team = np.argmax(teams_left[won], axis=1)
        first = np.argmax(onehot[:, win_team].T, axis=1)  # the team's first player
        s.mut("winner")[games[won]] = first
        world.log.record(GAME_END, "104.2a", game=games[won],
                         entity=s.a["entity_id"][s.a["player_col"][first]])
