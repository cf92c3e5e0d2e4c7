"""ecs.kernels: each compiled kernel has one declared signature, is made ready once per
process, and then compiles nothing more, whatever mix of read-only and writable arrays it
is called with (a clone's shared arrays are read-only while sharing is checked)."""
from __future__ import annotations

import gc
import multiprocessing
import os
import sys
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
from numba import njit, types
from numba.core import config, event
from numba.core.caching import NullCache
from numba.core.dispatcher import Dispatcher

from ecs import World, kernels, store
from ecs.kernels import INDEX, reads, writes


class _Compiles(event.Listener):
    def __init__(self) -> None:
        self.names: list[str] = []

    def on_start(self, ev: Any) -> None:
        self.names.append(ev.data["dispatcher"].py_func.__qualname__)

    def on_end(self, ev: Any) -> None:
        pass


def test_ready_kernels_never_compile_again() -> None:
    """After a World is made every kernel is compiled for its declared signature and frozen:
    a whole game on clones that share (read-only) arrays compiles nothing."""
    assert store.CHECK_SHARING   # tests/conftest.py: shared arrays are read-only
    World()   # (one game: the optional kernels too)
    for k in kernels.KERNELS:
        assert k.signature in [tuple(s) for s in k.dispatcher.signatures], k.dispatcher.py_func
    seen = _Compiles()
    with event.install_listener("numba:compile", seen):
        rng = np.random.default_rng(7)
        for batch in (1, 3):
            w = World(batch=batch, seed=1)
            p, q = w.add_player(), w.add_player(life=4)
            bears = [w.add_object(p, "creature", power=2, toughness=2) for _ in range(6)]
            walker = w.add_object(q, "planeswalker", loyalty=3)
            w.set_cap(bears[0], "charge", 2)
            w.tick()
            for step in range(12):
                c = w.clone()                       # shares every array with w, read-only
                e = int(rng.choice(bears))
                c.put_counters(e, "+1/+1", 1, where="present")
                c.put_counters(e, "-1/-1", 2, where="present")
                c.put_counters(bears[0], "charge", 3, where="present")
                c.deal_damage(walker, 1, where="present")
                c.deal_damage(p, 1)
                c.tick()
                if step % 3 == 0:
                    w.destroy(bears[step % 6], where="present")
                    w.tick()
    assert seen.names == []


def test_every_kernel_is_frozen() -> None:
    """A call that could only run by compiling anew (an array of another dtype) is refused
    by every kernel, not compiled."""
    World()
    for k in kernels.KERNELS:
        first = next(i for i, t in enumerate(k.signature) if isinstance(t, types.Array))
        args = [np.zeros((1,) * t.ndim, np.float64 if i == first else t.dtype.name)
                if isinstance(t, types.Array) else (False if t == types.boolean else 0)
                for i, t in enumerate(k.signature)]
        with pytest.raises(TypeError, match="No matching definition"):
            k.dispatcher(*args)


def test_types_come_from_the_fields() -> None:
    """reads/writes take the dtype and rank of the declared field; reads are read-only."""
    assert reads("zone").dtype.name == "int8" and reads("zone").ndim == 2 and not reads("zone").mutable
    assert writes("zone").mutable and writes("counts", 1).ndim == 1
    assert reads("player_col").ndim == 1 and INDEX.dtype.name == "int64"


def _one(x: int) -> int:
    return x + 1


def _two(x: int) -> int:
    return x * 2


def _three(x: int) -> int:
    return x - 3


def _ready_in_child() -> None:
    """ready() on three fresh kernels (not cached: numba compiles, so the run is 'cold')."""
    kernels.KERNELS[:] = [kernels.Kernel(njit(f), (types.int64,), ()) for f in (_one, _two, _three)]
    kernels.ready()
    assert [k.dispatcher(5) for k in kernels.KERNELS] == [6, 10, 2]


@pytest.mark.parametrize("daemon", [False, True])
def test_a_cold_ready_compiles_with_a_helper_or_alone(daemon: bool) -> None:
    """A cold ready() compiles with a forked helper, or alone in a process that may not have
    children (a daemonic one: a multiprocessing.Pool worker); either way every kernel ends
    compiled and frozen."""
    p = multiprocessing.get_context("fork").Process(target=_ready_in_child, daemon=daemon)
    p.start()
    p.join(120)
    assert p.exitcode == 0


