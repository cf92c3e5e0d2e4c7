"""More refusals name what is at fault (docs/api.md "Errors"): the argument, the entity,
the kind and the value, and in a batch the game at fault, on one short line, and the
refusal changes nothing. (The counter, damage, zone, life and host setter actions are in
test_refusal_messages.py.)"""
import numpy as np
import pytest
from host_rules import once
from state import full_state

from ecs import (
    CountOverflowError,
    IllegalActionError,
    InsufficientReserveError,
    InvalidCountError,
    InvalidTypeError,
    UnknownEntityError,
    UnpayableCostError,
    World,
)
from ecs.limits import MAX_COUNT

B = 8        # games of a batch; the bad input is in game 5 only
BAD = 5


def mtg(batch):
    w = World(batch=batch)
    p = w.add_player()
    w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2, counters={"charge": 1})
    art = w.add_object(p, "artifact")
    return w, {"p": p, "bear": bear, "art": art}


def refused(w, act, error):
    """``act()`` raises ``error`` and changes nothing; its one-line message."""
    before = full_state(w)
    with pytest.raises(error) as info:
        act()
    assert full_state(w) == before
    msg = str(info.value)
    assert "\n" not in msg and len(msg) < 240, msg
    return msg


PLAYER_ARGUMENTS = [
    # (name, action, error, what the message must say)
    ("122.6 put_counters by= an object names the argument", lambda w, o: w.put_counters(
        o["bear"], "charge", 1, by=o["art"]), IllegalActionError, "put_counters by: entity 3 is not a player"),
    ("122.6 put_counters by= an unknown id names the argument", lambda w, o: w.put_counters(
        o["bear"], "charge", 1, by=99), UnknownEntityError, "put_counters by: entity 99 does not exist"),
    ("701.34a proliferate by= an object names the argument", lambda w, o: w.proliferate(
        [o["bear"]], by=o["bear"]), IllegalActionError, "proliferate by: entity 2 is not a player"),
    ("108.3 an object's controller that is an object names the argument", lambda w, o: w.add_object(
        o["bear"], "artifact"), IllegalActionError, "controller: entity 2 is not a player"),
    ("108.3 an object's controller that never existed names the argument", lambda w, o: w.add_object(
        99, "artifact"), UnknownEntityError, "controller: entity 99 does not exist"),
    ("122.6a put_by that is an object names the argument", lambda w, o: w.add_object(
        o["p"], "artifact", counters={"charge": 1}, put_by=o["art"]), IllegalActionError,
     "put_by: entity 3 is not a player"),
    ("122.6a move_zone by= an object names the argument", lambda w, o: w.move_zone(
        o["art"], "hand", counters={"charge": 1}, by=o["bear"]), IllegalActionError,
     "move_zone by: entity 2 is not a player"),
    ("108.4 set_controller to an object names the argument", lambda w, o: w.set_controller(
        o["bear"], o["art"]), IllegalActionError, "set_controller player: entity 3 is not a player"),
    ("108.4 set_controller to an unknown id names the argument", lambda w, o: w.set_controller(
        o["bear"], 99), UnknownEntityError, "set_controller player: entity 99 does not exist"),
]


@pytest.mark.parametrize("batch", [1, B])
@pytest.mark.parametrize("name, act, error, needle", PLAYER_ARGUMENTS, ids=[c[0] for c in PLAYER_ARGUMENTS])
def test_a_player_argument_at_fault_is_named_beside_its_id(name, act, error, needle, batch):
    w, o = mtg(batch)
    msg = refused(w, lambda: act(w, o), error)
    assert needle in msg, msg


def per_game(good, bad, dtype=np.int64):
    """One value per game of a batch, ``bad`` in game 5."""
    a = np.full(B, good, dtype)
    a[BAD] = bad
    return a


def ga(batch):
    w = World("grand_archive", batch=batch)
    p = w.add_player()
    q = w.add_player()
    champ = w.add_object(p, "champion", life=20, level=1, counters={"enlighten": 3})
    return w, {"p": p, "q": q, "champ": champ}


