"""Turn structure actions that phase systems need (main phases, libraries, draws, mills).

A mixin of World, kept apart so the phase rules (MTG rad counters, Grand Archive wither)
live beside each other rather than inside the core actions.

Libraries (MTG "library", GA "deck"; CR 401, GA Turn Order) are ordered per game by the
``position`` field: ascending (position, id) is top to bottom. A card that arrives in a
library (``add_object(zone="library")``, ``move_zone``) has position 0 and a larger id
than every older card, so cards go to the bottom in the order they arrive;
``order_library`` and ``shuffle_library`` renumber a library from -n (top) to -1.
"""
from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, cast

import esper
import numpy as np

from ecs.systems.phase import PhaseContext, PhasePending
from ecs.systems.zone_change import move_objects

from . import zones
from .perform import perform
from .errors import IllegalActionError, InvalidPhaseError, UnknownEntityError
from .selection import as_amounts, select_games

if TYPE_CHECKING:
    from contextlib import contextmanager

    from .events import EventLog
    from .store import Store
    from .world import World


_PHASES = {True: True, False: False, "precombat": True, "first": True,
           "postcombat": False, "second": False}


def library_ranks(world: "World", games: np.ndarray, players: np.ndarray) -> np.ndarray:
    """(G, n_cols): the rank of each card in the library of ``players[i]`` in game
    ``games[i]`` (0 is the top card), -1 for every other object."""
    s = world.store
    n = s.n_cols
    in_lib = (s.a["zone"][games, :n] == zones.LIBRARY) & (
        s.a["controller"][:n][None, :].astype(np.int64) == players[:, None])
    pos = np.where(in_lib, s.a["position"][games, :n].astype(np.int64), np.iinfo(np.int64).max)
    ids = np.broadcast_to(s.a["entity_id"][:n], pos.shape)
    order = np.lexsort((ids, pos), axis=-1)
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.broadcast_to(np.arange(n), order.shape), axis=1)
    return np.where(in_lib, rank, -1)


