"""ecs.addresses: arrays handed to compiled code as one table of addresses and shapes.

A kernel reading a row through ``view`` must see exactly the array the row was made of
(its values, shape and dtype); a table is refused for an array a kernel would misread.
The settled probe (``systems.settled``) reads the store's arrays this way.
"""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError
from numba.np.numpy_support import as_dtype

from ecs import World, addresses
from ecs.addresses import Table
from ecs.systems import settled

ROWS = Table("zone", "counts", "index", "int32 index", "winner", "cant_lose_life")
view = ROWS.view


@njit(cache=False)
def _read_back(table: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                           np.ndarray]:  # pragma: no cover - compiled
    return (view(table, 0).copy(), view(table, 1).copy(), view(table, 2).copy(), view(table, 3).copy(),
            view(table, 4).copy(), view(table, 5).copy())


def _arrays(rng: np.random.Generator) -> list[np.ndarray]:
    shapes = [(3, 5), (4, 3, 5), (7,), (2,), (3,), (2, 3)]
    return [rng.integers(-5, 100, shape).astype(as_dtype(kind.dtype))
            for shape, kind in zip(shapes, ROWS.kinds)]


def test_a_view_is_the_array_its_row_was_made_of() -> None:
    arrays = _arrays(np.random.default_rng(1))
    for a in arrays:
        a.flags.writeable = False   # as the store's snapshots hand them
    got = _read_back(ROWS.of(arrays))
    for a, b in zip(arrays, got):
        assert b.dtype == a.dtype and b.shape == a.shape
        np.testing.assert_array_equal(a, b)


@njit(cache=False)
def _strides(table: np.ndarray) -> tuple[tuple[int, int], tuple[int, int, int]]:  # pragma: no cover - compiled
    return view(table, 0).strides, view(table, 1).strides


def test_a_view_has_the_arrays_strides() -> None:
    """(numba indexes a C-contiguous array by its shape; a view's strides are still its
    array's, for whatever reads them)"""
    arrays = _arrays(np.random.default_rng(6))
    assert _strides(ROWS.of(arrays)) == (arrays[0].strides, arrays[1].strides)


def test_a_view_follows_the_array_written_in_place() -> None:
    arrays = _arrays(np.random.default_rng(2))
    table = ROWS.of(arrays)
    arrays[1][2, 1, 4] = 77
    assert _read_back(table)[1][2, 1, 4] == 77


def test_rows_remembered_are_those_of_the_same_arrays() -> None:
    """A row is remembered for its array while it lives; another array (even one made
    where a dead one was) gets its own."""
    arrays = _arrays(np.random.default_rng(7))
    table = ROWS.of(arrays)
    newer = list(arrays)
    newer[1] = arrays[1].copy()   # as a clone's write replaces an array
    newer[2] = np.arange(9)       # of another shape
    got = ROWS.of(newer)
    assert not np.array_equal(got, table)
    np.testing.assert_array_equal(got[[0, 3, 4, 5]], table[[0, 3, 4, 5]])
    assert got[1, 0] == newer[1].__array_interface__["data"][0] and tuple(got[2, 1:]) == (9, 0, 0)
    for _ in range(50):   # arrays made and dropped: each table reads its own
        fresh = [a.copy() for a in arrays]
        assert [tuple(r[1:]) for r in ROWS.of(fresh)] == [tuple(r[1:]) for r in table]
        assert ROWS.of(fresh)[:, 0].tolist() == [a.__array_interface__["data"][0] for a in fresh]


def test_empty_arrays_have_rows() -> None:
    arrays = [np.zeros((0, 5), np.int8), *_arrays(np.random.default_rng(3))[1:]]
    arrays[0] = np.zeros((0, 5), as_dtype(ROWS.kinds[0].dtype))
    assert _read_back(ROWS.of(arrays))[0].shape == (0, 5)


@pytest.mark.parametrize("bad", ["dtype", "rank", "strided", "count"])
def test_a_table_refuses_what_a_kernel_would_misread(bad: str) -> None:
    arrays = _arrays(np.random.default_rng(4))
    if bad == "dtype":
        arrays[0] = arrays[0].astype(np.int64)
    elif bad == "rank":
        arrays[2] = arrays[2].reshape(7, 1)
    elif bad == "strided":
        arrays[1] = np.zeros((4, 3, 10), arrays[1].dtype)[:, :, ::2]
    else:
        arrays = arrays[:-1]
    with pytest.raises((TypeError, ValueError), match="row|table"):
        ROWS.of(arrays)


def test_a_row_must_be_a_constant_of_the_table() -> None:
    @njit(cache=False)
    def past_the_end(table: np.ndarray) -> int:  # pragma: no cover - compiled
        return view(table, 6).size

    with pytest.raises(TypingError, match="constant in 0..5"):
        past_the_end(ROWS.of(_arrays(np.random.default_rng(5))))


def test_the_probe_table_points_at_the_store_arrays() -> None:
    """The settled probe's table holds the addresses and shapes of the arrays the store
    holds now (what the probe reads on a tick is the board as it is: CR 704.3)."""
    w = World()
    p = w.add_player()
    w.add_player()
    e = w.add_object(p, {"creature"}, power=1, toughness=1)
    w.put_counters(e, "-1/-1", 1)
    first = settled._first(w, settled.DEATHS | settled.LOSSES, ("a key",))
    for i, a in enumerate(first.arrays):
        assert first.table[i, 0] == a.__array_interface__["data"][0], settled.ARRAYS.rows[i]
        assert tuple(first.table[i, 1:1 + a.ndim]) == a.shape
    w.tick()
    assert not w.exists(e)   # 704.5f, found through the table


@pytest.mark.parametrize("a", [np.arange(5), np.zeros((3, 4), np.int8)[1:], np.zeros(0, np.bool_),
                               np.arange(12).reshape(3, 4)[:, 2:]])
def test_an_address_is_where_the_data_is(a: np.ndarray) -> None:
    assert addresses.address(a) == a.__array_interface__["data"][0]
