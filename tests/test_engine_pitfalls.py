"""Counter and state-based-action bugs that other rules engines have shipped, as behaviour
tests: each docstring gives the scenario, the rules it reads and the outcome they require.
The host's card text (persist, undying, "dies" triggers) is played here the way a host
would play it: reading the events and last-known information the core records. Every
scenario runs on the single-game scalar paths and on the general ones."""
import numpy as np
import pytest
from scalar_paths import run_on

from ecs import (
    CounterChanged,
    DamageDealt,
    IllegalActionError,
    StaleEntityError,
    World,
    ZoneChanged,
)
from ecs.components import TYPE_BIT
from ecs.rules import Magic


@pytest.fixture(autouse=True, params=["scalar", "general"])
def _path(request):
    with run_on(request.param):
        yield


def _counter_rows(w, entity=None):
    return {(e.entity, e.kind, e.before, e.after, e.cause) for e in w.events()
            if isinstance(e, CounterChanged) and (entity is None or e.entity == entity)}


def _zone_changes(w):
    return [e for e in w.events() if isinstance(e, ZoneChanged)]


class _NoCountersOnCreatures(Magic):
    """"Counters can't be put on artifacts, creatures, enchantments, or lands" (a class
    effect), narrowed to what each test needs."""
    types = TYPE_BIT["creature"]

    def can_have(self, world, kind, g, c):
        return (world.store.a["types"][g, c] & self.types) == 0


class _NoCountersOnArtifacts(_NoCountersOnCreatures):
    types = TYPE_BIT["artifact"]


class _NoMinusCountersOnCreatures(_NoCountersOnCreatures):
    """"Creatures can't have -1/-1 counters put on them"."""

    def can_have(self, world, kind, g, c):
        return super().can_have(world, kind, g, c) if kind == "-1/-1" else None


# -- 704.5q: +1/+1 and -1/-1 counters annihilate ------------------------------------------


def test_704_5q_a_cancelled_pair_is_gone_so_proliferate_has_nothing_to_add():
    """704.5q, 701.34a: a creature with one +1/+1 counter gets one -1/-1 counter; the next
    check removes both. A pitfall other engines have shipped: the pair stayed in the
    object's counter map, so a later proliferate offered to add either kind. Here both are
    gone (two removals of cause 704.5q, the creature back to its printed 2/2), and a
    proliferate that names it is refused: it has no counter to add to."""
    w = World()
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2, counters={"+1/+1": 1})
    w.put_counters(bear, "-1/-1")
    w.clear_events()
    assert w.tick() == 1
    assert w.counters(bear) == {} and (w.power(bear), w.toughness(bear)) == (2, 2)
    assert _counter_rows(w) == {(bear, "+1/+1", 1, 0, "704.5q"), (bear, "-1/-1", 1, 0, "704.5q")}
    with pytest.raises(IllegalActionError):
        w.proliferate([bear])


def test_704_5q_cancelling_diverges_by_game_with_the_counts_each_game_has():
    """704.5q, 704.5f: one +1/+1 counter on a 2/2 and 0, 1 or 3 -1/-1 counters in three
    games: the first keeps its +1/+1 counter, the second cancels to none, the third keeps
    two -1/-1 counters' worth of toughness loss and dies (toughness 0), in the same check
    that would cancel the pair."""
    w = World(batch=3)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2, counters={"+1/+1": 1})
    w.put_counters(bear, "-1/-1", np.array([0, 1, 3]))
    w.tick()
    assert w.exists(bear).tolist() == [True, True, False]
    assert w.count(bear, "+1/+1").tolist() == [1, 0, 0]
    assert w.count(bear, "-1/-1").tolist() == [0, 0, 0]


def test_704_5q_cancels_on_any_permanent_and_on_no_card_off_the_battlefield():
    """704.5q names a permanent, not a creature: an artifact with two +1/+1 counters and
    one -1/-1 counter keeps one +1/+1 counter; a creature card in a graveyard with the same
    counters keeps them all (a state-based action checks permanents)."""
    w = World()
    p = w.add_player()
    relic = w.add_object(p, "artifact", counters={"+1/+1": 2, "-1/-1": 1})
    card = w.add_object(p, "creature", power=2, toughness=2, zone="graveyard",
                        counters={"+1/+1": 2, "-1/-1": 1})
    w.tick()
    assert w.counters(relic) == {"+1/+1": 1}
    assert w.counters(card) == {"+1/+1": 2, "-1/-1": 1}


