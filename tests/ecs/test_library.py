"""Libraries (ecs.library): a library is its owner's (CR 400.3), ordered per game; cards
that arrive together stack in the order a game sees, alike in one game and in a batch
(401.4 leaves that order to the owner: the engine's choice is docs/api.md's)."""
from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from ga_helpers import unchanged

from ecs import IllegalActionError, InvalidCountError, InvalidGameError, World


def names(w: World, player: int, game: int = 0) -> list[str]:
    return [w.name(e) for e in w.library(player, game=game)]


def board(batch: int, spread: bool = False) -> tuple[World, int, int, int, int]:
    """Two players, a library of two, and creatures A then B. ``spread``: A and B sit in
    other slots in game 0 than in the other games (a token there died first)."""
    w = World(batch=batch, seed=3)
    p, q = w.add_player(), w.add_player()
    for i in range(2):
        w.add_object(p, "sorcery", zone="library", name=f"d{i}")
    if spread:
        t = w.add_object(p, "creature", power=1, toughness=1, token=True)
        w.sacrifice(t, games=[0])
        w.tick()   # the token ceases to exist (704.5d): its slot in game 0 is free
    a = w.add_object(p, "creature", power=1, toughness=1, name="A")
    b = w.add_object(p, "creature", power=1, toughness=1, name="B")
    return w, p, q, a, b


@pytest.mark.parametrize("batch,spread", [(1, False), (3, False), (3, True)])
def test_401_4_cards_put_into_a_library_together_stack_in_the_order_given(batch, spread):
    """A move of [B, A] to the library puts B, then A, at the bottom, in every game of a
    batch as in one game: whatever ids and slots the batch gives the new objects."""
    w, p, _, a, b = board(batch, spread)
    if spread:
        assert w.store.ids.any_spread(np.array([a]))
    w.move_zone([b, a], "library")
    for g in range(batch):
        assert names(w, p, g) == ["d0", "d1", "B", "A"]
    w.move_zone(w.add_object(p, "artifact", name="C"), "library")   # and a later one below them
    assert names(w, p) == ["d0", "d1", "B", "A", "C"]


@pytest.mark.parametrize("batch", [1, 3])
def test_401_4_simultaneous_deaths_sent_to_a_library_stack_alike_in_a_batch(batch):
    """Two creatures a host's replacement sends to the library (614.1a) die in one check
    (704.3): they go to the bottom by slot, the same in a batch as in one game."""
    w, p, _, a, b = board(batch)
    for e in (b, a):
        w.set_redirect(e, "library")
    w.deal_damage([b, a], 1)
    w.tick()
    for g in range(batch):
        assert names(w, p, g) == ["d0", "d1", "A", "B"]


def test_400_3_a_library_is_its_owners_whoever_controls_a_card_in_it():
    """A card in a library is in its owner's library (400.3), even under another player's
    control: it is drawn by its owner, never by the controller."""
    w = World(seed=1)
    p, q = w.add_player(), w.add_player()
    deck = [w.add_object(p, "sorcery", zone="library", name=f"d{i}") for i in range(2)]
    w.set_controller(deck[0], q)
    assert w.library(p) == deck and w.library(q) == []
    assert w.draw(q) == []
    [drawn] = w.draw(p)
    assert w.name(drawn) == "d0"


def test_arrivals_past_the_positions_range_renumber_the_library():
    """Positions count on past a library's last card; where they would pass the field's
    range the library is renumbered first, in the same order."""
    w = World(seed=1)
    p, _ = w.add_player(), w.add_player()
    deck = [w.add_object(p, "sorcery", zone="library", name=f"d{i}") for i in range(3)]
    col = w.store.present(0, deck[2])
    w.store.mut("position")[0, col] = np.iinfo(np.int32).max - 1   # the bottom card, far down
    w.move_zone([w.add_object(p, "artifact", name=n) for n in "XY"], "library")
    assert names(w, p) == ["d0", "d1", "d2", "X", "Y"]
    pos = w.store.a["position"][0, : w.store.n_cols]
    assert pos.max() < 10


