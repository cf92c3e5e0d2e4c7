"""The numbers the rules and the store's dtypes fix, named once.

Every size and number an action or constructor takes is checked against these before
anything is allocated or written (``ecs.args``): past them a call raises a ``CounterError``
naming the limit, never an OverflowError, a wrapped value or a MemoryError.
"""
from __future__ import annotations

import numpy as np

#: Counts and marked damage are int32: a change that would pass this raises (never wraps).
MAX_COUNT = int(np.iinfo(np.int32).max)
#: Printed stats (power, toughness, loyalty, ...) are int32 beside a sentinel: at most this in size.
MAX_STAT = 2 ** 30
#: Life totals (int64) stay within -MAX_LIFE..MAX_LIFE: a change past it raises, never wraps.
#: 2**62 leaves int64 room for a total and a change of at most its size (``life_after``
#: compares before adding).
MAX_LIFE = 2 ** 62
#: Ids are int64 and never reused: an id outside 0..MAX_ID names nothing.
MAX_ID = int(np.iinfo(np.int64).max)
#: Players are int16 player indices (a store's ``controller``, a game's ``winner``).
MAX_PLAYERS = int(np.iinfo(np.int16).max)
#: A Two-Headed Giant team key (int32): 0..MAX_TEAM.
MAX_TEAM = int(np.iinfo(np.int32).max)
#: Games in one World (``World(batch=)``, ``fork(n=)``, ``select``).
MAX_BATCH = 2 ** 20
#: Objects created by one ``add_objects`` call.
MAX_OBJECTS = 2 ** 20
#: Slots (games x columns) a World may hold: one int32 counter plane is then at most 512 MiB.
MAX_SLOTS = 2 ** 27
#: Seeds handed out by one ``spawn_seeds`` call (one per Monte Carlo shard or game).
MAX_SEEDS = MAX_BATCH
#: The passes of one state-based check (``World(max_passes=)``).
MAX_PASSES = 2 ** 31 - 1
#: Starting life (CR 103.4) and a Two-Headed Giant player's share of the team's 30 (810.4).
STARTING_LIFE = 20
TWO_HEADED_GIANT_LIFE = 15
#: Poison counters that lose the game (704.5c), and a Two-Headed Giant team's (704.6b).
POISON_TO_LOSE = 10
TWO_HEADED_GIANT_POISON_TO_LOSE = 15