class TurnActions:
    """Mixed into ecs.world.World."""

    # The parts of World this mixin uses (ecs.world defines them). ``self`` is always a
    # World: where a function takes one, the mixin passes ``cast("World", self)``.
    if TYPE_CHECKING:
        store: Store
        log: EventLog

        @property
        def batch(self) -> int: ...
        @property
        def ongoing(self) -> np.ndarray: ...
        @property
        def rng(self) -> np.random.Generator: ...
        @contextmanager
        def _esper(self) -> Iterator[None]: ...
        def _out(self, values: np.ndarray) -> Any: ...
        def _player_index(self, player: Any) -> int: ...
        def tick(self) -> int: ...
        def snapshot(self) -> dict[str, Any]: ...
        def restore(self, snap: Mapping[str, Any]) -> None: ...

    # ---- the turn player and main phases -------------------------------------------
    def active_player(self) -> Any:
        """The turn player of each game (set by ``begin_main_phase``), -1 before any."""
        s = self.store
        act = s.a["active"]
        has = act.any(axis=1)
        ids = s.a["entity_id"][s.a["player_col"][np.argmax(act, axis=1)]] if s.n_players else np.zeros(self.batch, np.int64)
        return self._out(np.where(has, ids, -1).astype(np.int64))

    def begin_main_phase(self, player: Any = None, precombat: Any = True,
                         policy: Callable[..., Any] | None = None, games: Any = None) -> None:
        """Begin ``player``'s main phase (default: the next player in turn order after the
        current turn player, skipping players who have lost) in the selected games.

        State-based actions are checked first (GA Main Phase 1; CR 117.5); then, in a
        precombat main phase, the beginning-of-phase rules act as one event: MTG rad
        counters (CR 728.1) and Grand Archive wither counters (GA Counters, Wither 1-5),
        the latter paying reserve as ``policy`` decides (see systems.wither_upkeep);
        then state-based actions are checked again. A postcombat main phase (505.1a; in GA
        the return to the main phase after combat, Wither 5) only checks them.
        A policy that pays reserve a player doesn't have raises and changes nothing."""
        s = self.store
        if isinstance(precombat, (bool, np.bool_, str)) and precombat in _PHASES:
            pre = _PHASES[precombat]
        else:
            who = "the next player" if player is None else f"player {player}"
            raise InvalidPhaseError(f"unknown main phase {precombat!r} for {who}: expected "
                                    "True/'precombat' or False/'postcombat' (CR 505.1)")
        if policy is not None and not callable(policy):
            raise IllegalActionError(f"policy must be a function, got {policy!r}")
        gsel = select_games(games, self.ongoing)
        if player is not None:
            p = np.full(gsel.size, self._player_index(player), np.int64)
            gone = s.a["lost"][gsel, p]
            if gone.any():
                raise IllegalActionError(f"player {player} has lost game {int(gsel[gone][0])} "
                                         "and takes no more turns")
        elif s.n_players == 0:
            raise IllegalActionError("begin_main_phase needs a player: this World has none")
        snap = self.snapshot() if policy is not None else None
        try:
            self.tick()
            gsel = gsel[self.ongoing[gsel]]
            if player is None:
                p = self._next_player(gsel)
            else:   # a player who lost in the first check takes no turn there
                p = np.full(gsel.size, self._player_index(player), np.int64)
                keep = ~s.a["lost"][gsel, p]
                gsel, p = gsel[keep], p[keep]
            active = s.mut("active")
            active[gsel] = False
            active[gsel, p] = True
            if pre and gsel.size:
                pending = PhasePending(phase=PhaseContext(gsel, p, True, policy))
                with self._esper():
                    esper.process(self, pending)
                if not pending.empty():
                    self.log.next_step()
                    perform(cast("World", self), pending)
                    for name, g, pl, amount in pending.player_updates:
                        np.add.at(s.mut(name), (g, pl), amount)
            self.tick()
        except Exception:      # a policy's own error too: the whole call is undone
            if snap is not None:
                self.restore(snap)
            raise

    def _next_player(self, gsel: np.ndarray) -> np.ndarray:
        """The player after the turn player in turn order (player index order), skipping
        players who have lost; the first player still in when there is no turn player."""
        s = self.store
        n = s.n_players
        act = s.a["active"][gsel]
        cur = np.where(act.any(axis=1), np.argmax(act, axis=1), -1)
        cand = (cur[:, None] + 1 + np.arange(n)[None, :]) % n      # (G, n) in turn order
        alive = ~s.a["lost"][gsel[:, None], cand]
        return cand[np.arange(gsel.size), np.argmax(alive, axis=1)].astype(np.int64)

    # ---- libraries -------------------------------------------------------------------
    def library(self, player: int, game: int = 0) -> list[int]:
        """Ids of ``player``'s library (GA deck) in ``game``, top card first."""
        p = self._player_index(player)
        if isinstance(game, bool) or not isinstance(game, numbers.Integral) or not 0 <= game < self.batch:
            raise IllegalActionError(f"game {game!r} is outside the batch of {self.batch}")
        rank = library_ranks(cast("World", self), np.array([game]), np.array([p]))[0]
        cols = np.flatnonzero(rank >= 0)
        cols = cols[np.argsort(rank[cols])]
        return [int(x) for x in self.store.a["entity_id"][cols]]

    def order_library(self, player: int, ids: Any, games: Any = None) -> None:
        """Put ``player``'s library in the order ``ids`` (top first): every card of that
        library exactly once, the same ids in every selected game or one row per game."""
        s = self.store
        p = self._player_index(player)
        gsel = select_games(games, self.ongoing)
        arr = np.asarray(ids)
        if arr.size and (arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer)):
            raise UnknownEntityError(f"ids must be integers, got {ids!r}")
        arr = np.broadcast_to(arr.astype(np.int64).reshape(-1) if arr.ndim <= 1 else arr.astype(np.int64),
                              (gsel.size, arr.shape[-1] if arr.ndim else 1))
        cols = s.columns(arr) if arr.size else np.zeros(arr.shape, np.int64)
        rank = library_ranks(cast("World", self), gsel, np.full(gsel.size, p))
        m = cols.shape[1]
        srt = np.sort(cols, axis=1)
        ok = ((rank >= 0).sum(axis=1) == m) & (np.take_along_axis(rank, cols, axis=1) >= 0).all(axis=1)
        ok &= (srt[:, 1:] != srt[:, :-1]).all(axis=1)
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            raise IllegalActionError(
                f"order_library: ids {arr[i].tolist()} are not exactly the library of player "
                f"{player} in game {int(gsel[i])}")
        s.mut("position")[np.repeat(gsel, m), cols.ravel()] = np.tile(np.arange(-m, 0), gsel.size)

    def shuffle_library(self, player: int, games: Any = None) -> None:
        """Shuffle ``player``'s library in each selected game with the World's generator."""
        s = self.store
        p = self._player_index(player)
        gsel = select_games(games, self.ongoing)
        rank = library_ranks(cast("World", self), gsel, np.full(gsel.size, p))
        keys = np.where(rank >= 0, self.rng.random(rank.shape), 2.0)
        new = np.argsort(np.argsort(keys, axis=1, kind="stable"), axis=1)
        count = (rank >= 0).sum(axis=1, keepdims=True)
        g, c = np.nonzero(rank >= 0)
        s.mut("position")[gsel[g], c] = (new - count)[g, c]

    # ---- drawing and milling ----------------------------------------------------------
    def _top_cards(self, player: Any, n: Any, games: Any, what: str
                   ) -> tuple[np.ndarray, int, np.ndarray, np.ndarray, np.ndarray]:
        p = self._player_index(player)
        gsel = select_games(games, self.ongoing)
        amount = np.ascontiguousarray(as_amounts(n, (gsel.size, 1), True, f"{what} for player {player}"))[:, 0]
        rank = library_ranks(cast("World", self), gsel, np.full(gsel.size, p))
        take = (rank >= 0) & (rank < amount[:, None])
        return gsel, p, amount, rank, take

    def _to_zone(self, gsel: np.ndarray, rank: np.ndarray, take: np.ndarray,
                 width: int, zone: int, cause: str) -> Any:
        gi, c = np.nonzero(take)
        self.log.next_step()
        new, _ = move_objects(cast("World", self), gsel[gi], c.astype(np.int64), np.full(gi.size, zone), cause)
        out = np.full((self.batch, width), -1, np.int64)
        out[gsel[gi], rank[gi, c]] = new
        if self.batch == 1:
            return [int(x) for x in out[0] if x >= 0]
        return out

    def draw(self, player: int, n: Any = 1, games: Any = None) -> Any:
        """``player`` draws ``n`` cards: the top cards of their library (GA deck) go to
        their hand (CR 121.1). Drawing from an empty library means they lose at the next
        check (704.5b; GA Ending the Game 5). Returns the new ids in the hand, in the order
        drawn (a batch: a (batch, max n) array, -1 where nothing was drawn)."""
        gsel, p, amount, rank, take = self._top_cards(player, n, games, "draw")
        short = take.sum(axis=1) < amount
        self.store.mut("drew_empty")[gsel[short], p] = True
        return self._to_zone(gsel, rank, take, int(amount.max(initial=0)), zones.HAND, "draw")

    def mill(self, player: int, n: Any = 1, games: Any = None) -> Any:
        """``player`` mills ``n`` cards: the top cards of their library go to their
        graveyard (CR 701 "Mill"); a short library mills what there is. Returns the new ids in
        the graveyard like ``draw``."""
        gsel, p, amount, rank, take = self._top_cards(player, n, games, "mill")
        return self._to_zone(gsel, rank, take, int(amount.max(initial=0)), zones.GRAVEYARD, "mill")


__all__ = ["InvalidPhaseError", "TurnActions", "library_ranks"]
