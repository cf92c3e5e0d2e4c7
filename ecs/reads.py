"""The reads: one value per game (a plain Python value when ``batch == 1``).

``ecs.world.World`` offers them as its methods.
"""
from __future__ import annotations

import numbers
from typing import Any, Iterable

import numpy as np

from . import args, counting, stats, zones
from .args import BoolRead, IntRead, StrRead
from .components import TYPE_BIT, type_mask
from .components.card import NO_STAT
from .components.game import NO_CAP
from .errors import InvalidGameError, InvalidTypeError, UnknownEntityError
from .game import Game
from .kinds import KEYWORD_BIT, KEYWORDS, keyword_of
from .perform import DRAW, ONGOING
from .store import GAME_ZERO

_ZONE_NAMES = np.array(zones.ZONES)


def _where(world: Game, e: Any) -> tuple[args.Spot | None, int, int]:
    """Where a read of one object finds what it is: None, 0 and its column on the scalar
    path (``args.read_one``); else its ``Spot`` (``args.column``, which raises for unknown
    and stale ids) and a game and column it is in."""
    col = args.read_one(world, e)
    if col >= 0:
        return None, 0, col
    spot = args.column(world, e)
    return spot, spot.g, spot.col


def _masked(values: np.ndarray, here: np.ndarray, fill: Any = 0) -> np.ndarray:
    """Per-game ``values`` (games on the last axis) where the object is (``here``), ``fill``
    in the games it is not in (its slot there holds another object, or none)."""
    return np.where(here, values, fill)


def exists(world: Game, e: int) -> BoolRead:
    """Whether ``e`` names an object or player present in each game (never raises for
    stale ids: they are simply gone)."""
    s = world.store
    if isinstance(e, bool) or not isinstance(e, numbers.Integral) or not 0 <= e < s.next_id:
        raise UnknownEntityError(f"entity {e!r} does not exist in this World")
    if args.scalar_read(world):
        return s.present(0, int(e)) >= 0   # (int: a small NumPy integer would overflow the lookup)
    return args.out(world, s.locate(np.arange(world.batch), np.full(world.batch, e)) >= 0)


def counters(world: Game, e: int) -> dict[str, int] | dict[str, np.ndarray]:
    """Kinds with a nonzero count: {kind: n} (a batch: {kind: array over games})."""
    s = world.store
    col = -1 if world.two_headed_giant else args.read_one(world, e)   # (2HG: a player's poison is the team's)
    if col >= 0:
        held = {}
        counts = s.views()["counts"]
        for k, name in enumerate(s.kind_names):
            v = counts[k, 0, col]
            if v:   # (a loop, not a comprehension: no frame of its own)
                held[name] = v
        return held
    spot = args.column(world, e)
    here = spot.here
    values = _masked(spot.take(s.counts[: s.n_kinds]).astype(np.int64), here)
    if world.two_headed_giant and "poison" in s.kind_index:
        k = s.kind_index["poison"]
        holder = counting.holder_one(world, "poison", spot.g, spot.col)
        if holder != spot.col:   # a player's: the team's, in its head's column (every game's)
            values[k] = _masked(s.counts[k, :, holder], here)
    if args.scalar(world):
        return {s.kind_names[k]: int(v) for k, v in enumerate(values[:, 0]) if v}
    return {s.kind_names[k]: values[k] for k in range(s.n_kinds) if values[k].any()}


def count(world: Game, e: int, kind: str) -> IntRead:
    s = world.store
    kind = args.kind(world, kind)
    col = -1 if world.two_headed_giant else args.read_one(world, e)   # (2HG: a player's poison is the team's)
    if col >= 0:
        k = s.kind_index.get(kind)
        return s.views()["counts"][k, 0, col] if k is not None else 0
    spot = args.column(world, e)
    holder = counting.holder_one(world, kind, spot.g, spot.col)
    k = s.kind_index.get(kind)
    if k is None:
        values = np.zeros(world.batch, np.int64)
    else:   # a player's poison in Two-Headed Giant: the team's, in its head's column
        values = (spot.take(s.counts[k]) if holder == spot.col else s.counts[k, :, holder]).astype(np.int64)
    return args.out(world, _masked(values, spot.here))


def cap(world: Game, e: int, kind: str) -> IntRead:
    """The most ``kind`` counters ``e`` can have ("can't have more than N", CR 122.4), as
    ``set_cap`` or ``add_object(caps=)`` set it, in each game; ``NO_CAP`` (-1) where it has
    no cap of that kind, and in the games ``e`` is not in."""
    spot, _, col = _where(world, e)   # (first: an unknown or stale id raises before a bad kind)
    kind = args.kind(world, kind)
    if spot is None:   # one game
        return int(counting.caps_at(world, kind, GAME_ZERO, np.array([col], np.int64))[0])
    games = np.arange(world.batch)
    cols = np.broadcast_to(np.asarray(spot.at[1], np.int64), (world.batch,))   # (one column, or one per game)
    return args.out(world, _masked(counting.caps_at(world, kind, games, cols), spot.here, NO_CAP))


