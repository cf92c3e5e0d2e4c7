"""A simple reference model of one game, for the Grand Archive rules and MTG rad counters.

Plain Python objects and loops, written from the rules (the GA comprehensive rules, CR 728,
505.1a, 704.5a/b) and the README's documented choices, never from the engine's code.
tests/test_differential_ga.py plays random action sequences on both and compares.

Cards are named; a card that changes zones keeps its name (the engine gives it a new id)
and loses its counters and damage (GA Counters, General 5; CR 400.7). Zones go by the
engine's canonical names ("battlefield", "exile", "library"); ``move_zone`` also takes
the Grand Archive names (field, banishment, deck, effects stack).
"""
from __future__ import annotations

import collections
from dataclasses import dataclass, field

UNITS = ("champion", "ally")
#: The GA zone names and the canonical names the engine keeps (its ``zone_aliases``).
GA_ZONES = {"field": "battlefield", "banishment": "exile", "deck": "library",
            "effects stack": "stack"}
PHASES = {True: True, False: False, "precombat": True, "first": True,
          "postcombat": False, "second": False}


class ModelError(Exception):
    """The model refused an action; ``kind`` is the engine exception class expected."""

    def __init__(self, kind: str, msg: str = "") -> None:
        super().__init__(f"{kind}: {msg}")
        self.kind = kind


@dataclass
class Card:
    name: str
    types: frozenset
    ctrl: int
    zone: str
    seq: int
    power: int | None = None
    life: int | None = None
    durability: int | None = None
    level: int | None = None
    counters: dict = field(default_factory=dict)
    damage: int = 0
    immortal: bool = False                                     # Keywords: Immortality
    owner: int = -1                                            # the controller it was made under
    slot: int = -1                                             # its column: kept through zone changes
    #: counters can't be put on it: part of the card, in every zone and through zone changes
    #: (add_object's no_counters, docs/api.md)
    no_counters: bool = False
    #: the kinds a host prohibited on this object ("*": every kind); the object's alone, so
    #: a zone change ends them (a new object, Counters General 5 / CR 400.7)
    banned: set = field(default_factory=set)
    #: a token: off the field it changes zones no more (CR 111.8) and ceases to exist at the
    #: next check (704.5d; GA Destruction 2 says only that a destroyed one is removed from
    #: the game, and the docs treat a GA token in a deck the same way)
    token: bool = False

    def has(self, t: str) -> bool:
        return t in self.types

    def count(self, kind: str) -> int:
        return self.counters.get(kind, 0)

    def add(self, kind: str, n: int) -> None:
        v = self.count(kind) + n
        if v > 0:
            self.counters[kind] = v
        else:
            self.counters.pop(kind, None)

    def stat(self, which: str) -> int:
        if which == "level":                                   # LV: Level 1, Level Counters 1-2
            return self.level + self.count("level")
        base = self.power if which == "power" else self.life
        return base + self.count("buff") - self.count("debuff")


@dataclass
class Player:
    life: int = 20
    reserve: int = 0
    lost: bool = False
    drew_empty: bool = False
    champion_left: bool = False
    counters: dict = field(default_factory=dict)
    library: list = field(default_factory=list)   # card names, top first
    banned: set = field(default_factory=set)      # as a card's


