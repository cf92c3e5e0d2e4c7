"""ecs.store: the arrays the systems and move_objects index through flat views.

``move_objects`` and ``World._change`` read and write the count planes and the
(B, C) components through ``reshape(-1)``/``ravel()`` views with flat indices
``game * capacity + column``; on an array that is not C-contiguous those would be copies
and the writes would be lost. Every way a store comes to be must keep them contiguous.
"""
import tracemalloc

import numpy as np

from ecs import World, zones
from ecs.components import ALL_FIELDS, GAME_COLUMN

FLAT = [f.name for f in ALL_FIELDS if f.shape == GAME_COLUMN]


def assert_contiguous(w: World) -> None:
    s = w.store
    assert s.counts.flags.c_contiguous
    for name in FLAT:
        assert s.a[name].flags.c_contiguous, name
        assert s.a[name].shape == (w.batch, s.capacity), name


def played(batch=3, objects=80):
    """A World grown past its first capacity, with kinds added and objects moved."""
    w = World(batch=batch, seed=1)
    p = w.add_player()
    ids = [w.add_object(p, {"creature"}, power=1, toughness=2) for _ in range(objects)]
    for i, kind in enumerate(["+1/+1", "-1/-1", "charge", "shield", "stun", "flying",
                              "loyalty", "lore", "time", "fade"]):   # past 8 planes
        w.put_counters(ids[i], kind, 1)
    w.put_counters(ids[20], "-1/-1", 2, games=[1])
    w.tick()
    return w


def test_store_arrays_stay_contiguous_however_a_world_is_made(tmp_path):
    w = played()
    assert_contiguous(w)
    snap = w.snapshot()
    small = World(batch=3)
    small.restore(snap)                 # into smaller arrays: reallocated
    assert_contiguous(small)
    w.restore(snap)                     # in place
    assert_contiguous(w)
    for other in (w.clone(), w.select([2, 0]), w.fork(1, 4)):
        assert_contiguous(other)
    w.save(tmp_path / "w.npz")
    assert_contiguous(World.load(tmp_path / "w.npz"))


def test_remove_clamped_is_add_clamped_per_kind():
    """perform's one pass over rows shared by several kinds (ecs.store.remove_clamped)
    gives each kind what add_clamped gives it: strictly increasing rows (one pass, two
    kinds or more) and any other rows (repeated ones: every read before any write)."""
    import numpy as np

    from ecs.store import add_clamped, remove_clamped

    rng = np.random.default_rng(5)
    for rows in ("increasing", "repeated", "unsorted"):
        for kinds in ([1], [2, 0], [3, 1, 2]):
            planes = rng.integers(0, 4, (4, 300)).astype(np.int32)
            if rows == "increasing":
                at = np.sort(rng.choice(300, 120, replace=False)).astype(np.int64)
            elif rows == "repeated":
                at = np.sort(rng.integers(0, 300, 120)).astype(np.int64)
            else:
                at = rng.choice(300, 120, replace=False).astype(np.int64)
            amount = rng.integers(0, 4, at.size).astype(np.int64)
            expect = planes.copy()
            ref = [add_clamped(expect[k], at, -amount) for k in kinds]
            before, after, every = remove_clamped(planes, np.array(kinds, np.int64), at, amount)
            assert np.array_equal(planes, expect), (rows, kinds)
            for j, (b, a, e) in enumerate(ref):
                assert np.array_equal(before[j], b) and np.array_equal(after[j], a)
                assert every[j] == e


def test_at_fill_says_so_only_while_every_slot_holds_the_fill():
    """``Store.at_fill``, on which the passes skip reading a host's holds (704.5v) and
    redirects (614.1a): no after a write, and after a restore what the snapshot holds."""
    w = World(batch=2)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    clean = w.snapshot()
    assert w.store.at_fill("sba_hold") and w.store.at_fill("redirect")
    w.set_hold(bear)
    w.set_redirect(bear, "exile", games=[1])
    assert not w.store.at_fill("sba_hold") and not w.store.at_fill("redirect")
    held = w.snapshot()
    w.restore(clean)
    assert w.store.at_fill("sba_hold") and w.store.at_fill("redirect")
    w.restore(held)
    assert not w.store.at_fill("sba_hold") and not w.store.at_fill("redirect")
    w.deal_damage(bear, 5)
    w.tick()
    assert w.zone(bear).tolist() == ["battlefield", "battlefield"]
    w.set_hold(bear, False)
    w.tick()
    assert w.event_table()["to_zone"][-2:].tolist() == [zones.GRAVEYARD, zones.EXILE]