def test_704_3_704_5q_a_creature_that_dies_as_its_counters_cancel_remembers_both_kinds():
    """704.3, 704.5f, 704.5q, 603.10a: a 0/0 artifact creature with three +1/+1 counters
    gets three -1/-1 counters: toughness 0. Annihilation and 704.5f are decided on the same
    state, so it dies with all six counters, and its last-known information has three
    +1/+1 counters (a "dies: one token per +1/+1 counter" trigger makes three). A report
    against another engine asked for zero tokens; its maintainers ruled, as here, that the
    cancelled pairs are still on the dying creature. In a batch where the third game gets
    two -1/-1 counters, that creature lives with one +1/+1 counter."""
    w = World()
    p = w.add_player()
    walker = w.add_object(p, {"artifact", "creature"}, power=0, toughness=0,
                          counters={"+1/+1": 3})
    w.put_counters(walker, "-1/-1", 3)
    w.clear_events()
    assert w.tick() == 1
    [died] = _zone_changes(w)
    assert died.cause == "704.5f" and died.lki == {"+1/+1": 3, "-1/-1": 3}
    assert _counter_rows(w) == set()      # its counters cease to exist (122.2): no removals

    b = World(batch=3)
    q = b.add_player()
    walker = b.add_object(q, {"artifact", "creature"}, power=0, toughness=0,
                          counters={"+1/+1": 3})
    b.put_counters(walker, "-1/-1", np.array([3, 4, 2]))
    b.clear_events()
    b.tick()
    assert b.exists(walker).tolist() == [False, False, True]
    assert b.count(walker, "+1/+1").tolist() == [0, 0, 1]
    lki = {e.game: e.lki for e in _zone_changes(b)}
    assert lki == {0: {"+1/+1": 3, "-1/-1": 3}, 1: {"+1/+1": 3, "-1/-1": 4}}


def test_603_10a_a_sacrificed_creature_remembers_its_counters():
    """603.10a, 122.2: a 0/0 artifact creature with three +1/+1 counters is sacrificed. A
    pitfall other engines have shipped: its "dies" trigger read the card in the graveyard
    (no counters) and made no tokens. The zone change carries the three counters it had."""
    w = World()
    p = w.add_player()
    walker = w.add_object(p, {"artifact", "creature"}, power=0, toughness=0,
                          counters={"+1/+1": 3})
    w.clear_events()
    w.sacrifice(walker)
    [gone] = _zone_changes(w)
    assert (gone.cause, gone.to_zone, gone.lki) == ("sacrifice", "graveyard", {"+1/+1": 3})
    assert w.counters(gone.new) == {}


def test_704_3_persist_reads_a_minus_counter_that_dies_with_its_cancelling_plus_counter():
    """704.3, 704.5g, 704.5q, 702.79a: a 3/2 persist creature returned once has a -1/-1
    counter (2/1); an effect puts a +1/+1 counter on it and it is dealt 3 damage. The next
    check both cancels the pair and destroys it for lethal damage, as one event: it dies
    with the -1/-1 counter still on it, so persist ("if it had no -1/-1 counters") does
    not return it. A report against another engine expected a return; its maintainers
    ruled as here."""
    w = World()
    p = w.add_player()
    finks = w.add_object(p, "creature", power=3, toughness=2, counters={"-1/-1": 1})
    w.put_counters(finks, "+1/+1")
    w.deal_damage(finks, 3)
    w.clear_events()
    assert w.tick() == 1
    [died] = _zone_changes(w)
    assert died.cause == "704.5g" and died.lki == {"+1/+1": 1, "-1/-1": 1}
    assert "-1/-1" in died.lki            # persist's condition is false


# -- 122.5, 122.6: counters moved and counters an object enters with ---------------------


