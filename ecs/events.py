"""The event log: every counter change, zone change, loss and game end, with before/after
counts and last-known information, so an embedding engine can fire its own triggers.

Events are recorded as columnar NumPy chunks (cheap inside vectorized systems) and turned
into objects only when asked for. Rows recorded by one action or one state-based check
share a ``step`` number: they happened simultaneously (CR 704.3).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Container, Iterator, Mapping, Protocol, Sequence, TypeVar, cast

import numpy as np

from .components import TYPE_BIT
from .frozen import ReadOnlyDict
from .zones import ZONES

COUNTER, ZONE, LOST, GAME_END, RESERVE, ACTION, TAP, DAMAGE = range(8)
#: The number of event types (a saved log's ``type`` column is below it).
N_TYPES = 8

#: Why something happened: an action, or the rule of the state-based action.
CAUSES: tuple[str, ...] = (
    "put", "remove", "move", "proliferate", "enter", "damage", "shield", "stun",
    "destroy", "sacrifice", "zone", "cleanup",
    "704.5a", "704.5c", "704.5d", "704.5f", "704.5g", "704.5h", "704.5i", "704.5q",
    "704.5r", "704.5v", "704.6a", "704.6b", "104.4a", "104.2a",
    # Grand Archive and phase systems
    "ga.placement", "ga.damage", "ga.durability", "ga.champion", "ga.recover", "ga.enlighten",
    "ga.wither", "rad", "draw", "mill",
    # Grand Archive, added later (appended: a saved log's cause codes keep their meaning)
    "ga.reserve", "ga.level_up", "ga.left_game",
    # tapping, damage events and a host's own state-based actions (legend rule 704.5j)
    "tap", "untap", "combat damage", "704.5j", "host",
    # a host's Saga system (lore counters, 714.4)
    "704.5s",
)
CAUSE = {c: i for i, c in enumerate(CAUSES)}


def _read_only(v: int) -> np.ndarray:
    a = np.array(v, np.int64)
    a.flags.writeable = False
    return a


# Scalar columns of these values (codes, kinds, -1) share one array: a chunk is never mutated.
_SMALL: dict[int | np.integer[Any], np.ndarray] = {v: _read_only(v) for v in range(-2, 64)}


def _int(v: Any) -> int:
    """A value of one row (an int, a NumPy scalar or a one-element array) as a Python int."""
    return v if type(v) is int else int(v.item() if isinstance(v, np.ndarray) else v)


#: A zone change's ``kind`` is ``-2 - code``, ``code`` its card types' ``TYPE_BIT`` bits as
#: it left, plus ``ZONE_TOKEN`` if it was a token (-1, no code, in rows of files saved
#: before they were logged): ``kind >= 0`` still names a counter kind on every row.
ZONE_TOKEN = 1 << 32


def zone_kind(types: int, token: int) -> int:
    """The zone row's ``kind`` of an object of card types ``types`` (``TYPE_BIT`` bits) that
    is a token or not; ``zone_kind_code`` reads the code back. Plain Python, which the
    compiled zone changes compile inline (``ecs.relocation``)."""
    return -2 - (types | (ZONE_TOKEN if token else 0))


_Kind = TypeVar("_Kind", int, np.ndarray)


def zone_kind_code(kind: _Kind) -> _Kind:
    """``zone_kind``'s inverse: the code (types bits, ``ZONE_TOKEN``) of a zone row's
    ``kind``, or of an array of them; -1 where ``kind`` is -1 (no code)."""
    return -2 - kind


@functools.lru_cache(maxsize=None)
def zone_types(code: int) -> tuple[str, ...]:
    """The card type names (in ``TYPE_BIT`` order) of a zone change's ``code``."""
    return tuple(t for t, bit in TYPE_BIT.items() if code & bit)


#: The columns of ``EventLog.table()`` (and of a saved log), declared once.
LOG_COLUMNS = ("type", "step", "game", "entity", "kind", "before", "after", "cause", "other",
            "from_zone", "to_zone")


@dataclass(frozen=True)
class CounterChanged:
    """Counters of one kind were put on or removed from an entity (CR 122.6, 122.7)."""
    game: int
    entity: int
    kind: str
    before: int
    after: int
    cause: str
    by: int | None = None  # the player who put them, where the rules name one (122.6a)

    @property
    def delta(self) -> int:
        return self.after - self.before


