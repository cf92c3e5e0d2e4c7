"""Batch and tree-search support: fork, select and seeds.

``World.snapshot()``/``restore()``/``clone()`` (in ``ecs.world``) copy the state as arrays.
This module gives what a search or a Monte Carlo evaluator needs on top of them (the
World builds the new World from the ``Parts`` these return):

* ``fork(game, n)``: a new World of ``n`` games, each a copy of one game of this one (the
  start of a Monte Carlo evaluation from a position), with its own random generator;
* ``select(games)``: a new World keeping some games, in the given order;
* ``spawn_seeds(n)``: ``SeedSequence`` children for forks and Monte Carlo shards.

Randomness: every World owns ``seed_seq`` (a ``numpy.random.SeedSequence``) and
``rng = default_rng(seed_seq)``. The k-th child handed out (by ``spawn_seeds``, ``fork``
or ``select``) is ``SeedSequence(entropy, spawn_key=seed_seq.spawn_key + (k,))``, exactly
what ``SeedSequence.spawn`` gives, but numbered by ``World.n_spawned``, which is part of
the snapshot: after ``restore`` the same children come out again, so the same seed and
the same actions always give bit-identical Worlds.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Protocol

import numpy as np

from .args import Games, flag, integer, select_games
from .components import ALL_FIELDS, GAME_AXIS, GAME_COLUMN
from .errors import InvalidGameError
from .events import LOG_COLUMNS as _LOG_COLUMNS
from .game import Game
from .ids import IdIndex
from .limits import MAX_BATCH, MAX_SEEDS, MAX_SLOTS
from .store import Snapshot


class Seeded(Game, Protocol):
    """A Game with the seed sequence its children come from (see the module docstring)."""

    n_spawned: int

    @property
    def seed_seq(self) -> np.random.SeedSequence: ...


@dataclass(frozen=True)
class Parts:
    """The state of a new World: a ``Store.snapshot()``, an ``EventLog.snapshot()`` and the
    seed of its generator."""
    store: dict[str, Any]
    log: dict[str, Any]
    seed: np.random.SeedSequence


_FIELDS = {f.name: f for f in ALL_FIELDS}


# ---- taking games out of a World ---------------------------------------------------------
def _take_store(store: Any, idx: np.ndarray) -> dict[str, Any]:
    """A ``Store.snapshot()``-shaped dict whose games are ``store``'s games ``idx``."""
    n, k = store.n_cols, store.n_kinds
    snap: dict[str, Any] = {"counts": store.counts[:k][:, idx, :n]}
    for name, arr in store.a.items():
        f = _FIELDS[name]
        used = arr[:, :n] if f.shape == GAME_COLUMN else arr
        snap[name] = used[idx] if f.shape in GAME_AXIS else used.copy()
    snap["meta"] = np.array([idx.size, n, store.next_id], np.int64)
    snap["kind_names"] = np.array(store.kind_names, dtype=str)
    return snap


def _take_log(table: Mapping[str, np.ndarray], idx: np.ndarray, step: int) -> dict[str, Any]:
    """An ``EventLog.snapshot()`` holding the events of games ``idx`` (new game j is old game
    ``idx[j]``; one old game may be taken several times, as by ``fork``)."""
    game = table["game"]
    order = np.argsort(idx, kind="stable")
    sidx = idx[order]
    lo = np.searchsorted(sidx, game, "left")
    hi = np.searchsorted(sidx, game, "right")
    reps = hi - lo                                   # copies of each old row
    rows = np.repeat(np.arange(game.size), reps)     # old row of each new row, in order
    first = np.repeat(lo, reps)
    offset = np.arange(rows.size) - np.repeat(np.cumsum(reps) - reps, reps)
    new_game = order[first + offset]
    chunk = {c: table[c][rows] for c in _LOG_COLUMNS}
    chunk["game"] = new_game.astype(np.int64)
    # LKI rows follow their event row into each of its copies.
    start = np.cumsum(reps) - reps
    lr = table["lki_row"]
    lreps = reps[lr] if lr.size else np.zeros(0, np.int64)
    lki_src = np.repeat(np.arange(lr.size), lreps)
    lki_row = np.repeat(start[lr] if lr.size else lr, lreps) + (
        np.arange(lki_src.size) - np.repeat(np.cumsum(lreps) - lreps, lreps))
    lki = {"row": lki_row.astype(np.int64), "kind": table["lki_kind"][lki_src],
           "count": table["lki_count"][lki_src]}
    return {"chunks": [chunk] if rows.size else [], "lki": [lki] if lki_row.size else [],
            "rows": int(rows.size), "step": int(step)}