def test_122_5_a_minus_counter_moved_onto_a_one_one_kills_it():
    """122.5, 122.1a, 704.5f: a -1/-1 counter moved from one creature onto a 1/1 is put on
    it: a pitfall other engines have shipped moved the counter without its effect, leaving
    a 1/1 with a -1/-1 counter alive. Here the 1/1 has toughness 0 and dies at the next
    check; the source keeps the rest. In a batch where the source has none in one game,
    nothing moves there and the 1/1 lives."""
    w = World()
    p, q = w.add_player(), w.add_player()
    bonder = w.add_object(p, "creature", power=3, toughness=3, counters={"-1/-1": 2})
    elf = w.add_object(q, "creature", power=1, toughness=1)
    assert w.move_counters(bonder, elf, "-1/-1") == 1
    assert w.toughness(elf) == 0 and w.count(bonder, "-1/-1") == 1
    w.clear_events()
    w.tick()
    assert not w.exists(elf) and [e.cause for e in _zone_changes(w)] == ["704.5f"]

    b = World(batch=2)
    p, q = b.add_player(), b.add_player()
    bonder = b.add_object(p, "creature", power=3, toughness=3)
    b.put_counters(bonder, "-1/-1", games=[0])
    elf = b.add_object(q, "creature", power=1, toughness=1)
    assert b.move_counters(bonder, elf, "-1/-1").tolist() == [1, 0]
    b.tick()
    assert b.exists(elf).tolist() == [False, True]


def test_122_5_moving_all_counters_takes_them_off_the_source():
    """122.5, 122.8, 603.10a: "move all counters from it onto target creature" takes each
    counter off the source as it puts it on the target: a pitfall other engines have
    shipped created the counters on the target and left them on the source, so the move
    could be repeated every turn. A second move finds nothing. The counters of a creature
    that left the battlefield are read from its zone change (last-known information) and
    put on the collector."""
    w = World()
    p = w.add_player()
    ozolith = w.add_object(p, "artifact")
    hydra = w.add_object(p, "creature", power=0, toughness=0, counters={"+1/+1": 3, "flying": 1})
    w.clear_events()
    w.sacrifice(hydra)
    [left] = _zone_changes(w)
    for kind, n in left.lki.items():
        w.put_counters(ozolith, kind, n)
    bear = w.add_object(p, "creature", power=2, toughness=2)
    assert w.move_counters(ozolith, bear, None) == 4
    assert w.counters(ozolith) == {} and w.counters(bear) == {"+1/+1": 3, "flying": 1}
    assert w.move_counters(ozolith, bear, None) == 0
    assert w.counters(bear) == {"+1/+1": 3, "flying": 1}


def test_122_6_a_zero_zero_that_enters_with_a_plus_counter_survives():
    """122.6, 704.5f: a 0/0 that enters with a +1/+1 counter has it as it enters, so it is
    a 1/1 when state-based actions are next checked. A pitfall other engines have shipped:
    the creature died before the counter was put on it. Both ways in: cast (created on the
    battlefield with its counter) and returned from the graveyard with one (undying,
    ``move_zone(counters=...)``, one event step)."""
    w = World()
    p = w.add_player()
    shinewend = w.add_object(p, "creature", power=0, toughness=0, counters={"+1/+1": 1})
    card = w.add_object(p, "creature", power=0, toughness=0, zone="graveyard")
    step = w.step
    back = w.move_zone(card, "battlefield", counters={"+1/+1": 1})
    assert w.step == step + 1
    assert {(e.kind, e.after, e.cause) for e in w.events_since(step)
            if isinstance(e, CounterChanged)} == {("+1/+1", 1, "enter")}
    assert w.tick() == 0
    assert w.toughness(shinewend) == 1 and w.toughness(back) == 1


