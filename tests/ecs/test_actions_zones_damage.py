"""``ecs.actions``' destroy, sacrifice, move_zone, deal_damage, tap/untap, life and cleanup:
promises the other test files leave open, each held on the single-game scalar paths and
the general path alike."""

import pytest
from scalar_paths import run_on
from state import full_state

from ecs import CounterChanged, GameOverError, InvalidTypeError, UnknownEntityError, World, ZoneChanged
from ecs.limits import MAX_COUNT


# ---- move_zone --------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["scalar", "general"])
def test_306_5b_objects_entering_together_get_their_loyalty_after_every_move(path):
    """306.5b, 400.7: planeswalkers moved onto the battlefield at once each enter with
    their printed loyalty as counters; every zone change is recorded before any of
    those counters, on every path."""
    w = World()
    p = w.add_player()
    a = w.add_object(p, {"planeswalker"}, loyalty=3, zone="hand")
    b = w.add_object(p, {"planeswalker"}, loyalty=4, zone="hand")
    w.clear_events()
    with run_on(path):
        na, nb = w.move_zone([a, b], "battlefield").tolist()
    kinds = [type(e) for e in w.events()]
    assert kinds == [ZoneChanged, ZoneChanged, CounterChanged, CounterChanged]
    assert (w.count(na, "loyalty"), w.count(nb, "loyalty")) == (3, 4)


@pytest.mark.parametrize("zone", ["graveyard", "exile"])
def test_209_1_a_move_off_the_battlefield_counts_no_printed_loyalty_toward_max_count(zone):
    """Off the battlefield a printed loyalty is only printed (209.1, 306.5b is about
    entering the battlefield): a planeswalker moved there with MAX_COUNT loyalty
    counters gets them all, not a refusal for the printed 4 on top."""
    w = World()
    p = w.add_player()
    pw = w.add_object(p, {"planeswalker"}, loyalty=4, zone="hand")
    new = w.move_zone(pw, zone, counters={"loyalty": MAX_COUNT})
    assert (w.zone(new), w.count(new, "loyalty")) == (zone, MAX_COUNT)


@pytest.mark.parametrize("zone", ["battlefield", "graveyard"])
def test_122_6a_counters_a_move_gives_are_put_by_the_player_by_names(zone):
    """122.6a: the counters an object gets as it arrives are put by its controller
    unless ``by`` names another player; each event names that player."""
    w = World()
    p, q = w.add_player(), w.add_player()
    x = w.add_object(p, {"artifact"}, zone="hand")
    w.clear_events()
    new = w.move_zone(x, zone, counters={"charge": 2}, by=q)
    cause = "enter" if zone == "battlefield" else "put"
    assert [e for e in w.events() if isinstance(e, CounterChanged)] == [
        CounterChanged(0, new, "charge", 0, 2, cause, q)]


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("zone", ["battlefield", "graveyard"])
def test_122_6a_counters_a_move_gives_are_put_by_the_new_objects_controller_by_default(zone, batch):
    """122.6a, 110.2: with ``by`` left out, the counters an object gets as it arrives are
    put by its controller: here the second player, the card's owner, in every game."""
    w = World(batch=batch)
    w.add_player()   # (player 0: not the one who puts them)
    q = w.add_player()
    x = w.add_object(q, {"artifact"}, zone="hand")
    w.clear_events()
    w.move_zone(x, zone, counters={"charge": 2})
    got = [(e.game, e.kind, e.by) for e in w.events() if isinstance(e, CounterChanged)]
    assert got == [(g, "charge", q) for g in range(batch)]


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_400_7_a_single_id_moved_in_a_batch_returns_one_id_per_game_where_they_differ(path):
    """api.md move_zone: a single id gives one id, but in a batch where it became
    different objects (here: none where it was not present) one per selected game,
    -1 where none arrived."""
    with run_on(path):
        w = World(batch=2)
        p = w.add_player()
        x = w.add_object(p, {"artifact"}, zone="hand")
        w.move_zone(x, "graveyard", games=[1])
        got = w.move_zone(x, "exile", where="present")
        assert got.tolist()[1] == -1 and got[0] >= 0
        assert w.zone(int(got[0])).tolist() == ["exile", "none"]
        both = w.move_zone(int(got[0]), "hand", games=[0])
        assert isinstance(both, int) and w.zone(both).tolist() == ["hand", "none"]


