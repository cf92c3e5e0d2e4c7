"""The coverage guards' stand-in for hypothesis's strategies (tests/reach.py) draws what
hypothesis's would: the same bounds, sizes and uniqueness, every value of a range."""
from __future__ import annotations

import collections
import random
import types

import pytest
import reach
from reach import strategies as st


def draws(strategy, n=2_000, seed=1):
    data = reach.RandomData(random.Random(seed))
    return [data.draw(strategy) for _ in range(n)]


def test_integers_booleans_and_floats_cover_their_closed_ranges():
    assert set(draws(st.integers(-2, 3))) == set(range(-2, 4))
    assert set(draws(st.booleans())) == {False, True}
    assert all(0 <= x <= 1 for x in draws(st.floats(0, 1)))


def test_sampled_from_one_of_just_and_none_draw_each_option():
    assert set(draws(st.sampled_from("abc"))) == {"a", "b", "c"}
    counts = collections.Counter(draws(st.one_of(st.just(1), st.just(1), st.none())))
    assert set(counts) == {1, None} and counts[1] > counts[None]   # a repeated option weighs more


def test_lists_keep_their_sizes_and_uniqueness():
    lists = draws(st.lists(st.sampled_from("ab"), min_size=1, max_size=3, unique=True))
    assert all(1 <= len(x) <= 2 and len(set(x)) == len(x) for x in lists)
    sizes = {len(x) for x in draws(st.lists(st.integers(0, 9), max_size=3))}
    assert sizes == {0, 1, 2, 3}
    with pytest.raises(NotImplementedError):   # (a size below min_size could come out)
        st.lists(st.integers(0, 1), min_size=2, max_size=3, unique=True)


def test_dictionaries_and_permutations():
    assert all(len(d) <= 2 and set(d) <= {"x", "y"} and set(d.values()) <= {0, 1}
               for d in draws(st.dictionaries(st.sampled_from("xy"), st.integers(0, 1), max_size=2)))
    perms = draws(st.permutations([1, 2, 3]))
    assert all(sorted(p) == [1, 2, 3] for p in perms) and len({tuple(p) for p in perms}) == 6


def test_games_swap_a_module_s_hypothesis_names_only_while_they_run():
    """One seed, one sequence of games; while they run, the module draws from ``strategies``
    and its ``note`` does nothing; afterwards it has its own names again."""
    module = types.ModuleType("strategy")
    module.st, module.note = own = (object(), object())

    def play(seed):
        out = []
        for data in reach.games(module, 5, seed=seed):
            assert module.st is st and module.note("a line") is None
            out.append(data.draw(module.st.integers(0, 10**9)))
        return out
    assert play(3) == play(3) != play(4)
    assert (module.st, module.note) == own and not hasattr(module, "event")


def test_assert_reached_names_the_rules_short_of_their_minimum():
    reach.assert_reached(collections.Counter({"704.5a": 3}), {"704.5a": 3})
    with pytest.raises(AssertionError, match=r"'704\.5f': \(0, 1\)"):
        reach.assert_reached(collections.Counter({"704.5a": 3}), {"704.5a": 3, "704.5f": 1})
