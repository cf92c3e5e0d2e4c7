"""WitherUpkeep: GA Counters, Wither 1-5 (and the choices docs/rules-grand-archive.md writes
down where the rules are open)."""
from __future__ import annotations

import numpy as np
import pytest
from ga_helpers import unchanged
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from ecs import CounterError, IllegalActionError, PolicyError, ReserveChanged, World
from ecs.errors import InsufficientReserveError
from ecs.events import COUNTER, RESERVE
from ecs.systems.wither_upkeep import pay_most, pay_nothing
from ecs.turns import InvalidPhaseError


def ga(batch=1, players=2):
    w = World(ruleset="grand_archive", batch=batch, seed=3)
    ps = [w.add_player() for _ in range(players)]
    champs = [w.add_object(p, "champion", life=20, level=1) for p in ps]
    return w, ps, champs


def zone_moves(w):
    return {(e.old, e.to_zone, e.cause) for e in w.events() if type(e).__name__ == "ZoneChanged"}


def test_wither_1_3_pay_one_reserve_per_counter_in_full_then_remove_them():
    """Wither 1, 3, 4: the player pays 1 reserve per wither counter on the object, keeps
    it, and all its wither counters are removed."""
    w, (a, _), _ = ga()
    ally = w.add_object(a, "ally", power=1, life=2, counters={"wither": 2})
    w.set_reserve(a, 3)
    w.begin_main_phase(a)
    assert w.zone(ally) == "battlefield" and w.counters(ally) == {}
    assert w.reserve(a) == 1


def test_wither_3_unpaid_objects_are_sacrificed():
    """Wither 1, 3 and Sacrifice 2: too little reserve for an object means it is
    sacrificed: an ally to the graveyard, a regalia into banishment. Its wither counters
    cease to exist with the zone change (last-known information keeps them)."""
    w, (a, _), _ = ga()
    ally = w.add_object(a, "ally", power=1, life=2, counters={"wither": 2})
    reg = w.add_object(a, ("item", "regalia"), counters={"wither": 1})
    w.set_reserve(a, 1)
    w.clear_events()
    w.begin_main_phase(a, policy=pay_nothing)
    assert zone_moves(w) == {(ally, "graveyard", "sacrifice"), (reg, "exile", "sacrifice")}
    assert w.reserve(a) == 1
    [z] = [e for e in w.events() if getattr(e, "old", None) == ally]
    assert z.lki == {"wither": 2}
    assert not any(getattr(e, "kind", None) == "wither" for e in w.events())


def test_wither_sacrificed_champion_is_banished_and_its_player_loses():
    """Sacrifice 2, Champion 8, Ending the Game 5: a sacrificed champion goes to
    banishment; a player who controls no champion any more loses."""
    w, (a, b), (champ, _) = ga()
    w.put_counters(champ, "wither", 1)
    w.begin_main_phase(a)                    # no reserve
    assert w.has_lost(a) and w.result() == b
    kinds = [(type(e).__name__, getattr(e, "to_zone", None)) for e in w.events()][-3:]
    assert kinds == [("ZoneChanged", "exile"), ("PlayerLost", None), ("GameEnded", None)]


def test_wither_4_all_counters_removed_at_the_same_time():
    """Wither 4: every wither counter is removed at once, one step, with the payment
    (the payment is an event, ReserveChanged with cause ga.wither)."""
    w, (a, _), _ = ga()
    xs = w.add_objects(3, a, "ally", power=1, life=2, counters={"wither": 1})
    w.set_reserve(a, 3)
    w.clear_events()
    w.begin_main_phase(a)
    t = w.event_table()
    assert t["type"].tolist() == [COUNTER] * 3 + [RESERVE] and len(set(t["step"].tolist())) == 1
    assert all(w.counters(int(x)) == {} for x in xs)
    assert w.events()[-1] == ReserveChanged(0, a, 3, 0, "ga.wither")


def test_default_policy_pays_for_as_many_objects_as_reserve_allows():
    """Our choice (docs/rules-grand-archive.md, wither policies): champions first (cheapest
    first), then as many other objects as possible, cheapest first, the lower slot (here
    the older object) first at equal cost."""
    w, (a, _), (champ, _) = ga()
    big = w.add_object(a, "ally", power=1, life=2, counters={"wither": 3})
    one = w.add_object(a, "ally", power=1, life=2, counters={"wither": 1})
    two_old = w.add_object(a, "ally", power=1, life=2, counters={"wither": 2})
    two_new = w.add_object(a, "ally", power=1, life=2, counters={"wither": 2})
    w.put_counters(champ, "wither", 2)
    w.set_reserve(a, 5)                       # 1 + 2 (champion) + 2 (older ally)
    w.clear_events()
    w.begin_main_phase(a)
    assert {o for o, _, _ in zone_moves(w)} == {big, two_new}
    assert w.zone(one) == w.zone(two_old) == w.zone(champ) == "battlefield"
    assert w.reserve(a) == 0


