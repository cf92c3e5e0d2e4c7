"""Main phases and turn players (ecs.turns): who takes the turn (CR 102.1, 805.4 in
Two-Headed Giant), what a main phase refuses, and the reads of the turn player."""
from __future__ import annotations

import numpy as np
import pytest
from ga_helpers import unchanged
from scalar_paths import run_on

from ecs import IllegalActionError, InvalidCountError, World, ZoneChanged
from ecs.check import System, When


def three(batch: int = 1) -> tuple[World, list[int]]:
    """A game (or a batch) of three players, none with a library."""
    w = World(batch=batch, seed=5)
    return w, [w.add_player() for _ in range(3)]


@pytest.mark.parametrize("batch", [1, 3])
def test_800_4a_a_player_who_has_lost_takes_no_more_turns(batch):
    """A player who has lost left the game (800.4a): a main phase named for them raises,
    naming the player and the game they lost, and changes nothing; in a batch where they
    lost one game only, the other games may still give them their turn."""
    w, (p, q, r) = three(batch)
    out = 1 if batch > 1 else 0
    w.lose_life(p, 20, games=[out])
    w.tick()
    assert w.ongoing.all()
    err = unchanged(w, lambda: w.begin_main_phase(p), IllegalActionError)
    assert f"player {p} has lost game {out} and takes no more turns" in str(err)
    if batch > 1:
        w.begin_main_phase(p, games=[0, 2])
        assert w.active_player().tolist() == [p, -1, p]


def test_a_main_phase_needs_a_player():
    """A World without players has no turn player to give a main phase to."""
    w = World()
    err = unchanged(w, lambda: w.begin_main_phase(), IllegalActionError)
    assert "needs a player" in str(err)


def test_104_2a_a_game_the_first_check_ends_gets_no_turn_player():
    """A batch where the opponent is at 0 life in game 1: the main phase's first check
    ends that game (704.5a, 104.2a), whose state is then frozen, so it gets no turn player
    there; game 0 goes on with the named player's turn."""
    w = World(batch=2, seed=5)
    p, q = w.add_player(), w.add_player()
    w.lose_life(q, 20, games=[1])
    w.begin_main_phase(p)
    assert w.ongoing.tolist() == [True, False] and w.result().tolist() == [-1, p]
    assert w.active_player().tolist() == [p, -1]
    assert w.store.a["active"].tolist() == [[True, False], [False, False]]


def test_102_1_the_default_turn_player_of_one_selected_game_is_that_games_next():
    """Each game of a batch has its own turns: a default main phase in one selected game
    goes to the next player in that game's turn order (after its own turn player, skipping
    the players who lost there), whatever the other games' turns."""
    w, (p, q, r) = three(batch=2)
    w.begin_main_phase(q, games=[0])
    w.begin_main_phase(games=[1])   # game 1: no turn yet, so the first player
    assert w.active_player().tolist() == [q, p]
    w.lose_life(q, 20, games=[1])
    w.tick()
    w.begin_main_phase(games=[1])   # after p comes q, who has lost there: r
    w.begin_main_phase(games=[0])   # after q comes r
    assert w.active_player().tolist() == [r, r]
    w.begin_main_phase(games=[1])
    assert w.active_player().tolist() == [r, p]


@pytest.mark.parametrize("batch", [1, 3])
def test_805_4_800_4a_a_teammate_who_has_lost_is_no_turn_player_of_the_teams_turn(batch):
    """Three teams; team A lost (810.8a) and the game goes on; a player who joins team A
    later has not lost. Their main phase is their team's turn (805.4), but a teammate who
    has lost takes no more turns (800.4a): the joiner alone is a turn player."""
    w = World(two_headed_giant=True, batch=batch, seed=5)
    a1, b1, c1, a2, b2, c2 = [w.add_player(team=t) for t in (0, 1, 2, 0, 1, 2)]
    w.lose_life(a1, 30)
    w.tick()
    assert np.all(w.has_lost(a1)) and np.all(w.has_lost(a2)) and w.ongoing.all()
    a3 = w.add_player(team=0)
    w.begin_main_phase(a3)
    assert np.all(w.active_player() == a3)
    assert w.store.a["active"].tolist() == [[False] * 6 + [True]] * batch


@pytest.mark.parametrize("batch", [1, 3])
def test_805_4_104_2a_a_team_turn_that_ends_the_game_resolves_no_more_triggers(batch):
    """The active team's phase triggers resolve one at a time with a check after each
    (805.4, 117.5): where the first ends the game (a host's phase rule makes the other
    team lose: 104.2a), the game is over and the teammate's trigger never runs there."""
    seen = []

    class Concede(System):
        when = When.MAIN_PHASE
        causes = ("host",)

        def process(self, game, check):  # type: ignore[no-untyped-def]
            phase = check.phase
            if phase.games.size:
                seen.append(phase.player.tolist())
            first = phase.player == 0
            check.lose(phase.games[first], np.full(int(first.sum()), 1), "host")

    w = World(two_headed_giant=True, batch=batch, seed=5)
    a1, b1, a2, b2 = [w.add_player(team=t) for t in (0, 1, 0, 1)]
    w.schedule = w.schedule.with_systems(Concede())
    w.begin_main_phase(a2)
    assert seen == [[0] * batch]
    assert not w.ongoing.any() and np.all(w.result() == a1)


