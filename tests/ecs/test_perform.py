"""ecs.perform: one check's decisions applied together as one event (704.3): an object two
rules move leaves once, by the cause first in ``ecs.events.CAUSES`` (or out of the game if
a rule takes it there); counters on what leaves go with it, read in its last-known
information (704.8, 400.7); removals of one kind add up and go in the order of their
causes, whatever the systems' order; a player two rules make lose loses once."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from host_rules import Curse, Doom, column, once

from ecs import CounterChanged, GameEnded, PlayerLost, World, ZoneChanged, zones
from ecs.check import Check, System
from ecs.events import CAUSE


def _add(w: World, host_first: bool, *systems: System | type[System]) -> None:
    """Add a host's ``systems`` before the ruleset's (their decisions come first in the
    check) or after them."""
    before = type(w.schedule.systems[0]) if host_first else None
    w.schedule = w.schedule.with_systems(*systems, before=before)


@pytest.mark.parametrize("host_first", [False, True])
def test_704_3_an_object_two_rules_move_goes_where_the_cause_first_in_causes_sends_it(host_first: bool) -> None:
    """A creature at toughness 0 (704.5f, to the graveyard) with three doom counters (the
    host's Doom, cause ``host``: to exile) leaves once, by 704.5f, which comes first in
    CAUSES, whatever the order of the systems."""
    assert CAUSE["704.5f"] < CAUSE["host"]
    w = World(seed=0)
    p = w.add_player()
    _add(w, host_first, Doom)
    bear = w.add_object(p, "creature", power=2, toughness=2, counters={"-1/-1": 2, "doom": 3})
    step = w.step
    assert w.tick() == 1
    left = [e for e in w.events_since(step) if isinstance(e, ZoneChanged)]
    assert [(e.old, e.from_zone, e.to_zone, e.cause) for e in left] == [
        (bear, "battlefield", "graveyard", "704.5f")]
    assert w.zone(left[0].new) == "graveyard"


@pytest.mark.parametrize("host_first", [False, True])
def test_704_3_an_object_a_rule_takes_out_of_the_game_ceases_to_exist_whatever_the_cause(host_first: bool) -> None:
    """A host's rule taking a dying creature out of the game (zones.NONE, cause ``host``,
    after 704.5f in CAUSES) wins over the death: it leaves once and ceases to exist (as an
    object whose owner left the game, GA Ending the Game 7)."""
    w = World(seed=0)
    p = w.add_player()
    gone = once(lambda g, c: c.move(np.array([0]), column(g, bear), zones.NONE, "host"))
    _add(w, host_first, gone)
    bear = w.add_object(p, "creature", power=2, toughness=2, counters={"-1/-1": 2})
    step = w.step
    w.tick()
    left = [e for e in w.events_since(step) if isinstance(e, ZoneChanged)]
    assert [(e.old, e.new, e.to_zone, e.cause) for e in left] == [(bear, None, "none", "host")]
    assert not w.exists(bear) and w.objects("graveyard") == []


def test_704_8_counters_on_what_leaves_go_with_it_in_a_check_of_several_moves() -> None:
    """A creature at toughness 0 with a +1/+1 and three -1/-1 counters dies (704.5f) in the
    check where a token in a graveyard ceases to exist (704.5d, a second move) and where
    704.5q would remove the pair: it leaves with all four counters (its last-known
    information, 704.8), and no counter is removed from it."""
    w = World(seed=0)
    p = w.add_player()
    token = w.add_object(p, "creature", power=1, toughness=1, token=True)
    bear = w.add_object(p, "creature", power=2, toughness=2, counters={"+1/+1": 1, "-1/-1": 3})
    w.move_zone(token, "graveyard")
    [token] = w.objects("graveyard")   # (a new object, 400.7)
    step = w.step
    assert w.tick() == 1
    rows = w.events_since(step)
    assert not [e for e in rows if isinstance(e, CounterChanged)]
    left = {e.old: (e.to_zone, e.cause, dict(e.lki)) for e in rows if isinstance(e, ZoneChanged)}
    assert left == {token: ("none", "704.5d", {}), bear: ("graveyard", "704.5f", {"+1/+1": 1, "-1/-1": 3})}


@pytest.mark.parametrize("host_first", [False, True])
def test_704_3_the_rows_of_a_checks_moves_go_by_slot_whatever_the_systems_order(host_first: bool) -> None:
    """Two creatures leaving in one check by two systems' moves (the host's Doom exiles the
    later one, 704.5f kills the earlier) are recorded, and made new objects, in the order
    of their slots: the earlier-added creature's row first, with the smaller new id."""
    w = World(seed=0)
    p = w.add_player()
    _add(w, host_first, Doom)
    bear = w.add_object(p, "creature", power=2, toughness=2, counters={"-1/-1": 2})
    golem = w.add_object(p, "artifact", counters={"doom": 3})
    step = w.step
    assert w.tick() == 1
    left = [e for e in w.events_since(step) if isinstance(e, ZoneChanged)]
    assert [(e.old, e.to_zone) for e in left] == [(bear, "graveyard"), (golem, "exile")]
    assert left[0].new is not None and left[1].new is not None and left[0].new < left[1].new


