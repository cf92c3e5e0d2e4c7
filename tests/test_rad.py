"""MTG rad counters: CR 728 "Rad Counters" (726/727 in older editions), 505.1/505.1a,
704.5a/704.5b, with the library order, draw and mill of ecs.turns."""
from __future__ import annotations

import numpy as np
import pytest
from ga_helpers import unchanged

from ecs import IllegalActionError, PlayerLost, World, ZoneChanged
from ecs.turns import InvalidPhaseError


def library(w, p, pattern):
    """Cards from the top: "L" a land, "S" a nonland (sorcery)."""
    return [w.add_object(p, "land" if ch == "L" else "sorcery", zone="library", name=f"{ch}{i}")
            for i, ch in enumerate(pattern)]


def mtg(batch=1, players=2):
    w = World(batch=batch, seed=5)
    return w, [w.add_player() for _ in range(players)]


def test_728_1_mill_then_lose_life_and_rad_per_nonland():
    """728.1: mill as many cards as rad counters; for each nonland card milled lose 1 life
    and remove one rad counter."""
    w, (p, _) = mtg()
    cards = library(w, p, "SLSLSS")
    w.put_counters(p, "rad", 4)
    w.clear_events()
    w.begin_main_phase(p)
    assert w.life(p) == 18 and w.counters(p) == {"rad": 2}
    assert [w.name(x) for x in w.objects("graveyard")] == ["S0", "L1", "S2", "L3"]
    assert w.library(p) == cards[4:]
    causes = {(type(e).__name__, e.cause) for e in w.events()}
    assert causes == {("ZoneChanged", "mill"), ("CounterChanged", "rad")}
    assert len(set(w.event_table()["step"].tolist())) == 1


def test_728_1_short_library_mills_what_there_is():
    """728.1 with 101.3: a library shorter than the rad count mills all of it; milling is
    not drawing, so the player does not lose for the empty library (704.5b)."""
    w, (p, _) = mtg()
    library(w, p, "SL")
    w.put_counters(p, "rad", 5)
    w.begin_main_phase(p)
    assert w.life(p) == 19 and w.counters(p) == {"rad": 4} and w.library(p) == []
    assert not w.has_lost(p)


def test_505_1a_postcombat_main_phase_does_nothing():
    """505.1a and 728.1: only the precombat main phase triggers."""
    w, (p, _) = mtg()
    library(w, p, "SS")
    w.put_counters(p, "rad", 2)
    w.begin_main_phase(p, precombat=False)
    assert w.life(p) == 20 and w.counters(p) == {"rad": 2} and len(w.library(p)) == 2


def test_728_1_life_lost_from_radiation_can_lose_the_game():
    """728.1 then 704.5a: the life loss is checked at the next state-based check."""
    w, (p, q) = mtg()
    library(w, p, "SSS")
    w.lose_life(p, 18)
    w.put_counters(p, "rad", 3)
    w.begin_main_phase(p)
    assert w.life(p) == -1 and w.has_lost(p) and w.result() == q


def test_728_1_only_the_active_players_rad_counters():
    """728.1: "each player's precombat main phase, if that player has ..."."""
    w, (p, q) = mtg()
    library(w, p, "SS")
    library(w, q, "SS")
    w.put_counters(p, "rad", 1)
    w.put_counters(q, "rad", 1)
    w.begin_main_phase(q)
    assert w.counters(p) == {"rad": 1} and w.life(p) == 20
    assert w.counters(q) == {} and w.life(q) == 19


def test_no_rad_counters_no_trigger():
    """728.1: "if that player has one or more rad counters"."""
    w, (p, _) = mtg()
    library(w, p, "SS")
    w.clear_events()
    w.begin_main_phase(p)
    assert w.events() == [] and len(w.library(p)) == 2


