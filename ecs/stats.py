"""Characteristics that counters change, computed for many objects at once.

Power/toughness (CR 613.4): the printed value, or the value a layer 7b effect set
(``pt_set_*``), plus the layer 7c modifications (``pt_mod_*``) and every power/toughness
counter kind of the ruleset times its count (122.1a; counters are 7c as well).
Keywords (122.1b): printed ones plus keyword counters.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ecs.components import TYPE_BIT
from ecs.components.card import NO_STAT

from . import zones
from .errors import InvalidKindError
from .game import Game
from .kinds import KEYWORD_BIT, KEYWORDS
from .limits import MAX_STAT


def counted(zone: np.ndarray, printed: Any, count: Any) -> np.ndarray:
    """Loyalty, defense (306.5b-c, 310.4b-c) and Grand Archive durability (Durability 1),
    element-wise: the counters on the battlefield, the printed number elsewhere."""
    return np.where(zone == zones.BATTLEFIELD, count, printed)


def level(types: np.ndarray, printed: np.ndarray, count: Any) -> np.ndarray:
    """Grand Archive LV (Level Counters 1-2), element-wise: the base level, plus the level
    counters on a champion (int64: the sum of two int32 bounds does not wrap)."""
    return printed.astype(np.int64) + np.where((types & _CHAMPION) != 0, count, 0)


_CHAMPION = TYPE_BIT["champion"]


def pt_kinds(world: Game, which: int) -> list[tuple[int, int]]:
    """(plane, change per counter) of every kind changing power (which=0) or toughness (1).
    Cached per kind names and ruleset: a check asks in every pass. A ruleset's change per counter is
    at most MAX_STAT in size (the kernels multiply it as an int32; Magic's +X/+Y has at
    most three digits): InvalidKindError past it."""
    def make() -> list[tuple[int, int]]:
        out = []
        for k, name in enumerate(world.store.kind_names):
            mod = world.ruleset.pt_modifier(name)
            if mod is not None and mod[which]:
                if abs(mod[which]) > MAX_STAT:
                    raise InvalidKindError(f"counter kind {name!r}: the ruleset's power/toughness change per "
                                           f"counter {mod[which]} is more than {MAX_STAT} in size")
                out.append((k, mod[which]))
        return out
    return world.store.derived(f"pt_kinds {which}", make, rules=world.ruleset)


def pt_planes(world: Game, which: int) -> tuple[np.ndarray, np.ndarray]:
    """``pt_kinds`` as two int64 arrays, the planes and their change per counter (what a
    kernel reads), cached per kind names and ruleset."""
    def make() -> tuple[np.ndarray, np.ndarray]:
        kinds = pt_kinds(world, which)
        return (np.array([k for k, _ in kinds], np.int64), np.array([m for _, m in kinds], np.int64))
    return world.store.derived(f"pt_planes {which}", make, rules=world.ruleset)


def keyword_kinds(world: Game, keyword: str) -> list[int]:
    """Planes of the counters that grant ``keyword`` (the kind itself or a variant of it),
    cached per kind names."""
    s = world.store
    key = _KEYWORD_KEYS.get(keyword) or "keyword " + keyword   # (no string formatting, no closure:
    return s.derived(key, _keyword_planes, (s.kind_names, keyword))   # cold paths of their own)


def _keyword_planes(names: list[str], keyword: str) -> list[int]:
    return [k for k, name in enumerate(names) if name == keyword or name.startswith(keyword + " ")]


_KEYWORD_KEYS = {k: "keyword " + k for k in KEYWORDS}


def pt(world: Game, which: int, at: Callable[[str | int], np.ndarray]) -> np.ndarray:
    """Power (which=0) or toughness (which=1) of some rows, int64; a printed value they
    lack counts as 0 (callers mask the rows without the stat). ``at(name)`` is the store
    field ``name`` at those rows, ``at(k)`` counter plane ``k`` there; fields that hold
    their fill everywhere (``Store.at_fill``) are not read."""
    s = world.store
    stat = "power" if which == 0 else "toughness"
    base = at(stat)
    out = np.where(base == NO_STAT, 0, base).astype(np.int64)
    if not s.at_fill("pt_set_" + stat):   # 613.4b
        set_to = at("pt_set_" + stat)
        out = np.where(set_to == NO_STAT, out, set_to)
    if not s.at_fill("pt_mod_" + stat):   # 613.4c
        out += at("pt_mod_" + stat)
    for k, mod in pt_kinds(world, which):
        if mod == 1:
            out += at(k)
        elif mod == -1:
            out -= at(k)
        else:
            out += mod * at(k).astype(np.int64)
    return out


def pt_one(world: Game, g: int, c: int, which: int) -> int:
    """``pt`` of the one slot (game ``g``, column ``c``) as a Python int, with plain reads
    (a single game's reads); 0 for an object without that stat."""
    s = world.store
    stat = "power" if which == 0 else "toughness"
    v = s.views()
    base, set_to = v[stat][g, c], v["pt_set_" + stat][g, c]
    out = (0 if base == NO_STAT else base) if set_to == NO_STAT else set_to   # 613.4b
    out += v["pt_mod_" + stat][g, c]                                         # 613.4c
    counts = v["counts"]
    for k, mod in pt_kinds(world, which):
        out += mod * counts[k, g, c]
    return int(out)


def has_keyword_at(world: Game, g: np.ndarray, c: np.ndarray, keyword: str) -> np.ndarray:
    """(m,) bool for rows (game ``g``, column ``c``): printed ``keyword`` or a keyword counter."""
    s = world.store
    out = (s.a["keywords"][g, c] & KEYWORD_BIT[keyword]) != 0
    for k in keyword_kinds(world, keyword):
        out |= s.counts[k, g, c] > 0
    return out
