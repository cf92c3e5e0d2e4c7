"""The Grand Archive TCG ruleset and its actions (the GA comprehensive rules).

``World(ruleset="grand_archive")`` plays the GA counter rules:

* stats power, life (stored as toughness), durability and level exist where printed; no
  counter creates a missing one (Buff 2, Debuff 2, Durability 4);
* buff/debuff counters give +1/+1 / -1/-1 to power and life and cancel as they are placed
  (Buff 4, Debuff 4), not at a state-based check;
* damage to a champion is damage counters, which persist; damage to an ally is temporary
  marked damage (Damage 12-13; Counters: Damage 1); bulwark counters prevent one instance
  of combat damage (Counters: Bulwark);
* objects with a durability stat enter with that many durability counters (Durability 1);
* a champion card that would go to the graveyard is banished instead (Champion 8), and
  none is made there (``check_new_objects``); Magic's keywords and damage abilities
  (lifelink too) are refused, as their keyword counters are;
* negative damage is dealt as 0 (Damage 15: ``damage_amounts``);
* clean-up removes ally damage counters with the marked damage (Types of Checks 6,
  Stats: Life 2.2: ``cleanup``);
* immortal objects (the host declares them: ``set_immortal``) do not die, are not
  destroyed by state-based effects, ``destroy`` or ``sacrifice`` (``ecs.actions``) and
  are not sacrificed by wither (Keywords: Immortality 1);
* a player who lost leaves the game with their objects (Ending the Game 7, 9), at the
  next state-based check (ecs.systems.ga_checks);
* the state-based checks are ecs.systems.ga_checks, the wither trigger
  ecs.systems.wither_upkeep; the actions (reserve, recover, enlighten, level up,
  immortality, GA stats) are the functions below, which ``ecs.world.World`` offers as
  methods. Paying reserve, recovering, activating enlighten and leveling up are events
  (``ecs.events.ReserveChanged``, ``ecs.events.Acted``).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence, cast

import numpy as np

from ecs import args, counting, damage, host, kinds, reads, sets, stats, turns, zones
from ecs.args import Amounts, BoolRead, Games, Ids, IntRead
from ecs.check import System
from ecs.components import TYPE_BIT
from ecs.components.card import NO_STAT
from ecs.errors import (
    CountOverflowError,
    IllegalActionError,
    InsufficientReserveError,
    InvalidCountError,
    InvalidKindError,
    InvalidTypeError,
    InvalidZoneError,
)
from ecs.events import ACTION, CAUSE, DAMAGE, RESERVE
from ecs.game import Game
from ecs.limits import MAX_COUNT, MAX_STAT
from ecs.systems import CapEnforcement, GAStateChecks, WitherUpkeep, ZoneChange

from .mtg import Magic

GA_TYPES = ("champion", "ally", "weapon", "regalia", "domain", "item", "action", "attack",
            "phantasia", "siegeable", "mastery")
#: Kinds whose MTG rules live in the shared engine (122.1a-d, 122.1h): rejected in GA,
#: where a counter of such a name would be generic (GA Counters, General 6.1).
MTG_ONLY_KINDS = ("shield", "stun", "finality")
_CHAMPION = TYPE_BIT["champion"]
ENLIGHTEN_COST = 3


class GrandArchive(Magic):
    name = "grand_archive"
    zone_aliases: Mapping[str, str] = {"field": "battlefield", "banishment": "exile",
                                       "deck": "library", "effects stack": "stack"}
    wither_upkeep = True
    two_headed_giant = False   # (810 is a Magic variant: GA has no teams)

    card_types = GA_TYPES
    stat_counters_on_players = ("change an object's power and life stats, which players "
                                "don't have (GA Buff 1, Debuff 1)")
    #: Units on the field (GA Damage 4-5, Unit 1).
    damageable = ("champion", "ally")
    #: ZoneChange -> CapEnforcement -> GAStateChecks -> WitherUpkeep
    systems: tuple[type[System], ...] = (ZoneChange, CapEnforcement, GAStateChecks, WitherUpkeep)

    def validate_kind(self, kind: str) -> str:
        if kinds.pt_modifier(kind) is not None or kinds.keyword_of(kind) or kind in MTG_ONLY_KINDS:
            raise InvalidKindError(
                f"counter kind {kind!r} is a Magic counter with Magic rules; the grand_archive "
                "ruleset has buff/debuff counters and generic counters (GA Counters)")
        return kind

    def check_new_objects(self, types: int, zone: int, keywords: int) -> None:
        """``Magic.check_new_objects``, and what no GA game can hold besides:

        * a champion card in a graveyard: "If a Champion card would be put into a
          graveyard from anywhere, it is instead banished" (Champion 8), so none is ever
          there (InvalidZoneError; banishment is where it would be);
        * printed keywords: the keyword table is Magic's (CR 122.1b), with Magic's effects
          in the shared engine (deathtouch, lifelink, indestructible), refused as its
          keyword counters are (InvalidTypeError). GA's own keywords are the host's:
          Immortality is ``set_immortal``, Bulwark a bulwark counter."""
        super().check_new_objects(types, zone, keywords)
        if types & _CHAMPION and zone == zones.GRAVEYARD:
            raise InvalidZoneError(
                "a champion card can't be made in the graveyard: one that would be put there "
                "is banished instead (GA Champion 8); add it to 'banishment'")
        if keywords:
            named = [k for k, bit in kinds.KEYWORD_BIT.items() if keywords & bit]
            raise InvalidTypeError(
                f"keywords {named} are Magic keywords (CR 122.1b) with Magic rules; the "
                "grand_archive ruleset has none of them (its Immortality is set_immortal, "
                "Bulwark a bulwark counter)")

    def place(self, world: Game, kind: str, g: np.ndarray, c: np.ndarray,
              amount: np.ndarray, cause: str, by: object, e: np.ndarray | None = None) -> None:
        """Buff 4 / Debuff 4: every buff counter placed on an object with debuff counters
        removes itself and one debuff counter (and vice versa), as it is placed. The
        counters are placed first (one event, so "placed" triggers see all of them), then
        the cancelled ones are removed in the same step with cause ``ga.placement``."""
        counting.change(world, kind, g, c, amount, cause, by, e=e)
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
                counting.change(world, k, g[hit], c[hit], -m[hit], "ga.placement",
                                e=None if e is None else e[hit])

    def place_one(self, world: Game, kind: str, g: int, col: int, have: int, n: int, cause: str,
                  by: int, e: int) -> None:
        """``place_few`` of one row (Buff 4, Debuff 4)."""
        self.place_few(world, kind, g, [(col, have, n, e)], cause, by)

    def place_few(self, world: Game, kind: str, g: int, rows: list[tuple[int, int, int, int]],
                  cause: str, by: int) -> None:
        """``place`` on a few distinct rows of plain ints ((column, count there, counters
        placed, id or -1) each), in the same order: every row's counters placed, then the
        cancelled counters of ``kind`` removed row by row, then those of the other kind
        (Buff 4, Debuff 4; cause ``ga.placement``), all in the same step."""
        for col, have, n, e in rows:
            counting.set_one(world, kind, g, col, have, have + n, cause, by, e)
        if kind not in ("buff", "debuff"):
            return
        other = "debuff" if kind == "buff" else "buff"
        k = world.store.kind_index.get(other)
        if k is None:
            return
        counts = world.store.views()["counts"]
        cancel = []
        for col, have, n, e in rows:
            there: int = counts[k, g, col]
            if min(n, there) > 0:
                cancel.append((col, have + n, there, min(n, there), e))
        for col, now, _, m, e in cancel:
            counting.set_one(world, kind, g, col, now, now - m, "ga.placement", -1, e)
        for col, _, there, m, e in cancel:
            counting.set_one(world, other, g, col, there, there - m, "ga.placement", -1, e)

    def deal_damage(self, world: Game, g: np.ndarray, c: np.ndarray, amount: np.ndarray,
                    flags: Mapping[str, bool]) -> None:
        """Damage to units on the field (GA Damage): damage counters on champions (they
        persist), temporary marked damage on allies. A bulwark counter prevents one
        instance of combat damage and is removed; unpreventable damage is dealt and still
        removes one (Counters: Bulwark 2-4). Each row is a ``DamageDealt`` event, as in
        Magic: the amount that would be dealt, the amount dealt (0 where a bulwark counter
        prevented it) and the source."""
        s = world.store
        for f in damage.SOURCE_ABILITIES:   # deathtouch, wither, infect, lifelink: Magic's
            if np.any(flags[f]):   # (given for the call, or per row by the source's keywords)
                hit = np.flatnonzero(np.broadcast_to(flags[f], g.shape))
                to = f" to entity {int(s.a['entity_id'][g[hit[0]], c[hit[0]]])} in game {int(g[hit[0]])}" \
                    if hit.size else ""
                raise InvalidTypeError(
                    f"damage{to} with {f}: {f} is a Magic damage ability (given, or the source's "
                    "keyword); the grand_archive ruleset has no such damage, nor life to gain")
        if flags.get("several"):   # (rows of one unit: ascending, side by side)
            i = int(np.flatnonzero((g[1:] == g[:-1]) & (c[1:] == c[:-1]))[0])
            raise IllegalActionError(
                f"entity {int(s.a['entity_id'][g[i], c[i]])} in game {int(g[i])} is dealt damage by "
                "several sources in one call: in Grand Archive each source's damage is an instance "
                "of its own (Damage 16), one deal_damage call each")
        types = s.a["types"][g, c]
        champion = (types & TYPE_BIT["champion"]) != 0
        ally = (types & TYPE_BIT["ally"]) != 0
        damageable = (types & self.damageable_mask) != 0
        args.require(world, damageable & args.on_battlefield(world, g, c), g, c,
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
        source = np.broadcast_to(np.asarray(flags.get("source", -1), np.int64), g.shape)
        r = amount > 0   # 0 damage is not dealt: no event (as in Magic, 120.8)
        damage.record(world, g[r], c[r], amount[r], np.where(champ | ally_hit, amount, 0)[r],
                      source[r], bool(flags["combat"]))
        counting.change(world, "bulwark", g[guarded], c[guarded], -1, "damage")
        counting.put(world, "damage", g[champ], c[champ], amount[champ], "damage")
        s.mut("damage")[g[ally_hit], c[ally_hit]] += amount[ally_hit].astype(np.int32)  # rows distinct

    def deal_damage_one(self, world: Game, e: int, col: int, amount: int, source: Any,
                        given: tuple[Any, ...], unpreventable: bool, combat: bool) -> bool:
        """``deal_damage`` of ``amount`` (0 or more) to the one target ``e`` in column ``col``
        of a single game, in plain values and in the general path's order: the room, then
        the step, the ``DamageDealt`` event, the bulwark counter removed, then the champion's
        damage counters or the ally's marked damage. False, with nothing changed, where the
        general path must act or raise: a Magic damage ability (lifelink too), a target that
        is not a unit on the field, damage past MAX_COUNT."""
        resolved = damage.source_one(world, source, given)
        if resolved is None:
            return False
        src, _, abilities = resolved
        s = world.store
        v = s.views()
        types = v["types"][0, col]
        if any(abilities) or not types & self.damageable_mask or v["zone"][0, col] != zones.BATTLEFIELD:
            return False
        if amount == 0:   # GA Damage: 0 damage is not dealt, and no event
            world.log.next_step()
            return True
        k = s.kind_index.get("bulwark")
        guarded = combat and k is not None and v["counts"][k, 0, col] > 0   # Bulwark 3
        dealt = not guarded or unpreventable
        champion = types & _CHAMPION != 0
        have = marked = 0
        if dealt and champion:
            have = counting.room_one(world, "damage", 0, col, amount)
        elif dealt:
            marked = v["damage"][0, col]
            have = -1 if marked + amount > MAX_COUNT else 0
        if have < 0:
            return False
        world.log.next_step()
        world.log.one(DAMAGE, CAUSE["combat damage" if combat else "damage"], 0, e, -1, amount,
                      amount if dealt else 0, src)
        if guarded:
            counting.change_one(world, "bulwark", 0, col, -1, "damage", e=e)
        if dealt and champion:
            counting.put_one(world, "damage", 0, col, amount, "damage", have=have, e=e)
        elif dealt:
            s.write("damage", (0, col), marked + amount)
        return True

    def deal_damage_few(self, world: Game, targets: list[tuple[int, int]], amount: int, source: Any,
                        given: tuple[Any, ...], unpreventable: bool, combat: bool) -> bool:
        """``deal_damage_one`` of ``amount`` to each of a single game's few ``targets``
        ((id, column) pairs, ``ecs.args.few``) at once, in the general path's order: rows
        naming one target are one event to it, their amounts added; every room is checked
        before anything changes; then the ``DamageDealt`` events, the bulwark counters spent,
        the champions' damage counters, the allies' marked damage. False, with nothing
        changed, where ``deal_damage_one`` would be."""
        resolved = damage.source_one(world, source, given)
        if resolved is None:
            return False
        src, _, abilities = resolved
        if any(abilities):   # a Magic damage ability: the general path raises
            return False
        s = world.store
        v = s.views()
        k = s.kind_index.get("bulwark")
        rows = []
        for col, n, e in counting.summed(targets, amount):
            types = v["types"][0, col]
            if not types & self.damageable_mask or v["zone"][0, col] != zones.BATTLEFIELD:
                return False
            guarded = combat and n > 0 and k is not None and v["counts"][k, 0, col] > 0   # Bulwark 3
            dealt = n > 0 and (not guarded or unpreventable)
            champion = types & _CHAMPION != 0
            have = 0
            if dealt and champion:
                have = counting.room_one(world, "damage", 0, col, n)
            elif dealt and v["damage"][0, col] + n > MAX_COUNT:
                have = -1
            if have < 0:
                return False
            rows.append((col, n, e, guarded, dealt, champion, have))
        world.log.next_step()
        if amount == 0:   # GA Damage: 0 damage is not dealt, and no event
            return True
        cause = CAUSE["combat damage" if combat else "damage"]
        for _, n, e, _, dealt, _, _ in rows:
            world.log.one(DAMAGE, cause, 0, e, -1, n, n if dealt else 0, src)
        for col, _, e, guarded, _, _, _ in rows:
            if guarded:
                counting.change_one(world, "bulwark", 0, col, -1, "damage", e=e)
        for col, n, e, _, dealt, champion, have in rows:
            if dealt and champion:
                counting.put_one(world, "damage", 0, col, n, "damage", have=have, e=e)
        for col, n, _, _, dealt, champion, _ in rows:
            if dealt and not champion:
                s.write("damage", (0, col), s.views()["damage"][0, col] + n)
        return True

    def damage_amounts(self, n: Amounts) -> Any:
        """Damage 15: "if less than 0 damage would be dealt, no damage (0 damage) is dealt
        instead": negative integer amounts become 0 (anything else is left to the usual
        validation)."""
        try:
            arr = np.asarray(n)
        except (TypeError, ValueError):   # not an array (ragged lists): the usual validation says so
            return n
        if arr.dtype != bool and np.issubdtype(arr.dtype, np.integer):
            return np.maximum(arr, 0)
        return n

    def cleanup(self, world: Game, games: np.ndarray) -> None:
        """Types of Checks 6, Stats: Life 2.2: clean-up removes all ally damage counters
        (an ally's damage is temporary; a champion's damage counters stay, Damage 13).
        An ally that is also a champion keeps them. Cause ``cleanup``, one step."""
        s = world.store
        plane = s.plane("damage")
        if plane is None or games.size == 0:
            return
        n = s.n_cols
        types = s.a["types"][games, :n]
        ally = ((types & TYPE_BIT["ally"]) != 0) & ((types & TYPE_BIT["champion"]) == 0)
        held = (plane[games] > 0) & ally & (s.a["zone"][games, :n] == zones.BATTLEFIELD)
        gi, c = np.nonzero(held)
        if gi.size:
            world.log.next_step()
            counting.change(world, "damage", games[gi], c, -plane[games[gi], c].astype(np.int64),
                            "cleanup")

    def pt_exists(self, types: Any, printed: Any, pt_set: Any) -> Any:
        """A stat exists where it is printed, whatever the counters (Buff 2, Debuff 2) and
        the types; ints or arrays alike (``Magic.pt_exists``)."""
        return printed != NO_STAT

    def pt_modifier(self, kind: str) -> tuple[int, int] | None:
        """Buff 1 / Debuff 1: +1/+1 or -1/-1 to power and life per counter."""
        return (1, 1) if kind == "buff" else (-1, -1) if kind == "debuff" else None

    def enter_counters(self, world: Game, g: np.ndarray, c: np.ndarray
                       ) -> list[tuple[str, np.ndarray]]:
        """Durability 1: an object with a durability stat enters the field with that many
        durability counters."""
        printed = world.store.a["durability"][g, c]
        return [("durability", np.where(printed != NO_STAT, printed, 0).astype(np.int64))]

    def sacrifice_zone(self, world: Game, g: np.ndarray, c: np.ndarray) -> np.ndarray:
        """Sacrifice 2: to the graveyard, a regalia or champion into banishment."""
        banish = (world.store.a["types"][g, c] & (TYPE_BIT["regalia"] | TYPE_BIT["champion"])) != 0
        return np.where(banish, zones.EXILE, zones.GRAVEYARD).astype(np.int64)

    def replace_zone_change(self, world: Game, games: np.ndarray, cols: np.ndarray,
                            frm: np.ndarray, dest: np.ndarray) -> np.ndarray:
        """Champion 8: a champion card that would go to a graveyard is banished instead.
        Also notes, for Ending the Game 5, that the controller of a champion leaving the
        field has "previously controlled a champion"."""
        s = world.store
        champ = (s.a["types"][games, cols] & TYPE_BIT["champion"]) != 0
        dest[champ & (dest == zones.GRAVEYARD)] = zones.EXILE
        left = champ & (frm == zones.BATTLEFIELD)
        if left.any():
            gl = games[left]
            s.mut("champion_left")[gl, s.a["controller"][gl, cols[left]].astype(np.int64)] = True
        return dest

    def replace_zone_change_one(self, world: Game, g: int, col: int, frm: int, dest: int) -> int:
        """``replace_zone_change`` of one row of plain ints (Champion 8, Ending the Game 5)."""
        v = world.store.views()
        if not v["types"][g, col] & _CHAMPION:
            return dest
        if frm == zones.BATTLEFIELD:
            world.store.write("champion_left", (g, v["controller"][g, col]), True)
        return zones.EXILE if dest == zones.GRAVEYARD else dest

    def control_changed(self, world: Game, g: np.ndarray, c: np.ndarray, old: np.ndarray) -> None:
        """Ending the Game 5: a player who gives up control of a champion on the field has
        "previously controlled a champion", as when it leaves the field."""
        s = world.store
        gone = ((s.a["types"][g, c] & TYPE_BIT["champion"]) != 0) & (s.a["zone"][g, c] == zones.BATTLEFIELD)
        if gone.any():
            s.mut("champion_left")[g[gone], old[gone]] = True

    def players_left(self, world: Game, g: np.ndarray, p: np.ndarray) -> None:
        """Ending the Game 8: in a game that goes on, what a player who lost controls but
        does not own returns to its previous controller, which the core knows as its owner
        (it keeps no history of control); what they own leaves at the next check (7)."""
        s = world.store
        n = s.n_cols
        owner = s.a["owner"][g, :n].astype(np.int64)
        back = (s.a["controller"][g, :n] == p[:, None]) & (owner >= 0) & (owner != p[:, None])
        back &= s.a["zone"][g, :n] != zones.NONE
        r, c = np.nonzero(back)
        if r.size:
            s.mut("controller")[g[r], c] = owner[r, c]


def _ga_only(world: Game, what: str) -> None:
    if not isinstance(world.ruleset, GrandArchive):
        raise IllegalActionError(f"{what} is a Grand Archive action; this World plays "
                                 f"{world.ruleset.name!r}")


def reserve(world: Game, p: int) -> IntRead:
    """The reserve ``p`` can pay (cards available to reserve) in each game."""
    return args.out(world, world.store.a["reserve"][:, args.player_index(world, p)].astype(np.int64))


def set_reserve(world: Game, p: Ids, n: Amounts, games: Games = None, *,
                skip_finished: bool = False) -> None:
    """Set how much reserve player ``p`` has (an amount per selected game, or one);
    ``skip_finished`` as ``lose_life`` takes it (``ecs.args.rows``)."""
    _reserve_rows(world, p, n, games, "set", skip_finished)


def gain_reserve(world: Game, p: Ids, n: Amounts, games: Games = None, *,
                 skip_finished: bool = False) -> None:
    """Add ``n`` to player ``p``'s reserve (the host's bookkeeping: no event)."""
    _reserve_rows(world, p, n, games, "gain", skip_finished)


def pay_reserve(world: Game, p: Ids, n: Amounts, games: Games = None, *,
                skip_finished: bool = False) -> None:
    """Pay ``n`` reserve: all of it, or raise InsufficientReserveError and pay nothing."""
    _reserve_rows(world, p, n, games, "pay", skip_finished)


def _reserve_rows(world: Game, p: Ids, n: Amounts, games: Any, how: str, skip_finished: bool) -> None:
    if args.count_one(n) and _reserve_one(world, p, n, games, how, skip_finished):
        return
    s = world.store
    r = args.rows(world, p, games, "all", skip_finished, takes_where=False)
    g, c = r.g, r.c
    args.require(world, args.is_type(world, g, c, "player"), g, c, "is not a player")
    a = r.amounts(n, lambda e=p: f"{how} reserve of {args.named_ids(e, 'player')}")
    if how == "set":   # (two totals for one player: neither is the one meant)
        args.distinct_rows(world, g, c, "set_reserve")
    else:              # a player named twice pays (gains) both amounts, as one change
        g, c, a = args.sum_rows(world, g, c, a)
    idx = s.a["controller"][g, c].astype(np.int64)
    have = s.a["reserve"][g, idx].astype(np.int64)
    if how == "pay":
        short = a > have
        if short.any():
            i = int(np.flatnonzero(short)[0])
            raise InsufficientReserveError(
                f"player {int(s.a['entity_id'][g[i], c[i]])} in game {int(g[i])} can't pay "
                f"{int(a[i])} reserve: they have {int(have[i])}")
        new = have - a
    else:
        new = a if how == "set" else have + a
    over = new > MAX_COUNT
    if over.any():   # (a gain: set's amounts are checked against it already)
        i = int(np.flatnonzero(over)[0])
        raise CountOverflowError(
            f"gaining {int(a[i])} reserve: player {int(s.a['entity_id'][g[i], c[i]])} in game "
            f"{int(g[i])} has {int(have[i])}, and would pass {MAX_COUNT}")
    s.mut("reserve")[g, idx] = new
    if how != "pay":   # setting and gaining reserve are the host's bookkeeping: no event
        return
    # A payment is an event (GA Costs and Memory 1); paying 0, or in no game, is none, but
    # the accepted call takes a step of its own all the same (api.md, Events).
    world.log.next_step()
    paid = a > 0
    if paid.any():
        world.log.record(RESERVE, "ga.reserve", game=g[paid], entity=s.a["entity_id"][g[paid], c[paid]],
                         before=have[paid], after=new[paid])


def _reserve_one(world: Game, p: Any, n: int, games: Any, how: str, skip_finished: bool) -> bool:
    """``_reserve_rows`` of one player of a single game in plain ints (``args.one``);
    False, having changed nothing, where the general path must act or raise."""
    col = args.one(world, p, games, "all", skip_finished)
    if col < 0:
        return False
    s = world.store
    v = s.views()
    if not v["types"][0, col] & _PLAYER:
        return False
    idx = v["controller"][0, col]
    have: int = v["reserve"][0, idx]
    new = have - n if how == "pay" else n if how == "set" else have + n
    if not 0 <= new <= MAX_COUNT:   # (a payment short of reserve, or past int32: it raises)
        return False
    s.write("reserve", (0, idx), new)
    if how == "pay":   # a step even for 0, which is no payment event (as _reserve_rows)
        world.log.next_step()
        if n > 0:
            world.log.record(RESERVE, "ga.reserve", game=0, entity=int(p), before=have, after=new)
    return True


_PLAYER = TYPE_BIT["player"]


def recover(world: Game, champion: Ids, n: Amounts, games: Games = None, cost: bool = False) -> IntRead:
    """Recover ``n``: remove up to ``n`` damage counters from the champion(s) (Recover
    2, 2.1, 2.2); returns how many were removed. With ``cost=True`` it is "Recover N"
    as a cost: every named champion must have at least ``n`` damage counters, else
    UnpayableCostError and nothing changes (Recover's hint)."""
    _ga_only(world, "recover")
    cost = args.flag(cost, "recover's cost")
    if args.count_one(n):
        removed = _recover_one(world, champion, n, games, cost)
        if removed is not None:
            return removed
    g, c, single = args.targets(world, champion, games)
    args.require(world, args.is_type(world, g, c, "champion") & args.on_battlefield(world, g, c), g, c,
                  "is not a champion on the field (GA Recover 2)")
    a = args.amounts(world, n, champion, games, single, lambda e=champion: f"recover on {args.named_ids(e)}")
    args.distinct_rows(world, g, c, "recover")
    have = counting.counts_for_cost(world, "damage", g, c, a if cost else 0,
                              "Recover as a cost (GA Recover)")
    removed = np.minimum(a, have)
    world.log.next_step()   # an accepted call's step, even in no game (api.md, Events)
    if g.size == 0:   # no champion named: nothing happens
        n_games = args.select_games(games, world.ongoing).size
        return np.zeros((n_games, 0), np.int64)
    counting.change(world, "damage", g, c, -a, "ga.recover")
    # Recover 2.1.1: recovering a non-zero amount is "recovering" even with no damage
    # counters to remove, so the action is an event of its own.
    asked = a > 0
    _acted(world, "ga.recover", g[asked], c[asked], "damage", have[asked],
           have[asked] - removed[asked])
    if single:
        full = np.zeros(world.batch, np.int64)
        full[g] = removed
        return args.out(world, full)
    return removed.reshape(sets.distinct(g).size, -1)


def _recover_one(world: Game, champion: Any, n: int, games: Any, cost: bool) -> int | None:
    """``recover`` of one champion of a single game in plain ints (``args.one``); None,
    having changed nothing, where the general path must act or raise."""
    col = args.one(world, champion, games)
    if col < 0:
        return None
    s = world.store
    v = s.views()
    if not v["types"][0, col] & _CHAMPION or v["zone"][0, col] != zones.BATTLEFIELD:
        return None
    k = s.kind_index.get("damage")
    have: int = v["counts"][k, 0, col] if k is not None else 0
    if cost and have < n:   # (a cost paid in full or not at all: it raises)
        return None
    e, removed, ctrl = int(champion), min(n, have), v["controller"][0, col]
    world.log.next_step()
    counting.set_one(world, "damage", 0, col, have, have - removed, "ga.recover", e=e)
    if n > 0:   # Recover 2.1.1: an event even with nothing to remove
        world.log.one(ACTION, CAUSE["ga.recover"], 0, e, s.kind_id("damage", create=True), have, have - removed,
                      ctrl)
    return removed


def _acted(world: Game, cause: str, g: np.ndarray, c: np.ndarray, kind: str | None,
           before: np.ndarray, after: np.ndarray) -> None:
    """Record a player action on the objects (g, c) (``ecs.events.Acted``): the acting
    player is each object's controller; ``before``/``after`` the counts of ``kind``."""
    s = world.store
    k = s.kind_id(kind, create=True) if kind is not None and g.size else -1
    world.log.record(ACTION, cause, game=g, entity=s.a["entity_id"][g, c], kind=k,
                     before=before, after=after, other=s.a["controller"][g, c])


def activate_enlighten(world: Game, e: Ids, games: Games = None) -> IntRead:
    """Activate "Remove 3 enlighten counters from [CARDNAME]: Draw a card." of objects
    on the field with three or more enlighten counters: remove 3, then the object's
    controller draws a card (see ``draw``; an empty deck loses at the next check, GA
    Ending the Game 5). Fewer than three raises UnpayableCostError, changing nothing.
    Returns the drawn card's new id (a batch: one per game, -1 where none)."""
    _ga_only(world, "activate_enlighten")
    drawn = _enlighten_one(world, e, games)
    if drawn is not None:
        return drawn
    s = world.store
    g, c, _ = args.targets(world, e, games)
    args.require(world, args.on_battlefield(world, g, c), g, c, "is not an object on the field (GA Enlighten 1)")
    args.distinct_rows(world, g, c, "activate_enlighten")
    have = counting.counts_for_cost(world, "enlighten", g, c, ENLIGHTEN_COST,
                              "activating enlighten (GA Enlighten 1)")
    if sets.repeats(g):
        raise IllegalActionError("activate_enlighten: one object per game at a time")
    world.log.next_step()
    counting.change(world, "enlighten", g, c, -ENLIGHTEN_COST, "ga.enlighten")
    _acted(world, "ga.enlighten", g, c, "enlighten", have, have - ENLIGHTEN_COST)
    ctrl = s.a["controller"][g, c].astype(np.int64)
    out = np.full(world.batch, -1, np.int64)
    for p in sets.distinct(ctrl):
        sel = g[ctrl == p]
        pid = int(s.a["entity_id"][0, s.a["player_col"][p]])
        got = turns.draw(world, pid, 1, games=sel)
        if isinstance(got, list):   # (one game's plain ids: args.scalar)
            out[0] = got[0] if got else -1
        else:
            out[sel] = got[sel, 0]
    return args.out(world, out)


def _enlighten_one(world: Game, e: Any, games: Any) -> int | None:
    """``activate_enlighten`` of one object of a single game in plain ints (``args.one``);
    None, having changed nothing, where the general path must act or raise."""
    col = args.one(world, e, games)
    if col < 0:
        return None
    s = world.store
    v = s.views()
    k = s.kind_index.get("enlighten")
    if k is None or v["zone"][0, col] != zones.BATTLEFIELD:
        return None
    have: int = v["counts"][k, 0, col]
    if have < ENLIGHTEN_COST:   # (it raises)
        return None
    e, ctrl = int(e), v["controller"][0, col]
    world.log.next_step()
    counting.set_one(world, "enlighten", 0, col, have, have - ENLIGHTEN_COST, "ga.enlighten", e=e)
    world.log.one(ACTION, CAUSE["ga.enlighten"], 0, e, k, have, have - ENLIGHTEN_COST, ctrl)
    drawn = turns.draw(world, s.views()["entity_id"][0, s.views()["player_col"][ctrl]], 1)
    return drawn[0] if drawn else -1


def stat(world: Game, e: int, name: str) -> IntRead:
    """A GA stat of ``e``: "power" and "life" (printed plus buff/debuff counters, Buff 1,
    Debuff 1), "durability" (the durability counters it has on the field, Stats:
    Durability 1; the printed stat elsewhere), "level" (LV: base level plus level
    counters on a champion, Level Counters 1-2). A stat that is not printed does not
    exist (InvalidTypeError), whatever counters the object has.

    Read per game: a level up leaves the games that ended as they were, so their card's
    stats may differ from the others'. In a batch a stat missing in some games the object
    is in (the games still going leveled up into a card without power, say) reads 0 there,
    as in an observation (``has:<stat>`` tells it apart); it raises only where no game has
    it."""
    s = world.store
    if not isinstance(name, str):
        raise InvalidTypeError(f"stat of entity {e}: a stat name (power, life, durability, level), got {name!r}")
    if name not in ("power", "life", "durability", "level"):
        raise InvalidTypeError(f"unknown stat {name!r}; expected power, life, durability or level")
    if name == "power":   # the reads' (per game in a batch, by ``pt_exists``)
        return reads.power(world, e)
    if name == "life":
        try:
            return reads.toughness(world, e)
        except InvalidTypeError:   # name the stat asked for, not the field it is kept in
            raise InvalidTypeError(f"entity {e} has no life stat (it is not printed)") from None
    k = s.kind_index.get(name)
    col = args.read_one(world, e)
    if col >= 0:   # one game: plain reads
        v = s.views()
        printed: int = v[name][0, col]
        if printed == NO_STAT:
            raise InvalidTypeError(f"entity {e} has no {name} stat (it is not printed)")
        n: int = v["counts"][k, 0, col] if k is not None else 0
        if name == "durability":
            return n if v["zone"][0, col] == zones.BATTLEFIELD else printed
        return printed + (n if v["types"][0, col] & _CHAMPION else 0)
    spot = args.column(world, e)
    printed_at = spot.take(s.a[name]).astype(np.int64)
    has = spot.here & (printed_at != NO_STAT)
    if not has.any():
        raise InvalidTypeError(f"entity {e} has no {name} stat (it is not printed)")
    count = spot.take(s.counts[k]).astype(np.int64) if k is not None else np.zeros(world.batch, np.int64)
    if name == "durability":
        return args.out(world, np.where(has, stats.counted(spot.take(s.a["zone"]), printed_at, count), 0))
    return args.out(world, np.where(has, stats.level(spot.take(s.a["types"]), printed_at, count), 0))


def base_level(world: Game, e: int) -> IntRead:
    """The printed level, per game (a level up leaves the games that ended at the level
    they had); level counters never change it (Level Counters 2). InvalidTypeError where
    no game has a level stat."""
    col = args.read_one(world, e)
    if col >= 0:   # one game: a plain read
        printed: int = world.store.views()["level"][0, col]
        if printed == NO_STAT:
            raise InvalidTypeError(f"entity {e} has no level stat")
        return printed
    spot = args.column(world, e)
    level = spot.take(world.store.a["level"]).astype(np.int64)
    has = spot.here & (level != NO_STAT)
    if not has.any():
        raise InvalidTypeError(f"entity {e} has no level stat")
    return args.out(world, np.where(has, level, 0))


def set_immortal(world: Game, e: Ids, immortal: Any = True, games: Games = None) -> None:
    """Declare whether objects have Immortality (Keywords: Immortality 1, a static
    ability; printed or granted, the host says which), per game: ``immortal`` is a bool,
    or bools that broadcast with the ids as the host's flags do (``ecs.host.flags``). An
    immortal object is not destroyed by the damage or durability checks, ``destroy`` or
    ``sacrifice``, and is not sacrificed by the wither trigger (Immortality 1.1, 1.2;
    Damage 13's hint). It is still banished, and ``move_zone`` still moves it
    (Immortality 2). A new object (after a zone change, Counters: General 5) is not
    immortal until declared again."""
    _ga_only(world, "set_immortal")
    col = args.one(world, e, games) if type(immortal) is bool else -1
    if col >= 0 and not world.store.views()["types"][0, col] & TYPE_BIT["player"]:   # one game's object
        world.store.write("immortal", (0, col), immortal)
        return
    g, c, single = args.targets(world, e, games)
    args.require(world, ~args.is_type(world, g, c, "player"), g, c, "is a player, not an object")
    args.distinct_rows(world, g, c, "set_immortal")   # (two flags for one object: which?)
    rows = host.flags(world, immortal, e, games, single, "set_immortal immortal")
    world.store.mut("immortal")[g, c] = rows


def is_immortal(world: Game, e: int) -> BoolRead:
    """Whether ``e`` has Immortality in each game (``set_immortal``; False where it is not,
    and for a player, which is never declared immortal)."""
    _ga_only(world, "is_immortal")
    return args.flag_of(world, e, "immortal")


def level_up(world: Game, champion: int, level: Amounts, life: Amounts,
             power: Amounts | Sequence[int | None] | None = None, games: Games = None) -> None:
    """Level up ``champion``: the next level champion card goes on top of its lineage
    (Champion: Leveling Up 1-7; Level Up 1). It is the same object (no zone change, 7.ii):
    its counters (damage, level, enlighten, ...) stay (Enlighten Counters 2), its base
    level becomes ``level``, which must be its base level + 1 (Leveling Up 2, Champion 7),
    and its life and power are the new card's (7.ii.d: the inner lineage's stats are
    ignored; ``power=None``: the new card has none). Damage counters are compared with
    the new life at the next check. Records an ``Acted`` event (cause ``ga.level_up``,
    before/after the base level) for the new card's "On Enter" abilities (Level Up 1).

    A level up acts in the selected games (``games``; None: every game still going) where
    the champion exists, and it must be a champion on the field of base level ``level`` - 1
    in each of them (a game that ended keeps its level: ``base_level`` is per game).
    ``level``, ``life`` and ``power`` are one value or one per selected game, in the order
    of ``games=`` (as a single id's amounts); a per-game ``power`` may hold None, the games
    whose new card has no power. Every game is checked before any changes."""
    _ga_only(world, "level_up")
    s = world.store
    spot = args.column(world, champion)
    if not s.a["types"][spot.g, spot.col] & TYPE_BIT["champion"]:   # (a card's types are every game's)
        raise IllegalActionError(f"entity {champion} is not a champion (GA Leveling Up 1)")
    sel = args.select_games(games, world.ongoing)   # (an ended game is frozen)
    chosen = np.zeros(world.batch, bool)
    chosen[sel] = True
    zone = np.where(spot.here & chosen, spot.take(s.a["zone"]), zones.NONE)
    off = (zone != zones.NONE) & (zone != zones.BATTLEFIELD)
    if off.any():
        raise IllegalActionError(f"champion {champion} is not on the field in game "
                                 f"{int(np.flatnonzero(off)[0])} (GA Leveling Up 8)")
    g = np.flatnonzero(zone == zones.BATTLEFIELD)
    # The base level of each game it levels up in: an ended game's may lag behind.
    base = spot.take(s.a["level"]).astype(np.int64)[g]
    if (base == NO_STAT).any():
        raise IllegalActionError(f"champion {champion} has no level stat to level up from")
    new = {}
    for stat, v in (("level", level), ("life", life), ("power", power)):
        per_game = np.full(world.batch, NO_STAT, np.int64)   # (None: no power)
        if v is not None or stat != "power":
            per_game[sel] = _level_up_values(world, v, stat, champion, sel, stat == "power")
        new[stat] = per_game[g]
    wrong = base != new["level"] - 1
    if wrong.any():
        i = int(np.flatnonzero(wrong)[0])
        where = "" if args.scalar(world) else f" in game {int(g[i])}"
        raise IllegalActionError(f"champion {champion} is level {int(base[i])}{where}: it levels up "
                                 f"into a level {int(base[i]) + 1} champion, not "
                                 f"{int(new['level'][i])} (GA Leveling Up 2)")
    c = s.locate(g, champion)   # its slot in each of those games
    s.mut("level")[g, c] = new["level"]
    s.mut("toughness")[g, c] = new["life"]
    s.mut("power")[g, c] = new["power"]
    world.log.next_step()
    world.log.record(ACTION, "ga.level_up", game=g, entity=champion, before=base, after=new["level"],
                     other=s.a["controller"][g, c])


def _level_up_values(world: Game, v: Any, stat: str, champion: int, sel: np.ndarray,
                     none_ok: bool) -> np.ndarray:
    """A level up's ``stat`` in each selected game ``sel``, (G,) int64: one value, or one per
    selected game in the order of ``games=`` ((G,) or (G, 1), as a single id's amounts,
    ``ecs.args``), each an integer of at most MAX_STAT in size; with ``none_ok`` a None
    entry (no such stat in that game's card) reads NO_STAT. The refusal names the game."""
    if args.is_integer(v) and -MAX_STAT <= cast(int, v) <= MAX_STAT:   # the common case
        return np.full(sel.size, int(cast(int, v)), np.int64)
    what = f"level_up of champion {champion}: {stat}"
    missing = None
    if none_ok and isinstance(v, (list, tuple, np.ndarray)):
        raw = args.array(v, what, "an integer or one per selected game", InvalidCountError)
        if raw.dtype == object:   # (None entries: no power in those games)
            missing = np.frompyfunc(lambda x: x is None, 1, 1)(raw).astype(bool)
            v = np.where(missing, 0, raw)
    try:
        arr = args.integer_array(v, what, -MAX_STAT, MAX_STAT, InvalidCountError)
    except InvalidCountError:
        cell = args.refused_cell(v, (sel.size, 1), True, -MAX_STAT, MAX_STAT)
        at, got = "", args.shown(v)
        if cell is not None:
            x = np.broadcast_to(np.asarray(v).reshape(-1, 1) if np.ndim(v) == 1 else v,
                                (sel.size, 1))[cell]
            got = repr(x.item() if isinstance(x, np.generic) else x)
            at = "" if args.scalar(world) else f" in game {int(sel[cell[0]])}"
        raise InvalidCountError(f"{what}{at} must be an integer of at most {MAX_STAT} in size, "
                                f"got {got}") from None
    try:
        out = _one_per_game(arr, sel.size).astype(np.int64)
    except ValueError:
        raise InvalidCountError(
            f"{what}: values of shape {np.shape(v)} for {sel.size} selected games: one value, or one per "
            "selected game in the order of games= (index a per-game array by the selection: "
            "v[games])") from None
    if missing is not None:
        out[_one_per_game(missing, sel.size)] = NO_STAT
    return out


def _one_per_game(arr: np.ndarray, n: int) -> np.ndarray:
    """``arr`` (one value, (n,) or (n, 1)) as (n,) values; ValueError where it doesn't fit."""
    if arr.ndim > 2 or (arr.ndim == 2 and arr.shape[1] != 1):
        raise ValueError(arr.shape)
    return np.broadcast_to(arr.reshape(-1, 1) if arr.ndim == 1 else arr, (n, 1))[:, 0]
