"""systems.parallel: a pass split over games across threads gives what one call gives.

The threaded tick must be the serial tick bit for bit: the same store arrays and the
same event table (rows in the same order), on random batch boards where the systems act
together (deaths 704.5f/g/h/i, annihilation 704.5q, caps 704.5r, tokens ceasing 704.5d,
players losing 704.5a/c) in games split unevenly across the threads, through re-checks.
"""
from __future__ import annotations

import os
import signal
import threading
import time
from typing import Any, Iterator

import numpy as np
import pytest

import ecs
from ecs import World
from ecs.events import CAUSE
from ecs.systems import parallel

KINDS = ["+1/+1", "-1/-1", "+1/+1", "-1/-1", "indestructible", "loyalty", "defense", "shield"]


@pytest.fixture
def split_always(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every pass split, whatever its size (the boards here are small); threads put back."""
    monkeypatch.setattr(parallel, "MIN_ELEMENTS", 0)
    before = parallel.threads()
    yield
    parallel.set_threads(before)


def random_batch(seed: int, batch: int) -> World:
    """A batch whose games differ: per game, random counters, damage, caps and life."""
    rng = np.random.default_rng(seed)
    w = World(batch=batch, seed=seed)
    players = [w.add_player(), w.add_player()]

    def some() -> np.ndarray:
        return np.flatnonzero(rng.random(batch) < 0.5)

    for i in range(int(rng.integers(20, 40))):
        kind = rng.integers(5)
        e = w.add_object(players[i % 2], ("creature", "creature", "planeswalker", "battle", "artifact")[kind],
                         zone="graveyard" if rng.random() < 0.15 else "battlefield",
                         token=bool(rng.random() < 0.2), power=1,
                         toughness=int(rng.integers(0, 4)) if kind < 2 else None,
                         loyalty=int(rng.integers(0, 3)) if kind == 2 else None,
                         defense=int(rng.integers(0, 3)) if kind == 3 else None)
        for _ in range(int(rng.integers(0, 4))):
            games = some()
            if games.size:
                w.put_counters(e, KINDS[rng.integers(len(KINDS))], rng.integers(1, 4, games.size),
                               games=games)
        games = some()
        if kind < 2 and games.size:   # both kinds in some games: pairs to annihilate (704.5q)
            w.put_counters(e, "+1/+1", rng.integers(1, 3, games.size), games=games)
            w.put_counters(e, "-1/-1", rng.integers(1, 3, games.size), games=games)
        games = some()
        if rng.random() < 0.3 and games.size:
            w.set_cap(e, KINDS[rng.integers(2)], int(rng.integers(0, 2)), games=games)
        games = some()
        if rng.random() < 0.4 and games.size and kind < 4 and w.zone(e)[0] == "battlefield":
            w.deal_damage(e, rng.integers(1, 4, games.size), deathtouch=bool(rng.random() < 0.3),
                          games=games)
    for p in players:
        games = some()
        w.lose_life(p, rng.integers(0, 25, games.size), games=games)
        games = some()
        w.put_counters(p, "poison", rng.integers(1, 12, games.size), games=games)
    w.clear_events()
    return w


def causes(table: dict[str, np.ndarray]) -> set[str]:
    name = {code: rule for rule, code in CAUSE.items()}
    return {name[int(c)] for c in table["cause"]}


def state(w: World) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    return w.snapshot()["store"], w.event_table()


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("threads, batch", [(2, 37), (3, 64), (5, 23)])
def test_threaded_tick_is_the_serial_tick(split_always: None, seed: int, threads: int,
                                          batch: int) -> None:
    """Two Worlds built alike (not clones: read-only shared arrays compile other kernels),
    one ticked serially, one with every pass split unevenly (23 games over 5 threads)."""
    serial, threaded = random_batch(seed, batch), random_batch(seed, batch)
    parallel.set_threads(1)
    serial.tick()
    parallel.set_threads(threads)
    threaded.tick()
    (sa, ta), (sb, tb) = state(serial), state(threaded)
    assert sa.keys() == sb.keys()
    for k, x in sa.items():
        assert x.dtype == sb[k].dtype and np.array_equal(x, sb[k]), k
    assert ta.keys() == tb.keys()
    for k in ta:
        assert np.array_equal(ta[k], tb[k]), k
    assert causes(ta) >= {"704.5q", "704.5f", "704.5a"} and len(ta["cause"]) > batch   # it acted


def test_threaded_board_exercises_every_system() -> None:
    """The boards above reach every system split here, caps and tokens included."""
    seen: set[str] = set()
    for seed in range(4):
        w = random_batch(seed, 64)
        w.tick()
        seen |= causes(w.event_table())
    assert seen >= {"704.5d", "704.5g", "704.5h", "704.5q", "704.5r", "704.5c", "704.5a", "704.5i"}, seen


def test_parts_are_joined_in_order_whenever_they_end(split_always: None) -> None:
    """The later parts end first here (the earlier ones sleep longer): the join keeps
    game order, and the pool's threads took parts."""
    parallel.set_threads(4)
    items = np.arange(10, dtype=np.int64)
    ended: list[tuple[int, str]] = []

    def run(part: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        time.sleep(0.01 * (items.size - int(part[0])))
        ended.append((int(part[0]), threading.current_thread().name))
        return part * 2, (part % 3 == 0)

    a, b = parallel.split(run, items, 1)
    assert a.tolist() == (items * 2).tolist() and b.tolist() == (items % 3 == 0).tolist()
    first = [g for g, _ in ended]
    assert sorted(first) == list(range(10)) and first != sorted(first)   # out of order
    assert any(name.startswith("tcg-counters-pass") for _, name in ended)


def test_small_passes_and_one_thread_stay_on_this_thread() -> None:
    """Under MIN_ELEMENTS, or with one thread, a pass is one call here (no pool)."""
    seen: list[tuple[int, str]] = []

    def run(part: np.ndarray) -> tuple[np.ndarray]:
        seen.append((part.size, threading.current_thread().name))
        return (part,)

    before = parallel.threads()
    try:
        parallel.set_threads(2)
        parallel.split(run, np.arange(8), parallel.MIN_ELEMENTS - 1)
        parallel.set_threads(1)
        parallel.split(run, np.arange(8), 10 * parallel.MIN_ELEMENTS)
    finally:
        parallel.set_threads(before)
    assert seen == [(8, threading.current_thread().name)] * 2


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork only")
def test_a_forked_child_splits_on_threads_of_its_own(split_always: None) -> None:
    """A pool's threads do not survive a fork: the child starts a pool of its own, whose
    threads take parts (the parent's pool would leave every part to the caller)."""
    parallel.set_threads(2)
    parallel.split(lambda p: (p,), np.arange(4), 1)   # the parent's pool is started
    pid = os.fork()
    if pid == 0:   # the child: exit 0 only if a pool thread ran a part (SIGALRM ends a hang)
        signal.alarm(30)
        try:
            names = []

            def run(part: np.ndarray) -> tuple[np.ndarray]:
                time.sleep(0.02)
                names.append(threading.current_thread().name)
                return (part + 1,)

            out = parallel.split(run, np.arange(4), 1)
            pooled = any(n.startswith("tcg-counters-pass") for n in names)
            os._exit(0 if out[0].tolist() == [1, 2, 3, 4] and pooled else 1)
        except BaseException:
            os._exit(2)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


@pytest.mark.parametrize("bad", [0, -1, 1025, 1.5, True, "2"])
def test_set_threads_refuses_what_is_no_count(bad: Any) -> None:
    before = parallel.threads()
    with pytest.raises(ecs.CounterError, match="threads"):
        parallel.set_threads(bad)
    assert parallel.threads() == before


def test_an_error_in_a_part_is_raised_by_split_once_every_part_ended(split_always: None) -> None:
    """A part's own exception reaches the caller of ``split`` (not a failed join), after
    the other parts ended: none is running when it is raised."""
    parallel.set_threads(3)
    running: list[int] = []

    def run(part: np.ndarray) -> tuple[np.ndarray]:
        running.append(1)
        time.sleep(0.01)
        if 4 in part:
            raise ZeroDivisionError("part 4")
        running.pop()
        return (part,)

    with pytest.raises(ZeroDivisionError, match="part 4"):
        parallel.split(run, np.arange(12, dtype=np.int64), 1)
    assert running == [1]   # (only the part that raised did not end normally)


def test_the_pool_has_a_thread_less_than_the_threads_and_is_reused(split_always: None) -> None:
    """The caller is one of the threads: the pool has ``threads() - 1``, kept from one
    split to the next, and started anew for another number of threads."""
    parallel.set_threads(3)
    parallel.split(lambda part: (part,), np.arange(8, dtype=np.int64), 1)
    pool = parallel._executor()
    assert pool._max_workers == 2
    parallel.split(lambda part: (part,), np.arange(8, dtype=np.int64), 1)
    assert parallel._executor() is pool
    parallel.set_threads(2)
    parallel.split(lambda part: (part,), np.arange(8, dtype=np.int64), 1)
    assert parallel._executor() is not pool and parallel._executor()._max_workers == 1


def test_set_threads_takes_every_count_from_one_to_1024() -> None:
    """Both ends of 1..1024 are counts, a NumPy integer too."""
    before = parallel.threads()
    try:
        for n in (1, 1024, np.int64(3)):
            parallel.set_threads(n)
            assert parallel.threads() == n and type(parallel.threads()) is int
    finally:
        parallel.set_threads(before)


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="Linux only")
def test_set_threads_of_none_takes_every_core_this_process_may_run_on() -> None:
    before = parallel.threads()
    try:
        parallel.set_threads(None)
        assert parallel.threads() == len(os.sched_getaffinity(0))
    finally:
        parallel.set_threads(before)


def test_a_pass_over_one_game_or_none_is_one_call_on_this_thread(split_always: None,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """One game cannot be split: it runs here, with no pool (none started, none woken),
    whatever the threads; no game at all, the same."""
    parallel.set_threads(4)

    def no_pool() -> Any:
        raise AssertionError("a pool for a pass that cannot be split")

    monkeypatch.setattr(parallel, "_executor", no_pool)
    seen: list[tuple[int, str]] = []

    def run(part: np.ndarray) -> tuple[np.ndarray]:
        seen.append((part.size, threading.current_thread().name))
        return (part + 1,)

    assert parallel.split(run, np.arange(1, dtype=np.int64), 1)[0].tolist() == [1]
    assert parallel.split(run, np.arange(0, dtype=np.int64), 0)[0].tolist() == []
    assert seen == [(1, threading.current_thread().name), (0, threading.current_thread().name)]


def test_a_pass_of_min_elements_is_split() -> None:
    """``MIN_ELEMENTS`` itself is split (one call only under it): with two threads, eight
    games are ``PARTS`` parts a thread, joined in order."""
    parts: list[list[int]] = []

    def run(part: np.ndarray) -> tuple[np.ndarray]:
        parts.append(part.tolist())
        return (part * 3,)

    before = parallel.threads()
    try:
        parallel.set_threads(2)
        out = parallel.split(run, np.arange(8, dtype=np.int64), parallel.MIN_ELEMENTS)
    finally:
        parallel.set_threads(before)
    assert out[0].tolist() == [3 * g for g in range(8)]
    assert sorted(parts) == [[g] for g in range(8)] and len(parts) == 2 * parallel.PARTS


def test_no_part_starts_once_a_part_raised(split_always: None) -> None:
    """After a part raised, the parts not yet started are left (their result is not
    used): each thread runs one part at most here, where every part raises."""
    parallel.set_threads(2)
    started: list[int] = []

    def run(part: np.ndarray) -> tuple[np.ndarray]:
        started.append(int(part[0]))
        time.sleep(0.01)
        raise ZeroDivisionError(f"part {int(part[0])}")

    with pytest.raises(ZeroDivisionError, match="part"):
        parallel.split(run, np.arange(12, dtype=np.int64), 1)
    assert 1 <= len(started) <= 2, started
