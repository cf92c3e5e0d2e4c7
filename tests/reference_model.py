"""A deliberately simple reference model of the MTG counter rules (one game, plain dicts).

This is the oracle of the differential tests (tests/test_differential.py): it is written
straight from the rule text (MTG Comprehensive Rules, April 17, 2026, as quoted in
the rules texts) and from the choices documented in docs/rules-mtg.md ("Where the rules leave a choice (and
what we chose)". It is slow on purpose: no NumPy, no vectorization, no cleverness, so that
each branch can be read against the rule it cites.

Layout:

* A player is a dict (life, counters, lost flag, team). In Two-Headed Giant the team's life
  and poison counters are stored on the team's first player, the "head" (810.10).
* An object is a dict of its characteristics (copied when it changes zones) and its state
  (zone, counters, caps, tapped, marked damage, deathtouch hit). Counters are a dict
  kind -> count that never holds a zero entry.
* A zone change creates a new object with a new id; the old id becomes stale (400.7).
* State-based actions are decided on one snapshot and performed together, repeated until
  a check performs nothing (704.3).
* A library is a list of object ids, top card first, kept per owner (400.3); a card that
  arrives goes to the bottom (docs). Cards that arrive in one library in one check are an
  order their owner chooses (401.4): the model notes them in ``library_choices`` for the
  tests to take the engine's choice, as they take its shuffles.

Errors carry the same class names as the engine's (ecs.errors) so the tests can compare
them; they are defined here so this module imports nothing from the engine.
"""
from __future__ import annotations

import collections
import copy
import numbers
import re

MAX_COUNT = 2**31 - 1  # docs: counts are int32; nothing wraps
# the host's rules of tests/host_rules.py, restated: Doom exiles at 3 doom counters, Curse
# makes a player with 3 curse counters lose
HOST_DOOM = HOST_CURSE = 3

# 122.1b: the keywords a keyword counter can be (variants start with one of these).
KEYWORDS = (
    "flying", "first strike", "double strike", "deathtouch", "decayed", "exalted",
    "haste", "hexproof", "indestructible", "lifelink", "menace", "reach", "shadow",
    "trample", "vigilance",
)
# 300.1 (card types of the MTG ruleset).
CARD_TYPES = ("artifact", "battle", "creature", "enchantment", "instant", "kindred", "land",
              "planeswalker", "sorcery")
# 400.1: the zones (the ante zone is not modelled), and the Grand Archive's memory, which
# docs/api.md names among every World's zones: an object there is simply off the battlefield
ZONES = ("library", "hand", "battlefield", "graveyard", "stack", "exile", "command", "memory")

# docs "Kind names": lowercase words of a-z0-9 joined by single spaces or hyphens (at
# most 40 characters), or a power/toughness kind +X/+Y or -X/-Y (122.1a).
MAX_KIND_LENGTH = 40
_WORDS = re.compile(r"[a-z0-9]+(?:[ -][a-z0-9]+)*")
_PT = re.compile(r"([+-])(0|[1-9]\d{0,2})/([+-])(0|[1-9]\d{0,2})")   # no leading zeros


# ---------------------------------------------------------------------------------------
# Errors (same names as ecs.errors; docs: bad input raises and changes nothing)
class CounterError(Exception):
    pass


class UnknownEntityError(CounterError):
    pass


class StaleEntityError(UnknownEntityError):
    pass


class InvalidKindError(CounterError):
    pass


class InvalidCountError(CounterError):
    pass


class CountOverflowError(InvalidCountError):
    pass


class InvalidZoneError(CounterError):
    pass


class InvalidTypeError(CounterError):
    pass


class InvalidGameError(CounterError):
    pass


class IllegalActionError(CounterError):
    pass


class GameOverError(CounterError):
    pass


class InvalidPhaseError(CounterError):
    pass


class UnpayableCostError(IllegalActionError):
    """118.3: a cost that can't be paid in full; ``short``: the entities (holders) that
    have fewer counters than the cost needs."""

    def __init__(self, message, short):
        super().__init__(message)
        self.short = short


# ---------------------------------------------------------------------------------------
# Kinds
def validate_kind(kind):
    """docs "Kind names"; anything else raises InvalidKindError."""
    if not isinstance(kind, str):
        raise InvalidKindError(f"kind {kind!r} is not a str")
    if len(kind) > MAX_KIND_LENGTH:
        raise InvalidKindError(f"kind {kind!r} is longer than {MAX_KIND_LENGTH}")
    if _WORDS.fullmatch(kind):
        return kind
    m = _PT.fullmatch(kind)
    # 122.1a names +X/+Y and -X/-Y counters: both signs are the same, and one changes something.
    if m and m.group(1) == m.group(3) and (m.group(2), m.group(4)) != ("0", "0"):
        return kind
    raise InvalidKindError(f"malformed kind {kind!r}")


def pt_of(kind):
    """(X, Y) of a +X/+Y or -X/-Y counter (122.1a); None for any other kind."""
    m = _PT.fullmatch(kind)
    if not m or m.group(1) != m.group(3):
        return None
    sign = 1 if m.group(1) == "+" else -1
    return sign * int(m.group(2)), sign * int(m.group(4))


def keyword_of(kind):
    """The keyword a keyword counter grants (122.1b), variants included; else None."""
    for k in KEYWORDS:
        if kind == k or kind.startswith(k + " "):
            return k
    return None


def validate_count(n):
    """107.1 (integers only), 107.1b (no negative numbers), docs int32 range."""
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise InvalidCountError(f"amount {n!r} is not an integer")
    n = int(n)
    if n < 0 or n > MAX_COUNT:
        raise InvalidCountError(f"amount {n} is outside 0..{MAX_COUNT}")
    return n


def add_count(counters, kind, n, what):
    """counters[kind] + n, or CountOverflowError (docs: nothing wraps)."""
    total = counters.get(kind, 0) + n
    if total > MAX_COUNT:
        raise CountOverflowError(f"{what}: {kind} would reach {total}")
    return total


def set_count(counters, kind, value):
    """Store a count, keeping no zero entries (docs: a kind at 0 does not exist)."""
    if value:
        counters[kind] = value
    else:
        counters.pop(kind, None)


# ---------------------------------------------------------------------------------------
# A host's "can't have counters" of a class of objects (the engine's ruleset hook
# ``can_have``): a predicate ``(types, controller, zone, kind) -> bool`` over what the
# object (or player: types {"player"}, its own id as controller, no zone) is, True where it
# can have ``kind`` counters put on it. 109.2: "artifact", "creature" and so on without
# "card" mean permanents, so these ask the zone.
PERMANENT_CLASSES = {"artifact", "creature", "enchantment", "land"}


def solemnity(types, controller, zone, kind):
    """Solemnity: "Players can't get counters. Counters can't be put on artifacts,
    creatures, enchantments, or lands." """
    if "player" in types:
        return False
    return not (zone == "battlefield" and types & PERMANENT_CLASSES)


def melira(you):
    """Melira, Sylvok Outcast, controlled by player ``you`` (a model id): "You can't get
    poison counters. Creatures you control can't have -1/-1 counters put on them." """
    def can_have(types, controller, zone, kind):
        if kind == "poison" and "player" in types and controller == you:
            return False
        if kind == "-1/-1" and zone == "battlefield" and "creature" in types and controller == you:
            return False
        return True
    return can_have


