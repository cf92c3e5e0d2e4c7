"""Slots per game (ecs.store) and the id index (ecs.ids): a store's columns follow what
each game holds at once, ids stay what they were to the user (never reused, stale ids
raise, an id may name objects in several games), and the index drops what no game holds.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from ecs import StaleEntityError, UnknownEntityError, World
from ecs.ids import PAGE, IdIndex


def _world(batch=3):
    w = World(batch=batch, seed=0)
    return w, w.add_player(), w.add_player()


def test_400_7_a_zone_change_keeps_the_slot_under_a_new_id():
    w, p, _ = _world()
    bear = w.add_object(p, "creature", power=2, toughness=2, counters={"+1/+1": 1})
    col, n = int(w.store.locate(1, bear)), w.store.n_cols
    card = w.move_zone(bear, "graveyard", games=[1])
    assert card != bear and int(w.store.locate(1, card)) == col
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
    col = int(w.store.locate(0, tok))
    w.destroy(tok, games=[0])
    w.tick()                                    # the token ceases to exist in game 0
    assert w.exists(tok).tolist() == [False, True, True]
    n = w.store.n_cols
    mine = w.add_object(p, "artifact", games=[0])
    assert int(w.store.locate(0, mine)) == col and w.store.n_cols == n   # reused
    both = w.add_object(p, "artifact", games=[0, 1])   # no column free in either: a new one
    assert w.store.locate([0, 1], both).tolist() == [n, n] and w.store.n_cols == n + 1
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
    col = int(w.store.locate(0, tok))
    w.move_zone(tok, "exile")
    w.tick()
    new = w.add_object(p, "artifact")
    assert int(w.store.locate(0, new)) == col
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


def test_the_width_grows_by_an_eighth():
    """A column is a slot in every game: a batch that outgrows its width holds the new
    width all along, so it grows by an eighth, at least a few columns (by a quarter and 8
    columns, 71 objects in each of 4,096 games took 88 columns, 6 MB more than they
    needed)."""
    w, p, _ = _world(batch=4)
    w.add_objects(w.store.capacity, p, "creature", power=1, toughness=1)
    held = w.store.n_cols
    assert held > 64 and w.store.capacity <= held + held // 8
    other, _, _ = _world(batch=4)
    other.restore(w.snapshot())                               # too wide: new arrays, and room
    assert held < other.store.capacity <= held + held // 8


def test_the_id_index_does_not_grow_with_the_ids_ever_made():
    """Eight million ids made, two of them still in a slot: the oldest (a card that
    never leaves) and the newest. The index holds their pages and those pages' chunks,
    not an entry per page ever made (a dense page table: 256 KB here, some 90 MB an hour
    in the soak's 4,096 games)."""
    index = IdIndex(1)
    slots = np.full((1, 4), -1, np.int64)         # the store's ids in its slots
    block = PAGE * 64
    for first in range(0, 8 * 2**20, block):
        cols = np.ones(block, np.int64)
        cols[:6] = [2, 2, 2, 2, 2, 0]             # id 5 in column 0, all run long
        index.add(first, cols, lambda: slots)
        slots[0, :2] = 5, first + block - 1         # the newest in column 1
    last, gone = int(slots[0, 1]), 5 * block + 7          # (gone: its page long dropped)
    assert index.lookup(np.array([5, last, gone], np.int64)).tolist() == [0, 1, -1]
    assert index.one(5) == 0 and index.one(last) == 1 and index.one(gone) == -1
    assert index.nbytes < 64 * 1024


def test_ids_made_over_many_pages_at_once_sweep_the_slots_once(monkeypatch):
    """An acting tick of a big batch makes the ids of hundreds of pages in one add: the
    index sweeps the slots (a pass over every game's) once for them all, where a sweep
    per new page found nothing the first had not; it drops the pages no slot holds and
    maps every id it keeps."""
    from ecs import ids as ids_module

    index = IdIndex(1)
    slots = np.full((1, 8), -1, np.int64)
    index.add(0, np.zeros(40 * PAGE, np.int64), lambda: slots)   # 40 pages, then all gone...
    slots[0, 0] = 3 * PAGE + 1                                     # ...but one id of page 3
    sweeps = []
    real = ids_module._rows_held
    monkeypatch.setattr(ids_module, "_rows_held", lambda *a: sweeps.append(1) or real(*a))
    first = 40 * PAGE
    index.add(first, np.arange(200 * PAGE, dtype=np.int64) % 8, lambda: slots)
    assert len(sweeps) == 1
    assert index.rows == 1 + 200   # page 3 and the new pages
    new = np.arange(first, first + 200 * PAGE, dtype=np.int64)
    assert np.array_equal(index.lookup(new), (new - first) % 8)
    assert index.one(3 * PAGE + 1) == 0 and index.one(5) == -1


def test_a_batch_whose_games_share_ids_waits_longer_between_sweeps(monkeypatch):
    """Games that share their ids hold a few pages over many slots (the benchmark's
    1024 x 1000 batch: 8 pages, a million slots). A sweep reads every slot, so besides an
    eighth more pages it waits for a page more per ``8 * PAGE`` slots: not a sweep for the
    first new page after each restore, and the pages held beyond those in use stay within
    half a byte per slot."""
    from ecs import ids as ids_module

    slots = np.full((64, 8 * PAGE), -1, np.int64)   # 64 * 8 * PAGE slots: a floor of 64 pages
    slots[:, : 2 * PAGE] = np.arange(2 * PAGE)       # ids of 2 pages, in every game
    index = IdIndex.of_slots(slots)
    sweeps = []
    real = ids_module._rows_held
    monkeypatch.setattr(ids_module, "_rows_held", lambda *a: sweeps.append(1) or real(*a))
    first = 2 * PAGE
    for _ in range(200):   # a page of new ids each time, none of them left in a slot
        index.add(first, np.zeros(PAGE, np.int64), lambda: slots)
        first += PAGE
        assert index.rows <= 2 + 64
    assert len(sweeps) == 200 // 64
    kept = np.arange(2 * PAGE, dtype=np.int64)
    assert np.array_equal(index.lookup(kept), kept)
    assert index.one(first - 1) == 0 and index.one(2 * PAGE) == -1


def test_an_index_pickled_with_a_dense_page_table_loads():
    """An index pickled before the chunks (a page table over every page made, and no
    views of its arrays) maps its ids as it did."""
    import pickle

    w, p, _ = _world(batch=2)
    ids = [int(e) for e in w.add_objects(3 * PAGE, p, "artifact")]
    index = w.store.ids
    state = index.__getstate__()
    page_of = np.full(int(index.page_at[: index.rows].max()) + 1, -1, np.int32)
    page_of[index.page_at[: index.rows]] = np.arange(index.rows)
    for name in ("dir", "chunks", "n_chunks", "page_at", "_pv"):
        del state[name]
    old = IdIndex.__new__(IdIndex)
    old.__setstate__(pickle.loads(pickle.dumps({**state, "page_of": page_of})))
    every = np.array(ids, np.int64)
    assert np.array_equal(old.lookup(every), index.lookup(every))
    assert old.one(ids[-1], 1) == index.one(ids[-1], 1)


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
    assert (w.store.locate([0, 1], keep) >= 0).all()
    with pytest.raises(StaleEntityError):
        w.zone(int(tok[0]))            # in a dropped page or not: stale either way


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.tuples(st.integers(1, 700), st.integers(0, 3), st.integers(0, 2),
                          st.integers(0, 3)), min_size=1, max_size=30))
