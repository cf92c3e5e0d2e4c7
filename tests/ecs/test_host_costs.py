"""What a host's card pool needs of the counter actions (``ecs.actions``): removing
counters as a cost, all or nothing (CR 118.3), and moving every kind at once (122.5)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples
from scalar_paths import run_on
from state import full_state

from ecs import CounterChanged, CountOverflowError, IllegalActionError, UnpayableCostError, World
from ecs.limits import MAX_COUNT

PATHS = ["scalar", "general"]


def refused(w, call, match):
    """``call()`` raises UnpayableCostError matching ``match`` and changes nothing."""
    before = full_state(w)
    with pytest.raises(UnpayableCostError, match=match):
        call()
    assert full_state(w) == before


# ---- remove_counters(cost=True) -------------------------------------------------------
@pytest.mark.parametrize("path", PATHS)
def test_606_4_a_loyalty_cost_is_paid_in_full(path):
    """606.4, 118.3: "-2" of a planeswalker with 3 loyalty removes 2, one event step
    with the usual ``remove`` row; "-4" can't be paid: refused, naming the entity, the
    kind, its count and the cost, and nothing changes (no step either)."""
    w = World()
    me = w.add_player()
    walker = w.add_object(me, "planeswalker", loyalty=3)
    with run_on(path):
        refused(w, lambda: w.remove_counters(walker, "loyalty", 4, cost=True),
                rf"^entity {walker} in game 0 has 3 'loyalty' counters; .*118\.3.* needs 4$")
        step = w.step
        w.remove_counters(walker, "loyalty", 2, cost=True)
    assert w.count(walker, "loyalty") == 1 and w.step == step + 1
    assert w.events_since(step) == [CounterChanged(0, walker, "loyalty", 3, 1, "remove")]


@pytest.mark.parametrize("path", PATHS)
def test_118_3_rows_naming_one_object_pay_together(path):
    """118.3: two rows of 2 charge counters on one object need 4; with 3 nothing is
    removed (without ``cost`` the same call removes the 3 there are, 101.3). A kind the
    object never had can't pay; a cost of 0 always can."""
    w = World()
    me = w.add_player()
    relic, other = w.add_object(me, "artifact", counters={"charge": 3}), w.add_object(me, "artifact")
    with run_on(path):
        refused(w, lambda: w.remove_counters([relic, relic], "charge", 2, cost=True),
                rf"^entity {relic} in game 0 has 3 'charge' counters; .* needs 4$")
        refused(w, lambda: w.remove_counters([relic, other], "charge", 1, cost=True),
                rf"^entity {other} in game 0 has 0 'charge' counters; .* needs 1$")
        refused(w, lambda: w.remove_counters(other, "oil", 1, cost=True), "'oil'")
        w.remove_counters([relic, other], "charge", 0, cost=True)
        w.remove_counters([relic, relic], "charge", 2)
    assert w.count(relic, "charge") == 0


def test_118_3_an_energy_payment_from_a_player():
    """107.14, 118.3: paying energy removes a player's energy counters, all or none."""
    w = World()
    me = w.add_player()
    w.put_counters(me, "energy", 2)
    refused(w, lambda: w.remove_counters(me, "energy", 3, cost=True), rf"^entity {me} in game 0 has 2 'energy'")
    w.remove_counters(me, "energy", 2, cost=True)
    assert w.counters(me) == {}


def test_118_3_a_batch_pays_in_every_selected_game_or_in_none():
    """A batch: one game that can't pay refuses the whole call, in every game; the games
    that can pay are selected to pay there."""
    w = World(batch=3)
    me = w.add_player()
    relic = w.add_object(me, "artifact", counters={"charge": np.array([2, 1, 3])})
    refused(w, lambda: w.remove_counters(relic, "charge", 2, cost=True),
            rf"^entity {relic} in game 1 has 1 'charge' counters; .* needs 2$")
    refused(w, lambda: w.remove_counters(relic, "charge", np.array([0, 2, 0]), cost=True), "in game 1")
    payable = (w.count(relic, "charge") >= 2) & w.ongoing
    w.remove_counters(relic, "charge", 2, cost=True, games=payable)
    assert w.count(relic, "charge").tolist() == [0, 1, 1]


def test_118_3_where_present_and_skip_finished_leave_the_others_out():
    """Only the rows a call acts on pay: ``where="present"`` skips the game where the
    object is gone (it has nothing to pay there), ``skip_finished`` the ended game."""
    w = World(batch=3)
    me, you = w.add_player(), w.add_player()
    relic = w.add_object(me, "artifact", counters={"charge": 2})
    w.sacrifice(relic, games=[0])
    w.lose_life(you, 20, games=[2])
    w.tick()
    assert w.ongoing.tolist() == [True, True, False]
    w.remove_counters(relic, "charge", 2, games=[0, 1, 2], cost=True, where="present", skip_finished=True)
    assert w.count(relic, "charge").tolist() == [0, 0, 2]


