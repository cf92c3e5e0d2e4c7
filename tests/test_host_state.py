"""The state a host engine tells the core (part A): power/toughness effects
(613.4), owner and control (108.3, 108.4, 110.2, 400.7), counter prohibitions (122.1,
101.3), players who can't lose (704.5a, 704.5c, 704.6), holds and redirects on
state-based actions (704.5v, 614.1a)."""
import numpy as np
import pytest
from ga_helpers import unchanged
from scalar_paths import run_on
from state import full_state

from ecs import (
    CounterError,
    CountOverflowError,
    IllegalActionError,
    InvalidCountError,
    InvalidTypeError,
    InvalidZoneError,
    StaleEntityError,
    World,
)
from ecs.host import marks
from ecs.limits import MAX_COUNT, MAX_STAT


@pytest.fixture
def game():
    w = World(seed=0)
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    return w, p, q, bear


# ---- power/toughness: layers 7b and 7c (613.4) ------------------------------------------
def test_613_4c_pump_keeps_a_creature_with_minus_counters_alive(game):
    """'Gets +3/+3' with two -1/-1 counters on a 2/2: 3/3, it lives (704.5f)."""
    w, _, _, bear = game
    w.modify_pt(bear, 3, 3)
    w.put_counters(bear, "-1/-1", 2)
    w.tick()
    assert w.zone(bear) == "battlefield"
    assert (w.power(bear), w.toughness(bear)) == (3, 3)


@pytest.mark.parametrize("batch", [1, 3])
@pytest.mark.parametrize("value", [2**63, np.uint64(2**64 - 1), np.int64(-2**63), np.array([2**40]),
                                   np.array([2**64 - 1], np.uint64), np.timedelta64(1)])
def test_power_and_toughness_effects_past_the_limits_are_refused_never_wrapped(batch, value):
    """The host's values are integers of at most 2**30 in size (docs/api.md, Limits:
    "never ... a wrapped value"): one past it in any dtype raises InvalidCountError and
    changes nothing (a uint64 or the int64 minimum was wrapped into a small value)."""
    w = World(batch=batch)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    for call in (lambda: w.set_pt(bear, value), lambda: w.set_pt(bear, 2, value),
                 lambda: w.modify_pt(bear, value)):
        with pytest.raises(InvalidCountError):
            call()
    assert np.all(w.power(bear) == 2) and np.all(w.toughness(bear) == 2)


@pytest.mark.parametrize("batch", [1, 2])
def test_613_4b_a_value_set_on_a_creature_without_printed_pt_is_its_pt_everywhere(batch):
    """A */* creature whose power and toughness the host sets (613.4b, as a
    characteristic-defining ability's value): reads, observe and 704.5f all read the set
    value, and it lives; with the value cleared it has no power or toughness again (the
    reads refuse it) and dies with toughness 0 (704.5f)."""
    w = World(batch=batch)
    p = w.add_player()
    star = w.add_object(p, "creature")
    w.set_pt(star, 2, 3)
    w.tick()
    assert np.all(w.power(star) == 2) and np.all(w.toughness(star) == 3)
    obs, _ = w.observe([star], ["power", "toughness", "has:power", "has:toughness"], dtype=np.int32)
    assert obs[:, 0].tolist() == [[2, 3, 1, 1]] * batch
    w.clear_pt()
    with pytest.raises(InvalidTypeError):
        w.toughness(star)
    w.tick()
    assert not np.any(w.exists(star))


def test_613_4c_shrink_kills_by_704_5f_and_pump_ending_at_cleanup_kills(game):
    w, _, _, bear = game
    w.put_counters(bear, "-1/-1", 2)
    w.modify_pt(bear, 3, 3)
    w.tick()
    w.clear_pt()   # 514.2: "until end of turn" ends
    assert w.toughness(bear) == 0
    w.tick()
    assert not w.exists(bear) and len(w.objects(zone="graveyard")) == 1
    assert any(e.cause == "704.5f" for e in w.events())


def test_613_4b_set_then_7c_modify_then_counters(game):
    """'Becomes 0/1' (7b) then +1/+1 (7c) and a +1/+1 counter (7c): 2/3 whatever the order."""
    w, _, _, bear = game
    w.put_counters(bear, "+1/+1", 1)
    w.modify_pt(bear, 1, 1)
    w.set_pt(bear, 0, 1)
    assert (w.power(bear), w.toughness(bear)) == (2, 3)
    w.set_pt(bear, toughness=5)   # a later set replaces the earlier; power's set stays
    assert (w.power(bear), w.toughness(bear)) == (2, 7)


def test_704_5g_lethal_damage_reads_the_modified_toughness(game):
    w, _, _, bear = game
    w.modify_pt(bear, 0, 2)
    w.deal_damage(bear, 3)
    w.tick()
    assert w.zone(bear) == "battlefield"
    w.modify_pt(bear, 0, -1)
    w.tick()
    assert not w.exists(bear) and len(w.objects(zone="graveyard")) == 1
    assert any(e.cause == "704.5g" for e in w.events())


def test_400_7_pt_effects_end_when_the_object_changes_zones(game):
    w, _, _, bear = game
    w.modify_pt(bear, 5, 5)
    card = w.move_zone(bear, "hand")
    assert (w.power(card), w.toughness(card)) == (2, 2)
    back = w.move_zone(card, "battlefield")
    assert w.toughness(back) == 2


