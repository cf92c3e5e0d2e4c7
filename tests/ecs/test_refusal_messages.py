"""A refusal's message names the entity, the kind and the value at fault, and in a batch
the game at fault, on one short line (no dumped arrays), and the refusal changes nothing
(docs/api.md "Errors")."""
import numpy as np
import pytest
from state import full_state

from ecs import CountOverflowError, IllegalActionError, InvalidCountError, InvalidTypeError, UnknownEntityError, World

B = 8        # games of a batch; the bad input is in game 5 only
BAD = 5


def world(batch):
    w = World(batch=batch)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2, counters={"charge": 1})
    art = w.add_object(p, "artifact")
    return w, {"p": p, "bear": bear, "art": art}


def per_game(good, bad, batch=B, dtype=np.int64):
    """One value per game, ``bad`` in game 5."""
    a = np.full(batch, good, dtype)
    a[BAD] = bad
    return a


def grid(e, batch=B):
    """A (games, 1) id array naming ``e`` in every game."""
    return np.full((batch, 1), e, np.int64)


CASES = [
    # (name, batch, action, error, what the message must say)
    ("107.1 a negative amount for a grid of ids names the one id", B,
     lambda w, o: w.put_counters(grid(o["bear"]), "charge", -1), InvalidCountError,
     ["entity 1:", "-1", "107.1"]),
    ("107.1 a negative amount for many ids names a few of them", 1,
     lambda w, o: w.put_counters([o["bear"], o["art"]] * 40, "charge", -1), InvalidCountError,
     ["entities 1, 2:", "-1"]),
    ("107.1 damage of a negative amount to a grid of ids names the one id", B,
     lambda w, o: w.deal_damage(grid(o["bear"]), -1), InvalidCountError, ["damage to entity 1:", "-1"]),
    ("107.1 a non-integer amount among many per-game ones names the value and where it is", 200,
     lambda w, o: w.put_counters(o["bear"], "charge", per_game(1.0, 1.5, 200, float)), InvalidCountError,
     ["entity 1", "float64", "1.5 at index (5,)"]),
    ("a non-integer id in a grid names the value and where it is", B,
     lambda w, o: w.put_counters(per_game(o["bear"], 1.5, dtype=float)[:, None], "charge", 1),
     UnknownEntityError, ["entity must be an integer", "1.5 at index (5, 0)"]),
    ("122.5 moving a negative amount between two objects names the source", 1,
     lambda w, o: w.move_counters(o["bear"], o["art"], "charge", -1), InvalidCountError,
     ["from entity 1:", "-1"]),
    ("613.4b a set power past MAX_STAT in one game names its entity and game", B,
     lambda w, o: w.set_pt(grid(o["bear"]), power=per_game(1, 2**40)[:, None]), InvalidCountError,
     ["set_pt power of entity 1 in game 5", str(2**40)]),
    ("613.4c a power change past MAX_STAT in one game names its entity and game", B,
     lambda w, o: w.modify_pt(o["bear"], power=per_game(1, 2**40)), InvalidCountError,
     ["modify_pt power of entity 1 in game 5", str(2**40)]),
    ("613.4b a set power past MAX_STAT for a grid of ids names the one id", B,
     lambda w, o: w.set_pt(grid(o["bear"]), power=2**40), InvalidCountError,
     ["set_pt power of entity 1:", str(2**40)]),
    ("704.5v a hold flag that is no bool for a grid of ids names the one id", B,
     lambda w, o: w.set_hold(grid(o["bear"]), on=2), InvalidTypeError, ["set_hold on of entity 1 ", "got 2"]),
    ("704.5a a can't-lose flag that is no bool names the player", B,
     lambda w, o: w.set_cant_lose(grid(o["p"]), "life", on=2), InvalidTypeError,
     ["set_cant_lose on of player 0 ", "got 2"]),
]


@pytest.mark.parametrize("name, batch, act, error, needles", CASES, ids=[c[0] for c in CASES])
def test_a_refusal_names_what_is_at_fault_on_one_short_line(name, batch, act, error, needles):
    w, o = world(batch)
    before = full_state(w)
    with pytest.raises(error) as info:
        act(w, o)
    assert full_state(w) == before
    msg = str(info.value)
    for needle in needles:
        assert needle in msg, msg
    assert "\n" not in msg and len(msg) < 240, msg
    assert "[" not in msg.replace("[np.", "") and "array(" not in msg, msg


def test_an_overflow_in_one_game_names_its_entity_and_game():
    """A count past MAX_COUNT in game 5 only: that game's entity is named (107.1b)."""
    w, o = world(B)
    before = full_state(w)
    with pytest.raises(CountOverflowError, match=r"entity 1 in game 5 would pass"):
        w.put_counters(o["bear"], "charge", per_game(1, 2**31 - 1))
    assert full_state(w) == before


def test_a_player_given_plus_one_counters_in_one_game_is_named_with_its_game_122_1a():
    w, o = world(B)
    ids = grid(o["bear"])
    ids[BAD] = o["p"]
    before = full_state(w)
    with pytest.raises(IllegalActionError, match=r"entity 0 in game 5 is a player.*122\.1a"):
        w.put_counters(ids, "+1/+1", 1)
    assert full_state(w) == before
