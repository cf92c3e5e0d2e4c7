"""Every public action either succeeds, or raises an ``ecs.CounterError`` and
changes nothing.

Property-based: a small World (MTG and Grand Archive, batch 1 and 3, and a Two-Headed
Giant one), one public action, arguments drawn from a pool of bad values (None, strings,
floats, bools, ids past int64, ``np.timedelta64``, arrays of the wrong shape or dtype,
stale and unknown ids, kinds with non-ASCII digits, games out of range, sizes no machine
holds, ...) mixed with good ones. Any exception that is not a CounterError fails, and so
does a CounterError after which any part of the state differs: every store array, the
event log's table and step, the name table, the seed counter and the generator.
"""
from __future__ import annotations

import functools
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ecs import CounterError, World
from ecs.limits import MAX_COUNT

INF = float("inf")

#: Values no argument accepts, whatever its role.
BAD: list[Any] = [
    None, "x", "", 1.5, INF, True, np.bool_(False), 2**63, -2**63 - 1, 2**64, -1,
    np.timedelta64(1), np.float64(2.0), np.array([1.0]), np.array([[1, 2], [3, 4], [5, 6]]),
    np.array([2**63], dtype=np.uint64), [[1, 2], [3]], {}, {"a": 1}, [], object(),
    "+\uff11/+\uff11", "+\u0661/+\u0661", "+\U0001d7cf/+\U0001d7cf", "Charge", 10**6,
    np.int64(-5), np.array(["a", "b"]), np.array([1, 2], dtype=object), 2**31, 2**40,
]


def _world(ruleset: str, batch: int, thg: bool) -> tuple[World, int]:
    """Two players (with a team each in Two-Headed Giant), permanents with counters,
    library cards, a stale id; Grand Archive: a champion with damage and enlighten counters."""
    w = World(ruleset, batch=batch, seed=7, two_headed_giant=thg)
    p = w.add_player(team=0 if thg else None)
    q = w.add_player(team=1 if thg else None)
    ga = ruleset == "grand_archive"
    unit = "ally" if ga else "creature"
    w.add_object(p, {unit}, power=2, toughness=3, counters={"charge": 2}, name="bear")
    if ga:
        w.add_object(p, {"champion"}, power=1, life=20, level=1,
                     counters={"damage": 4, "enlighten": 3})
        w.set_reserve(p, 3)
    else:
        w.add_object(q, {"planeswalker"}, loyalty=4, counters={"+1/+1": 1})
        w.put_counters(p, "poison", 2)
    gone = w.add_object(q, {"item" if ga else "artifact"})
    w.sacrifice(gone)
    w.add_objects(3, p, {unit}, zone="library")
    w.add_objects(2, q, {unit}, zone="library")
    w.put_counters(w.objects(types={unit})[0], "shield" if not ga else "buff", 1)
    w.clear_events()   # the worlds start with some events below too
    w.deal_damage(w.objects(types={unit})[0], 1)
    return w, gone


WORLDS = [("mtg", 1, False), ("mtg", 3, False), ("grand_archive", 1, False),
          ("grand_archive", 3, False), ("mtg", 3, True)]


@functools.lru_cache(maxsize=None)
def _base(ruleset: str, batch: int, thg: bool) -> tuple[World, int]:
    return _world(ruleset, batch, thg)


def _good(w: World, stale: int) -> dict[str, list[Any]]:
    """Values that fit each role in World ``w``."""
    players = w.players()
    objs = w.objects()
    every = objs + players
    b = w.batch
    ids = [*every, np.int64(every[0]), every[:2], np.array(objs[:2]), stale,
           np.tile(np.array(objs[:1]), (b, 1)), w.store.next_id]
    return {
        "id": ids,
        "player": [*players, np.int32(players[-1]), objs[0]],
        "kind": ["charge", "+1/+1", "-1/-1", "loyalty", "poison", "shield", "buff", "debuff",
                 "damage", "enlighten", "durability", "flying", "p1p1"],
        "amount": [0, 1, 3, np.int16(2), MAX_COUNT, MAX_COUNT - 1, np.arange(b),
                   np.ones(b, np.int64), np.array([1, 2], np.uint8)],
        "life": [0, 20, -5, 2**62, -(2**62), 2**62 + 1],
        "size": [0, 1, 2, 2**20 + 1, 2**27],
        "games": [None, 0, b - 1, b, [0], list(range(b))[::-1], np.ones(b, bool), [0, 0],
                  np.array([b - 1], np.uint64)],
        "zone": ["battlefield", "graveyard", "hand", "library", "exile", "field", "deck",
                 "player", "narnia"],
        "types": [{"creature"}, "artifact", ("ally",), {"champion"}, {"planeswalker"},
                  ["wizard"], [1]],
        "flag": [True, False, np.bool_(True)],
        "stat": [0, 1, 4, 2**30, 2**30 + 1, -3],
        "name": ["bear", "new name", None],
        "counters": [{"charge": 1}, {"loyalty": MAX_COUNT}, {"+1/+1": np.arange(b)},
                     {"buff": 2}, {"charge": -1}, {5: 1}],
        "caps": [{"charge": 1}, {"charge": -1}, {"charge": 2**63 - 1}, {"charge": np.arange(b)}],
        "phase": [True, False, "precombat", "postcombat", "second"],
        "reason": ["life", "poison", "mana"],
        "policy": [None],
    }


