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
from .perform import DRAW, ONGOING
from .schedule import Schedule
from .world import World

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
