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
    InvalidKindError,
    StaleEntityError,
    UnknownEntityError,
    World,
)
from ecs import store as store_module
from ecs.args import room_for_objects
from ecs.limits import MAX_COUNT, MAX_ID, MAX_SLOTS


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
    setting a cap act on nothing, raise nothing and change nothing but the step a payment,
    an action that logs events, takes (api.md, Events: a call in no game takes one)."""
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
    after = full_state(w)
    assert after.pop("step") == before.pop("step") + 1
    assert after == before


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


def _counts(w, e, kind="charge"):
    """``kind`` counters on ``e`` per game, as a list (one game's plain int too)."""
    return np.atleast_1d(w.count(e, kind)).tolist()


def test_107_1_an_amount_past_int64_is_named_as_given(game):
    """107.1: an amount NumPy holds only as a Python int (past int64) is refused naming it,
    with the action, never overflowing on its way to an array; so is an object array's."""
    w, _, bear = game
    for n in ([2**64], np.array([MAX_COUNT + 1], object)):
        err = unchanged(w, lambda n=n: w.put_counters([bear], "charge", n), InvalidCountError)
        assert f"amount {int(np.asarray(n)[0])} is outside 0..{MAX_COUNT}" in str(err)


def test_an_id_past_int64_is_named_as_given(game):
    """Ids are 0..MAX_ID: one past int64 (an object array to NumPy) is refused naming it."""
    w, _, bear = game
    err = unchanged(w, lambda: w.put_counters([bear, 2**64], "charge", 1), UnknownEntityError)
    assert f"entity {2**64} is outside" in str(err)


def test_107_1_an_object_array_amount_at_max_count_is_taken(game):
    """An object array of Python ints is taken as any integer array: MAX_COUNT itself is
    in range."""
    w, p, _ = game
    bare = w.add_object(p, "creature", power=1, toughness=1)
    w.put_counters([bare], "charge", np.array([MAX_COUNT], object))
    assert _counts(w, bare) == [MAX_COUNT] * w.batch


def test_107_1_a_bool_in_an_object_array_is_no_amount_nor_id(game):
    w, _, bear = game
    err = unchanged(w, lambda: w.put_counters([bear, bear], "charge", np.array([1, True], object)),
                    InvalidCountError)
    assert "amount must be an integer" in str(err)
    err = unchanged(w, lambda: w.put_counters(np.array([bear, True], object), "charge", 1), UnknownEntityError)
    assert "entity must be an integer" in str(err)


@pytest.mark.parametrize("ids", [[], (), np.array([]), np.array([], np.int32)], ids=["list", "tuple", "float", "int32"])
def test_no_ids_act_on_nothing(game, ids):
    """An empty id array (of any dtype: ``[]`` is a float array to NumPy) names no target:
    the action acts on nothing and raises nothing."""
    w, _, bear = game
    w.put_counters(ids, "charge", 1)
    w.remove_counters(ids, "charge", 1)
    assert _counts(w, bear) == [1] * w.batch


def test_skip_finished_takes_a_numpy_bool(game):
    """``skip_finished`` is a bool or a NumPy bool (``flag``)."""
    w, _, bear = game
    w.put_counters(bear, "charge", 1, skip_finished=np.True_)
    assert _counts(w, bear) == [2] * w.batch


@pytest.mark.parametrize("games", [lambda b: b, lambda b: [b], lambda b: [-1]],
                         ids=["batch", "[batch]", "[-1]"])
def test_a_game_index_outside_the_batch_is_named(game, games):
    """Game indices are 0..batch-1: the batch size itself, and -1 (which NumPy would read as
    the last game), are refused naming the index, and nothing changes."""
    w, _, bear = game
    sel = games(w.batch)
    bad = sel[0] if isinstance(sel, list) else sel
    err = unchanged(w, lambda: w.put_counters(bear, "charge", 1, games=sel), InvalidGameError)
    assert f"game index {bad} is outside 0..{w.batch - 1}" in str(err)


@pytest.mark.parametrize("where", ["all", "present"])
def test_104_1_skip_finished_leaves_an_ended_game_named_as_it_ended(where):
    """104.1: with ``skip_finished`` an explicit ``games=`` may name an ended game: it is left
    out (its state frozen, the target there or gone) and the others act."""
    w = World(batch=3)
    p, _ = w.add_player(), w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2, counters={"charge": 1})
    other = w.add_object(p, "creature", power=2, toughness=2, counters={"charge": 1})
    w.move_zone(other, "graveyard", games=[1])
    _ended_in_game_1(w, p)
    w.put_counters([bear, other], "charge", 1, games=[0, 1, 2], where=where, skip_finished=True)
    assert _counts(w, bear) == [2, 1, 2]
    assert np.asarray(w.count(other, "charge"))[[0, 2]].tolist() == [2, 2]