@dataclass(frozen=True)
class ZoneChanged:
    """An object left a zone (CR 400.7); ``new`` is the new object, None if it ceased to exist.

    ``lki`` holds the counters it had just before (704.8), for undying, persist and "put
    the same number" effects (122.8, 122.9); ``controller`` the player who controlled it
    just before, who controls its leaves-the-battlefield triggers (603.3a, 603.10a; the
    new object is its owner's, 110.2); ``name`` its card name (None: it has none),
    ``types`` its card type names and ``token`` whether it was a token, which a host's
    "whenever a creature token dies" trigger reads where the new object is already gone
    (a token ceases to exist in the next check, 704.5d, 111.7; last-known information,
    608.2h, 603.10a). ``controller``, ``name``, ``types`` and ``token`` are None in rows
    of files saved before they were logged."""
    game: int
    old: int
    new: int | None
    from_zone: str
    to_zone: str
    cause: str
    lki: Mapping[str, int] = field(default_factory=dict)
    controller: int | None = None
    name: str | None = None
    types: tuple[str, ...] | None = None
    token: bool | None = None


@dataclass(frozen=True)
class PlayerLost:
    game: int
    player: int
    cause: str


@dataclass(frozen=True)
class GameEnded:
    """A game ended; ``winner`` is None for a draw (CR 104.4a)."""
    game: int
    winner: int | None
    cause: str


@dataclass(frozen=True)
class ReserveChanged:
    """A player paid reserve (GA Costs and Memory 1): ``pay_reserve`` (cause
    ``ga.reserve``) or the wither trigger's payment (cause ``ga.wither``). Setting or
    gaining reserve is the host's bookkeeping (recollection, reserving cards) and is not
    an event."""
    game: int
    player: int
    before: int
    after: int
    cause: str


@dataclass(frozen=True)
class Acted:
    """A player action the rules name, recorded even when it changes no counter, so
    "whenever you ..." abilities can trigger: recover (cause ``ga.recover``; Recover
    2.1.1: recovering with no damage counters still recovers), activating enlighten
    (``ga.enlighten``) and leveling up (``ga.level_up``, Level Up 1: the new card's "On
    Enter" abilities). ``entity`` is the object acted on, ``player`` who acted;
    ``before``/``after`` are the counts of ``kind`` on it (damage, enlighten), or its
    base level for a level up (``kind`` None)."""
    game: int
    entity: int
    player: int
    kind: str | None
    before: int
    after: int
    cause: str


@dataclass(frozen=True)
class Tapped:
    """A permanent's tapped status: tapped (cause ``tap``: ``before`` False, ``after``
    True), untapped (``untap``), or an untap replaced by removing a stun counter (``stun``,
    122.1d: tapped before and after; the stun counter's removal is its own event).
    Tapping a tapped permanent or untapping an untapped one is no event."""
    game: int
    entity: int
    before: bool
    after: bool
    cause: str


@dataclass(frozen=True)
class DamageDealt:
    """Damage from one source to one target in one damage event (CR 120.3): ``amount``
    would have been dealt, ``dealt`` was (0 when a shield counter prevented it, 122.1c);
    ``source`` is None where the action named none; cause ``damage`` or ``combat
    damage``. 0 damage is not dealt and is no event (120.8)."""
    game: int
    target: int
    source: int | None
    amount: int
    dealt: int
    cause: str

    @property
    def prevented(self) -> int:
        return self.amount - self.dealt


Event = (CounterChanged | ZoneChanged | PlayerLost | GameEnded | ReserveChanged | Acted | Tapped
         | DamageDealt)


def event_name(event: Event) -> str:
    """The snake_case name of an event's class (``CounterChanged`` -> ``counter_changed``):
    the name ``World.dispatch_events`` dispatches it under."""
    name = type(event).__name__
    return "".join("_" + ch.lower() if ch.isupper() else ch for ch in name).lstrip("_")


def crossed(event: CounterChanged, n: int) -> bool:
    """Did this put take the count from below ``n`` to ``n`` or more? (CR 122.7)"""
    return event.before < n <= event.after


class Indexed(Protocol):
    """A table read by index: the World's card names (``ecs.names.Names``), or a list."""

    def __getitem__(self, i: int, /) -> str: ...


