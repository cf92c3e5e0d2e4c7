"""What a host engine tells the core about the rest of the game.

A simulator that embeds the core keeps its own continuous effects, control changes and
replacement effects; these actions hand the core the parts its state-based actions and
reads depend on. All take ``games=`` and broadcast ids and values as the counter actions
do (``ecs.args``); each validates everything before it writes anything.

- ``set_pt`` / ``modify_pt`` / ``clear_pt``: power/toughness effects, layer 7b (set) and
  7c (modify) (613.4). Power/toughness = (the set value, else the printed one) + the
  modifications + the power/toughness counters (counters are 7c too, 613.4c; addition
  commutes, so their timestamps within 7c don't matter). Every read, observation of the
  stats and 704.5f/704.5g/704.5h honour them. They last until the host clears them
  (``clear_pt``: at cleanup, 514.2, for "until end of turn", re-applying what continues)
  or the object changes zones (400.7). Layer 7d (switching) is not modelled.
- ``set_controller``: a control change (108.4). The owner (``World.owner``) is the
  controller the object had before its first control change; a zone change makes a new
  object under its owner's control (110.2, 400.7). Control is per game, like all object
  state: a change acts in the selected games only.
- ``prohibit`` / ``allow``: "can't have [kind] counters put on it" for one kind or every
  kind, on objects or players (122.1, 101.3): putting, moving onto, proliferating and
  entering with them put none there, silently. Counters already there stay.
- ``set_cant_lose``: the player can't lose for a reason ("life": 704.5a/704.6a,
  "poison": 704.5c/704.6b) while the flag is on. In Two-Headed Giant one player's flag
  keeps the team in.
- ``set_hold``: the state-based actions that kill permanents (Lethality) leave the object
  where it is (e.g. a battle at 0 defense that is the source of a triggered ability still
  on the stack, 704.5v).
- ``set_redirect``: "if it would die, put it into <zone> instead": every battlefield ->
  graveyard move of the object (a state-based action, destroy, sacrifice, move_zone) goes
  to that zone instead; applied before finality counters (122.1h).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

import numpy as np

from . import args, counting, zones
from .args import BoolRead, Games, Ids
from .components import BAN_ALL, HOST_EFFECT_FIELDS, HOST_MARK, TYPE_BIT
from .errors import IllegalActionError, InvalidCountError, InvalidTypeError, InvalidZoneError
from .game import Game
from .limits import MAX_STAT
from .store import GAME_ZERO

#: The reasons a player can be kept from losing, and the field of each.
CANT_LOSE = {"life": "cant_lose_life", "poison": "cant_lose_poison"}
#: The power/toughness effects (layers 7b, 7c) that ``clear_pt`` ends, as declared.
_PT_FIELDS = tuple(f for f in HOST_EFFECT_FIELDS if f.name.startswith(("pt_set_", "pt_mod_")))


def marks(a: Mapping[str, np.ndarray], g: Any = slice(None), c: Any = slice(None)) -> np.ndarray:
    """``HOST_MARK`` of the slots (``g``, ``c``) of the store's arrays ``a`` (all of them
    by default): whether the object there is under any of a host's effects on objects."""
    first, *rest = HOST_EFFECT_FIELDS
    out = a[first.name][g, c] != first.fill
    for f in rest:
        out |= a[f.name][g, c] != f.fill
    return out


def _remark(world: Game, g: Any, c: Any) -> None:
    """``HOST_MARK`` made right again at the slots (``g``, ``c``) where an action set or
    ended effects (read first: a write copies an array a clone still shares)."""
    s = world.store
    now = marks(s.a, g, c)
    if (s.a[HOST_MARK.name][g, c] != now).any():
        s.mut(HOST_MARK.name)[g, c] = now


def _remark_one(world: Game, col: int) -> None:
    """``_remark`` of one slot of a single game, column ``col``, with plain reads."""
    s = world.store
    v = s.views()
    now = any(v[f.name][0, col] != f.fill for f in HOST_EFFECT_FIELDS)
    if v[HOST_MARK.name][0, col] != now:
        s.write(HOST_MARK.name, (0, col), now)


