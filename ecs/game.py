"""The internal surface between a World and the machinery it delegates to.

``Game`` is what systems, the counter choke point, zone relocation and perform read of a
World; ``Rules`` the hooks a ruleset gives them. Both are protocols, so the core depends on
no World and no concrete ruleset: ``ecs.world.World`` is a Game, ``ecs.rules``' rulesets are
Rules.
"""
from __future__ import annotations

from typing import Any, Mapping, Protocol

import numpy as np

from .check import System
from .events import EventLog
from .names import Names
from .store import Store


class Rules(Protocol):
    """What differs between games that share the counters core (see ``ecs.rules``). A
    ruleset may also give plain-value forms of some hooks for one game's few targets
    (``place_one``, ``place_few``, ``deal_damage_one``, ``deal_damage_few``,
    ``replace_zone_change_one``: ``counting.scalar_hook``); without them the hooks below
    serve those targets too."""

    name: str
    card_types: tuple[str, ...]
    zone_aliases: Mapping[str, str]
    damageable: tuple[str, ...]
    stat_counters_on_players: str

    @property
    def damageable_mask(self) -> int: ...
    wither_upkeep: bool
    two_headed_giant: bool
    systems: tuple[type[System], ...]

    def validate_kind(self, kind: str) -> str: ...

    def check_new_objects(self, types: int, zone: int, keywords: int) -> None: ...

    def pt_exists(self, types: Any, printed: Any, pt_set: Any) -> Any: ...

    def deal_damage(self, game: Game, g: np.ndarray, c: np.ndarray, amount: np.ndarray,
                    flags: Mapping[str, bool]) -> None: ...

    def place(self, game: Game, kind: str, g: np.ndarray, c: np.ndarray,
              amount: np.ndarray, cause: str, by: Any, e: np.ndarray | None = None) -> None: ...

    def can_have(self, game: Game, kind: str, g: np.ndarray, c: np.ndarray) -> np.ndarray | None: ...

    def pt_modifier(self, kind: str) -> tuple[int, int] | None: ...

    def enter_counters(self, game: Game, g: np.ndarray, c: np.ndarray
                       ) -> list[tuple[str, np.ndarray]]: ...

    def sacrifice_zone(self, game: Game, g: np.ndarray, c: np.ndarray) -> np.ndarray: ...

    def damage_amounts(self, n: Any) -> Any: ...

    def cleanup(self, game: Game, games: np.ndarray) -> None: ...

    def replace_zone_change(self, game: Game, games: np.ndarray, cols: np.ndarray,
                            frm: np.ndarray, dest: np.ndarray) -> np.ndarray: ...

    def control_changed(self, game: Game, g: np.ndarray, c: np.ndarray, old: np.ndarray) -> None: ...

    def players_left(self, game: Game, g: np.ndarray, p: np.ndarray) -> None: ...


class Game(Protocol):
    """One World's state as the machinery sees it."""

    store: Store
    log: EventLog
    ruleset: Rules
    two_headed_giant: bool
    names: Names

    @property
    def batch(self) -> int: ...

    @property
    def ongoing(self) -> np.ndarray: ...
