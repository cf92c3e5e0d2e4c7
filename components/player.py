"""Per-game state of each player."""
from __future__ import annotations

import numpy as np

from .fields import GAME_PLAYER, Field

PLAYER_FIELDS = (
    Field("life", np.int64, GAME_PLAYER),
    Field("lost", np.bool_, GAME_PLAYER),
    Field("reserve", np.int32, GAME_PLAYER),      # GA: cards available to pay reserve costs
)