class _Chip(System):
    """A host rule removing ``n`` counters of ``kind`` (for ``why``) from every permanent
    with some, as a removal of one kind per row (an array of kinds) or of one kind."""
    causes = ("remove", "host")

    def __init__(self, kind: str, n: int, why: str = "remove", per_row: bool = True) -> None:
        self.kind, self.n, self.why, self.per_row = kind, n, why, per_row

    def process(self, game: Any, check: Check) -> None:
        s = game.store
        plane = s.plane(self.kind)
        if plane is None:
            return
        plane = plane.copy()
        plane[~check.live_games(game)] = 0
        g, c = np.nonzero(plane)
        k = s.kind_index[self.kind]
        check.remove(np.full(g.size, k) if self.per_row else k, g, c, np.full(g.size, self.n), self.why)


def _removed(w: World, step: int) -> list[tuple[str, int, int, str]]:
    return [(e.kind, e.before, e.after, e.cause) for e in w.events_since(step) if isinstance(e, CounterChanged)]


def test_704_3_two_removals_of_a_kind_per_row_for_one_reason_add_up_as_one_row() -> None:
    """Two systems' removals of one kind per row (arrays of kinds), for one reason, remove
    both amounts at once from an object both name: one event row, from 5 to 0."""
    w = World(seed=0)
    p = w.add_player()
    w.schedule = w.schedule.with_systems(_Chip("ice", 2), _Chip("ice", 3))
    t = w.add_object(p, "artifact", counters={"ice": 5})
    step = w.step
    assert w.tick() == 1 and w.count(t, "ice") == 0
    assert _removed(w, step) == [("ice", 5, 0, "remove")]


@pytest.mark.parametrize("per_row", [False, True])
def test_704_3_removals_of_a_kind_for_two_reasons_go_in_the_order_of_their_causes(per_row: bool) -> None:
    """Removals of one kind for two reasons in one check are recorded in the order of their
    causes in CAUSES (``remove`` before ``host``), not of the systems that decided them."""
    assert CAUSE["remove"] < CAUSE["host"]
    w = World(seed=0)
    p = w.add_player()
    w.schedule = w.schedule.with_systems(_Chip("ice", 2, "host", per_row), _Chip("ice", 1, "remove", per_row))
    t = w.add_object(p, "artifact", counters={"ice": 3})
    step = w.step
    assert w.tick() == 1 and w.count(t, "ice") == 0
    assert _removed(w, step) == [("ice", 3, 2, "remove"), ("ice", 2, 0, "host")]


def test_704_3_a_paired_removal_of_several_rows_records_each_kinds_own_counts() -> None:
    """The host's Thaw removes ice and fire counters in pairs (one removal of two kinds):
    over the rows of a batch, each kind's event rows hold that kind's counts before and
    after (ice 2 -> 0, fire 3 -> 1 in each game)."""
    from host_rules import Thaw
    w = World(batch=2, seed=0)
    w.schedule = w.schedule.with_systems(Thaw)
    p = w.add_player()
    w.add_object(p, "artifact", counters={"ice": 2, "fire": 3})
    step = w.step
    assert w.tick() == 1
    rows = [(e.game, e.kind, e.before, e.after) for e in w.events_since(step) if isinstance(e, CounterChanged)]
    assert sorted(rows) == [(g, k, *ba) for g in (0, 1) for k, ba in (("fire", (3, 1)), ("ice", (2, 0)))]


def test_704_5f_a_creature_a_rule_puts_onto_the_battlefield_is_checked_again() -> None:
    """A host's rule returns a 1/0 creature card from a graveyard to the battlefield: the
    next check of the same tick finds it at toughness 0 and it dies (704.5f)."""
    w = World(seed=0)
    p = w.add_player()
    card = w.add_object(p, "creature", zone="graveyard", power=1, toughness=0)
    w.schedule = w.schedule.with_systems(once(lambda g, c: c.move(np.array([0]), column(g, card), zones.BATTLEFIELD,
                                                                  "remove")))
    step = w.step
    assert w.tick() == 2
    left = [(e.from_zone, e.to_zone, e.cause) for e in w.events_since(step) if isinstance(e, ZoneChanged)]
    assert left == [("graveyard", "battlefield", "remove"), ("battlefield", "graveyard", "704.5f")]
    assert w.objects("battlefield") == []


