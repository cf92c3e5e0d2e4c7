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
from ecs.components import ALL_FIELDS, GAME_COLUMN

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


def _scene(batch: int, controlled: Any = None) -> tuple[World, tuple[int, ...]]:
    """Objects whose moves read each per-game state a move reads: counters with a cap and
    a finality counter (122.1h), a host's redirect under another controller, a token, a
    planeswalker card (306.5b) and a card bound for the library (``controlled``: the games
    of the control change)."""
    w = World(batch=batch, seed=3)
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=9, counters={"+1/+1": 2, "finality": 1},
                        caps={"+1/+1": 5})
    wolf = w.add_object(p, "creature", power=1, toughness=1, counters={"charge": 1})
    w.set_redirect(wolf, "hand")
    w.set_controller(wolf, q, games=controlled)
    tok = w.add_object(p, "creature", power=1, toughness=1, token=True)
    pw = w.add_object(p, {"planeswalker"}, zone="hand", loyalty=3)
    card = w.add_object(p, "artifact", zone="hand")
    return w, (bear, wolf, tok, pw, card)


def _moves(w: World, objs: tuple[int, ...], games: Any) -> None:
    bear, wolf, tok, pw, card = objs
    w.destroy(bear, games=games)
    w.destroy(wolf, games=games)
    w.move_zone(tok, "graveyard", games=games)
    w.tick()   # 704.5d: the token ceases to exist
    w.move_zone(pw, "battlefield", games=games)
    w.move_zone(card, "library", games=games)


def _same(a: World, b: World) -> None:
    sa, sb = a.snapshot()["store"], b.snapshot()["store"]
    assert sa.keys() == sb.keys() and all(np.array_equal(sa[k], sb[k]) for k in sa), \
        [k for k in sa if not np.array_equal(sa[k], sb[k])]
    ta, tb = a.event_table(), b.event_table()
    for t in (ta, tb):   # (steps as their order: the first game's own actions took steps too)
        t["step"] = np.unique(t["step"], return_inverse=True)[1]
    assert all(np.array_equal(ta[k], tb[k]) for k in ta), [k for k in ta if not np.array_equal(ta[k], tb[k])]


@pytest.mark.parametrize("games", [[1], None])
def test_400_7_moves_in_a_batchs_later_game_are_that_games_alone(games: Any) -> None:
    """Each move in the second game of a batch (alone: the single-game path; with the
    first: the general one) leaves that game as a World of one game that made it, and
    a game that did not move as it was."""
    w, objs = _scene(2, games)
    if games is not None:   # the first game: no finality, redirect or control change; its cap stays
        bear, wolf = objs[:2]
        w.remove_counters(bear, "finality", 1, games=[0])
        w.set_redirect(wolf, None, games=[0])
    s = w.store
    n, kinds = s.n_cols, len(s.kind_names)
    first = {f.name: s.a[f.name][0, :n].copy() for f in ALL_FIELDS if f.shape == GAME_COLUMN}
    first_counts, first_caps = s.counts[:kinds, 0, :n].copy(), s.a["cap_val"][0].copy()
    _moves(w, objs, games)
    one, objs1 = _scene(1)
    _moves(one, objs1, None)
    _same(w.select([1]), one)
    if games is None:
        _same(w.select([0]), one)
    else:
        for name, v in first.items():
            assert np.array_equal(s.a[name][0, :n], v), name
        assert np.array_equal(s.counts[:kinds, 0, :n], first_counts) and not s.counts[kinds:, 0].any()
        assert np.array_equal(s.a["cap_val"][0], first_caps)


def test_122_4_a_cap_in_a_batchs_later_game_alone_ends_with_the_object_there() -> None:
    """A cap (122.4) ends when its object changes zones (400.7): a creature capped in the
    second game of a batch only, moved there alone (the single-game path), comes back
    without it, while the first game, which has no cap, is untouched."""
    w = World(batch=2)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2, caps={"+1/+1": [-1, 1]})
    card = w.move_zone(bear, "hand", games=[1])
    back = w.move_zone(card, "battlefield", games=[1])
    w.put_counters(back, "+1/+1", 3, games=[1])
    w.put_counters(bear, "+1/+1", 3, games=[0])
    w.tick()   # 704.5r would remove what passes a cap
    assert w.select([1]).count(back, "+1/+1") == 3 and w.select([0]).count(bear, "+1/+1") == 3
