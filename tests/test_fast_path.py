"""The single-game fast path against the general path.

A World of one game given plain Python ints (one id, or a short list of them for the
actions on objects;
one amount; ``games=None``) takes scalar fast paths in argument resolution, counting, the
event log and the reads; with
``ecs.store.SCALAR_PATHS`` cleared the same call takes the general, vectorized path. Hypothesis
draws random action sequences (valid and invalid: stale and unknown ids, negative and
overflowing amounts, prohibited and capped objects, a game that ends) and runs each step on
two identical Worlds, one through each path; after every step they must have raised the
same error (class and message) or none, and have equal state and event tables; every read
must return the same value, of the same Python type.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from profiles import examples
from scalar_paths import general

from ecs import CounterError, StaleEntityError, World, args, store, turns
from ecs.events import COUNTER, TAP
from ecs.limits import MAX_COUNT, MAX_LIFE, MAX_STAT

KINDS = ["+1/+1", "-1/-1", "charge", "poison", "loyalty", "defense", "shield", "stun", "flying",
         "deathtouch", "lifelink"]
GA_KINDS = ["buff", "debuff", "buff", "debuff", "damage", "bulwark", "charge", "durability", "+1/+1", "shield"]
ACTIONS = ["put", "put", "put", "remove", "remove", "damage", "damage", "damage", "destroy", "move_zone",
           "sacrifice", "set_cap", "tick", "ban", "clone", "tap", "tap", "untap", "untap", "lose_life",
           "gain_life", "add", "add", "move_counters", "move_counters", "proliferate", "proliferate"]
#: move_zone's destinations, drawn by its amount: a return to the battlefield enters anew (122.6),
#: a card put into a library goes to its bottom.
MOVE_ZONES = ["exile", "graveyard", "battlefield", "hand", "library"]
READS = ["count", "counters", "power", "toughness", "exists", "life", "loyalty", "damage", "zone", "controller",
         "owner", "is_tapped", "keywords", "name", "is_prohibited", "defense"]
ABILITIES = ("deathtouch", "wither", "infect", "lifelink")
_DAMAGE_FLAGS = (*ABILITIES, "combat", "unpreventable")   # (a step's options that are deal_damage's)


def _board(ruleset: str = "mtg") -> tuple[World, list[int]]:
    """A small game of each kind the scalar paths must match: Magic (a player near the
    bound of life, so lifelink can pass it), Two-Headed Giant (the team's poison and life,
    810.8, 810.10) and Grand Archive (placement replaced by buff/debuff, its own damage)."""
    if ruleset == "grand_archive":
        w = World(ruleset=ruleset, seed=5)
        p1, p2 = w.add_player(), w.add_player()
        return w, [p1, p2,
                   w.add_object(p1, "champion", life=20, level=1),
                   w.add_object(p2, "ally", power=1, life=2, counters={"buff": 1}),
                   w.add_object(p1, "ally", power=2, life=3, counters={"debuff": 1}),
                   w.add_object(p2, "item", no_counters=True),
                   w.add_object(p1, "ally", power=1, life=4, zone="graveyard"),
                   w.add_object(p2, "item", durability=2),
                   *w.add_objects(2, p1, "ally", power=1, life=1, zone="deck")]   # (8, 9) to draw
    if ruleset == "library":   # Magic, with libraries to draw and mill from (CR 121.1, 701 "Mill")
        w = World(seed=5)
        p1, p2 = w.add_player(life=8), w.add_player()
        ids = [p1, p2, w.add_object(p1, "creature", power=2, toughness=2), *w.add_objects(3, p1, "creature",
               power=1, toughness=1, zone="library"), w.add_object(p2, "artifact", zone="library"),
               w.add_player()]   # a third player: the game goes on when one loses
        return w, [int(e) for e in ids]
    hg = ruleset == "2hg"
    w = World(seed=5, two_headed_giant=hg)
    p1 = w.add_player(life=8, **({"team": 0} if hg else {}))
    p2 = w.add_player(life=MAX_LIFE - 2 if not hg else MAX_LIFE // 2, **({"team": 1} if hg else {}))
    mate = [w.add_player(life=MAX_LIFE // 2 - 2, team=1)] if hg else []   # p2's team: life and poison are p2's
    w.put_counters(mate[0] if mate else p2, "poison", 8)
    ids = [p1, p2,
               w.add_object(p1, "creature", power=2, toughness=2, counters={"shield": 1}),
               w.add_object(p2, "creature", power=1, toughness=1, counters={"+1/+1": 1}),
               w.add_object(p1, "planeswalker", loyalty=2, counters={"shield": 1}),
               w.add_object(p2, "artifact", no_counters=True),
               w.add_object(p1, "creature", power=1, toughness=4, zone="graveyard"),
               w.add_object(p2, "battle", defense=3, counters={"shield": 2}),
               w.add_object(p2, "creature", power=1, toughness=3, keywords=["deathtouch", "lifelink"]),
               *mate,
               w.add_object(p1, "creature", power=1, toughness=1, token=True, counters={"+1/+1": 1})]
    w.prohibit(ids[3], "-1/-1")   # 101.3: no -1/-1 counters by a put or by wither and infect
    w.prohibit(ids[7])            # nor any counters
    w.set_redirect(ids[8], "exile")   # 614.1a: a host's "if it would die, exile it instead"
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


def _act(w: World, ids: list[int], step: tuple[Any, ...]) -> Any:
    op, who, kind, n, extra = step
    e = _id(ids, who) if not op.endswith("_many") else None
    if op == "put":
        return w.put_counters(e, kind, n)
    if op == "remove":
        return w.remove_counters(e, kind, n)
    if op == "damage":
        flags = {k: v for k, v in extra.items() if k in _DAMAGE_FLAGS}
        source = None if extra.get("source") is None else _id(ids, extra["source"])
        return w.deal_damage(e, n, source, **flags)
    if op == "destroy":
        return w.destroy(e)
    if op == "move_zone":
        return w.move_zone(e, MOVE_ZONES[n % len(MOVE_ZONES)])
    if op == "sacrifice":
        return w.sacrifice(e)
    if op == "set_cap":
        return w.set_cap(e, kind, n)
    if op == "clear_cap":
        return w.clear_cap(e, kind)
    if op == "set_cant_lose":   # for a reason the amount picks (a third: none such)
        return w.set_cant_lose(e, ("life", "poison", "mana")[n % 3], extra.get("on", True))
    if op in ("add", "adds"):   # one object, or two or three alike
        types, kwargs = ADDS[(sum(map(ord, kind)) + n) % len(ADDS)]
        kwargs = {k: n if v is None else v for k, v in kwargs.items()}
        return w.add_object(e, types, **kwargs) if op == "add" else w.add_objects(2 + n % 2, e, types, **kwargs)
    if op == "move_counters":   # to the next board object (the same one for 0), on the battlefield or anywhere
        dst = e if n == 0 else _id(ids, (who + 1) % len(ids))
        return w.move_counters(e, dst, kind, n, zone=None if n % 2 else "battlefield")
    if op == "proliferate":   # by the other player, for every third amount
        return w.proliferate(e, by=ids[1] if n % 3 == 2 else None)
    if op == "proliferate_many":
        return w.proliferate(_many(ids, who, extra["form"]))
    if op in ("tap", "untap"):
        return getattr(w, op)(e)
    if op in ("draw", "mill"):
        return getattr(w, op)(e, n)
    if op == "shuffle":
        return w.shuffle_library(e)
    if op == "begin":   # the next player's main phase, or that of the player named (an odd amount)
        return w.begin_main_phase(e if n % 2 else None)
    if op == "enlighten":
        return w.activate_enlighten(e)
    if op == "recover":
        return w.recover(e, n, cost=extra.get("cost", False))
    if op in ("set_reserve", "gain_reserve", "pay_reserve"):
        return getattr(w, op)(e, n)
    if op == "set_pt":
        return w.set_pt(e, **{k: v for k, v in extra.items() if k in ("power", "toughness")})
    if op == "modify_pt":
        return w.modify_pt(e, **{k: v for k, v in extra.items() if k in ("power", "toughness")})
    if op == "clear_pt":
        return w.clear_pt(e)
    if op == "set_hold":
        return w.set_hold(e, extra.get("on", True))
    if op == "set_redirect":
        return w.set_redirect(e, extra.get("zone"))
    if op == "set_controller":
        return w.set_controller(e, ids[n % 2])
    if op in ("lose_life", "gain_life"):
        return getattr(w, op)(e, n)
    if op in ("tap_many", "untap_many"):
        return getattr(w, op[:-5])(_many(ids, who, extra["form"]))
    if op in ("lose_many", "gain_many"):
        return getattr(w, op[:-5] + "_life")(_many(ids, who, extra["form"]), n)
    if op == "ban":
        return w.prohibit(e, kind)
    if op == "allow":   # every prohibition, for every fourth amount
        return w.allow(e, None if n % 4 == 3 else kind)
    if op == "put_many":
        return w.put_counters(_many(ids, who, extra["form"]), kind, n)
    if op == "remove_many":
        return w.remove_counters(_many(ids, who, extra["form"]), kind, n)
    if op == "destroy_many":
        return w.destroy(_many(ids, who, extra["form"]))
    if op == "sacrifice_many":
        return w.sacrifice(_many(ids, who, extra["form"]))
    if op == "move_many":
        return w.move_zone(_many(ids, who, extra["form"]), MOVE_ZONES[n % len(MOVE_ZONES)])
    if op == "damage_many":
        flags = {k: v for k, v in extra.items() if k in _DAMAGE_FLAGS}
        source = None if extra.get("source") is None else _id(ids, extra["source"])
        return w.deal_damage(_many(ids, who, extra["form"]), n, source, **flags)
    return w.tick()


#: The objects an ``add`` step makes (its kind and amount pick one, the amount fills in the
#: None): entering with printed loyalty or defense as counters (306.5b, 310.4b) or given
#: ones (122.6), none where 101.3 forbids them, past MAX_COUNT, outside the battlefield,
#: Grand Archive's.
ADDS: list[tuple[str | tuple[str, ...], dict[str, Any]]] = [
    ("creature", {"power": 1, "toughness": 1, "token": True}),
    (("planeswalker", "battle"), {"loyalty": None, "defense": 2}),   # two kinds enter, kind by kind
    ("planeswalker", {"loyalty": None, "put_by": 1}),   # 122.6a: another player puts them
    ("battle", {"defense": None, "counters": {"shield": 1}}),
    ("creature", {"power": 2, "toughness": 2, "counters": {"+1/+1": None}, "no_counters": True}),
    ("planeswalker", {"loyalty": MAX_COUNT, "counters": {"loyalty": None}}),
    ("artifact", {"zone": "graveyard", "counters": {"charge": None}}),
    ("creature", {"power": 1, "toughness": None, "loyalty": None}),   # loyalty: a planeswalker's only
    ("ally", {"power": 1, "life": None}),
    ("item", {"durability": None, "counters": {"buff": 1}}),
    ("creature", {"power": 1, "toughness": 1, "caps": {"charge": None}, "name": "Bear"}),
]

#: How the ``*_many`` steps give their ids: a list, a tuple, 1-D arrays of two dtypes, a (games, ids) grid.
FORMS = ("list", "tuple", "int64", "uint64", "grid")


def _many(ids: list[int], who: tuple[int, ...], form: str) -> Any:
    """Several targets (repeats kept) in one of the ``FORMS``; ids past the board name nothing."""
    got = [_id(ids, i) for i in who]
    if form == "list":
        return got
    if form == "tuple":
        return tuple(got)
    arr = np.array([int(x) for x in got], np.int64 if form != "uint64" else np.uint64)
    return arr[None, :] if form == "grid" else arr


def _id(ids: list[int], who: int) -> Any:
    """The id of board object ``who``: a NumPy integer for every third (what add_objects
    returns: the scalar paths take those too); past the board an id that names nothing."""
    if who >= len(ids):
        return who
    return np.int64(ids[who]) if who % 3 == 1 else ids[who]


def _read(w: World, ids: list[int], what: str, who: int, kind: str) -> Any:
    e = _id(ids, who)
    return {"count": lambda: w.count(e, kind), "counters": lambda: w.counters(e),
            "power": lambda: w.power(e), "toughness": lambda: w.toughness(e),
            "exists": lambda: w.exists(e), "life": lambda: w.life(e),
            "loyalty": lambda: w.loyalty(e), "damage": lambda: w.damage(e), "zone": lambda: w.zone(e),
            "controller": lambda: w.controller(e), "owner": lambda: w.owner(e),
            "is_tapped": lambda: w.is_tapped(e), "keywords": lambda: w.keywords(e), "name": lambda: w.name(e),
            "is_prohibited": lambda: w.is_prohibited(e, kind), "defense": lambda: w.defense(e),
            "is_held": lambda: w.is_held(e), "active_player": lambda: w.active_player(),
            "objects": lambda: w.objects(), "players": lambda: w.players()}[what]()


def _amounts() -> st.SearchStrategy[int]:
    return st.one_of(st.integers(0, 3), st.sampled_from([-1, MAX_COUNT, MAX_COUNT + 1, 12]))


WHO = [*range(12), 10**6]
#: deal_damage's options: a source (8: with deathtouch and lifelink printed; another object,
#: one in a graveyard, a player: refused, ids naming nothing), each ability given as
#: True/False or left to the source (None), combat, unpreventable.
DAMAGE_OPTIONS = {
    "source": st.sampled_from([None, 8, 8, 8, 3, 6, 0, 9, 10**6]), "combat": st.booleans(),
    "unpreventable": st.booleans(),
    **{k: st.sampled_from([None, True, False]) for k in ABILITIES}}
DAMAGE_FLAGS = st.fixed_dictionaries({}, optional=DAMAGE_OPTIONS)


def _steps(kinds: list[str], actions: list[str] = ACTIONS, who: list[int] = WHO,
           flags: st.SearchStrategy[dict[str, Any]] = DAMAGE_FLAGS) -> st.SearchStrategy[list[tuple[Any, ...]]]:
    """Lists of steps (action, target index, kind, amount, damage options), and actions
    on several targets (puts, removals, damage, destroys, sacrifices, moves, taps, untaps,
    life lost and gained, proliferate: a tuple of target indices, repeats kept, and how
    the ids are given, ``FORMS``); the focused
    tests draw from fewer actions, targets and kinds, so that the cases where a scalar
    path could diverge (a shield met by damage, a teammate's poison) come up often."""
    targets = st.lists(st.sampled_from(who), min_size=1, max_size=6).map(tuple)
    many = st.tuples(st.sampled_from(["put_many", "put_many", "remove_many", "damage_many", "damage_many",
                                      "destroy_many", "sacrifice_many", "move_many", "tap_many",
                                      "untap_many", "lose_many", "gain_many", "proliferate_many"]),
                     targets, st.sampled_from(kinds), _amounts(),
                     st.fixed_dictionaries({"form": st.sampled_from(FORMS)}, optional=DAMAGE_OPTIONS))
    one = st.tuples(st.sampled_from(actions), st.sampled_from(who), st.sampled_from(kinds),
                    _amounts(), flags)
    return st.lists(st.one_of(one, one, one, many), min_size=2, max_size=24)


#: Mostly damage, to the damageable objects and players (8: a source of deathtouch and
#: lifelink), with the counters that change what it does.
DAMAGE_ACTIONS = ["damage"] * 6 + ["put", "put", "remove", "tick", "ban"]
DAMAGE_KINDS = ["shield", "shield", "-1/-1", "poison", "loyalty", "defense", "deathtouch", "lifelink"]
DAMAGE_WHO = [0, 1, 2, 2, 3, 4, 4, 7, 7, 8, 5, 10**6]
#: Two-Headed Giant: the players, 9 the teammate whose poison and life are the team's.
TEAM_ACTIONS = ["put", "remove", "damage", "damage", "tick", "lose_life", "gain_life", "move_counters", "proliferate"]
TEAM_KINDS = ["poison", "poison", "poison", "+1/+1", "shield", "charge"]
TEAM_WHO = [0, 1, 9, 9, 9, 2, 7, 10**6]
#: Grand Archive: buff and debuff on the allies holding the other (3, 4).
GA_ACTIONS = ["put", "put", "put", "remove", "damage", "damage", "tick", "clone", "destroy", "sacrifice", "move_zone",
              "tap", "untap", "add", "move_counters", "proliferate", "set_reserve", "gain_reserve", "pay_reserve",
              "pay_reserve"]
GA_WHO = [0, 1, 2, 3, 3, 4, 4, 5, 6, 7, 10**6]
#: Grand Archive damage: to the champion (2) and the allies, bulwark counters met by combat
#: damage, the damage counters' room; seldom a Magic ability (refused).
GA_DAMAGE_ACTIONS = ["damage"] * 6 + ["put", "put", "remove", "tick"]
GA_DAMAGE_KINDS = ["bulwark", "bulwark", "damage", "buff", "debuff"]
GA_DAMAGE_WHO = [0, 2, 2, 2, 3, 4, 5, 6, 7, 10**6]
GA_DAMAGE_FLAGS = st.fixed_dictionaries({}, optional={
    "source": st.sampled_from([None, 2, 3, 6, 0, 10**6]), "combat": st.booleans(),
    "unpreventable": st.booleans(), "deathtouch": st.sampled_from([None, None, False, True])})


#: Grand Archive's player actions on one object, with what changes them: enlighten counters
#: spent to draw (Enlighten 1; 8 and 9 the deck, then none) and damage counters recovered
#: from the champion (2; Recover 2-2.2), as a cost or not (1 and NumPy's True: the general path).
GA_PLAYER_ACTIONS = ["enlighten", "enlighten", "enlighten", "recover", "recover", "recover", "put", "put", "put",
                     "damage", "damage", "tick", "destroy", "move_zone", "clone"]
GA_PLAYER_KINDS = ["enlighten", "enlighten", "enlighten", "damage", "buff"]
GA_PLAYER_WHO = [0, 2, 2, 2, 2, 3, 4, 6, 8, 10**6]
GA_PLAYER_FLAGS = st.fixed_dictionaries({}, optional={"cost": st.sampled_from([False, True, 1, np.bool_(True)])})


#: Objects made one or a few at a time (``ADDS``), and steps that then meet them (12, 13: the
#: first made).
ADD_ACTIONS = ["add"] * 4 + ["adds"] * 2 + ["put", "tick", "destroy", "move_zone", "damage"]
ADD_WHO = [0, 0, 1, 1, 2, 12, 13, 10**6]


#: Zone changes of one object (CR 400.7) and the deaths of a tick (704.5f-g): the kinds that
#: change where and whether it goes (shield 122.1c, indestructible 702.12b, finality 122.1h),
#: the counters it takes along as LKI (122.2) and the caps that end (122.4); 9 (10 in 2HG): a token.
MOVE_ACTIONS = ["destroy", "destroy", "sacrifice", "move_zone", "move_zone", "put", "put", "damage", "tick",
                "tick", "set_cap", "set_cap", "clear_cap", "tap", "untap", "add", "move_counters", "proliferate"]
MOVE_KINDS = ["-1/-1", "-1/-1", "+1/+1", "shield", "indestructible", "indestructible", "finality", "charge"]
MOVE_WHO = [2, 2, 3, 4, 5, 6, 7, 8, 8, 9, 9, 10, 10**6]


def _differential(ruleset: str, steps: list[tuple[Any, ...]], reads: list[tuple[str, int, str]]) -> None:
    fast, ids = _board(ruleset)
    slow, _ = _board(ruleset)
    ids = ids + [max(ids) + 1]   # a valid id that names nothing yet
    for step in steps:
        if step[0] == "clone":   # go on with clones: the log's rows must be shared safely
            before = _state(fast)
            fast, old = fast.clone(), fast
            slow = slow.clone()
            got = _outcome(fast.put_counters, ids[2], "charge", 1)
            with general():
                want = _outcome(slow.put_counters, ids[2], "charge", 1)
            assert got == want
            after = _state(old)
            assert all(np.array_equal(before[1][k], after[1][k]) for k in before[1])
            continue
        got = _outcome(_act, fast, ids, step)
        with general():
            want = _outcome(_act, slow, ids, step)
        assert got == want, step
        if step[0] == "move_zone" and got[0] == "ok" and type(got[1]) is int and got[1] >= 0 and step[1] < len(ids):
            ids[step[1]] = got[1]   # go on with the new object (400.7): a return, a token that stays
        if step[0] == "add" and got[0] == "ok":
            ids.append(got[1])   # later steps may name it
        if step[0] == "adds" and got[0] == "ok":
            ids.extend(got[1][0])
        _assert_same(fast, slow)
        for what, who, kind in reads:
            got = _outcome(_read, fast, ids, what, who, kind)
            with general():
                want = _outcome(_read, slow, ids, what, who, kind)
            assert got == want and type(got[1]) is type(want[1]), (what, who, kind)


READ_STEPS = st.lists(st.tuples(st.sampled_from(READS), st.sampled_from(WHO), st.sampled_from(KINDS)),
                      min_size=1, max_size=6)


@settings(max_examples=examples(150), deadline=None)
@given(_steps(KINDS), READ_STEPS)
def test_scalar_path_equals_general_path_in_magic(steps: list[tuple[Any, ...]],
                                                  reads: list[tuple[str, int, str]]) -> None:
    """Each action and read of one game with scalar arguments gives exactly the state,
    events, errors and values of the vectorized path: puts (122.6) and removals, damage
    by every rule of 120.3 (a-h) with its flags and a source's keywords (702.2 deathtouch,
    702.15 lifelink, wither, infect), shield counters (122.1c), 0 damage (120.8), life
    past its bounds, and the 704 ticks with the ending game of 104.3."""
    _differential("mtg", steps, reads)


@settings(max_examples=examples(250), deadline=None)
@given(_steps(DAMAGE_KINDS, DAMAGE_ACTIONS, DAMAGE_WHO), READ_STEPS)
def test_scalar_damage_equals_general_damage_in_magic(steps: list[tuple[Any, ...]],
                                                      reads: list[tuple[str, int, str]]) -> None:
    """Mostly damage (CR 120.3 a-h, 122.1c, 702.2, 702.15, 120.8), so that every ability,
    source and target kind meets every counter that changes what damage does."""
    _differential("mtg", steps, reads)


@settings(max_examples=examples(150), deadline=None)
@given(_steps(TEAM_KINDS, TEAM_ACTIONS, TEAM_WHO), READ_STEPS)
def test_scalar_path_equals_general_path_in_two_headed_giant(steps: list[tuple[Any, ...]],
                                                             reads: list[tuple[str, int, str]]) -> None:
    """The same in Two-Headed Giant: a team's shared poison (810.10) and life (810.8)."""
    _differential("2hg", steps, reads)


@settings(max_examples=examples(150), deadline=None)
@given(_steps(GA_KINDS, GA_ACTIONS, GA_WHO),
       st.lists(st.tuples(st.sampled_from(READS), st.sampled_from(WHO), st.sampled_from(GA_KINDS)),
                min_size=1, max_size=6))
@example([("gain_reserve", 0, "", 3, {}), ("pay_reserve", 0, "", 2, {}), ("pay_reserve", 0, "", 2, {}),
          ("pay_reserve", 1, "", 0, {}), ("set_reserve", 1, "", MAX_COUNT, {}), ("gain_reserve", 1, "", 1, {}),
          ("pay_reserve", 2, "", 1, {})], [("life", 0, "")])
def test_scalar_path_equals_general_path_in_grand_archive(steps: list[tuple[Any, ...]],
                                                          reads: list[tuple[str, int, str]]) -> None:
    """The same in Grand Archive: its placement hook (buff/debuff cancel as placed, Buff 4,
    Debuff 4), its damage (damage counters on champions, Damage 12-13), reserve set,
    gained and paid (a payment an event, Costs and Memory 1; one short of reserve
    refused) and its refusals of Magic kinds and abilities."""
    _differential("grand_archive", steps, reads)


@settings(max_examples=examples(100), deadline=None)
@given(_steps(GA_DAMAGE_KINDS, GA_DAMAGE_ACTIONS, GA_DAMAGE_WHO, GA_DAMAGE_FLAGS), READ_STEPS)
def test_scalar_damage_equals_general_damage_in_grand_archive(steps: list[tuple[Any, ...]],
                                                              reads: list[tuple[str, int, str]]) -> None:
    """Mostly Grand Archive damage (Damage 4-5, 12-13, 15; Bulwark 1-4): damage counters on
    a champion, marked damage on an ally, a bulwark counter spent on combat damage (and by
    unpreventable damage), targets that are not units on the field, Magic abilities refused."""
    _differential("grand_archive", steps, reads)


@settings(max_examples=examples(150), deadline=None)
@given(_steps(GA_PLAYER_KINDS, GA_PLAYER_ACTIONS, GA_PLAYER_WHO, GA_PLAYER_FLAGS),
       st.lists(st.tuples(st.sampled_from(["count", "counters", "zone", "exists"]), st.sampled_from(GA_PLAYER_WHO),
                          st.sampled_from(GA_PLAYER_KINDS)), min_size=1, max_size=4))
@example([("put", 2, "enlighten", 3, {}), ("enlighten", 2, "", 0, {}), ("put", 2, "enlighten", 3, {}),
          ("enlighten", 2, "", 0, {}), ("put", 2, "enlighten", 3, {}), ("enlighten", 2, "", 0, {}),
          ("damage", 2, "", 3, {}), ("recover", 2, "", 2, {"cost": True}), ("recover", 2, "", 2, {"cost": True}),
          ("recover", 2, "", 2, {}), ("recover", 2, "", 0, {})], [("count", 2, "damage")])
@example([("put", 2, "enlighten", 2, {}), ("enlighten", 2, "", 0, {}), ("recover", 2, "", 1, {}),
          ("put", 3, "enlighten", 3, {}), ("destroy", 3, "", 0, {}), ("enlighten", 3, "", 0, {}),
          ("put", 6, "enlighten", 3, {}), ("enlighten", 6, "", 0, {}), ("recover", 4, "", 1, {}),
          ("move_zone", 2, "", 1, {}), ("recover", 2, "", 1, {})], [("count", 2, "enlighten")])
def test_scalar_player_actions_equal_general_player_actions_in_grand_archive(
        steps: list[tuple[Any, ...]], reads: list[tuple[str, int, str]]) -> None:
    """Grand Archive's enlighten (remove 3 enlighten counters, then the controller draws:
    Enlighten 1; fewer than 3, or off the field, refused) and recover (up to N damage
    counters removed from a champion on the field, an event even with none: Recover
    2-2.1.1; as a cost, refused short of N) of one object of one game give the state,
    events, errors and values of the general path, the deck emptying on the way."""
    _differential("grand_archive", steps, reads)


#: Grand Archive damage to one target or a few (a tuple), each case after its puts (index,
#: kind, n): the rows of Damage 4-5, 12-13, 15 and Bulwark 1-4 that random draws meet seldom.
GA_DAMAGE_CASES = [
    ("champion: damage counters", [], (2, 2, {})),
    ("ally: marked damage", [], (3, 1, {})),
    ("0 damage: not dealt, no event", [], (3, 0, {})),
    ("an ally in the graveyard: refused", [], (6, 1, {})),
    ("0 damage to an ally in the graveyard: refused", [], (6, 0, {})),
    ("an item: refused", [], (7, 1, {})),
    ("a player: refused", [], (0, 1, {})),
    ("a Magic ability: refused", [], (3, 1, {"deathtouch": True})),
    ("a source: its id in the event", [], (2, 1, {"source": 3})),
    ("bulwark: combat damage prevented, the counter spent", [(2, "bulwark", 2)], (2, 3, {"combat": True})),
    ("bulwark: unpreventable combat damage dealt, the counter spent", [(3, "bulwark", 1)],
     (3, 1, {"combat": True, "unpreventable": True})),
    ("bulwark: damage not in combat dealt, the counter kept", [(2, "bulwark", 1)], (2, 2, {})),
    ("damage counters past MAX_COUNT: refused", [(2, "damage", MAX_COUNT - 1)], (2, 2, {})),
    # a few targets at once (a tuple of indices): one event per target, amounts added
    ("a champion and an ally", [], ((2, 3), 1, {})),
    ("an ally named twice: one event of the sum", [], ((3, 4, 3), 1, {})),
    ("0 damage to two: none dealt, no event", [], ((2, 3), 0, {})),
    ("combat damage to two, a bulwark on one", [(2, "bulwark", 1)], ((3, 2), 2, {"combat": True})),
    ("unpreventable combat damage to two, a bulwark spent", [(3, "bulwark", 1)],
     ((2, 3), 1, {"combat": True, "unpreventable": True})),
    ("an item among them: refused", [], ((3, 7), 1, {})),
    ("damage counters past MAX_COUNT on one of two: refused", [(2, "damage", MAX_COUNT - 1)], ((3, 2), 2, {})),
    ("a source, to two", [], ((2, 4), 1, {"source": 3})),
]


def _ga_boards(puts: list[tuple[int, str, int]]) -> tuple[World, World, list[int]]:
    """Two Grand Archive boards (for the scalar and the general path) after ``puts`` (index,
    kind, n), their events cleared."""
    fast, ids = _board("grand_archive")
    slow, _ = _board("grand_archive")
    for w in (fast, slow):
        for i, kind, n in puts:
            w.put_counters(ids[i], kind, n)
        w.clear_events()
    return fast, slow, ids


@pytest.mark.parametrize("case", GA_DAMAGE_CASES, ids=[c[0] for c in GA_DAMAGE_CASES])
def test_grand_archive_damage_to_one_or_a_few_targets_equals_the_general_path(case: tuple[Any, ...]) -> None:
    """Each case of ``GA_DAMAGE_CASES`` (Damage 4-5, 12-13, 15; Bulwark 1-4) on both paths:
    the same outcome, state and events (and the step of an event after it)."""
    _, puts, (who, n, flags) = case
    fast, slow, ids = _ga_boards(puts)
    source = flags.get("source")
    options = {k: v for k, v in flags.items() if k != "source"}
    src = None if source is None else ids[source]
    target = [ids[i] for i in who] if isinstance(who, tuple) else ids[who]
    got = _outcome(lambda: fast.deal_damage(target, n, src, **options))
    with general():
        want = _outcome(lambda: slow.deal_damage(target, n, src, **options))
    assert got == want
    for w in (fast, slow):   # a later event: its step shows whether the damage took one
        w.put_counters(ids[2], "charge", 1)
    _assert_same(fast, slow)


#: Grand Archive placement on a few targets of one game (indices into the board: 3 holds a
#: buff, 4 a debuff, 2 the champion, 7 an item that can't have counters), after its puts:
#: the rows where Buff 4 / Debuff 4 cancel as counters are placed, met by puts and by
#: proliferate (701.34a; by a player or not).
GA_FEW_CASES = [
    ("debuff on a buffed and a debuffed ally", [], ("put", (3, 4), "debuff", 1)),
    ("buff twice on the debuffed ally, once on the buffed one", [(4, "debuff", 2)], ("put", (4, 3, 4), "buff", 2)),
    ("buff on both, the debuff outnumbering it", [(4, "debuff", 3)], ("put", (4, 3), "buff", 1)),
    ("charge on the champion and an item that can't have counters", [], ("put", (2, 7), "charge", 1)),
    ("proliferate on both allies and the champion", [(2, "damage", 1)], ("proliferate", (3, 4, 2), None, None)),
    ("proliferate by a player", [(2, "charge", 1)], ("proliferate", (2, 3, 4), None, 1)),
]


@pytest.mark.parametrize("case", GA_FEW_CASES, ids=[c[0] for c in GA_FEW_CASES])
def test_grand_archive_placement_on_a_few_targets_equals_the_general_path(case: tuple[Any, ...]) -> None:
    """Each case of ``GA_FEW_CASES`` on both paths (the ruleset's ``place_few`` against its
    ``place``): the same outcome, state and events, in the same order (Buff 4, Debuff 4)."""
    _, puts, (op, who, kind, x) = case   # x: a put's amount, or the index of proliferate's player
    fast, slow, ids = _ga_boards(puts)
    targets = [ids[i] for i in who]

    def act(w: World) -> Any:
        if op == "put":
            return w.put_counters(targets, kind, x)
        return w.proliferate(targets, by=None if x is None else ids[x])

    got = _outcome(lambda: act(fast))
    with general():
        want = _outcome(lambda: act(slow))
    assert got == want
    _assert_same(fast, slow)


def test_a_ruleset_that_replaces_deal_damage_but_not_its_scalar_hook_gets_the_general_path() -> None:
    """A host's ruleset replacing ``deal_damage`` (not ``deal_damage_one``) has its own rules
    run for one target in one game too (``counting.scalar_hook``); one replacing both has
    its scalar hook called."""
    from ecs.rules.grand_archive import GrandArchive
    calls: list[str] = []

    class Hosted(GrandArchive):
        def deal_damage(self, world: Any, g: Any, c: Any, amount: Any, flags: Any) -> None:
            calls.append("general")
            super().deal_damage(world, g, c, amount, flags)

    class HostedBoth(Hosted):
        def deal_damage_one(self, *a: Any) -> bool:
            calls.append("one")
            return False   # (nothing done: the general path goes on)

    for ruleset, want in ((Hosted(), ["general"]), (HostedBoth(), ["one", "general"])):
        w, ids = _board("grand_archive")
        w.ruleset = ruleset
        calls.clear()
        w.deal_damage(ids[3], 1)
        assert calls == want and w.damage(ids[3]) == 1


@pytest.mark.parametrize("who", [(3,), (2, 3)], ids=["one ally", "the champion and the ally"])
def test_grand_archive_marked_damage_past_max_count_is_refused_on_both_paths(who: tuple[int, ...]) -> None:
    """Marked damage is int32 like counts: an ally's past MAX_COUNT is refused, nothing
    changed, whether it is dealt to the ally alone or to it and another unit at once."""
    fast, ids = _board("grand_archive")
    slow, _ = _board("grand_archive")
    for w in (fast, slow):
        w.deal_damage(ids[3], MAX_COUNT - 1)
    target = [ids[i] for i in who] if len(who) > 1 else ids[who[0]]
    got = _outcome(fast.deal_damage, target, 2)
    with general():
        want = _outcome(slow.deal_damage, target, 2)
    assert got == want and got[0] == "CountOverflowError"
    _assert_same(fast, slow)


@settings(max_examples=examples(100), deadline=None)
@given(_steps(KINDS, ADD_ACTIONS, ADD_WHO), READ_STEPS)
@example([("adds", 0, "+1/+1", 1, {}), ("adds", 1, "+1/+1", 1, {})], [("counters", 12, "")])   # planeswalker battles
def test_scalar_adds_equal_general_adds(steps: list[tuple[Any, ...]], reads: list[tuple[str, int, str]]) -> None:
    """Objects made one or a few at a time on both paths: the game's lowest free slots and
    the next ids, printed loyalty and defense entering as counters (306.5b, 310.4b) put by the
    controller or another player (122.6a), given counters (122.6), none where 101.3
    forbids them, caps (122.4), and the errors of bad input."""
    _differential("mtg", steps, reads)


#: Draws and mills of one card (and of none, several, from another player's library or an
#: empty one, 704.5b), cards sent to a library (they arrive at the bottom), shuffles; main
#: phases in turn order, past a player who lost (704.5a).
LIBRARY_ACTIONS = ["draw", "draw", "draw", "mill", "mill", "shuffle", "move_zone", "move_zone", "put", "tick",
                   "clone", "begin", "begin", "begin", "lose_life"]
LIBRARY_WHO = [0, 0, 0, 1, 1, 7, 2, 3, 4, 6, 10**6]


@settings(max_examples=examples(150), deadline=None)
@given(_steps(KINDS, LIBRARY_ACTIONS, LIBRARY_WHO),
       st.lists(st.tuples(st.sampled_from(["zone", "exists", "life", "counters", "active_player", "objects",
                                           "players"]), st.sampled_from(LIBRARY_WHO),
                          st.sampled_from(KINDS)), min_size=1, max_size=4))
@example([("move_zone", 2, "", 4, {}), ("draw", 0, "", 1, {}), ("draw", 0, "", 1, {}), ("mill", 0, "", 1, {}),
          ("draw", 0, "", 1, {}), ("draw", 0, "", 1, {}), ("tick", 0, "", 0, {}), ("draw", 1, "", 1, {}),
          ("mill", 1, "", 1, {})], [("exists", 0, "")])
@example([("begin", 0, "", 0, {}), ("begin", 0, "", 0, {}), ("begin", 7, "", 1, {}), ("lose_life", 0, "", 12, {}),
          ("begin", 0, "", 0, {}), ("begin", 0, "", 0, {}), ("begin", 0, "", 0, {}), ("begin", 1, "", 1, {})],
         [("life", 0, "")])
def test_scalar_draws_and_mills_equal_general_draws_and_mills(steps: list[tuple[Any, ...]],
                                                              reads: list[tuple[str, int, str]]) -> None:
    """A draw (CR 121.1) or mill (701 "Mill") of one card of one game takes the top card
    of the library, ordered as the general path orders it, to the hand or graveyard as a
    new object (400.7) with the same events; a draw from an empty library is noted and
    loses at the next check (704.5b); other counts, bad players and ids take the general
    path alike. A main phase begins for the next player in turn order who has not lost
    (704.5a), on both paths."""
    _differential("library", steps, reads)


#: A host engine's effects on objects (ecs.host), with what they change: puts, damage and
#: the deaths of a tick (704.5f-g under set and modified toughness), zone changes that end
#: them (400.7); values at and past MAX_STAT, of other types (bools, NumPy ints, None).
HOST_ACTIONS = ["set_pt", "set_pt", "modify_pt", "modify_pt", "modify_pt", "clear_pt", "set_hold", "set_redirect",
                "set_controller", "ban", "put", "damage", "tick", "tick", "destroy", "move_zone", "clone",
                "set_cant_lose", "set_cant_lose", "lose_life", "ban", "allow", "allow"]
HOST_VALUES = st.sampled_from([0, 1, 2, -1, -3, MAX_STAT, MAX_STAT + 1, -MAX_STAT, True, None, np.int64(2)])
HOST_FLAGS = st.fixed_dictionaries({}, optional={
    "power": HOST_VALUES, "toughness": HOST_VALUES, "on": st.sampled_from([True, False, 1, np.bool_(True)]),
    "zone": st.sampled_from([None, "exile", "hand", "graveyard", "nowhere"])})
HOST_WHO = [0, 1, 2, 2, 3, 3, 4, 6, 7, 8, 10, 10**6]
HOST_READS = st.lists(st.tuples(st.sampled_from(["power", "toughness", "controller", "owner", "zone",
                                                 "is_prohibited", "is_held", "exists"]),
                                st.sampled_from(HOST_WHO), st.sampled_from(KINDS)), min_size=1, max_size=6)


@settings(max_examples=examples(150), deadline=None)
@given(_steps(KINDS, HOST_ACTIONS, HOST_WHO, HOST_FLAGS), HOST_READS)
@example([("modify_pt", 2, "", 0, {"toughness": -3}), ("tick", 0, "", 0, {}),
          ("set_pt", 3, "", 0, {"toughness": 0}), ("set_hold", 3, "", 0, {"on": True}), ("tick", 0, "", 0, {}),
          ("modify_pt", 4, "", 0, {"power": MAX_STAT}), ("modify_pt", 4, "", 0, {"power": 1})],
         [("toughness", 3, ""), ("exists", 2, "")])
@example([("set_pt", 2, "", 0, {"power": True}), ("set_hold", 3, "", 0, {"on": 1}),
          ("modify_pt", 4, "", 0, {"toughness": np.int64(2)}), ("set_controller", 8, "", 1, {}),
          ("set_redirect", 2, "", 0, {"zone": "nowhere"}), ("ban", 0, "charge", 0, {}),
          ("ban", 10**6, "stun", 0, {})],
         [("is_held", 3, ""), ("controller", 8, "")])
@example([("set_hold", 3, "", 0, {"on": True}), ("ban", 4, "charge", 0, {}), ("ban", 4, "+1/+1", 0, {}),
          ("allow", 4, "charge", 1, {}), ("ban", 2, "stun", 0, {}), ("allow", 2, "stun", 1, {})],
         [("is_held", 3, ""), ("is_prohibited", 4, "+1/+1"), ("is_prohibited", 4, "charge"),
          ("is_prohibited", 2, "stun")])
@example([("set_cant_lose", 0, "", 0, {"on": True}), ("lose_life", 0, "", 12, {}), ("tick", 0, "", 0, {}),
          ("set_cant_lose", 1, "", 1, {"on": True}), ("set_cant_lose", 0, "", 3, {"on": False}),
          ("tick", 0, "", 0, {})], [("life", 0, "")])
def test_scalar_host_effects_equal_general_host_effects(steps: list[tuple[Any, ...]],
                                                        reads: list[tuple[str, int, str]]) -> None:
    """A host's effects on one object of one game (set and modified power/toughness,
    layers 7b/7c, 613.4b-c; cleared, 514.2; control, 108.4; 101.3 prohibitions set and
    ended; the hold of 704.5v; "if it would die" 614.1a) and on a player (can't lose for
    life or poison, 704.5a, 704.5c) give the state, errors and reads of the general path,
    and what the state-based actions then do with them (704.5f-g, 704.5a): values past
    MAX_STAT refused, others not ints taken by the general path alike."""
    _differential("mtg", steps, reads)


@settings(max_examples=examples(200), deadline=None)
@given(_steps(MOVE_KINDS, MOVE_ACTIONS, MOVE_WHO), READ_STEPS)
@example([("put", 3, "indestructible", 1, {}), ("destroy", 3, "", 0, {}), ("put", 8, "finality", 1, {}),
          ("put", 8, "-1/-1", 3, {}), ("tick", 0, "", 0, {}), ("move_zone", 9, "", 1, {}),
          ("move_zone", 9, "", 0, {}), ("tick", 0, "", 0, {})], [("exists", 9, "")])
def test_scalar_zone_changes_equal_general_zone_changes(steps: list[tuple[Any, ...]],
                                                        reads: list[tuple[str, int, str]]) -> None:
    """Destroy (701.8), sacrifice (701.21a), move_zone and the deaths of a tick move one
    object to a new id (400.7) with the same state and events on both paths: counters
    cease to exist, carried as LKI (122.2), caps set, changed, cleared and ended (122.4), shield (122.1c),
    indestructible (702.12b), finality (122.1h), a host's redirect (614.1a), a token that
    ceases to exist (704.5d, 111.8) and stale ids."""
    _differential("mtg", steps, reads)


def test_log_rows_recorded_one_at_a_time_read_back_in_order() -> None:
    """Single rows recorded cheaply and array chunks interleave in the order recorded
    (CR 704.3 steps), in the table, a snapshot restored, and a clone recorded into."""
    w, ids = _board()
    w.clear_events()
    w.put_counters(ids[2], "charge", 1)            # one row
    w.put_counters(np.array([ids[2], ids[3]]), "charge", 2)   # a chunk of two
    w.put_counters(ids[2], "-1/-1", 2)             # one row; the tick records chunks
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


def _three_creatures(monkeypatch: pytest.MonkeyPatch) -> tuple[World, int, np.ndarray]:
    """A game of one player and three 2/2 creatures (no events yet) whose batched lookup
    raises: what follows must take the scalar paths."""
    w = World(seed=0)
    p = w.add_player()
    ids = w.add_objects(3, p, "creature", power=2, toughness=2)
    w.clear_events()

    def batched(*_: Any, **__: Any) -> Any:
        raise AssertionError("the general path was taken")
    monkeypatch.setattr(args, "rows", batched)
    monkeypatch.setattr(store.Store, "locate", batched)
    return w, p, ids


def test_numpy_integer_ids_take_the_scalar_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ids add_objects returns are NumPy integers: actions and reads on one of them in
    a single game take the scalar paths, never the batched lookup."""
    w, p, ids = _three_creatures(monkeypatch)
    w.put_counters(ids[0], "+1/+1", 2)
    w.remove_counters(ids[0], "+1/+1", 1)
    w.deal_damage(ids[1], 1, ids[2])
    assert (w.count(ids[0], "+1/+1"), w.power(ids[0]), w.damage(ids[1])) == (1, 3, 1)
    assert (w.zone(ids[1]), w.counters(ids[0]), w.controller(ids[2])) == ("battlefield", {"+1/+1": 1}, p)
    w.destroy(ids[2])
    assert w.exists(ids[2]) is False   # 400.7: a new object in the graveyard


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
                                   np.int64, np.uint64])
def test_ids_of_every_numpy_integer_type_are_ids(batch: int, dtype: Any) -> None:
    """An id given as a NumPy integer of any width names the same object: reads and
    actions, a stale one too (400.7), and no NumPy overflow escapes."""
    w = World(batch=batch, seed=0)
    p = w.add_player()
    e = w.add_object(p, "creature", power=2, toughness=2)
    w.put_counters(dtype(e), "+1/+1", 1)
    assert np.all(w.exists(dtype(e))) and np.all(w.count(dtype(e), "+1/+1") == 1)
    w.destroy(dtype(e))
    assert not np.any(w.exists(dtype(e)))
    with pytest.raises(StaleEntityError):
        w.count(dtype(e), "+1/+1")


def test_actions_on_a_few_targets_take_the_scalar_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """A put on a short list of one game's objects (CR 122.6), or on an array of their ids,
    a removal, damage and a destroy take the scalar path, never the batched lookup: one
    step (one event, 704.3), rows naming one object adding up."""
    w, p, ids = _three_creatures(monkeypatch)
    w.put_counters([ids[0], int(ids[1]), ids[0]], "+1/+1", 1)
    w.put_counters(ids[1:], "charge", 2)
    assert [w.counters(e) for e in ids] == [{"+1/+1": 2}, {"+1/+1": 1, "charge": 2}, {"charge": 2}]
    t = w.event_table()
    assert t["after"].tolist() == [2, 1, 2, 2] and t["step"].tolist() == [t["step"][0]] * 2 + [t["step"][2]] * 2
    assert t["step"][2] > t["step"][0]
    w.remove_counters((ids[2], ids[0], ids[2]), "charge", 1)   # 101.3: what is there, and no more
    assert [w.count(e, "charge") for e in ids] == [0, 2, 0]
    assert w.event_table()["before"][4:].tolist() == [2]
    w.deal_damage([ids[2], ids[1], ids[2]], 1, ids[0], lifelink=True)   # 120.3: one event per target
    assert [w.damage(e) for e in ids] == [0, 1, 2] and w.life(p) == 23   # 120.3f: all it dealt
    t = w.event_table()
    assert t["entity"][5:].tolist() == [ids[1], ids[2]] and t["after"][5:].tolist() == [1, 2]
    w.destroy(np.array([ids[2], ids[1]]))   # 701.8: to the graveyard as new objects (400.7)
    assert [w.exists(e) for e in ids] == [True, False, False]
    w.clear_events()
    w.sacrifice([ids[0], ids[0]])   # 701.21a: one object, sacrificed once
    assert not w.exists(ids[0]) and len(w.event_table()["entity"]) == 1


def test_taps_and_life_changes_take_the_scalar_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tapping and untapping one or a few of one game's permanents, and a player's life
    lost or gained, take the scalar path, never the batched lookup: an untap meeting a
    stun counter removes it instead (CR 122.1d), a permanent named twice is tapped once,
    rows naming one player add up."""
    w, p, ids = _three_creatures(monkeypatch)
    w.tap(ids[0])
    w.tap([ids[2], ids[1], ids[2]])
    assert [w.is_tapped(e) for e in ids] == [True, True, True]
    assert w.event_table()["entity"].tolist() == [ids[0], ids[1], ids[2]]   # once each, by column
    w.put_counters(ids[1:], "stun", 1)
    w.clear_events()
    w.untap(ids)
    assert [w.is_tapped(e) for e in ids] == [False, True, True] and w.counters(ids[1]) == w.counters(ids[2]) == {}
    t = w.event_table()   # the general path's order: the stun events, then the counters removed
    assert t["type"].tolist() == [TAP, TAP, COUNTER, COUNTER, TAP]
    assert t["entity"].tolist() == [ids[1], ids[2], ids[1], ids[2], ids[0]]
    w.lose_life([p, p], 3)
    w.gain_life(np.int64(p), 1)
    assert w.life(p) == 15


def test_host_calls_caps_and_player_actions_take_the_scalar_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cap changed and ended (CR 122.4), can't-lose (704.5a), a prohibition read and
    ended (101.3), a hold read (704.5v), the turn player read and set (505.1), and Grand Archive's enlighten
    (Enlighten 1: the card drawn comes back) and recover (Recover 2) on one game's object
    take the scalar paths: never the general paths' targets, rows or columns."""
    w = World(seed=0)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2, caps={"+1/+1": 3})
    w.prohibit(bear, "charge")
    ga = World(ruleset="grand_archive", seed=0)
    q = ga.add_player()
    champ = ga.add_object(q, "champion", life=20, level=1, counters={"enlighten": 3})
    [card] = ga.add_objects(1, q, "ally", power=1, life=1, zone="deck").tolist()
    ga.deal_damage(champ, 2)

    def batched(*_: Any, **__: Any) -> Any:
        raise AssertionError("the general path was taken")
    for name in ("rows", "targets", "column"):
        monkeypatch.setattr(args, name, batched)
    monkeypatch.setattr(store.Store, "locate", batched)
    monkeypatch.setattr(turns, "select_games", batched)
    monkeypatch.setattr(turns, "_turn", batched)
    w.set_cap(bear, "+1/+1", 1)
    w.clear_cap(bear, "+1/+1")
    w.set_cant_lose(p, "life", True)
    assert w.is_prohibited(bear, "charge") and not w.is_held(bear) and w.active_player() == -1
    w.allow(bear, "charge")
    assert not w.is_prohibited(bear, "charge") and w.objects() == [bear] and w.players() == [p]
    w.begin_main_phase(p)   # (CR 505.1) the turn player set, in plain ints
    w.begin_main_phase()
    assert w.active_player() == p
    drawn = ga.activate_enlighten(champ)
    assert drawn != card and ga.zone(drawn) == "hand" and ga.count(champ, "enlighten") == 0
    assert ga.recover(champ, 3) == 2 and ga.count(champ, "damage") == 0


