"""What a host engine tells the core about the rest of the game: continuous
effects on power/toughness, holds and redirects on state-based actions, per-kind counter
prohibitions and players who can't lose. All per game; the per-object ones belong to the
object and end when it changes zones (CR 400.7), like caps.
"""
from __future__ import annotations

import numpy as np

from .card import NO_STAT
from .fields import GAME_COLUMN, GAME_PLAYER, Field

#: The bit of ``ban`` for every kind; kinds of planes 0..BAN_ALL - 1 have their own bits.
BAN_ALL = 63

#: A host's effects on an object.
HOST_EFFECT_FIELDS = (
    # Layer 7b (613.4b): power/toughness set to a value; NO_STAT: no such effect.
    Field("pt_set_power", np.int32, GAME_COLUMN, NO_STAT),
    Field("pt_set_toughness", np.int32, GAME_COLUMN, NO_STAT),
    # Layer 7c (613.4c): the sum of the effects that modify power/toughness (counters are
    # 7c too, and add on top: addition commutes, so their order within 7c is moot).
    Field("pt_mod_power", np.int32, GAME_COLUMN),
    Field("pt_mod_toughness", np.int32, GAME_COLUMN),
    Field("sba_hold", np.bool_, GAME_COLUMN),    # state-based actions leave it (704.5v's exception)
    Field("redirect", np.int8, GAME_COLUMN, -1),  # zone it goes to instead of dying; -1: none
    # "Can't have counters of a kind put on it" (122.1, 101.3) on an object or a player's
    # column: bit k for the kind of plane k < BAN_ALL, bit BAN_ALL for every kind.
    Field("ban", np.uint64, GAME_COLUMN),
)
#: Whether the object in the slot is under any of the effects above: exactly where one of
#: them does not hold its fill (``ecs.host.marks``). A zone change reads it alone to find
#: the objects whose effects end (400.7), not each effect at every slot that changes.
HOST_MARK = Field("host_marked", np.bool_, GAME_COLUMN)
HOST_OBJECT_FIELDS = HOST_EFFECT_FIELDS + (HOST_MARK,)

HOST_PLAYER_FIELDS = (
    Field("cant_lose_life", np.bool_, GAME_PLAYER),    # 704.5a / 704.6a don't apply
    Field("cant_lose_poison", np.bool_, GAME_PLAYER),  # 704.5c / 704.6b don't apply
)

HOST_FIELDS = HOST_OBJECT_FIELDS + HOST_PLAYER_FIELDS
