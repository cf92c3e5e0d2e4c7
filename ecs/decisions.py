"""What a check decided, checked before ``perform`` applies it.

The ruleset's systems decide within the state by construction; a host's system (an esper
Processor the schedule runs, api.md "The schedule and custom systems") may name anything.
``check`` refuses a decision ``perform`` could not apply as the rules read: a game that
is not going on, a column that holds no object, a player column moved, a kind, zone,
player or cause the World does not have, a negative amount, one object named twice in
one removal or move, arrays of other than integers or of lengths that do not fit. It
raises before anything is written, so a bad decision changes nothing. The schedule calls
it after each system that no probe covers and ``ecs.check.vouch`` does not vouch for, on
that system's own decisions.
"""
from __future__ import annotations

import numpy as np

from . import args, sets, zones
from .check import Check, PerRowRemoval
from .components import TYPE_BIT
from .errors import IllegalActionError, InvalidCountError
from .events import CAUSE
from .game import Game
from .limits import MAX_COUNT

#: The per-player fields a decision may add to (``Check.add_to_players``).
PLAYER_FIELDS = ("life", "reserve")


def check(world: Game, decided: Check, since: tuple[int, int, int, int] = (0, 0, 0, 0)) -> None:
    """IllegalActionError (InvalidCountError for an amount) naming the first decision of
    ``decided`` that the World cannot apply; nothing is written either way. ``since``:
    ``Check.sizes()`` before a system decided, to check only its own decisions."""
    for r in decided.removals[since[0]:]:
        what = f"a removal ({r.cause!r})"
        _cause(r.cause, what)
        _rows(world, r.games, r.cols, what, players=True)
        n_kinds = len(world.store.kind_names)
        kinds = _indices(r.kinds if isinstance(r, PerRowRemoval) else np.array(r.kinds, np.int64),
                         f"{what}'s kind index", n_kinds)
        bad = (r.amounts < 0) | (r.amounts > MAX_COUNT)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise InvalidCountError(
                f"{what} of {int(r.amounts[i])} counters from entity {_id(world, r.games[i], r.cols[i])} "
                f"in game {int(r.games[i])}: amounts are 0..{MAX_COUNT}")
        if not isinstance(r, PerRowRemoval):
            args.distinct_rows(world, r.games, r.cols, what)
        elif sets.repeats((r.games * world.store.capacity + r.cols) * max(n_kinds, 1) + kinds):
            raise IllegalActionError(f"{what} names the same object twice for one kind")
    for m in decided.moves[since[1]:]:
        what = f"a move ({m.cause!r})" if isinstance(m.cause, str) else "a move"
        if isinstance(m.cause, str):
            _cause(m.cause, what)
        elif _indices(m.cause, f"{what}'s cause code", len(CAUSE)).shape != m.games.shape:
            raise IllegalActionError(f"{what}: {np.size(m.cause)} causes for {m.games.size} rows")
        _rows(world, m.games, m.cols, what, players=False)
        args.distinct_rows(world, m.games, m.cols, what)   # (400.7: one new object each)
        bad = (m.zones < 0) | (m.zones >= zones.PLAYER)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise IllegalActionError(
                f"{what} of entity {_id(world, m.games[i], m.cols[i])} to zone {int(m.zones[i])}: "
                f"zones are 0..{zones.PLAYER - 1} ({', '.join(zones.ZONES[:zones.PLAYER])})")
    for x in decided.losses[since[2]:]:
        _cause(x.cause, f"a loss ({x.cause!r})")
        _players(world, x.games, x.players, f"a loss ({x.cause!r})")
    for u in decided.player_updates[since[3]:]:
        what = f"a change of players' {u.field!r}"
        if u.field not in PLAYER_FIELDS:
            raise IllegalActionError(f"{what}: the fields a check may change are {PLAYER_FIELDS}")
        if u.cause:
            _cause(u.cause, what)
        _players(world, u.games, u.players, what)


def _cause(cause: str, what: str) -> None:
    if cause not in CAUSE:
        raise IllegalActionError(f"{what}: unknown cause {cause!r}; the causes are ecs.events.CAUSES")


def _indices(values: np.ndarray, what: str, n: int) -> np.ndarray:
    """``values`` as indices 0..n-1 (integers: ``Check.lose`` and ``add_to_players`` keep a
    host's arrays as given)."""
    return args.integer_array(values, what, 0, n - 1, IllegalActionError)


def _games(world: Game, games: np.ndarray, what: str) -> None:
    """The games are going on (704.3: a check acts in no game that has ended)."""
    games = _indices(games, f"{what}'s game", world.batch)
    ended = ~world.ongoing[games]
    if ended.any():
        raise IllegalActionError(f"{what} names game {int(games[ended][0])}, which has ended")


def _rows(world: Game, games: np.ndarray, cols: np.ndarray, what: str, players: bool) -> None:
    """Each row names an object (a player too where ``players``) in a game going on."""
    if games.ndim != 1 or games.shape != cols.shape:
        raise IllegalActionError(f"{what}: games and columns must be 1-D arrays of one length, "
                                 f"got shapes {games.shape} and {cols.shape}")
    _games(world, games, what)
    s = world.store
    _indices(cols, f"{what}'s column", s.n_cols)
    free = s.a["entity_id"][games, cols] < 0
    if free.any():
        i = int(np.flatnonzero(free)[0])
        raise IllegalActionError(f"{what} names column {int(cols[i])} of game {int(games[i])}, "
                                 "which holds no object")
    if not players:
        player = (s.a["types"][games, cols] & TYPE_BIT["player"]) != 0
        if player.any():
            i = int(np.flatnonzero(player)[0])
            raise IllegalActionError(f"{what} names player {_id(world, games[i], cols[i])} in game "
                                     f"{int(games[i])}: a player is in no zone")


def _players(world: Game, games: np.ndarray, players: np.ndarray, what: str) -> None:
    if np.ndim(games) != 1 or np.shape(games) != np.shape(players):
        raise IllegalActionError(f"{what}: games and players must be 1-D arrays of one length, "
                                 f"got shapes {np.shape(games)} and {np.shape(players)}")
    _games(world, games, what)
    _indices(players, f"{what}'s player index", world.store.n_players)


def _id(world: Game, g: np.integer | int, c: np.integer | int) -> int:
    return int(world.store.a["entity_id"][int(g), int(c)])
