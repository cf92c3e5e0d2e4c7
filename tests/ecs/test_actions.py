"""The World's player and host actions (``ecs.actions``): what each checks, which
games it acts in, and what it writes, where the other test files leave it open."""

import numpy as np
import pytest
from scalar_paths import general, run_on
from state import full_state

from ecs import CounterChanged, CountOverflowError, IllegalActionError, Tapped, World, actions
from ecs.limits import MAX_COUNT, MAX_LIFE


# ---- add_player ---------------------------------------------------------------------
def test_810_1_a_two_headed_giant_player_needs_a_team():
    """810.1: players of a Two-Headed Giant game play in teams; a player added without
    one is refused and nothing is made."""
    w = World(two_headed_giant=True)
    w.add_player(team=0)
    before = full_state(w)
    with pytest.raises(IllegalActionError, match=r"needs a team \(CR 810\.1\)"):
        w.add_player()
    assert full_state(w) == before


def test_a_world_holds_exactly_max_players_players(monkeypatch):
    """The last player that fits is made; the next is refused, naming the limit."""
    monkeypatch.setattr(actions, "MAX_PLAYERS", 3)
    w = World()
    ps = [w.add_player() for _ in range(3)]
    assert w.players() == ps
    before = full_state(w)
    with pytest.raises(IllegalActionError, match="at most 3 players"):
        w.add_player()
    assert full_state(w) == before


def test_a_team_outside_two_headed_giant_shares_no_life():
    """Only Two-Headed Giant teams share a life total (810.8); elsewhere a team key is
    bookkeeping and each player keeps their own 20."""
    w = World()
    p, q = w.add_player(team=0), w.add_player(team=0)
    w.lose_life(q, 3)
    assert (w.life(p), w.life(q)) == (20, 17)


# ---- add_objects ----------------------------------------------------------------------
@pytest.mark.parametrize("batch", [1, 2])
def test_306_5b_an_object_may_enter_with_exactly_max_count_counters(batch):
    """306.5b: a planeswalker enters with its printed loyalty as counters, and with any
    it is given (122.6): together up to MAX_COUNT fit, one more is refused."""
    w = World(batch=batch)
    p = w.add_player()
    pw = w.add_object(p, {"planeswalker"}, loyalty=4, counters={"loyalty": MAX_COUNT - 4})
    assert np.all(w.count(pw, "loyalty") == MAX_COUNT)
    with pytest.raises(CountOverflowError, match="loyalty"):
        w.add_object(p, {"planeswalker"}, loyalty=4, counters={"loyalty": MAX_COUNT - 3})


def test_209_1_printed_loyalty_off_the_battlefield_is_no_counters_so_no_overflow():
    """Off the battlefield a printed loyalty is only printed (209.1): given counters up to
    MAX_COUNT are all the card has, whatever its loyalty."""
    w = World()
    p = w.add_player()
    card = w.add_object(p, {"planeswalker"}, zone="library", loyalty=4,
                        counters={"loyalty": MAX_COUNT})
    assert w.count(card, "loyalty") == MAX_COUNT


def test_122_4_caps_given_as_an_object_is_made_hold_per_game_and_a_negative_one_is_none():
    """``caps=``: "can't have more than N" from the start (122.4, enforced by 704.5r); a
    cap of 0 allows none, a negative cap is no cap (game 1 here keeps its 3)."""
    w = World(batch=2)
    p = w.add_player()
    x = w.add_object(p, {"artifact"}, counters={"charge": 3}, caps={"charge": [0, -7]})
    w.tick()
    assert w.count(x, "charge").tolist() == [0, 3]


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_122_4_a_cap_given_without_counters_holds(path):
    """An object made with a cap and no counters still has the cap (704.5r)."""
    w = World()
    p = w.add_player()
    with run_on(path):
        x = w.add_object(p, {"artifact"}, caps={"charge": 1})
    w.put_counters(x, "charge", 3)
    w.tick()
    assert w.count(x, "charge") == 1


