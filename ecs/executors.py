"""Where a Monte Carlo run's shards play: a local process pool of its own (replaced when a
worker dies, killed at once when the run stops early) or any concurrent.futures.Executor
(a Dask cluster's among them), and Ctrl-C while they do."""
from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Iterator

import numpy as np

from .errors import SchedulerError
from .systems import parallel

CONNECT_TIMEOUT = 10.0     # seconds to reach a Dask scheduler

#: Signals held back while local workers start (SIGTERM: a parent may handle it, e.g. the
#: command line, and a forked worker inherits that handler until its initializer runs).
_HELD = {signal.SIGINT, signal.SIGTERM}


def _worker_init() -> None:
    """Local workers leave Ctrl-C to the parent, which stops them; SIGTERM kills them, as
    it would have before the parent handled it. They exit when the parent dies (a SIGKILL
    leaves no one to stop them, and they would hold its output pipes open for ever).
    A forked worker freezes what it inherited (on a first run, the kernel compiler's many
    objects), so that its collections do not walk, and copy, them again and again. Each
    worker takes a core of its own: its passes are not split across threads
    (``ecs.systems.parallel``)."""
    gc.freeze()
    parallel.set_threads(1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    parent = multiprocessing.parent_process()
    if parent is not None:   # its sentinel is ready once the parent is gone
        threading.Thread(target=_exit_after, args=(parent,), daemon=True).start()


def _exit_after(parent: Any) -> None:
    parent.join()
    os._exit(1)   # nothing of a shard is worth keeping, and nobody would read it


@contextlib.contextmanager
def sigint_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back while local workers start: one that got it before its
    initializer ran would die with a traceback and break the pool. The parent gets it when
    this ends."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


class Interrupts:
    """Ctrl-C during a run, remembered in a flag before anything else happens.

    A KeyboardInterrupt can be lost: numba's compiler calls Python code from C code that
    clears errors, so an interrupt while kernels load may vanish; the flag survives and the
    run checks it. While the run waits on an executor the handler only sets the flag: a
    KeyboardInterrupt raised inside concurrent.futures could leave a lock held or a future
    cancelled under the pool's feet. Installed in the main thread over Python's default
    handler only (an application's own SIGINT handling is left alone: it may call
    ``interrupt``)."""

    def __init__(self) -> None:
        self.flag = threading.Event()
        self.raising = True
        self._old: Any = None
        self._thread = threading.get_ident()

    def __call__(self, signum: int, frame: Any) -> None:
        self.flag.set()
        if self.raising and threading.get_ident() == self._thread:
            raise KeyboardInterrupt

    def __enter__(self) -> "Interrupts":
        if threading.current_thread() is threading.main_thread() and \
                signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self._old = signal.signal(signal.SIGINT, self)
        _running.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        _running.remove(self)
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)

    def check(self) -> None:
        if self.flag.is_set():
            raise KeyboardInterrupt


_running: list[Interrupts] = []    # the runs in progress in this process, newest last


def interrupt() -> bool:
    """Stop the newest run in progress in this process as Ctrl-C does: it returns the games
    that finished, ``interrupted`` set. For an application's own signal handling (SIGTERM, a
    SIGINT handler of its own, under which a run leaves SIGINT alone). Called in the run's
    thread (a signal handler is), it raises KeyboardInterrupt there as Ctrl-C would, except
    while the run waits on its pool or executor: there, as from another thread, it only
    asks the run to stop, which it does between shards. False when no run is in progress."""
    if not _running:
        return False
    _running[-1](signal.SIGINT, None)
    return True


