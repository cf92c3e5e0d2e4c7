"""WitherUpkeep: the Grand Archive wither trigger at the beginning of a main phase.

GA Counters, Wither 1-5: "At the beginning of a player's main phase, if they control one
or more objects with a wither counter on them, they sacrifice each of those objects
unless they pay 1 reserve for each wither counter on it, then remove those counters."

Registered in the ordered list of both rulesets; it acts only in the check that
``World.begin_main_phase`` runs for a precombat main phase (ecs.schedule), and only in a
ruleset that has wither counters (``wither_upkeep`` of the ``ecs.game.Rules`` protocol:
True for ``GrandArchive``, False for ``Magic``, where "wither" is a damage keyword,
702.80, and a counter of that name is generic). Vectorized over the games of the batch and
the objects of each game.

Which objects the player pays for is a decision: ``policy(world, games, ids, cost,
reserve)`` gets the (G,) game indices, the (G, m) ids of the objects that have wither
counters, row by game (-1 pads a row), the (G, m) reserve each would cost (0 where no
object of the turn player's field with wither counters is) and the (G,) reserve of the
turn player, and returns a (G, m) bool array: True pays for that object.
Payment is per object and in full (Wither 3); a choice that costs more reserve than the
player has raises InsufficientReserveError, a policy that raises is reported as
``ecs.PolicyError`` naming it (its exception chained), and nothing happens.

An immortal object (Keywords: Immortality 1.2, "can't be destroyed (including via
sacrifice)") that is not paid for stays on the field; its wither counters are removed
like every other (Wither 4).
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ecs import zones
from ecs.check import Check, System, When, vouch
from ecs.components import TYPE_BIT
from ecs.errors import IllegalActionError, InsufficientReserveError, PolicyError
from ecs.game import Game


def pay_most(world: Game, games: np.ndarray, ids: np.ndarray, cost: np.ndarray,
             reserve: np.ndarray) -> np.ndarray:
    """The default policy: never lose a game it can keep, then keep the most value.

    Value, compared in this order: (1) the number of champions kept, (2) the number of
    other objects kept, (3) the least reserve spent; ties go to the object in the lower
    slot (column), which is the same in a batch's game as in a World of that game alone (a
    card keeps its slot through zone changes, a new object takes its game's lowest free
    one). Ids are not: objects that change zones together get their new ids in the order
    named in one game, slot by slot in a batch. (1) comes first because a player whose
    champions are all sacrificed loses (Ending the Game 5): whenever some champion is
    affordable, at least one is kept, so no loss a payment could avoid is chosen.
    Champions are paid cheapest first, then the other objects cheapest first with what
    is left: the cheapest k of a group are affordable whenever any k are, and they leave
    the most reserve for the rest, so this greedy choice is the best by that order.
    Immortal objects are never paid for: they are not sacrificed anyway (Immortality
    1.2)."""
    s = world.store
    g, cols = games[:, None], np.maximum(s.locate(games[:, None], ids), 0)   # -1 pads: cost 0 there
    champ = (s.a["types"][g, cols] & TYPE_BIT["champion"]) != 0
    at_risk = (cost > 0) & ~s.a["immortal"][g, cols]
    budget = reserve.astype(np.int64)
    if (np.where(at_risk, cost, 0).sum(axis=1) <= budget).all():
        return at_risk   # each can pay for everything: what the greedy choice below comes to
    # One sort of each row: the champions at risk, then the other objects at risk (each
    # group cheapest first, then the lower slot), then those not at risk.
    group = np.where(at_risk, np.where(champ, 0, 1), 2)
    order = np.lexsort((cols, cost, group), axis=-1)
    rows = np.arange(order.shape[0])[:, None]
    grp, price = group[rows, order], np.where(at_risk, cost, 0)[rows, order]
    spent = np.cumsum(price, axis=1)   # the champions' running total, then theirs plus the others'
    kept = (grp == 0) & (spent <= budget[:, None])   # a prefix of the champions
    left = budget[:, None] - np.where(kept, price, 0).sum(axis=1, keepdims=True)
    champions = np.where(grp == 0, price, 0).sum(axis=1, keepdims=True)
    kept |= (grp == 1) & (spent - champions <= left)   # then a prefix of the others
    pay = np.zeros(cost.shape, bool)
    pay[rows, order] = kept
    return pay


def pay_nothing(world: Game, games: np.ndarray, ids: np.ndarray, cost: np.ndarray,
                reserve: np.ndarray) -> np.ndarray:
    """Pay for nothing: every object with wither counters is sacrificed."""
    return np.zeros(cost.shape, bool)


def _name(policy: Callable[..., Any]) -> str:
    name = getattr(policy, "__qualname__", None)
    module = getattr(policy, "__module__", None)
    return f"{module}.{name}" if name and module else repr(policy)


def _decide(world: Game, policy: Callable[..., Any], games: np.ndarray, ids: np.ndarray,
            cost: np.ndarray, reserve: np.ndarray) -> Any:
    """The policy's answer (on copies: it can't change the check's arrays); its own
    exception becomes a PolicyError naming it, chained from the original."""
    try:
        return policy(world, games.copy(), ids.copy(), cost.copy(), reserve.copy())
    except Exception as err:
        raise PolicyError(f"wither policy {_name(policy)} raised {type(err).__name__}: {err} "
                          f"(games {games.tolist()}, objects {ids.tolist()})") from err


def _checked(world: Game, pay: Any, games: np.ndarray, ids: np.ndarray, cost: np.ndarray,
             reserve: np.ndarray, player: np.ndarray) -> np.ndarray:
    arr = np.asarray(pay)
    if arr.dtype != bool:
        raise IllegalActionError(f"wither policy must return a bool array, got {arr.dtype} {pay!r}")
    try:
        arr = arr if arr.shape == cost.shape else np.broadcast_to(arr, cost.shape)
    except ValueError:
        raise IllegalActionError(f"wither policy returned shape {arr.shape}; expected {cost.shape} "
                                 "(games, objects)") from None
    arr = arr & (cost > 0)
    spent = (cost * arr).sum(axis=1)
    over = spent > reserve
    if over.any():
        i = int(np.flatnonzero(over)[0])
        s = world.store
        pid = int(s.a["entity_id"][0, s.a["player_col"][player[i]]])
        objs = [int(x) for x in ids[i][arr[i]]]
        raise InsufficientReserveError(
            f"player {pid} in game {int(games[i])} can't pay {int(spent[i])} reserve for the "
            f"'wither' counters on entities {objs}: they have {int(reserve[i])} (GA Wither 3)")
    return arr


@vouch
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
        cand &= s.a["controller"][games, :n].astype(np.int64) == player[:, None]
        cols = np.flatnonzero(cand.any(axis=0))
        if cols.size == 0:
            return
        cost = np.where(cand[:, cols], counts[:, cols], 0)
        reserve = s.a["reserve"][games, player].astype(np.int64)
        ids = np.where(cost > 0, s.a["entity_id"][games[:, None], cols], -1)
        pay = _checked(world, _decide(world, phase.policy or pay_most, games, ids, cost, reserve),
                       games, ids, cost, reserve, player)
        gi, mi = np.nonzero(cost > 0)
        # Wither 4: every wither counter is removed at the same time (those on sacrificed
        # objects cease to exist with the zone change instead, CR-style 400.7 / GA General 5).
        pending.remove(s.kind_index["wither"], games[gi], cols[mi], cost[gi, mi], "ga.wither")
        immortal = s.a["immortal"][games[:, None], cols[None, :]]
        gi, mi = np.nonzero((cost > 0) & ~pay & ~immortal)
        pending.move(games[gi], cols[mi], world.ruleset.sacrifice_zone(world, games[gi], cols[mi]),
                     "sacrifice")
        spent = (cost * pay).sum(axis=1)
        paid = spent > 0
        pending.add_to_players("reserve", games[paid], player[paid], -spent[paid], "ga.wither")
