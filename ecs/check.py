"""The record of one check: what the systems decided, for ``ecs.perform`` to apply.

Systems never write the state. Each reads the same state (the snapshot of this check)
and records its decisions in a ``Check``; ``perform`` then applies everything together as
one event (CR 704.3) and the schedule checks again. So the order of the systems cannot
change a result, only the order of rows in the event log.
"""
from __future__ import annotations

import abc
import itertools
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, ClassVar, Protocol, TypeVar

import esper
import numpy as np

from .errors import IllegalActionError, InvalidCountError
from .limits import MAX_COUNT


class _Games(Protocol):
    """What a check reads of its game: which games are still going (``ecs.game.Game``)."""

    @property
    def ongoing(self) -> np.ndarray: ...


@dataclass(frozen=True, slots=True)
class Removal:
    """Remove ``amounts`` counters of each of ``kinds`` from the rows (games, cols).
    Several kinds (704.5q's +1/+1 and -1/-1) remove the same amounts from the same rows:
    perform does them in one pass. ``settles``: see ``Check.remove``."""
    kinds: tuple[int, ...]
    games: np.ndarray
    cols: np.ndarray
    amounts: np.ndarray
    cause: str
    settles: bool


@dataclass(frozen=True, slots=True)
class PerRowRemoval:
    """Remove ``amounts`` counters of kind ``kinds[i]`` from row i."""
    kinds: np.ndarray
    games: np.ndarray
    cols: np.ndarray
    amounts: np.ndarray
    cause: str
    settles: bool


@dataclass(frozen=True, slots=True)
class Move:
    """Move the rows (distinct (game, column) pairs) to ``zones`` (zones.NONE: cease to
    exist); ``cause`` a name or per-row ``ecs.events.CAUSE`` codes."""
    games: np.ndarray
    cols: np.ndarray
    zones: np.ndarray
    cause: str | np.ndarray


@dataclass(frozen=True, slots=True)
class Loss:
    """Players (indices) who lose the games."""
    games: np.ndarray
    players: np.ndarray
    cause: str


@dataclass(frozen=True, slots=True)
class PlayerUpdate:
    """Add ``amounts`` to a per-player field (life, reserve) in the rows; ``cause``
    names why (a reserve payment is recorded as an event)."""
    field: str
    games: np.ndarray
    players: np.ndarray
    amounts: np.ndarray
    cause: str = ""


@dataclass(frozen=True)
class PhaseContext:
    """A main phase beginning in ``games`` (G,) for player index ``player`` (G,) each."""
    games: np.ndarray
    player: np.ndarray
    precombat: bool
    policy: Callable[..., Any] | None = None


