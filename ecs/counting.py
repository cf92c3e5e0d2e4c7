"""The choke point for counters: every put and change goes through here (CR 122.1, 122.6).

``put`` validates room, skips objects that can't have counters (101.3) and lets the
ruleset replace the placement (Grand Archive buff/debuff); ``change`` adds or removes
(clamped at 0) and records one event row per (game, object) whose count changed. Callers
validate their arguments first and pass distinct rows, so a bad input changes nothing.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from . import sets
from . import store as store_module
from .components import BAN_ALL, TYPE_BIT
from .components.card import NO_STAT
from .components.game import NO_CAP
from .errors import CountOverflowError, UnpayableCostError
from .events import CAUSE, COUNTER
from .game import Game
from .kinds import ENTERING
from .limits import MAX_COUNT, MAX_LIFE
from .store import GAME_ZERO, add_clamped


def shared(game: Game, kind: str) -> bool:
    """Whether some rows' ``kind`` counters are held in another column (``holder``): a
    Two-Headed Giant player's poison (810.10)."""
    return game.two_headed_giant and kind == "poison"


def holder(game: Game, kind: str, g: np.ndarray, c: np.ndarray) -> np.ndarray:
    """The columns holding the ``kind`` counters of the rows (``g``, ``c``): Two-Headed
    Giant: a player's poison counters are the team's (810.10)."""
    s = game.store
    if not shared(game, kind):
        return c
    is_player = (s.a["types"][g, c] & TYPE_BIT["player"]) != 0
    head_col = s.a["player_col"][s.a["player_head"][s.a["controller"][g, c]]]
    return np.where(is_player, head_col, c).astype(np.int64)


def holder_one(game: Game, kind: str, g: int, col: int) -> int:
    """``holder`` of one row of plain ints."""
    if not shared(game, kind):
        return col
    v = game.store.views()
    if not v["types"][g, col] & TYPE_BIT["player"]:
        return col
    a = game.store.a
    return int(a["player_col"][a["player_head"][v["controller"][g, col]]])


def check_room(game: Game, kind: str, g: np.ndarray, c: np.ndarray, amount: np.ndarray) -> None:
    """CountOverflowError unless ``amount`` more counters of ``kind`` fit on each row that
    can have them (``allowed``: where 101.3 puts none, none can pass the limit). Rows of
    players whose counters one holder holds (``shared``) add up there."""
    if shared(game, kind):
        g, c, amount = _held_totals(game, kind, g, c, amount)
    if g.size == 1 and store_module.SCALAR_PATHS:   # one row: plain ints
        room_one(game, kind, int(g[0]), int(c[0]), int(np.asarray(amount).item()), raises=True)
        return
    have = counts_at(game, kind, g, c)
    if np.any(have + amount > MAX_COUNT):   # (rare) what can't have the kind gets none: no overflow there (101.3)
        _check_total(game, have, np.where(allowed(game, kind, g, c), amount, 0), g, c, f"{kind!r} counters")