def test_policy_is_called_once_vectorized_over_the_batch():
    """The policy decides for every game of the batch at once: (G,) games, (G, m) ids (-1
    where a game has no candidate), (G, m) costs, (G,) reserve."""
    w, (a, _), _ = ga(batch=3)
    x = w.add_object(a, "ally", power=1, life=2, counters={"wither": 1})
    y = w.add_object(a, "ally", power=1, life=2)
    w.put_counters(y, "wither", np.array([0, 2, 1]))
    w.set_reserve(a, np.array([5, 5, 0]))
    calls = []

    def policy(world, games, ids, cost, reserve):
        calls.append((games.tolist(), ids.tolist(), cost.tolist(), reserve.tolist()))
        return np.array([[True, False], [False, True], [False, False]])

    w.begin_main_phase(a, policy=policy)
    assert calls == [([0, 1, 2], [[x, -1], [x, y], [x, y]], [[1, 0], [1, 2], [1, 1]], [5, 5, 0])]
    assert w.exists(x).tolist() == [True, False, False]
    assert w.exists(y).tolist() == [True, True, False]
    assert w.reserve(a).tolist() == [4, 3, 0]


def test_paying_reserve_the_player_does_not_have_raises_and_changes_nothing():
    """Wither 3, Costs and Memory 1: a policy that pays more than the reserve raises an
    error naming the player, the kind and the values; nothing happens, not even the
    state-based actions that begin_main_phase would otherwise perform first."""
    w, (a, _), _ = ga()
    x = w.add_object(a, "ally", power=1, life=2, counters={"wither": 2})
    dying = w.add_object(a, "ally", power=1, life=1)
    w.deal_damage(dying, 1)
    w.set_reserve(a, 1)
    err = unchanged(w, lambda: w.begin_main_phase(a, policy=lambda world, g, ids, cost, r: cost > 0),
                    InsufficientReserveError)
    assert isinstance(err, CounterError)
    assert str(a) in str(err) and "wither" in str(err) and str(x) in str(err) and "1" in str(err)
    unchanged(w, lambda: w.begin_main_phase(a, policy=lambda *args: np.array([1])),
              IllegalActionError)


def test_unknown_phase_raises_and_changes_nothing():
    """CR 505.1 / GA Turn Order: a main phase is precombat or postcombat."""
    w, (a, _), _ = ga()
    w.add_object(a, "ally", power=1, life=2, counters={"wither": 1})
    for bad in ("combat", "main", 2, None):
        err = unchanged(w, lambda bad=bad: w.begin_main_phase(a, precombat=bad), InvalidPhaseError)
        assert isinstance(err, CounterError) and str(a) in str(err) and repr(bad) in str(err)
    unchanged(w, lambda: w.begin_main_phase(a, policy="pay"), IllegalActionError)


def test_wither_5_returning_to_the_main_phase_after_combat_does_nothing():
    """Wither 5: one main phase per turn; the return after combat makes no new trigger."""
    w, (a, _), _ = ga()
    x = w.add_object(a, "ally", power=1, life=2, counters={"wither": 1})
    w.begin_main_phase(a, precombat=False)
    assert w.counters(x) == {"wither": 1}
    w.begin_main_phase(a, precombat="postcombat")
    assert w.counters(x) == {"wither": 1}


def test_wither_1_only_the_turn_players_objects():
    """Wither 1: "At the beginning of a player's main phase, if they control ..."."""
    w, (a, b), _ = ga()
    mine = w.add_object(a, "ally", power=1, life=2, counters={"wither": 1})
    theirs = w.add_object(b, "ally", power=1, life=2, counters={"wither": 1})
    w.set_reserve(b, 5)
    w.begin_main_phase(a)
    assert not w.exists(mine) and w.counters(theirs) == {"wither": 1}
    assert w.reserve(b) == 5
    w.begin_main_phase()                    # the next player in turn order: b
    assert w.active_player() == b and w.counters(theirs) == {} and w.reserve(b) == 4