def test_the_id_index_maps_every_live_id_to_its_column_in_each_game(script):
    """IdIndex against a dict over three games: blocks of new ids, each made in every game
    at one column, or in some games at each game's own columns (spread ids); each block
    then kept alive or let go. Every id still alive maps to its column in each game it is
    in through any number of sweeps of pages and spread rows, and so does the index
    rebuilt from the slots."""
    B = 3
    index, truth, live, first = IdIndex(B), {}, set(), 0
    top = np.zeros(B, np.int64)                     # each game's next unused column

    def slots():                                    # the store's (games, columns) ids
        out = np.full((B, int(top.max()) + 1), -1, np.int64)
        for (e, g), c in truth.items():
            if e in live:
                out[g, c] = e
        return out
    for n, fate, how, skip in script:
        ids = range(first, first + n)
        if how == 0:                                # the same columns in every game
            cols = np.arange(n, dtype=np.int64) + top.max()
            top[:] = cols[-1] + 1
            index.add(first, cols, slots)
            truth.update(((e, g), int(c)) for e, c in zip(ids, cols) for g in range(B))
        else:                                       # each game's own columns
            games = np.array([g for g in range(B) if g != skip], np.int64)
            cols = top[games, None] + np.arange(n)
            if how == 2:                            # some games agree on a block's columns
                cols[:] = top[games].max() + np.arange(n)
            top[games] = cols[:, -1] + 1
            index.add_per_game(first, n, np.tile(np.arange(n), games.size), np.repeat(games, n),
                               cols.ravel(), slots)
            truth.update(((e, int(g)), int(c)) for i, g in enumerate(games) for e, c in zip(ids, cols[i]))
        if fate:                                   # kept (one in four let go)
            live.update(ids)
        first += n
    pairs = [(e, g) for (e, g) in truth if e in live]
    e = np.array([p[0] for p in pairs], np.int64)
    g = np.array([p[1] for p in pairs], np.int64)
    want = [truth[p] for p in pairs]
    assert index.lookup(e, g).tolist() == want
    assert [index.one(int(x), int(y)) for x, y in zip(e[:20], g[:20])] == want[:20]
    slots = np.full((B, int(top.max()) + 1), -1, np.int64)
    slots[g, want] = e
    assert IdIndex.of_slots(slots).lookup(e, g).tolist() == want


