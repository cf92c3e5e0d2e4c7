"""The passes' outputs: empty where nothing is found, every find in game and column order
where they grow past the room they take at the first (``ecs.kernels.room_for``)."""
import numpy as np
import pytest

from ecs import World, zones
from ecs.components import TYPE_BIT
from ecs.components.card import NO_STAT
from ecs.events import CAUSE
from ecs.systems.annihilation import pairs
from ecs.systems.lethality import SPARSE, dying
from ecs.systems.zone_change import ceasing

GAMES, COLS = 300, 40   # 12,000 rows looked at: a first room of 750, and finds past it


@pytest.fixture(scope="module", autouse=True)
def compiled():
    World()   # readies (compiles or loads) the kernels of the Magic systems


def board(seed):
    rng = np.random.default_rng(seed)
    zone = rng.choice(np.array([zones.NONE, zones.HAND, zones.BATTLEFIELD, zones.GRAVEYARD], np.int8),
                      size=(GAMES, COLS))
    return rng, zone


def test_ceasing_finds_every_token_off_the_battlefield_in_order_704_5d():
    rng, zone = board(1)
    token = rng.random((GAMES, COLS)) < 0.4
    games = np.arange(GAMES, dtype=np.int64)
    g, c = ceasing(token, zone, games, COLS)
    want = np.nonzero(token & (zone != zones.NONE) & (zone != zones.BATTLEFIELD))
    assert want[0].size > 750
    assert g.tolist() == want[0].tolist() and c.tolist() == want[1].tolist()
    g, c = ceasing(np.zeros_like(token), zone, games, COLS)
    assert g.size == c.size == 0


def test_pairs_finds_every_permanent_with_both_kinds_in_order_704_5q():
    rng, zone = board(2)
    plus = rng.integers(0, 3, (GAMES, COLS)).astype(np.int32)
    minus = rng.integers(0, 3, (GAMES, COLS)).astype(np.int32)
    games = np.arange(GAMES, dtype=np.int64)
    g, c, amount = pairs(zone, plus, minus, games, COLS)
    both = np.minimum(plus, minus) * (zone == zones.BATTLEFIELD)
    want = np.nonzero(both)
    assert want[0].size > 750
    assert g.tolist() == want[0].tolist() and c.tolist() == want[1].tolist()
    assert amount.tolist() == both[want].tolist()
    g, c, amount = pairs(zone, plus, np.zeros_like(minus), games, COLS)
    assert g.size == c.size == amount.size == 0


def test_dying_finds_every_creature_at_toughness_zero_in_order_in_dense_and_sparse_rows_704_5f():
    """Wide rows, dense ones (most columns permanents) between sparse ones (a few
    permanents among cards in other zones, decided permanent by permanent): every 2/2
    creature on the battlefield with two or more -1/-1 counters is found (704.5f), in game
    and column order, from a first find in a sparse row and past the first room."""
    rng = np.random.default_rng(3)
    games_n, cols = 24, 1_100
    zone = rng.choice(np.array([zones.HAND, zones.GRAVEYARD, zones.EXILE], np.int8), size=(games_n, cols))
    for g in range(games_n):   # odd rows dense, even rows sparse: the first find is in a sparse one
        zone[g, rng.random(cols) < (0.9 if g % 2 else 0.03)] = zones.BATTLEFIELD
    assert np.count_nonzero(zone[0] == zones.BATTLEFIELD) * SPARSE < cols
    counts = np.zeros((2, games_n, cols), np.int32)
    counts[1] = rng.integers(0, 4, (games_n, cols))   # plane 1: -1/-1 counters
    plain = np.zeros((games_n, cols), np.int32)
    types = np.full((games_n, cols), TYPE_BIT["creature"], np.uint32)
    g, c, rule = dying(zone, counts, plain, np.zeros((games_n, cols), np.bool_), types,
                       np.full((games_n, cols), 2, np.int32), np.zeros((games_n, cols), np.uint32),
                       np.full((games_n, cols), NO_STAT, np.int32), plain,
                       np.arange(games_n, dtype=np.int64), cols, np.array([1], np.int64),
                       np.array([-1], np.int64), np.zeros(0, np.int64), -1, -1)
    want = np.nonzero((zone == zones.BATTLEFIELD) & (counts[1] >= 2))
    assert want[0].size > (games_n * cols) >> 4   # past the first room
    assert g.tolist() == want[0].tolist() and c.tolist() == want[1].tolist()
    assert set(rule.tolist()) == {CAUSE["704.5f"]}
