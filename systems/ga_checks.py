"""The Grand Archive state-based checks (GA State-based Checks and Effects, Types of
Checks 1-3; Ending the Game 5; Ally 6.1; Counters: Damage 3, Durability 3).

One check reads one state and performs everything together, as the MTG systems do (the
GA text has no "simultaneously"; docs/rules-grand-archive.md). Types of Checks 1 says the
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
  (Durability 4; docs/rules-grand-archive.md). Cause ``ga.durability``.
* Immortal objects (``immortal``, Keywords: Immortality 1.1-1.2) neither die nor are
  destroyed by these two checks.
* Leaving the game (Ending the Game 7, 9): every object a player who has lost owns (its
  owner, ``ecs.host.set_controller``: the controller if control never changed) ceases to exist, in
  every zone, in a game still going; not a death, destruction or banishment, only a
  zone change to nowhere with last-known information. Cause ``ga.left_game``. It is
  decided at the check after the loss (the loss is performed first, so a two-player
  game is over and its board stays as it ended), before the two checks above: an object
  that leaves is not also destroyed.
"""
from __future__ import annotations

import numpy as np

from ecs import stats, zones
from ecs.check import Check, System
from ecs.components import TYPE_BIT
from ecs.components.card import NO_STAT
from ecs.game import Game
from ecs.kernels import I64, INDEX, empty, grown, head, kernel, reads, room

from .base import game_chunks
from .empty_draw import empty_draw_losses


class GAStateChecks(System):
    causes = ("draw", "ga.champion", "ga.damage", "ga.durability", "ga.left_game")

    def process(self, world: Game, pending: Check) -> None:
        probed = pending.memo.get(PROBED_FALLING)
        if probed is not None:   # one game that goes on and that nobody leaves
            fall(pending, probed[0], probed[1], probed[2])
            return
        ending = Check(live=pending.live)
        game_ending(world, ending)
        over = np.zeros(world.batch, bool)
        for loss in ending.losses:
            over[loss.games] = True
            pending.lose(loss.games, loss.players, loss.cause)
        live = pending.live_games(world) & ~over
        # Leaving first: an object moves once, by the first decision (ecs.perform), and one
        # whose owner left the game is in no game to be destroyed in (Ending the Game 7).
        leave_game(world, pending, live)
        damage_and_durability(world, pending, live)


#: ``Check.memo`` key the probe (``systems.settled``) fills in a first check of one game where
#: no player loses by a game-ending condition and none has left: the (3, rows) games,
#: columns and codes of what ``falling`` finds there, the check's whole decision.
PROBED_FALLING = "probed falling"


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
    g, p = champions_gone(s.a["types"], s.a["zone"], s.a["controller"], left, s.a["lost"],
                          pending.live_indices(world), s.n_cols)
    pending.lose(g, p, "ga.champion")


@kernel(reads("types"), reads("zone"), reads("controller"), reads("champion_left"), reads("lost"),
        INDEX, I64, nogil=True, system=GAStateChecks)
def champions_gone(types: np.ndarray, zone: np.ndarray, controller: np.ndarray, left: np.ndarray,
                   lost: np.ndarray, games: np.ndarray, n: int
                   ) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """(games, players) of the players of ``games`` who lose by Ending the Game 5: one
    who controlled a champion that left the field (``left``), controls no champion on the
    field now (the first ``n`` columns) and has not lost yet."""
    players = left.shape[1]
    out_g = empty(games.size * players, np.int64)
    out_p = empty(games.size * players, np.int64)
    m = 0
    controls = empty(players, np.bool_)
    for g in games:
        asked = False
        for p in range(players):
            controls[p] = False
            asked |= left[g, p] and not lost[g, p]
        if not asked:
            continue
        for c in range(n):
            if zone[g, c] == _BF and types[g, c] & _CHAMPION and controller[g, c] >= 0:
                controls[controller[g, c]] = True
        for p in range(players):
            if left[g, p] and not lost[g, p] and not controls[p]:
                out_g[m], out_p[m] = g, p
                m += 1
    return head(out_g, m), head(out_p, m)