def _in_child(target: Any, *args: Any) -> Any:
    """``target(*args, out)`` in a forked process, which must exit cleanly (an unresolved
    symbol aborts it); what it put in ``out``."""
    fork = multiprocessing.get_context("fork")
    out = fork.Queue()
    p = fork.Process(target=target, args=(*args, out))
    p.start()
    p.join(120)
    assert p.exitcode == 0
    return out.get(timeout=5)


class _Collector(event.Listener):
    def __init__(self) -> None:
        self.during: list[bool] = []

    def on_start(self, ev: Any) -> None:
        self.during.append(gc.isenabled())

    def on_end(self, ev: Any) -> None:
        pass


def _collector_in_child(enabled: bool, out: Any) -> None:
    kernels.KERNELS[:] = [kernels.Kernel(njit(f), (types.int64,), ()) for f in (_one, _two)]
    (gc.enable if enabled else gc.disable)()
    seen = _Collector()
    with event.install_listener("numba:compile", seen):
        kernels.ready()
    out.put((seen.during, gc.isenabled()))


@pytest.mark.parametrize("enabled", [True, False])
def test_ready_compiles_with_the_collector_off_and_leaves_it_as_it_was(enabled: bool) -> None:
    """The cyclic collector is off while kernels compile (numba's objects would be walked
    again and again) and as it was afterwards."""
    during, after = _in_child(_collector_in_child, enabled)
    assert during and not any(during) and after == enabled


def _leaf(x: int) -> int:
    return x + 1


def _root(x: int) -> int:
    return _leaf_kernel(x) * 2


_leaf_kernel: Any = None


def _ready_cached(cache: str, shift: bool, out: Any) -> None:
    """ready() on _leaf and _root (which uses it), cached in ``cache``; ``shift`` compiles
    something first, so that _leaf (if compiled here) gets another symbol than before."""
    global _leaf_kernel
    os.environ["NUMBA_CACHE_DIR"] = cache
    config.reload_config()
    if shift:
        njit(_one).compile((types.int64,))
    kernels.KERNELS[:] = []
    _leaf_kernel = kernels.kernel(types.int64)(_leaf)
    root = kernels.kernel(types.int64, uses=(_leaf_kernel,))(_root)
    seen = _Compiles()
    with event.install_listener("numba:compile", seen):
        kernels.ready()
    out.put((sorted(set(seen.names)), root(5)))


def _run_ready(cache: Path, shift: bool = False) -> tuple[list[str], int]:
    result: tuple[list[str], int] = _in_child(_ready_cached, str(cache), shift)
    return result


def test_a_caller_calls_its_callee_by_symbol_and_is_cached_with_it(tmp_path: Path) -> None:
    """A caller's code calls its callee's by symbol (no copy linked in), so its cache entry
    holds only while the callee's is the one it was compiled against: a callee compiled
    anew (here under another symbol) has the caller compiled again, never loaded to call
    a symbol that no longer exists."""
    assert _run_ready(tmp_path) == (["_leaf", "_root"], 12)
    assert _run_ready(tmp_path) == ([], 12)                  # both loaded
    for f in tmp_path.rglob("*_leaf*"):
        f.unlink()
    assert _run_ready(tmp_path, shift=True) == (["_leaf", "_root"], 12)
    assert _run_ready(tmp_path) == ([], 12)



def _declared_in_caller(cache: str, out: Any) -> None:
    """Whether _root's compiled code declares _leaf's symbol (calls it), where a linked
    copy would define or inline it."""
    global _leaf_kernel
    os.environ["NUMBA_CACHE_DIR"] = cache
    config.reload_config()
    kernels.KERNELS[:] = []
    _leaf_kernel = kernels.kernel(types.int64)(_leaf)
    root = kernels.kernel(types.int64, uses=(_leaf_kernel,))(_root)
    kernels.ready()
    symbol = next(iter(_leaf_kernel.overloads.values())).fndesc.mangled_name
    lines = [line.split(" ")[0] for line in root.inspect_llvm(root.signatures[0]).splitlines()
             if f"@{symbol}(" in line and line.startswith(("declare", "define"))]
    out.put((lines, root(5)))


def test_a_caller_compiled_calls_its_callee_by_symbol_with_no_copy_linked_in(tmp_path: Path) -> None:
    """The claim above, read in the caller's compiled code: the callee is declared there,
    not defined (a copy numba would link in, optimize and compile again: cold-start time)."""
    assert _in_child(_declared_in_caller, str(tmp_path)) == (["declare"], 12)

