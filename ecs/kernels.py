"""The engine's compiled kernels, each with one declared signature.

numba compiles a function once per distinct tuple of argument types, and a read-only
array (a clone's shared array when the tests check sharing, an event column) is another
type than a writable one: a kernel that reads twenty store arrays could compile for any
mix of them, seconds each. So each kernel declares its one signature here, read-only
wherever it only reads (numba passes a writable array where a read-only one is declared,
never the reverse), is compiled for it - or loaded from numba's disk cache - once per
process by ``ready``, and compiles nothing more: a call with other types is converted
(an int32 scalar to int64) or refused with numba's TypeError.

Array types come from the declared fields (``components``), so a field's dtype is
written once: ``reads("zone")`` is a read-only (games, columns) int8 array, ``writes``
the same writable; ``counts`` is the count planes' dtype.

``ready`` compiles the kernels not ready yet in this process. On a first run after an
install or an edit (numba's cache cold: some 15 s of compiling on one core) a forked
process compiles about half of them into the disk cache while this one compiles the
rest, then this one loads that half from the cache: the wait of two cores, not one.
"""
from __future__ import annotations

import multiprocessing
import sys
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

import numpy as np
from numba import from_dtype, njit, types
from numba.core import event
from numba.core.dispatcher import Dispatcher

from .components import ALL_FIELDS
from .components.fields import CAP, GAME, PLAYER

F = TypeVar("F", bound=Callable[..., Any])

COUNT = np.int32   # the dtype of the count planes (ecs.store)
_DTYPE = {f.name: np.dtype(f.dtype) for f in ALL_FIELDS}
_NDIM = {f.name: 1 if f.shape in (PLAYER, GAME, CAP) else 2 for f in ALL_FIELDS}

I64 = types.int64
BOOL = types.boolean


def array(dtype: Any, ndim: int, readonly: bool = True) -> types.Array:
    """A C-contiguous array of ``dtype`` and ``ndim`` dimensions, read-only by default."""
    return types.Array(from_dtype(np.dtype(dtype)), ndim, "C", readonly=readonly)


INDEX = array(np.int64, 1)   # games, columns, rows, flat slots: int64 index arrays


def reads(name: str, ndim: int | None = None) -> types.Array:
    """The store field ``name`` (or "counts", the (kinds, games, columns) planes), read;
    ``ndim`` for a view of another rank (a flat or a single plane)."""
    if name == "counts":
        return array(COUNT, 3 if ndim is None else ndim)
    return array(_DTYPE[name], _NDIM[name] if ndim is None else ndim)


def writes(name: str, ndim: int | None = None) -> types.Array:
    """``reads(name, ndim)``, writable: the kernel writes it."""
    return types.Array(reads(name, ndim).dtype, reads(name, ndim).ndim, "C")


@dataclass(frozen=True)
class Kernel:
    dispatcher: Dispatcher
    signature: tuple[types.Type, ...]
    uses: tuple[Dispatcher, ...]   # the kernels it calls: frozen before it compiles


KERNELS: list[Kernel] = []   # in declaration order
_frozen: set[int] = set()    # ids of the dispatchers compiled and frozen in this process
_helped = 0                  # kernels a forked helper compiled for this process


def kernel(*signature: types.Type, uses: tuple[Any, ...] = (), **options: Any) -> Callable[[F], F]:
    """``numba.njit(cache=True, **options)``, to be compiled for ``signature`` only by
    ``ready``, after the kernels it ``uses`` (calls): a call from compiled code converts its
    arguments to a frozen callee's signature, but has an unfrozen one compiled anew."""
    def wrap(fn: F) -> F:
        dispatcher = njit(cache=True, **options)(fn)
        KERNELS.append(Kernel(dispatcher, signature, uses))
        return dispatcher
    return wrap


def ready() -> None:
    """Compile or load every kernel declared so far that this process has not, then freeze
    them; a no-op once done (a World calls it as it is made). They go in rounds: the
    kernels whose callees are frozen. Where the first kernel had to be compiled (numba's
    cache is cold) and the platform forks, a forked helper process compiles into the cache
    alongside this one in each round, both taking the next kernel not yet taken; this one
    then loads what the helper compiled."""
    global _helped
    if len(_frozen) == len(KERNELS):
        return
    pending = [k for k in KERNELS if id(k.dispatcher) not in _frozen]
    first = pending[0]
    cold = _compiled(first)
    while pending:
        now = [k for k in pending if all(id(u) in _frozen for u in k.uses)]
        if not now:
            raise RuntimeError(f"kernels use undeclared kernels: {[k.dispatcher for k in pending]}")
        todo = [k for k in now if k is not first]
        # (a daemonic process, e.g. a multiprocessing.Pool worker, may not have children)
        if cold and len(todo) > 1 and sys.platform == "linux" and not multiprocessing.current_process().daemon:
            fork = multiprocessing.get_context("fork")
            taken = fork.Value("i", 0)
            helper = fork.Process(target=_take, args=(todo, taken))
            helper.start()
            mine = _take(todo, taken)
            helper.join()
            _helped += len(todo) - mine
        for k in now:
            k.dispatcher.compile(k.signature)   # a no-op if compiled, a load if in the disk cache
            k.dispatcher.disable_compile()
            _frozen.add(id(k.dispatcher))
        pending = [k for k in pending if id(k.dispatcher) not in _frozen]


def helped() -> int:
    """How many kernels forked helpers have compiled for this process (numba's compile
    events, which count the others, fire in the process that compiles)."""
    return _helped


def _take(kernels: list[Kernel], taken: Any) -> int:
    """Compile the ``kernels`` that no other process has taken, one at a time; how many."""
    mine = 0
    while True:
        with taken.get_lock():
            i = taken.value
            taken.value += 1
        if i >= len(kernels):
            return mine
        kernels[i].dispatcher.compile(kernels[i].signature)
        mine += 1


class _Saw(event.Listener):
    """Whether numba compiled anything (a load from the disk cache fires no event)."""
    compiled = False

    def on_start(self, ev: Any) -> None:
        self.compiled = True

    def on_end(self, ev: Any) -> None:
        pass


def _compiled(k: Kernel) -> bool:
    """Compile or load ``k`` (it uses no other kernel); whether it had to be compiled."""
    saw = _Saw()
    with event.install_listener("numba:compile", saw):
        k.dispatcher.compile(k.signature)
    return saw.compiled