class EventLog:
    """Columnar chunks of event rows plus a side table of last-known counters."""

    def __init__(self) -> None:
        # Recorded chunks in order, and single rows recorded one at a time as tuples of
        # LOG_COLUMNS' values (a single game's action records one row: a tuple is far
        # cheaper than eleven arrays); ``chunks`` packs those into chunks when read.
        self._chunks: list[dict[str, np.ndarray] | tuple[int, ...]] = []
        self._loose = False   # whether _chunks holds tuples
        # The same for the last-known counters: chunks of (row, kind, count) columns, and
        # a moved object's counters recorded one at a time as (row, kind, count) tuples.
        self._lki: list[dict[str, np.ndarray] | tuple[int, ...]] = []
        self._lki_loose = False
        self.rows = 0
        self.step = 0

    def next_step(self) -> int:
        self.step += 1
        return self.step

    def record(self, type_: int, cause: str | int | np.ndarray, *, game: Any, entity: Any,
               kind: Any = -1, before: Any = 0, after: Any = 0, other: Any = -1,
               from_zone: Any = 0, to_zone: Any = 0, fresh: Container[str] = ()) -> np.ndarray:
        """Append rows (array arguments broadcast together; ``cause`` a name, a CAUSE code
        or an array of them); returns their row numbers. The columns named in ``fresh`` are
        arrays the caller made for this record, exactly its rows (not views of a bigger
        buffer) and written by no one afterwards: int64 ones are kept instead of copied (a
        perform records some ten columns of 100,000 rows)."""
        code = CAUSE[cause] if isinstance(cause, str) else cause
        values = (type_, self.step, game, entity, kind, before, after, code, other,
                  from_zone, to_zone)
        if (type(game) is int and type(entity) is int and type(kind) is int   # one row of ints
                and type(before) is int and type(after) is int and type(code) is int
                and type(other) is int and type(from_zone) is int and type(to_zone) is int):
            self.one(type_, code, game, entity, kind, before, after, other, from_zone, to_zone)
            return np.array([self.rows - 1], np.int64)
        n = np.size(game)
        if n == 0:
            return np.zeros(0, np.int64)
        if n == 1:   # one row (a one-game decision): a tuple, as ``one`` records it
            self.one(*map(_int, (type_, code, game, entity, kind, before, after, other,
                                 from_zone, to_zone)))
            return np.array([self.rows - 1], np.int64)
        # Scalar columns stay 0-d (table() broadcasts them; small values share one read-only
        # array) and array columns are copied once (callers may reuse theirs): a check
        # records many small chunks.
        chunk: dict[str, np.ndarray] = {}
        for c, v in zip(LOG_COLUMNS, values):
            if isinstance(v, (int, np.integer)):
                shared = _SMALL.get(v)
                chunk[c] = np.array(v, np.int64) if shared is None else shared
            else:
                keep = c in fresh and isinstance(v, np.ndarray) and v.dtype == np.int64
                v = v if keep else np.array(v, np.int64)
                chunk[c] = v if v.shape == (n,) else np.broadcast_to(v, (n,)).copy()
        self._chunks.append(chunk)
        rows = np.arange(self.rows, self.rows + n)
        self.rows += n
        return rows

    def one(self, type_: int, code: int, game: int, entity: int, kind: int = -1, before: int = 0,
            after: int = 0, other: int = -1, from_zone: int = 0, to_zone: int = 0) -> None:
        """``record`` of one row of Python ints (``code``: a CAUSE code), in this step: a
        single game's action records one row, and a tuple is far cheaper than a chunk."""
        self._chunks.append((type_, self.step, game, entity, kind, before, after, code, other,
                             from_zone, to_zone))
        self._loose = True
        self.rows += 1

    @property
    def chunks(self) -> list[dict[str, np.ndarray]]:
        """The recorded chunks in order (rows recorded one at a time are packed first)."""
        if self._loose:
            self._chunks, self._loose = _packed(self._chunks, LOG_COLUMNS), False
        return cast(list[dict[str, np.ndarray]], self._chunks)

    @property
    def lki(self) -> list[dict[str, np.ndarray]]:
        """The last-known counters as chunks of ``row``, ``kind`` and ``count`` columns, in
        order (those recorded one at a time packed first)."""
        if self._lki_loose:
            self._lki, self._lki_loose = _packed(self._lki, _LKI_COLUMNS), False
        return cast(list[dict[str, np.ndarray]], self._lki)

    def record_lki(self, rows: np.ndarray, kinds: np.ndarray, counts: np.ndarray) -> None:
        if rows.size:
            self._lki.append({"row": rows.astype(np.int64), "kind": kinds.astype(np.int64),
                             "count": counts.astype(np.int64)})

    def lki_one(self, row: int, kinds: list[int], counts: list[int]) -> None:
        """``record_lki`` of one row's counters (plain ints), kept as tuples until read."""
        self._lki.extend((row, k, c) for k, c in zip(kinds, counts))
        self._lki_loose = True

    def _since(self, entries: Sequence[dict[str, np.ndarray] | tuple[int, ...]], step: int
               ) -> tuple[int, int]:
        """(first entry, first row) of the ``entries`` (this log's, packed or not) holding
        rows of steps after ``step``. Steps never decrease, so those rows are a suffix, found
        from the end (a host polls for the last few steps); a chunk loaded from a file may
        hold several steps."""
        i, first = len(entries), self.rows
        while i > 0:
            ch = entries[i - 1]
            if (ch[1] if isinstance(ch, tuple) else int(ch["step"].flat[-1])) <= step:
                break
            i -= 1
            first -= 1 if isinstance(ch, tuple) else ch["game"].size
        return i, first

    def table(self, since: int | None = None) -> dict[str, np.ndarray]:
        """All rows as columns of equal length (plus ``lki_row``/``lki_kind``/``lki_count``,
        ``lki_row`` indexing these rows); ``since``: only the rows of later steps."""
        start, first = self._since(self._chunks, since) if since is not None else (0, 0)
        rows = self._chunks[start:]
        if all(type(ch) is tuple for ch in rows):   # a single game's rows as recorded: one array
            out = dict(zip(LOG_COLUMNS, np.array(rows, np.int64).reshape(-1, len(LOG_COLUMNS)).T.copy()))
        else:
            chunks = self.chunks
            start, first = self._since(chunks, since) if since is not None else (0, 0)
            tail, skip = _after_step(chunks[start:], since)
            out = _joined(cast(list[dict[str, np.ndarray]], tail), LOG_COLUMNS, "game")   # (packed)
            first += skip
        lki: list[dict[str, np.ndarray]] = []
        if self._lki and first:   # (the last steps' last-known counters, not the history's)
            lki = cast(list[dict[str, np.ndarray]], _packed(_lki_after(self._lki, first), _LKI_COLUMNS))
        elif self._lki:
            lki = self.lki
        for c in ("row", "kind", "count"):
            out["lki_" + c] = np.concatenate([ch[c] for ch in lki]) if lki else np.zeros(0, np.int64)
        if first:
            keep = out["lki_row"] >= first
            for c in ("row", "kind", "count"):
                out["lki_" + c] = out["lki_" + c][keep]
            out["lki_row"] = out["lki_row"] - first
        return out

    def objects(self, kind_names: list[str], player_ids: np.ndarray, names: Indexed,
                since: int | None = None) -> list[Event]:
        """The rows as event objects, in order; ``since``: only those of later steps. Read
        from the entries as recorded (a single game's rows are tuples already; a chunk's
        columns become Python lists in one call each), not through ``table``: a host reads
        a step's few events each step, where packing them into arrays cost more than the
        step (29 us for a 100-object game's four)."""
        lki: dict[int, dict[str, int]] | None = None   # (made at the first zone change)
        players = player_ids.tolist()
        out: list[Event] = []
        start, first = self._since(self._chunks, since) if since is not None else (0, 0)
        entries, skip = _after_step(self._chunks[start:], since)
        first += skip
        rows = _tuples(entries, LOG_COLUMNS, "game")
        for i, (ty, step, g, e, kind, before, after, code, other, frm, to) in enumerate(rows, first):
            if since is not None and step <= since:   # (a loaded chunk may hold earlier steps)
                continue
            cause = CAUSES[code]
            if ty == COUNTER:
                out.append(CounterChanged(g, e, kind_names[kind], before, after, cause,
                                          players[other] if other >= 0 else None))
            elif ty == ZONE:
                if lki is None:
                    lki = {}
                    for r, k, c in _tuples(_lki_after(self._lki, first), _LKI_COLUMNS, "row"):
                        lki.setdefault(r, {})[kind_names[k]] = c
                code = zone_kind_code(kind)   # (-1 in older files: no types, no token flag)
                out.append(ZoneChanged(g, e, other if other >= 0 else None, ZONES[frm], ZONES[to],
                                       cause, lki.get(i, {}), players[before - 1] if before else None,
                                       names[after - 1] if after else None,
                                       zone_types(code) if code >= 0 else None,
                                       bool(code & ZONE_TOKEN) if code >= 0 else None))
            elif ty == LOST:
                out.append(PlayerLost(g, e, cause))
            elif ty == RESERVE:
                out.append(ReserveChanged(g, e, before, after, cause))
            elif ty == TAP:
                out.append(Tapped(g, e, bool(before), bool(after), cause))
            elif ty == DAMAGE:
                out.append(DamageDealt(g, e, other if other >= 0 else None, before, after, cause))
            elif ty == ACTION:
                out.append(Acted(g, e, players[other], kind_names[kind] if kind >= 0 else None,
                                 before, after, cause))
            else:
                out.append(GameEnded(g, e if e >= 0 else None, cause))
        return out

    def snapshot(self) -> ReadOnlyDict[str, Any]:
        """The log as a value: its chunks (read-only from now on, the log's own too: they
        are never mutated once recorded) in tuples, and its row and step counts."""
        self._compact()
        return ReadOnlyDict(chunks=_sealed(self.chunks), lki=_sealed(self.lki), rows=self.rows,
                            step=self.step)

    def restore(self, snap: Mapping[str, Any]) -> None:
        # Chunks are never mutated after recording, so sharing them is safe.
        self._chunks, self._lki = list(snap["chunks"]), list(snap["lki"])
        self._loose = self._lki_loose = False
        self.rows, self.step = snap["rows"], snap["step"]

    def clone(self) -> "EventLog":
        """An independent copy: new lists of the same chunks (never mutated once recorded).
        The lists are compacted first (``_compacted``): a search clones positions whose
        logs keep their whole path, and a clone copies some log2 of its rows' entries (and
        one per ``_JOIN_ROWS`` rows beyond), not one per action recorded."""
        self._compact()
        other = EventLog.__new__(EventLog)
        d = self.__dict__.copy()   # rows and step: ints
        d["_chunks"], d["_lki"] = self._chunks.copy(), self._lki.copy()   # tuples: immutable
        other.__dict__ = d
        return other

    def _compact(self) -> None:
        """Both lists compacted (``_compacted``) where they hold more than a few entries."""
        if len(self._chunks) > _FEW:
            self._chunks, self._loose = _compacted(self._chunks, self._loose, LOG_COLUMNS, "game"), False
        if len(self._lki) > _FEW:
            self._lki, self._lki_loose = _compacted(self._lki, self._lki_loose, _LKI_COLUMNS, "row"), False

    def clear(self) -> None:
        self._chunks, self._lki, self.rows, self._loose, self._lki_loose = [], [], 0, False, False


