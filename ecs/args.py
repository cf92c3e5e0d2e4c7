"""Normalising and resolving the `games=`, id and amount arguments every action takes.

Ids and amounts broadcast against (selected games G, objects m): one id, an array of
m ids (the same objects in every game) or a (G, m) array (one row per game); amounts
likewise, and a 1-D amount array with a single id gives one amount per selected game.
"""
from __future__ import annotations

import numbers
from typing import Any, Callable

import numpy as np

from . import zones
from .components import TYPE_BIT
from .errors import (
    GameOverError,
    IllegalActionError,
    InvalidCountError,
    InvalidGameError,
    StaleEntityError,
    UnknownEntityError,
)
from .game import Game
from .kinds import validate_kind
from .limits import MAX_COUNT


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


# ---- resolving arguments against a game's state ---------------------------------------
def targets(game: Game, ids: Any, games: Any) -> tuple[np.ndarray, np.ndarray, bool]:
    """Flat (game, column) rows of an action's targets, and whether one id was given.
    Raises for ids that never existed or no longer exist in a selected game."""
    s = game.store
    gsel = select_games(games, game.ongoing)
    idarr, single = as_ids(ids, gsel.size)
    cols = s.columns(idarr)
    g = np.broadcast_to(gsel[:, None], cols.shape)
    absent = s.a["zone"][g, cols] == zones.NONE
    if absent.any():
        i = np.argwhere(absent)[0]
        raise StaleEntityError(f"entity {int(idarr[tuple(i)])} does not exist in game "
                               f"{int(g[tuple(i)])} (it changed zones or was never there)")
    return g.ravel(), cols.ravel(), single


def amounts(game: Game, n: Any, e: Any, games: Any, single: bool,
            what: str | Callable[[], str]) -> np.ndarray:
    """The amounts of an action on ``e``, one per target row (see ``as_amounts``)."""
    gsel = select_games(games, game.ongoing)
    idarr, _ = as_ids(e, gsel.size)
    return np.ascontiguousarray(as_amounts(n, idarr.shape, single, what)).ravel()


def column(game: Game, e: Any) -> int:
    """The column of one id (a read's argument)."""
    if isinstance(e, bool) or not isinstance(e, numbers.Integral):
        raise UnknownEntityError(f"entity must be an id, got {e!r}")
    return int(game.store.columns(np.array([e]))[0])


def columns_or_gone(game: Game, ids: np.ndarray) -> np.ndarray:
    """Columns of ids; -1 for stale ids (they left their zone); raises for unknown ids."""
    s = game.store
    bad = ids[(ids < 0) | (ids >= s.next_id)]
    if bad.size:
        raise UnknownEntityError(f"entity {int(bad[0])} does not exist in this World")
    return s.col_of_id[ids].astype(np.int64)


def player_index(game: Game, player: Any) -> int:
    """The index of player id ``player``."""
    s = game.store
    if isinstance(player, bool) or not isinstance(player, numbers.Integral):
        raise UnknownEntityError(f"player must be an id, got {player!r}")
    col = int(s.columns(np.array([player]))[0])
    if not s.a["types"][col] & TYPE_BIT["player"]:
        raise IllegalActionError(f"entity {player} is not a player")
    return int(s.a["controller"][col])


def require(game: Game, ok: np.ndarray, g: np.ndarray, c: np.ndarray, what: str) -> None:
    """IllegalActionError naming the first row where ``ok`` is False."""
    if not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        e = int(game.store.a["entity_id"][c[i]])
        raise IllegalActionError(f"entity {e} in game {int(g[i])} {what}")


def on_battlefield(game: Game, g: np.ndarray, c: np.ndarray) -> np.ndarray:
    return game.store.a["zone"][g, c] == zones.BATTLEFIELD


def is_type(game: Game, c: np.ndarray, type_name: str) -> np.ndarray:
    return (game.store.a["types"][c] & TYPE_BIT[type_name]) != 0


def sum_rows(game: Game, g: np.ndarray, c: np.ndarray, amount: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Merge rows naming the same (game, column), adding their amounts."""
    if g.size < 2:
        return g, c, amount
    cap = game.store.capacity
    uniq, inv = np.unique(g * cap + c, return_inverse=True)
    total = np.bincount(inv.ravel(), weights=amount, minlength=uniq.size).astype(np.int64)
    return uniq // cap, uniq % cap, total


def distinct_rows(game: Game, g: np.ndarray, c: np.ndarray, what: str) -> None:
    """IllegalActionError if two rows name the same object in one game."""
    if np.unique(g * game.store.capacity + c).size != g.size:
        raise IllegalActionError(f"{what} names the same object twice in one game")


def out(game: Game, values: np.ndarray) -> Any:
    """Plain Python value for a single game, the per-game array for a batch."""
    return values[0].item() if game.batch == 1 else values


def kind(game: Game, name: Any) -> str:
    """A counter kind of the grammar (``ecs.kinds``) that the game's ruleset has."""
    return game.ruleset.validate_kind(validate_kind(name))
