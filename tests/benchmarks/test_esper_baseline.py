"""The stronger esper baseline on its own: zone changes keep esper's query
caches, retire the object's id, and its actions validate like the engine's."""
import esper
import pytest

from benchmarks import naive_esper as nv
from benchmarks.esper_baseline import EsperGame


@pytest.fixture
def game():
    g = EsperGame()
    yield g
    g.close()


def bear(t=2, **counters):
    return [nv.Creature(2, t), nv.Counters(dict(counters)), nv.Damage()]


def test_a_death_retires_the_id_and_keeps_the_query_cache(game):
    """400.7: the card in the graveyard is a new object (new id, no counters); the entity
    is mutated, not deleted, so esper's cached query survives the tick."""
    doomed, other = game.add_object(bear(2)), game.add_object(bear(3))
    game.put_counters(doomed, "-1/-1", 2)
    game.tick()
    esper.switch_world(game.name)
    cached = esper.get_components(nv.Zone, nv.Counters)
    game.tick()
    esper.switch_world(game.name)
    assert esper.get_components(nv.Zone, nv.Counters) is cached
    assert not game.exists(doomed) and game.exists(other)
    assert game.zone_sizes() == {"battlefield": 1, "graveyard": 1}
    with pytest.raises(KeyError, match=str(doomed)):
        game.put_counters(doomed, "+1/+1")


def test_a_later_check_rechecks_what_the_perform_changed(game):
    """704.3: the cap removes +1/+1 counters on the first check; the re-check (limited to
    the touched entities) then finds the damage lethal."""
    e = game.add_object(bear(2) + [nv.Caps({"+1/+1": 0})])
    game.put_counters(e, "+1/+1", 3)
    game.deal_damage(e, 2)
    game.tick()
    assert not game.exists(e)


def test_destroy_and_reads(game):
    e = game.add_object(bear(4))
    game.put_counters(e, "+1/+1", 2)
    assert game.count(e, "+1/+1") == 2 and game.counters(e) == {"+1/+1": 2}
    new = game.destroy(e)
    assert new != e and game.zone(new) == "graveyard" and game.counters(new) == {}


@pytest.mark.parametrize("kind, n", [("+2/+2", 1), ("+1/+1", -1), ("+1/+1", True), ("+1/+1", 1.5)])
def test_bad_puts_raise_and_change_nothing(game, kind, n):
    e = game.add_object(bear(2, **{"+1/+1": 1}))
    with pytest.raises(ValueError):
        game.put_counters(e, kind, n)
    assert game.counters(e) == {"+1/+1": 1}


def test_clone_is_independent_and_keeps_ids(game):
    e = game.add_object(bear(2))
    twin = game.clone()
    try:
        twin.put_counters(e, "-1/-1", 2)
        twin.tick()
        assert not twin.exists(e) and game.exists(e) and game.counters(e) == {}
    finally:
        twin.close()


@pytest.mark.parametrize("act", ["put_counters", "deal_damage", "destroy", "add_object"])
def test_a_tick_of_a_state_a_tick_left_checks_nothing_until_an_action(game, act, monkeypatch):
    """As the engine's settled mark: a tick after a tick, nothing written between, makes no
    check; any action clears the flag, and the next tick checks again."""
    e, other = game.add_object(bear(2)), game.add_object(bear(3))
    game.tick()
    checks = []
    real = esper.process
    monkeypatch.setattr(esper, "process", lambda *a: (checks.append(1), real(*a))[1])
    game.tick()
    assert checks == [] and game.settled
    {"put_counters": lambda: game.put_counters(other, "+1/+1", 1), "deal_damage": lambda: game.deal_damage(other, 1),
     "destroy": lambda: game.destroy(e), "add_object": lambda: game.add_object(bear(2))}[act]()
    assert not game.settled
    game.tick()
    assert checks and game.settled