_LKI_COLUMNS = ("row", "kind", "count")


def _sealed(chunks: list[dict[str, np.ndarray]]) -> tuple[dict[str, np.ndarray], ...]:
    """``chunks`` (a log's packed list) as a tuple of read-only chunks: each not yet one is
    made one (its arrays read-only) in the list too, so the next snapshot finds it so."""
    for ch in chunks:
        if type(ch) is not ReadOnlyDict:   # (most snapshots find every chunk sealed)
            chunks[:] = [c if type(c) is ReadOnlyDict else _seal(c) for c in chunks]
            break
    return tuple(chunks)


def _seal(chunk: dict[str, np.ndarray]) -> ReadOnlyDict[str, np.ndarray]:
    """``chunk`` read-only, its arrays in place (the log's own, never written once recorded)."""
    for v in chunk.values():
        v.setflags(write=False)
    return ReadOnlyDict(chunk)


def _joined(chunks: Sequence[dict[str, np.ndarray]], columns: tuple[str, ...], count: str
            ) -> dict[str, np.ndarray]:
    """The rows of ``chunks`` in order as one chunk of int64 columns (a 0-d column
    broadcasts); ``count``: a column that holds each chunk's every row."""
    total = sum(ch[count].size for ch in chunks)
    out = {c: np.empty(total, np.int64) for c in columns}
    start = 0
    for ch in chunks:
        stop = start + ch[count].size
        for c in columns:
            out[c][start:stop] = ch[c]
        start = stop
    return out