def _values(world: Game, v: Any, e: Any, games: Any, single: bool,
            what: Callable[[Any], str]) -> np.ndarray:
    """Signed values (at most MAX_STAT in size) broadcast against the targets of ``e``
    like counter amounts (``ecs.args``), one per target row. ``what(ids)`` names the
    value in errors (called only when raising), with the one id and game at fault where
    one cell of the (selected games, ids) grid is."""
    gsel = args.select_games(games, world.ongoing)
    ids = args.as_ids(e, gsel.size)[0]
    shape = ids.shape
    try:
        arr = args.integer_array(v, "value", -MAX_STAT, MAX_STAT, InvalidCountError)   # (checked, then cast)
    except InvalidCountError as err:
        raise InvalidCountError(f"{_cell(world, v, ids, gsel, single, what)}: {err}") from None
    if arr.ndim == 1:
        arr = arr[:, None] if single else arr[None, :]
    try:
        return np.ascontiguousarray(np.broadcast_to(arr, shape)).ravel()
    except ValueError:
        raise InvalidCountError(f"{what(e)}: values of shape {np.shape(v)} do not fit {shape} "
                                "(selected games, objects)") from None


def _named(what: str) -> Callable[[Any], str]:
    """``_values``' ``what``: ``what`` of the ids it is given."""
    return lambda e: f"{what} of {args.named_ids(e)}"


def _cell(world: Game, v: Any, ids: np.ndarray, gsel: np.ndarray, single: bool,
          what: Callable[[Any], str]) -> str:
    """``what`` of the first cell of the (selected games, ids) grid whose value of ``v`` is
    more than MAX_STAT in size, and its game in a batch; ``what`` of every id where no one
    cell is at fault (a scalar, a non-integer array)."""
    cell = args.refused_cell(v, ids.shape, single, -MAX_STAT, MAX_STAT)
    if cell is None:
        return what(ids)
    return what(int(ids[cell])) + (f" in game {int(gsel[cell[0]])}" if world.batch > 1 else "")


def _object_one(world: Game, e: Any, games: Any) -> int:
    """The column of ``e`` where a host action may take its single-game scalar path: one
    object (not a player) of one ongoing game given as an int (``args.one``); -1 where the
    general path must act or raise."""
    col = args.one(world, e, games)
    return col if col >= 0 and not world.store.views()["types"][0, col] & _PLAYER else -1


def _value_one(v: Any) -> bool:
    """Whether ``v`` is a value the scalar paths take as is: an int (not a bool) of at most
    MAX_STAT in size (``_values`` raises for the others, or broadcasts them)."""
    return type(v) is int and -MAX_STAT <= v <= MAX_STAT


_PLAYER = TYPE_BIT["player"]


def _objects(world: Game, e: Ids, games: Any, what: str) -> tuple[np.ndarray, np.ndarray, bool]:
    """Target rows of ``e`` that must be objects (not players)."""
    g, c, single = args.targets(world, e, games)
    args.require(world, ~args.is_type(world, g, c, "player"), g, c, f"is a player: {what} "
                 "applies to objects")
    return g, c, single


def set_pt(world: Game, e: Ids, power: Any = None, toughness: Any = None,
           games: Games = None) -> None:
    """Set power and/or toughness (layer 7b, 613.4b: "becomes 0/1"); None leaves that
    stat's set value as it is. A later set replaces an earlier one (timestamp order)."""
    col = _object_one(world, e, games)
    if col >= 0 and all(v is None or _value_one(v) for v in (power, toughness)):
        for stat, v in (("power", power), ("toughness", toughness)):
            if v is not None:
                world.store.write("pt_set_" + stat, (0, col), v)
        _remark_one(world, col)
        return
    g, c, single = _objects(world, e, games, "set_pt")
    args.distinct_rows(world, g, c, "set_pt")
    new = {stat: _values(world, v, e, games, single, _named(f"set_pt {stat}"))
           for stat, v in (("power", power), ("toughness", toughness)) if v is not None}
    for stat, v in new.items():
        world.store.mut("pt_set_" + stat)[g, c] = v
    _remark(world, g, c)


