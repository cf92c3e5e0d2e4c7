"""The store's copies, restores and new ids, and moves on the batch path, where the
differentials rarely reach (each test failed on a mutant the rest of the suite let live).
States are compared by reads: a snapshot of a store that believes it holds a snapshot's
values shares that snapshot's arrays, and would hide stale ones."""
from __future__ import annotations

import numpy as np
from test_search import busy_world

from ecs import World, ZoneChanged


def test_restore_after_a_clone_is_gone_rewrites_what_was_written_before_the_clone():
    """docs/batches-and-search.md, restore(): "back to exactly that state", and "restoring
    the one restored last (a search's undo) rewrites only the arrays written since": an
    array written before a clone was taken (then dropped) is one written since."""
    w, ids = busy_world()
    snap = w.snapshot()
    loyalty = w.count(ids["walker"], "loyalty").tolist()
    w.put_counters(ids["walker"], "loyalty", 1)      # in place: the arrays are w's own
    c = w.clone()
    del c
    w.restore(snap)
    # (a read, not full_state: a snapshot of a store that believes it holds snap's values
    # shares snap's arrays, and would hide the stale ones)
    assert w.count(ids["walker"], "loyalty").tolist() == loyalty


def test_a_clone_restores_its_sources_snapshot_after_the_source_is_gone():
    """A clone is "an independent World equal to this one"; restore gives "back exactly that
    state" whichever World took the snapshot, also once the source is gone."""
    w, ids = busy_world()
    snap = w.snapshot()
    loyalty = w.count(ids["walker"], "loyalty").tolist()
    w.put_counters(ids["walker"], "loyalty", 1)
    c = w.clone()
    del w
    c.restore(snap)
    assert c.count(ids["walker"], "loyalty").tolist() == loyalty


def test_two_objects_in_one_column_of_two_games_become_two_new_objects():
    """400.7 and docs/batches-and-search.md ("an id names the same card in every game"):
    where two games hold different objects in one column, moving both gives two new ids."""
    w = World(batch=2, seed=0)
    p = w.add_player()
    a = w.add_object(p, {"creature"}, power=1, toughness=1, name="A", games=[0])
    b = w.add_object(p, {"creature"}, power=5, toughness=5, name="B", games=[1])
    assert w.store.locate([0, 1], [a, b]).tolist()[0] == w.store.locate([0, 1], [a, b]).tolist()[1]
    w.destroy(np.array([[a], [b]]))
    moved = {e.game: e.new for e in w.events() if isinstance(e, ZoneChanged)}
    assert moved[0] != moved[1]
    assert w.exists(moved[0]).tolist() == [True, False]
    assert w.exists(moved[1]).tolist() == [False, True]


def test_one_object_moved_to_two_zones_becomes_a_new_object_per_zone():
    """ecs/relocation.py: a moved object gets "a new id (one per old id and destination,
    shared by the games in which it moved together)": finality (122.1h) exiles it in one
    game while it dies to the graveyard in the other."""
    w = World(batch=2, seed=0)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    w.put_counters(bear, "finality", 1, games=[0])
    w.destroy(bear)
    moved = {e.game: (e.new, e.to_zone) for e in w.events() if isinstance(e, ZoneChanged)}
    assert moved[0][1] == "exile" and moved[1][1] == "graveyard"
    assert moved[0][0] != moved[1][0]


def test_counters_of_every_kind_survive_the_store_growing_its_columns():
    """A new object changes no other object: counters stay on a permanent until an action or
    rule removes them (122.1; docs/design.md: a full store grows its columns). Growth copies
    every count plane, not the first kind's alone; in a batch and in one game."""
    for batch in (1, 3):
        w = World(batch=batch, seed=0)
        p = w.add_player()
        bear = w.add_object(p, {"creature"}, power=2, toughness=2,
                            counters={"+1/+1": 1, "shield": 2, "stun": 3})
        width = w.store.capacity
        w.add_objects(width, p, {"artifact"})          # past the width: the columns grow
        assert w.store.capacity > width
        got = {k: np.atleast_1d(v).tolist() for k, v in w.counters(bear).items()}
        assert got == {"+1/+1": [1] * batch, "shield": [2] * batch, "stun": [3] * batch}


def _moves(w):
    return [(e.game, e.to_zone) for e in w.events() if isinstance(e, ZoneChanged)]


def test_a_redirect_replaces_dying_only_in_a_batch_too():
    """614.1a / 700.4: "if it would die" is battlefield -> graveyard; a card put into a
    graveyard from a hand is not redirected, on the batch path as on one game's."""
    for batch in (1, 2):
        w = World(batch=batch, seed=0)
        p = w.add_player()
        c = w.add_object(p, {"creature"}, power=1, toughness=1, zone="hand")
        w.set_redirect(c, "exile")
        w.move_zone(c, "graveyard")
        assert _moves(w) == [(g, "graveyard") for g in range(batch)]


