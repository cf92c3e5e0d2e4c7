"""benchmarks.boards: a seed gives one board, twice; the board has the documented mix, with
its 3% of players who start lost (704.5a, 704.5c) in batches only; and the engine and the
baseline builders load the same board: each object's and each player's observed state."""
from __future__ import annotations

import numpy as np
import pytest

from benchmarks.boards import CREATURE, TYPE_NAMES, TYPE_SHARE, build_baseline, build_engine, make_board
from benchmarks.esper_baseline import OBSERVED, EsperGame


def test_a_seed_gives_its_board_and_another_seed_another():
    a, b, c = make_board(300, games=3, seed=11), make_board(300, games=3, seed=11), make_board(300, games=3, seed=12)
    assert all(np.array_equal(x, y) for x, y in zip(vars(a).values(), vars(b).values()))
    assert not all(np.array_equal(x, z) for x, z in zip(vars(a).values(), vars(c).values()))


def test_the_board_has_the_documented_mix():
    """The module docstring's and the generator's shares, each within a point or two on
    40,000 objects."""
    s = make_board(40_000, seed=3)
    plus, minus = s.plus[0] > 0, s.minus[0] > 0
    creature = s.card_type == CREATURE
    for t, share in enumerate(TYPE_SHARE):
        assert abs((s.card_type == t).mean() - share) < 0.015, TYPE_NAMES[t]
    assert abs((plus & ~minus).mean() - 0.14) < 0.015
    assert abs((minus & ~plus).mean() - 0.06) < 0.015
    assert abs((plus & minus).mean() - 0.10) < 0.015
    assert abs((s.damage[0] > 0)[creature].mean() - 0.15) < 0.015
    assert not (s.damage[0] > 0)[~creature].any()           # marked damage is a creature's (120.3e)
    assert not (s.deathtouch & (s.damage == 0)).any()       # deathtouch is a kind of damage dealt
    assert abs(s.deathtouch[0][s.damage[0] > 0].mean() - 0.10) < 0.02
    assert abs((s.cap_plus >= 0).mean() - 0.015) < 0.005 and (s.cap_plus == 0).any()


@pytest.mark.parametrize("loss_rate", [0.03, 0.0])
def test_a_player_starts_lost_at_the_loss_rate(loss_rate):
    """About two thirds of those at 0 or less life (704.5a), a third at 10 or more poison
    counters (704.5c); none at a loss rate of 0."""
    s = make_board(1, games=20_000, seed=5, loss_rate=loss_rate)
    dead, poisoned = s.life <= 0, s.poison >= 10
    assert abs(dead.mean() - loss_rate * 2 / 3) < 0.004
    assert abs(poisoned.mean() - loss_rate / 3) < 0.003
    assert (s.life <= 20).all() and (s.poison <= 12).all()


def test_select_keeps_the_cards_and_takes_the_games_asked_for():
    s = make_board(50, games=5, seed=2)
    part = s.select(slice(1, 3))
    assert (part.games, part.n, part.players) == (2, 50, 2)
    assert np.array_equal(part.card_type, s.card_type) and np.array_equal(part.cap_plus, s.cap_plus)
    assert np.array_equal(part.plus, s.plus[1:3]) and np.array_equal(part.life, s.life[1:3])


def test_both_builders_load_the_same_board_in_every_game():
    """Before any tick, every object's and player's observed state (presence, zone, power
    and toughness with counters, 122.1a, loyalty, defense, marked damage, life, poison and
    the other counters) is the same in the engine's batch as in each baseline game, and the
    engine's objects have the board's controllers (the baseline models none); so are
    the cards' caps and which damage is deathtouch's (704.5h), checked through their
    effect after a tick."""
    spec = make_board(150, games=24, seed=8)
    assert ((spec.life <= 0) | (spec.poison >= 10)).any() and (spec.life > 0).any()
    engine, baseline = build_engine(spec), build_baseline(spec, EsperGame)
    try:
        ids = [*engine.players.tolist(), *engine.objects.tolist()]
        obs, _ = engine.world.observe(ids, OBSERVED)
        for g, game in enumerate(baseline.world.games):
            np.testing.assert_array_equal(
                obs[g], game.observe([*baseline.players[g].tolist(), *baseline.objects[g].tolist()])[0],
                err_msg=f"game {g}")
        w = engine.world
        assert all((np.asarray(w.controller(e)) == engine.players[spec.controller[i]]).all()
                   for i, e in enumerate(engine.objects.tolist()))
        players = obs[:, : spec.players]
        assert np.array_equal(players[..., OBSERVED.index("life")], spec.life)
        assert np.array_equal(players[..., OBSERVED.index("counter:poison")], spec.poison)
    finally:
        baseline.world.close()


def test_a_batch_is_filled_by_a_board_of_as_many_games_or_by_one_game_repeated():
    spec = make_board(10, games=2, seed=1)
    with pytest.raises(ValueError, match="can't fill a batch of 3"):
        build_engine(spec, batch=3)
    assert build_engine(make_board(10, seed=1), batch=3).world.batch == 3
