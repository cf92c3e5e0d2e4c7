"""The Grand Archive TCG ruleset and its actions (rules.md section 6).

``World(ruleset="grand_archive")`` plays the GA counter rules:

* stats power, life (stored as toughness), durability and level exist where printed; no
  counter creates a missing one (Buff 2, Debuff 2, Durability 4);
* buff/debuff counters give +1/+1 / -1/-1 to power and life and cancel as they are placed
  (Buff 4, Debuff 4), not at a state-based check;
* damage to a champion is damage counters, which persist; damage to an ally is temporary
  marked damage (Damage 12-13; Counters: Damage 1); bulwark counters prevent one instance
  of combat damage (Counters: Bulwark);
* objects with a durability stat enter with that many durability counters (Durability 1);
* a champion card that would go to the graveyard is banished instead (Champion 8);
* the state-based checks are ecs.systems.ga_checks, the wither trigger
  ecs.systems.wither_upkeep; the actions (reserve, recover, enlighten, GA stats) are the
  functions below, which ``ecs.world.World`` offers as methods.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ecs import args, counting, kinds, reads, turns, zones
from ecs.check import System
from ecs.components import TYPE_BIT
from ecs.components.card import NO_STAT
from ecs.errors import (
    IllegalActionError,
    InsufficientReserveError,
    InvalidCountError,
    InvalidKindError,
    InvalidTypeError,
    UnpayableCostError,
)
from ecs.game import Game
from ecs.systems import CapEnforcement, GAStateChecks, WitherUpkeep, ZoneChange

from .mtg import Magic

GA_TYPES = ("champion", "ally", "weapon", "regalia", "domain", "item", "action", "attack",
            "phantasia", "siegeable", "mastery")
#: Kinds whose MTG rules live in the shared engine (122.1a-d, 122.1h): rejected in GA,
#: where a counter of such a name would be generic (GA Counters, General 6.1).
MTG_ONLY_KINDS = ("shield", "stun", "finality")
ENLIGHTEN_COST = 3


class GrandArchive(Magic):
    name = "grand_archive"
    zone_aliases: Mapping[str, str] = {"field": "battlefield", "banishment": "exile",
                                       "deck": "library", "effects stack": "stack"}
    wither_upkeep = True

    card_types = GA_TYPES
    #: ZoneChange -> CapEnforcement -> GAStateChecks -> WitherUpkeep
    systems: tuple[type[System], ...] = (ZoneChange, CapEnforcement, GAStateChecks, WitherUpkeep)

    def validate_kind(self, kind: str) -> str:
        if kinds.pt_modifier(kind) is not None or kinds.keyword_of(kind) or kind in MTG_ONLY_KINDS:
            raise InvalidKindError(
                f"counter kind {kind!r} is a Magic counter with Magic rules; the grand_archive "
                "ruleset has buff/debuff counters and generic counters (GA Counters)")
        return kind

    def place(self, world: Game, kind: str, g: np.ndarray, c: np.ndarray,
              amount: np.ndarray, cause: str, by: object) -> None:
        """Buff 4 / Debuff 4: every buff counter placed on an object with debuff counters
        removes itself and one debuff counter (and vice versa), as it is placed. The
        counters are placed first (one event, so "placed" triggers see all of them), then
        the cancelled ones are removed in the same step with cause ``ga.placement``."""
        counting.change(world, kind, g, c, amount, cause, by)
        if kind not in ("buff", "debuff"):
            return
        s = world.store
        other = s.plane("debuff" if kind == "buff" else "buff")
        if other is None:
            return
        m = np.minimum(amount, other[g, c])
        hit = m > 0
        if hit.any():
            for k in (kind, "debuff" if kind == "buff" else "buff"):
                counting.change(world, k, g[hit], c[hit], -m[hit], "ga.placement")

    def deal_damage(self, world: Game, g: np.ndarray, c: np.ndarray, amount: np.ndarray,
                    flags: Mapping[str, bool]) -> None:
        """Damage to units on the field (GA Damage): damage counters on champions (they
        persist), temporary marked damage on allies. A bulwark counter prevents one
        instance of combat damage and is removed; unpreventable damage is dealt and still
        removes one (Counters: Bulwark 2-4)."""
        s = world.store
        for f in ("deathtouch", "wither", "infect"):
            if flags[f]:
                raise InvalidTypeError(f"{f} is a Magic damage ability; the grand_archive ruleset "
                                       "has no such damage")
        types = s.a["types"][c]
        champion = (types & TYPE_BIT["champion"]) != 0
        ally = (types & TYPE_BIT["ally"]) != 0
        args.require(world, (champion | ally) & args.on_battlefield(world, g, c), g, c,
                       "can't be dealt damage: only units (champions and allies) on the field "
                       "can (GA Damage 4-5, Unit 1)")
        dealt = amount > 0                         # GA Damage: 0 damage is not dealt
        bulwark = s.plane("bulwark")
        guarded = np.zeros(g.size, bool)
        if flags["combat"] and bulwark is not None:
            guarded = (bulwark[g, c] > 0) & dealt   # Bulwark 3: non-zero damage only
            dealt &= ~guarded | flags["unpreventable"]
        # Validate what is actually dealt before anything changes (prevented damage puts nothing).
        champ, ally_hit = dealt & champion, dealt & ally & ~champion
        counting.check_room(world, "damage", g[champ], c[champ], amount[champ])
        counting.check_marked_damage(world, g[ally_hit], c[ally_hit], amount[ally_hit])
        world.log.next_step()
        counting.change(world, "bulwark", g[guarded], c[guarded], -1, "damage")
        counting.put(world, "damage", g[champ], c[champ], amount[champ], "damage")
        s.mut("damage")[g[ally_hit], c[ally_hit]] += amount[ally_hit].astype(np.int32)  # rows distinct

    def has_stat(self, world: Game, col: int, stat: str) -> bool:
        """A stat exists where it is printed, whatever the counters (Buff 2, Debuff 2)."""
        return int(world.store.a[stat][col]) != NO_STAT

    def pt_modifier(self, kind: str) -> tuple[int, int] | None:
        """Buff 1 / Debuff 1: +1/+1 or -1/-1 to power and life per counter."""
        return (1, 1) if kind == "buff" else (-1, -1) if kind == "debuff" else None

    def enter_counters(self, world: Game, cols: np.ndarray) -> list[tuple[str, np.ndarray]]:
        """Durability 1: an object with a durability stat enters the field with that many
        durability counters."""
        printed = world.store.a["durability"][cols]
        return [("durability", np.where(printed != NO_STAT, printed, 0).astype(np.int64))]

    def sacrifice_zone(self, world: Game, cols: np.ndarray) -> np.ndarray:
        """Sacrifice 2: to the graveyard, a regalia or champion into banishment."""
        banish = (world.store.a["types"][cols] & (TYPE_BIT["regalia"] | TYPE_BIT["champion"])) != 0
        return np.where(banish, zones.EXILE, zones.GRAVEYARD).astype(np.int64)

    def replace_zone_change(self, world: Game, games: np.ndarray, cols: np.ndarray,
                            frm: np.ndarray, dest: np.ndarray) -> np.ndarray:
        """Champion 8: a champion card that would go to a graveyard is banished instead.
        Also notes, for Ending the Game 5, that the controller of a champion leaving the
        field has "previously controlled a champion"."""
        s = world.store
        champ = (s.a["types"][cols] & TYPE_BIT["champion"]) != 0
        dest[champ & (dest == zones.GRAVEYARD)] = zones.EXILE
        left = champ & (frm == zones.BATTLEFIELD)
        if left.any():
            s.mut("champion_left")[games[left], s.a["controller"][cols[left]].astype(np.int64)] = True
        return dest


def _ga_only(world: Game, what: str) -> None:
    if not isinstance(world.ruleset, GrandArchive):
        raise IllegalActionError(f"{what} is a Grand Archive action; this World plays "
                                 f"{world.ruleset.name!r}")


def reserve(world: Game, p: int) -> Any:
    """The reserve ``p`` can pay (cards available to reserve) in each game."""
    return args.out(world, world.store.a["reserve"][:, args.player_index(world, p)].astype(np.int64))


def set_reserve(world: Game, p: Any, n: Any, games: Any = None) -> None:
    """Set how much reserve player ``p`` has (an amount per selected game, or one)."""
    _reserve_rows(world, p, n, games, "set")


def gain_reserve(world: Game, p: Any, n: Any, games: Any = None) -> None:
    _reserve_rows(world, p, n, games, "gain")


def pay_reserve(world: Game, p: Any, n: Any, games: Any = None) -> None:
    """Pay ``n`` reserve: all of it, or raise InsufficientReserveError and pay nothing."""
    _reserve_rows(world, p, n, games, "pay")


def _reserve_rows(world: Game, p: Any, n: Any, games: Any, how: str) -> None:
    s = world.store
    g, c, single = args.targets(world, p, games)
    args.require(world, args.is_type(world, c, "player"), g, c, "is not a player")
    a = args.amounts(world, n, p, games, single, f"{how} reserve of player {p}")
    idx = s.a["controller"][c].astype(np.int64)
    have = s.a["reserve"][g, idx].astype(np.int64)
    if how == "pay":
        short = a > have
        if short.any():
            i = int(np.flatnonzero(short)[0])
            raise InsufficientReserveError(
                f"player {int(s.a['entity_id'][c[i]])} in game {int(g[i])} can't pay "
                f"{int(a[i])} reserve: they have {int(have[i])}")
        new = have - a
    else:
        new = a if how == "set" else have + a
    if (new > np.iinfo(np.int32).max).any():
        raise InvalidCountError(f"reserve of player {p} would pass {np.iinfo(np.int32).max}")
    s.mut("reserve")[g, idx] = new


def recover(world: Game, champion: Any, n: Any, games: Any = None, cost: bool = False) -> Any:
    """Recover ``n``: remove up to ``n`` damage counters from the champion(s) (Recover
    2, 2.1, 2.2); returns how many were removed. With ``cost=True`` it is "Recover N"
    as a cost: every named champion must have at least ``n`` damage counters, else
    UnpayableCostError and nothing changes (Recover's hint)."""
    _ga_only(world, "recover")
    g, c, single = args.targets(world, champion, games)
    args.require(world, args.is_type(world, c, "champion") & args.on_battlefield(world, g, c), g, c,
                  "is not a champion on the field (GA Recover 2)")
    a = args.amounts(world, n, champion, games, single, f"recover on entity {champion}")
    args.distinct_rows(world, g, c, "recover")
    have = _counters_for_cost(world, "damage", g, c, a if cost else 0,
                                   "Recover as a cost (GA Recover)")
    removed = np.minimum(a, have)
    world.log.next_step()
    counting.change(world, "damage", g, c, -a, "ga.recover")
    if single:
        full = np.zeros(world.batch, np.int64)
        full[g] = removed
        return args.out(world, full)
    return removed.reshape(np.unique(g).size, -1)


def _counters_for_cost(world: Game, kind: str, g: np.ndarray, c: np.ndarray,
                       need: Any, what: str) -> np.ndarray:
    """Each row's count of ``kind``; UnpayableCostError naming the first row that has
    fewer than ``need`` (a cost is paid in full or not at all)."""
    s = world.store
    k = s.kind_index.get(kind)
    have = s.counts[k, g, c].astype(np.int64) if k is not None else np.zeros(g.size, np.int64)
    need = np.broadcast_to(np.asarray(need, np.int64), g.shape)
    short = have < need
    if short.any():
        i = int(np.flatnonzero(short)[0])
        raise UnpayableCostError(
            f"entity {int(s.a['entity_id'][c[i]])} in game {int(g[i])} has {int(have[i])} "
            f"{kind!r} counters; {what} needs {int(need[i])}")
    return have


def activate_enlighten(world: Game, e: Any, games: Any = None) -> Any:
    """Activate "Remove 3 enlighten counters from [CARDNAME]: Draw a card." of objects
    on the field with three or more enlighten counters: remove 3, then the object's
    controller draws a card (see ``draw``; an empty deck loses at the next check, GA
    Ending the Game 5). Fewer than three raises UnpayableCostError, changing nothing.
    Returns the drawn card's new id (a batch: one per game, -1 where none)."""
    _ga_only(world, "activate_enlighten")
    s = world.store
    g, c, _ = args.targets(world, e, games)
    args.require(world, args.on_battlefield(world, g, c), g, c, "is not an object on the field")
    args.distinct_rows(world, g, c, "activate_enlighten")
    _counters_for_cost(world, "enlighten", g, c, ENLIGHTEN_COST,
                            "activating enlighten (GA Enlighten 1)")
    if np.unique(g).size != g.size:
        raise IllegalActionError("activate_enlighten: one object per game at a time")
    world.log.next_step()
    counting.change(world, "enlighten", g, c, -ENLIGHTEN_COST, "ga.enlighten")
    ctrl = s.a["controller"][c].astype(np.int64)
    out = np.full(world.batch, -1, np.int64)
    for p in np.unique(ctrl):
        sel = g[ctrl == p]
        pid = int(s.a["entity_id"][s.a["player_col"][p]])
        drawn = turns.draw(world, pid, 1, games=sel)
        if world.batch == 1:
            out[0] = drawn[0] if drawn else -1
        else:
            out[sel] = drawn[sel, 0]
    return args.out(world, out)


def stat(world: Game, e: int, name: str) -> Any:
    """A GA stat of ``e``: "power" and "life" (printed plus buff/debuff counters, Buff 1,
    Debuff 1), "durability" (the durability counters it has on the field, Stats:
    Durability 1; the printed stat elsewhere), "level" (LV: base level plus level
    counters on a champion, Level Counters 1-2). A stat that is not printed does not
    exist (InvalidTypeError), whatever counters the object has."""
    s = world.store
    col = args.column(world, e)
    if name in ("power", "life"):
        return reads.power(world, e) if name == "power" else reads.toughness(world, e)
    if name not in ("durability", "level"):
        raise InvalidTypeError(f"unknown stat {name!r}; expected power, life, durability or level")
    printed = int(s.a[name][col])
    if printed == NO_STAT:
        raise InvalidTypeError(f"entity {e} has no {name} stat (it is not printed)")
    k = s.kind_index.get(name)
    count = s.counts[k, :, col].astype(np.int64) if k is not None else np.zeros(world.batch, np.int64)
    if name == "durability":
        on_field = s.a["zone"][:, col] == zones.BATTLEFIELD
        return args.out(world, np.where(on_field, count, printed))
    champ = bool(s.a["types"][col] & TYPE_BIT["champion"])
    return args.out(world, printed + (count if champ else 0 * count))


def base_level(world: Game, e: int) -> int:
    """The printed level; level counters never change it (Level Counters 2)."""
    v = int(world.store.a["level"][args.column(world, e)])
    if v == NO_STAT:
        raise InvalidTypeError(f"entity {e} has no level stat")
    return v