def _held_totals(game: Game, kind: str, g: np.ndarray, c: np.ndarray, amount: np.ndarray | int
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows' holders (``holder``), once each, with the amounts of their rows added."""
    cap = game.store.capacity
    flat, total, _ = sets.sums(g * cap + holder(game, kind, g, c), np.broadcast_to(amount, g.shape))
    return flat // cap, flat % cap, total


def room_one(game: Game, kind: str, g: int, col: int, n: int, raises: bool = False) -> int:
    """The count of ``kind`` on the object of game ``g``, column ``col``, where ``n`` more
    fit there or it can't have them (101.3: none are put); else -1 or (``raises``)
    ``check_room``'s CountOverflowError. (A put reads the count once: for the room and
    the change, ``put_one``'s ``have``.)"""
    s = game.store
    k = s.kind_index.get(kind)
    have: int = s.views()["counts"][k, g, col] if k is not None else 0
    if have + n <= MAX_COUNT or not allowed_one(game, kind, g, col):
        return have
    if raises:
        _overflow(game, n, g, col, f"{kind!r} counters")
    return -1


def counts_at(game: Game, kind: str, g: np.ndarray, c: np.ndarray) -> np.ndarray:
    """(rows,) int64: the count of ``kind`` on each row (0 for a kind never used)."""
    s = game.store
    k = s.kind_index.get(kind)
    return s.counts[k, g, c].astype(np.int64) if k is not None else np.zeros(g.size, np.int64)


def counts_for_cost(game: Game, kind: str, g: np.ndarray, c: np.ndarray, need: Any,
                    what: str) -> np.ndarray:
    """Each row's count of ``kind``; UnpayableCostError naming the first row that has
    fewer than ``need`` (a cost is paid in full or not at all, CR 118.3)."""
    s = game.store
    have = counts_at(game, kind, g, c)
    need = np.broadcast_to(np.asarray(need, np.int64), g.shape)
    short = have < need
    if short.any():
        i = int(np.flatnonzero(short)[0])
        raise UnpayableCostError(
            f"entity {int(s.a['entity_id'][g[i], c[i]])} in game {int(g[i])} has {int(have[i])} "
            f"{kind!r} counters; {what} needs {int(need[i])}")
    return have


def check_marked_damage(game: Game, g: np.ndarray, c: np.ndarray, amount: np.ndarray) -> None:
    """Marked damage is int32 like counts: passing MAX_COUNT raises, it never wraps."""
    have = game.store.a["damage"][g, c].astype(np.int64)
    _check_total(game, have, amount, g, c, "damage")


def _check_total(game: Game, have: np.ndarray, amount: np.ndarray, g: np.ndarray,
                 c: np.ndarray, what: str) -> None:
    over = have + amount > MAX_COUNT
    if np.any(over):
        i = int(np.flatnonzero(np.broadcast_to(over, g.shape))[0])
        _overflow(game, int(np.broadcast_to(amount, g.shape)[i]), int(g[i]), int(c[i]), what)


def _overflow(game: Game, n: int, g: int, col: int, what: str) -> None:
    raise CountOverflowError(f"putting {n} {what} on entity "
                             f"{int(game.store.a['entity_id'][g, col])} in game {g} would pass {MAX_COUNT}")


def life_after(game: Game, g: np.ndarray, idx: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """The life totals of player indices ``idx`` in games ``g`` changed by ``delta``
    (within -MAX_LIFE..MAX_LIFE, as every total is), or CountOverflowError naming the first
    past those bounds. Compared before adding: two totals at the bound add up past int64."""
    old = game.store.a["life"][g, idx]
    delta = np.asarray(delta, np.int64)
    over = np.where(delta >= 0, old > MAX_LIFE - delta, old < -MAX_LIFE - delta)
    if over.any():
        i = int(np.flatnonzero(over)[0])
        pid = int(game.store.a["entity_id"][0, game.store.a["player_col"][idx[i]]])
        raise CountOverflowError(f"life of player {pid} in game {int(g[i])} would be "
                                 f"{int(old[i]) + int(delta[i])}, past -{MAX_LIFE}..{MAX_LIFE}")
    return old + delta


def ban_bit(game: Game, kind: str) -> np.uint64:
    """The bit of ``kind`` in the ``ban`` field (every kind's bit with it); 0 for a kind
    without a plane, which no prohibition can name (``ecs.host.prohibit`` makes one)."""
    return np.uint64(_ban_bits(game, kind))


def _ban_bits(game: Game, kind: str) -> int:
    """``ban_bit`` as a Python int."""
    k = game.store.kind_index.get(kind)
    return (1 << BAN_ALL) | (1 << k if k is not None and k < BAN_ALL else 0)


def allowed(game: Game, kind: str, g: np.ndarray, c: np.ndarray) -> np.ndarray:
    """(rows,) bool: which rows may have ``kind`` counters put on them: not created with
    ``no_counters`` and no prohibition of that kind or of every kind (122.1, 101.3); a
    Two-Headed Giant player's poison: no such prohibition on any player of the team
    (810.10c), a host's ``can_have`` included."""
    s = game.store
    ok = ~s.a["no_counters"][g, c]
    ban = s.a["ban"][g, c]
    if shared(game, kind):
        ban = ban | _team_bans(game, g, c)
    ok &= (ban & ban_bit(game, kind)) == 0
    if type(game.ruleset) not in _MAGIC_CAN_HAVE and host_can_have(game):   # of a class of objects
        can = game.ruleset.can_have(game, kind, g, c)
        if can is not None:
            ok &= np.broadcast_to(np.asarray(can, bool), ok.shape)
        if shared(game, kind):   # 810.10c: nor where the host's effect says a teammate can't
            r, cols = _teammates(game, g, c)
            can = game.ruleset.can_have(game, kind, np.asarray(g)[r], cols)
            if can is not None:
                ok[r[~np.broadcast_to(np.asarray(can, bool), r.shape)]] = False
    return ok


def _teammates(game: Game, g: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Of the rows that are players' columns, each row's index and the column of a player of
    its team, one pair for each player of the team (itself included)."""
    a = game.store.a
    pcol = a["player_col"].astype(np.int64)
    head = pcol[a["player_head"]]                 # each player's team, as its head's column
    team = np.full(game.store.capacity, -1, np.int64)
    team[pcol] = head                             # a player's column -> its team
    r, p = np.nonzero(head[None, :] == team[c][:, None])
    return r, pcol[p]


def _team_bans(game: Game, g: np.ndarray, c: np.ndarray) -> np.ndarray:
    """(rows,) the prohibitions (``ban``) of every player of the team of each row that is a
    player's column, or'ed together; 0 for the other rows."""
    r, cols = _teammates(game, g, c)
    out = np.zeros(np.shape(c), np.uint64)
    np.bitwise_or.at(out, r, game.store.a["ban"][np.asarray(g)[r], cols])
    return out


def host_can_have(game: Game) -> bool:
    """Whether the ruleset's ``can_have`` is a host's (a subclass's), which ``allowed``
    asks; Magic's allows every row. (The rulesets seen with Magic's are kept in a set: the
    single game's paths ask this on every move.)"""
    if "can_have" in magic_hooks(game):
        _MAGIC_CAN_HAVE.add(type(game.ruleset))
        return False
    return True


_MAGIC_CAN_HAVE: set[type] = set()


def allowed_one(game: Game, kind: str, g: int, col: int) -> bool:
    """``allowed`` of one row of plain ints."""
    if shared(game, kind) or type(game.ruleset) not in _MAGIC_CAN_HAVE and host_can_have(game):
        return bool(allowed(game, kind, np.array([g], np.int64), np.array([col], np.int64))[0])
    v = game.store.views()
    return not v["no_counters"][g, col] and not v["ban"][g, col] & _ban_bits(game, kind)


def put(game: Game, kind: str, g: np.ndarray, c: np.ndarray, amount: np.ndarray | int,
        cause: str, by: Any = -1) -> None:
    """Put counters (rows must be distinct): the room first, on every row that can have
    them (``check_room``; callers check it so before their step), then objects that can't
    have counters, or can't have counters of this kind, get none (101.3); the ruleset may
    replace the placement (Grand Archive buff/debuff). Counters a player gets that the
    team holds (``shared``) go on the team's pool, one event row for each player who gets
    them (``_put_shared``)."""
    if shared(game, kind):
        _put_shared(game, kind, g, c, amount, cause, by)
    else:
        _put(game, kind, g, c, amount, cause, by)


def _put(game: Game, kind: str, g: np.ndarray, c: np.ndarray, amount: np.ndarray | int,
         cause: str, by: Any = -1) -> None:
    """``put`` of a kind that each row's own column holds."""
    if g.size == 1 and store_module.SCALAR_PATHS:   # one row (a single game's one target): plain int reads
        n = int(amount) if type(amount) is int else int(np.asarray(amount).item())
        by = int(by.item()) if isinstance(by, np.ndarray) else int(by)
        put_one(game, kind, int(g[0]), int(c[0]), n, cause, by, (g, c))
        return
    amounts = np.broadcast_to(np.asarray(amount, np.int64), g.shape)
    check_room(game, kind, g, c, amounts)
    ok = (amounts > 0) & allowed(game, kind, g, c)
    if not ok.all():
        g, c, amounts = g[ok], c[ok], amounts[ok]
        by = by[ok] if isinstance(by, np.ndarray) else by
    if g.size:
        game.ruleset.place(game, kind, g, c, amounts, cause, by)


def _put_shared(game: Game, kind: str, g: np.ndarray, c: np.ndarray, amount: np.ndarray | int,
                cause: str, by: Any) -> None:
    """810.10: "Effects that cause players to get poison counters happen to each player
    individually. The poison counters are shared by the team." Each row's counters go on
    its holder (``holder``), logged on the row's own player: a team's players one after
    the other, in seat order, each row's before/after the team's count as it goes."""
    amounts = np.broadcast_to(np.asarray(amount, np.int64), g.shape)   # (room: checked by the callers)
    order, held, place = _seated(game, kind, g, c)
    g, c, amounts = g[order], c[order], amounts[order]
    by = np.broadcast_to(np.asarray(by, np.int64), order.shape)[order]
    e = slot_ids(game, g * game.store.capacity + c)
    place[(amounts <= 0) | ~allowed(game, kind, g, held)] = -1   # 101.3: none put
    for turn in range(int(place.max(initial=-1)) + 1):   # a team's first player's, then the next's
        m = place == turn
        game.ruleset.place(game, kind, g[m], held[m], amounts[m], cause, by[m], e[m])


def first_per_holder(game: Game, kind: str, g: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows (``g``, ``c``), one per holder of their ``kind`` counters: of a
    team's players, the first seated (701.34b: one of them gets the team's poison)."""
    order, _, place = _seated(game, kind, g, c)
    first = order[place == 0]
    return g[first], c[first]


def _seated(game: Game, kind: str, g: np.ndarray, c: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct rows' order by holder (``holder``) and, a team's players, by seat; the
    holders in that order; each row's place (0, 1, ...) among its holder's rows."""
    s = game.store
    held = holder(game, kind, g, c)
    seat = s.a["controller"][g, c]   # (a player's column holds its own index)
    order = np.lexsort((seat, g * s.capacity + held))
    held = held[order]
    return order, held, sets.places_in_runs(g[order] * s.capacity + held)


def put_one(game: Game, kind: str, g: int, col: int, n: int, cause: str, by: int = -1,
            rows: tuple[np.ndarray, np.ndarray] | None = None, have: int = -1, e: int = -1,
            step: bool = False) -> None:
    """``put`` on one row of plain ints. ``have``: the count there, if the caller read it
    and checked the room (``room_one``); ``step``: take the log's next step once the room
    is checked (an action's: a refused put takes none); ``e``: the object's id and
    ``rows``: its (g, c) arrays, if the caller has them. The ruleset's ``place_one`` places
    them (Magic's: ``set_one``; Grand Archive's cancels buff and debuff), or, where a
    subclass replaced ``place`` alone, its ``place`` given one-row arrays."""
    if have < 0:
        have = room_one(game, kind, g, col, n, raises=True)
    if step:
        game.log.next_step()
    v = game.store.views()
    if n <= 0 or v["no_counters"][g, col]:   # 101.3: ``allowed`` of one row
        return
    ban = v["ban"][g, col]   # (in Two-Headed Giant a team's poison: the team's bans, 810.10c)
    if ban and ban & _ban_bits(game, kind) or game.two_headed_giant and not allowed_one(game, kind, g, col):
        return
    place = scalar_hook(game, "place_one", PLACE)
    if place is not None:
        place(game, kind, g, col, have, n, cause, by, e)
        return
    gs, cs = rows if rows is not None else (np.array([g], np.int64), np.array([col], np.int64))
    if not allowed(game, kind, gs, cs)[0]:   # (a host's ``can_have``: 101.3)
        return
    game.ruleset.place(game, kind, gs, cs, np.array([n], np.int64), cause, by,
                       np.array([e], np.int64) if e >= 0 else None)


#: What the ruleset's ``place_one`` and ``place_few`` stand for (``scalar_hook``): they
#: place where Magic's ``can_have`` allows.
PLACE = ("place", "can_have")


def put_few(game: Game, kind: str, targets: list[tuple[int, int]], n: int, cause: str) -> bool:
    """``put`` of ``n`` counters on each of a single game's ``targets`` ((id, column) pairs,
    ``ecs.args.few``) in plain ints, as the general path puts them: the room is checked on
    each object before anything changes, then the puts are one step, but on those 101.3
    forbids, placed by the ruleset's ``place_few``. False, with nothing done, where the
    general path must act or raise: a ruleset without a trusted ``place_few``
    (``scalar_hook``), a put that does not fit."""
    place = scalar_hook(game, "place_few", PLACE)
    if place is None:
        return False
    s = game.store
    k = s.kind_index.get(kind)
    counts = s.views()["counts"]
    rows = summed(targets, n)
    have = [counts[k, 0, col] if k is not None else 0 for col, _, _ in rows]
    for (col, more, _), was in zip(rows, have):
        if was + more > MAX_COUNT and allowed_one(game, kind, 0, col):
            return False
    game.log.next_step()
    place(game, kind, 0, [(col, was, more, e) for (col, more, e), was in zip(rows, have)
                          if more > 0 and allowed_one(game, kind, 0, col)], cause, -1)
    return True


def change_few(game: Game, kind: str, targets: list[tuple[int, int]], delta: int, cause: str) -> None:
    """``change`` of ``delta`` on each of a single game's ``targets`` ((id, column) pairs,
    ``ecs.args.few``) in plain ints, as the general path changes them."""
    for col, total, e in summed(targets, delta):
        change_one(game, kind, 0, col, total, cause, -1, e)


def summed(targets: list[tuple[int, int]], n: int) -> list[tuple[int, int, int]]:
    """(column, amount, id) of each object ``targets`` name, by column: rows naming one
    object add up, in the order of the general path's rows (``ecs.args.sum_rows``)."""
    total: dict[int, int] = {}
    ident: dict[int, int] = {}
    for e, col in targets:
        total[col] = total.get(col, 0) + n
        ident[col] = e
    return [(col, total[col], ident[col]) for col in sorted(total)]


def magic_hooks(game: Game) -> frozenset[str]:
    """The names of the ruleset's hooks that are the Magic rules' own (defined in
    ``ecs.rules.mtg``, not replaced by a subclass, e.g. Grand Archive's ``place``): what
    the single-game scalar paths do themselves. (Named, not imported: the rulesets are
    above this layer. The scalar-path differential tests catch a hook changed there.)
    Cached per ruleset class in a plain dict (functools.cache's wrapper was a cold path of
    its own after other work)."""
    cls = type(game.ruleset)
    own = _MAGIC_HOOKS.get(cls)
    if own is None:
        own = _MAGIC_HOOKS[cls] = frozenset(
            name for name in dir(cls) if getattr(getattr(cls, name, None), "__module__", None) == "ecs.rules.mtg")
    return own


_MAGIC_HOOKS: dict[type, frozenset[str]] = {}


def scalar_hook(game: Game, name: str, covers: tuple[str, ...]) -> Callable[..., bool] | None:
    """The ruleset's scalar hook ``name`` (a single game's plain-value form of the hooks
    ``covers``, e.g. ``deal_damage_one`` of ``deal_damage``), or None where a hook it covers
    is defined below the class that defines it: a subclass (a host's) that replaces one of
    those but not the scalar hook gets the general path, with its own rules."""
    cls = type(game.ruleset)
    trusted = _SCALAR_HOOKS.get((cls, name))
    if trusted is None:
        owner = _definer(cls, name)
        trusted = _SCALAR_HOOKS[(cls, name)] = owner is not None and all(
            issubclass(owner, _definer(cls, h) or object) for h in covers)
    return getattr(game.ruleset, name) if trusted else None


def _definer(cls: type, name: str) -> type | None:
    return next((c for c in cls.__mro__ if name in c.__dict__), None)


_SCALAR_HOOKS: dict[tuple[type, str], bool] = {}


def change_one(game: Game, kind: str, g: int, col: int, delta: int, cause: str, by: int = -1,
               e: int = -1) -> None:
    """``change`` of one row of plain ints (``e``: the object's id, if the caller has it)."""
    k = game.store.kind_index.get(kind)
    was: int = game.store.views()["counts"][k, g, col] if k is not None else 0
    set_one(game, kind, g, col, was, max(was + delta, 0), cause, by, e)


def set_one(game: Game, kind: str, g: int, col: int, was: int, now: int, cause: str, by: int = -1,
            e: int = -1) -> None:
    """Make the count of ``kind`` on one row ``now`` from ``was`` (read by the caller): one
    int write and one event row, none if they are equal. ``e``: the object's id, if the
    caller has it (else read from the slot)."""
    if now == was:
        return
    if now > MAX_COUNT:   # a ruleset's placement (a host's replacement) past the checked room
        _overflow(game, now - was, g, col, f"{kind!r} counters")
    s = game.store
    k = s.kind_index.get(kind)
    if k is None:   # a new kind gets a plane only when counters are put
        k = s.kind_id(kind, create=True)
    s.write("counts", (k, g, col), now)
    game.log.one(COUNTER, CAUSE[cause], g, e if e >= 0 else s.views()["entity_id"][g, col], k, was, now, by)


def change(game: Game, kind: str, g: np.ndarray, c: np.ndarray, delta: np.ndarray | int,
           cause: str, by: Any = -1, at: np.ndarray | None = None, e: np.ndarray | None = None) -> None:
    """Add ``delta`` (negative: remove, clamped at 0) and record one event per change
    (``at``: the rows' flat indices ``g * capacity + c``, if the caller has them; ``e``: the
    ids to log the rows on, if not the slots' own: ``_put_shared``)."""
    s = game.store
    delta = np.asarray(delta, np.int64)   # broadcasts against the rows below
    if g.size == 1 and delta.size == 1 and np.size(by) == 1 and store_module.SCALAR_PATHS:
        change_one(game, kind, int(g[0]), int(c[0]), int(delta.item()), cause,
                   int(by.item()) if isinstance(by, np.ndarray) else int(by), -1 if e is None else int(e[0]))
        return
    k = s.kind_index.get(kind)
    if k is None:   # a new kind gets a plane only when counters are put
        k = s.kind_id(kind, create=g.size > 0 and bool((delta > 0).any()))
    if k < 0 or g.size == 0:
        return
    # The plane is a contiguous (B, C) array: flat indices address it in one pass.
    if at is None:
        at = g * s.capacity + c
    d = delta.reshape(-1)
    if not (d.flags.writeable and d.flags.c_contiguous):   # one compiled signature (a compile each)
        d = d.copy()
    plane = s.mut("counts")[k].reshape(-1)
    before, after, every = add_clamped(plane, at, d)
    if after.size and after.max() > MAX_COUNT:   # a ruleset's placement past the checked room:
        plane[at] = before                       # undone (int32 would wrap), then refused
        i = int(after.argmax())
        _overflow(game, int(after[i] - before[i]), int(g[i]), int(c[i]), f"{kind!r} counters")
    changed(game, k, g, slot_ids(game, at) if e is None else e, before, after, every, cause, by)


def slot_ids(game: Game, at: np.ndarray) -> np.ndarray:
    """The ids in the flat slots ``at`` (game * capacity + column): a take, several times
    a (games, columns) gather's speed."""
    return game.store.a["entity_id"].reshape(-1).take(at)


def changed(game: Game, k: int, g: np.ndarray, entity: np.ndarray, before: np.ndarray,
            after: np.ndarray, every: bool, cause: str, by: Any = -1) -> None:
    """Record the events of a change of kind ``k`` already made (``change``'s second
    half): one row per game ``g`` and id ``entity`` whose count changed (``every``: all
    did). ``entity`` (``slot_ids``) is kept by the log, and may be shared by the records
    of one change of several kinds: nobody writes it."""
    if not every:   # rows that changed nothing get no event
        ch = after != before
        g, entity, before, after = g[ch], entity[ch], before[ch], after[ch]
        if np.ndim(by):
            by = np.broadcast_to(by, ch.shape)[ch]
    game.log.record(COUNTER, cause, game=g, entity=entity, kind=k,
                    before=before, after=after, other=by, fresh=("entity", "before", "after"))


def enter_battlefield(game: Game, g: np.ndarray, c: np.ndarray) -> None:
    """Counters put on objects as they enter by their own abilities (122.6, 614.1c): such
    an ability names no player, so each object's controller puts them (122.6a)."""
    if g.size == 1 or (game.batch == 1 and g.size):   # one row, or one game's rows
        enter_battlefield_one(game, int(g[0]), c.tolist())
    else:
        _enter_rows(game, g, c)


def enter_battlefield_one(game: Game, g: int, cols: list[int]) -> None:
    """``enter_battlefield`` of the objects in columns ``cols`` of game ``g``, in plain
    ints under Magic's ``enter_counters``: kind by kind, each in the order of ``cols``, as
    the general path puts them (a ruleset's own hook takes its arrays)."""
    if not (store_module.SCALAR_PATHS and "enter_counters" in magic_hooks(game)):
        _enter_rows(game, np.full(len(cols), g, np.int64), np.array(cols, np.int64))
        return
    v = game.store.views()
    types = v["types"]
    for stat, type_name in ENTERING:
        bit = TYPE_BIT[type_name]
        for col in cols:
            if types[g, col] & bit:
                printed = v[stat][g, col]
                if printed != NO_STAT and printed > 0:
                    put_one(game, stat, g, col, printed, "enter", v["controller"][g, col])


def _enter_rows(game: Game, g: np.ndarray, c: np.ndarray) -> None:
    who = game.store.a["controller"][g, c].astype(np.int64)
    for kind, amounts in game.ruleset.enter_counters(game, g, c):
        p = amounts > 0
        if p.any():
            put(game, kind, g[p], c[p], amounts[p], "enter", who[p])


def set_cap_one(game: Game, kind: str, col: int, value: int) -> None:
    """``set_caps`` of column ``col`` of a single game in plain ints: the value written
    where the cap table has the row, else into a new row (nothing where the cap ends, ``NO_CAP``);
    the general path where the table has more than ``FEW_CAPS`` rows (its arrays then cost
    less than a Python scan)."""
    s = game.store
    k = s.kind_id(kind, create=value >= 0)
    if k < 0:   # a kind never used: no cap of it to end
        return
    v = s.views()
    cols, kinds = v["cap_col"], v["cap_kind"]
    if len(cols) <= FEW_CAPS:
        for m in range(len(cols)):
            if cols[m] == col and kinds[m] == k:
                s.write("cap_val", (0, m), value)
                return
        if value >= 0:   # (else no cap to end)
            s.write("cap_val", (0, _cap_rows(game, k, np.array([col], np.int64))), value)
        return
    set_caps(game, kind, GAME_ZERO, np.array([col], np.int64), np.array([value], np.int64))


#: Cap table rows a single game's plain path scans as Python ints; more take arrays.
FEW_CAPS = 64


def _cap_rows(game: Game, k: int, cols: np.ndarray) -> int:
    """New rows of the cap table for kind ``k`` at the columns ``cols`` (distinct, without
    one), holding no cap in every game; returns the first's index."""
    a = game.store.a
    at = a["cap_col"].size
    a["cap_col"] = np.concatenate([a["cap_col"], cols.astype(np.int32)])
    a["cap_kind"] = np.concatenate([a["cap_kind"], np.full(cols.size, k, np.int32)])
    a["cap_val"] = np.concatenate([a["cap_val"], np.full((game.batch, cols.size), NO_CAP, np.int64)], axis=1)
    return at


def _cap_row(game: Game, k: int) -> np.ndarray:
    """Each column's row of the cap table for kind ``k`` (-1: none; a column has one row
    per kind)."""
    a = game.store.a
    row = np.full(game.store.capacity, -1, np.int64)
    mine = np.flatnonzero(a["cap_kind"] == k)
    row[a["cap_col"][mine]] = mine
    return row


def caps_at(game: Game, kind: str, g: np.ndarray, c: np.ndarray) -> np.ndarray:
    """The caps of ``kind`` at rows (``g``, ``c``) (``set_caps``), ``NO_CAP`` where none."""
    out = np.full(g.size, NO_CAP, np.int64)
    k = game.store.kind_index.get(kind)
    if k is None:
        return out
    r = _cap_row(game, k)[c]
    has = r >= 0
    out[has] = game.store.a["cap_val"][g[has], r[has]]
    return out


def set_caps(game: Game, kind: str, g: np.ndarray, c: np.ndarray, values: np.ndarray) -> None:
    """"Can't have more than N counters of ``kind``" (CR 122.4); ``NO_CAP``: none. A column has
    a row of the cap table (and the kind a plane) once it gets a cap: ending a cap it does
    not have changes nothing."""
    s = game.store
    capped = values >= 0
    k = s.kind_id(kind, create=bool(capped.any()))
    if k < 0:   # a kind never used: no cap of it to end (or none given)
        return
    every = bool(capped.all())   # (the usual case: no row to leave out)
    row = _cap_row(game, k)
    new = sets.distinct(c if every else c[capped])
    new = new[row[new] < 0]
    if new.size:   # rows of their own, in column order
        at = _cap_rows(game, k, new)
        row[new] = np.arange(at, at + new.size)
    r = row[c]
    if not every:   # (columns without a row are given no cap, which they have)
        has = r >= 0
        g, r, values = g[has], r[has], values[has]
    s.mut("cap_val")[g, r] = values
