"""ecs.store's array version, and the probe's arguments cached under it (systems.settled).

A settled check calls its kernel with arguments cached per store under the store's array
version: every path that replaces an array object (copy on write in a clone, growth, a
new kind past the planes, a restore, a new player, a new cap entry, a direct assignment)
must change the version, or a check would read an array the store no longer holds and
miss what the rules make happen (704.3). Each path is exercised on a World whose cache is
filled, then the cached arguments must be exactly the arrays the store holds.
"""
from __future__ import annotations

import copy
import pickle
from typing import Any, Callable

import numpy as np
import pytest

from ecs import StaleEntityError, World, stats
from ecs.store import Arrays, kinds_layout
from ecs.systems import settled

PARTS = (settled.ZONE_CHANGE | settled.ANNIHILATION | settled.CAPS | settled.DEATHS
         | settled.LOSSES | settled.EMPTY_DRAW | settled.MARKED)   # as the schedule asks


def _world() -> tuple[World, list[int]]:
    w = World()
    p = w.add_player()
    w.add_player()
    ids = [w.add_object(p, {"creature"}, power=1, toughness=2) for _ in range(4)]
    w.put_counters(ids[0], "+1/+1", 1)
    w.set_cap(ids[1], "charge", 3)
    w.tick()
    return w, ids


def _assert_cache_current(w: World) -> None:
    """The arguments cached for the first check are the ones built now from the store, and
    its address table names the arrays the store holds now (``ecs.kernels.addresses``)."""
    w.tick()   # fills (or hits) the cache
    key, cached = w.store.memo
    assert key[0] == w.store.arrays_version()
    fresh = settled._arguments(w, None, None, PARTS)
    assert type(cached) is tuple and type(fresh) is tuple
    (args, (arrays, ints)), (fresh_args, (fresh_arrays, fresh_ints)) = cached, fresh
    assert len(args) == len(fresh_args) and ints == fresh_ints
    table = args[1]
    assert len(table) == len(arrays) + len(ints) and tuple(table[len(arrays):, 0]) == ints
    for i, (old, new) in enumerate(zip(arrays, fresh_arrays)):
        assert old is new or (old.size == 0 and new.size == 0 and old.dtype == new.dtype), i
        assert table[i, 0] == old.ctypes.data and tuple(table[i, 1: 1 + old.ndim]) == old.shape, i
    for i, (old, new) in enumerate(zip(args, fresh_args)):
        if i == len(fresh_args) - 1:   # the room for the rows found: a scratch buffer of the same shape
            assert old.shape == new.shape and old.dtype == new.dtype
        elif isinstance(new, np.ndarray) and i != 1:
            assert old is new or (old.size == 0 and new.size == 0 and old.dtype == new.dtype), i
        elif i != 1:
            assert old == new, i


def _grow(w: World, ids: list[int]) -> None:
    for _ in range(80):   # past the first capacity: every (games, columns) array regrown
        w.add_object(0, {"creature"}, power=1, toughness=1)


def _new_kinds(w: World, ids: list[int]) -> None:
    for kind in ("charge", "shield", "stun", "lore", "time", "fade", "ice", "age", "blood"):
        w.put_counters(ids[2], kind, 1)   # past the first planes: counts regrown


def _restore_bigger(w: World, ids: list[int]) -> None:
    big = w.clone()
    _grow(big, ids)
    w.restore(big.snapshot())   # more columns than this store's arrays: reallocated


def _player(w: World, ids: list[int]) -> None:
    w.add_player()


def _new_cap(w: World, ids: list[int]) -> None:
    w.set_cap(ids[3], "shield", 1)


def _assign(w: World, ids: list[int]) -> None:
    w.store.a["zone"] = w.store.a["zone"].copy()


def _assign_counts(w: World, ids: list[int]) -> None:
    w.store.counts = w.store.counts.copy()


def _clone_writes(w: World, ids: list[int]) -> None:
    w.clone()   # this store's arrays become shared: its next writes copy them
    w.put_counters(ids[2], "-1/-1", 1)
    w.deal_damage(ids[3], 1)


PATHS: list[Callable[[World, list[int]], None]] = [
    _grow, _new_kinds, _restore_bigger, _player, _new_cap, _assign,
    _assign_counts, _clone_writes]


