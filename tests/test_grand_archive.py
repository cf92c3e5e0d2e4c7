"""The Grand Archive ruleset: each test cites the GA rule it reads (the GA comprehensive
rules, GitBook 216a2180) and, where the rules are open, the choice written in
docs/rules-grand-archive.md."""
from __future__ import annotations

import numpy as np
import pytest
from ga_helpers import unchanged
from scalar_paths import run_on

import ecs
from ecs import (
    Acted,
    CounterError,
    IllegalActionError,
    InvalidKindError,
    InvalidTypeError,
    InvalidZoneError,
    World,
    events,
)
from ecs.errors import CountOverflowError, InsufficientReserveError, InvalidCountError, UnpayableCostError
from ecs.limits import MAX_COUNT, MAX_STAT


def ga(batch=1, players=2):
    w = World(ruleset="grand_archive", batch=batch, seed=7)
    ps = [w.add_player() for _ in range(players)]
    champs = [w.add_object(p, "champion", life=20, level=1, name=f"champion{i}")
              for i, p in enumerate(ps)]
    return w, ps, champs


# ---- stats and buff/debuff ------------------------------------------------------------
def test_buff_1_debuff_1_modify_power_and_life():
    """GA Counters, Buff 1 / Debuff 1: +1 (resp. -1) to power and life per counter."""
    w, (a, _), _ = ga()
    ally = w.add_object(a, "ally", power=2, life=3)
    w.put_counters(ally, "buff", 2)
    assert (w.stat(ally, "power"), w.stat(ally, "life")) == (4, 5)
    w.remove_counters(ally, "buff", 2)
    w.put_counters(ally, "debuff", 1)
    assert (w.power(ally), w.toughness(ally)) == (1, 2)


def test_buff_2_a_missing_stat_stays_missing():
    """Buff 2, Debuff 2, Durability 4: a counter never generates a stat the object lacks."""
    w, (a, _), (champ, _) = ga()
    w.put_counters(champ, "buff", 3)            # champions usually have no power (Champion 4)
    with pytest.raises(InvalidTypeError):
        w.stat(champ, "power")
    assert w.stat(champ, "life") == 23
    item = w.add_object(a, "item")
    w.put_counters(item, "durability", 2)
    w.put_counters(item, "level", 1)
    for stat in ("power", "life", "durability", "level"):
        with pytest.raises(InvalidTypeError):
            w.stat(item, stat)
    assert w.counters(item) == {"durability": 2, "level": 1}


def test_buff_4_cancels_debuff_as_placed_not_at_a_check():
    """Buff 4 / Debuff 4: the cancel happens at placement, so the object
    never holds both kinds, even before any state-based check."""
    w, (a, _), _ = ga()
    ally = w.add_object(a, "ally", power=2, life=3)
    w.put_counters(ally, "debuff", 2)
    w.put_counters(ally, "buff", 3)
    assert w.counters(ally) == {"buff": 1}           # no tick in between
    w.put_counters(ally, "debuff", 4)
    assert w.counters(ally) == {"debuff": 3}
    assert (w.power(ally), w.toughness(ally)) == (-1, 0)


def test_buff_4_cancelled_counters_count_as_placed():
    """Our choice (docs/rules-grand-archive.md: whether cancelled counters count as
    placed): the cancelled counters are placed, then
    removed. One put event carries every placed counter (for "whenever a buff counter is
    placed" triggers), then the removals follow in the same step with cause ga.placement."""
    w, (a, _), _ = ga()
    ally = w.add_object(a, "ally", power=2, life=3)
    w.put_counters(ally, "debuff", 2)
    w.clear_events()
    w.put_counters(ally, "buff", 3)
    ev = [(e.kind, e.before, e.after, e.cause) for e in w.events()]
    assert ev == [("buff", 0, 3, "put"), ("buff", 3, 1, "ga.placement"),
                  ("debuff", 2, 0, "ga.placement")]
    steps = set(w.event_table()["step"].tolist())
    assert len(steps) == 1


@pytest.mark.parametrize("batch", [1, 2])
def test_buff_4_both_kinds_placed_at_once_cancel_as_the_second_is_placed(batch):
    """Our choice (docs/rules-grand-archive.md: buff and debuff placed at once): an object entering
    with buff and debuff counters (122.6, Buff 4 / Debuff 4) gets each kind placed in the
    order given, in one step; it enters with the difference, and the events are both
    placements, then the cancelled counters removed (the placed kind's first)."""
    w, (a, _), _ = ga(batch=batch)
    w.clear_events()
    x = w.add_object(a, "ally", power=1, life=5, counters={"buff": 2, "debuff": 3})
    assert {k: np.all(v == 1) for k, v in w.counters(x).items()} == {"debuff": True}
    ev = [(e.kind, e.before, e.after, e.cause) for e in w.events() if e.game == 0]
    assert ev == [("buff", 0, 2, "enter"), ("debuff", 0, 3, "enter"),
                  ("debuff", 3, 1, "ga.placement"), ("buff", 2, 0, "ga.placement")]
    assert len(set(w.event_table()["step"].tolist())) == 1


def test_buff_4_applies_to_moved_counters_too():
    """Buff 4: moving buff counters onto an object with debuff counters places them."""
    w, (a, _), _ = ga()
    x = w.add_object(a, "ally", power=1, life=1, counters={"buff": 2})
    y = w.add_object(a, "ally", power=1, life=5, counters={"debuff": 1})
    w.move_counters(x, y, "buff", 2)
    assert w.counters(y) == {"buff": 1} and w.counters(x) == {}


# ---- damage, champions and allies ------------------------------------------------------
def test_damage_1_champion_damage_is_persistent_counters_ally_damage_is_temporary():
    """Counters: Damage 1 and GA Damage 12-13: damage to a champion is damage counters,
    which survive the end-of-turn clean-up; damage to an ally is marked and removed."""
    w, (a, _), (champ, _) = ga()
    ally = w.add_object(a, "ally", power=1, life=5)
    w.deal_damage(champ, 4)
    w.deal_damage(ally, 2)
    assert w.counters(champ) == {"damage": 4} and w.damage(champ) == 0
    assert w.counters(ally) == {} and w.damage(ally) == 2
    w.cleanup()
    assert w.counters(champ) == {"damage": 4} and w.damage(ally) == 0


def test_damage_3_champion_dies_is_banished_and_its_player_loses():
    """Counters: Damage 3, Champion 8, Ending the Game 5: damage counters reaching life
    kill the champion, which is banished instead of going to the graveyard, and a player
    with no champion left loses (the next pass: game-ending checks, Types of Checks 1)."""
    w, (a, b), (champ, _) = ga()
    w.deal_damage(champ, 19)
    w.tick()
    assert w.zone(champ) == "battlefield"
    w.deal_damage(champ, 1)
    w.tick()
    assert w.has_lost(a) and w.result() == b
    [z] = [e for e in w.events() if type(e).__name__ == "ZoneChanged"]
    assert (z.to_zone, z.cause, z.lki) == ("exile", "ga.damage", {"damage": 20})
    assert w.objects("banishment") == [z.new]


def test_debuff_lowers_a_champions_life_below_its_damage():
    """Counters: Damage 3 with Debuff 1: life is printed life with debuff counters."""
    w, (a, _), (champ, _) = ga()
    w.deal_damage(champ, 18)
    w.tick()
    w.put_counters(champ, "debuff", 2)
    w.tick()
    assert w.has_lost(a)


def test_ally_6_1_temporary_damage_made_lethal_by_a_debuff():
    """Ally 6.1: an ally with damage marked equal to or greater than its life is
    destroyed; a debuff counter can make existing temporary damage lethal."""
    w, (a, _), _ = ga()
    ally = w.add_object(a, "ally", power=2, life=3)
    w.deal_damage(ally, 2)
    w.tick()
    assert w.zone(ally) == "battlefield"
    w.put_counters(ally, "debuff", 1)
    w.tick()
    [z] = [e for e in w.events() if type(e).__name__ == "ZoneChanged"]
    assert (z.to_zone, z.cause) == ("graveyard", "ga.damage")


def test_ally_6_1_zero_life_is_destroyed():
    """Ally 6.1 / Destruction 5: 0 or less life destroys an ally."""
    w, (a, _), _ = ga()
    ally = w.add_object(a, "ally", power=2, life=2)
    w.put_counters(ally, "debuff", 2)
    w.tick()
    assert not w.exists(ally)


def test_types_of_checks_are_simultaneous_within_a_pass():
    """Our choice (docs/rules-grand-archive.md, GA state-based checks): non-game-ending
    checks are decided on one state and
    performed together as one event."""
    w, (a, b), _ = ga()
    x = w.add_object(a, "ally", power=1, life=1)
    y = w.add_object(b, "ally", power=1, life=1)
    wpn = w.add_object(a, "weapon", power=1, durability=1)
    w.deal_damage([x, y], 1)
    w.remove_counters(wpn, "durability", 1)
    w.clear_events()
    assert w.tick() == 1
    assert len({e for e in w.event_table()["step"].tolist()}) == 1
    assert w.objects("field") == w.objects("field", types="champion")


def test_types_of_checks_1_game_ending_pass_comes_first():
    """Types of Checks 1: the game "will first make a pass" for game-ending conditions;
    in a game where a player loses that way, the other checks wait for the next pass
    (with the loser's banished champion leaving the game, Ending the Game 7)."""
    w, (a, b, c), (ca, _, _) = ga(players=3)
    ally = w.add_object(b, "ally", power=1, life=1)
    w.deal_damage(ally, 1)
    w.destroy(ca)                     # a champion leaves: a game-ending condition
    w.clear_events()
    assert w.tick() == 2
    kinds = [(type(e).__name__, e.__dict__.get("cause")) for e in w.events()]
    assert kinds == [("PlayerLost", "ga.champion"), ("ZoneChanged", "ga.left_game"),
                     ("ZoneChanged", "ga.damage")]   # (one step: as decided, leaving first)
    t = w.event_table()
    assert t["step"][0] < t["step"][1] == t["step"][2]