def modify_pt(world: Game, e: Ids, power: Any = 0, toughness: Any = 0,
              games: Games = None) -> None:
    """Add to power and toughness (layer 7c, 613.4c: "gets +3/+3", anthems); negative
    values subtract. Rows naming one object in one game add up."""
    s = world.store
    col = _object_one(world, e, games)
    if col >= 0 and _value_one(power) and _value_one(toughness):
        v = s.views()
        sums = [(stat, v["pt_mod_" + stat][0, col] + d) for stat, d in (("power", power), ("toughness", toughness))]
        if all(abs(total) <= MAX_STAT for _, total in sums):   # (else the general path raises)
            for stat, total in sums:
                s.write("pt_mod_" + stat, (0, col), total)
            _remark_one(world, col)
            return
    g, c, single = _objects(world, e, games, "modify_pt")
    dp = _values(world, power, e, games, single, _named("modify_pt power"))
    dt = _values(world, toughness, e, games, single, _named("modify_pt toughness"))
    g2, c2, dp = args.sum_rows(world, g, c, dp)
    _, _, dt = args.sum_rows(world, g, c, dt)
    totals = {}
    for stat, d in (("power", dp), ("toughness", dt)):
        total = s.a["pt_mod_" + stat][g2, c2].astype(np.int64) + d
        over = np.abs(total) > MAX_STAT
        if over.any():
            i = int(np.flatnonzero(over)[0])
            raise InvalidCountError(
                f"modify_pt: the {stat} modifications of entity {int(s.a['entity_id'][g2[i], c2[i]])} "
                f"in game {int(g2[i])} would come to {int(total[i])}, more than {MAX_STAT} in size")
        totals[stat] = total
    for stat, total in totals.items():
        s.mut("pt_mod_" + stat)[g2, c2] = total
    _remark(world, g2, c2)


def clear_pt(world: Game, e: Ids | None = None, games: Games = None) -> None:
    """End the power/toughness effects (both layers) on ``e``, or on every object when
    ``e`` is None, in the selected games (514.2: "until end of turn" effects end)."""
    s = world.store
    if e is None:
        gsel = args.select_games(games, world.ongoing)
        rows: Any = slice(None) if gsel.size == world.batch else gsel   # (every game: no copies)
        cleared = False
        for f in _PT_FIELDS:
            if (s.a[f.name][rows] != f.fill).any():
                s.mut(f.name)[rows] = f.fill
                cleared = True
        if cleared:
            _remark(world, rows, slice(None))
        return
    col = _object_one(world, e, games)
    if col >= 0:
        v = s.views()
        for f in _PT_FIELDS:
            if v[f.name][0, col] != f.fill:
                s.write(f.name, (0, col), f.fill)
        _remark_one(world, col)
        return
    g, c, _ = _objects(world, e, games, "clear_pt")
    for f in _PT_FIELDS:
        s.mut(f.name)[g, c] = f.fill
    _remark(world, g, c)


def set_controller(world: Game, e: Ids, player: int, games: Games = None) -> None:
    """``player`` gains control of ``e`` in the selected games (108.4); the first change
    records the owner."""
    s = world.store
    p = args.player_index(world, player, "set_controller player")
    col = _object_one(world, e, games)
    if col >= 0:
        v = s.views()
        old = v["controller"][0, col]
        if v["owner"][0, col] < 0:
            s.write("owner", (0, col), old)
        s.write("controller", (0, col), p)
        if old != p:
            world.ruleset.control_changed(world, GAME_ZERO, np.array([col], np.int64), np.array([old], np.int64))
        return
    g, c, _ = _objects(world, e, games, "set_controller")
    ctrl = s.a["controller"][g, c].astype(np.int64)
    owner = s.a["owner"][g, c]
    s.mut("owner")[g, c] = np.where(owner < 0, ctrl, owner)
    s.mut("controller")[g, c] = p
    moved = ctrl != p
    if moved.any():
        world.ruleset.control_changed(world, g[moved], c[moved], ctrl[moved])


def _ban_bit(world: Game, kind: str | None, create: bool) -> np.uint64:
    if kind is None:
        return np.uint64(1 << BAN_ALL)
    kind = args.kind(world, kind)
    s = world.store
    k = s.kind_index.get(kind, s.n_kinds if create else -1)   # the plane it gets if new
    if k >= BAN_ALL:
        raise IllegalActionError(
            f"kind {kind!r} is the World's kind number {k}: prohibitions name one of the "
            f"first {BAN_ALL} kinds used (prohibit every kind with kind=None)")
    if create:
        k = s.kind_id(kind, create=True)
    if k < 0:   # never used, nothing to allow
        return np.uint64(0)
    return np.uint64(1 << k)


def prohibit(world: Game, e: Ids, kind: str | None = None, games: Games = None) -> None:
    """``e`` (objects or players) can't have ``kind`` counters (None: any counters) put
    on it from now on (122.1, 101.3); those it has stay. Ends on a zone change (400.7)."""
    col = args.one(world, e, games)   # (objects and players)
    if col >= 0:
        s = world.store
        s.write("ban", (0, col), s.views()["ban"][0, col] | int(_ban_bit(world, kind, create=True)))
        _remark_one(world, col)
        return
    g, c, _ = args.targets(world, e, games)
    bit = _ban_bit(world, kind, create=True)
    ban = world.store.mut("ban")
    ban[g, c] |= bit
    _remark(world, g, c)