def test_a_snapshot_restored_again_is_trusted_only_if_it_was_read_only():
    """Restoring the snapshot restored last rewrites only what was written since: for the
    engine's own snapshots (read-only values). A caller's writeable copy may change between
    two restores, so each restore of it reads it whole: the second gives the edited count."""
    w = World(seed=0)
    c = w.add_object(w.add_player(), "creature", power=1, toughness=3)
    w.put_counters(c, "+1/+1", 1)
    snap = w.snapshot()
    mine = dict(snap, store={k: v.copy() for k, v in snap["store"].items()})   # writeable
    k = list(mine["store"]["kind_names"]).index("+1/+1")
    col = int(np.flatnonzero(mine["store"]["entity_id"][0] == c)[0])
    for edited in (1, 5):
        mine["store"]["counts"][k, 0, col] = edited
        w.restore(mine)
        assert w.count(c, "+1/+1") == edited
    w.restore(snap)   # (after the copy: the engine's snapshot read as the copy left the arrays)
    assert w.count(c, "+1/+1") == 1
    w.put_counters(c, "+1/+1", 2)
    w.restore(snap)   # (the engine's snapshot again: only the counts are rewritten)
    assert w.count(c, "+1/+1") == 1


def test_a_store_keeps_no_snapshot_its_caller_dropped():
    """The store remembers the snapshot it last took or restored (what its arrays share
    with it), but does not keep it alive: a snapshot dropped (a save's, a check's) frees
    its arrays, and the store goes on, copying what it can no longer share."""
    import gc
    import weakref
    w = World(batch=2, seed=0)
    c = w.add_object(w.add_player(), "creature", power=1, toughness=3)
    kept = w.snapshot()
    w.put_counters(c, "+1/+1", 1)
    gone = weakref.ref(w.snapshot()["store"])
    gc.collect()
    assert gone() is None
    w.put_counters(c, "+1/+1", 1)
    later = w.snapshot()
    w.restore(kept)
    assert w.counters(c).get("+1/+1") is None
    w.restore(later)
    assert w.counters(c)["+1/+1"].tolist() == [2, 2]


def test_a_restore_takes_the_snapshots_kind_names_as_its_own():
    """122.1: counters of a kind used after a restore are the store's, not the snapshot's:
    restoring the snapshot again (a search's undo), or in another World, gives the kinds it
    was taken with, whatever kinds were used in between."""
    w = World(seed=0)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2, counters={"+1/+1": 1})
    snap = w.snapshot()
    w.put_counters(bear, "shield", 1)
    w.restore(snap)                      # other kind names than the store's
    w.put_counters(bear, "stun", 1)      # a kind new since the snapshot
    w.restore(snap)
    other = World(seed=0)
    other.restore(snap)
    for world in (w, other):
        assert world.counters(bear) == {"+1/+1": 1}
        assert world.store.kind_names == ["+1/+1"]


def _made_beside(graveyard: int) -> tuple[int, int, int]:
    """(the column of a token that ceased to exist, the column of the next object made,
    peak bytes of making one more) in one game with ``graveyard`` cards in its graveyard."""
    w = World(seed=0)
    me = w.add_player()
    w.add_objects(graveyard, me, "creature", zone="graveyard", power=1, toughness=1)
    tok = w.add_object(me, "creature", power=1, toughness=1, token=True)
    w.add_object(me, "creature", power=2, toughness=2)
    freed = w.store.present(0, tok)
    w.sacrifice(tok)
    w.tick()   # the token ceases to exist (704.5d): its slot is free
    reused = w.store.present(0, w.add_object(me, "artifact"))
    tracemalloc.start()
    try:
        w.add_object(me, "artifact")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return freed, reused, peak


def test_an_object_made_late_in_a_game_takes_the_first_free_slot_without_copying_the_slots():
    """A game's graveyard keeps its cards' slots; an object made then takes the lowest
    free slot (one a token left, 704.5d, 111.7), found without a copy of every slot's id:
    making it allocates less than two bytes per slot more beside 20,000 cards than
    beside 2,000."""
    freed, reused, small = _made_beside(2_000)
    assert reused == freed > 2_000
    _, _, large = _made_beside(20_000)
    assert large - small < 2 * 18_000, (small, large)


def test_derived_values_are_kept_for_the_layouts_used_lately_in_a_clone_family():
    """``Store.derived`` keeps the values of ``_DERIVED_LAYOUTS`` kinds layouts for a store
    and its clones, the least used lately dropped first: a layout used again survives; a
    dropped one is made again, not read stale."""
    from ecs import store as store_module
    root = World(seed=0)
    p = root.add_player()
    c = root.add_object(p, "creature", power=1, toughness=1)
    made: list[tuple[str, ...]] = []

    def names_of(s):
        made.append(tuple(s.kind_names))
        return tuple(s.kind_names)

    def ask(w):
        return w.store.derived("test names", names_of, (w.store,))

    ask(root)
    bound = store_module._DERIVED_LAYOUTS
    kinds = ["charge", "lore", "time", "fade", "age", "gem", "ice", "ki", "luck", "net"]
    assert len(kinds) > bound
    for kind in kinds:   # a clone per layout, each asked once; the root's asked again each time
        w = root.clone()
        w.put_counters(c, kind, 1)
        assert ask(w) == tuple(w.store.kind_names)
        assert ask(root) == ()
    assert made.count(()) == 1   # the root's layout, used lately throughout, was never dropped
    assert len(root.store._derived) == bound
    first = root.clone()
    first.put_counters(c, kinds[0], 1)   # the first clone's layout: dropped long ago
    calls = len(made)
    assert ask(first) == (kinds[0],)
    assert len(made) == calls + 1
