"""The single-game paths' plain reads and writes: ``Store.views`` (memoryviews of the arrays,
valid per array version) and ``Store._clean`` (the object-state fields known to hold their
fill everywhere, whose reset a zone change skips).

A view that outlived its array would read stale values, or write into an array a clone
still shares; a field wrongly taken for clean would leave the old object's state on the
new one (400.7). Each test fails when that machinery is broken.
"""
from __future__ import annotations

import copy
import pickle

import numpy as np

from ecs import World


def _world() -> tuple[World, int, int]:
    w = World()
    p = w.add_player()
    w.add_player()
    a = w.add_object(p, "creature", power=1, toughness=3)
    b = w.add_object(p, "creature", power=1, toughness=3)
    w.put_counters(a, "+1/+1", 2)
    return w, a, b


def test_a_clones_write_does_not_reach_its_source_through_the_views() -> None:
    """The source has read through its views; the clone's put copies the counts (copy on
    write) and writes the copy: the source still has 2 +1/+1 counters (122.6)."""
    w, a, _ = _world()
    assert w.count(a, "+1/+1") == 2   # the source's views made
    other = w.clone()
    other.put_counters(a, "+1/+1", 3)
    other.deal_damage(a, 1)
    assert (other.count(a, "+1/+1"), other.damage(a)) == (5, 1)
    assert (w.count(a, "+1/+1"), w.damage(a)) == (2, 0)
    w.put_counters(a, "+1/+1", 1)   # and the source's own write reaches the clone no more
    assert (w.count(a, "+1/+1"), other.count(a, "+1/+1")) == (3, 5)


def _views_over_own_arrays(w: World) -> bool:
    s = w.store
    return all(view.obj is (s.counts if name == "counts" else s.a[name]) for name, view in s.views().items())


def test_a_clone_and_its_source_share_the_views_of_the_arrays_they_share(monkeypatch) -> None:
    """Without the tests' read-only guard (which starts a clone's views afresh): a clone
    takes its source's views, a view the clone makes of a shared array is its source's too,
    and a copy on write on either side gives that side a view of its own copy, the other
    views going on (``Views.rebase``). Every view is of its own store's array throughout."""
    import ecs.store
    monkeypatch.setattr(ecs.store, "CHECK_SHARING", False)
    w, a, b = _world()
    assert w.count(a, "+1/+1") == 2
    c = w.clone()
    assert "counts" in c.store.views()                # taken at the clone, not made again
    assert c.store.views()["counts"] is w.store.views()["counts"]
    assert "tapped" not in w.store.views()
    tapped = c.store.views()["tapped"]                # made by the clone...
    assert w.store.views().get("tapped") is tapped   # ...is its source's too
    views = c.store.views()
    c.deal_damage(b, 1)   # the clone copies the marked damage: its views go on
    assert c.store.views() is views
    assert views["damage"].obj is c.store.a["damage"] is not w.store.a["damage"]
    w.put_counters(b, "+1/+1", 1)   # the source copies the counts
    assert (w.count(b, "+1/+1"), c.count(b, "+1/+1"), w.damage(b), c.damage(b)) == (1, 0, 0, 1)
    assert (w.count(a, "+1/+1"), c.count(a, "+1/+1")) == (2, 2)
    assert _views_over_own_arrays(w) and _views_over_own_arrays(c)


def test_a_chain_of_clones_lets_the_older_worlds_arrays_go(monkeypatch) -> None:
    """Self-play that clones the last World, acts on the clone and drops the last: the
    views of each clone lead to its source's only until its first copy on write, so the
    dropped Worlds' arrays are freed (they were kept alive along the whole chain)."""
    import gc
    import weakref

    import ecs.store
    monkeypatch.setattr(ecs.store, "CHECK_SHARING", False)
    w, a, _ = _world()
    assert w.count(a, "+1/+1") == 2
    older = []
    for _ in range(20):
        c = w.clone()
        c.put_counters(a, "+1/+1", 1)   # the clone copies the counts
        older.append(weakref.ref(w.store.counts))
        w = c
    gc.collect()
    assert w.count(a, "+1/+1") == 22
    assert sum(ref() is not None for ref in older) <= 1


def test_views_follow_an_array_replaced_by_growth() -> None:
    """New kinds past the first planes and objects past the first columns replace the
    arrays: reads and writes go to the new ones."""
    w, a, _ = _world()
    assert w.count(a, "+1/+1") == 2
    kinds = ("charge", "lore", "time", "fade", "ice", "age", "blood")
    for kind in kinds:
        w.put_counters(a, kind, 1)
    new = [w.add_object(0, "creature", power=1, toughness=1) for _ in range(80)]
    w.put_counters(new[-1], "+1/+1", 4)
    assert w.counters(a) == {"+1/+1": 2, **dict.fromkeys(kinds, 1)}
    assert w.count(new[-1], "+1/+1") == 4
    v = w.store.views()
    assert v["counts"].obj is w.store.counts and v["zone"].obj is w.store.a["zone"]


