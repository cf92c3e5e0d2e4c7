"""Grand Archive counter rules read from their text, where the rules leave the engine a
choice that rules-grand-archive.md names: each case in one game and in one game of a
batch whose other games differ."""
import numpy as np
import pytest

from ecs import CounterChanged, GameEnded, World


def _counters0(w, e):
    """Game 0's counters of ``e``: the dict itself in one game, its first entries in a batch."""
    counters = w.counters(e)
    if w.batch == 1:
        return counters
    return {kind: int(n[0]) for kind, n in counters.items() if n[0]}


@pytest.mark.parametrize("batch", [1, 3])
def test_buff_4_placed_under_a_cap_of_none_cancel_debuffs_then_the_check_trims_the_rest(batch):
    """Buff 4 with a host's cap (the GA rules have none; the engine's is Magic's 122.4):
    three buff counters placed on an ally with two debuff counters and a cap of 0 buff
    counters are placed and cancel both debuffs; the one left is trimmed at the check.
    The batch's other games, with no debuff counters, trim all three."""
    w = World(ruleset="grand_archive", batch=batch, seed=0)
    a, b = w.add_player(), w.add_player()
    w.add_object(a, "champion", life=20, level=1)
    w.add_object(b, "champion", life=20, level=1)
    ally = w.add_object(a, "ally", power=2, life=3, caps={"buff": 0})
    w.put_counters(ally, "debuff", 2, games=0 if batch > 1 else None)
    w.clear_events()
    w.put_counters(ally, "buff", 3)
    assert _counters0(w, ally) == {"buff": 1}
    placed = [(e.kind, e.before, e.after, e.cause) for e in w.events()
              if isinstance(e, CounterChanged) and e.game == 0]
    assert placed == [("buff", 0, 3, "put"), ("buff", 3, 1, "ga.placement"),
                      ("debuff", 2, 0, "ga.placement")]
    w.clear_events()
    w.tick()
    assert np.atleast_1d(w.count(ally, "buff")).tolist() == [0] * batch
    assert np.atleast_1d(w.count(ally, "debuff")).tolist() == [0] * batch
    assert np.atleast_1d(w.stat(ally, "life")).tolist() == [3] * batch
    trims = sorted((e.game, e.before, e.cause) for e in w.events() if isinstance(e, CounterChanged))
    assert trims == [(0, 1, "704.5r")] + [(g, 3, "704.5r") for g in range(1, batch)]


@pytest.mark.parametrize("batch", [1, 3])
def test_ending_the_game_4_and_6_a_game_end_has_the_shared_causes(batch):
    """Ending the Game 4 (all opponents have lost: the player left wins) and 6 (all
    remaining players lose at once: a draw): the GameEnded event has the causes shared with
    Magic, 104.2a and 104.4a, not a ga. cause. In a batch game 0 is a draw, game 1 a win
    and game 2 goes on."""
    w = World(ruleset="grand_archive", batch=batch, seed=0)
    a, b = w.add_player(), w.add_player()
    ca = w.add_object(a, "champion", life=20, level=1)
    cb = w.add_object(b, "champion", life=20, level=1)
    if batch == 1:
        w.deal_damage([ca, cb], 20)
    else:
        w.deal_damage(ca, 20, games=[0, 1])
        w.deal_damage(cb, 20, games=0)
    w.clear_events()
    w.tick()
    ends = [(e.game, e.winner, e.cause) for e in w.events() if isinstance(e, GameEnded)]
    if batch == 1:
        assert w.result() == "draw" and ends == [(0, None, "104.4a")]
    else:
        assert w.result().tolist() == [-2, b, -1]
        assert ends == [(0, None, "104.4a"), (1, b, "104.2a")]
