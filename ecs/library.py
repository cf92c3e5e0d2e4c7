"""Libraries (MTG "library", GA "deck"; CR 401, GA Turn Order), ordered per game.

The ``position`` field orders a library: ascending (position, id) is top to bottom. A card
that arrives in a library has position 0 and a larger id than every older card, so cards
go to the bottom in the order they arrive; ordering and shuffling renumber a library from
-n (top) to -1.
"""
from __future__ import annotations

import numpy as np

from . import zones
from .game import Game


def library_ranks(world: Game, games: np.ndarray, players: np.ndarray) -> np.ndarray:
    """(G, n_cols): the rank of each card in the library of ``players[i]`` in game
    ``games[i]`` (0 is the top card), -1 for every other object."""
    s = world.store
    n = s.n_cols
    in_lib = (s.a["zone"][games, :n] == zones.LIBRARY) & (s.a["controller"][games, :n] == players[:, None])
    pos = np.where(in_lib, s.a["position"][games, :n].astype(np.int64), _LAST)
    order = np.lexsort((s.a["entity_id"][games, :n], pos), axis=-1)
    rank = np.empty_like(order)
    rank[np.arange(order.shape[0])[:, None], order] = np.arange(n)   # (put_along_axis: 4x the time)
    return np.where(in_lib, rank, -1)


_LAST = np.iinfo(np.int64).max   # the position of a card in no library: after every one


def top_card(world: Game, game: int, player: int) -> int:
    """The column of the top card of ``player``'s library in ``game`` (the first in
    ascending (position, id), as ``library_ranks`` orders it), -1 for an empty library."""
    s = world.store
    n = s.n_cols
    cols = np.flatnonzero((s.a["zone"][game, :n] == zones.LIBRARY) & (s.a["controller"][game, :n] == player))
    if cols.size == 0:
        return -1
    return int(cols[np.lexsort((s.a["entity_id"][game, cols], s.a["position"][game, cols]))[0]])
