"""The counter actions of ``ecs.actions`` (add_player, add_objects, put/remove/move
counters, proliferate, caps): the bounds, defaults and rule cases the other test files
leave open, on the single-game scalar paths and the general paths alike."""

import numpy as np
import pytest
from scalar_paths import run_on
from state import full_state

from ecs import IllegalActionError, InvalidCountError, InvalidKindError, UnknownEntityError, World
from ecs.limits import MAX_STAT, MAX_TEAM

PATHS = ["scalar", "general"]


# ---- add_player ---------------------------------------------------------------------
def test_810_1_team_keys_run_from_0_to_max_team():
    """A team is named by 0..MAX_TEAM: MAX_TEAM itself is a team, one more is refused
    and makes no player."""
    w = World(two_headed_giant=True)
    p = w.add_player(team=MAX_TEAM)
    assert w.players() == [p]
    before = full_state(w)
    with pytest.raises(IllegalActionError, match="team"):
        w.add_player(team=MAX_TEAM + 1)
    assert full_state(w) == before


# ---- add_objects ----------------------------------------------------------------------
@pytest.mark.parametrize("path", PATHS)
def test_208_printed_power_may_be_negative_down_to_minus_max_stat(path):
    """Power and toughness may be printed below 0 (as "*" cards and -X/-X effects give),
    down to -MAX_STAT; one below that is refused and makes nothing."""
    w = World()
    p = w.add_player()
    with run_on(path):
        x = w.add_object(p, {"creature"}, power=-MAX_STAT, toughness=1)
        assert (int(w.power(x)), int(w.toughness(x))) == (-MAX_STAT, 1)
        before = full_state(w)
        with pytest.raises(InvalidCountError, match="power"):
            w.add_object(p, {"creature"}, power=-MAX_STAT - 1, toughness=1)
        assert full_state(w) == before


def test_add_objects_in_no_selected_game_makes_none_even_in_a_world_of_one_game():
    """``games=[]`` selects no game: the objects are absent everywhere, as in a batch (the
    single-game path is for ``games=None`` only)."""
    w = World()
    p = w.add_player()
    ids = w.add_objects(2, p, {"artifact"}, games=[])
    assert not any(bool(w.exists(int(e))) for e in ids)
    assert w.objects() == []


def test_122_4_a_negative_cap_given_at_creation_is_stored_as_no_cap(tmp_path):
    """``caps=`` with a negative amount is no cap, stored as -1 even where another game
    has a cap of that kind: game 1 keeps its counters through 704.5r, and the World
    saves and loads (a stored cap below -1 is a damaged file)."""
    w = World(batch=2)
    p = w.add_player()
    x = w.add_object(p, {"artifact"}, counters={"charge": 3}, caps={"charge": [1, -7]})
    w.tick()
    assert w.count(x, "charge").tolist() == [1, 3]
    w.save(tmp_path / "w.npz")
    assert World.load(tmp_path / "w.npz").count(x, "charge").tolist() == [1, 3]




@pytest.mark.parametrize("path", PATHS)
def test_401_4_cards_made_in_a_library_go_to_its_bottom_after_one_put_there(path):
    """Cards put into a library go to its bottom in the order they arrive (401.4 leaves
    the order to the owner): one made there after a card was moved there lies under it."""
    w = World()
    p = w.add_player()
    with run_on(path):
        a = w.add_object(p, {"instant"}, zone="library")
        x = w.add_object(p, {"sorcery"}, zone="hand")
        x = w.move_zone(x, "library")
        c = w.add_object(p, {"instant"}, zone="library")
    assert w.library(p) == [a, x, c]


def test_122_6_one_object_made_in_a_batch_takes_a_1_d_amount_per_game():
    """For one object (add_object) a 1-D ``counters`` amount is one per selected game, as
    for a single id everywhere else: the object enters with 1 in game 0, 2 in game 2."""
    w = World(batch=3)
    p = w.add_player()
    x = w.add_object(p, {"artifact"}, counters={"charge": [1, 2]}, games=[0, 2])
    assert w.count(x, "charge").tolist() == [1, 0, 2]


