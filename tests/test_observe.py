"""observe(): a missing stat is told apart from a real 0 by its ``has:<stat>`` mask."""
from __future__ import annotations

import numpy as np
import pytest

from ecs import InvalidTypeError, World

STATS = ("power", "toughness", "loyalty", "defense", "life")


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_has_stat_masks_tell_a_missing_stat_from_a_real_zero(dtype):
    """A 0/0 creature, a noncreature artifact, a 0-loyalty planeswalker, a 0-defense
    battle and a player at 0 life: every value reads 0; the masks say which exist."""
    w = World(batch=2)
    p = w.add_player()
    w.lose_life(p, 20, games=[0])
    zero = w.add_object(p, "creature", power=0, toughness=0)
    rock = w.add_object(p, "artifact")
    walker = w.add_object(p, "planeswalker", loyalty=0)
    battle = w.add_object(p, "battle", defense=0)
    ids = [zero, rock, walker, battle, p]
    obs, names = w.observe(ids, dtype=dtype)
    col = {n: i for i, n in enumerate(names)}
    assert all(f"has:{s}" in col for s in STATS)
    want = {zero: {"power", "toughness"}, rock: set(), walker: {"loyalty"},
            battle: {"defense"}, p: {"life"}}
    for j, e in enumerate(ids):
        for s in STATS:
            assert obs[0, j, col[s]] == 0
            assert obs[:, j, col[f"has:{s}"]].tolist() == [s in want[e]] * 2, (e, s)
    assert obs[1, 4, col["life"]] == 20
    assert not np.isnan(obs.astype(np.float64)).any()


def test_has_stat_of_ga_objects_and_absent_rows():
    """GA life is stored as toughness: has:toughness is its mask; a padded or stale row
    is all zeros, masks included."""
    w = World(ruleset="grand_archive")
    p = w.add_player()
    champ = w.add_object(p, "champion", life=20, level=1)
    item = w.add_object(p, "item")
    obs, names = w.observe([champ, item, -1], ["has:power", "has:toughness", "present"])
    assert obs[0].tolist() == [[0, 1, 1], [0, 0, 1], [0, 0, 0]]


def test_has_stat_rejects_unknown_stats():
    w = World()
    w.add_player()
    with pytest.raises(InvalidTypeError, match="has:speed"):
        w.observe([0], ["has:speed"])


def test_two_headed_giant_poison_is_observed_as_the_teams() -> None:
    """810.10: in Two-Headed Giant a player's poison counters are the team's, so each
    teammate observes the team's count, as ``counters`` reads it, and an object its own."""
    w = World(batch=2, two_headed_giant=True, seed=3)
    a1, a2, b1 = w.add_player(team=0), w.add_player(team=0), w.add_player(team=1)
    bear = w.add_object(a1, "creature", toughness=3)
    w.put_counters(a2, "poison", np.array([[2], [5]]))
    w.put_counters(b1, "poison", 1)
    w.put_counters(bear, "poison", 4)
    obs, _ = w.observe([a1, a2, b1, bear], ["counter:poison"], dtype=np.int32)
    assert obs[:, :, 0].tolist() == [[2, 2, 1, 4], [5, 5, 1, 4]]
    for j, e in enumerate((a1, a2, b1, bear)):
        assert obs[:, j, 0].tolist() == list(w.counters(e)["poison"])
