"""A host engine's own state-based rules, as systems of the schedule (docs/api.md, "The
schedule and custom systems"): the differential tests install them beside the ruleset's
and compare with the reference model's ``host_rules`` (tests/reference_model.py).

Each decides every game from that game's state alone, in the games the check names, and
writes nothing; each is a rule of the host's, not of the Comprehensive Rules:

- ``Thaw``: ice and fire counters on a permanent melt each other in pairs (cause
  ``remove``; a removal that adds up with the ruleset's of the same check, 704.3);
- ``Doom``: a permanent with three or more doom counters is exiled (cause ``host``; a
  permanent that also dies by a rule of 704 goes where that rule sends it: of two moves
  of one object, the cause first in ``ecs.events.CAUSES`` wins);
- ``Curse``: a player with three or more curse counters loses (cause ``host``; a player
  "can't lose" only for the reasons ``set_cant_lose`` names, so the curse is not held off).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ecs import zones
from ecs.check import Check, System
from ecs.game import Game

DOOM, CURSE = 3, 3   # the counts at which Doom exiles and Curse makes a player lose
OBJECT_KINDS, PLAYER_KINDS = ["ice", "fire", "doom"], ["curse"]   # the kinds the rules read


def _on_battlefield(game: Game, check: Check) -> np.ndarray:
    """(games, columns): the permanents of the games this check looks at."""
    s = game.store
    out = s.a["zone"][:, : s.n_cols] == zones.BATTLEFIELD
    out[~check.live_games(game)] = False
    return out


class Thaw(System):
    causes = ("remove",)

    def process(self, game: Game, check: Check) -> None:
        s = game.store
        ice, fire = s.plane("ice"), s.plane("fire")
        if ice is None or fire is None:
            return
        pairs = np.where(_on_battlefield(game, check), np.minimum(ice, fire), 0)
        g, c = np.nonzero(pairs)   # (rows as a host gives them: strided in a batch, int32 amounts)
        check.remove((s.kind_index["ice"], s.kind_index["fire"]), g, c, pairs[g, c], "remove")


class Doom(System):
    causes = ("host",)

    def process(self, game: Game, check: Check) -> None:
        doom = game.store.plane("doom")
        if doom is None:
            return
        g, c = np.nonzero(_on_battlefield(game, check) & (doom >= DOOM))
        check.move(g, c, zones.EXILE, "host")


class Curse(System):
    causes = ("host",)

    def process(self, game: Game, check: Check) -> None:
        s = game.store
        curse = s.plane("curse")
        if curse is None:
            return
        losing = (curse[:, s.a["player_col"]] >= CURSE) & ~s.a["lost"]   # (games, players)
        losing[~check.live_games(game)] = False
        g, p = np.nonzero(losing)
        check.lose(g, p, "host")


HOST_SYSTEMS = (Thaw, Doom, Curse)


def once(decide: Callable[[Game, Check], None]) -> System:
    """A host system that decides ``decide(game, check)`` in the first check it runs in
    and nothing after (the tests of what a host may decide: one decision, then quiet)."""
    done: list[int] = []

    class Once(System):
        causes = ("remove",)

        def process(self, game: Game, check: Check) -> None:
            if not done:
                done.append(1)
                decide(game, check)

    return Once()


def column(game: Game, e: int) -> np.ndarray:
    """The column of object ``e`` in game 0, as the one-row array a host's decision takes."""
    return np.array([int(np.flatnonzero(game.store.a["entity_id"][0] == e)[0])])
