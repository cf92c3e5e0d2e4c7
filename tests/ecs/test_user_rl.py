"""A learning loop's view of a batch: one action per game, each with its own target and
amount. A refused per-game amount names what it refuses (docs/api.md, Errors: "the
entity, the kind and the value where each is at fault") — the entity and game of the
cell at fault, not the whole id array — and changes no game."""
import numpy as np
import pytest
from ga_helpers import unchanged

from ecs import InvalidCountError, World

B = 64
BAD_GAME = 37


@pytest.fixture
def batch():
    w = World(batch=B, seed=3)
    me = w.add_player()
    ids = w.add_objects(40, me, "creature", power=1, toughness=3)
    per_game = ids[w.rng.integers(0, 40, (B, 1))]   # one target per game, (games, 1)
    per_game[BAD_GAME, 0] = ids[12]
    return w, me, ids, per_game


def bad_amounts(value=-1):
    n = np.ones((B, 1), np.int64)
    n[BAD_GAME, 0] = value
    return n


ACTIONS = {
    "put_counters": (lambda w, t, n: w.put_counters(t, "+1/+1", n), "put '+1/+1' counters on"),
    "remove_counters": (lambda w, t, n: w.remove_counters(t, "charge", n), "remove 'charge' counters from"),
    "deal_damage": (lambda w, t, n: w.deal_damage(t, n), "damage to"),
    "set_cap": (lambda w, t, n: w.set_cap(t, "-1/-1", n), "cap of '-1/-1' on"),
    "put, where present": (lambda w, t, n: w.put_counters(t, "+1/+1", n, where="present"),
                           "put '+1/+1' counters on"),
}


@pytest.mark.parametrize("act", ACTIONS.values(), ids=list(ACTIONS))
@pytest.mark.parametrize("value", [-1, 2**31])
def test_107_1_a_refused_per_game_amount_names_its_entity_and_game(batch, act, value):
    """107.1: amounts are non-negative integers (within int32 here). One refused cell of a
    (games, 1) amount array, with (games, 1) targets, names that cell's entity and game
    and the amount, in a message of one line that does not list every game's id."""
    w, _, ids, per_game = batch
    fn, words = act
    err = unchanged(w, lambda: fn(w, per_game, bad_amounts(value)), InvalidCountError)
    msg = str(err)
    assert f"{words} entity {ids[12]} in game {BAD_GAME}: amount {value} is outside" in msg, msg
    assert "\n" not in msg and len(msg) < 300, msg


def test_107_1_a_refused_amount_of_one_id_per_game_names_the_game(batch):
    """One id, a 1-D amount array (one amount per selected game, in games= order): the
    message names the game whose amount is refused."""
    w, _, ids, _ = batch
    n = np.array([1, 2, -5])
    err = unchanged(w, lambda: w.put_counters(ids[0], "charge", n, games=[9, 4, 21]),
                    InvalidCountError)
    assert f"put 'charge' counters on entity {ids[0]} in game 21: amount -5 is outside" in str(err), str(err)


def test_107_1_a_refused_life_amount_names_the_game(batch):
    w, me, _, _ = batch
    err = unchanged(w, lambda: w.lose_life(me, bad_amounts()[:, 0]), InvalidCountError)
    assert f"life of player {me} in game {BAD_GAME}: amount -1 is outside" in str(err), str(err)


def test_107_1_a_single_game_names_no_game():
    """In a World of one game the game is no news: the message names the entity alone."""
    w = World(seed=0)
    bear = w.add_object(w.add_player(), "creature", power=2, toughness=2)
    err = unchanged(w, lambda: w.put_counters([bear], "charge", np.array([-1])), InvalidCountError)
    assert str(err).startswith(f"put 'charge' counters on entity {bear}: amount -1 is outside"), str(err)


def test_122_5_a_refused_move_amount_names_the_source_and_game(batch):
    w, _, ids, per_game = batch
    err = unchanged(w, lambda: w.move_counters(per_game, ids[0], "charge", bad_amounts()),
                    InvalidCountError)
    assert f"move 'charge' counters from entity {ids[12]} in game {BAD_GAME}: amount -1" in str(err), str(err)


def test_a_refused_amount_of_entering_counters_names_the_game(batch):
    """add_object's counters=: one amount per selected game; the refused one's game."""
    w, me, _, _ = batch
    n = np.ones(B, np.int64)
    n[BAD_GAME] = -2
    err = unchanged(w, lambda: w.add_object(me, "artifact", counters={"charge": n}), InvalidCountError)
    assert f"counters['charge'] in game {BAD_GAME}: amount -2 is outside" in str(err), str(err)


def test_ga_a_refused_per_game_reserve_or_recover_amount_names_the_game():
    """Grand Archive: reserve and Recover N take per-game amounts like any action."""
    w = World(ruleset="grand_archive", batch=4, seed=1)
    ann = w.add_player()
    champ = w.add_object(ann, "champion", life=20, level=1)
    n = np.array([1, 1, -3, 1])
    err = unchanged(w, lambda: w.gain_reserve(ann, n), InvalidCountError)
    assert f"gain reserve of player {ann} in game 2: amount -3" in str(err), str(err)
    err = unchanged(w, lambda: w.recover(champ, n), InvalidCountError)
    assert f"recover on entity {champ} in game 2: amount -3" in str(err), str(err)


def test_121_2_a_refused_per_game_draw_count_names_the_game():
    w = World(batch=3, seed=1)
    me = w.add_player()
    w.add_object(me, "sorcery", zone="library")
    err = unchanged(w, lambda: w.draw(me, np.array([0, -1, 1])), InvalidCountError)
    assert f"for player {me} in game 1: amount -1" in str(err), str(err)