def test_728_1_vectorized_over_a_batch_with_shuffled_libraries():
    """728.1 in a batch: each game mills its own top cards."""
    w, (p, _) = mtg(batch=4)
    library(w, p, "SLSLSL")
    w.shuffle_library(p)
    libs = [w.library(p, game=g) for g in range(4)]
    tops = [lib[:3] for lib in libs]
    w.put_counters(p, "rad", np.array([0, 1, 2, 3]))
    w.begin_main_phase(p)
    nonland = [sum(w.name(x).startswith("S") for x in tops[g][:n]) for g, n in enumerate(range(4))]
    assert w.life(p).tolist() == [20 - k for k in nonland]
    assert w.count(p, "rad").tolist() == [n - k for n, k in zip(range(4), nonland)]
    for g in range(4):
        assert w.library(p, game=g) == libs[g][g:]


def test_810_two_headed_giant_life_loss_is_the_teams():
    """728.1 with 810.8/810.10: life is the team's; rad counters are the player's own."""
    w = World(two_headed_giant=True)
    a, b = w.add_player(team=0), w.add_player(team=0)
    w.add_player(team=1)
    library(w, b, "SS")
    w.put_counters(b, "rad", 2)
    w.begin_main_phase(b)
    assert w.life(a) == w.life(b) == 28 and w.counters(b) == {} and w.counters(a) == {}


def test_704_5b_drawing_from_an_empty_library_loses():
    """121.1 / 704.5b: drawing takes the top card; a draw from an empty library loses at
    the next check."""
    w, (p, q) = mtg()
    cards = library(w, p, "SL")
    w.order_library(p, [cards[1], cards[0]])
    drawn = w.draw(p, 1)
    assert [w.name(x) for x in drawn] == ["L1"] and w.zone(drawn[0]) == "hand"
    w.draw(p, 2)
    assert not w.has_lost(p)
    w.tick()
    assert w.has_lost(p) and w.result() == q


@pytest.mark.parametrize("batch", [1, 2])
def test_810_8a_a_player_drawing_from_an_empty_library_loses_with_the_team(batch):
    """704.5b in Two-Headed Giant: players lose only as a team (810.8a), so the teammate
    of a player who drew from an empty library loses too, and the other team wins."""
    w = World(batch=batch, two_headed_giant=True)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    b1, b2 = w.add_player(team=1), w.add_player(team=1)
    library(w, a1, "S")
    w.draw(b2, games=[0])
    w.tick()
    assert [bool(np.ravel(w.has_lost(x))[0]) for x in (a1, a2, b1, b2)] == [False, False, True, True]
    assert int(np.ravel(w.result())[0]) == a1
    if batch == 2:   # the other game, with no empty draw, goes on
        assert not w.has_lost(b1)[1] and not w.has_lost(b2)[1] and w.result()[1] == -1
    lost = [e for e in w.events() if isinstance(e, PlayerLost)]
    assert {e.player for e in lost} == {b1, b2} and {e.cause for e in lost} == {"draw"}


def test_library_order_bad_input_changes_nothing():
    w, (p, q) = mtg()
    cards = library(w, p, "SLS")
    unchanged(w, lambda: w.order_library(p, cards[:2]), IllegalActionError)
    unchanged(w, lambda: w.order_library(p, [cards[0]] * 3), IllegalActionError)
    unchanged(w, lambda: w.begin_main_phase(p, precombat="third"), InvalidPhaseError)
    w.order_library(p, cards[::-1])
    assert w.library(p) == cards[::-1]
    new = w.add_object(p, "land", zone="library")
    assert w.library(p) == cards[::-1] + [new]          # arrivals go to the bottom


def test_rad_is_an_mtg_rule_only():
    """728 is a Magic rule: in the grand_archive ruleset a rad counter is generic."""
    w = World(ruleset="grand_archive")
    p, _ = w.add_player(), w.add_player()
    w.add_object(p, "champion", life=20)
    w.add_object(p, "action", zone="deck")
    w.put_counters(p, "rad", 1)
    w.begin_main_phase(p)
    assert w.counters(p) == {"rad": 1} and len(w.library(p)) == 1