def test_ending_the_game_5_two_player_loss_freezes_the_game():
    """Ending the Game 3-4: once a player has lost a two-player game it is over; the
    state-based checks of that pass are not performed."""
    w, (a, b), (ca, _) = ga()
    ally = w.add_object(b, "ally", power=1, life=1)
    w.deal_damage(ally, 1)
    w.sacrifice(ca)
    w.tick()
    assert w.result() == b and w.zone(ally) == "battlefield"


def test_ending_the_game_6_players_who_lose_at_once_draw():
    """Ending the Game 6: when every player loses at the same time the game is a draw
    (both champions leave the field together, Ending the Game 5)."""
    w, (a, b), (ca, cb) = ga()
    w.destroy([ca, cb])
    w.tick()
    assert w.has_lost(a) and w.has_lost(b) and w.result() == "draw"


@pytest.mark.parametrize("batch", [1, 2])
def test_ending_the_game_5_a_player_who_gives_up_control_of_their_champion_loses(batch):
    """Ending the Game 5: "The player does not control a champion ... and previously
    controlled a champion": control of one's only champion passed to another player is a
    loss at the next check, as its leaving the field would be; in Magic a control change
    loses nothing."""
    w, (a, b), (_, cb) = ga(batch=batch)
    w.set_controller(cb, a)
    w.tick()
    assert np.all(w.has_lost(b)) and np.all(w.result() == a) and np.all(w.exists(cb))
    m = World(batch=batch)
    p, q = m.add_player(), m.add_player()
    bear = m.add_object(q, "creature", power=2, toughness=2)
    m.set_controller(bear, p)
    m.tick()
    assert not np.any(m.has_lost(q))


@pytest.mark.parametrize("batch", [1, 2])
def test_ending_the_game_8_what_a_losing_player_controls_returns_to_its_owner(batch):
    """Ending the Game 8: in a multiplayer game that goes on, an object a player who lost
    controls but does not own "will return under the control of its previous controller"
    (the owner: the core keeps no history of control); what they own leaves (7). The
    owner's wither trigger then asks the owner to pay for it (Wither 1)."""
    w, (a, b, _), (ca, *_) = ga(batch=batch, players=3)
    ally = w.add_object(b, "ally", power=1, life=3)
    mine = w.add_object(a, "ally", power=1, life=3)
    w.set_controller(ally, a)
    w.deal_damage(ca, 25)
    w.tick()
    assert np.all(w.has_lost(a)) and np.all(w.result() == ("ongoing" if batch == 1 else -1))
    assert np.all(w.controller(ally) == b) and not np.any(w.exists(mine))
    w.put_counters(ally, "wither", 1)
    w.begin_main_phase(b)
    assert not np.any(w.exists(ally))   # b has no reserve: sacrificed (Sacrifice 2)


def test_ending_the_game_5_a_player_who_still_controls_a_champion_does_not_lose():
    """Ending the Game 5: a player loses when a champion they controlled left the field
    and they control no champion now; with another champion on the field they play on,
    until that one leaves too. Also in the probe's settled ticks in between."""
    w, (a, b), (ca, _) = ga()
    second = w.add_object(a, "champion", power=1, life=5)
    w.destroy(ca)
    assert w.objects("banishment") and w.tick() == 0 and not w.has_lost(a)
    assert w.tick() == 0 and not w.has_lost(a)
    w.destroy(second)
    w.tick()
    assert w.has_lost(a) and w.result() == b


@pytest.mark.parametrize("batch", [1, 2])
def test_ending_the_game_5_a_champion_card_leaving_the_hand_is_no_loss(batch):
    """Ending the Game 5 asks for a champion the player controlled on the field: a champion
    card moved from the hand (banished instead of put into the graveyard, Champion 8) is
    not one, so a player who never had a champion on the field plays on."""
    w = World(ruleset="grand_archive", batch=batch)
    a, b = w.add_player(), w.add_player()
    w.add_object(b, "champion", life=20)
    card = w.add_object(a, "champion", life=20, zone="hand")
    moved = w.move_zone(card, "graveyard")
    assert np.all(w.zone(moved) == "exile")   # (banishment: the exile zone under its GA name)
    assert w.tick() == 0 and not np.any(w.has_lost(a)) and w.ongoing.all()


def test_bulwark_prevents_one_instance_of_combat_damage():
    """Counters: Bulwark 1-4: combat damage only; one counter per instance, however many;
    unpreventable combat damage is dealt and still removes one."""
    w, (a, _), (champ, _) = ga()
    w.put_counters(champ, "bulwark", 2)
    w.deal_damage(champ, 3, combat=True)
    assert w.counters(champ) == {"bulwark": 1}
    w.deal_damage(champ, 2)                               # not combat: dealt
    assert w.counters(champ) == {"bulwark": 1, "damage": 2}
    w.deal_damage(champ, 1, combat=True, unpreventable=True)
    assert w.counters(champ) == {"damage": 3}


def test_damage_4_each_damaged_unit_is_a_damage_dealt_event():
    """GA Damage 4-5, Bulwark 3: every unit dealt damage is a DamageDealt event with its
    source, the amount and what was dealt (0 where a bulwark counter prevented it); 0
    damage is no event (Damage 15, as 120.8)."""
    w, (a, _), (champ, _) = ga()
    ally = w.add_object(a, "ally", power=1, life=5)
    w.put_counters(champ, "bulwark", 1)
    w.clear_events()
    w.deal_damage([champ, ally], np.array([3, 2]), source=ally, combat=True)
    w.deal_damage(ally, 0)
    dealt = [(e.target, e.source, e.amount, e.dealt, e.cause) for e in w.events()
             if isinstance(e, events.DamageDealt)]
    assert dealt == [(champ, ally, 3, 0, "combat damage"), (ally, ally, 2, 2, "combat damage")]


def test_damage_16_several_sources_to_one_unit_in_one_call_are_refused():
    """Damage 16: each source's damage is an instance of its own (a bulwark counter
    prevents one instance, Bulwark 3), so one call with a source per target refuses a
    unit dealt damage by two sources, changing nothing; sources to different units are
    each their own event."""
    w, (a, b), (champ, other) = ga()
    x = w.add_object(b, "ally", power=1, life=5)
    y = w.add_object(b, "ally", power=2, life=5)
    w.put_counters(champ, "bulwark", 1)
    unchanged(w, lambda: w.deal_damage([champ, champ], [1, 2], source=[x, y], combat=True),
              IllegalActionError)
    w.clear_events()
    w.deal_damage([champ, other], [1, 2], source=[x, y], combat=True)
    dealt = [(e.target, e.source, e.dealt) for e in w.events() if isinstance(e, events.DamageDealt)]
    assert sorted(dealt) == sorted([(champ, x, 0), (other, y, 2)])


# ---- recover -------------------------------------------------------------------------
def test_sacrifice_2_regalia_and_champions_are_banished():
    """GA Sacrifice 2: a sacrificed object goes to the graveyard, a regalia or champion into
    banishment; the same rule for World.sacrifice as for the wither sacrifice."""
    w, (a, b), (champ, _) = ga()
    reg = w.add_object(a, ("item", "regalia"))
    ally = w.add_object(a, "ally", power=1, life=1)
    w.sacrifice([reg, ally, champ])
    moved = [e for e in w.events() if e.__class__.__name__ == "ZoneChanged"]
    assert sorted((e.to_zone, e.cause) for e in moved) == [
        ("exile", "sacrifice"), ("exile", "sacrifice"), ("graveyard", "sacrifice")]
    w.tick()
    assert w.has_lost(a) and w.result() == b     # Ending the Game 5


def test_recover_2_removes_damage_counters_and_at_most_those_there_are():
    """Recover 2, 2.1, 2.2: remove N damage counters; more than there are removes all."""
    w, _, (champ, _) = ga()
    w.deal_damage(champ, 5)
    assert w.recover(champ, 2) == 2 and w.count(champ, "damage") == 3
    assert w.recover(champ, 10) == 3 and w.counters(champ) == {}
    assert w.recover(champ, 1) == 0


def test_recover_as_a_cost_needs_enough_damage_counters():
    """Recover's hint: "Recover 10" as a cost needs a champion with at least 10 damage
    counters; with too few it can't be paid, and nothing changes."""
    w, _, (champ, _) = ga()
    w.deal_damage(champ, 4)
    err = unchanged(w, lambda: w.recover(champ, 5, cost=True), UnpayableCostError)
    assert str(champ) in str(err) and "damage" in str(err) and "4" in str(err)
    assert isinstance(err, CounterError)
    assert w.recover(champ, 4, cost=True) == 4


@pytest.mark.parametrize("batch", [1, 2])
def test_recover_names_a_champion_on_the_field(batch):
    """Recover 2: damage counters are removed from the player's champion: an ally, a
    player or a champion card off the field is refused, changing nothing."""
    w, (a, _), _ = ga(batch=batch)
    ally = w.add_object(a, "ally", power=1, life=4)
    card = w.add_object(a, "champion", life=20, level=1, zone="banishment", counters={"damage": 1})
    for target in (ally, a, card):
        unchanged(w, lambda target=target: w.recover(target, 1), IllegalActionError)


# ---- durability -----------------------------------------------------------------------
def test_durability_1_2_enters_with_counters_and_may_exceed_the_stat():
    """Durability 1-2: a card with a durability stat enters with that many durability
    counters; more can be placed than the stat."""
    w, (a, _), _ = ga()
    wpn = w.add_object(a, ("weapon", "regalia"), power=1, durability=2)
    assert w.counters(wpn) == {"durability": 2}
    [e] = [e for e in w.events() if getattr(e, "kind", None) == "durability"]
    assert e.cause == "enter"
    w.put_counters(wpn, "durability", 3)
    assert w.stat(wpn, "durability") == 5
    card = w.add_object(a, "weapon", power=1, durability=2, zone="deck")
    assert w.counters(card) == {} and w.stat(card, "durability") == 2


