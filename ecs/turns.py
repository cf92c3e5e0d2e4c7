"""Turn structure actions that phase systems need (main phases, libraries, draws, mills).

A mixin of World, kept apart so the phase rules (MTG rad counters, Grand Archive wither)
live beside each other rather than inside the core actions.
"""
from __future__ import annotations


class TurnActions:
    """Mixed into ecs.world.World."""