@pytest.mark.parametrize("batch", [1, B])
@pytest.mark.parametrize("players", ["p", "both"])
def test_a_reserve_gained_past_max_count_names_its_player_and_game(batch, players):
    """GA Costs and Memory: a reserve is a count of cards; a gain past MAX_COUNT in one game
    names that game's player, not the ids given."""
    w, o = ga(batch)
    game = BAD if batch > 1 else 0
    w.set_reserve(o["p"], MAX_COUNT, games=game if batch > 1 else None)
    ids = o["p"] if players == "p" else [o["q"], o["p"]]
    msg = refused(w, lambda: w.gain_reserve(ids, 1), CountOverflowError)
    assert f"player {o['p']} in game {game} has {MAX_COUNT}" in msg and "[" not in msg, msg


NON_INTEGER = [
    # (name, world, action with per-game amounts, what the message must say)
    ("107.1 a put of a fraction of a counter", mtg,
     lambda w, o, n: w.put_counters(o["bear"], "charge", n), "put 'charge' counters on entity 2 in game 5"),
    ("107.1 a put of an amount that is no number, per id and game", mtg,
     lambda w, o, n: w.put_counters(np.full((B, 1), o["bear"]), "charge", per_game(1, n[BAD], object)[:, None]),
     "put 'charge' counters on entity 2 in game 5"),
    ("122.4 a cap of a fraction", mtg,
     lambda w, o, n: w.set_cap(o["bear"], "charge", n), "cap of 'charge' on entity 2 in game 5"),
    ("121.1 drawing a fraction of a card", mtg,
     lambda w, o, n: w.draw(o["p"], n), "draw for player 0 in game 5"),
    ("120.3 damage of a fraction", mtg,
     lambda w, o, n: w.deal_damage(o["bear"], n), "damage to entity 2 in game 5"),
    ("613.4b a set power that is a fraction", mtg,
     lambda w, o, n: w.set_pt(o["bear"], power=n), "set_pt power of entity 2 in game 5"),
    ("GA Costs and Memory a reserve that is a fraction", ga,
     lambda w, o, n: w.set_reserve(o["p"], n), "set reserve of player 0 in game 5"),
]


@pytest.mark.parametrize("bad", [1.5, float("nan")])
@pytest.mark.parametrize("name, make, act, needle", NON_INTEGER, ids=[c[0] for c in NON_INTEGER])
def test_a_non_integer_amount_in_one_game_names_its_game(name, make, act, needle, bad):
    w, o = make(B)
    msg = refused(w, lambda: act(w, o, per_game(1.0, bad, float)), ValueError)
    assert needle in msg, msg


FLAGS = [
    ("GA Immortality 1 set_immortal", ga, lambda w, o, on: w.set_immortal(o["champ"], on),
     "set_immortal immortal of entity 2"),
    ("704.5v set_hold", mtg, lambda w, o, on: w.set_hold(o["bear"], on), "set_hold on of entity 2"),
    ("704.5a set_cant_lose", mtg, lambda w, o, on: w.set_cant_lose(o["p"], "life", on), "set_cant_lose on of player 0"),
]


@pytest.mark.parametrize("name, make, act, needle", FLAGS, ids=[c[0] for c in FLAGS])
def test_a_flag_that_is_no_bool_in_one_game_names_its_value_and_game(name, make, act, needle):
    """Per-game flags with one value that is no bool: the message names that value and its
    game, not the first flag (a bool, and no fault)."""
    w, o = make(B)
    msg = refused(w, lambda: act(w, o, per_game(True, 2, object)), InvalidTypeError)
    assert f"{needle} in game 5 must be a bool" in msg and "2 at index (5,)" in msg, msg


@pytest.mark.parametrize("batch", [1, B])
def test_a_host_systems_refused_decision_names_the_system_704_3(batch):
    """704.3: a host's system decides into the check; a decision the World cannot apply is
    refused before anything is performed, naming the system, the entity and the game."""
    w, o = mtg(batch)
    game = BAD if batch > 1 else 0
    col = int(np.flatnonzero(w.store.a["entity_id"][0] == o["bear"])[0])
    kind = w.store.kind_index["charge"]
    w.schedule = w.schedule.with_systems(once(lambda g, c: c.remove(
        kind, np.array([game]), np.array([col]), np.array([-1]), "remove")))
    msg = refused(w, w.tick, InvalidCountError)
    assert msg.startswith("system Once: a removal ('remove') of -1 counters from entity 2 "
                          f"in game {game}:"), msg