def test_durability_3_weapon_and_siegeable_destroyed_at_zero():
    """Durability 3, Types of Checks 3, Destruction 6: a weapon or siegeable object with
    no durability counters is destroyed (to the graveyard, even a regalia weapon)."""
    w, (a, _), _ = ga()
    wpn = w.add_object(a, ("weapon", "regalia"), power=1, durability=1)
    dom = w.add_object(a, ("domain", "siegeable"), durability=2)
    item = w.add_object(a, "item", durability=1)       # neither weapon nor siegeable
    w.remove_counters([wpn, item], "durability", 1)
    w.remove_counters(dom, "durability", 2)
    w.clear_events()
    w.tick()
    moves = {(e.old, e.to_zone, e.cause) for e in w.events()}
    assert moves == {(wpn, "graveyard", "ga.durability"), (dom, "graveyard", "ga.durability")}
    assert w.zone(item) == "battlefield"


def test_durability_4_weapon_without_a_durability_stat_is_not_destroyed():
    """Our choice (docs/rules-grand-archive.md, a missing stat): without a durability stat there is no
    durability to reach 0 (Durability 4), so the check does not apply."""
    w, (a, _), _ = ga()
    wpn = w.add_object(a, "weapon", power=1)
    w.tick()
    assert w.zone(wpn) == "battlefield"


# ---- level ------------------------------------------------------------------------------
def test_level_counters_raise_lv_not_base_level():
    """Level 1, Level Counters 1-2, LV 1: +1 LV per level counter on a champion; the base
    level is the printed one."""
    w, (a, _), (champ, _) = ga()
    w.put_counters(champ, "level", 2)
    assert w.stat(champ, "level") == 3 and w.base_level(champ) == 1
    ally = w.add_object(a, "ally", power=1, life=1, level=1)
    w.put_counters(ally, "level", 2)
    assert w.stat(ally, "level") == 1          # only champions gain LV from them


# ---- enlighten and drawing --------------------------------------------------------------
def deck(w, p, n, **kw):
    return [w.add_object(p, "action", zone="deck", name=f"card{i}", **kw) for i in range(n)]


def test_enlighten_1_remove_three_to_draw_the_top_card():
    """Counters: Enlighten 1: "Remove 3 enlighten counters from [CARDNAME]: Draw a card."
    Drawing moves the top card of its controller's deck to their hand."""
    w, (a, _), (champ, _) = ga()
    cards = deck(w, a, 3)
    assert w.library(a) == cards
    w.put_counters(champ, "enlighten", 4)
    [new] = [w.activate_enlighten(champ)]
    assert w.counters(champ) == {"enlighten": 1}
    assert w.zone(new) == "hand" and w.name(new) == "card0"
    assert w.library(a) == cards[1:]


def test_enlighten_with_fewer_than_three_raises_and_changes_nothing():
    """Enlighten 1: the cost is removing 3; with two it can't be paid."""
    w, (a, _), (champ, _) = ga()
    deck(w, a, 2)
    w.put_counters(champ, "enlighten", 2)
    err = unchanged(w, lambda: w.activate_enlighten(champ), UnpayableCostError)
    assert str(champ) in str(err) and "enlighten" in str(err) and "2" in str(err)


def test_ending_the_game_5_drawing_from_an_empty_deck_loses():
    """Ending the Game 5: "That player attempts to draw a card from an empty deck"."""
    w, (a, b), (champ, _) = ga()
    w.put_counters(champ, "enlighten", 3)
    assert w.activate_enlighten(champ) == -1
    assert not w.has_lost(a)
    w.tick()
    assert w.has_lost(a) and w.result() == b


def test_enlighten_is_vectorized_over_a_batch():
    """Enlighten 1 in three games at once; the top card differs per game (shuffled)."""
    w, (a, _), (champ, _) = ga(batch=3)
    cards = deck(w, a, 5)
    w.shuffle_library(a)
    tops = [w.library(a, game=g)[0] for g in range(3)]
    w.put_counters(champ, "enlighten", np.array([3, 5, 6]))
    new = w.activate_enlighten(champ)
    assert [w.name(int(x)) for x in new] == [w.name(t) for t in tops]
    assert w.count(champ, "enlighten").tolist() == [0, 2, 3]
    assert all(sorted(w.library(a, game=g) + [tops[g]]) == cards for g in range(3))



def test_enlighten_1_in_a_batch_returns_minus_1_where_no_card_was_drawn():
    """rules-grand-archive.md: activate_enlighten returns the drawn card's new id, -1 where
    none: in a game not selected and in one whose deck is empty (Ending the Game 5)."""
    w, (a, _), (champ, _) = ga(batch=2)
    card = w.add_object(a, "action", zone="deck", games=[0], name="top")
    w.put_counters(champ, "enlighten", 6)
    got = w.activate_enlighten(champ, games=[0])
    assert got[1] == -1 and got[0] >= 0 and w.name(int(got[0])) == "top" and got[0] != card
    assert w.activate_enlighten(champ, games=[1]).tolist() == [-1, -1]
    assert w.count(champ, "enlighten").tolist() == [3, 3]

# ---- bad input and ruleset boundaries ----------------------------------------------------
def test_ga_rejects_magic_counter_kinds_and_types():
    """GA Counters: buff/debuff, not +1/+1; MTG-only kinds and card types raise."""
    w, (a, _), (champ, _) = ga()
    for kind in ("+1/+1", "-1/-1", "flying", "shield", "stun", "finality"):
        unchanged(w, lambda kind=kind: w.put_counters(champ, kind, 1), InvalidKindError)
    unchanged(w, lambda: w.add_object(a, "creature", power=1, toughness=1), InvalidTypeError)
    unchanged(w, lambda: w.deal_damage(champ, 1, deathtouch=True), InvalidTypeError)
    unchanged(w, lambda: w.deal_damage(a, 1), IllegalActionError)


@pytest.mark.parametrize("batch", [1, 2])
def test_ga_refuses_magic_keywords_wherever_they_enter(batch):
    """Magic's keywords (CR 122.1b's table) have Magic rules in the shared engine (deathtouch
    702.2, lifelink 120.3f, indestructible 702.12); GA has none of them (its own keywords
    are Immortality, ``set_immortal``, and Bulwark, a counter) and refuses them wherever
    they would enter, as it refuses their keyword counters: printed (``add_object``'s
    ``keywords``), as counters, and as ``deal_damage`` flags, lifelink included (it was
    ignored), on one target, a few or none, with a source or without: InvalidTypeError
    naming the keyword (and the unit), nothing made or changed."""
    w, (a, _), (champ, other) = ga(batch=batch)
    for kws in (("deathtouch",), ("lifelink",), ("flying", "indestructible")):
        err = unchanged(w, lambda kws=kws: w.add_object(a, "ally", power=1, life=2, keywords=kws),
                        InvalidTypeError)
        assert all(k in str(err) for k in kws), err
    unchanged(w, lambda: w.add_object(a, "ally", power=1, life=2, counters={"lifelink": 1}), InvalidKindError)
    unchanged(w, lambda: w.put_counters(champ, "deathtouch", 1), InvalidKindError)
    for flag in ("deathtouch", "wither", "infect", "lifelink"):
        for target in (other, [other, champ], []):
            for source in (None, champ):
                err = unchanged(w, lambda t=target, s=source, f=flag: w.deal_damage(t, 1, s, **{f: True}),
                                InvalidTypeError)
                named = [e for e in np.atleast_1d(target) if f"entity {e} " in str(err)]
                assert flag in str(err) and len(named) == min(len(np.atleast_1d(target)), 1), err
    w.deal_damage(other, 1, champ, lifelink=False)   # not given: none
    assert np.all(w.count(other, "damage") == 1)


@pytest.mark.parametrize("batch", [1, 2])
def test_champion_8_a_champion_card_is_never_made_in_a_graveyard(batch):
    """Champion 8: "If a Champion card would be put into a graveyard from anywhere, it is
    instead banished", so no GA game holds a champion card in a graveyard, and
    ``add_object`` refuses to make one there (InvalidZoneError naming the card type and the
    zone; nothing made), in one game and in a batch, ``games=`` or not. In banishment it
    is made; any other card is made in the graveyard."""
    w, (a, _), _ = ga(batch=batch)
    for kw in ({}, {"games": [0]}):
        for types in ("champion", ("champion", "ally")):
            err = unchanged(w, lambda t=types, k=kw: w.add_object(a, t, life=5, level=1, zone="graveyard", **k),
                            InvalidZoneError)
            assert "champion" in str(err) and "graveyard" in str(err), err
    unchanged(w, lambda: w.add_objects(3, a, "champion", life=5, zone="graveyard"), InvalidZoneError)
    assert np.all(w.zone(w.add_object(a, "champion", life=5, zone="banishment")) == "exile")
    assert np.all(w.zone(w.add_object(a, "ally", power=1, life=1, zone="graveyard")) == "graveyard")


def test_ga_only_actions_raise_in_mtg():
    w = World()
    p = w.add_player()
    c = w.add_object(p, "creature", power=1, toughness=1, counters={"enlighten": 3})
    unchanged(w, lambda: w.activate_enlighten(c), IllegalActionError)
    unchanged(w, lambda: w.recover(c, 1), IllegalActionError)


def test_reserve_is_a_per_player_resource_paid_in_full():
    """Costs and Memory 1, Wither 3: reserve paid in full or not at all."""
    w, (a, b), _ = ga(batch=2)
    w.set_reserve(a, np.array([2, 5]))
    w.pay_reserve(a, 2)
    assert w.reserve(a).tolist() == [0, 3]
    err = unchanged(w, lambda: w.pay_reserve(a, 1), InsufficientReserveError)
    assert str(a) in str(err) and "game 0" in str(err)
    w.gain_reserve(b, 4, games=1)
    assert w.reserve(b).tolist() == [0, 4]


