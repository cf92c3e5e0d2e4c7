"""Copies of a whole game state: the engine's clone() (copy on write: alone, with every
array then written, and of a game whose log keeps many events) and snapshot()+restore(), beside
np.copyto of the same number of bytes (the floor), copy.deepcopy of the naive baseline's
esper world and the esper baseline's clone (its mutable components copied, the rest
shared); and a search's snapshots and restores between self-play steps
(``cases.SEARCHES``)."""
from __future__ import annotations

from typing import Any

import pytest

from .cases import (
    ACTION_SIZES,
    CLONE_BATCH,
    CLONE_GAME,
    SEARCHES,
    baseline_clone,
    baseline_deepcopy,
    bench,
    engine_clone,
    engine_clone_of_a_long_log,
    engine_clone_written,
    engine_snapshot_restore,
    raw_copy,
    search,
    store_nbytes,
)
from .esper_baseline import EsperGame

SHAPES = [CLONE_GAME, CLONE_BATCH]


def rounds(games: int) -> int:
    return 200 if games == 1 else 10


@pytest.mark.parametrize("games, n", SHAPES)
def test_engine_clone(benchmark: Any, games: int, n: int) -> None:
    clone = bench(benchmark, engine_clone(games, n), rounds(games), f"clone {games}x{n}")
    assert clone.batch == games


@pytest.mark.parametrize("rows", [0, 10_000])
def test_engine_clone_of_a_long_log(benchmark: Any, rows: int) -> None:
    """A clone copies the log's list of chunks, compacted: its cost does not follow the
    rows a log keeps (a search whose positions keep their path's events)."""
    n = CLONE_GAME[1]
    clone = bench(benchmark, engine_clone_of_a_long_log(n, rows), 200, f"clone of a long log 1x{n}")
    assert clone.log.rows >= rows


@pytest.mark.parametrize("games, n", SHAPES)
def test_engine_clone_written(benchmark: Any, games: int, n: int) -> None:
    clone = bench(benchmark, engine_clone_written(games, n), rounds(games), f"clone {games}x{n}")
    assert not clone.store._shared   # every array its own


@pytest.mark.parametrize("games, n", SHAPES)
def test_engine_snapshot_restore(benchmark: Any, games: int, n: int) -> None:
    bench(benchmark, engine_snapshot_restore(games, n), rounds(games), f"clone {games}x{n}")


@pytest.mark.parametrize("games, n", SHAPES)
def test_raw_copy(benchmark: Any, games: int, n: int) -> None:
    nbytes = store_nbytes(games, n)
    bench(benchmark, raw_copy(nbytes), rounds(games), f"clone {games}x{n}")


def test_baseline_deepcopy(benchmark: Any) -> None:
    bench(benchmark, baseline_deepcopy(*CLONE_GAME), 20, f"clone {CLONE_GAME[0]}x{CLONE_GAME[1]}")


def test_esper_baseline_clone(benchmark: Any) -> None:
    bench(benchmark, baseline_clone(*CLONE_GAME, EsperGame), 50, f"clone {CLONE_GAME[0]}x{CLONE_GAME[1]}")


@pytest.mark.parametrize("n", ACTION_SIZES)
@pytest.mark.parametrize("what", SEARCHES)
def test_engine_search(benchmark: Any, what: str, n: int) -> None:
    bench(benchmark, search(n, what), 200, f"search: {what} 1x{n}")
