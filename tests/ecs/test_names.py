"""The World's table of card names (``ecs.names``): shared by clones and snapshots until
one adds a name, each table reading as the list a deep copy would have kept."""
from __future__ import annotations

import tracemalloc

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ecs.names as names_module
from ecs import SnapshotError, World
from ecs.names import Names

_NAME = st.sampled_from([f"card {i}" for i in range(12)])


@given(st.lists(st.tuples(st.sampled_from(["intern", "copy"]), st.integers(0, 7), _NAME),
                max_size=60))
def test_tables_copied_and_grown_at_random_read_as_their_own_lists(ops: list) -> None:
    """Every table, its copies and theirs, interned into in any order, reads as a list
    that was copied (not shared) at each copy: ``len``, ``in``, ``[i]``, ``index``,
    iteration, and ``intern`` gives a known name's index and a new name the next one."""
    tables, refs = [Names()], [[]]
    for op, which, name in ops:
        t, ref = tables[which % len(tables)], refs[which % len(tables)]
        if op == "copy":
            tables.append(t.copy())
            refs.append(list(ref))
            continue
        expected = ref.index(name) if name in ref else len(ref)
        if name not in ref:
            ref.append(name)
        assert t.intern(name) == expected
        for table, want in zip(tables, refs):
            assert list(table) == want and len(table) == len(want)
            assert [table[i] for i in range(len(want))] == want
            assert all(table.index(n) == want.index(n) and n in table for n in want)
            assert "no such card" not in table


def test_a_name_not_in_the_table_raises_as_a_lists_index() -> None:
    with pytest.raises(ValueError, match="'Bear' is not a name"):
        Names(["Elf"]).index("Bear")


def test_a_table_holds_each_name_once() -> None:
    with pytest.raises(ValueError, match="each name once"):
        Names(["Elf", "Elf"])


def _named(n: int) -> World:
    """A game whose host named ``n`` tokens one by one (each gone since)."""
    w = World()
    p = w.add_player()
    for i in range(n):
        w.destroy(w.add_object(p, "creature", power=1, toughness=1, token=True, name=f"token {i}"))
    w.tick()
    return w


def test_a_clone_and_a_snapshot_do_not_copy_the_names_of_history() -> None:
    """A clone's and a snapshot's cost does not grow with the names a long run has seen:
    a game that named 2,000 tokens clones and snapshots allocating less than a copy of
    its table (a list of 2,000 names alone is 16 KB of pointers)."""
    w = _named(2_000)
    w.clone(), w.snapshot()   # (first calls: caches)
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        twins = [w.clone() for _ in range(10)] + [w.snapshot() for _ in range(10)]
        grown = sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(before, "filename")
                    if s.traceback[0].filename.endswith(("names.py", "world.py")))
    finally:
        tracemalloc.stop()
    assert len(twins) == 20 and grown < 10 * 16_000


def test_names_added_in_a_clone_or_after_a_snapshot_stay_there() -> None:
    """A clone that names a new card leaves its source's table as it was, and the source
    adding one leaves the clone's; a restore returns to the snapshot's names."""
    w = _named(3)
    p = w.players()[0]
    c, snap = w.clone(), w.snapshot()
    elf = c.add_object(p, "creature", power=1, toughness=1, name="Elf")
    bear = w.add_object(p, "creature", power=2, toughness=2, name="Bear")
    assert (c.name(elf), w.name(bear)) == ("Elf", "Bear")
    assert list(c.names) == ["token 0", "token 1", "token 2", "Elf"]
    assert list(w.names) == ["token 0", "token 1", "token 2", "Bear"]
    w.restore(snap)
    assert list(w.names) == ["token 0", "token 1", "token 2"]
    again = w.add_object(p, "creature", power=1, toughness=1, name="Elf")
    assert w.name(again) == "Elf" and list(c.names)[-1] == "Elf" and list(snap["names"])[-1] == "token 2"


def test_a_snapshot_naming_a_card_twice_is_refused_before_anything_changes() -> None:
    """A snapshot whose table of names repeats one (a list of names, as a hand-made or
    older snapshot holds) raises SnapshotError (a ValueError), and the World is as it was."""
    w = _named(2)
    p = w.players()[0]
    snap = {**w.snapshot(), "names": ["token 0", "token 0"]}
    bear = w.add_object(p, "creature", power=2, toughness=2, name="Bear")
    with pytest.raises(SnapshotError, match="names a card twice"):
        w.restore(snap)
    assert w.name(bear) == "Bear" and list(w.names) == ["token 0", "token 1", "Bear"]


def test_a_saved_worlds_names_load_as_a_table(tmp_path) -> None:
    w = _named(2)
    p = w.players()[0]
    bear = w.add_object(p, "creature", power=2, toughness=2, name="Bear")
    w.save(tmp_path / "w.npz")
    back = World.load(tmp_path / "w.npz")
    assert back.name(bear) == "Bear" and back.names == w.names
    assert back.names.intern("Elf") == 3 and "Elf" not in w.names


def test_a_snapshots_table_adds_no_name_and_its_copy_does():
    """A snapshot is a value: its table of names refuses a new name (TypeError) and still
    gives a known name's index; ``copy()`` of it is a table to add names to, which leaves
    the snapshot's and the World's as they were."""
    w = _named(2)
    snap = w.snapshot()
    with pytest.raises(TypeError, match="read-only"):
        snap["names"].intern("Elf")
    assert snap["names"].intern("token 1") == 1 and list(snap["names"]) == ["token 0", "token 1"]
    mine = snap["names"].copy()
    assert mine.intern("Elf") == 2 and "Elf" not in snap["names"] and "Elf" not in w.names


def test_tables_are_equal_when_they_hold_the_same_names_in_the_same_order():
    """Two tables are equal when each index names the same card in both (``==`` as their
    lists): the same names in another order, or fewer, make another table."""
    assert Names(["Elf", "Bear"]) == Names(["Elf", "Bear"]) == Names(["Elf", "Bear"]).copy()
    assert Names(["Elf", "Bear"]) != Names(["Bear", "Elf"])
    assert Names(["Elf", "Bear"]) != Names(["Elf", "Ape"])
    assert Names(["Elf"]) != Names(["Elf", "Bear"])


def test_a_shared_table_copies_its_names_once_then_grows_in_place(monkeypatch: pytest.MonkeyPatch):
    """A copy that adds names copies the shared table once, at its first new name, not at
    each (a host naming tokens one by one after a clone would copy the whole table at
    every name): the lists and dicts ``intern`` makes are counted."""
    made: list[str] = []

    def counted(kind: type) -> type:
        def make(*a: object) -> object:
            made.append(kind.__name__)
            return kind(*a)
        return make  # type: ignore[return-value]

    big = Names(f"card {i}" for i in range(1_000))
    table = big.copy()
    monkeypatch.setattr(names_module, "list", counted(list), raising=False)
    monkeypatch.setattr(names_module, "dict", counted(dict), raising=False)
    for j in range(100):
        table.intern(f"new {j}")
    assert sorted(made) == ["dict", "list"]
    assert list(table)[-100:] == [f"new {j}" for j in range(100)] and len(big) == 1_000


def test_in_answers_for_any_value_as_a_list_of_the_names_does():
    """``in`` is a list's: False for a value that is no name, an unhashable one too."""
    table = Names(["Elf", "Bear"])
    for value in (["Elf"], {"Elf": 1}, {"Elf"}, 0, None, "elf"):
        assert (value in table) is (value in list(table)) is False
    assert "Bear" in table