def test_pt_effects_per_game_and_observed():
    w = World(batch=3, seed=0)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    w.modify_pt(bear, [1, -2, 0], [0, -2, 4])
    assert w.toughness(bear).tolist() == [2, 0, 6]
    obs, _ = w.observe([bear], ["power", "toughness"], dtype=np.int32)
    assert obs[:, 0].tolist() == [[3, 2], [0, 0], [2, 6]]
    w.tick()
    assert w.exists(bear).tolist() == [True, False, True]
    w.clear_pt(bear, games=[2])
    assert w.toughness(bear)[2] == 2 and w.toughness(bear)[0] == 2


def test_modify_pt_is_validated_and_atomic(game):
    w, _, _, bear = game
    with pytest.raises(InvalidCountError):
        w.modify_pt(bear, 1, True)
    with pytest.raises(InvalidCountError):
        w.modify_pt(bear, 2 ** 31, 0)
    w.modify_pt(bear, 2 ** 30, 0)
    with pytest.raises(InvalidCountError, match="would come to"):
        w.modify_pt(bear, 1, 5)
    assert w.toughness(bear) == 2 and w.power(bear) == 2 + 2 ** 30
    with pytest.raises(IllegalActionError, match="player"):
        w.modify_pt(w.players()[0], 1, 1)



@pytest.mark.parametrize("batch", [1, 2])
def test_613_4c_modify_pt_rows_naming_one_object_add_up(batch):
    """api.md modify_pt: layer 7c effects add (613.4c), so rows of one call naming one
    object twice (two anthems at once) add up, a negative row subtracting, in every game."""
    w = World(batch=batch)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    w.modify_pt([bear, bear], 3, [1, -1])
    assert np.all(w.power(bear) == 8) and np.all(w.toughness(bear) == 2)
    w.modify_pt([bear, bear, bear], 1, 1)
    assert np.all(w.power(bear) == 11) and np.all(w.toughness(bear) == 5)

# ---- owner and controller (108.3, 108.4, 110.2, 400.7) ----------------------------------
def test_control_change_and_return_under_its_owners_control(game):
    w, p, q, bear = game
    assert w.owner(bear) == w.controller(bear) == p
    w.set_controller(bear, q)
    assert (w.owner(bear), w.controller(bear)) == (p, q)
    assert bear in w.objects(controller=q) and bear not in w.objects(controller=p)
    card = w.move_zone(bear, "graveyard")     # its owner's graveyard (404.2)
    assert (w.owner(card), w.controller(card)) == (p, p)
    assert card in w.objects(zone="graveyard", controller=p)


def test_a_stolen_creature_dies_into_its_owners_graveyard(game):
    w, p, q, bear = game
    w.set_controller(bear, q)
    w.put_counters(bear, "-1/-1", 2)
    w.tick()
    assert w.objects(zone="graveyard", controller=p) and not w.objects(zone="graveyard", controller=q)


def test_108_4_control_changes_per_game():
    """Control is per game like all object state: a change acts in the selected games
    only, the owner (108.3) is kept in each, and a zone change returns the new object to
    its owner (110.2) in the games where it moved."""
    w = World(batch=3, seed=0)
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    w.set_controller(bear, q, games=[0, 2])
    assert w.controller(bear).tolist() == [q, p, q]
    assert w.owner(bear).tolist() == [p, p, p]
    assert [bear in w.objects(controller=q, game=g) for g in range(3)] == [True, False, True]
    card = w.move_zone(bear, "graveyard", games=[0])
    assert w.controller(card).tolist() == [p, -1, -1]   # -1: not in that game
    assert w.controller(bear).tolist() == [-1, p, q]
    only0 = w.add_object(p, "creature", power=1, toughness=1, games=[0])
    w.set_controller(only0, q, games=[0])
    assert w.controller(only0).tolist() == [q, -1, -1]
    with pytest.raises(IllegalActionError, match="player"):
        w.set_controller(p, q)


# ---- counter prohibitions (122.1, 101.3) ------------------------------------------------
def test_one_kind_prohibited_on_one_object_the_rest_allowed(game):
    w, p, _, bear = game
    other = w.add_object(p, "creature", power=2, toughness=2)
    w.put_counters(bear, "-1/-1", 1)
    w.prohibit(bear, "-1/-1")
    assert w.is_prohibited(bear, "-1/-1") and not w.is_prohibited(bear, "+1/+1")
    w.put_counters([bear, other], "-1/-1", 1)
    w.put_counters(bear, "+1/+1", 1)
    assert w.counters(bear) == {"-1/-1": 1, "+1/+1": 1}   # those it had stay
    assert w.count(other, "-1/-1") == 1
    w.deal_damage(bear, 1, wither=True)     # 120.3d puts none
    w.proliferate([bear])                   # 701.34a puts none of that kind
    assert w.counters(bear) == {"-1/-1": 1, "+1/+1": 2}
    w.allow(bear, "-1/-1")
    w.put_counters(bear, "-1/-1", 1)
    assert w.count(bear, "-1/-1") == 2


def test_players_can_be_kept_from_getting_poison(game):
    w, p, q, _ = game
    w.prohibit(p, "poison")
    w.deal_damage(p, 3, infect=True)
    w.put_counters([p, q], "poison", 2)
    assert (w.count(p, "poison"), w.count(q, "poison")) == (0, 2)