@pytest.mark.parametrize("batch", [1, 2])
def test_wither_only_for_objects_on_the_field(batch):
    """Wither 1 counts objects the player controls on the field, not their cards in a
    graveyard or hand (which still record them as controller): nothing is paid, sacrificed
    or removed, in one game or a batch."""
    w, (a, _), _ = ga(batch=batch)
    card = w.add_object(a, "ally", power=1, life=2, zone="graveyard", counters={"wither": 1})
    held = w.add_object(a, "ally", power=1, life=2, zone="hand", counters={"wither": 2})
    w.clear_events()
    w.begin_main_phase(a)
    assert np.all(w.count(card, "wither") == 1) and np.all(w.zone(card) == "graveyard")
    assert np.all(w.count(held, "wither") == 2) and np.all(w.zone(held) == "hand")
    assert [e for e in w.events() if type(e).__name__ in ("ZoneChanged", "CounterChanged")] == []


def test_state_based_checks_come_before_the_trigger():
    """Main Phase 1: state-based effects are checked before the trigger resolves, so an
    ally already dying is not paid for."""
    w, (a, _), _ = ga()
    dying = w.add_object(a, "ally", power=1, life=1, counters={"wither": 1})
    keep = w.add_object(a, "ally", power=1, life=2, counters={"wither": 1})
    w.deal_damage(dying, 1)
    w.set_reserve(a, 1)
    calls = []
    w.begin_main_phase(a, policy=lambda world, g, ids, cost, r:
                       calls.append(ids.tolist()) or pay_most(world, g, ids, cost, r))
    assert calls == [[[keep]]] and w.exists(keep) and w.counters(keep) == {}


def test_mtg_has_no_wither_upkeep():
    """MTG wither is a damage keyword (702.80); a counter named wither is
    generic and nothing happens at a main phase."""
    w = World()
    p = w.add_player()
    c = w.add_object(p, "creature", power=1, toughness=1, counters={"wither": 2})
    w.begin_main_phase(p)
    assert w.counters(c) == {"wither": 2}


def test_a_policy_that_fails_undoes_the_whole_call():
    """A policy's own exception undoes begin_main_phase, including its first check."""
    w, (a, _), _ = ga()
    w.add_object(a, "ally", power=1, life=2, counters={"wither": 1})
    dying = w.add_object(a, "ally", power=1, life=1)
    w.deal_damage(dying, 1)

    def broken(*args):
        raise ZeroDivisionError("no decision")
    err = unchanged(w, lambda: w.begin_main_phase(a, policy=broken), PolicyError)
    assert isinstance(err, CounterError) and isinstance(err.__cause__, ZeroDivisionError)
    assert "broken" in str(err) and "no decision" in str(err)


def test_wither_3_a_policy_that_writes_its_arrays_changes_no_cost_or_reserve():
    """A policy gets copies: writing its ``cost`` and ``reserve`` arrays (a cost of 0, a
    reserve of 100) changes what it is checked against in nothing, so paying for a
    wither 2 ally with no reserve still raises (Wither 3) and changes nothing."""
    w, (a, _), _ = ga()
    w.add_object(a, "ally", power=1, life=2, counters={"wither": 2})

    def cheat(world, games, ids, cost, reserve):
        pay = cost > 0
        cost[:] = 0
        reserve[:] = 100
        return pay
    unchanged(w, lambda: w.begin_main_phase(a, policy=cheat), InsufficientReserveError)


def test_a_policy_interrupted_undoes_the_whole_call_and_the_interrupt_goes_on():
    """A KeyboardInterrupt (or SystemExit) raised in a policy is not a policy's error: it
    goes on as it is, and begin_main_phase is undone as for one, its first check too."""
    w, (a, _), _ = ga()
    w.add_object(a, "ally", power=1, life=2, counters={"wither": 1})
    dying = w.add_object(a, "ally", power=1, life=1)
    w.deal_damage(dying, 1)

    def interrupted(*args):
        raise KeyboardInterrupt
    unchanged(w, lambda: w.begin_main_phase(a, policy=interrupted), KeyboardInterrupt)
    assert w.exists(dying) and w.active_player() == -1


def test_default_policy_keeps_the_champion_rather_than_an_ally():
    """Champion at wither 2, ally at wither 1, reserve 2. Paying for the
    cheaper ally would sacrifice the champion and lose (Ending the Game 5); the
    default pays for the champion."""
    w, (a, b), (champ, _) = ga()
    w.put_counters(champ, "wither", 2)
    ally = w.add_object(a, "ally", power=1, life=2, counters={"wither": 1})
    w.set_reserve(a, 2)
    w.begin_main_phase(a)
    assert not w.has_lost(a) and w.zone(champ) == "battlefield" and not w.exists(ally)
    assert w.reserve(a) == 0 and w.counters(champ) == {}


