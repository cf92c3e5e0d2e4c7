"""The naive esper baseline on its own: hand-made boards with known answers."""
from __future__ import annotations

from typing import Any

import esper
import pytest

from benchmarks import naive_esper as nv
from benchmarks.boards import build_baseline, make_board


@pytest.fixture
def game() -> Any:
    g = nv.NaiveGame()
    yield g
    g.close()


def creature(t: int, counters: dict[str, int] | None = None, caps: dict[str, int] | None = None,
             damage: int = 0, deathtouch: bool = False) -> list[Any]:
    comps: list[Any] = [nv.Creature(2, t), nv.Counters(dict(counters or {})),
                        nv.Damage(damage, deathtouch)]
    return comps + ([nv.Caps(caps)] if caps else [])


def test_annihilation_704_5q(game: nv.NaiveGame) -> None:
    e = game.add_object(creature(2, {"+1/+1": 3, "-1/-1": 1}))
    game.tick()
    assert game.counters(e) == {"+1/+1": 2}


def test_cap_and_annihilation_add_up_and_clamp(game: nv.NaiveGame) -> None:
    """README: removals of one check add up, clamped at what is there (704.5q + 704.5r)."""
    e = game.add_object(creature(4, {"+1/+1": 3, "-1/-1": 5}, caps={"-1/-1": 2}))
    game.tick()
    assert game.counters(e) == {}


def test_cap_does_not_save_a_dying_creature(game: nv.NaiveGame) -> None:
    """DESIGN: a 2/2 with three -1/-1 counters and a cap of one dies (one snapshot, 704.3)."""
    e = game.add_object(creature(2, {"-1/-1": 3}, caps={"-1/-1": 1}))
    game.tick()
    assert not game.exists(e)
    assert game.zone_sizes() == {"graveyard": 1}


def test_a_later_check_kills(game: nv.NaiveGame) -> None:
    """704.3: the cap takes two +1/+1 counters on the first check, the damage kills on the second."""
    e = game.add_object(creature(2, {"+1/+1": 3}, caps={"+1/+1": 1}, damage=4))
    game.tick()
    assert not game.exists(e)


@pytest.mark.parametrize("comps, dies", [
    (creature(1, damage=1), True),                      # 704.5g
    (creature(3, damage=2), False),
    (creature(3, damage=1, deathtouch=True), True),     # 704.5h
    (creature(1, {"-1/-1": 1}), True),                  # 704.5f
    ([nv.Planeswalker(), nv.Counters({})], True),       # 704.5i
    ([nv.Planeswalker(), nv.Counters({"loyalty": 1})], False),
    ([nv.Battle(), nv.Counters({})], True),             # 704.5v
    ([nv.Battle(), nv.Counters({"defense": 2})], False),
    ([nv.Counters({"+1/+1": 1})], False),               # a noncreature artifact
])
def test_lethality(game: nv.NaiveGame, comps: list[Any], dies: bool) -> None:
    e = game.add_object(comps)
    game.tick()
    assert game.exists(e) != dies


def test_zone_change_makes_a_new_object_without_counters(game: nv.NaiveGame) -> None:
    """400.7, 122.2: the card in the graveyard keeps its characteristics, not its counters."""
    e = game.add_object([nv.Planeswalker(), nv.Counters({"+1/+1": 2})])
    game.tick()
    esper.switch_world(game.name)
    [(new, (zone, ctr, _))] = esper.get_components(nv.Zone, nv.Counters, nv.Planeswalker)
    assert new != e and zone.name == "graveyard" and ctr.counts == {}


def test_losses_and_a_finished_game_is_frozen(game: nv.NaiveGame) -> None:
    """704.5a, 704.5c; README: in a game that has ended, state-based actions do nothing."""
    a = game.add_player(life=0, poison=0)
    b = game.add_player(life=5, poison=10)
    c = game.add_player(life=5, poison=9)
    e = game.add_object(creature(4, {"+1/+1": 3}, caps={"+1/+1": 0}, damage=5))
    game.tick()
    assert [game.player(p).lost for p in (a, b, c)] == [True, True, False]
    # The first check took the +1/+1 counters and ended the game; the second check, which
    # would destroy the creature for lethal damage (compare test_a_later_check_kills), never runs.
    assert game.exists(e) and game.counters(e) == {}


def test_clone_is_independent(game: nv.NaiveGame) -> None:
    e = game.add_object(creature(2, {"+1/+1": 1, "-1/-1": 1}))
    twin = game.clone()
    try:
        twin.tick()
        assert twin.counters(e) == {} and game.counters(e) == {"+1/+1": 1, "-1/-1": 1}
    finally:
        twin.close()


def test_board_generator_is_seeded_and_mixed() -> None:
    a, b = make_board(2000, games=3, seed=7), make_board(2000, games=3, seed=7)
    assert all((x == y).all() for x, y in zip(vars(a).values(), vars(b).values()))
    no_counters = (a.plus == 0) & (a.minus == 0) & (a.loyalty == 0) & (a.defense == 0)
    assert 0.5 < no_counters.mean() < 0.8
    assert ((a.plus > 0) & (a.minus > 0)).any() and (a.cap_plus >= 0).any()
    built = build_baseline(a)
    try:
        built.world.tick()
        sizes = built.world.games[0].zone_sizes()
        assert 0 < sizes["graveyard"] < sizes["battlefield"]
    finally:
        built.world.close()


def test_warm_changes_nothing(game: nv.NaiveGame) -> None:
    """``warm`` builds esper's query caches by a check whose decisions are dropped: a
    board that a tick would change stays as it was until the tick."""
    e = game.add_object(creature(2, {"+1/+1": 1, "-1/-1": 2}, damage=1))
    p = game.add_player(life=0, poison=0)
    game.warm()
    assert game.exists(e) and game.counters(e) == {"+1/+1": 1, "-1/-1": 2} and not game.player(p).lost
    game.tick()
    assert not game.exists(e) and game.player(p).lost


def test_a_player_who_lost_in_a_game_that_goes_on_is_not_lost_again(game: nv.NaiveGame) -> None:
    """704.5a in a three-player game: the player at 0 life loses once and the game goes on
    (it has not ended, README); the tick settles and later checks still act."""
    players = [game.add_player(life, 0) for life in (0, 20, 20)]
    game.tick()
    assert [game.player(p).lost for p in players] == [True, False, False] and not game.over
    e = game.add_object(creature(1, damage=1))
    game.tick()
    assert not game.exists(e)
