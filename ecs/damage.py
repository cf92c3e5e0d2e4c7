"""Results of damage in the MTG rules (CR 120.3), with shield counters (122.1c).

Rows are distinct (game, column) targets already validated as present; each row is one
damage event of ``amount`` >= 0 from one source with the given abilities. ``flags`` maps
deathtouch, wither, infect and lifelink to a bool or a per-row bool array (a source's
abilities may differ between games), unpreventable and combat to a bool, and (when the
action named a source) ``source`` to per-row source ids and ``source_player`` to per-row
player indices of its controller (-1: none): that player puts the -1/-1 and poison
counters (120.3b, 120.3d: ``by`` in their events) and gains the life (lifelink, 120.3f).
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from . import args, counting
from .components import TYPE_BIT
from .events import CAUSE, DAMAGE
from .game import Game


def row_flag(flags: Mapping[str, Any], name: str, n: int) -> np.ndarray:
    """(n,) bool: a flag given as a bool or per-row array (absent: False)."""
    return np.broadcast_to(np.asarray(flags.get(name, False), bool), (n,))


def deal_damage(world: Game, g: np.ndarray, c: np.ndarray, amount: np.ndarray,
                flags: Mapping[str, Any]) -> None:
    s = world.store
    types = s.a["types"][g, c]
    player = (types & TYPE_BIT["player"]) != 0
    creature = (types & TYPE_BIT["creature"]) != 0
    walker = (types & TYPE_BIT["planeswalker"]) != 0
    battle = (types & TYPE_BIT["battle"]) != 0
    permanent = args.on_battlefield(world, g, c)
    damageable = (types & world.ruleset.damageable_mask) != 0
    args.require(world, player | (permanent & damageable), g, c,
                   "can't be dealt damage: only players, creatures, planeswalkers and battles "
                   "on the battlefield can (CR 120.3)")
    n = g.size
    source = np.broadcast_to(np.asarray(flags.get("source", -1), np.int64), (n,))
    by = np.broadcast_to(np.asarray(flags.get("source_player", -1), np.int64), (n,))
    f = {k: row_flag(flags, k, n) for k in ("deathtouch", "wither", "infect", "lifelink")}
    dealt = amount > 0                             # 120.8: 0 damage is not dealt (nor prevented)
    if not dealt.all():
        g, c, amount = g[dealt], c[dealt], amount[dealt]
        player, creature, walker = player[dealt], creature[dealt], walker[dealt]
        battle, permanent = battle[dealt], permanent[dealt]
        source, by = source[dealt], by[dealt]
        f = {k: v[dealt] for k, v in f.items()}
    # 122.1c: one prevention effect, however many shield counters; one counter per event.
    shield = s.plane("shield")
    shielded = permanent & (shield[g, c] > 0 if shield is not None else False)
    dealt = ~shielded | flags["unpreventable"]     # 615.12, shield ruling 2022-04-29
    hit = dealt & permanent & creature

    # Validate what is actually dealt before anything changes (prevented damage puts nothing).
    minus = hit & (f["wither"] | f["infect"])      # 120.3d; else marked damage (120.3e)
    marked = hit & ~minus
    counting.check_room(world, "-1/-1", g[minus], c[minus], amount[minus])
    counting.check_marked_damage(world, g[marked], c[marked], amount[marked])
    poison = player & f["infect"]
    poison_cols = counting.holder(world, "poison", g[poison], c[poison])
    counting.check_room(world, "poison", g[poison], poison_cols, amount[poison])
    loses = player & ~f["infect"]
    life = _life_changes(world, g, c, amount, dealt, loses, by, f["lifelink"])
    world.log.next_step()

    record(world, g, c, amount, np.where(dealt, amount, 0), source, bool(flags["combat"]))
    counting.change(world, "shield", g[shielded], c[shielded], -1, "shield")
    counting.put(world, "-1/-1", g[minus], c[minus], amount[minus], "damage", by[minus])
    s.mut("damage")[g[marked], c[marked]] += amount[marked].astype(np.int32)   # rows distinct
    dt = hit & f["deathtouch"]                     # 702.2b, checked by 704.5h
    s.mut("deathtouch_hit")[g[dt], c[dt]] = True
    for kind, is_t in (("loyalty", walker), ("defense", battle)):   # 120.3c, 120.3h
        r = dealt & permanent & is_t
        counting.change(world, kind, g[r], c[r], -amount[r], "damage")
    counting.put(world, "poison", g[poison], poison_cols, amount[poison], "damage",   # 120.3b
                 by[poison])
    if life is not None:                           # 120.3a, 120.3f
        s.mut("life")[life[0], life[1]] = life[2]


def _life_changes(world: Game, g: np.ndarray, c: np.ndarray, amount: np.ndarray,
                  dealt: np.ndarray, loses: np.ndarray, by: np.ndarray, lifelink: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The new life totals (games, player indices, totals) after the life lost to damage
    (120.3a: rows ``loses``) and gained by lifelink (120.3f: the source's controller gains
    the damage dealt, whatever the target), validated; None if no total changes. In
    Two-Headed Giant the team's total changes (810.8)."""
    s = world.store
    gain = dealt & lifelink & (by >= 0)
    if not (loses.any() or gain.any()):
        return None
    lose_idx = s.a["controller"][g[loses], c[loses]].astype(np.int64)
    gs = np.concatenate([g[loses], g[gain]])
    idx = np.concatenate([lose_idx, by[gain]])
    delta = np.concatenate([-amount[loses], amount[gain]])
    if world.two_headed_giant:
        idx = s.a["player_head"][idx].astype(np.int64)
    gs, idx, delta = args.sum_rows(world, gs, idx, delta)
    new = s.a["life"][gs, idx] + delta
    counting.check_life(world, gs, idx, new)
    return gs, idx, new


def record(world: Game, g: np.ndarray, c: np.ndarray, amount: np.ndarray, dealt: np.ndarray,
           source: np.ndarray | int, combat: bool) -> None:
    """One damage event per row (``ecs.events.DamageDealt``): ``amount`` would be dealt,
    ``dealt`` was; ``source`` ids (-1: none)."""
    cause = CAUSE["combat damage" if combat else "damage"]
    world.log.record(DAMAGE, cause, game=g, entity=world.store.a["entity_id"][g, c], before=amount,
                     after=dealt, other=source)
