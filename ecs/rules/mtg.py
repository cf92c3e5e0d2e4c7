"""The Magic: The Gathering ruleset (the default), and the hooks every ruleset has.

A ruleset names its card types and zones, says which kinds change power/toughness, which
counters an object enters with, which replacement effects apply to zone changes, how
damage is dealt and which systems run, in order (``ecs.schedule`` runs them).
"""
from __future__ import annotations

import abc
from typing import Any, Mapping

import numpy as np

from ecs import counting, damage, kinds, zones
from ecs.check import System
from ecs.components import TYPE_BIT
from ecs.components.card import NO_STAT
from ecs.errors import IllegalActionError, InvalidTypeError
from ecs.game import Game
from ecs.systems import Annihilation, CapEnforcement, EmptyDraw, Lethality, Rad, WitherUpkeep, ZoneChange


def _refuse_hook(cls: type, name: str) -> None:
    """IllegalActionError where ``name`` is a hook (``RulesetType``)."""
    if name in HOOKS:
        raise IllegalActionError(
            f"{cls.__name__}.{name} is a ruleset hook: replace it in a subclass "
            f"(class Mine({cls.__name__}): def {name}(self, ...)) and install an instance of that "
            f"(w.ruleset = Mine()), not by assigning it to a ruleset class or instance")


HOOKS: frozenset[str] = frozenset()   # (set below, from Magic)


class RulesetType(abc.ABCMeta):
    """The metaclass of the rulesets: a hook (``HOOKS``) is replaced by a subclass that
    defines it, never by assigning it to a ruleset class or instance. The single-game paths
    trust a class's hooks by where they are defined (``ecs.counting.scalar_hook``), and
    ``World()`` shares one instance of each built-in ruleset: an assignment would be seen by
    some paths and not others, and by every World of the process. An ``ABCMeta``, so a
    host's abstract base of its rulesets has no metaclass conflict."""

    def __setattr__(cls, name: str, value: Any) -> None:
        _refuse_hook(cls, name)
        super().__setattr__(name, value)

    def __delattr__(cls, name: str) -> None:
        _refuse_hook(cls, name)
        super().__delattr__(name)


