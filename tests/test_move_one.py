"""One object's zone change on the single-game path (``ecs.relocation.move_one``) against
the general one (``move_objects``), for every state an object carries.

An object that changes zones becomes a new object (400.7): its counters cease to exist
(122.2) into the event's last-known information, its caps end (122.4), it is untapped with
no damage and no deathtouch mark, the host's effects on it end (613.4b-c, 614.1a, its
hold) and it is its owner's again (110.2). Each action below moves a creature that has
all of it, on both paths (``ecs.store.SCALAR_PATHS`` cleared for the general one); the
stores and event tables must be equal, and the new object must be clean.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest
from scalar_paths import general

from ecs import World
from ecs.components import ALL_FIELDS

FIELDS = ("tapped", "damage", "deathtouch_hit", "pt_set_power", "pt_set_toughness", "pt_mod_power",
          "pt_mod_toughness", "sba_hold", "redirect", "ban", "owner")


def _board() -> tuple[World, int, int]:
    w = World(seed=11)
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=9, counters={"+1/+1": 2}, caps={"+1/+1": 5})
    w.tap(bear)
    w.deal_damage(bear, 1, deathtouch=True)
    w.put_counters(bear, "shield", 1)   # (after the damage, which it would have prevented, 122.1c)
    w.set_pt(bear, power=4)
    w.modify_pt(bear, toughness=1)
    w.set_hold(bear)
    w.prohibit(bear, "-1/-1")
    w.set_controller(bear, q)
    return w, bear, p


ACTIONS: dict[str, Callable[[World, int], Any]] = {
    "sacrifice": lambda w, e: w.sacrifice(e),                   # 701.21a
    "move_zone": lambda w, e: w.move_zone(e, "hand"),
    "destroy twice": lambda w, e: (w.destroy(e), w.destroy(e)),   # 122.1c: the shield first
}


def _moved(action: Callable[[World, int], Any]) -> tuple[World, int]:
    w, bear, _ = _board()
    action(w, bear)
    return w, bear


@pytest.mark.parametrize("name", sorted(ACTIONS))
def test_400_7_the_moved_object_is_new_on_both_paths(name: str) -> None:
    fast, bear = _moved(ACTIONS[name])
    with general():
        slow, _ = _moved(ACTIONS[name])
    a, b = fast.snapshot()["store"], slow.snapshot()["store"]
    for k in a:
        assert np.array_equal(a[k], b[k]), k
    ta, tb = fast.event_table(), slow.event_table()
    for k in ta:
        assert np.array_equal(ta[k], tb[k]), k
    assert not fast.exists(bear)
    s = fast.store
    col = s.present(0, s.next_id - 1)   # the new object: the last id issued
    fills = {f.name: f.fill for f in ALL_FIELDS}
    for field in FIELDS:   # 400.7, 110.2: nothing of the old object's state is left
        assert s.a[field][0, col] == fills[field], field
    assert not s.counts[:, 0, col].any()   # 122.2