def test_701_34a_proliferate_puts_none_of_a_prohibited_kind_however_many_there_are(game):
    """Counters that can't be put (101.3) are not put, so a count at the limit of that
    kind is no overflow: the proliferate still gives the other kinds theirs."""
    w, _, _, bear = game
    w.put_counters(bear, "charge", MAX_COUNT)
    w.put_counters(bear, "+1/+1", 1)
    w.prohibit(bear, "charge")
    w.proliferate([bear])
    assert w.counters(bear) == {"charge": MAX_COUNT, "+1/+1": 2}
    w.allow(bear, "charge")
    with pytest.raises(CountOverflowError):
        w.proliferate([bear])
    assert w.counters(bear) == {"charge": MAX_COUNT, "+1/+1": 2}   # atomic


def test_prohibiting_every_kind_outlasts_allowing_one(game):
    w, _, _, bear = game
    w.prohibit(bear)
    w.allow(bear, "+1/+1")
    w.put_counters(bear, "+1/+1")
    assert w.counters(bear) == {}
    w.allow(bear)
    w.put_counters(bear, "+1/+1")
    assert w.counters(bear) == {"+1/+1": 1}


def test_prohibitions_end_on_a_zone_change_and_are_per_game():
    w = World(batch=2, seed=0)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    w.prohibit(bear, "+1/+1", games=[1])
    w.put_counters(bear, "+1/+1", 1)
    assert w.count(bear, "+1/+1").tolist() == [1, 0]
    card = w.move_zone(bear, "hand")
    w.put_counters(card, "+1/+1", 1)
    assert w.count(card, "+1/+1").tolist() == [1, 1]


def test_122_5_moving_onto_a_prohibited_object_moves_nothing(game):
    """Nothing is removed from the source, nothing put on the destination."""
    w, p, _, bear = game
    other = w.add_object(p, "creature", power=2, toughness=2)
    w.put_counters(bear, "+1/+1", 2)
    w.prohibit(other, "+1/+1")
    w.move_counters(bear, other, "+1/+1", 1)
    assert w.count(bear, "+1/+1") == 2
    assert w.count(other, "+1/+1") == 0


# ---- players who can't lose (704.5a, 704.5c, 704.6) -------------------------------------
def test_704_5a_cant_lose_for_life_while_the_flag_is_on(game):
    w, p, q, _ = game
    w.set_cant_lose(p, "life")
    w.lose_life(p, 25)
    w.tick()
    assert not w.has_lost(p) and w.cant_lose(p, "life")
    w.put_counters(p, "poison", 10)          # only that reason
    w.tick()
    assert w.has_lost(p) and w.result() == q


def test_704_5c_cant_lose_for_poison_then_the_flag_ends(game):
    w, p, q, _ = game
    w.set_cant_lose(p, "poison")
    w.put_counters(p, "poison", 12)
    w.tick()
    assert not w.has_lost(p)
    w.set_cant_lose(p, "poison", False)
    w.tick()
    assert w.has_lost(p) and any(e.cause == "704.5c" for e in w.events())


def test_704_6a_one_players_flag_keeps_the_team_in():
    w = World(seed=0, two_headed_giant=True)
    a, b = w.add_player(team=0), w.add_player(team=0)
    w.add_player(team=1), w.add_player(team=1)
    w.set_cant_lose(b, "life")
    w.lose_life(a, 30)
    w.tick()
    assert not w.has_lost(a) and not w.has_lost(b)
    with pytest.raises(CounterError):
        w.set_cant_lose(a, "mill")


@pytest.mark.parametrize("batch", [1, 2])
def test_704_6b_810_8a_one_players_poison_flag_keeps_the_team_in(batch):
    """810.8a: "that player's team can't lose the game": the flag of a player who got no
    poison counters keeps in the team whose other player got the 15 (704.6b)."""
    w = World(seed=0, batch=batch, two_headed_giant=True)
    a, b = w.add_player(team=0), w.add_player(team=0)
    c, _ = w.add_player(team=1), w.add_player(team=1)
    w.set_cant_lose(b, "poison")
    w.put_counters(a, "poison", 15)
    w.tick()
    assert np.all(w.has_lost(a) == False) and np.all(w.has_lost(b) == False)  # noqa: E712
    w.set_cant_lose(b, "poison", False)
    w.tick()
    assert np.all(w.has_lost(a)) and np.all(w.has_lost(b)) and np.all(w.result() == c)


# ---- holds and redirects (704.5v, 614.1a) -----------------------------------------------
@pytest.mark.parametrize("batch", [1, 2])
def test_704_5v_704_5f_a_hold_keeps_only_the_held_ones_of_several_dying_permanents(batch):
    """Holds (set_hold) in a check where several permanents die: the held battle and
    creature stay where they are (704.5v's exception, 704.5f), the others go to the
    graveyard, one game or a batch."""
    w = World(seed=0, batch=batch)
    p = w.add_player()
    held, gone = (w.add_object(p, "battle", defense=2) for _ in range(2))
    bear, bird = (w.add_object(p, "creature", power=1, toughness=1) for _ in range(2))
    w.set_hold(held)
    w.set_hold(bear)
    w.remove_counters([held, gone], "defense", 2)
    w.put_counters([bear, bird], "-1/-1", 1)
    w.tick()
    assert [np.all(w.exists(e)) for e in (held, gone, bear, bird)] == [True, False, True, False]
    assert np.all(w.zone(held) == "battlefield") and np.all(w.zone(bear) == "battlefield")