def test_122_6_101_3_a_creature_that_cant_have_counters_returns_without_its_persist_counter():
    """122.6, 101.3, 702.79a, 702.93a: with "counters can't be put on creatures" in play, a
    persist creature that returns enters without its -1/-1 counter and an undying one
    without its +1/+1 counter (so each can return again). A pitfall other engines have
    shipped: the returning creature got its counter anyway. Neither logs a counter event."""
    w = World()
    w.ruleset = _NoCountersOnCreatures()
    p = w.add_player()
    redcap = w.add_object(p, "creature", power=2, toughness=2, zone="graveyard")
    geist = w.add_object(p, "creature", power=2, toughness=1, zone="graveyard")
    w.clear_events()
    redcap = w.move_zone(redcap, "battlefield", counters={"-1/-1": 1})
    geist = w.move_zone(geist, "battlefield", counters={"+1/+1": 1})
    assert w.counters(redcap) == {} and w.counters(geist) == {}
    assert _counter_rows(w) == set()
    assert (w.toughness(redcap), w.toughness(geist)) == (2, 1)


def test_306_5b_614_12_a_planeswalker_that_cant_have_counters_enters_without_loyalty():
    """306.5b, 614.12, 122.6, 704.5i: when every permanent is an artifact and "counters
    can't be put on artifacts", a planeswalker that is an artifact as it enters gets none
    of its printed loyalty counters and is put into the graveyard at the next check (an
    interaction a thread against another engine left open). Loyalty 0 off the
    counters: 306.5c."""
    w = World()
    w.ruleset = _NoCountersOnArtifacts()
    p = w.add_player()
    walker = w.add_object(p, {"artifact", "planeswalker"}, loyalty=3)
    assert w.counters(walker) == {} and w.loyalty(walker) == 0
    w.clear_events()
    w.tick()
    assert [e.cause for e in _zone_changes(w)] == ["704.5i"]


def test_306_5b_a_planeswalker_returned_to_the_battlefield_enters_with_its_loyalty():
    """306.5b, 400.7, 704.5i: a planeswalker put onto the battlefield other than by casting
    it (returned from the graveyard) enters with its printed loyalty, as a cast one does:
    a pitfall other engines have shipped gave loyalty only to a resolving spell, so a
    returned planeswalker died at once. One printed with loyalty 0 (X = 0) enters with none
    and dies."""
    w = World()
    p = w.add_player()
    walker = w.add_object(p, "planeswalker", loyalty=4)
    w.deal_damage(walker, 4)
    w.tick()
    [card] = w.objects(zone="graveyard")
    back = w.move_zone(card, "battlefield")
    nissa = w.add_object(p, "planeswalker", loyalty=0)
    assert w.counters(back) == {"loyalty": 4} and w.counters(nissa) == {}
    w.clear_events()
    w.tick()
    assert w.exists(back) and [(e.old, e.cause) for e in _zone_changes(w)] == [(nissa, "704.5i")]


# -- 400.7: a permanent that leaves and returns is a new object ---------------------------


def test_400_7_an_undying_creature_returns_without_the_effects_on_it_before():
    """400.7, 702.93a, 704.5f, 613.4c: a 2/1 undying creature gets -1/-1 until end of turn
    and dies (toughness 0); it returns with a +1/+1 counter as a new object, which the
    earlier effect does not touch: a 3/2, where a pitfall other engines have shipped kept
    the -1/-1 on the returned creature (a 2/1 until cleanup). A 1/1 undying creature pumped
    +2/+2 that dies returns a 2/2, not a 4/4."""
    w = World()
    p = w.add_player()
    geist = w.add_object(p, "creature", power=2, toughness=1)
    shade = w.add_object(p, "creature", power=1, toughness=1)
    w.modify_pt(geist, -1, -1)
    w.modify_pt(shade, 2, 2)
    w.deal_damage(shade, 3)
    w.clear_events()
    w.tick()
    returned = []
    for died in _zone_changes(w):
        assert "+1/+1" not in died.lki    # undying's condition holds
        returned.append(w.move_zone(died.new, "battlefield", counters={"+1/+1": 1}))
    geist, shade = returned
    assert (w.power(geist), w.toughness(geist)) == (3, 2)
    assert (w.power(shade), w.toughness(shade)) == (2, 2)


