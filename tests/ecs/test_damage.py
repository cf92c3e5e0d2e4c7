"""Damage results (CR 120.3), shield (122.1c), stun (122.1d), destroy/sacrifice."""
import numpy as np
import pytest

from ecs import CounterChanged, CountOverflowError, IllegalActionError, World
from ecs.limits import MAX_COUNT


@pytest.fixture
def game():
    w = World()
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    return w, p, q, bear


def test_120_3e_damage_is_marked_and_514_2_cleanup_removes_it(game):
    w, _, _, bear = game
    w.deal_damage(bear, 1)
    assert w.damage(bear) == 1 and w.counters(bear) == {}
    w.cleanup()
    assert w.damage(bear) == 0


@pytest.mark.parametrize("batch", [1, 2])
def test_810_10_infect_damage_to_each_player_of_a_team_adds_up_on_the_team(batch):
    """810.10: "Effects that cause players to get poison counters happen to each player
    individually. The poison counters are shared by the team." Infect damage to both
    players of a team in one call (120.3b), one of them named twice, gives the team the
    poison counters of every row (one event, 0 -> 15), which loses by 704.6b."""
    w = World(two_headed_giant=True, batch=batch, seed=0)
    a1, _ = w.add_player(team=0), w.add_player(team=0)
    b1, b2 = w.add_player(team=1), w.add_player(team=1)
    rat = w.add_object(a1, "creature", power=1, toughness=1)
    w.clear_events()
    w.deal_damage([b1, b2, b1], 5, rat, infect=True)
    assert np.all(w.count(b2, "poison") == 15)
    changes = [(e.kind, e.before, e.after) for e in w.events() if isinstance(e, CounterChanged)]
    assert changes == [("poison", 0, 15)] * batch
    w.tick()
    assert np.all(w.result() == a1)


def test_120_3d_wither_and_infect_put_minus_counters(game):
    w, p, _, bear = game
    w.deal_damage(bear, 1, wither=True)
    other = w.add_object(p, {"creature"}, power=3, toughness=3)
    w.deal_damage(other, 2, infect=True)
    assert w.counters(bear) == {"-1/-1": 1} and w.damage(bear) == 0
    assert w.counters(other) == {"-1/-1": 2} and w.toughness(other) == 1


@pytest.mark.parametrize("batch", [1, 2])
def test_101_3_damage_puts_no_counters_where_it_cant_have_them_so_nothing_overflows(batch):
    """120.3d and 120.3b put -1/-1 and poison counters; where the permanent or player
    can't have them (101.3) none are put, so a count at the limit raises no
    CountOverflowError (docs/rules-mtg.md, Counts), in one game and in a batch."""
    w = World(batch=batch)
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    w.deal_damage(bear, MAX_COUNT, wither=True)
    w.deal_damage(q, MAX_COUNT, infect=True)
    w.prohibit(bear, "-1/-1")
    w.prohibit(q, "poison")
    w.deal_damage(bear, MAX_COUNT, wither=True)
    w.deal_damage(bear, 1, infect=True)
    w.deal_damage(q, MAX_COUNT, infect=True)
    assert np.atleast_1d(w.count(bear, "-1/-1")).tolist() == [MAX_COUNT] * batch
    assert np.atleast_1d(w.count(q, "poison")).tolist() == [MAX_COUNT] * batch
    w.allow(bear)
    with pytest.raises(CountOverflowError, match="-1/-1"):
        w.deal_damage(bear, 1, wither=True)


def test_120_3a_b_players_lose_life_or_get_poison(game):
    w, p, q, _ = game
    w.deal_damage(q, 3)
    w.deal_damage(q, 2, infect=True)
    assert w.life(q) == 17 and w.counters(q) == {"poison": 2}


def test_120_3c_h_planeswalkers_and_battles_lose_counters(game):
    w, p, q, _ = game
    pw = w.add_object(p, {"planeswalker"}, loyalty=5)
    battle = w.add_object(q, {"battle"}, defense=4)
    w.deal_damage([pw, battle], 3)
    assert w.loyalty(pw) == 2 and w.defense(battle) == 1


def test_120_8_zero_damage_is_not_dealt(game):
    w, _, _, bear = game
    w.put_counters(bear, "shield", 1)
    w.clear_events()
    w.deal_damage(bear, 0, deathtouch=True)
    w.tick()
    assert w.exists(bear) and w.counters(bear) == {"shield": 1} and w.events() == []


def test_122_1c_shield_prevents_damage_and_one_counter_goes(game):
    w, _, _, bear = game
    w.put_counters(bear, "shield", 2)
    w.deal_damage(bear, 5, deathtouch=True)
    w.tick()
    assert w.exists(bear) and w.damage(bear) == 0 and w.counters(bear) == {"shield": 1}


def test_122_1c_one_damage_event_from_two_sources_uses_one_shield(game):
    """Ambiguity 8.1: simultaneous damage to one permanent is one event: all prevented."""
    w, _, _, bear = game
    w.put_counters(bear, "shield", 2)
    w.deal_damage([bear, bear], 3, combat=True)
    assert w.damage(bear) == 0 and w.counters(bear) == {"shield": 1}