def test_704_5v_a_held_battle_at_0_defense_stays_until_released():
    w = World(seed=0)
    p = w.add_player()
    battle = w.add_object(p, "battle", defense=3)
    w.set_hold(battle)
    w.remove_counters(battle, "defense", 3)
    w.tick()
    assert w.zone(battle) == "battlefield" and w.is_held(battle)
    w.set_hold(battle, False)
    w.tick()
    assert not w.exists(battle) and len(w.objects(zone="graveyard")) == 1
    assert any(e.cause == "704.5v" for e in w.events())


def test_a_redirected_creature_is_exiled_instead_of_dying(game):
    w, p, _, bear = game
    w.set_redirect(bear, "exile")
    w.put_counters(bear, "-1/-1", 2)
    w.tick()
    assert w.objects(zone="exile") and not w.objects(zone="graveyard")
    other = w.add_object(p, "creature", power=1, toughness=1)
    w.set_redirect(other, "hand")
    w.destroy(other)
    assert len(w.objects(zone="hand")) == 1
    third = w.add_object(p, "creature", power=1, toughness=1)
    w.set_redirect(third, "exile")
    w.set_redirect(third, None)
    w.destroy(third)
    assert len(w.objects(zone="graveyard")) == 1


@pytest.mark.parametrize("redirect, zone", [("graveyard", "exile"), ("hand", "hand"), (None, "exile")])
def test_a_finality_counter_exiles_what_a_redirect_still_sends_to_a_graveyard(game, redirect, zone):
    """122.1h after a host's "put it into <zone> instead" (614.1a): a redirect elsewhere
    wins, but one to the graveyard itself leaves a move to a graveyard, which the
    finality counter still replaces (616.1: the other replacement is checked again)."""
    w, _, _, bear = game
    w.put_counters(bear, "finality", 1)
    w.set_redirect(bear, redirect)
    w.put_counters(bear, "-1/-1", 2)
    w.tick()
    assert len(w.objects(zone=zone)) == 1 and not w.objects(zone="graveyard")


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("path", ["scalar", "general"])
@pytest.mark.parametrize("how", ["tick", "destroy", "sacrifice", "move_zone"])
def test_616_1_122_1h_a_redirect_to_the_graveyard_still_meets_finality_on_every_path(batch, path, how):
    """A host's "put it into a graveyard instead" (614.1a) leaves a move to a graveyard,
    which a finality counter still replaces (122.1h; 616.1: the other replacement is
    checked again), for a state-based death and each action's move, in one game or a
    batch, on the scalar and the general paths; a redirect elsewhere still wins."""
    w = World(seed=0, batch=batch)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2, counters={"finality": 1})
    bird = w.add_object(p, "creature", power=1, toughness=1, counters={"finality": 1})
    w.set_redirect(bear, "graveyard")
    w.set_redirect(bird, "hand")
    with run_on(path):
        if how == "tick":
            w.put_counters([bear, bird], "-1/-1", 2)
            w.tick()
        elif how == "move_zone":
            w.move_zone([bear, bird], "graveyard")
        else:
            getattr(w, how)([bear, bird])
    assert [len(w.objects(zone=z, game=g)) for g in range(batch) for z in ("exile", "hand", "graveyard")] == \
        [1, 1, 0] * batch


def test_614_1a_a_dying_permanent_cant_be_put_onto_the_battlefield_instead(game):
    """The battlefield is where a dying permanent is: no zone to put it into instead (it
    would stay with its lethal damage, and the checks would find it dying again)."""
    w, _, _, bear = game
    err = unchanged(w, lambda: w.set_redirect(bear, "battlefield"), InvalidZoneError)
    assert f"entity {bear}" in str(err) and "'battlefield'" in str(err)   # (api.md: names both)


def test_redirect_ends_when_the_object_leaves(game):
    w, _, _, bear = game
    w.set_redirect(bear, "exile")
    new = w.move_zone(w.move_zone(bear, "hand"), "battlefield")
    w.destroy(new)
    assert w.zone(w.objects(zone="graveyard")[0]) == "graveyard"


def test_host_state_survives_clone_and_select():
    w = World(batch=2, seed=0)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    w.modify_pt(bear, [1, 2], 0)
    w.set_cant_lose(p, "life", np.array([True, False]))
    c = w.clone()
    c.modify_pt(bear, 1, 0)
    assert w.power(bear).tolist() == [3, 4] and c.power(bear).tolist() == [4, 5]
    one = w.select([1])
    assert one.power(bear) == 4 and not one.cant_lose(p, "life")


@pytest.mark.parametrize("targets", ["one", "few", "batch"])
def test_101_3_a_prohibited_put_at_the_limit_puts_none_and_raises_nothing(targets):
    """A put on what can't have the kind puts none (101.3), so it can't pass the count
    limit either: no CountOverflowError, nothing changed, on the single-game scalar paths
    (one target, a few) and the general one (a batch). An allowed target beside it still
    gets its counters; one that would pass the limit still raises."""
    w = World(batch=2 if targets == "batch" else 1, seed=0)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    cub = w.add_object(p, "creature", power=1, toughness=1)
    w.put_counters(bear, "charge", MAX_COUNT)
    w.prohibit(bear, "charge")
    w.put_counters(bear if targets == "one" else [bear, cub], "charge", 1)
    assert np.all(w.count(bear, "charge") == MAX_COUNT)
    assert np.all(w.count(cub, "charge") == (0 if targets == "one" else 1))
    w.allow(bear, "charge")
    with pytest.raises(CountOverflowError):
        w.put_counters(bear, "charge", 1)


