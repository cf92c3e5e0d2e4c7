"""The id index (ecs.ids) on its own: what it maps after adds, sweeps, clones and
assigns, where the store's tests reach these paths only in some orders."""
import numpy as np

from ecs import ids as ids_module
from ecs.ids import _MIN_ROWS, PAGE, IdIndex


def _none(games=1, cols=8):
    """Slots holding no id: every page an add does not write to is droppable."""
    slots = np.full((games, cols), -1, np.int64)
    return lambda: slots


def _spread_index(batch=3):
    """An index of ``batch`` games holding id 0 in one column in every game and id 1
    in a column of its own in each (a spread id)."""
    index = IdIndex(batch)
    index.add(0, np.array([0], np.int64), _none(batch))
    games = np.arange(batch, dtype=np.int64)
    index.add_per_game(1, 1, np.zeros(batch, np.int64), games, games + 1, _none(batch))
    return index


def test_single_game_adds_over_many_pages_read_back_by_one_and_by_lookup():
    """One id at a time (a single game's zone changes) over pages whose rows grow the
    index's tables between sweeps (a wide store's slots put the sweeps off): both lookups
    see every id where it was put."""
    index = IdIndex(1)
    n = 6 * PAGE
    cols = np.arange(n, dtype=np.int64) % 50
    slots = np.full((1, 64 * PAGE), -1, np.int64)   # no sweep below 64 * PAGE // (8 * PAGE) pages
    slots[0, :n] = np.arange(n)
    for e in range(n):
        index.add_one(e, int(cols[e]), lambda: slots)
    every = np.arange(n, dtype=np.int64)
    assert np.array_equal(index.lookup(every), cols)
    assert [index.one(e) for e in range(n)] == cols.tolist()


def test_an_add_that_starts_inside_a_page_keeps_that_page_through_its_sweep():
    """New ids from the middle of a page over many pages, with a sweep due and none of
    the page's earlier ids in a slot: the page the add starts in is kept, so its new ids
    map as the later pages' do."""
    index = IdIndex(1)
    half = PAGE // 2
    index.add(0, np.full(half, 3, np.int64), _none())       # page 0, half made, none held
    cols = np.arange(10 * PAGE, dtype=np.int64) % 7
    index.add(half, cols, _none())                           # pages 0-10: a sweep is due
    new = np.arange(half, half + cols.size, dtype=np.int64)
    assert np.array_equal(index.lookup(new), cols)
    assert index.one(half) == 0 and index.one(int(new[-1])) == int(cols[-1])


