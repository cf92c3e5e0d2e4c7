"""World.clone() without __init__ and Store.restore() in place: what they share (a clone's
arrays until either side writes them: copy on write), what they build lazily, and that
neither changes what a snapshot gives back."""

import numpy as np
import pytest

from ecs import World

try:
    from state import full_state
    from test_search import busy_world, more_actions
except ImportError:  # pragma: no cover - imported as a package
    from tests.state import full_state
    from tests.test_search import busy_world, more_actions


def _arrays(w: World) -> dict:
    s = w.store
    return {"counts": s.counts, **s.a}


def test_a_clone_shares_its_arrays_until_one_side_writes_them():
    # Copy on write (Store.mut): a clone copies no array; the first write on either side
    # copies the written array only, and the other side never sees the write.
    w, _ = busy_world()
    c = w.clone()
    src, dst = _arrays(w), _arrays(c)
    assert src.keys() == dst.keys()
    assert all(src[name] is dst[name] for name in src)
    assert w.store._shared == c.store._shared == src.keys()   # every array copies on write
    assert c.store.kind_names is not w.store.kind_names
    assert c.store.kind_index is not w.store.kind_index and c.names is not w.names
    zone = c.store.mut("zone")
    assert zone is not w.store.a["zone"] and np.array_equal(zone, w.store.a["zone"])
    assert c.store.mut("zone") is zone                 # copied once, then its own
    assert c.store.a["life"] is w.store.a["life"]      # arrays not written stay shared
    counts = w.store.mut("counts")                     # the source copies too
    assert counts is not c.store.counts and np.array_equal(counts, c.store.counts[: counts.shape[0]])


def test_shared_arrays_are_read_only_while_the_tests_check_sharing():
    # tests/conftest.py sets CHECK_SHARING: a write that bypasses Store.mut raises here
    # instead of silently reaching the other world.
    import ecs.store
    assert ecs.store.CHECK_SHARING
    w, _ = busy_world()
    c = w.clone()
    for arr in _arrays(w).values():
        assert not arr.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        c.store.a["tapped"][0, 0] = True
    c.store.mut("tapped")[0, 0] = True
    assert c.store.a["tapped"][0, 0] and not w.store.a["tapped"][0, 0]


def test_a_clone_has_every_attribute_of_its_source():
    # A new attribute of World or Store must be handled by clone() (copied or rebuilt).
    w, _ = busy_world()
    c = w.clone()
    assert vars(c).keys() == vars(w).keys()
    assert vars(c.store).keys() == vars(w.store).keys()
    assert vars(c.log).keys() == vars(w.log).keys()


def test_writes_to_a_clone_never_reach_the_source_and_back():
    w, ids = busy_world()
    c = w.clone()
    before = full_state(w)
    for name in _arrays(c):     # scribble on every array of the clone
        c.store.mut(name)[...] = 1
    assert full_state(w) == before
    c = w.clone()
    cloned = full_state(c)
    for name in _arrays(w):
        w.store.mut(name)[...] = 1
    assert full_state(c) == cloned


def test_copy_on_write_holds_for_arrays_written_before_the_clone():
    # A single game's writes (Store.write) skip mut's bookkeeping for an array already
    # written and owned; a clone makes every array shared again on both sides, so the next
    # write on either side still copies first (read-only shared arrays here would raise).
    w = World()
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=4)
    w.put_counters(bear, "+1/+1", 1)
    w.deal_damage(bear, 1)
    c = w.clone()
    w.put_counters(bear, "+1/+1", 1)
    w.deal_damage(bear, 1)
    assert (c.count(bear, "+1/+1"), c.damage(bear)) == (1, 1)
    assert (w.count(bear, "+1/+1"), w.damage(bear)) == (2, 2)
    c.put_counters(bear, "+1/+1", 5)
    c.deal_damage(bear, 2)
    assert (w.count(bear, "+1/+1"), w.damage(bear)) == (2, 2)
    assert (c.count(bear, "+1/+1"), c.damage(bear)) == (6, 3)


def test_restore_into_a_world_that_shares_its_arrays_leaves_the_other_alone():
    w, ids = busy_world()
    snap = w.snapshot()
    more_actions(w, ids)
    c = w.clone()
    later = full_state(c)
    w.restore(snap)              # fresh arrays, not writes into the shared ones
    assert full_state(c) == later
    c.restore(snap)
    assert full_state(c) == full_state(w)


def test_restore_after_every_clone_is_gone_writes_in_place():
    """Once every clone of a World is gone, its arrays are its own again: a restore writes
    them in place (no array made anew, as while a clone lives) and gives back the snapshot's
    state exactly."""
    w, ids = busy_world()
    snap = w.snapshot()
    w.restore(snap)
    before = full_state(w)
    c = w.clone()
    more_actions(c, ids)
    del c
    arrays = _arrays(w)
    w.restore(snap)
    assert all(arrays[name] is arr for name, arr in _arrays(w).items())
    assert full_state(w) == before
    more_actions(w, ids)
    w.restore(snap)
    assert full_state(w) == before
    w.put_counters(ids["walker"], "loyalty", 1)   # written before a clone: restored too
    c = w.clone()
    del c
    w.restore(snap)
    assert full_state(w) == before


def test_the_event_log_is_shared_by_chunk_but_independent():
    w, ids = busy_world()
    c = w.clone()
    events = w.events()
    assert events and c.events() == events
    c.put_counters(ids["walker"], "loyalty", 1, games=0)
    assert w.events() == events
    w.clear_events()
    assert c.events()[: len(events)] == events and len(c.events()) == len(events) + 1
    w.put_counters(ids["walker"], "loyalty", 2, games=0)
    assert len(w.events()) == 1 and len(c.events()) == len(events) + 1


