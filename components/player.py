"""Per-game state of each player."""
from __future__ import annotations

import numpy as np

from .fields import GAME_PLAYER, PLAYER, Field

PLAYER_FIELDS = (
    Field("player_col", np.int32, PLAYER),    # the player's column (its entity)
    Field("player_team", np.int32, PLAYER),   # its team key (Two-Headed Giant, CR 810)
    Field("player_head", np.int32, PLAYER),   # its team's first player, who holds the team's
                                              # shared life and poison (810.10)
    Field("life", np.int64, GAME_PLAYER),
    Field("lost", np.bool_, GAME_PLAYER),
    Field("reserve", np.int32, GAME_PLAYER),      # GA: cards available to pay reserve costs
    Field("active", np.bool_, GAME_PLAYER),       # the turn player (ecs.turns.begin_main_phase)
    Field("drew_empty", np.bool_, GAME_PLAYER),   # tried to draw from an empty library/deck (704.5b; GA Ending 5)
    Field("champion_left", np.bool_, GAME_PLAYER),  # GA: a champion they controlled left the field (Ending 5)
)
