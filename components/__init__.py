"""Component types: the NumPy columns attached to entity ids.

Each component is a set of named fields with a dtype, a fill value and a shape class:
``GAME_COLUMN`` fields are one value per game and slot (an object of that game: what the
card is, where it is, what happened to it), ``GAME_PLAYER`` fields one value per game and
player; ``PLAYER``, ``GAME``, ``CAP`` and ``GAME_CAP`` fields are the per-player, per-game
and cap tables (see ``fields``). Counter counts are their own component, one (games,
objects) plane per kind (see ``ecs.store``).
"""
from .card import CARD_FIELDS, TYPE_BIT, type_mask
from .fields import CAP, GAME, GAME_AXIS, GAME_CAP, GAME_COLUMN, GAME_PLAYER, PLAYER, Field
from .game import CAP_FIELDS, GAME_FIELDS
from .host import BAN_ALL, HOST_EFFECT_FIELDS, HOST_FIELDS, HOST_MARK, HOST_OBJECT_FIELDS, HOST_PLAYER_FIELDS
from .object_state import OBJECT_STATE_FIELDS
from .player import PLAYER_FIELDS

#: Every array of the store but the counter planes, declared once.
ALL_FIELDS: tuple[Field, ...] = (CARD_FIELDS + OBJECT_STATE_FIELDS + PLAYER_FIELDS + GAME_FIELDS
                                 + CAP_FIELDS + HOST_FIELDS)

__all__ = ["ALL_FIELDS", "BAN_ALL", "HOST_EFFECT_FIELDS", "HOST_FIELDS", "HOST_MARK", "HOST_OBJECT_FIELDS",
           "HOST_PLAYER_FIELDS", "CAP", "CAP_FIELDS", "CARD_FIELDS", "Field", "GAME", "GAME_AXIS",
           "GAME_CAP", "GAME_COLUMN", "GAME_FIELDS", "GAME_PLAYER", "OBJECT_STATE_FIELDS", "PLAYER",
           "PLAYER_FIELDS", "TYPE_BIT", "type_mask"]
