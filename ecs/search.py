"""Batch and tree-search support: fork, select, save/load and observations (issue 4)."""
from __future__ import annotations


class SearchActions:
    """Mixed into ecs.world.World."""