@dataclass
class Check:
    """The decisions of one check. ``phase`` is set in the check a beginning precombat
    main phase runs (``ecs.schedule``); only phase systems read it."""
    removals: list[Removal | PerRowRemoval] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    losses: list[Loss] = field(default_factory=list)
    player_updates: list[PlayerUpdate] = field(default_factory=list)
    phase: PhaseContext | None = None
    # (B,) bool: the games this check looks at (a subset of the ongoing ones); None: every
    # ongoing game. The schedule narrows a re-check to the games the last perform changed.
    live: np.ndarray | None = None
    # In a re-check: the sorted distinct flat slots (game * capacity + column) of the
    # permanents the last perform changed other than by settling removals; None in a
    # first check. A system that decides each permanent from that permanent's own state
    # alone (zone, counters, damage, card) need look only at these (704.3): any other is
    # as the last check saw it (settling removals change nothing such a system reads,
    # and deathtouch marks cleared since only take reasons away), and that check decided
    # nothing for it, or it would have been touched or have left.
    touched: np.ndarray | None = None
    # Values derived from the state of this check, shared by the systems that need them
    # (the state does not change while a check runs: systems only read).
    memo: dict[str, Any] = field(default_factory=dict)

    def remove(self, kinds: int | tuple[int, ...] | np.ndarray, games: np.ndarray,
               cols: np.ndarray, amounts: np.ndarray, cause: str, settles: bool = False) -> None:
        """Remove counters: of one kind, of each of several kinds in the same amounts (a
        tuple), or of one kind per row (an array). ``settles``: the deciding system
        guarantees that this removal, performed with whatever else the check decided,
        leaves nothing for any system to do that those other decisions would not
        (Annihilation: the removed pairs change no characteristic a check reads). Then it
        calls for no re-check of its own."""
        if not games.size:
            return
        # a host system's rows as perform's kernels take them (np.nonzero of a batch's plane
        # gives strided ones), once they are integers (a cast wraps a NaN to a count);
        # ``ecs.decisions`` checks their values
        amounts = amounts if type(amounts) is np.ndarray else np.asarray(amounts)
        if not (games.dtype.kind in "iu" and cols.dtype.kind in "iu" and amounts.dtype.kind in "iu"
                and (not isinstance(kinds, np.ndarray) or kinds.dtype.kind in "iu")):
            raise _not_integers("a removal", games, cols, amounts, kinds)
        games, cols = np.ascontiguousarray(games, np.int64), np.ascontiguousarray(cols, np.int64)
        amounts = np.ascontiguousarray(amounts, np.int64)
        if amounts.shape != games.shape:   # (a host's one amount for every row)
            amounts = np.ascontiguousarray(_rows_of(amounts, games, "a removal's amounts"))
        if isinstance(kinds, np.ndarray):
            self.removals.append(PerRowRemoval(kinds.astype(np.int64), games, cols, amounts,
                                               cause, settles))
        else:
            ks = (int(kinds),) if isinstance(kinds, (int, np.integer)) else tuple(map(int, kinds))
            self.removals.append(Removal(ks, games, cols, amounts, cause, settles))

    def move(self, games: np.ndarray, cols: np.ndarray, zone: int | np.ndarray,
             cause: str | np.ndarray) -> None:
        if games.size:   # filled, not np.broadcast_to: a few times cheaper for few rows
            if not (games.dtype.kind in "iu" and cols.dtype.kind in "iu"):
                raise _not_integers("a move", games, cols)
            games, cols = np.ascontiguousarray(games, np.int64), np.ascontiguousarray(cols, np.int64)
            if isinstance(zone, (int, np.integer)):
                z = np.empty(games.shape, np.int64)
                z.fill(zone)
            else:
                z = np.asarray(zone)
                if z.dtype.kind not in "iu":
                    raise _not_integers("a move", z)
                z = np.ascontiguousarray(_rows_of(z.astype(np.int64, copy=False), games, "a move's zones"))
            self.moves.append(Move(games, cols, z, cause))

    def lose(self, games: np.ndarray, players: np.ndarray, cause: str) -> None:
        if games.size:   # (``ecs.decisions`` checks a host's)
            self.losses.append(Loss(games, players, cause))

    def add_to_players(self, name: str, games: np.ndarray, players: np.ndarray,
                       amounts: np.ndarray | int, cause: str = "") -> None:
        """Add ``amounts`` to the per-player field ``name`` (life, reserve) of player indices
        ``players`` in games ``games``. Each amount is at most MAX_COUNT in size, as an
        action's (InvalidCountError): a life total then stops at MAX_LIFE (``perform``)."""
        values = np.asarray(amounts)
        if values.dtype.kind not in "iu":
            raise InvalidCountError(f"{name} changes of players must be integers, got {values.dtype}")
        out = (values < -MAX_COUNT) | (values > MAX_COUNT)   # (compared as given: no cast to wrap)
        if out.any():
            raise InvalidCountError(f"{name} change {int(values[out].flat[0])} of a player is more "
                                    f"than {MAX_COUNT} in size")
        if games.size:   # (``ecs.decisions`` checks a host's games and players)
            self.player_updates.append(
                PlayerUpdate(name, games, players, values if values.shape == games.shape
                             else np.broadcast_to(values, games.shape), cause))

    def sizes(self) -> tuple[int, int, int, int]:
        """How many decisions of each sort the check holds (``ecs.decisions.check``'s
        ``since``: a system's own are those it added after)."""
        return len(self.removals), len(self.moves), len(self.losses), len(self.player_updates)

    def empty(self) -> bool:
        return not (self.removals or self.moves or self.losses or self.player_updates)

    def names_a_game(self) -> bool:
        """Whether some decision names a game, settling removals aside (``games_named``
        of a one-game world: its one game or none)."""
        return (bool(self.moves or self.losses or self.player_updates)
                or any(not r.settles for r in self.removals))

    def games_named(self, batch: int) -> np.ndarray:
        """(B,) bool: the games some decision of this check names, settling removals aside
        (a game they alone name is left as the check found it, for what the checks read)."""
        named = np.zeros(batch, bool)
        for r in self.removals:
            if not r.settles:
                named[r.games] = True
        for m in self.moves:
            named[m.games] = True
        for x in self.losses:
            named[x.games] = True
        for u in self.player_updates:
            named[u.games] = True
        return named

    def live_games(self, game: _Games) -> np.ndarray:
        """(B,) bool: the games a system looks at in this check (never an ended game), read
        only: every system of the check reads the same."""
        live = self.memo.get("ongoing")
        if live is None:
            live = self.memo["ongoing"] = _read_only((game.ongoing if self.live is None else self.live).view())
        return live

    def live_indices(self, game: _Games) -> np.ndarray:
        """The indices of ``live_games``, for the compiled systems (computed once a check)."""
        if "live indices" not in self.memo:
            self.memo["live indices"] = np.flatnonzero(self.live_games(game))
        return self.memo["live indices"]

    def precombat_phase(self) -> PhaseContext | None:
        """The beginning precombat main phase this check is for, or None."""
        return self.phase if self.phase is not None and self.phase.precombat else None