@pytest.mark.parametrize("batch", [1, 2])
def test_728_1_rad_life_loss_stops_at_the_life_bound(batch, tmp_path):
    """A player who can't lose, at -MAX_LIFE, mills nonland cards to rad (728.1): the life
    loss stops at the bound every action keeps, so the World saves and loads again (a total
    past it is one no file may hold)."""
    from ecs.limits import MAX_LIFE
    w = World(batch=batch, seed=5)
    p = w.add_player(life=-MAX_LIFE)
    w.add_player()
    library(w, p, "SSS")
    w.put_counters(p, "rad", 3)
    w.set_cant_lose(p, "life")
    w.begin_main_phase(p)
    assert np.all(w.life(p) == -MAX_LIFE) and np.all(w.count(p, "rad") == 0)
    w.save(tmp_path / "w.npz")
    assert np.all(World.load(tmp_path / "w.npz").life(p) == -MAX_LIFE)


def thg(batch=1):
    """A Two-Headed Giant game seated a1, b1, a2, b2 (teams 0 and 1)."""
    w = World(two_headed_giant=True, batch=batch, seed=5)
    return w, [w.add_player(team=t) for t in (0, 1, 0, 1)]


@pytest.mark.parametrize("batch", [1, 3])
def test_728_1_805_4_each_player_of_the_active_team_has_its_rad_trigger(batch):
    """805.4: teams take turns, so the team's precombat main phase is each of its players';
    728.1 triggers once per player with rad counters, each resolving on its own (the
    first-seated player's first, 805.2) with state-based actions checked between (117.5);
    the life lost is the team's (810.8)."""
    w, (a1, b1, a2, b2) = thg(batch)
    library(w, a1, "SL")
    library(w, a2, "S")
    w.put_counters(a1, "rad", 2)
    w.put_counters(a2, "rad", 1)
    w.clear_events()
    w.begin_main_phase(a2)
    assert np.all(w.life(a1) == 28) and np.all(w.life(b1) == 30)
    assert np.all(w.count(a1, "rad") == 1) and np.all(w.count(a2, "rad") == 0)   # (a land milled)
    t = w.event_table()
    rad = t["kind"] >= 0
    step_of = {p: set(t["step"][rad & (t["entity"] == p)].tolist()) for p in (a1, a2)}
    assert len(step_of[a1]) == len(step_of[a2]) == 1 and min(step_of[a1]) < min(step_of[a2])
    assert np.all(w.active_player() == a1)


@pytest.mark.parametrize("batch", [1, 3])
def test_728_1_a_team_the_first_trigger_kills_resolves_no_second(batch):
    """The check after the first rad trigger (117.5, 704.6a) ends the game: the second
    player mills nothing."""
    w, (a1, b1, a2, b2) = thg(batch)
    library(w, a1, "S")
    cards = library(w, a2, "S")
    w.put_counters(a1, "rad", 1)
    w.put_counters(a2, "rad", 1)
    w.lose_life(a1, 29)
    w.begin_main_phase(a2)   # (the team's turn: a1's trigger first)
    assert np.all(w.has_lost(a1)) and np.all(w.has_lost(a2)) and np.all(w.count(a2, "rad") == 1)
    assert all(w.library(a1, game=g) == [] and w.library(a2, game=g) == cards for g in range(batch))


@pytest.mark.parametrize("seats", [(0, 1, 0, 1), (0, 0, 1, 1)])
@pytest.mark.parametrize("batch", [1, 3])
def test_805_4_the_next_main_phase_is_the_next_teams(batch, seats):
    """805.4: the default next turn is the next player in turn order not on the current
    turn's team (not the teammate), and every player of that team is a turn player;
    ``active_player()`` names the team's first-seated player."""
    w = World(two_headed_giant=True, batch=batch, seed=5)
    players = [w.add_player(team=t) for t in seats]
    first = {t: players[seats.index(t)] for t in (0, 1)}
    team_of = dict(zip(players, seats))
    w.begin_main_phase(players[3])
    turns = [int(np.ravel(w.active_player())[0])]
    for _ in range(4):
        w.begin_main_phase()
        turns.append(int(np.ravel(w.active_player())[0]))
    t = team_of[players[3]]
    assert turns == [first[t], first[1 - t], first[t], first[1 - t], first[t]]
    want = [team_of[p] == t for p in players]
    assert w.store.a["active"].tolist() == [want] * batch


