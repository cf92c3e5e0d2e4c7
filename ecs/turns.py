"""Turn structure actions that phase systems need (main phases, libraries, draws, mills).

``ecs.world.World`` offers them as its methods. The phase rules themselves (MTG rad
counters, Grand Archive wither) are systems that ``ecs.schedule`` runs when a precombat
main phase begins.

Libraries (MTG "library", GA "deck"; CR 401, GA Turn Order) are ordered per game by the
``position`` field (``ecs.library``): cards that arrive go to the bottom in the order they
arrive; ``order_library`` and ``shuffle_library`` renumber a library from -n (top) to -1.
"""
from __future__ import annotations

from typing import Any, Callable, Protocol

import numpy as np

from . import args, schedule, store, zones
from .args import Amounts, Games, IntRead, as_amounts, select_games
from .errors import IllegalActionError, InvalidGameError, InvalidPhaseError
from .events import CAUSE
from .game import Game
from .library import library_cols, library_order, library_ranks, top_card
from .relocation import move_objects, move_one


class Playing(Game, Protocol):
    """What the turn actions need beyond a Game: the schedule and whole-state undo."""

    schedule: schedule.Schedule
    max_passes: int

    @property
    def rng(self) -> np.random.Generator: ...

    def snapshot(self) -> dict[str, Any]: ...

    def restore(self, snap: dict[str, Any]) -> None: ...

    def tick(self) -> int: ...

    def _left_settled(self) -> bool: ...


def _check(world: Playing, live: np.ndarray | None) -> None:
    """The state-based actions of the games ``live`` (None: every game, through
    ``World.tick``); a state a tick left settled, unwritten since, is not checked again."""
    if live is None:
        world.tick()
    elif not (store.SCALAR_PATHS and world._left_settled()):
        schedule.tick(world, world.schedule, world.max_passes, live)


_PHASES = {True: True, False: False, "precombat": True, "first": True,
           "postcombat": False, "second": False}


def active_player(world: Game) -> IntRead:
    """The turn player of each game (set by ``begin_main_phase``), -1 before any."""
    s = world.store
    if args.scalar_read(world):   # one game: plain reads
        v = s.views()
        for p in range(s.n_players):
            if v["active"][0, p]:
                return v["entity_id"][0, v["player_col"][p]]
        return -1
    act = s.a["active"]
    has = act.any(axis=1)
    ids = (s.a["entity_id"][0, s.a["player_col"][np.argmax(act, axis=1)]] if s.n_players
           else np.zeros(world.batch, np.int64))
    return args.out(world, np.where(has, ids, -1).astype(np.int64))


def begin_main_phase(world: Playing, player: int | np.integer[Any] | None = None,
                     precombat: bool | np.bool_ | str = True,
                     policy: Callable[..., Any] | None = None, games: Games = None) -> None:
    """Begin ``player``'s main phase (default: the next player in turn order after the
    current turn player, skipping players who have lost) in the selected games. In
    Two-Headed Giant teams take turns (CR 805.4): the named player's team is the active
    team, each of its players a turn player, and the default is the next player in turn
    order not on the current turn's team (of one team: that team again). ``precombat``:
    True, "precombat" or "first" (CR 505.1: the first main phase is the precombat one);
    False, "postcombat" or "second".

    State-based actions are checked first (GA Main Phase 1; CR 117.5); then, in a
    precombat main phase, the beginning-of-phase rules act as one event: MTG rad
    counters (CR 728.1) and Grand Archive wither counters (GA Counters, Wither 1-5),
    the latter paying reserve as ``policy`` decides (see systems.wither_upkeep);
    then state-based actions are checked again. An active team's players' rad triggers
    resolve one after the other in seat order, each with a check after it (728.1: one
    trigger per player; the primary player, here the first seated, orders them: 805.2).
    A postcombat main phase (505.1a; in GA the return to the main phase after combat,
    Wither 5) only checks them.
    A policy that pays reserve a player doesn't have raises and changes nothing."""
    s = world.store
    if isinstance(precombat, (bool, np.bool_, str)) and precombat in _PHASES:
        pre = _PHASES[precombat]
    else:
        who = "the next player" if player is None else f"player {player}"
        raise InvalidPhaseError(f"unknown main phase {precombat!r} for {who}: expected "
                                "True/'precombat'/'first' or False/'postcombat'/'second' (CR 505.1)")
    if policy is not None and not callable(policy):
        raise IllegalActionError(f"policy must be a function, got {policy!r}")
    one = games is None and args.one_going(world)   # one game: plain ints
    gsel = store.GAME_ZERO if one else select_games(games, world.ongoing)
    q = -1   # the player's index; -1: the next player
    if player is not None:
        q = args.player_index(world, player)
        gone = ([0] if s.views()["lost"][0, q] else []) if one else gsel[s.a["lost"][gsel, q]].tolist()
        if gone:
            raise IllegalActionError(f"player {player} has lost game {gone[0]} and takes no more turns")
    elif s.n_players == 0:
        raise IllegalActionError("begin_main_phase needs a player: this World has none")
    live = None   # the games whose state-based actions are checked: the selected ones
    if not one:
        live = np.zeros(world.batch, bool)
        live[gsel] = True
        live &= world.ongoing
        live = None if np.array_equal(live, world.ongoing) else live
    snap = world.snapshot() if policy is not None else None
    try:
        _check(world, live)
        (_turn_one if one else _turn)(world, gsel, q, pre, policy, live)
        _check(world, live)
    except BaseException:  # a policy's own error too, and an interrupt: the whole call is undone
        if snap is not None:
            world.restore(snap)
        raise