def test_400_7_counters_for_the_object_that_died_never_reach_the_one_that_returned():
    """400.7, 122.2: a creature dies and is returned before a trigger that would put a
    +1/+1 counter on it resolves. A pitfall other engines have shipped put that counter on
    the returned creature; the returned one is a new object, so the old id is stale, the
    put raises and changes nothing."""
    w = World()
    p = w.add_player()
    elenda = w.add_object(p, "creature", power=1, toughness=1)
    w.destroy(elenda)
    [card] = w.objects(zone="graveyard")
    back = w.move_zone(card, "battlefield")
    with pytest.raises(StaleEntityError):
        w.put_counters(elenda, "+1/+1")
    assert w.counters(back) == {}


def test_400_7_a_card_returned_once_is_not_returned_again_by_a_second_trigger():
    """400.7: a creature dies and two "dies" triggers would move the card from the
    graveyard; the first returns it to the battlefield, and the second, naming the card in
    the graveyard, finds no such object: a pitfall other engines have shipped moved the
    new permanent to its owner's hand. The old id is stale; with ``where="present"`` the
    move does nothing."""
    w = World()
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    w.sacrifice(bear)
    [card] = w.objects(zone="graveyard")
    back = w.move_zone(card, "battlefield")
    with pytest.raises(StaleEntityError):
        w.move_zone(card, "hand")
    assert w.move_zone(card, "hand", where="present") == -1
    assert w.zone(back) == "battlefield"


def test_111_8_704_5d_a_token_that_died_is_not_returned_by_undying():
    """111.8, 704.5d, 702.93a: a token with undying dies without +1/+1 counters; its undying
    trigger can't return it (a token that has left the battlefield can't come back), so it
    stays in the graveyard, gets no counter, and ceases to exist at the next check."""
    w = World()
    p = w.add_player()
    spirit = w.add_object(p, "creature", power=1, toughness=1, token=True)
    w.destroy(spirit)
    [died] = _zone_changes(w)
    assert died.token and "+1/+1" not in died.lki
    assert w.move_zone(died.new, "battlefield", counters={"+1/+1": 1}) == -1
    assert w.zone(died.new) == "graveyard" and w.counters(died.new) == {}
    w.clear_events()
    assert w.tick() == 1 and not w.exists(died.new)
    assert [e.cause for e in _zone_changes(w)] == ["704.5d"]


# -- 704.5g/h/i and indestructible ---------------------------------------------------------


def test_702_12b_an_indestructible_creature_with_lethal_damage_stays_and_settles():
    """702.12b, 704.5g, 704.5f: an indestructible 2/2 dealt 5 damage stays on the
    battlefield with the damage marked, and the check finds nothing to do (a pitfall
    other engines have shipped re-checked it on every pass). Toughness 0 from wither
    damage still puts it into the graveyard: indestructible stops only 704.5g and 704.5h."""
    w = World()
    p = w.add_player()
    golem = w.add_object(p, {"artifact", "creature"}, power=2, toughness=2,
                         keywords={"indestructible"})
    w.deal_damage(golem, 5)
    assert w.tick() == 0
    assert w.exists(golem) and w.damage(golem) == 5
    w.deal_damage(golem, 2, wither=True)      # dealt as two -1/-1 counters (702.80a)
    w.clear_events()
    assert w.tick() == 1
    assert [(e.cause, e.lki) for e in _zone_changes(w)] == [("704.5f", {"-1/-1": 2})]


def test_704_5i_an_indestructible_planeswalker_with_no_loyalty_is_put_into_the_graveyard():
    """704.5i, 702.12b, 120.3c, 120.3e: an indestructible creature planeswalker (4 loyalty,
    4/4) is dealt 4 combat damage: its loyalty counters are removed and the damage is
    marked. 704.5g does not apply to it, but 704.5i does, and it does not destroy, so it
    is put into the graveyard. A planeswalker with indestructible only is put there too."""
    w = World()
    p = w.add_player()
    gideon = w.add_object(p, {"creature", "planeswalker"}, power=4, toughness=4, loyalty=4,
                          keywords={"indestructible"})
    walker = w.add_object(p, "planeswalker", loyalty=2, keywords={"indestructible"})
    w.deal_damage([gideon, walker], np.array([4, 2]), combat=True)
    assert w.loyalty(gideon) == 0 and w.damage(gideon) == 4
    w.clear_events()
    assert w.tick() == 1
    assert {(e.old, e.cause) for e in _zone_changes(w)} == {(gideon, "704.5i"), (walker, "704.5i")}