@pytest.mark.parametrize("batch", [1, 2])
def test_505_1_the_first_main_phase_is_the_precombat_one_the_second_the_postcombat_one(batch):
    """505.1: a turn's first main phase is its precombat main phase, the second its
    postcombat one: ``precombat`` takes either name, or True/False; only the precombat one
    has the rad trigger (728.1, 505.1a). Anything else (another phase, another spelling, a
    number) raises InvalidPhaseError and changes nothing."""
    for phase, pre in [(True, True), ("precombat", True), ("first", True), (np.True_, True),
                       (False, False), ("postcombat", False), ("second", False), (np.False_, False)]:
        w, (p, q) = mtg(batch)
        library(w, p, "SS")
        w.put_counters(p, "rad", 1)
        w.begin_main_phase(p, precombat=phase)
        assert np.all(w.active_player() == p), phase
        assert np.all(w.count(p, "rad") == 1 - pre) and np.all(w.life(p) == 20 - pre), phase
        assert all(len(w.library(p, game=g)) == 2 - pre for g in range(batch)), phase
    w, (p, q) = mtg(batch)
    library(w, p, "SS")
    w.put_counters(p, "rad", 1)
    for bad in ("third", "First", "SECOND", "Precombat", "post-combat", "main", "combat", "",
                1, 0, 1.0, np.int64(1), None, [True]):
        err = unchanged(w, lambda bad=bad: w.begin_main_phase(p, precombat=bad), InvalidPhaseError)
        assert repr(bad) in str(err)
        unchanged(w, lambda bad=bad: w.begin_main_phase(precombat=bad), InvalidPhaseError)


def thg_turns(w, calls):
    """The turn players' flags (games, players) and ``active_player()`` of each game after
    each of ``calls`` default ``begin_main_phase()`` calls."""
    out = []
    for _ in range(calls):
        w.begin_main_phase()
        out.append((w.store.a["active"].tolist(), np.ravel(w.active_player()).tolist()))
    return out


@pytest.mark.parametrize("seats", [(0, 1, 0, 1), (1, 0, 1, 0), (0, 0, 1, 1), (0, 1, 1, 0),
                                   (0, 1, 2, 0, 1, 2)])
def test_805_4_default_main_phases_in_a_batch_are_those_of_single_games(seats):
    """805.4 (teams take turns) before any turn: the first default main phase is the team's
    of the first seated player still in the game (turn order is seat order, player index
    order); in a Two-Headed Giant batch as in single games of the same setup (each game of a batch
    its own turns), and so are the next ones. With three teams the first seated team has
    lost in game 1 before any turn, and turns pass it by."""
    batch = 3
    three = len(set(seats)) > 2

    def setup(games):   # the World of ``games`` (indices into the batch of ``batch``)
        w = World(two_headed_giant=True, batch=len(games), seed=5)
        players = [w.add_player(team=t) for t in seats]
        out = [i for i, g in enumerate(games) if three and g == 1]
        if out:
            w.lose_life(players[0], 30, games=out)   # (the team's life: 2 x 15)
            w.tick()
        return w, players

    w, players = setup(list(range(batch)))
    got = thg_turns(w, 5)
    for g in range(batch):
        one, _ = setup([g])
        assert [(flags[g], heads[g]) for flags, heads in got] == [
            (flags[0], heads[0]) for flags, heads in thg_turns(one, 5)], g
    team = dict(zip(players, seats))
    first = {t: players[seats.index(t)] for t in set(seats)}
    order = [seats[0], *sorted(set(seats) - {seats[0]}, key=seats.index)]   # teams in turn order
    for g in range(batch):
        teams = order[1:] if three and g == 1 else order
        want = [first[teams[k % len(teams)]] for k in range(5)]
        assert [heads[g] for _, heads in got] == want, g
        assert [flags[g] for flags, _ in got] == [
            [team[p] == team[h] for p in players] for h in want], g


