"""Rulesets: what differs between games that share the counters core.

A ruleset names its zones, says which kinds change power/toughness, which counters an
object enters with, which replacement effects apply to zone changes and which systems run.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

import numpy as np

from ecs.components import TYPE_BIT
from ecs.components.card import NO_STAT

from . import kinds, zones
from .damage import deal_damage
from .errors import InvalidTypeError

if TYPE_CHECKING:
    from ecs.systems import System
    from .world import World


class Ruleset:
    """The Magic: The Gathering rules (the default)."""

    name = "mtg"
    zone_aliases: Mapping[str, str] = {}

    @property
    def systems(self) -> tuple[type[System], ...]:
        """The ordered systems of a check (imported when asked: the systems import ecs)."""
        from ecs.systems import ORDER
        return ORDER

    def validate_kind(self, kind: str) -> str:
        """Reject kinds this ruleset does not know (every well-formed kind is generic in MTG)."""
        return kind

    def place(self, world: "World", kind: str, g: np.ndarray, c: np.ndarray,
              amount: np.ndarray, cause: str, by: object) -> None:
        """Put validated counters; a ruleset may replace the placement (GA buff/debuff)."""
        world._change(kind, g, c, amount, cause, by)

    def deal_damage(self, world: "World", g: np.ndarray, c: np.ndarray, amount: np.ndarray,
                    flags: Mapping[str, bool]) -> None:
        deal_damage(world, g, c, amount, flags)

    def has_stat(self, world: "World", col: int, stat: str) -> bool:
        """Power and toughness exist on creatures (and creature cards) only (122.1a)."""
        s = world.store
        return bool(s.a["types"][col] & TYPE_BIT["creature"]) and s.a[stat][col] != NO_STAT

    def pt_modifier(self, kind: str) -> tuple[int, int] | None:
        """(power, toughness) change per counter of ``kind`` (CR 122.1a)."""
        return kinds.pt_modifier(kind)

    def enter_counters(self, world: "World", cols: np.ndarray) -> list[tuple[str, np.ndarray]]:
        """Counters objects get as they enter the battlefield by their own printed
        abilities: loyalty (306.5b) and defense (310.4b)."""
        s = world.store
        out = []
        for stat, type_name in (("loyalty", "planeswalker"), ("defense", "battle")):
            printed = s.a[stat][cols]
            has = ((s.a["types"][cols] & TYPE_BIT[type_name]) != 0) & (printed != NO_STAT)
            out.append((stat, np.where(has, printed, 0).astype(np.int64)))
        return out

    def sacrifice_zone(self, world: "World", cols: np.ndarray) -> np.ndarray:
        """Where sacrificed objects go: the graveyard (CR 701.21a)."""
        return np.full(cols.shape, zones.GRAVEYARD, np.int64)

    def replace_zone_change(self, world: "World", games: np.ndarray, cols: np.ndarray,
                            frm: np.ndarray, dest: np.ndarray) -> np.ndarray:
        """Ruleset-specific replacements of zone changes (finality is handled for all)."""
        return dest

    def check_types(self, types: int) -> None:
        """Raise InvalidTypeError for types this ruleset does not have."""
        mtg = sum(TYPE_BIT[t] for t in ("creature", "planeswalker", "battle", "artifact",
                                        "enchantment", "land", "instant", "sorcery", "kindred"))
        if types & ~mtg:
            bad = [t for t, b in TYPE_BIT.items() if b & types & ~mtg]
            raise InvalidTypeError(f"card types {bad} do not exist in the {self.name} ruleset")


RULESETS: dict[str, Ruleset] = {"mtg": Ruleset()}


def get_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except (KeyError, TypeError):
        raise InvalidTypeError(f"unknown ruleset {name!r}; expected one of {sorted(RULESETS)}") from None