def test_400_7_a_restored_state_is_reset_by_the_next_zone_change() -> None:
    """A World that never tapped nor damaged anything restores a snapshot of one that did:
    the object moved after the restore (and after restoring it again, the search's undo)
    is a new object, untapped and undamaged (400.7, 120.6), on both restores."""
    src, a, _ = _world()
    src.tap(a)
    src.deal_damage(a, 1)
    snap = src.snapshot()
    w = src.clone()
    w.restore(World().snapshot())   # (a fresh store: nothing tapped or damaged)
    assert "tapped" in w.store._clean
    for _ in range(2):
        w.restore(snap)
        assert (w.is_tapped(a), w.damage(a)) == (True, 1)
        new = w.move_zone(a, "hand")
        s = w.store
        col = s.present(0, new)
        assert (bool(s.a["tapped"][0, col]), int(s.a["damage"][0, col])) == (False, 0)


def test_400_7_a_big_batchs_restore_knows_which_fields_no_object_set() -> None:
    """A restore of a batch of more than 16,384 slots finds the object-state fields that
    hold their fill everywhere, as a small store's does: a zone change after it skips
    them, and resets those some object set (400.7: the new object is untapped)."""
    w = World(batch=48, seed=0)
    p = w.add_player()
    ids = w.add_objects(400, p, "creature", power=1, toughness=1)
    assert w.batch * w.store.n_cols > 16_384
    first = int(ids[0])
    untouched = w.snapshot()
    w.tap(first)
    tapped = w.snapshot()
    w.restore(untouched)
    assert {"tapped", "immortal", "sba_hold"} <= w.store._clean
    w.restore(tapped)
    assert "tapped" not in w.store._clean and "immortal" in w.store._clean
    new = w.move_zone(first, "hand")
    s = w.store
    cols = s.locate(np.arange(w.batch), np.full(w.batch, int(new)))
    assert not s.a["tapped"][np.arange(w.batch), cols].any()


def test_a_write_makes_a_field_dirty_for_the_next_zone_change() -> None:
    """Tapping and damage after the World was made (and restored) are reset when the
    object changes zones (400.7)."""
    w, a, _ = _world()
    w.restore(w.snapshot())
    assert "tapped" in w.store._clean
    w.tap(a)
    w.deal_damage(a, 1, deathtouch=True)
    new = w.move_zone(a, "hand")
    col = w.store.present(0, new)
    for field in ("tapped", "damage", "deathtouch_hit"):
        assert not w.store.a[field][0, col], field


def test_a_store_with_views_copies_and_pickles() -> None:
    """Memoryviews don't pickle: a copy of a World whose views (and its id index's) were
    made reads the same and writes its own arrays."""
    w, a, b = _world()
    w.destroy(b)   # (the id index's views too)
    assert w.count(a, "+1/+1") == 2
    for other in (copy.deepcopy(w), pickle.loads(pickle.dumps(w))):
        other.put_counters(a, "+1/+1", 1)
        assert (other.count(a, "+1/+1"), w.count(a, "+1/+1")) == (3, 2)
        assert np.array_equal(other.store.a["entity_id"], w.store.a["entity_id"])


def test_a_store_that_grows_or_restores_into_new_arrays_keeps_no_old_one_alive() -> None:
    """Views of arrays a growth or a restore replaced would only keep them alive: at
    4,096 games, the first width's arrays were 3.5 MB held for nothing all run long."""
    import gc
    import weakref

    big, a, _ = _world()
    big.add_objects(big.store.capacity, 0, "artifact")
    wide = big.snapshot()                                  # more columns than a new World has
    for replace in ("grow", "restore"):
        w, a, _ = _world()
        s = w.store
        assert w.count(a, "+1/+1") == 2                    # a read through the views
        slots = [arr for arr in s.a.values() if arr.shape == (w.batch, s.capacity)]
        old = [weakref.ref(s.counts), *map(weakref.ref, slots)]
        del slots
        if replace == "grow":
            w.add_objects(s.capacity, 0, "artifact")
        else:
            w.restore(wide)                                # too wide: restore makes new arrays
        assert w.count(a, "+1/+1") == 2
        gc.collect()
        assert [r() is None for r in old] == [True] * len(old), replace


def test_a_store_whose_clones_are_gone_writes_after_a_restore() -> None:
    """With the tests' read-only guard: views made while a clone shared the arrays are
    read-only; once the clone is gone a restore gives the arrays back to this store, and
    its single-game writes (a counter, 122.1; a tap) go through views made afresh."""
    w, a, _ = _world()
    snap = w.snapshot()
    c = w.clone()
    assert (w.count(a, "+1/+1"), w.is_tapped(a)) == (2, False)   # views of shared arrays
    del c
    w.restore(snap)
    w.put_counters(a, "+1/+1", 1)
    w.tap(a)
    assert (w.count(a, "+1/+1"), w.is_tapped(a)) == (3, True)
