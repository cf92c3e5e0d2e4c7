"""Rad: the inherent triggered ability of rad counters (MTG CR 728.1, "Rad Counters";
726 or 727 in older editions).

"At the beginning of each player's precombat main phase, if that player has one or more
rad counters, that player mills a number of cards equal to the number of rad counters
they have. For each nonland card milled this way, that player loses 1 life and removes
one rad counter from themselves."

Acts only in the check that ``World.begin_main_phase`` runs for a precombat main phase
(505.1a: postcombat main phases do nothing). A short library mills what there is. The
life lost can lose the game at the next check (704.5a). Vectorized over games.
"""
from __future__ import annotations

import numpy as np

from ecs import zones
from ecs.check import Check, System, When, vouch
from ecs.components import TYPE_BIT
from ecs.game import Game
from ecs.library import library_order


@vouch
class Rad(System):
    when = When.MAIN_PHASE
    causes = ("mill", "rad")

    def process(self, world: Game, pending: Check) -> None:
        phase = pending.precombat_phase()
        if phase is None:
            return
        s = world.store
        rad = s.plane("rad")
        if rad is None:
            return
        games, player = phase.games, phase.player
        pcol = s.a["player_col"][player].astype(np.int64)
        r = rad[games, pcol].astype(np.int64)
        act = (r > 0) & ~s.a["lost"][games, player]
        if not act.any():
            return
        g, p, pc, r = games[act], player[act], pcol[act], r[act]
        i, c, rank = library_order(world, g, p)
        # the top cards, by game then slot (the rows' order: that of their new ids and events)
        n, top = s.n_cols, rank < r[i]
        mill = np.sort(i[top] * n + c[top])
        gi, c = mill // n, mill % n
        pending.move(g[gi], c, zones.GRAVEYARD, "mill")
        nonland = (s.a["types"][g[gi], c] & TYPE_BIT["land"]) == 0
        lost = np.bincount(gi, weights=nonland, minlength=g.size).astype(np.int64)
        has = lost > 0
        pending.remove(s.kind_index["rad"], g[has], pc[has], lost[has], "rad")
        holder = s.a["player_head"][p].astype(np.int64) if world.two_headed_giant else p
        pending.add_to_players("life", g[has], holder[has], -lost[has])
