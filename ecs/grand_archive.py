"""The Grand Archive TCG ruleset and its actions (rules.md section 6)."""
from __future__ import annotations


class GrandArchiveActions:
    """Mixed into ecs.world.World."""
