"""tcg-counters: a NumPy-backed ECS core for trading-card-game counters.

>>> from ecs import World
>>> w = World()
>>> p = w.add_player()
>>> bear = w.add_object(controller=p, types={"creature"}, power=2, toughness=2)
>>> w.put_counters(bear, "+1/+1", 2); w.put_counters(bear, "-1/-1", 1)
>>> w.tick()
1
>>> w.counters(bear)
{'+1/+1': 1}
"""
import importlib
from typing import TYPE_CHECKING, Any

from .errors import (
                     CounterError,
                     CountOverflowError,
                     GameOverError,
                     IllegalActionError,
                     InsufficientReserveError,
                     InvalidCountError,
                     InvalidGameError,
                     InvalidKindError,
                     InvalidPhaseError,
                     InvalidSeedError,
                     InvalidTypeError,
                     InvalidZoneError,
                     PolicyError,
                     SBALoopError,
                     ScenarioError,
                     SchedulerError,
                     SnapshotError,
                     StaleEntityError,
                     UnknownEntityError,
                     UnpayableCostError,
)
from .events import (
                     Acted,
                     CounterChanged,
                     DamageDealt,
                     Event,
                     GameEnded,
                     PlayerLost,
                     ReserveChanged,
                     Tapped,
                     ZoneChanged,
                     crossed,
)

if TYPE_CHECKING:
    from .perform import DRAW, ONGOING
    from .schedule import Schedule
    from .world import World

# The engine (NumPy kernels compiled by numba) loads on first use of these names, so
# ``import ecs`` and the command line start at once, and Ctrl-C while they load is caught
# (ecs.__main__).
_ENGINE = {"World": "ecs.world", "Schedule": "ecs.schedule", "DRAW": "ecs.perform",
           "ONGOING": "ecs.perform"}


# (Hidden from type checkers, which see the names imported above: a module __getattr__
# would make every other name of ecs, a misspelt one too, type-check as Any.)
if not TYPE_CHECKING:
    def __getattr__(name: str) -> Any:
        module = _ENGINE.get(name)
        if module is None:
            raise AttributeError(f"module 'ecs' has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        globals()[name] = value
        return value

__version__ = "0.2.0.dev0"

__all__ = [
    "__version__", "DRAW", "ONGOING", "Acted", "CounterChanged", "CounterError", "CountOverflowError", "Event",
    "GameEnded", "GameOverError", "IllegalActionError", "InsufficientReserveError",
    "InvalidCountError", "InvalidGameError", "InvalidKindError", "InvalidPhaseError",
    "InvalidSeedError",
    "InvalidTypeError", "InvalidZoneError", "PlayerLost", "PolicyError", "ReserveChanged",
    "ScenarioError", "SchedulerError",
    "SBALoopError", "Schedule",
    "SnapshotError",
    "StaleEntityError", "UnknownEntityError", "UnpayableCostError", "World", "ZoneChanged",
    "crossed", "DamageDealt", "Tapped",
]
