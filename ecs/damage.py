"""Results of damage in the MTG rules (CR 120.3), with shield counters (122.1c).

Rows are distinct (game, column) targets already validated as present; each row is one
damage event of ``amount`` >= 0 from one source with the given abilities.
"""
from __future__ import annotations

from typing import Mapping

import numpy as np

from . import args, counting
from .components import TYPE_BIT
from .game import Game


def deal_damage(world: Game, g: np.ndarray, c: np.ndarray, amount: np.ndarray,
                flags: Mapping[str, bool]) -> None:
    s = world.store
    types = s.a["types"][c]
    player = (types & TYPE_BIT["player"]) != 0
    creature = (types & TYPE_BIT["creature"]) != 0
    walker = (types & TYPE_BIT["planeswalker"]) != 0
    battle = (types & TYPE_BIT["battle"]) != 0
    permanent = args.on_battlefield(world, g, c)
    args.require(world, player | (permanent & (creature | walker | battle)), g, c,
                   "can't be dealt damage: only players, creatures, planeswalkers and battles "
                   "on the battlefield can (CR 120.3)")
    dealt = amount > 0                             # 120.8: 0 damage is not dealt (nor prevented)
    if not dealt.all():
        g, c, amount = g[dealt], c[dealt], amount[dealt]
        player, creature, walker = player[dealt], creature[dealt], walker[dealt]
        battle, permanent = battle[dealt], permanent[dealt]
    # 122.1c: one prevention effect, however many shield counters; one counter per event.
    shield = s.plane("shield")
    shielded = permanent & (shield[g, c] > 0 if shield is not None else False)
    dealt = ~shielded | flags["unpreventable"]     # 615.12, shield ruling 2022-04-29
    hit = dealt & permanent & creature

    # Validate what is actually dealt before anything changes (prevented damage puts nothing).
    counters_kind = "-1/-1" if (flags["wither"] or flags["infect"]) else None
    if counters_kind:
        counting.check_room(world, counters_kind, g[hit], c[hit], amount[hit])
    else:
        counting.check_marked_damage(world, g[hit], c[hit], amount[hit])
    poison_cols = counting.holder(world, "poison", c[player])
    if flags["infect"]:
        counting.check_room(world, "poison", g[player], poison_cols, amount[player])
    world.log.next_step()

    counting.change(world, "shield", g[shielded], c[shielded], -1, "shield")
    if counters_kind:                              # 120.3d
        counting.put(world, counters_kind, g[hit], c[hit], amount[hit], "damage")
    else:                                          # 120.3e
        s.mut("damage")[g[hit], c[hit]] += amount[hit].astype(np.int32)   # rows are distinct
    if flags["deathtouch"]:                        # 702.2b, checked by 704.5h
        s.mut("deathtouch_hit")[g[hit], c[hit]] = True
    for kind, is_t in (("loyalty", walker), ("defense", battle)):   # 120.3c, 120.3h
        r = dealt & permanent & is_t
        counting.change(world, kind, g[r], c[r], -amount[r], "damage")
    if flags["infect"]:                            # 120.3b
        counting.put(world, "poison", g[player], poison_cols, amount[player], "damage")
    else:                                          # 120.3a
        idx = s.a["controller"][c[player]].astype(np.int64)
        if world.two_headed_giant:
            idx = s.a["player_head"][idx].astype(np.int64)
        np.add.at(s.mut("life"), (g[player], idx), -amount[player])