@pytest.mark.parametrize("batch", [1, 2])
def test_121_2_cards_drawn_one_at_a_time_are_logged_and_numbered_in_the_order_drawn(batch):
    """121.2: a player who draws several cards draws them one at a time: draw(p, 3) logs
    its zone changes, and numbers the new objects, top card first, as three draws do. (The
    games here hold one order: a card moved in several games gets one new id in all of
    them, docs/design.md, so where the orders differ one game's new ids need not rise.)"""
    w = World(seed=1, batch=batch)
    p, _ = w.add_player(), w.add_player()
    cards = [w.add_object(p, "sorcery", zone="library", name=f"c{i}") for i in range(3)]
    w.order_library(p, cards[::-1])   # c2 on top
    w.clear_events()
    drawn = w.draw(p, 3)
    rows = drawn if batch > 1 else [drawn]
    for g in range(batch):
        assert [w.name(int(x)) for x in rows[g]] == ["c2", "c1", "c0"]
        moved = [e for e in w.events() if e.game == g]
        assert [e.old for e in moved] == cards[::-1]
        assert [e.new for e in moved] == sorted(e.new for e in moved)


def decks(sizes: list[int]) -> tuple[World, int, list[list[int]]]:
    """A batch of ``len(sizes)`` games where player p's library holds ``sizes[g]`` cards
    in game g (all made in every game, the extra ones milled), shuffled: each game's own
    order, top card first."""
    w = World(batch=len(sizes), seed=7)
    p, _ = w.add_player(), w.add_player()
    for i in range(max(sizes)):
        w.add_object(p, "sorcery", zone="library", name=f"c{i}",
                     games=[g for g, n in enumerate(sizes) if n > i])
    w.shuffle_library(p)
    return w, p, [w.library(p, game=g) for g in range(len(sizes))]


@pytest.mark.parametrize("act,zone", [("draw", "hand"), ("mill", "graveyard")])
def test_121_2_cards_drawn_or_milled_in_a_batch_return_in_the_order_drawn(act: str, zone: str):
    """121.2, 701.17a: ``draw``/``mill`` of several cards in a batch of libraries of other
    sizes, one amount per game: a (batch, largest amount) array of the new ids, each row
    its game's cards in the order they left the library (top first), -1 after them where
    the library ran out or the amount was smaller, and in games not selected."""
    sizes = [5, 2, 0, 4]
    w, p, libs = decks(sizes)
    names = [[w.name(e) for e in lib] for lib in libs]
    out = getattr(w, act)(p, np.array([3, 3, 2, 1]))
    assert isinstance(out, np.ndarray) and out.shape == (4, 3) and out.dtype == np.int64
    for g, n in enumerate([3, 3, 2, 1]):
        k = min(n, sizes[g])
        assert (out[g, k:] == -1).all(), g
        assert [w.name(int(e)) for e in out[g, :k]] == names[g][:k], g
        assert all(w.zone(int(e))[g] == zone for e in out[g, :k]), g
        assert w.library(p, game=g) == libs[g][k:], g
    assert w.store.a["drew_empty"][:, p].tolist() == ([False, True, True, False] if act == "draw"
                                                     else [False] * 4)
    w, p, libs = decks([6, 1, 5, 3])   # games 0 and 2, with their amounts
    out = getattr(w, act)(p, [2, 4], games=[2, 0])
    assert out.shape == (4, 4)
    assert (out[[1, 3]] == -1).all()
    assert [w.name(int(e)) for e in out[2, :2]] == [w.name(e) for e in libs[2][:2]]
    assert [w.name(int(e)) for e in out[0]] == [w.name(e) for e in libs[0][:4]]
    assert (out[2, 2:] == -1).all()
    assert w.library(p, game=1) == libs[1] and w.library(p, game=3) == libs[3]


@pytest.mark.parametrize("batch,n,games", [(1, 3, None), (1, 3, [0]), (1, 70, None), (3, 3, None),
                                          (3, 70, None), (3, 3, [2, 0])])
def test_401_4_objects_made_in_a_library_go_to_the_bottom_in_the_order_made(batch, n, games):
    """``add_objects(n, zone="library")``: the new cards arrive at the bottom (401.4), below
    the cards there, in the order made (the order of the ids returned), in one game (its
    few objects' path and its many's) as in a batch, where a token that died in game 0
    left its slots other than the other games'."""
    w = World(batch=batch, seed=3)
    p, q = w.add_player(), w.add_player()
    deck = [w.add_object(p, "sorcery", zone="library", name=f"d{i}") for i in range(2)]
    w.add_object(q, "sorcery", zone="library")   # (another library's arrivals count on too)
    t = w.add_object(p, "creature", power=1, toughness=1, token=True)
    w.sacrifice(t, games=[0])
    w.tick()   # the token ceases to exist (704.5d): its slot in game 0 is free
    made = w.add_objects(n, p, "sorcery", zone="library", games=games).tolist()
    assert made == sorted(made)
    later = w.add_object(p, "land", zone="library", games=games)
    for g in range(batch) if games is None else games:
        assert w.library(p, game=g) == deck + made + [later], g
    if batch > 1:
        w.order_library(p, (deck + made + [later])[::-1], games=games)
        more = w.add_objects(2, p, "land", zone="library", games=games).tolist()
        for g in range(batch) if games is None else games:
            assert w.library(p, game=g) == (deck + made + [later])[::-1] + more, g


