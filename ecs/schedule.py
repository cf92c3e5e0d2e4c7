"""When each system runs: the schedule.

A ruleset lists its systems in order (``ecs.rules``); each declares when it runs
(``ecs.check.When``). The schedule keeps each moment's systems (``esper.Processor``s) in
that order and runs them itself: it touches none of esper's module-global state (its
current context, its entities, its handlers), which every thread of the process shares.
``tick`` runs the state-based checks to their fixed point; ``begin_phase`` runs the
beginning-of-main-phase systems as one check between two ticks. Systems keep no game
state, so clones of a World share its schedule.

A check of the state-based actions first asks the systems' probes (``ecs.check.Probe``,
one compiled call for all the systems sharing one) which of them would decide anything,
and runs only those (and the systems without a probe, e.g. a host's): a settled check,
the common case in a game loop, is then one compiled call and no Check at all.
"""
from __future__ import annotations

import itertools
from typing import Any, Callable, Iterable, Sequence

import esper
import numpy as np

from . import args, decisions, kernels
from .check import MARKED, ONE_GAME, VOUCHED, Check, PhaseContext, Probe, System, SystemType, When, one_game_check
from .errors import CounterError, IllegalActionError, SBALoopError
from .events import CAUSE
from .game import Game
from .perform import perform

_serials = itertools.count()
_RULINGS = 8   # rulesets a schedule keeps numbers for (``Schedule.ruling``)