def test_finality_replaces_only_a_move_from_the_battlefield_in_a_batch_too():
    """122.1h: finality exiles a *permanent* that would be put into a graveyard *from the
    battlefield*; an exiled card with a finality counter put into a graveyard goes there."""
    for batch in (1, 2):
        w = World(batch=batch, seed=0)
        p = w.add_player()
        c = w.add_object(p, {"creature"}, power=1, toughness=1, zone="exile", counters={"finality": 1})
        w.move_zone(c, "graveyard")
        assert _moves(w) == [(g, "graveyard") for g in range(batch)]


def test_a_card_leaving_a_library_in_a_batch_leaves_its_position_behind(tmp_path):
    """400.7: the new object has no memory of its library position (ecs/persist.py: "a card
    leaving it leaves its position behind (the fill)"); on the batch path as in one game,
    and a save of it loads."""
    for batch in (1, 2):
        w = World(batch=batch, seed=0)
        p = w.add_player()
        cards = w.add_objects(3, p, {"creature"}, power=1, toughness=1, zone="library")
        new = np.atleast_1d(w.move_zone(cards[0], "hand"))
        col = w.store.locate(np.arange(batch), new)
        assert (w.store.a["position"][np.arange(batch), col] == 0).all()
        w.save(tmp_path / f"b{batch}.npz")
        World.load(tmp_path / f"b{batch}.npz")


def test_a_card_kept_where_it_is_does_not_stop_the_others_moving_with_it():
    """GA Champion 8: a champion in banishment sent to the graveyard is banished instead and
    changes no zone (-1); the cards moved with it still move (400.7), on the batch path too."""
    for batch in (1, 2):
        w = World(ruleset="grand_archive", batch=batch, seed=0)
        alice, bob = w.add_player(), w.add_player()
        for p in (alice, bob):
            w.add_object(p, "champion", life=5, level=1)
        spent = w.add_object(alice, "champion", life=5, level=1, zone="banishment")
        ally = w.add_object(alice, "ally", power=1, life=1, zone="hand")
        new = np.asarray(w.move_zone([spent, ally], "graveyard")).reshape(batch, 2)
        assert (new[:, 0] == -1).all() and (new[:, 1] >= 0).all()
        assert np.all(w.zone(int(new[0, 1])) == "graveyard")
        assert np.all(w.zone(spent) == "exile")



def test_removals_of_one_kind_for_two_rules_are_recorded_in_the_order_of_the_causes():
    """704.3, ecs/perform.py: removals of one kind for two rules (704.5q, 704.5r) are
    made "in the order of the causes ... not of the systems", so the events' counts are
    the same whatever the schedule's order: 704.5q's first (3 -> 2), then 704.5r's."""
    from ecs import CounterChanged
    for batch in (1, 2):
        w = World(batch=batch, seed=0)
        p = w.add_player()
        bear = w.add_object(p, {"creature"}, power=2, toughness=2, counters={"+1/+1": 3, "-1/-1": 1})
        w.set_cap(bear, "+1/+1", 1)
        w.clear_events()
        w.tick()
        got = [(e.kind, e.before, e.after, e.cause) for e in w.events()
               if isinstance(e, CounterChanged) and e.game == 0 and e.kind == "+1/+1"]
        assert got == [("+1/+1", 3, 2, "704.5q"), ("+1/+1", 2, 0, "704.5r")]


def test_a_clone_takes_no_view_of_an_array_its_source_replaced(monkeypatch):
    """Without the tests' read-only guard (production): a clone taken right after a restore
    replaced its source's per-player arrays (the snapshot has fewer players) reads the
    restored values, not views of the arrays the restore replaced ("an independent World
    equal to this one", docs/batches-and-search.md)."""
    import ecs.store
    monkeypatch.setattr(ecs.store, "CHECK_SHARING", False)
    w = World(seed=0)
    p = w.add_player()
    snap = w.snapshot()
    w.lose_life(p, 5)
    w.add_player()                                     # the per-player arrays are replaced
    assert w.life(p) == 15                             # (views of them made)
    w.restore(snap)                                    # replaced again: one player
    c = w.clone()
    assert c.life(p) == 20 and w.life(p) == 20


def test_a_single_games_freed_slot_can_have_counters_again():
    """122.5 ends with its object: a token that "can't have counters" ceases to exist
    (704.5d) and the next object made in its slot can have counters, in one game (the
    one-row path) as in a batch."""
    for batch in (1, 2):
        w = World(batch=batch, seed=0)
        p = w.add_player()
        tok = w.add_object(p, {"creature"}, power=1, toughness=1, token=True, no_counters=True)
        w.destroy(tok)
        w.tick()                                        # 704.5d: its slot is free
        bear = w.add_object(p, {"creature"}, power=2, toughness=2)
        w.put_counters(bear, "+1/+1", 1)
        assert np.all(w.count(bear, "+1/+1") == 1)