def _root_b(x: int) -> int:
    return _leaf_kernel(x) * 3


def _double_a(x: int) -> int:
    return _double_kernel(x) + 1


def _double_b(x: int) -> int:
    return _double_kernel(x) + 2


def _double_c(x: int) -> int:
    return _double_kernel(x) + 3


_double_kernel: Any = None


def _ready_callers(out: Any) -> None:
    """A cold ready() of two leaves and five callers (each uses one), in a fresh cache:
    the callers' results, and how many kernels the forked helper compiled in it (the
    count is the process's: a test process that compiled cold before forked it with some)."""
    global _leaf_kernel, _double_kernel
    before = kernels.helped()
    os.environ["NUMBA_CACHE_DIR"] = os.environ["CALLERS_CACHE"]
    config.reload_config()
    kernels.KERNELS[:] = []
    _leaf_kernel = kernels.kernel(types.int64)(_leaf)
    _double_kernel = kernels.kernel(types.int64)(_two)
    callers = ([kernels.kernel(types.int64, uses=(_leaf_kernel,))(f) for f in (_root, _root_b)]
               + [kernels.kernel(types.int64, uses=(_double_kernel,))(f) for f in (_double_a, _double_b, _double_c)])
    kernels.ready()
    out.put(([c(5) for c in callers], kernels.helped() - before))


def test_the_helper_compiles_callers_too_loading_callees_the_other_compiled(tmp_path: Path,
                                                                             monkeypatch: Any) -> None:
    """A cold ready() forks a helper, and both processes take callers once their callees are
    done, whoever compiled those (the other's are loaded from the disk cache): the helper
    compiled one leaf at most, so more than one kernel compiled there means callers, and
    every caller calls its callee right (an unresolved symbol would abort the process)."""
    monkeypatch.setenv("CALLERS_CACHE", str(tmp_path))
    values, helped = _in_child(_ready_callers)
    assert values == [12, 18, 11, 12, 13]
    assert helped >= 2


def _extra(x: int) -> int:
    return _leaf_kernel(x) + 100


def _ready_optional(cache: str, asks: tuple[bool, ...], out: Any) -> None:
    """_leaf, and _extra (optional, uses _leaf), cached in ``cache``; ready() once per entry
    of ``asks`` (its ``optional``), reporting after each what compiled and whether _extra
    is frozen."""
    global _leaf_kernel
    os.environ["NUMBA_CACHE_DIR"] = cache
    config.reload_config()
    kernels.KERNELS[:] = []
    _leaf_kernel = kernels.kernel(types.int64)(_leaf)
    extra = kernels.kernel(types.int64, uses=(_leaf_kernel,), optional=True)(_extra)
    got = []
    for optional in asks:
        seen = _Compiles()
        with event.install_listener("numba:compile", seen):
            kernels.ready(optional=optional)
        got.append((sorted(set(seen.names)), kernels.frozen(extra)))
    out.put((got, extra(5) if kernels.frozen(extra) else None))


def _run_optional(cache: Path, *asks: bool) -> tuple[list[tuple[list[str], bool]], int | None]:
    result: tuple[list[tuple[list[str], bool]], int | None] = _in_child(_ready_optional, str(cache), asks)
    return result


def test_an_optional_kernel_compiles_only_when_asked_and_loads_when_cached(tmp_path: Path) -> None:
    """ready() leaves an optional kernel the disk cache lacks (a batched run does not wait
    for it) and does not look again; ready(optional=True) compiles it; a later process's
    ready() loads it from the cache."""
    assert _run_optional(tmp_path, False, False) == ([(["_leaf"], False), ([], False)], None)
    assert _run_optional(tmp_path, False, True, False) == (
        [([], False), (["_extra"], True), ([], True)], 106)
    assert _run_optional(tmp_path, False) == ([([], True)], 106)   # loaded, not compiled


class _Passes:
    """Stand-ins for systems that own kernels (``kernel``'s ``system``)."""


class _OtherPasses:
    pass


class _HostPasses(_Passes):   # a host's subclass of a system
    pass


def _after_two(x: int) -> int:
    return _double_kernel(x) + 1