@pytest.mark.parametrize("path", PATHS, ids=lambda f: f.__name__)
def test_every_array_replacement_invalidates_the_cached_arguments(path: Any) -> None:
    w, ids = _world()
    _assert_cache_current(w)
    before = w.store.arrays_version()
    path(w, ids)
    assert w.store.arrays_version() != before
    _assert_cache_current(w)


def test_a_restore_in_place_keeps_the_cache_and_checks_the_restored_values() -> None:
    """A restore into arrays of the same shapes writes them in place (the version, and the
    cached arguments, stay); the next tick reads the restored values: 704.5g."""
    w, ids = _world()
    settled_snap = w.snapshot()
    w.deal_damage(ids[2], 2)
    lethal = w.snapshot()
    w.restore(settled_snap)
    assert w.tick() == 0
    version = w.store.arrays_version()
    w.restore(lethal)
    assert w.store.arrays_version() == version
    _assert_cache_current(w)   # its tick: the creature with lethal damage dies
    with pytest.raises(StaleEntityError):
        w.zone(ids[2])


def test_a_clone_checks_its_own_arrays_not_its_sources() -> None:
    """704.5g: a clone's creature with lethal damage dies on its tick, though the source
    (whose cached arguments the clone starts with) stays settled."""
    w, ids = _world()
    w.tick()
    other = w.clone()
    other.deal_damage(ids[2], 2)   # copies the damage array (no new kind or object)
    assert other.tick() == 1
    with pytest.raises(StaleEntityError):   # put into the graveyard: a new object (400.7)
        other.zone(ids[2])
    assert w.zone(ids[2]) == "battlefield"
    assert w.tick() == 0


@pytest.mark.parametrize("write", [
    lambda a: a.__setitem__("x", np.zeros(1)), lambda a: a.__delitem__("z"),
    lambda a: a.update(x=np.zeros(1)), lambda a: a.__ior__({"x": np.zeros(1)}),
    lambda a: a.setdefault("x", np.zeros(1)), lambda a: a.pop("z"), lambda a: a.popitem(),
    lambda a: a.clear()])
def test_every_way_of_writing_the_arrays_dict_bumps_its_version(write: Any) -> None:
    a = Arrays(z=np.zeros(1))
    v = a.version
    write(a)
    assert a.version != v


def test_versions_are_unique_across_stores() -> None:
    """A clone starts at its source's version (the same arrays) and leaves it on its first
    replacement, to a version the source never has."""
    w, ids = _world()
    other = w.clone()
    assert other.store.arrays_version() == w.store.arrays_version()
    other.put_counters(ids[2], "-1/-1", 1)
    w.put_counters(ids[2], "-1/-1", 1)
    assert other.store.arrays_version() != w.store.arrays_version()


def test_a_copied_or_pickled_store_leaves_the_cached_arguments_behind() -> None:
    """Versions are unique within a process only: a deep copy or a pickle starts empty,
    and its tick still decides (704.5g)."""
    w, ids = _world()
    w.tick()
    assert w.store.memo[0]
    for store in (copy.deepcopy(w.store), pickle.loads(pickle.dumps(w.store))):
        assert store.memo == ((), None)
    other = copy.deepcopy(w)
    other.deal_damage(ids[2], 2)
    assert other.tick() == 1


def test_a_search_whose_children_make_a_new_kind_keeps_its_cached_values() -> None:
    """One kinds-layout id per tuple of kind names: children of one root that each make a
    kind the root lacks come back to that kind's id and to the values derived under it;
    children making another kind in the same plane get another id. Each child's tick (its
    cached arguments current) still decides what its own state makes happen: 10 poison
    counters, 704.5c; a stun counter, nothing."""
    w, ids = _world()
    player = int(w.store.a["entity_id"][0, w.store.a["player_col"][0]])
    root = w.snapshot()
    seen: dict[str, tuple[int, Any]] = {}
    for kind in ("poison", "stun", "poison", "stun"):
        w.restore(root)
        w.put_counters(player if kind == "poison" else ids[2], kind, 10 if kind == "poison" else 1)
        _assert_cache_current(w)
        assert bool(w.has_lost(player)) == (kind == "poison")
        planes = stats.pt_planes(w, 1)
        first = seen.setdefault(kind, (w.store.kinds_layout, planes))
        assert w.store.kinds_layout == first[0] and planes is first[1], kind
    assert seen["poison"][0] != seen["stun"][0]


