"""Slots per game (ecs.store) and the id index (ecs.ids): a store's columns follow what
each game holds at once, ids stay what they were to the user (never reused, stale ids
raise, an id may name objects in several games), and the index drops what no game holds.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ecs import StaleEntityError, World
from ecs.ids import PAGE, IdIndex


def _world(batch=3):
    w = World(batch=batch, seed=0)
    return w, w.add_player(), w.add_player()


def test_400_7_a_zone_change_keeps_the_slot_under_a_new_id():
    w, p, _ = _world()
    bear = w.add_object(p, "creature", power=2, toughness=2, counters={"+1/+1": 1})
    col, n = int(w.store.columns([bear])[0]), w.store.n_cols
    card = w.move_zone(bear, "graveyard", games=[1])
    assert card != bear and int(w.store.columns([card])[0]) == col
    assert w.store.n_cols == n                              # nothing allocated
    assert w.zone(bear).tolist() == ["battlefield", "none", "battlefield"]
    assert w.zone(card).tolist() == ["none", "graveyard", "none"]
    assert w.count(card, "+1/+1").tolist() == [0, 0, 0]     # 122.2: counters cease to exist
    assert w.power(card).tolist() == [0, 2, 0]              # the card's characteristics
    with pytest.raises(StaleEntityError, match="game 1"):
        w.put_counters(bear, "+1/+1", 1)


def test_704_5d_a_token_frees_its_slot_for_that_games_next_object_only():
    w, p, _ = _world()
    tok = w.add_object(p, "creature", power=1, toughness=1, token=True)
    col = int(w.store.columns([tok])[0])
    w.destroy(tok, games=[0])
    w.tick()                                    # the token ceases to exist in game 0
    assert w.exists(tok).tolist() == [False, True, True]
    n = w.store.n_cols
    mine = w.add_object(p, "artifact", games=[0])
    assert int(w.store.columns([mine])[0]) == col and w.store.n_cols == n   # reused
    both = w.add_object(p, "artifact", games=[0, 1])   # no column free in both: a new one
    assert int(w.store.columns([both])[0]) == n and w.store.n_cols == n + 1
    assert w.exists(tok).tolist() == [False, True, True]    # the other games keep the token
    assert w.zone(mine).tolist() == ["battlefield", "none", "none"]
    assert w.counters(tok) == {} and w.power(tok).tolist() == [0, 1, 1]


def test_a_freed_slot_holds_nothing_of_its_old_object():
    """Every field of a freed slot is back to its fill value: the next object starts
    clean (no counters, caps, host effects, control change or tapped state)."""
    w, p, q = _world(batch=1)
    tok = w.add_object(p, "creature", power=1, toughness=5, token=True, keywords=["flying"],
                       counters={"charge": 2}, caps={"charge": 3})
    w.set_controller(tok, q)
    w.modify_pt(tok, 1, 1)
    w.tap(tok)
    w.prohibit(tok, "+1/+1")
    w.move_zone(tok, "exile")
    w.tick()
    new = w.add_object(p, "artifact")
    assert int(w.store.columns([new])[0]) == int(w.store.columns([tok])[0])
    assert w.counters(new) == {} and not w.is_tapped(new) and w.controller(new) == p
    assert w.keywords(new) == frozenset() and not w.is_prohibited(new, "+1/+1")
    w.put_counters(new, "charge", 5)          # the token's cap ended with it (122.4)
    assert w.count(new, "charge") == 5


def test_columns_stay_bounded_over_a_long_churn():
    """A hundred rounds of cards dying and returning and tokens coming and going in every
    game, each game choosing its own: the width stays what a game holds plus slack."""
    w, p, _ = _world(batch=4)
    rng = np.random.default_rng(0)
    cards = np.broadcast_to(w.add_objects(10, p, "creature", power=2, toughness=2), (4, 10)).copy()
    rows = np.arange(4)[:, None]
    for _ in range(100):
        dies = np.argsort(rng.random((4, 10)), axis=1)[:, :2]
        gone = np.reshape(w.move_zone(cards[rows, dies], "graveyard"), (4, 2))
        cards[rows, dies] = np.reshape(w.move_zone(gone, "battlefield"), (4, 2))
        tok = w.add_objects(2, p, "creature", power=1, toughness=1, token=True)
        w.destroy(np.broadcast_to(tok, (4, 2)))
        w.tick()
    assert w.store.n_cols <= 2 + 10 + 2 * 2       # players, cards, tokens of one round
    assert w.store.next_id > 800                   # while the history grew


def test_the_id_index_drops_pages_no_game_holds():
    """Ids made and gone by the thousand: the index keeps the pages of the ids in some
    slot (and the newest), not one entry per id ever made."""
    w, p, _ = _world(batch=2)
    keep = w.add_object(p, "creature", power=1, toughness=1)
    for _ in range(40):
        tok = w.add_objects(PAGE // 4, p, "artifact", token=True)
        w.move_zone(tok, "exile")
        w.tick()
    assert w.store.next_id > 10 * PAGE
    assert w.store.ids.rows <= 4
    assert w.exists(keep).tolist() == [True, True]
    assert w.store.columns([keep])[0] >= 0
    with pytest.raises(StaleEntityError):
        w.zone(int(tok[0]))            # in a dropped page or not: stale either way


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 700), st.integers(0, 3)), min_size=1, max_size=30))
def test_the_id_index_maps_every_live_id_to_its_column(script):
    """IdIndex against a dict: blocks of new ids, each block then kept alive or let go;
    every id still alive maps to its column through any number of sweeps."""
    index, truth, live, first = IdIndex(), {}, set(), 0
    for n, fate in script:
        cols = np.arange(n, dtype=np.int64) % 97
        index.add(first, cols, lambda: np.array(sorted(live), np.int64))
        ids = range(first, first + n)
        truth.update(zip(ids, cols.tolist()))
        if fate:                                   # kept (one in four let go)
            live.update(ids)
        first += n
    alive = np.array(sorted(live), np.int64)
    assert index.lookup(alive).tolist() == [truth[e] for e in alive.tolist()]
    assert [index.one(int(e)) for e in alive[:20]] == [truth[e] for e in alive[:20].tolist()]
    rebuilt = IdIndex.of_slots(np.where(np.isin(np.arange(first), alive),
                                        np.arange(first), -1)[None, :])
    assert rebuilt.lookup(alive).tolist() == alive.tolist()
