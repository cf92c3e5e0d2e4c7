"""Putting, removing, moving and proliferating counters (CR 122, 701.34)."""

import numpy as np
import pytest
from scalar_paths import run_on
from state import full_state

from ecs import CounterChanged, CountOverflowError, IllegalActionError, InvalidTypeError, World, crossed
from ecs.limits import MAX_COUNT


@pytest.fixture
def game():
    w = World(seed=0)
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    return w, p, q, bear


def test_122_1a_pt_counters_on_battlefield_and_creature_cards_elsewhere(game):
    w, p, _, bear = game
    w.put_counters(bear, "+1/+0", 2)
    w.put_counters(bear, "-0/-1", 1)
    assert (w.power(bear), w.toughness(bear)) == (4, 1)
    card = w.add_object(p, {"creature"}, zone="graveyard", power=1, toughness=1)
    w.put_counters(card, "+2/+2", 1)
    assert (w.power(card), w.toughness(card)) == (3, 3)


@pytest.mark.parametrize("types,printed", [
    ({"artifact"}, {}),
    # 208.3: a noncreature has none even with a power and toughness printed (a Vehicle);
    # a kindred card is not a creature (308.1)
    ({"artifact"}, dict(power=3, toughness=3)),
    ({"kindred", "artifact"}, dict(power=3, toughness=3)),
])
def test_122_1a_noncreature_has_no_power(game, types, printed):
    w, p, _, _ = game
    rock = w.add_object(p, types, **printed)
    w.put_counters(rock, "+1/+1", 1)
    assert w.counters(rock) == {"+1/+1": 1}
    with pytest.raises(InvalidTypeError, match=rf"^entity {rock} has no power$"):
        w.power(rock)


def test_122_1b_keyword_counters_grant_keywords_in_any_zone_and_are_redundant(game):
    w, p, _, bear = game
    w.put_counters(bear, "flying", 2)
    w.put_counters(bear, "hexproof from black", 1)
    assert w.keywords(bear) == {"flying", "hexproof from black"}
    card = w.add_object(p, {"creature"}, zone="hand", power=1, toughness=1, keywords={"reach"})
    w.put_counters(card, "deathtouch", 1)
    assert w.keywords(card) == {"reach", "deathtouch"}


def test_122_1_generic_kinds_on_objects_and_players(game):
    w, p, _, bear = game
    for kind in ("charge", "lore", "oil"):
        w.put_counters(bear, kind, 3)
    for kind in ("poison", "rad", "energy", "experience"):
        w.put_counters(p, kind, 2)
    assert w.counters(bear) == {"charge": 3, "lore": 3, "oil": 3}
    assert w.counters(p) == {"poison": 2, "rad": 2, "energy": 2, "experience": 2}


def test_zero_counts_never_exist(game):
    w, _, _, bear = game
    w.put_counters(bear, "charge", 0)
    w.put_counters(bear, "lore", 2)
    w.remove_counters(bear, "lore", 2)
    w.remove_counters(bear, "oil", 1)
    assert w.counters(bear) == {}
    assert all(e.before != e.after for e in w.events())
    assert [e.cause for e in w.events()] == ["put", "remove"]


def test_101_3_removing_more_than_present_removes_what_is_there(game):
    w, _, _, bear = game
    w.put_counters(bear, "charge", 2)
    w.remove_counters(bear, "charge", 5)
    assert w.counters(bear) == {}
    assert w.events()[-1] == CounterChanged(0, bear, "charge", 2, 0, "remove")


def test_122_7_events_carry_before_and_after_for_nth_counter_triggers(game):
    w, _, _, bear = game
    w.put_counters(bear, "lore", 2)
    w.put_counters(bear, "lore", 3)
    first, second = w.events()
    assert (second.before, second.after, second.delta) == (2, 5, 3)
    assert not crossed(first, 3) and crossed(second, 3) and crossed(second, 5)
    assert not crossed(second, 2) and not crossed(second, 6)


