"""The ordered state-based and phase systems, one module each.

ZoneChange -> Annihilation -> CapEnforcement -> Lethality -> WitherUpkeep -> Rad
-> EmptyDraw (704.5b) for MTG. They run as esper Processors in this order every check; each only reads the
state and records what it decided (see systems.base), so the order never changes a
result (CR 704.3). The phase systems (WitherUpkeep, Rad) act only in the check that
``World.begin_main_phase`` runs (systems.phase). The Grand Archive ruleset runs
GA_ORDER: ZoneChange -> CapEnforcement -> GAStateChecks -> WitherUpkeep.
"""
from .annihilation import Annihilation
from .base import Pending, System
from .cap_enforcement import CapEnforcement
from .empty_draw import EmptyDraw
from .ga_checks import GAStateChecks
from .lethality import Lethality
from .rad import Rad
from .wither_upkeep import WitherUpkeep
from .zone_change import ZoneChange

ORDER: tuple[type[System], ...] = (ZoneChange, Annihilation, CapEnforcement, Lethality,
                                   WitherUpkeep, Rad, EmptyDraw)
GA_ORDER: tuple[type[System], ...] = (ZoneChange, CapEnforcement, GAStateChecks, WitherUpkeep)

__all__ = ["GA_ORDER", "ORDER", "Annihilation", "CapEnforcement", "EmptyDraw", "GAStateChecks",
           "Lethality", "Pending", "Rad", "System", "WitherUpkeep", "ZoneChange"]