def _ready_owned(cache: str, asks: list[tuple[bool, list[type]]], out: Any) -> None:
    """_leaf (no system's), _extra (``_Passes``', uses _leaf), _two (``_OtherPasses``') and
    _after_two (optional, uses _two), cached in ``cache``; ready(optional, systems) once per
    entry of ``asks``, reporting after each how many kernels compiled and those frozen."""
    global _leaf_kernel, _double_kernel
    os.environ["NUMBA_CACHE_DIR"] = cache
    config.reload_config()
    kernels.KERNELS[:] = []
    _leaf_kernel = kernels.kernel(types.int64)(_leaf)
    kernels.kernel(types.int64, uses=(_leaf_kernel,), system=_Passes)(_extra)
    _double_kernel = kernels.kernel(types.int64, system=_OtherPasses)(_two)
    kernels.kernel(types.int64, uses=(_double_kernel,), optional=True)(_after_two)
    got = []
    for optional, systems in asks:
        seen = _Compiles()
        with event.install_listener("numba:compile", seen):
            kernels.ready(optional=optional, systems=systems)
        got.append((len(seen.names), sorted(k.dispatcher.py_func.__name__ for k in kernels.KERNELS
                                            if kernels.frozen(k.dispatcher))))
    out.put(got)


def test_a_systems_kernels_are_ready_only_for_a_world_with_that_system(tmp_path: Path) -> None:
    """A kernel that names its system is compiled only when ready() is asked for that system
    or a subclass of it (a World of a ruleset without it does not wait for it), with the
    kernels it uses; one that an asked kernel uses (the probe uses every system's) is ready
    too, and an optional kernel found in the cache is loaded with the kernels it uses."""
    got = _in_child(_ready_owned, str(tmp_path), [(False, []), (False, [_HostPasses]), (False, [_OtherPasses]),
                                                  (False, [_HostPasses, _OtherPasses])])
    assert got == [(1, ["_leaf"]), (1, ["_extra", "_leaf"]), (1, ["_extra", "_leaf", "_two"]),
                   (0, ["_extra", "_leaf", "_two"])]
    got = _in_child(_ready_owned, str(tmp_path), [(True, [])])   # the optional one's callee too
    assert got == [(1, ["_after_two", "_leaf", "_two"])]   # (the others loaded from the cache)
    # cached, the optional one is loaded unasked, with its callee: nothing compiles
    assert _in_child(_ready_owned, str(tmp_path), [(False, [])]) == [(0, ["_after_two", "_leaf", "_two"])]


_TOY = {
    "__init__.py": "",
    "helper.py": "from numba import njit\n\nSTEP = {step}\n\n\n@njit(inline='always')\n"
                 "def bump(x):\n    return x + STEP\n",
    "scale.py": "FACTOR = {factor}\n",
    "caller.py": "from numba import types\n\nfrom ecs import kernels\nfrom toy import helper\n"
                 "from toy.scale import FACTOR\n\n\n@kernels.kernel(types.int64)\n"
                 "def run(x):\n    return helper.bump(x) * FACTOR\n",
}


def _write_toy(root: Path, step: int, factor: int) -> None:
    (root / "toy").mkdir(exist_ok=True)
    for name, text in _TOY.items():
        (root / "toy" / name).write_text(text.format(step=step, factor=factor))


def _toy_run(root: str, cache: str, out: Any) -> None:
    """ready() on toy.caller's kernel (which inlines toy.helper's and reads toy.scale's
    constant), cached in ``cache``: what compiled, and run(5)."""
    import sys
    sys.dont_write_bytecode = True   # (an edit of the same size within a second: no stale .pyc)
    sys.path.insert(0, root)
    os.environ["NUMBA_CACHE_DIR"] = cache
    config.reload_config()
    kernels.KERNELS[:] = []
    from toy import caller
    seen = _Compiles()
    with event.install_listener("numba:compile", seen):
        kernels.ready()
    out.put((sorted(set(seen.names)), caller.run(5)))


def test_an_edit_of_what_a_kernel_inlines_or_imports_compiles_it_again(tmp_path: Path) -> None:
    """A kernel's cache entry holds only for the helpers it inlines and the constants it
    imports as they were when it compiled: numba's own key (the kernel's bytecode, its
    file's stamp) sees neither, and a warm cache went on returning the old results."""
    code, cache = tmp_path / "code", tmp_path / "cache"
    code.mkdir()
    _write_toy(code, step=1, factor=3)
    assert _in_child(_toy_run, str(code), str(cache)) == (["run"], 18)
    assert _in_child(_toy_run, str(code), str(cache)) == ([], 18)      # loaded
    _write_toy(code, step=40, factor=3)                                  # the inlined helper
    assert _in_child(_toy_run, str(code), str(cache)) == (["run"], 135)
    _write_toy(code, step=40, factor=7)                                  # the imported constant
    assert _in_child(_toy_run, str(code), str(cache)) == (["run"], 315)
    assert _in_child(_toy_run, str(code), str(cache)) == ([], 315)


