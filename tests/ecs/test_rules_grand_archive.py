"""Grand Archive actions (ecs.rules.grand_archive) on their general paths: a batch, or a
single game's call forced onto the vectorized path, acts as the single game's scalar path."""
import numpy as np
import pytest
from scalar_paths import run_on
from state import full_state

from ecs import ONGOING, Acted, CounterChanged, GameOverError, IllegalActionError, World, ZoneChanged


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("path", ["scalar", "general"])
def test_costs_and_memory_1_reserve_is_the_named_players_whatever_their_column(path, batch):
    """Costs and Memory 1: reserve is a per-player resource, set, gained and paid on the
    player named; a player made after an object (their column is not their index) too."""
    w = World(ruleset="grand_archive", batch=batch, seed=0)
    a = w.add_player()
    w.add_object(a, "champion", life=20, level=1)
    b = w.add_player()
    with run_on(path):
        w.set_reserve(b, 5)
        w.gain_reserve(b, 2)
        w.pay_reserve(b, 3)
    assert np.atleast_1d(w.reserve(b)).tolist() == [4] * batch
    assert np.atleast_1d(w.reserve(a)).tolist() == [0] * batch


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_enlighten_1_in_a_batch_draws_in_the_games_it_was_activated_in_only(path):
    """Enlighten 1: "Remove 3 enlighten counters: Draw a card." activated in one game of a
    batch (games=) draws that game's card; the other game's deck and counters stay."""
    w = World(ruleset="grand_archive", batch=2, seed=0)
    a = w.add_player()
    w.add_player()
    w.add_object(a, "champion", life=20, level=1)
    sage = w.add_object(a, "ally", power=1, life=2, counters={"enlighten": 3})
    for _ in range(2):
        w.add_object(a, "action", zone="deck")
    with run_on(path):
        drawn = w.activate_enlighten(sage, games=[0])
    assert drawn[0] >= 0 and drawn[1] == -1
    assert [len(w.library(a, game=g)) for g in range(2)] == [1, 2]
    assert w.count(sage, "enlighten").tolist() == [0, 3]


def _enlighten_table(batch: int) -> tuple[World, int, int]:
    """A Grand Archive World of two players with champions; player a's ally has 4 enlighten
    counters (Enlighten 1: one activation leaves 1)."""
    w = World(ruleset="grand_archive", batch=batch, seed=0)
    a, b = w.add_player(), w.add_player()
    for p in (a, b):
        w.add_object(p, "champion", life=20, level=1)
    return w, a, w.add_object(a, "ally", power=1, life=2, counters={"enlighten": 4})


def _token_on_top(w: World, p: int, games=None) -> int:
    """A token of player p's moved from the field onto the top of their deck in ``games``:
    it can't be drawn (111.8) and the next check removes it (704.5d); the engine treats a
    Grand Archive token in a deck so."""
    t = w.move_zone(w.add_object(p, "ally", power=1, life=1, token=True), "deck", games=games)
    w.order_library(p, [t, *w.library(p, game=0 if games is None else games[0])[:-1]], games=games)
    return t