def test_clones_of_clones_draw_the_same_numbers_and_spawn_the_same_seeds():
    w, ids = busy_world()
    w.rng.random(5)
    c = w.clone()
    cc = c.clone()                       # a clone of a clone whose generator was never built
    draws = [x.rng.random(4).tolist() for x in (w, c, cc)]
    assert draws[0] == draws[1] == draws[2]
    seeds = [[s.generate_state(2).tolist() for s in x.spawn_seeds(2)] for x in (w, c, cc)]
    assert seeds[0] == seeds[1] == seeds[2]
    c.seed_seq.spawn(3)                  # SeedSequence.spawn mutates: not shared
    assert w.seed_seq.n_children_spawned == 0 and cc.seed_seq.n_children_spawned == 0


def test_a_clone_snapshots_the_generator_state_it_was_made_with_before_it_draws():
    """A clone builds its generator on first use; until then its snapshot (and so its save
    file and its own clones) holds the state its source's generator had, not a fresh one."""
    w = World(seed=3)
    w.rng.random(5)
    c = w.clone()
    assert c._rng is None and c.snapshot()["rng"] == w.snapshot()["rng"]
    assert c.clone().rng.random(2).tolist() == c.rng.random(2).tolist() == w.rng.random(2).tolist()


def test_the_same_actions_on_a_clone_and_its_source_give_the_same_state():
    w, ids = busy_world()
    c = w.clone()
    cc = c.clone()
    for x in (w, c, cc):
        more_actions(x, ids)
    assert full_state(w) == full_state(c) == full_state(cc)


def test_clones_share_the_schedule():
    """Systems keep no game state (they decide from the World they are given), so a clone
    runs the same schedule; it builds none of its own."""
    w, ids = busy_world()
    w.tick()
    c = w.clone()
    c.tick()
    assert c.schedule is w.schedule


def test_restore_a_bigger_snapshot_into_a_clone_with_less_room():
    w = World(batch=2, seed=5)
    p = w.add_player()
    small = w.clone()
    w.add_objects(300, p, {"creature"}, power=1, toughness=1, counters={"+1/+1": 1, "charge": 2})
    snap = w.snapshot()
    small.restore(snap)
    assert full_state(small) == full_state(w)
    for x in (w, small):
        x.add_objects(700, p, {"artifact"}, counters={"oil": 1})
        x.tick()
    assert full_state(small) == full_state(w)


def test_restore_in_place_resets_what_the_later_state_used():
    # Columns and kind planes used after the snapshot must read as new again after restore.
    w, ids = busy_world()
    snap = w.snapshot()
    fresh, _ = busy_world()
    more_actions(w, ids)
    w.add_objects(100, ids["p"], {"creature"}, counters={"+1/+1": 3, "another kind": 1})
    w.restore(snap)
    assert full_state(w) == full_state(fresh)
    more_actions(w, ids)
    more_actions(fresh, ids)
    assert full_state(w) == full_state(fresh)


def test_restore_leaves_room_for_more_objects():
    w = World(seed=1)
    p = w.add_player()
    c = w.clone()
    w.add_objects(1000, p, {"creature"}, power=1, toughness=1)
    c.restore(w.snapshot())               # c had no room: fresh arrays, with headroom
    counts = c.store.counts
    c.add_object(p, {"creature"}, power=1, toughness=1)
    assert c.store.counts is counts       # the next object did not reallocate


@pytest.mark.parametrize("copy", ["clone", "fork", "select"])
def test_clone_fork_and_select_keep_the_configuration_and_the_schedule(copy):
    """A copy ticks as its source does: the same check limit, scalar_reads setting and
    schedule (a host's systems included)."""
    w = World(batch=2, seed=4, max_passes=7, scalar_reads=False)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    w.schedule = w.schedule.with_systems()
    c = {"clone": w.clone, "fork": lambda: w.fork(1, 1), "select": lambda: w.select([1])}[copy]()
    assert (c.max_passes, c.scalar_reads, c.two_headed_giant) == (7, False, False)
    assert c.schedule is w.schedule
    assert type(c.power(bear)) is np.ndarray


@pytest.mark.parametrize("copy", ["clone", "fork", "select"])
def test_810_10a_a_copy_of_a_two_headed_giant_world_keeps_its_teams(copy):
    """A clone, fork or select of a Two-Headed Giant World plays Two-Headed Giant too: a
    player's poison counters are the team's (810.10a), in the copy as in its source."""
    w = World(batch=2, seed=4, two_headed_giant=True)
    a, b, c, d = (w.add_player(team=t) for t in (0, 0, 1, 1))
    x = {"clone": w.clone, "fork": lambda: w.fork(1, 2), "select": lambda: w.select([1, 0])}[copy]()
    assert x.two_headed_giant
    x.put_counters(a, "poison", 2)
    assert [x.count(p, "poison").tolist() for p in (a, b, c, d)] == [[2, 2], [2, 2], [0, 0], [0, 0]]
    assert x.snapshot()["config"] == ("mtg", 2, True)


def test_a_generator_taken_from_rng_follows_restore():
    """``rng`` is restored in place: a generator a host keeps draws, after ``restore``, the
    numbers the snapshot's state gives, as ``world.rng`` does."""
    w = World(seed=8)
    rng = w.rng
    snap = w.snapshot()
    first = rng.random(3).tolist()
    w.restore(snap)
    assert rng.random(3).tolist() == first and w.rng is rng