@pytest.mark.parametrize("path", PATHS)
def test_810_10_teammates_pay_from_the_teams_poison(path):
    """810.10: a Two-Headed Giant team's poison counters are shared; teammates named in
    one paying call pay from the one pool, so both rows must fit in it."""
    w = World(two_headed_giant=True)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    w.add_player(team=1), w.add_player(team=1)
    w.put_counters(a1, "poison", 3)
    with run_on(path):
        refused(w, lambda: w.remove_counters([a1, a2], "poison", 2, cost=True), "has 3 'poison' counters; .* needs 4")
        w.remove_counters([a1, a2], "poison", 1, cost=True)
    assert w.count(a1, "poison") == w.count(a2, "poison") == 1


@pytest.mark.parametrize("path", PATHS)
def test_ga_a_grand_archive_world_pays_counters_as_a_cost(path):
    """A Grand Archive World takes the same cost for its kinds (a buff counter here),
    refusing a cost its object can't pay (Costs: paid in full)."""
    w = World("grand_archive")
    me = w.add_player()
    ally = w.add_object(me, "ally", power=1, life=2, counters={"buff": 1})
    with run_on(path):
        refused(w, lambda: w.remove_counters(ally, "buff", 2, cost=True), "has 1 'buff' counters")
        w.remove_counters(ally, "buff", 1, cost=True)
    assert w.counters(ally) == {}


def test_the_cost_flag_must_be_a_bool():
    w = World()
    me = w.add_player()
    before = full_state(w)
    with pytest.raises(IllegalActionError, match="cost must be True or False"):
        w.remove_counters(me, "energy", 0, cost=1)
    assert full_state(w) == before


@settings(max_examples=examples(40), deadline=None)
@given(have=st.lists(st.integers(0, 4), min_size=2, max_size=2).flatmap(
           lambda h: st.tuples(st.just(h), st.lists(st.lists(st.integers(0, 3), min_size=2, max_size=2),
                                                    min_size=2, max_size=2))),
       cost=st.booleans())
def test_118_3_a_cost_against_a_model(have, cost):
    """A model of 118.3 and 101.3: two objects in two games, per-game amounts for each.
    As a cost the call pays everywhere or raises and changes nothing; otherwise each
    count falls by its amount, not below 0."""
    counts, need = np.array(have[0]), np.array(have[1])   # counts per object; need (game, object)
    w = World(batch=2)
    me = w.add_player()
    ids = [w.add_object(me, "artifact", counters={"charge": int(n)}) for n in counts]
    start = np.broadcast_to(counts, (2, 2))
    if cost and (need > start).any():
        refused(w, lambda: w.remove_counters(ids, "charge", need, cost=True), "'charge' counters")
        return
    w.remove_counters(ids, "charge", need, cost=cost)
    got = np.stack([w.count(e, "charge") for e in ids], axis=1)
    assert got.tolist() == np.maximum(start - need, 0).tolist()


# ---- move_counters(kind=None) -----------------------------------------------------------
@pytest.mark.parametrize("batch", [1, 2])
def test_122_5_fate_transfer_moves_every_kind_in_one_step(batch):
    """Fate Transfer: "move all counters from target creature onto another": every kind,
    all of each, in one event step; each kind is removed from the source and put on the
    destination by ``by`` (122.6a) as its own move would be; it returns the total."""
    w = World(batch=batch)
    me, you = w.add_player(), w.add_player()
    src = w.add_object(you, "creature", power=2, toughness=2, counters={"-1/-1": 1, "stun": 2, "flying": 1})
    dst = w.add_object(me, "creature", power=3, toughness=3, counters={"-1/-1": 1})
    step = w.step
    moved = w.move_counters(src, dst, None, by=me)
    assert np.all(moved == 4) and w.step == step + 1
    assert w.counters(src) == {} if batch == 1 else not w.counters(src)
    assert np.all(w.count(dst, "-1/-1") == 2) and np.all(w.count(dst, "stun") == 2)
    rows = [(e.entity, e.kind, e.before, e.after, e.cause) for e in w.events_since(step) if e.game == 0]
    assert rows == [(src, "-1/-1", 1, 0, "move"), (dst, "-1/-1", 1, 2, "move"),
                    (src, "stun", 2, 0, "move"), (dst, "stun", 0, 2, "move"),
                    (src, "flying", 1, 0, "move"), (dst, "flying", 0, 1, "move")]
    assert {e.by for e in w.events_since(step) if e.entity == dst} == {me}