#: move_counters cases: (source, destination, amount, zone, how many move).
MOVES = {"prohibited": ("a", "b", 1, "battlefield", 0), "no counters": ("a", "b", 1, "battlefield", 0),
         "graveyard destination": ("a", "gy", 1, "battlefield", 0),
         "graveyard source": ("gy", "a", 1, "battlefield", 0), "any zone": ("gy", "a", 1, None, 1),
         "the same object": ("a", "a", 1, "battlefield", 0), "more than it has": ("a", "b", 5, "battlefield", 2)}


@pytest.mark.parametrize("case", sorted(MOVES))
def test_move_counters_on_one_game_moves_as_the_general_path(case: str) -> None:
    """CR 122.5: counters move between two objects in the zone named (or any), onto one that
    can have them (101.3, a prohibition), no more than the source has; the scalar path gives
    the general path's count, state and events."""
    def run() -> tuple[Any, World]:
        w = World(seed=0)
        p = w.add_player()
        objs = {"a": w.add_object(p, "creature", power=1, toughness=1, counters={"+1/+1": 2}),
                "b": w.add_object(p, "creature", power=1, toughness=1, no_counters=case == "no counters"),
                "gy": w.add_object(p, "creature", power=1, toughness=1, zone="graveyard", counters={"+1/+1": 1})}
        if case == "prohibited":
            w.prohibit(objs["b"], "+1/+1")
        src, dst, n, zone, _ = MOVES[case]
        return w.move_counters(objs[src], objs[dst], "+1/+1", n, zone=zone), w
    fast = run()
    with general():
        slow = run()
    assert fast[0] == slow[0] == MOVES[case][4] and type(fast[0]) is type(slow[0])
    _assert_same(fast[1], slow[1])