def _spread_board():
    """Three games where the same token died in a different column of each, then one new
    object made in all of them."""
    w, p, q = _world()
    toks = w.add_objects(3, p, "creature", power=1, toughness=1, token=True)
    freed = [int(w.store.locate(g, toks[g])) for g in range(3)]
    w.destroy(toks[:, None])                   # (games, 1): token g dies in game g
    w.tick()                                   # 704.5d: each game frees another column
    n = w.store.n_cols
    bear = w.add_object(p, "creature", power=2, toughness=2, counters={"+1/+1": 1})
    return w, p, q, bear, freed, n


def test_an_object_made_in_several_games_takes_each_games_own_free_slot():
    """One id in every game, as ever, in each game's own lowest free slot: the width does
    not grow, and every read and action finds it in each game (122.1a, 400.7)."""
    w, p, q, bear, freed, n = _spread_board()
    assert w.store.n_cols == n                                   # nothing allocated
    assert w.store.locate([0, 1, 2], bear).tolist() == freed     # three different slots
    assert w.power(bear).tolist() == [3, 3, 3] and w.zone(bear).tolist() == ["battlefield"] * 3
    w.put_counters(bear, "+1/+1", 1, games=[1])
    w.deal_damage(bear, 1, games=[2])
    assert w.count(bear, "+1/+1").tolist() == [1, 2, 1] and w.damage(bear).tolist() == [0, 0, 1]
    assert w.counters(bear)["+1/+1"].tolist() == [1, 2, 1]
    assert w.observe([bear], ["power", "counter:+1/+1"])[0][:, 0].tolist() == [[3, 1], [4, 2], [3, 1]]
    w.set_controller(bear, q, games=[0])
    assert w.controller(bear).tolist() == [q, p, p]
    card = w.move_zone(bear, "graveyard")                        # 400.7: one new object
    assert np.unique(card).size == 1
    card = int(np.ravel(card)[0])
    assert w.store.locate([0, 1, 2], card).tolist() == freed     # it keeps each game's slot
    assert w.zone(card).tolist() == ["graveyard"] * 3 and w.counters(card) == {}
    assert w.controller(card).tolist() == [p, p, p]              # back to its owner
    with pytest.raises(StaleEntityError):
        w.count(bear, "+1/+1")


def test_a_player_takes_one_column_in_every_game():
    """A player's column is the same in every game (its per-game arrays are indexed by
    it): with each game's free slot elsewhere, a new player takes a column free in all."""
    w, p, q, bear, freed, n = _spread_board()
    tok = w.add_object(p, "artifact", token=True)
    hole = int(w.store.locate(0, tok))
    w.destroy(tok, games=[0])
    w.tick()                                                     # a slot free in game 0 only
    r = w.add_player()
    cols = w.store.locate([0, 1, 2], r).tolist()
    assert len(set(cols)) == 1 and cols[0] != hole
    assert w.life(r).tolist() == [20, 20, 20]
    mine = w.add_object(p, "artifact", games=[0])
    assert int(w.store.locate(0, mine)) == hole                  # that game's next object


