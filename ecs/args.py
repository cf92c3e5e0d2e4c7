"""Validating, normalising and resolving the arguments every action and constructor takes.

This is the one validation layer: actions call it on everything they are given before
they write anything, so a bad input raises a ``CounterError`` subclass (also the built-in
it resembles) and changes nothing.

* Numbers are Python or NumPy integers only (``is_integer``): not bools, floats, strings,
  ``np.timedelta64`` (a NumPy integer subclass) or object arrays; each within the range
  ``ecs.limits`` documents, checked in its own dtype (no wrap on the way to int64).
* Ids are integers of the id space 0..MAX_ID; kinds follow the ASCII grammar of
  ``ecs.kinds``; sizes (batch, objects per call, seeds) are bounded up front
  (``ecs.limits``), so nothing tries to allocate what no machine has.

Ids and amounts broadcast against (selected games G, objects m): one id, an array of
m ids (the same objects in every game) or a (G, m) array (one row per game); amounts
likewise, and a 1-D amount array with a single id gives one amount per selected game,
in the order of ``games=``. That holds for an explicit subset too: with ``games=[0, 2]``
of a batch of 3, a 1-D amount array has length 2, and one of length 3 (one per game of
the batch) is refused (InvalidCountError saying so) rather than guessed at; index a
per-game array by the selection (``n[games]``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Sequence, TypeGuard

import numpy as np

from . import sets, zones
from . import store as store_module
from .components import TYPE_BIT
from .errors import (
    CounterError,
    GameOverError,
    IllegalActionError,
    InvalidCountError,
    InvalidGameError,
    InvalidTypeError,
    StaleEntityError,
    UnknownEntityError,
)
from .game import Game
from .kinds import validate_kind
from .limits import MAX_COUNT, MAX_ID, MAX_SLOTS


# ---- numbers --------------------------------------------------------------------------
def is_integer(v: object) -> bool:
    """A Python or NumPy integer: not a bool, nor a ``np.timedelta64`` (which NumPy
    counts as an integer)."""
    return type(v) is int or (isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.timedelta64)))


#: What an action's ``games=`` takes: None (every game still going), a game index, a
#: (B,) boolean mask or an array of game indices.
Games = None | int | np.integer[Any] | Sequence[int] | np.ndarray
#: Ids: one id, ``m`` ids (the same objects in every selected game) or a (G, m) array.
Ids = int | np.integer[Any] | Sequence[int] | Sequence[Sequence[int]] | np.ndarray
#: Amounts: one, or an array broadcast against (selected games, ids).
Amounts = int | np.integer[Any] | Sequence[int] | np.ndarray
#: What a read returns: a plain value for one game, a (B,) array for a batch (``out``).
IntRead = int | np.ndarray
BoolRead = bool | np.ndarray
StrRead = str | np.ndarray

def integer(v: Any, what: str, lo: int, hi: int,
            error: type[CounterError] = InvalidCountError) -> int:
    """``v`` as an int, or ``error`` unless it is an integer (``is_integer``) in lo..hi."""
    if not is_integer(v):
        raise error(f"{what} must be an integer, got {v!r}")
    n = int(v)
    if not lo <= n <= hi:
        raise error(f"{what} {n} is outside {lo}..{hi}")
    return n


def shown(v: Any, ok: Callable[[Any], bool] = is_integer) -> str:
    """``repr(v)`` for a message where it is short and on one line; for a longer array or
    sequence, its type, shape and dtype and the first value that is no integer (or not
    ``ok``: the one at fault), so a message never dumps a batch's array. Only called when
    raising."""
    text = repr(v)
    if len(text) <= 60 and "\n" not in text:
        return text
    try:
        arr = np.asarray(v)
    except (ValueError, TypeError, OverflowError):
        return f"{type(v).__name__} that makes no array"   # (ragged: NumPy refuses it)
    flat = arr.ravel()
    desc = f"{type(v).__name__} of shape {arr.shape} and dtype {arr.dtype}"
    if flat.size == 0:
        return desc
    if arr.dtype.kind == "f":   # a float array: the first value with a fraction, else the first
        odd = np.flatnonzero(_fractional(flat))
        i = int(odd[0]) if odd.size else 0
    else:
        i = next((k for k, x in enumerate(flat) if not ok(x)), 0)
    x = flat[i].item() if isinstance(flat[i], np.generic) else flat[i]
    return f"{desc}: {x!r} at index {tuple(int(k) for k in np.unravel_index(i, arr.shape))}"


def _fractional(arr: np.ndarray) -> np.ndarray:
    """Where a float array holds no whole number (a fraction, NaN or an infinity)."""
    whole = np.nan_to_num(arr)
    return ~np.isfinite(arr) | (whole != np.floor(whole))


def named_ids(e: Any, noun: str = "entity") -> str:
    """``noun`` and the id ``e`` for a message ("entity 7"); for an array of ids, its
    distinct ids, at most three of them ("entities 2, 3, 5 and 77 more"), so a message
    stays one short line. Only called when raising."""
    if is_integer(e):
        return f"{noun} {int(e)}"
    try:
        ids = list(dict.fromkeys(np.asarray(e).ravel().tolist()))
    except (ValueError, TypeError, OverflowError):
        return f"{noun} {shown(e)}"
    if len(ids) == 1:
        return f"{noun} {ids[0]!r}"
    plural = noun[:-1] + "ies" if noun.endswith("y") else noun + "s"
    more = f" and {len(ids) - 3} more" if len(ids) > 3 else ""
    return f"{plural} {', '.join(map(repr, ids[:3]))}{more}"


def array(v: Any, what: str, expected: str, error: type[CounterError]) -> np.ndarray:
    """``np.asarray(v)``, or ``error`` ("``what`` must be ``expected``") where ``v`` makes
    no array: ragged lists and the like, which NumPy refuses with its own errors."""
    try:
        return np.asarray(v)
    except (ValueError, TypeError, OverflowError):
        raise error(f"{what} must be {expected}, got {shown(v)}") from None


def integer_array(v: Any, what: str, lo: int, hi: int,
                  error: type[CounterError] = InvalidCountError) -> np.ndarray:
    """``v`` (an integer or an array of them) as an int64 array, or ``error`` unless its
    dtype is an integer one and every value is in lo..hi (checked before the cast, so a
    uint64 past int64 is refused, not wrapped). An empty array may have any dtype."""
    if isinstance(v, (bool, np.bool_, np.timedelta64)):
        raise error(f"{what} must be an integer, got {v!r}")
    arr = array(v, what, "an integer or an array of integers", error)
    if arr.size == 0:
        return arr.astype(np.int64)
    if arr.dtype.kind in "iu" and isinstance(v, (list, tuple)) and _holds_bool(v):
        raise error(f"{what} must be an integer or an array of integers, got {shown(v)}")
    if arr.dtype.kind not in "iu":
        if not (arr.dtype == object and all(is_integer(x) for x in arr.flat)):
            raise error(f"{what} must be an integer or an array of integers, got {shown(v)}")
        bad = [int(x) for x in arr.flat if not lo <= x <= hi]   # Python ints, maybe past int64
        if bad:
            raise error(f"{what} {bad[0]} is outside {lo}..{hi}")
        return arr.astype(np.int64)
    if int(arr.min()) < lo or int(arr.max()) > hi:
        bad = arr[(arr < lo) | (arr > hi)].flat[0]
        raise error(f"{what} {int(bad)} is outside {lo}..{hi}")
    return arr.astype(np.int64, copy=False)


def _holds_bool(v: list[Any] | tuple[Any, ...]) -> bool:
    """Whether a list or tuple (nested too) holds a bool: NumPy reads one beside ints as 0
    or 1 in an integer array, where alone it would make a bool one."""
    kinds = set(map(type, v))   # (the types once, at C speed: a long list of ids is common)
    if bool in kinds or np.bool_ in kinds:
        return True
    return any(issubclass(t, (list, tuple)) for t in kinds) and any(
        _holds_bool(x) for x in v if isinstance(x, (list, tuple)))


def flag(v: Any, what: str, error: type[CounterError] = IllegalActionError) -> bool:
    """A True/False option: a bool or NumPy bool only (an array's truth is ambiguous)."""
    if not isinstance(v, (bool, np.bool_)):
        raise error(f"{what} must be True or False, got {v!r}")
    return bool(v)


def names(v: Any, what: str, error: type[CounterError] = InvalidTypeError) -> tuple[str, ...]:
    """A str or an iterable of str (card types, keywords) as a tuple of str."""
    if isinstance(v, str):
        return (v,)
    try:
        out = tuple(v)
    except TypeError:
        raise error(f"{what} must be a str or an iterable of str, got {v!r}") from None
    for x in out:
        if not isinstance(x, str):
            raise error(f"{what} must be str, got {x!r}")
    return out


def room_for_objects(game: Game, n: int, what: str) -> None:
    """InvalidCountError unless ``n`` more objects fit the World's slot bound
    (``MAX_SLOTS`` games x columns): checked before anything is allocated, as if no free
    slot were reused (counting them would cost a pass over the slots)."""
    s = game.store
    cols = s.n_cols + n
    if cols * s.batch > MAX_SLOTS:
        raise InvalidCountError(f"{what}: {n} more objects would make {s.batch} games x {cols} "
                                f"slots, past the bound of {MAX_SLOTS} (ecs.limits.MAX_SLOTS)")


def select_games(games: Any, ongoing: np.ndarray) -> np.ndarray:
    """Indices of the selected games; None means every game still in progress."""
    batch = ongoing.shape[0]
    if games is None:
        return np.flatnonzero(ongoing)
    if is_integer(games):
        idx = np.array([integer(games, "game index", 0, batch - 1, InvalidGameError)])
    elif isinstance(games, (bool, np.bool_, np.timedelta64)):
        raise InvalidGameError(_expected_games(games))
    else:
        try:
            arr = np.asarray(games)
        except (ValueError, TypeError, OverflowError):
            raise InvalidGameError(_expected_games(games)) from None
        if arr.dtype == bool:
            if arr.shape != (batch,):
                raise InvalidGameError(f"game mask of shape {arr.shape} for a batch of {batch}")
            idx = np.flatnonzero(arr)
        elif arr.ndim == 1:   # kept in the given order: per-game amounts follow it
            idx = integer_array(games if isinstance(games, (list, tuple)) else arr, "game index", 0,
                                batch - 1, InvalidGameError)
        else:
            raise InvalidGameError(_expected_games(games))
    if sets.repeats(idx):
        raise InvalidGameError(f"games={idx.tolist()} names a game twice")
    over = idx[~ongoing[idx]]
    if over.size:
        raise GameOverError(f"game {int(over[0])} has ended; its state is frozen")
    return idx


def _expected_games(games: Any) -> str:
    # (only on error: the repr of a batch's games array costs about a millisecond)
    return f"games={games!r}: expected None, an index, a mask or an index array"


def as_ids(ids: Any, n_games: int) -> tuple[np.ndarray, bool]:
    """Ids broadcast to (G, m) int64, and whether a single id was given."""
    if is_integer(ids):
        return np.full((n_games, 1), entity(ids), dtype=np.int64), True
    arr = integer_array(ids, "entity", 0, MAX_ID, UnknownEntityError)
    if arr.ndim == 1:
        return np.broadcast_to(arr, (n_games, arr.size)), False
    if arr.ndim == 2 and arr.shape[0] == n_games:
        return arr, False
    raise InvalidGameError(f"ids of shape {arr.shape}: expected (m,) or ({n_games}, m)")


def as_amounts(n: Any, shape: tuple[int, int], single_id: bool,
               what: str | Callable[..., str], ids: Any = None,
               games: np.ndarray | None = None) -> np.ndarray:
    """Amounts broadcast to ``shape`` as int64, validated (CR 107.1, 107.1b). ``what``
    names the action in errors; a callable is only called when raising (hot paths).
    An amount array refused at one cell of the (selected games, ids) grid names that cell:
    ``what`` (a callable) is given the cell's id from ``ids`` (the grid's ids, any shape
    that broadcasts to it), and ``games`` (the selected games' indices; None in a World of
    one game) names its game, so a batch's message is one id, not every game's."""
    try:
        return _amounts(n, shape, single_id)
    except InvalidCountError as err:
        cell = refused_cell(n, shape, single_id)
        if not callable(what):
            named = what
        elif cell is not None and ids is not None:
            named = what(int(np.broadcast_to(ids, shape)[cell]))
        else:
            named = what()
        if cell is not None and games is not None:
            named += f" in game {int(games[cell[0]])}"
        named = " ".join(named.split())   # (an id array on one line)
        raise InvalidCountError(f"{named}: {err}") from None


def refused_cell(n: Any, shape: tuple[int, int], single_id: bool, lo: int = 0,
                 hi: int = MAX_COUNT, ok: Callable[[Any], bool] = is_integer) -> tuple[int, int] | None:
    """The first cell of the (selected games, ids) grid whose value of the array ``n`` is
    refused, as ``_amounts`` lays it out: no integer (a float with a fraction, an object
    that is no integer, or not ``ok``) or, where every value is one, outside lo..hi. None where no one
    cell is at fault (a scalar, a float or bool dtype with only whole values, a shape that
    does not fit). Only called when raising, to name that cell."""
    try:
        arr = np.asarray(n)
    except (TypeError, ValueError, OverflowError):
        return None
    if arr.ndim not in (1, 2) or arr.size == 0 or arr.dtype.kind not in "iufO":
        return None
    if arr.dtype.kind == "f":
        bad = _fractional(arr)
    elif arr.dtype == object:
        bad = np.array([not ok(x) for x in arr.flat], bool).reshape(arr.shape)
        if not bad.any():
            bad = np.array([not lo <= x <= hi for x in arr.flat], bool).reshape(arr.shape)
    else:
        bad = (arr < lo) | (arr > hi)
    if bad.ndim == 1:
        bad = bad[:, None] if single_id else bad[None, :]
    try:
        at = np.argwhere(np.broadcast_to(bad, shape))
    except ValueError:
        return None
    return (int(at[0][0]), int(at[0][1])) if at.size else None


def _amounts(n: Any, shape: tuple[int, int], single_id: bool) -> np.ndarray:
    if is_integer(n) and 0 <= n <= MAX_COUNT:   # the common case, without an array
        return np.broadcast_to(np.int64(n), shape)
    try:
        arr = integer_array(n, "amount", 0, MAX_COUNT)
    except InvalidCountError as err:
        raise InvalidCountError(f"{err} (amounts are integers, no negative numbers: "
                                "CR 107.1, 107.1b)") from None
    per_game = single_id and arr.ndim == 1
    if arr.ndim == 1:
        arr = arr[:, None] if single_id else arr[None, :]
    try:
        return np.broadcast_to(arr, shape)
    except ValueError:
        if per_game:
            raise InvalidCountError(
                f"{arr.shape[0]} amounts for {shape[0]} selected games: with one id a 1-D "
                "amount array has one amount per selected game, in the order of games= "
                "(index a per-game array by the selection: n[games])") from None
        hint = (": a 1-D amount array has one amount per id; one per game is a (games, 1) "
                "array, n[:, None]" if arr.shape[0] == 1 and arr.shape[1] == shape[0] != shape[1] else "")
        raise InvalidCountError(f"amounts of shape {np.shape(n)} do not fit {shape} "
                                f"(selected games, objects){hint}") from None


# ---- resolving arguments against a game's state ---------------------------------------
def targets(game: Game, ids: Any, games: Any) -> tuple[np.ndarray, np.ndarray, bool]:
    """Flat (game, column) rows of an action's targets, and whether one id was given.
    Raises for ids that never existed or no longer exist in a selected game."""
    g, c, single, *_ = _target_grid(game, ids, games, where=False)
    return g, c, single


def _target_grid(game: Game, ids: Any, games: Any, where: bool = True
                 ) -> tuple[np.ndarray, np.ndarray, bool, tuple[int, int], Any, np.ndarray | None]:
    """``targets``, the (selected games, ids) shape the rows were flattened from, its ids
    and the selected games (None in a World of one game), to name a cell (``Rows``).
    ``where``: whether the action takes ``where=``, which a refusal then offers."""
    s = game.store
    if games is None and (type(ids) is int or isinstance(ids, np.integer)):
        col = one(game, ids)
        if col >= 0:   # one id of one ongoing game, present: rows without broadcasting
            return store_module.GAME_ZERO, np.array([col], np.int64), True, (1, 1), ids, None
    gsel = select_games(games, game.ongoing)
    idarr, single = as_ids(ids, gsel.size)
    s.known(idarr)   # raises for ids that never existed
    g = np.broadcast_to(gsel[:, None], idarr.shape)
    cols = s.locate(g, idarr)
    absent = cols < 0
    if absent.any():
        i = np.argwhere(absent)[0]
        # (a batch: offer what this action takes to act only where the id is)
        hint = ("" if s.batch == 1 else "; where='present' acts only in the games it is in" if where
                else "; name the games where it is: games=w.exists(e) & w.ongoing")
        raise StaleEntityError(f"entity {int(idarr[tuple(i)])} does not exist in game "
                               f"{int(g[tuple(i)])} (it changed zones or was never there{hint})")
    return (g.ravel(), cols.ravel(), single, (idarr.shape[0], idarr.shape[1]), idarr,
            gsel if s.batch > 1 else None)


WHERE = ("all", "present")


@dataclass(frozen=True)
class Rows:
    """The (game, column) rows an action acts on (``rows``), and how to get its amounts.
    ``keep`` is the flat mask of the kept cells of the (selected games, ids) grid that
    per-game amounts broadcast against; None: every cell."""
    g: np.ndarray
    c: np.ndarray
    single: bool
    shape: tuple[int, int]
    keep: np.ndarray | None
    ids: Any = None                    # the grid's ids and selected games, to name the
    games: np.ndarray | None = None    # cell of a refused amount (``as_amounts``)

    def amounts(self, n: Any, what: str | Callable[..., str]) -> np.ndarray:
        """The amounts of the kept rows (``as_amounts`` on the whole grid, so per-game
        amounts follow ``games=`` as given, finished games included)."""
        if (self.shape == (1, 1) and self.keep is None and type(n) is int and 0 <= n <= MAX_COUNT
                and store_module.SCALAR_PATHS):
            return np.array([n], np.int64)   # one row, one amount: what the grid gives
        a = np.ascontiguousarray(as_amounts(n, self.shape, self.single, what, self.ids,
                                            self.games)).ravel()
        return a if self.keep is None else a[self.keep]

    def cells(self, values: np.ndarray) -> np.ndarray:
        """Values of the (selected games, ids) grid (any shape that broadcasts to it: (G, 1)
        per selected game, in ``games=`` order) as one per kept row."""
        full = np.broadcast_to(values, self.shape).ravel()
        return full if self.keep is None else full[self.keep]


def rows(game: Game, ids: Any, games: Any, where: str = "all",
         skip_finished: bool = False, takes_where: bool = True) -> Rows:
    """An action's targets, batched-loop friendly. ``where="all"`` (the default): every
    id must exist in every selected game (as ``targets``). ``where="present"``: act only
    where the id is present, ids that left their zone in some games and -1 (padding) are
    skipped there; an id that never existed in this World still raises. ``skip_finished``:
    an explicit ``games=`` may name ended games, which are left out (otherwise
    GameOverError). Amounts are given for the whole selection either way (``Rows``).
    ``takes_where``: whether the action takes ``where=``, which a refusal then offers."""
    if where not in WHERE:
        raise IllegalActionError(f"where must be one of {WHERE}, got {where!r}")
    skip_finished = flag(skip_finished, "skip_finished")
    s, ongoing = game.store, game.ongoing
    if where == "all" and not skip_finished:   # the common case: as every action did
        g, c, single, shape, idarr, gsel = _target_grid(game, ids, games, takes_where)
        return Rows(g, c, single, shape, None, idarr, gsel)
    gsel = select_games(games, np.ones_like(ongoing) if skip_finished else ongoing)
    lo = -1 if where == "present" else 0   # -1 pads where="present"
    if is_integer(ids):
        idarr = np.full((gsel.size, 1), integer(ids, "entity", lo, MAX_ID, UnknownEntityError))
        single = True
    else:
        arr = integer_array(ids, "entity", lo, MAX_ID, UnknownEntityError)
        if not (arr.ndim == 1 or (arr.ndim == 2 and arr.shape[0] == gsel.size)):
            raise InvalidGameError(f"ids of shape {arr.shape}: expected (m,) or "
                                   f"({gsel.size}, m)")
        idarr, single = np.broadcast_to(arr, (gsel.size, arr.shape[-1])), False
    bad = idarr[idarr >= s.next_id]
    if bad.size:
        raise UnknownEntityError(f"entity {int(bad.flat[0])} does not exist in this World")
    g = np.broadcast_to(gsel[:, None], idarr.shape)
    cols = s.locate(g, idarr)
    present = cols >= 0
    live = ongoing[g]
    if where == "all":
        absent = ~present & live
        if absent.any():
            i = tuple(np.argwhere(absent)[0])
            raise StaleEntityError(f"entity {int(idarr[i])} does not exist in game {int(g[i])} "
                                   "(it changed zones or was never there)")
    flat = (present & live).ravel()
    return Rows(g.ravel()[flat], cols.ravel()[flat], single, idarr.shape, flat, idarr,
                gsel if s.batch > 1 else None)


#: The ``winner`` field's fill: the game has not ended (``ecs.perform.ONGOING``).
_ONGOING = -1


def one_going(game: Game) -> bool:
    """Whether ``game`` may take the single-game scalar paths of actions and ticks: a World
    of one game that has not ended, the paths on (the tests clear
    ``ecs.store.SCALAR_PATHS`` to run the general ones against them)."""
    s = game.store
    return s.batch == 1 and store_module.SCALAR_PATHS and s.views()["winner"][0] == _ONGOING


def present_one(game: Game, e: Any) -> int:
    """The column of id ``e`` (a Python int, or a NumPy integer: what ``add_objects``
    returns) in a World of one game with the scalar paths on, where it is present there;
    -1 for every other case, which the general path handles and raises for."""
    s = game.store
    if type(e) is not int:
        if not is_integer(e):   # (a NumPy integer, but not a bool nor a timedelta64)
            return -1
        e = int(e)
    if s.batch != 1 or not store_module.SCALAR_PATHS:
        return -1
    return s.present(0, e)


def one(game: Game, e: Any, games: Any = None, where: Any = "all", skip_finished: Any = False) -> int:
    """The column of target ``e`` when an action may take its scalar path (``present_one``
    in a game that has not ended, the other arguments their defaults: ``one_going``); -1
    for every other case (out of range, stale, absent, game over...), which the general
    path handles and raises for, with its messages."""
    if games is not None or skip_finished is not False or type(where) is not str or where != "all":
        return -1
    col = present_one(game, e)   # (the game's end is read only for a present target)
    return col if col < 0 or game.store.views()["winner"][0] == _ONGOING else -1


#: The most ids an action takes on the scalar path as a list (``few``): a plain-int put
#: costs about 3 us a target, the general path's gathers 200-400 us whatever the count.
FEW = 64


def few(game: Game, ids: Any, games: Any = None, where: Any = "all", skip_finished: Any = False
        ) -> list[tuple[int, int]] | None:
    """(id, column) of one id or each of a short sequence of ids (a list or tuple of
    integers, or a 1-D integer array; at most ``FEW``, repeats kept) where an action may
    take its scalar path as ``one`` allows it for one id: the other arguments their
    defaults, one ongoing game, the paths on, every id present. None for every other case,
    which the general path handles and raises for, with its messages."""
    if games is not None or skip_finished is not False or type(where) is not str or where != "all":
        return None
    s = game.store
    if s.batch != 1 or not store_module.SCALAR_PATHS or s.views()["winner"][0] != _ONGOING:
        return None
    if type(ids) is int or isinstance(ids, np.integer):
        ids = [ids]
    elif isinstance(ids, np.ndarray):
        if ids.ndim != 1 or ids.dtype.kind not in "iu":
            return None
        ids = ids.tolist()
    elif type(ids) is not list and type(ids) is not tuple:
        return None
    if not 0 < len(ids) <= FEW:
        return None
    out = []
    for e in ids:
        if type(e) is not int:
            if not is_integer(e):
                return None
            e = int(e)
        col = s.present(0, e)
        if col < 0:
            return None
        out.append((e, col))
    return out


def count_one(n: Any) -> TypeGuard[int]:
    """Whether ``n`` is an amount a scalar path takes as is: a Python int of 0..MAX_COUNT."""
    return type(n) is int and 0 <= n <= MAX_COUNT


def amounts(game: Game, n: Any, e: Any, games: Any, single: bool,
            what: str | Callable[..., str]) -> np.ndarray:
    """The amounts of an action on ``e``, one per target row (see ``as_amounts``)."""
    if (store_module.SCALAR_PATHS and games is None and type(n) is int and type(e) is int and 0 <= n <= MAX_COUNT
            and 0 <= e <= MAX_ID and game.batch == 1 and game.ongoing[0]):
        return np.array([n], np.int64)   # what the general path gives, without broadcasting
    gsel = select_games(games, game.ongoing)
    idarr, _ = as_ids(e, gsel.size)
    return np.ascontiguousarray(as_amounts(n, idarr.shape, single, what, idarr,
                                           gsel if game.batch > 1 else None)).ravel()


def entity(e: Any) -> int:
    """One id as an int: an integer of the id space 0..MAX_ID (it may name nothing yet)."""
    return integer(e, "entity", 0, MAX_ID, UnknownEntityError)


_HERE = np.ones(1, bool)   # a single game's ``Spot.here`` (read-only: never written to)
_HERE.flags.writeable = False


class Spot(NamedTuple):
    """Where one object is (``column``): ``here``, the (B,) mask of the games it is in;
    ``at``, the index of its slot in each game, so that ``arr[at]`` of a (B, C) array is
    its (B,) values (in games it is not in, some other slot's: mask them with ``here``);
    ``g`` and ``col``, a game it is in and its column there: where to read what it is (its
    card is the same in every game it is in)."""
    here: np.ndarray
    at: tuple[Any, Any]
    g: int
    col: int

    def take(self, arr: np.ndarray) -> np.ndarray:
        """The object's values per game of a (..., B, C) array: (..., B)."""
        return arr[(Ellipsis, *self.at)]


def column(game: Game, e: Any) -> Spot:
    """Where one id (a read's argument) is in each game; StaleEntityError if it is in none
    (it changed zones or ceased to exist everywhere)."""
    s = game.store
    col = present_one(game, e)
    if col >= 0:   # one game: a plain lookup
        return Spot(_HERE, (slice(None), col), 0, col)
    e = entity(e)
    s.known(np.array([e], np.int64))
    games = np.arange(s.batch)
    cols = s.locate(games, np.full(s.batch, e, np.int64))
    here = cols >= 0
    if not here.any():
        raise StaleEntityError(f"entity {e} no longer exists: it changed zones or ceased to "
                               "exist, and is a new object now (CR 400.7)")
    g = int(here.argmax())
    col = int(cols[g])
    if (cols[here] == col).all():   # one column wherever it is: a plain column read
        return Spot(here, (slice(None), col), g, col)
    return Spot(here, (games, np.where(here, cols, 0)), g, col)


def read_one(game: Game, e: Any) -> int:
    """The column of ``e`` where a read may take its scalar path (a World of one game that
    reads plain values, the paths on), -1 where it must take the general one. Raises for
    unknown and stale ids (``column``). (The id's plain lookup first: for an id that is
    there, the one call.)"""
    if not getattr(game, "scalar_reads", True):
        return -1
    s = game.store   # (``present_one``, its frame spared for a Python int; -1 too for a batch, or the paths off)
    col = s.present(0, e) if type(e) is int and s.batch == 1 and store_module.SCALAR_PATHS else present_one(game, e)
    return col if col >= 0 or not scalar_read(game) else column(game, e).col


def flag_of(game: Game, e: Any, field: str) -> BoolRead:
    """The bool ``field`` of ``e`` in each game, False where it is not: the reads of a
    flag (tapped, held, immortal)."""
    col = read_one(game, e)
    if col >= 0:
        return bool(game.store.views()[field][0, col])
    spot = column(game, e)
    return out(game, spot.take(game.store.a[field]) & spot.here)


def scalar_read(game: Game) -> bool:
    """Whether a read may take its scalar path: plain values (``scalar``), and the paths on."""
    return scalar(game) and store_module.SCALAR_PATHS


def columns_or_gone(game: Game, games: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Columns of ids in games ``games`` (broadcast together); -1 where an id is not in its
    game (it left its zone); raises for unknown ids."""
    game.store.known(ids)
    return game.store.locate(games, ids)


def player_index(game: Game, player: Any, what: str | None = None) -> int:
    """The index of player id ``player``. ``what`` names the argument in errors where an
    action takes a player beside its targets ("put_counters by"), so the message says
    which of its ids is at fault."""
    s = game.store
    col = present_one(game, player)   # (one game: the id's plain lookup)
    if col < 0:
        if not is_integer(player):
            raise UnknownEntityError(f"player must be an id, got {player!r}")
        try:
            col = column(game, player).col
        except UnknownEntityError as err:
            if what is None:
                raise
            raise type(err)(f"{what}: {err.args[0]}") from None
    v = s.views()   # (plain reads)
    if not v["types"][0, col] & TYPE_BIT["player"]:   # a player is in every game
        at = "" if what is None else f"{what}: "
        raise IllegalActionError(f"{at}entity {player} is not a player")
    index: int = v["controller"][0, col]
    return index


def require(game: Game, ok: np.ndarray, g: np.ndarray, c: np.ndarray, what: str) -> None:
    """IllegalActionError naming the first row where ``ok`` is False."""
    if not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        e = int(game.store.a["entity_id"][g[i], c[i]])
        raise IllegalActionError(f"entity {e} in game {int(g[i])} {what}")


def on_battlefield(game: Game, g: np.ndarray, c: np.ndarray) -> np.ndarray:
    return game.store.a["zone"][g, c] == zones.BATTLEFIELD


def is_type(game: Game, g: np.ndarray, c: np.ndarray, type_name: str) -> np.ndarray:
    types = game.store.a["types"]
    if g.size == 1 and store_module.SCALAR_PATHS:   # one row: a plain read, no 2-D gather
        return np.array([bool(types[int(g[0]), int(c[0])] & TYPE_BIT[type_name])])
    return (types[g, c] & TYPE_BIT[type_name]) != 0


def sum_rows(game: Game, g: np.ndarray, c: np.ndarray, amount: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Merge rows naming the same (game, column), adding their amounts."""
    return merged_rows(game, g, c, amount)[:3]


def merged_rows(game: Game, g: np.ndarray, c: np.ndarray, amount: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``sum_rows``, and for each input row the index of the merged row it went into."""
    if g.size < 2:
        return g, c, amount, np.arange(g.size)
    cap = game.store.capacity
    uniq, total, inv = sets.sums(g * cap + c, amount)
    return uniq // cap, uniq % cap, total, inv


def merged_rows_by(game: Game, g: np.ndarray, c: np.ndarray, key: np.ndarray, span: int,
                   amount: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``merged_rows`` of the rows of one (game, column) and ``key`` (0..span-1): the merged
    rows' games, columns, keys and amounts, ascending (a (game, column)'s side by side),
    and for each input row the index of the one it went into."""
    cap = game.store.capacity
    uniq, total, inv = sets.sums((g * cap + c) * span + key, amount)
    at = uniq // span
    return at // cap, at % cap, uniq % span, total, inv


def distinct_rows(game: Game, g: np.ndarray, c: np.ndarray, what: str) -> None:
    """IllegalActionError, naming the object and its game, if two rows name the same object
    in one game."""
    key = g * game.store.capacity + c
    if sets.repeats(key):
        _, first, n = np.unique(key, return_index=True, return_counts=True)
        i = first[n.argmax()]
        e = int(game.store.a["entity_id"][g[i], c[i]])
        raise IllegalActionError(f"{what} names the same object twice in one game: entity {e} "
                                 f"in game {int(g[i])}")


def scalar(game: Game) -> bool:
    """Whether reads return plain values: a World of one game, unless built with
    ``scalar_reads=False`` (code written for batches then reads one game the same way)."""
    return game.store.batch == 1 and getattr(game, "scalar_reads", True)


def out(game: Game, values: np.ndarray) -> Any:
    """Plain Python value for a single game (``scalar``), the per-game array otherwise."""
    return values[0].item() if scalar(game) else values


def out_one(game: Game, value: int) -> IntRead:
    """``out`` of a single game's plain int: itself, or a (1,) array where reads return
    arrays (no array made for the common case)."""
    return value if scalar(game) else np.array([value], np.int64)


def kind(game: Game, name: Any) -> str:
    """A counter kind of the grammar (``ecs.kinds``) that the game's ruleset has."""
    if type(name) is str and (game.ruleset, name) in _VALID_KINDS:
        return name
    name = game.ruleset.validate_kind(validate_kind(name))
    if type(name) is str and len(_VALID_KINDS) < _MAX_VALID_KINDS:
        _VALID_KINDS[game.ruleset, name] = game.ruleset.pt_modifier(name) is not None
    return name


def kind_pt(game: Game, name: Any) -> bool:
    """``pt_kind`` of ``kind(game, name)`` (which raises for a bad kind; the kind is
    ``name`` itself): one lookup for a kind the ruleset accepted before."""
    pt = _VALID_KINDS.get((game.ruleset, name)) if type(name) is str else None
    return pt if pt is not None else pt_kind(game, kind(game, name))


def pt_kind(game: Game, name: str) -> bool:
    """Whether the kind ``name`` (validated by ``kind``) changes power/toughness in the
    game's ruleset (CR 122.1a; GA buff/debuff)."""
    known = _VALID_KINDS.get((game.ruleset, name))
    return known if known is not None else game.ruleset.pt_modifier(name) is not None


# (ruleset, kind) -> whether it changes power/toughness, for the kinds a ruleset accepted:
# both are fixed per ruleset, and a single game's action would spend a fifth of its time
# matching the kind grammar's regular expressions again.
_VALID_KINDS: dict[tuple[Any, str], bool] = {}
_MAX_VALID_KINDS = 4096
