"""The actions: creating players and objects, counters, zone changes, damage, life.

Each validates everything it is given before it writes anything (a bad input raises a
``CounterError`` and changes nothing), then goes through the choke points: counters
through ``ecs.counting``, zone changes through ``ecs.relocation``. ``ecs.world.World``
offers them as its methods.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

import numpy as np

from . import args, counting, damage, library, sets, stats, zones
from .args import Amounts, Games, Ids, as_amounts, as_ids, select_games
from .components import ALL_FIELDS, TYPE_BIT, type_mask
from .components.card import NO_STAT
from .components.game import NO_CAP
from .errors import (
    CountOverflowError,
    IllegalActionError,
    InvalidCountError,
    InvalidGameError,
    InvalidTypeError,
    StaleEntityError,
)
from .events import CAUSE, TAP
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
from .relocation import move_objects, move_one
from .store import GAME_ZERO


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
        team_life = counting.life_after(world, np.arange(world.batch), np.full(world.batch, head),
                                        np.full(world.batch, life))
    cols, ids = s.alloc(1, common=True)   # the same column in every game
    s.mut("types")[:, cols] = TYPE_BIT["player"]
    s.mut("controller")[:, cols] = index
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
                put_by: int | None = None, games: Games = None) -> np.ndarray:
    """``n`` identical new objects in the selected games (absent from the others).

    Objects entering the battlefield get their printed loyalty/defense counters and
    ``counters`` as they enter: that is putting counters (122.6), done by the
    controller (122.6a), ``counters`` by ``put_by`` where it names another player (the
    printed ones come from the object's own ability, which names none). ``counters`` and
    ``caps`` map kinds to amounts broadcast against (selected games, n); a negative cap
    means none. GA ``life`` is an alias of ``toughness``."""
    s = world.store
    n = args.integer(n, "number of objects", 0, MAX_OBJECTS)
    owner = args.player_index(world, controller, "controller")
    by = args.player_index(world, put_by, "put_by") if put_by is not None else owner
    mask = type_mask(args.names(types, "card types"))
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
    world.ruleset.check_new_objects(mask, code, kw)   # (types it lacks; GA: a champion in a graveyard)
    token = args.flag(token, "token")
    no_counters = args.flag(no_counters, "no_counters")
    if name is not None and not isinstance(name, str):
        raise InvalidTypeError(f"name must be a str, got {name!r}")
    for what, m in (("counters", counters), ("caps", caps)):
        if m is not None and not isinstance(m, Mapping):
            raise InvalidCountError(f"{what} must be a mapping of kind to amount, got {m!r}")
    one = games is None and args.one_going(world)   # a single game's: the scalar path below
    gsel = GAME_ZERO if one else select_games(games, world.ongoing)
    # One object (add_object): a 1-D array is one amount per selected game, as for a
    # single id everywhere else (docs/api.md "Ids, amounts and games broadcast together").
    start = {args.kind(world, kind): as_amounts(v, (gsel.size, n), n == 1, f"counters[{kind!r}]",
                                              None, gsel if world.batch > 1 else None)
             for kind, v in (counters or {}).items()}
    if code == zones.BATTLEFIELD:
        _check_entering(statvals, start)
    capvals = {}
    for kind, v in (caps or {}).items():
        arr = args.integer_array(v, f"cap of {args.kind(world, kind)!r}", -MAX_ID - 1, MAX_COUNT)
        if n == 1 and arr.ndim == 1:
            arr = arr[:, None]
        try:
            capvals[kind] = np.broadcast_to(np.where(arr < 0, NO_CAP, arr), (gsel.size, n))
        except ValueError:
            raise InvalidCountError(f"caps of {kind!r} of shape {arr.shape} do not fit "
                                    f"{(gsel.size, n)} (selected games, objects)") from None
    args.room_for_objects(world, n, "add_objects")

    # Only the fields that differ from a free slot's fills are written (a field left
    # unwritten stays shared with a clone, and known to hold its fill: ``Store.at_fill``).
    card = {**statvals, "controller": owner, "zone": code}   # (never their fills)
    for field, value in (("types", mask), ("keywords", kw), ("token", token),
                         ("no_counters", no_counters), ("name_id", _name_id(world, name))):
        if value != _FILLS[field]:
            card[field] = value
    if one and 0 < n <= args.FEW:   # a single game's few objects: each slot found and written in plain ints
        # (each find is a pass over the slots: many objects take the array path below)
        cols, made = [], []
        for _ in range(n):
            col, e = s.alloc_one(card)
            cols.append(col)
            made.append(e)
        ids = np.array(made, np.int64)
        if code == zones.LIBRARY:
            library.arrive_one(world, 0, cols)
        world.log.next_step()
        if code == zones.BATTLEFIELD:
            counting.enter_battlefield_one(world, 0, cols)
        if not (start or capvals):
            return ids
        g, c = np.zeros(n, np.int64), np.array(cols, np.int64)
    else:
        slots, ids = s.alloc(n, gsel)
        g = np.repeat(gsel, n)
        c = slots.ravel()   # (selected games, n): each game's own slots
        for field, value in card.items():
            s.mut(field)[g, c] = value
        if code == zones.LIBRARY and c.size:
            library.arrive(world, g, c)
        world.log.next_step()
        if code == zones.BATTLEFIELD:
            counting.enter_battlefield(world, g, c)
    for kind, amounts in start.items():
        counting.put(world, kind, g, c, amounts.ravel(), "enter" if code == zones.BATTLEFIELD else "put", by)
    for kind, values in capvals.items():
        counting.set_caps(world, kind, g, c, values.ravel())
    return ids


#: Printed stats that may put counters of the same name on an object as it enters the
#: battlefield (loyalty 306.5b, defense 310.4b, GA Durability 1), whatever the ruleset.
_ENTERING_STATS = ("loyalty", "defense", "durability")
_FILLS = {f.name: f.fill for f in ALL_FIELDS}


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
    return -1 if name is None else world.names.intern(name)


def put_counters(world: Game, e: Ids, kind: str, n: Amounts = 1, games: Games = None,
                 by: int | None = None, *, where: str = "all",
                 skip_finished: bool = False) -> None:
    """Put ``n`` counters of ``kind`` on each target (CR 122.1, 122.6). Power/toughness
    counters go on objects only: on a player they mean nothing (122.1a), so that is bad
    input (IllegalActionError). ``where``/``skip_finished``: see ``ecs.args.rows``."""
    if by is None and args.count_one(n):
        col = args.one(world, e, games, where, skip_finished)
        # One target of a single game: plain ints (a player's poison in Two-Headed Giant on
        # the team's, 810.10); the general path raises for a player given power/toughness
        # counters.
        if col >= 0 and not (args.kind_pt(world, kind) and world.store.views()["types"][0, col] & _PLAYER):
            ident: Any = e   # (an integer: args.one found it)
            counting.put_one(world, kind, 0, counting.holder_one(world, kind, 0, col), n, "put", e=int(ident),
                             step=True)
            return
        targets = args.few(world, e, games, where, skip_finished) if col < 0 else None
        if targets is not None and _put_few(world, kind, targets, n):
            return
    kind = args.kind(world, kind)
    r = args.rows(world, e, games, where, skip_finished)
    g, c = r.g, r.c
    amount = r.amounts(n, lambda e=e: f"put {kind!r} counters on {args.named_ids(e)}")
    if world.ruleset.pt_modifier(kind) is not None:
        args.require(world, ~args.is_type(world, g, c, "player"), g, c,
                     f"is a player: {kind!r} counters {world.ruleset.stat_counters_on_players}")
    who = args.player_index(world, by, "put_counters by") if by is not None else -1
    g, c, amount = args.sum_rows(world, g, c, amount)
    counting.check_room(world, kind, g, c, amount)   # a refused put does not take a step
    world.log.next_step()
    counting.put(world, kind, g, c, amount, "put", who)


_PLAYER = TYPE_BIT["player"]
_DAMAGE_HOOKS = ("deal_damage", "damage_amounts")   # what a ruleset's ``deal_damage_one`` and ``_few`` do themselves


def _put_few(world: Game, kind: str, targets: list[tuple[int, int]], n: int) -> bool:
    """``put_counters`` on a single game's few ``targets`` (``args.few``) in plain ints;
    False, with nothing done, where the general path must act or raise: power/toughness
    counters for a player (122.1a), a Two-Headed Giant's poison (810.10), or as
    ``counting.put_few`` says."""
    if counting.shared(world, kind):
        return False
    if args.kind_pt(world, kind):   # (raises for a bad kind, as the general path does first)
        types = world.store.views()["types"]
        for _, col in targets:
            if types[0, col] & _PLAYER:
                return False
    return counting.put_few(world, kind, targets, n, "put")


def remove_counters(world: Game, e: Ids, kind: str, n: Amounts = 1, games: Games = None, *,
                    where: str = "all", skip_finished: bool = False, cost: bool = False) -> None:
    """Remove up to ``n`` counters of ``kind``; fewer if fewer are there (101.3).

    ``cost=True``: removing them is a cost (a loyalty cost 606.4, "Remove N counters:"
    602.2b), which can't be paid without the resources to pay it fully (118.3): every
    target must have ``n`` (rows naming one object add up, as a Two-Headed Giant team's
    players' poison does, 810.10), else UnpayableCostError names the first that has fewer
    and nothing changes, in any game. (Named as Grand Archive's ``recover(cost=)``.) Only
    the rows acted on pay: ``where="present"`` and ``skip_finished`` leave the others out."""
    if cost is not False:
        cost = args.flag(cost, "remove_counters cost")
    if args.count_one(n):   # (the team's poison, 810.10, and a cost not paid in full: the general path)
        col = args.one(world, e, games, where, skip_finished)
        if col >= 0:
            kind = args.kind(world, kind)
            if not counting.shared(world, kind) and not (cost and not _payable_few(world, kind, [(0, col)], n)):
                world.log.next_step()
                ident: Any = e   # (an integer: args.one found it)
                counting.change_one(world, kind, 0, col, -n, "remove", e=int(ident))
                return
        elif (targets := args.few(world, e, games, where, skip_finished)) is not None:
            kind = args.kind(world, kind)
            if not counting.shared(world, kind) and not (cost and not _payable_few(world, kind, targets, n)):
                world.log.next_step()
                counting.change_few(world, kind, targets, -n, "remove")
                return
    kind = args.kind(world, kind)
    r = args.rows(world, e, games, where, skip_finished)
    g, c = r.g, r.c
    amount = r.amounts(n, lambda e=e: f"remove {kind!r} counters from {args.named_ids(e)}")
    c = counting.holder(world, kind, g, c)
    g, c, amount = args.sum_rows(world, g, c, amount)
    if cost:
        counting.counts_for_cost(world, kind, g, c, amount, "removing them as a cost (CR 118.3)")
    world.log.next_step()
    counting.change(world, kind, g, c, -amount, "remove")


def _payable_few(world: Game, kind: str, targets: list[tuple[int, int]], n: int) -> bool:
    """Whether each object a single game's ``targets`` name has the ``n`` counters of
    ``kind`` a row removes as a cost (118.3; rows naming one object add up)."""
    k = world.store.kind_index.get(kind)
    counts = world.store.views()["counts"]
    return all(total <= (counts[k, 0, col] if k is not None else 0)
               for col, total, _ in counting.summed(targets, n))


def move_counters(world: Game, src: Ids, dst: Ids, kind: str | None, n: Amounts | None = None,
                  games: Games = None, zone: str | None = "battlefield", by: int | None = None
                  ) -> int | np.ndarray:
    """Move ``n`` counters of ``kind`` from ``src`` to ``dst`` (CR 122.5); returns how many
    moved in each game. Nothing happens where the objects are the same, ``src`` has none,
    ``dst`` can't have counters, or either is no longer in ``zone`` (None: any zone; a
    player is in none, so a move from or to a player takes ``zone=None``). More than
    ``src`` has moves what it has (101.3). ``by``: the player who moves them, and so puts
    them on ``dst`` (122.6a). ``n=None``: one.

    ``kind=None`` moves every kind ("move all counters from A onto B": Fate Transfer, The
    Ozolith), all of each (``n``: at most ``n`` of each), in one event step: each kind as
    its own move would, one after the other in the order the World first saw the kinds
    (the destination's placement per kind, a kind it can't have staying behind); it
    returns the counters moved, all kinds together. (None names no kind: a kind is a str.)"""
    s = world.store
    if kind is not None:
        kind = args.kind(world, kind)
    if n is None:
        n = 1 if kind is not None else MAX_COUNT   # (every counter of each kind: counts are at most MAX_COUNT)
    who = args.player_index(world, by, "move_counters by") if by is not None else -1
    if kind is not None and games is None and args.count_one(n) and not counting.shared(world, kind):
        src_col, dst_col = args.one(world, src), args.one(world, dst)
        ids: Any = (src, dst)   # (integers where args.one found them)
        got = (_move_counters_one(world, kind, (int(ids[0]), src_col), (int(ids[1]), dst_col), n, zone, who)
               if min(src_col, dst_col) >= 0 else None)
        if got is not None:   # two objects of a single game: plain ints
            return args.out_one(world, got)
    gsel = select_games(games, world.ongoing)
    src_ids, s1 = as_ids(src, gsel.size)
    dst_ids, s2 = as_ids(dst, gsel.size)
    try:
        src_ids, dst_ids = np.broadcast_arrays(src_ids, dst_ids)
    except ValueError:
        raise InvalidGameError(f"src of shape {src_ids.shape} and dst of shape {dst_ids.shape} "
                               "do not broadcast") from None
    what = "every kind of" if kind is None else repr(kind)
    amount = as_amounts(n, src_ids.shape, s1 and s2,
                        lambda e=src: f"move {what} counters from {args.named_ids(e)}",
                        src_ids, gsel if world.batch > 1 else None).ravel()
    g = np.broadcast_to(gsel[:, None], src_ids.shape).ravel()
    sc = args.columns_or_gone(world, g, src_ids.ravel())
    dc = args.columns_or_gone(world, g, dst_ids.ravel())
    code = None if zone is None else zones.zone_code(zone, world.ruleset.zone_aliases)
    ok = (sc >= 0) & (dc >= 0) & (sc != dc)
    scs, dcs = np.where(ok, sc, 0), np.where(ok, dc, 0)
    zs, zd = s.a["zone"][g, scs], s.a["zone"][g, dcs]
    ok &= (zs != zones.NONE) & (zd != zones.NONE)
    if code is not None:
        ok &= (zs == code) & (zd == code)
    plan = []   # each kind's move, every one validated before the step
    total = np.zeros(g.size, np.int64)
    for name in (list(s.kind_names) if kind is None else [kind]):
        hs, hd = counting.holder(world, name, g, scs), counting.holder(world, name, g, dcs)   # (810.10)
        have = counting.counts_at(world, name, g, hs)
        moved = np.where(ok & counting.allowed(world, name, g, dcs) & (hs != hd), np.minimum(amount, have), 0)
        m = moved > 0
        args.distinct_rows(world, np.concatenate([g[m], g[m]]), np.concatenate([hs[m], hd[m]]), "move_counters")
        counting.check_room(world, name, g[m], dcs[m], moved[m])
        plan.append((name, m, hs, moved))
        total += moved
    world.log.next_step()
    for name, m, hs, moved in plan:
        counting.change(world, name, g[m], hs[m], -moved[m], "move")
        counting.put(world, name, g[m], dcs[m], moved[m], "move", who)
    out = total.reshape(src_ids.shape)
    if s1 and s2:
        full = np.zeros(world.batch, np.int64)
        full[gsel] = out[:, 0]
        return args.out(world, full)
    return out


def _move_counters_one(world: Game, kind: str, src: tuple[int, int], dst: tuple[int, int], n: int,
                       zone: str | None, by: int = -1) -> int | None:
    """``move_counters`` of ``n`` counters of ``kind`` from ``src`` to ``dst`` ((id, column)
    each) of a single game, in plain ints: how many moved; None, with nothing done, where
    they would not fit on the destination (the general path raises)."""
    (se, sc), (de, dc) = src, dst
    code = None if zone is None else zones.zone_code(zone, world.ruleset.zone_aliases)
    v = world.store.views()
    zs, zd = v["zone"][0, sc], v["zone"][0, dc]
    k = world.store.kind_index.get(kind)
    ok = (sc != dc and zs != zones.NONE and zd != zones.NONE and (code is None or zs == code == zd)
          and counting.allowed_one(world, kind, 0, dc))
    had: int = v["counts"][k, 0, sc] if ok and k is not None else 0
    moved = min(n, had)
    have = counting.room_one(world, kind, 0, dc, moved) if moved > 0 else 0   # (read once: the room and the put)
    if have < 0:
        return None
    world.log.next_step()
    if moved > 0:   # (the source's count read above: at least ``moved``)
        counting.set_one(world, kind, 0, sc, had, had - moved, "move", -1, se)
        counting.put_one(world, kind, 0, dc, moved, "move", by, have=have, e=de)
    return moved


def proliferate(world: Game, ids: Ids, games: Games = None, by: int | None = None, *,
                where: str = "all", skip_finished: bool = False) -> None:
    """Each chosen permanent or player gets one more counter of each kind it already
    has (CR 701.34a); in Two-Headed Giant a team gets at most one poison (701.34b). Only
    those with a counter can be chosen (701.34a): choosing one without is bad input
    (IllegalActionError; in Two-Headed Giant a player has the team's poison, 810.10d)."""
    s = world.store
    targets = args.few(world, ids, games, where, skip_finished)
    if targets is not None and _proliferate_few(world, targets, by):
        return
    r = args.rows(world, ids, games, where, skip_finished)
    g, c = r.g, r.c
    args.require(world, args.on_battlefield(world, g, c) | args.is_type(world, g, c, "player"), g, c,
                  "is neither a permanent nor a player (CR 701.34a)")
    has_any = np.zeros(g.size, bool)
    for k, kind in enumerate(s.kind_names):
        has_any |= s.counts[k, g, counting.holder(world, kind, g, c)] > 0
    args.require(world, has_any, g, c, "has no counters, so it can't be chosen (CR 701.34a)")
    who = args.player_index(world, by, "proliferate by") if by is not None else -1
    g, c, _ = args.sum_rows(world, g, c, np.zeros(g.size, np.int64))
    plan = []
    for k, kind in enumerate(s.kind_names):
        gk, ck = counting.first_per_holder(world, kind, g, c) if counting.shared(world, kind) else (g, c)
        held = counting.holder(world, kind, gk, ck)
        has = (s.counts[k, gk, held] > 0) & counting.allowed(world, kind, gk, ck)   # 101.3: none put
        if has.any():
            counting.check_room(world, kind, gk[has], ck[has], np.ones(int(has.sum()), np.int64))
            plan.append((kind, gk[has], ck[has]))
    world.log.next_step()
    for kind, gk, ck in plan:
        counting.put(world, kind, gk, ck, 1, "proliferate", who)


def _proliferate_few(world: Game, targets: list[tuple[int, int]], by: int | None) -> bool:
    """``proliferate`` of a single game's few ``targets`` (``args.few``) in plain ints, as
    the general path: each chosen object once, by column, and kind by kind a counter on
    each that has one. False, with nothing done, where the general path must act or raise:
    Two-Headed Giant (a team's poison, 701.34b), a ruleset without a trusted ``place_few``
    (``counting.scalar_hook``), a target that is neither a permanent nor a player or has no
    counters (701.34a), a count that would pass MAX_COUNT."""
    place = None if world.two_headed_giant else counting.scalar_hook(world, "place_few", counting.PLACE)
    if place is None:
        return False
    s = world.store
    v = s.views()
    counts = v["counts"]
    cols = sorted({col for _, col in targets})
    for col in cols:
        if not (v["zone"][0, col] == zones.BATTLEFIELD or v["types"][0, col] & _PLAYER):
            return False
        if not any(counts[k, 0, col] for k in range(s.n_kinds)):
            return False
    who = args.player_index(world, by, "proliferate by") if by is not None else -1
    plan = []   # kind by kind, as the general path places them: (kind, its rows)
    for k, kind in enumerate(s.kind_names):
        rows = []
        for col in cols:
            have = counts[k, 0, col]
            if have and counting.allowed_one(world, kind, 0, col):   # 101.3: none put
                if have + 1 > MAX_COUNT:
                    return False
                rows.append((col, have, 1, -1))
        if rows:
            plan.append((kind, rows))
    world.log.next_step()
    for kind, rows in plan:
        place(world, kind, 0, rows, "proliferate", who)
    return True


def set_cap(world: Game, e: Ids, kind: str, n: Amounts, games: Games = None, *,
            where: str = "all", skip_finished: bool = False) -> None:
    """"Can't have more than ``n`` counters of ``kind``" (CR 122.4), enforced by the
    state-based check 704.5r. The cap ends when the object changes zones. ``where`` and
    ``skip_finished`` as the counter actions take them (``args.rows``)."""
    kind = args.kind(world, kind)
    if args.count_one(n):
        col = args.one(world, e, games, where, skip_finished)
        if col >= 0:   # one target of a single game: plain ints
            counting.set_cap_one(world, kind, col, n)
            return
    r = args.rows(world, e, games, where, skip_finished)
    amount = r.amounts(n, lambda e=e: f"cap of {kind!r} on {args.named_ids(e)}")
    counting.set_caps(world, kind, r.g, r.c, amount)


def clear_cap(world: Game, e: Ids, kind: str, games: Games = None, *,
              where: str = "all", skip_finished: bool = False) -> None:
    kind = args.kind(world, kind)
    col = args.one(world, e, games, where, skip_finished)
    if col >= 0:
        counting.set_cap_one(world, kind, col, NO_CAP)
        return
    r = args.rows(world, e, games, where, skip_finished)
    counting.set_caps(world, kind, r.g, r.c, np.full(r.g.size, NO_CAP, np.int64))


def destroy(world: Game, e: Ids, games: Games = None, *, where: str = "all",
            skip_finished: bool = False) -> None:
    """Destroy permanents (CR 701.8): indestructible ones are not (702.12b), nor are
    immortal ones (Grand Archive Immortality 1.ii); a shield counter is removed instead
    (122.1c); finality exiles instead (122.1h)."""
    col = _permanent_one(world, e, games, where, skip_finished)
    if col >= 0:   # one permanent of a single game: plain ints
        kept, on = _destroy_fate(world, col)
        world.log.next_step()
        if on:
            counting.change_one(world, "shield", 0, col, -1, "shield")
        elif not kept:
            move_one(world, 0, col, zones.GRAVEYARD, CAUSE["destroy"])
        return
    targets = args.few(world, e, games, where, skip_finished)
    if targets is not None and _destroy_few(world, targets):
        return
    r = args.rows(world, e, games, where, skip_finished)
    g, c, _ = args.sum_rows(world, r.g, r.c, np.zeros(r.g.size, np.int64))
    args.require(world, args.on_battlefield(world, g, c), g, c, "is not a permanent (CR 701.8a)")
    indestructible = stats.has_keyword_at(world, g, c, "indestructible") | world.store.a["immortal"][g, c]
    shield = world.store.plane("shield")
    shielded = ~indestructible & (shield[g, c] > 0 if shield is not None else False)
    world.log.next_step()
    counting.change(world, "shield", g[shielded], c[shielded], -1, "shield")
    die = ~indestructible & ~shielded
    move_objects(world, g[die], c[die], np.full(int(die.sum()), zones.GRAVEYARD), "destroy")


def sacrifice(world: Game, e: Ids, games: Games = None, *, where: str = "all",
            skip_finished: bool = False) -> None:
    """Sacrifice permanents (CR 701.21a): shields and indestructible don't help; immortal
    ones stay (Grand Archive Immortality 1.ii: "can't be destroyed (including via
    sacrifice)")."""
    col = _permanent_one(world, e, games, where, skip_finished)
    if col >= 0:   # one permanent of a single game: plain ints
        world.log.next_step()
        if not world.store.views()["immortal"][0, col]:
            one = np.array([col], np.int64)
            move_one(world, 0, col, int(world.ruleset.sacrifice_zone(world, np.zeros(1, np.int64), one)[0]),
                     CAUSE["sacrifice"])
        return
    cols = _permanents_few(world, e, games, where, skip_finished)
    if cols is not None:   # a few permanents of a single game: each moved in plain ints, by column
        world.log.next_step()
        immortal = world.store.views()["immortal"]
        cols = [col for col in cols if not immortal[0, col]]
        dest = world.ruleset.sacrifice_zone(world, np.zeros(len(cols), np.int64), np.array(cols, np.int64))
        for col, to in zip(cols, dest.tolist()):
            move_one(world, 0, col, to, CAUSE["sacrifice"])
        return
    r = args.rows(world, e, games, where, skip_finished)
    g, c, _ = args.sum_rows(world, r.g, r.c, np.zeros(r.g.size, np.int64))
    args.require(world, args.on_battlefield(world, g, c), g, c, "is not a permanent (CR 701.21a)")
    world.log.next_step()
    go = ~world.store.a["immortal"][g, c]
    g, c = g[go], c[go]
    move_objects(world, g, c, world.ruleset.sacrifice_zone(world, g, c), "sacrifice")


def move_zone(world: Game, e: Ids, zone: str, games: Games = None,
              counters: Mapping[str, Any] | None = None, by: int | None = None, *,
              where: str = "all", skip_finished: bool = False) -> int | np.ndarray:
    """Move objects to ``zone``; each becomes a new object (400.7) whose id is returned:
    one id when a single id was given (in a batch where it became different objects, one
    per selected game), else one per id given (in a batch a (selected games, ids) array);
    -1 where none arrived or, with ``where="present"``, where the id was not there. A token
    outside the battlefield stays (111.8), and so does a card a replacement sends to the
    zone it is in (a Grand Archive champion in banishment, Champion 8).

    ``counters`` maps kinds to amounts (broadcast like ``put_counters``' amounts) the new
    object gets as it arrives, in the same event step as the move: entering the
    battlefield with counters (122.6, cause ``enter``: persist, undying, modular), in
    another zone a put (cause ``put``). Only objects that arrive in ``zone`` get them (one
    a replacement effect sent elsewhere, e.g. finality 122.1h, does not); the controller
    puts them unless ``by`` names another player (122.6a)."""
    s = world.store
    code = zones.zone_code(zone, world.ruleset.zone_aliases)
    col = args.one(world, e, games, where, skip_finished) if counters is None and by is None else -1
    if col >= 0:   # one object of a single game: plain ints (a batch's store makes no views)
        v = s.views()
        if v["zone"][0, col] != code and not v["types"][0, col] & _PLAYER:
            world.log.next_step()
            if v["token"][0, col] and v["zone"][0, col] != zones.BATTLEFIELD:
                return -1   # a token outside the battlefield stays (111.8)
            return move_one(world, 0, col, code, CAUSE["zone"])[0]
    elif counters is None and by is None and code != zones.BATTLEFIELD:
        moved = _move_few(world, args.few(world, e, games, where, skip_finished), code)
        if moved is not None:
            return moved
    r = args.rows(world, e, games, where, skip_finished)
    g, c, single = r.g, r.c, r.single
    args.require(world, ~args.is_type(world, g, c, "player"), g, c, "is a player, not an object")
    args.require(world, s.a["zone"][g, c] != code, g, c, f"is already in the {zone}")
    args.distinct_rows(world, g, c, "move_zone")
    if counters is not None and not isinstance(counters, Mapping):
        raise InvalidCountError(f"counters must be a mapping of kind to amount, got {counters!r}")
    start = {args.kind(world, kind): r.amounts(v, f"counters[{kind!r}]")
             for kind, v in (counters or {}).items()}
    who = args.player_index(world, by, "move_zone by") if by is not None else None
    for kind, amounts in start.items():   # with a printed stat that enters as counters
        extra = np.zeros(c.size, np.int64)
        if kind in _ENTERING_STATS and code == zones.BATTLEFIELD:
            printed = s.a[kind][g, c].astype(np.int64)
            extra = np.where(printed == NO_STAT, 0, printed)
        over = amounts + extra > MAX_COUNT
        if over.any():   # (as add_objects': a count past the limit)
            i = int(np.flatnonzero(over)[0])
            raise CountOverflowError(f"entity {int(s.a['entity_id'][g[i], c[i]])} in game {int(g[i])} "
                                     f"would enter with more than {MAX_COUNT} {kind!r} counters")
    stays = s.a["token"][g, c] & ~args.on_battlefield(world, g, c)
    world.log.next_step()
    new = np.full(r.shape[0] * r.shape[1], -1, np.int64)
    go = ~stays
    moved, dest = move_objects(world, g[go], c[go], np.full(int(go.sum()), code), "zone")
    row_new = np.full(g.size, -1, np.int64)
    row_new[go] = moved
    arrived = np.zeros(g.size, bool)
    arrived[go] = (dest == code) & (moved >= 0)
    if start:
        ng, nc = g[arrived], c[arrived]   # the new object is in the old one's slot
        put_by = s.a["controller"][ng, nc].astype(np.int64) if who is None else who
        cause = "enter" if code == zones.BATTLEFIELD else "put"
        for kind, amounts in start.items():
            counting.put(world, kind, ng, nc, amounts[arrived], cause, put_by)
    if r.keep is None:
        new = row_new
    else:
        new[r.keep] = row_new
    if world.batch == 1 and not r.shape[0]:   # a game that has ended selects none: none arrived
        return -1 if single else np.full(r.shape[1], -1, np.int64)
    if single:
        vals = sets.distinct(new)
        return int(vals[0]) if vals.size == 1 else new
    return new if world.batch == 1 else new.reshape(r.shape)


def _move_few(world: Game, targets: list[tuple[int, int]] | None, code: int) -> np.ndarray | None:
    """``move_zone`` of a single game's few ``targets`` (``args.few``) to zone ``code``,
    not the battlefield (whose entering counters the general path puts after every move),
    in plain ints, in the order given: the new ids, -1 for a token that stays (111.8).
    None, with nothing done, where the general path must act or raise: a player, an
    object already there, one named twice."""
    if targets is None:
        return None
    v = world.store.views()
    zone, token, types = v["zone"], v["token"], v["types"]
    stays: dict[int, bool] = {}
    for _, col in targets:
        if zone[0, col] == code or types[0, col] & _PLAYER or col in stays:
            return None
        stays[col] = bool(token[0, col]) and zone[0, col] != zones.BATTLEFIELD
    world.log.next_step()
    return np.array([-1 if stays[col] else move_one(world, 0, col, code, CAUSE["zone"])[0]
                     for _, col in targets], np.int64)


def _destroy_fate(world: Game, col: int) -> tuple[Any, bool]:
    """Whether the permanent in column ``col`` of a single game is indestructible (702.12b:
    printed, or a keyword counter, 122.1b) or immortal (Grand Archive Immortality 1.ii),
    and whether a shield counter saves it instead (122.1c)."""
    v = world.store.views()
    counts = v["counts"]
    kept = v["keywords"][0, col] & KEYWORD_BIT["indestructible"] or v["immortal"][0, col]
    for plane in () if kept else stats.keyword_kinds(world, "indestructible"):
        kept = kept or counts[plane, 0, col]   # (a loop, not any(): no generator frame)
    k = world.store.kind_index.get("shield")
    return kept, not kept and k is not None and counts[k, 0, col] > 0


def _destroy_few(world: Game, targets: list[tuple[int, int]]) -> bool:
    """``destroy`` of a single game's few ``targets`` (``args.few``) in plain ints, in the
    general path's order: every target a permanent, each once, by column; their fates
    decided first, then the shield counters removed, then the others moved, one step.
    False, with nothing done, where the general path must act or raise."""
    cols = _permanents(world, targets)
    if cols is None:
        return False
    fates = [(col, *_destroy_fate(world, col)) for col in cols]
    world.log.next_step()
    for col, _, on in fates:
        if on:
            counting.change_one(world, "shield", 0, col, -1, "shield")
    for col, kept, on in fates:
        if not (kept or on):
            move_one(world, 0, col, zones.GRAVEYARD, CAUSE["destroy"])
    return True


def _permanents(world: Game, targets: list[tuple[int, int]]) -> list[int] | None:
    """The distinct columns of a single game's few ``targets`` (``args.few``) in order, the
    general path's rows (``args.sum_rows``), if each is a permanent; None if one is not
    (701.8a, 701.21a: the general path raises)."""
    cols = sorted({col for _, col in targets})
    zone = world.store.views()["zone"]
    for col in cols:
        if zone[0, col] != zones.BATTLEFIELD:
            return None
    return cols


def _permanents_few(world: Game, e: Ids, games: Games, where: str, skip_finished: bool
                    ) -> list[int] | None:
    """``_permanents`` of ``e`` where an action may take its scalar path (``args.few``: one
    id or a few); None where the general path must act or raise."""
    targets = args.few(world, e, games, where, skip_finished)
    return _permanents(world, targets) if targets is not None else None


def _permanent_one(world: Game, e: Ids, games: Games, where: str, skip_finished: bool) -> int:
    """The column of ``e`` where a destroy or sacrifice may take its scalar path
    (``args.one``) and it is a permanent; -1 where the general path must act or raise."""
    col = args.one(world, e, games, where, skip_finished)
    return col if col >= 0 and world.store.views()["zone"][0, col] == zones.BATTLEFIELD else -1


def deal_damage(world: Game, target: Ids, amount: Amounts, source: Any = None, *,
                deathtouch: bool | None = None, wither: bool | None = None,
                infect: bool | None = None, lifelink: bool | None = None,
                unpreventable: bool = False, combat: bool = False, games: Games = None,
                where: Any = "all", skip_finished: Any = False) -> None:
    """Deal damage from one source to each target, all at once (CR 120.3); 0 damage is
    not dealt (120.8), but its targets are still checked. Several rows naming one target
    are one damage event to it; each is recorded (``ecs.events.DamageDealt``).

    ``source``: the object dealing it (an id, or one id per selected game), present in
    each game in any zone. Its controller puts the -1/-1 and poison counters (120.3b,
    120.3d: ``by`` in their events) and gains life by lifelink (120.3f, 702.15b), and its
    abilities apply where it has them: deathtouch and lifelink printed or as keyword
    counters (122.1b); wither and infect are not in the keyword table, so they are given
    by flag. A flag given as True or False overrides the source (None: from the source,
    False without one). Damage from several sources at once (combat damage, 510.2) gives
    one source per target: ``source`` shaped as the targets, (m,) in one game, (selected
    games, m) in a batch; each (source, target) pair is one damage event, and a shield
    counter prevents all the damage its permanent is dealt at once (122.1c). (``where`` and
    ``skip_finished``, see ``ecs.args.rows``, are typed Any: callers spread dicts of
    damage flags here; ``rows`` validates them.)"""
    abilities = (deathtouch, wither, infect, lifelink)
    if args.count_one(amount) and type(unpreventable) is bool and type(combat) is bool:
        col = args.one(world, target, games, where, skip_finished)
        ident: Any = target   # (an integer where args.one found it)
        one = counting.scalar_hook(world, "deal_damage_one", _DAMAGE_HOOKS) if col >= 0 else None
        if one is not None and one(world, int(ident), col, amount, source, abilities, unpreventable, combat):
            return
        targets = args.few(world, target, games, where, skip_finished) if col < 0 else None
        few = counting.scalar_hook(world, "deal_damage_few", _DAMAGE_HOOKS) if targets is not None else None
        if few is not None and few(world, targets, amount, source, abilities, unpreventable, combat):
            return
    amount = world.ruleset.damage_amounts(amount)   # GA Damage 15: negative is 0
    r = args.rows(world, target, games, where, skip_finished)
    a = r.amounts(amount, lambda e=target: f"damage to {args.named_ids(e)}")
    flags: dict[str, Any] = {k: args.flag(v, k, InvalidTypeError) for k, v in (
        ("unpreventable", unpreventable), ("combat", combat))}
    given = {k: None if v is None else args.flag(v, k, InvalidTypeError) for k, v in (
        ("deathtouch", deathtouch), ("wither", wither), ("infect", infect),
        ("lifelink", lifelink))}
    g, c = r.g, r.c
    sg = sc = None
    if source is not None:
        sc = r.cells(_source_columns(world, source, games, skip_finished, r))
        sg = g
        flags["source"] = world.store.a["entity_id"][sg, sc].astype(np.int64)
        flags["source_player"] = world.store.a["controller"][sg, sc].astype(np.int64)
    g, c, a, merged, several = _merge_rows(world, g, c, a, sc)
    if several:
        flags["several"] = True
    for k in damage.SOURCE_ABILITIES:
        if given[k] is not None or sg is None or sc is None:
            flags[k] = bool(given[k])
        elif k in KEYWORD_BIT:
            flags[k] = stats.has_keyword_at(world, sg, sc, k)[merged]
        else:
            flags[k] = False
    if source is not None:
        flags["source"], flags["source_player"] = (flags["source"][merged],
                                                   flags["source_player"][merged])
    for k in damage.SOURCE_ABILITIES:   # one value for every row: a plain bool (any ruleset's hook)
        v = flags[k]
        if isinstance(v, np.ndarray) and (v.size == 0 or (v == v[0]).all()):
            flags[k] = bool(v[0]) if v.size else False
    world.ruleset.deal_damage(world, g, c, a, flags)


def _source_columns(world: Game, source: Any, games: Any, skip_finished: bool, r: args.Rows) -> np.ndarray:
    """The column of the damage source of each cell of the (selected games, targets) grid
    (``r.shape``): one id or one per selected game (in the order of ``games=``), or one per
    target ((games, m), (m,) in a single game); an object present there. Only the cells
    the action keeps are looked at (``where="present"`` skips the others, -1 pads too)."""
    gsel = args.select_games(games, np.ones_like(world.ongoing) if skip_finished
                             else world.ongoing)
    ids = args.integer_array(source, "source", -1, MAX_ID, InvalidTypeError)
    if ids.ndim == 0:
        ids = np.full((gsel.size, 1), int(ids))
    elif ids.shape == gsel.shape:   # one per selected game
        ids = ids[:, None]
    elif ids.ndim == 1 and gsel.size == 1 and ids.shape[0] == r.shape[1]:   # one per target of one game
        ids = ids[None, :]
    if ids.ndim != 2 or ids.shape[0] != gsel.size or ids.shape[1] not in (1, r.shape[1]):
        raise InvalidGameError(f"source of shape {ids.shape}: expected one id, one per selected "
                               f"game ({gsel.size}) or one per target {r.shape}")
    looked = np.broadcast_to(world.ongoing[gsel][:, None], r.shape)
    if r.keep is not None:
        looked = looked & r.keep.reshape(r.shape)
    g = np.broadcast_to(gsel[:, None], r.shape)[looked]
    e = np.broadcast_to(ids, r.shape)[looked]
    if (e < 0).any():
        raise InvalidTypeError(f"source -1 for a target in game {int(g[e < 0][0])}: "
                               f"a source is an object's id")
    c = args.columns_or_gone(world, g, e)
    if (c < 0).any():
        i = int(np.flatnonzero(c < 0)[0])
        raise StaleEntityError(f"source {int(e[i])} does not exist in game {int(g[i])} "
                               "(it changed zones or was never there)")
    args.require(world, ~args.is_type(world, g, c, "player"), g, c,
                 "is a player: a source of damage is an object (CR 120.1)")
    out = np.zeros(r.shape, np.int64)
    out[looked] = c
    return out


def _merge_rows(world: Game, g: np.ndarray, c: np.ndarray, a: np.ndarray, sc: np.ndarray | None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool]:
    """``sum_rows`` of the rows of one target and one source (source columns ``sc``,
    None: none), for each merged row the index of one of its input rows, and whether a
    target is left with rows of several sources."""
    several = False
    if sc is None or g.size < 2:
        g2, c2, a2, into = args.merged_rows(world, g, c, a)
    else:   # (target, source) pairs: each is one damage event
        g2, c2, _, a2, into = args.merged_rows_by(world, g, c, sc, world.store.capacity, a)
        several = bool(((g2[1:] == g2[:-1]) & (c2[1:] == c2[:-1])).any())   # (a target's side by side)
    one = np.empty(g2.size, np.intp)
    one[into] = np.arange(into.size)   # (a row of each: the last written)
    return g2, c2, a2, one, several


def tap(world: Game, e: Ids, games: Games = None, *, where: str = "all",
        skip_finished: bool = False) -> None:
    """Tap permanents; each that was untapped is a ``Tapped`` event (cause ``tap``)."""
    s = world.store
    cols = _permanents_few(world, e, games, where, skip_finished)
    if cols is not None:   # a few permanents of a single game: plain ints, by column
        world.log.next_step()
        v = s.views()
        for col in cols:
            if not v["tapped"][0, col]:
                world.log.one(TAP, _CAUSE_TAP, 0, v["entity_id"][0, col], before=0, after=1)
                s.write("tapped", (0, col), True)
        return
    r = args.rows(world, e, games, where, skip_finished)
    g, c, _ = args.sum_rows(world, r.g, r.c, np.zeros(r.g.size, np.int64))
    args.require(world, args.on_battlefield(world, g, c), g, c, "is not a permanent")
    new = ~s.a["tapped"][g, c]
    world.log.next_step()
    _record_tap(world, g[new], c[new], False, True, "tap")
    s.mut("tapped")[g[new], c[new]] = True


def untap(world: Game, e: Ids, games: Games = None, *, where: str = "all",
          skip_finished: bool = False) -> None:
    """Untap permanents; a tapped one with a stun counter loses one instead (122.1d).
    Each untap is a ``Tapped`` event (cause ``untap``), each untap a stun counter
    replaced one too (cause ``stun``, tapped before and after)."""
    s = world.store
    cols = _permanents_few(world, e, games, where, skip_finished)
    if cols is not None:   # a few permanents of a single game: plain ints, by column
        _untap_few(world, cols)
        return
    r = args.rows(world, e, games, where, skip_finished)
    g, c, _ = args.sum_rows(world, r.g, r.c, np.zeros(r.g.size, np.int64))
    args.require(world, args.on_battlefield(world, g, c), g, c, "is not a permanent")
    tapped = s.a["tapped"][g, c]
    stun = s.plane("stun")
    stunned = tapped & (stun[g, c] > 0 if stun is not None else False)
    untapped = tapped & ~stunned
    world.log.next_step()
    _record_tap(world, g[stunned], c[stunned], True, True, "stun")
    counting.change(world, "stun", g[stunned], c[stunned], -1, "stun")
    _record_tap(world, g[untapped], c[untapped], True, False, "untap")
    s.mut("tapped")[g[untapped], c[untapped]] = False


def _untap_few(world: Game, cols: list[int]) -> None:
    """``untap`` of a single game's permanents ``cols`` (``_permanents``) in plain ints, in
    the general path's order of events: the stun events, the stun counters removed, the
    untaps (122.1d)."""
    s = world.store
    v = s.views()
    k = s.kind_index.get("stun")
    tapped = [col for col in cols if v["tapped"][0, col]]
    stunned = [col for col in tapped if k is not None and v["counts"][k, 0, col] > 0]
    world.log.next_step()
    for col in stunned:
        world.log.one(TAP, _CAUSE_STUN, 0, v["entity_id"][0, col], before=1, after=1)
    for col in stunned:
        counting.change_one(world, "stun", 0, col, -1, "stun")
    for col in tapped:
        if col not in stunned:
            world.log.one(TAP, _CAUSE_UNTAP, 0, v["entity_id"][0, col], before=1, after=0)
            s.write("tapped", (0, col), False)


_CAUSE_TAP, _CAUSE_UNTAP, _CAUSE_STUN = CAUSE["tap"], CAUSE["untap"], CAUSE["stun"]


def _record_tap(world: Game, g: np.ndarray, c: np.ndarray, before: bool, after: bool,
                cause: str) -> None:
    world.log.record(TAP, cause, game=g, entity=world.store.a["entity_id"][g, c],
                     before=int(before), after=int(after))


def lose_life(world: Game, p: Ids, n: Amounts, games: Games = None, *,
              skip_finished: bool = False) -> None:
    _life(world, p, n, games, -1, skip_finished)


def gain_life(world: Game, p: Ids, n: Amounts, games: Games = None, *,
              skip_finished: bool = False) -> None:
    _life(world, p, n, games, +1, skip_finished)


def _life(world: Game, p: Ids, n: Amounts, games: Any, sign: int, skip_finished: bool) -> None:
    s = world.store
    if args.count_one(n):
        targets = args.few(world, p, games, "all", skip_finished)
        if targets is not None and _life_few(world, targets, sign * n):
            return
    r = args.rows(world, p, games, "all", skip_finished, takes_where=False)
    g, c = r.g, r.c
    args.require(world, args.is_type(world, g, c, "player"), g, c, "is not a player")
    a = r.amounts(n, lambda e=p: f"life of {args.named_ids(e, 'player')}")
    idx = s.a["controller"][g, c].astype(np.int64)
    if world.two_headed_giant:
        idx = s.a["player_head"][idx].astype(np.int64)  # team life (810.8)
    g, idx, a = args.sum_rows(world, g, idx, a)          # one total per (game, player)
    s.mut("life")[g, idx] = counting.life_after(world, g, idx, sign * a)


def _life_few(world: Game, targets: list[tuple[int, int]], delta: int) -> bool:
    """``_life`` of a single game's players ``targets`` (``args.few``) in plain ints: each
    row changes its player's total (a Two-Headed Giant team's, 810.8) by ``delta``, rows
    naming one player adding up. False, with nothing done, where the general path raises:
    a target that is not a player, a total past the bounds of life."""
    s = world.store
    v = s.views()
    totals: dict[int, int] = {}
    for _, col in targets:
        if not v["types"][0, col] & _PLAYER:
            return False
        idx = v["controller"][0, col]
        if world.two_headed_giant:
            idx = v["player_head"][idx]
        totals[idx] = totals.get(idx, v["life"][0, idx]) + delta
    if any(abs(total) > MAX_LIFE for total in totals.values()):
        return False
    for idx, total in totals.items():
        s.write("life", (0, idx), total)
    return True


def cleanup(world: Game, games: Games = None) -> None:
    """The cleanup step's damage removal (CR 514.2)."""
    gsel = select_games(games, world.ongoing)
    world.store.mut("damage")[gsel] = 0
    world.ruleset.cleanup(world, gsel)
