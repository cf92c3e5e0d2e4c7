"""WitherUpkeep: the Grand Archive wither trigger at the beginning of a main phase.

Registered in the ordered list for every ruleset; it acts only when a main phase begins
(World.begin_main_phase) in a ruleset that has wither counters. Filled in by the Grand
Archive ruleset.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Pending, System

if TYPE_CHECKING:
    from ecs.world import World


class WitherUpkeep(System):
    def process(self, world: "World", pending: Pending) -> None:
        return None
