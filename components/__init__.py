"""Component types: the NumPy columns attached to entity ids.

Each component is a set of named fields with a dtype, a fill value and a shape class:
``COLUMN`` fields are one value per object (the same in every game: what the card is),
``GAME_COLUMN`` fields are one value per game and object (where it is, what happened to
it), ``GAME_PLAYER`` fields one value per game and player. Counter counts are their own
component, one (games, objects) plane per kind (see ``ecs.store``).
"""
from .card import CARD_FIELDS, TYPE_BIT, type_mask
from .fields import COLUMN, GAME_COLUMN, GAME_PLAYER, Field
from .object_state import OBJECT_STATE_FIELDS
from .player import PLAYER_FIELDS

ALL_FIELDS: tuple[Field, ...] = CARD_FIELDS + OBJECT_STATE_FIELDS + PLAYER_FIELDS

__all__ = ["ALL_FIELDS", "CARD_FIELDS", "COLUMN", "Field", "GAME_COLUMN", "GAME_PLAYER",
           "OBJECT_STATE_FIELDS", "PLAYER_FIELDS", "TYPE_BIT", "type_mask"]