def dask_executor(scheduler: str) -> tuple[Executor, Callable[[], None]]:
    """An executor on a Dask cluster (``dask[distributed]`` is imported only here); raises
    SchedulerError when Dask is missing or nobody answers within CONNECT_TIMEOUT seconds."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise SchedulerError(f"a Dask scheduler ({scheduler}) needs Dask: "
                             "pip install 'tcg-counters[dask]'") from None
    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT)
    except (OSError, ValueError, TypeError) as e:  # unreachable, or not an address
        raise SchedulerError(f"cannot reach the Dask scheduler at {scheduler!r} within "
                             f"{CONNECT_TIMEOUT:g} s: {e}") from None
    return client.get_executor(), lambda: client.close(timeout=CONNECT_TIMEOUT)


def parallelism(executor: Executor, workers: int) -> int:
    """How many shards an executor plays at once (a guess for unknown executors)."""
    client = getattr(executor, "_client", None)   # a Dask ClientExecutor
    if client is not None:
        with contextlib.suppress(Exception):
            return max(1, sum(client.nthreads().values()))
    return int(getattr(executor, "_max_workers", None) or workers)


class Pool:
    """The executor shards run on, each submission a call of ``task``. A local process pool
    of this module's own can be replaced when a worker dies, and is killed at once when the
    run stops early."""

    def __init__(self, executor: Executor | None, workers: int, task: Callable[..., Any],
                 close: Callable[[], None] | None = None) -> None:
        self.task = task
        self.own = executor is None
        self.workers = workers
        self.executor: Executor = executor or self._start()
        self.close_fn = close
        self.parallelism = workers if self.own else parallelism(self.executor, workers)

    def _start(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self.workers, initializer=_worker_init)

    def submit(self, *args: Any) -> Future[dict[str, np.ndarray]]:
        return self.executor.submit(self.task, *args)

    def lost(self) -> str | None:
        """Why the executor will never finish its futures, if it knows: a Dask client that
        gave up reconnecting to its scheduler leaves them pending for ever. A local pool of
        our own with a dead worker is unstuck (its futures fail, and are resubmitted)."""
        if self.own:
            assert isinstance(self.executor, ProcessPoolExecutor)
            procs = (getattr(self.executor, "_processes", None) or {}).values()
            if any(p.exitcode is not None for p in list(procs)):
                _break(self.executor)   # a pool with a dead worker is broken anyway
            return None
        status = self._client_status()
        if status in ("closing", "closed"):
            return f"the Dask client lost its scheduler ({status})"
        return None

    def _client_status(self) -> str:
        client = getattr(self.executor, "_client", None)
        return str(getattr(client, "status", "")).removeprefix("Status.")

    def settle(self, stop: Interrupts) -> None:
        """Wait while a Dask client reconnects to its scheduler: it cancels every future
        when the connection drops, and shards resubmitted meanwhile would spend their retries
        on that one loss. It closes itself when its timeout runs out (then ``lost`` says so)."""
        deadline = time.monotonic() + 2 * CONNECT_TIMEOUT
        while self._client_status() == "connecting" and time.monotonic() < deadline:
            stop.check()
            time.sleep(0.05)

    def refused(self, e: Exception) -> str:
        """Why the executor refused a submission."""
        return self.lost() or f"the executor takes no more work: {type(e).__name__}: {e}"

    def resubmit(self, *args: Any) -> Future[dict[str, np.ndarray]]:
        """Submit again after a loss; a broken pool of our own is replaced first."""
        try:
            return self.submit(*args)
        except (BrokenProcessPool, RuntimeError):
            if not self.own:
                raise
            assert isinstance(self.executor, ProcessPoolExecutor)
            _kill(self.executor)
            with sigint_held():
                self.executor = self._start()
                return self.submit(*args)

    def close(self, pending: list[Future[dict[str, np.ndarray]]], abandon: bool) -> None:
        if self.own:
            assert isinstance(self.executor, ProcessPoolExecutor)
            if abandon:
                _kill(self.executor)
            else:
                self.executor.shutdown(wait=True)
            return
        if abandon and self.lost() is None:  # a closed client can cancel nothing (it raises)
            for f in pending:
                f.cancel()
        if self.close_fn is not None:
            with contextlib.suppress(Exception):  # a lost scheduler can't be left cleanly
                self.close_fn()


def _kill(executor: ProcessPoolExecutor) -> None:
    """Stop a local pool at once: break it (below), then let its thread finish."""
    _break(executor)
    executor.shutdown(wait=True)


def _break(executor: ProcessPoolExecutor) -> None:
    """Kill a local pool's workers, so that its own thread finds them gone and cleans up alone
    (cancelling its futures or shutting it down while it does that races it: InvalidStateError:
    CANCELLED, 'Bad file descriptor'). A worker that died while it sent a result left half a
    message in the result pipe, and the pool's thread waits for the rest for ever: its futures
    never finish, and the interpreter waits for that thread at exit (the Ctrl-C that did not
    stop a run). With the workers gone this process holds the pipe's last writer:
    closing it turns that wait into an end-of-file, and the pool breaks as it should (its
    futures fail with BrokenProcessPool)."""
    for p in list((getattr(executor, "_processes", None) or {}).values()):
        p.kill()
        p.join()
    results = getattr(executor, "_result_queue", None)
    if results is not None:
        results._writer.close()
