"""ecs.sets gives what np.unique gives, on any int array (NumPy is the oracle)."""
from __future__ import annotations

import numpy as np
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


@given(INTS)
def test_distinct_inverse_rebuilds_the_array(x: np.ndarray) -> None:
    values, inverse = sets.distinct_inverse(x)
    want_values, want_inverse = np.unique(x, return_inverse=True)
    _same(values, want_values)
    _same(inverse, want_inverse.ravel())
    _same(values[inverse], x.ravel())


@given(INTS)
def test_distinct_first_names_each_values_first_place(x: np.ndarray) -> None:
    values, first = sets.distinct_first(x)
    want_values, want_first = np.unique(x, return_index=True)
    _same(values, want_values)
    _same(first, want_first)


@given(INTS)
def test_distinct_counts_counts_each_value(x: np.ndarray) -> None:
    values, counts = sets.distinct_counts(x)
    want_values, want_counts = np.unique(x, return_counts=True)
    _same(values, want_values)
    _same(counts, want_counts)


@given(INTS)
def test_repeats_is_whether_some_value_stands_twice(x: np.ndarray) -> None:
    assert sets.repeats(x) == (np.unique(x).size != x.size)


def test_distinct_of_one_value_is_a_copy() -> None:
    x = np.array([7], np.int64)
    out = sets.distinct(x)
    out[0] = 8
    assert x[0] == 7