# ---- move_zone ------------------------------------------------------------------------
def test_306_5b_entering_by_a_move_with_counters_counts_the_printed_loyalty():
    """A planeswalker put onto the battlefield with loyalty counters also gets its printed
    loyalty (306.5b): up to MAX_COUNT together fit, one more is refused before it moves."""
    w = World()
    p = w.add_player()
    pw = w.add_object(p, {"planeswalker"}, zone="hand", loyalty=4)
    before = full_state(w)
    with pytest.raises(CountOverflowError, match=f"entity {pw} in game 0 .*'loyalty'"):
        w.move_zone(pw, "battlefield", counters={"loyalty": MAX_COUNT - 3})
    assert full_state(w) == before
    new = w.move_zone(pw, "battlefield", counters={"loyalty": MAX_COUNT - 4})
    assert w.count(new, "loyalty") == MAX_COUNT


def test_122_1h_counters_given_to_a_move_that_finality_replaces_are_not_put():
    """Only an object that arrives in the zone named gets the move's counters: one a
    finality counter exiles instead (122.1h) gets none."""
    w = World()
    p = w.add_player()
    x = w.add_object(p, {"creature"}, power=1, toughness=1, counters={"finality": 1})
    new = w.move_zone(x, "graveyard", counters={"charge": 2})
    assert (w.zone(new), w.counters(new)) == ("exile", {})


# ---- cleanup --------------------------------------------------------------------------
def test_514_2_cleanup_removes_damage_in_the_selected_games_only():
    w = World(batch=2)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=1, toughness=5)
    w.deal_damage(bear, 2)
    w.cleanup(games=[0])
    assert w.damage(bear).tolist() == [0, 2]


# ---- tap, untap -----------------------------------------------------------------------
@pytest.mark.parametrize("path", ["scalar", "general"])
def test_122_1d_tap_and_untap_record_only_what_changes(path):
    """Tapping a tapped permanent or untapping an untapped one is no event; a tapped one
    with a stun counter stays tapped and loses the counter instead (122.1d: a ``stun``
    Tapped event, tapped before and after, then the counter's removal), an untapped one
    keeps its stun counter."""
    w = World()
    p = w.add_player()
    tapped, plain, stunned, idle = (w.add_object(p, {"artifact"}) for _ in range(4))
    w.tap([tapped, stunned])
    w.put_counters([stunned, idle], "stun")
    w.clear_events()
    with run_on(path):
        w.tap([tapped, plain])
        assert w.events() == [Tapped(0, plain, False, True, "tap")]
        w.clear_events()
        w.untap([tapped, plain, stunned, idle])
    assert w.events() == [Tapped(0, stunned, True, True, "stun"),
                          CounterChanged(0, stunned, "stun", 1, 0, "stun"),
                          Tapped(0, tapped, True, False, "untap"),
                          Tapped(0, plain, True, False, "untap")]
    assert [w.is_tapped(x) for x in (tapped, plain, stunned, idle)] == [False, False, True, False]
    assert (w.count(stunned, "stun"), w.count(idle, "stun")) == (0, 1)


# ---- move_counters --------------------------------------------------------------------
def test_122_5_move_counters_in_selected_games_returns_a_count_for_every_game():
    """Single ids in a batch: how many moved in each game of the batch, 0 in the games
    not selected."""
    w = World(batch=3)
    p = w.add_player()
    a = w.add_object(p, {"artifact"}, counters={"charge": 2})
    b = w.add_object(p, {"artifact"})
    assert w.move_counters(a, b, "charge", 1, games=[2]).tolist() == [0, 0, 1]
    assert w.count(b, "charge").tolist() == [0, 0, 1]


# ---- lose_life, gain_life ---------------------------------------------------------------
@pytest.mark.parametrize("path", ["scalar", "general"])
def test_119_life_is_a_players_and_refused_for_an_object(path):
    w = World()
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    before = full_state(w)
    with run_on(path), pytest.raises(IllegalActionError, match=f"entity {bear} in game 0 is not a player"):
        w.lose_life([p, bear], 1)
    assert full_state(w) == before


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_life_reaches_max_life_and_no_further(path):
    w = World()
    p = w.add_player(life=MAX_LIFE - 1)
    with run_on(path):
        before = full_state(w)
        with pytest.raises(CountOverflowError, match=f"life of player {p} in game 0 would be {MAX_LIFE + 1}"):
            w.gain_life([p, p], 1)
        assert full_state(w) == before
        w.gain_life(p, 1)
    assert w.life(p) == MAX_LIFE


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_810_8_each_teammates_life_loss_is_the_teams(path):
    """810.8: a Two-Headed Giant team has one life total (30); life either player loses
    comes off it, rows for both teammates adding up."""
    w = World(two_headed_giant=True)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    b1 = w.add_player(team=1)
    with run_on(path):
        w.lose_life([a1, a2, a2], 2)
    assert (w.life(a1), w.life(a2), w.life(b1)) == (24, 24, 15)