def test_a_row_freed_by_a_sweep_holds_nothing_of_its_old_page():
    """A sweep drops pages no slot holds; the next page takes a freed row, and its ids
    not made yet map to -1 (in no game), not to the dropped page's columns."""
    index = IdIndex(1)
    index.add(0, np.full(4 * PAGE, 7, np.int64), _none())   # four pages, all gone
    first = 4 * PAGE
    index.add(first, np.full(PAGE // 2, 2, np.int64), _none())   # a new page: a sweep
    assert index.rows == 1
    page = np.arange(first, first + PAGE, dtype=np.int64)
    assert index.lookup(page).tolist() == [2] * (PAGE // 2) + [-1] * (PAGE // 2)


def test_the_first_pages_are_held_without_a_sweep(monkeypatch):
    """Below a few pages the index does not sweep the slots (a pass over every game's)
    for each new page."""
    sweeps = []
    real = ids_module._rows_held
    monkeypatch.setattr(ids_module, "_rows_held", lambda *a: sweeps.append(1) or real(*a))
    index = IdIndex(1)
    for p in range(_MIN_ROWS):
        index.add(p * PAGE, np.zeros(PAGE, np.int64), _none())
    assert sweeps == [] and index.rows == _MIN_ROWS


def test_an_id_in_no_game_takes_no_spread_row():
    """Ids given slot by slot, one of them in no slot at all: it maps to -1, and only
    the id whose games disagree takes a spread row."""
    index = IdIndex(2)
    games, at = np.array([0, 1, 0, 1]), np.array([0, 0, 2, 2])
    index.add_per_game(0, 3, at, games, np.array([4, 4, 5, 6]), _none(2))
    assert index.n_spread == 1
    assert index.lookup(np.array([1], np.int64)).tolist() == [-1]
    assert index.lookup(np.array([0, 1, 2, 2]), np.array([0, 0, 0, 1])).tolist() == [4, -1, 5, 6]


def test_one_spread_id_is_found_as_spread():
    """``any_spread`` of an index holding a single spread id (its first spread row), and
    ``one`` of it in each game."""
    index = _spread_index()
    assert index.n_spread == 1
    assert [index.one(1, g) for g in range(3)] == [1, 2, 3] and index.one(0, 2) == 0
    assert index.any_spread(np.array([0, 1], np.int64))
    assert not index.any_spread(np.array([0], np.int64))


def test_clones_that_each_make_a_spread_id_keep_their_own():
    """An index and its clone each make the same next id, spread over different columns:
    neither one's spread row reaches the other's (copy on write)."""
    index = _spread_index()
    twin = index.clone()
    games = np.arange(3, dtype=np.int64)
    twin.add_per_game(2, 1, np.zeros(3, np.int64), games, games + 10, _none(3))
    index.add_per_game(2, 1, np.zeros(3, np.int64), games, games + 20, _none(3))
    e = np.full(3, 2, np.int64)
    assert twin.lookup(e, games).tolist() == [10, 11, 12]
    assert index.lookup(e, games).tolist() == [20, 21, 22]
    assert twin.lookup(np.ones(3, np.int64), games).tolist() == [1, 2, 3]


def test_an_index_assigned_in_place_writes_its_next_id_in_place():
    """An index assigned another's entries of the same shapes holds them in its own
    arrays, and its next id in a page it holds is written there (no copy: the views of a
    single game's reads stay good), without reaching the index it was assigned from."""
    mine, theirs = IdIndex(1), IdIndex(1)
    for index, col in ((mine, 1), (theirs, 2)):
        index.add(0, np.full(4, col, np.int64), _none())
    pages = mine.pages
    mine.assign(theirs)
    assert mine.pages is pages and mine.lookup(np.arange(4)).tolist() == [2] * 4
    mine.add_one(4, 5, _none())
    assert mine.pages is pages and mine.one(4) == 5 and theirs.one(4) == -1


def test_an_index_assigned_one_of_other_games_takes_its_games():
    """``assign`` of an index over another number of games (a restore of a snapshot of
    another batch): the spread table follows the games of the one assigned."""
    mine = IdIndex(3)
    mine.assign(IdIndex(1))
    assert mine.spread.shape == (0, 1)
    mine.add_per_game(0, 1, np.zeros(1, np.int64), np.zeros(1, np.int64), np.array([2]), _none(1))
    assert mine.one(0) == 2


def test_spread_rows_just_restored_are_not_swept_for_the_next_spread_id(monkeypatch):
    """An index made from slots holding spread ids (a restore) counts them as kept by a
    sweep: the next spread id grows the table, not a pass over every game's slots that
    would find each of them still there."""
    spread = 2 * _MIN_ROWS
    slots = np.full((2, 2 * spread), -1, np.int64)
    slots[0, :spread] = slots[1, spread:] = np.arange(spread)   # each id in two columns
    index = IdIndex.of_slots(slots)
    assert index.n_spread == spread
    sweeps = []
    real = ids_module._spread_kept
    monkeypatch.setattr(ids_module, "_spread_kept", lambda *a: sweeps.append(1) or real(*a))
    index.add_per_game(spread, 1, np.zeros(2, np.int64), np.arange(2), np.array([0, 1]), lambda: slots)
    assert sweeps == [] and index.n_spread == spread + 1
    assert index.lookup(np.full(2, spread), np.arange(2)).tolist() == [0, 1]


def test_a_sweep_waits_for_an_eighth_more_pages_than_the_last_kept(monkeypatch):
    """A sweep that keeps every page (all in use) is followed by no other until the
    pages held are an eighth more than it kept: the sweeps' cost is amortized over the
    pages made in between."""
    index = IdIndex(1)
    slots = np.full((1, 128), -1, np.int64)       # one id of each page made: all in use
    made = 64
    slots[0, :made] = np.arange(made) * PAGE
    index.add(0, np.zeros(made * PAGE, np.int64), lambda: slots)
    sweeps = []
    real = ids_module._rows_held
    monkeypatch.setattr(ids_module, "_rows_held", lambda *a: sweeps.append(1) or real(*a))

    def new_page():
        nonlocal made
        slots[0, made] = made * PAGE
        index.add(made * PAGE, np.zeros(PAGE, np.int64), lambda: slots)
        made += 1
    new_page()                                    # due: a sweep that keeps all 64 pages
    assert len(sweeps) == 1 and index.rows == 65
    for _ in range(64 // 8 - 1):                  # up to 64 + 64 // 8 pages held: none
        new_page()
    assert len(sweeps) == 1
    new_page()
    assert len(sweeps) == 2 and index.rows == 64 + 64 // 8 + 1
    assert index.lookup(slots[0, :made]).tolist() == [0] * made


def test_copies_of_one_game_take_spread_ids_in_each_copy():
    """An index of copies of one game (a fork) maps the spread ids the copies then make,
    one column per copy."""
    slots = np.array([[0, -1, -1, 1]], np.int64)
    index = IdIndex.of_copies(slots, 3)
    assert index.lookup(np.array([0, 1, 0]), np.array([0, 1, 2])).tolist() == [0, 3, 0]
    games = np.arange(3, dtype=np.int64)
    index.add_per_game(2, 1, np.zeros(3, np.int64), games, np.array([1, 2, 1]), lambda: slots)
    assert index.lookup(np.full(3, 2), games).tolist() == [1, 2, 1]


def test_a_spread_sweep_leaves_the_pages_of_ids_dropped_before_it_alone():
    """Spread ids whose page a sweep of pages dropped, then a sweep of the spread rows:
    their entries are gone with their page, and every page held keeps its entries."""
    slots = np.full((2, 17), -1, np.int64)
    slots[0, :4] = slots[1, 4:8] = np.arange(4)        # four spread ids, page 0
    slots[:, 8:12] = PAGE + np.arange(4)                 # page 1: one column each
    index = IdIndex.of_slots(slots)
    assert index.n_spread == 4 and index.rows == 2
    slots[:, :8] = -1                                    # the spread ids are gone
    new = np.arange(2 * PAGE, 7 * PAGE, dtype=np.int64)
    slots[:, 12:] = new[::PAGE]                          # an id of each new page stays
    index.add(2 * PAGE, new % 16, lambda: slots)         # five pages: page 0 dropped
    assert index.rows == 6
    games = np.arange(2, dtype=np.int64)
    index.add_per_game(7 * PAGE, 1, np.zeros(2, np.int64), games, games, lambda: slots)
    assert index.n_spread == 1                           # the spread rows swept
    assert np.array_equal(index.lookup(new), new % 16)
    assert index.lookup(PAGE + np.arange(4)).tolist() == [8, 9, 10, 11]
    assert index.lookup(np.full(2, 7 * PAGE), games).tolist() == [0, 1]


def test_a_free_slot_and_the_id_minus_one_name_no_page():
    """-1 (a free slot; no id) is in no page: looked up it maps to -1 whatever pages are
    held, and a sweep keeps no page for the free slots it reads (here the last page of a
    full chunk, whose ids are all gone)."""
    index = IdIndex(1)
    made = np.arange(128 * PAGE, dtype=np.int64)         # a chunk of pages, in one add
    index.add(0, made % 9 + 1, _none())
    assert index.lookup(np.array([-1, made[-1]])).tolist() == [-1, int(made[-1]) % 9 + 1]
    slots = np.array([[-1, 5]], np.int64)                  # a free slot, and id 5 (page 0)
    index.add(made.size, np.zeros(PAGE, np.int64), lambda: slots)
    assert index.rows == 2                                 # page 0 and the new page
    assert index.lookup(made[[5, -1]]).tolist() == [1 + 5 % 9, -1]


def test_ids_past_the_pages_of_an_index_made_from_slots_map_to_minus_one():
    """An index made from slots (a restore) knows the chunks of the ids in them only: an
    id in a later chunk (made after, or gone before, the snapshot) maps to -1."""
    slots = np.array([[3, PAGE + 1, -1]], np.int64)
    index = IdIndex.of_slots(slots)
    later = np.array([128 * PAGE + 2, 3, PAGE + 1], np.int64)
    assert index.lookup(later).tolist() == [-1, 0, 1]
    assert index.lookup(later, np.zeros(3, np.int64)).tolist() == [-1, 0, 1]
    assert index.one(int(later[0])) == -1


def test_a_spread_row_freed_by_a_sweep_names_no_column_for_its_next_id():
    """A spread row a sweep frees holds nothing of its old id: the next spread id made in
    it, in two games of three, is in no column of the third (-1, as a new row's)."""
    batch = 3
    index = IdIndex(batch)
    games = np.arange(batch, dtype=np.int64)
    for e in range(4):   # ids 0..3 each in its own column per game: four spread rows, the table's size
        index.add_per_game(e, 1, np.zeros(batch, np.int64), games, games + 10 * e, _none(batch, 64))
    slots = np.full((batch, 64), -1, np.int64)
    for e in (1, 2, 3):  # id 0 in no game now: the next spread row sweeps its row away
        slots[games, games + 10 * e] = e
    index.add_per_game(4, 1, np.zeros(2, np.int64), games[:2], np.array([50, 51]), lambda: slots)
    assert index.n_spread == 4
    assert [index.one(4, g) for g in range(batch)] == [50, 51, -1]
    assert index.lookup(np.full(batch, 4), games).tolist() == [50, 51, -1]
    assert [index.one(e, 2) for e in (1, 2, 3)] == [12, 22, 32]



def test_a_sweep_moves_the_pages_it_keeps_to_the_front_in_place():
    """A sweep that keeps every other page of many: the kept pages' rows move to the
    front in their order, in the index's own tables and without a temporary the size of
    the kept rows (a gather of them was a step's largest block in a long batched run,
    which glibc then kept free), the rows after them hold nothing, and every id maps as
    before: a kept one to its column, a dropped one to -1."""
    import tracemalloc

    index = IdIndex(1)
    made = 256
    slots = np.full((1, 512), -1, np.int64)
    slots[0, : made // 2] = np.arange(0, made, 2) * PAGE + 5   # an id of each even page
    index.add(0, np.arange(made * PAGE, dtype=np.int64) % 50, lambda: slots)
    pages, page_at = index.pages, index.page_at
    tracemalloc.start()
    try:
        index.add(made * PAGE, np.full(PAGE, 3, np.int64), lambda: slots)   # due: a sweep
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    kept = made // 2 + 1
    assert index.rows == kept
    assert peak < (made // 2) * PAGE * pages.itemsize // 2   # (the gather: all of them)
    assert index.pages is pages and index.page_at is page_at
    assert index.page_at[:kept].tolist() == [*range(0, made, 2), made]
    assert (index.pages[kept:] == -1).all() and (index.page_at[kept:] == -1).all()
    every = np.arange((made + 1) * PAGE, dtype=np.int64)
    even = (every // PAGE) % 2 == 0
    want = np.where(even, every % 50, -1)
    want[made * PAGE:] = 3
    assert np.array_equal(index.lookup(every), want)


def test_a_clones_first_zone_change_writes_its_own_copy_of_the_page_in_place(monkeypatch):
    """400.7: a permanent put into a graveyard is a new object with a new id. In a clone, whose id
    index is its source's until it writes, the new id's page (one the index holds) is
    copied once and written in place, without the general ``add``; the clone finds the new
    id, the source only the old one."""
    from ecs import World

    w = World()
    p = w.add_player()
    w.add_player()
    bears = [w.add_object(p, "creature", power=2, toughness=2) for _ in range(3)]
    clone = w.clone()
    general = []
    add = IdIndex.add
    monkeypatch.setattr(IdIndex, "add", lambda self, *a: general.append(a) or add(self, *a))
    new = clone.move_zone(bears[1], "graveyard")
    assert new >> ids_module.PAGE_BITS == bears[1] >> ids_module.PAGE_BITS and general == []
    assert clone.zone(new) == "graveyard" and w.objects(zone="graveyard") == []
    assert w.zone(bears[1]) == "battlefield" and not clone.exists(bears[1])