@pytest.mark.parametrize("batch", [1, 2])
def test_107_1b_a_systems_life_loss_takes_a_total_below_zero_and_the_player_loses_704_5a(batch: int) -> None:
    """A host's rule makes a player at 3 life lose 5 (in the last game): the total is -2
    (life totals go below zero, 107.1b; only MAX_LIFE bounds them) and the re-check of the
    game the change named finds the player's loss (704.5a)."""
    w = World(batch=batch, seed=0)
    p, _ = w.add_player(life=3), w.add_player()
    last = np.array([batch - 1])
    w.schedule = w.schedule.with_systems(once(lambda g, c: c.add_to_players("life", last, np.array([0]), -5)))
    assert w.tick() == 2
    assert np.atleast_1d(w.life(p)).tolist() == [3] * (batch - 1) + [-2]
    assert np.atleast_1d(w.has_lost(p)).tolist() == [False] * (batch - 1) + [True]


def _thg() -> tuple[World, list[int]]:
    """A Two-Headed Giant game: teams (a1, a2) and (b1, b2), seated a1, b1, a2, b2."""
    w = World(seed=0, two_headed_giant=True)
    a1, b1, a2, b2 = (w.add_player(team=t) for t in (0, 1, 0, 1))
    return w, [a1, b1, a2, b2]


def test_810_8_one_systems_life_changes_of_two_teammates_both_change_the_teams_total() -> None:
    """One update naming both players of a team (-3 and -4) changes the team's shared life
    by both (810.8): 30 - 7."""
    w, (a1, b1, a2, _) = _thg()
    w.schedule = w.schedule.with_systems(once(lambda g, c: c.add_to_players(
        "life", np.array([0, 0]), np.array([0, 2]), np.array([-3, -4]))))
    w.tick()
    assert (w.life(a1), w.life(a2), w.life(b1)) == (23, 23, 30)


@pytest.mark.parametrize("host_first", [False, True])
def test_810_8a_a_player_two_rules_make_lose_loses_once_with_the_cause_first_in_causes(host_first: bool) -> None:
    """A team at 0 life (704.6a, 810.8c) whose first player the host's Curse also makes lose
    (cause ``host``): each of the team's players loses once, for 704.6a (first in CAUSES),
    whatever the systems' order; the other team wins, named by its first player (104.2a)."""
    assert CAUSE["704.6a"] < CAUSE["host"]
    w, (a1, b1, a2, b2) = _thg()
    _add(w, host_first, Curse)
    w.put_counters(a1, "curse", 3)
    w.lose_life(a1, 30)
    step = w.step
    assert w.tick() == 1
    rows = w.events_since(step)
    assert sorted((e.player, e.cause) for e in rows if isinstance(e, PlayerLost)) == sorted(
        [(a1, "704.6a"), (a2, "704.6a")])
    assert w.result() == b1 and not w.has_lost(b2)
    assert [(e.winner, e.cause) for e in rows if isinstance(e, GameEnded)] == [(b1, "104.2a")]


def test_810_8a_a_host_rule_making_one_player_lose_makes_the_team_lose() -> None:
    """The host's Curse makes one player of a Two-Headed Giant team lose: the teammate loses
    with them, for the same cause (810.8a), and the other team wins, named by its first
    player (104.2a) - here the third seated, the first of the second team."""
    w = World(seed=0, two_headed_giant=True)
    a1, a2, b1, b2 = (w.add_player(team=t) for t in (1, 1, 0, 0))
    w.schedule = w.schedule.with_systems(Curse)
    w.put_counters(b2, "curse", 3)
    step = w.step
    assert w.tick() == 1
    rows = w.events_since(step)
    assert sorted((e.player, e.cause) for e in rows if isinstance(e, PlayerLost)) == [(b1, "host"), (b2, "host")]
    assert [(e.winner, e.cause) for e in rows if isinstance(e, GameEnded)] == [(a1, "104.2a")]
    assert w.result() == a1 and not w.has_lost(a2)


