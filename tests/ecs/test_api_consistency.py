"""Every setter of the public API has its read, per game: what one game reads as a plain
value a batch reads as one value per game."""
import numpy as np
import pytest

from ecs import InvalidKindError, StaleEntityError, World


def test_122_4_cap_reads_what_set_cap_and_caps_set_in_one_game():
    """122.4: "can't have more than N" as set_cap, add_object(caps=) and clear_cap leave
    it; -1 where the object has no cap of that kind; a zone change ends it (400.7)."""
    w = World(seed=1)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2, caps={"-1/-1": 3})
    assert w.cap(bear, "-1/-1") == 3 and w.cap(bear, "charge") == -1
    w.set_cap(bear, "charge", 0)
    w.set_cap(p, "poison", 9)                      # a player can be capped too
    assert (w.cap(bear, "charge"), w.cap(p, "poison")) == (0, 9)
    w.clear_cap(bear, "-1/-1")
    assert w.cap(bear, "-1/-1") == -1 and isinstance(w.cap(bear, "charge"), int)
    card = w.move_zone(bear, "hand")
    assert w.cap(card, "charge") == -1
    with pytest.raises(StaleEntityError):
        w.cap(bear, "charge")
    with pytest.raises(InvalidKindError):
        w.cap(card, "+1/-1")


def test_122_4_cap_reads_each_games_own_cap_in_a_batch():
    """122.4 in a batch: one cap per game, -1 where none was set and in the games the
    object is not in; scalar_reads=False reads one game as an array of one."""
    w = World(batch=3, seed=1)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2, caps={"-1/-1": np.array([1, -1, 2])})
    assert w.cap(bear, "-1/-1").tolist() == [1, -1, 2]
    w.set_cap(bear, "charge", [4, 5], games=[2, 0])
    assert w.cap(bear, "charge").tolist() == [5, -1, 4]
    w.destroy(bear, games=0)
    assert w.cap(bear, "charge").tolist() == [-1, -1, 4]
    one = World(seed=1, scalar_reads=False)
    q = one.add_player()
    assert one.cap(one.add_object(q, "artifact", caps={"charge": 2}), "charge").tolist() == [2]


def test_614_1a_redirect_reads_what_set_redirect_set_in_one_game():
    """614.1a: where the object goes instead if it would die, as set_redirect set it
    (the zone's own name for a Grand Archive alias); None where no redirect is set, after
    set_redirect(e, None) and for the new object after a zone change (400.7)."""
    w = World(seed=1)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    assert w.redirect(bear) is None
    w.set_redirect(bear, "exile")
    assert w.redirect(bear) == "exile"
    w.set_redirect(bear, w.redirect(bear))        # the read is what the setter takes
    w.destroy(bear)
    [gone] = w.objects(zone="exile")
    assert w.redirect(gone) is None
    w.set_redirect(gone, "hand")
    w.set_redirect(gone, None)
    assert w.redirect(gone) is None
    ga = World(ruleset="grand_archive", seed=1)
    ally = ga.add_object(ga.add_player(), "ally", power=1, life=1)
    ga.set_redirect(ally, "banishment")
    assert ga.redirect(ally) == "exile"


def test_614_1a_redirect_reads_each_games_own_zone_in_a_batch():
    """614.1a in a batch: an object array, one zone name or None per game (None in the
    games the object is not in)."""
    w = World(batch=3, seed=1)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    w.set_redirect(bear, "exile", games=[0, 2])
    w.set_redirect(bear, "hand", games=1)
    assert w.redirect(bear).tolist() == ["exile", "hand", "exile"]
    w.sacrifice(bear, games=1)
    got = w.redirect(bear)
    assert got.dtype == object and got.tolist() == ["exile", None, "exile"]
    one = World(seed=1, scalar_reads=False)
    q = one.add_player()
    assert one.redirect(one.add_object(q, "artifact")).tolist() == [None]


def test_122_4_set_cap_and_clear_cap_take_where_and_skip_finished_in_one_game():
    """122.4, as the other actions on objects: where="present" skips an id that left its
    zone (and -1 padding), where "all" raises StaleEntityError; skip_finished leaves out a
    game named that has ended."""
    w = World(seed=1)
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    gone = w.add_object(p, "creature", power=1, toughness=1)
    w.destroy(gone)
    with pytest.raises(StaleEntityError):
        w.set_cap([bear, gone], "charge", 2)
    w.set_cap([bear, gone, -1], "charge", 2, where="present")
    assert w.cap(bear, "charge") == 2
    w.clear_cap([gone, bear], "charge", where="present")
    assert w.cap(bear, "charge") == -1
    w.lose_life(q, 20)
    w.tick()
    w.set_cap(bear, "charge", 1, games=0, skip_finished=True)   # the game ended: nothing
    w.clear_cap(bear, "charge", games=0, skip_finished=True)
    assert w.cap(bear, "charge") == -1


def test_122_4_set_cap_where_present_takes_the_amounts_of_the_whole_selection_in_a_batch():
    """122.4 in a batch: per-game amounts are given for every selected game, and
    where="present" caps the object only in the games it is in."""
    w = World(batch=3, seed=1)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    w.sacrifice(bear, games=1)
    w.set_cap(bear, "-1/-1", np.array([7, 8, 9]), where="present")
    assert w.cap(bear, "-1/-1").tolist() == [7, -1, 9]
    w.clear_cap(bear, "-1/-1", games=[2, 1], where="present")
    assert w.cap(bear, "-1/-1").tolist() == [7, -1, -1]
    w.set_cap(np.array([[bear], [-1], [bear]]), "charge", np.array([[1], [2], [3]]), where="present")
    assert w.cap(bear, "charge").tolist() == [1, -1, 3]
