"""One event row recorded on its own is the same row as in a chunk of many.

``EventLog.record`` keeps a one-row record as a tuple of ints (as ``EventLog.one`` does),
packed into chunks only when the log is read; its values arrive as ints, NumPy scalars,
0-d or one-element arrays, bools among them. The table must not tell the two apart.
"""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ecs.events import CAUSE, COUNTER, TAP, ZONE, EventLog

VALUE = st.integers(-2, 10**6)


def _shapes(v: int) -> st.SearchStrategy[object]:
    """``v`` as an int, a NumPy integer, a 0-d array or a one-element int64 or int32 array."""
    return st.sampled_from([v, np.int64(v), np.array(v), np.array([v], np.int64), np.array([v], np.int32)])


@settings(max_examples=60, deadline=None)
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