@pytest.mark.parametrize("host_first", [False, True])
def test_704_3_a_player_two_rules_make_lose_in_a_game_that_goes_on_loses_once(host_first: bool) -> None:
    """Of three players, one at 0 life (704.5a) with three curse counters (the host's Curse)
    loses once, for 704.5a; the game goes on between the other two."""
    w = World(seed=0)
    p, q, r = w.add_player(), w.add_player(), w.add_player()
    _add(w, host_first, Curse)
    w.put_counters(p, "curse", 3)
    w.lose_life(p, 20)
    step = w.step
    assert w.tick() == 1
    assert [(e.player, e.cause) for e in w.events_since(step) if isinstance(e, PlayerLost)] == [(p, "704.5a")]
    assert w.result() == "ongoing" and (w.has_lost(q), w.has_lost(r)) == (False, False)


def test_ga_ending_the_game_8_control_returns_only_in_a_game_that_goes_on() -> None:
    """GA Ending the Game 8 returns what a losing player controls to its owner in a
    multiplayer game that goes on. Of two games where player a, controlling c's ally, loses
    in one check: in game 0 b loses too and c wins (the state stays as the game ended: the
    ally is still a's); in game 1 the game goes on and the ally returns to c."""
    w = World(ruleset="grand_archive", batch=2, seed=7)
    a, b, c = (w.add_player() for _ in range(3))
    champions = [w.add_object(p, "champion", life=20, level=1) for p in (a, b, c)]
    ally = w.add_object(c, "ally", power=1, life=3)
    w.set_controller(ally, a)
    w.deal_damage(champions[0], 25)
    w.deal_damage(champions[1], 25, games=[0])
    w.tick()
    assert w.has_lost(a).tolist() == [True, True] and w.result().tolist() == [c, -1]
    assert w.controller(ally).tolist() == [a, c]


def test_704_3_a_checks_rows_go_removals_moves_losses_then_the_games_end() -> None:
    """One check where a cap removes counters (704.5r), a creature dies (704.5f) and a player
    at 0 life loses (704.5a), ending the game (104.2a): its rows, one step, go in perform's
    order - the counters removed from what stays, the zone change, the loss, the end."""
    from ecs.events import COUNTER, GAME_END, LOST, ZONE
    w = World(seed=0)
    p, q = w.add_player(), w.add_player()
    w.add_object(p, "artifact", counters={"charge": 3}, caps={"charge": 1})
    w.add_object(p, "creature", power=2, toughness=2, counters={"-1/-1": 2})
    w.lose_life(q, 20)
    step = w.step
    assert w.tick() == 1
    rows = w.event_table(since=step)
    assert rows["type"].tolist() == [COUNTER, ZONE, LOST, GAME_END] and set(rows["step"].tolist()) == {step + 1}


def test_704_5r_a_cap_on_what_stays_is_kept_beside_one_on_what_dies() -> None:
    """One check: a 2/2 with three -1/-1 counters and a cap of one dies (704.5f; its
    counters go with it, 704.8) while an artifact with three charge counters and a cap of
    one keeps one (704.5r): the cap's rows of each kind apply to their own object only."""
    w = World(seed=0)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2, counters={"-1/-1": 3}, caps={"-1/-1": 1})
    torch = w.add_object(p, "artifact", counters={"charge": 3}, caps={"charge": 1})
    step = w.step
    assert w.tick() == 1
    assert not w.exists(bear) and w.counters(torch) == {"charge": 1}
    rows = w.events_since(step)
    assert [(e.entity, e.kind, e.before, e.after, e.cause) for e in rows if isinstance(e, CounterChanged)] == [
        (torch, "charge", 3, 1, "704.5r")]
    assert [dict(e.lki) for e in rows if isinstance(e, ZoneChanged)] == [{"-1/-1": 3}]


def test_704_5g_a_creature_two_caps_trim_dies_once_at_the_recheck() -> None:
    """A 2/2 with three +1/+1 and three charge counters, caps of one each, and 3 damage:
    the first check removes two of each kind (704.5r, two kinds: two changes of one
    permanent); the re-check looks at it once and it dies once (704.5g), to one new object."""
    w = World(seed=0)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2, counters={"+1/+1": 3, "charge": 3},
                        caps={"+1/+1": 1, "charge": 1})
    w.deal_damage(bear, 3)
    step = w.step
    assert w.tick() == 2 and not w.exists(bear)
    left = [(e.old, e.cause, dict(e.lki)) for e in w.events_since(step) if isinstance(e, ZoneChanged)]
    assert left == [(bear, "704.5g", {"+1/+1": 1, "charge": 1})] and len(w.objects("graveyard")) == 1