def test_122_5_move_counters_on_the_general_path_moves_only_what_it_can():
    """The general path as the single-game one (test_counters): nothing moves onto the
    same object, one that can't have counters, or between objects not both in ``zone``;
    more than the source has moves what it has (101.3); an overflow of the destination or
    an object named twice is refused before anything moves; a Two-Headed Giant team's
    poison moved between teammates stays the team's (810.10)."""
    w = World(seed=0)
    p = w.add_player()
    a = w.add_object(p, {"artifact"}, counters={"charge": 2})
    b, c = w.add_object(p, {"artifact"}), w.add_object(p, {"artifact"})
    grave = w.add_object(p, {"artifact"}, zone="graveyard", counters={"charge": 3})
    sealed = w.add_object(p, {"artifact"}, no_counters=True)
    full = w.add_object(p, {"artifact"}, counters={"charge": MAX_COUNT})
    with general():
        assert [w.move_counters(a, a, "charge"), w.move_counters(a, sealed, "charge"),
                w.move_counters(grave, b, "charge"), w.move_counters(a, grave, "charge")] == [0, 0, 0, 0]
        assert w.move_counters(grave, b, "charge", zone=None) == 1
        assert w.move_counters(a, b, "charge", 5) == 2
        assert (w.counters(a), w.counters(b)) == ({}, {"charge": 3})
        before = full_state(w)
        with pytest.raises(CountOverflowError, match=f"entity {full} in game 0"):
            w.move_counters(b, full, "charge")
        with pytest.raises(IllegalActionError, match=f"names the same object twice in one game: entity {b} in game 0"):
            w.move_counters([b, b], [a, c], "charge")
        assert full_state(w) == before
        t = World(two_headed_giant=True)
        a1, a2 = t.add_player(team=0), t.add_player(team=0)
        t.put_counters(a1, "poison", 2)
        assert t.move_counters(a1, a2, "poison", zone=None) == 0 and t.count(a2, "poison") == 2


@pytest.mark.parametrize("batch", [1, 2])
def test_122_5_a_player_is_in_no_zone_so_moves_from_or_to_one_take_zone_none(batch):
    """docs/api.md: nothing moves where either is not in ``zone`` ("battlefield" by
    default), and a player is in no zone: a move between players, or from a player to a
    permanent, moves only with ``zone=None``."""
    w = World(batch=batch, seed=0)
    a, b = w.add_player(), w.add_player()
    x = w.add_object(a, {"artifact"})
    w.put_counters(a, "charge", 3)
    assert np.all(w.move_counters(a, b, "charge") == 0)
    assert np.all(w.move_counters(a, x, "charge") == 0)
    assert np.all(w.count(a, "charge") == 3)
    assert np.all(w.move_counters(a, b, "charge", 2, zone=None) == 2)
    assert np.all(w.move_counters(a, x, "charge", zone=None) == 1)
    assert [np.all(w.count(e, "charge") == n) for e, n in ((a, 0), (b, 2), (x, 1))] == [True] * 3


# ---- proliferate ----------------------------------------------------------------------
@pytest.mark.parametrize("path", ["scalar", "general"])
def test_701_34a_proliferate_names_who_put_and_skips_a_prohibited_kind(path):
    """Each counter proliferate puts is put by ``by`` (122.6a); a kind the object can't
    get (101.3: a prohibition) gets none, the others still one each."""
    w = World()
    p, q = w.add_player(), w.add_player()
    x = w.add_object(p, {"artifact"}, counters={"charge": 1, "oil": 2})
    w.prohibit(x, "oil")
    w.clear_events()
    with run_on(path):
        w.proliferate([x], by=q)
    assert w.counters(x) == {"charge": 2, "oil": 2}
    assert w.events() == [CounterChanged(0, x, "charge", 1, 2, "proliferate", q)]


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_a_proliferate_that_would_pass_max_count_changes_no_kind(path):
    """One kind past MAX_COUNT refuses the whole proliferate: the kinds before it in
    order get no counter either."""
    w = World()
    p = w.add_player()
    x = w.add_object(p, {"artifact"}, counters={"charge": 1, "oil": MAX_COUNT})
    before = full_state(w)
    with run_on(path), pytest.raises(CountOverflowError, match=f"entity {x} in game 0"):
        w.proliferate([x])
    assert full_state(w) == before