def test_layout_ids_stay_in_their_process() -> None:
    """Layout ids, like array versions, are one process's numbers: a pickled or copied
    store takes fresh ones and leaves the values derived under the old ones behind (another
    process's counter could give its next layout an old number), and a pickled snapshot's
    id reads back as None, so its restore takes a fresh one; in this process a snapshot's
    restore keeps its id. Either way the state and the next tick are the same (704.5g)."""
    w, ids = _world()
    snap = w.snapshot()
    w.tick()
    assert w.store._derived   # (values derived per layout: the cache the ids key)
    for store in (copy.deepcopy(w.store), pickle.loads(pickle.dumps(w.store))):
        assert store._derived == {} and store.layout != w.store.layout
        assert store.kinds_layout == kinds_layout(tuple(store.kind_names))   # (this process's)
    back = pickle.loads(pickle.dumps(snap))
    assert back["layout"] is None and copy.deepcopy(snap)["layout"] is None
    w.restore(snap)
    assert w.store.layout == snap["layout"]
    other = w.clone()
    other.restore(back)
    assert other.store.layout not in (snap["layout"], w.store.layout)
    for x in (w, other):
        x.deal_damage(ids[2], 2)
    assert w.tick() == other.tick() == 1
    for name, column in w.snapshot()["store"].items():
        np.testing.assert_array_equal(other.snapshot()["store"][name], column, err_msg=name)


def test_a_root_and_its_clones_share_one_address_table() -> None:
    """The probe's address table (``ecs.kernels.addresses``) is made once for a root and
    its clones (``Store.tables``), as long as its arrays are theirs; a clone whose table
    array was replaced (a host's toughness change, copied on write) gets its own, and each
    tick reads its own World's arrays: the clone's 0-toughness creature dies (704.5f),
    the root's does not."""
    w, ids = _world()
    first = w.clone()
    first.deal_damage(ids[3], 1)
    assert first.tick() == 0
    table = first.store.memo[1][0][1]
    second = w.clone()
    second.put_counters(ids[2], "+1/+1", 1)
    assert second.tick() == 0
    assert second.store.memo[1][0][1] is table   # the same table: its arrays are the root's
    third = w.clone()
    third.modify_pt(ids[2], toughness=-2)   # copies the toughness array (a table row)
    assert third.tick() == 1
    assert third.store.memo[1][0][1] is not table
    with pytest.raises(StaleEntityError):
        third.zone(ids[2])
    _assert_cache_current(third)
    assert w.tick() == 0 and w.zone(ids[2]) == "battlefield"
    _assert_cache_current(w)


def test_clones_that_differ_in_their_kinds_keep_one_address_table_each(monkeypatch) -> None:
    """A search's clones of a root, some making a kind the root has none of (a first -1/-1
    counter gets a plane), keep one address table per kinds layout in the dict they share
    (``Store.tables``): the table is made once for each, not again whenever the clone
    ticked before had the other layout. Each tick still reads its own World: the clone's
    creature given lethal -1/-1 counters dies (704.5f), the one dealt 1 damage does not
    (704.5g), and the root's live on."""
    from ecs import kernels
    w, ids = _world()
    made: list[int] = []
    addresses = kernels.addresses
    monkeypatch.setattr(kernels, "addresses", lambda *a, **k: made.append(1) or addresses(*a, **k))
    for round_ in range(3):
        countered = w.clone()
        countered.put_counters(ids[2], "-1/-1", 2)   # a new kind: another layout
        assert countered.tick() == 1
        with pytest.raises(StaleEntityError):
            countered.zone(ids[2])
        damaged = w.clone()
        damaged.deal_damage(ids[3], 1)   # the root's layout
        assert damaged.tick() == 0 and damaged.damage(ids[3]) == 1
        assert len(made) == 1, round_   # the -1/-1 layout's, once
        _assert_cache_current(countered)
        _assert_cache_current(damaged)
    assert w.tick() == 0 and w.zone(ids[2]) == w.zone(ids[3]) == "battlefield"