def test_costs_and_memory_1_reserve_actions_skip_finished_games_as_life_changes_do():
    """Ending the Game 5: a game whose player lost has ended; naming it in ``games=``
    raises GameOverError, and with ``skip_finished=True`` the reserve actions leave it
    out and act in the others, as lose_life and gain_life do (api.md)."""
    w, (a, b), (champ, _) = ga(batch=2)
    w.deal_damage(champ, 20, games=[0])
    w.tick()
    assert w.result().tolist() == [b, -1]
    for act in (w.set_reserve, w.gain_reserve, w.pay_reserve):
        unchanged(w, lambda act=act: act(b, 1, games=[0, 1]), ecs.GameOverError)
    w.set_reserve(b, [7, 5], games=[0, 1], skip_finished=True)
    w.gain_reserve(b, 2, games=[0, 1], skip_finished=True)
    w.pay_reserve(b, [9, 3], games=[0, 1], skip_finished=True)
    assert w.reserve(b).tolist() == [0, 4]
    one, (c, _), _ = ga()
    one.pay_reserve(c, 0, games=0, skip_finished=True)   # (one game, still going)
    assert one.reserve(c) == 0



@pytest.mark.parametrize("batch", [1, 2])
def test_costs_and_memory_1_a_short_payment_names_the_player_game_amount_and_reserve(batch):
    """rules-grand-archive.md Errors: InsufficientReserveError names the player (the
    entity), the game, the amount asked and the reserve there is; nothing is paid."""
    w, (a, b), _ = ga(batch=batch)
    g = batch - 1
    w.set_reserve(b, 3)
    err = unchanged(w, lambda: w.pay_reserve(b, 7, games=[g]), InsufficientReserveError)
    assert f"player {b} in game {g} can't pay 7 reserve: they have 3" in str(err)

def test_zone_aliases_field_banishment_deck():
    """GA zone names: field, banishment, deck."""
    w, (a, _), _ = ga()
    x = w.add_object(a, "item", zone="banishment")
    y = w.add_object(a, "item", zone="deck")
    assert (w.zone(x), w.zone(y)) == ("exile", "library")
    assert w.objects("field", types="champion") and w.objects("deck") == [y]


def test_a_batch_of_games_differs_per_game():
    """Damage 3 in a batch: the same champion dies in some games only."""
    w, (a, b), (champ, _) = ga(batch=3)
    w.deal_damage(champ, np.array([19, 20, 25]))
    w.tick()
    assert w.has_lost(a).tolist() == [False, True, True]
    assert w.result().tolist() == [-1, b, b]


# ---- Grand Archive edges ------------------------------------------------------------------
def test_types_of_checks_6_cleanup_hook_removes_ally_damage_counters_only():
    """Types of Checks 6, Stats: Life 2.2: clean-up removes all ally damage counters; a
    champion's stay (Damage 13). The ruleset hook, as ecs.actions.cleanup will call it."""
    w, (a, _), (champ, _) = ga(batch=2)
    ally = w.add_object(a, "ally", power=1, life=9)
    w.put_counters(ally, "damage", np.array([2, 3]))
    w.put_counters(champ, "damage", 4)
    w.clear_events()
    w.ruleset.cleanup(w, np.array([1]))
    assert w.count(ally, "damage").tolist() == [2, 0] and w.count(champ, "damage").tolist() == [4, 4]
    assert w.events() == [ecs.CounterChanged(1, ally, "damage", 3, 0, "cleanup")]
    mtg = World()
    mtg.ruleset.cleanup(mtg, np.array([0]))        # Magic: nothing besides marked damage


def test_types_of_checks_6_world_cleanup_removes_ally_damage_counters():
    w, (a, _), _ = ga()
    ally = w.add_object(a, "ally", power=1, life=9, counters={"damage": 2})
    w.cleanup()
    assert w.counters(ally) == {}


def test_an_allys_damage_counters_count_with_its_marked_damage_against_its_life():
    """Our choice (docs/rules-grand-archive.md, unit death): damage counters put on an ally count
    against its life with its marked damage ("damage marked (temporary or via damage
    counters)", Destruction), so together they kill it (Types of Checks 2, Ally 6.1),
    where either alone does not."""
    w, (a, _), _ = ga()
    ally = w.add_object(a, "ally", power=1, life=4, counters={"damage": 2})
    w.deal_damage(ally, 1)
    w.tick()
    assert w.exists(ally)
    w.deal_damage(ally, 1)
    w.tick()
    assert not w.exists(ally)


def test_damage_15_negative_damage_is_zero():
    """Damage 15: less than 0 damage is 0 damage (the ruleset hook); Magic keeps rejecting
    negative amounts (CR 107.1b)."""
    w, _, _ = ga()
    assert np.asarray(w.ruleset.damage_amounts(-3)).tolist() == 0
    assert np.asarray(w.ruleset.damage_amounts([2, -1])).tolist() == [2, 0]
    assert w.ruleset.damage_amounts(1.5) == 1.5          # left to the usual validation
    assert World().ruleset.damage_amounts(-3) == -3


def test_damage_15_world_deals_negative_damage_as_zero():
    w, _, (champ, _) = ga()
    w.clear_events()
    w.deal_damage(champ, -2)
    assert w.counters(champ) == {} and w.events() == []


def test_recover_2_1_1_recovering_with_no_damage_counters_is_still_an_event():
    """Recover 2.1.1: a non-zero recover with no damage counters still "recovers"; each
    recover is an Acted event with before/after damage counters; recover 0 is none."""
    w, (a, _), (champ, _) = ga()
    w.clear_events()
    assert w.recover(champ, 2) == 0
    w.recover(champ, 0)
    assert w.events() == [ecs.Acted(0, champ, a, "damage", 0, 0, "ga.recover")]
    w.deal_damage(champ, 3)
    w.clear_events()
    w.recover(champ, 2)
    assert w.events() == [ecs.CounterChanged(0, champ, "damage", 3, 1, "ga.recover"),
                          ecs.Acted(0, champ, a, "damage", 3, 1, "ga.recover")]
    t = w.event_table()
    assert t["type"].tolist() == [events.COUNTER, events.ACTION] and t["step"][0] == t["step"][1]


def test_enlighten_activation_and_reserve_payment_are_events_and_survive_save_load(tmp_path):
    """Enlighten 1 (an activation) and Costs and Memory 1 (a payment) are events, kept by
    save/load; paying 0 reserve pays nothing and is no event."""
    w, (a, b), (champ, _) = ga()
    w.add_object(a, "action", zone="deck")
    w.put_counters(champ, "enlighten", 4)
    w.set_reserve(b, 3)
    w.clear_events()
    w.activate_enlighten(champ)
    w.pay_reserve(b, 2)
    w.pay_reserve(b, 0)
    evs = w.events()
    assert ecs.Acted(0, champ, a, "enlighten", 4, 1, "ga.enlighten") in evs
    assert evs[-1] == ecs.ReserveChanged(0, b, 3, 1, "ga.reserve")
    assert sum(isinstance(e, ecs.ReserveChanged) for e in evs) == 1
    w.save(tmp_path / "ga.npz")
    assert World.load(tmp_path / "ga.npz").events() == evs


def test_immortality_1_immortal_units_do_not_die_and_weapons_are_not_destroyed():
    """Keywords: Immortality 1.1-1.2 and Damage 13's hint: an immortal champion with
    damage counters past its life stays; an immortal weapon at 0 durability stays;
    per game; a banish effect still moves it."""
    w, (a, b), (champ, _) = ga(batch=2)
    sword = w.add_object(a, "weapon", power=1, durability=1)
    w.set_immortal(champ, np.array([True, False]))
    w.set_immortal(sword)
    w.deal_damage(champ, 25)
    w.remove_counters(sword, "durability", 1)
    w.tick()
    assert w.exists(champ).tolist() == [True, False] and w.zone(champ)[0] == "battlefield"
    assert w.result().tolist() == [-1, b] and w.zone(sword)[0] == "battlefield"
    new = w.move_zone(champ, "banishment", games=[0])
    assert w.zone(new)[0] == "exile"
    unchanged(w, lambda: w.set_immortal(a), IllegalActionError)
    unchanged(w, lambda: w.set_immortal(sword, 1, games=[0]), InvalidTypeError)
    unchanged(World(), lambda: World().set_immortal(0), IllegalActionError)


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("targets", ["one", "few"])
def test_immortality_1_ii_immortal_objects_are_neither_destroyed_nor_sacrificed(batch, targets):
    """Keywords: Immortality 1 ("can't be sent from the field to the graveyard") and 1.ii
    ("can't be destroyed (including via sacrifice)"): `destroy` and `sacrifice` leave an
    immortal ally and an immortal champion where they are, so its player does not lose
    (Ending the Game 5); mortal allies named with them go to the graveyard (Sacrifice 2),
    each action is one step, and one game's immortality is that game's alone."""
    w, (a, _), (champ, _) = ga(batch=batch)
    ally, other, third = (w.add_object(a, "ally", power=1, life=2) for _ in range(3))
    flags = True if batch == 1 else np.array([True, False])
    w.set_immortal(ally, flags)
    w.set_immortal(champ, flags)
    step = w.step
    if targets == "one":
        w.destroy(ally)
        w.sacrifice(champ)
        w.destroy(other)
        w.sacrifice(third)
    else:
        w.destroy([ally, other])
        w.sacrifice([champ, third])
    assert w.step == step + (4 if targets == "one" else 2)
    w.tick()
    kept = np.array([True]) if batch == 1 else np.array([True, False])
    for e in (ally, champ):
        assert np.array_equal(np.atleast_1d(w.exists(e)), kept)
    assert not np.any(w.exists(other)) and not np.any(w.exists(third))
    assert np.array_equal(np.atleast_1d(w.has_lost(a)), ~kept)
    assert len(w.objects(zone="graveyard", game=0)) == 2