def test_401_4_a_shuffle_orders_each_games_library_at_random_and_no_other():
    """``shuffle_library`` puts the player's library of each selected game in a random
    order of the World's generator, each game its own: of 10 cards (10! orders) no two of
    four games come out alike, nor in the order they were made; the other player's library
    and an unselected game keep theirs, and a card that arrives after goes to the bottom."""
    w = World(batch=5, seed=7)
    p, q = w.add_player(), w.add_player()
    made = [w.add_object(p, "sorcery", zone="library") for _ in range(10)]
    theirs = [w.add_object(q, "sorcery", zone="library") for _ in range(3)]
    w.shuffle_library(p, games=[0, 1, 2, 3])
    libs = [w.library(p, game=g) for g in range(5)]
    assert all(sorted(lib) == made for lib in libs)
    assert len({tuple(lib) for lib in libs[:4]}) == 4 and made not in libs[:4]
    assert libs[4] == made
    assert all(w.library(q, game=g) == theirs for g in range(5))
    last = w.add_object(p, "land", zone="library")
    assert [w.library(p, game=g) for g in range(5)] == [lib + [last] for lib in libs]


def test_701_17a_milling_an_empty_library_is_no_draw():
    """Milling from an empty library mills nothing and, not being a draw, never makes the
    player lose (704.5b is for draws): one card or several, in one game or a batch."""
    for batch in (1, 2):
        w = World(batch=batch, seed=1)
        p, _ = w.add_player(), w.add_player()
        out = w.mill(p)
        assert out == [] if batch == 1 else np.all(out == -1)
        assert np.all(w.mill(p, 3) == -1) if batch > 1 else w.mill(p, 3) == []
        assert w.tick() == 0 and not np.any(w.has_lost(p))


@pytest.mark.parametrize("batch", [1, 2])
def test_401_order_library_takes_exactly_that_library(batch):
    """``order_library`` takes every card of the player's library exactly once: a list
    as long as the library that names a card of the player's hand, or of the other
    player's library, in place of one of its cards raises, naming the ids, the player and
    the game, and changes nothing; so does a library that differs in the selected game."""
    w = World(batch=batch, seed=3)
    p, q = w.add_player(), w.add_player()
    deck = [w.add_object(p, "sorcery", zone="library") for _ in range(3)]
    hand = w.add_object(p, "sorcery", zone="hand")
    other = w.add_object(q, "sorcery", zone="library")
    for stray in (hand, other):
        ids = [deck[0], stray, deck[2]]
        err = unchanged(w, lambda ids=ids: w.order_library(p, ids), IllegalActionError)
        assert f"ids {ids} are not exactly the library of player {p} in game 0" in str(err)
    if batch > 1:
        w.mill(p, games=[1])   # game 1's library: deck[1:]
        err = unchanged(w, lambda: w.order_library(p, deck[::-1], games=[1]), IllegalActionError)
        assert f"library of player {p} in game 1" in str(err)
        w.order_library(p, deck[::-1], games=[0])
        assert w.library(p, game=0) == deck[::-1] and w.library(p, game=1) == deck[1:]


def test_121_1_a_draw_or_mill_takes_only_the_selected_games():
    """``games`` selects where a one-card draw or mill acts, in a World of one game as in
    a batch: no game selected, nothing moves; a game that isn't there raises
    InvalidGameError and changes nothing. A huge amount returns no wider an array than
    the World has slots (the library runs out first)."""
    w = World(seed=1)
    p, _ = w.add_player(), w.add_player()
    deck = [w.add_object(p, "sorcery", zone="library") for _ in range(3)]
    for act in (w.draw, w.mill):
        assert act(p, games=[]) == []
        unchanged(w, lambda act=act: act(p, games=[1]), InvalidGameError)
    assert w.library(p) == deck and not w.store.a["drew_empty"].any()
    b = World(batch=2, seed=1)
    p, _ = b.add_player(), b.add_player()
    [b.add_object(p, "sorcery", zone="library") for _ in range(3)]
    out = b.draw(p, 1000)
    assert out.shape == (2, 3 + 2) and (out[:, 3:] == -1).all()   # (3 cards, 2 players' slots)
    assert b.store.a["drew_empty"][:, p].all()