def test_122_5_move_is_all_or_nothing(game):
    w, p, _, bear = game
    other = w.add_object(p, {"creature"}, power=1, toughness=1)
    w.put_counters(bear, "+1/+1", 2)
    assert w.move_counters(bear, other, "+1/+1", 1) == 1
    assert w.counters(bear) == {"+1/+1": 1} and w.counters(other) == {"+1/+1": 1}
    # same object, source without the kind: nothing happens
    assert w.move_counters(bear, bear, "+1/+1", 1) == 0
    assert w.move_counters(bear, other, "charge", 1) == 0
    assert w.counters(bear) == {"+1/+1": 1} and w.counters(other) == {"+1/+1": 1}


def test_122_5_move_more_than_source_has_moves_what_it_has(game):
    """Policy (docs/rules-mtg.md, 101.3): moving N from a source with fewer moves them all."""
    w, p, _, bear = game
    other = w.add_object(p, {"creature"}, power=1, toughness=1)
    w.put_counters(bear, "charge", 2)
    assert w.move_counters(bear, other, "charge", 5) == 2
    assert w.counters(other) == {"charge": 2} and w.counters(bear) == {}
    assert [e.cause for e in w.events()[-2:]] == ["move", "move"]


def test_122_5_move_from_or_to_an_object_that_left_does_nothing(game):
    w, p, _, bear = game
    other = w.add_object(p, {"creature"}, power=1, toughness=1)
    w.put_counters(bear, "charge", 2)
    w.sacrifice(other)
    assert w.move_counters(bear, other, "charge", 1) == 0
    card = w.add_object(p, {"creature"}, zone="graveyard", power=1, toughness=1)
    assert w.move_counters(bear, card, "charge", 1) == 0          # wrong zone
    assert w.move_counters(bear, card, "charge", 1, zone=None) == 1  # any zone
    assert w.counters(bear) == {"charge": 1}


def test_122_5_move_to_object_that_cant_have_counters_does_nothing(game):
    w, p, _, bear = game
    proof = w.add_object(p, {"creature"}, power=1, toughness=1, no_counters=True)
    w.put_counters(bear, "charge", 2)
    assert w.move_counters(bear, proof, "charge", 1) == 0
    assert w.counters(bear) == {"charge": 2}
    w.put_counters(proof, "charge", 1)    # impossible: ignored (101.3)
    assert w.counters(proof) == {}


def test_701_34_proliferate_adds_one_of_each_kind_present(game):
    w, p, q, bear = game
    w.put_counters(bear, "+1/+1", 1)
    w.put_counters(bear, "charge", 2)
    w.put_counters(q, "poison", 3)
    empty = w.add_object(p, {"artifact"})
    with pytest.raises(IllegalActionError, match="701.34a"):   # only holders are chosen
        w.proliferate([bear, q, empty])
    w.proliferate([bear, q])
    assert w.counters(bear) == {"+1/+1": 2, "charge": 3}
    assert w.counters(q) == {"poison": 4}
    assert w.counters(empty) == {}
    assert {e.cause for e in w.events()[-3:]} == {"proliferate"}


def test_701_34a_proliferate_only_permanents_and_players(game):
    w, p, _, _ = game
    card = w.add_object(p, {"creature"}, zone="graveyard", power=1, toughness=1)
    w.put_counters(card, "charge", 1)
    with pytest.raises(IllegalActionError,
                       match=rf"^entity {card} in game 0 is neither a permanent nor a player \(CR 701\.34a\)$"):
        w.proliferate([card])
    assert w.counters(card) == {"charge": 1}


