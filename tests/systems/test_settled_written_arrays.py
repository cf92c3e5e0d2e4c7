"""The probe reads the arrays a game's actions write as the store holds them now.

``systems.settled`` caches a first check's arguments per store (an address table of the
arrays actions never replace, beside the written ones): after a copy on write in a
clone, a restore, or a grown capacity, each tick must read the arrays of the World it
checks, or a creature with lethal damage would live on (704.5g) or one without it would
die.
"""
from __future__ import annotations

from ecs import World


def _settled() -> tuple[World, list[int]]:
    """Two players and four 2/2 creatures, ticked until the probe's arguments are cached."""
    w = World(seed=3)
    p = w.add_player()
    w.add_player()
    ids = [w.add_object(p, "creature", power=2, toughness=2) for _ in range(4)]
    w.tick()
    assert w.tick() == 0   # settled: the first check's arguments are cached
    return w, ids


def test_704_5g_clones_and_their_root_each_read_their_own_damage():
    """A search's clones each deal lethal damage to another creature: each clone's tick
    destroys its own target (704.5g), and the root's, ticked between them, none."""
    w, ids = _settled()
    clones = [w.clone() for _ in ids[:3]]
    for clone, target in zip(clones, ids):
        clone.deal_damage(target, 2)
        assert w.tick() == 0 and all(w.exists(e) for e in ids)
    for clone, target in zip(clones, ids):
        assert clone.tick() == 1   # the checks that acted (704.3)
        assert [clone.exists(e) for e in ids] == [e != target for e in ids]
        assert w.tick() == 0
    assert all(w.exists(e) for e in ids)
    w.deal_damage(ids[3], 2)   # the root's own arrays, written after its clones' ticks
    assert w.tick() == 1 and not w.exists(ids[3])


def test_704_5g_a_restore_is_read_by_the_next_check():
    """A snapshot taken with lethal damage marked, restored after settled ticks: the next
    tick destroys the creature (704.5g); restored to before the damage, it does not."""
    w, ids = _settled()
    before = w.snapshot()
    w.deal_damage(ids[1], 2)
    damaged = w.snapshot()
    w.restore(before)
    assert w.tick() == 0 and w.exists(ids[1])
    w.restore(damaged)
    assert w.tick() == 1 and not w.exists(ids[1])
    w.restore(before)
    assert w.tick() == 0 and w.exists(ids[1])


def test_704_5f_g_a_grown_capacity_is_read_by_the_next_check():
    """Objects added past the store's capacity (its arrays made anew, larger) after
    settled ticks: a new creature with lethal damage and an old one at toughness 0 die."""
    w, ids = _settled()
    capacity = w.store.capacity
    p = w.players()[0]
    more = w.add_objects(capacity, p, "creature", power=1, toughness=3)
    assert w.store.capacity > capacity
    assert w.tick() == 0
    w.deal_damage(int(more[-1]), 3)
    w.put_counters(ids[0], "-1/-1", 2)
    assert w.tick() == 1   # one check acts: both die together (704.3)
    assert not w.exists(int(more[-1])) and not w.exists(ids[0]) and w.exists(ids[1])
