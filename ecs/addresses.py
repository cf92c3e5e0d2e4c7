"""Arrays handed to a compiled call as one table of addresses and shapes.

numba unboxes each array argument of a call on its own (a type check, a MemInfo made and
freed); a kernel that reads some thirty arrays of the store spends more on that than on
its work when it is called once per tick of a small game, and far more when the caches
are cold (a tick between other work). A ``Table`` names the arrays once; ``Table.of``
packs them into one int64 array of rows (address, shape...), and a kernel rebuilds each
as ``view(table, name)``, with the dtype and rank of ``name`` fixed when it compiles.

The addresses are only valid while the arrays live and are not replaced: the caller keeps
the arrays with their table, under a key that changes when any of them is replaced (e.g.
``Store.arrays_version``).
"""
from __future__ import annotations

import ctypes
import struct
import weakref
from typing import Any, Callable, Sequence, cast

import numpy as np
from numba import types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.extending import intrinsic
from numba.np import arrayobj
from numba.np.numpy_support import as_dtype

from .kernels import INDEX, array, reads

MAX_NDIM = 3
ROW = 1 + MAX_NDIM   # a table row: the address, then the shape (unused dimensions 0)
_arrayobj: Any = arrayobj   # (numba's array internals, untyped)
#: What a row may hold besides a store field (``ecs.kernels.reads``): index arrays.
OTHER = {"index": INDEX, "int32 index": array(np.int32, 1)}


def kind(name: str) -> types.Array:
    """The array type of a row named ``name``: a store field's read (``reads``), or ``OTHER``'s."""
    return OTHER[name] if name in OTHER else reads(name)


class Table:
    """The rows of a table: ``rows`` names them (a store field, or a key of ``OTHER``; a
    name may repeat, e.g. two index arrays as ``"index"``), in order. ``view`` is compiled
    code's reader: ``view(table, i)`` is row ``i`` (a constant) as an array of its kind
    (read-only)."""

    def __init__(self, *rows: str) -> None:
        self.rows = rows
        self.kinds = tuple(kind(name) for name in rows)
        self.view = _viewer(self.kinds)
        self._want = tuple((as_dtype(k.dtype), k.ndim) for k in self.kinds)
        self._seen: dict[tuple[int, int], tuple[weakref.ref[np.ndarray], bytes]] = {}

    def of(self, arrays: Sequence[np.ndarray]) -> np.ndarray:
        """The (rows, ROW) table of ``arrays`` (read-only), each checked to be C-contiguous
        of its row's kind."""
        if len(arrays) != len(self.rows):
            raise ValueError(f"a table of {self.rows} got {len(arrays)} arrays")
        seen, rows = self._seen, []
        for i, a in enumerate(arrays):
            hit = seen.get((id(a), i))
            rows.append(hit[1] if hit is not None and hit[0]() is a else self._row(i, a))
        return np.frombuffer(b"".join(rows), np.int64).reshape(len(arrays), ROW)

    def _row(self, i: int, a: np.ndarray) -> bytes:
        """Row ``i`` for ``a``, remembered while ``a`` lives: an array's data and shape stay
        what they are (the store never resizes one in place), and a clone's or a restored
        store's table holds mostly arrays that earlier tables held."""
        dtype, ndim = self._want[i]
        if a.dtype != dtype or a.ndim != ndim or not a.flags.c_contiguous:
            raise TypeError(f"row {i} ({self.rows[i]}) must be a C-contiguous {dtype}[{ndim}] "
                            f"array, got {a.dtype}[{a.ndim}] (C-contiguous: {a.flags.c_contiguous})")
        row = _PACK(address(a), *a.shape, *_PAD[ndim])
        if len(self._seen) >= _SEEN:
            self._seen.clear()
        self._seen[id(a), i] = (weakref.ref(a), row)
        return row


_SEEN = 1 << 12   # rows remembered per table, at most (a weak reference each)
_PAD = {1: (0, 0), 2: (0,), 3: ()}
_PACK = struct.Struct(f"={ROW}q").pack   # a row's bytes, as int64 (native order)


def _data_field(a: np.ndarray) -> int:
    """The data pointer of ``a`` read from its object: NumPy's C API struct has it first
    after the object header (what ``PyArray_DATA`` reads); some ten times quicker than
    ``__array_interface__``, which builds a dict."""
    value = ctypes.c_void_p.from_address(id(a) + _HEADER).value
    return value or 0


def _interface(a: np.ndarray) -> int:
    return int(a.__array_interface__["data"][0])


_HEADER = object.__basicsize__   # the object header: reference count and type
_PROBE = np.arange(3)[1:]
#: The address of an array's data: read from its object where that reads right (checked
#: once, here), else from its interface.
address: Callable[[np.ndarray], int] = _data_field if _data_field(_PROBE) == _interface(_PROBE) else _interface


def _viewer(kinds: tuple[types.Array, ...]) -> Callable[[np.ndarray, int], np.ndarray]:
    """A ``view(table, i)`` for compiled code: an intrinsic, so that a kernel's views cost a
    few instructions each to compile (``numba.carray`` compiled a function per dtype and
    rank, some 0.3 s each, in the kernel's own compile)."""
    @intrinsic(prefer_literal=True)
    def view(typingctx: Any, table: Any, i: Any) -> Any:
        if not (isinstance(table, types.Array) and table.dtype == types.int64 and table.ndim == 2
                and table.layout == "C"):
            raise TypingError(f"a table is a C-contiguous int64 2-D array, got {table}")
        if not isinstance(i, types.IntegerLiteral) or not 0 <= i.literal_value < len(kinds):
            raise TypingError(f"a table's row must be a constant in 0..{len(kinds) - 1}, got {i}")
        row, want = i.literal_value, kinds[i.literal_value]

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            cells = _arrayobj.make_array(signature.args[0])(context, builder, args[0]).data
            at = [builder.load(builder.gep(cells, [cgutils.intp_t(row * ROW + j)])) for j in range(1 + want.ndim)]
            itemsize = context.get_abi_sizeof(context.get_data_type(want.dtype))
            strides: list[Any] = []
            step = cgutils.intp_t(itemsize)
            for extent in reversed(at[1:]):   # C order
                strides.insert(0, step)
                step = builder.mul(step, extent)
            out = _arrayobj.make_array(want)(context, builder)
            _arrayobj.populate_array(out, data=builder.inttoptr(at[0], context.get_data_type(want.dtype).as_pointer()),
                           shape=at[1:], strides=strides, itemsize=cgutils.intp_t(itemsize), meminfo=None)
            return out._getvalue()   # (no MemInfo: the caller keeps the arrays alive)

        return want(table, i), codegen

    return cast(Callable[[np.ndarray, int], np.ndarray], view)