# ---------------------------------------------------------------------------------------
class RefGame:
    """One MTG game. Same action and read methods as ecs.World with batch == 1."""

    def __init__(self, ruleset="mtg", batch=1, seed=None, two_headed_giant=False, host_rules=False,
                 can_have=None):
        assert ruleset == "mtg" and batch == 1, "the reference model is one MTG game"
        self.thg = bool(two_headed_giant)
        # a host's "can't have counters" of a class of objects (``solemnity``, ``melira``)
        self.can_have = can_have
        # the host's own state-based rules of tests/host_rules.py, checked with 704's (704.3)
        self.host_rules = host_rules
        self.next_id = 0
        self.players = {}     # id -> player dict
        self.team_of = {}     # player id -> team label
        self.team_players = {}  # team label -> [player ids], first one is the head
        self.objects = {}     # live object id -> object dict
        self.stale = set()    # ids of objects that changed zones or ceased to exist (400.7)
        # in order: zone changes and tokens ceasing to exist ("zone", "cease"), damage events
        # ("damage"), tapped-status changes ("tap"), losses ("lost") and the end ("end")
        self.events = []
        # every put, in order: {"entity", "kind", "by"} (the player who puts them: 122.6a
        # entering, 120.3b/d a damage source's controller; None where the action names
        # none), kept apart from ``events``, whose order and kinds the hand-computed
        # examples read
        self.puts = []
        # how often each rule (or case the tests want covered) was applied or seen at a
        # check: read by the tests' coverage counts only, it decides nothing
        self.reached = collections.Counter()
        self.outcome = "ongoing"
        self._recorded_losses = set()
        self.libraries = {}    # owner id -> [object ids], top card first (400.3, 401.1)
        self.library_choices = []   # [(owner, {ids})]: arrived together, in an order chosen (401.4)
        self.active = []       # the turn players (505, 805.4 in 2HG), seat order

    # ---- ids ---------------------------------------------------------------------------
    def _new_id(self):
        i = self.next_id
        self.next_id += 1
        return i

    def _check_id(self, e):
        """A live id, or the docs's errors: never existed -> Unknown, left -> Stale."""
        if isinstance(e, bool) or not isinstance(e, numbers.Integral):
            raise UnknownEntityError(f"id {e!r} is not an integer")
        e = int(e)
        if e in self.players or e in self.objects:
            return e
        if e in self.stale:
            raise StaleEntityError(f"entity {e} changed zones or ceased to exist (400.7)")
        raise UnknownEntityError(f"entity {e} never existed")

    def _object(self, e):
        e = self._check_id(e)
        if e not in self.objects:
            raise IllegalActionError(f"{e} is a player, not an object")
        return self.objects[e]

    def _permanent(self, e):
        """An object on the battlefield; other objects are not permanents (110.1)."""
        obj = self._object(e)
        if obj["zone"] != "battlefield":
            raise IllegalActionError(f"object {e} is not on the battlefield")
        return obj

    def _player(self, p):
        p = self._check_id(p)
        if p not in self.players:
            raise IllegalActionError(f"{p} is not a player")
        return self.players[p]

    def head_id(self, p):
        """The id of the player holding p's life and poison: the team's first player in 2HG
        (810.10)."""
        return self.team_players[self.team_of[p]][0] if self.thg else p

    def _head(self, p):
        """The player holding p's life and poison (``head_id``)."""
        return self.players[self.head_id(p)]

    def _over(self):
        return self.outcome != "ongoing"

    # ---- players -----------------------------------------------------------------------
    def add_player(self, life=None, team=None):
        if self.thg and team is None:
            raise IllegalActionError("a Two-Headed Giant player needs a team (810.1)")
        if life is None:
            life = 15 if self.thg else 20  # docs: 15 by default in 2HG
        pid = self._new_id()
        self.players[pid] = {"life": int(life), "counters": {}, "lost": False,
                             "cant_lose": set(), "banned": set(), "drew_empty": False}
        self.libraries[pid] = []
        label = ("solo", pid) if team is None else ("team", team)
        self.team_of[pid] = label
        self.team_players.setdefault(label, []).append(pid)
        if self.thg and self.team_players[label][0] != pid:
            # 810 / docs: each player's starting life adds to the team's (held by the head)
            self._head(pid)["life"] += int(life)
            self.players[pid]["life"] = 0
        return pid

    # ---- objects -----------------------------------------------------------------------
    def add_object(self, controller, types=(), zone="battlefield", power=None, toughness=None,
                   loyalty=None, defense=None, keywords=(), token=False, name=None,
                   counters=None, caps=None, no_counters=False, put_by=None):
        self._player(controller)
        if put_by is not None:
            self._player(put_by)
        types = (types,) if isinstance(types, str) else tuple(types)
        for t in types:
            if t not in CARD_TYPES:
                raise InvalidTypeError(f"unknown card type {t!r}")
        keywords = (keywords,) if isinstance(keywords, str) else tuple(keywords)
        for k in keywords:
            if k not in KEYWORDS:
                raise InvalidTypeError(f"unknown keyword {k!r}")
        if zone not in ZONES:
            raise InvalidZoneError(f"unknown zone {zone!r}")
        start = {}
        for kind, n in (counters or {}).items():
            validate_kind(kind)
            set_count(start, kind, add_count(start, kind, validate_count(n), "add_object"))
        cap_map = {}
        for kind, n in (caps or {}).items():
            validate_kind(kind)
            cap_map[kind] = validate_count(n)
        obj = {
            "controller": int(controller), "owner": int(controller),
            "types": frozenset(types), "power": power,
            "toughness": toughness, "loyalty": loyalty, "defense": defense,
            "keywords": frozenset(keywords), "token": bool(token), "name": name,
            # 101.3: "counters can't be put on it", a characteristic of the card (docs:
            # kept through zone changes, in every zone)
            "no_counters": bool(no_counters),
        }
        oid = self._enter(obj, zone, start, by=put_by)
        self.objects[oid]["caps"] = cap_map
        return oid

    def _enter(self, card, zone, extra_counters, by=None):
        """A new object in ``zone`` with the characteristics of ``card`` (400.7: nothing else
        is remembered). An object entering the battlefield gets its printed loyalty (306.5b)
        and defense (310.4b) counters as it enters, put by its controller (its own ability
        names no player); ``extra_counters`` are put as well (122.6), by ``by`` or else its
        controller (122.6a)."""
        def can_have(kind):   # 122.6: they are put on it as it enters, so a host's can't holds (101.3)
            if card["no_counters"]:
                self.reached["101.3 no_counters"] += 1
                return False
            return self.can_have is None or self.can_have(card["types"], card["controller"], zone, kind)
        counters = {k: n for k, n in extra_counters.items() if n and can_have(k)}
        puts = [(k, card["controller"] if by is None else by) for k in counters]
        if zone == "battlefield":
            for stat, t in (("loyalty", "planeswalker"), ("defense", "battle")):
                if t in card["types"] and card[stat] and can_have(stat):
                    set_count(counters, stat, add_count(counters, stat, card[stat], "enter"))
                    puts.append((stat, card["controller"]))
        oid = self._new_id()
        self.puts += [{"entity": oid, "kind": k, "by": b} for k, b in puts]
        obj = dict(card)
        # the host's effects belong to one object (400.7): a new one has none
        obj.update(zone=zone, counters=counters, caps={}, tapped=False, damage=0,
                   deathtouch_hit=False, pt_set=[None, None], pt_mod=[0, 0], hold=False,
                   redirect=None, banned=set())
        self.objects[oid] = obj
        if zone == "library":
            self.libraries[obj["owner"]].append(oid)   # docs: an arriving card goes to the bottom
        return oid

    def _leave(self, e):
        """Take live object ``e`` out of the game's objects (and its library); it is stale (400.7)."""
        obj = self.objects.pop(e)
        self.stale.add(e)
        if obj["zone"] == "library":
            self.libraries[obj["owner"]].remove(e)
        return obj

    def _change_zone(self, e, to_zone, lki=None):
        """400.7: the object becomes a new object; 122.2: its counters cease to exist (not
        removed); 122.4 (docs): caps belong to the old object. Returns the new id."""
        obj = self._leave(e)
        card = {k: obj[k] for k in ("owner", "types", "power", "toughness", "loyalty",
                                    "defense", "keywords", "token", "name", "no_counters")}
        card["controller"] = obj["owner"]   # 110.2: a new object is its owner's
        new = self._enter(card, to_zone, {})
        self.events.append({"type": "zone", "old": e, "new": new, "from": obj["zone"],
                            "to": to_zone, "counters": dict(obj["counters"] if lki is None else lki),
                            "controller": obj["controller"], "name": obj["name"],   # (603.10a: as it left)
                            "types": obj["types"], "token": obj["token"]})
        return new

    def _to_graveyard_from_battlefield(self, e, lki=None):
        """122.1h: a permanent with a finality counter that would be put into a graveyard from
        the battlefield is exiled instead."""
        obj = self.objects[e]
        to = obj["redirect"] or "graveyard"   # the host's "put it into <zone> instead" (614.1a), first
        if to == "graveyard" and obj["counters"].get("finality", 0) > 0:   # still a graveyard (616.1)
            to = "exile"
            self.reached["122.1h finality"] += 1
        return self._change_zone(e, to, lki)

    # ---- counters ----------------------------------------------------------------------
    def _holder(self, e, kind):
        """The counters dict that holds ``kind`` for entity ``e`` (in 2HG a player's poison
        counters are the team's, held by the head: 810.10)."""
        if e in self.players:
            if self.thg and kind == "poison":
                return self._head(e)["counters"]
            return self.players[e]["counters"]
        return self.objects[e]["counters"]

    def put_counters(self, e, kind, n=1, by=None):
        e = self._check_id(e)
        validate_kind(kind)
        n = validate_count(n)
        if by is not None:
            self._player(by)
        if self._over():
            return  # docs: finished games are frozen
        if n == 0:
            return  # docs: putting 0 is not an event (compare 120.8)
        holder = self._holder(e, kind)
        if self._banned(e, kind):
            return  # 101.3: it can't have them; nothing is put
        # 122.1, 122.6: counters are put on objects in any zone and on players
        set_count(holder, kind, add_count(holder, kind, n, f"put on {e}"))
        self._put(e, kind, by)

    def _put(self, e, kind, by):
        """Note a put on ``e`` (in 2HG a player's poison names the player, 810.10) by ``by``."""
        self.puts.append({"entity": e, "kind": kind, "by": by})
        if by is not None and by != self.controller(e):
            self.reached["122.6a put by another player"] += 1

    def _banned(self, e, kind, count=True):
        """Whether ``e`` can't have ``kind`` counters put on it; in 2HG no player of a team
        gets poison counters where one of them can't (810.10c)."""
        if e in self.players and self.thg and kind == "poison":
            who = self.team_players[self.team_of[e]]
        else:
            who = [e]
        return any(self._cant_have(x, kind, count) for x in who)

    def _cant_have(self, e, kind, count=True):
        """101.3: ``e`` can't have ``kind`` counters: prohibited (``prohibit``, that kind or
        every kind) or of a class the host's ``can_have`` says can't."""
        x = self.players[e] if e in self.players else self.objects[e]
        if kind in x["banned"] or "*" in x["banned"]:
            return True
        if x.get("no_counters"):   # (a player has none: only objects are made with it)
            if count:
                self.reached["101.3 no_counters"] += 1
            return True
        if self.can_have is None:
            return False
        if e in self.players:
            cant = not self.can_have(frozenset({"player"}), e, None, kind)
        else:
            cant = not self.can_have(x["types"], x["controller"], x["zone"], kind)
        if cant and count:   # (counted where an action asks, not a read)
            self.reached["101.3 a host's can't"] += 1
        return cant

    def is_prohibited(self, e, kind):
        """Whether ``e`` can't have ``kind`` counters put on it (``_banned``)."""
        e = self._check_id(e)
        validate_kind(kind)
        return self._banned(e, kind, count=False)

    def remove_counters(self, e, kind, n=1, cost=False):
        """``n`` from each of ``e`` (an id or a list of ids). ``cost``: removing them is a
        cost (606.4 loyalty, 602.2b), paid in full or not at all (118.3)."""
        ids = [self._check_id(x) for x in (e if isinstance(e, list) else [e])]
        validate_kind(kind)
        n = validate_count(n)
        if not isinstance(cost, bool):
            raise IllegalActionError(f"cost must be True or False, got {cost!r}")
        if self._over():
            return
        # what each holder gives up: ids naming one object, or (810.10) one team's poison, add up
        need = {}
        for x in ids:
            h = self.head_id(x) if x in self.players and self.thg and kind == "poison" else x
            need[h] = need.get(h, 0) + n
        if cost and len(need) < len(ids):
            self.reached["118.3 rows of one holder add up"] += 1
        if cost:
            short = [h for h, total in need.items() if self._holder(h, kind).get(kind, 0) < total]
            if short:
                self.reached["118.3 cost refused"] += 1
                raise UnpayableCostError(f"{short} can't pay {kind} counters (118.3)", short)
            if need and any(need.values()):
                self.reached["118.3 cost paid"] += 1
        for h, total in need.items():
            holder = self._holder(h, kind)
            # 101.3 (docs): removing more than there are removes those there are
            set_count(holder, kind, holder.get(kind, 0) - min(total, holder.get(kind, 0)))

    def move_counters(self, src, dst, kind, n=None, by=None):
        """122.5; docs: ``kind=None`` moves every kind, all of each (``n``: the most of each),
        validated before any moves (a count past the limit refuses the whole call)."""
        if kind is not None:
            validate_kind(kind)
        n = (1 if kind is not None else MAX_COUNT) if n is None else validate_count(n)
        if by is not None:
            self._player(by)
        for x in (src, dst):
            try:
                self._check_id(x)
            except StaleEntityError:
                pass  # docs: an object that has left the battlefield -> nothing happens
        if self._over():
            return
        if src in self.stale or dst in self.stale:
            return  # 122.5: "if either object is no longer in the correct zone"
        if src == dst:
            return  # 122.5: "if the first and second objects are the same object"
        if any(x not in self.objects or self.objects[x]["zone"] != "battlefield" for x in (src, dst)):
            return  # 122.5: the correct zone is the battlefield (engine default zone=)
        plan = []
        for k in [kind] if kind is not None else list(self._counters_of(src)):
            s, d = self._holder(src, k), self._holder(dst, k)
            have = s.get(k, 0)
            if have == 0 or n == 0:
                continue  # 122.5: "if the first object doesn't have the appropriate kind of counter"
            if self._banned(dst, k):
                continue  # 122.5: "if the second object can't have counters put onto it"
            moved = min(n, have)  # docs / 101.3: moving more than present moves what is there
            plan.append((s, d, k, have - moved, add_count(d, k, moved, f"move to {dst}")))
        for s, d, k, left, new_dst in plan:
            set_count(s, k, left)
            set_count(d, k, new_dst)
            self._put(dst, k, by)   # 122.5: the player who moves them puts them on dst
        if kind is None and len(plan) > 1:
            self.reached["122.5 every kind, several moved"] += 1

    def proliferate(self, ids, by=None):
        """701.34a: each chosen permanent or player that has counters gets one more of each kind
        it has. 701.34b: in 2HG a team gets at most one poison counter."""
        if isinstance(ids, numbers.Integral) and not isinstance(ids, bool):
            ids = [ids]
        chosen = []
        for e in ids:
            e = self._check_id(e)
            if e in self.objects and self.objects[e]["zone"] != "battlefield":
                # 701.34a: only permanents and players can be chosen
                raise IllegalActionError(f"{e} is neither a permanent nor a player")
            if e not in chosen:
                chosen.append(e)
        if by is not None:
            self._player(by)
        if self._over():
            return
        for e in chosen:  # 701.34a: choose only permanents and players that have a counter
            team_poison = self.thg and e in self.players and self._head(e)["counters"].get("poison", 0)
            if not (any(self._counters_of(e).values()) or team_poison):
                raise IllegalActionError(f"{e} has no counters, so it can't be chosen")
        plan = []  # (chosen id, holder dict, kind)
        poisoned_teams = set()
        # 701.34b: the one who proliferates chooses which of a team's chosen players gets
        # its poison counter; docs: the first seated (seat order is the order of the ids)
        for e in sorted(chosen):
            if e in self.players:
                kinds = list(self.players[e]["counters"])
                if self.thg:
                    kinds = [k for k in kinds if k != "poison"]
                    # 810.10d: a player has the kinds of counters the team has
                    team = self.team_of[e]
                    if self._head(e)["counters"].get("poison", 0) > 0 and team not in poisoned_teams:
                        poisoned_teams.add(team)  # 701.34b: only one player of the team
                        plan.append((e, self._head(e)["counters"], "poison"))
                    elif self._head(e)["counters"].get("poison", 0) > 0:
                        self.reached["701.34b one poison per team"] += 1
                plan += [(e, self.players[e]["counters"], k) for k in kinds]
            else:
                plan += [(e, self.objects[e]["counters"], k) for k in self.objects[e]["counters"]]
        plan = [(e, h, k) for e, h, k in plan if not self._banned(e, k)]
        for _, holder, kind in plan:
            add_count(holder, kind, 1, "proliferate")  # validate everything first (atomic)
        for e, holder, kind in plan:
            holder[kind] += 1
            self._put(e, kind, by)

    def _counters_of(self, e):
        return self.players[e]["counters"] if e in self.players else self.objects[e]["counters"]

    def set_cap(self, e, kind, n):
        obj = self._object(e)
        validate_kind(kind)
        n = validate_count(n)
        if self._over():
            return
        obj["caps"][kind] = n  # 122.4: "can't have more than N counters of a kind"

    def clear_cap(self, e, kind):
        obj = self._object(e)
        validate_kind(kind)
        if self._over():
            return
        obj["caps"].pop(kind, None)

    # ---- zone changes ------------------------------------------------------------------
    def destroy(self, e):
        obj = self._permanent(e)  # 701.8a: to destroy a permanent
        if self._over():
            return None
        if self._indestructible(obj):
            return None  # 702.12b: can't be destroyed (so no destruction for a shield to replace)
        if obj["counters"].get("shield", 0) > 0:
            # 122.1c: "If this permanent would be destroyed as the result of an effect,
            # instead remove a shield counter from it"
            set_count(obj["counters"], "shield", obj["counters"]["shield"] - 1)
            self.reached["122.1c shield replaces destroy"] += 1
            return None
        return self._to_graveyard_from_battlefield(e)  # 701.8a (finality: 122.1h)

    def sacrifice(self, e):
        self._permanent(e)  # 701.21a: only a permanent can be sacrificed
        if self._over():
            return None
        # 701.21a: sacrificing is not destroying: shield and indestructible don't apply
        return self._to_graveyard_from_battlefield(e)

    def move_zone(self, e, zone, counters=None, by=None):
        """400.7; ``counters``: put on the new object as it arrives in ``zone``: entering the
        battlefield with counters (122.6: persist, undying), elsewhere a put; one a
        replacement sends elsewhere (122.1h finality, a redirect) gets none (docs). They are
        put by ``by``, else by the new object's controller, its owner (122.6a, 110.2)."""
        if zone not in ZONES:
            raise InvalidZoneError(f"unknown zone {zone!r}")
        obj = self._object(e)
        if obj["zone"] == zone:
            raise IllegalActionError(f"object {e} is already in the {zone}")
        if counters is not None and not isinstance(counters, dict):
            raise InvalidCountError(f"counters must be a mapping of kind to amount, got {counters!r}")
        start = {validate_kind(k): validate_count(n) for k, n in (counters or {}).items()}
        for kind, n in start.items():
            # with the printed loyalty or defense it enters with (306.5b, 310.4b): a count
            # past the limit refuses the move
            printed = (obj[kind] or 0) if kind in ("loyalty", "defense") and zone == "battlefield" else 0
            if n + printed > MAX_COUNT:
                raise CountOverflowError(f"{e} would enter with more than {MAX_COUNT} {kind!r} counters")
        if by is not None:
            self._player(by)
        if self._over():
            return e
        if obj["token"] and obj["zone"] != "battlefield":
            return -1  # 111.8: a token that has left the battlefield stays (no new object)
        self.reached[f"move_zone to the {zone}"] += 1
        if obj["zone"] == "battlefield" and zone == "graveyard":
            new = self._to_graveyard_from_battlefield(e)  # 122.1h
        else:
            new = self._change_zone(e, zone)  # 400.7
        arrived = self.objects[new]
        if arrived["zone"] != zone:
            if start:
                self.reached["122.6 enters elsewhere: no counters"] += 1
            return new
        for kind, n in start.items():
            if n and not self._banned(new, kind):   # 101.3: the new object can't have them
                c = arrived["counters"]
                set_count(c, kind, add_count(c, kind, n, f"enter {new}"))
                self._put(new, kind, arrived["controller"] if by is None else by)
                if zone == "battlefield":
                    self.reached["122.6 enters with counters"] += 1
        return new

    # ---- damage, tapping, life ---------------------------------------------------------
    def deal_damage(self, target, amount, source=None, deathtouch=None, wither=None, infect=None,
                    lifelink=None, unpreventable=False, combat=False):
        """120.3: ``amount`` to each target (an id or a list), all at once. ``source``: the
        object dealing it (one, or one per target: damage from several sources at once,
        510.2); its controller gains by lifelink (120.3f) and its deathtouch and lifelink,
        printed or keyword counters (122.1b), apply where the flag is not given (docs)."""
        targets = [self._check_id(t) for t in (target if isinstance(target, list) else [target])]
        amount = validate_count(amount)
        sources = [None] * len(targets)
        if source is not None:
            sources = list(source) if isinstance(source, list) else [source] * len(targets)
            if len(sources) == 1:   # docs: one source, or one per selected game: this one's
                sources *= len(targets)
            if len(sources) != len(targets):
                # docs: one source, or one per target (510.2); nothing else pairs them up
                self.reached["deal_damage: sources not one per target"] += 1
                raise InvalidGameError(f"{len(sources)} sources for {len(targets)} targets")
            for x in sources:
                if isinstance(x, numbers.Integral) and x < 0:
                    # docs (tests/ecs/test_bad_input.py): -1 pads id arrays; as a source it
                    # is no object's id
                    raise InvalidTypeError(f"source {x}: a source is an object's id")
            sources = [self._check_id(x) for x in sources]
            for x in sources:
                if x in self.players:
                    raise IllegalActionError(f"{x} is a player: a source of damage is an object (120.1)")
        for t in targets:
            if t in self.objects:
                obj = self._permanent(t)
                if not obj["types"] & {"creature", "planeswalker", "battle"}:
                    raise IllegalActionError(f"damage can't be dealt to {t}: not a creature, "
                                             "planeswalker or battle")
        if self._over():
            return
        if amount == 0:
            return  # 120.8: a source that would deal 0 damage deals no damage at all
        # one damage event per (source, target): rows naming both again add up (docs)
        rows = {}
        for t, x in zip(targets, sources):
            rows[(t, x)] = rows.get((t, x), 0) + amount
        if len({x for _, x in rows}) > 1 and len(rows) > len({t for t, _ in rows}):
            self.reached["510.2 a target dealt damage by several sources"] += 1
        if len(rows) == 1:   # (one target's results are checked before any is made)
            self._deal(rows, deathtouch, wither, infect, lifelink, unpreventable, combat)
            return
        # all or nothing: a result that can't be recorded (a count past the limit) changes nothing
        saved = copy.deepcopy((self.players, self.objects, self.events, self.reached, self.puts))
        try:
            self._deal(rows, deathtouch, wither, infect, lifelink, unpreventable, combat)
        except CounterError:
            self.players, self.objects, self.events, self.reached, self.puts = saved
            raise

    def _has(self, x, ability, given):
        """A damage ability of row source ``x``: the flag given, else (deathtouch, lifelink:
        122.1b keyword counters or printed) the source's own; wither and infect only by flag."""
        if given is not None:
            return bool(given)
        if x is None or ability not in ("deathtouch", "lifelink"):
            return False
        return any(keyword_of(k) == ability for k in self.keywords_of(self.objects[x]))

    def _deal(self, rows, deathtouch, wither, infect, lifelink, unpreventable, combat):
        cause = "combat damage" if combat else "damage"
        gains = []   # (source, damage dealt): lifelink (120.3f, 702.15b)
        for t in dict.fromkeys(t for t, _ in rows):
            mine = [(x, n) for (t2, x), n in rows.items() if t2 == t]
            events = [{"type": "damage", "target": t, "source": x, "amount": n, "dealt": n,
                       "cause": cause} for x, n in mine]
            if t in self.players:
                head = self._head(t)
                for x, n in mine:
                    if self._has(x, "infect", infect):
                        # 120.3b (2HG 810.10: the team's poison); none where it can't have them (101.3)
                        if not self._banned(t, "poison"):
                            set_count(head["counters"], "poison",
                                      add_count(head["counters"], "poison", n, "infect"))
                            self._put(t, "poison", self._putter(x))   # (120.3b: the source's controller)
                    else:
                        head["life"] -= n  # 120.3a
                    gains.append((x, n))
                self.events += events
                continue
            obj = self.objects[t]
            total = sum(n for _, n in mine)
            touch = any(self._has(x, "deathtouch", deathtouch) for x, _ in mine)
            by = [self._putter(x) for x, _ in mine]
            c = obj["counters"]
            if c.get("shield", 0) > 0:
                # 122.1c: prevent that damage and remove a shield counter; docs: one shield
                # counter for all the damage a permanent is dealt at once (614.5, 510.2).
                # 615.12 + ruling 2022-04-29: unpreventable damage is dealt and still uses one.
                new_shield = c["shield"] - 1
                if unpreventable:
                    self._damage_results(t, obj, total, touch, self._has(None, "wither", wither),
                                         self._has(None, "infect", infect), by)
                    gains += mine
                    self.reached["615.12 unpreventable vs shield"] += 1
                else:
                    for ev in events:
                        ev["dealt"] = 0   # prevented: not dealt, no lifelink (120.3f)
                    self.reached["122.1c shield prevents damage"] += 1
                set_count(c, "shield", new_shield)
            else:
                self._damage_results(t, obj, total, touch, self._has(None, "wither", wither),
                                     self._has(None, "infect", infect), by)
                gains += mine
            self.events += events
        for x, n in gains:
            if x is not None and self._has(x, "lifelink", lifelink):
                # 120.3f: the source's controller gains that much life (2HG: the team, 810.10)
                self._head(self.objects[x]["controller"])["life"] += n
                self.reached["120.3f lifelink"] += 1

    def _putter(self, x):
        """The player who puts the counters damage from source ``x`` gives: its controller
        (120.3b, 120.3d); None without a source."""
        return None if x is None else self.objects[x]["controller"]

    def _damage_results(self, e, obj, amount, deathtouch, wither, infect, by=(None,)):
        """120.3c-e, h: the results of damage dealt to a permanent (checked before changing);
        ``by``: the players who put the -1/-1 counters (each source's controller, 120.3d)."""
        c = obj["counters"]
        creature = "creature" in obj["types"]
        # 101.3: where it can't have -1/-1 counters none are put, and no count overflows
        put = creature and (wither or infect) and not self._banned(e, "-1/-1")
        marks = creature and not (wither or infect)
        if put:
            new_m = add_count(c, "-1/-1", amount, "wither")  # 120.3d
        elif marks:
            new_damage = obj["damage"] + amount  # 120.3e
            if new_damage > MAX_COUNT:
                raise CountOverflowError(f"marked damage would reach {new_damage}")
        if put:
            set_count(c, "-1/-1", new_m)
            for b in dict.fromkeys(by):
                self._put(e, "-1/-1", b)
        elif marks:
            obj["damage"] = new_damage
        if creature and deathtouch:
            obj["deathtouch_hit"] = True  # 702.2b / 704.5h: dealt damage by a deathtouch source
        if "planeswalker" in obj["types"]:
            set_count(c, "loyalty", c.get("loyalty", 0) - min(amount, c.get("loyalty", 0)))  # 120.3c
        if "battle" in obj["types"]:
            set_count(c, "defense", c.get("defense", 0) - min(amount, c.get("defense", 0)))  # 120.3h

    def tap(self, e):
        obj = self._permanent(e)
        if self._over():
            return
        if not obj["tapped"]:  # docs (Events): tapping a tapped permanent is no event
            self.events.append({"type": "tap", "entity": e, "before": False, "after": True,
                                "cause": "tap"})
        obj["tapped"] = True

    def untap(self, e):
        obj = self._permanent(e)
        if self._over():
            return
        if not obj["tapped"]:
            return  # 502.3 / docs/rules-mtg.md: an untapped permanent doesn't "become untapped"
        if obj["counters"].get("stun", 0) > 0:
            # 122.1d: "If a permanent with a stun counter on it would become untapped,
            # instead remove a stun counter from it."
            set_count(obj["counters"], "stun", obj["counters"]["stun"] - 1)
            self.events.append({"type": "tap", "entity": e, "before": True, "after": True,
                                "cause": "stun"})  # docs (Events): tapped before and after
            self.reached["122.1d stun"] += 1
            return
        obj["tapped"] = False
        self.events.append({"type": "tap", "entity": e, "before": True, "after": False,
                            "cause": "untap"})

    def lose_life(self, p, n):
        self._player(p)
        n = validate_count(n)
        if self._over():
            return
        self._head(p)["life"] -= n  # 810.8 (2HG): the team's life total

    def gain_life(self, p, n):
        self._player(p)
        n = validate_count(n)
        if self._over():
            return
        self._head(p)["life"] += n

    def cleanup(self):
        """514.2: the cleanup step removes all marked damage from permanents (nothing
        else: 704.5h's "since the last check" is not undone)."""
        if self._over():
            return
        for obj in self.objects.values():
            if obj["damage"]:
                self.reached["514.2 cleanup removes damage"] += 1
            obj["damage"] = 0

    # ---- libraries, draws, mills and main phases ---------------------------------------
    def library(self, p):
        self._player(p)
        return list(self.libraries[p])

    def take_order(self, p, ids):
        """The tests give the engine's choice of an order the rules leave to a player (401.4,
        or a shuffle, 701.24a): ``ids`` must be ``p``'s library with only the cards of one
        noted choice (or, after a shuffle, any cards) in other places."""
        self.libraries[p] = list(ids)

    def order_library(self, p, ids):
        self._player(p)
        ids = [self._check_id(x) for x in ids]
        lib = self.libraries[p]
        if sorted(ids) != sorted(lib) or len(set(ids)) != len(ids):
            raise IllegalActionError(f"{ids} are not exactly the library of player {p}")
        if self._over():
            return
        self.libraries[p] = ids

    def shuffle_library(self, p):
        """701.24a: a random order (the tests take the engine's, ``take_order``)."""
        self._player(p)

    def _top_cards(self, p, n):
        self._player(p)
        return validate_count(n)

    def draw(self, p, n=1):
        """121.1: the top card of the library to the hand, ``n`` times (121.2); 704.5b: a
        draw from an empty library loses at the next check. 111.8: a token on top (it left
        the battlefield) stays there, so that draw and every later one draw nothing, and
        the library is not empty (docs). Returns the new ids."""
        n = self._top_cards(p, n)
        if self._over():
            return []
        out = []
        for _ in range(n):
            lib = self.libraries[p]
            if not lib:
                self.players[p]["drew_empty"] = True   # 121.4 / 704.5b
                self.reached["121.4 draw from an empty library"] += 1
                break
            if self.objects[lib[0]]["token"]:
                self.reached["111.8 a draw finds a token on top"] += 1
                break   # (each later draw finds it there again)
            out.append(self._change_zone(lib[0], "hand"))
        return out

    def mill(self, p, n=1):
        """701.17a: the top ``n`` cards of the library into the graveyard; 701.17b: a short
        library mills what there is (no loss: 704.5b is about draws). 111.8: a token among
        the top ``n`` stays in its place, the others go (docs: ``n`` counts it)."""
        n = self._top_cards(p, n)
        if self._over():
            return []
        top = self.libraries[p][:n]
        out = []
        for x in top:
            if self.objects[x]["token"]:
                self.reached["111.8 a token milled stays"] += 1
            else:
                out.append(self._change_zone(x, "graveyard"))
        if len(top) < n:
            self.reached["701.17b mill past the library"] += 1
        return out

    def active_player(self):
        return self.active[0] if self.active else -1

    def _next_turn_player(self):
        """docs: the next player in seat order after the turn player who hasn't lost; in 2HG
        the next team's first-seated player (805.4); the first still in before any turn."""
        n = len(self.players)
        turn = self.active[0] if self.active else -1
        after = [(turn + k) % n for k in range(1, n + 1)]
        if self.thg and turn >= 0:
            heads = [q for q in after if self.team_of[q] != self.team_of[turn] and self.head_id(q) == q]
            after = heads or after
        return next((q for q in after if not self.players[q]["lost"]), after[0])

    def begin_main_phase(self, player=None, precombat=True):
        """505.1: ``precombat`` True/"precombat"/"first" or False/"postcombat"/"second".
        SBAs are checked (117.5), the turn players set (805.4: a 2HG team), then in a
        precombat main phase each one's rad trigger resolves in seat order with a check
        after each (728.1), then SBAs again."""
        phases = {"precombat": True, "first": True, "postcombat": False, "second": False}
        if isinstance(precombat, bool):
            pre = precombat
        elif isinstance(precombat, str) and precombat in phases:
            pre = phases[precombat]
        else:
            raise InvalidPhaseError(f"unknown main phase {precombat!r}")
        if player is not None:
            self._player(player)
            if self.players[player]["lost"] and not self._over():
                raise IllegalActionError(f"player {player} has lost and takes no more turns")
        if self._over():
            return
        self.tick()
        if self._over():
            return
        q = self._next_turn_player() if player is None else player
        if self.players[q]["lost"]:
            return   # lost in the first check: no turn
        turn = [q]
        if self.thg:   # 805.4: the team's turn
            turn = [x for x in self.team_players[self.team_of[q]] if not self.players[x]["lost"]]
        self.active = turn
        if pre:   # 505.1a: a postcombat main phase triggers nothing
            for k, x in enumerate(turn):
                if k:
                    self.tick()   # the trigger before resolved (117.5)
                    if self._over():
                        return
                self._rad(x)
        self.tick()

    def _rad(self, p):
        """728.1: mill as many cards as the player has rad counters; for each nonland card
        milled, lose 1 life and remove a rad counter."""
        n = self.players[p]["counters"].get("rad", 0)
        if not n:
            return
        milled = self.mill(p, n)
        nonland = sum("land" not in self.objects[x]["types"] for x in milled)
        self._head(p)["life"] -= nonland   # 810.8 (2HG): the team's life
        c = self.players[p]["counters"]
        set_count(c, "rad", c["rad"] - nonland)
        self.reached["728.1 rad"] += 1
        if nonland:
            self.reached["728.1 rad: a nonland card milled"] += 1
        if len(milled) < n:
            self.reached["728.1 rad: a short library"] += 1

    # ---- state-based actions -----------------------------------------------------------
    def tick(self):
        """704.3: check, perform everything together as one event, repeat until a check
        performs nothing. docs: in a game that has ended, SBAs do nothing."""
        while not self._over():
            if not self._sba_check():
                break

    def _sba_check(self):
        """One check on one snapshot; returns whether any state-based action was performed."""
        # ---- decide everything on the current (unchanged) state ----
        losers = set()
        for pid, pl in self.players.items():
            if pl["lost"]:
                continue
            head = self._head(pid)
            # a player who can't lose for a reason doesn't (2HG: nor their team)
            safe = (set().union(*(self.players[q]["cant_lose"]
                                  for q in self.team_players[self.team_of[pid]]))
                    if self.thg else pl["cant_lose"])
            poison = head["counters"].get("poison", 0)
            if self.thg:
                if 12 <= poison <= 16:
                    self.reached["team poison 12-16 at a check"] += 1
                if 10 <= poison < 15 and "poison" not in safe:
                    self.reached["704.5c ignored in 2HG"] += 1
                if head["life"] <= 0 and "life" not in safe:
                    losers.add(pid)  # 704.6a / 810.8c: a team with 0 or less life loses
                    self.reached["704.6a"] += 1
                if poison >= 15 and "poison" not in safe:
                    losers.add(pid)  # 704.6b / 810.8d (704.5c is ignored in 2HG)
                    self.reached["704.6b"] += 1
            else:
                if 8 <= poison <= 11:
                    self.reached["poison 8-11 at a check"] += 1
                if pl["life"] <= 0 and "life" not in safe:
                    losers.add(pid)  # 704.5a
                    self.reached["704.5a"] += 1
                if poison >= 10 and "poison" not in safe:
                    losers.add(pid)  # 704.5c
                    self.reached["704.5c"] += 1
            # counted where a reason named holds off the loss it names (not where a player
            # who can't lose for one reason meets the other's loss, and loses)
            if ("life" in safe and head["life"] <= 0) or ("poison" in safe and poison >= (15 if self.thg else 10)):
                self.reached["can't lose"] += 1
            if pl["drew_empty"]:
                losers.add(pid)  # 704.5b: attempted to draw from an empty library (not a reason set_cant_lose names)
                self.reached["704.5b"] += 1
            if self.host_rules and pl["counters"].get("curse", 0) >= HOST_CURSE:
                losers.add(pid)  # the host's Curse (not a reason a player can be kept from)
                self.reached["host curse"] += 1
        cease = []       # 704.5d: tokens in a zone other than the battlefield
        leave = []       # permanents put into the graveyard (or destroyed) by this check
        exiled = []      # permanents the host's Doom exiles
        removals = {}    # object id -> {kind: n}
        for oid, obj in self.objects.items():
            c = obj["counters"]
            if obj["zone"] != "battlefield":
                # (seen, not acted on: 704.5q and 704.5r are about permanents only)
                if c.get("+1/+1", 0) and c.get("-1/-1", 0):
                    self.reached["+1/+1 and -1/-1 off the battlefield"] += 1
                if obj["token"]:
                    cease.append(oid)  # 704.5d
                    self.reached["704.5d"] += 1
                continue
            dies = False
            if "creature" in obj["types"]:
                t = self.toughness_of(obj)
                if t <= 0:
                    dies = True  # 704.5f (indestructible doesn't apply: not destruction)
                    self.reached["704.5f"] += 1
                elif not self._indestructible(obj):  # 702.12b
                    if obj["damage"] > 0 and obj["damage"] >= t:
                        dies = True  # 704.5g (shield doesn't replace SBAs: docs, ruling)
                        self.reached["704.5g"] += 1
                    if obj["deathtouch_hit"]:
                        dies = True  # 704.5h
                        self.reached["704.5h"] += 1
                elif (obj["damage"] > 0 and obj["damage"] >= t) or obj["deathtouch_hit"]:
                    self.reached["702.12b indestructible vs 704.5g/h"] += 1
            if "planeswalker" in obj["types"] and c.get("loyalty", 0) == 0:
                dies = True  # 704.5i
                self.reached["704.5i"] += 1
            if "battle" in obj["types"] and c.get("defense", 0) == 0:
                dies = True  # 704.5v (docs: no stack, the exception never applies)
                self.reached["704.5v"] += 1
            if dies and not obj["hold"]:   # the host holds it (704.5v's exception)
                leave.append(oid)
            if self.host_rules and c.get("doom", 0) >= HOST_DOOM:
                if oid in leave:   # docs: of two moves, the cause first in CAUSES (704.5x)
                    self.reached["host doom and a death"] += 1
                else:
                    exiled.append(oid)
                    self.reached["host doom"] += 1
            rem = {}
            n = min(c.get("+1/+1", 0), c.get("-1/-1", 0))
            if n:
                rem["+1/+1"] = n  # 704.5q / 122.3
                rem["-1/-1"] = n
                self.reached["704.5q"] += 1
            thaw = min(c.get("ice", 0), c.get("fire", 0)) if self.host_rules else 0
            if thaw:
                rem["ice"] = rem.get("ice", 0) + thaw   # the host's Thaw
                rem["fire"] = rem.get("fire", 0) + thaw
                self.reached["host thaw"] += 1
            for kind, cap in obj["caps"].items():
                if c.get(kind, 0) > cap:
                    # 704.5r / 122.4; docs: removals from caps and annihilation add up
                    rem[kind] = rem.get(kind, 0) + c[kind] - cap
                    self.reached["704.5r"] += 1
                    if c[kind] == cap + 1:
                        self.reached["704.5r one over the cap"] += 1
                    if n and kind in ("+1/+1", "-1/-1"):
                        self.reached["704.5q and 704.5r add up"] += 1
                elif c.get(kind, 0) == cap and cap:
                    self.reached["at the cap"] += 1
            if rem:
                removals[oid] = rem
        # "since the last time state-based actions were checked" (704.5h): a new check begins
        for obj in self.objects.values():
            obj["deathtouch_hit"] = False
        performed = bool(losers or cease or leave or exiled or removals)
        # ---- perform everything together (704.3) ----
        for oid, rem in removals.items():
            if oid in leave or oid in exiled:
                continue  # docs: it leaves; its counters cease to exist (122.2)
            c = self.objects[oid]["counters"]
            for kind, n in rem.items():
                set_count(c, kind, c.get(kind, 0) - min(n, c.get(kind, 0)))  # clamped
        arrived = {}   # owner -> new ids put into their library by this check (a redirect)
        for oid in leave:
            # 704.8: the last known information is the state before this check
            new = self._to_graveyard_from_battlefield(oid, lki=dict(self.objects[oid]["counters"]))
            if self.objects[new]["zone"] == "library":
                arrived.setdefault(self.objects[new]["owner"], set()).add(new)
        for owner, ids in arrived.items():
            if len(ids) > 1:   # 401.4: their owner orders cards put into a library at once
                self.library_choices.append((owner, ids))
                self.reached["401.4 cards put into a library at once"] += 1
        for oid in exiled:
            self._change_zone(oid, "exile", lki=dict(self.objects[oid]["counters"]))
        for oid in cease:
            obj = self._leave(oid)  # 704.5d / 111.7: the token ceases to exist
            self.events.append({"type": "cease", "old": oid, "new": None, "from": obj["zone"],
                                "to": None, "counters": dict(obj["counters"]),
                                "controller": obj["controller"], "name": obj["name"],
                                "types": obj["types"], "token": obj["token"]})
        for pid in losers:
            if self.thg:
                for q in self.team_players[self.team_of[pid]]:
                    self.players[q]["lost"] = True  # 810: the team loses
            else:
                self.players[pid]["lost"] = True
        for pid, pl in self.players.items():  # docs (Events): PlayerLost, one per player
            if pl["lost"] and pid not in self._recorded_losses:
                self._recorded_losses.add(pid)
                self.events.append({"type": "lost", "player": pid})
        if losers:
            self._decide_result()
        return performed

    def _decide_result(self):
        remaining = [p for p, pl in self.players.items() if not pl["lost"]]
        teams = {self.team_of[p] for p in remaining} if self.thg else set(remaining)
        if not remaining:
            self.outcome = "draw"  # 104.4a: all remaining players lost simultaneously
            self.reached["104.4a draw"] += 1
            self.events.append({"type": "end", "winner": None})  # docs: GameEnded, None for a draw
        elif len(teams) == 1:
            # 104.2a: a player still in the game wins when all opponents have left
            self.outcome = remaining[0] if not self.thg else self.team_players[self.team_of[remaining[0]]][0]
            self.reached["104.2a win"] += 1
            self.events.append({"type": "end", "winner": self.outcome})

    # ---- reads -------------------------------------------------------------------------
    def keywords_of(self, obj):
        """Printed keywords and keyword counters (122.1b, 613.1f); a counter of a variant
        ("hexproof from black") grants that variant."""
        return set(obj["keywords"]) | {k for k in obj["counters"] if keyword_of(k)}

    def _indestructible(self, obj):
        """702.12: printed or granted by a keyword counter (122.1b)."""
        return any(keyword_of(k) == "indestructible" for k in self.keywords_of(obj))

    def power_of(self, obj):
        if "creature" not in obj["types"]:
            return None
        return self._pt(obj, 0, "power")

    def _pt(self, obj, i, stat):
        """613.4b: a set value replaces the printed one; 613.4c: modifications and
        +X/+Y / -X/-Y counters (122.1a) add to it."""
        base = obj[stat] or 0 if obj["pt_set"][i] is None else obj["pt_set"][i]
        return base + obj["pt_mod"][i] + sum(pt_of(k)[i] * n for k, n in obj["counters"].items() if pt_of(k))

    def toughness_of(self, obj):
        if "creature" not in obj["types"]:
            return None
        return self._pt(obj, 1, "toughness")

    def counters(self, e):
        e = self._check_id(e)
        if e in self.players:
            c = dict(self.players[e]["counters"])
            if self.thg:  # 810.10a/d: a player's poison counters are the team's
                set_count(c, "poison", self._head(e)["counters"].get("poison", 0))
            return c
        return dict(self.objects[e]["counters"])

    def count(self, e, kind):
        validate_kind(kind)
        return self.counters(e).get(kind, 0)

    def _stat_obj(self, e, stat, type_name):
        """The object, or InvalidTypeError if it has no such characteristic (122.1a: power
        and toughness are a creature's; 306.5 loyalty a planeswalker's; 310.4 defense a
        battle's)."""
        obj = self._object(e)
        set_to = obj["pt_set"][("power", "toughness").index(stat)] if stat in ("power", "toughness") else None
        # 306.5c, 310.4c: on the battlefield the counters are the loyalty or defense, printed or not
        counted = stat in ("loyalty", "defense") and obj["zone"] == "battlefield"
        if type_name not in obj["types"] or (obj[stat] is None and set_to is None and not counted):
            raise InvalidTypeError(f"entity {e} has no {stat}")   # (613.4b: a set value is one)
        return obj

    def power(self, e):
        return self.power_of(self._stat_obj(e, "power", "creature"))

    def toughness(self, e):
        return self.toughness_of(self._stat_obj(e, "toughness", "creature"))

    def loyalty(self, e):
        obj = self._stat_obj(e, "loyalty", "planeswalker")
        if obj["zone"] == "battlefield":
            return obj["counters"].get("loyalty", 0)  # 306.5c
        return obj["loyalty"]  # 209.1: printed loyalty off the battlefield

    def defense(self, e):
        obj = self._stat_obj(e, "defense", "battle")
        if obj["zone"] == "battlefield":
            return obj["counters"].get("defense", 0)  # 310.4c
        return obj["defense"]  # 310.4a

    def keywords(self, e):
        return self.keywords_of(self._object(e))

    def zone(self, e):
        return self._object(e)["zone"]

    def is_tapped(self, e):
        return self._object(e)["tapped"]

    def damage(self, e):
        return self._object(e)["damage"]

    def exists(self, e):
        return e in self.objects or e in self.players

    def life(self, p):
        self._player(p)
        return self._head(p)["life"]

    def has_lost(self, p):
        return self._player(p)["lost"]

    def result(self):
        return self.outcome

    def controller(self, e):
        e = self._check_id(e)
        return e if e in self.players else self.objects[e]["controller"]

    def owner(self, e):
        e = self._check_id(e)
        return e if e in self.players else self.objects[e]["owner"]

    # ---- the host engine's state ----------------------------------------------
    def _signed(self, v):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or abs(v) > 2 ** 30:
            raise InvalidCountError(f"{v!r}: a P/T value is an integer of at most 2**30 in size")
        return int(v)

    def set_pt(self, e, power=None, toughness=None):
        obj = self._object(e)
        new = [None if v is None else self._signed(v) for v in (power, toughness)]
        if self._over():
            return
        for i, v in enumerate(new):
            if v is not None:
                obj["pt_set"][i] = v  # 613.4b: the latest set wins

    def modify_pt(self, e, power=0, toughness=0):
        obj = self._object(e)
        d = [self._signed(power), self._signed(toughness)]
        total = [obj["pt_mod"][i] + d[i] for i in range(2)]
        if any(abs(x) > 2 ** 30 for x in total):
            raise InvalidCountError(f"the modifications of {e} would come to {total}")
        if self._over():
            return
        obj["pt_mod"] = total  # 613.4c

    def clear_pt(self, e=None):
        objs = list(self.objects.values()) if e is None else [self._object(e)]
        if self._over():
            return
        for obj in objs:
            obj["pt_set"], obj["pt_mod"] = [None, None], [0, 0]

    def set_controller(self, e, player):
        obj = self._object(e)
        self._player(player)
        if self._over():
            return
        obj["controller"] = player  # 108.4; the owner stays (108.3)

    def _bans(self, e, kind):
        """The ban set of ``e`` after the checks (None when the game is over)."""
        e = self._check_id(e)
        if kind is not None:
            validate_kind(kind)
        if self._over():
            return None
        return (self.players[e] if e in self.players else self.objects[e])["banned"]

    def prohibit(self, e, kind=None):
        banned = self._bans(e, kind)
        if banned is not None:
            banned.add("*" if kind is None else kind)

    def allow(self, e, kind=None):
        banned = self._bans(e, kind)
        if banned is None:
            return
        if kind is None:
            banned.clear()
        else:
            banned.discard(kind)

    def set_cant_lose(self, p, reason, on=True):
        pl = self._player(p)
        if reason not in ("life", "poison"):
            raise InvalidTypeError(f"unknown reason {reason!r}")
        if self._over():
            return
        (pl["cant_lose"].add if on else pl["cant_lose"].discard)(reason)

    def set_hold(self, e, on=True):
        obj = self._object(e)
        if self._over():
            return
        obj["hold"] = bool(on)

    def set_redirect(self, e, zone):
        if zone is not None and zone not in ZONES:
            raise InvalidZoneError(f"unknown zone {zone!r}")
        if zone == "battlefield":   # a dying permanent is there: no zone to put it into instead
            raise InvalidZoneError("the battlefield as a redirect")
        obj = self._object(e)
        if self._over():
            return
        obj["redirect"] = zone
