"""Characteristics that counters change, computed for many objects at once.

Power/toughness (CR 122.1a, 613.4c): printed value plus every power/toughness kind of
the ruleset times its count. Keywords (122.1b): printed ones plus keyword counters.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from components.card import NO_STAT
from .kinds import KEYWORD_BIT

if TYPE_CHECKING:
    from .world import World


def pt(world: "World", cols: np.ndarray | slice, which: int,
       games: slice = slice(None)) -> np.ndarray:
    """Power (which=0) or toughness (which=1) of columns ``cols`` in games ``games``,
    int64 (games, len); objects without that stat get 0 (callers mask them)."""
    s = world.store
    base = s.a["power" if which == 0 else "toughness"][cols]
    rows = len(range(*games.indices(s.batch)))
    out = np.empty((rows, base.size), np.int64)
    out[:] = np.where(base == NO_STAT, 0, base)
    for k, name in enumerate(s.kind_names):
        mod = world.ruleset.pt_modifier(name)
        if mod is not None and mod[which]:
            plane = s.counts[k][games, cols]
            if mod[which] == 1:
                out += plane
            elif mod[which] == -1:
                out -= plane
            else:
                out += mod[which] * plane.astype(np.int64)
    return out


def has_keyword(world: "World", cols: np.ndarray | slice, keyword: str,
                games: slice = slice(None)) -> np.ndarray:
    """(games, len) bool: printed ``keyword`` or a keyword counter of it (or a variant)."""
    s = world.store
    printed = (s.a["keywords"][cols] & KEYWORD_BIT[keyword]) != 0
    rows = len(range(*games.indices(s.batch)))
    out = np.empty((rows, printed.size), bool)
    out[:] = printed
    for k, name in enumerate(s.kind_names):
        if name == keyword or name.startswith(keyword + " "):
            out |= s.counts[k][games, cols] > 0
    return out