def _stat(world: Game, e: int, stat: str, which: int) -> Any:
    """Power or toughness (``which`` 0 or 1) where the object has it (``pt_exists``); in a
    batch 0 in the games where it has none (a host set a */* value in some games only),
    InvalidTypeError where no game has it."""
    spot, g, c = _where(world, e)
    s = world.store
    if spot is None:
        v = s.views()   # (plain reads: a single game)
        if not world.ruleset.pt_exists(v["types"][g, c], v[stat][g, c], v["pt_set_" + stat][g, c]):
            raise InvalidTypeError(f"entity {e} has no {stat}")
        return stats.pt_one(world, 0, c, which)
    has = spot.here & world.ruleset.pt_exists(spot.take(s.a["types"]), spot.take(s.a[stat]),
                                              spot.take(s.a["pt_set_" + stat]))
    if not has.any():
        raise InvalidTypeError(f"entity {e} has no {stat}")
    games, cols = spot.at

    def at(key: str | int) -> np.ndarray:
        return (s.counts[key] if isinstance(key, int) else s.a[key])[games, cols]
    return args.out(world, _masked(stats.pt(world, which, at), has))


def power(world: Game, e: int) -> IntRead:
    """Printed power plus power/toughness counters (CR 122.1a)."""
    return _stat(world, e, "power", 0)


def toughness(world: Game, e: int) -> IntRead:
    """Printed toughness plus power/toughness counters (CR 122.1a)."""
    return _stat(world, e, "toughness", 1)


def _counted_stat(world: Game, e: int, stat: str, type_name: str) -> Any:
    s = world.store
    spot, g, c = _where(world, e)
    v = s.views()
    printed: int = v[stat][g, c]
    if not v["types"][g, c] & TYPE_BIT[type_name]:
        raise InvalidTypeError(f"entity {e} has no {stat} (it is not a {type_name})")
    k = s.kind_index.get(stat)
    if spot is None:
        if v["zone"][0, c] == zones.BATTLEFIELD:
            return v["counts"][k, 0, c] if k is not None else 0
        if printed == NO_STAT:
            raise _no_printed(e, stat, type_name)
        return printed
    zone = spot.take(s.a["zone"])
    # on the battlefield the counters are the stat, printed or not (306.5c, 310.4c)
    has = spot.here & ((zone == zones.BATTLEFIELD) | (printed != NO_STAT))
    if not has.any():
        raise _no_printed(e, stat, type_name)
    count = spot.take(s.counts[k]).astype(np.int64) if k is not None else np.zeros(world.batch, np.int64)
    return args.out(world, _masked(stats.counted(zone, int(printed), count), has))


def _no_printed(e: int, stat: str, type_name: str) -> InvalidTypeError:
    return InvalidTypeError(f"entity {e} has no {stat} (a {type_name} without a printed {stat}, "
                            "not on the battlefield)")


def loyalty(world: Game, e: int) -> IntRead:
    """Loyalty counters on the battlefield (306.5c), the printed number elsewhere (209.1);
    InvalidTypeError for a planeswalker without a printed loyalty off the battlefield."""
    return _counted_stat(world, e, "loyalty", "planeswalker")


def defense(world: Game, e: int) -> IntRead:
    """Defense counters on the battlefield (310.4c), the printed number elsewhere (310.4a);
    InvalidTypeError for a battle without a printed defense off the battlefield."""
    return _counted_stat(world, e, "defense", "battle")


def keywords(world: Game, e: int) -> frozenset[str] | np.ndarray:
    """Printed keywords plus keyword counters, in any zone (CR 122.1b)."""
    col = args.read_one(world, e)
    if col >= 0:
        return _keywords_at(world, 0, col)
    spot = args.column(world, e)
    cols = np.broadcast_to(spot.at[1], (world.batch,))   # (one column, or one per game)
    per_game = [_keywords_at(world, g, int(cols[g])) if spot.here[g] else frozenset()
                for g in range(world.batch)]
    return per_game[0] if args.scalar(world) else np.array(per_game + [None], dtype=object)[:-1]


def _keywords_at(world: Game, g: int, col: int) -> frozenset[str]:
    """``keywords`` of the object in game ``g``, column ``col``."""
    s = world.store
    v = s.views()
    printed, counts = v["keywords"][g, col], v["counts"]
    got = {k for k in KEYWORDS if printed & KEYWORD_BIT[k]}
    for k in s.derived("keyword counter planes", _keyword_counter_planes, (s.kind_names,)):
        if counts[k, g, col]:
            got.add(s.kind_names[k])
    return frozenset(got)


def _keyword_counter_planes(names: list[str]) -> list[int]:
    """The planes of the keyword counters among kinds ``names`` (122.1b)."""
    return [k for k, name in enumerate(names) if keyword_of(name)]


def zone(world: Game, e: int) -> StrRead:
    col = args.read_one(world, e)
    if col >= 0:
        return zones.ZONES[world.store.views()["zone"][0, col]]
    spot = args.column(world, e)
    if args.scalar(world):
        return zones.ZONES[world.store.views()["zone"][spot.g, spot.col]]
    return _ZONE_NAMES[_masked(spot.take(world.store.a["zone"]), spot.here, zones.NONE)]