def test_a_store_keeps_the_address_tables_of_its_last_few_kinds_layouts() -> None:
    """The tables kept per kinds layout are bounded (``settled._TABLES_KEPT``): a long
    family of clones that keeps making new kinds holds the newest, not one per kind ever
    made (each table holds its arrays alive)."""
    w, ids = _world()
    kinds = ["-1/-1", "charge", "oil", "lore", "shield", "stun", "time"]
    for kind in kinds:
        w.put_counters(ids[3], kind, 1)
        w.tick()
    kept = [k for k in w.store.tables if k[0] == settled._PROBE_TABLE]
    assert len(kept) == settled._TABLES_KEPT
    assert kept[-1] == (settled._PROBE_TABLE, w.store.kinds_layout)
    _assert_cache_current(w)
    # the least used lately goes first: a root's layout that its clones keep using stays
    root, ids = _world()
    mine = (settled._PROBE_TABLE, root.store.kinds_layout)
    for kind in kinds:
        other = root.clone()
        other.put_counters(ids[3], kind, 1)   # a layout of its own
        assert other.tick() == 0
        assert mine in root.store.tables
        again = root.clone()
        again.deal_damage(ids[3], 1)   # the root's
        assert again.tick() == 0
        _assert_cache_current(other)


def test_an_address_table_made_from_an_earlier_one_equals_one_made_afresh() -> None:
    """``addresses(..., last=)`` takes the rows of the arrays that are the same objects as
    the earlier table's and makes the others: the table is the one made from nothing, an
    array swapped for another (of another shape) and an int changed included."""
    from ecs import kernels
    declared = (kernels.array(np.int32, 2), kernels.array(np.int8, 1), kernels.I64, kernels.I64)
    a, b = np.zeros((2, 5), np.int32), np.zeros(7, np.int8)
    first = kernels.addresses((a, b, 3, 4), declared)
    c = np.zeros((3, 4), np.int32)
    for values in ((a, b, 3, 4), (c, b, 3, 9), (a, np.zeros(2, np.int8), 5, 4)):
        again = kernels.addresses(values, declared, ((a, b, 3, 4), first))
        np.testing.assert_array_equal(again, kernels.addresses(values, declared))
        assert not again.flags.writeable
    with pytest.raises(TypeError, match="row 1 of an address table"):
        kernels.addresses((a, np.zeros(7, np.int16), 3, 4), declared, ((a, b, 3, 4), first))


def test_a_clones_first_check_takes_the_cached_arguments_with_its_own_written_arrays(monkeypatch) -> None:
    """A clone's actions copy the arrays they write (copy on write); its first check then
    takes the arguments cached for its source with those arrays put in, without making
    them again (``settled._rearmed``), and reads the clone's state: its creature dealt
    lethal damage dies (704.5g), the root's does not. Where an array of the address table
    was copied too (a host's toughness change), or a new kind came, they are made again."""
    w, ids = _world()
    made: list[int] = []
    arguments = settled._arguments
    monkeypatch.setattr(settled, "_arguments",   # (counting a first check's: a re-check's are its own)
                        lambda *a: (a[2] is None and made.append(1)) or arguments(*a))
    clone = w.clone()
    clone.put_counters(ids[2], "+1/+1", 1)
    clone.deal_damage(ids[3], 2)
    assert clone.store.arrays_version() != w.store.arrays_version()
    assert clone.tick() == 1 and made == []
    with pytest.raises(StaleEntityError):
        clone.zone(ids[3])
    _assert_cache_current(clone)
    assert w.tick() == 0 and w.zone(ids[3]) == "battlefield"
    for act in (lambda x: x.modify_pt(ids[2], toughness=-2),   # copies the toughness array (a table row)
                lambda x: x.put_counters(ids[2], "-1/-1", 2)):  # a new kind
        made.clear()
        other = w.clone()
        other.put_counters(ids[3], "+1/+1", 1)
        act(other)
        assert other.tick() == 1 and made == [1]
        _assert_cache_current(other)


@pytest.mark.parametrize("bad", [np.zeros((1, 4), np.int16), np.zeros((4, 2), np.int32)[:, 0],
                                 np.zeros(4, np.int32), [0, 0]], ids=["dtype", "strided", "rank", "list"])
def test_an_address_table_refuses_an_array_its_row_does_not_declare(bad: Any) -> None:
    """A row is read as its declared type without a check in the kernel: making the table
    refuses a value of another dtype, rank or layout, naming the row."""
    from ecs import kernels
    declared = (kernels.reads("toughness"), kernels.I64)
    with pytest.raises(TypeError, match="row 0 of an address table"):
        kernels.addresses((bad, 3), declared)
    table = kernels.addresses((np.zeros((1, 4), np.int32), 3), declared)
    assert table.shape == (2, 4) and table[1, 0] == 3 and tuple(table[0, 1:3]) == (1, 4)
