"""The single game's id lookup (``Store.present``) against the general one (``Store.locate``).

``present`` tries the column an id was last found in, in any World, before the index: a
hint, which the slot must confirm (the store's rule: id ``e`` is in game ``g`` iff
``entity_id[g, column] == e``). Ids are per World, so the same id names different objects,
in different columns, in different Worlds, and a zone change leaves an id stale in its old
slot (CR 400.7): every lookup, in any order over the Worlds, must answer as the index does.
"""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples
from scalar_paths import general

from ecs import CounterError, World


def _worlds() -> list[World]:
    """Three one-game Worlds whose ids sit in different columns, or nowhere: tokens that
    ceased to exist free their slots for later objects (704.5d), zone changes make new ids
    in old slots (400.7), and one World is a clone that went its own way."""
    out = []
    for order in ([2, 3, 1], [1, 2, 3], [3, 1, 2]):
        w = World(seed=1)
        p = w.add_player()
        w.add_player()
        made = [w.add_object(p, "creature", power=k, toughness=k, token=k == 1) for k in order]
        for e, k in zip(made, order):
            if k == 1:
                w.destroy(e)
                w.tick()   # the token ceases to exist: its slot takes the next object
        w.add_objects(2, p, "creature", power=5, toughness=5)
        w.move_zone(made[-1], "graveyard") if order[-1] != 1 else None
        out.append(w)
    clone = out[0].clone()
    clone.destroy(int(clone.objects()[0]))
    return out + [clone]


def _read(w: World, e: int) -> tuple[str, object]:
    try:
        return "ok", (w.exists(e), w.zone(e), w.power(e))
    except CounterError as err:
        return type(err).__name__, str(err)


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 9)), min_size=1, max_size=40))
def test_one_game_lookups_in_any_order_answer_as_the_index(lookups: list[tuple[int, int]]) -> None:
    worlds = _worlds()
    for w_i, e in lookups:
        w = worlds[w_i]
        got = _read(w, e)
        with general():
            want = _read(w, e)
        assert got == want, (w_i, e)
        if 0 <= e < w.store.next_id:
            assert w.store.present(0, e) == int(w.store.locate(np.zeros(1, np.int64), np.array([e]))[0])


def test_a_hint_from_another_world_or_a_stale_id_is_not_trusted() -> None:
    a, b = World(seed=1), World(seed=1)
    for w in (a, b):
        w.add_player()
    tok = b.add_object(0, "creature", power=1, toughness=1, token=True)
    b.destroy(tok)                                        # 400.7: a new id (2) in the graveyard
    b.tick()                                              # 704.5d: it ceases to exist, slot 1 is free
    x = [a.add_object(0, "creature", power=p, toughness=p) for p in (1, 2, 3)]   # ids 1-3, slots 1-3
    y = b.add_object(0, "creature", power=7, toughness=7)   # id 3 in b's slot 1
    assert x[2] == y == 3
    for _ in range(2):   # each World finds its own id 3, whichever looked last
        assert (a.power(3), b.power(3), a.power(3)) == (3, 7, 3)
    assert a.power(1) == 1 and b.exists(1) is False and b.exists(2) is False
    new = a.move_zone(1, "graveyard")                     # 400.7: a new id in the old slot
    assert a.exists(1) is False and a.zone(new) == "graveyard" and b.power(3) == 7


def test_ids_that_share_a_hint_are_each_found() -> None:
    """Ids whose low bits agree share a hint (``store._HINT_MASK``): each lookup still
    answers as the index does, in any order."""
    from ecs.store import _HINT_MASK
    w = World(seed=1)
    p = w.add_player()
    made = w.add_objects(_HINT_MASK + 3, p, "artifact", zone="graveyard")
    a, b = int(made[1]), int(made[1]) + _HINT_MASK + 1   # the same low bits
    assert b == int(made[-1])
    w.put_counters(a, "charge", 1)
    w.put_counters(b, "charge", 2)
    for _ in range(2):
        assert (w.count(a, "charge"), w.count(b, "charge"), w.count(a, "charge")) == (1, 2, 1)
        assert w.store.present(0, a) == int(w.store.locate(np.zeros(1, np.int64), np.array([a]))[0])


def test_lookups_of_ever_new_ids_leave_the_memory_as_it_was() -> None:
    """A long single-game run looks up new ids without end (ids are never reused, 400.7):
    the hints the lookups leave take a fixed table, not memory that grows with the ids
    looked up (a table of every id would reach megabytes, against a board of some 10 KB)."""
    import tracemalloc
    w = World(seed=1)
    p = w.add_player()
    made = [int(e) for e in w.add_objects(20_000, p, "artifact", zone="graveyard")]
    for e in made[:100]:   # the read's own first-call costs, before measuring
        w.count(e, "charge")
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for e in made[100:]:
            w.count(e, "charge")
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 64 * 1024, grown