def test_615_12_unpreventable_damage_is_dealt_and_still_uses_a_shield(game):
    w, _, _, bear = game
    w.put_counters(bear, "shield", 1)
    w.deal_damage(bear, 2, unpreventable=True)
    assert w.damage(bear) == 2 and w.counters(bear) == {}
    w.tick()
    assert not w.exists(bear)


def test_122_1c_shield_replaces_destroy_but_not_sacrifice(game):
    w, p, _, bear = game
    w.put_counters(bear, "shield", 1)
    w.destroy(bear)
    assert w.exists(bear) and w.counters(bear) == {}
    other = w.add_object(p, {"creature"}, power=1, toughness=1, counters={"shield": 1})
    w.sacrifice(other)
    assert not w.exists(other)


def test_shield_ruling_sba_still_destroy_a_shielded_creature(game):
    """Ruling 2022-04-29: lethal damage marked destroys it despite a shield counter."""
    w, _, _, bear = game
    w.deal_damage(bear, 2)
    w.put_counters(bear, "shield", 1)
    w.tick()
    assert not w.exists(bear)


def test_shield_ruling_unpreventable_deathtouch_damage_still_destroys(game):
    """Ruling 2022-04-29: "A creature with a shield counter on it may still be destroyed by
    state-based actions if it ... has been dealt unpreventable damage by a source with
    deathtouch": the damage is dealt, the shield counter still goes (615.12) and 704.5h
    destroys it; the same damage without unpreventable is prevented."""
    w, p, _, bear = game
    w.put_counters(bear, "shield", 2)
    w.deal_damage(bear, 1, deathtouch=True)
    w.tick()
    assert w.exists(bear) and w.counters(bear) == {"shield": 1} and w.damage(bear) == 0
    w.deal_damage(bear, 1, deathtouch=True, unpreventable=True)
    assert w.counters(bear) == {} and w.damage(bear) == 1
    w.tick()
    assert not w.exists(bear)


def test_702_12b_indestructible_counter_stops_destroy_and_lethal_damage(game):
    w, _, _, bear = game
    w.put_counters(bear, "indestructible", 1)
    w.destroy(bear)
    w.deal_damage(bear, 5, deathtouch=True)
    w.tick()
    assert w.exists(bear)
    w.put_counters(bear, "-1/-1", 2)     # 704.5f is not destruction
    w.tick()
    assert not w.exists(bear)


def test_122_1d_stun_replaces_untapping(game):
    w, _, _, bear = game
    w.put_counters(bear, "stun", 2)
    w.untap(bear)                      # untapped already: nothing to replace (8.3)
    assert w.counters(bear) == {"stun": 2}
    w.tap(bear)
    w.untap(bear)
    assert w.is_tapped(bear) and w.counters(bear) == {"stun": 1}
    w.untap(bear)
    w.untap(bear)
    assert not w.is_tapped(bear) and w.counters(bear) == {}
    assert [e.cause for e in w.events()
            if isinstance(e, CounterChanged) and e.after < e.before] == ["stun", "stun"]


def test_122_1h_finality_exiles_instead_of_graveyard(game):
    w, p, _, bear = game
    w.put_counters(bear, "finality", 1)
    w.destroy(bear)
    ev = w.events()[-1]
    assert ev.to_zone == "exile" and w.zone(ev.new) == "exile"
    dies = w.add_object(p, {"creature"}, power=1, toughness=1, counters={"finality": 2})
    w.put_counters(dies, "-1/-1", 1)
    w.tick()
    assert w.events()[-1].to_zone == "exile"
    to_hand = w.add_object(p, {"creature"}, power=1, toughness=1, counters={"finality": 1})
    new = w.move_zone(to_hand, "hand")
    assert w.zone(new) == "hand"     # ruling: only the graveyard is replaced


def test_120_3_damage_to_cards_off_the_battlefield_is_illegal(game):
    w, p, _, _ = game
    card = w.add_object(p, {"creature"}, zone="graveyard", power=1, toughness=1)
    rock = w.add_object(p, {"artifact"})
    for target in (card, rock):
        with pytest.raises(IllegalActionError, match=str(target)):
            w.deal_damage(target, 1)


def test_702_2b_a_source_per_game_deals_with_its_own_abilities_to_merged_rows():
    """One damage source per game (``source=`` in the order of the games), the same target
    named twice (its rows merged, 120.3): in each game the damage is its own source's, so
    deathtouch (702.2b) destroys the bear only where the source has it, and each event
    names that game's source."""
    from ecs import DamageDealt
    w = World(batch=2, seed=0)
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=3)
    plain = w.add_object(q, {"creature"}, power=1, toughness=1)
    snake = w.add_object(q, {"creature"}, power=1, toughness=1, keywords={"deathtouch"})
    w.deal_damage([bear, bear], 1, source=[plain, snake])
    assert w.damage(bear).tolist() == [2, 2]
    assert sorted((e.game, e.source) for e in w.events() if isinstance(e, DamageDealt)) == \
        [(0, plain), (1, snake)]
    w.tick()
    assert w.exists(bear).tolist() == [True, False]
