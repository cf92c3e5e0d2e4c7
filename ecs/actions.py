"""The actions: creating players and objects, counters, zone changes, damage, life.

Each validates everything it is given before it writes anything (a bad input raises a
``CounterError`` and changes nothing), then goes through the choke points: counters
through ``ecs.counting``, zone changes through ``ecs.relocation``. ``ecs.world.World``
offers them as its methods.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

import numpy as np

from . import args, counting, stats, zones
from .args import as_amounts, as_ids, select_games
from .components import TYPE_BIT, type_mask
from .errors import (
    CountOverflowError,
    IllegalActionError,
    InvalidCountError,
    InvalidGameError,
    InvalidTypeError,
)
from .game import Game
from .kinds import KEYWORD_BIT, KEYWORDS
from .limits import (
    MAX_COUNT,
    MAX_ID,
    MAX_LIFE,
    MAX_OBJECTS,
    MAX_PLAYERS,
    MAX_STAT,
    MAX_TEAM,
    STARTING_LIFE,
    TWO_HEADED_GIANT_LIFE,
)
from .relocation import move_objects


def add_player(world: Game, life: int | None = None, team: int | None = None) -> int:
    """A new player, present in every game. In Two-Headed Giant (810) ``team`` is
    required and the player's starting life (15 by default) adds to the team's."""
    s = world.store
    if life is None:
        life = TWO_HEADED_GIANT_LIFE if world.two_headed_giant else STARTING_LIFE
    life = args.integer(life, "player life", -MAX_LIFE, MAX_LIFE)
    if world.two_headed_giant and team is None:
        raise IllegalActionError("a Two-Headed Giant player needs a team (CR 810.1)")
    if team is not None:
        team = args.integer(team, "team", 0, MAX_TEAM, IllegalActionError)
    index = s.n_players
    if index >= MAX_PLAYERS:
        raise IllegalActionError(f"a World holds at most {MAX_PLAYERS} players")
    args.room_for_objects(world, 1, "add_player")
    team_key = team if team is not None else -1 - index
    mates = np.flatnonzero(s.a["player_team"] == team_key)
    head = int(mates[0]) if (mates.size and world.two_headed_giant) else index
    if head != index:   # the team's life is the sum of its players' (810.4)
        team_life = s.a["life"][:, head] + life
        counting.check_life(world, np.arange(world.batch), np.full(world.batch, head), team_life)
    cols, ids = s.alloc(1)
    s.mut("types")[cols] = TYPE_BIT["player"]
    s.mut("controller")[cols] = index
    s.mut("zone")[:, cols] = zones.PLAYER
    s.add_player_arrays(int(cols[0]), team_key, head, 0 if head != index else life)
    if head != index:
        s.mut("life")[:, head] = team_life
    return int(ids[0])


def add_object(world: Game, controller: int, types: Iterable[str] | str = (), **kwargs: Any) -> int:
    """One new object; see ``add_objects`` for the arguments."""
    return int(add_objects(world, 1, controller, types, **kwargs)[0])


def add_objects(world: Game, n: int, controller: int, types: Iterable[str] | str = (), *,
                zone: str = "battlefield", power: int | None = None,
                toughness: int | None = None, loyalty: int | None = None,
                defense: int | None = None, life: int | None = None,
                durability: int | None = None, level: int | None = None,
                keywords: Iterable[str] = (), token: bool = False, name: str | None = None,
                counters: Mapping[str, Any] | None = None,
                caps: Mapping[str, Any] | None = None, no_counters: bool = False,
                put_by: int | None = None, games: Any = None) -> np.ndarray:
    """``n`` identical new objects in the selected games (absent from the others).

    Objects entering the battlefield get their printed loyalty/defense counters and
    ``counters`` as they enter: that is putting counters (122.6), done by the
    controller unless ``put_by`` names another player (122.6a). ``counters`` and
    ``caps`` map kinds to amounts broadcast against (selected games, n); a negative cap
    means none. GA ``life`` is an alias of ``toughness``."""
    s = world.store
    n = args.integer(n, "number of objects", 0, MAX_OBJECTS)
    owner = args.player_index(world, controller)
    by = args.player_index(world, put_by) if put_by is not None else owner
    mask = type_mask(args.names(types, "card types"))
    world.ruleset.check_types(mask)
    code = zones.zone_code(zone, world.ruleset.zone_aliases)
    if life is not None:
        if toughness is not None:
            raise InvalidTypeError("give toughness or life, not both")
        toughness = life
    statvals = {}
    for stat, v in (("power", power), ("toughness", toughness), ("loyalty", loyalty),
                    ("defense", defense), ("durability", durability), ("level", level)):
        if v is not None:
            low = 0 if stat in ("loyalty", "defense", "durability") else -MAX_STAT
            statvals[stat] = args.integer(v, stat, low, MAX_STAT)
    kw = 0
    for k in args.names(keywords, "keywords"):
        if k not in KEYWORD_BIT:
            raise InvalidTypeError(f"unknown keyword {k!r}; expected one of {list(KEYWORDS)}")
        kw |= KEYWORD_BIT[k]
    token = args.flag(token, "token")
    no_counters = args.flag(no_counters, "no_counters")
    if name is not None and not isinstance(name, str):
        raise InvalidTypeError(f"name must be a str, got {name!r}")
    for what, m in (("counters", counters), ("caps", caps)):
        if m is not None and not isinstance(m, Mapping):
            raise InvalidCountError(f"{what} must be a mapping of kind to amount, got {m!r}")
    gsel = select_games(games, world.ongoing)
    # One object (add_object): a 1-D array is one amount per selected game, as for a
    # single id everywhere else (README "Ids, amounts and games broadcast together").
    start = {args.kind(world, kind): as_amounts(v, (gsel.size, n), n == 1, f"counters[{kind!r}]")
             for kind, v in (counters or {}).items()}
    if code == zones.BATTLEFIELD:
        _check_entering(statvals, start)
    capvals = {}
    for kind, v in (caps or {}).items():
        arr = args.integer_array(v, f"cap of {args.kind(world, kind)!r}", -MAX_ID - 1, MAX_COUNT)
        if n == 1 and arr.ndim == 1:
            arr = arr[:, None]
        try:
            capvals[kind] = np.broadcast_to(np.where(arr < 0, -1, arr), (gsel.size, n))
        except ValueError:
            raise InvalidCountError(f"caps of {kind!r} of shape {arr.shape} do not fit "
                                    f"{(gsel.size, n)} (selected games, objects)") from None
    args.room_for_objects(world, n, "add_objects")

    cols, ids = s.alloc(n)
    s.mut("types")[cols] = mask
    for stat, v in statvals.items():
        s.mut(stat)[cols] = v
    s.mut("keywords")[cols] = kw
    s.mut("controller")[cols] = owner
    s.mut("token")[cols] = token
    s.mut("no_counters")[cols] = no_counters
    s.mut("name_id")[cols] = _name_id(world, name)
    g = np.repeat(gsel, n)
    c = np.tile(cols, gsel.size)
    s.mut("zone")[g, c] = code
    world.log.next_step()
    if code == zones.BATTLEFIELD:
        counting.enter_battlefield(world, g, c, by=by)
    for kind, amounts in start.items():
        counting.put(world, kind, g, c, amounts.ravel(), "enter" if code == zones.BATTLEFIELD else "put", by)
    for kind, values in capvals.items():
        counting.set_caps(world, kind, g, c, values.ravel())
    return ids


#: Printed stats that may put counters of the same name on an object as it enters the
#: battlefield (loyalty 306.5b, defense 310.4b, GA Durability 1), whatever the ruleset.
_ENTERING_STATS = ("loyalty", "defense", "durability")


def _check_entering(statvals: Mapping[str, int], start: Mapping[str, np.ndarray]) -> None:
    """CountOverflowError before anything exists if an object's entering counters of one
    kind (``counters=`` plus a printed stat that enters as counters) would pass MAX_COUNT.
    A printed stat of that name counts even where the ruleset would not put it (a
    loyalty on a non-planeswalker): a bound, checked without the object."""
    for kind, amounts in start.items():
        extra = statvals.get(kind, 0) if kind in _ENTERING_STATS else 0
        if amounts.size and int(amounts.max()) + extra > MAX_COUNT:
            raise CountOverflowError(f"an object entering with {int(amounts.max())} {kind!r} "
                                     f"counters and printed {kind} {extra} would pass {MAX_COUNT}")


def _name_id(world: Game, name: str | None) -> int:
    """The index of ``name`` (validated by the caller) in the World's name table."""
    if name is None:
        return -1
    if name not in world.names:
        world.names.append(name)
    return world.names.index(name)