@pytest.mark.parametrize("batch", [1, 2])
def test_701_34b_810_10_two_headed_giant_proliferate_gives_a_team_one_poison(batch):
    """701.34b: in Two-Headed Giant, if more than one player on a team is chosen, only one
    of them is given an additional poison counter (we give it to the first seated of
    them); the poison is the team's (810.10), so choosing both teammates adds one to the
    team's pool, one CounterChanged row (before 3, after 4) on the player who got it. A
    player's own kinds (rad here) still get one each (701.34a), and 810.10d lets a player
    whose only counters are the team's poison be chosen: a2 gets the team's (2 -> 3)."""
    w = World(two_headed_giant=True, batch=batch)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    b1, b2 = w.add_player(team=1), w.add_player(team=1)
    w.put_counters(b1, "poison", 3)
    w.put_counters(a1, "poison", 2)
    w.put_counters(b2, "rad", 1)
    seen = len(w.events())
    w.proliferate([b1, b2, a2], by=a1)
    for g in range(batch):
        def at(x, g=g):
            return x[g] if batch > 1 else x
        assert at(w.count(b1, "poison")) == 4 == at(w.count(b2, "poison"))
        assert at(w.count(a1, "poison")) == 3 == at(w.count(a2, "poison"))
        assert at(w.count(b2, "rad")) == 2 and at(w.count(b1, "rad")) == 0
    new = w.events()[seen:]
    assert all(isinstance(e, CounterChanged) and e.cause == "proliferate" and e.by == a1 for e in new)
    rows = sorted((e.game, e.entity, e.kind, e.before, e.after) for e in new)
    assert rows == sorted(r for g in range(batch) for r in (
        (g, b1, "poison", 3, 4), (g, a2, "poison", 2, 3), (g, b2, "rad", 1, 2)))


@pytest.mark.parametrize("batch", [1, 2])
def test_810_10_each_player_who_gets_poison_is_named_and_the_team_holds_them(batch):
    """810.10: "Effects that cause players to get poison counters happen to each player
    individually. The poison counters are shared by the team." One put on both players of
    a team (named second-seated first) is one CounterChanged row per player, in seat order,
    each row the team's count before and after, all in the put's one step; a move onto a
    player (122.5) names the player who got them, and the player it took them from is
    the team, which loses them (810.10b), as a removal is: both logged on the team's
    first player."""
    w = World(two_headed_giant=True, batch=batch)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    b1, b2 = w.add_player(team=1), w.add_player(team=1)
    w.clear_events()

    def rows():
        table = w.event_table()
        out = sorted((e.game, e.entity, e.kind, e.before, e.after, e.cause, e.by) for e in w.events())
        steps = set(table["step"].tolist())
        w.clear_events()
        return out, steps

    w.put_counters([a2, a1, b2], "poison", [2, 3, 1], by=b1)
    got, steps = rows()
    assert got == sorted((g, *r) for g in range(batch) for r in (
        (a1, "poison", 0, 3, "put", b1), (a2, "poison", 3, 5, "put", b1), (b2, "poison", 0, 1, "put", b1)))
    assert len(steps) == 1
    w.put_counters([a2, a1], "poison", 1)
    assert [(e.entity, e.before, e.after) for e in w.events() if e.game == 0] == [(a1, 5, 6), (a2, 6, 7)]
    w.clear_events()
    w.move_counters(a2, b2, "poison", 4, zone=None)
    got, _ = rows()
    assert got == sorted((g, *r) for g in range(batch) for r in (
        (a1, "poison", 7, 3, "move", None), (b2, "poison", 1, 5, "move", None)))
    w.remove_counters(b2, "poison", 2)
    got, _ = rows()
    assert got == [(g, b1, "poison", 5, 3, "remove", None) for g in range(batch)]
    assert np.all(w.count(b1, "poison") == 3) and np.all(w.count(a2, "poison") == 3)


def test_122_6_entering_with_counters_is_putting_by_the_controller(game):
    w, p, q, _ = game
    pw = w.add_object(p, {"planeswalker"}, loyalty=4)
    battle = w.add_object(q, {"battle"}, defense=5)
    hydra = w.add_object(p, {"creature"}, power=0, toughness=0, counters={"+1/+1": 3})
    gift = w.add_object(p, {"creature"}, power=1, toughness=1, counters={"charge": 1}, put_by=q)
    assert w.loyalty(pw) == 4 and w.defense(battle) == 5 and w.counters(hydra) == {"+1/+1": 3}
    by = {(e.entity, e.kind): e.by for e in w.events()}
    assert by[(pw, "loyalty")] == p and by[(battle, "defense")] == q     # 122.6a
    assert by[(hydra, "+1/+1")] == p and by[(gift, "charge")] == q
    assert {e.cause for e in w.events()} == {"enter"}
    w.tick()
    assert w.exists(hydra)