@pytest.mark.parametrize("batch", [1, 2])
def test_805_4_every_team_takes_its_turn_whatever_the_seating(batch):
    """805.4: teams take turns in turn order, each team placed by its first-seated player
    (as the default main phases of a World seated team by team go): seated A B B A C C,
    the default turns go A, B, C, A, ... and team C is not passed by."""
    w = World(two_headed_giant=True, batch=batch, seed=5)
    seats = (0, 1, 1, 0, 2, 2)
    players = [w.add_player(team=t) for t in seats]
    team = dict(zip(players, seats))
    w.begin_main_phase(players[0])
    turns = []
    for _ in range(4):
        w.begin_main_phase()
        turns.append({team[int(x)] for x in np.ravel(w.active_player())})
    assert turns == [{1}, {2}, {0}, {1}]


@pytest.mark.parametrize("batch", [2, 3])
def test_117_5_704_3_a_main_phase_checks_state_based_actions_in_its_selected_games_only(batch):
    """api.md: begin_main_phase checks state-based actions before and after the phase
    systems act, like any action in the games it selects only: a 0-toughness creature of
    a game not selected stays until that game is checked (704.5f)."""
    w, (p, _, _) = three(batch=batch)
    bear = w.add_object(p, "creature", power=2, toughness=2)
    w.put_counters(bear, "-1/-1", 2)
    w.begin_main_phase(p, games=[0])
    assert w.exists(bear).tolist() == [False] + [True] * (batch - 1)
    w.tick()
    assert not w.exists(bear).any()


@pytest.mark.parametrize("path", ["scalar", "general"])
@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("act, to_zone", [("draw", "hand"), ("mill", "graveyard")])
def test_121_1_701_17a_a_draw_or_a_mill_is_logged_as_what_it_is(act, to_zone, batch, path):
    """A card drawn (121.1) or milled (701.17a) leaves the library with that cause, one event
    per card in each game, on every path: a host's "whenever a card is milled" trigger is
    not a "whenever you draw" one."""
    w = World(batch=batch, seed=3)
    p = w.add_player()
    w.add_object(p, "creature", zone="library", power=1, toughness=1)
    w.add_object(p, "creature", zone="library", power=1, toughness=1)
    w.clear_events()
    with run_on(path):
        getattr(w, act)(p, 2)
    moved = [(e.game, e.from_zone, e.to_zone, e.cause) for e in w.events() if isinstance(e, ZoneChanged)]
    assert sorted(moved) == sorted([(g, "library", to_zone, act) for g in range(batch)] * 2)


def _deck_with_token(batch: int, ruleset: str = "mtg") -> tuple[World, int, list[int], int]:
    """Player p's library (GA deck) of c0, the token T, c1, c2, top first: T a creature
    token that was moved there from the battlefield (it exists until the next check, 704.5d)."""
    w = World(batch=batch, seed=3, ruleset=ruleset)
    p = w.add_player()
    kind = "ally" if ruleset == "grand_archive" else "creature"
    stats = {"power": 1, "life": 1} if ruleset == "grand_archive" else {"power": 1, "toughness": 1}
    cards = [w.add_object(p, "sorcery" if ruleset == "mtg" else "action", zone="library", name=f"c{i}")
             for i in range(3)]
    t = w.move_zone(w.add_object(p, kind, token=True, name="T", **stats), "library")
    w.order_library(p, [cards[0], t, cards[1], cards[2]])
    w.clear_events()
    return w, p, cards, t


def _names(w: World, ids) -> list[str]:
    return [w.name(int(x)) for x in ids]