def put_counters(world: Game, e: Any, kind: str, n: Any = 1, games: Any = None,
                 by: int | None = None) -> None:
    """Put ``n`` counters of ``kind`` on each target (CR 122.1, 122.6)."""
    kind = args.kind(world, kind)
    g, c, single = args.targets(world, e, games)
    amount = args.amounts(world, n, e, games, single, lambda: f"put {kind!r} counters on entity {e}")
    who = args.player_index(world, by) if by is not None else -1
    c = counting.holder(world, kind, c)
    g, c, amount = args.sum_rows(world, g, c, amount)
    counting.check_room(world, kind, g, c, amount)   # a refused put does not take a step
    world.log.next_step()
    counting.put(world, kind, g, c, amount, "put", who)


def remove_counters(world: Game, e: Any, kind: str, n: Any = 1, games: Any = None) -> None:
    """Remove up to ``n`` counters of ``kind``; fewer if fewer are there (101.3)."""
    kind = args.kind(world, kind)
    g, c, single = args.targets(world, e, games)
    amount = args.amounts(world, n, e, games, single, lambda: f"remove {kind!r} counters from entity {e}")
    c = counting.holder(world, kind, c)
    g, c, amount = args.sum_rows(world, g, c, amount)
    world.log.next_step()
    counting.change(world, kind, g, c, -amount, "remove")