@pytest.mark.parametrize("under", [0, 1])
@pytest.mark.parametrize("path", ["scalar", "general"])
def test_enlighten_1_a_draw_that_finds_a_token_on_top_still_pays_the_three_counters(path, under):
    """Enlighten 1: "Remove 3 enlighten counters from [CARDNAME]: Draw a card." The removal
    is the cost, paid before the draw: where the draw finds a token on top of the deck
    (111.8: it can't move) nothing is drawn (-1), the three counters stay removed (their
    CounterChanged and Acted, no ZoneChanged), and the next check removes the token (704.5d)
    with no loss (Ending the Game 5: the deck was not empty, even as the token alone)."""
    w, a, sage = _enlighten_table(1)
    cards = [w.add_object(a, "action", zone="deck") for _ in range(under)]
    t = _token_on_top(w, a)
    step = w.step
    with run_on(path):
        drawn = w.activate_enlighten(sage)
    assert drawn == -1
    assert w.count(sage, "enlighten") == 1 and w.library(a) == [t, *cards]
    assert [(type(e), e.cause) for e in w.events_since(step)] == [
        (CounterChanged, "ga.enlighten"), (Acted, "ga.enlighten")]
    w.tick()
    assert not w.has_lost(a) and w.result() == "ongoing"
    assert not w.exists(t) and w.library(a) == cards


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_enlighten_1_a_batch_draws_where_no_token_is_on_top_and_pays_in_both_games(path):
    """Enlighten 1 in a batch of two games, a token on top of the deck in game 0 only
    (111.8): both games pay the three counters; game 1 draws its card, game 0 draws nothing
    (-1) and keeps its card under the token; the next check removes the token (704.5d) and
    no one loses (Ending the Game 5)."""
    w, a, sage = _enlighten_table(2)
    card = w.add_object(a, "action", zone="deck")
    t = _token_on_top(w, a, games=[0])
    step = w.step
    with run_on(path):
        drawn = w.activate_enlighten(sage)
    assert drawn[0] == -1 and drawn[1] >= 0
    assert w.count(sage, "enlighten").tolist() == [1, 1]
    assert w.library(a, game=0) == [t, card] and w.library(a, game=1) == []
    seen = [(type(e), e.game, e.cause) for e in w.events_since(step)]
    assert sorted(seen, key=repr) == sorted([(CounterChanged, 0, "ga.enlighten"), (CounterChanged, 1, "ga.enlighten"),
                                             (Acted, 0, "ga.enlighten"), (Acted, 1, "ga.enlighten"),
                                             (ZoneChanged, 1, "draw")], key=repr)
    w.tick()
    assert not w.has_lost(a).any() and (w.result() == ONGOING).all()
    assert w.library(a, game=0) == [card]


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_recover_2_2_one_champion_in_a_batch_returns_each_games_own_count(path):
    """Recover 2, 2.2: "remove up to N damage counters": one champion recovering in a batch
    returns what was removed in each game, which differs where its damage differs."""
    w = World(ruleset="grand_archive", batch=3, seed=0)
    a = w.add_player()
    w.add_player()
    champ = w.add_object(a, "champion", life=20, level=1, counters={"damage": [3, 1, 0]})
    with run_on(path):
        removed = w.recover(champ, 2)
    assert removed.tolist() == [2, 1, 0]
    assert w.count(champ, "damage").tolist() == [1, 0, 0]


def test_leveling_up_2_in_the_selected_games_only():
    """Leveling Up 2 and 7.ii: a level up in the games named levels up there only (the
    others keep the card they had, base level and stats, and log nothing); naming a game
    where the champion is of another base level refuses the whole call, naming that game;
    naming a game that has ended raises GameOverError."""
    w = World(ruleset="grand_archive", batch=4, seed=1)
    a, b = w.add_player(), w.add_player()
    champ = w.add_object(a, "champion", life=15, level=0)
    foe = w.add_object(b, "champion", life=15, level=0)
    step = w.step
    w.level_up(champ, level=1, life=20, power=1, games=[2, 0])
    assert w.base_level(champ).tolist() == [1, 0, 1, 0]
    assert w.stat(champ, "life").tolist() == [20, 15, 20, 15]
    assert sorted(e.game for e in w.events_since(step) if isinstance(e, Acted)) == [0, 2]
    before = full_state(w)
    with pytest.raises(IllegalActionError, match="is level 1 in game 2"):
        w.level_up(champ, level=1, life=20, games=[1, 2])
    assert full_state(w) == before
    w.deal_damage(foe, 15, games=3)
    w.tick()
    with pytest.raises(GameOverError):
        w.level_up(champ, level=1, life=20, games=3)
    w.level_up(champ, level=1, life=18, games=np.array([False, True, False, False]))
    assert w.base_level(champ).tolist() == [1, 1, 1, 0]
    w.level_up(champ, level=2, life=22)   # None: every game still going, not game 3
    assert w.base_level(champ).tolist() == [2, 2, 2, 0]
