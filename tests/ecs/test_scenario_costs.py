"""A scenario's counters as a cost (`remove_counters` with `cost = true`, CR 118.3) and
every kind's move at once (`move_counters` without a `kind`, CR 122.5): how a file says
them, and what a playout does with them, game by game."""
from __future__ import annotations

import re

import numpy as np
import pytest
from scenario_text import scenario_text

from ecs import montecarlo
from ecs.scenario import ScenarioError, loads

PLAYERS = 'name = "alice"\n\nname = "bob"'
WALKER = 'name = "walker"\ncontroller = "alice"\ntypes = ["planeswalker"]\nloyalty = 3'


def _counts(r: montecarlo.Result, sc_kinds: tuple[str, ...], entry: int, kind: str) -> np.ndarray:
    """Each game's count of ``kind`` on the entry's surviving copies."""
    assert r.raw is not None
    return r.raw["counts"][:, entry, sc_kinds.index(kind)]


def test_cost_is_a_remove_counters_field_that_defaults_to_false() -> None:
    text = scenario_text(1, PLAYERS, WALKER,
                         'action = "remove_counters"\nkind = "loyalty"\nn = 2\ncost = true\n'
                         'target = { name = "walker" }\n\n'
                         'action = "remove_counters"\nkind = "loyalty"\ntarget = { name = "walker" }')
    paid, plain = loads(text, "cost.toml").effects
    assert paid.cost and paid.n == (2, 2) and not plain.cost


@pytest.mark.parametrize("effect, message", [
    ('action = "remove_counters"\nkind = "loyalty"\ncost = "yes"\ntarget = { name = "walker" }',
     "effects[0].cost: expected true or false, got 'yes'"),
    ('action = "put_counters"\nkind = "loyalty"\ncost = true\ntarget = { name = "walker" }',
     "effects[0].cost: expected one of the keys"),
    ('action = "move_counters"\ncost = true\nsource = { name = "walker" }\n'
     'target = { name = "walker" }', "effects[0].cost: expected one of the keys"),
])
def test_cost_is_true_or_false_and_only_removes_pay_it(effect: str, message: str) -> None:
    """Only a removal is a cost here (118.3; 606.4 a loyalty ability's "-N")."""
    with pytest.raises(ScenarioError, match=re.escape(message)):
        loads(scenario_text(1, PLAYERS, WALKER, effect), "bad.toml")


def test_118_3_a_cost_that_can_not_be_paid_in_full_skips_the_effect_in_that_game() -> None:
    """A walker of loyalty 3 pays "-2" once (606.4): the next turn 1 < 2 can't be paid (118.3),
    so its game skips the effect and it keeps its 1 loyalty, in every game; without the cost
    the second removal takes what is there (101.3) and it dies at 0 (704.5i)."""
    effect = ('action = "remove_counters"\nkind = "loyalty"\nn = 2\n@'
              'target = { name = "walker" }')
    paid = loads(scenario_text(4, PLAYERS, WALKER, effect.replace("@", "cost = true\n")), "paid.toml")
    r = montecarlo.run(paid, games=64, workers=1, keep_games=True)
    assert r.error is None and r.survival["walker"].k == 64
    assert (_counts(r, paid.report_kinds, 0, "loyalty") == 1).all()
    plain = loads(scenario_text(4, PLAYERS, WALKER, effect.replace("@", "")), "plain.toml")
    assert montecarlo.run(plain, games=64, workers=1).survival["walker"].k == 0


def test_118_3_every_target_pays_in_full_or_none_does() -> None:
    """"Remove two charge counters from each" of two artifacts holding 2 and 1: the second
    can't pay, so neither does, in every game (nothing changes); one random target of the
    two pays where it is the one with 2, and only there."""
    relics = ('name = "full"\ncontroller = "alice"\ntypes = ["artifact"]\n'
              'counters = { charge = 2 }\n\n'
              'name = "short"\ncontroller = "alice"\ntypes = ["artifact"]\n'
              'counters = { charge = 1 }')
    effect = ('action = "remove_counters"\nkind = "charge"\nn = 2\ncost = true\ntargets = @\n'
              'target = { types = ["artifact"] }')
    both = loads(scenario_text(1, PLAYERS, relics, effect.replace("@", '"all"')), "both.toml")
    r = montecarlo.run(both, games=64, workers=1, keep_games=True)
    assert (_counts(r, both.report_kinds, 0, "charge") == 2).all()
    assert (_counts(r, both.report_kinds, 1, "charge") == 1).all()
    one = loads(scenario_text(1, PLAYERS, relics, effect.replace("@", "1")), "one.toml")
    r = montecarlo.run(one, games=256, workers=1, keep_games=True)
    full, short = (_counts(r, one.report_kinds, i, "charge") for i in (0, 1))
    assert set(full) == {0, 2} and (short == 1).all()   # both picks happened; "short" never paid


