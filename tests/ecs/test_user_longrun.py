"""One game played a long time by a host that polls its events and never clears the log:
a poll of the last steps reads those steps, whatever the game's history (ecs/events.py)."""
from __future__ import annotations

import tracemalloc

import numpy as np

from ecs import World, ZoneChanged


def _played(steps: int) -> tuple[World, list[int]]:
    """A game where each step a creature with a +1/+1 counter dies and returns (400.7: a
    new object each time, its last-known counters logged, 704.8) and a counter is put."""
    w = World(seed=0)
    me = w.add_player()
    field = [w.add_object(me, "creature", power=2, toughness=9) for _ in range(20)]
    for i in range(steps):
        j = i % len(field)
        w.put_counters(field[j], "+1/+1", 1)
        field[j] = w.move_zone(w.move_zone(field[j], "graveyard"), "battlefield")
        w.tick()
    return w, field


def _poll_peak(w: World, field: list[int]) -> tuple[int, int]:
    """Peak bytes allocated by one poll of the last step's events, as objects and as
    arrays, the step having one zone change with last-known counters."""
    since = w.step
    w.put_counters(field[0], "+1/+1", 2)
    w.destroy(field[0])
    peaks = []
    for read in (w.events_since, lambda s: w.event_table(since=s)):
        tracemalloc.start()
        try:
            read(since)
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
    return peaks[0], peaks[1]


def test_polling_events_since_reads_the_last_steps_not_the_history_704_8() -> None:
    """A host's trigger poll (``events_since(step)``, ``event_table(since=step)``) of one
    step costs the same after 200 and after 1,000 steps of zone changes never cleared: the
    last-known counters (704.8) of older rows are not read."""
    early = _poll_peak(*_played(200))
    late = _poll_peak(*_played(1_000))
    for before, after in zip(early, late):
        assert after < 1.5 * before + 4_096, (early, late)


def test_polling_gives_the_last_known_counters_of_the_new_zone_changes_704_8() -> None:
    """The events a poll returns are the tail of the whole log's, last-known counters
    included, after a restore and in a fork too."""
    w, field = _played(50)
    snap = w.snapshot()
    for world in (w, w.fork(0, 2, events=True)):
        if world is w:
            w.restore(snap)
        since = world.step
        e = field[3]
        world.put_counters(e, "+1/+1", 2, games=None)
        world.move_zone(e, "exile")
        world.tick()
        polled = world.events_since(since)
        assert polled == world.events()[-len(polled):]
        [moved] = [ev for ev in polled if isinstance(ev, ZoneChanged) and ev.game == 0]
        assert moved.lki == {"+1/+1": 2}   # a new object since it returned (400.7)
        table, whole = world.event_table(since=since), world.event_table()
        n = len(table["type"])
        first = len(whole["type"]) - n
        keep = whole["lki_row"] >= first
        assert np.array_equal(table["lki_row"], whole["lki_row"][keep] - first)
        assert np.array_equal(table["lki_count"], whole["lki_count"][keep])


def _poll_after_snapshot_peak(steps: int) -> tuple[int, int]:
    """Peak bytes of one poll of a game's last two steps (a zone change with last-known
    counters among them) just after a snapshot, which packs the log into a few chunks."""
    w, _ = _played(steps)
    since = w.step - 2
    w.snapshot()
    peaks, polled = [], []
    for read in (w.events_since, lambda s: w.event_table(since=s)["type"]):
        tracemalloc.start()
        try:
            polled.append(len(read(since)))
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
    assert polled == [2, 2]
    return peaks[0], peaks[1]


def test_polling_after_a_snapshot_reads_the_last_steps_not_the_packed_log_704_8() -> None:
    """A search snapshots each node, and a snapshot packs the log: a poll of the last
    steps after it still costs the same after 200 and after 1,000 steps, its rows and
    their last-known counters (704.8) cut from the packed chunks before they are read."""
    early = _poll_after_snapshot_peak(200)
    late = _poll_after_snapshot_peak(1_000)
    for before, after in zip(early, late):
        assert after < 1.5 * before + 4_096, (early, late)


def test_a_poll_into_a_packed_log_gives_the_whole_logs_tail_704_8() -> None:
    """A poll from a step inside a chunk the snapshot packed gives exactly the rows of the
    later steps, as objects and as arrays, each zone change with its last-known counters."""
    w, _ = _played(300)
    for back in (1, 2, 5, 40):
        since = w.step - back
        w.snapshot()
        polled = w.events_since(since)
        assert polled == w.events()[-len(polled):] and polled
        assert any(isinstance(ev, ZoneChanged) and ev.lki for ev in polled) or back == 1
        table, whole = w.event_table(since=since), w.event_table()
        n = len(table["type"])
        assert n == len(polled) and (table["step"] > since).all()
        first = len(whole["type"]) - n
        assert (whole["step"][:first] <= since).all()
        keep = whole["lki_row"] >= first
        assert np.array_equal(table["lki_row"], whole["lki_row"][keep] - first)
        assert np.array_equal(table["lki_count"], whole["lki_count"][keep])