@pytest.mark.parametrize("batch", [1, 2])
def test_122_6a_printed_loyalty_is_put_by_the_controller_whoever_puts_the_given_counters(batch):
    """306.5b's loyalty comes from the planeswalker's own ability, which names no player:
    its controller puts it (122.6a) even where the effect putting ``counters`` names
    another player (``put_by``)."""
    w = World(batch=batch)
    p, q = w.add_player(), w.add_player()
    pw = w.add_object(p, {"planeswalker"}, loyalty=2, counters={"charge": 1}, put_by=q)
    by = {(e.entity, e.kind, e.game): e.by for e in w.events()}
    for g in range(batch):
        assert by[(pw, "loyalty", g)] == p and by[(pw, "charge", g)] == q


def test_209_1_loyalty_off_the_battlefield_is_printed(game):
    w, p, _, _ = game
    card = w.add_object(p, {"planeswalker"}, zone="hand", loyalty=3)
    assert w.loyalty(card) == 3 and w.counters(card) == {}


def test_122_4_caps_per_object(game):
    w, p, _, bear = game
    w.set_cap(bear, "charge", 2)
    w.put_counters(bear, "charge", 5)
    assert w.count(bear, "charge") == 5     # putting is not stopped
    w.tick()
    assert w.count(bear, "charge") == 2
    w.clear_cap(bear, "charge")
    w.put_counters(bear, "charge", 5)
    w.tick()
    assert w.count(bear, "charge") == 7


@pytest.mark.parametrize("batch", [1, 3])
@pytest.mark.parametrize("path", ["scalar", "general"])
def test_122_4_ending_a_cap_an_object_does_not_have_changes_nothing(batch, path):
    """CR 122.4: a cap ended where there is none leaves the state as it was: no row of the
    cap table, and a kind never used stays unused (no observation feature of it), as it
    does for a cap given in no game; a cap given in some games only has a row, and ends
    there alone."""
    w = World(batch=batch, seed=0)
    p = w.add_player()
    bear, other = w.add_objects(2, p, {"creature"}, power=2, toughness=2).tolist()
    before, features = w.snapshot()["store"], w.observation_features()
    with run_on(path):
        w.clear_cap(bear, "charge")
        w.clear_cap(other, "lore")
        w.set_cap(bear, "oil", 3, games=[])   # (no game: no cap given)
        assert w.observation_features() == features
        assert all(np.array_equal(before[k], v) for k, v in w.snapshot()["store"].items())
        w.set_cap(bear, "charge", 2, games=[1] if batch > 1 else None)
        w.clear_cap(other, "charge")
        assert w.store.a["cap_col"].tolist() == [w.store.present(0, bear)]   # bear's alone
        w.put_counters([bear, other], "charge", 5)
        w.tick()
        assert np.array_equal(w.count(bear, "charge"), np.array([5, 2, 5]) if batch > 1 else 2)
        w.clear_cap(bear, "charge")
        w.put_counters(bear, "charge", 1)
        w.tick()
        assert np.array_equal(w.count(bear, "charge"), np.array([6, 3, 6]) if batch > 1 else 3)


def test_batch_per_game_amounts_and_targets():
    w = World(batch=3)
    p = w.add_player()
    ids = w.add_objects(2, p, {"artifact"})
    w.put_counters(ids[0], "charge", np.array([1, 2, 3]))
    w.put_counters(np.array([[ids[0]], [ids[1]], [ids[1]]]), "lore", 1)
    assert w.count(ids[0], "charge").tolist() == [1, 2, 3]
    assert w.count(ids[0], "lore").tolist() == [1, 0, 0]
    assert w.count(ids[1], "lore").tolist() == [0, 1, 1]
    w.put_counters(ids, "oil", np.array([[1, 2], [3, 4], [5, 6]]), games=[2, 0, 1])
    assert w.count(ids[1], "oil").tolist() == [4, 6, 2]


