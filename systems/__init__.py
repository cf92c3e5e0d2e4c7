"""The ordered state-based and phase systems, one module each.

ZoneChange -> Annihilation -> CapEnforcement -> Lethality -> WitherUpkeep. They run as
esper Processors in this order every check; each only reads the state and records what
it decided (see systems.base), so the order never changes a result (CR 704.3).
"""
from .annihilation import Annihilation
from .base import Pending, System
from .cap_enforcement import CapEnforcement
from .lethality import Lethality
from .wither_upkeep import WitherUpkeep
from .zone_change import ZoneChange

ORDER: tuple[type[System], ...] = (ZoneChange, Annihilation, CapEnforcement, Lethality, WitherUpkeep)

__all__ = ["ORDER", "Annihilation", "CapEnforcement", "Lethality", "Pending", "System",
           "WitherUpkeep", "ZoneChange"]