def test_no_kernel_may_use_an_optional_one() -> None:
    """An optional kernel may be absent, so no kernel's compiled code may call it."""
    declared = kernels.KERNELS[:]
    try:
        extra = kernels.kernel(types.int64, optional=True)(_one)
        with pytest.raises(ValueError, match="_two uses an optional kernel"):
            kernels.kernel(types.int64, uses=(extra,))(_two)
    finally:
        kernels.KERNELS[:] = declared


# Not cached: numba's key of a cached function of this module sees no edit of ecs/kernels.py
# (its intrinsics), and the test would go on running the code an old edit compiled.
@njit(cache=False)
def _views(a3: np.ndarray, a1: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover
    return kernels.flat(a3), kernels.head(a1, m)


def test_flat_and_head_are_views_as_reshape_and_slice() -> None:
    """The kernels' cheap views: ``flat(a)`` is ``a.reshape(-1)`` of a C-contiguous array and
    ``head(a, m)`` is ``a[:m]`` (``m`` past the end: all of it), both sharing ``a``'s memory
    and read-only where it is."""
    a3 = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    a1 = np.arange(10, dtype=np.int64)
    for m in (0, 1, 7, 10, 11):
        f, h = _views(a3, a1, m)
        assert f.tolist() == a3.reshape(-1).tolist() and f.dtype == a3.dtype
        assert h.tolist() == a1[:m].tolist() and h.dtype == a1.dtype
        assert np.shares_memory(f, a3) and (m == 0 or np.shares_memory(h, a1))
    f[5] = -1
    assert a3[0, 1, 1] == -1
    a3.flags.writeable = False
    a1.flags.writeable = False
    f, h = _views(a3, a1, 3)
    assert not f.flags.writeable and not h.flags.writeable


@njit(cache=False)   # (not cached: as ``_views``)
def _made(n: int, rows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover
    a = kernels.empty(n, np.int64)
    b = kernels.empty((rows, n), np.bool_)
    c = kernels.empty(np.int32(n), np.int8)
    for i in range(n):
        a[i] = i
        c[i] = -i
        for r in range(rows):
            b[r, i] = (i + r) % 2 == 0
    return a, b, c


def test_empty_is_np_empty() -> None:
    """The kernels' allocation: ``empty(shape, dtype)`` is ``np.empty`` for an integer or a
    tuple of integers (0 included) and a NumPy scalar type: a new, writable, C-contiguous
    array of that dtype, which lives on in Python after the call (its memory owned)."""
    for n, rows in ((0, 0), (1, 3), (37, 2)):
        a, b, c = _made(n, rows)
        assert (a.dtype, b.dtype, c.dtype) == (np.int64, np.bool_, np.int8)
        assert (a.shape, b.shape, c.shape) == ((n,), (rows, n), (n,))
        assert all(x.flags.c_contiguous and x.flags.writeable for x in (a, b, c))
        assert a.tolist() == list(range(n)) and c.tolist() == [-i for i in range(n)]
        assert b.tolist() == [[(i + r) % 2 == 0 for i in range(n)] for r in range(rows)]
        assert not np.shares_memory(a, _made(n, rows)[0])


def test_no_helper_through_which_kernels_call_others_is_cached_on_its_own() -> None:
    """A plain ``njit`` function of the package that calls declared kernels (through which
    a kernel calls them by symbol, ``kernels._by_symbol``) is compiled with its caller and
    never loaded from a cache entry of its own: numba's key of it would not see a callee
    compiled anew under another symbol, and linking it aborts the process
    (``tests/test_cold_start.py``)."""
    World()   # every kernel's module imported
    declared = {id(k.dispatcher) for k in kernels.KERNELS}
    helpers = {}
    for name, module in list(sys.modules.items()):
        if name != "ecs" and not name.startswith("ecs."):
            continue
        for obj in vars(module).values():
            if isinstance(obj, Dispatcher) and id(obj) not in declared:
                scope = obj.py_func.__globals__
                if any(id(scope.get(n)) in declared for n in obj.py_func.__code__.co_names):
                    helpers[obj.py_func.__qualname__] = obj
    assert "_decide" in helpers   # the settled probe's
    assert [n for n, d in helpers.items() if not isinstance(cast(Any, d)._cache, NullCache)] == []


def _row_writes(fn: Any, ndims: dict[str, int]) -> list[str]:
    """The assignments in ``fn`` to a part of an array argument (``ndims``: each argument's
    dimensions) bigger than one element: a row or a slice."""
    import ast
    import inspect
    import textwrap
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    out = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AugAssign) else [])
        for t in targets:
            if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in ndims:
                index = t.slice.elts if isinstance(t.slice, ast.Tuple) else [t.slice]
                if len(index) < ndims[t.value.id] or any(isinstance(i, ast.Slice) for i in index):
                    out.append(f"{fn.__qualname__}: {ast.unparse(node)}")
    return out