# The most rows ``_compacted`` joins into one chunk: bigger chunks stay as recorded (a
# batch's), and joining copies no more than this at a time.
_JOIN_ROWS = 1 << 12
_FEW = 16   # entries a clone copies as they are (compacting them would cost more)


def _compacted(entries: list[dict[str, np.ndarray] | tuple[int, ...]], loose: bool,
               columns: tuple[str, ...], count: str) -> list[dict[str, np.ndarray] | tuple[int, ...]]:
    """``entries`` packed (``loose``: some are tuples, ``_packed``), then the newest chunks
    joined (``_joined``) while the one before them holds at most twice their rows, up to
    ``_JOIN_ROWS`` rows: what was recorded between two compactions joins its elders, so
    some log2 of the rows' chunks are left, and a row is joined again about as many times
    over the log's life. A chunk past ``_JOIN_ROWS`` rows (a batch's, or a long packed run)
    stays whole, and what came before it stays as it was left."""
    out = _packed(entries, columns) if loose else entries
    tail = rows = 0
    while tail < len(out):
        n = cast(dict[str, np.ndarray], out[-1 - tail])[count].size
        if tail and (n > 2 * rows or n + rows > _JOIN_ROWS):
            break
        tail, rows = tail + 1, rows + n
    if tail > 1:   # (a new list: a reader may hold the old one)
        out = out[:-tail] + [_joined(cast(list[dict[str, np.ndarray]], out[-tail:]), columns, count)]
    return out