#: Every public action that may change a World: its name and each argument's role
#: (positional, then keyword arguments given only sometimes).
ACTIONS: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    "add_player": ((), {"life": "life", "team": "size"}),
    "add_object": (("player",), {"types": "types", "zone": "zone", "power": "stat",
                                 "toughness": "stat", "loyalty": "stat", "durability": "stat",
                                 "keywords": "types", "token": "flag", "name": "name",
                                 "counters": "counters", "caps": "caps", "no_counters": "flag",
                                 "put_by": "player", "games": "games"}),
    "add_objects": (("size", "player"), {"types": "types", "zone": "zone", "loyalty": "stat",
                                         "name": "name", "counters": "counters",
                                         "caps": "caps", "games": "games"}),
    "put_counters": (("id", "kind"), {"n": "amount", "games": "games", "by": "player"}),
    "remove_counters": (("id", "kind"), {"n": "amount", "games": "games"}),
    "move_counters": (("id", "id", "kind"), {"n": "amount", "games": "games", "zone": "zone"}),
    "proliferate": (("id",), {"games": "games", "by": "player"}),
    "set_cap": (("id", "kind", "amount"), {"games": "games"}),
    "clear_cap": (("id", "kind"), {"games": "games"}),
    "destroy": (("id",), {"games": "games"}),
    "sacrifice": (("id",), {"games": "games"}),
    "move_zone": (("id", "zone"), {"games": "games"}),
    "deal_damage": (("id", "amount"), {"deathtouch": "flag", "wither": "flag", "infect": "flag",
                                       "unpreventable": "flag", "combat": "flag",
                                       "games": "games"}),
    "tap": (("id",), {"games": "games"}),
    "untap": (("id",), {"games": "games"}),
    "lose_life": (("player", "amount"), {"games": "games"}),
    "gain_life": (("player", "amount"), {"games": "games"}),
    "cleanup": ((), {"games": "games"}),
    "begin_main_phase": ((), {"player": "player", "precombat": "phase", "policy": "policy",
                              "games": "games"}),
    "draw": (("player",), {"n": "amount", "games": "games"}),
    "mill": (("player",), {"n": "amount", "games": "games"}),
    "order_library": (("player", "id"), {"games": "games"}),
    "shuffle_library": (("player",), {"games": "games"}),
    "set_reserve": (("player", "amount"), {"games": "games"}),
    "gain_reserve": (("player", "amount"), {"games": "games"}),
    "pay_reserve": (("player", "amount"), {"games": "games"}),
    "recover": (("id", "amount"), {"games": "games", "cost": "flag"}),
    "activate_enlighten": (("id",), {"games": "games"}),
    "set_pt": (("id",), {"power": "stat", "toughness": "stat", "games": "games"}),
    "modify_pt": (("id",), {"power": "stat", "toughness": "stat", "games": "games"}),
    "clear_pt": ((), {"e": "id", "games": "games"}),
    "set_controller": (("id", "player"), {"games": "games"}),
    "prohibit": (("id",), {"kind": "kind", "games": "games"}),
    "allow": (("id",), {"kind": "kind", "games": "games"}),
    "set_cant_lose": (("player", "reason"), {"on": "flag", "games": "games"}),
    "set_hold": (("id",), {"on": "flag", "games": "games"}),
    "set_redirect": (("id", "zone"), {"games": "games"}),
    "spawn_seeds": (("size",), {}),
    "fork": (("games", "size"), {"events": "flag"}),
    "select": (("games",), {}),
}


def state(w: World) -> dict[str, Any]:
    """Everything a World is: its store's arrays, the event log's table and step, the name
    table, the seed counter and key, and the generator's state."""
    snap = w.snapshot()
    out = {f"store.{k}": np.asarray(v) for k, v in snap["store"].items()}
    out.update({f"log.{k}": v for k, v in w.log.table().items()})
    out["log.step"] = w.log.step
    out["names"] = list(w.names)
    out["n_spawned"] = w.n_spawned
    out["seed_seq"] = snap["seed_seq"]
    out["rng"] = repr(snap["rng"])
    return out


