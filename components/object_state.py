"""Per-game state of each object: its zone and what happened to it this turn."""
from __future__ import annotations

import numpy as np

from .fields import GAME_COLUMN, Field

OBJECT_STATE_FIELDS = (
    Field("zone", np.int8, GAME_COLUMN),          # ecs.zones code; 0: absent from that game
    Field("tapped", np.bool_, GAME_COLUMN),
    Field("damage", np.int32, GAME_COLUMN),       # marked damage (CR 120.3e, 120.6)
    Field("deathtouch_hit", np.bool_, GAME_COLUMN),  # dealt deathtouch damage since last check (704.5h)
    # Order within a library (ecs.library): ascending (position, id) is top to bottom; a card
    # that arrives gets one past its game's highest; ordering/shuffling sets -n..-1.
    Field("position", np.int32, GAME_COLUMN),
    # GA Immortality (a static ability the host declares, per game): not sent from the
    # field to the graveyard, not destroyed, not sacrificed (Keywords: Immortality 1).
    Field("immortal", np.bool_, GAME_COLUMN),
)
