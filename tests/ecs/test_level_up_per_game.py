"""Grand Archive `level_up` with a level, life and power per game: a batched search forked
per candidate levels each game's champion into its own card in one call (Champion:
Leveling Up 2, 7.ii), as the single games would one by one, and a refusal in one game
changes nothing in any."""
from __future__ import annotations

import numpy as np
import pytest
from ga_helpers import unchanged

from ecs import Acted, GameOverError, IllegalActionError, InvalidCountError, InvalidTypeError, World
from ecs.limits import MAX_STAT

#: Each game's card: (damage on the champion, new life, new power or None: no power).
CARDS = [(3, 22, 2), (5, 24, None), (0, 19, 4), (19, 18, None)]   # (the last dies)


def _board(batch: int) -> tuple[World, int, int]:
    w = World(ruleset="grand_archive", batch=batch, seed=5)
    a, b = w.add_player(), w.add_player()
    champ = w.add_object(a, "champion", life=20, level=1, power=1, counters={"enlighten": 1})
    w.add_object(b, "champion", life=20, level=1)
    return w, a, champ


def test_leveling_up_2_takes_a_level_life_and_power_per_selected_game() -> None:
    """One value per selected game, in the order of games= (as a single id's amounts), a
    (G, 1) column too; a per-game power's None is the games whose new card has none (it
    reads 0 there, as a game without a stat does); the games not selected keep their card."""
    w, _, champ = _board(4)
    step = w.step
    w.level_up(champ, [2, 2, 2], life=np.array([[30], [21], [25]]), power=[None, 3, 7],
               games=[3, 0, 1])
    assert w.base_level(champ).tolist() == [2, 2, 1, 2]
    assert w.stat(champ, "life").tolist() == [21, 25, 20, 30]
    assert w.stat(champ, "power").tolist() == [3, 7, 1, 0]
    acted = sorted((e.game, e.before, e.after) for e in w.events_since(step) if isinstance(e, Acted))
    assert acted == [(0, 1, 2), (1, 1, 2), (3, 1, 2)]
    w.level_up(champ, 2, life=18, power=[None], games=[2])   # its one selected game: no power
    assert w.stat(champ, "power").tolist() == [3, 7, 0, 0]
    w.level_up(champ, 3, 19, power=[None, None, None, None])
    with pytest.raises(InvalidTypeError):
        w.stat(champ, "power")   # (no game has a power now)


def test_leveling_up_7_ii_a_batch_is_its_games_leveled_up_one_by_one() -> None:
    """7.ii: the same object keeps its counters, its base level, life and power become the
    new card's; damage meets the new life at the next check. Each game of the batch, its
    own card, equals a World of that game alone leveling up into that card."""
    w, a, champ = _board(len(CARDS))
    w.deal_damage(champ, np.array([[d] for d, _, _ in CARDS]))
    w.tick()
    step = w.step
    w.level_up(champ, 2, [life for _, life, _ in CARDS], [p for _, _, p in CARDS])
    w.tick()
    for g, (damage, life, power) in enumerate(CARDS):
        one, a1, c1 = _board(1)
        one.deal_damage(c1, damage)
        one.tick()
        s1 = one.step
        one.level_up(c1, 2, life, power)
        one.tick()
        assert bool(w.has_lost(a)[g]) == one.has_lost(a1) == (damage >= life), g
        assert [(e.before, e.after, e.cause) for e in w.events_since(step)
                if isinstance(e, Acted) and e.game == g] == \
            [(e.before, e.after, e.cause) for e in one.events_since(s1) if isinstance(e, Acted)]
        if one.has_lost(a1):
            continue   # (banished: Damage 13)
        assert int(w.base_level(champ)[g]) == one.base_level(c1) == 2
        assert int(w.stat(champ, "life")[g]) == one.stat(c1, "life") == life
        assert {k: int(v[g]) for k, v in w.counters(champ).items() if v[g]} == one.counters(c1)
        if power is None:
            assert int(w.stat(champ, "power")[g]) == 0
            with pytest.raises(InvalidTypeError):
                one.stat(c1, "power")
        else:
            assert int(w.stat(champ, "power")[g]) == one.stat(c1, "power") == power


@pytest.mark.parametrize("call, error, message", [
    (lambda w, c: w.level_up(c, [2, 2, 3, 2], [20] * 4), IllegalActionError,
     "is level 1 in game 2: it levels up into a level 2 champion, not 3 (GA Leveling Up 2)"),
    (lambda w, c: w.level_up(c, 2, [20, 20, 20, MAX_STAT + 1]), InvalidCountError,
     f"life in game 3 must be an integer of at most {MAX_STAT} in size, got {MAX_STAT + 1}"),
    (lambda w, c: w.level_up(c, 2, [20, 20.5, 20, 20]), InvalidCountError,
     "life in game 1 must be an integer"),
    (lambda w, c: w.level_up(c, 2, 20, [1, None, 2.5, 1]), InvalidCountError,
     "power in game 2 must be an integer"),
    (lambda w, c: w.level_up(c, 2, [20, None, 20, 20]), InvalidCountError,   # only power has none
     "life in game 1 must be an integer"),
])
def test_leveling_up_2_a_refusal_in_one_game_changes_nothing_in_any(call, error, message) -> None:
    """Every game's level, life and power are checked before any is written: the refusal
    names the game where it fails, and no game levels up."""
    w, _, champ = _board(4)
    err = unchanged(w, lambda: call(w, champ), error)
    assert message in str(err)


def test_leveling_up_2_per_game_values_follow_the_selection_and_name_its_game() -> None:
    """With games=[3, 1] a per-game array has two values, game 3's first: a level that
    doesn't fit the second is refused naming game 1, and the first changes nothing."""
    w, _, champ = _board(4)
    w.level_up(champ, 2, 20, games=[3])
    err = unchanged(w, lambda: w.level_up(champ, [3, 3], 20, games=[3, 1]), IllegalActionError)
    assert "is level 1 in game 1" in str(err)
    w.level_up(champ, [3, 2], [23, 21], games=[3, 1])
    assert w.base_level(champ).tolist() == [1, 2, 1, 3]


@pytest.mark.parametrize("life", [[20, 20], np.full(5, 20), np.full((4, 2), 20)])
def test_per_game_values_of_the_wrong_shape_are_refused(life) -> None:
    """One value per selected game, or one for all (docs/api.md: Ids, amounts and games
    broadcast together): 2 or 5 values for 4 games, or 2 per game, are refused, nothing
    changed."""
    w, _, champ = _board(4)
    err = unchanged(w, lambda: w.level_up(champ, 2, life), InvalidCountError)
    assert "for 4 selected games" in str(err)


def test_a_length_batch_array_is_one_per_selected_game_so_it_fits_only_all_of_them() -> None:
    """As with amounts, a (batch,) array for a selection of two games is refused (index it
    by the selection), and an ended game is no selected game (GameOverError if named)."""
    w, _, champ = _board(3)
    lives = np.array([21, 22, 23])
    unchanged(w, lambda: w.level_up(champ, 2, lives, games=[0, 2]), InvalidCountError)
    w.level_up(champ, 2, lives[[0, 2]], games=[0, 2])
    assert w.stat(champ, "life").tolist() == [21, 20, 23]
    [foe] = [e for e in w.objects() if e != champ]
    w.deal_damage(foe, 20, games=[1])
    w.tick()
    with pytest.raises(GameOverError):
        w.level_up(champ, 2, [1], games=[1])
