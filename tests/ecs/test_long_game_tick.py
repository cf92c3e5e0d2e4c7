"""A long game's tick: thousands of cards in graveyards beside a few permanents (CR 400.7).

The state-based actions that kill concern permanents (704.5f-i, v); a card in a graveyard
never dies again, whatever its counters or damage. A board ticks the same with a big
graveyard beside it as without.
"""

import numpy as np

from ecs import World, ZoneChanged
from ecs.systems import lethality
from ecs.systems.lethality import dying, dying_at, rule_kinds

GRAVEYARD = 3_000


def _board(graveyard: int) -> tuple[World, list[int]]:
    """Two players, a graveyard of ``graveyard`` cards (some with counters that would kill
    a permanent), then the same eight permanents."""
    w = World()
    p, q = w.add_player(), w.add_player()
    for i in range(graveyard):
        w.add_object(p if i % 2 else q, {"creature"}, zone="graveyard", power=1, toughness=1,
                     counters={"-1/-1": 2} if i % 7 == 0 else None)
    ids = [
        w.add_object(p, {"creature"}, power=2, toughness=2),                          # -1/-1 x2: 704.5f
        w.add_object(p, {"creature"}, power=2, toughness=3),                          # 3 damage: 704.5g
        w.add_object(q, {"creature"}, power=1, toughness=5),                          # deathtouch: 704.5h
        w.add_object(q, {"creature"}, power=2, toughness=2, counters={"indestructible": 1}),  # 702.12b
        w.add_object(p, {"planeswalker"}, loyalty=1),                                 # loses it: 704.5i
        w.add_object(q, {"creature"}, power=2, toughness=2),                          # +1/+1 and -1/-1: 704.5q
        w.add_object(p, {"creature"}, power=1, toughness=1),                          # stays
        w.add_object(q, {"creature"}, power=3, toughness=3),                          # stays, damaged
    ]
    w.tick()
    w.clear_events()
    return w, ids


def _act(w: World, ids: list[int]) -> None:
    w.put_counters(ids[0], "-1/-1", 2)
    w.deal_damage(ids[1], 3)
    w.deal_damage(ids[2], 1, deathtouch=True)
    w.deal_damage(ids[3], 5)
    w.remove_counters(ids[4], "loyalty", 1)
    w.put_counters(ids[5], "+1/+1", 1)
    w.put_counters(ids[5], "-1/-1", 2)
    w.deal_damage(ids[7], 2)


def _story(w: World, ids: list[int]) -> list[tuple]:
    """The tick's events with each permanent named by its place in ``ids``."""
    place = {e: i for i, e in enumerate(ids)}
    out = []
    for ev in w.events():
        if isinstance(ev, ZoneChanged):
            out.append(("zone", place.get(ev.old), ev.cause, tuple(sorted((ev.lki or {}).items()))))
        else:
            out.append((type(ev).__name__, place.get(getattr(ev, "entity", None)),
                        getattr(ev, "kind", None), getattr(ev, "before", None),
                        getattr(ev, "after", None), getattr(ev, "cause", None)))
    return out


def test_704_5_a_big_graveyard_ticks_as_the_same_board_without_it_400_7() -> None:
    small, small_ids = _board(0)
    big, big_ids = _board(GRAVEYARD)
    for w, ids in ((small, small_ids), (big, big_ids)):
        _act(w, ids)
        w.clear_events()
    assert small.tick() == big.tick()
    assert _story(small, small_ids) == _story(big, big_ids)
    assert [small.exists(e) and small.zone(e) for e in small_ids] == \
        [big.exists(e) and big.zone(e) for e in big_ids]
    # the graveyard's cards with -1/-1 counters stay there (704.5f concerns permanents)
    assert len(big.objects("graveyard")) == GRAVEYARD + len(small.objects("graveyard"))


def test_704_5f_dying_over_a_sparse_row_finds_what_each_permanent_alone_finds() -> None:
    """``dying`` over a row with few permanents among many cards (its per-permanent way)
    finds the rows ``dying_at`` finds over every slot."""
    w, ids = _board(GRAVEYARD)
    _act(w, ids)
    s, a = w.store, w.store.a
    n = s.n_cols
    assert np.count_nonzero(a["zone"][0, :n] == 3) * lethality.SPARSE < n   # the sparse way
    state = (a["zone"], s.counts, a["damage"], a["deathtouch_hit"], a["types"], a["toughness"],
             a["keywords"], a["pt_set_toughness"], a["pt_mod_toughness"])
    g, c, r = dying(*state, np.zeros(1, np.int64), n, *rule_kinds(w))
    slots = np.arange(n, dtype=np.int64)
    g2, c2, r2 = dying_at(*state, slots, s.capacity, np.ones(1, np.bool_), *rule_kinds(w))
    assert c.tolist() == c2.tolist() and r.tolist() == r2.tolist() and g.tolist() == g2.tolist()
    assert c.size == 4   # 704.5f, g, h, i: the indestructible one and the cards stay


def test_704_5f_dying_over_a_batch_of_a_dense_and_a_sparse_wide_row_finds_each_permanents_fate() -> None:
    """A batch whose game 0 holds 1,300 permanents and game 1 the same columns as cards in
    graveyards (its row the sparse way, game 0's the dense loop) beside the same eight
    permanents: ``dying`` over both rows finds what ``dying_at`` finds over every slot."""
    w = World(batch=2)
    p, q = w.add_player(), w.add_player()
    w.add_objects(1_300, p, {"creature"}, power=1, toughness=1, games=[0])
    w.add_objects(1_300, q, {"creature"}, power=1, toughness=1, zone="graveyard", games=[1],
                  counters={"-1/-1": 2})
    ids = [w.add_object(p, {"creature"}, power=2, toughness=2),
           w.add_object(q, {"creature"}, power=2, toughness=3),
           w.add_object(p, {"planeswalker"}, loyalty=1)]
    w.tick()
    w.put_counters(ids[0], "-1/-1", 2)
    w.deal_damage(ids[1], 3)
    w.remove_counters(ids[2], "loyalty", 1)
    s, a = w.store, w.store.a
    n = s.n_cols
    on = (a["zone"][:, :n] == 3).sum(axis=1)
    assert n >= 1_024 and on[0] * lethality.SPARSE >= n and on[1] * lethality.SPARSE < n
    state = (a["zone"], s.counts, a["damage"], a["deathtouch_hit"], a["types"], a["toughness"],
             a["keywords"], a["pt_set_toughness"], a["pt_mod_toughness"])
    g, c, r = dying(*state, np.arange(2, dtype=np.int64), n, *rule_kinds(w))
    slots = (np.arange(2)[:, None] * s.capacity + np.arange(n)).ravel()
    g2, c2, r2 = dying_at(*state, slots, s.capacity, np.ones(2, np.bool_), *rule_kinds(w))
    assert list(zip(g.tolist(), c.tolist(), r.tolist())) == list(zip(g2.tolist(), c2.tolist(), r2.tolist()))
    assert np.bincount(g, minlength=2).tolist() == [3, 3]   # 704.5f, g, i in each game
