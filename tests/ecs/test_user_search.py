"""What a self-play search reads across branches and batches: partly stale ids, the
event table's codes, proliferate's choice per game, and ids after a restore."""

import numpy as np
import pytest

from ecs import IllegalActionError, StaleEntityError, UnknownEntityError, World, ZoneChanged
from ecs.events import CAUSES, ZONE
from ecs.zones import ZONES


def test_batch_read_of_an_id_stale_in_some_games_reads_as_no_object_there_400_7():
    """400.7: where a batch's object left, its old id reads as no object; the read raises
    only where the id is stale in every game."""
    w = World(batch=3, seed=1)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2, keywords={"flying"},
                        counters={"+1/+1": 1})
    w.tap(bear, games=[1])
    w.deal_damage(bear, 1, games=[1])
    w.destroy(bear, games=[0])
    assert w.zone(bear).tolist() == ["none", "battlefield", "battlefield"]
    assert w.count(bear, "+1/+1").tolist() == [0, 1, 1]
    assert w.power(bear).tolist() == [0, 3, 3]
    assert w.damage(bear).tolist() == [0, 1, 0]
    assert w.controller(bear).tolist() == [-1, p, p]
    assert w.owner(bear).tolist() == [-1, p, p]
    assert w.is_tapped(bear).tolist() == [False, True, False]
    assert w.keywords(bear).tolist() == [frozenset(), {"flying"}, {"flying"}]
    w.destroy(bear, where="present")
    assert w.exists(bear).tolist() == [False, False, False]
    with pytest.raises(StaleEntityError):
        w.zone(bear)


def test_monte_carlo_survival_reads_exists_when_the_object_dies_in_every_copy_704_5g():
    """704.5g in every forked copy: exists() reads 0 survival where zone() raises."""
    w = World(seed=7)
    w.add_player()
    bear = w.add_object(0, "creature", power=2, toughness=2)
    mc = w.fork(0, 16, events=False)
    mc.deal_damage(bear, mc.rng.integers(2, 6, 16))
    mc.tick()
    assert mc.exists(bear).mean() == 0.0
    with pytest.raises(StaleEntityError):
        mc.zone(bear)


def test_event_table_codes_decode_to_the_event_objects_704_8():
    """The table's kind, cause and zone codes and its last-known rows (704.8) decode to
    what events() says, from a `since` too."""
    w = World(batch=2, seed=1)
    w.add_player()
    bear = w.add_object(0, "creature", power=2, toughness=2,
                        counters={"+1/+1": 1, "charge": 2})
    since = w.step
    w.put_counters(bear, "-1/-1", np.array([3, 1]))
    w.tick()
    t = w.event_table(since=since)
    kinds, decoded = w.store.kind_names, []
    for i in range(t["type"].size):
        lki = {kinds[k]: int(n) for r, k, n in zip(t["lki_row"], t["lki_kind"], t["lki_count"])
               if r == i}
        decoded.append((int(t["game"][i]), kinds[t["kind"][i]] if t["kind"][i] >= 0 else None,
                        CAUSES[t["cause"][i]], ZONES[t["from_zone"][i]], ZONES[t["to_zone"][i]],
                        lki if t["type"][i] == ZONE else None))
    moved = [e for e in w.events_since(since) if isinstance(e, ZoneChanged)]
    assert [(e.game, None, e.cause, e.from_zone, e.to_zone, e.lki) for e in moved] == [
        d for d in decoded if d[5] is not None]
    assert moved[0].lki == {"+1/+1": 1, "charge": 2, "-1/-1": 3}
    assert ("put", "-1/-1", 1) in {(d[2], d[1], d[0]) for d in decoded}


def test_batch_proliferate_chooses_per_game_with_padded_ids_701_34a():
    """701.34a: only a permanent or player with a counter can be chosen; a batch whose
    games differ chooses per game, padding with -1 under where="present"."""
    w = World(batch=2, seed=1)
    p = w.add_player()
    bear, golem = w.add_objects(2, p, "creature", power=2, toughness=2)
    w.put_counters(bear, "+1/+1", 1, games=0)
    w.put_counters(golem, "shield", 1)
    step = w.step
    with pytest.raises(IllegalActionError, match=f"entity {bear} in game 1"):
        w.proliferate([bear, golem])
    assert w.step == step and w.count(bear, "+1/+1").tolist() == [1, 0]
    w.proliferate(np.array([[bear, golem], [-1, golem]]), where="present")
    assert w.count(bear, "+1/+1").tolist() == [2, 0]
    assert w.count(golem, "shield").tolist() == [2, 2]


def test_restore_rewinds_the_next_id_so_a_branch_id_names_another_object():
    """A branch's new object (400.7) gets an id that restore forgets; the next branch's
    new object may get the same id."""
    w = World(seed=1)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    wall = w.add_object(p, "creature", power=0, toughness=4)
    root = w.snapshot()
    dead_bear = w.move_zone(bear, "graveyard")
    w.restore(root)
    with pytest.raises(UnknownEntityError):
        w.zone(dead_bear)
    bounced_wall = w.move_zone(wall, "hand")
    assert bounced_wall == dead_bear and w.zone(bounced_wall) == "hand"
