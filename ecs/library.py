"""Libraries (MTG "library", GA "deck"; CR 401, GA Turn Order), ordered per game.

A library is its owner's (400.3). The ``position`` field orders it: ascending (position,
id) is top to bottom. Cards that arrive in a library (``arrive``) go to its bottom in the
order they arrive, below every card there; ordering and shuffling renumber a library from
-n (top) to -1.
"""
from __future__ import annotations

import numpy as np

from . import zones
from .game import Game


def library_ranks(world: Game, games: np.ndarray, players: np.ndarray) -> np.ndarray:
    """(G, n_cols): the rank of each card in the library of ``players[i]`` in game
    ``games[i]`` (0 is the top card), -1 for every other object."""
    r, c, rank = library_order(world, games, players)
    out = np.full((games.size, world.store.n_cols), -1, np.int64)
    out[r, c] = rank
    return out


def library_order(world: Game, games: np.ndarray, players: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The cards of the library of ``players[i]`` in game ``games[i]``, as (``i``, column,
    rank: 0 is the top card) arrays ordered by ``i``, then top card first."""
    s = world.store
    r, c = np.nonzero(_in_library(world, games, players))   # row-major: rows ascending
    # sort the libraries' cards only, not every slot: a long game's graveyard and exile
    # would make a small library's read cost their size times its log
    g = games[r]
    c = c[np.lexsort((s.a["entity_id"][g, c], s.a["position"][g, c], r))]   # (r stays sorted)
    return r, c, np.arange(r.size) - np.searchsorted(r, r)


def library_cols(world: Game, game: int, player: int) -> np.ndarray:
    """The columns of ``player``'s library in ``game``, top card first (ascending
    (position, id), as ``library_ranks`` orders it)."""
    s = world.store
    cols = np.flatnonzero(_library_of(world, game, player))
    return cols[np.lexsort((s.a["entity_id"][game, cols], s.a["position"][game, cols]))]


def top_card(world: Game, game: int, player: int) -> int:
    """The column of the top card of ``player``'s library in ``game``, -1 for an empty
    library."""
    cols = library_cols(world, game, player)
    return int(cols[0]) if cols.size else -1


def arrive(world: Game, games: np.ndarray, cols: np.ndarray) -> None:
    """The cards in slots (``games[i]``, ``cols[i]``), just put into their owners'
    libraries, go to the bottom of each in the order of the rows (the order an action was
    given its cards, or by slot for simultaneous deaths: what a game and a batch see alike,
    where ids are not) - a choice 401.4 leaves to the owner. Positions count on from the
    game's highest (every slot outside a library holds 0, an ordered library -n..-1), so
    they grow with each arrival in a game, whichever library it joins; a game whose
    positions would pass the field's range has its libraries renumbered first."""
    s = world.store
    n = s.n_cols
    ug, gi = np.unique(games, return_inverse=True)
    order = np.argsort(gi, kind="stable")   # each row's rank among its game's, in row order
    first = np.flatnonzero(np.r_[True, gi[order][1:] != gi[order][:-1]])
    rank = np.empty(games.size, np.int64)
    rank[order] = np.arange(games.size) - np.repeat(first, np.diff(np.r_[first, games.size]))
    top = s.a["position"][ug, :n].max(axis=1).astype(np.int64)
    over = top + np.bincount(gi, minlength=ug.size) > _TOP
    if over.any():
        _renumber(world, ug[over])
        top[over] = -1
    s.mut("position")[games, cols] = top[gi] + 1 + rank


def arrive_one(world: Game, g: int, cols: list[int]) -> None:
    """``arrive`` of cards of one game, ``cols`` in the order they arrive, in plain ints
    but for the one look at the game's highest position."""
    s = world.store
    top = int(s.a["position"][g, : s.n_cols].max())
    if top + len(cols) > _TOP:   # (the general form renumbers the libraries)
        arrive(world, np.full(len(cols), g, np.int64), np.array(cols, np.int64))
        return
    for i, col in enumerate(cols):
        s.write("position", (g, col), top + 1 + i)


def _renumber(world: Game, games: np.ndarray) -> None:
    """Every library of ``games`` renumbered -n..-1 in its order (its arrivals' positions
    reached the field's range: some 2**31 arrivals since the last order or shuffle)."""
    s = world.store
    for p in range(s.n_players):   # (the players: a few)
        rank = library_ranks(world, games, np.full(games.size, p))
        r, c = np.nonzero(rank >= 0)
        s.mut("position")[games[r], c] = (rank - (rank >= 0).sum(axis=1, keepdims=True))[r, c]


def _owners(world: Game, games: np.ndarray | int) -> np.ndarray:
    """(G, n_cols), or (n_cols,) of one game: each object's owner (108.3; the controller
    where no control changed)."""
    s = world.store
    owner = s.a["owner"][games, : s.n_cols]
    return np.where(owner >= 0, owner, s.a["controller"][games, : s.n_cols])


def _library_of(world: Game, g: int, player: int) -> np.ndarray:
    """(n_cols,): ``_in_library`` of one game and player, through slices."""
    s = world.store
    return (s.a["zone"][g, : s.n_cols] == zones.LIBRARY) & (_owners(world, g) == player)


def _in_library(world: Game, games: np.ndarray, players: np.ndarray) -> np.ndarray:
    """(G, n_cols): whether each object is a card in ``players[i]``'s library."""
    s = world.store
    return (s.a["zone"][games, : s.n_cols] == zones.LIBRARY) & (_owners(world, games) == players[:, None])


_TOP = np.iinfo(np.int32).max    # the highest position the field holds