def _turn(world: Playing, gsel: np.ndarray, q: int, pre: bool, policy: Callable[..., Any] | None,
          live: np.ndarray | None) -> None:
    """Between ``begin_main_phase``'s two checks: the turn players of the selected games
    ``gsel`` still going (player index ``q``'s, or the next's for -1) set, and the phase
    begun for each (``live``: the games those checks look at)."""
    s = world.store
    gsel = gsel[world.ongoing[gsel]]
    if q < 0:
        p = _next_player(world, gsel)
    else:   # a player who lost in the first check takes no turn there
        p = np.full(gsel.size, q, np.int64)
        keep = ~s.a["lost"][gsel, p]
        gsel, p = gsel[keep], p[keep]
    turn = np.arange(s.n_players)[None, :] == p[:, None]     # (G, players)
    if world.two_headed_giant:   # the team's turn (805.4)
        team = s.a["player_team"]
        turn = (team[None, :] == team[p][:, None]) & ~s.a["lost"][gsel]
    s.mut("active")[gsel] = turn
    if not (pre and gsel.size):
        return
    place = np.cumsum(turn, axis=1) - 1   # each turn player's seat among the team's
    for k in range(int(turn.sum(axis=1).max())):
        if k:   # the trigger before resolved: state-based actions (117.5)
            _check(world, live)
        g, who = np.nonzero(turn & (place == k))
        going = world.ongoing[gsel[g]]
        schedule.begin_phase(world, world.schedule, gsel[g][going], who[going].astype(np.int64), policy)


def _turn_one(world: Playing, gsel: np.ndarray, q: int, pre: bool, policy: Callable[..., Any] | None,
              live: np.ndarray | None) -> None:
    """``_turn`` of a World of one game, in plain ints; the turn players' flags are
    written only where they change."""
    s = world.store
    if not args.one_going(world):
        return
    q = _next_one(world) if q < 0 else q
    v = s.views()
    if v["lost"][0, q]:   # a player who lost in the first check takes no turn
        return
    turn = [q]
    if world.two_headed_giant:   # the team's turn (805.4)
        team = v["player_team"]
        turn = [i for i in range(s.n_players) if team[i] == team[q] and not v["lost"][0, i]]
    for i in range(s.n_players):
        if v["active"][0, i] != (i in turn):
            s.write("active", (0, i), i in turn)
    if not pre:
        return
    for k, p in enumerate(turn):
        if k:   # the trigger before resolved: state-based actions (117.5)
            _check(world, live)
            if not args.one_going(world):
                return
        schedule.begin_phase(world, world.schedule, gsel, np.array([p], np.int64), policy)


def _next_one(world: Game) -> int:
    """``_next_player`` of a World of one game, in plain ints."""
    s = world.store
    n = s.n_players
    v = s.views()
    active, lost, team, head = v["active"], v["lost"], v["player_team"], v["player_head"]
    turn = next((q for q in range(n) if active[0, q]), -1)
    after = [(turn + k) % n for k in range(1, n + 1)]
    if world.two_headed_giant and turn >= 0:   # the next team's turn (805.4), by its first seat
        after = [q for q in after if team[q] != team[turn] and head[q] == q] or after
    return next((q for q in after if not lost[0, q]), after[0])