def test_702_2b_702_80a_wither_damage_from_a_deathtouch_source_destroys():
    """702.80a, 702.2b, 704.5h, 702.15b: a source with wither, deathtouch and lifelink deals
    1 damage to a 3/3: it is dealt as a -1/-1 counter, and still is damage from a
    deathtouch source, so the 2/2 is destroyed at the next check; lifelink gains 1. A
    pitfall another engine has shipped: the counter form of damage skipped deathtouch and
    lifelink."""
    w = World()
    p, q = w.add_player(), w.add_player()
    source = w.add_object(p, "creature", power=1, toughness=1,
                          keywords={"deathtouch", "lifelink"})
    ogre = w.add_object(q, "creature", power=3, toughness=3)
    w.deal_damage(ogre, 1, source=source, wither=True)     # wither is the host's flag
    assert w.counters(ogre) == {"-1/-1": 1} and w.damage(ogre) == 0 and w.life(p) == 21
    w.clear_events()
    w.tick()
    assert [(e.old, e.cause) for e in _zone_changes(w)] == [(ogre, "704.5h")]


def test_101_3_702_2b_infect_damage_that_can_put_no_counters_is_still_dealt():
    """120.3d, 101.3, 702.2b, 702.15b, 704.5h: with "creatures can't have -1/-1 counters put
    on them", 1 infect damage from a deathtouch, lifelink source to a 3/3 puts no counter
    and marks no damage, yet it is dealt: the source's controller gains 1 and the 3/3 is
    destroyed at the next check (the "can't" stops the counters, not the damage)."""
    w = World()
    w.ruleset = _NoMinusCountersOnCreatures()
    p, q = w.add_player(), w.add_player()
    source = w.add_object(p, "creature", power=1, toughness=1, keywords={"deathtouch", "lifelink"})
    ogre = w.add_object(q, "creature", power=3, toughness=3)
    w.clear_events()
    w.deal_damage(ogre, 1, source=source, infect=True)
    assert w.counters(ogre) == {} and w.damage(ogre) == 0 and w.life(p) == 21
    assert [(e.amount, e.dealt) for e in w.events() if isinstance(e, DamageDealt)] == [(1, 1)]
    w.clear_events()
    w.tick()
    assert [(e.old, e.cause) for e in _zone_changes(w)] == [(ogre, "704.5h")]


def test_704_3_creatures_that_destroy_each_other_die_in_one_event():
    """704.3, 603.10a: two creatures that fight and deal each other lethal damage die in
    the same check, one event step, so each one's "whenever a creature dealt damage by
    this dies" sees the other die. A pitfall other engines have shipped moved them one at
    a time, and the second's trigger missed the first."""
    w = World()
    p, q = w.add_player(), w.add_player()
    wolf = w.add_object(p, "creature", power=2, toughness=2)
    wight = w.add_object(q, "creature", power=2, toughness=2)
    w.deal_damage([wolf, wight], 2, source=np.array([wight, wolf]))
    w.clear_events()
    step = w.step
    assert w.tick() == 1 and w.step == step + 1          # one check, one event step
    assert {e.old for e in _zone_changes(w)} == {wolf, wight}


# -- shield counters (122.1c) -----------------------------------------------------------


def test_122_1c_a_shield_counter_is_spent_on_any_damage_not_only_lethal():
    """122.1c: "if damage would be dealt to this permanent, prevent that damage and remove
    a shield counter from it": 1 damage to a 3/3 with a shield counter is prevented and
    uses the counter (a report against another engine asked to keep it for lethal damage;
    its maintainers ruled as here). Deathtouch damage a shield prevents is not dealt, so it
    destroys nothing (702.2b)."""
    w = World()
    p = w.add_player()
    duelist = w.add_object(p, "creature", power=3, toughness=3, counters={"shield": 1})
    w.clear_events()
    w.deal_damage(duelist, 1)
    assert w.counters(duelist) == {} and w.damage(duelist) == 0
    assert [(e.amount, e.dealt) for e in w.events() if isinstance(e, DamageDealt)] == [(1, 0)]
    w.put_counters(duelist, "shield")
    w.deal_damage(duelist, 1, deathtouch=True)   # prevented: no deathtouch damage was dealt
    assert w.tick() == 0 and w.exists(duelist)   # (702.2b)


