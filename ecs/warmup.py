"""Kernel compilation, seen and timed.

numba compiles the engine's kernels (``ecs.kernels``) as the first World is made after an
install or an edit (seconds each, in two processes) and loads them from its on-disk cache
afterwards (milliseconds). ``watch`` tells the two apart by numba's own compile events, which fire on
a real compilation and never on a load from the cache: a warm run stays quiet.
"""
from __future__ import annotations

import contextlib
import os
import time
from typing import Any, Iterator, TextIO

from numba.core import event

from . import kernels

MESSAGE = "compiling the engine's kernels (first run only; they are cached on disk)..."


class Compiles(event.Listener):
    """numba compilations seen while installed; the first one writes MESSAGE to ``stream``.
    ``count`` counts the outermost ones only (a kernel, not the helpers compiled into it)."""

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream
        self.pid = os.getpid()   # a forked helper (ecs.kernels) inherits this listener: quiet there
        self.count = 0
        self._depth = 0

    def on_start(self, ev: Any) -> None:
        if self._depth == 0:
            if self.count == 0 and self.stream is not None and os.getpid() == self.pid:
                print(MESSAGE, end="", file=self.stream, flush=True)
            self.count += 1
        self._depth += 1

    def on_end(self, ev: Any) -> None:
        self._depth -= 1


@contextlib.contextmanager
def watch(stream: TextIO | None = None) -> Iterator[Compiles]:
    """Count the kernels compiled in the block, here or by ``ecs.kernels``' helper. When there
    is one, ``stream`` gets MESSAGE as it starts, and the seconds the block took, ending
    that line, when the block ends."""
    seen = Compiles(stream)
    t0, helped = time.perf_counter(), kernels.helped()
    try:
        with event.install_listener("numba:compile", seen):
            yield seen
    finally:
        here = seen.count   # (MESSAGE went out with the first compile here; with none, this line carries it)
        seen.count += kernels.helped() - helped
        if seen.count and stream is not None:
            print(f"{'' if here else MESSAGE} {time.perf_counter() - t0:.1f} s", file=stream, flush=True)
