"""Reads at their edges: the first id never given out, an id whose slot another object of
another game took, objects of several types, a team's prohibitions (810.10c), the Grand
Archive's zone names."""
import numpy as np
import pytest

from ecs import UnknownEntityError, World


def test_the_next_id_was_never_given_out():
    """api.md: an id that never existed raises UnknownEntityError, the first unused one too."""
    w = World()
    p = w.add_player()
    x = w.add_object(p, "creature", power=1, toughness=1)
    for read in (w.exists, lambda e: w.observe([e])):
        with pytest.raises(UnknownEntityError):
            read(x + 1)


def test_reads_of_an_id_in_a_game_where_its_slot_holds_another_object_are_none():
    """A token that left game 1 (704.5d) frees its slot there, and game 1's next object
    takes it: the token's reads in game 1 are none, not the new object's damage and
    counters."""
    w = World(batch=2, seed=0)
    p = w.add_player()
    w.add_player()
    x = w.add_object(p, "creature", power=5, toughness=5, token=True)
    w.destroy(x, games=[1])
    w.tick()
    y = w.add_object(p, "creature", power=5, toughness=5, games=[1])
    w.deal_damage(y, 2, games=[1])
    w.put_counters(y, "charge", 3, games=[1])
    assert w.damage(x).tolist() == [0, 0] and "charge" not in w.counters(x)
    assert w.damage(y).tolist() == [0, 2]


def test_objects_of_several_types_are_those_of_every_one():
    """api.md: objects(types=...) are the objects that have all the types."""
    w = World()
    p = w.add_player()
    w.add_object(p, "artifact")
    both = w.add_object(p, ["artifact", "creature"], power=1, toughness=1)
    assert w.objects(types=("artifact", "creature")) == [both]


def test_810_10c_a_prohibition_on_the_teams_first_player_is_the_teammates_too():
    w = World(two_headed_giant=True)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    w.add_player(team=1), w.add_player(team=1)
    w.prohibit(a1, "poison")
    assert w.is_prohibited(a2, "poison")
    w.put_counters(a2, "poison", 2)
    assert w.count(a2, "poison") == 0


def test_a_grand_archive_zone_is_observed_by_either_name():
    w = World(ruleset="grand_archive")
    p = w.add_player()
    champ = w.add_object(p, "champion", life=20)
    assert w.observe([champ], ["zone:field", "zone:battlefield"])[0][0, 0].tolist() == [1, 1]
    assert np.all(w.observe([champ], ["zone:graveyard"])[0] == 0)
