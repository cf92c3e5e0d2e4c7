"""ecs.sets gives what np.unique gives, on any int array (NumPy is the oracle)."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays

from ecs import sets

# (2-D arrays too: np.unique flattens, and so must these)
SHAPES = st.integers(0, 60) | array_shapes(min_dims=2, max_dims=2, min_side=0, max_side=8)
INTS = st.sampled_from([np.int32, np.int64]).flatmap(
    lambda dt: arrays(dt, SHAPES, elements=st.integers(-5, 5) | st.integers(
        int(np.iinfo(dt).min), int(np.iinfo(dt).max))))


def _same(a: np.ndarray, b: np.ndarray) -> None:
    assert a.dtype == b.dtype and np.array_equal(a, b)


@given(INTS)
def test_distinct_is_np_unique(x: np.ndarray) -> None:
    _same(sets.distinct(x), np.unique(x))


@pytest.mark.parametrize("ours, option", [(sets.distinct_inverse, "return_inverse"),
                                           (sets.distinct_first, "return_index"),
                                           (sets.distinct_counts, "return_counts")])
@given(x=INTS)
def test_each_variant_gives_what_np_unique_gives(ours: Any, option: str, x: np.ndarray) -> None:
    """The inverses, first places (the first of equal values: a stable sort) and counts."""
    values, extra = ours(x)
    want_values, want_extra = np.unique(x, **{option: True})
    _same(values, want_values)
    _same(extra, want_extra.ravel())


@given(INTS)
def test_distinct_inverse_rebuilds_the_array(x: np.ndarray) -> None:
    values, inverse = sets.distinct_inverse(x)
    _same(values[inverse], x.ravel())


@given(INTS)
def test_repeats_is_whether_some_value_stands_twice(x: np.ndarray) -> None:
    assert sets.repeats(x) == (np.unique(x).size != x.size)


def test_distinct_of_one_value_is_a_copy() -> None:
    x = np.array([7], np.int64)
    out = sets.distinct(x)
    out[0] = 8
    assert x[0] == 7


@given(INTS)
def test_rank_by_first_orders_values_as_first_named(x: np.ndarray) -> None:
    """Value i's rank is its place among the distinct values in the order x first names them."""
    values, inverse = sets.distinct_inverse(x)
    in_order = list(dict.fromkeys(x.ravel().tolist()))
    want = np.array([in_order.index(v) for v in values.tolist()], np.int64)
    _same(sets.rank_by_first(values.size, inverse), want)


@given(INTS)
def test_places_in_runs_count_the_equal_values_before_each(x: np.ndarray) -> None:
    flat = x.ravel()
    want = [int(np.sum(flat[:i] == v)) for i, v in enumerate(flat)]
    assert sets.places_in_runs(x).tolist() == want


@given(INTS, st.integers(0, 2**40))
def test_sums_add_each_values_amounts_exactly(x: np.ndarray, big: int) -> None:
    """The sums are exact int64 past float64's 2**53 too."""
    amount = (np.arange(x.size, dtype=np.int64) % 7) * big
    values, total, inverse = sets.sums(x, amount)
    _same(values, np.unique(x))
    want = [sum(int(a) for a, v in zip(amount, x.ravel()) if v == u) for u in values]
    assert total.dtype == np.int64 and total.tolist() == want
    _same(values[inverse], x.ravel())


@pytest.mark.parametrize("sign", [1, -1])
def test_sums_past_float64s_exact_range_are_exact(sign: int) -> None:
    """2**53 + 1 is no float64: amounts whose sum passes 2**53 (of either sign) are added
    as int64, not rounded through float."""
    x = np.array([3, 3, 5], np.int64)
    amount = sign * np.array([2**53, 1, 1], np.int64)
    values, total, _ = sets.sums(x, amount)
    assert values.tolist() == [3, 5] and total.tolist() == [sign * (2**53 + 1), sign]
