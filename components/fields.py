"""The field descriptor every component is made of."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

COLUMN = "column"            # shape (C,): a characteristic of the object
GAME_COLUMN = "game_column"  # shape (B, C): per game state of the object
GAME_PLAYER = "game_player"  # shape (B, P): per game state of a player


@dataclass(frozen=True)
class Field:
    name: str
    dtype: type[np.generic]
    shape: str
    fill: int = 0