def test_leveling_up_keeps_the_object_and_its_counters_and_changes_level_and_life():
    """Leveling Up 1-7 (7.ii: the same object), Enlighten Counters 2, Level (base): the
    base level and life become the new card's, counters stay, damage counters meet the
    new life at the next check; an Acted event for "On Enter" abilities."""
    w, (a, _), (champ, _) = ga()
    w.put_counters(champ, "enlighten", 2)
    w.put_counters(champ, "level", 1)
    w.deal_damage(champ, 18)
    w.clear_events()
    w.level_up(champ, 2, life=24, power=3)
    assert w.exists(champ) and w.base_level(champ) == 2 and w.stat(champ, "level") == 3
    assert (w.stat(champ, "life"), w.stat(champ, "power")) == (24, 3)
    assert w.counters(champ) == {"damage": 18, "enlighten": 2, "level": 1}
    assert w.events() == [ecs.Acted(0, champ, a, None, 1, 2, "ga.level_up")]
    w.level_up(champ, 3, life=17)                        # lower life: dies at the check
    with pytest.raises(InvalidTypeError):
        w.stat(champ, "power")
    w.tick()
    assert w.has_lost(a)


@pytest.mark.parametrize("batch", [1, 3])
def test_bad_input_to_the_grand_archive_actions_raises_and_changes_nothing(batch):
    """Every bad input is a CounterError and changes nothing (docs/api.md, Errors): a
    level up without a life (its base level was written before the error), a cost that is
    not True or False, a stat name that is no str, a timedelta64 where an id or a stat is
    expected, two totals set for one player and two flags for one object."""
    w, (a, _), (ca, _) = ga(batch=batch)
    w.set_reserve(a, 2)
    for call, error in ((lambda: w.level_up(ca, 2, None), InvalidCountError),
                        (lambda: w.level_up(ca, 2, 20, power=np.timedelta64(1)), InvalidCountError),
                        (lambda: w.recover(ca, 1, cost=np.array([True] * batch)), IllegalActionError),
                        (lambda: w.recover(ca, 1, cost="no"), IllegalActionError),
                        (lambda: w.stat(ca, np.array([1, 2])), InvalidTypeError),
                        (lambda: w.set_reserve(np.timedelta64(int(a)), 1), CounterError),
                        (lambda: w.set_reserve([a, a], [1, 2]), IllegalActionError),
                        (lambda: w.set_immortal([ca, ca], [True, False]), IllegalActionError)):
        unchanged(w, call, error)


@pytest.mark.parametrize("batch", [1, 3])
def test_costs_and_memory_1_a_player_named_twice_pays_and_gains_both_amounts(batch):
    """Paying reserve is all or nothing (GA Costs and Memory 1): a player named twice pays
    both amounts, and must have their sum (refused, nothing changed, where not); one
    event of the sum. Gaining adds both."""
    w, (a, _), _ = ga(batch=batch)
    w.set_reserve(a, 5)
    unchanged(w, lambda: w.pay_reserve([a, a], [3, 3]), InsufficientReserveError)
    w.clear_events()
    w.pay_reserve([a, a], [2, 2])
    assert np.all(w.reserve(a) == 1)
    assert [(e.before, e.after) for e in w.events() if e.game == 0] == [(5, 1)]
    w.gain_reserve([a, a], [1, 2])
    assert np.all(w.reserve(a) == 4)


def test_leveling_up_acts_in_the_games_still_going_only():
    """A board that has ended is frozen (Ending the Game: the game is over): a level up
    acts in the games still going where the champion is, not in an ended one."""
    w, (a, b), (ca, cb) = ga(batch=3)
    w.destroy(cb, games=[2])
    w.tick()
    assert w.ongoing.tolist() == [True, True, False]
    w.level_up(ca, 2, 25)
    assert np.asarray(w.stat(ca, "life")).tolist() == [25, 25, 20]
    assert [e.game for e in w.events() if isinstance(e, ecs.Acted)] == [0, 1]


def test_leveling_up_2_only_into_the_next_level_of_a_champion_on_the_field():
    w, (a, _), (champ, _) = ga()
    ally = w.add_object(a, "ally", power=1, life=2)
    card = w.add_object(a, "champion", life=20, level=1, zone="banishment")   # (Champion 8: never in a graveyard)
    unchanged(w, lambda: w.level_up(champ, 3, life=20), IllegalActionError)
    unchanged(w, lambda: w.level_up(ally, 2, life=20), IllegalActionError)
    unchanged(w, lambda: w.level_up(card, 2, life=20), IllegalActionError)
    unchanged(w, lambda: w.level_up(champ, 2, life=2.5), InvalidCountError)
    nolevel = w.add_object(a, "champion", life=20)
    unchanged(w, lambda: w.level_up(nolevel, 1, life=20), IllegalActionError)


def test_ending_the_game_7_an_object_whose_owner_left_leaves_rather_than_breaks():
    """Ending the Game 7 with Types of Checks 3 in one check: a weapon at 0 durability
    whose owner lost leaves the game (a zone change to nowhere), rather than being
    destroyed to a graveyard of a player no longer in the game."""
    w, (a, b, c), (ca, *_) = ga(players=3)
    blade = w.add_object(a, "weapon", power=1, durability=0)
    w.set_controller(ca, b)   # a gives up their only champion (Ending the Game 5)
    w.clear_events()
    w.tick()
    assert w.has_lost(a) and w.result() == "ongoing" and not w.exists(blade)
    moves = [(e.cause, e.to_zone) for e in w.events() if isinstance(e, ecs.ZoneChanged) and e.old == blade]
    assert moves == [("ga.left_game", "none")]


def test_ending_the_game_7_a_player_who_loses_leaves_with_their_objects():
    """Ending the Game 7, 9: in a game that goes on, every card and object of the loser
    ceases to exist (field, deck, banishment...), a zone change to nowhere, no death;
    the other players' objects stay. A two-player game ends as it stood."""
    w, (a, b, c), (ca, cb, _) = ga(players=3)
    ally = w.add_object(a, "ally", power=1, life=2)
    deck = w.add_object(a, "action", zone="deck")
    other = w.add_object(b, "ally", power=1, life=2)
    w.sacrifice(ca)
    w.clear_events()
    w.tick()
    assert w.has_lost(a) and w.result() == "ongoing"
    assert not w.exists(ally) and not w.exists(deck) and w.exists(other) and w.exists(cb)
    left = {(e.old, e.from_zone, e.new) for e in w.events()
            if isinstance(e, ecs.ZoneChanged) and e.cause == "ga.left_game"}
    assert {(ally, "battlefield", None), (deck, "library", None)} <= left
    assert all(e.to_zone == "none" for e in w.events() if isinstance(e, ecs.ZoneChanged))
    w2, (a2, _), (c2, _) = ga()
    ally2 = w2.add_object(a2, "ally", power=1, life=2)
    w2.sacrifice(c2)
    w2.tick()
    assert w2.has_lost(a2) and w2.zone(ally2) == "battlefield"


# ---- a batch plays as its games alone ---------------------------------------------------
def _champion_and_foe(w, power=None, end=(0,)):
    """A champion and a foe champion of 5 life, dealt 5 damage in the games ``end``: it is
    banished there and its player loses (Damage 13, Ending the Game 5), so those games
    end. Returns the champion."""
    a, b = w.add_player(), w.add_player()
    champ = w.add_object(a, "champion", life=20, level=1, **({} if power is None else {"power": power}))
    foe = w.add_object(b, "champion", life=5, level=1)
    if end:
        w.deal_damage(foe, 5, games=list(end))
        w.tick()
    return champ


@pytest.mark.parametrize("power, new_power", [(None, 2), (1, None)])
def test_leveling_up_2_after_a_game_ended_reads_and_checks_each_games_level(power, new_power):
    """Champion: Leveling Up 2 in a batch whose game 0 ended (the ended game keeps its
    card) gives what a World of each game alone gives: stat and base_level read each
    game's own level, life and power (a power that exists in one game only reads 0 in the
    other: docs/rules-grand-archive.md, API additions), and the next level up is checked
    against the running game's base level, not the ended game's."""
    bw = World(ruleset="grand_archive", batch=2, seed=7)
    champ = _champion_and_foe(bw, power)
    singles = [World(ruleset="grand_archive", seed=7) for _ in range(2)]
    sc = [_champion_and_foe(s, power, end=(0,) if g == 0 else ()) for g, s in enumerate(singles)]
    assert bw.ongoing.tolist() == [False, True]
    assert [bool(s.ongoing[0]) for s in singles] == [False, True]
    bw.level_up(champ, 2, 22, new_power)          # acts in game 1 only (game 0 ended)
    singles[1].level_up(sc[1], 2, 22, new_power)
    for name in ("level", "life"):
        assert bw.stat(champ, name).tolist() == [s.stat(c, name) for s, c in zip(singles, sc)]
    for g, (s, c) in enumerate(zip(singles, sc)):
        assert int(bw.base_level(champ)[g]) == s.base_level(c)
        p = (power, new_power)[g]
        if p is None:
            assert int(bw.stat(champ, "power")[g]) == 0
            with pytest.raises(InvalidTypeError):
                s.stat(c, "power")
        else:
            assert int(bw.stat(champ, "power")[g]) == s.stat(c, "power") == p
    err = unchanged(bw, lambda: bw.level_up(champ, 2, 22), IllegalActionError)   # game 1 is level 2
    assert f"champion {champ} is level 2 in game 1" in str(err)   # (the entity, its level, the game)
    bw.level_up(champ, 3, 24)
    singles[1].level_up(sc[1], 3, 24)
    assert bw.base_level(champ).tolist() == [s.base_level(c) for s, c in zip(singles, sc)] == [1, 3]
    assert bw.stat(champ, "level").tolist() == [1, 3]


def test_immortality_1_set_immortal_broadcasts_flags_in_a_batch_as_a_host_action():
    """Keywords: Immortality 1 with a flag per object ((m,)) or per game and object
    ((G, m)) in a batch, broadcast as the host actions' flags are (docs/api.md, ids and
    values broadcast; ``set_hold``): each game's immortal ally survives ``destroy`` as in a
    World of that game alone given its row; flags that fit no row raise and change
    nothing."""
    for flags in (np.array([True, False]), np.array([[True, False], [False, True]])):
        rows = np.broadcast_to(flags, (2, 2))
        bw, (a, _), _ = ga(batch=2)
        allies = [bw.add_object(a, "ally", power=1, life=2) for _ in range(2)]
        unchanged(bw, lambda w=bw, e=allies: w.set_immortal(e, np.array([True, False, True])),
                  CounterError)
        bw.set_immortal(allies, flags)
        bw.destroy(allies)
        bw.tick()
        for g in range(2):
            s, (sa, _), _ = ga()
            single = [s.add_object(sa, "ally", power=1, life=2) for _ in range(2)]
            s.set_immortal(single, rows[g])
            s.destroy(single)
            s.tick()
            assert [bool(bw.exists(e)[g]) for e in allies] == [s.exists(e) for e in single] == rows[g].tolist()