def move_counters(world: Game, src: Any, dst: Any, kind: str, n: Any = 1, games: Any = None,
                  zone: str | None = "battlefield") -> Any:
    """Move ``n`` counters of ``kind`` from ``src`` to ``dst`` (CR 122.5); returns how many
    moved in each game. Nothing happens where the objects are the same, ``src`` has none,
    ``dst`` can't have counters, or either is no longer in ``zone`` (None: any zone).
    More than ``src`` has moves what it has (101.3)."""
    s = world.store
    kind = args.kind(world, kind)
    gsel = select_games(games, world.ongoing)
    src_ids, s1 = as_ids(src, gsel.size)
    dst_ids, s2 = as_ids(dst, gsel.size)
    try:
        src_ids, dst_ids = np.broadcast_arrays(src_ids, dst_ids)
    except ValueError:
        raise InvalidGameError(f"src of shape {src_ids.shape} and dst of shape {dst_ids.shape} "
                               "do not broadcast") from None
    amount = as_amounts(n, src_ids.shape, s1 and s2, f"move {kind!r} counters").ravel()
    g = np.broadcast_to(gsel[:, None], src_ids.shape).ravel()
    sc = args.columns_or_gone(world, src_ids.ravel())
    dc = args.columns_or_gone(world, dst_ids.ravel())
    code = None if zone is None else zones.zone_code(zone, world.ruleset.zone_aliases)
    ok = (sc >= 0) & (dc >= 0) & (sc != dc)
    scs, dcs = np.where(ok, sc, 0), np.where(ok, dc, 0)
    zs, zd = s.a["zone"][g, scs], s.a["zone"][g, dcs]
    ok &= (zs != zones.NONE) & (zd != zones.NONE)
    if code is not None:
        ok &= (zs == code) & (zd == code)
    ok &= counting.allowed(world, kind, g, dcs)
    scs, dcs = counting.holder(world, kind, scs), counting.holder(world, kind, dcs)
    ok &= scs != dcs
    k = s.kind_index.get(kind)
    have = s.counts[k, g, scs].astype(np.int64) if k is not None else np.zeros(g.size, np.int64)
    moved = np.where(ok, np.minimum(amount, have), 0)
    m = moved > 0
    args.distinct_rows(world, np.concatenate([g[m], g[m]]), np.concatenate([scs[m], dcs[m]]), "move_counters")
    counting.check_room(world, kind, g[m], dcs[m], moved[m])
    world.log.next_step()
    counting.change(world, kind, g[m], scs[m], -moved[m], "move")
    counting.put(world, kind, g[m], dcs[m], moved[m], "move")
    out = moved.reshape(src_ids.shape)
    if s1 and s2:
        full = np.zeros(world.batch, np.int64)
        full[gsel] = out[:, 0]
        return args.out(world, full)
    return out