@pytest.mark.parametrize("path", ["scalar", "general"])
@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("ruleset", ["mtg", "grand_archive"])
def test_111_8_704_5b_a_draw_that_finds_a_token_on_top_draws_nothing(ruleset, batch, path):
    """111.8: a token that left the battlefield can't change zones; it stays where it is.
    Cards are drawn one at a time (121.2): draw(p, 3) from c0, T, c1, c2 draws c0, then
    finds T on top twice and draws nothing (-1 in a batch's row), T staying on top; no
    event for T, and no loss, for the library was never empty (704.5b). The next check
    removes T (704.5d) and the next draw takes c1. The same in a Grand Archive deck (its
    rules say only that a destroyed token is removed from the game: Magic's rule here)."""
    w, p, cards, t = _deck_with_token(batch, ruleset)
    with run_on(path):
        out = w.draw(p, 3)
        rows = [out] if batch == 1 else out
        for g in range(batch):
            assert _names(w, [x for x in rows[g] if x >= 0]) == ["c0"]
            if batch > 1:
                assert rows[g][1:].tolist() == [-1, -1]
            assert w.library(p, game=g) == [t, cards[1], cards[2]]
        assert w.draw(p) == [] if batch == 1 else (w.draw(p) == -1).all()   # one card: T again
        assert [(e.old, e.to_zone) for e in w.events() if isinstance(e, ZoneChanged)] == [(cards[0], "hand")] * batch
        assert not w.store.a["drew_empty"].any()
        w.tick()
        assert not np.any(w.has_lost(p)) and not np.any(w.exists(t))
        assert _names(w, np.ravel(w.draw(p))) == ["c1"] * batch


@pytest.mark.parametrize("path", ["scalar", "general"])
@pytest.mark.parametrize("batch", [1, 2])
def test_111_8_701_17a_a_mill_leaves_a_token_among_the_top_cards_in_its_place(batch, path):
    """701.17a mills the top N cards at once; a token among them stays (111.8): mill(p, 3)
    from c0, T, c1, c2 mills c0 and c1 and leaves T on top of c2 (a batch's row: -1 in T's
    column), with no event for T; mill(p, 1) of T alone moves nothing."""
    w, p, cards, t = _deck_with_token(batch)
    with run_on(path):
        out = w.mill(p, 3)
        if batch == 1:
            assert _names(w, out) == ["c0", "c1"]
        else:
            for g in range(batch):
                assert out[g, 1] == -1 and _names(w, out[g, [0, 2]]) == ["c0", "c1"]
        for g in range(batch):
            assert w.library(p, game=g) == [t, cards[2]]
        assert w.mill(p) == [] if batch == 1 else (w.mill(p) == -1).all()
        moved = [(e.old, e.to_zone) for e in w.events() if isinstance(e, ZoneChanged)]
        assert sorted(moved) == sorted([(cards[0], "graveyard"), (cards[1], "graveyard")] * batch)


@pytest.mark.parametrize("path", ["scalar", "general"])
@pytest.mark.parametrize("act", ["draw", "mill"])
def test_111_8_704_5b_a_batch_draws_the_card_in_one_game_and_the_token_in_none(act, path):
    """A batch where player p's library is a token in game 0 (moved there from the
    battlefield) and a card in game 1: one draw (or mill) moves the card in game 1 and
    nothing in game 0 (-1 there), where the token stays (111.8) and no loss follows
    (704.5b: that library was not empty); the next check removes the token (704.5d)."""
    w = World(batch=2, seed=1)
    p, _ = w.add_player(), w.add_player()
    t = w.add_object(p, "creature", power=1, toughness=1, token=True)
    w.move_zone(t, "library", games=[0])
    card = w.add_object(p, "sorcery", zone="library", games=[1])
    [token_there] = w.library(p, game=0)
    w.clear_events()
    with run_on(path):
        out = getattr(w, act)(p)
    assert out.shape == (2, 1) and out[0, 0] == -1 and out[1, 0] >= 0
    moved = [(e.game, e.old, e.new, e.to_zone) for e in w.events() if isinstance(e, ZoneChanged)]
    assert moved == [(1, card, int(out[1, 0]), "hand" if act == "draw" else "graveyard")]
    assert w.library(p, game=0) == [token_there] and w.library(p, game=1) == []
    assert not w.store.a["drew_empty"].any()
    w.tick()
    assert not w.has_lost(p).any() and w.library(p, game=0) == []


@pytest.mark.parametrize("batch", [1, 2])
def test_107_1_111_8_a_bad_amount_with_a_token_in_the_library_raises_and_changes_nothing(batch):
    """A draw or mill of a bool amount raises InvalidCountError and changes nothing, with a
    token in the library too (its staying is no partial move)."""
    w, p, _, _ = _deck_with_token(batch)
    for act in (w.draw, w.mill):
        unchanged(w, lambda act=act: act(p, True), InvalidCountError)


def test_704_3_a_main_phase_of_some_games_does_not_check_a_settled_state_again(monkeypatch):
    """704.3: a batch whose state a tick left settled, unwritten since, is not checked again
    by the first check of a main phase begun in some of its games (every game is settled);
    the check after the turn player is set, a write, is made."""
    w = World(batch=3, seed=0)
    p, q = w.add_player(), w.add_player()
    w.add_objects(5, p, "creature", power=1, toughness=2)
    w.tick()
    made = []
    real = w.schedule._check
    monkeypatch.setattr(w.schedule, "_check", lambda *a: (made.append(1), real(*a))[1])
    w.begin_main_phase(q, games=[0, 2])
    assert made == [1]
    assert w.active_player().tolist() == [q, -1, q]