def damage_and_durability(world: Game, pending: Check, live: np.ndarray) -> None:
    """Types of Checks 2 and 3 for the ``live`` games (``falling``), a chunk of games at a
    time: in each, the deaths by damage, then the objects destroyed at 0 durability."""
    s = world.store
    state = (s.a["zone"], s.counts, s.a["damage"], s.a["types"], s.a["toughness"],
             s.a["durability"], s.a["immortal"], s.a["pt_set_toughness"], s.a["pt_mod_toughness"])
    kinds = (*stats.pt_planes(world, 1), s.kind_index.get("damage", -1), s.kind_index.get("durability", -1))
    for rows in game_chunks(world, live=live):
        games = np.arange(rows.start, rows.stop) if isinstance(rows, slice) else rows
        fall(pending, *falling(*state, games[live[games]], s.n_cols, *kinds))


def fall(pending: Check, g: np.ndarray, c: np.ndarray, code: np.ndarray) -> None:
    """Decide what ``falling`` found: the deaths by damage, then the objects destroyed."""
    if g.size:
        for bit, cause in ((BY_DAMAGE, "ga.damage"), (BY_DURABILITY, "ga.durability")):
            hit = (code & bit) != 0
            pending.move(g[hit], c[hit], zones.GRAVEYARD, cause)


#: ``falling``'s codes, bits: dies by damage (Types of Checks 2), destroyed at 0 durability
#: (Types of Checks 3); an object that is both a unit and worn may meet both.
BY_DAMAGE, BY_DURABILITY = 1, 2
_CHAMPION = TYPE_BIT["champion"]
_UNIT = _CHAMPION | TYPE_BIT["ally"]
_WORN = TYPE_BIT["weapon"] | TYPE_BIT["siegeable"]
_BF = zones.BATTLEFIELD
#: What ``falling`` reads (its declared signature; the settled probe passes the same): zone,
#: counts, marked damage, types, printed life (toughness) and durability, immortality, and
#: the host's set and modified life.
FALLING_READS = (reads("zone"), reads("counts"), reads("damage"), reads("types"), reads("toughness"),
                 reads("durability"), reads("immortal"), reads("pt_set_toughness"),
                 reads("pt_mod_toughness"))


@kernel(*FALLING_READS, INDEX, I64, INDEX, INDEX, I64, I64, uses=(grown,), nogil=True, system=GAStateChecks)
def falling(zone: np.ndarray, counts: np.ndarray, damage: np.ndarray, types: np.ndarray,
            toughness: np.ndarray, durability: np.ndarray, immortal: np.ndarray,
            set_t: np.ndarray, mod_t: np.ndarray, games: np.ndarray, n: int,
            life_k: np.ndarray, life_mod: np.ndarray, damage_k: int, durability_k: int
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """(games, columns, codes) of the objects on the field in ``games`` x the first ``n``
    columns that the damage and durability checks remove, but immortal ones (Immortality
    1.1-1.2). A unit (champion or ally) with a life stat dies when its damage - marked
    damage plus damage counters (plane ``damage_k``) - is at least its life: the printed
    life or the one ``set_t`` gives, plus ``mod_t`` and each life kind (``life_k``) times
    its change (``life_mod``: buff +1, debuff -1). A weapon or siegeable object with a
    durability stat is destroyed with no durability counters (plane ``durability_k``).
    A kind's plane is -1 where no object ever had one."""
    out_g = empty(room(games.size * n), np.int64)
    out_c = empty(out_g.size, np.int64)
    out_r = empty(out_g.size, np.int64)
    m = 0
    for g in games:
        if m + n > out_g.size:   # (room for a row, outside its loop)
            out_g, out_c, out_r = grown(out_g, m, m + n), grown(out_c, m, m + n), grown(out_r, m, m + n)
        for c in range(n):
            if zone[g, c] != _BF or immortal[g, c]:
                continue
            kind = types[g, c]
            code = 0
            if kind & _UNIT and toughness[g, c] != NO_STAT:
                life = np.int64(toughness[g, c] if set_t[g, c] == NO_STAT else set_t[g, c]) + mod_t[g, c]
                for j in range(life_k.size):
                    life += life_mod[j] * counts[life_k[j], g, c]
                hurt = np.int64(damage[g, c]) + (counts[damage_k, g, c] if damage_k >= 0 else 0)
                if hurt >= life:
                    code |= BY_DAMAGE
            if (kind & _WORN and durability[g, c] != NO_STAT
                    and (durability_k < 0 or counts[durability_k, g, c] == 0)):
                code |= BY_DURABILITY
            if code:
                out_g[m], out_c[m], out_r[m] = g, c, code
                m += 1
    return head(out_g, m), head(out_c, m), head(out_r, m)
