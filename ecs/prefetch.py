"""Software prefetch for the compiled kernels that gather from big arrays.

A perform visits tens of thousands of scattered slots (game rows far apart, each in
several planes): a plain loop waits on one cache miss after another, since the hardware
prefetchers see no stream in such a walk. Asking for the lines of the row some 32 rows
ahead keeps enough misses in flight to use the memory's bandwidth (the moves' relocation
at 4096x200: 2.9 -> 1.0 ms). ``prefetch_read``/``prefetch_write`` (``arr``, ``i``) hint
that element ``i`` of a 1-D array will be read / written soon; they compile to one
prefetch instruction (LLVM's ``llvm.prefetch``, a no-op on targets without one), never
fault, and change nothing a program can observe.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

#: How many rows ahead the kernels prefetch: ~1 us of work at 30 ns a row, about one
#: memory latency; 16-64 measured within a few % of each other.
AHEAD = 32


def _prefetch(rw: int) -> Any:
    @intrinsic
    def prefetch(typingctx: Any, arr: Any, idx: Any) -> Any:
        if not (isinstance(arr, types.Array) and arr.ndim == 1 and isinstance(idx, types.Integer)):
            return None
        sig = types.void(arr, idx)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            aty = signature.args[0]
            ary = context.make_array(aty)(context, builder, args[0])
            ptr = cgutils.get_item_pointer(context, builder, aty, ary, [args[1]],
                                           wraparound=False, boundscheck=False)
            i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
            fn = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
                "llvm.prefetch.p0i8")
            # (address, read 0 / write 1, locality 3: keep in all cache levels, data cache)
            builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, rw),
                              ir.Constant(i32, 3), ir.Constant(i32, 1)])
            return context.get_dummy_value()
        return sig, codegen
    return prefetch


prefetch_read = _prefetch(0)
prefetch_write = _prefetch(1)


@njit(cache=True, inline="always")
def prefetch_span(flat: np.ndarray, start: int | np.integer[Any], n: int
                  ) -> None:  # pragma: no cover - compiled
    """Prefetch elements ``start`` to ``start + n`` of the 1-D ``flat`` (a line at a
    time), for reading. Passes over game rows call it for a row or two ahead, with
    ``flat`` a flat view of a (B, C) array made once (a reshape per call costs more than
    the prefetch gains): each row is a short run in its own page (the next game's starts
    ``capacity`` elements on), which the hardware prefetchers pick up late."""
    if n <= 0:
        return
    step = 64 // flat.itemsize
    for i in range(start, start + n, step if step > 1 else 1):
        prefetch_read(flat, i)
    prefetch_read(flat, start + n - 1)   # the last line, when the row starts mid-line
