"""The event log: objects and columnar arrays agree; steps group simultaneous rows."""
import numpy as np
import pytest

from ecs import CounterChanged, GameEnded, PlayerLost, World, ZoneChanged
from ecs.events import CAUSES, COUNTER, ZONE


def test_columnar_table_matches_event_objects():
    w = World(batch=2)
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2, counters={"+1/+1": 1})
    w.put_counters(bear, "-1/-1", np.array([1, 4]))
    w.deal_damage(q, 20, games=[1])
    w.tick()
    events, t = w.events(), w.event_table()
    assert len(events) == t["type"].size
    for i, e in enumerate(events):
        assert e.game == t["game"][i]
        if isinstance(e, CounterChanged):
            assert t["type"][i] == COUNTER and (e.before, e.after) == (t["before"][i], t["after"][i])
            assert e.cause == CAUSES[t["cause"][i]]
        if isinstance(e, ZoneChanged):
            assert t["type"][i] == ZONE and e.old == t["entity"][i] and e.new == t["other"][i]
    kinds = [type(e).__name__ for e in events]
    assert kinds.count("ZoneChanged") == 1 and PlayerLost(1, q, "704.5a") in events
    assert GameEnded(1, p, "104.2a") in events
    # game 0 annihilated; game 1 died (704.5f) so its counters were not "removed" (122.2)
    removed = [(e.game, e.cause) for e in events if isinstance(e, CounterChanged) and e.delta < 0]
    assert removed == [(0, "704.5q"), (0, "704.5q")]


def test_one_check_is_one_step():
    w = World()
    p = w.add_player()
    a = w.add_object(p, {"creature"}, power=1, toughness=1, counters={"+1/+1": 1, "-1/-1": 1})
    b = w.add_object(p, {"artifact"}, counters={"charge": 3}, caps={"charge": 1})
    w.clear_events()
    w.tick()
    t = w.event_table()
    assert t["type"].size == 3 and np.unique(t["step"]).size == 1
    assert w.counters(a) == {} and w.counters(b) == {"charge": 1}   # 704.5q and 704.5r together


def test_lki_rows_in_the_table():
    w = World()
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2, counters={"charge": 2, "+1/+1": 1})
    w.clear_events()
    w.sacrifice(bear)
    t = w.event_table()
    kinds = {w.store.kind_names[k]: n for k, n in zip(t["lki_kind"], t["lki_count"])}
    assert kinds == {"charge": 2, "+1/+1": 1} and set(t["lki_row"]) == {0}


def test_clear_events():
    """clear_events drops the rows and leaves the step (api.md: it never falls)."""
    w = World()
    p = w.add_player()
    w.put_counters(p, "energy", 2)
    step = w.step
    w.clear_events()
    assert w.events() == [] and w.event_table()["type"].size == 0
    assert w.step == step > 0


def test_events_since_a_step_gives_the_rows_of_the_later_steps_however_the_log_is_held(tmp_path):
    """events_since(k) is the rows of the steps after k: on the log as written, as a clone
    holds it and as a saved file loads it (chunks of several steps each)."""
    w = World(batch=2, seed=0)
    p, q = w.add_player(), w.add_player()
    bears = [w.add_object(p, "creature", power=2, toughness=2) for _ in range(3)]
    for i, bear in enumerate(bears):
        w.put_counters(bear, "+1/+1", i + 1)
        w.deal_damage(bear, 2, games=[i % 2])
        w.tick()
    w.lose_life(q, 3)
    w.save(tmp_path / "w.npz")
    steps = w.event_table()["step"].tolist()
    for held in (w, w.clone(), World.load(tmp_path / "w.npz")):
        events = held.events()
        assert events == w.events()
        assert held.events_since(None) == events
        for k in range(w.step + 1):
            want = [e for e, s in zip(events, steps) if s > k]
            assert held.events_since(k) == want, k


def _quiet_batch() -> tuple[World, int, int, int]:
    w = World(batch=2, seed=0)
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    w.tick()
    return w, p, q, bear


NOOP_ACTIONS = {
    "a put of 0": lambda w, p, q, e: w.put_counters(e, "+1/+1", 0),
    "a removal of counters it lacks": lambda w, p, q, e: w.remove_counters(e, "-1/-1", 2),
    "0 damage (120.8)": lambda w, p, q, e: w.deal_damage(e, 0),
    "a put in no game": lambda w, p, q, e: w.put_counters(e, "+1/+1", 1, games=[]),
    "a destroy in no game": lambda w, p, q, e: w.destroy(e, games=[]),
    "a move in no game": lambda w, p, q, e: w.move_zone(e, "graveyard", games=[]),
    "objects made in no game": lambda w, p, q, e: w.add_object(p, "creature", power=1, toughness=1,
                                                               games=[]),
    "a proliferate of nothing": lambda w, p, q, e: w.proliferate(p, []),
}


def test_an_accepted_action_that_changes_nothing_takes_a_step_of_its_own():
    """api.md: each accepted call of an action that logs events takes a step, rows or none,
    so the rows with ``step == w.step`` after a call are that call's and no earlier one's."""
    for name, act in NOOP_ACTIONS.items():
        w, p, q, bear = _quiet_batch()
        before, rows = w.step, len(w.events())
        act(w, p, q, bear)
        assert (w.step, len(w.events())) == (before + 1, rows), name


def test_a_put_where_present_of_an_id_gone_takes_a_step_and_writes_nothing():
    w, p, q, bear = _quiet_batch()
    w.destroy(bear, games=[0])
    before, rows = w.step, len(w.events())
    w.put_counters(bear, "+1/+1", 1, where="present", games=[0])
    assert (w.step, len(w.events())) == (before + 1, rows)


def test_a_refused_call_life_cleanup_and_a_quiet_tick_take_no_step():
    """A refused call changes nothing, its step neither; life changes and cleanup (514.2)
    log no events, and a tick with nothing to do (704.3) none either."""
    w, p, q, bear = _quiet_batch()
    before = w.step
    with pytest.raises(ValueError):
        w.put_counters(bear, "+1/+1", -1)
    w.lose_life(q, 1)
    w.gain_life(q, 1)
    w.cleanup()
    w.tick()
    assert w.step == before and w.life(q).tolist() == [20, 20]