def test_an_id_in_different_slots_survives_clone_snapshot_and_save(tmp_path):
    w, p, q, bear, freed, n = _spread_board()
    w.put_counters(bear, "+1/+1", 1, games=[2])
    want = (w.count(bear, "+1/+1").tolist(), w.power(bear).tolist())
    c = w.clone()
    c.put_counters(bear, "+1/+1", 5, games=[0])                  # the clone's own copy
    assert (w.count(bear, "+1/+1").tolist(), w.power(bear).tolist()) == want
    assert c.count(bear, "+1/+1").tolist() == [6, 1, 2]
    snap = w.snapshot()
    w.destroy(bear)
    w.tick()
    w.restore(snap)
    assert (w.count(bear, "+1/+1").tolist(), w.power(bear).tolist()) == want
    assert w.store.locate([0, 1, 2], bear).tolist() == freed
    w.save(tmp_path / "w.npz")
    back = type(w).load(tmp_path / "w.npz")
    assert (back.count(bear, "+1/+1").tolist(), back.power(bear).tolist()) == want
    assert back.store.locate([0, 1, 2], bear).tolist() == freed
    two = w.select([2, 0])                                       # games reordered and dropped
    assert two.count(bear, "+1/+1").tolist() == [2, 1]
    assert two.store.locate([0, 1], bear).tolist() == [freed[2], freed[0]]
    three = w.fork(2, 3)                                         # game 2, three times
    assert three.count(bear, "+1/+1").tolist() == [2, 2, 2]


def test_each_restore_maps_the_ids_its_snapshot_holds():
    """A restore keeps the index it made for the next restore of the same slots (a search
    restores one snapshot again and again): each restore still finds exactly the objects of
    its snapshot, spread ids included, and writes after one restore do not reach the next;
    a snapshot's slots changed (in a copy: its arrays are read-only) are restored as they are."""
    w, p, q, bear, freed, n = _spread_board()
    a = w.snapshot()
    w.destroy(bear)
    w.tick()
    tok = w.add_object(p, "creature", power=1, toughness=1, token=True)
    b = w.snapshot()
    for snap, there, gone in ((a, bear, tok), (b, tok, bear), (a, bear, tok), (a, bear, tok)):
        w.restore(snap)
        assert w.zone(there).tolist() == ["battlefield"] * 3
        with pytest.raises((StaleEntityError, UnknownEntityError)):   # (made after the snapshot)
            w.zone(gone)
        w.move_zone(there, "exile")                              # new ids, in the index
        for k in range(8):   # spread ids made and gone: the index sweeps its spread rows
            t = w.add_object(q, "artifact", token=True)
            w.destroy(t, games=[k % 3])
            w.tick()
    w.restore(a)
    slots = a["store"]["entity_id"].copy()
    i = int(np.flatnonzero(slots[0] == bear)[0])
    j = int(np.flatnonzero((slots[0] >= 0) & ~np.isin(slots[0], [p, q, bear]))[0])
    other = int(slots[0, j])
    slots[:, [i, j]] = slots[:, [j, i]]                          # two objects swap slots
    w.restore({**a, "store": {**a["store"], "entity_id": slots}})
    assert int(w.store.locate(0, bear)) == j and int(w.store.locate(0, other)) == i
    first = int(a["store"]["entity_id"][0, 0])
    with pytest.raises(ValueError, match="assignment destination is read-only"):   # a snapshot is a value
        a["store"]["entity_id"][0, 0] = -1
    assert int(a["store"]["entity_id"][0, 0]) == first


def test_a_restore_writes_the_id_index_in_place_unless_a_clone_shares_it():
    """Restoring one snapshot again (a search's undo) writes the index's entries into the
    index's own arrays where they fit, so the views a single game's lookups read stay good;
    an index whose arrays a clone shares takes copies instead, and the clone's ids stay
    where they are (400.7: the clone's new object is still there, the old one stale)."""
    w = World(seed=0)
    p = w.add_player()
    bears = [w.add_object(p, "creature", power=2, toughness=2) for _ in range(3)]
    w.tick()
    snap = w.snapshot()
    w.restore(snap)    # (the index made for it: restores of it write there)
    card = w.move_zone(bears[0], "graveyard")
    ix = w.store.ids
    arrays = (ix.dir, ix.chunks, ix.pages, ix.page_at, ix.spread, ix.spread_id)
    w.restore(snap)
    assert w.store.ids is ix
    assert all(a is b for a, b in zip(arrays, (ix.dir, ix.chunks, ix.pages, ix.page_at, ix.spread,
                                               ix.spread_id)))
    assert w.zone(bears[0]) == "battlefield"
    with pytest.raises(UnknownEntityError):   # (made after the snapshot)
        w.zone(card)
    card = w.move_zone(bears[1], "exile")
    twin = w.clone()   # (shares the index's arrays until either writes)
    w.restore(snap)
    assert w.zone(bears[1]) == "battlefield" and twin.zone(card) == "exile"
    with pytest.raises(StaleEntityError):
        twin.zone(bears[1])