def test_proliferate_on_one_game_gives_each_chosen_object_one_of_each_kind_by_column() -> None:
    """CR 701.34a: each chosen permanent or player (each once, however often named) gets one
    more counter of each kind it has, kind by kind in the general path's order (by
    column); a card in a graveyard can't be chosen, and that changes nothing."""
    def run() -> tuple[World, list[int], tuple[str, Any]]:
        w = World(seed=0)
        p = w.add_player()
        a = w.add_object(p, "creature", power=1, toughness=1, counters={"shield": 1, "+1/+1": 1})
        b = w.add_object(p, "creature", power=1, toughness=1, counters={"shield": 2})
        gy = w.add_object(p, "creature", power=1, toughness=1, zone="graveyard", counters={"+1/+1": 1})
        w.put_counters(p, "poison", 1)
        w.clear_events()
        w.proliferate([b, p, a, b])
        return w, [p, a, b], _outcome(w.proliferate, [a, gy])
    fast, (p, a, b), refused = run()
    with general():
        slow, _, refused_there = run()
    _assert_same(fast, slow)
    assert refused == refused_there and refused[0] == "IllegalActionError"
    assert [fast.counters(e) for e in (p, a, b)] == [{"poison": 2}, {"shield": 2, "+1/+1": 2}, {"shield": 3}]