def assert_same(before: dict[str, Any], after: dict[str, Any], call: str) -> None:
    assert before.keys() == after.keys(), call
    for k, v in before.items():
        if isinstance(v, np.ndarray):
            w = after[k]
            assert v.dtype == w.dtype and v.shape == w.shape and np.array_equal(v, w), (call, k)
        else:
            assert v == after[k], (call, k)


def _arg(data: st.DataObject, good: dict[str, list[Any]], role: str) -> Any:
    """A good value of ``role`` three times in four, else a bad one."""
    pool = good[role] if data.draw(st.integers(0, 3)) else BAD
    return pool[data.draw(st.integers(0, len(pool) - 1))]   # (a timedelta64 can't be hashed)


def run_checked(w: World, call: Callable[[], Any], text: str) -> None:
    """``call()`` succeeds, or raises a CounterError and leaves ``w`` as it was."""
    before = state(w)
    try:
        call()
    except CounterError:
        assert_same(before, state(w), text)


@settings(deadline=None)
@given(world=st.sampled_from(WORLDS), action=st.sampled_from(sorted(ACTIONS)), data=st.data())
def test_every_action_succeeds_or_raises_a_counter_error_and_changes_nothing(
        world, action, data):
    base, stale = _base(*world)
    w = base.clone()
    good = _good(w, stale)
    positional, optional = ACTIONS[action]
    pos = [_arg(data, good, role) for role in positional]
    kw = {name: _arg(data, good, role) for name, role in optional.items()
          if data.draw(st.booleans())}
    text = f"{world} {action}(*{pos!r}, **{kw!r})"
    run_checked(w, lambda: getattr(w, action)(*pos, **kw), text)


@pytest.mark.parametrize("world", WORLDS)
def test_every_bad_damage_amount_is_refused_with_a_counter_error(world):
    """Grand Archive turns negative damage into 0 before the usual validation (Damage 15);
    what is no array of integers at all (a ragged list, a mapping, an object) still gets
    the usual CounterError (CR 107.1) and changes nothing, in every ruleset."""
    w = _base(*world)[0].clone()
    target = w.objects()[0]
    for bad in BAD:
        run_checked(w, lambda b=bad: w.deal_damage(target, b), f"{world} deal_damage({bad!r})")


@pytest.mark.parametrize("world", WORLDS)
def test_after_refused_calls_the_world_plays_on_as_if_they_never_happened(world):
    """A run of calls with bad values, then good actions: the result equals that of a
    World given only the calls that succeeded (a refused call leaves nothing behind that
    a later action could trip over, such as a half-made object or a taken step)."""
    w, ref = _base(*world)[0].clone(), _base(*world)[0].clone()
    bear = w.objects()[0]
    refused = 0
    for bad in BAD:
        for act in (lambda x, b=bad: x.put_counters(bear, "charge", b),
                    lambda x, b=bad: x.add_object(b),
                    lambda x, b=bad: x.add_object(x.players()[0], name=b),
                    lambda x, b=bad: x.gain_life(b, 1), lambda x, b=bad: x.move_zone(bear, b)):
            try:
                act(w)
            except CounterError:
                refused += 1
                continue
            act(ref)
    assert refused > 4 * len(BAD) // 2
    for x in (w, ref):
        x.put_counters(bear, "charge", 1)
        x.add_object(x.players()[0], name="after")
        x.tick()
    assert_same(state(ref), state(w), "after the refused calls")


@settings(deadline=None)
@given(ruleset=st.sampled_from(["mtg", "grand_archive", "magic", 5, None]),
       batch=st.sampled_from([1, 3, 0, -1, 2**20 + 1, 2**31, 2.0, True, np.int8(2), None]),
       seed=st.sampled_from([None, 0, 7, 2**70, [1, 2], np.uint32(3), -1, "abc", 1.5,
                             np.timedelta64(1, "D"), [1, -2], [], np.random.SeedSequence(4)]),
       thg=st.sampled_from([False, True, np.bool_(True), 1, "yes", np.array([1, 2])]),
       max_passes=st.sampled_from([1, 1000, 0, -3, "x", 2.5, 2**40]))
def test_world_constructor_succeeds_or_raises_a_counter_error(
        ruleset, batch, seed, thg, max_passes):
    try:
        w = World(ruleset, batch, seed, two_headed_giant=thg, max_passes=max_passes)
    except CounterError:
        return
    assert w.batch == int(batch) and w.result() is not None


def test_recover_of_no_ids_changes_nothing():
    w = World("grand_archive")
    w.add_player()
    run_checked(w, lambda: w.recover([], 1), "recover([], 1)")