# ---- remove_counters ------------------------------------------------------------------
@pytest.mark.parametrize("path", ["scalar", "general"])
def test_810_10_removing_poison_from_both_teammates_takes_it_from_the_team(path):
    """The team's poison counters are shared (810.10): removing one from each teammate
    takes two from the team's pool, one change on the first seated player."""
    w = World(two_headed_giant=True)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    w.put_counters(a1, "poison", 3)
    w.clear_events()
    with run_on(path):
        w.remove_counters([a1, a2], "poison", 1)
    assert (w.count(a1, "poison"), w.count(a2, "poison")) == (1, 1)
    assert w.events() == [CounterChanged(0, a1, "poison", 3, 1, "remove")]


def test_122_5_a_move_that_would_pass_max_count_is_refused_on_the_single_game_path():
    w = World()
    p = w.add_player()
    a = w.add_object(p, {"artifact"}, counters={"charge": 1})
    full = w.add_object(p, {"artifact"}, counters={"charge": MAX_COUNT})
    before = full_state(w)
    with pytest.raises(CountOverflowError, match=f"entity {full} in game 0"):
        w.move_counters(a, full, "charge")
    assert full_state(w) == before


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_701_34a_proliferate_chooses_an_object_named_twice_once(path):
    """701.34a: proliferate chooses permanents and players; naming one twice chooses it
    once: one more counter of each kind, one event, the chosen in the order of the store
    on both paths."""
    w = World()
    p = w.add_player()
    x = w.add_object(p, {"artifact"}, counters={"charge": 1})
    y = w.add_object(p, {"artifact"}, counters={"charge": 1})
    w.clear_events()
    with run_on(path):
        w.proliferate([y, x, x])
    assert (w.count(x, "charge"), w.count(y, "charge")) == (2, 2)
    assert w.events() == [CounterChanged(0, x, "charge", 1, 2, "proliferate"),
                          CounterChanged(0, y, "charge", 1, 2, "proliferate")]


# ---- destroy --------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["one", "few", "general"])
def test_122_1c_702_12b_a_shield_counter_goes_only_where_destroy_would_destroy(path):
    """122.1c: a shield counter replaces destroying its permanent, which stays; an
    indestructible permanent is not destroyed (702.12b), so it keeps its shield; one
    without a shield goes to the graveyard, whichever others have one. One id at a
    time, a few at once and the general path alike."""
    w = World()
    p = w.add_player()
    plain, shielded = (w.add_object(p, {"creature"}, power=1, toughness=1, counters=c)
                       for c in (None, {"shield": 1}))
    sturdy = w.add_object(p, {"creature"}, power=1, toughness=1, keywords=["indestructible"],
                          counters={"shield": 1})
    targets = [plain, shielded, sturdy]
    with run_on(path):
        for x in targets if path == "one" else [targets]:
            w.destroy(x)
    assert [w.exists(x) for x in targets] == [False, True, True]
    assert (w.counters(shielded), w.counters(sturdy)) == ({}, {"shield": 1})
    assert len(w.objects(zone="graveyard")) == 1


# ---- deal_damage ----------------------------------------------------------------------
def test_120_3_sources_one_per_game_with_skip_finished_are_one_per_game_of_the_batch():
    """``skip_finished=True`` lets ``games=`` name a game that has ended, left out
    (docs/api.md): a source given per game is one per game named, the finished one's
    included, and the finished game is dealt no damage."""
    w = World(batch=2, seed=0)
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, {"creature"}, power=1, toughness=5)
    s = w.add_object(q, {"creature"}, power=1, toughness=1)
    w.lose_life(p, 20, games=[1])
    w.tick()
    w.deal_damage(bear, 1, source=[s, s], games=[0, 1], skip_finished=True)
    assert w.damage(bear).tolist() == [1, 0]


