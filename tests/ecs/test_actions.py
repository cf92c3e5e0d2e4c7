"""The World's player and host actions (``ecs.actions``): what each checks, which
games it acts in, and what it writes, where the other test files leave it open."""
import numpy as np
import pytest
from state import full_state

from ecs import IllegalActionError, World
from ecs import actions


# ---- add_player ---------------------------------------------------------------------
def test_810_1_a_two_headed_giant_player_needs_a_team():
    """810.1: players of a Two-Headed Giant game play in teams; a player added without
    one is refused and nothing is made."""
    w = World(two_headed_giant=True)
    w.add_player(team=0)
    before = full_state(w)
    with pytest.raises(IllegalActionError, match=r"needs a team \(CR 810\.1\)"):
        w.add_player()
    assert full_state(w) == before


def test_a_world_holds_exactly_max_players_players(monkeypatch):
    """The last player that fits is made; the next is refused, naming the limit."""
    monkeypatch.setattr(actions, "MAX_PLAYERS", 3)
    w = World()
    ps = [w.add_player() for _ in range(3)]
    assert w.players() == ps
    before = full_state(w)
    with pytest.raises(IllegalActionError, match="at most 3 players"):
        w.add_player()
    assert full_state(w) == before


def test_a_team_outside_two_headed_giant_shares_no_life():
    """Only Two-Headed Giant teams share a life total (810.8); elsewhere a team key is
    bookkeeping and each player keeps their own 20."""
    w = World()
    p, q = w.add_player(team=0), w.add_player(team=0)
    w.lose_life(q, 3)
    assert (w.life(p), w.life(q)) == (20, 17)