def test_no_kernel_assigns_a_row_or_slice_of_an_array_argument() -> None:
    """Kernels copy rows element by element: an assignment of a row or slice compiles
    numba's broadcasting and its shape errors, some 2 s of a cold start for one such line
    (``ids._spread_kept``), as the main job's first run compiles every kernel."""
    World()   # every kernel declared
    found = []
    for k in kernels.KERNELS:
        fn = k.dispatcher.py_func
        names = fn.__code__.co_varnames[: fn.__code__.co_argcount]
        ndims = {n: t.ndim for n, t in zip(names, k.signature) if isinstance(t, types.Array)}
        found += _row_writes(fn, ndims)
    assert found == []
    # (the check finds a row and a slice, not an element)
    assert _row_writes(_row_copy, {"a": 2}) == ["_row_copy: a[0] = a[1]", "_row_copy: a[1, :] += 1"]


def _row_copy(a: np.ndarray) -> None:
    a[0] = a[1]
    a[1, :] += 1
    a[0, 1] = a[1, 0]


def test_an_address_table_refuses_an_array_not_of_its_declared_type() -> None:
    """``at`` trusts a table's row: ``addresses`` takes only C-contiguous arrays of the
    declared dtype and rank (TypeError naming the row otherwise), and ints as they are."""
    declared = [kernels.array(np.int8, 2), kernels.I64]
    table = kernels.addresses([np.zeros((2, 3), np.int8), 7], declared)
    assert table[0, 1:3].tolist() == [2, 3] and table[1, 0] == 7 and not table.flags.writeable
    for bad in (np.zeros((2, 3), np.int16), np.zeros((3, 2), np.int8).T, np.zeros(6, np.int8),
                [[0, 0, 0]]):
        with pytest.raises(TypeError, match="row 0 of an address table: expected a C-contiguous"):
            kernels.addresses([bad, 7], declared)


_TOY_DIGESTED = """
import numpy as np

PAIR = (1, 2)
TABLE = np.arange(3)
FACTOR = 2


def made(k):
    def inner(x):
        return x + k
    return inner


def tupled(x):
    return x + PAIR[1]


def tabled(x):
    return x + TABLE[1]


def nested(a):
    return sum(v * FACTOR for v in a)
"""