def _next_player(world: Game, gsel: np.ndarray) -> np.ndarray:
    """The player after the turn player in turn order (player index order), skipping
    players who have lost and, in Two-Headed Giant, the turn player's team (805.4): there
    the next team's, teams in the order of their first-seated players (so a team seated
    apart is not passed by); the first player still in when there is no turn player."""
    s = world.store
    n = s.n_players
    if gsel.size == 1 and world.batch == 1 and store.SCALAR_PATHS:   # one game: plain reads
        return np.array([_next_one(world)], np.int64)
    act = s.a["active"][gsel]
    cur = np.where(act.any(axis=1), np.argmax(act, axis=1), -1)
    cand = (cur[:, None] + 1 + np.arange(n)[None, :]) % n      # (G, n) in turn order
    alive = ~s.a["lost"][gsel[:, None], cand]
    if world.two_headed_giant:
        team, head = s.a["player_team"], s.a["player_head"]
        alive &= ((team[cand] != team[np.maximum(cur, 0)][:, None]) & (head[cand] == cand)) | (cur < 0)[:, None]
    return cand[np.arange(gsel.size), np.argmax(alive, axis=1)].astype(np.int64)


def library(world: Game, player: int, game: int = 0) -> list[int]:
    """Ids of ``player``'s library (GA deck) in ``game``, top card first."""
    p = args.player_index(world, player)
    game = args.integer(game, "game index", 0, world.batch - 1, InvalidGameError)
    return [int(x) for x in world.store.a["entity_id"][game, library_cols(world, game, p)]]


def order_library(world: Game, player: int, ids: Any, games: Games = None) -> None:
    """Put ``player``'s library in the order ``ids`` (top first): every card of that
    library exactly once, the same ids in every selected game or one row per game."""
    s = world.store
    p = args.player_index(world, player)
    gsel = select_games(games, world.ongoing)
    arr, _ = args.as_ids(ids, gsel.size)   # (G, m), validated
    cols = args.columns_or_gone(world, gsel[:, None], arr)   # -1: not in that game
    rank = library_ranks(world, gsel, np.full(gsel.size, p))
    m = cols.shape[1]
    srt = np.sort(cols, axis=1)
    ok = ((rank >= 0).sum(axis=1) == m) & (cols >= 0).all(axis=1)
    ok &= (np.take_along_axis(rank, np.maximum(cols, 0), axis=1) >= 0).all(axis=1)
    ok &= (srt[:, 1:] != srt[:, :-1]).all(axis=1)
    if not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        given = arr[i].tolist()
        named = f"ids {given}" if len(repr(given)) <= 60 else f"the {m} ids"   # (not a whole deck's)
        raise IllegalActionError(
            f"order_library: {named} are not exactly the library of player {player} in game "
            f"{int(gsel[i])}: {_misfit(arr[i], cols[i], rank[i])}")
    s.mut("position")[np.repeat(gsel, m), cols.ravel()] = np.tile(np.arange(-m, 0), gsel.size)


def _misfit(ids: np.ndarray, cols: np.ndarray, rank: np.ndarray) -> str:
    """What is wrong with one game's row of ``order_library`` (its ids, their columns there
    and that library's ranks by column): the first id at fault, or the count. Only called
    when raising (a library's ids would make a long message)."""
    for e, c in zip(ids.tolist(), cols.tolist()):
        if c < 0 or rank[c] < 0:
            return f"entity {e} is not in that library"
    seen: set[int] = set()
    for e in ids.tolist():
        if e in seen:
            return f"entity {e} is named twice"
        seen.add(e)
    return f"{ids.size} ids for a library of {int((rank >= 0).sum())} cards"


def shuffle_library(world: Playing, player: int, games: Games = None) -> None:
    """Shuffle ``player``'s library in each selected game with the World's generator."""
    s = world.store
    p = args.player_index(world, player)
    gsel = select_games(games, world.ongoing)
    rank = library_ranks(world, gsel, np.full(gsel.size, p))
    keys = np.where(rank >= 0, world.rng.random(rank.shape), 2.0)
    new = np.argsort(np.argsort(keys, axis=1, kind="stable"), axis=1)
    count = (rank >= 0).sum(axis=1, keepdims=True)
    g, c = np.nonzero(rank >= 0)
    s.mut("position")[gsel[g], c] = (new - count)[g, c]