def test_810_10_a_prohibited_team_at_the_poison_limit_gets_none_and_no_error():
    """Two-Headed Giant: poison a player gets is the team's, held by its first player,
    whose prohibition counts (810.10, 101.3); at the limit such a put raises nothing."""
    w = World(two_headed_giant=True, seed=0)
    a, b = w.add_player(team=0), w.add_player(team=0)
    w.add_player(team=1), w.add_player(team=1)
    w.put_counters(a, "poison", MAX_COUNT)
    w.prohibit(a)
    w.put_counters(a, "poison", 1)
    w.put_counters(b, "poison", 1)
    assert w.count(a, "poison") == w.count(b, "poison") == MAX_COUNT


@pytest.mark.parametrize("batch", [1, 2])
def test_810_10b_a_player_who_loses_poison_counters_takes_them_from_the_team(batch):
    """810.10b: "If an effect says that a player loses poison counters, that player's team
    loses that many poison counters": removing them from the team's second player lowers
    the team's count, read the same from either player (810.10a)."""
    w = World(two_headed_giant=True, batch=batch, seed=0)
    a, b = w.add_player(team=0), w.add_player(team=0)
    w.add_player(team=1), w.add_player(team=1)
    w.put_counters(a, "poison", 5)
    w.remove_counters(b, "poison", 2)
    assert np.all(w.count(a, "poison") == 3) and np.all(w.count(b, "poison") == 3)
    w.remove_counters(b, "poison", 7)
    assert np.all(w.count(a, "poison") == 0)


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("banned", ["poison", None])
def test_810_10c_a_player_who_cant_get_poison_keeps_the_whole_team_from_getting_any(batch, banned):
    """810.10c: "If an effect says that a player can't get poison counters, no player on
    that player's team can get poison counters": a prohibition on the team's second player
    (the team's poison is held by the first) stops puts on either player, infect damage
    and proliferate (101.3: none are put, no error); the other
    team is not affected, and allowing it again lets the team get poison."""
    w = World(two_headed_giant=True, batch=batch, seed=0)
    a, b = w.add_player(team=0), w.add_player(team=0)
    c, d = w.add_player(team=1), w.add_player(team=1)
    w.put_counters(a, "poison", 2)
    w.prohibit(b, banned) if banned else w.prohibit(b)
    for who in (a, b):
        assert np.all(w.is_prohibited(who, "poison"))
        w.put_counters(who, "poison", 1)
        w.deal_damage(who, 2, infect=True)
        w.proliferate([who])
    w.put_counters([a, b], "poison", 1)
    assert np.all(w.count(a, "poison") == 2)
    assert not np.any(w.is_prohibited(c, "poison")) and not np.any(w.is_prohibited(a, "charge"))
    w.deal_damage(d, 2, infect=True)
    assert np.all(w.count(c, "poison") == 2)
    w.allow(b)
    w.put_counters(a, "poison", 1)
    w.deal_damage(b, 1, infect=True)
    assert np.all(w.count(b, "poison") == 4) and not np.any(w.is_prohibited(a, "poison"))


# ---- the mark of a host's effects (what a batched zone change reads, 400.7) ---------------
def _marks_exact(w):
    return np.array_equal(w.store.a["host_marked"], marks(w.store.a))


def test_400_7_a_batched_zone_change_ends_the_effects_of_the_marked_objects_leaving():
    """The host's effects on objects are marked per slot, and a zone change of many
    objects ends them where the mark is (400.7): the objects that leave lose theirs, those
    that stay keep theirs, and the next object in a freed slot starts with none. An effect
    set and then ended leaves no mark."""
    w = World(batch=2, seed=0)
    p = w.add_player()
    leaving = [w.add_object(p, "creature", power=2, toughness=2, token=True) for _ in range(4)]
    staying = w.add_object(p, "creature", power=2, toughness=2)
    plain = w.add_object(p, "creature", power=2, toughness=2, token=True)
    a, b, c, d = leaving
    w.modify_pt(a, 1, 1)
    w.set_pt(b, 5, 5, games=[1])
    w.set_hold(c)
    w.set_hold(c, False, games=[0])   # ended in game 0: no effect, no mark
    w.set_redirect(d, "exile", games=[0])
    w.prohibit([a, staying], "-1/-1")
    assert _marks_exact(w)
    assert int(w.store.a["host_marked"].sum()) == 2 + 1 + 1 + 1 + 2   # a, b, c, d, staying
    w.destroy(leaving + [plain])    # tokens: they cease to exist and free their slots (704.5d)
    w.tick()
    assert _marks_exact(w)
    assert w.is_prohibited(staying, "-1/-1").all()
    made = [w.add_object(p, "creature", power=2, toughness=2) for _ in range(6)]   # the freed slots
    assert _marks_exact(w) and int(w.store.a["host_marked"].sum()) == 2   # staying's, in each game
    for e in made:
        assert (w.power(e) == 2).all() and (w.toughness(e) == 2).all()
        assert not w.is_held(e).any() and not w.is_prohibited(e, "-1/-1").any()
    new = w.move_zone(made, "graveyard")   # (no redirect left on any of them)
    assert all((w.zone(e) == "graveyard").all() for e in np.asarray(new).ravel().tolist())