def proliferate(world: Game, ids: Any, games: Any = None, by: int | None = None) -> None:
    """Each chosen permanent or player gets one more counter of each kind it already
    has (CR 701.34a); in Two-Headed Giant a team gets at most one poison (701.34b)."""
    s = world.store
    g, c, _ = args.targets(world, ids, games)
    args.require(world, args.on_battlefield(world, g, c) | args.is_type(world, c, "player"), g, c,
                  "is neither a permanent nor a player (CR 701.34a)")
    who = args.player_index(world, by) if by is not None else -1
    g, c, _ = args.sum_rows(world, g, c, np.zeros(g.size, np.int64))
    plan = []
    for k, kind in enumerate(s.kind_names):
        cc = counting.holder(world, kind, c)
        gk, ck, _ = args.sum_rows(world, g, cc, np.zeros(g.size, np.int64))
        has = s.counts[k, gk, ck] > 0
        if has.any():
            counting.check_room(world, kind, gk[has], ck[has], np.ones(int(has.sum()), np.int64))
            plan.append((kind, gk[has], ck[has]))
    world.log.next_step()
    for kind, gk, ck in plan:
        counting.put(world, kind, gk, ck, 1, "proliferate", who)


def set_cap(world: Game, e: Any, kind: str, n: Any, games: Any = None) -> None:
    """"Can't have more than ``n`` counters of ``kind``" (CR 122.4), enforced by the
    state-based check 704.5r. The cap ends when the object changes zones."""
    kind = args.kind(world, kind)
    g, c, single = args.targets(world, e, games)
    amount = args.amounts(world, n, e, games, single, lambda: f"cap of {kind!r} on entity {e}")
    counting.set_caps(world, kind, g, c, amount)


def clear_cap(world: Game, e: Any, kind: str, games: Any = None) -> None:
    kind = args.kind(world, kind)
    g, c, _ = args.targets(world, e, games)
    counting.set_caps(world, kind, g, c, np.full(g.size, -1, np.int64))


def destroy(world: Game, e: Any, games: Any = None) -> None:
    """Destroy permanents (CR 701.8): indestructible ones are not (702.12b); a shield
    counter is removed instead (122.1c); finality exiles instead (122.1h)."""
    g, c, _ = args.targets(world, e, games)
    g, c, _ = args.sum_rows(world, g, c, np.zeros(g.size, np.int64))
    args.require(world, args.on_battlefield(world, g, c), g, c, "is not a permanent (CR 701.8a)")
    indestructible = stats.has_keyword(world, c, "indestructible")[g, np.arange(c.size)]
    shield = world.store.plane("shield")
    shielded = ~indestructible & (shield[g, c] > 0 if shield is not None else False)
    world.log.next_step()
    counting.change(world, "shield", g[shielded], c[shielded], -1, "shield")
    die = ~indestructible & ~shielded
    move_objects(world, g[die], c[die], np.full(int(die.sum()), zones.GRAVEYARD), "destroy")


def sacrifice(world: Game, e: Any, games: Any = None) -> None:
    """Sacrifice permanents (CR 701.21a): shields and indestructible don't help."""
    g, c, _ = args.targets(world, e, games)
    g, c, _ = args.sum_rows(world, g, c, np.zeros(g.size, np.int64))
    args.require(world, args.on_battlefield(world, g, c), g, c, "is not a permanent (CR 701.21a)")
    world.log.next_step()
    move_objects(world, g, c, world.ruleset.sacrifice_zone(world, c), "sacrifice")