def test_122_5_a_kind_the_destination_cant_have_stays_behind():
    """122.5, 101.3: a kind the destination can't have doesn't move; the others do. No
    counters to move, or either object out of the zone: nothing, and 0."""
    w = World()
    me = w.add_player()
    oz = w.add_object(me, "artifact", counters={"+1/+1": 2, "-1/-1": 1})
    bear = w.add_object(me, "creature", power=2, toughness=2)
    w.prohibit(bear, "-1/-1")
    assert w.move_counters(oz, bear, None) == 2
    assert w.counters(oz) == {"-1/-1": 1} and w.counters(bear) == {"+1/+1": 2}
    assert w.move_counters(bear, bear, None) == 0
    card = w.add_object(me, "creature", zone="hand", counters={"charge": 1})
    assert w.move_counters(card, bear, None) == 0 and w.counters(card) == {"charge": 1}


def test_122_5_n_is_the_most_of_each_kind():
    """With every kind, ``n`` is the most of each that moves."""
    w = World()
    me = w.add_player()
    a = w.add_object(me, "artifact", counters={"charge": 3, "oil": 1})
    b = w.add_object(me, "artifact")
    assert w.move_counters(a, b, None, 2) == 3
    assert w.counters(a) == {"charge": 1} and w.counters(b) == {"charge": 2, "oil": 1}


def test_122_5_a_move_of_every_kind_that_would_overflow_changes_nothing():
    """All or nothing: one kind that would pass MAX_COUNT on the destination refuses the
    whole call, the kinds before it included, in every game."""
    w = World(batch=2)
    me = w.add_player()
    a = w.add_object(me, "artifact", counters={"charge": 1, "oil": 1})
    b = w.add_object(me, "artifact", counters={"oil": np.array([0, MAX_COUNT])})
    before = full_state(w)
    with pytest.raises(CountOverflowError, match=rf"'oil' counters on entity {b} in game 1"):
        w.move_counters(a, b, None)
    assert full_state(w) == before


def test_810_10_every_kind_between_teammates_leaves_the_teams_poison():
    """810.10: teammates share their poison, so a move of every kind between them moves
    their own counters and leaves the team's poison where it is."""
    w = World(two_headed_giant=True)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    b1, _ = w.add_player(team=1), w.add_player(team=1)
    w.put_counters(a1, "poison", 2)
    w.put_counters(a1, "energy", 3)
    assert w.move_counters(a1, a2, None, zone=None) == 3
    assert w.counters(a2) == {"poison": 2, "energy": 3} and w.counters(a1) == {"poison": 2}
    assert w.move_counters(a2, b1, None, zone=None) == 5
    assert w.counters(b1) == {"poison": 2, "energy": 3} and w.counters(a1) == {}


def test_ga_buff_and_debuff_moved_together_cancel_as_they_arrive():
    """GA Counters: a buff placed on an object with debuff counters cancels one (and vice
    versa): moving every kind places each kind as its own move does."""
    w = World("grand_archive")
    me = w.add_player()
    a = w.add_object(me, "ally", power=1, life=3, counters={"buff": 2})
    b = w.add_object(me, "ally", power=1, life=3, counters={"debuff": 1})
    assert w.move_counters(a, b, None) == 2
    assert w.counters(a) == {} and w.counters(b) == {"buff": 1}


@settings(max_examples=examples(30), deadline=None)
@given(src=st.dictionaries(st.sampled_from(["charge", "+1/+1", "-1/-1", "oil"]), st.integers(1, 3)),
       dst=st.dictionaries(st.sampled_from(["charge", "+1/+1", "-1/-1", "oil"]), st.integers(1, 3)),
       banned=st.sets(st.sampled_from(["charge", "+1/+1", "-1/-1", "oil"])))
def test_122_5_every_kind_is_each_kinds_move_in_one_step(src, dst, banned):
    """Against the model of one move per kind, in the World's order of kinds: the same
    counters and events, in one step where the model takes one per kind."""
    w = World()
    me = w.add_player()
    a = w.add_object(me, "creature", power=5, toughness=5, counters=src or None)
    b = w.add_object(me, "creature", power=5, toughness=5, counters=dst or None)
    for kind in banned:
        w.prohibit(b, kind)
    model = w.clone()
    step, model_step = w.step, model.step
    moved = w.move_counters(a, b, None)
    each = sum(model.move_counters(a, b, kind, MAX_COUNT) for kind in list(model.store.kind_names))
    assert moved == each
    assert (w.counters(a), w.counters(b)) == (model.counters(a), model.counters(b))
    assert w.events_since(step) == model.events_since(model_step)
    assert w.step == step + 1
