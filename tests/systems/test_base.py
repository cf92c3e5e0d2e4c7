"""systems.base: the chunks of game rows a pass visits, and mapping hits back to games."""
import numpy as np

from ecs import World
from ecs.check import Check
from ecs.systems import base


def world(batch, n):
    w = World(batch=batch)
    p = w.add_player()
    for _ in range(n):
        w.add_object(p, {"artifact"})
    return w


def test_chunks_cover_every_game_once_as_slices():
    w = world(10, 3)
    chunks = base.game_chunks(w, 3)
    assert all(isinstance(r, slice) for r in chunks)
    assert [g for r in chunks for g in range(*r.indices(10))] == list(range(10))


def test_chunks_of_few_live_games_index_only_those():
    w = world(10, 3)
    live = np.zeros(10, bool)
    live[[1, 7]] = True
    chunks = base.game_chunks(w, 3, live)
    assert [r.tolist() for r in chunks] == [[1, 7]]
    live[:6] = True                   # over half: slices again, the caller masks
    assert all(isinstance(r, slice) for r in base.game_chunks(w, 3, live))


def test_hits_name_games_of_the_batch_for_both_kinds_of_rows():
    mask = np.array([[False, True, False], [True, False, True]])
    g, c = base.hits(mask, slice(4, 6))
    assert g.tolist() == [4, 5, 5] and c.tolist() == [1, 0, 2]
    g, c = base.hits(mask, np.array([2, 9]))
    assert g.tolist() == [2, 9, 9] and c.tolist() == [1, 0, 2]


def test_games_named_by_a_check():
    p = Check()
    p.remove(0, np.array([3]), np.array([0]), np.array([1]), "704.5q")
    p.move(np.array([1, 1]), np.array([0, 2]), 3, "704.5f")
    p.lose(np.array([5]), np.array([0]), "704.5a")
    assert np.flatnonzero(p.games_named(6)).tolist() == [1, 3, 5]


def test_games_named_leave_out_settling_removals():
    """Annihilation's removals settle (Check.remove): a game they alone name is not
    checked again."""
    p = Check()
    p.remove(0, np.array([3]), np.array([0]), np.array([1]), "704.5q", settles=True)
    p.remove(1, np.array([2]), np.array([0]), np.array([1]), "704.5r")
    assert np.flatnonzero(p.games_named(6)).tolist() == [2]


def test_chunks_cover_every_game_once_across_chunk_boundaries(monkeypatch):
    """With a chunk of two games' rows (CHUNK_ELEMENTS over the columns), every game is in
    exactly one chunk, in order, as slices of the batch and as indices of the live games."""
    w = world(7, 3)
    monkeypatch.setattr(base, "CHUNK_ELEMENTS", 2 * 3)
    chunks = base.game_chunks(w, 3)
    assert [range(*r.indices(7)) for r in chunks] == [range(0, 2), range(2, 4), range(4, 6), range(6, 7)]
    live = np.zeros(7, bool)
    live[[0, 2, 5]] = True
    assert [r.tolist() for r in base.game_chunks(w, 3, live)] == [[0, 2], [5]]