@pytest.mark.parametrize("where, error", [("missing/x.npz", FileNotFoundError), ("folder", IsADirectoryError)],
                         ids=["into a missing folder", "onto a folder"])
def test_a_save_the_file_system_refuses_names_the_path_given(tmp_path, where, error):
    """``save`` passes on the file system's OSError as ``open(path, "wb")`` raises it: naming
    the path given, not the temporary file it writes first; no file is left behind."""
    (tmp_path / "folder").mkdir()
    w, _ = mtg(1)
    path = tmp_path / where
    with pytest.raises(error) as info:
        w.save(path)
    assert info.value.filename == str(path) and ".tcgtmp" not in str(info.value), info.value
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]


def deck(batch):
    w, o = mtg(batch)
    o["lib"] = [int(e) for e in w.add_objects(60, o["p"], "land", zone="library")]
    o["hand"] = w.add_object(o["p"], "land", zone="hand")
    return w, o


def twice_in_game_5(o):
    rows = np.tile(np.array(o["lib"]), (B, 1))
    rows[BAD, 10] = rows[BAD, 11]
    return rows


LIBRARIES = [
    ("a card of the hand", lambda o: o["lib"][:-1] + [o["hand"]], 0, "entity 64 is not in that library"),
    ("a card named twice in game 5", twice_in_game_5, BAD, "entity 15 is named twice"),
    ("a card short", lambda o: o["lib"][:-1], 0, "59 ids for a library of 60 cards"),
]


@pytest.mark.parametrize("name, order, game, needle", LIBRARIES, ids=[c[0] for c in LIBRARIES])
def test_a_library_order_that_is_not_the_library_names_the_id_at_fault_401_1(name, order, game, needle):
    """401.1: order_library takes every card of the library once; a deck's order that is not
    names the id at fault and its game, not the deck's 60 ids."""
    w, o = deck(B)
    msg = refused(w, lambda: w.order_library(o["p"], order(o)), IllegalActionError)
    assert f"library of player 0 in game {game}: {needle}" in msg and "[" not in msg, msg


def in_game_5(e, other):
    """A (games, 1) id array naming ``e``, and ``other`` in game 5."""
    ids = np.full((B, 1), e, np.int64)
    ids[BAD] = other
    return ids


def ga_short_in_game_5(batch):
    """``ga``, the champion one enlighten counter short of 3 in game 5."""
    w, o = ga(batch)
    w.remove_counters(o["champ"], "enlighten", 1, games=BAD)
    return w, o


IN_ONE_GAME = [
    # (name, world, action with bad input in game 5 only, error, what the message must say)
    ("GA Enlighten 1 too few enlighten counters", ga_short_in_game_5,
     lambda w, o: w.activate_enlighten(o["champ"]), UnpayableCostError,
     "entity 2 in game 5 has 2 'enlighten' counters"),
    ("GA Costs and Memory paying more reserve than there is", ga,
     lambda w, o: w.pay_reserve(o["p"], per_game(0, 3)), InsufficientReserveError, "player 0 in game 5 can't pay 3"),
    ("GA Costs and Memory a reserve set on an object", ga,
     lambda w, o: w.set_reserve(in_game_5(o["p"], o["champ"]), 1), IllegalActionError,
     "entity 2 in game 5 is not a player"),
    ("GA Immortality 1 a player declared immortal", ga,
     lambda w, o: w.set_immortal(in_game_5(o["champ"], o["p"])), IllegalActionError, "entity 0 in game 5 is a player"),
    ("122.4 a cap past MAX_COUNT", mtg,
     lambda w, o: w.set_cap(o["bear"], "charge", per_game(1, 2**40)), InvalidCountError,
     f"cap of 'charge' on entity 2 in game 5: amount {2**40}"),
]


@pytest.mark.parametrize("name, make, act, error, needle", IN_ONE_GAME, ids=[c[0] for c in IN_ONE_GAME])
def test_bad_input_in_one_game_of_a_batch_names_that_game(name, make, act, error, needle):
    w, o = make(B)
    msg = refused(w, lambda: act(w, o), error)
    assert needle in msg, msg