class Schedule:
    """The systems of a check in order, each run at the moment it declares."""

    def __init__(self, systems: Sequence[type[System] | System]) -> None:
        if not isinstance(systems, Iterable) or isinstance(systems, (str, bytes)):
            raise IllegalActionError(f"a Schedule takes a sequence of systems, got {systems!r}")
        self.systems: tuple[System, ...] = tuple(
            s() if isinstance(s, type) else s for s in systems)
        for s in self.systems:
            if not isinstance(s, esper.Processor) or not callable(getattr(s, "process", None)):
                raise IllegalActionError(f"{s!r} is not a system (an esper.Processor with "
                                         "process(game, check))")
            when = getattr(s, "when", When.EVERY_CHECK)
            if not isinstance(when, When):   # (it would run at no moment)
                raise IllegalActionError(f"system {type(s).__name__}: when = {when!r} is not an "
                                         f"ecs.check.When ({', '.join(w.name for w in When)})")
            causes = getattr(s, "causes", ())
            if isinstance(causes, str):   # ("704.5j") for ("704.5j",)
                raise IllegalActionError(f"system {type(s).__name__}: causes = {causes!r} is a string; "
                                         f"give a tuple of names: ({causes!r},)")
            unknown = [c for c in causes if c not in CAUSE]
            if unknown:
                raise IllegalActionError(f"system {type(s).__name__}: causes {unknown} are not in "
                                         "ecs.events.CAUSES")
        kernels.ready(systems=[type(s) for s in self.systems])   # (a host's systems' kernels)
        # The state-based systems in order, each with the index of the probe covering its
        # class (-1: none; it always runs), its part there, and the process covered (a
        # process replaced since is not trusted: that system always runs).
        every = [s for s in self.systems
                 if getattr(s, "when", When.EVERY_CHECK) == When.EVERY_CHECK]
        probes: dict[Probe, int] = {}
        rows: list[tuple[Any, int, int, type[esper.Processor], Callable[..., Any] | None]] = []
        for s in every:
            cls, probe = type(s), _probe(s)
            if probe is None:
                rows.append((s, -1, 0, cls, None))
                continue
            probes[probe] = probes.get(probe, 0) | cls.part
            rows.append((s, list(probes).index(probe), cls.part, cls, probe.covers[cls]))
        self._every = tuple(rows)
        self._probes = tuple(probes.items())
        # One probe covering every system (the rulesets' schedules): a settled check is
        # then that probe's call and a look at whether any covered process was replaced.
        self._chosen: dict[int, tuple[System, ...]] = {}   # probe bits -> the systems they name
        # (asked about deathtouch marks too where it answers that: always, so that every call
        # with the probe's cached arguments asks the same)
        self._one = None if len(probes) != 1 or any(i < 0 for _, i, *_ in rows) else (
            next(iter(probes)).acting, next(iter(probes.values())) | (MARKED if next(iter(probes)).marks else 0),
            tuple((s, cls, covered) for s, _, _, cls, covered in rows), next(iter(probes)).marks)
        # ``probed``'s answer as last looked at: (SystemType.replaced then, the answer); a
        # tick's check looks, and ``World.tick`` reads it after, not asking again
        self.trust = (-1, False)
        self.serial = next(_serials)   # unique in this process: what ``Store.settled`` names
        self._rulings: dict[int, tuple[Any, int]] = {}   # id of a ruleset -> it, its number (``ruling``)
        self._of = {when: tuple(s for s in self.systems if getattr(s, "when", When.EVERY_CHECK) == when)
                    for when in When}   # (each moment's systems, in order)

    def ruling(self, rules: object) -> int:
        """A number of this process's naming this schedule played under the ruleset
        ``rules``, the same each time it is asked (for the ``_RULINGS`` rulesets used
        lately): what a snapshot names as the rules a tick left its state settled under."""
        got = self._rulings.pop(id(rules), None)   # (held: the id is no other ruleset's)
        if got is None:
            got = (rules, next(_serials))
            kept = list(self._rulings)   # (one call: clones in other threads share the dict)
            if len(kept) >= _RULINGS:
                self._rulings.pop(kept[0], None)
        self._rulings[id(rules)] = got
        return got[1]

    def __reduce__(self) -> tuple[type[Schedule], tuple[tuple[System, ...]]]:
        """A pickle or deep copy is made again from its systems (by its class: a subclass
        taking its systems alone, as this one does)."""
        return type(self), (self.systems,)

    def run(self, game: Game, check: Check, when: When = When.EVERY_CHECK) -> Check:
        """Let the systems of ``when`` decide into ``check``, in order, each system's
        decisions checked as it makes them (a host's may be among them). A vouched system
        (``ecs.check.vouch``) goes unchecked under a built-in ruleset only: a host's ruleset
        may replace a hook it calls (WitherUpkeep's ``sacrifice_zone``)."""
        trusted = type(game.ruleset).__module__.startswith("ecs.rules.")
        for system in self._of[when]:
            vouched = VOUCHED.get(type(system)) if trusted else None
            if vouched is not None and not _replaced(system, type(system), vouched):
                system.process(game, check)
            else:
                _decide(system, game, check)
        return check

    def check(self, game: Game, live: np.ndarray | None, touched: np.ndarray | None
              ) -> Check | None:
        """One check of the state-based actions (``Check`` for ``live`` and ``touched``), or
        None if it decides nothing: the probes say which systems would decide anything,
        and only those run, in order (a system left out would have added nothing)."""
        return self._check(game, live, touched)[0]

    def _check(self, game: Game, live: np.ndarray | None, touched: np.ndarray | None
               ) -> tuple[Check | None, bool]:
        """``check``, and whether a deathtouch mark may be set in a game it looked at (False:
        the probe looked and found none)."""
        one = self._one
        if one is not None:
            first = live is None
            # A first check also asks the probe for what its passes found (the systems' memo:
            # the probe gives it in one game, the scalar paths on). A small game's re-check
            # asks the probe about a full check instead: the probe's cached call (its arguments
            # gathered once), whose passes look at a superset of the re-check's objects by the
            # same rules, so where it finds nothing the re-check would find nothing either
            # (the systems still decide on ``touched``).
            memo: dict[str, Any] | None = {} if first else None
            if first or (game.store.n_cols <= FULL_RECHECK and args.one_going(game)):
                found = one[0](game, None, None, one[1], memo)
            else:
                found = one[0](game, live, touched, one[1])
            marked = not (first and one[3])
            if found:   # (a settled check reads no module global: each is a cache miss in a cold tick)
                marked = marked or bool(found & MARKED)
                found &= ~MARKED
            if self.probed():   # the ruleset's own systems as the probe knows them
                if not found:
                    return None, marked
                chosen = self._chosen.get(found)
                if chosen is None:
                    chosen = self._chosen[found] = tuple(s for s, _, part, *_ in self._every
                                                         if found & part)
                check = (one_game_check(live, touched, memo) if args.one_going(game)
                         else Check(live=live, touched=touched, memo=memo or {}))
                for system in chosen:
                    system.process(game, check)
                return check, marked
            acting = [found]
        elif not self._probes:
            return self.run(game, Check(live=live, touched=touched)), True
        else:
            marked = True
            acting = [probe.acting(game, live, touched, parts) for probe, parts in self._probes]
        running = tuple((s, i < 0 or _replaced(s, cls, covered)) for s, i, part, cls, covered in self._every
                        if i < 0 or acting[i] & part or _replaced(s, cls, covered))
        if not running:
            return None, marked
        check = _new_check(game, live, touched)
        for system, foreign in running:
            if foreign:   # a host's system (or a process replaced): its decisions are checked
                _decide(system, game, check)
            else:
                system.process(game, check)
        return check, marked

    def probed(self) -> bool:
        """Whether one probe covers every system of a check, none of their processes
        replaced since: the systems then decide from the store's state alone. (The
        systems are looked at again only after some system's ``process``, a class's or an
        instance's, was replaced: ``SystemType.replaced``; the answer is kept in ``trust``.)"""
        at, answer = self.trust
        now = SystemType.replaced   # (read before the look: a process replaced during it is seen next time)
        if at == now:
            return answer
        one = self._one
        answer = one is not None and not any(_replaced(s, cls, covered) for s, cls, covered in one[2])
        self.trust = (now, answer)
        return answer

    def with_systems(self, *systems: type[System] | System, before: type[System] | System | str | None = None,
                     after: type[System] | System | str | None = None) -> "Schedule":
        """A new Schedule: these systems plus the host's ``systems``, inserted in order
        just before the system ``before`` or just after ``after`` (a system class, a
        class name or one of this schedule's instances), or at the end if neither is
        given (where several systems match: before the first, after the last). A host's
        esper Processor so joins the state-based check: it decides into the same ``Check``
        on the same snapshot, and perform applies it with the others as one event (704.3).
        This schedule is unchanged (a World uses the new one once assigned:
        ``world.schedule = world.schedule.with_systems(...)``)."""
        if before is not None and after is not None:
            raise IllegalActionError("give before= or after=, not both")
        at = len(self.systems)
        anchor = before if before is not None else after
        if anchor is not None:
            found = [i for i, s in enumerate(self.systems) if s is anchor
                     or type(s) is anchor or type(s).__name__ == anchor]
            if not found:
                raise IllegalActionError(f"no system {anchor!r} in {self!r}")
            at = found[0] if before is not None else found[-1] + 1
        return Schedule(self.systems[:at] + tuple(systems) + self.systems[at:])

    def __repr__(self) -> str:
        return f"Schedule({[type(s).__name__ for s in self.systems]})"