@pytest.mark.parametrize("path", ["one", "few", "general"])
@pytest.mark.parametrize("action,needle", [
    ("destroy", "is not a permanent (CR 701.8a)"), ("sacrifice", "is not a permanent (CR 701.21a)"),
    ("tap", "is not a permanent"), ("untap", "is not a permanent")])
def test_701_8a_701_21a_only_permanents_are_destroyed_sacrificed_tapped_or_untapped(path, action, needle):
    """Destroy (701.8a), sacrifice (701.21a), tap and untap act on permanents: a card in a
    hand, alone or named with a permanent, is refused, naming it, and nothing changes."""
    w = World()
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    card = w.add_object(p, {"creature"}, zone="hand", power=2, toughness=2)
    before = full_state(w)
    with run_on(path), pytest.raises(IllegalActionError) as info:
        getattr(w, action)(card if path == "one" else [bear, card])
    assert f"entity {card} in game 0 {needle}" in str(info.value)
    assert full_state(w) == before


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_a_permanent_named_twice_is_tapped_and_untapped_once(path):
    """Rows naming one permanent are one tap (one ``Tapped`` event), and one untap."""
    w = World()
    p = w.add_player()
    x = w.add_object(p, {"artifact"})
    w.clear_events()
    with run_on(path):
        w.tap([x, x])
        w.untap([x, x])
    assert w.events() == [Tapped(0, x, False, True, "tap"), Tapped(0, x, True, False, "untap")]


# ---- sacrifice ------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["one", "few", "general"])
def test_sacrifice_goes_where_the_ruleset_sends_it_on_every_path(path):
    """Where a sacrificed permanent goes is the ruleset's: Grand Archive Sacrifice 2 banishes
    a regalia (exile) and sends an ally to the graveyard, one id at a time as a few at once."""
    w = World("grand_archive")
    p = w.add_player()
    reg = w.add_object(p, ("item", "regalia"))
    ally = w.add_object(p, "ally", power=1, life=1)
    w.clear_events()
    with run_on(path):
        for x in [reg, ally] if path == "one" else [[reg, ally]]:
            w.sacrifice(x)
    assert sorted((e.old, e.to_zone) for e in w.events()) == [(reg, "exile"), (ally, "graveyard")]


# ---- move_zone ------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["one", "few", "general"])
@pytest.mark.parametrize("case", ["player", "already there", "named twice"])
def test_400_7_move_zone_refuses_a_player_an_object_already_there_and_one_named_twice(path, case):
    """A zone change moves an object to another zone (400.7): a player (in no zone), an
    object already in the zone, or an object named twice in one game is bad input,
    named, and nothing moves, to the battlefield (one id) or another zone (a few)."""
    w = World()
    p = w.add_player()
    card = w.add_object(p, {"artifact"}, zone="hand")
    there = w.add_object(p, {"artifact"}, zone="graveyard" if path == "few" else "battlefield")
    zone = "graveyard" if path == "few" else "battlefield"
    bad, needle = {"player": (p, f"entity {p} in game 0 is a player, not an object"),
                   "already there": (there, f"entity {there} in game 0 is already in the {zone}"),
                   "named twice": (card, "move_zone names the same object twice in one game: "
                                         f"entity {card} in game 0")}[case]
    ids = bad if path == "one" and case != "named twice" else [card, bad]
    before = full_state(w)
    with run_on(path), pytest.raises(IllegalActionError) as info:
        w.move_zone(ids, zone)
    assert needle in str(info.value)
    assert full_state(w) == before


@pytest.mark.parametrize("path", ["one", "few", "general"])
def test_111_8_a_token_leaves_the_battlefield_but_stays_in_any_other_zone(path):
    """111.8: a token that has left the battlefield can't move to another zone: moved
    again it stays (-1); a token on the battlefield moves (a new object, 400.7)."""
    w = World()
    p = w.add_player()
    on, off = w.add_object(p, {"artifact"}, token=True), w.add_object(p, {"artifact"}, token=True, zone="hand")
    with run_on(path):
        new = [w.move_zone(x, "graveyard") for x in (on, off)] if path == "one" else \
            w.move_zone([on, off], "graveyard").tolist()
    assert new[1] == -1 and new[0] not in (-1, on)
    assert (w.zone(new[0]), w.zone(off)) == ("graveyard", "hand")