def _lki_after(entries: list[dict[str, np.ndarray] | tuple[int, ...]], first: int
               ) -> list[dict[str, np.ndarray] | tuple[int, ...]]:
    """The last entries of ``entries`` (last-known counters, packed or not) that may hold
    rows from ``first`` on: an entry is recorded with its zone changes, after every row
    before them, so they are a suffix. A host polling the last steps of a log it never
    clears reads theirs, not every zone change's of the game's history; the first of them,
    a packed chunk (a snapshot packs a long log into a few), is cut to its rows from
    ``first`` on."""
    i = len(entries)
    while i > 0:
        ch = entries[i - 1]
        if isinstance(ch, tuple) and ch[0] < first or (
                not isinstance(ch, tuple) and ch["row"].size and int(ch["row"].max()) < first):
            break
        i -= 1
    out = entries[i:]
    if out and not isinstance(out[0], tuple):
        keep = out[0]["row"] >= first
        if not keep.all():
            out = [{c: v[keep] for c, v in out[0].items()}, *out[1:]]
    return out


def _after_step(entries: Sequence[dict[str, np.ndarray] | tuple[int, ...]], since: int | None
                ) -> tuple[list[dict[str, np.ndarray] | tuple[int, ...]], int]:
    """``entries`` (``_since``'s suffix of a log) without the rows of steps up to
    ``since``, and how many rows that left out: only the first can hold such rows, when it
    is a chunk of several steps (packed by a snapshot, or loaded), and they are cut from
    its columns before anything reads them."""
    out = list(entries)
    if since is None or not out or isinstance(out[0], tuple) or not out[0]["step"].ndim:
        return out, 0
    skip = int(np.searchsorted(out[0]["step"], since, side="right"))
    if skip:
        out[0] = {c: v[skip:] if v.ndim else v for c, v in out[0].items()}
    return out, skip


def _tuples(entries: Sequence[dict[str, np.ndarray] | tuple[int, ...]], columns: tuple[str, ...],
            count: str) -> Iterator[tuple[int, ...]]:
    """The rows of ``entries`` in order, each a tuple of ``columns``' values as Python ints
    (``count``: a column that holds each chunk's every row; a 0-d column broadcasts)."""
    for ch in entries:
        if isinstance(ch, tuple):
            yield ch
        else:
            n = ch[count].size
            values = [ch[c] for c in columns]
            yield from zip(*(v.tolist() if v.ndim else [v.item()] * n for v in values))


def _packed(entries: list[dict[str, np.ndarray] | tuple[int, ...]], columns: tuple[str, ...]
            ) -> list[dict[str, np.ndarray] | tuple[int, ...]]:
    """``entries`` with each run of tuples (rows of ``columns``' values) packed into one
    chunk of int64 columns, in order."""
    packed: list[dict[str, np.ndarray] | tuple[int, ...]] = []
    run: list[tuple[int, ...]] = []
    for ch in entries + [{}]:   # (a sentinel ends the last run)
        if isinstance(ch, tuple):
            run.append(ch)
            continue
        if run:   # (one array of the rows, transposed: a column per row of it, contiguous;
            rows = np.array(run, np.int64).T.copy()   # read-only, as a snapshot seals a chunk)
            rows.setflags(write=False)
            packed.append(ReadOnlyDict(zip(columns, rows)))
            run = []
        packed.append(ch)
    return packed[:-1]
