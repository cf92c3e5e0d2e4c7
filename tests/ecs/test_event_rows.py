"""One event row recorded on its own is the same row as in a chunk of many.

``EventLog.record`` keeps a one-row record as a tuple of ints (as ``EventLog.one`` does),
packed into chunks only when the log is read; its values arrive as ints, NumPy scalars,
0-d or one-element arrays, bools among them. The table must not tell the two apart.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from ecs.events import CAUSE, COUNTER, LOG_COLUMNS, TAP, ZONE, EventLog

VALUE = st.integers(-2, 10**6)


def _shapes(v: int) -> st.SearchStrategy[object]:
    """``v`` as an int, a NumPy integer, a 0-d array or a one-element int64 or int32 array."""
    return st.sampled_from([v, np.int64(v), np.array(v), np.array([v], np.int64), np.array([v], np.int32)])


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.tuples(st.sampled_from([COUNTER, ZONE, TAP]), st.sampled_from(sorted(CAUSE)),
                          st.lists(VALUE, min_size=8, max_size=8)), min_size=1, max_size=5),
       st.data())
def test_rows_recorded_one_at_a_time_equal_one_chunk(rows: list[tuple[int, str, list[int]]],
                                                     data: st.DataObject) -> None:
    """Each column of the table (and the row numbers returned) is the same whether the rows
    are recorded one by one, in any mix of value types, or together as one chunk."""
    alone = EventLog()
    names = ("game", "entity", "kind", "before", "after", "other", "from_zone", "to_zone")
    got = []
    for type_, cause, values in rows:
        kw = {k: data.draw(_shapes(v)) for k, v in zip(names, values)}
        code = data.draw(st.sampled_from([cause, CAUSE[cause], np.array([CAUSE[cause]])]))
        got.append(alone.record(type_, code, **kw).tolist())
    # the reference: each row recorded twice in one chunk of two (the chunk path); every
    # other row of its table is the row
    ref = EventLog()
    for (type_, cause, values) in rows:
        ref.record(type_, cause, **{k: np.array([v, v], np.int64) for k, v in zip(names, values)})
    assert got == [[i] for i in range(len(rows))]
    table, twice = alone.table(), ref.table()
    for k in table:
        if k.startswith("lki_"):
            continue
        assert table[k].dtype == np.int64 and np.array_equal(table[k], twice[k][::2]), k
    for i, k in enumerate(names):
        assert table[k].tolist() == [values[i] for _, _, values in rows], k


def test_a_bool_row_is_recorded_as_ints() -> None:
    """A tap event's before/after arrive as NumPy bools: 0 and 1 in the table."""
    log = EventLog()
    log.record(TAP, "tap", game=np.array([0]), entity=np.array([7]), before=np.array([False]),
               after=np.array([True]))
    t = log.table()
    assert (t["before"].tolist(), t["after"].tolist(), t["cause"].tolist()) == ([0], [1], [CAUSE["tap"]])


_OPS = st.one_of(st.tuples(st.just("one"), VALUE), st.tuples(st.just("chunk"), st.integers(2, 40)),
                 st.just(("step",)), st.just(("clone",)), st.just(("snapshot",)), st.just(("switch",)))


def _do(log: EventLog, op: tuple[Any, ...]) -> None:
    if op[0] == "one":   # a single game's row, and its object's last-known counters
        log.one(ZONE, CAUSE["zone"], 0, op[1], -1, 0, 0, -1, 1, 2)
        log.lki_one(log.rows - 1, [0, 1], [op[1] % 5 + 1, 1])
    elif op[0] == "chunk":   # a batch's chunk, some of its 0-d columns, with counters
        n = op[1]
        rows = log.record(COUNTER, "put", game=np.arange(n) % 3, entity=np.arange(n) * 7,
                          kind=2, before=np.arange(n), after=np.arange(n) + 1)
        log.record_lki(rows[::2], np.zeros(rows[::2].size, np.int64), rows[::2] % 9 + 1)
    elif op[0] == "step":
        log.next_step()