def test_the_source_digest_sees_constants_in_tuples_arrays_closures_and_inner_code(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a kernel's cache key adds to numba's (``kernels._sources``) changes with a
    value its code reads: an element of a tuple, an array's contents, a closure's cell and
    a constant read only inside a generator (an inner code object), its files unchanged."""
    (tmp_path / "toy_digested.py").write_text(_TOY_DIGESTED)
    monkeypatch.syspath_prepend(str(tmp_path))
    import toy_digested as toy
    assert kernels._sources(toy.made(1)) != kernels._sources(toy.made(2))
    for fn, name, value in ((toy.tupled, "PAIR", (1, 3)), (toy.tabled, "TABLE", np.array([0, 5, 2])),
                            (toy.nested, "FACTOR", 3)):
        before = kernels._sources(fn)
        monkeypatch.setattr(toy, name, value)
        assert kernels._sources(fn) != before, name


def test_grown_keeps_the_rows_written_and_has_room_for_what_is_needed() -> None:
    """A pass's outputs grow to at least twice their size, or to what is needed where that
    is more (a cap table of many rows asks for more than twice at once): the rows written
    are kept, and an output with room is returned as it is."""
    kernels.ready()
    out = np.arange(4, dtype=np.int64)
    assert kernels.grown(out, 3, 4) is out
    for need, size in ((5, 8), (8, 8), (100, 100)):
        bigger = kernels.grown(out, 3, need)
        assert bigger.size == size and bigger[:3].tolist() == [0, 1, 2], need


def test_needed_holds_the_kernels_used_directly_or_not() -> None:
    """``needed`` (what ``ready`` compiles or loads) holds every kernel its kernels use, at
    any depth, in declaration order: here a system's kernel that a system's kernel uses,
    which a kernel of no system uses."""
    class Owner:
        pass

    declared = kernels.KERNELS[:]
    try:
        kernels.KERNELS[:] = []
        leaf = kernels.kernel(types.int64, system=Owner)(_one)
        middle = kernels.kernel(types.int64, uses=(leaf,), system=Owner)(_two)
        top = kernels.kernel(types.int64, uses=(middle,))(_leaf)
        assert [k.dispatcher for k in kernels.needed(False, ())] == [leaf, middle, top]
        assert [k.dispatcher for k in kernels.needed(False, (Owner,))] == [leaf, middle, top]
    finally:
        kernels.KERNELS[:] = declared


def test_numbas_messages_are_colored_again_after_a_compile() -> None:
    """``ready`` compiles with numba's error messages uncolored (``_plain_errors``) and puts
    its color scheme back as it was: no compile of this process (the kernels', the first
    time a World was made) left the plain markup on it."""
    from numba.core import errors
    scheme: Any = errors.termcolor()   # (numba's one scheme)
    assert "_markup" not in vars(scheme)
    with kernels._plain_errors():
        if hasattr(scheme, "_markup"):
            assert scheme._markup("x", "red") == "x"
    assert "_markup" not in vars(scheme)


def test_needed_refuses_a_kernel_that_uses_an_undeclared_one() -> None:
    """A kernel's callees are declared kernels (compiled and frozen before it, called by
    symbol): ``needed`` names a plain ``njit`` callee rather than leave it out."""
    declared = kernels.KERNELS[:]
    try:
        kernels.KERNELS[:] = []
        kernels.kernel(types.int64, uses=(njit(_one),))(_two)
        with pytest.raises(RuntimeError, match="a kernel uses an undeclared one"):
            kernels.needed(False, ())
    finally:
        kernels.KERNELS[:] = declared


def _ready_twice_spied(cache: str, out: Any) -> None:
    """_leaf, and _extra (optional, uses _leaf), in a fresh ``cache``: ready() twice, the
    second time noting each look-up in the disk cache."""
    global _leaf_kernel
    os.environ["NUMBA_CACHE_DIR"] = cache
    config.reload_config()
    kernels.KERNELS[:] = []
    _leaf_kernel = kernels.kernel(types.int64)(_leaf)
    kernels.kernel(types.int64, uses=(_leaf_kernel,), optional=True)(_extra)
    kernels.ready()
    looked: list[str] = []
    cached = kernels._cached

    def spied(k: kernels.Kernel) -> bool:
        looked.append(k.dispatcher.py_func.__name__)
        return cached(k)

    kernels._cached = spied
    kernels.ready()
    out.put(looked)


def test_ready_does_not_look_again_for_an_optional_kernel_it_found_uncached(tmp_path: Path) -> None:
    """An optional kernel the disk cache lacked is left for the process: a later ready()
    (each World's, each Schedule's) does not look it up in the cache again."""
    assert _in_child(_ready_twice_spied, str(tmp_path)) == []


def _ready_callers_counted(out: Any) -> None:
    """``_ready_callers``, and how many kernels compiled in this process."""
    import queue
    got: queue.SimpleQueue[Any] = queue.SimpleQueue()
    seen = _Compiles()
    with event.install_listener("numba:compile", seen):
        _ready_callers(got)
    out.put((*got.get(), len(set(seen.names))))


def test_helped_counts_the_kernels_the_helper_compiled(tmp_path: Path, monkeypatch: Any) -> None:
    """``helped()`` is what the forked helper compiled, not what this process did: with
    the kernels compiled here (numba's compile events fire where it compiles), every one
    of the seven of a cold ready() once."""
    monkeypatch.setenv("CALLERS_CACHE", str(tmp_path))
    values, helped, here = _in_child(_ready_callers_counted)
    assert values == [12, 18, 11, 12, 13]
    assert helped >= 1 and helped + here == 7, (helped, here)