def _read_only(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def _rows_of(values: np.ndarray, games: np.ndarray, what: str) -> np.ndarray:
    """``values`` broadcast to one per row, IllegalActionError where they do not fit."""
    try:
        return np.broadcast_to(values, games.shape)
    except ValueError:
        raise IllegalActionError(f"{what}: {values.size} values for {games.size} rows") from None


def _not_integers(what: str, *arrays: Any) -> IllegalActionError:
    """The error for a decision given arrays of other than integers."""
    bad = next(np.asarray(a) for a in arrays if np.asarray(a).dtype.kind not in "iu")
    return IllegalActionError(f"{what}'s arrays must be integers, got {bad.dtype} ({bad!r:.60})")


#: ``live_games`` and ``live_indices`` of a one-game world whose game is going on (shared:
#: systems only read them).
ONE_GAME = _read_only(np.ones(1, np.bool_))
_GAME_ZERO = _read_only(np.zeros(1, np.int64))


def one_game_check(live: np.ndarray | None, touched: np.ndarray | None,
                   memo: dict[str, Any] | None = None) -> Check:
    """A ``Check`` of a one-game world whose game is going on (``live`` None or
    ``ONE_GAME``): what ``live_games`` and ``live_indices`` return is known, not computed;
    ``memo``: what the probe found for the systems (``Probe``)."""
    known = {"ongoing": ONE_GAME, "live indices": _GAME_ZERO}
    return Check(live=live, touched=touched, memo=known if memo is None else memo | known)


#: The bit of a probe's answer (``Probe``, ``marks``) saying that a game it looked at has a
#: deathtouch mark (above any system's part).
MARKED = 1 << 30


class When(Enum):
    """When a system runs (``ecs.schedule``)."""
    EVERY_CHECK = "every check"            # the state-based actions (704.3)
    MAIN_PHASE = "beginning of a main phase"  # phase triggers (rad 728.1, GA wither)


@dataclass(frozen=True, eq=False)
class Probe:
    """One compiled pre-check shared by several systems. ``acting(game, live, touched,
    parts)`` returns the bits of ``parts`` whose systems would decide something in a check
    of this state with this ``live`` and ``touched`` (``Check``): a bit's system decides
    nothing where its bit is clear. So a check where no bit acts is empty without running
    a system, and otherwise only the systems whose bit acts (and those without a probe)
    run (``ecs.schedule``); a system that would decide nothing adds nothing to one
    simultaneous check (704.3), so the result is the same.

    ``acting(game, None, None, parts, memo)`` (a first check of every ongoing game) may
    also leave in the dict ``memo`` what its passes found, for the check's ``Check.memo``
    (the systems then need not find it again). With ``marks``, ``acting`` asked with the
    bit ``MARKED`` sets it when a game it looked at has a deathtouch mark (the schedule
    then clears them after the check without looking again)."""
    acting: Callable[..., int]
    # class -> the ``process`` the probe answers for (a subclass, or a process replaced
    # since, is not covered: the schedule always runs it)
    covers: dict[type, Callable[..., Any]] = field(default_factory=dict)
    marks: bool = False

    def cover(self, system: type["System"], part: int) -> None:
        """Declare that bits ``part`` of this probe answer for ``system``'s decisions."""
        system.probe, system.part = self, part
        self.covers[system] = system.process


#: The phase systems (``When.MAIN_PHASE``) that decide within the state by construction,
#: each with that process (``vouch``): the schedule does not check their decisions
#: (``ecs.decisions``) while it is the one they run, as it does not check the systems a
#: probe covers.
VOUCHED: dict[type, Callable[..., Any]] = {}


_S = TypeVar("_S", bound="type[System]")


def vouch(system: _S) -> _S:
    """Declare (a class decorator) that ``system``'s own ``process`` decides only what
    ``ecs.perform`` can apply (``ecs.decisions``) under a built-in ruleset: the rulesets'
    phase systems, which check a host's policy's answer themselves. A subclass, a process
    replaced since, or a host's ruleset (whose hooks the system may call) is not vouched
    for: the decisions are checked."""
    VOUCHED[system] = system.process
    return system


class SystemType(abc.ABCMeta):
    """The metaclass of ``System``: ``replaced`` counts the assignments to (and deletions
    of) a system class's ``process`` in this process (and an instance's: ``System``), so a
    schedule that trusts the processes its probe covers knows in one read that none was
    replaced since it last looked (``ecs.schedule.Schedule.probed``). An ``ABCMeta``, so that a host's abstract
    base of its systems (``class Rule(System, abc.ABC)``) has no metaclass conflict."""

    replaced: ClassVar[int] = 0

    def __setattr__(cls, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        _count(name)

    def __delattr__(cls, name: str) -> None:
        super().__delattr__(name)
        _count(name)


def _count(name: str) -> None:
    """Count an assignment to (or deletion of) a ``process``, a class's or an instance's,
    in ``SystemType.replaced``."""
    if name == "process":
        # (a number never given before, not ``+= 1``: two replacements in two threads at
        # once must not leave the count at a value a schedule looked at before them)
        SystemType.replaced = next(_REPLACEMENTS)


_REPLACEMENTS = itertools.count(1)


class System(esper.Processor, metaclass=SystemType):
    """A system: ``process(game, check)`` decides into the check, never writes.

    ``when`` declares when the schedule runs it; ``causes`` the event causes it decides
    with (each one of ``ecs.events.CAUSES``, checked by the tests). ``probe`` and ``part``:
    the pre-check covering this class's decisions, and its bits there (``Probe.cover``)."""

    when: ClassVar[When] = When.EVERY_CHECK
    causes: ClassVar[tuple[str, ...]] = ()
    probe: ClassVar[Probe | None] = None
    part: ClassVar[int] = 0
    priority = 0

    def process(self, game: Any, check: Check) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    # A process set on one instance replaces its class's there: counted as a class's is, so
    # a schedule no longer trusts the probe for it (``ecs.schedule``).
    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        _count(name)

    def __delattr__(self, name: str) -> None:
        super().__delattr__(name)
        _count(name)