def test_wither_pay_most_breaks_cost_ties_by_slot_as_a_world_of_each_game_does():
    """GA Counters, Wither 1-3 with the default policy (docs/rules-grand-archive.md, Wither
    policies): two allies with one wither counter each and reserve for one; a cost tie goes
    to the lower slot, which a batch's game shares with a World of that game alone, so the
    batch keeps the ally each single World keeps whichever order the allies were named in
    when they entered the field together (their new ids follow that order in one game, the
    slots in a batch)."""
    orders = (("y", "x"), ("x", "y"))

    def board(w):
        a, b = w.add_player(), w.add_player()
        w.add_object(a, "champion", life=20, level=1)
        w.add_object(b, "champion", life=20, level=1)
        return a, {n: w.add_object(a, "ally", power=1, life=1, zone="hand", name=n) for n in "xy"}

    def upkeep(w, a, named):
        w.move_zone(named, "field")                 # one step, in the order named
        for g in range(w.batch):
            w.put_counters(w.objects(zone="battlefield", types="ally", game=g), "wither", 1, games=[g])
        w.set_reserve(a, 1)
        w.begin_main_phase(a)                       # pay_most: one of the two is kept
        return [sorted(w.name(e) for e in w.objects(zone="battlefield", types="ally", game=g))
                for g in range(w.batch)]

    bw = World(ruleset="grand_archive", batch=2, seed=7)
    a, hand = board(bw)
    kept = upkeep(bw, a, np.array([[hand[n] for n in order] for order in orders]))
    for g, order in enumerate(orders):
        s = World(ruleset="grand_archive", seed=7)
        sa, shand = board(s)
        assert upkeep(s, sa, [shand[n] for n in order]) == [kept[g]] == [["x"]]   # x: the lower slot


def test_two_headed_giant_is_a_magic_variant_only():
    """CR 810 (teams sharing life and poison) is Magic's: a Grand Archive World in it is
    refused, where it played Magic's team rules on GA players."""
    with pytest.raises(IllegalActionError, match="two_headed_giant=True.*CR 810.*grand_archive"):
        World(ruleset="grand_archive", two_headed_giant=True)


# ---- single-game and batch paths alike (each test kills a mutant the suite let live) ----
def test_buff_4_one_buff_cancels_one_debuff_in_a_batch():
    """Buff 4 / Debuff 4 on the batch path (ruleset.place): a single buff counter placed on
    an object with one debuff counter removes itself and that debuff counter."""
    w, (a, _), _ = ga(batch=2)
    ally = w.add_object(a, "ally", power=2, life=3)
    w.put_counters(ally, "debuff", 1)
    w.put_counters(ally, "buff", 1)
    assert [w.count(ally, k).tolist() for k in ("buff", "debuff")] == [[0, 0], [0, 0]]
    assert w.stat(ally, "life").tolist() == [3, 3]


def test_bulwark_4_1_unpreventable_combat_damage_in_a_batch_is_dealt():
    """Counters: Bulwark 4.1 (and Damage 3): unpreventable combat damage is dealt and
    removes one bulwark counter - on the batch path (ruleset.deal_damage) too."""
    w, _, (champ, _) = ga(batch=2)
    w.put_counters(champ, "bulwark", 1)
    w.deal_damage(champ, 2, combat=True, unpreventable=True)
    assert w.count(champ, "damage").tolist() == [2, 2]
    assert w.count(champ, "bulwark").tolist() == [0, 0]


def test_bulwark_4_1_unpreventable_combat_damage_to_several_units_is_dealt():
    """Bulwark 4.1 on the few-targets path (deal_damage_few): one call dealing
    unpreventable combat damage to a champion with a bulwark counter and to an ally."""
    w, (a, _), (champ, _) = ga()
    ally = w.add_object(a, "ally", power=1, life=5)
    w.put_counters(champ, "bulwark", 1)
    w.deal_damage([champ, ally], 2, combat=True, unpreventable=True)
    assert w.counters(champ) == {"damage": 2}
    assert w.damage(ally) == 2


def test_ending_the_game_5_giving_away_a_champion_card_off_the_field_is_no_loss():
    """Ending the Game 5 ("does not control a champion ... and previously controlled a
    champion"; Champion 1: a champion is the object on the field): handing a champion
    *card* that is not on the field to another player is not giving up a champion."""
    w = World(ruleset="grand_archive", seed=7)
    a, b = w.add_player(), w.add_player()
    w.add_object(b, "champion", life=20, level=1)
    card = w.add_object(a, "champion", life=20, level=1, zone="hand")
    w.set_controller(card, b)
    w.tick()
    assert not w.has_lost(a) and w.result() == "ongoing"


def test_recover_2_2_returns_what_was_removed_in_a_batch():
    """Recover 2.1, 2.2: recovering more than there are removes those there are, and the
    batch path returns that many (one per game)."""
    w, _, (champ, _) = ga(batch=2)
    w.deal_damage(champ, 1)
    assert np.asarray(w.recover(champ, 3)).tolist() == [1, 1]
    assert w.count(champ, "damage").tolist() == [0, 0]


def test_enlighten_1_is_an_ability_of_objects_on_the_field_only():
    """Enlighten 1 (docs/rules-grand-archive.md: "Enlighten is an ability of objects on the
    field"): a card in hand with three enlighten counters can't activate it - on the
    single-game path as on the batch path; nothing changes, nothing is drawn."""
    w, (a, _), _ = ga()
    w.add_object(a, "action", zone="deck", name="top")
    card = w.add_object(a, "action", zone="hand")
    w.put_counters(card, "enlighten", 3)
    unchanged(w, lambda: w.activate_enlighten(card), IllegalActionError)


def test_costs_a_payment_short_by_one_reserve_is_refused():
    """Costs and Memory 1 / docs ("paying is all-or-nothing"): paying 3 with 2 reserve
    raises and pays nothing, in a World of one game (the single-game path)."""
    w, (a, _), _ = ga()
    w.set_reserve(a, 2)
    unchanged(w, lambda: w.pay_reserve(a, 3), InsufficientReserveError)
    assert w.reserve(a) == 2


def test_bulwark_1_non_combat_damage_in_a_batch_is_not_prevented():
    """Counters: Bulwark 1 ("prevents an instance of combat damage"): non-combat damage is
    dealt and spends no bulwark counter - on the batch path (ruleset.deal_damage) too."""
    w, _, (champ, _) = ga(batch=2)
    w.put_counters(champ, "bulwark", 1)
    w.deal_damage(champ, 2)
    assert w.count(champ, "damage").tolist() == [2, 2]
    assert w.count(champ, "bulwark").tolist() == [1, 1]


def test_bulwark_4_one_counter_per_prevented_instance_in_a_batch():
    """Counters: Bulwark 4: "No more than one counter may be removed per damage instance
    that is prevented", however many there are - on the batch path too."""
    w, _, (champ, _) = ga(batch=2)
    w.put_counters(champ, "bulwark", 2)
    w.deal_damage(champ, 3, combat=True)
    assert w.count(champ, "bulwark").tolist() == [1, 1]
    assert w.count(champ, "damage").tolist() == [0, 0]


def test_recover_2_1_1_recovering_zero_is_no_recover_event_in_a_batch():
    """Recover 2.1.1 makes recovering a *non-zero* amount an event even with nothing to
    remove; recovering 0 is none (as on the single-game path, ``if n > 0``)."""
    w, _, (champ, _) = ga(batch=2)
    w.clear_events()
    w.recover(champ, 0)
    assert [e for e in w.events() if isinstance(e, Acted)] == []
    w.recover(champ, 1)
    assert len([e for e in w.events() if isinstance(e, Acted)]) == 2   # one per game


def test_recover_2_1_1_recovering_one_with_no_damage_counters_is_an_event():
    """Recover 2.1.1: recovering a non-zero amount (here 1) with no damage counters is
    still "recovering" (an Acted event), on the single-game path."""
    w, _, (champ, _) = ga()
    w.clear_events()
    assert w.recover(champ, 1) == 0
    assert [(e.cause, e.before, e.after) for e in w.events() if isinstance(e, Acted)] == [
        ("ga.recover", 0, 0)]


def test_immortality_declared_false_again_dies_on_the_single_game_path():
    """Keywords: Immortality 1.1 applies only while the object has Immortality: an ally
    declared immortal, then not (set_immortal(e, False), one game), dies by damage
    (Types of Checks 2; Ally 6.1)."""
    w, (a, _), _ = ga()
    ally = w.add_object(a, "ally", power=1, life=2)
    w.set_immortal(ally)
    w.set_immortal(ally, False)
    w.deal_damage(ally, 2)
    w.tick()
    assert not w.exists(ally)


@pytest.mark.parametrize("batch", [1, 2])
def test_buff_4_a_buff_cancels_only_as_many_debuff_counters_as_were_placed(batch):
    """Buff 4 ("each buff counter placed ... removes itself and one debuff counter"): one
    buff counter placed on an object with three debuff counters leaves two, on the
    single-game and the batch path (ruleset.place) alike."""
    w, (a, _), _ = ga(batch=batch)
    ally = w.add_object(a, "ally", power=4, life=5)
    w.put_counters(ally, "debuff", 3)
    w.put_counters(ally, "buff", 1)
    assert np.all(w.count(ally, "debuff") == 3 - 1) and np.all(w.count(ally, "buff") == 0)
    assert np.all(w.stat(ally, "life") == 5 - 2)


