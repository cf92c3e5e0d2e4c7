"""The field descriptor every component is made of."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

GAME_COLUMN = "game_column"  # shape (B, C): an object of a game (a slot)
GAME_PLAYER = "game_player"  # shape (B, P): per game state of a player
PLAYER = "player"            # shape (P,): what a player is (the same in every game)
GAME = "game"                # shape (B,): per game state of the game itself
CAP = "cap"                  # shape (E,): one entry per (object, kind) ever capped (CR 122.4)
GAME_CAP = "game_cap"        # shape (B, E): per game value of a cap entry

#: Shape classes whose first axis is the game.
GAME_AXIS = frozenset((GAME_COLUMN, GAME_PLAYER, GAME, GAME_CAP))


@dataclass(frozen=True)
class Field:
    name: str
    dtype: type[np.generic]
    shape: str
    fill: int = 0