def test_a_clone_copies_what_a_game_changes_and_shares_the_cards(game):
    """The clone (an esper user's snapshot): every component a game writes is a copy, the
    card's frozen characteristics are shared, and the clone plays on its own."""
    e = game.add_object(bear(2, **{"+1/+1": 1}) + [nv.Caps({"+1/+1": 3})])
    p = game.add_player(20, 0)
    game.tick()
    twin = game.clone()
    try:
        for oid in (e, p):
            esper.switch_world(game.name)
            mine = esper.components_for_entity(game.entity[oid])
            esper.switch_world(twin.name)
            theirs = esper.components_for_entity(twin.entity[oid])
            assert [type(c) for c in mine] == [type(c) for c in theirs] and mine == theirs
            for a, b in zip(mine, theirs):
                assert (a is b) == (type(a) in nv.CHARACTERISTICS)
        assert twin.settled   # a clone of a settled game is settled, as a restored snapshot
        twin.put_counters(e, "-1/-1", 3)
        twin.tick()
        assert not twin.exists(e) and game.exists(e) and game.counters(e) == {"+1/+1": 1}
        assert twin.zone_sizes() == {"graveyard": 1} and game.zone_sizes() == {"battlefield": 1}
    finally:
        twin.close()


def test_a_player_added_after_a_tick_is_checked_by_the_next(game):
    """Adding a player writes the game: a player added at 0 life after a tick loses on
    the next (704.5a), as in the engine, whose settled mark any write clears."""
    game.add_player(20, 0)
    game.add_object(bear(2))
    game.tick()
    p = game.add_player(0, 0)
    game.tick()
    assert game.player(p).lost


def test_a_destroyed_creatures_new_object_has_no_damage(game):
    """400.7: the card in the graveyard is a new object: no counters and no marked damage
    (the engine's ``damage`` of it is 0)."""
    e = game.add_object(bear(4))
    game.put_counters(e, "+1/+1", 1)
    game.deal_damage(e, 2, deathtouch=False)
    new = game.destroy(e)
    assert (game.counters(new), game.damage(new)) == ({}, 0)


@pytest.mark.parametrize("n", [-1, True, 1.5])
def test_bad_damage_raises_and_changes_nothing(game, n):
    """Damage validates its amount as the engine's does (a check the timed action pays)."""
    e = game.add_object(bear(3))
    game.deal_damage(e, 1)
    with pytest.raises(ValueError):
        game.deal_damage(e, n)
    assert game.damage(e) == 1


def test_deathtouch_damage_kills_though_other_damage_follows_it(game):
    """704.5h: a creature dealt damage by a deathtouch source since the last check dies,
    whatever damage from other sources it is dealt after it in the same window."""
    e = game.add_object(bear(4))
    game.deal_damage(e, 1, deathtouch=True)
    game.deal_damage(e, 1)
    game.tick()
    assert not game.exists(e)


def test_destroying_a_card_in_the_graveyard_raises(game):
    """701.8: only a permanent can be destroyed; the card a destroy put in the graveyard
    is not one."""
    new = game.destroy(game.add_object(bear(2)))
    with pytest.raises(ValueError, match="not a permanent"):
        game.destroy(new)
    assert game.zone(new) == "graveyard"


def test_the_observation_is_the_engines_with_lost_players_whichever_world_is_active():
    """``observe`` after a tick in which players lost (704.5a, 704.5c): the engine's tensor,
    its dtype and shape, for each game of the batch, though another game's esper world
    was the last one used."""
    import numpy as np

    from benchmarks.boards import build_baseline, build_engine, make_board
    from benchmarks.esper_baseline import OBSERVED
    spec = make_board(60, games=3, seed=4, loss_rate=1.0)
    engine, baseline = build_engine(spec), build_baseline(spec, EsperGame)
    try:
        engine.world.tick()
        baseline.world.tick()
        obs, _ = engine.world.observe([*engine.players.tolist(), *engine.objects.tolist()], OBSERVED)
        assert obs[:, : spec.players, OBSERVED.index("lost")].any()
        for g in reversed(range(spec.games)):
            mine = baseline.world.games[g].observe([*baseline.players[g].tolist(), *baseline.objects[g].tolist()])
            assert (mine.dtype, mine.shape) == (obs.dtype, (1, *obs.shape[1:]))
            np.testing.assert_array_equal(mine[0], obs[g], err_msg=f"game {g}")
    finally:
        baseline.world.close()