def test_spread_rows_of_ids_in_no_game_are_dropped():
    """A long run of objects made in every game and killed per game: the index's spread
    rows follow the ids still in some game (a sweep when an eighth of them are new since
    the last one, and growth by an eighth), not the run's length."""
    w, p, _ = _world()
    rng = np.random.default_rng(0)
    toks = w.add_objects(4, p, "artifact", token=True)
    held = np.broadcast_to(toks, (3, 4)).copy()
    for _ in range(200):
        new = w.add_object(p, "artifact", token=True)
        die = rng.integers(0, 4, 3)
        w.destroy(held[np.arange(3), die][:, None])
        w.tick()
        held[np.arange(3), die] = new
    index = w.store.ids
    assert index.n_spread > 0                                     # the run made spread ids
    alive = np.unique(held)
    assert index.spread.shape[0] <= 2 * max(alive.size, 4)
    assert w.store.n_cols <= 4 + 2 + 1                           # players, tokens, one spare
    assert all(w.exists(int(e)).any() for e in alive)


# Slot values whose bytes hold runs of ones (an id's top byte is below 0x80): what a byte
# search for a free slot could mistake for one, were it not aligned by the ids themselves.
_SLOT_VALUES = st.one_of(st.just(-1), st.integers(0, 2**63 - 1),
                         st.sampled_from([0xFF, 0xFFFF, 2**56 - 1, 2**63 - 1, 0x7FFF_FFFF_FFFF_FF00]))


@settings(max_examples=examples(200))
@given(st.lists(_SLOT_VALUES, max_size=12), st.integers(0, 3))
def test_a_single_games_new_object_takes_its_lowest_free_slot_as_in_a_batch(slots, spare):
    """``Store.alloc_one`` (a single game's add_object) takes the column ``alloc`` takes:
    the lowest free one below ``n_cols``, else the next; whatever the ids around it."""
    from ecs.store import Store
    one, general = Store(1, capacity=len(slots) + spare), Store(1, capacity=len(slots) + spare)
    for s in (one, general):
        s.n_cols = len(slots)
        s.mut("entity_id")[0, : len(slots)] = slots
        s.next_id = 10_000   # (the new id only: the index is not asked about the others)
    col, e = one.alloc_one()
    cols, ids = general.alloc(1, np.zeros(1, np.int64))
    assert (col, e) == (int(cols[0, 0]), int(ids[0]))
    assert one.n_cols == general.n_cols and one.capacity >= one.n_cols
    assert one.a["entity_id"].tolist() == general.a["entity_id"].tolist()


def test_704_5d_a_token_ceasing_to_exist_as_another_object_dies_frees_its_slot():
    """One check in which a token in a graveyard ceases to exist (704.5d) and a creature
    dies (704.5f) moves both at once: the token's slot is free for each game's next
    object, which holds nothing of the token; the dead creature's holds its card."""
    w, p, _ = _world(batch=2)
    tok = w.add_object(p, "creature", power=3, toughness=1, token=True, keywords=["flying"])
    bear = w.add_object(p, "creature", power=2, toughness=2)
    col, n = int(w.store.locate(0, tok)), w.store.n_cols
    w.move_zone(tok, "graveyard")
    w.put_counters(bear, "-1/-1", 2)
    w.tick()
    assert not w.exists(tok).any() and len(w.objects(zone="graveyard")) == 1
    new = w.add_object(p, "artifact")
    assert w.store.locate([0, 1], new).tolist() == [col, col] and w.store.n_cols == n
    assert list(w.keywords(new)) == [frozenset()] * 2