def test_the_host_mark_follows_each_action_that_sets_or_ends_effects():
    """Every host action on objects leaves the mark exactly where an effect is, in the
    games it acted in (a clear of every object's power/toughness included)."""
    w = World(batch=3, seed=0)
    p = w.add_player()
    a, b = (w.add_object(p, "creature", power=2, toughness=2) for _ in range(2))
    steps = [lambda: w.modify_pt(a, 2, 0, games=[0, 2]), lambda: w.modify_pt(a, -2, 0, games=[2]),
             lambda: w.set_pt(b, toughness=1), lambda: w.clear_pt(games=[1]),
             lambda: w.prohibit(p, None), lambda: w.allow(p), lambda: w.set_redirect(a, "hand"),
             lambda: w.set_redirect(a, None, games=[0]), lambda: w.set_hold([a, b], [True, False]),
             lambda: w.clear_pt(b), lambda: w.modify_pt(b, 1, 1), lambda: w.clear_pt()]
    for step in steps:
        step()
        assert _marks_exact(w)
    games = np.arange(3)
    mark = w.store.a["host_marked"]
    assert mark[games, [w.store.present(g, a) for g in games]].all()   # held everywhere
    assert not mark[games, [w.store.present(g, b) for g in games]].any()   # its effects all ended


# ---- host effects and schedules: one test per mutant the suite let live ----
@pytest.mark.parametrize("batch", [1, 2])
def test_set_pt_and_set_hold_refuse_one_object_twice(batch):
    """One object named twice with two values is ambiguous: refused, nothing changes."""
    w = World(batch=batch, seed=0)
    a = w.add_object(w.add_player(), "creature", power=2, toughness=2)
    with pytest.raises(IllegalActionError):
        w.set_pt([a, a], power=[1, 2])
    with pytest.raises(IllegalActionError):
        w.set_hold([a, a], on=[True, False])
    assert np.all(w.power(a) == 2) and not np.any(w.is_held(a))


def test_clear_pt_of_every_object_acts_in_the_selected_games_only():
    """``clear_pt()`` of every object with ``games=`` ends the effects in those games only."""
    w = World(batch=2, seed=0)
    a = w.add_object(w.add_player(), "creature", power=2, toughness=2)
    w.modify_pt(a, 1, 1)
    w.clear_pt(games=[0])
    assert w.power(a).tolist() == [2, 3]


@pytest.mark.parametrize("batch", [1, 2])
def test_the_owner_is_the_controller_before_the_first_control_change(batch):
    """The owner stays (108.3) while control passes twice (110.2)."""
    w = World(batch=batch, seed=0)
    p, q, r = w.add_player(), w.add_player(), w.add_player()
    a = w.add_object(p, "creature", power=2, toughness=2)
    games = None if batch == 1 else [0, 1]   # (a list: the general path)
    w.set_controller(a, q, games=games)
    w.set_controller(a, r, games=games)
    assert np.all(w.owner(a) == p) and np.all(w.controller(a) == r)


def test_the_64th_kind_can_not_be_prohibited_alone():
    """Prohibitions name one of the first 63 kinds; the 64th raises and bans nothing, and
    allowing it (never used) is no error."""
    w = World(seed=0)
    a = w.add_object(w.add_player(), "artifact")
    for i in range(63):
        w.put_counters(a, f"k{i}", 1)
    with pytest.raises(IllegalActionError):
        w.prohibit(a, "k63")
    w.put_counters(a, "k0", 1)       # nothing else got prohibited
    assert w.count(a, "k0") == 2
    before = full_state(w)
    w.allow(a, "k63")                # never used: nothing to allow, no error, no new kind
    assert full_state(w) == before


def test_an_object_that_cant_have_counters_is_prohibited_in_one_game():
    """An object made with ``no_counters`` reads as prohibited on the one-game path too (101.3)."""
    w = World(seed=0)
    a = w.add_object(w.add_player(), "artifact", no_counters=True)
    assert w.is_prohibited(a) is True


def test_cant_lose_names_the_player_not_its_column():
    """"Can't lose" is the player's (its index), not its store column's."""
    w = World(seed=0)
    p = w.add_player()
    w.add_object(p, "artifact")
    q = w.add_player()               # (its column is 2, its index 1)
    r = w.add_player()
    w.set_cant_lose(q, "life")
    assert w.cant_lose(q, "life") and not w.cant_lose(r, "life")


def test_flags_must_be_bools():
    """Host flags are bools: ints are refused (InvalidTypeError)."""
    w = World(batch=2, seed=0)
    p = w.add_player()
    a = w.add_object(p, "creature", power=1, toughness=1)
    with pytest.raises(InvalidTypeError):
        w.set_hold(a, on=np.array([1, 0]))
    with pytest.raises(InvalidTypeError):
        w.set_cant_lose(p, "life", on=np.array([1, 0]))


# ---- bounds, atomicity and the single-game paths of the host's effects -------------------
@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("value", [MAX_STAT + 1, -MAX_STAT - 1])
def test_613_4_a_value_one_past_max_stat_is_refused_and_max_stat_is_taken(batch, value):
    """A set or modified power/toughness is at most MAX_STAT in size, either sign: one past
    it raises InvalidCountError and changes nothing, on the single-game scalar path and the
    batch's; the bound itself is taken."""
    w = World(batch=batch, seed=0)
    bear = w.add_object(w.add_player(), "creature", power=2, toughness=2)
    for call in (lambda: w.set_pt(bear, value), lambda: w.set_pt(bear, toughness=value),
                 lambda: w.modify_pt(bear, value), lambda: w.modify_pt(bear, 0, value)):
        unchanged(w, call, InvalidCountError)
    edge = value - 1 if value > 0 else value + 1
    w.set_pt(bear, edge, edge)
    assert np.all(w.power(bear) == edge) and np.all(w.toughness(bear) == edge)


