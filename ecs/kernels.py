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
install or an edit (numba's cache cold: some 10-12 s of compiling on one core) a forked
process compiles about half of them into the disk cache while this one compiles the
rest, then this one loads that half from the cache: the wait of two cores, not one. A
kernel that calls others calls their native code by symbol, not a copy of it compiled
into its own (``_by_symbol``).

``ready`` compiles only what a World needs. A kernel that one system's passes alone call
names it (``system=Lethality``): it is compiled for a World whose ruleset or schedule has
that system (or a subclass of it), so a batched Magic run does not wait for the Grand
Archive's checks, nor a Grand Archive run for Lethality's. An *optional* kernel only saves
work: its caller has another way to the same answer (the settled probe,
``ecs.systems.settled``, for one game's ticks; a small batch's too). ``ready`` loads it
when the disk cache holds it and every kernel it uses, but compiles it only when asked
(``ready(optional=True)``, which a World of one game does): a batched run (the Monte Carlo
job) never waits for it. Its caller asks ``frozen`` before calling it. A kernel is
compiled or loaded with every kernel it uses (the probe, with every system's).
"""
from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import multiprocessing
import os
import sys
import threading
import time
from dataclasses import dataclass
from types import CodeType, FunctionType, ModuleType
from typing import Any, Callable, Iterable, Iterator, Sequence, TypeVar, cast

import numpy as np
from llvmlite import binding as ll
from numba import from_dtype, njit, types
from numba.core import cgutils, errors, imputils
from numba.core.dispatcher import Dispatcher
from numba.extending import intrinsic
from numba.np import arrayobj
from numba.np.numpy_support import as_dtype

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


# Views and allocation for kernel bodies. numba lowers ``a.reshape(-1)`` with its general
# shape checks and ``a[:m]`` with its general bounds and step logic: some 870 and 250 lines
# of LLVM IR at each use, which it generates in Python and LLVM optimizes and compiles, per
# kernel; it types each ``np.empty`` through its overload machinery. These are a dozen
# lines each.
_populate: Any = arrayobj.populate_array
_borrowed: Any = imputils.impl_ret_borrowed
_new_ref: Any = imputils.impl_ret_new_ref


@intrinsic
def _flat(typingctx: Any, arr: Any) -> Any:
    """``arr.reshape(-1)`` of a C-contiguous array: a 1-D view of all its elements."""
    if not (isinstance(arr, types.Array) and arr.layout == "C"):
        return None

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        src = context.make_array(sig.args[0])(context, builder, args[0])
        out = context.make_array(sig.return_type)(context, builder)
        _populate(out, data=src.data, shape=[src.nitems], strides=[src.itemsize],
                  itemsize=src.itemsize, meminfo=src.meminfo, parent=src.parent)
        return _borrowed(context, builder, sig.return_type, out._getvalue())
    return arr.copy(ndim=1)(arr), codegen


@intrinsic
def _head(typingctx: Any, arr: Any, m: Any) -> Any:
    """``arr[:m]`` of a 1-D C-contiguous array, for ``m`` of 0 or more (clamped to its length)."""
    if not (isinstance(arr, types.Array) and arr.ndim == 1 and arr.layout == "C"
            and isinstance(m, types.Integer)):
        return None

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        src = context.make_array(sig.args[0])(context, builder, args[0])
        out = context.make_array(sig.return_type)(context, builder)
        size = builder.extract_value(src.shape, 0)
        n = context.cast(builder, args[1], sig.args[1], types.intp)
        n = builder.select(builder.icmp_signed("<", n, size), n, size)
        _populate(out, data=src.data, shape=[n], strides=cgutils.unpack_tuple(builder, src.strides),
                  itemsize=src.itemsize, meminfo=src.meminfo, parent=src.parent)
        return _borrowed(context, builder, sig.return_type, out._getvalue())
    return arr(arr, m), codegen


def _c_order(builder: Any, itemsize: Any, dims: list[Any]) -> tuple[list[Any], Any]:
    """The strides of a C-contiguous array of ``dims`` (IR values) and its size in bytes."""
    strides: list[Any] = []
    size = itemsize
    for d in reversed(dims):
        strides.insert(0, size)
        size = builder.mul(size, d)
    return strides, size


@intrinsic
def _empty(typingctx: Any, shape: Any, dtype: Any) -> Any:
    """``np.empty(shape, dtype)`` for an integer or a tuple of integers (none negative: the
    kernels' sizes) and a NumPy scalar type (``np.int64``): a new C-contiguous array, its
    allocation inline. (numba types each ``np.empty`` through its overload machinery, some
    5 ms a call, and checks each dimension with a raise of its own.)"""
    if isinstance(shape, types.Integer):
        ndim = 1
    elif isinstance(shape, types.UniTuple) and isinstance(shape.dtype, types.Integer):
        ndim = shape.count
    else:
        return None
    if not isinstance(dtype, types.NumberClass):
        return None
    out_type = types.Array(dtype.instance_type, ndim, "C")

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        dims = [args[0]] if ndim == 1 else cgutils.unpack_tuple(builder, args[0])
        kinds = [sig.args[0]] if ndim == 1 else list(sig.args[0])
        dims = [context.cast(builder, d, t, types.intp) for d, t in zip(dims, kinds)]
        data_type = context.get_data_type(out_type.dtype)
        itemsize = cgutils.intp_t(context.get_abi_sizeof(data_type))
        strides, size = _c_order(builder, itemsize, dims)
        meminfo = context.nrt.meminfo_alloc_aligned(builder, size=size, align=32)
        cgutils.guard_memory_error(context, builder, meminfo, "Allocation failed (probably too large).")
        out = context.make_array(out_type)(context, builder)
        _populate(out, data=builder.bitcast(context.nrt.meminfo_data(builder, meminfo), data_type.as_pointer()),
                  shape=dims, strides=strides, itemsize=itemsize, meminfo=meminfo)
        return _new_ref(context, builder, out_type, out._getvalue())
    return out_type(shape, dtype), codegen


# An address table: the arrays and ints a kernel reads, one row each (``addresses``), as
# one argument. numba unboxes each array argument from its Python object: some 30 ns hot,
# but after other work a few cache misses each (the settled probe's 45 arguments, 30 of
# them arrays: 27 us of a call with an empty body). A row is an array's address and
# shape, or an int.
TABLE = types.Array(types.int64, 2, "C", readonly=True)
_TABLE_WIDTH = 4   # an address and up to three dimensions


@intrinsic
def _at(typingctx: Any, table: Any, row: Any, of: Any) -> Any:
    """The array of row ``row`` of an address table (``addresses``), of the declared type
    ``of`` (``reads("zone")``: a C-contiguous array type). A view that holds no reference:
    valid while whoever made the table holds the array."""
    if not (table == TABLE and isinstance(row, types.Integer) and isinstance(of, types.TypeRef)
            and isinstance(of.instance_type, types.Array) and of.instance_type.layout == "C"):
        return None
    out_type = of.instance_type

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        tab = context.make_array(sig.args[0])(context, builder, args[0])
        at = context.cast(builder, args[1], sig.args[1], types.intp)

        def entry(j: int) -> Any:
            return builder.load(cgutils.get_item_pointer(context, builder, sig.args[0], tab,
                                                         [at, context.get_constant(types.intp, j)]))
        data_type = context.get_data_type(out_type.dtype)
        dims = [entry(1 + d) for d in range(out_type.ndim)]
        itemsize = cgutils.intp_t(context.get_abi_sizeof(data_type))
        strides, size = _c_order(builder, itemsize, dims)
        out = context.make_array(out_type)(context, builder)
        _populate(out, data=builder.inttoptr(entry(0), data_type.as_pointer()), shape=dims,
                  strides=strides, itemsize=itemsize, meminfo=None)
        return out._getvalue()
    return out_type(table, row, of), codegen


def addresses(values: Sequence[Any], declared: Sequence[types.Type],
              last: tuple[Sequence[Any], np.ndarray] | None = None) -> np.ndarray:
    """The address table of ``values`` (arrays and ints), each of its ``declared`` type (an
    array must be C-contiguous, of the declared dtype and rank: ``at`` trusts the row). The
    caller holds the arrays while the table is used. ``last``: (its values, an earlier table) of
    the same ``declared``, whose rows of arrays that are the same objects are taken
    (an array's row costs a microsecond or so, mostly ``ctypes``: a search's clones that
    differ in a few values would otherwise remake every row)."""
    table = np.zeros((len(values), _TABLE_WIDTH), np.int64) if last is None else last[1].copy()
    before: Sequence[Any] = () if last is None else last[0]
    for i, (value, of) in enumerate(zip(values, declared, strict=True)):
        array_of = _array_of(of)
        if array_of is None:   # an int (a row of ``declared``'s own zeros past the first)
            table[i, 0] = value
        elif i < len(before) and value is before[i]:
            continue
        elif (isinstance(value, np.ndarray) and value.flags.c_contiguous
              and (value.dtype, value.ndim) == array_of):
            table[i, 0] = value.ctypes.data
            table[i, 1: 1 + value.ndim] = value.shape
        else:
            raise TypeError(f"row {i} of an address table: expected a C-contiguous {of}, "
                            f"got {type(value).__name__} {getattr(value, 'dtype', '')}")
    table.flags.writeable = False
    return table


def _array_of(of: types.Type) -> tuple[np.dtype[Any], int] | None:
    """The NumPy dtype and rank of an array type, None for another type (numba's
    ``as_dtype`` and an abstract class's ``isinstance``: about a microsecond a row, remembered)."""
    try:
        return _ARRAYS[of]
    except KeyError:
        made = _ARRAYS[of] = (as_dtype(of.dtype), of.ndim) if isinstance(of, types.Array) else None
        return made


_ARRAYS: dict[types.Type, tuple[np.dtype[Any], int] | None] = {}


flat = cast(Callable[[np.ndarray], np.ndarray], _flat)
head = cast(Callable[[np.ndarray, Any], np.ndarray], _head)
empty = cast(Callable[[Any, Any], np.ndarray], _empty)
at = cast(Callable[[np.ndarray, int, Any], np.ndarray], _at)


@dataclass(frozen=True)
class Kernel:
    dispatcher: Dispatcher
    signature: tuple[types.Type, ...]
    uses: tuple[Dispatcher, ...]   # the kernels it calls: frozen before it compiles
    optional: bool = False         # compiled only when asked (see the module docstring)
    system: type | None = None     # the system whose passes alone call it (ditto)


KERNELS: list[Kernel] = []   # in declaration order
_frozen: set[int] = set()    # ids of the dispatchers compiled and frozen in this process
_absent: set[int] = set()    # ids of optional kernels that ``ready`` found uncached and left
_helped = 0                  # kernels a forked helper compiled for this process
# One thread readies kernels at a time: two at once would compile beside each other, and
# one could fork the helper while the other holds numba's compiler lock, which the helper
# then waits for forever (a fork copies a lock held, not the thread that would release it).
_READY = threading.RLock()


def _forked() -> None:
    """A forked child has none of its parent's threads, nor the lock one of them held."""
    global _READY
    _READY = threading.RLock()


os.register_at_fork(after_in_child=_forked)


def kernel(*signature: types.Type, uses: tuple[Any, ...] = (), optional: bool = False,
           system: type | None = None, **options: Any) -> Callable[[F], F]:
    """``numba.njit(cache=True, **options)``, to be compiled for ``signature`` only by
    ``ready``, after the kernels it ``uses`` (calls): a call from compiled code converts its
    arguments to a frozen callee's signature, but has an unfrozen one compiled anew.
    ``optional``, ``system``: see the module docstring; nothing may call an optional kernel
    from compiled code."""
    def wrap(fn: F) -> F:
        # (no C-callable wrapper: nothing calls a kernel through one, and each costs ~0.02 s)
        if any(k.optional and k.dispatcher is u for k in KERNELS for u in uses):
            raise ValueError(f"{fn.__qualname__} uses an optional kernel, which may be absent")
        dispatcher = njit(cache=True, **{"no_cfunc_wrapper": True, **options})(fn)
        _keyed(dispatcher, uses)
        KERNELS.append(Kernel(dispatcher, signature, uses, optional, system))
        return dispatcher
    return wrap


_FREE, _TAKEN, _HERE, _HELPER = 0, 1, 2, 3   # a kernel's state in a shared compile


def ready(optional: bool = False, systems: Iterable[type] = ()) -> None:
    """Compile or load, then freeze, the kernels declared so far that a World running
    ``systems`` needs and this process has not: those no system owns, those of ``systems``
    (``system`` of ``kernel``), with ``optional`` the optional ones, and every kernel these
    use. A no-op once done (a World calls it as it is made, a Schedule as it is built).

    Where kernels are missing from numba's disk cache (a first run, or an edit) and the
    platform forks, a forked helper process compiles kernels into the cache alongside this
    one: both take, of the missing kernels nobody has taken whose callees are done, first
    what a caller waits for, then the longest, loading those the other compiled; at the
    end this one loads the rest."""
    if len(_frozen) == len(KERNELS):   # (every kernel ready: a World of one game made one)
        return
    with _READY:
        _ready_now(optional, systems)


def _ready_now(optional: bool, systems: Iterable[type]) -> None:
    wanted = needed(optional, systems)
    asked = {id(k.dispatcher) for k in wanted}
    spare = [k for k in KERNELS if k.optional and id(k.dispatcher) not in asked
             and id(k.dispatcher) not in _frozen and id(k.dispatcher) not in _absent]
    if spare or any(id(k.dispatcher) not in _frozen for k in wanted):
        with _plain_errors(), _no_collector():
            _ready(wanted)
            for k in spare:
                _load(k)


def needed(optional: bool, systems: Iterable[type]) -> list[Kernel]:
    """The kernels ``ready(optional, systems)`` compiles or loads, in declaration order."""
    owners = {c for s in systems for c in s.__mro__}   # (a kernel of a system's superclass too)
    return _with_callees([k for k in KERNELS if (optional or not k.optional)
                          and (k.system is None or k.system in owners)])


def _with_callees(roots: list[Kernel]) -> list[Kernel]:
    """``roots`` and every kernel they use, directly or not, in declaration order (callees
    first)."""
    by_id = {id(k.dispatcher): k for k in KERNELS}
    todo = list(roots)
    wanted = {id(k.dispatcher) for k in todo}
    while todo:
        for u in todo.pop().uses:
            if id(u) not in by_id:
                raise RuntimeError(f"a kernel uses an undeclared one: {u}")
            if id(u) not in wanted:
                wanted.add(id(u))
                todo.append(by_id[id(u)])
    return [k for k in KERNELS if id(k.dispatcher) in wanted]


def _load(k: Kernel) -> None:
    """Freeze the optional kernel ``k`` and what it uses where the disk cache holds them all
    (none compiles: a callee is looked up before its caller, whose cache key loads it);
    else leave it, and do not look again."""
    closure = _with_callees([k])
    if all(id(u.dispatcher) in _frozen or _cached(u) for u in closure):
        for u in closure:
            _freeze(u)
    else:
        _absent.add(id(k.dispatcher))


def frozen(dispatcher: Any) -> bool:
    """Whether the kernel ``dispatcher`` is ready to call (an optional one may not be)."""
    return id(dispatcher) in _frozen


def _ready(wanted: list[Kernel]) -> None:
    global _helped
    pending = [k for k in wanted if id(k.dispatcher) not in _frozen]
    used = {id(u) for k in pending for u in k.uses}
    # callers last (in declaration order: a caller's callees come before it), and of the
    # others, first those a caller waits for
    pending.sort(key=lambda k: (bool(k.uses), id(k.dispatcher) not in used))
    # Looked up in the cache's index, not compiled, so that the helper starts at once (a
    # caller's key holds its callees' symbols: it is looked up as it is compiled or loaded)
    missing = [k for k in pending if not k.uses and not _cached(k)]
    # (a daemonic process, e.g. a multiprocessing.Pool worker, may not have children)
    if len(missing) > 1 and sys.platform == "linux" and not multiprocessing.current_process().daemon:
        # what a caller waits for first, then the longest first (by the size of its bytecode,
        # a rough measure of its compile), so that the two processes end together
        todo = sorted(missing + [k for k in pending if k.uses],
                      key=lambda k: (id(k.dispatcher) not in used, -_size(k)))
        # numba's first compile in a process loads its registries, importing much (SciPy's
        # linalg to look for BLAS: about half a second): once, here, for both processes
        context: Any = missing[0].dispatcher.targetctx
        cast(Any, missing[0].dispatcher).typingctx.refresh()
        context.refresh()
        fork = multiprocessing.get_context("fork")
        state = fork.Array("b", [_FREE] * len(todo))
        helper = fork.Process(target=_work, args=(todo, state, None))
        helper.start()
        _work(todo, state, helper)
        helper.join()
        _helped += list(state[:]).count(_HELPER)
    for k in pending:
        _freeze(k)


@contextlib.contextmanager
def _no_collector() -> Iterator[None]:
    """Python's cyclic collector off while kernels compile or load, as it was afterwards:
    numba's compiler makes hundreds of thousands of objects, and the collections they
    trigger walk them all again and again (some 12% of a cold compile's CPU). What the
    compile left unreachable goes in the first collection after."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextlib.contextmanager
def _plain_errors() -> Iterator[None]:
    """numba's error messages uncolored while the kernels compile: typing a call tries
    overloads that do not apply, and numba formats a message for each, colored through
    colorama, which wraps the standard streams anew for every piece (some 18,000: 0.2 s)."""
    scheme: Any = errors.termcolor()
    plain = hasattr(scheme, "_markup") and "_markup" not in vars(scheme)
    if plain:
        scheme._markup = lambda msg, color=None, style=None: msg
    try:
        yield
    finally:
        if plain:
            del scheme._markup


def helped() -> int:
    """How many kernels forked helpers have compiled for this process (numba's compile
    events, which count the others, fire in the process that compiles)."""
    return _helped


def _work(pending: list[Kernel], state: Any, helper: Any) -> None:
    """Compile the kernels of ``pending`` nobody has taken whose callees are done, one at a
    time and in ``pending``'s order, until none is left: here (``helper``: the forked
    helper) and in the helper (None) alike, a callee the other compiled loaded from the
    disk cache; waiting for callees the other is compiling while it lives."""
    index = {id(k.dispatcher): i for i, k in enumerate(pending)}
    here = helper is not None
    other = helper if here else multiprocessing.parent_process()   # compiling beside this one
    while True:
        with state.get_lock():
            free = [i for i, k in enumerate(pending) if state[i] == _FREE]
            go = [i for i in free if all(id(u) not in index or state[index[id(u)]] >= _HERE
                                         for u in pending[i].uses)]
            if go:
                i = go[0]
                state[i] = _TAKEN
        if not go:
            if not free or other is None or not other.is_alive():   # (what a dead helper took is compiled at the end)
                return
            time.sleep(0.01)
            continue
        _compile(pending[i])   # (its callees loaded: compiled by either process)
        with state.get_lock():
            state[i] = _HERE if here else _HELPER


def _size(k: Kernel) -> int:
    """The length of ``k``'s bytecode: its compile takes roughly as long as it is long."""
    return len(cast(Any, k.dispatcher).py_func.__code__.co_code)


def _freeze(k: Kernel) -> None:
    if id(k.dispatcher) not in _frozen:
        _compile(k)   # a no-op if compiled, a load if in the disk cache
        k.dispatcher.disable_compile()
        _export(k)
        _frozen.add(id(k.dispatcher))


def _export(k: Kernel) -> None:
    """Make ``k``'s native code callable by its symbol (``_by_symbol``)."""
    cres: Any = next(iter(k.dispatcher.overloads.values()))
    name = cres.fndesc.mangled_name
    ll.add_symbol(name, cres.library.get_pointer_to_function(name))


@contextlib.contextmanager
def _by_symbol(uses: tuple[Dispatcher, ...]) -> Iterator[None]:
    """While a kernel that ``uses`` others compiles, its calls to them call their native code
    by its symbol, where numba would link a copy of their code into its own and optimize and
    compile it again (the settled probe's eight callees: about a second of its three). Only
    for the engine's own callers, which ``_keyed`` keeps in step with their callees; a plain
    ``njit`` helper through which a caller calls them must not be cached on its own
    (``cache=False``): numba's key of it would not see a callee compiled anew."""
    called: list[Any] = [next(iter(u.overloads.values())) for u in uses]
    context: Any = uses[0].targetctx if uses else None
    for cres in called:
        context.remove_user_function(cres.entry_point)
        context.insert_user_function(cres.entry_point, cres.fndesc, ())   # no library to link
    try:
        yield
    finally:
        for cres in called:
            context.remove_user_function(cres.entry_point)
            context.insert_user_function(cres.entry_point, cres.fndesc, [cres.library])


def _compile(k: Kernel) -> None:
    """Compile or load ``k`` for its signature, after the kernels it uses."""
    for u in k.uses:
        _freeze(next(c for c in KERNELS if c.dispatcher is u))
    with _by_symbol(k.uses):
        k.dispatcher.compile(k.signature)


def _keyed(dispatcher: Dispatcher, uses: tuple[Dispatcher, ...]) -> None:
    """Complete numba's cache key of a kernel (its bytecode and the target), which misses
    what its compiled code takes from elsewhere, so that a load never returns code compiled
    against something else:

    - what it reads of the package beyond its own bytecode (``_sources``): a helper inlined
      from another module, a constant imported from one;
    - its callees' symbols, which must be loaded before its cached code (else LLVM aborts
      the process) and be those it was compiled against: computing the key, on any compile
      or load, readies them first."""
    cache: Any = cast(Any, dispatcher)._cache
    index_key = cache._index_key
    py_func: Any = cast(Any, dispatcher).py_func
    sources: list[str] = []

    def keyed(sig: Any, codegen: Any) -> tuple[Any, ...]:
        if not sources:
            sources.append(_sources(py_func))
        callees = []
        for u in uses:
            callee = next(c for c in KERNELS if c.dispatcher is u)
            _freeze(callee)
            compiled: Any = next(iter(u.overloads.values()))
            callees.append(compiled.fndesc.mangled_name)
        return (*index_key(sig, codegen), sources[0], tuple(callees))
    cache._index_key = keyed


def _sources(fn: Any) -> str:
    """A digest of what ``fn``'s compiled code is made of within its package (``ecs``): the
    source files of ``fn`` and of every function of the package it reaches through its globals,
    closures and the modules it names (``ids.column_in``), and the values of the constants
    those read. numba's key holds only ``fn``'s bytecode, and its index is dropped only
    when ``fn``'s own file changes: without this, an edit of an inlined helper or of an
    imported constant left the old code loading from a warm cache."""
    package = fn.__module__.partition(".")[0]
    files: set[str] = set()
    values: set[str] = set()
    seen = {id(fn)}   # the functions visited
    todo: list[Any] = [fn]
    while todo:
        f = todo.pop()
        files.add(f.__code__.co_filename)
        codes, names = [f.__code__], set()
        while codes:
            code = codes.pop()
            names.update(code.co_names)
            codes.extend(c for c in code.co_consts if isinstance(c, CodeType))
        found = [(n, f.__globals__[n]) for n in sorted(names) if n in f.__globals__]
        found += [(f"<cell {i}>", c.cell_contents) for i, c in enumerate(f.__closure__ or ())]
        modules: set[int] = set()   # those of the package ``f`` names, whose attributes it may read
        while found:
            name, obj = found.pop()
            inner = getattr(obj, "py_func", None) or getattr(obj, "_defn", None) or obj   # a kernel, an intrinsic
            if isinstance(obj, ModuleType):
                if obj.__name__.partition(".")[0] == package and id(obj) not in modules:
                    modules.add(id(obj))
                    found += [(f"{obj.__name__}.{n}", getattr(obj, n)) for n in sorted(names) if hasattr(obj, n)]
            elif isinstance(inner, FunctionType):
                if inner.__module__.partition(".")[0] == package and id(inner) not in seen:
                    seen.add(id(inner))
                    todo.append(inner)
            elif isinstance(obj, tuple):
                found += [(f"{name}[{i}]", o) for i, o in enumerate(obj)]
                values.add(f"{name}: tuple of {len(obj)}")
            elif isinstance(obj, (int, float, str, bytes, np.generic, np.dtype, types.Type)):
                values.add(f"{name}={obj!r}")
            elif isinstance(obj, np.ndarray):
                values.add(f"{name}={obj.dtype}{obj.shape}:{hashlib.sha256(obj.tobytes()).hexdigest()}")
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(_file_digest(path))
    digest.update("\n".join(sorted(values)).encode())
    return digest.hexdigest()


@functools.cache
def _file_digest(path: str) -> bytes:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).digest()


def _cached(k: Kernel) -> bool:
    """Whether numba's disk cache holds ``k`` for its signature (its callees frozen)."""
    cache: Any = cast(Any, k.dispatcher)._cache
    entries = getattr(cache, "_cache_file", None)   # None: not cached at all
    context: Any = k.dispatcher.targetctx
    return entries is not None and cache._index_key(k.signature, context.codegen()) in entries._load_index()


# A pass's outputs (the rows it finds) start empty and take, at its first find, room for a
# sixteenth of the rows it looks at (``room_for``), then double where they fill, rather
# than room for all. Empty: a pass that finds nothing (most of a settled check's) makes
# one empty array its outputs share, not three or four with room (an allocation costs
# some 50 ns). Not room for all: untouched pages cost nothing in a mapping of their own,
# but glibc serves big blocks from its heap once freed blocks have raised its threshold,
# and gives the heap's top back to the system where the free part passes twice that: a
# 1024x1000 batch's acting tick grew and shrank the heap by some 60 MB and faulted its
# pages in again, 4,300 faults a tick.
@njit(cache=True, inline="always")
def room(total: int) -> int:  # pragma: no cover - compiled
    """The rows a pass's outputs start with, for ``total`` rows looked at."""
    r = total >> 4
    r = r if r > 256 else 256
    return r if r < total else total


@njit(cache=True, inline="always")
def room_for(out: np.ndarray, need: int, total: int) -> int:  # pragma: no cover - compiled
    """The rows to ask ``grown`` for where ``out`` (a pass's output, empty until its first
    find) must hold ``need``: at first at least ``room(total)``."""
    if out.size:
        return need
    r = room(total)
    return need if need > r else r


@njit(cache=True, inline="always")
def compact(flags: np.ndarray, n: int, out: np.ndarray) -> int:  # pragma: no cover - compiled
    """Write the indices ``c < n`` whose ``flags[c]`` is nonzero to ``out``, in order, and
    return how many: a pass's row of found objects, without a branch per index (each index
    is written, and the count moves on only where its flag is set)."""
    k = 0
    for c in range(n):
        out[k] = c
        k += flags[c] != 0
    return k


@kernel(array(np.int64, 1, readonly=False), I64, I64)
def grown(out: np.ndarray, m: int, need: int) -> np.ndarray:  # pragma: no cover - compiled
    """``out`` (int64 outputs, its first ``m`` written) with room for ``need`` rows:
    itself, or those ``m`` copied into a new array at least twice as long. (A kernel its
    callers call by symbol: inlined at each use it made a cold start some 1.2 s longer.)"""
    if need <= out.size:
        return out
    size = 2 * out.size
    bigger = empty(size if size > need else need, np.int64)
    for i in range(m):
        bigger[i] = out[i]
    return bigger
