"""Per-game state of the game itself, and caps (CR 122.4): sparse, one entry per (object,
kind) ever capped, with one value per game (-1: no cap)."""
from __future__ import annotations

import numpy as np

from .fields import CAP, GAME, GAME_CAP, Field

GAME_FIELDS = (
    Field("winner", np.int16, GAME, -1),   # -1 ongoing, -2 draw, else the winner's player index
)

CAP_FIELDS = (
    Field("cap_col", np.int32, CAP),       # the capped object's column
    Field("cap_kind", np.int32, CAP),      # the capped kind's plane
    Field("cap_val", np.int64, GAME_CAP, -1),
)