def test_amounts_of_many_rows_naming_one_player_add_up_exactly() -> None:
    """Rows naming one object or player add up (one action, one change): 2**22 + 4 rows of
    up to 2**31 - 1 life pass 2**53, where a float64 sum drops units; life is an int64
    within MAX_LIFE, so the total is exact."""
    w = World()
    p = w.add_player(life=0)
    n = 2**22 + 4
    amounts = np.full(n, 2**31 - 1, np.int64)
    amounts[-3:] = 1
    w.gain_life(np.full(n, p), amounts)
    assert w.life(p) == int(amounts.sum()) == 9_007_201_398_030_338


def test_a_put_past_the_limit_names_the_object_game_and_amount_that_overflow():
    """A count is int32 (docs/rules-mtg.md, Counts): of several rows put at once, the
    error names the one that would pass MAX_COUNT (its entity, its game, its amount), not
    the first row, and nothing changes."""
    w = World(batch=3)
    p = w.add_player()
    rock, bear = w.add_objects(2, p, {"artifact"}).tolist()
    w.put_counters(bear, "charge", np.array([0, MAX_COUNT - 1, 0]))
    before = full_state(w)
    with pytest.raises(CountOverflowError,
                       match=rf"^putting 2 'charge' counters on entity {bear} in game 1 would pass {MAX_COUNT}$"):
        w.put_counters([rock, bear], "charge", np.array([[1, 1], [3, 2], [1, 1]]))
    assert full_state(w) == before