class Game:
    def __init__(self, ruleset: str, n_players: int) -> None:
        self.ga = ruleset == "grand_archive"
        self.players = [Player() for _ in range(n_players)]
        self.cards: dict[str, Card] = {}
        self.result = "ongoing"       # or "draw" or a player index
        self.active = -1
        self._seq = 0
        self._made = 0                # objects made: the next one's slot
        self.reached: collections.Counter[str] = collections.Counter()   # rule -> times applied
        #: each zone change, with last-known information (CR 400.7, 704.8 / GA Counters,
        #: General 5: the counters it had just before, its controller then): (name, from
        #: zone, to zone or "none" when it ceased to exist, counters, controller, cause)
        self.zone_log: list[tuple] = []
        #: every other event a host reads, as docs/api.md and docs/rules-grand-archive.md
        #: say the engine records them (cards by name, players by index), in the order made:
        #: ("counter", card or player, kind, before, after, cause, by: the player who puts
        #: them, or None where no player is named, every removal too), ("reserve", player,
        #: before, after, cause), ("acted", card, player, kind, before, after, cause),
        #: ("damage", target, source or None, amount, dealt, cause), ("lost", player,
        #: cause), ("ended", winner or None, cause)
        self.events: list[tuple] = []

    # ---- setup -----------------------------------------------------------------------
    def add(self, name: str, ctrl: int, types, zone: str = "battlefield", no_counters: bool = False,
            **stats) -> Card:
        # Slots go in the order made: no object is made once one ceased to exist and freed its.
        c = Card(name, frozenset(types), ctrl, zone, self._seq, owner=ctrl, slot=self._made,
                 no_counters=no_counters, **stats)
        self._seq += 1
        self._made += 1
        self.cards[name] = c
        if zone == "library":
            self.players[ctrl].library.append(name)
        self._enter(c)
        return c

    def _enter(self, c: Card) -> None:
        """A card that enters the field, made there or moved there: "Cards with a
        durability stat will enter the field with a number of durability counters equal
        to that stat" (GA Counters: Durability 1; Stats: Durability 3; Weapon 4.i). The rule
        names no player: they are put by its controller, as docs/api.md says of an object's
        printed loyalty (its own, whoever ``put_by`` names); none where it can't have them."""
        if c.zone == "battlefield" and self.ga and c.durability and self.can_have(c, "durability"):
            c.counters["durability"] = c.durability
            self.events.append(("counter", c.name, "durability", 0, c.durability, "enter", c.ctrl))
            self.reached["Durability 1"] += 1

    @property
    def over(self) -> bool:
        return self.result != "ongoing"

    # ---- zone changes ----------------------------------------------------------------
    def move(self, c: Card, zone: str, cause: str) -> None:
        """Put card ``c`` into ``zone`` (a canonical name), for ``cause`` (the event's: "zone"
        for move_zone, "destroy", "sacrifice", "draw", "mill", or a check's rule).

        * GA Champion 8 (Card Types - Champion, General Rules 8): "If a Champion card would
          be put into a graveyard from anywhere, it is instead banished" (from any zone).
        * A champion already in banishment that would go to the graveyard is banished
          instead, where it is: it does not change zones, so it keeps its counters (GA
          Game Mechanics - Counters, General Rules 5: "Counters persist on an object or card in a zone as long as
          it does not change zones"), and stays the card it was.
        * Otherwise it is a new object (Counters, General 5: "Moving a card to another zone
          causes its counters to be lost"; CR 400.7): no counters, no marked damage, not
          immortal (the host declares it again, Keywords: Immortality), its owner's, under
          its owner's control. A champion too: Champion, Leveling Up 7.ii.a ("When a
          champion leaves or enters the field, it will do so with ... its counters") is
          read as docs/rules-grand-archive.md writes down, against General 5 and 7.ii.c.
        * A card put into a deck goes to its bottom (the engine's choice, CR 401.4 leaves
          it to the owner); one entering the field gets its durability counters (Durability
          1). A controller that loses a champion from the field has "previously controlled
          a champion" (Ending the Game 5).
        """
        if c.token and c.zone != "battlefield":               # CR 111.8: it stays
            self.reached["111.8 a token stays"] += 1
            return
        if self.ga and c.has("champion") and zone == "graveyard":
            zone = "exile"                                     # GA Champion 8
            self.reached["Champion 8"] += 1
        if zone == c.zone:                                     # banished where it is
            self.reached["Champion 8 in banishment"] += 1
            return
        self.zone_log.append((c.name, c.zone, zone, dict(c.counters), c.ctrl, cause))
        if c.zone == "library":
            self.players[c.owner].library.remove(c.name)
        if self.ga and c.has("champion") and c.zone == "battlefield":
            self.players[c.ctrl].champion_left = True
        c.zone, c.counters, c.damage, c.immortal = zone, {}, 0, False   # a new object
        c.banned = set()                                       # (the prohibitions were the old one's)
        c.ctrl = c.owner                                       # under its owner's control (400.7)
        c.seq = self._seq
        self._seq += 1
        if zone == "library":
            self.players[c.owner].library.append(c.name)      # its bottom
        self._enter(c)

    def move_zone(self, cards: list[Card], zone: str, counters: dict | None = None,
                  by: int | None = None) -> None:
        """The engine's ``move_zone``: the cards in the order named, each to ``zone`` (a GA
        or canonical name), at once. A card named twice, or one already in ``zone`` (before
        any replacement), refuses the whole call. It is a rule-driven move: it moves an
        immortal object too, to the graveyard as well (the engine's documented choice,
        Immortality 2; a host effect that would "send" one checks the flag itself).
        ``counters`` are put on each card that arrives in ``zone``, kind by kind in the order
        given (cause "enter" on the field, else "put"), by ``by``, else its new controller, its
        owner; a card a replacement sends elsewhere (Champion 8: banished instead) gets none
        (docs/api.md)."""
        zone = GA_ZONES.get(zone, zone) if self.ga else zone
        if len({c.name for c in cards}) < len(cards):
            raise ModelError("IllegalActionError", "a card named twice")
        if any(c.zone == zone for c in cards):
            raise ModelError("IllegalActionError", f"already in the {zone}")
        for c in cards:
            self.move(c, zone, "zone")
        for c in cards:
            if c.zone != zone:
                self.reached["Champion 8, no arriving counters"] += bool(counters) and not c.token
                continue
            for kind, n in (counters or {}).items():
                self.put(c, kind, n, cause="enter" if zone == "battlefield" else "put",
                         by=c.ctrl if by is None else by)

    # ---- counters ----------------------------------------------------------------------
    def _key(self, c) -> str | int:
        """An entity as the events name it: a card's name, a player's index."""
        if isinstance(c, Player):   # (by identity: players equal in every field are two)
            return next(i for i, p in enumerate(self.players) if p is c)
        return c.name

    def can_have(self, c, kind: str, count: bool = True) -> bool:
        """Whether ``kind`` counters can be put on card or player ``c``: not on one made with
        ``no_counters``, nor of a kind prohibited there ("*": every kind). Where they can't,
        a put, a move onto it and entering with them put none, silently (docs/api.md,
        Prohibitions; CR 101.3, 122.5). ``count``: note the refusal in ``reached``."""
        if getattr(c, "no_counters", False):
            self.reached["101.3 no_counters"] += count
            return False
        if "*" in c.banned or kind in c.banned:
            self.reached["101.3 prohibited" + ("" if kind in c.banned else ", every kind")] += count
            return False
        return True

    def is_prohibited(self, c, kind: str | None = None) -> bool:
        """The engine's ``is_prohibited``: ``kind`` None asks for a prohibition of every kind."""
        if kind is None:
            return getattr(c, "no_counters", False) or "*" in c.banned
        return not self.can_have(c, kind, count=False)

    def prohibit(self, c, kind: str | None = None) -> None:
        c.banned.add("*" if kind is None else kind)

    def allow(self, c, kind: str | None = None) -> None:
        """``None`` ends every prohibition; a kind ends its own, and a prohibition of every
        kind outlasts it (docs/api.md, Prohibitions)."""
        self.reached["allow" + (", every kind" if kind is None else "")] += bool(c.banned)
        if kind is None:
            c.banned.clear()
        else:
            c.banned.discard(kind)

    def put(self, c, kind: str, n: int, cause: str = "put", by: int | None = None) -> None:
        """Put ``n`` counters by player ``by`` (None: the action names none): one event for
        them all, whatever cancels (``cause``: "put", "enter" as it arrives, "move"), none
        where it can't have them. Buff 4 / Debuff 4: the placed kind and the other then lose
        as many as cancel, cause ga.placement, a removal no player makes
        (docs/rules-grand-archive.md)."""
        if n <= 0 or not self.can_have(c, kind):
            return
        if by is not None and by != (self._key(c) if isinstance(c, Player) else c.ctrl):
            self.reached["put by another player"] += 1
        before = c.counters.get(kind, 0)
        self.events.append(("counter", self._key(c), kind, before, before + n, cause, by))
        if isinstance(c, Player):
            c.counters[kind] = before + n
            return
        c.add(kind, n)
        if self.ga and kind in ("buff", "debuff"):             # Buff 4 / Debuff 4
            other = "debuff" if kind == "buff" else "buff"
            m = min(c.count(kind), c.count(other))
            self.reached["Buff 4 / Debuff 4"] += m > 0
            for k in (kind, other) if m else ():
                self.events.append(("counter", c.name, k, c.count(k), c.count(k) - m, "ga.placement", None))
            c.add(kind, -m)
            c.add(other, -m)

    def remove(self, c, kind: str, n: int, cost: bool = False, cause: str = "remove") -> None:
        """``cost``: removing them is a cost, paid in full or not at all (CR 118.3; the
        engine's remove_counters(cost=True), which a Grand Archive World takes as is).
        An event where any is removed."""
        holder = c.counters
        if cost and holder.get(kind, 0) < n:
            raise ModelError("UnpayableCostError", f"fewer than {n} {kind} counters")
        v = max(holder.get(kind, 0) - n, 0)
        if v < holder.get(kind, 0):
            self.events.append(("counter", self._key(c), kind, holder[kind], v, cause, None))
        if v:
            holder[kind] = v
        else:
            holder.pop(kind, None)

    def move_counters(self, src: Card, dst: Card, kind: str | None, n: int | None,
                      by: int | None = None) -> int:
        """The engine's ``move_counters`` between two cards (zone="battlefield"): nothing
        where they are the same card or either is off the field; else up to ``n`` (None:
        one of a kind, all of every kind) of each kind ``src`` has (CR 122.5, 101.3), put on
        ``dst`` as any put is, so that buff and debuff cancel as they arrive (Buff 4 /
        Debuff 4), by ``by``; a kind ``dst`` can't have stays on ``src`` (122.5). Returns how
        many moved. (``src`` never holds both buff and debuff, so the order the kinds move in
        changes nothing here.)"""
        if src is dst or src.zone != "battlefield" or dst.zone != "battlefield":
            return 0
        moved, most = 0, n if n is not None else 1 if kind is not None else None
        for k in ([kind] if kind is not None else sorted(src.counters)):
            m = src.count(k) if most is None else min(src.count(k), most)
            if m > 0 and not self.can_have(dst, k):
                self.reached["122.5 move, none where dst can't have them"] += 1
            elif m > 0:
                self.remove(src, k, m, cause="move")
                self.put(dst, k, m, cause="move", by=by)
                self.reached["122.5 move, Buff 4" if k in ("buff", "debuff") and dst.count(k) < m
                             else "122.5 move"] += 1
                moved += m
        return moved

    # ---- reserve -------------------------------------------------------------------------
    def pay_reserve(self, p: int, n: int) -> None:
        """Paying is all-or-nothing (Costs and Memory; the engine's InsufficientReserveError)."""
        if self.players[p].reserve < n:
            raise ModelError("InsufficientReserveError", f"player {p} can't pay {n}")
        if n > 0:
            r = self.players[p].reserve
            self.events.append(("reserve", p, r, r - n, "ga.reserve"))
        self.players[p].reserve -= n

    def gain_reserve(self, p: int, n: int) -> None:
        self.players[p].reserve += n

    # ---- control ---------------------------------------------------------------------------
    def set_controller(self, c: Card, p: int) -> None:
        """A player gives up a champion on the field: they "previously controlled a
        champion" (Ending the Game 5), as when it leaves."""
        if self.ga and c.has("champion") and c.zone == "battlefield" and c.ctrl != p:
            self.players[c.ctrl].champion_left = True
        c.ctrl = p

    # ---- destroy and sacrifice ---------------------------------------------------------
    def destroy(self, cards: list[Card], sacrifice: bool) -> None:
        """Destroy (or sacrifice) cards on the field; an immortal one stays (Immortality 1,
        1.ii); a sacrificed champion or regalia is banished (Sacrifice 2)."""
        if any(c.zone != "battlefield" for c in cards):
            raise ModelError("IllegalActionError", "not on the field")
        for c in {c.name: c for c in cards}.values():
            if c.immortal:
                self.reached["Immortality 1 destroy"] += 1
                continue
            banish = sacrifice and (c.has("champion") or c.has("regalia"))
            self.reached["Sacrifice 2"] += banish
            self.move(c, "exile" if banish else "graveyard", "sacrifice" if sacrifice else "destroy")

    # ---- GA actions ----------------------------------------------------------------------
    def deal_damage(self, c: Card, n: int, combat: bool, unpreventable: bool,
                    source: Card | None = None) -> None:
        """One instance of damage (``source``: the object dealing it, in any zone): a
        ``DamageDealt`` event of what would be dealt and what was (0 where a bulwark
        counter prevented it); its counters put or removed have cause "damage"."""
        if not (c.zone == "battlefield" and any(c.has(t) for t in UNITS)):
            raise ModelError("IllegalActionError", "not a unit on the field")
        if n <= 0:                             # checked target, dealt nothing (Damage 15: below 0 is 0)
            return                             # (0 damage is no event, CR 120.8)
        prevented = combat and c.count("bulwark") and not unpreventable
        self.reached["damage from a source"] += source is not None
        self.events.append(("damage", c.name, source and source.name, n, 0 if prevented else n,
                            "combat damage" if combat else "damage"))
        if combat and c.count("bulwark"):
            self.remove(c, "bulwark", 1, cause="damage")      # Bulwark 2-4
            self.reached["Bulwark 2 unpreventable" if unpreventable else "Bulwark 2"] += 1
            if not unpreventable:
                return
        if c.has("champion"):
            # Damage 1: "placed whenever a champion is dealt any type of damage": by no player
            # the rules name (Magic's 120.3d names the source's controller); none where the
            # champion can't have them (dealt, and no counter shows it)
            if self.can_have(c, "damage"):
                self.events.append(("counter", c.name, "damage", c.count("damage"),
                                    c.count("damage") + n, "damage", None))
                c.add("damage", n)
                self.reached["Damage 1"] += 1
        else:
            c.damage += n                                      # Damage 12
            self.reached["Damage 12"] += 1

    def deal_damage_many(self, hits: list[tuple[Card, int]], combat: bool, unpreventable: bool,
                         sources: list[Card | None] | None = None) -> None:
        """One ``deal_damage`` call naming several units (an amount each, ``sources`` a
        source each): every target must be a unit on the field, or the call deals nothing.
        Each amount below 0 is dealt as 0 (Damage 15); a unit named twice is dealt its
        amounts together, as one instance (so one bulwark counter at most, Bulwark 2), each
        unit in the order first named; so one named twice with two sources is refused
        (each source's damage is an instance of its own, Damage 16)."""
        sources = sources or [None] * len(hits)
        for c, _ in hits:
            if not (c.zone == "battlefield" and any(c.has(t) for t in UNITS)):
                raise ModelError("IllegalActionError", "not a unit on the field")
        total: dict[str, int] = {}
        by: dict[str, Card | None] = {}
        for (c, n), s in zip(hits, sources):
            if by.setdefault(c.name, s) is not s:
                raise ModelError("IllegalActionError", "a unit dealt damage by several sources")
            total[c.name] = total.get(c.name, 0) + max(n, 0)
        self.reached["deal_damage, several units at once"] += len(total) > 1
        for name, n in total.items():
            self.deal_damage(self.cards[name], n, combat, unpreventable, by[name])

    def recover(self, c: Card, n: int, cost: bool) -> None:
        if not (self.ga and c.has("champion") and c.zone == "battlefield"):
            raise ModelError("IllegalActionError", "not a champion on the field")
        if cost and c.count("damage") < n:
            raise ModelError("UnpayableCostError", "too few damage counters")
        self.reached["Recover 2"] += min(n, c.count("damage")) > 0
        before = c.count("damage")
        self.remove(c, "damage", n, cause="ga.recover")       # Recover 2.1, 2.2
        if n > 0:   # recorded even when no counter changes (Recover 2.1.1); a recover
            # of 0 is none (the engine's reading, as 0 damage is no damage, CR 120.8)
            self.events.append(("acted", c.name, c.ctrl, "damage", before, c.count("damage"), "ga.recover"))

    def enlighten(self, c: Card) -> None:
        if c.zone != "battlefield":
            raise ModelError("IllegalActionError", "not on the field")
        if c.count("enlighten") < 3:
            raise ModelError("UnpayableCostError", "fewer than 3 enlighten counters")
        before = c.count("enlighten")
        self.remove(c, "enlighten", 3, cause="ga.enlighten")
        self.events.append(("acted", c.name, c.ctrl, "enlighten", before, before - 3, "ga.enlighten"))
        self.reached["Enlighten"] += 1
        self.draw(c.ctrl, 1)

    def draw(self, p: int, n: int) -> None:
        """One card at a time (CR 121.2); from an empty library (deck) a loss at the next
        check (704.5b; GA Ending the Game 5). A token on top (it left the field) stays
        there (111.8), so that draw and every later one draw nothing, and the library is not
        empty (docs)."""
        lib = self.players[p].library
        for _ in range(n):
            if not lib:
                self.players[p].drew_empty = True
                break
            if self.cards[lib[0]].token:
                self.reached["111.8 a draw finds a token on top"] += 1
                break   # (each later draw finds it there again)
            self.move(self.cards[lib[0]], "hand", "draw")

    def mill(self, p: int, n: int) -> list[Card]:
        """The top ``n`` cards at once (CR 701.17a); a token among them stays in its place
        (111.8, docs: ``n`` counts it) and the others go."""
        top = [self.cards[name] for name in self.players[p].library[:n]]
        self.reached["111.8 a token milled stays"] += sum(c.token for c in top)
        out = [c for c in top if not c.token]
        for c in out:
            self.move(c, "graveyard", "mill")
        return out

    def cleanup(self) -> None:
        for c in self.cards.values():
            c.damage = 0
            if c.zone == "battlefield" and c.has("ally") and not c.has("champion"):
                self.reached["Types of Checks 6"] += c.count("damage") > 0
                self.remove(c, "damage", c.count("damage"), cause="cleanup")   # Types of Checks 6

    def level_up(self, c: Card, level: int, life: int, power) -> None:
        if not c.has("champion") or c.zone != "battlefield" or c.level is None:
            raise ModelError("IllegalActionError", "not a champion on the field with a level")
        if level != c.level + 1:                               # Leveling Up 2
            raise ModelError("IllegalActionError", "not the next level")
        self.events.append(("acted", c.name, c.ctrl, None, c.level, level, "ga.level_up"))
        c.level, c.life, c.power = level, life, power          # counters stay (7.ii)
        self.reached["Leveling Up 2"] += 1

    # ---- state-based checks -------------------------------------------------------------
    def _lose(self, losers: list[int], causes: list[str]) -> None:
        for p, cause in zip(losers, causes):
            self.players[p].lost = True
            self.events.append(("lost", p, cause))
        left = [i for i, p in enumerate(self.players) if not p.lost]
        if not left:
            self.result = "draw"
            self.events.append(("ended", None, "104.4a"))
        elif len(left) == 1:
            self.result = left[0]
            self.events.append(("ended", left[0], "104.2a"))
        elif self.ga:   # Ending the Game 8: back under its owner's control, at once
            for c in self.cards.values():
                if c.ctrl in losers and c.owner != c.ctrl:
                    c.ctrl = c.owner
                    self.reached["Ending the Game 8"] += 1

    def tick(self) -> None:
        while not self.over and self._check():
            pass

    def _check(self) -> bool:
        ps = self.players
        cease = [c for c in self.cards.values() if c.token and c.zone != "battlefield"]
        for c in cease:   # CR 704.5d, first (the engine's ZoneChange system is first in both rulesets)
            self.reached["704.5d"] += 1
            if c.zone == "library":
                ps[c.owner].library.remove(c.name)
            self.zone_log.append((c.name, c.zone, "none", dict(c.counters), c.ctrl, "704.5d"))
            del self.cards[c.name]
        if cease:
            return True
        if self.ga:
            on_field = [c for c in self.cards.values() if c.zone == "battlefield"]
            controls = {c.ctrl for c in on_field if c.has("champion")}
            losers = [i for i, p in enumerate(ps) if not p.lost and (
                p.drew_empty or (p.champion_left and i not in controls))]
            for i in losers:
                self.reached["Ending the Game 5 empty draw" if ps[i].drew_empty
                             else "Ending the Game 5 no champion"] += 1
            self.reached["Ending the Game 6 all remaining lose"] += bool(losers) and len(losers) == sum(
                not p.lost for p in ps)
            if losers:                                          # Types of Checks 1: first
                # one loss each, under the cause first in ecs.events.CAUSES where both hold
                # (the engine's choice; the rules name no cause)
                self._lose(losers, ["ga.champion" if ps[i].champion_left and i not in controls
                                    else "draw" for i in losers])
                return True
            # Ending the Game 7: a lost player's cards leave the game; decided on the same
            # state as the other checks and performed with them (docs/rules-grand-archive.md),
            # a card of theirs that would die or break leaves instead: one zone change, to
            # nowhere, not a death (the choice the docs write down)
            leave = [c for c in self.cards.values() if ps[c.owner].lost]
            staying = [c for c in on_field if not ps[c.owner].lost]
            lethal = [c for c in staying if any(c.has(t) for t in UNITS) and c.life is not None
                      and c.damage + c.count("damage") >= c.stat("life")]
            dies = [c for c in lethal if not c.immortal]
            broken = [c for c in staying if (c.has("weapon") or c.has("siegeable"))
                      and c.durability is not None and c.count("durability") == 0
                      and not c.immortal]
            self.reached["Immortality 1 lethal damage"] += len(lethal) - len(dies)
            self.reached["Types of Checks lethal damage"] += len(dies)
            self.reached["Types of Checks lethal damage, several at once"] += len(dies) > 1
            self.reached["Durability 0"] += len(broken)
            self.reached["Ending the Game 7"] += len(leave)
            for c in dies + [c for c in broken if c not in dies]:   # (Types of Checks 2, 3)
                self.move(c, "graveyard", "ga.damage" if c in dies else "ga.durability")
            for c in leave:
                if c.zone == "library":
                    ps[c.owner].library.remove(c.name)
                if c.has("champion") and c.zone == "battlefield":
                    # Ending the Game 9: it has "left the field of play", so its controller
                    # (another player's, who held it) "previously controlled a champion" (5).
                    ps[c.ctrl].champion_left = True
                    self.reached["Ending the Game 9"] += c.ctrl != c.owner
                self.zone_log.append((c.name, c.zone, "none", dict(c.counters), c.ctrl, "ga.left_game"))
                del self.cards[c.name]
            return bool(dies or broken or leave)
        losers = [i for i, p in enumerate(ps) if not p.lost and (p.life <= 0 or p.drew_empty)]
        for i in losers:
            self.reached["704.5a" if ps[i].life <= 0 else "704.5b"] += 1
        if losers:
            self._lose(losers, ["704.5a" if ps[i].life <= 0 else "draw" for i in losers])
        return bool(losers)

    # ---- main phases --------------------------------------------------------------------
    def begin_main_phase(self, player: int | None, precombat, pay: str = "most") -> None:
        if not (isinstance(precombat, (bool, str)) and precombat in PHASES):
            raise ModelError("InvalidPhaseError", repr(precombat))
        if player is not None and self.players[player].lost:
            raise ModelError("IllegalActionError", "player has lost")
        self.tick()
        if self.over:
            return
        if player is None:
            n = len(self.players)
            order = [(self.active + 1 + k) % n for k in range(n)]
            player = next(i for i in order if not self.players[i].lost)
        elif self.players[player].lost:
            return
        self.active = player
        if PHASES[precombat]:
            (self._wither if self.ga else self._rad)(player, pay)
        self.tick()

    def _wither(self, p: int, pay: str) -> None:
        """Wither 3-4, at the beginning of ``p``'s precombat main phase. ``pay``: "most" (the
        engine's pay_most, docs/rules-grand-archive.md: champions first, then the others,
        each group cheapest first, ties to the lower slot; never an immortal one), "nothing",
        or "every" (a policy paying for each candidate, which overpays: refused)."""
        cand = [c for c in self.cards.values()
                if c.zone == "battlefield" and c.ctrl == p and c.count("wither")]
        budget, paid = self.players[p].reserve, []
        if pay == "most":   # champions first, then the others; cheapest, then the lower slot
            for champ in (True, False):
                group = [c for c in cand if c.has("champion") == champ and not c.immortal]
                for c in sorted(group, key=lambda c: (c.count("wither"), c.slot)):
                    if c.count("wither") <= budget:             # in full (Wither 3)
                        budget -= c.count("wither")
                        paid.append(c)
        elif pay == "every":   # a host's policy paying for all, the immortal too
            cost = sum(c.count("wither") for c in cand)
            if cost > budget:                                   # Wither 3: the call is undone
                raise ModelError("InsufficientReserveError", f"can't pay {cost}")
            budget, paid = budget - cost, list(cand)
            self.reached["Wither 3 paid by a host's policy"] += bool(cand)
        if budget < self.players[p].reserve:                   # one payment for them all
            self.events.append(("reserve", p, self.players[p].reserve, budget, "ga.wither"))
        self.players[p].reserve = budget
        for c in cand:
            if c in paid or c.immortal:                         # Immortality 1.2
                self.reached["Wither 3 paid" if c in paid else "Immortality 1.2 wither"] += 1
                self.remove(c, "wither", c.count("wither"), cause="ga.wither")   # Wither 4
            else:                                               # Sacrifice 2
                self.reached["Wither 4 sacrificed"] += 1
                self.move(c, "exile" if (c.has("champion") or c.has("regalia")) else "graveyard",
                          "sacrifice")

    def _rad(self, p: int, pay: str) -> None:
        pl = self.players[p]
        r = pl.counters.get("rad", 0)
        if not r:
            return
        nonland = sum(not c.has("land") for c in self.mill(p, r))   # CR 728.1
        self.reached["728.1 rad"] += 1
        self.reached["728.1 rad, a nonland milled"] += nonland > 0
        pl.life -= nonland
        self.remove(pl, "rad", nonland, cause="rad")