def test_a_save_after_a_zone_change_since_the_last_snapshot_loads_with_its_new_ids(tmp_path):
    """400.7 (a new object, a new id) and docs/batches-and-search.md (save: "the World as a
    standard .npz"): a snapshot taken after ids were made since the last one carries the
    new next id, so the file loads and names the moved object."""
    w = World(batch=2, seed=0)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    _held = w.snapshot()   # (held: the next snapshot shares its arrays)
    new = int(np.atleast_1d(w.move_zone(bear, "graveyard"))[0])
    w.save(tmp_path / "w.npz")
    again = World.load(tmp_path / "w.npz")
    assert again.zone(new).tolist() == ["graveyard"] * 2
    assert again.store.next_id == w.store.next_id


def test_restoring_copies_of_two_snapshots_of_one_width_maps_each_ones_ids():
    """docs/batches-and-search.md: a copy of a snapshot (a pickle) "is checked first" and
    restored "back to exactly that state": its ids are found, also after a copy of another
    snapshot with as many columns was restored just before."""
    import copy
    w = World(batch=2, seed=0)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    a = w.snapshot()
    new = int(np.atleast_1d(w.move_zone(bear, "graveyard"))[0])
    b = w.snapshot()
    w.restore(copy.deepcopy(a))
    assert w.exists(bear).tolist() == [True, True]
    w.restore(copy.deepcopy(b))
    assert w.exists(new).tolist() == [True, True]
    assert w.zone(new).tolist() == ["graveyard"] * 2


def test_an_object_two_checks_destroy_at_once_moves_once_by_the_first_cause():
    """704.3 / GA Types of Checks 2-3, ecs/perform.py: an object two decisions of one check
    put into the graveyard moves once, "by the one whose cause comes first in CAUSES": a
    unit that is also a weapon, with lethal damage and no durability, dies by damage."""
    for batch in (1, 2):
        w = World(ruleset="grand_archive", batch=batch, seed=0)
        a, b = w.add_player(), w.add_player()
        for p in (a, b):
            w.add_object(p, "champion", life=20, level=1)
        x = w.add_object(a, ("ally", "weapon"), power=1, life=1, durability=0)
        w.deal_damage(x, 1)
        w.clear_events()
        w.tick()
        assert [(e.game, e.cause) for e in w.events() if isinstance(e, ZoneChanged)] == \
            [(g, "ga.damage") for g in range(batch)]


def test_704_5g_damage_marked_again_after_a_settled_tick_is_checked():
    """704.3: whenever a player would receive priority the game checks again. A tick that
    found nothing to do leaves the state settled; damage marked after it in the same field
    written before the tick (one game: a plain write through the views) unsettles it, and
    the next tick puts the creature with lethal damage into the graveyard (704.5g)."""
    w = World(seed=0)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    w.deal_damage(bear, 1)
    w.tick()                                            # nothing to do: settled
    assert w.zone(bear) == "battlefield"
    w.deal_damage(bear, 1)
    w.tick()
    assert not w.exists(bear)


def test_a_clone_that_moved_a_card_before_any_counter_existed_can_have_counters():
    """122.1: counters can be put on a permanent; a clone is "an independent World equal to
    this one". A clone whose first write is a zone change (400.7), made while no kind of
    counter was used yet, copies the count planes it shares with its source; a counter put
    afterwards, of the World's first kind, is there, and not on the source."""
    for batch in (1, 2):
        w = World(batch=batch, seed=0)
        p = w.add_player()
        bear = w.add_object(p, {"creature"}, power=2, toughness=2)
        elf = w.add_object(p, {"creature"}, power=1, toughness=1)
        c = w.clone()
        c.move_zone(bear, "hand")
        c.put_counters(elf, "+1/+1", 1)
        assert np.all(c.count(elf, "+1/+1") == 1) and np.all(w.count(elf, "+1/+1") == 0)


def test_704_5f_an_object_made_after_a_settled_tick_is_checked():
    """704.3: the game checks again whenever a player would receive priority. An object made
    after a tick that found nothing to do (its slot written in place: the arrays have
    room) unsettles the state, and the next tick looks at the new column: a creature with
    toughness 0 made then goes to the graveyard (704.5f), in one game and in a batch."""
    for batch in (1, 2):
        w = World(batch=batch, seed=0)
        p = w.add_player()
        w.add_object(p, {"creature"}, power=2, toughness=2)
        w.tick()                                        # nothing to do: settled
        w.tick()                                        # (the check's arguments cached)
        zero = w.add_object(p, {"creature"}, power=1, toughness=0)
        w.tick()
        assert not np.any(w.exists(zero)), batch


