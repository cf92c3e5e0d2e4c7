"""The World's table of card names: a name is stored in a slot as its index (``name_id``).

The table only grows (an index, once given, names its card for the World's life, in
events and snapshots too). A host that names its tokens one by one grows it with
history, so it is shared, not copied: by clones and snapshots until one of them adds a
name, which copies it first (copy on write, as the store's arrays are). Finding a name
is one dict lookup, whatever the table holds.
"""
from __future__ import annotations

from typing import Iterable, Iterator


class Names:
    """An append-only sequence of distinct names, read as a list of them is (``len``,
    ``in``, ``names[i]``, ``index``, iteration); ``intern`` gives a name its index."""

    __slots__ = ("_names", "_index", "_shared", "_frozen")

    def __init__(self, names: Iterable[str] = ()) -> None:
        self._names = list(names)
        self._index = {name: i for i, name in enumerate(self._names)}
        if len(self._index) != len(self._names):
            raise ValueError("a table of names holds each name once")
        self._shared = False   # the lists are another table's too: copy them before adding
        self._frozen = False   # a snapshot's: no name is added

    def intern(self, name: str) -> int:
        """The index of ``name``, added at the end if new."""
        i = self._index.get(name)
        if i is None:
            if self._frozen:
                raise TypeError("a snapshot's table of names is read-only (names.copy() is a copy to "
                                "add names to)")
            if self._shared:
                self._names, self._index, self._shared = list(self._names), dict(self._index), False
            i = self._index[name] = len(self._names)
            self._names.append(name)
        return i

    def index(self, name: str) -> int:
        """The index of ``name``; ValueError if it is not in the table (as a list's)."""
        i = self._index.get(name)
        if i is None:
            raise ValueError(f"{name!r} is not a name of this World")
        return i

    def copy(self, frozen: bool = False) -> Names:
        """A table equal to this one, sharing its storage until either adds a name;
        ``frozen``: one that adds none (a snapshot's)."""
        other = Names.__new__(Names)
        other._names, other._index = self._names, self._index
        other._shared = self._shared = True
        other._frozen = frozen
        return other

    def __getitem__(self, i: int) -> str:
        return self._names[i]

    def __len__(self) -> int:
        return len(self._names)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __contains__(self, name: object) -> bool:
        try:
            return name in self._index
        except TypeError:   # an unhashable value is no name (a list's ``in`` says False too)
            return False

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Names):
            return self._names == other._names
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]   # (mutable)

    def __repr__(self) -> str:
        return f"Names({self._names!r})"