def test_immortal_objects_are_not_sacrificed_and_the_default_does_not_pay_for_them():
    """Keywords: Immortality 1.2 ("can't be destroyed (including via sacrifice)"): an
    unpaid immortal object stays; its wither counters are removed all the same (Wither
    4). The default policy spends nothing on it."""
    w, (a, _), (champ, _) = ga()
    w.put_counters(champ, "wither", 1)
    w.set_immortal(champ)
    ally = w.add_object(a, "ally", power=1, life=2, counters={"wither": 1})
    w.set_reserve(a, 1)
    w.begin_main_phase(a)
    assert w.zone(champ) == w.zone(ally) == "battlefield" and not w.has_lost(a)
    assert w.counters(champ) == w.counters(ally) == {} and w.reserve(a) == 0
    w.put_counters(champ, "wither", 3)
    w.begin_main_phase(a, policy=pay_nothing)
    assert w.zone(champ) == "battlefield" and w.counters(champ) == {}


# ---- the default policy against brute force --------------------------------
def best_outcome(champs, others, cost, reserve, immortal, safe):
    """Brute force over every affordable set of objects to pay for: the best (kept the
    game, champions kept, other objects kept, -reserve spent), compared in that order.
    ``safe``: the player has a champion that no wither counter threatens."""
    cands = [i for i, c in enumerate(cost) if c > 0 and not immortal[i]]
    best = None
    for mask in range(1 << len(cands)):
        paid = [i for k, i in enumerate(cands) if mask >> k & 1]
        spent = sum(cost[i] for i in paid)
        if spent > reserve:
            continue
        kept = [i for i in range(len(cost)) if cost[i] == 0 or immortal[i] or i in paid]
        n_champs = sum(1 for i in kept if i in champs)
        value = (safe or n_champs > 0, n_champs, sum(1 for i in kept if i in others), -spent)
        best = value if best is None or value > best else best
    return best


@settings(max_examples=examples(60), deadline=None)
@given(st.data())
def test_default_policy_never_chooses_an_avoidable_loss_then_keeps_the_most(data):
    """Against brute force on small boards (vectorized over 3 games): the
    default never loses when some payment keeps a champion, and its choice is the best
    by (champions kept, other objects kept, least reserve spent)."""
    n_champs = data.draw(st.integers(1, 2))
    n_others = data.draw(st.integers(0, 3))
    B = 3
    w = World(ruleset="grand_archive", batch=B, seed=0)
    a, b = w.add_player(), w.add_player()
    w.add_object(b, "champion", life=20, level=1)
    ids = [w.add_object(a, "champion", life=20, level=1) for _ in range(n_champs)]
    ids += [w.add_object(a, data.draw(st.sampled_from(["ally", ("item", "regalia"), "domain"])),
                         power=1, life=5) for _ in range(n_others)]
    boards = []
    for g in range(B):
        cost = [data.draw(st.integers(0, 3)) for _ in ids]
        immortal = [data.draw(st.integers(0, 4)) == 0 for _ in ids]
        reserve = data.draw(st.integers(0, 6))
        for e, c, im in zip(ids, cost, immortal):
            w.put_counters(e, "wither", c, games=[g])
            w.set_immortal(e, im, games=[g])
        w.set_reserve(a, reserve, games=[g])
        boards.append((cost, immortal, reserve))
    w.begin_main_phase(a)
    champs, others = set(range(n_champs)), set(range(n_champs, len(ids)))
    for g, (cost, immortal, reserve) in enumerate(boards):
        safe = any(cost[i] == 0 for i in champs)
        best = best_outcome(champs, others, cost, reserve, immortal, safe)
        kept = [i for i, e in enumerate(ids) if w.exists(e)[g]]
        spent = reserve - int(w.reserve(a)[g])
        got = (not w.has_lost(a)[g], sum(1 for i in kept if i in champs),
               sum(1 for i in kept if i in others), -spent)
        assert got == best, (g, cost, immortal, reserve)
        assert got[0] == best[0]   # in particular: lost only when every choice loses


def test_paying_reserve_the_player_does_not_have_names_the_game_of_the_batch():
    """Wither 3: in a batch where the main phase begins in game 1 alone, a payment past the
    reserve there raises an error naming game 1 (the batch's game, not the row of the
    policy's arrays), and nothing happens."""
    w, (a, _), _ = ga(batch=2)
    w.add_object(a, "ally", power=1, life=2, counters={"wither": 2})
    w.set_reserve(a, np.array([5, 1]))
    err = unchanged(w, lambda: w.begin_main_phase(a, games=[1], policy=lambda world, g, ids, cost, r: cost > 0),
                    InsufficientReserveError)
    assert "in game 1 " in str(err) and "can't pay 2 reserve" in str(err) and "they have 1" in str(err)
