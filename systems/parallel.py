"""A wide pass over games, split across a few threads.

A pass (a kernel compiled with ``nogil=True``) decides each game from that game's state
alone and returns its rows in the order of the games it is given. ``split`` cuts the
sorted games into contiguous parts, runs them at once on this thread and a small pool
reused from call to call, and joins each result in part order: the very arrays one call
over all games returns, so results and events are the same bit for bit whatever the
threads. Only Lethality's first-check pass is split (``dying``: a dozen planes and some
arithmetic per object): the other passes stream a few planes each, as fast as memory
gives them, and measured slower split (docs/performance.md).

A split costs about 0.2 ms (waking a thread, handing the GIL over, on a shared 2-core
VM), so passes under ``MIN_ELEMENTS`` games x columns run in one call on this thread.
``set_threads(n)`` chooses the threads: 1 (the default: on the machine measured, shared
with other jobs, splitting lost) never splits and starts no thread; None takes every core
this process may run on.
"""
from __future__ import annotations

import itertools
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

import numpy as np

from ecs.errors import IllegalActionError

# Games x columns from which a pass is split (about 0.7 ms of ``dying``); see
# docs/performance.md for the measurements behind it.
MIN_ELEMENTS = 1 << 17
PARTS = 4   # parts per thread, claimed as threads come free

Result = tuple[np.ndarray, ...]


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:   # not on Linux
        return os.cpu_count() or 1


_threads = 1
_pool: ThreadPoolExecutor | None = None
_pool_threads = 0
_lock = threading.RLock()   # (a split holds it while it takes the pool and queues its parts)


def _forked() -> None:
    """A forked child has none of its parent's threads (nor a lock one of them held)."""
    global _pool, _lock
    _pool, _lock = None, threading.RLock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked)


def threads() -> int:
    """The threads a wide pass is split across (1: not split)."""
    return _threads


def set_threads(n: int | np.integer | None = None) -> None:
    """Split Lethality's wide pass, the one pass split, across ``n`` threads (None: every
    core this process may run on; 1: never split, no thread is started). Takes effect at
    the next pass."""
    global _threads
    if n is None:
        n = _cores()
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= n <= 1024:
        raise IllegalActionError(f"threads must be None or an integer in 1..1024, got {n!r}")
    _threads = int(n)


def _executor(n: int | None = None) -> ThreadPoolExecutor:
    """The pool of ``n - 1`` threads (None: ``threads() - 1``; the caller is one), started
    on first use (in a forked child too) and again for another number of threads (an idle
    pool is kept while passes are not split)."""
    global _pool, _pool_threads
    with _lock:
        n = _threads if n is None else n
        if _pool is None or _pool_threads != n - 1:
            if _pool is not None:   # (what was queued on it still runs)
                _pool.shutdown(wait=False)
            _pool_threads = n - 1
            _pool = ThreadPoolExecutor(_pool_threads, thread_name_prefix="tcg-counters-pass")
        return _pool


class _Job:
    """One split pass: its parts, claimed one at a time by whichever thread is free."""

    def __init__(self, run: Callable[[np.ndarray], Result], items: np.ndarray, parts: int) -> None:
        self.run, self.items = run, items
        self.bounds = np.linspace(0, items.size, parts + 1).astype(np.int64).tolist()
        self.results: list[Result] = [()] * parts
        self.claims = itertools.count()   # next() on it is atomic (the GIL)
        self.done = 0
        self.lock = threading.Lock()
        self.finished = threading.Event()
        self.error: BaseException | None = None

    def work(self) -> None:
        """Run unclaimed parts until none is left (a thread that starts late finds none)."""
        n = len(self.results)
        while (i := next(self.claims)) < n:
            try:
                if self.error is None:
                    self.results[i] = self.run(self.items[self.bounds[i]:self.bounds[i + 1]])
            except BaseException as e:   # re-raised by the caller, once every part ended
                self.error = e
            finally:
                with self.lock:
                    self.done += 1
                    if self.done == n:
                        self.finished.set()


def split(run: Callable[[np.ndarray], Result], items: np.ndarray, elements: int) -> Result:
    """``run(items)``: one call if ``elements`` (what the pass reads, in games x columns)
    is under ``MIN_ELEMENTS`` or there is one thread; else ``run`` of contiguous parts of
    ``items`` on this thread and the pool's, each of its arrays joined in part order.

    Parts are claimed as threads come free (``PARTS`` per thread), and this thread waits
    only for parts another one is running: a pool thread the machine's other load keeps
    from starting costs nothing (this thread runs its parts too), where a fixed share
    per thread would be waited for."""
    n = _threads   # (read once: another thread may set_threads meanwhile)
    k = min(n, items.size)
    if k < 2 or elements < MIN_ELEMENTS:
        return run(items)
    job = _Job(run, items, min(items.size, PARTS * k))
    with _lock:   # (queued before another thread's split, for another count, replaces the pool)
        pool = _executor(n)
        for _ in range(k - 1):
            pool.submit(job.work)
    job.work()
    job.finished.wait()   # the others read the state too: never return (or raise) before they end
    if job.error is not None:
        raise job.error
    return tuple(np.concatenate(parts) for parts in zip(*job.results))