def test_a_clone_restoring_a_snapshot_without_counters_can_have_counters():
    """122.1 after a restore into a clone (its arrays shared, so the restore makes new
    ones) of a snapshot taken before any counter was put: the first kind gets a plane."""
    w = World(batch=2, seed=0)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    snap = w.snapshot()
    c = w.clone()
    c.restore(snap)
    c.put_counters(bear, "+1/+1", 1)
    assert c.count(bear, "+1/+1").tolist() == [1, 1]
    assert w.count(bear, "+1/+1").tolist() == [0, 0]


def test_a_clones_snapshot_holds_what_its_source_wrote_before_the_clone():
    """A clone is "an independent World equal to this one" (docs/batches-and-search.md):
    its snapshot holds the counter its source put after its own last snapshot, so a World
    restoring it has it too (122.1)."""
    for batch in (1, 2):
        w = World(batch=batch, seed=0)
        p = w.add_player()
        bear = w.add_object(p, {"creature"}, power=2, toughness=2, counters={"+1/+1": 1})
        _held = w.snapshot()   # (held: a later snapshot may share its arrays)
        w.put_counters(bear, "+1/+1", 1)
        later = w.clone().snapshot()
        other = World(batch=batch, seed=0)
        other.restore(later)
        assert np.all(other.count(bear, "+1/+1") == 2), batch


def test_a_snapshot_after_a_clone_holds_what_was_written_before_the_clone():
    """docs/batches-and-search.md, snapshot(): the whole state. A counter put after the
    last snapshot and before a clone was taken (alive or dropped) is in the source's next
    snapshot: a World restoring it has it (122.1)."""
    for keep in (True, False):
        w = World(batch=2, seed=0)
        p = w.add_player()
        bear = w.add_object(p, {"creature"}, power=2, toughness=2, counters={"+1/+1": 1})
        _held = w.snapshot()   # (held: a later snapshot may share its arrays)
        w.put_counters(bear, "+1/+1", 1)
        c = w.clone()
        if not keep:
            del c
        later = w.snapshot()
        other = World(batch=2, seed=0)
        other.restore(later)
        assert other.count(bear, "+1/+1").tolist() == [2, 2], keep


def test_a_snapshot_after_a_new_cap_holds_the_cap():
    """122.4 (a maximum number of counters) and snapshot(): the whole state. A new cap
    entry replaces the caps' arrays without writing any in place; the next snapshot holds
    it, so a World restoring it keeps the cap (its check takes the excess off)."""
    for batch in (1, 2):
        w = World(batch=batch, seed=0)
        p = w.add_player()
        rock = w.add_object(p, {"artifact"}, counters={"charge": 1})
        _held = w.snapshot()   # (held: a later snapshot may share its arrays)
        w.set_cap(rock, "charge", 2)
        later = w.snapshot()
        other = World(batch=batch, seed=0)
        other.restore(later)
        other.put_counters(rock, "charge", 5)
        other.tick()                                    # (122.4: the excess is removed)
        assert np.all(other.count(rock, "charge") == 2), batch


def test_a_snapshot_after_a_new_object_in_a_new_column_restores_it():
    """snapshot(): the whole state. An object made since the last snapshot in a column past
    the used ones (the arrays have room: nothing is reallocated) widens every array of the
    next snapshot, which a World restores with the new object in it."""
    for batch in (1, 2):
        w = World(batch=batch, seed=0)
        p = w.add_player()
        w.add_object(p, {"creature"}, power=2, toughness=2)
        _held = w.snapshot()   # (held: a later snapshot may share its arrays)
        elf = w.add_object(p, {"creature"}, power=1, toughness=1)
        later = w.snapshot()
        other = World(batch=batch, seed=0)
        other.restore(later)
        assert np.all(other.exists(elf)) and np.all(other.toughness(elf) == 1), batch


def test_122_1a_power_after_restoring_a_snapshot_of_other_kinds_counts_its_counters():
    """122.1a: a +1/+1 counter gives its creature +1/+1. A World that read power while it
    used only charge counters restores a snapshot (of a World built the same way) whose
    bear has two +1/+1 counters: what it derived from its kind names is not reused for the
    snapshot's, and the bear is 4/4."""
    def world():
        w = World(seed=0)
        return w, w.add_object(w.add_player(), {"creature"}, power=2, toughness=2)

    src, bear = world()
    src.put_counters(bear, "+1/+1", 2)
    snap = src.snapshot()
    w, same = world()
    assert same == bear
    w.put_counters(bear, "charge", 1)
    assert (w.power(bear), w.toughness(bear)) == (2, 2)
    w.restore(snap)
    assert (w.power(bear), w.toughness(bear)) == (4, 4)