@pytest.mark.parametrize("batch", [1, 2])
def test_damage_4_5_a_unit_off_the_field_is_not_dealt_damage(batch):
    """Damage 4-5, Unit 1: only units on the field can be dealt damage; an ally card in
    hand refuses it (IllegalActionError naming it) and nothing changes, in a batch too."""
    w, (a, _), _ = ga(batch=batch)
    card = w.add_object(a, "ally", power=1, life=3, zone="hand")
    err = unchanged(w, lambda: w.deal_damage(card, 1), IllegalActionError)
    assert f"entity {card}" in str(err)


@pytest.mark.parametrize("batch", [1, 2])
def test_bulwark_3_zero_combat_damage_spends_no_bulwark_counter(batch):
    """Counters: Bulwark 3 (a bulwark counter prevents non-zero combat damage) and Damage:
    0 damage is not dealt: 0 combat damage to a champion with a bulwark counter keeps the
    counter, puts no damage counter and is no DamageDealt event, on either path."""
    w, _, (champ, _) = ga(batch=batch)
    w.put_counters(champ, "bulwark", 1)
    w.clear_events()
    w.deal_damage(champ, 0, combat=True)
    assert np.all(w.count(champ, "bulwark") == 1) and np.all(w.count(champ, "damage") == 0)
    assert w.events() == []


@pytest.mark.parametrize("batch", [1, 2])
def test_damage_13_a_champion_that_is_also_an_ally_gets_damage_counters_only(batch):
    """Damage 12-13: damage to a champion is damage counters; an object that is a
    champion and an ally is a champion, so its damage is counters, none marked."""
    w, (a, _), _ = ga(batch=batch)
    both = w.add_object(a, ("champion", "ally"), life=9, level=0)
    w.deal_damage(both, 2)
    assert np.all(w.count(both, "damage") == 2) and np.all(w.damage(both) == 0)


@pytest.mark.parametrize("batch, few", [(1, False), (1, True), (2, False)])
@pytest.mark.parametrize("unit", ["champion", "ally"])
def test_damage_past_max_count_raises_and_changes_nothing(batch, few, unit):
    """Damage 12-13: a champion's damage counters and an ally's marked damage are int32
    like counts: damage that would pass MAX_COUNT raises CountOverflowError before
    anything changes (no step, no DamageDealt event, nor damage to the other target), on
    the one-target, few-targets and batch paths alike."""
    w, (a, _), (champ, foe) = ga(batch=batch)
    target = champ if unit == "champion" else w.add_object(a, "ally", power=1, life=3)
    w.deal_damage(target, MAX_COUNT - 1)
    unchanged(w, lambda: w.deal_damage([foe, target] if few else target, 2), CountOverflowError)


@pytest.mark.parametrize("batch, few", [(1, False), (1, True), (2, False)])
def test_damage_13_an_allys_marked_damage_adds_up(batch, few):
    """Damage 13 (an ally's damage is marked until clean-up): damage dealt to an ally
    that already has marked damage adds to it, on the one-target, few-targets and batch
    paths alike."""
    w, (a, _), (_, foe) = ga(batch=batch)
    ally = w.add_object(a, "ally", power=1, life=9)
    w.deal_damage(ally, 1)
    w.deal_damage([ally, foe] if few else ally, 2)
    assert np.all(w.damage(ally) == 1 + 2)


@pytest.mark.parametrize("batch, few", [(1, False), (1, True), (2, False)])
def test_bulwark_3_a_prevented_instance_is_a_combat_damage_event_that_dealt_nothing(batch, few):
    """Counters: Bulwark 3 and Damage 4: combat damage a bulwark counter prevents is still
    a DamageDealt event (cause "combat damage") of the amount, with 0 dealt, on the
    one-target, few-targets and batch paths alike; the unguarded ally is dealt its own."""
    w, (a, _), (champ, _) = ga(batch=batch)
    ally = w.add_object(a, "ally", power=1, life=5)
    w.put_counters(champ, "bulwark", 1)
    w.clear_events()
    w.deal_damage([champ, ally] if few else champ, 2, combat=True)
    got = sorted((e.game, e.target, e.amount, e.dealt, e.cause) for e in w.events()
                 if isinstance(e, events.DamageDealt))
    assert got == sorted([(g, champ, 2, 0, "combat damage") for g in range(batch)]
                         + ([(0, ally, 2, 2, "combat damage")] if few else []))


@pytest.mark.parametrize("batch", [1, 2])
def test_types_of_checks_6_cleanup_removes_the_damage_counters_of_ally_objects_only(batch):
    """Types of Checks 6 ("remove all ally damage counters") reads Card Types - Ally 1: an
    ally object is the ally on the field. Clean-up removes its damage counters; an ally
    card in the hand and an ally that is also a champion (a champion's damage stays,
    Damage 13) keep theirs."""
    w, (a, _), _ = ga(batch=batch)
    ally = w.add_object(a, "ally", power=1, life=9, counters={"damage": 2})
    card = w.add_object(a, "ally", power=1, life=9, zone="hand", counters={"damage": 2})
    both = w.add_object(a, ("champion", "ally"), life=9, level=0, counters={"damage": 2})
    w.cleanup()
    kept = {name: np.atleast_1d(w.count(x, "damage")).tolist()
            for name, x in (("ally", ally), ("card", card), ("both", both))}
    assert kept == {"ally": [0] * batch, "card": [2] * batch, "both": [2] * batch}


@pytest.mark.parametrize("batch", [1, 2])
def test_champion_8_only_a_champion_going_to_the_graveyard_is_banished(batch):
    """Champion 8 replaces a champion card's move to a graveyard only: a champion returned
    from the field to its owner's hand goes to the hand."""
    w, _, (champ, _) = ga(batch=batch)
    back = w.move_zone(champ, "hand")
    assert np.all(w.zone(back) == "hand")


@pytest.mark.parametrize("batch", [1, 2])
def test_reserve_past_max_count_raises_and_changes_nothing(batch):
    """Reserve is an int32 count: a gain that would pass MAX_COUNT raises
    InvalidCountError and leaves it as it was, on either path."""
    w, (a, _), _ = ga(batch=batch)
    w.set_reserve(a, MAX_COUNT)
    unchanged(w, lambda: w.gain_reserve(a, 1), InvalidCountError)


@pytest.mark.parametrize("batch", [1, 2])
def test_costs_and_memory_1_setting_reserve_replaces_it_and_paying_zero_is_no_event(batch):
    """set_reserve sets the total (it adds nothing to what was there); a payment is an
    event (Costs and Memory 1), paying 0 is none - on the single-game and batch paths."""
    w, (a, _), _ = ga(batch=batch)
    w.set_reserve(a, 5)
    w.set_reserve(a, 3)
    assert np.all(w.reserve(a) == 3)
    w.clear_events()
    w.pay_reserve(a, 0)
    assert w.events() == [] and np.all(w.reserve(a) == 3)



@pytest.mark.parametrize("path", ["scalar", "general"])
@pytest.mark.parametrize("batch", [1, 2])
def test_costs_and_memory_1_setting_or_gaining_reserve_is_no_event_paying_is(batch, path):
    """rules-grand-archive.md: setting or gaining reserve is the host's bookkeeping and no
    event; paying is a ReserveChanged (cause ga.reserve) in each game, on every path."""
    with run_on(path):
        w, (a, _), _ = ga(batch=batch)
        w.clear_events()
        w.set_reserve(a, 2)
        w.gain_reserve(a, 3)
        assert w.events() == [] and np.all(w.reserve(a) == 5)
        w.pay_reserve(a, 4)
    assert [(e.game, e.player, e.before, e.after, e.cause) for e in w.events()] == [
        (g, a, 5, 1, "ga.reserve") for g in range(batch)]

def test_recover_2_2_a_list_of_champions_returns_and_logs_what_was_removed():
    """Recover 2.1, 2.2: recovering 3 from a champion with 1 damage counter removes 1; a
    list of champions in a batch returns that per game and champion, and each Acted
    event's before/after are the counts there (1 -> 0)."""
    w, _, (champ, _) = ga(batch=2)
    w.deal_damage(champ, 1)
    w.clear_events()
    assert np.asarray(w.recover([champ], 3)).tolist() == [[1], [1]]
    assert [(e.game, e.before, e.after) for e in w.events() if isinstance(e, Acted)] == [(0, 1, 0), (1, 1, 0)]


def test_enlighten_1_in_a_batch_logs_the_counts_and_takes_one_object_per_game():
    """Enlighten 1 on the batch path: each game's Acted event has the counts before and
    after the three are removed (5 -> 2); two objects of one game at once are refused
    (each activation draws for its controller in turn), changing nothing."""
    w, (a, _), (champ, _) = ga(batch=2)
    deck(w, a, 3)
    item = w.add_object(a, "item", counters={"enlighten": 3})
    w.put_counters(champ, "enlighten", 5)
    unchanged(w, lambda: w.activate_enlighten([champ, item]), IllegalActionError)
    w.clear_events()
    w.activate_enlighten(champ)
    assert [(e.game, e.cause, e.before, e.after) for e in w.events() if isinstance(e, Acted)] == [
        (0, "ga.enlighten", 5, 5 - 3), (1, "ga.enlighten", 5, 5 - 3)]


@pytest.mark.parametrize("batch, few", [(1, False), (1, True), (2, False)])
def test_damage_zero_damage_is_an_accepted_call_that_takes_a_step_and_logs_nothing(batch, few):
    """Damage (0 damage is not dealt) with docs/api.md, Events: dealing 0 damage to a
    unit is accepted, so it takes an event step of its own and logs no event, on the
    one-target, few-targets and batch paths alike."""
    w, _, (champ, foe) = ga(batch=batch)
    w.clear_events()
    step = w.step
    w.deal_damage([champ, foe] if few else champ, 0)
    assert w.step == step + 1 and w.events() == []