def _fork_log(table: Mapping[str, np.ndarray], game: int, n: int, step: int) -> dict[str, Any]:
    """``_take_log(table, [game] * n, step)``, by np.repeat (forks of big logs are common)."""
    def rep(x: np.ndarray) -> np.ndarray:   # np.repeat(x, n), but a fast strided copy
        return np.broadcast_to(x[:, None], (x.size, n)).reshape(-1)

    sel = table["game"] == game
    k = int(sel.sum())
    chunk = {c: rep(table[c][sel]) for c in _LOG_COLUMNS if c != "game"}
    chunk["game"] = np.broadcast_to(np.arange(n, dtype=np.int64), (k, n)).reshape(-1)
    pos = np.cumsum(sel) - 1                      # old row -> its index among the kept
    lsel = sel[table["lki_row"]] if table["lki_row"].size else np.zeros(0, bool)
    lrow = (pos[table["lki_row"][lsel]][:, None] * n + np.arange(n)).reshape(-1)
    lki = {"row": lrow.astype(np.int64), "kind": rep(table["lki_kind"][lsel]),
           "count": rep(table["lki_count"][lsel])}
    return {"chunks": [chunk] if k else [], "lki": [lki] if lrow.size else [],
            "rows": k * n, "step": int(step)}


def seed_key(ss: np.random.SeedSequence) -> tuple[Any, tuple[int, ...], int]:
    """What rebuilds ``ss``: (entropy, spawn_key, pool_size)."""
    return (ss.entropy, tuple(ss.spawn_key), ss.pool_size)


def spawn_seeds(world: Seeded, n: int) -> list[np.random.SeedSequence]:
    """``n`` new children of this World's ``seed_seq`` (for Monte Carlo shards: give
    shard i the i-th child and results do not depend on the number of workers)."""
    n = integer(n, "number of seeds", 0, MAX_SEEDS, InvalidGameError)
    ss = world.seed_seq
    first = world.n_spawned
    seeds = [np.random.SeedSequence(ss.entropy, spawn_key=tuple(ss.spawn_key) + (first + i,),
                                    pool_size=ss.pool_size) for i in range(n)]
    world.n_spawned += n   # only once they exist: an interrupted call hands out nothing
    return seeds


def fork(world: Seeded, game: int, n: int, events: bool = True) -> Parts:
    """A new World of ``n`` games, each a copy of game ``game`` of this one (its objects,
    ids, counters, players and, unless ``events=False``, its events), with its own
    generator seeded by a child of this World's seed sequence. A finished game can be
    forked (its copies stay finished). ``events=False`` starts with an empty event log:
    the cheap start of a Monte Carlo evaluation when the history is not needed."""
    game = integer(game, "fork's game index", 0, world.batch - 1, InvalidGameError)
    n = integer(n, "number of games of a fork", 1, MAX_BATCH, InvalidGameError)
    events = flag(events, "fork's events")
    if n * world.store.n_cols > MAX_SLOTS:
        raise InvalidGameError(f"a fork of {n} games x {world.store.n_cols} columns would pass "
                               f"the bound of {MAX_SLOTS} slots (ecs.limits.MAX_SLOTS)")
    idx = np.full(int(n), int(game), np.int64)
    child = spawn_seeds(world, 1)[0]
    log = (_fork_log(world.log.table(), int(game), int(n), world.log.step) if events else
           {"chunks": [], "lki": [], "rows": 0, "step": world.log.step})
    # (the index of one game's slots, in every copy: not one made from all n games' slots)
    s = world.store
    index = IdIndex.of_copies(s.a["entity_id"][game: game + 1, : s.n_cols], int(n))
    return Parts(Snapshot.carrying(_take_store(s, idx), index), log, child)


def select(world: Seeded, games: Games) -> Parts:
    """A new World keeping games ``games`` (an index, a boolean mask or an index array;
    finished games may be kept), in that order, with its own generator seeded by a child
    of this World's seed sequence. Ids are unchanged; events are renumbered by game."""
    idx = select_games(games, np.ones(world.batch, bool))
    if idx.size == 0:
        raise InvalidGameError("select needs at least one game")
    child = spawn_seeds(world, 1)[0]
    return Parts(_take_store(world.store, idx),
                           _take_log(world.log.table(), idx, world.log.step), child)