@pytest.mark.parametrize("batch", [1, 3])
def test_a_library_read_of_a_game_that_isnt_there_raises_invalid_game(batch):
    """``library(player, game)`` reads one of the World's games: an index past the last
    (or below 0) raises InvalidGameError, not an index error."""
    w = World(batch=batch, seed=1)
    p = w.add_player()
    deck = [w.add_object(p, "sorcery", zone="library") for _ in range(2)]
    assert w.library(p, game=batch - 1) == deck
    for game in (batch, -1):
        with pytest.raises(InvalidGameError):
            w.library(p, game=game)


@pytest.mark.parametrize("act", ["draw", "mill"])
def test_121_1_701_17a_drawing_or_milling_no_cards_in_a_batch_returns_no_columns(act):
    """``draw``/``mill`` in a batch return a (batch, largest amount) array: of 0 cards, or
    of no game selected, that is (batch, 0), and nothing moves."""
    w = World(batch=2, seed=1)
    p = w.add_player()
    deck = [w.add_object(p, "sorcery", zone="library") for _ in range(3)]
    for kwargs in (dict(n=0), dict(games=[])):
        out = getattr(w, act)(p, **kwargs)
        assert out.shape == (2, 0) and out.dtype == np.int64
    assert [w.library(p, game=g) for g in (0, 1)] == [deck, deck]


def test_401_4_arrivals_in_a_batch_count_on_from_each_games_own_highest_position():
    """Cards arriving in several games of a batch together take their positions from
    their own game's highest and count on by their own game's arrivals: a game whose last
    card sits two below the field's range takes two more below it, in order, whatever
    arrives in the other games."""
    w = World(batch=2, seed=1)
    p, _ = w.add_player(), w.add_player()
    deck = [w.add_object(p, "sorcery", zone="library", name=f"d{i}") for i in range(3)]
    top = np.iinfo(np.int32).max
    w.store.mut("position")[1, w.store.present(1, deck[2])] = top - 2   # far down in game 1 only
    w.move_zone([w.add_object(p, "artifact", name=n) for n in "XY"], "library")
    assert names(w, p, 0) == names(w, p, 1) == ["d0", "d1", "d2", "X", "Y"]


@pytest.mark.parametrize("batch", [1, 2])
def test_107_1_a_draw_or_mill_of_a_bool_amount_raises_and_changes_nothing(batch):
    """An amount is an integer (107.1): ``draw(p, True)`` or ``mill(p, True)`` raises
    InvalidCountError and moves nothing, on a World of one game (whose one-card draw takes
    a path of its own) as in a batch."""
    w = World(batch=batch, seed=1)
    p = w.add_player()
    deck = [w.add_object(p, "sorcery", zone="library") for _ in range(3)]
    for act in (w.draw, w.mill):
        unchanged(w, lambda act=act: act(p, True), InvalidCountError)
    assert w.library(p) == deck


def _library_read_peak(graveyard: int) -> int:
    """Peak bytes of one read of a 20-card library (and one draw from it) beside
    ``graveyard`` cards in the graveyard; the read returns the cards in order."""
    w = World(seed=0)
    me = w.add_player()
    w.add_objects(graveyard, me, "creature", zone="graveyard", power=1, toughness=1)
    deck = [w.add_object(me, "creature", zone="library", power=1, toughness=1) for _ in range(20)]
    snap = w.snapshot()
    w.draw(me)
    w.restore(snap)
    tracemalloc.start()
    try:
        got = w.library(me)
        w.draw(me)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got == deck
    return peak


def test_401_a_library_read_sorts_its_cards_not_the_graveyards_beside_it() -> None:
    """A self-play game fills its graveyards: reading a library (top first, 401.4) or
    drawing from it (121.2) orders that library's cards, so what it allocates per card
    elsewhere is a byte or so of masks, not a sort of every object of the game."""
    small, large = _library_read_peak(2_000), _library_read_peak(20_000)
    assert large - small < 8 * 18_000, (small, large)
