"""Read-only mappings: what a snapshot and its parts are (``World.snapshot()``, the store's
arrays, the event log's chunks, the generator's state), so a restore may trust them as
they were taken."""
from __future__ import annotations

from typing import Any, NoReturn, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class ReadOnlyDict(dict[K, V]):
    """A dict made with its items (``ReadOnlyDict(items)``) whose items can't be written:
    every write raises TypeError. A copy of it (``dict(d)``, ``copy.copy``,
    ``copy.deepcopy``, a pickle) is a plain dict, to change at will: what a restore
    checks before it takes it. A subclass may hold attributes besides its items."""

    __slots__ = ()

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(f"{type(self).__name__} is read-only: a snapshot and its parts are values "
                        "(dict(it) is a copy to change, which restore checks)")

    __setitem__ = __delitem__ = setdefault = pop = popitem = clear = update = __ior__ = _read_only

    def __reduce__(self) -> tuple[Any, tuple[dict[K, V]]]:
        return dict, (dict(self),)


__all__ = ["ReadOnlyDict"]
