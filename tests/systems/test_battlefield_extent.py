"""systems.base.battlefield_extent: the leading columns that hold every permanent.

One game finds its last battlefield column in its row of zone codes, a batch scans blocks
of every game's rows; both must give the last column holding a permanent in any game,
plus one (0 with none), on boards wider than a block, where the scan starts."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from ecs import World
from ecs.check import Check
from ecs.systems import base

WIDTH = base.BLOCK_COLUMNS + 90


@settings(max_examples=examples(25), deadline=None)
@given(st.sampled_from([1, 3]), st.sets(st.integers(0, WIDTH - 1), max_size=6), st.booleans())
def test_extent_is_past_the_last_permanent_of_any_game(batch: int, gone: set[int], all_gone: bool) -> None:
    """Objects destroyed (graveyard) or exiled at the end of the board shorten the extent
    (400.1: only battlefield objects are permanents); every game is looked at."""
    w = World(batch=batch)
    p = w.add_player()
    ids = w.add_objects(WIDTH, p, "artifact")
    for i in sorted(gone | (set(range(WIDTH)) if all_gone else set())):
        if i % 2:
            w.destroy(int(ids[i]))
        else:
            w.move_zone(int(ids[i]), "exile", games=[batch - 1])   # gone from the last game only
    zone = w.store.a["zone"][:, : w.store.n_cols]
    on = np.flatnonzero((zone == 3).any(axis=0))
    want = int(on[-1]) + 1 if on.size else 0
    assert base.battlefield_extent(w, Check()) == want


@pytest.mark.parametrize("batch", [1, 2])
def test_extent_of_a_small_board_is_its_width(batch: int) -> None:
    """Under a block of columns nothing is worth skipping: the whole width."""
    w = World(batch=batch)
    p = w.add_player()
    ids = w.add_objects(5, p, "artifact")
    w.destroy(int(ids[-1]))
    assert base.battlefield_extent(w, Check()) == w.store.n_cols