def test_122_1c_unpreventable_lethal_damage_spends_a_shield_and_still_kills():
    """122.1c, 615.12, 704.5g: unpreventable damage to a creature with two shield counters
    is dealt and still removes one counter; the shield replaces destruction by an effect,
    not the state-based action, so 3 damage to a 3/3 kills it with one counter left."""
    w = World()
    p = w.add_player()
    duelist = w.add_object(p, "creature", power=3, toughness=3, counters={"shield": 2})
    w.deal_damage(duelist, 3, unpreventable=True)
    assert w.counters(duelist) == {"shield": 1} and w.damage(duelist) == 3
    w.clear_events()
    w.tick()
    [died] = _zone_changes(w)
    assert died.cause == "704.5g" and died.lki == {"shield": 1}


# -- infect, poison, proliferate ---------------------------------------------------------


def test_120_3d_infect_damage_to_a_creature_is_logged_as_minus_counters_put_by_its_source():
    """120.3d, 122.6a, 704.3: a 2/2 infect token blocked by a 9/9: combat damage is
    simultaneous; the 9/9 gets two -1/-1 counters put by the token's controller (rows a
    "whenever a -1/-1 counter is put on a creature" trigger reads) even though the token
    dies in the next check. A pitfall other engines have shipped: no trigger when the
    infect source was a token that died."""
    w = World()
    p, q = w.add_player(), w.add_player()
    elf = w.add_object(p, "creature", power=2, toughness=2, token=True)
    wurm = w.add_object(q, "creature", power=9, toughness=9)
    w.clear_events()
    w.deal_damage(wurm, 2, source=elf, infect=True, combat=True)   # infect is the host's flag,
    w.deal_damage(elf, 9, source=wurm, combat=True)                # so one call per source
    rows = [(e.entity, e.kind, e.before, e.after, e.by) for e in w.events()
            if isinstance(e, CounterChanged)]
    assert rows == [(wurm, "-1/-1", 0, 2, p)]
    w.tick()
    assert not w.exists(elf) and w.toughness(wurm) == 7


def test_704_5c_infect_damage_gives_poison_and_ten_loses():
    """120.3b, 704.5c: infect damage to a player gives that many poison counters: 3, then 7
    more after a pump, is ten, and the player loses at the next check. In a batch where
    the second hit is 6 in one game, that player is still in at nine."""
    w = World(batch=2)
    p, q = w.add_player(), w.add_player()
    nexus = w.add_object(p, {"land", "creature"}, power=1, toughness=1)
    w.deal_damage(q, 3, source=nexus, infect=True, combat=True)
    w.deal_damage(q, np.array([7, 6]), source=nexus, infect=True, combat=True)
    assert w.count(q, "poison").tolist() == [10, 9] and w.life(q).tolist() == [20, 20]
    w.tick()
    assert w.has_lost(q).tolist() == [True, False]


def test_120_3c_damage_to_a_planeswalker_removes_that_many_loyalty_counters_infect_or_not():
    """120.3c, 120.3b, 702.15b: 3 combat damage to a planeswalker with loyalty 5 removes
    three loyalty counters (a pitfall other engines have shipped removed one, or reset it
    to its printed loyalty); infect damage to a planeswalker removes loyalty too, and puts
    no -1/-1 counters there (120.3d is for creatures). Infect damage from a lifelink source
    gains its controller that much life, to a planeswalker or (as poison) to a player."""
    w = World()
    p, q = w.add_player(), w.add_player()
    walker = w.add_object(q, "planeswalker", loyalty=5)
    rat = w.add_object(p, "creature", power=2, toughness=2, keywords={"lifelink"})
    w.deal_damage(walker, 3, combat=True)
    assert w.counters(walker) == {"loyalty": 2}
    w.deal_damage(walker, 1, source=rat, infect=True)
    assert w.counters(walker) == {"loyalty": 1}
    w.deal_damage(q, 2, source=rat, infect=True)
    assert w.count(q, "poison") == 2 and w.life(q) == 20
    assert w.life(p) == 23                # lifelink: 1 (the planeswalker) + 2 (the player)


