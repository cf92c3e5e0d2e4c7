"""The single-game fast path (issue 14) against the general path.

A World of one game given plain Python ints (one id, one amount, ``games=None``) takes
scalar fast paths in argument resolution, counting, the event log and the reads; with
``ecs.store.SCALAR_PATHS`` cleared the same call takes the general, vectorized path. Hypothesis
draws random action sequences (valid and invalid: stale and unknown ids, negative and
overflowing amounts, prohibited and capped objects, a game that ends) and runs each step on
two identical Worlds, one through each path; after every step they must have raised the
same error (class and message) or none, and have equal state and event tables; every read
must return the same value, of the same Python type.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ecs import CounterError, World, store
from ecs.limits import MAX_COUNT

KINDS = ["+1/+1", "-1/-1", "charge", "poison", "loyalty", "shield", "stun", "flying"]
ACTIONS = ["put", "put", "put", "remove", "damage", "destroy", "move_zone", "set_cap",
           "tick", "ban", "clone"]
READS = ["count", "counters", "power", "toughness", "exists", "life", "loyalty"]


def _board(ruleset: str = "mtg") -> tuple[World, list[int]]:
    w = World(ruleset=ruleset, seed=5)
    p1, p2 = w.add_player(life=3), w.add_player()
    ids = [p1, p2,
           w.add_object(p1, "creature", power=2, toughness=2),
           w.add_object(p2, "creature", power=1, toughness=1, counters={"+1/+1": 1}),
           w.add_object(p1, "planeswalker", loyalty=2),
           w.add_object(p2, "artifact", no_counters=True),
           w.add_object(p1, "creature", power=1, toughness=4, zone="graveyard")]
    return w, ids


def _state(w: World) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    return w.snapshot()["store"], w.event_table()


def _assert_same(a: World, b: World) -> None:
    (sa, ta), (sb, tb) = _state(a), _state(b)
    assert sa.keys() == sb.keys() and ta.keys() == tb.keys()
    for k in sa:
        assert sa[k].dtype == sb[k].dtype and np.array_equal(sa[k], sb[k]), k
    for k in ta:
        assert np.array_equal(ta[k], tb[k]), k
    assert a.events() == b.events()


def _outcome(call: Callable[..., Any], *args: Any) -> tuple[str, Any]:
    """The value, or the error's class and message."""
    try:
        v = call(*args)
        return "ok", (v.tolist(), v.dtype) if isinstance(v, np.ndarray) else v
    except CounterError as err:
        return type(err).__name__, str(err)


@contextmanager
def _general() -> Iterator[None]:
    """Every call inside takes the general path."""
    store.SCALAR_PATHS = False
    try:
        yield
    finally:
        store.SCALAR_PATHS = True


def _act(w: World, ids: list[int], step: tuple[Any, ...]) -> Any:
    op, who, kind, n = step
    e = ids[who] if who < len(ids) else who   # past the board: an id that names nothing
    if op == "put":
        return w.put_counters(e, kind, n)
    if op == "remove":
        return w.remove_counters(e, kind, n)
    if op == "damage":
        return w.deal_damage(e, n)
    if op == "destroy":
        return w.destroy(e)
    if op == "move_zone":
        return w.move_zone(e, "exile")
    if op == "set_cap":
        return w.set_cap(e, kind, n)
    if op == "ban":
        return w.prohibit(e, kind)
    return w.tick()


def _read(w: World, ids: list[int], what: str, who: int, kind: str) -> Any:
    e = ids[who] if who < len(ids) else who
    return {"count": lambda: w.count(e, kind), "counters": lambda: w.counters(e),
            "power": lambda: w.power(e), "toughness": lambda: w.toughness(e),
            "exists": lambda: w.exists(e), "life": lambda: w.life(e),
            "loyalty": lambda: w.loyalty(e)}[what]()


def _amounts() -> st.SearchStrategy[int]:
    return st.one_of(st.integers(0, 3), st.sampled_from([-1, MAX_COUNT, MAX_COUNT + 1, 12]))


STEPS = st.tuples(st.sampled_from(ACTIONS), st.sampled_from([0, 1, 2, 3, 4, 5, 6, 7, 10**6]),
                  st.sampled_from(KINDS), _amounts())


@settings(max_examples=60, deadline=None)
@given(st.lists(STEPS, min_size=1, max_size=20),
       st.lists(st.tuples(st.sampled_from(READS), st.integers(0, 8), st.sampled_from(KINDS)),
                min_size=1, max_size=6))
def test_issue14_scalar_fast_path_equals_general_path(steps: list[tuple[Any, ...]],
                                                      reads: list[tuple[str, int, str]]) -> None:
    """Issue 14: each action and read of one game with scalar arguments gives exactly the
    state, events, errors and values of the vectorized path (CR 122.6 puts, 704 ticks, the
    ending game of 104.3c poison included)."""
    fast, ids = _board()
    slow, _ = _board()
    ids = ids + [max(ids) + 1]   # a valid id that names nothing yet
    for step in steps:
        if step[0] == "clone":   # go on with clones: the log's rows must be shared safely
            before = _state(fast)
            fast, old = fast.clone(), fast
            slow = slow.clone()
            got = _outcome(fast.put_counters, ids[2], "charge", 1)
            with _general():
                want = _outcome(slow.put_counters, ids[2], "charge", 1)
            assert got == want
            after = _state(old)
            assert all(np.array_equal(before[1][k], after[1][k]) for k in before[1])
            continue
        got = _outcome(_act, fast, ids, step)
        with _general():
            want = _outcome(_act, slow, ids, step)
        assert got == want, step
        _assert_same(fast, slow)
        for what, who, kind in reads:
            got = _outcome(_read, fast, ids, what, who, kind)
            with _general():
                want = _outcome(_read, slow, ids, what, who, kind)
            assert got == want and type(got[1]) is type(want[1]), (what, who, kind)


def test_issue14_log_rows_recorded_one_at_a_time_read_back_in_order() -> None:
    """Single rows recorded cheaply and array chunks interleave in the order recorded
    (CR 704.3 steps), in the table, a snapshot restored, and a clone recorded into."""
    w, ids = _board()
    w.clear_events()
    w.put_counters(ids[2], "charge", 1)            # one row
    w.put_counters(np.array([ids[2], ids[3]]), "charge", 2)   # a chunk of two
    w.put_counters(ids[3], "-1/-1", 2)             # one row; the tick records chunks
    c = w.clone()
    snap = w.snapshot()
    w.tick()
    c.put_counters(ids[2], "stun", 1)
    t = w.event_table()
    assert t["before"][:4].tolist() == [0, 1, 0, 0] and t["after"][:4].tolist() == [1, 3, 2, 2]
    assert t["step"].tolist() == sorted(t["step"].tolist())
    assert c.event_table()["after"].tolist() == [1, 3, 2, 2, 1]
    w.restore(snap)
    assert w.event_table()["after"].tolist() == [1, 3, 2, 2]