def name(world: Game, e: int) -> str | None:
    _, g, c = _where(world, e)
    i: int = world.store.views()["name_id"][g, c]
    return world.names[i] if i >= 0 else None


def _player_id(world: Game, index: int) -> int:
    """``_player_ids`` of one player index in a single game, with plain reads."""
    v = world.store.views()
    return v["entity_id"][0, v["player_col"][index]]


def _player_ids(world: Game, index: np.ndarray, here: np.ndarray) -> IntRead:
    """The ids of players ``index`` (per game), -1 in the games the object is not in."""
    s = world.store
    return args.out(world, _masked(s.a["entity_id"][0, s.a["player_col"][index]], here, -1))


def controller(world: Game, e: int) -> IntRead:
    """The controlling player's id in each game (-1 in a game the object is not in)."""
    col = args.read_one(world, e)
    if col >= 0:
        return _player_id(world, world.store.views()["controller"][0, col])
    spot = args.column(world, e)
    return _player_ids(world, spot.take(world.store.a["controller"]).astype(np.int64), spot.here)


def owner(world: Game, e: int) -> IntRead:
    """The owning player's id in each game (108.3): the controller before the first control
    change (``ecs.host.set_controller``); a zone change gives the new object to its owner."""
    s = world.store
    col = args.read_one(world, e)
    if col >= 0:
        v = s.views()
        index: int = v["owner"][0, col]
        return _player_id(world, index if index >= 0 else v["controller"][0, col])
    spot = args.column(world, e)
    p = spot.take(s.a["owner"]).astype(np.int64)
    p = np.where(p < 0, spot.take(s.a["controller"]), p)
    return _player_ids(world, p, spot.here)


def is_tapped(world: Game, e: int) -> BoolRead:
    return args.flag_of(world, e, "tapped")


def damage(world: Game, e: int) -> IntRead:
    """Damage marked on the object (CR 120.3e)."""
    col = args.read_one(world, e)
    if col >= 0:
        return world.store.views()["damage"][0, col]
    spot = args.column(world, e)
    return args.out(world, _masked(spot.take(world.store.a["damage"]).astype(np.int64), spot.here))


def life(world: Game, p: int) -> IntRead:
    s = world.store
    idx = args.player_index(world, p)
    if world.two_headed_giant:
        idx = int(s.a["player_head"][idx])
    if args.scalar_read(world):
        return s.views()["life"][0, idx]
    return args.out(world, s.a["life"][:, idx].copy())


def has_lost(world: Game, p: int) -> BoolRead:
    return args.out(world, world.store.a["lost"][:, args.player_index(world, p)].copy())


def result(world: Game) -> str | IntRead:
    """One game: "ongoing", "draw" or the winner's id (a Two-Headed Giant team is named
    by its first player). A batch, or a World made with ``scalar_reads=False``: a new
    (batch,) int64 array of ONGOING (-1), DRAW (-2) or the winner's id."""
    s = world.store
    ids = s.a["winner"].astype(np.int64)
    won = ids >= 0                  # (never with no players: nobody has won)
    ids[won] = s.a["entity_id"][0, s.a["player_col"][ids[won]]]
    if not args.scalar(world):
        return ids
    return "ongoing" if ids[0] == ONGOING else "draw" if ids[0] == DRAW else int(ids[0])


def players(world: Game) -> list[int]:
    s = world.store
    return s.a["entity_id"][0, s.a["player_col"]].tolist()


def object_mask(world: Game, zone: str | None = None, types: Iterable[str] | str = (),
                controller: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(ids, mask): the (B, columns) id in every slot of each game (-1: free) and the mask
    of the objects that are in ``zone`` (any zone if None), have all ``types`` and that
    controller."""
    return _object_mask(world, slice(None), zone, types, controller)


def _object_mask(world: Game, games: slice, zone: str | None, types: Iterable[str] | str,
                 controller: int | None) -> tuple[np.ndarray, np.ndarray]:
    """``object_mask`` of the rows ``games``."""
    s = world.store
    n = s.n_cols
    z = s.a["zone"][games, :n]
    mask = (z != zones.NONE) & (z != zones.PLAYER)
    if zone is not None:
        mask &= z == zones.zone_code(zone, world.ruleset.zone_aliases)
    t = type_mask(types)
    if t:
        mask &= (s.a["types"][games, :n] & t) == t
    if controller is not None:
        mask &= s.a["controller"][games, :n] == args.player_index(world, controller)
    return s.a["entity_id"][games, :n].copy(), mask


def objects(world: Game, zone: str | None = None, types: Iterable[str] | str = (),
            controller: int | None = None, game: int = 0) -> list[int]:
    """Ids of the objects matching the filter in game ``game`` (its row only is read)."""
    g = args.integer(game, "game index", 0, world.batch - 1, InvalidGameError)
    ids, mask = _object_mask(world, slice(g, g + 1), zone, types, controller)
    return ids[0][mask[0]].tolist()
