"""The acting tick of one game on its single-game paths against the general path.

A World of one game, going on, ticks through paths of its own (``ecs.schedule``): a re-check
asks the settled probe about a full check, a check knows its live games, a perform moves
one object and removes one pair in plain ints, and the tick decides whether to check again
without a (1,) array. With ``ecs.store.SCALAR_PATHS`` cleared the same tick takes the
general path. Hypothesis draws boards where the state-based actions act for several checks
in a row (704.3): deaths by toughness, damage and deathtouch (704.5f-h), planeswalkers and
battles without counters (704.5i, 704.5v), tokens that then cease to exist (704.5d),
+1/+1 and -1/-1 pairs (704.5q), caps (704.5r), players who lose (704.5a, 704.5c), with
holds, redirects (614.1a) and finality (122.1h). Both worlds must end with equal state and
event tables, byte for byte, and tick the same number of checks.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples
from scalar_paths import general

from ecs import World

KINDS = ("+1/+1", "-1/-1", "finality", "indestructible", "loyalty", "defense")

OBJECT = st.fixed_dictionaries({
    "type": st.sampled_from(["creature"] * 5 + ["planeswalker", "battle"]),
    "toughness": st.integers(0, 3),
    "token": st.booleans(),
    "counters": st.dictionaries(st.sampled_from(KINDS), st.integers(1, 3), max_size=3),
    "cap": st.none() | st.tuples(st.sampled_from(["+1/+1", "-1/-1"]), st.integers(0, 2)),
    "damage": st.integers(0, 3),
    "deathtouch": st.booleans(),
    "hold": st.integers(0, 5).map(lambda x: x == 0),
    "redirect": st.sampled_from([None] * 5 + ["exile", "hand"]),
})
#: After the first tick: -1/-1 counters put on an object (index), then a tick again.
LATER = st.lists(st.tuples(st.integers(0, 11), st.integers(1, 3)), max_size=3)


def _build(objects: list[dict[str, Any]], life: tuple[int, int], poison: int
           ) -> tuple[World, list[int]]:
    w = World(seed=3)
    p, q = w.add_player(life=life[0]), w.add_player(life=life[1])
    w.put_counters(q, "poison", poison)
    source = w.add_object(q, "creature", power=1, toughness=9, keywords=["deathtouch"])
    ids = []
    for i, o in enumerate(objects):
        extra = ({"power": 1, "toughness": o["toughness"]} if o["type"] == "creature" else {})
        e = w.add_object(p if i % 2 else q, o["type"], token=o["token"], **extra,
                         caps=dict([o["cap"]]) if o["cap"] else None)
        for kind, n in o["counters"].items():
            w.put_counters(e, kind, n)
        if o["damage"] and o["type"] != "battle":
            w.deal_damage(e, o["damage"], source if o["deathtouch"] else None)
        if o["hold"]:
            w.set_hold(e)
        if o["redirect"]:
            w.set_redirect(e, o["redirect"])
        ids.append(e)
    w.clear_events()
    return w, ids


def _assert_same(a: World, b: World) -> None:
    sa, sb = a.snapshot()["store"], b.snapshot()["store"]
    assert sa.keys() == sb.keys()
    for k in sa:
        assert sa[k].dtype == sb[k].dtype and np.array_equal(sa[k], sb[k]), k
    ta, tb = a.event_table(), b.event_table()
    assert ta.keys() == tb.keys()
    for k in ta:
        assert ta[k].dtype == tb[k].dtype and np.array_equal(ta[k], tb[k]), k
    assert a.events() == b.events()


def _tick_both(fast: World, slow: World) -> int:
    acted = fast.tick()
    with general():
        assert slow.tick() == acted
    _assert_same(fast, slow)
    return acted


@settings(max_examples=examples(120), deadline=None)
@given(st.lists(OBJECT, min_size=1, max_size=12), st.tuples(st.integers(-1, 3), st.integers(1, 3)),
       st.integers(0, 10), LATER)
def test_acting_tick_of_one_game_equals_the_general_path(
        objects: list[dict[str, Any]], life: tuple[int, int], poison: int,
        later: list[tuple[int, int]]) -> None:
    """One game's acting ticks (704.3: every check's decisions performed as one event, then
    checked again) give the state, events and number of acting checks of the general path."""
    fast, ids = _build(objects, life, poison)
    with general():
        slow, _ = _build(objects, life, poison)
    _assert_same(fast, slow)
    _tick_both(fast, slow)
    for i, n in later:
        if i < len(ids) and fast.exists(ids[i]):
            fast.put_counters(ids[i], "-1/-1", n)
            with general():
                slow.put_counters(ids[i], "-1/-1", n)
            _tick_both(fast, slow)


def test_token_that_dies_ceases_to_exist_in_the_recheck() -> None:
    """A token put into the graveyard by a check (704.5f) ceases to exist in the next
    check (704.5d): the second check of the same tick, on both paths."""
    objects = [{"type": "creature", "toughness": 1, "token": True, "counters": {"-1/-1": 1},
                "cap": None, "damage": 0, "deathtouch": False, "hold": False, "redirect": None}]
    fast, ids = _build(objects, (20, 20), 0)
    with general():
        slow, _ = _build(objects, (20, 20), 0)
    assert _tick_both(fast, slow) == 2
    assert [e.cause for e in fast.events()] == ["704.5f", "704.5d"]


@pytest.mark.parametrize("with_pair", [False, True])
def test_death_and_pair_in_one_check(with_pair: bool) -> None:
    """A creature dying (704.5f) and a pair annihilating (704.5q) on another in the same
    check are one event; the pair alone calls for no re-check."""
    dying = {"type": "creature", "toughness": 1, "token": False, "counters": {"-1/-1": 2},
             "cap": None, "damage": 0, "deathtouch": False, "hold": False, "redirect": None}
    pair = dict(dying, toughness=3, counters={"+1/+1": 2, "-1/-1": 1})
    objects = [pair] + ([dying] if not with_pair else [dying, pair])
    fast, _ = _build(objects, (20, 20), 0)
    with general():
        slow, _ = _build(objects, (20, 20), 0)
    assert _tick_both(fast, slow) == 1
    assert len(set(fast.event_table()["step"].tolist())) == 1
