"""The numbers the rules and the store's dtypes fix, named once."""
from __future__ import annotations

import numpy as np

#: Counts and marked damage are int32: a change that would pass this raises (never wraps).
MAX_COUNT = int(np.iinfo(np.int32).max)
#: Printed stats (power, toughness, loyalty, ...) are int32 beside a sentinel: at most this in size.
MAX_STAT = 2 ** 30
#: Starting life (CR 103.4) and a Two-Headed Giant player's share of the team's 30 (810.4).
STARTING_LIFE = 20
TWO_HEADED_GIANT_LIFE = 15
#: Poison counters that lose the game (704.5c), and a Two-Headed Giant team's (704.6b).
POISON_TO_LOSE = 10
TWO_HEADED_GIANT_POISON_TO_LOSE = 15