def test_damage_4_5_a_unit_off_the_field_among_several_targets_is_not_dealt_damage():
    """Damage 4-5, Unit 1: an ally card in hand named with a champion on the field is
    refused (IllegalActionError naming the card), and the champion is dealt nothing."""
    w, (a, _), (champ, _) = ga()
    card = w.add_object(a, "ally", power=1, life=3, zone="hand")
    err = unchanged(w, lambda: w.deal_damage([champ, card], 1), IllegalActionError)
    assert f"entity {card}" in str(err)


@pytest.mark.parametrize("batch", [1, 2])
def test_enlighten_1_the_objects_controller_activates_and_draws(batch):
    """Enlighten 1 ("Remove 3 enlighten counters from [CARDNAME]: Draw a card."): the
    ability is its controller's, so an item that player b controls and player a owns
    draws b's top card, and the Acted event names b as the player who acted."""
    w, (a, b), _ = ga(batch=batch)
    deck(w, a, 1)
    [top] = deck(w, b, 1)
    item = w.add_object(a, "item", counters={"enlighten": 3})
    w.set_controller(item, b)
    w.clear_events()
    w.activate_enlighten(item)
    assert [(e.game, e.player) for e in w.events() if isinstance(e, Acted)] == [(g, b) for g in range(batch)]
    assert all(w.library(b, g) == [] and len(w.library(a, g)) == 1 for g in range(batch))


@pytest.mark.parametrize("batch", [1, 2])
def test_durability_1_off_the_field_the_stat_is_the_printed_one(batch):
    """Stats: Durability 1 (an object's durability is its durability counters, which it
    gets as it enters the field, Durability 1): off the field a weapon's durability is
    the printed stat, whatever counters the card holds."""
    w, (a, _), _ = ga(batch=batch)
    sword = w.add_object(a, "weapon", power=1, durability=3, zone="hand")
    assert np.all(w.stat(sword, "durability") == 3)
    w.put_counters(sword, "durability", 1)
    assert np.all(w.stat(sword, "durability") == 3)


@pytest.mark.parametrize("stat", ["durability", "level"])
def test_buff_2_a_missing_stat_stays_missing_in_a_batch(stat):
    """Buff 2, Durability 4: a stat that is not printed does not exist, in a batch too
    (InvalidTypeError where no game has it), whatever counters of its kind it holds."""
    w, (a, _), _ = ga(batch=2)
    item = w.add_object(a, "item", counters={stat: 1})
    with pytest.raises(InvalidTypeError, match=f"no {stat} stat"):
        w.stat(item, stat)
    if stat == "level":
        with pytest.raises(InvalidTypeError, match="no level stat"):
            w.base_level(item)



def test_stats_a_batch_reads_0_in_the_games_an_object_is_not_in():
    """rules-grand-archive.md stat/base_level: per game, 0 in a game without the stat, as
    in an observation; here the object is in game 0 only, and game 1's object in the same
    slot lends it nothing (its durability 5, its level 4)."""
    w, (a, _), _ = ga(batch=2)
    sword = w.add_object(a, "weapon", power=1, durability=3, games=[0])
    champ = w.add_object(a, "champion", life=20, level=2, games=[0], counters={"level": 1})
    axe = w.add_object(a, "weapon", power=1, durability=5, games=[1])
    other = w.add_object(a, "champion", life=20, level=4, games=[1], counters={"level": 1})
    assert w.stat(sword, "durability").tolist() == [3, 0]
    assert w.stat(champ, "level").tolist() == [3, 0] and w.base_level(champ).tolist() == [2, 0]
    assert w.stat(axe, "durability").tolist() == [0, 5] and w.base_level(other).tolist() == [0, 4]

def test_immortality_1_a_player_is_not_declared_immortal():
    """Keywords: Immortality 1 (an object's static ability): set_immortal of a player
    is refused in a single game too, naming the player, and changes nothing."""
    w, (a, _), _ = ga()
    err = unchanged(w, lambda: w.set_immortal(a), IllegalActionError)
    assert f"entity {a}" in str(err) and "player" in str(err)


def test_recover_2_a_champion_named_twice_is_refused():
    """Recover 2: two amounts to recover from one champion in one call (which is meant?)
    are refused, changing nothing."""
    w, _, (champ, _) = ga()
    w.deal_damage(champ, 3)
    unchanged(w, lambda: w.recover([champ, champ], [1, 2]), IllegalActionError)


@pytest.mark.parametrize("life", [-MAX_STAT - 1, MAX_STAT + 1])
def test_leveling_up_a_life_past_max_stat_either_way_is_refused(life):
    """Leveling Up 7.ii.d: a level up's life is the new card's, a stat within -MAX_STAT..MAX_STAT
    (ecs.limits): one past it on either side raises InvalidCountError naming it, and
    changes nothing."""
    w, _, (champ, _) = ga()
    err = unchanged(w, lambda: w.level_up(champ, 2, life=life), InvalidCountError)
    assert "life" in str(err) and str(life) in str(err)


def test_leveling_up_1_only_a_champion_levels_up():
    """Leveling Up 1 ("A champion can be incrementally leveled"): an ally with a printed
    level 1 is not leveled into level 2 (IllegalActionError naming it), nor is a champion
    without a level stat (its error says so); nothing changes."""
    w, (a, _), _ = ga()
    ally = w.add_object(a, "ally", power=1, life=2, level=1)
    err = unchanged(w, lambda: w.level_up(ally, 2, life=3), IllegalActionError)
    assert f"entity {ally} is not a champion" in str(err)
    nolevel = w.add_object(a, "champion", life=20)
    err = unchanged(w, lambda: w.level_up(nolevel, 1, life=20), IllegalActionError)
    assert "no level stat" in str(err)


def test_zone_aliases_effects_stack():
    """GA zone names: the effects stack is the stack."""
    w, (a, _), _ = ga()
    x = w.add_object(a, "action", zone="effects stack")
    assert w.zone(x) == "stack" and w.objects("effects stack") == [x]


def test_types_of_checks_1_an_ended_games_board_stays_as_it_ended_in_a_batch():
    """Types of Checks 1, Ending the Game 5: in game 0 of three a player loses by the
    game-ending pass (their only champion sacrificed), so the game ends before the damage
    check; its lethally damaged ally stays there, while in games 1 and 2 it dies."""
    w, (a, b), (_, cb) = ga(batch=3)
    ally = w.add_object(a, "ally", power=1, life=1)
    w.deal_damage(ally, 1)
    w.sacrifice(cb, games=[0])
    w.tick()
    assert w.result().tolist() == [a, -1, -1]
    assert w.exists(ally).tolist() == [True, False, False]
    assert [(e.game, e.cause) for e in w.events() if getattr(e, "old", None) == ally] == [
        (1, "ga.damage"), (2, "ga.damage")]


def test_ending_the_game_7_an_object_a_loser_owns_leaves_from_another_players_control():
    """Ending the Game 7: every object a player who lost owns leaves the game, also one
    another player controls; one the loser controlled but another player owns stays,
    back with its owner (Ending the Game 8)."""
    w, (a, b, c), (ca, *_) = ga(players=3)
    lent = w.add_object(a, "ally", power=1, life=2)
    borrowed = w.add_object(b, "ally", power=1, life=2)
    w.set_controller(lent, b)
    w.set_controller(borrowed, a)
    w.sacrifice(ca)
    w.clear_events()
    w.tick()
    assert w.has_lost(a) and w.result() == "ongoing"
    assert not w.exists(lent) and w.exists(borrowed) and w.controller(borrowed) == b
    left = [e.old for e in w.events() if isinstance(e, ecs.ZoneChanged) and e.cause == "ga.left_game"]
    assert lent in left and borrowed not in left


@pytest.mark.parametrize("batch", [1, 2])
def test_types_of_checks_2_a_hosts_set_and_modified_life_count(batch):
    """Types of Checks 2 with a host's effects (ecs.host): an ally of printed life 1 whose
    life a host sets to 3 takes 2 damage and stays; one whose life a host lowers by 1 is at
    0 life and dies; an ally without a life stat has no life to reach and stays."""
    w, (a, _), _ = ga(batch=batch)
    tall = w.add_object(a, "ally", power=1, life=1)
    weak = w.add_object(a, "ally", power=1, life=1)
    bare = w.add_object(a, "ally", power=1)
    w.set_pt(tall, toughness=3)
    w.modify_pt(weak, toughness=-1)
    w.deal_damage(tall, 2)
    w.clear_events()
    w.tick()
    assert np.all(w.exists(tall)) and np.all(w.exists(bare)) and not np.any(w.exists(weak))
    assert [(e.old, e.cause) for e in w.events() if isinstance(e, ecs.ZoneChanged)] == [(weak, "ga.damage")] * batch


@pytest.mark.parametrize("batch", [1, 2])
def test_durability_3_a_weapon_entering_with_0_durability_is_destroyed(batch):
    """Durability 1, 3: a weapon with a durability stat of 0 enters with no durability
    counters, the first object of its game to have the stat, and is destroyed."""
    w, (a, _), _ = ga(batch=batch)
    blade = w.add_object(a, "weapon", power=1, durability=0)
    w.clear_events()
    w.tick()
    assert not np.any(w.exists(blade))
    assert [(e.old, e.cause) for e in w.events() if isinstance(e, ecs.ZoneChanged)] == [
        (blade, "ga.durability")] * batch


@pytest.mark.parametrize("path", ["scalar", "general"])
@pytest.mark.parametrize("batch", [1, 2])
def test_stats_1_a_stat_not_printed_raises_naming_the_entity_and_stat(path, batch):
    """rules-grand-archive.md API additions: ``stat`` and ``base_level`` of a stat that is
    not printed raise InvalidTypeError naming the entity and the stat, on the single
    game's scalar path and on the general path (where, in a batch, no game has it)."""
    w = World(ruleset="grand_archive", batch=batch)
    p = w.add_player()
    item = w.add_object(p, "item", counters={"durability": 1, "level": 1})
    with run_on(path):
        for name in ("durability", "level", "power"):
            with pytest.raises(InvalidTypeError, match=f"entity {item} has no {name}"):
                w.stat(item, name)
        with pytest.raises(InvalidTypeError, match=f"entity {item} has no level stat"):
            w.base_level(item)
