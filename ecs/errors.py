"""The project's exceptions: every bad input raises one of these and changes nothing.

Messages name the entity, the counter kind and the offending value, so a failing
simulation can be traced without a debugger.
"""
from __future__ import annotations


class CounterError(Exception):
    """Base class of every error raised by tcg-counters."""


class UnknownEntityError(CounterError, KeyError):
    """An id that never named a player or object of this World."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class StaleEntityError(UnknownEntityError):
    """An id whose object changed zones or ceased to exist (CR 400.7): it is a new object now."""


class InvalidKindError(CounterError, ValueError):
    """A counter kind name that is not a string of the accepted grammar."""


class InvalidCountError(CounterError, ValueError):
    """A negative, non-integer or too large amount (CR 107.1, 107.1b)."""


class CountOverflowError(InvalidCountError):
    """An action would take a number past its limit (``ecs.limits``): a count or marked
    damage past int32, a life total past MAX_LIFE. Nothing wraps."""


class InvalidZoneError(CounterError, ValueError):
    """An unknown zone name."""


class InvalidTypeError(CounterError, ValueError):
    """An unknown card type, keyword or stat for the ruleset."""


class InvalidGameError(CounterError, IndexError):
    """A game selection outside the batch, or malformed."""


class GameOverError(CounterError):
    """An action named a game that has already ended."""


class IllegalActionError(CounterError, ValueError):
    """An action the rules do not allow on that object (e.g. damage to a card in a graveyard)."""


class UnpayableCostError(IllegalActionError):
    """A cost that can't be paid in full (CR 118.3: ``remove_counters(cost=True)``; GA
    Recover's hint; Enlighten's "Remove 3")."""


class InsufficientReserveError(UnpayableCostError):
    """Paying more reserve than a player has (GA Wither 3; Costs and Memory 1)."""


class InvalidPhaseError(CounterError, ValueError):
    """An unknown phase (a main phase is precombat or postcombat, CR 505.1)."""


class SBALoopError(CounterError, RuntimeError):
    """State-based actions did not reach a fixed point within the pass limit."""


class InvalidSeedError(CounterError, ValueError):
    """A seed that is not None, a ``numpy.random.SeedSequence``, a non-negative integer or
    a sequence of them."""


class SnapshotError(CounterError, ValueError):
    """A snapshot or save file that does not fit this World or is damaged."""


class PolicyError(CounterError, RuntimeError):
    """A decision function the caller gave (a wither payment policy) raised; the message
    names the function and the original exception is chained (``__cause__``)."""


class ScenarioError(CounterError, ValueError):
    """A scenario file that is not valid; the message names the file and the field."""


class SchedulerError(CounterError, ConnectionError):
    """A Dask scheduler that cannot be used: Dask is not installed, or nobody answers."""
