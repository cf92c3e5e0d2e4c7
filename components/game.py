"""Per-game state of the game itself, and caps (CR 122.4): sparse, one entry per (object,
kind) ever capped, with one value per game (``NO_CAP``: none)."""
from __future__ import annotations

import numpy as np

from .fields import CAP, GAME, GAME_CAP, Field

#: A cap's value where the object has none of its kind (a cap is a count, never negative).
NO_CAP = -1

GAME_FIELDS = (
    Field("winner", np.int16, GAME, -1),   # -1 ongoing, -2 draw, else the winner's player index
)

CAP_FIELDS = (
    Field("cap_col", np.int32, CAP),       # the capped object's column
    Field("cap_kind", np.int32, CAP),      # the capped kind's plane
    Field("cap_val", np.int64, GAME_CAP, NO_CAP),
)
