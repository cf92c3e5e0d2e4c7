"""Normalising the `games=`, id and amount arguments every action takes.

Ids and amounts broadcast against (selected games G, objects m): one id, an array of
m ids (the same objects in every game) or a (G, m) array (one row per game); amounts
likewise, and a 1-D amount array with a single id gives one amount per selected game.
"""
from __future__ import annotations

import numbers
from typing import Any, Callable

import numpy as np

from .errors import GameOverError, InvalidCountError, InvalidGameError

MAX_COUNT = np.iinfo(np.int32).max


def select_games(games: Any, ongoing: np.ndarray) -> np.ndarray:
    """Indices of the selected games; None means every game still in progress."""
    batch = ongoing.shape[0]
    if games is None:
        return np.flatnonzero(ongoing)
    if isinstance(games, (bool, np.bool_)):
        raise InvalidGameError(f"games={games!r}: expected None, an index, a mask or an index array")
    if isinstance(games, numbers.Integral):
        idx = np.array([int(games)])
    else:
        arr = np.asarray(games)
        if arr.dtype == bool:
            if arr.shape != (batch,):
                raise InvalidGameError(f"game mask of shape {arr.shape} for a batch of {batch}")
            idx = np.flatnonzero(arr)
        elif arr.ndim == 1 and (arr.size == 0 or np.issubdtype(arr.dtype, np.integer)):
            idx = arr.astype(np.int64)  # kept in the given order: per-game amounts follow it
        else:
            raise InvalidGameError(f"games={games!r}: expected None, an index, a mask or an index array")
    bad = idx[(idx < 0) | (idx >= batch)]
    if bad.size:
        raise InvalidGameError(f"game index {int(bad[0])} is outside the batch of {batch}")
    if np.unique(idx).size != idx.size:
        raise InvalidGameError(f"games={idx.tolist()} names a game twice")
    over = idx[~ongoing[idx]]
    if over.size:
        raise GameOverError(f"game {int(over[0])} has ended; its state is frozen")
    return idx


def as_ids(ids: Any, n_games: int) -> tuple[np.ndarray, bool]:
    """Ids broadcast to (G, m) int64, and whether a single id was given."""
    if isinstance(ids, numbers.Integral) and not isinstance(ids, (bool, np.bool_)):
        return np.full((n_games, 1), int(ids), dtype=np.int64), True
    arr = np.asarray(ids)
    if arr.dtype == bool or not (arr.size == 0 or np.issubdtype(arr.dtype, np.integer)):
        from .errors import UnknownEntityError
        raise UnknownEntityError(f"ids must be integers, got {ids!r}")
    arr = arr.astype(np.int64)
    if arr.ndim == 1:
        return np.broadcast_to(arr, (n_games, arr.size)), False
    if arr.ndim == 2 and arr.shape[0] == n_games:
        return arr, False
    raise InvalidGameError(f"ids of shape {arr.shape}: expected (m,) or ({n_games}, m)")


def as_amounts(n: Any, shape: tuple[int, int], single_id: bool,
               what: str | Callable[[], str]) -> np.ndarray:
    """Amounts broadcast to ``shape`` as int64, validated (CR 107.1, 107.1b). ``what``
    names the action in errors; a callable is only called when raising (hot paths)."""
    try:
        return _amounts(n, shape, single_id)
    except InvalidCountError as err:
        raise InvalidCountError(f"{what() if callable(what) else what}: {err}") from None


def _amounts(n: Any, shape: tuple[int, int], single_id: bool) -> np.ndarray:
    arr = np.asarray(n)
    if isinstance(n, (bool, np.bool_)) or arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer):
        raise InvalidCountError(f"amount must be an integer (CR 107.1), got {n!r}")
    if arr.size and (arr.min() < 0 or arr.max() > MAX_COUNT):
        bad = arr[(arr < 0) | (arr > MAX_COUNT)].flat[0]
        raise InvalidCountError(f"amount {int(bad)} is outside 0..{MAX_COUNT} (no negative numbers, CR 107.1b)")
    arr = arr.astype(np.int64)
    if arr.ndim == 1:
        arr = arr[:, None] if single_id else arr[None, :]
    try:
        return np.broadcast_to(arr, shape)
    except ValueError:
        raise InvalidCountError(f"amounts of shape {np.shape(n)} do not fit {shape} "
                                "(selected games, objects)") from None
