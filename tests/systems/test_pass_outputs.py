"""The passes' outputs: empty where nothing is found, every find in game and column order
where they grow past the room they take at the first (``ecs.kernels.room_for``)."""
import numpy as np
import pytest

from ecs import World, zones
from ecs.systems.annihilation import pairs
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