def test_701_34a_proliferating_a_player_adds_one_of_every_kind_they_have():
    """701.34a: proliferate gives each chosen player another counter of each kind already
    there: a player with poison and experience counters gets one more of each (a report
    against another engine took this for a bug and withdrew it). Proliferating twice adds
    two, to a creature's -1/-1 counters and a planeswalker's loyalty too."""
    w = World()
    p, q = w.add_player(), w.add_player()
    w.put_counters(p, "poison", 2)
    w.put_counters(p, "experience", 1)
    w.proliferate([p])
    assert w.counters(p) == {"poison": 3, "experience": 2}
    bear = w.add_object(q, "creature", power=3, toughness=3, counters={"-1/-1": 1})
    walker = w.add_object(p, "planeswalker", loyalty=3)
    for _ in range(2):
        w.proliferate([bear, walker])
    assert w.count(bear, "-1/-1") == 3 and w.loyalty(walker) == 5


def test_701_34a_a_kind_removed_to_zero_is_not_proliferated():
    """701.34a, 122.1: a kind whose last counter was removed is no longer on the
    permanent: proliferate adds to the kinds there (charge), not to the removed one (a
    pitfall another engine has shipped kept a kind at count 0 and proliferated it)."""
    w = World()
    p = w.add_player()
    relic = w.add_object(p, "artifact", counters={"oil": 1, "charge": 2})
    w.remove_counters(relic, "oil")
    w.proliferate([relic])
    assert w.counters(relic) == {"charge": 3}


# -- players losing together --------------------------------------------------------------


def test_104_4a_704_3_players_who_lose_in_the_same_check_draw():
    """104.4a, 704.3, 704.5a: both players at 0 life lose in the same check, so the game
    is a draw; a pitfall another engine has shipped removed them one at a time and named
    the second a winner. In a batch where one game leaves one player at 1 life, that
    player wins."""
    w = World(batch=2)
    p, q = w.add_player(), w.add_player()
    w.lose_life(p, 20)
    w.lose_life(q, np.array([20, 19]))
    w.tick()
    assert w.result().tolist() == [-2, q]


def test_810_10_704_6b_infect_damage_to_both_players_of_a_team_adds_up_to_fifteen():
    """810.10, 704.6b, 704.5c: in Two-Headed Giant each player dealt infect damage gets the
    poison counters and the team holds them: 8 to each player of a team is 16 team poison,
    so the team loses at the next check, though neither player has 10 of their own
    (which 2HG ignores anyway)."""
    w = World(two_headed_giant=True)
    a1 = w.add_player(team=0)
    w.add_player(team=0)
    b1, b2 = w.add_player(team=1), w.add_player(team=1)
    w.deal_damage([b1, b2], 8, infect=True)
    assert w.count(b1, "poison") == w.count(b2, "poison") == 16 and w.life(b1) == 30
    w.tick()
    assert w.has_lost(b1) and w.has_lost(b2) and w.result() == a1


def test_810_8a_a_teammate_who_cant_lose_keeps_the_two_headed_giant_team_in():
    """810.8a, 704.6a: in Two-Headed Giant, one player's "you can't lose the game" keeps
    the team in at 0 life (the rule's own example); a pitfall another engine has shipped
    scoped it to that player, so the unprotected teammate's loss took the team out. The
    team loses once the effect ends."""
    w = World(two_headed_giant=True)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    w.add_player(team=1), w.add_player(team=1)
    w.set_cant_lose(a2, "life")
    w.lose_life(a1, 30)
    w.tick()
    assert w.result() == "ongoing" and not w.has_lost(a1)
    w.set_cant_lose(a2, "life", False)
    w.tick()
    assert w.has_lost(a1) and w.has_lost(a2)
