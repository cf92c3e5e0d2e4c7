"""What the phase systems share: the context of a beginning phase and its Pending record.

A phase system (WitherUpkeep, Rad) sits in the ordered list like the state-based
systems, but acts only in the one check that ``World.begin_main_phase`` runs when a main
phase begins: that check gets a ``PhasePending`` carrying the ``PhaseContext``. In every
ordinary check (``tick``) the record is a plain ``Pending`` and the phase systems do
nothing. Like every system they only decide; the World performs, including the per-player
resources (life, reserve) that the ordinary Pending has no place for.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .base import Pending


@dataclass(frozen=True)
class PhaseContext:
    """A main phase beginning in ``games`` (G,) for player index ``player`` (G,) each."""
    games: np.ndarray
    player: np.ndarray
    precombat: bool
    policy: Callable[..., Any] | None = None


@dataclass
class PhasePending(Pending):
    phase: PhaseContext | None = None
    # (GAME_PLAYER field name, games, player indices, amounts to add)
    player_updates: list[tuple[str, np.ndarray, np.ndarray, np.ndarray]] = field(default_factory=list)

    def add_to_players(self, name: str, games: np.ndarray, players: np.ndarray,
                       amounts: np.ndarray) -> None:
        if games.size:
            self.player_updates.append((name, games, players, np.broadcast_to(amounts, games.shape)))

    def empty(self) -> bool:
        return super().empty() and not self.player_updates


def phase_of(pending: Pending) -> PhaseContext | None:
    """The beginning precombat main phase this check is for, or None (an ordinary check,
    whose record is a plain Pending)."""
    if not isinstance(pending, PhasePending) or pending.phase is None:
        return None
    return pending.phase if pending.phase.precombat else None