@pytest.mark.parametrize("size", [1, 2])
@pytest.mark.parametrize("batch", [1, 3])
def test_805_4_a_world_of_one_team_takes_every_turn(batch, size):
    """805.4 with one team: turns go to the next team in turn order, and the only team is
    its own next, so every default main phase is its turn again (as one player's World of
    normal play takes every turn): each a new turn, whose rad trigger acts (728.1)."""
    w = World(two_headed_giant=True, batch=batch, seed=5)
    players = [w.add_player(team=0) for _ in range(size)]
    library(w, players[-1], "SSS")
    for k in range(3):
        w.put_counters(players[-1], "rad", 1)
        w.begin_main_phase()
        assert np.all(w.active_player() == players[0])
        assert w.store.a["active"].tolist() == [[True] * size] * batch
        assert np.all(w.life(players[0]) == 15 * size - 1 - k)
    assert all(w.library(players[-1], game=g) == [] for g in range(batch))
    w.begin_main_phase(players[-1], precombat="second")
    w.begin_main_phase()
    assert np.all(w.active_player() == players[0]) and w.ongoing.all()


@pytest.mark.parametrize("batch", [1, 2])
def test_704_5b_a_player_who_lost_is_not_lost_again(batch):
    """704.5b with three players: a player who drew from an empty library loses once, and
    the game goes on; the flag stays, and later checks find nothing more to do for them
    (a player who has lost leaves the game, 800.4a). A player who lost another way and
    then draws from an empty library is not lost again either."""
    w, (p, q, r) = mtg(batch, players=3)
    w.draw(p)
    assert w.tick() == 1
    assert np.all(w.has_lost(p)) and w.ongoing.all()
    lost = [(e.game, e.player, e.cause) for e in w.events() if isinstance(e, PlayerLost)]
    assert lost == [(g, p, "draw") for g in range(batch)]
    assert w.tick() == 0
    w.begin_main_phase(q)   # (its checks too)
    assert sum(isinstance(e, PlayerLost) for e in w.events()) == batch
    w, (p, q, r) = mtg(batch, players=3)
    w.lose_life(p, 20)
    w.tick()
    w.clear_events()
    w.draw(p, 2)
    assert w.tick() == 0 and w.events() == []
    assert w.ongoing.all() and not np.any(w.has_lost(q)) and not np.any(w.has_lost(r))
    w.draw(q)   # (a later draw from an empty library: that player loses, once)
    assert w.tick() == 1
    assert [(e.player, e.cause) for e in w.events() if isinstance(e, PlayerLost)] == [(q, "draw")] * batch
    assert np.all(w.result() == r)


def test_ga_ending_the_game_5_a_player_who_lost_is_not_lost_again():
    """GA Ending the Game 5, the Grand Archive's empty draw, with three players: one loss,
    and later checks (a main phase's too) find nothing more to do."""
    w = World(ruleset="grand_archive")
    players = [w.add_player() for _ in range(3)]
    for p in players:
        w.add_object(p, "champion", life=20)
    w.draw(players[0])
    w.tick()   # (and their champion leaves the game with them)
    assert w.has_lost(players[0]) and w.ongoing.all()
    assert w.tick() == 0
    w.begin_main_phase(players[1])
    assert [e.player for e in w.events() if isinstance(e, PlayerLost)] == [players[0]]


