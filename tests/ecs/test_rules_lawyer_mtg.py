"""Choices where the Magic rules' text leaves the engine room, pinned as docs/rules-mtg.md
states them: caps on what is not a permanent (704.5r), the cause of a permanent that
several state-based actions move at once (704.5g, 704.5i), a poison move between
teammates (122.5, 810.10), and a redirect a host ends so finality applies (616.1, 122.1h).
Each runs in one game and in a batch with the case in some games and not others."""
import numpy as np
import pytest

from ecs import CounterChanged, World, ZoneChanged


@pytest.mark.parametrize("batch", [1, 3])
def test_704_5r_a_cap_on_a_player_trims_nothing(batch):
    """704.5r and 122.4 name permanents only: a player who "can't have more than one"
    charge counter keeps the four put on them, and the check does nothing."""
    w = World(batch=batch)
    p, _ = w.add_player(), w.add_player()
    w.set_cap(p, "charge", 1)
    w.put_counters(p, "charge", 4 if batch == 1 else np.array([4, 2, 1]))
    w.clear_events()
    assert w.tick() == 0
    assert np.atleast_1d(w.count(p, "charge")).tolist() == ([4] if batch == 1 else [4, 2, 1])
    assert w.events() == []


@pytest.mark.parametrize("batch", [1, 3])
def test_704_5g_704_5i_a_creature_planeswalker_with_lethal_damage_and_no_loyalty(batch):
    """2 damage to a 2/2 creature planeswalker with loyalty 2 is lethal (704.5g) and takes
    its loyalty to 0 (120.3c, 704.5i): it moves once, destroyed (704.5g); indestructible
    (702.12b) stops only 704.5g, so then 704.5i puts it into the graveyard. In the batch:
    no damage in game 0, the damage in game 1, the damage and an indestructible counter
    (122.1b) in game 2."""
    w = World(batch=batch)
    p, _ = w.add_player(), w.add_player()
    x = w.add_object(p, {"creature", "planeswalker"}, power=2, toughness=2, loyalty=2)
    if batch == 1:
        w.deal_damage(x, 2)
        w.clear_events()
        w.tick()
        assert [(e.cause, e.to_zone, e.lki) for e in w.events()] == [("704.5g", "graveyard", {})]
        return
    w.put_counters(x, "indestructible", games=[2])
    w.deal_damage(x, 2, games=[1, 2])
    w.clear_events()
    w.tick()
    moved = [(e.game, e.cause, e.to_zone, e.lki) for e in w.events() if isinstance(e, ZoneChanged)]
    assert moved == [(1, "704.5g", "graveyard", {}), (2, "704.5i", "graveyard", {"indestructible": 1})]
    assert w.exists(x).tolist() == [True, False, False]
    assert w.counters(x)["loyalty"].tolist() == [2, 0, 0]


def test_122_5_810_10_a_poison_move_between_teammates_moves_none():
    """In Two-Headed Giant the team holds the poison counters (810.10): a move from one
    teammate to the other would leave and reach the same count, and moves none, logging
    nothing; a move to an opponent, in another game of the same call, moves one."""
    w = World(batch=3, two_headed_giant=True)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    b1, _ = w.add_player(team=1), w.add_player(team=1)
    w.put_counters(a1, "poison", 3)
    w.clear_events()
    moved = w.move_counters(a1, np.array([[a2], [b1], [a2]]), "poison", 1, zone=None)
    assert np.asarray(moved).ravel().tolist() == [0, 1, 0]
    assert w.count(a2, "poison").tolist() == [3, 2, 3]
    assert w.count(b1, "poison").tolist() == [0, 1, 0]
    rows = [(e.game, e.entity, e.before, e.after) for e in w.events() if isinstance(e, CounterChanged)]
    assert rows == [(1, a1, 3, 2), (1, b1, 0, 1)]


@pytest.mark.parametrize("batch", [1, 3])
def test_616_1_122_1h_a_redirect_the_host_ends_first_lets_finality_exile(batch):
    """616.1 leaves the order of "if it would die" replacements to the controller; the core
    applies a redirect first, so a host whose player chooses the finality counter (122.1h)
    ends the redirect before the move, and the creature is exiled. In the batch the
    redirect ends in game 1 only: the others go to the hand."""
    w = World(batch=batch)
    p, _ = w.add_player(), w.add_player()
    x = w.add_object(p, "creature", power=1, toughness=1, counters={"finality": 1})
    w.set_redirect(x, "hand")
    if batch == 1:
        w.set_redirect(x, None)
    else:
        w.set_redirect(x, None, games=[1])
    w.clear_events()
    w.destroy(x)
    assert [(e.game, e.to_zone) for e in w.events()] == (
        [(0, "exile")] if batch == 1 else [(0, "hand"), (1, "exile"), (2, "hand")])