# ---- put_counters ----------------------------------------------------------------------
@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("targets", ["one", "few"])
def test_122_6a_counters_put_by_a_player_name_that_player(path, targets):
    """122.6a: ``by`` names the player who puts the counters, in each event, whether one
    target or a few on a single game, whoever controls them."""
    w = World()
    p, q = w.add_player(), w.add_player()
    x, y = (w.add_object(p, {"artifact"}) for _ in range(2))
    w.clear_events()
    with run_on(path):
        w.put_counters(x if targets == "one" else [x, y], "charge", 2, by=q)
    got = [(e.entity, e.kind, e.before, e.after, e.cause, e.by) for e in w.events()]
    want = [(x, "charge", 0, 2, "put", q)] + ([(y, "charge", 0, 2, "put", q)] if targets == "few" else [])
    assert got == want



@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("batch", [1, 2])
def test_122_1_101_3_put_remove_and_move_take_one_counter_by_default(path, batch):
    """api.md: put_counters, remove_counters and move_counters take n=1 by default; a
    removal takes up to n (101.3)."""
    with run_on(path):
        w = World(batch=batch)
        p = w.add_player()
        a = w.add_object(p, "artifact")
        b = w.add_object(p, "artifact")
        w.put_counters(a, "charge")
        w.put_counters(a, "charge")
        w.put_counters(a, "charge")
        w.remove_counters(a, "charge")
        moved = w.move_counters(a, b, "charge")
        assert np.all(moved == 1)
        assert np.all(w.count(a, "charge") == 1) and np.all(w.count(b, "charge") == 1)
        w.remove_counters(b, "charge", 5)
        assert np.all(w.count(b, "charge") == 0)

# ---- move_counters ---------------------------------------------------------------------
def test_122_8_a_move_in_no_selected_game_moves_nothing_even_in_a_world_of_one_game():
    """``games=[]`` selects no game: nothing moves (0 moved), as in a batch where a game
    left out keeps its counters."""
    w = World()
    p = w.add_player()
    x = w.add_object(p, {"artifact"}, counters={"charge": 3})
    y = w.add_object(p, {"artifact"})
    assert int(w.move_counters(x, y, "charge", 1, games=[])) == 0
    assert (int(w.count(x, "charge")), int(w.count(y, "charge"))) == (3, 0)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("scalar_reads", [True, False])
def test_122_5_a_move_between_two_objects_of_one_game_returns_what_reads_return(path, scalar_reads):
    """A move in a World of one game returns how many moved as its reads return values:
    a plain int, or with ``scalar_reads=False`` a (1,) int64 array; the source's and the
    destination's events name their own ids (numpy integer ids too)."""
    w = World(scalar_reads=scalar_reads)
    p = w.add_player()
    x = w.add_object(p, {"artifact"}, counters={"charge": 3})
    y = w.add_object(p, {"artifact"})
    w.clear_events()
    with run_on(path):
        moved = w.move_counters(np.int64(x), y, "charge", 2)
    if scalar_reads:
        assert type(moved) is int and moved == 2
    else:
        assert isinstance(moved, np.ndarray) and moved.dtype == np.int64 and moved.tolist() == [2]
    assert [(ev.entity, ev.before, ev.after, ev.cause) for ev in w.events()] == [
        (x, 3, 1, "move"), (y, 0, 2, "move")]


# ---- every path alike ------------------------------------------------------------------
def _script(two_headed: bool) -> World:
    """The counter actions on one game, each target kind they take: objects, players,
    repeats, a team's poison (810.10), a prohibited kind (101.3), no-op moves."""
    w = World(two_headed_giant=two_headed, seed=3)
    team = (lambda t: {"team": t}) if two_headed else (lambda t: {})
    p, p2, q = w.add_player(**team(0)), w.add_player(**team(0)), w.add_player(**team(1))
    a = w.add_object(p, "creature", power=2, toughness=2, counters={"+1/+1": 1})
    b = w.add_object(q, "artifact", counters={"charge": 2})
    c = w.add_object(p, "artifact")
    h = w.add_object(p, "artifact", zone="hand", counters={"charge": 1})
    w.prohibit(c, "charge")
    w.put_counters(a, "+1/+1", 1, by=q)
    w.put_counters([a, b, a], "charge", 1)
    w.put_counters(p, "poison", 3)
    w.put_counters([p2, q], "poison", 1, by=q)
    w.remove_counters(a, "+1/+1", 5)
    w.remove_counters([b, b], "charge", 1)
    w.remove_counters(p2, "poison", 1)
    w.remove_counters([p, q], "poison", 1)
    w.move_counters(b, a, "charge", 9)
    w.move_counters(a, c, "charge", 1)    # c can't have charge counters: none move
    w.move_counters(a, a, "charge", 1)    # the same object: none move
    w.move_counters(h, a, "charge", 1)    # h is not on the battlefield
    w.move_counters(h, b, "charge", 1, zone="hand")   # b is not in the hand
    w.move_counters(p, p2, "poison", 1, zone=None)    # in 2HG the same team's
    w.move_counters(q, p, "poison", 1, zone=None)
    w.move_counters(b, a, "charge", 1)    # b has none left
    w.set_cap(a, "charge", 3)
    w.set_cap(b, "charge", 0)
    w.put_counters(q, "experience", 1)
    w.proliferate([a, p, q, a], by=p2)
    w.proliferate([p, p2])
    w.clear_cap(a, "charge")
    w.proliferate(a)
    w.tick()
    return w


