"""ecs.args, the one validation layer: numbers are integers of their own dtype's range
(never a bool, never wrapped on the way to int64), and a refusal names the value it
refuses and changes nothing."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from ga_helpers import unchanged
from state import full_state

from ecs import (
    GameOverError,
    IllegalActionError,
    InvalidCountError,
    InvalidGameError,
    StaleEntityError,
    UnknownEntityError,
    World,
)
from ecs.args import room_for_objects
from ecs.limits import MAX_ID, MAX_SLOTS


@pytest.fixture(params=[1, 2], ids=["one game", "batch"])
def game(request):
    """A World of one game (scalar paths) or two, a player and a bear with a charge counter."""
    w = World(batch=request.param)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2, counters={"charge": 1})
    return w, p, bear


def test_107_1_an_array_of_bools_is_no_amount(game):
    """107.1: amounts are integers; a bool array (whose values NumPy would read as 0 and 1)
    is refused as a bool is."""
    w, _, bear = game
    flags = np.ones(w.batch, bool)
    err = unchanged(w, lambda: w.put_counters(bear, "charge", flags), InvalidCountError)
    assert "amount must be an integer" in str(err)


@pytest.mark.parametrize("ids", [np.array([True]), np.array([True, False])])
def test_an_array_of_bools_is_no_id(game, ids):
    w, _, _ = game
    err = unchanged(w, lambda ids=ids: w.put_counters(ids, "charge", 1), UnknownEntityError)
    assert "entity must be an integer" in str(err)


def test_the_first_amount_out_of_range_is_the_one_named(game):
    w, _, bear = game
    err = unchanged(w, lambda: w.put_counters([bear, bear], "charge", [-2, -3]), InvalidCountError)
    assert "amount -2 is outside" in str(err)


@pytest.mark.parametrize("where", ["all", "present"])
def test_an_id_past_int32_is_named_as_given_never_wrapped(game, where):
    """An id of 2**32 + bear's is no object: refused naming that id, not read as
    ``bear`` (what it would wrap to in an int32)."""
    w, _, bear = game
    big = 2**32 + bear
    for ids in ([bear, big], np.array([bear, big], np.uint64)):
        err = unchanged(w, lambda ids=ids: w.put_counters(ids, "charge", 1, where=where), UnknownEntityError)
        assert f"entity {big} " in str(err)


@pytest.mark.parametrize("batch", [1, 2, 64])
def test_a_world_may_fill_max_slots_and_no_more(batch):
    """``MAX_SLOTS`` games x columns is within the bound; one column more is refused (the
    check made before anything is allocated, here on a store's two numbers alone)."""
    cols = 5
    game = SimpleNamespace(store=SimpleNamespace(n_cols=cols, batch=batch))
    room_for_objects(game, MAX_SLOTS // batch - cols, "add_objects")
    with pytest.raises(InvalidCountError, match=f"add_objects: {MAX_SLOTS // batch - cols + 1} more objects"):
        room_for_objects(game, MAX_SLOTS // batch - cols + 1, "add_objects")


@pytest.mark.parametrize("act,named", [
    (lambda w, b: w.put_counters(b, "charge", -1), "put 'charge' counters on entity {b}: amount -1 is outside"),
    (lambda w, b: w.remove_counters(b, "charge", [1, 2, 3]),
     "remove 'charge' counters from entity {b}: 3 amounts for {n} selected games"),
    (lambda w, b: w.deal_damage(b, -4), "damage to entity {b}: amount -4 is outside"),
])
def test_107_1_an_amount_refused_is_named_with_the_action_kind_and_entity(game, act, named):
    w, _, bear = game
    err = unchanged(w, lambda: act(w, bear), InvalidCountError)
    assert str(err).startswith(named.format(b=bear, n=w.batch))


def _ended_in_game_1(w: World, p: int) -> None:
    """704.5c: ``p`` loses game 1 of the batch to ten poison counters; the others go on."""
    w.put_counters(p, "poison", 10, games=[1])
    w.tick()


@pytest.mark.parametrize("games", [[0, 1], [1, 0], 1])
def test_an_action_on_an_ended_game_names_that_game(games):
    """104.1: an ended game's state is frozen: an action naming it is refused, naming it
    (not another game of the selection), and no game changes."""
    w = World(batch=3)
    p, _ = w.add_player(), w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    _ended_in_game_1(w, p)
    err = unchanged(w, lambda: w.put_counters(bear, "charge", 1, games=games), GameOverError)
    assert str(err).startswith("game 1 has ended")


@pytest.mark.parametrize("games", [np.array([[0, 1]]), [[0], [1]]])
def test_games_of_two_dimensions_are_refused(game, games):
    w, _, bear = game
    err = unchanged(w, lambda: w.put_counters(bear, "charge", 1, games=games), InvalidGameError)
    assert "expected None, an index, a mask or an index array" in str(err)


def test_400_7_a_target_gone_from_one_game_is_named_with_that_game():
    """400.7: an object that left the battlefield in game 1 only is a new object there: an
    action on every game is refused naming the id and game 1, and changes nothing."""
    w = World(batch=3)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    w.move_zone(bear, "graveyard", games=[1])
    err = unchanged(w, lambda: w.put_counters(bear, "charge", 1), StaleEntityError)
    assert str(err).startswith(f"entity {bear} does not exist in game 1 ")


@pytest.mark.parametrize("where", ["all", "present"])
def test_an_id_never_made_is_unknown_not_stale(game, where):
    """An id this World never gave is no object that left: UnknownEntityError itself, with
    ``where="present"`` (which skips ids that left) too."""
    w, _, bear = game
    for ids in (999, [bear, 999]):
        err = unchanged(w, lambda ids=ids: w.put_counters(ids, "charge", 1, where=where), UnknownEntityError)
        assert type(err) is UnknownEntityError and str(err) == "entity 999 does not exist in this World"


@pytest.mark.parametrize("where", ["anywhere", "All", None])
def test_where_is_all_or_present_and_anything_else_is_named(game, where):
    w, _, bear = game
    err = unchanged(w, lambda: w.put_counters(bear, "charge", 1, where=where), IllegalActionError)
    assert f"where must be one of ('all', 'present'), got {where!r}" in str(err)


@pytest.mark.parametrize("act", [
    lambda w, b, p: w.add_object(p, "creature", power=1, toughness=1),
    lambda w, b, p: w.put_counters(b, "charge", 1, by=p),
    lambda w, b, p: w.life(p),
], ids=["controller", "by", "life"])
@pytest.mark.parametrize("player", [1.0, "alice"])
def test_a_player_that_is_no_integer_is_named_as_no_id(game, act, player):
    """A player argument (an object's controller, who puts counters, whose life) must be an
    id: anything else is refused naming it, and nothing changes."""
    w, _, bear = game
    err = unchanged(w, lambda: act(w, bear, player), UnknownEntityError)
    assert str(err) == f"player must be an id, got {player!r}"


@pytest.mark.parametrize("skip_finished", [False, True])
def test_id_minus_1_pads_only_where_present(game, skip_finished):
    """-1 pads an id array with ``where="present"`` (skipped there); anywhere else it is
    outside the id space 0..MAX_ID, refused naming it as such (not as an object that left)
    and nothing changes."""
    w, _, bear = game
    for ids in ([bear, -1], np.array([[bear, -1]] * w.batch)):
        err = unchanged(w, lambda ids=ids: w.put_counters(ids, "charge", 1, skip_finished=skip_finished),
                        UnknownEntityError)
        assert type(err) is UnknownEntityError and str(err).startswith(f"entity -1 is outside 0..{MAX_ID}")
    w.put_counters([bear, -1], "charge", 1, where="present", skip_finished=skip_finished)
    assert np.atleast_1d(w.count(bear, "charge")).tolist() == [1 + 1] * w.batch


def test_701_8a_the_first_object_that_is_no_permanent_is_named_with_its_game():
    """701.8a: only permanents are destroyed. Given one row of ids per game, the refusal
    names the first id that is no permanent and the game it is in (here game 1's first, in
    a graveyard: game 0's are both on the battlefield), and nothing changes."""
    w = World(batch=2)
    p = w.add_player()
    bears = [w.add_object(p, "creature", power=2, toughness=2) for _ in range(2)]
    cards = [w.add_object(p, "creature", power=2, toughness=2, zone=z) for z in ("graveyard", "hand")]
    err = unchanged(w, lambda: w.destroy(np.array([bears, cards])), IllegalActionError)
    assert str(err).startswith(f"entity {cards[0]} in game 1 is not a permanent")


@pytest.mark.parametrize("skip", [1, "yes", None, np.array([True])])
def test_skip_finished_is_true_or_false_and_anything_else_is_named(game, skip):
    w, _, bear = game
    err = unchanged(w, lambda: w.put_counters(bear, "charge", 1, skip_finished=skip), IllegalActionError)
    assert str(err) == f"skip_finished must be True or False, got {skip!r}"


def test_104_1_an_action_on_every_game_still_going_acts_on_none_after_the_end():
    """104.1 / GA Ending the Game 5: once the one game ended (a player whose champion died,
    Damage 3), ``games=None`` selects no game: paying, gaining or setting reserve and
    setting a cap act on nothing, raise nothing and change nothing."""
    w = World(ruleset="grand_archive")
    a, b = w.add_player(), w.add_player()
    champ = w.add_object(a, "champion", life=20, level=1)
    ally = w.add_object(b, "ally", power=1, life=1)
    w.deal_damage(champ, 20)
    w.tick()
    w.tick()
    assert w.result() == b
    before = full_state(w)
    w.pay_reserve(b, 1)
    w.gain_reserve(b, 1)
    w.set_reserve(b, 1)
    w.set_cap(ally, "buff", 1)
    assert full_state(w) == before


def test_400_7_a_read_of_an_object_gone_from_every_game_is_stale(game):
    """400.7: an object that changed zones is a new object: a read of its old id, gone from
    every game, raises StaleEntityError naming it (not some other slot's value)."""
    w, _, bear = game
    w.move_zone(bear, "graveyard")
    for read in (lambda: w.count(bear, "charge"), lambda: w.zone(bear), lambda: w.power(bear)):
        with pytest.raises(StaleEntityError, match=f"entity {bear} no longer exists"):
            read()


@pytest.mark.parametrize("act", [
    lambda w: w.count(-1, "charge"),
    lambda w: w.zone(-1),
    lambda w: w.put_counters(-1, "charge", 1),
], ids=["count", "zone", "put"])
def test_a_negative_id_is_outside_the_id_space(game, act):
    """Ids are 0..MAX_ID: -1 names no object, never made nor gone (UnknownEntityError itself,
    naming it), and nothing changes."""
    w, _, _ = game
    err = unchanged(w, lambda: act(w), UnknownEntityError)
    assert type(err) is UnknownEntityError and str(err) == f"entity -1 is outside 0..{MAX_ID}"


def test_120_3_a_skipped_target_leaves_each_kept_one_its_own_source(game):
    """120.3: damage is dealt by its source. With one source per target and
    ``where="present"``, the padding (-1) cell is skipped and the target kept is dealt its
    damage by its own source (the second), in every game."""
    w, p, bear = game
    first, second = (w.add_object(p, "creature", power=1, toughness=1) for _ in range(2))
    w.clear_events()
    sources = np.array([[first, second]] * w.batch)   # (games, targets): one per target
    w.deal_damage([-1, bear], 1, source=sources, where="present")
    dealt = [(e.game, e.target, e.source) for e in w.events() if type(e).__name__ == "DamageDealt"]
    assert dealt == [(g, bear, second) for g in range(w.batch)]


@pytest.mark.parametrize("rows", [1, 3])
def test_ids_of_one_row_per_game_for_other_games_are_refused_where_present(rows):
    """A (G, m) id array has one row per selected game, with ``where="present"`` too: a
    World of two games given 1 or 3 rows is refused naming the shape (not broadcast, nor
    a NumPy error), and nothing changes."""
    w = World(batch=2)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    ids = np.full((rows, 1), bear)
    err = unchanged(w, lambda: w.put_counters(ids, "charge", 1, where="present"), InvalidGameError)
    assert str(err) == f"ids of shape ({rows}, 1): expected (m,) or (2, m)"