def test_a_bool_is_no_id_to_a_read():
    """A bool is no id (``is_integer``): a read of True is refused, not a read of id 1."""
    w = World()
    p = w.add_player()
    w.add_object(p, "creature", power=2, toughness=2, counters={"charge": 1})
    for read in (lambda: w.count(True, "charge"), lambda: w.zone(True)):
        with pytest.raises(UnknownEntityError, match="entity must be an integer, got True"):
            read()


def test_ids_of_no_dimension_are_refused_naming_their_shape(game):
    w, _, bear = game
    err = unchanged(w, lambda: w.put_counters(np.array(bear), "charge", 1), InvalidGameError)
    assert str(err).startswith("ids of shape ()")


@pytest.mark.parametrize("bad", [1.0, "1"])
def test_an_id_list_holding_no_integer_is_refused(game, bad):
    w, _, bear = game
    for ids in ([bear, bad], (bad,)):
        err = unchanged(w, lambda ids=ids: w.put_counters(ids, "charge", 1), UnknownEntityError)
        assert "entity must be an integer" in str(err)


@pytest.mark.parametrize("act", [
    lambda w, b, p, n: w.remove_counters(b, "charge", n),
    lambda w, b, p, n: w.put_counters(b, "charge", n),
    lambda w, b, p, n: w.set_cap(b, "charge", n),
    lambda w, b, p, n: w.gain_life(p, n),
    lambda w, b, p, n: w.lose_life(p, n),
    lambda w, b, p, n: w.deal_damage(b, n),
], ids=["remove", "put", "cap", "gain", "lose", "damage"])
@pytest.mark.parametrize("n", [MAX_COUNT + 1, True])
def test_107_1_an_amount_past_max_count_or_a_bool_is_refused_by_every_path(game, act, n):
    """107.1: amounts are integers of 0..MAX_COUNT, on a single game's plain-int paths as on
    the general one: one past it, or a bool, is refused naming it, and nothing changes."""
    w, p, bear = game
    err = unchanged(w, lambda: act(w, bear, p, n), InvalidCountError)
    assert "amount" in str(err)


def test_a_read_of_an_id_never_made_is_unknown_not_stale(game):
    w, _, _ = game
    for read in (lambda: w.count(999, "charge"), lambda: w.zone(999)):
        with pytest.raises(UnknownEntityError, match="entity 999 does not exist in this World"):
            read()


def test_122_1_counters_put_on_one_object_twice_add_up(game):
    """122.1: each put adds its counters: one object named twice in one put gets both."""
    w, p, bear = game
    w.put_counters([bear, bear], "charge", [1, 2], by=p)
    assert _counts(w, bear) == [4] * w.batch


def test_a_kind_taken_by_one_ruleset_is_still_refused_by_another():
    """GA Counters: a Magic counter kind put in a Magic World is still refused in a Grand
    Archive World (each ruleset judges its own kinds)."""
    m = World()
    mp = m.add_player()
    m.put_counters(m.add_object(mp, "creature", power=1, toughness=1), "+1/+1", 1)
    ga = World(ruleset="grand_archive")
    gp = ga.add_player()
    ally = ga.add_object(gp, "ally", power=1, life=1)
    unchanged(ga, lambda: ga.put_counters(ally, "+1/+1", 1), InvalidKindError)


def test_a_list_is_no_kind(game):
    """A counter kind is a str: a list (which no kind lookup can hash) is refused naming it."""
    w, _, bear = game
    err = unchanged(w, lambda: w.put_counters(bear, ["charge"], 1), InvalidKindError)
    assert str(err) == "counter kind must be a str, got list ['charge']"


def test_400_7_a_target_gone_is_skipped_where_present(game):
    """400.7: with ``where="present"`` a target that left its zone is skipped, alone or beside one that is there."""
    w, p, bear = game
    gone = w.add_object(p, "creature", power=1, toughness=1)
    w.move_zone(gone, "graveyard")
    w.put_counters(gone, "charge", 2, where="present")
    w.put_counters(gone, "charge", 2, games=0, where="present")
    w.remove_counters(gone, "charge", 2, where="present")
    w.put_counters([gone, bear], "charge", [5, 2], where="present")
    assert _counts(w, bear) == [3] * w.batch


