"""Card characteristics: printed types, stats and keywords, and who owns and controls it.

Per game slot like all object state (a slot freed in one game takes that game's next new
object). A card that changes zones keeps its slot and its characteristics (CR 400.7:
counters, damage and effects do not follow it).
"""
from __future__ import annotations

from typing import Iterable

import numpy as np

from ecs.errors import InvalidTypeError

from .fields import GAME_COLUMN, Field

#: Card types of both rulesets (MTG 300.1; GA card types) and "player".
TYPE_BIT = {name: 1 << i for i, name in enumerate((
    "player", "creature", "planeswalker", "battle", "artifact", "enchantment", "land",
    "instant", "sorcery", "kindred",
    "champion", "ally", "weapon", "regalia", "domain", "item", "action", "attack", "phantasia",
    "siegeable", "mastery",
))}

# Stats are stored with a sentinel for "this object has no such stat" (GA: a missing stat
# stays missing; MTG: a noncreature has no power).
NO_STAT = np.iinfo(np.int32).min

CARD_FIELDS = (
    Field("entity_id", np.int64, GAME_COLUMN, -1),   # the id in this slot of the game; -1: free
    Field("types", np.uint32, GAME_COLUMN),
    Field("power", np.int32, GAME_COLUMN, NO_STAT),
    Field("toughness", np.int32, GAME_COLUMN, NO_STAT),  # MTG toughness, GA life
    Field("loyalty", np.int32, GAME_COLUMN, NO_STAT),    # printed loyalty (CR 209.1)
    Field("defense", np.int32, GAME_COLUMN, NO_STAT),    # printed defense (CR 310.4a)
    Field("durability", np.int32, GAME_COLUMN, NO_STAT),  # GA durability stat
    Field("level", np.int32, GAME_COLUMN, NO_STAT),       # GA base level
    Field("keywords", np.uint32, GAME_COLUMN),            # printed keywords, bits of ecs.kinds.KEYWORDS
    Field("controller", np.int16, GAME_COLUMN, -1),       # player index
    # Owner (108.3) as a player index; -1: the controller (no control change since it
    # became this object). A zone change gives the new object to its owner (110.2, 400.7).
    Field("owner", np.int16, GAME_COLUMN, -1),
    Field("token", np.bool_, GAME_COLUMN),
    Field("no_counters", np.bool_, GAME_COLUMN),          # "can't have counters put on it" (122.5)
    Field("name_id", np.int32, GAME_COLUMN, -1),          # index into the World's name table
)


def type_mask(types: Iterable[str] | str) -> int:
    """The bitmask of a set of type names, or InvalidTypeError naming the unknown one."""
    if isinstance(types, str):
        types = (types,)
    mask = 0
    for t in types:
        if t not in TYPE_BIT:
            raise InvalidTypeError(f"unknown card type {t!r}; expected one of {sorted(TYPE_BIT)}")
        mask |= TYPE_BIT[t]
    return mask