def test_118_3_a_drawn_amount_is_paid_only_where_there_is_enough() -> None:
    """n = [1, 3] drawn per game from a walker of loyalty 3 (one turn): every draw can be
    paid, so each game removes exactly its draw; from loyalty 2, a draw of 3 is skipped."""
    effect = ('action = "remove_counters"\nkind = "loyalty"\nn = [1, 3]\ncost = true\n'
              'target = { name = "walker" }')
    sc = loads(scenario_text(1, PLAYERS, WALKER.replace("3", "2"), effect), "drawn.toml")
    r = montecarlo.run(sc, games=512, workers=1, keep_games=True)
    left = _counts(r, sc.report_kinds, 0, "loyalty")
    # 2 - 1 = 1 and 2 - 2 = 0 (it dies, 704.5i: no surviving copy, 0 reported); a 3 is skipped
    assert set(left) == {0, 1, 2} and r.error is None
    assert (r.raw["survivors"][:, 0] == (left > 0)).all()


def test_118_3_a_player_pays_from_their_own_counters() -> None:
    """Removing poison counters as a cost from a player (a player's counters pay too): 3 pay
    "2" once and the remaining 1 can't, however many turns."""
    players = 'name = "alice"\npoison = 3\n\nname = "bob"'
    effect = ('action = "remove_counters"\nkind = "poison"\nn = 2\ncost = true\n'
              'target = { player = "alice" }')
    r = montecarlo.run(loads(scenario_text(3, players, "", effect), "p.toml"), games=32,
                       workers=1, keep_games=True)
    assert r.error is None and (r.raw["poison"][:, 0] == 1).all()


def test_810_10_a_two_headed_giant_player_pays_from_the_teams_poison() -> None:
    """In Two-Headed Giant a player's poison counters are the team's (810.10): bob pays "2"
    from the 3 his teammate started with, and then can't pay from the 1 left."""
    players = ('name = "alice"\npoison = 3\nteam = "a"\n\nname = "bob"\nteam = "a"\n\n'
               'name = "carol"\nteam = "c"\n\nname = "dan"\nteam = "c"')
    effect = ('action = "remove_counters"\nkind = "poison"\nn = 2\ncost = true\n'
              'target = { player = "bob" }')
    sc = loads(scenario_text(3, players, "", effect, top="two_headed_giant = true"), "thg.toml")
    r = montecarlo.run(sc, games=32, workers=1, keep_games=True)
    assert r.error is None and (r.raw["poison"][:, :2] == 1).all()


def test_a_cost_no_game_can_pay_is_checked_and_played_without_a_refusal() -> None:
    """The check before any game plays each effect once: an unpayable cost is skipped there
    too, no UnpayableCostError stops the file or the run."""
    effect = ('action = "remove_counters"\nkind = "loyalty"\nn = 9\ncost = true\n'
              'target = { name = "walker" }')
    sc = loads(scenario_text(2, PLAYERS, WALKER, effect), "never.toml")
    montecarlo.check(sc)
    r = montecarlo.run(sc, games=32, workers=1, keep_games=True)
    assert r.error is None and (_counts(r, sc.report_kinds, 0, "loyalty") == 3).all()


OZOLITH = ('name = "ozolith"\ncontroller = "alice"\ntypes = ["artifact"]\n'
           'counters = { "+1/+1" = 2, flying = 1 }\n\n'
           'name = "bear"\ncontroller = "alice"\ntypes = ["creature"]\npower = 2\ntoughness = 2')
MOVE = 'action = "move_counters"\n@source = { name = "ozolith" }\ntarget = { name = "bear" }'


def test_move_counters_without_a_kind_moves_every_kind_and_without_n_all_of_each() -> None:
    sc = loads(scenario_text(1, PLAYERS, OZOLITH, MOVE.replace("@", "")), "every.toml")
    [e] = sc.effects
    assert e.kind is None and e.n is None
    assert [loads(scenario_text(1, PLAYERS, OZOLITH, MOVE.replace("@", extra)), "m.toml").effects[0].n
            for extra in ("n = 1\n", 'kind = "flying"\n')] == [(1, 1), (1, 1)]


@pytest.mark.parametrize("extra, bear, ozolith", [
    ("", {"+1/+1": 2, "flying": 1}, {"+1/+1": 0, "flying": 0}),   # all of every kind
    ("n = 1\n", {"+1/+1": 1, "flying": 1}, {"+1/+1": 1, "flying": 0}),   # at most 1 of each
    ('kind = "+1/+1"\n', {"+1/+1": 1, "flying": 0}, {"+1/+1": 1, "flying": 1}),   # one of one kind
])
def test_122_5_move_counters_moves_every_kind_at_once(extra: str, bear: dict[str, int],
                                                       ozolith: dict[str, int]) -> None:
    """"Move all counters from it onto target creature" (The Ozolith, 122.5): without a
    kind every kind moves, all of each or at most n of each; a kind moves one by default."""
    sc = loads(scenario_text(1, PLAYERS, OZOLITH, MOVE.replace("@", extra)), "move.toml")
    r = montecarlo.run(sc, games=32, workers=1, keep_games=True)
    assert r.error is None
    for entry, want in ((0, ozolith), (1, bear)):
        for kind, n in want.items():
            assert (_counts(r, sc.report_kinds, entry, kind) == n).all(), (entry, kind)