@pytest.mark.parametrize("path", ["scalar", "general"])
@pytest.mark.parametrize("by", [99, "q"])
def test_a_move_naming_no_player_as_by_is_refused_even_without_counters(path, by):
    """``by`` must name a player whether or not the move gives counters: a bad one is
    refused, naming it, and nothing moves."""
    w = World()
    p = w.add_player()
    x = w.add_object(p, {"artifact"})
    before = full_state(w)
    with run_on(path), pytest.raises(UnknownEntityError, match=f"{by}"):
        w.move_zone(x, "graveyard", by=by)
    assert full_state(w) == before


# ---- destroy, sacrifice, tap --------------------------------------------------------------
@pytest.mark.parametrize("path", ["scalar", "general"])
@pytest.mark.parametrize("action", ["destroy", "sacrifice", "tap"])
def test_701_8a_permanents_named_out_of_order_are_acted_on_in_one_order_on_every_path(path, action):
    """701.8a, 701.21a: permanents destroyed, sacrificed or tapped at once are recorded in
    one order whatever the order they are named in, the same on every path."""
    w = World()
    p = w.add_player()
    a, b, c = (w.add_object(p, {"artifact"}) for _ in range(3))
    w.clear_events()
    with run_on(path):
        getattr(w, action)([c, a, b])
    assert [e.old if isinstance(e, ZoneChanged) else e.entity for e in w.events()] == [a, b, c]


# ---- deal_damage ------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["scalar", "general"])
@pytest.mark.parametrize("flag", ["unpreventable", "combat"])
@pytest.mark.parametrize("value", ["yes", 1, None])
def test_120_3_a_damage_flag_that_is_not_true_or_false_is_refused(path, flag, value):
    """``unpreventable`` and ``combat`` are True or False: anything else is refused,
    naming the flag and the value, and no damage is dealt, on every path."""
    w = World()
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=3)
    before = full_state(w)
    with run_on(path), pytest.raises(InvalidTypeError, match=f"{flag} must be True or False, got {value!r}"):
        w.deal_damage(bear, 1, **{flag: value})
    assert full_state(w) == before


# ---- lose_life, gain_life -----------------------------------------------------------------
@pytest.mark.parametrize("path", ["scalar", "general"])
def test_119_3_a_player_added_after_an_object_changes_their_own_life(path):
    """119.3: life lost or gained is the named player's, also for a player added after
    an object (so their id and their place among the players differ)."""
    w = World()
    p = w.add_player()
    w.add_object(p, {"artifact"})
    q = w.add_player()
    with run_on(path):
        w.lose_life(q, 3)
        w.gain_life([q, q], 1)
    assert (w.life(p), w.life(q)) == (20, 19)


# ---- cleanup ------------------------------------------------------------------------------
def test_514_2_cleanup_leaves_a_finished_games_damage_and_refuses_to_name_it():
    """514.2 happens in games still played: by default cleanup leaves an ended game's
    state as it was, and naming the ended game is refused."""
    w = World(batch=2, seed=0)
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(q, {"creature"}, power=1, toughness=5)
    w.deal_damage(bear, 2)
    w.lose_life(p, 20, games=[1])
    w.tick()
    w.cleanup()
    assert w.damage(bear).tolist() == [0, 2]
    with pytest.raises(GameOverError, match="game 1 has ended"):
        w.cleanup(games=[1])
    assert w.damage(bear).tolist() == [0, 2]
