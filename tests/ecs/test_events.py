"""The event log: objects and columnar arrays agree; steps group simultaneous rows."""
import numpy as np

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