@pytest.mark.parametrize("batch", [1, 2])
def test_613_4c_modifications_adding_up_past_max_stat_below_zero_are_refused_whole(batch):
    """Modifications add up (613.4c) to at most MAX_STAT in size, below zero too: a
    toughness change that would pass -MAX_STAT raises naming the entity and the game and
    writes nothing, not even the power change beside it."""
    w = World(batch=batch, seed=0)
    p = w.add_player()
    w.add_object(p, "artifact")   # (the bear's column is not its game's index)
    bear = w.add_object(p, "creature", power=2, toughness=2)
    w.modify_pt(bear, 0, -MAX_STAT)
    last = batch - 1
    down = -1 if batch == 1 else np.array([0, -1])   # (one per game: over in the last only)
    err = unchanged(w, lambda: w.modify_pt(bear, 1, down), InvalidCountError)
    assert (f"toughness modifications of entity {bear} in game {last} would come to {-MAX_STAT - 1}"
            in str(err)), str(err)


def test_514_2_clearing_one_objects_effects_in_one_game_ends_both_layers(game):
    """``clear_pt(e)`` in one game ends the set (7b) and modified (7c) values of ``e``
    only; its counters stay (they are no effect)."""
    w, p, _, bear = game
    other = w.add_object(p, "creature", power=2, toughness=2)
    w.put_counters(bear, "+1/+1", 1)
    w.set_pt(bear, 0, 1)
    w.modify_pt([bear, other], 1, 1)
    w.clear_pt(bear)
    assert (w.power(bear), w.toughness(bear)) == (3, 3)
    assert (w.power(other), w.toughness(other)) == (3, 3)
    assert _marks_exact(w)


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("action", ["set_pt", "modify_pt", "clear_pt", "set_hold", "set_redirect",
                                    "set_controller"])
def test_an_effect_on_objects_named_for_a_player_is_refused(batch, action):
    """Power/toughness effects, holds, redirects and control changes apply to objects: a
    player named raises IllegalActionError naming it and changes nothing, in one game and
    a batch."""
    w = World(batch=batch, seed=0)
    p, q = w.add_player(), w.add_player()
    w.add_object(p, "creature", power=2, toughness=2)
    call = {"set_pt": lambda: w.set_pt(p, 1, 1), "modify_pt": lambda: w.modify_pt(p, 1, 1),
            "clear_pt": lambda: w.clear_pt(p), "set_hold": lambda: w.set_hold(p),
            "set_redirect": lambda: w.set_redirect(p, "exile"),
            "set_controller": lambda: w.set_controller(p, q)}[action]
    err = unchanged(w, call, IllegalActionError)
    assert f"entity {p} in game 0 is a player: {action} applies to objects" in str(err)


@pytest.mark.parametrize("on", [1, 0, "yes", None])
def test_host_flags_in_one_game_must_be_bools(on):
    """A hold or a "can't lose" flag is a bool on the single-game path too: another value
    raises InvalidTypeError naming the action, the entity and the value, and changes
    nothing."""
    w = World(seed=0)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=1, toughness=1)
    err = unchanged(w, lambda: w.set_hold(bear, on), InvalidTypeError)
    assert f"set_hold on of entity {bear} must be a bool (or bools), got {on!r}" in str(err)
    err = unchanged(w, lambda: w.set_cant_lose(p, "life", on), InvalidTypeError)
    assert f"set_cant_lose on of player {p} must be a bool (or bools), got {on!r}" in str(err)


def _one_column_two_objects():
    """A World of two games where one column holds object ``a`` in game 0 and another
    object ``b`` in game 1."""
    w = World(batch=2, seed=0)
    p = w.add_player()
    a = w.add_object(p, "artifact", games=[0])
    b = w.add_object(p, "artifact", games=[1])
    assert w.store.present(0, a) == w.store.present(1, b)
    return w, a, b


def test_704_5v_a_hold_is_read_in_the_games_the_object_is_in_only():
    """``is_held`` of an object absent from a game is False there, whatever another object
    in its column there is under."""
    w, a, b = _one_column_two_objects()
    w.set_hold(b, games=[1])
    assert w.is_held(a).tolist() == [False, False] and w.is_held(b).tolist() == [False, True]


@pytest.mark.parametrize("kind", ["charge", None])
def test_101_3_a_prohibition_is_read_in_the_games_the_object_is_in_only(kind):
    """``is_prohibited`` of an object absent from a game is False there, whatever the other
    object in its column there can't have."""
    w, a, b = _one_column_two_objects()
    w.prohibit(b, kind, games=[1])
    assert w.is_prohibited(a, kind).tolist() == [False, False]
    assert w.is_prohibited(b, kind).tolist() == [False, True]


def test_101_3_an_object_that_cant_have_counters_is_prohibited_in_a_batch():
    """An object made with ``no_counters`` reads as prohibited on the batch path too."""
    w = World(batch=2, seed=0)
    a = w.add_object(w.add_player(), "artifact", no_counters=True)
    assert w.is_prohibited(a).tolist() == [True, True]


@pytest.mark.parametrize("batch", [1, 2])
def test_122_1_a_second_prohibition_adds_to_the_first(batch):
    """Prohibitions of two kinds on one object both hold (101.3): the second does not
    replace the first."""
    w = World(batch=batch, seed=0)
    bear = w.add_object(w.add_player(), "creature", power=2, toughness=2)
    w.prohibit(bear, "-1/-1")
    w.prohibit(bear, "+1/+1")
    assert np.all(w.is_prohibited(bear, "-1/-1")) and np.all(w.is_prohibited(bear, "+1/+1"))
    w.put_counters(bear, "-1/-1")
    w.put_counters(bear, "+1/+1")
    assert w.counters(bear) == {}


