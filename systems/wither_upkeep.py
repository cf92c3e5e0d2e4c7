"""WitherUpkeep: the Grand Archive wither trigger at the beginning of a main phase.

GA Counters, Wither 1-5: "At the beginning of a player's main phase, if they control one
or more objects with a wither counter on them, they sacrifice each of those objects
unless they pay 1 reserve for each wither counter on it, then remove those counters."

Registered in the ordered list of both rulesets; it acts only in the check that
``World.begin_main_phase`` runs for a precombat main phase (ecs.schedule), and only in a
ruleset that has wither counters (``Ruleset.wither_upkeep``; MTG "wither" is a damage
keyword, 702.80, and a counter of that name is generic there). Vectorized over the games
of the batch and the objects of each game.

Which objects the player pays for is a decision: ``policy(world, games, ids, cost,
reserve)`` gets the (G,) game indices, the (m,) ids of the objects that have wither
counters in some of those games, the (G, m) reserve each would cost (0 where an object is
not on the turn player's field with wither counters in that game) and the (G,) reserve of
the turn player, and returns a (G, m) (or (m,)) bool array: True pays for that object.
Payment is per object and in full (Wither 3); a choice that costs more reserve than the
player has raises InsufficientReserveError and nothing happens.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ecs import zones
from ecs.check import Check, System, When
from ecs.components import TYPE_BIT
from ecs.errors import IllegalActionError, InsufficientReserveError
from ecs.game import Game


def pay_most(world: Game, games: np.ndarray, ids: np.ndarray, cost: np.ndarray,
             reserve: np.ndarray) -> np.ndarray:
    """The default policy: pay for as many objects as the reserve allows. Cheapest first
    (fewest wither counters), then champions before other objects (a sacrificed champion
    is banished and may lose the game), then older objects (smaller id) first."""
    s = world.store
    cols = s.columns(ids)
    champ = (s.a["types"][cols] & TYPE_BIT["champion"]) != 0
    shape = cost.shape
    key = np.where(cost > 0, cost, np.iinfo(np.int64).max)
    order = np.lexsort((np.broadcast_to(ids, shape), np.broadcast_to(~champ, shape), key), axis=-1)
    sorted_cost = np.take_along_axis(cost, order, axis=1)
    ok = (sorted_cost > 0) & (np.cumsum(sorted_cost, axis=1) <= reserve[:, None])
    pay = np.zeros(shape, bool)
    np.put_along_axis(pay, order, ok, axis=1)
    return pay


def pay_nothing(world: Game, games: np.ndarray, ids: np.ndarray, cost: np.ndarray,
                reserve: np.ndarray) -> np.ndarray:
    """Pay for nothing: every object with wither counters is sacrificed."""
    return np.zeros(cost.shape, bool)


def _checked(world: Game, pay: Any, games: np.ndarray, ids: np.ndarray, cost: np.ndarray,
             reserve: np.ndarray, player: np.ndarray) -> np.ndarray:
    arr = np.asarray(pay)
    if arr.dtype != bool:
        raise IllegalActionError(f"wither policy must return a bool array, got {arr.dtype} {pay!r}")
    try:
        arr = np.broadcast_to(arr, cost.shape)
    except ValueError:
        raise IllegalActionError(f"wither policy returned shape {arr.shape}; expected {cost.shape} "
                                 "(games, objects) or (objects,)") from None
    arr = arr & (cost > 0)
    spent = (cost * arr).sum(axis=1)
    over = spent > reserve
    if over.any():
        i = int(np.flatnonzero(over)[0])
        s = world.store
        pid = int(s.a["entity_id"][s.a["player_col"][player[i]]])
        objs = [int(x) for x in ids[arr[i]]]
        raise InsufficientReserveError(
            f"player {pid} in game {int(games[i])} can't pay {int(spent[i])} reserve for the "
            f"'wither' counters on entities {objs}: they have {int(reserve[i])} (GA Wither 3)")
    return arr


class WitherUpkeep(System):
    when = When.MAIN_PHASE
    causes = ("ga.wither", "sacrifice")

    def process(self, world: Game, pending: Check) -> None:
        phase = pending.precombat_phase()
        if phase is None or not world.ruleset.wither_upkeep:
            return
        s = world.store
        plane = s.plane("wither")
        if plane is None:
            return
        games, player = phase.games, phase.player
        n = s.n_cols
        counts = plane[games].astype(np.int64)
        cand = (counts > 0) & (s.a["zone"][games, :n] == zones.BATTLEFIELD)
        cand &= s.a["controller"][:n][None, :].astype(np.int64) == player[:, None]
        cols = np.flatnonzero(cand.any(axis=0))
        if cols.size == 0:
            return
        cost = np.where(cand[:, cols], counts[:, cols], 0)
        reserve = s.a["reserve"][games, player].astype(np.int64)
        ids = s.a["entity_id"][cols].astype(np.int64)
        policy = phase.policy or pay_most
        pay = _checked(world, policy(world, games, ids.copy(), cost.copy(), reserve.copy()),
                       games, ids, cost, reserve, player)
        gi, mi = np.nonzero(cost > 0)
        # Wither 4: every wither counter is removed at the same time (those on sacrificed
        # objects cease to exist with the zone change instead, CR-style 400.7 / GA General 5).
        pending.remove(s.kind_index["wither"], games[gi], cols[mi], cost[gi, mi], "ga.wither")
        gi, mi = np.nonzero((cost > 0) & ~pay)
        pending.move(games[gi], cols[mi], world.ruleset.sacrifice_zone(world, cols[mi]), "sacrifice")
        spent = (cost * pay).sum(axis=1)
        paid = spent > 0
        pending.add_to_players("reserve", games[paid], player[paid], -spent[paid])