@pytest.mark.parametrize("named", [True, False])
def test_a_player_who_loses_in_the_first_check_of_a_main_phase_takes_no_turn(named: bool) -> None:
    """CR 117.5 then 704.5a: ``begin_main_phase`` checks state-based actions first; a
    player at 0 life loses there (104.3b), and neither takes the turn named for it nor is
    the next player, and its rad counters do nothing (728.1). The game of three players goes
    on; the scalar path gives the general path's state and events."""
    def run() -> tuple[int, list[bool], Any, World]:
        w = World(seed=0)
        a, b, c = (w.add_player() for _ in range(3))
        w.begin_main_phase(c, precombat=False)   # so that a is the next player
        w.put_counters(a, "rad", 2)
        w.lose_life(a, 20)
        w.begin_main_phase(a if named else None)
        return w.active_player(), [w.has_lost(p) for p in (a, b, c)], w.count(a, "rad"), w
    fast = run()
    with general():
        slow = run()
    assert fast[:3] == slow[:3]
    turn, lost, rad, w = fast
    assert lost == [True, False, False] and rad == 2
    assert turn == (w.players()[2] if named else w.players()[1])   # named: c's turn goes on
    _assert_same(fast[3], slow[3])


@pytest.mark.parametrize("n", [3, 64, 65, 300])
def test_many_objects_of_one_game_take_the_array_path_with_the_same_result(n: int) -> None:
    """``add_objects`` of a few objects of one game finds and writes each slot in plain ints;
    past ``args.FEW`` (each find is a pass over the slots: 65,536 objects took 7 s) it takes
    the array path. Either way the objects fill the game's free slots first, with the ids,
    fields, entering counters and events of the general path."""
    def made(scalar: bool) -> tuple[Any, ...]:
        w = World(seed=0)
        p = w.add_player()
        tokens = w.add_objects(40, p, "creature", power=1, toughness=1, token=True)
        w.destroy(tokens[::3])
        w.tick()   # the destroyed tokens cease to exist: their slots are free
        w.clear_events()
        if scalar:
            ids = w.add_objects(n, p, "planeswalker", loyalty=3, name="Teferi")
        else:
            with general():
                ids = w.add_objects(n, p, "planeswalker", loyalty=3, name="Teferi")
        s = w.store
        return (ids.tolist(), s.locate(0, ids).tolist(), [w.counters(int(e)) for e in ids],
                w.event_table()["entity"].tolist(), w.step)
    assert made(True) == made(False)


@pytest.mark.parametrize("few", [False, True])
def test_counts_reaching_max_count_exactly_take_the_scalar_path(monkeypatch: pytest.MonkeyPatch, few: bool) -> None:
    """A count may reach MAX_COUNT itself (only passing it is refused, as on the general
    path): marked damage (120.3e) and counters (122.1) that make it exactly MAX_COUNT, on
    one target or a few, are dealt and put by the scalar path."""
    w, _, ids = _three_creatures(monkeypatch)
    first = int(ids[0])
    targets = [first, int(ids[1])] if few else first
    w.deal_damage(first, MAX_COUNT - 1)
    w.deal_damage(targets, 1)
    w.put_counters(first, "charge", 1)
    w.put_counters(targets, "charge", MAX_COUNT - 1)
    assert w.damage(first) == w.count(first, "charge") == MAX_COUNT