def thg3(batch=1):
    """A Two-Headed Giant game of three teams seated a1, b1, c1, a2, b2, c2."""
    w = World(two_headed_giant=True, batch=batch, seed=5)
    return w, [w.add_player(team=t) for t in (0, 1, 2, 0, 1, 2)]


@pytest.mark.parametrize("batch", [1, 3])
def test_728_1_a_player_who_lost_has_no_rad_trigger(batch):
    """Three teams: the first rad trigger of team A's main phase takes the team's last life
    and the check after it (117.5, 704.5a) makes both players lose (810.8a); the game goes
    on between B and C, and a2's trigger does nothing (a player who left the game, 800.4a):
    no mill, no life lost, no rad counter removed. In a batch where a1's trigger leaves
    game 1 its life, a2's acts there."""
    w, (a1, b1, c1, a2, b2, c2) = thg3(batch)
    library(w, a1, "S")
    cards = library(w, a2, "SS")
    w.put_counters(a1, "rad", 1)
    w.put_counters(a2, "rad", 2)
    last = [g for g in range(batch) if g != 1]
    w.lose_life(a1, 29, games=last)
    w.clear_events()
    w.begin_main_phase(a1)
    for g in range(batch):
        life, rad = np.ravel(w.life(a1))[g], np.ravel(w.count(a2, "rad"))[g]
        lib = w.library(a2, game=g)
        if g in last:
            assert np.ravel(w.has_lost(a2))[g] and w.ongoing[g]
            assert life == 0 and rad == 2 and lib == cards
        else:
            assert life == 30 - 1 - 2 and rad == 0 and lib == []
    assert np.all(w.life(b1) == 30) and np.all(w.life(c1) == 30)
    moved = [e.old for e in w.events() if isinstance(e, ZoneChanged) and e.game in last]
    assert len(moved) == len(last)   # (a1's card alone)


@pytest.mark.parametrize("batch", [1, 3])
def test_728_1_rad_of_a_player_who_lost_at_the_phase_system(batch):
    """The rad system itself, run for the main phases of a player who has lost and of one
    still in (three players, the game going on): it decides nothing for the first."""
    from ecs.schedule import begin_phase
    w, (p, q, r) = mtg(batch, players=3)
    cards = library(w, p, "SS")
    w.put_counters(p, "rad", 2)
    w.put_counters(q, "rad", 1)
    library(w, q, "S")
    w.lose_life(p, 20)
    w.tick()
    w.clear_events()
    games = np.arange(batch)
    index = np.repeat(np.array([p, q], np.int64), batch)   # (the players' indices: their ids here)
    begin_phase(w, w.schedule, np.r_[games, games], index, None)
    assert np.all(w.count(p, "rad") == 2) and np.all(w.life(p) == 0)
    assert all(w.library(p, game=g) == cards for g in range(batch))
    assert np.all(w.count(q, "rad") == 0) and np.all(w.life(q) == 19)


def test_728_1_rad_of_a_player_seated_after_an_object_was_made():
    """728.1: the trigger reads the rad counters of the player whose main phase it is, on
    that player's own column (a player added after an object sits past it)."""
    w = World(seed=5)
    p = w.add_player()
    w.add_object(p, "artifact")
    q = w.add_player()
    library(w, q, "SS")
    w.put_counters(q, "rad", 2)
    w.begin_main_phase(q)
    assert w.life(q) == 18 and w.counters(q) == {} and w.library(q) == []


def test_728_1_in_a_batch_a_game_whose_library_is_empty_mills_nothing():
    """728.1 with 101.3: in a batch, the player with rad counters mills their nonland card
    in game 0 and loses 1 life there; in game 1 their library is empty, nothing is milled
    and nothing changes."""
    w, (p, _) = mtg(batch=2)
    w.add_object(p, "sorcery", zone="library", games=[0])
    w.put_counters(p, "rad", 1)
    w.begin_main_phase(p)
    assert w.life(p).tolist() == [19, 20] and w.count(p, "rad").tolist() == [0, 1]