def allow(world: Game, e: Ids, kind: str | None = None, games: Games = None) -> None:
    """End the prohibition of ``kind`` counters on ``e`` (None: every prohibition of it,
    that of any counters included). A prohibition of any counters outlasts allowing one
    kind."""
    col = args.one(world, e, games)
    if col >= 0:   # one object or player of a single game: plain ints
        s = world.store
        bit = _ALL_BANS if kind is None else int(_ban_bit(world, kind, create=False))
        ban = s.views()["ban"][0, col]
        if ban & bit:
            s.write("ban", (0, col), ban & ~bit)
            _remark_one(world, col)
        return
    g, c, _ = args.targets(world, e, games)
    bits = np.uint64(_ALL_BANS) if kind is None else _ban_bit(world, kind, create=False)
    s = world.store
    if bits and ((s.a["ban"][g, c] & bits) != 0).any():
        s.mut("ban")[g, c] &= ~bits
        _remark(world, g, c)


_ALL_BANS = (1 << 64) - 1   # every bit of a ``ban`` field


def set_cant_lose(world: Game, p: Ids, reason: str, on: Any = True, games: Games = None) -> None:
    """Player(s) ``p`` can't lose the game for ``reason`` ("life": 704.5a/704.6a,
    "poison": 704.5c/704.6b) while ``on`` (a bool, or one per target row)."""
    _reason(reason)
    col = args.one(world, p, games) if type(on) is bool else -1
    if col >= 0:   # one player of a single game: plain ints
        v = world.store.views()
        if v["types"][0, col] & _PLAYER:
            world.store.write(CANT_LOSE[reason], (0, v["controller"][0, col]), on)
            return
    g, c, single = args.targets(world, p, games)
    args.require(world, args.is_type(world, g, c, "player"), g, c, "is not a player")
    args.distinct_rows(world, g, c, "set_cant_lose")   # (two flags for one player: which?)
    flag = flags(world, on, p, games, single, "set_cant_lose on", "player")
    idx = world.store.a["controller"][g, c].astype(np.int64)   # a player's column: its index
    world.store.mut(CANT_LOSE[reason])[g, idx] = flag


def _reason(reason: Any) -> None:
    """InvalidTypeError unless ``reason`` is one of ``CANT_LOSE`` (a str: an array or other
    unhashable value is refused, not looked up)."""
    if type(reason) is not str or reason not in CANT_LOSE:
        raise InvalidTypeError(f"unknown reason {reason!r}; expected one of {sorted(CANT_LOSE)}")


def flags(world: Game, on: Any, e: Any, games: Any, single: bool, what: str,
          noun: str = "entity") -> np.ndarray:
    """Bools broadcast against the targets of ``e`` like counter amounts (``ecs.args``;
    ``single`` is ``args.targets``' third value), one per target row: the flags of
    ``set_cant_lose``, ``set_hold`` and the GA ruleset's ``set_immortal``. ``what``
    names the flag in errors ("set_hold on"), with the targets (``noun``s)."""
    if not isinstance(on, (bool, np.bool_)):
        try:
            arr = np.asarray(on)
        except (ValueError, TypeError, OverflowError):
            arr = None
        if arr is None or arr.dtype != bool:
            raise InvalidTypeError(f"{_flag_cell(world, on, e, games, single, what, noun)} must be a "
                                   f"bool (or bools), got {args.shown(on, _is_bool)}")
    return _values(world, np.asarray(on).astype(np.int64), e, games, single,
                   lambda e: f"{what} of {args.named_ids(e, noun)}").astype(bool)


def _is_bool(v: Any) -> bool:
    return isinstance(v, (bool, np.bool_))


def _flag_cell(world: Game, on: Any, e: Any, games: Any, single: bool, what: str, noun: str) -> str:
    """``flags``' ``what`` of the id whose flag is no bool, with its game in a batch, where
    one cell of the (selected games, ids) grid is (an object array); of every id else."""
    gsel = args.select_games(games, world.ongoing)
    ids = args.as_ids(e, gsel.size)[0]
    cell = args.refused_cell(on, ids.shape, single, ok=_is_bool)
    if cell is None:
        return f"{what} of {args.named_ids(e, noun)}"
    game = f" in game {int(gsel[cell[0]])}" if world.batch > 1 else ""
    return f"{what} of {args.named_ids(int(ids[cell]), noun)}{game}"


