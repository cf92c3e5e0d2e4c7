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
from .errors import (CounterError, CountOverflowError, GameOverError, IllegalActionError,
                     InsufficientReserveError, InvalidCountError, InvalidGameError,
                     InvalidKindError, InvalidPhaseError, InvalidTypeError, InvalidZoneError,
                     SBALoopError, SnapshotError, StaleEntityError, UnknownEntityError,
                     UnpayableCostError)
from .errors import ScenarioError as ScenarioError  # re-exported: a bad scenario file
from .events import CounterChanged, Event, GameEnded, PlayerLost, ZoneChanged, crossed
from .world import World
from .perform import DRAW, ONGOING

__all__ = [
    "DRAW", "ONGOING", "CounterChanged", "CounterError", "CountOverflowError", "Event",
    "GameEnded", "GameOverError", "IllegalActionError", "InsufficientReserveError",
    "InvalidCountError", "InvalidGameError", "InvalidKindError", "InvalidPhaseError",
    "InvalidTypeError", "InvalidZoneError", "PlayerLost", "SBALoopError", "SnapshotError",
    "StaleEntityError", "UnknownEntityError", "UnpayableCostError", "World", "ZoneChanged",
    "crossed",
]