def _decide(system: Any, game: Game, check: Check) -> None:
    """``system`` decides into ``check``; a decision of its that the World cannot apply
    raises naming the system, before anything is written (``ecs.decisions``)."""
    since = check.sizes()
    system.process(game, check)
    if check.sizes() == since:   # (decided nothing: the common case of a phase system)
        return
    try:
        decisions.check(game, check, since)
    except CounterError as err:
        raise type(err)(f"system {type(system).__name__}: {err}") from None


def _replaced(system: Any, cls: Any, covered: Any) -> bool:
    """Whether ``system`` decides by another process than the ``covered`` one its probe
    answers for: its class's replaced, or one set on the instance itself."""
    return cls.process is not covered or "process" in vars(system)


def _probe(system: System) -> Probe | None:
    """The probe of the system's class, None for a class it does not cover (a subclass)."""
    probe = getattr(type(system), "probe", None)
    return probe if isinstance(probe, Probe) and type(system) in probe.covers else None


def tick(game: Game, schedule: Schedule, max_passes: int, games: np.ndarray | None = None) -> int:
    """Check state-based actions on one snapshot, perform them together as one event,
    repeat until a check performs nothing (CR 704.3); returns the checks that acted.
    ``games``: a (B,) mask of the ongoing games to check (an action's selection of a
    batch; None: every game). (``World.tick`` is this for every game, where a state a tick
    left settled, unwritten since, is not checked again.)"""
    if games is not None:
        games = games & game.ongoing   # (a check looks at ongoing games only)
        if not games.any():
            return 0
    return _tick(game, schedule, max_passes, games)


