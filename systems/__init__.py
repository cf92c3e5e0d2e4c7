"""The systems, one module each: they decide, never write (``ecs.check``).

Each declares when it runs (``When``: every check, or the beginning of a main phase) and
the causes it decides with; the rulesets (``ecs.rules``) list them in order and
``ecs.schedule`` runs them as esper Processors. The order never changes a result (CR 704.3).
``settled`` is the compiled pre-check that tells the schedule which of the state-based
systems, Magic's and the Grand Archive's checks, would decide anything. ``base`` holds what
the systems' passes share and ``parallel`` splits a wide pass across threads.
"""
from .annihilation import Annihilation
from .cap_enforcement import CapEnforcement
from .empty_draw import EmptyDraw
from .ga_checks import GAStateChecks
from .lethality import Lethality
from .rad import Rad
from .settled import PROBE
from .wither_upkeep import WitherUpkeep
from .zone_change import ZoneChange

__all__ = ["PROBE", "Annihilation", "CapEnforcement", "EmptyDraw", "GAStateChecks", "Lethality",
           "Rad", "WitherUpkeep", "ZoneChange"]