@pytest.mark.parametrize("batch", [1, 2])
def test_810_10_teammates_poison_that_fits_alone_but_not_together_is_refused(batch):
    """810.10: the team holds its players' poison counters, so one put on both players of
    a team adds up there: a team one below MAX_COUNT can't get one counter for each of
    them (CountOverflowError naming the team's count), though each alone would fit; and
    nothing changes."""
    w = World(two_headed_giant=True, batch=batch)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    w.add_player(team=1), w.add_player(team=1)
    w.put_counters(a2, "poison", MAX_COUNT - 1)
    before = full_state(w)
    with pytest.raises(CountOverflowError, match=rf"^putting 2 'poison' counters on entity {a1} in game 0 "):
        w.put_counters([a1, a2], "poison", 1)
    assert full_state(w) == before
    w.put_counters(a1, "poison", 1)
    assert np.all(w.count(a2, "poison") == MAX_COUNT)


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("path", ["scalar", "general"])
def test_101_3_allowing_one_kind_ends_only_that_kinds_prohibition(batch, path):
    """``allow(e, kind)`` ends the prohibition of that kind alone: another kind's, and
    one of any counters, stay (101.3), and ``allow(e)`` ends them all."""
    w = World(batch=batch)
    p = w.add_player()
    rock = w.add_object(p, {"artifact"})
    with run_on(path):
        w.prohibit(rock, "charge")
        w.prohibit(rock, "lore")
        w.allow(rock, "charge")
        assert np.all(w.is_prohibited(rock, "lore")) and not np.any(w.is_prohibited(rock, "charge"))
        w.prohibit(rock)
        w.prohibit(rock, "charge")
        w.allow(rock, "charge")
        assert np.all(w.is_prohibited(rock, "charge")) and np.all(w.is_prohibited(rock, "lore"))
        w.put_counters(rock, "charge", 1)
        assert np.all(w.count(rock, "charge") == 0)
        w.allow(rock)
        assert not np.any(w.is_prohibited(rock, "charge")) and not np.any(w.is_prohibited(rock, "lore"))


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("path", ["scalar", "general"])
def test_101_3_a_prohibition_of_any_counters_stops_every_kind_and_outlasts_allowing_one(batch, path):
    """"Can't have counters put on it" (prohibit with no kind): puts of any kind, one
    target or several, and wither's -1/-1 counters put none there (101.3), while the
    counters it has stay; allowing one kind leaves the prohibition of all in place, and
    allowing everything ends it."""
    w = World(batch=batch)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2, counters={"charge": 1})
    rock = w.add_object(p, {"artifact"})
    with run_on(path):
        w.prohibit(bear)
        w.allow(bear, "charge")
        assert np.all(w.is_prohibited(bear, "charge"))
        w.put_counters(bear, "charge", 2)
        w.put_counters([bear, rock], "lore", 1)
        w.deal_damage(bear, 1, wither=True)
        assert [np.all(w.count(e, kind) == n) for e, kind, n in (
            (bear, "charge", 1), (bear, "lore", 0), (bear, "-1/-1", 0), (rock, "lore", 1))] == [True] * 4
        w.allow(bear)
        w.put_counters(bear, "charge", 1)
        assert np.all(w.count(bear, "charge") == 2)


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("path", ["scalar", "general"])
def test_810_10c_a_player_who_cant_get_poison_stops_the_whole_team_getting_it(batch, path):
    """810.10c: "If an effect says that a player can't get poison counters, no player on
    that player's team can get poison counters." The second-seated player's prohibition
    stops puts on the first too, alone or with a teammate, and infect damage (120.3b);
    the other team still gets them, and the player's own kinds (rad) are not the team's."""
    w = World(two_headed_giant=True, batch=batch)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    b1, _ = w.add_player(team=1), w.add_player(team=1)
    with run_on(path):
        w.prohibit(a2, "poison")
        w.put_counters(a1, "poison", 2)
        w.put_counters([a1, a2], "poison", 1)
        w.deal_damage(a1, 3, infect=True)
        w.put_counters([a1, b1], "rad", 1)
        w.put_counters(b1, "poison", 1)
    assert [np.all(w.count(e, kind) == n) for e, kind, n in (
        (a1, "poison", 0), (a2, "poison", 0), (a1, "rad", 1), (b1, "poison", 1))] == [True] * 4


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_101_3_removing_counters_that_are_not_there_changes_nothing(path):
    """Removing counters an object doesn't have is impossible and ignored (101.3): of
    several objects in a batch, only those that had them change, one event each; a kind
    never used stays unused (no plane, no observation feature of it)."""
    w = World(batch=2)
    p = w.add_player()
    bear, rock = w.add_objects(2, p, {"artifact"}).tolist()
    w.put_counters(bear, "charge", np.array([2, 0]))
    features = w.observation_features()
    w.clear_events()
    with run_on(path):
        w.remove_counters([bear, rock], "charge", 1)
        w.remove_counters([bear, rock], "oil", 1)
    assert w.observation_features() == features
    assert [(e.game, e.entity, e.before, e.after) for e in w.events()] == [(0, bear, 2, 1)]