def _tick(game: Game, schedule: Schedule, max_passes: int, live: np.ndarray | None) -> int:
    acted = 0
    first, touched = True, None   # the first check looks at every object of the live games
    s = game.store
    while True:
        check, marked = schedule._check(game, live, touched)
        # Deathtouch marks are "since the last check": cleared after the first; only actions
        # set them (``ecs.damage``), never a perform, so later checks find none to clear.
        # Reading is cheaper than writing (a clone's shared array would be copied).
        if first and marked and _marked(s.a["deathtouch_hit"]):
            s.mut("deathtouch_hit")[game.ongoing if live is None else live] = False
        first = False
        if check is None or check.empty():
            return acted
        acted += 1
        if acted > max_passes:
            raise SBALoopError(f"state-based actions still acting after {max_passes} "
                               "checks; a system keeps producing actions")
        game.log.next_step()
        touched = perform(game, check)
        # A game no decision named is as this check saw it, and the check found nothing
        # there (systems decide per game, from that game's state alone; the cleared
        # deathtouch marks only take reasons away): check again only the games the
        # perform changed, and there, systems that decide each permanent alone look only
        # at the permanents it touched (Check.touched).
        if args.one_going(game):   # (the same without a (1,) array made and read)
            if not check.names_a_game():
                return acted
            live = ONE_GAME
            continue
        live = check.games_named(game.batch) & game.ongoing
        if not live.any():   # settling removals alone: nothing left to check
            return acted


def _new_check(game: Game, live: np.ndarray | None, touched: np.ndarray | None) -> Check:
    """A ``Check`` of ``live`` and ``touched``; of one going game, one that knows its live
    games (``ecs.check.one_game_check``)."""
    return one_game_check(live, touched) if args.one_going(game) else Check(live=live, touched=touched)


#: A one-game re-check of at most this many columns asks the probe about a full check
#: (``Schedule.check``): its pass there costs less than gathering the re-check's arguments.
FULL_RECHECK = 2_048


def _marked(marks: np.ndarray) -> bool:
    """Whether any of the bool ``marks`` is set. A small array's bytes are counted by
    Python's own code, which a simulator's work between two ticks leaves in the caches
    where it evicts NumPy's: on a 100-object game about half ``count_nonzero``'s cost
    hot and cold (which stays cheaper on big batches: no copy)."""
    if marks.nbytes <= _SMALL:
        return marks.tobytes().count(0) != marks.nbytes
    return bool(np.count_nonzero(marks))


_SMALL = 16_384


def begin_phase(game: Game, schedule: Schedule, games: np.ndarray, player: np.ndarray,
                policy: Any) -> None:
    """The beginning of precombat main phases (``games``, each for ``player``): the phase
    systems decide as one check, performed as one event (rad 728.1, GA wither)."""
    check = schedule.run(game, Check(phase=PhaseContext(games, player, True, policy)),
                         When.MAIN_PHASE)
    if not check.empty():
        game.log.next_step()
        perform(game, check)