def move_zone(world: Game, e: Any, zone: str, games: Any = None) -> Any:
    """Move objects to ``zone``; each becomes a new object (400.7) whose id is returned
    (one id when a single id was given). A token outside the battlefield stays (111.8)."""
    code = zones.zone_code(zone, world.ruleset.zone_aliases)
    g, c, single = args.targets(world, e, games)
    shape = (g.size,)
    args.require(world, ~args.is_type(world, c, "player"), g, c, "is a player, not an object")
    args.require(world, world.store.a["zone"][g, c] != code, g, c, f"is already in the {zone}")
    args.distinct_rows(world, g, c, "move_zone")
    stays = world.store.a["token"][c] & ~args.on_battlefield(world, g, c)
    world.log.next_step()
    new = np.full(shape, -1, np.int64)
    go = ~stays
    new[go] = move_objects(world, g[go], c[go], np.full(int(go.sum()), code), "zone")[0]
    if single:
        vals = np.unique(new)
        return int(vals[0]) if vals.size == 1 else new
    return new


def deal_damage(world: Game, target: Any, amount: Any, *, deathtouch: bool = False,
                wither: bool = False, infect: bool = False, unpreventable: bool = False,
                combat: bool = False, games: Any = None) -> None:
    """Deal damage from one source with the given abilities to each target, all at once
    (CR 120.3); 0 damage is not dealt (120.8), but its targets are still checked. Several
    rows naming one target are one damage event to it."""
    amount = world.ruleset.damage_amounts(amount)   # GA Damage 15: negative is 0
    g, c, single = args.targets(world, target, games)
    a = args.amounts(world, amount, target, games, single, lambda: f"damage to entity {target}")
    g, c, a = args.sum_rows(world, g, c, a)
    flags = {k: args.flag(v, k, InvalidTypeError) for k, v in (
        ("deathtouch", deathtouch), ("wither", wither), ("infect", infect),
        ("unpreventable", unpreventable), ("combat", combat))}
    world.ruleset.deal_damage(world, g, c, a, flags)


def tap(world: Game, e: Any, games: Any = None) -> None:
    g, c, _ = args.targets(world, e, games)
    args.require(world, args.on_battlefield(world, g, c), g, c, "is not a permanent")
    world.store.mut("tapped")[g, c] = True


def untap(world: Game, e: Any, games: Any = None) -> None:
    """Untap permanents; a tapped one with a stun counter loses one instead (122.1d)."""
    s = world.store
    g, c, _ = args.targets(world, e, games)
    g, c, _ = args.sum_rows(world, g, c, np.zeros(g.size, np.int64))
    args.require(world, args.on_battlefield(world, g, c), g, c, "is not a permanent")
    tapped = s.a["tapped"][g, c]
    stun = s.plane("stun")
    stunned = tapped & (stun[g, c] > 0 if stun is not None else False)
    world.log.next_step()
    counting.change(world, "stun", g[stunned], c[stunned], -1, "stun")
    s.mut("tapped")[g[tapped & ~stunned], c[tapped & ~stunned]] = False


def lose_life(world: Game, p: Any, n: Any, games: Any = None) -> None:
    _life(world, p, n, games, -1)


def gain_life(world: Game, p: Any, n: Any, games: Any = None) -> None:
    _life(world, p, n, games, +1)


def _life(world: Game, p: Any, n: Any, games: Any, sign: int) -> None:
    s = world.store
    g, c, single = args.targets(world, p, games)
    args.require(world, args.is_type(world, c, "player"), g, c, "is not a player")
    a = args.amounts(world, n, p, games, single, lambda: f"life of player {p}")
    idx = s.a["controller"][c].astype(np.int64)
    if world.two_headed_giant:
        idx = s.a["player_head"][idx].astype(np.int64)  # team life (810.8)
    g, idx, a = args.sum_rows(world, g, idx, a)          # one total per (game, player)
    new = s.a["life"][g, idx] + sign * a
    counting.check_life(world, g, idx, new)
    s.mut("life")[g, idx] = new


def cleanup(world: Game, games: Any = None) -> None:
    """The cleanup step's damage removal (CR 514.2)."""
    gsel = select_games(games, world.ongoing)
    world.store.mut("damage")[gsel] = 0
    world.ruleset.cleanup(world, gsel)