@pytest.mark.parametrize("batch", [1, 2])
def test_306_5b_310_4b_only_planeswalkers_and_battles_enter_with_their_printed_counters(batch):
    """A planeswalker enters with its printed loyalty in loyalty counters (306.5b), a
    battle with its printed defense in defense counters (310.4b): a creature with a
    loyalty printed (a card that stopped being a planeswalker) and an artifact with a
    defense printed enter with none, alone or beside the ones that do."""
    w = World(batch=batch)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=1, toughness=1, loyalty=3)
    rock = w.add_object(p, {"artifact"}, defense=2)
    pw = w.add_object(p, {"planeswalker"}, loyalty=4)
    sieges = w.add_objects(2, p, {"battle"}, defense=5).tolist()
    pair = w.add_objects(2, p, {"artifact"}, defense=5).tolist()
    for e in (bear, rock, *pair):
        assert w.counters(e) == {}
    assert np.all(w.count(pw, "loyalty") == 4) and all(np.all(w.count(e, "defense") == 5) for e in sieges)


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_rows_naming_one_object_add_up_to_one_change(path):
    """One action's rows naming one object are one change of the sum (one event, before
    and after), for puts and removals alike, whether the object is named first or not."""
    w = World()
    p = w.add_player()
    rock, bear = w.add_objects(2, p, {"artifact"}).tolist()
    w.clear_events()
    with run_on(path):
        w.put_counters([bear, rock, bear], "charge", 2)
        w.remove_counters([bear, bear], "charge", 1)
    assert w.count(bear, "charge") == 2 and w.count(rock, "charge") == 2
    assert [(e.entity, e.before, e.after, e.cause) for e in w.events()] == \
        [(rock, 0, 2, "put"), (bear, 0, 4, "put"), (bear, 4, 2, "remove")]


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("path", ["scalar", "general"])
def test_122_4_caps_of_two_kinds_on_one_object_are_set_and_ended_each_alone(batch, path):
    """122.4: "can't have more than N counters of a certain kind" is per kind: an object
    with caps of two kinds keeps each; setting one again replaces that cap alone, and
    ending the other ends that one alone (704 removes all but N as it checks)."""
    w = World(batch=batch)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    with run_on(path):
        w.set_cap(bear, "charge", 2)
        w.set_cap(bear, "lore", 3)
        w.set_cap(bear, "charge", 4)
        for kind in ("charge", "lore"):
            w.put_counters(bear, kind, 9)
        w.tick()
        assert np.all(w.count(bear, "charge") == 4) and np.all(w.count(bear, "lore") == 3)
        w.clear_cap(bear, "charge")
        for kind in ("charge", "lore"):
            w.put_counters(bear, kind, 1)
        w.tick()
        assert np.all(w.count(bear, "charge") == 5) and np.all(w.count(bear, "lore") == 3)


@pytest.mark.parametrize("games", [[1], [1, 2]])
def test_122_6a_a_planeswalker_entering_in_later_games_gets_its_loyalty_from_its_controller_there(games):
    """A planeswalker another player controls in the first game of a batch only (a control
    change there), returned to the battlefield in later games (one game: the single-game
    path; two: the general one), enters under its owner's control there (110.2, 400.7),
    and its owner puts its printed loyalty (306.5b, 122.6a)."""
    w = World(batch=3)
    p, q = w.add_player(), w.add_player()
    pw = w.add_object(p, {"planeswalker"}, loyalty=3)
    w.set_controller(pw, q, games=[0])
    card = w.move_zone(pw, "hand", games=games)
    w.clear_events()
    back = w.move_zone(card, "battlefield", games=games)
    put = [(e.game, e.entity, e.by, e.after) for e in w.events() if isinstance(e, CounterChanged)]
    assert put == [(g, back, p, 3) for g in games]


def test_810_10c_a_teammates_prohibition_in_one_game_of_a_batch_stops_the_team_there_alone():
    """A player who can't get poison counters stops the whole team getting them (810.10c)
    in the game where the prohibition is: in a batch, the other game's team still gets them."""
    w = World(two_headed_giant=True, batch=3)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    w.add_player(team=1), w.add_player(team=1)
    w.prohibit(a2, "poison", games=[1])
    w.put_counters(a1, "poison", 1)
    assert w.count(a1, "poison").tolist() == w.count(a2, "poison").tolist() == [1, 0, 1]


def test_810_10_poison_counters_on_a_permanent_in_two_headed_giant_stay_on_it():
    """The team shares its players' poison counters (810.10), not those put on a permanent
    a player controls (122.1: any object can have a counter of any kind): they stay on it."""
    w = World(two_headed_giant=True)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    w.add_player(team=1), w.add_player(team=1)
    bear = w.add_object(a2, {"creature"}, power=2, toughness=2)
    w.put_counters(bear, "poison", 2)
    assert w.count(bear, "poison") == 2 and w.count(a1, "poison") == w.count(a2, "poison") == 0