def set_hold(world: Game, e: Ids, on: Any = True, games: Games = None) -> None:
    """While ``on``, the state-based actions that kill permanents (704.5f-i, 704.5v)
    leave ``e`` where it is (704.5v: a battle that is the source of a triggered ability
    not yet off the stack). Ends on a zone change (400.7)."""
    col = _object_one(world, e, games)
    if col >= 0 and type(on) is bool:
        world.store.write("sba_hold", (0, col), on)
        _remark_one(world, col)
        return
    g, c, single = _objects(world, e, games, "set_hold")
    flag = flags(world, on, e, games, single, "set_hold on")
    args.distinct_rows(world, g, c, "set_hold")
    world.store.mut("sba_hold")[g, c] = flag
    _remark(world, g, c)


def set_redirect(world: Game, e: Ids, zone: str | None, games: Games = None) -> None:
    """"If ``e`` would die, put it into ``zone`` instead" (614.1a): every battlefield ->
    graveyard move of it goes there; None ends the effect. Ends on a zone change (400.7).
    The battlefield, where a dying permanent is, is no zone to put it into instead
    (InvalidZoneError)."""
    code = -1 if zone is None else zones.zone_code(zone, world.ruleset.zone_aliases)
    if code == zones.BATTLEFIELD:
        raise InvalidZoneError(f"set_redirect of entity {e}: a permanent that would die can't be put "
                               f"onto the battlefield instead ({zone!r}): it is there (614.1a)")
    col = _object_one(world, e, games)
    if col >= 0:
        world.store.write("redirect", (0, col), code)
        _remark_one(world, col)
        return
    g, c, _ = _objects(world, e, games, "set_redirect")
    world.store.mut("redirect")[g, c] = code
    _remark(world, g, c)


def is_held(world: Game, e: int) -> BoolRead:
    """Whether state-based actions leave ``e`` (``set_hold``)."""
    return args.flag_of(world, e, "sba_hold")


def redirect(world: Game, e: int) -> str | None | np.ndarray:
    """Where ``e`` goes instead if it would die (``set_redirect``, 614.1a), in each game:
    the zone's name, None where no redirect is set (and in the games ``e`` is not in). A
    batch reads an object array of them."""
    col = args.read_one(world, e)
    if col >= 0:
        code = world.store.views()["redirect"][0, col]
        return zones.ZONES[code] if code >= 0 else None
    spot = args.column(world, e)
    codes = np.where(spot.here, spot.take(world.store.a["redirect"]), -1)
    named = [zones.ZONES[z] if z >= 0 else None for z in codes.tolist()]
    return named[0] if args.scalar(world) else np.array(named, dtype=object)


def cant_lose(world: Game, p: int, reason: str) -> BoolRead:
    """Whether player ``p`` can't lose for ``reason`` (``set_cant_lose``)."""
    _reason(reason)
    return args.out(world, world.store.a[CANT_LOSE[reason]][:, args.player_index(world, p)].copy())


def is_prohibited(world: Game, e: int, kind: str | None = None) -> BoolRead:
    """Whether ``e`` can't have ``kind`` counters (None: any counters) put on it: for a
    kind, what ``counting.allowed`` refuses (so a Two-Headed Giant player can't get poison
    counters where a player of the team can't, 810.10c)."""
    s = world.store
    col = args.read_one(world, e)   # (first: an unknown or stale id raises before a bad kind)
    spot = args.column(world, e) if col < 0 else None
    if kind is not None:
        kind = args.kind(world, kind)
        if spot is None:   # one game: plain reads
            return not counting.allowed_one(world, kind, 0, col)
        games = np.arange(s.batch)
        cols = np.broadcast_to(np.asarray(spot.at[1], np.int64), games.shape)   # (one, or one per game)
        return args.out(world, ~counting.allowed(world, kind, games, cols) & spot.here)
    bit = 1 << BAN_ALL   # (a prohibition of every kind)
    if spot is None:
        v = s.views()
        return bool(v["ban"][0, col] & bit or v["no_counters"][0, col])
    banned = ((spot.take(s.a["ban"]) & np.uint64(bit)) != 0) | spot.take(s.a["no_counters"])
    return args.out(world, banned & spot.here)