@settings(max_examples=examples(80), deadline=None)
@given(st.lists(_OPS, max_size=120), st.data())
def test_a_clone_reads_as_a_log_that_never_cloned(script: list[tuple[Any, ...]],
                                                  data: st.DataObject) -> None:
    """A clone (and a snapshot) packs and joins its log's chunks first
    (``events._compacted``) so that it copies a few of them, some log2 of the rows, whatever
    the log's length (a search clones positions whose logs keep their path). Every log, the
    source, each clone and each snapshot restored, reads as a copy of the same rows that
    never cloned: the whole table and since any step."""
    import copy
    from math import log2

    from ecs.events import _FEW
    log, ref = EventLog(), EventLog()
    pairs = [(log, ref)]
    for op in script:
        if op[0] == "clone":
            c = log.clone()
            assert len(c.chunks) <= _FEW + 2 + log2(c.rows + 1)   # what it copied
            pairs.append((c, copy.deepcopy(ref)))
        elif op[0] == "snapshot":   # restored into another log
            snap = log.snapshot()
            assert len(snap["chunks"]) <= _FEW + 2 + log2(log.rows + 1)
            c = EventLog()
            c.restore(snap)
            pairs.append((c, copy.deepcopy(ref)))
        elif op[0] == "switch":   # go on recording in one of them
            log, ref = data.draw(st.sampled_from(pairs))
        else:
            _do(log, op)
            _do(ref, op)
    for got, want in pairs:
        for since in (None, *range(0, want.step + 1)):
            a, b = got.table(since), want.table(since)
            assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a), since
        assert (got.rows, got.step) == (want.rows, want.step)


def test_a_clone_of_a_long_log_copies_a_few_chunks() -> None:
    """A single game's long path: rows one at a time between ticks' chunks. The clone
    holds some log2 of the rows' chunks, not one per record, and reads the same."""
    import copy
    from math import log2
    log = EventLog()
    for i in range(300):
        _do(log, ("one", i))
        _do(log, ("chunk", 2 + i % 5))
        if i % 10 == 0:
            _do(log, ("step",))
    ref = copy.deepcopy(log)
    c = log.clone()
    assert len(c.chunks) <= 2 + log2(c.rows) and len(log.chunks) == len(c.chunks)
    a, b = c.table(), ref.table()
    assert all(np.array_equal(a[k], b[k]) for k in b)


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.one_of(st.tuples(st.just("one"), VALUE), st.just(("step",))), max_size=40))
def test_a_single_games_rows_read_as_recorded_equal_their_packed_chunk(script: list[tuple[Any, ...]]) -> None:
    """``table`` reads a single game's rows, tuples as recorded, as one array; packed into a
    chunk first (``EventLog.chunks``), the same rows read the same, since any step, with
    their last-known counters' rows."""
    import copy
    log = EventLog()
    for op in script:
        _do(log, op)
    packed = copy.deepcopy(log)
    assert packed.chunks is not None and packed.lki is not None   # (packs both)
    for since in (None, *range(0, log.step + 2)):
        a, b = log.table(since), packed.table(since)
        assert a.keys() == b.keys() and all(a[k].dtype == np.int64 and np.array_equal(a[k], b[k]) for k in a), since


def test_rows_since_a_step_in_a_log_of_tuples_and_chunks() -> None:
    """A single game's rows (tuples) around a batch's chunk, over three steps: the table
    since each step is the rows of the later steps, its last-known counters with them."""
    import copy
    log, every = EventLog(), EventLog()
    for op in (("step",), ("one", 1), ("one", 2), ("step",), ("chunk", 3), ("step",), ("one", 3), ("one", 4)):
        _do(log, op)
        _do(every, op)
    assert every.chunks is not None and every.lki is not None   # (packed: read as chunks)
    full = every.table()
    for since in range(log.step + 1):
        keep = full["step"] > since
        first = int(np.argmax(keep)) if keep.any() else full["step"].size
        t = copy.deepcopy(log).table(since)   # (each on the log as recorded)
        for k in LOG_COLUMNS:
            assert t[k].tolist() == full[k][keep].tolist(), (since, k)
        lki = full["lki_row"] >= first
        assert t["lki_row"].tolist() == (full["lki_row"][lki] - first).tolist(), since
        assert t["lki_count"].tolist() == full["lki_count"][lki].tolist(), since


def test_a_clone_joins_chunks_up_to_a_bound() -> None:
    """Compacting joins at most ``_JOIN_ROWS`` rows into one chunk: two batch chunks whose
    rows together pass it stay as recorded (a clone does not copy them)."""
    from ecs.events import _FEW, _JOIN_ROWS
    log = EventLog()
    for _ in range(_FEW):   # (enough chunks before them that a clone compacts the list)
        _do(log, ("chunk", 2))
    n = _JOIN_ROWS // 2 + 1
    for _ in range(2):
        log.record(COUNTER, "put", game=np.zeros(n, np.int64), entity=np.arange(n), kind=0,
                   after=np.ones(n, np.int64))
    held = [ch["entity"] for ch in log.chunks[-2:]]
    c = log.clone()
    assert all(ch["entity"] is v for ch, v in zip(c.chunks[-2:], held))