@pytest.mark.parametrize("two_headed", [False, True])
def test_the_counter_actions_leave_the_same_world_on_the_single_game_path_as_on_the_general(two_headed):
    """The single-game paths are the general paths in plain ints: the same counters, caps,
    events (cause, player, step) and step counter after each counter action."""
    scalar = full_state(_script(two_headed))
    with run_on("general"):
        general = full_state(_script(two_headed))
    assert scalar == general


def test_a_move_to_an_id_that_never_existed_is_refused_on_the_single_game_path():
    """The single-game path raises as the general one for an id the World never made
    (UnknownEntityError, naming it) and moves nothing."""
    w = World()
    p = w.add_player()
    x = w.add_object(p, {"artifact"}, counters={"charge": 3})
    before = full_state(w)
    with pytest.raises(UnknownEntityError, match="99999"):
        w.move_counters(x, 99999, "charge", 1)
    assert full_state(w) == before


def test_122_8_a_move_from_one_object_to_a_list_returns_one_count_per_game_and_target():
    """A single ``src`` and a list of ``dst``: one row per (game, destination), and the
    result has that shape; here the second destination can't have the counters (101.3),
    so only the first gets one in each game."""
    w = World(batch=2)
    p = w.add_player()
    x = w.add_object(p, {"artifact"}, counters={"charge": 3})
    y, z = w.add_object(p, {"artifact"}), w.add_object(p, {"artifact"})
    w.prohibit(z, "charge")
    assert np.asarray(w.move_counters(x, [y, z], "charge", 1)).tolist() == [[1, 0], [1, 0]]
    assert w.count(y, "charge").tolist() == [1, 1]


# ---- proliferate -----------------------------------------------------------------------
@pytest.mark.parametrize("path", PATHS)
def test_701_34a_101_3_proliferate_puts_none_of_a_kind_the_object_cant_have(path):
    """An object that has counters of a kind it now can't have (101.3) gets none more of
    that kind from proliferate; its other kinds each get one (701.34a)."""
    w = World()
    p = w.add_player()
    x = w.add_object(p, {"artifact"}, counters={"charge": 2, "gem": 1})
    w.prohibit(x, "charge")
    with run_on(path):
        w.proliferate(x)
    assert (int(w.count(x, "charge")), int(w.count(x, "gem"))) == (2, 2)


# ---- set_cap / clear_cap ---------------------------------------------------------------
def test_704_5r_clearing_a_cap_in_no_selected_game_keeps_it_even_in_a_world_of_one_game():
    """``clear_cap(..., games=[])`` ends no cap: the cap still holds at the next
    state-based check (704.5r)."""
    w = World()
    p = w.add_player()
    x = w.add_object(p, {"artifact"}, counters={"charge": 3})
    w.set_cap(x, "charge", 1)
    w.clear_cap(x, "charge", games=[])
    w.tick()
    assert int(w.count(x, "charge")) == 1


def test_122_4_a_cap_of_a_malformed_kind_is_refused_for_per_game_amounts():
    """``set_cap`` checks the kind whatever the amount's form: a malformed kind with one
    cap per game is refused (InvalidKindError, naming it) and changes nothing."""
    w = World(batch=2)
    p = w.add_player()
    x = w.add_object(p, {"artifact"})
    before = full_state(w)
    with pytest.raises(InvalidKindError, match="not a kind!"):
        w.set_cap(x, "not a kind!", [1, 2])
    assert full_state(w) == before