class Magic(metaclass=RulesetType):
    """The Magic: The Gathering rules."""

    name = "mtg"
    #: Card types (CR 300.1); ``ecs.components.TYPE_BIT`` gives their bits.
    card_types: tuple[str, ...] = ("creature", "planeswalker", "battle", "artifact",
                                   "enchantment", "land", "instant", "sorcery", "kindred")
    zone_aliases: Mapping[str, str] = {}
    #: Why power/toughness counters can't go on a player (an action's error says so).
    stat_counters_on_players = "change power/toughness, which players don't have (CR 122.1a)"
    #: Permanents that can be dealt damage (CR 120.3; players can too).
    damageable: tuple[str, ...] = ("creature", "planeswalker", "battle")
    #: Whether wither counters trigger at the beginning of a main phase (GA Wither).
    wither_upkeep = False
    #: Whether it has the Two-Headed Giant variant (CR 810: teams share life and poison).
    two_headed_giant = True
    #: The ordered systems: ZoneChange -> Annihilation -> CapEnforcement -> Lethality ->
    #: WitherUpkeep -> Rad -> EmptyDraw (704.5b).
    systems: tuple[type[System], ...] = (ZoneChange, Annihilation, CapEnforcement, Lethality,
                                         WitherUpkeep, Rad, EmptyDraw)

    def __setattr__(self, name: str, value: Any) -> None:
        _refuse_hook(type(self), name)
        super().__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        _refuse_hook(type(self), name)
        super().__delattr__(name)

    @property
    def damageable_mask(self) -> int:
        """The type bits of ``damageable``."""
        return _bits(self.damageable)

    def validate_kind(self, kind: str) -> str:
        """Reject kinds this ruleset does not know (every well-formed kind is generic in MTG)."""
        return kind

    def place(self, world: Game, kind: str, g: np.ndarray, c: np.ndarray,
              amount: np.ndarray, cause: str, by: Any, e: np.ndarray | None = None) -> None:
        """Put validated counters; a ruleset may replace the placement (GA buff/debuff).
        ``e``: the ids the events name, where not the columns' own (a Two-Headed Giant
        player's poison, held by the team: ``counting.put``)."""
        counting.change(world, kind, g, c, amount, cause, by, e=e)

    def place_one(self, world: Game, kind: str, g: int, col: int, have: int, n: int, cause: str,
                  by: int, e: int) -> None:
        """``place`` of ``n`` counters on one row of plain ints that holds ``have`` (room and
        101.3 checked by the caller; ``e``: the object's id, or -1)."""
        counting.set_one(world, kind, g, col, have, have + n, cause, by, e)

    def place_few(self, world: Game, kind: str, g: int, rows: list[tuple[int, int, int, int]],
                  cause: str, by: int) -> None:
        """``place`` on a few distinct rows of game ``g`` in plain ints, in their order:
        (column, count there, counters placed, the object's id or -1) each (room and 101.3
        checked by the caller)."""
        for col, have, n, e in rows:
            counting.set_one(world, kind, g, col, have, have + n, cause, by, e)

    def can_have(self, world: Game, kind: str, g: np.ndarray, c: np.ndarray) -> np.ndarray | None:
        """Which rows (game ``g``, column ``c``: objects or players) can have ``kind``
        counters put on them, by a host's effect on a class of them ("counters can't be put
        on creatures": Solemnity; Melira's -1/-1 counters), beside the World's own
        ``no_counters`` and ``prohibit``: a (rows,) bool array, or None for every row.
        Asked before any counter moves: where the destination can't have them a move moves
        none (122.5), and a put, entering counters (122.6), proliferate and damage's counters
        put none there (101.3). Magic's: None."""
        return None

    def deal_damage(self, world: Game, g: np.ndarray, c: np.ndarray, amount: np.ndarray,
                    flags: Mapping[str, bool]) -> None:
        damage.deal_damage(world, g, c, amount, flags)

    def damage_amounts(self, n: Any) -> Any:
        """Damage amounts as given, before validation: no negative numbers (CR 107.1b)."""
        return n

    def deal_damage_one(self, world: Game, e: int, col: int, amount: int, source: Any,
                        given: tuple[Any, ...], unpreventable: bool, combat: bool) -> bool:
        """``deal_damage`` (with ``damage_amounts``) of one target of a single game in plain
        values, or False with nothing changed where the general path must act or raise
        (``ecs.damage.deal_one``). A ruleset that replaces ``deal_damage`` replaces this
        too, or its single games take the general path (``counting.scalar_hook``)."""
        return damage.deal_one(world, e, col, amount, source, given, unpreventable, combat)

    def deal_damage_few(self, world: Game, targets: list[tuple[int, int]], amount: int, source: Any,
                        given: tuple[Any, ...], unpreventable: bool, combat: bool) -> bool:
        """``deal_damage_one`` of a few targets ((id, column) pairs) at once (``ecs.damage.deal_few``)."""
        return damage.deal_few(world, targets, amount, source, given, unpreventable, combat)

    def cleanup(self, world: Game, games: np.ndarray) -> None:
        """What clean-up removes besides marked damage (CR 514.2): nothing in Magic."""

    def pt_exists(self, types: Any, printed: Any, pt_set: Any) -> Any:
        """Whether an object of card types ``types``, printed power (or toughness)
        ``printed`` and the value a host set ``pt_set`` has that stat: a creature (or
        creature card) only (122.1a, 208.3: a noncreature's printed power is none), printed
        or set by the host (613.4b: a */* creature's value). Ints or arrays alike: the
        reads of one game and of a batch, and ``observe``, decide by this one statement."""
        return ((types & _CREATURE) != 0) & ((printed != NO_STAT) | (pt_set != NO_STAT))

    def pt_modifier(self, kind: str) -> tuple[int, int] | None:
        """(power, toughness) change per counter of ``kind`` (CR 122.1a)."""
        return kinds.pt_modifier(kind)

    def enter_counters(self, world: Game, g: np.ndarray, c: np.ndarray
                       ) -> list[tuple[str, np.ndarray]]:
        """Counters objects get as they enter the battlefield by their own printed
        abilities: loyalty (306.5b) and defense (310.4b)."""
        s = world.store
        out = []
        for stat, type_name in kinds.ENTERING:
            printed = s.a[stat][g, c]
            has = ((s.a["types"][g, c] & TYPE_BIT[type_name]) != 0) & (printed != NO_STAT)
            out.append((stat, np.where(has, printed, 0).astype(np.int64)))
        return out

    def sacrifice_zone(self, world: Game, g: np.ndarray, c: np.ndarray) -> np.ndarray:
        """Where sacrificed objects go: the graveyard (CR 701.21a)."""
        return np.full(c.shape, zones.GRAVEYARD, np.int64)

    def replace_zone_change(self, world: Game, games: np.ndarray, cols: np.ndarray,
                            frm: np.ndarray, dest: np.ndarray) -> np.ndarray:
        """Ruleset-specific replacements of zone changes (finality is handled for all)."""
        return dest

    def replace_zone_change_one(self, world: Game, g: int, col: int, frm: int, dest: int) -> int:
        """``replace_zone_change`` of one row of plain ints: the destination."""
        return dest

    def control_changed(self, world: Game, g: np.ndarray, c: np.ndarray, old: np.ndarray) -> None:
        """The objects in rows (``g``, ``c``) left the control of players ``old`` (indices)
        for another's (108.4, ``set_controller``): nothing more in Magic."""

    def players_left(self, world: Game, g: np.ndarray, p: np.ndarray) -> None:
        """Players ``p`` (indices) lost games ``g`` that go on: nothing at once in Magic
        (800.4a, a multiplayer game's leaving player, is not modelled)."""

    @property
    def card_mask(self) -> int:
        """The bits of ``card_types`` (``ecs.components.TYPE_BIT``)."""
        return _bits(self.card_types)

    def check_new_objects(self, types: int, zone: int, keywords: int) -> None:
        """Refuse new objects (card types ``types``, zone code ``zone``, printed keyword bits
        ``keywords``) that no game of this ruleset can hold, before anything is made:
        InvalidTypeError for types it does not have."""
        mine = self.card_mask
        if types & ~mine:
            bad = [t for t, b in TYPE_BIT.items() if b & types & ~mine]
            raise InvalidTypeError(f"card types {bad} do not exist in the {self.name} ruleset "
                                   f"(expected some of {list(self.card_types)})")


#: The hooks: what a ruleset's subclass may replace (its methods and properties).
HOOKS = frozenset(name for name, v in vars(Magic).items()
                  if not name.startswith("_") and (callable(v) or isinstance(v, property)))


def _bits(types: tuple[str, ...]) -> int:
    """The ``TYPE_BIT`` bits of the card types ``types``, kept per tuple: the single-game
    paths read a ruleset's masks on every call."""
    mask = _MASKS.get(types)
    if mask is None:
        mask = _MASKS[types] = sum(TYPE_BIT[t] for t in types)
    return mask


_MASKS: dict[tuple[str, ...], int] = {}   # card types -> their bits


_CREATURE = TYPE_BIT["creature"]