def _top_cards(world: Game, player: Any, n: Amounts, games: Any, what: str
               ) -> tuple[np.ndarray, int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(games, player index, amounts, and the cards taken: their rows in the games, their
    columns and their ranks from the top, by game then top card first)."""
    p = args.player_index(world, player)
    gsel = select_games(games, world.ongoing)
    amount = np.ascontiguousarray(as_amounts(n, (gsel.size, 1), True, f"{what} for player {player}", None,
                                                gsel if world.batch > 1 else None))[:, 0]
    r, c, rank = library_order(world, gsel, np.full(gsel.size, p))
    take = rank < amount[r]
    return gsel, p, amount, r[take], c[take], rank[take]


def _to_zone(world: Game, gsel: np.ndarray, gi: np.ndarray, c: np.ndarray, rank: np.ndarray,
             width: int, zone: int, cause: str) -> list[int] | np.ndarray:
    # (gi, c) come top card first: cards are drawn one at a time (121.2)
    # made before anything moves; no wider than the cards there are (n may be 2**31 - 1)
    out = np.full((world.batch, min(width, world.store.n_cols)), -1, np.int64)
    world.log.next_step()
    new, _ = move_objects(world, gsel[gi], c.astype(np.int64), np.full(gi.size, zone), cause)
    out[gsel[gi], rank] = new
    if args.scalar(world):
        return [int(x) for x in out[0] if x >= 0]
    return out


def _one_card(world: Game, player: Any, n: Any, games: Any, zone: int, cause: str) -> list[int] | None:
    """``draw`` or ``mill`` (to ``zone``) of one card in a World of one game, in plain
    ints: the new id in a list (none from an empty library, which a draw notes,
    704.5b, nor from a token on top, which stays, 111.8); None where the general path
    must act or raise."""
    if type(n) is not int or n != 1 or games is not None or not (args.one_going(world) and args.scalar(world)):
        return None
    p = args.player_index(world, player)
    col = top_card(world, 0, p)
    if col < 0 and cause == "draw":
        world.store.write("drew_empty", (0, p), True)
    world.log.next_step()
    if col < 0 or world.store.views()["token"][0, col]:
        return []
    new = move_one(world, 0, col, zone, CAUSE[cause])[0]
    return [new] if new >= 0 else []


def _moving(world: Game, gsel: np.ndarray, gi: np.ndarray, c: np.ndarray, rank: np.ndarray,
            one_at_a_time: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Of the top cards taken (``_top_cards``' rows ``gi``, ``c``, ``rank``), those that
    move, and which games' draws found a token on top. A token in a library stays there
    (111.8): a mill leaves it in its place among the others; draws, one card at a time
    (121.2), stop at it, for each later draw finds it on top again."""
    token = world.store.a["token"][gsel[gi], c]
    found = np.zeros(gsel.size, bool)
    if not token.any():   # (the usual case: the last check removed every such token)
        return gi, c, rank, found
    if one_at_a_time:
        stop = np.full(gsel.size, np.iinfo(np.int64).max)
        np.minimum.at(stop, gi[token], rank[token])   # the rank of each game's top-most token
        found[gi[token]] = True
        go = rank < stop[gi]
    else:
        go = ~token
    return gi[go], c[go], rank[go], found


def draw(world: Game, player: int, n: Amounts = 1, games: Games = None) -> list[int] | np.ndarray:
    """``player`` draws ``n`` cards: the top cards of their library (GA deck) go to
    their hand (CR 121.1), one at a time (121.2). Drawing from an empty library means they
    lose at the next check (704.5b; GA Ending the Game 5). A token in the library (one
    that left the battlefield; the next check removes it, 704.5d) can't move (111.8): a
    draw that finds it on top draws nothing, nor do the draws after it, and the library
    not being empty, no loss follows. Returns the new ids in the hand, in the order drawn
    (a batch: a (batch, max n) array, -1 where nothing was drawn; no wider than the World
    has objects)."""
    one = _one_card(world, player, n, games, zones.HAND, "draw")
    if one is not None:
        return one
    gsel, p, amount, gi, c, rank = _top_cards(world, player, n, games, "draw")
    short = np.bincount(gi, minlength=gsel.size) < amount
    gi, c, rank, found = _moving(world, gsel, gi, c, rank, True)
    world.store.mut("drew_empty")[gsel[short & ~found], p] = True   # (a token on top: not empty)
    return _to_zone(world, gsel, gi, c, rank, int(amount.max(initial=0)), zones.HAND, "draw")


def mill(world: Game, player: int, n: Amounts = 1, games: Games = None) -> list[int] | np.ndarray:
    """``player`` mills ``n`` cards: the top cards of their library go to their
    graveyard at once (CR 701 "Mill"); a short library mills what there is. A token among
    the top ``n`` cards stays in its place (111.8) and the others go: ``n`` counts it.
    Returns the new ids in the graveyard like ``draw`` (a batch's row: column k for the
    k-th card from the top, -1 for a token that stayed)."""
    one = _one_card(world, player, n, games, zones.GRAVEYARD, "mill")
    if one is not None:
        return one
    gsel, p, amount, gi, c, rank = _top_cards(world, player, n, games, "mill")
    gi, c, rank, _ = _moving(world, gsel, gi, c, rank, False)
    return _to_zone(world, gsel, gi, c, rank, int(amount.max(initial=0)), zones.GRAVEYARD, "mill")