def test_a_prohibition_refused_for_a_stale_target_makes_no_new_kind():
    """A prohibition naming an object gone from one game raises StaleEntityError before it
    makes its kind's counter plane: nothing changes, the kinds included."""
    w = World(batch=2, seed=0)
    bear = w.add_object(w.add_player(), "creature", power=2, toughness=2)
    w.destroy(bear, games=[1])
    kinds = list(w.store.kind_names)
    unchanged(w, lambda: w.prohibit(bear, "brand new"), StaleEntityError)
    assert list(w.store.kind_names) == kinds


def test_400_7_in_one_game_the_mark_follows_each_host_action_and_a_zone_change_ends_effects():
    """The single-game paths mark as the batch's do: every effect set marks its object, the
    last one ended unmarks it. A zone change of several objects then ends the effects of
    those leaving (400.7): objects made in the freed slots start with none."""
    w = World(seed=0)
    p = w.add_player()
    a, b, c, d = (w.add_object(p, "creature", power=2, toughness=2, token=True) for _ in range(4))
    pairs = [(a, lambda: w.set_pt(a, 5, 5), lambda: w.clear_pt(a)),
             (a, lambda: w.modify_pt(a, 1, 1), lambda: w.modify_pt(a, -1, -1)),
             (b, lambda: w.set_hold(b), lambda: w.set_hold(b, False)),
             (c, lambda: w.set_redirect(c, "exile"), lambda: w.set_redirect(c, None)),
             (d, lambda: w.prohibit(d, "charge"), lambda: w.allow(d, "charge")),
             (d, lambda: w.prohibit(d), lambda: w.allow(d))]
    col = {e: w.store.present(0, e) for e in (a, b, c, d)}
    for e, start, end in pairs:
        start()
        assert _marks_exact(w) and w.store.a["host_marked"][0, col[e]]
        end()
        assert _marks_exact(w) and not w.store.a["host_marked"].any()
    w.set_pt(a, 5, 5)
    w.set_hold(b)
    w.set_redirect(c, "exile")
    w.prohibit(d, "charge")
    assert _marks_exact(w) and int(w.store.a["host_marked"].sum()) == 4
    w.set_hold(b, False)
    w.destroy([a, b, c, d])   # tokens: they cease to exist, freeing their slots (704.5d)
    w.tick()
    made = [w.add_object(p, "creature", power=1, toughness=1) for _ in range(4)]
    assert _marks_exact(w) and not w.store.a["host_marked"].any()
    for e in made:
        assert (w.power(e), w.toughness(e)) == (1, 1)
        assert not w.is_held(e) and not w.is_prohibited(e, "charge")
    w.destroy(made)
    assert len(w.objects(zone="graveyard")) == 4   # (no redirect left)


def test_allowing_a_kind_ends_its_prohibition_where_some_games_have_none():
    """``allow`` over games of which some have the prohibition ends it in those, and the
    others stay as they were (allowed)."""
    w = World(batch=2, seed=0)
    bear = w.add_object(w.add_player(), "creature", power=2, toughness=2)
    w.prohibit(bear, "charge", games=[0])
    w.allow(bear, "charge")
    w.put_counters(bear, "charge")
    assert w.count(bear, "charge").tolist() == [1, 1] and not w.is_prohibited(bear, "charge").any()


@pytest.mark.parametrize("batch", [1, 2])
def test_704_6_cant_lose_is_a_players_and_is_refused_for_an_object_and_a_player_named_twice(batch):
    """"Can't lose" flags a player (704.5a, 704.6a): on an object it raises naming the
    object, and one player named twice with two flags is ambiguous: refused, nothing
    changes (no flag set on the object's controller)."""
    w = World(batch=batch, seed=0)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    err = unchanged(w, lambda: w.set_cant_lose(bear, "life"), IllegalActionError)
    assert f"entity {bear} in game 0 is not a player" in str(err)
    unchanged(w, lambda: w.set_cant_lose([p, p], "life", np.array([True, False])), IllegalActionError)
    assert not np.any(w.cant_lose(p, "life"))


def test_cant_lose_in_a_batch_names_the_player_not_its_column():
    """The batch path flags the player (its index), not its store column's index."""
    w = World(batch=2, seed=0)
    p = w.add_player()
    w.add_object(p, "artifact")
    q = w.add_player()               # (its column is 2, its index 1)
    r = w.add_player()
    w.set_cant_lose(q, "poison", np.array([True, False]))
    assert w.cant_lose(q, "poison").tolist() == [True, False]
    assert not w.cant_lose(r, "poison").any() and not w.cant_lose(p, "poison").any()


@pytest.mark.parametrize("reason", [["life"], np.array(["life"]), None, 1])
def test_a_reason_to_not_lose_that_is_no_name_is_refused(reason):
    """The reason is one of the names "life" and "poison": a list, an array or another
    value raises InvalidTypeError naming it (not a TypeError of a look-up), and changes
    nothing."""
    w = World(seed=0)
    p = w.add_player()
    err = unchanged(w, lambda: w.set_cant_lose(p, reason), InvalidTypeError)
    assert f"unknown reason {reason!r}" in str(err)   # (api.md: the message names the value)
    with pytest.raises(InvalidTypeError, match="unknown reason"):
        w.cant_lose(p, reason)