@pytest.mark.parametrize("flag", [True, np.True_], ids=["bool", "np.bool_"])
def test_107_1_a_bool_beside_integers_in_a_list_is_no_id_nor_amount(game, flag):
    """A bool is no integer here, inside a list too, where NumPy would read it as 1 beside
    the ints (an int64 array): ids ``[bear, True]`` are refused rather than naming id 1,
    amounts ``[1, True]`` rather than putting one counter, ``games=[0, True]`` rather than
    selecting game 1, and nothing changes."""
    w, _, bear = game
    err = unchanged(w, lambda: w.put_counters([bear, flag], "charge", 1), UnknownEntityError)
    assert "entity must be an integer" in str(err)
    err = unchanged(w, lambda: w.put_counters([bear, bear], "charge", [1, flag]), InvalidCountError)
    assert "amount must be an integer" in str(err)
    unchanged(w, lambda: w.put_counters([[bear, flag]] * w.batch, "charge", 1), UnknownEntityError)   # (G, m)
    err = unchanged(w, lambda: w.put_counters(bear, "charge", 1, games=[0, flag]), InvalidGameError)
    assert "game index must be an integer" in str(err)


class _Unreadable:
    """A sequence NumPy cannot read: each item raises TypeError."""

    def __len__(self):
        return 1

    def __getitem__(self, i):
        raise TypeError("no items")


def test_an_argument_numpy_cannot_read_is_no_id_nor_amount(game):
    """Bad input gets the library's error naming what it is, not NumPy's own: ids and
    amounts NumPy cannot make an array of are refused as no integers, and nothing changes."""
    w, _, bear = game
    err = unchanged(w, lambda: w.put_counters(_Unreadable(), "charge", 1), UnknownEntityError)
    assert "entity must be an integer or an array of integers" in str(err)
    err = unchanged(w, lambda: w.put_counters([bear], "charge", _Unreadable()), InvalidCountError)
    assert "amount must be an integer or an array of integers" in str(err)


@pytest.mark.parametrize("paths", [True, False], ids=["scalar paths", "general paths"])
def test_a_world_of_one_game_reads_python_values_unless_scalar_reads_is_off(monkeypatch, paths):
    """A World of one game reads plain Python values (``scalar``, ``out``), on the general
    paths too; with ``scalar_reads`` off the same reads are (1,) arrays, as a batch's."""
    monkeypatch.setattr(store_module, "SCALAR_PATHS", paths)
    w = World()
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2, counters={"charge": 1})
    reads = (lambda: w.count(bear, "charge"), lambda: w.power(bear), lambda: w.zone(bear))
    assert [(type(r()), r()) for r in reads] == [(int, 1), (int, 2), (str, "battlefield")]
    w.scalar_reads = False
    assert [(type(r()), r().tolist()) for r in reads] == [(np.ndarray, [1]), (np.ndarray, [2]),
                                                          (np.ndarray, ["battlefield"])]


def test_104_1_an_object_made_after_a_single_game_ended_is_in_no_game():
    """104.1: an ended game's state is frozen. ``games=None`` is every game still going:
    in a World of one game that ended, none, so an object made then (its id given all the
    same) is in no game, not on the frozen battlefield."""
    w = World()
    p, q = w.add_player(), w.add_player()
    w.put_counters(q, "poison", 10)
    w.tick()
    assert w.result() == p
    made = w.add_object(p, "creature", power=1, toughness=1)
    with pytest.raises(StaleEntityError, match=f"entity {made} no longer exists"):
        w.zone(made)


def test_an_object_named_twice_in_one_game_is_named_with_that_game():
    """Two rows of one object in one game (a move of one source's counters to two objects
    at once, 122.5) are refused naming the object and the game, not the first game; nothing
    moves."""
    w = World(batch=3)
    p = w.add_player()
    a, b, c, d = w.add_objects(4, p, "artifact")
    w.put_counters([a, c], "charge", 2)
    before = full_state(w)
    with pytest.raises(IllegalActionError, match=f"move_counters names the same object twice in "
                                                 f"one game: entity {a} in game 2"):
        w.move_counters(np.array([[a, c], [a, c], [a, a]]), np.array([[b, d], [b, d], [b, c]]),
                        "charge")
    assert full_state(w) == before
