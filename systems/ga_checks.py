"""The Grand Archive state-based checks (GA State-based Checks and Effects, Types of
Checks 1-3; Ending the Game 5; Ally 6.1; Counters: Damage 3, Durability 3).

One check reads one state and performs everything together, as the MTG systems do (the
GA text has no "simultaneously"; rules.md section 8 item 10). Types of Checks 1 says the
game "will first make a pass" for game-ending conditions: in a game where a player loses
by a game-ending condition, that pass is the whole check and the other checks wait for
the next pass (if the game goes on). Game-ending conditions:

* a player who controlled a champion that left the field and controls none now
  ("Their champions die"; "does not control a champion ... and previously controlled
  a champion") - cause ``ga.champion``;
* a player who attempted to draw a card from an empty deck - cause ``draw``.

Then, simultaneously:

* Damage (Types of Checks 2; Destruction 5; Ally 6.1): a unit (champion or ally) on the
  field with a life stat whose damage - marked damage plus damage counters - equals or
  exceeds its life (printed life with buff/debuff counters) dies; "0 or less life" is
  the same test. A champion goes to banishment instead of the graveyard (Champion 8,
  by the ruleset's zone-change replacement). Cause ``ga.damage``.
* Durability (Types of Checks 3; Counters: Durability 3): a weapon or siegeable object
  on the field that has a durability stat and no durability counters is destroyed (to
  the graveyard). An object without a durability stat has no durability to reach 0
  (Durability 4; rules.md section 8 item 12). Cause ``ga.durability``.
* Immortal objects (``immortal``, Keywords: Immortality 1.1-1.2) neither die nor are
  destroyed by these two checks.
* Leaving the game (Ending the Game 7, 9): every object a player who has lost owns (its
  owner, ``ecs.host.set_controller``: the controller if control never changed) ceases to exist, in
  every zone, in a game still going; not a death, destruction or banishment, only a
  zone change to nowhere with last-known information. Cause ``ga.left_game``. It is
  decided at the check after the loss (the loss is performed first, so a two-player
  game is over and its board stays as it ended).
"""
from __future__ import annotations

import numpy as np

from ecs import stats, zones
from ecs.check import Check, System
from ecs.components import TYPE_BIT
from ecs.components.card import NO_STAT
from ecs.game import Game

from .base import game_chunks, hits
from .empty_draw import empty_draw_losses


class GAStateChecks(System):
    causes = ("draw", "ga.champion", "ga.damage", "ga.durability", "ga.left_game")

    def process(self, world: Game, pending: Check) -> None:
        ending = Check(live=pending.live)
        game_ending(world, ending)
        over = np.zeros(world.batch, bool)
        for loss in ending.losses:
            over[loss.games] = True
            pending.lose(loss.games, loss.players, loss.cause)
        live = pending.live_games(world) & ~over
        damage_and_durability(world, pending, live)
        leave_game(world, pending, live)


def leave_game(world: Game, pending: Check, live: np.ndarray) -> None:
    """Ending the Game 7: the objects of players who lost leave the game."""
    s = world.store
    if s.n_players == 0:
        return
    gone = s.a["lost"] & live[:, None]
    if not gone.any():
        return
    n = s.n_cols
    g = np.flatnonzero(gone.any(axis=1))
    owner = s.a["owner"][g, :n].astype(np.int64)
    ctrl = np.where(owner >= 0, owner, s.a["controller"][g, :n])
    obj = (s.a["types"][g, :n] & TYPE_BIT["player"]) == 0
    zone = s.a["zone"][g, :n]
    leaving = (zone != zones.NONE) & obj & (ctrl >= 0)
    leaving &= gone[g[:, None], np.maximum(ctrl, 0)]
    gi, c = np.nonzero(leaving)
    pending.move(g[gi], c, zones.NONE, "ga.left_game")


def game_ending(world: Game, pending: Check) -> None:
    s = world.store
    if s.n_players == 0:
        return
    empty_draw_losses(world, pending, "draw")
    left = s.a["champion_left"]
    if not left.any():
        return
    n = s.n_cols
    champ = (s.a["types"][:, :n] & TYPE_BIT["champion"]) != 0
    on_field = (s.a["zone"][:, :n] == zones.BATTLEFIELD) & champ
    controls = np.zeros((world.batch, s.n_players), bool)
    g, c = np.nonzero(on_field)
    controls[g, s.a["controller"][g, c].astype(np.int64)] = True
    g, p = np.nonzero(left & ~controls & ~s.a["lost"] & pending.live_games(world)[:, None])
    pending.lose(g, p, "ga.champion")


def damage_and_durability(world: Game, pending: Check, live: np.ndarray) -> None:
    s = world.store
    n = s.n_cols
    cols = slice(0, n)
    dmg_plane, dur_plane = s.plane("damage"), s.plane("durability")
    for rows in game_chunks(world, live=live):
        types = s.a["types"][rows, cols]
        unit = (((types & (TYPE_BIT["champion"] | TYPE_BIT["ally"])) != 0)
                & (s.a["toughness"][rows, cols] != NO_STAT))
        worn = (((types & (TYPE_BIT["weapon"] | TYPE_BIT["siegeable"])) != 0)
                & (s.a["durability"][rows, cols] != NO_STAT))
        if not (unit.any() or worn.any()):
            continue
        on_f = (s.a["zone"][rows, cols] == zones.BATTLEFIELD) & live[rows, None]
        if unit.any():
            life = stats.pt(world, cols, 1, rows)
            damage = s.a["damage"][rows, cols].astype(np.int64)
            if dmg_plane is not None:
                damage = damage + dmg_plane[rows]
            dies = on_f & unit & (damage >= life) & ~s.a["immortal"][rows, cols]
            pending.move(*hits(dies, rows), zones.GRAVEYARD, "ga.damage")
        if worn.any():
            zero = on_f & worn & ~s.a["immortal"][rows, cols]
            if dur_plane is not None:
                zero &= dur_plane[rows] == 0
            pending.move(*hits(zero, rows), zones.GRAVEYARD, "ga.durability")
