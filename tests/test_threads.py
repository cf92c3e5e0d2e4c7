"""Worlds in threads and processes: one World per thread (or per process) plays exactly as
it plays alone, and a World's tick or a schedule being built in one thread leaves esper's
module state (the current context, the handlers) as the other threads see it.

A thread test here forces thread switches (``sys.setswitchinterval``) or pins one
interleaving with events, and asserts outcomes (digests, handler calls), never timing.
"""
from __future__ import annotations

import multiprocessing
import sys
import threading
from typing import Any

import esper
import numpy as np
import pytest

from ecs import Schedule, World, zones
from ecs.check import Check, System
from ecs.game import Game


class _Thaw(System):
    """A host's state-based rule: ice and fire counters on a permanent melt in pairs."""
    causes = ("remove",)

    def process(self, game: Game, check: Check) -> None:
        s = game.store
        ice, fire = s.plane("ice"), s.plane("fire")
        if ice is None or fire is None:
            return
        pairs = np.minimum(ice, fire)
        pairs[~check.live_games(game)] = 0
        pairs[s.a["zone"][:, : s.n_cols] != zones.BATTLEFIELD] = 0
        g, c = np.nonzero(pairs)
        check.remove((s.kind_index["ice"], s.kind_index["fire"]), g, c,
                     pairs[g, c].astype(np.int64), "remove")


class _Pause(System):
    """A host system that lets the test run another thread in the middle of a check."""
    causes = ("remove",)

    def __init__(self, inside: threading.Event, resume: threading.Event) -> None:
        self.inside, self.resume = inside, resume

    def process(self, game: Game, check: Check) -> None:
        self.inside.set()
        assert self.resume.wait(60)


def _bear_world(*systems: System) -> tuple[World, int]:
    w = World(seed=1)
    if systems:
        w.schedule = w.schedule.with_systems(*systems)
    bear = w.add_object(w.add_player(), "creature", power=2, toughness=2)
    return w, bear


def _ticking(w: World) -> threading.Thread:
    t = threading.Thread(target=w.tick)
    t.start()
    return t


def test_dispatch_events_reaches_the_handlers_while_another_thread_ticks() -> None:
    """A World's tick running a host's system in one thread: another thread's
    dispatch_events still calls the handlers registered (the tick used to switch esper's
    current context to its schedule's, whose handler table is empty, and the events were
    dropped)."""
    inside, resume = threading.Event(), threading.Event()
    a, _ = _bear_world(_Pause(inside, resume))
    b, bear = _bear_world()
    heard: list[Any] = []

    def on_counter(world: World, event: Any) -> None:
        if world is b:
            heard.append(event.kind)

    esper.set_handler("counter_changed", on_counter)
    try:
        t = _ticking(a)
        assert inside.wait(60)
        step = b.step
        b.put_counters(bear, "+1/+1")
        b.dispatch_events(step)
        resume.set()
        t.join()
    finally:
        resume.set()
        esper.remove_handler("counter_changed", on_counter)
    assert heard == ["+1/+1"]


def test_overlapping_ticks_in_two_threads_leave_esper_where_it_was() -> None:
    """Two Worlds' ticks overlapping (A in, B in, A out, B out): esper's current context is
    the one it was before (B used to switch back to A's schedule's context, and a handler a
    host registered then went to that context, dropped with the schedule)."""
    a_in, a_go, b_in, b_go = (threading.Event() for _ in range(4))
    a, _ = _bear_world(_Pause(a_in, a_go))
    b, _ = _bear_world(_Pause(b_in, b_go))
    before = esper.current_world
    try:
        ta = _ticking(a)
        assert a_in.wait(60)
        tb = _ticking(b)
        assert b_in.wait(60)
        a_go.set()
        ta.join()
        b_go.set()
        tb.join()
    finally:
        a_go.set()
        b_go.set()
    assert esper.current_world == before


class _Slow(System):
    """A host system whose esper priority is set slowly: a schedule being built with it
    stays inside esper's context switch until ``go`` (or a second)."""
    causes = ("remove",)

    def __init__(self, inside: threading.Event, go: threading.Event) -> None:
        self.inside, self.go = inside, go

    @property   # type: ignore[override]
    def priority(self) -> int:
        return 0

    @priority.setter
    def priority(self, value: int) -> None:
        self.inside.set()
        self.go.wait(1)

    def process(self, game: Game, check: Check) -> None:
        pass


def _child_dispatch(out: Any) -> None:
    w, bear = _bear_world(_Thaw())
    heard: list[str] = []

    def on_counter(world: World, event: Any) -> None:
        heard.append(event.kind)

    esper.set_handler("counter_changed", on_counter)
    w.put_counters(bear, "charge")
    w.tick()
    w.dispatch_events(0)
    out.send((esper.current_world, heard))


@pytest.mark.skipif(sys.platform != "linux", reason="forks a process")
def test_a_process_forked_while_a_schedule_is_built_gets_esper_whole() -> None:
    """A process forked while another thread builds a Schedule: the fork waits for the
    context switch to end, so the child's esper is in the context it was in, its handlers
    called (it used to copy the schedule's context as the current one, or the lock that
    guards it held forever)."""
    inside, go = threading.Event(), threading.Event()
    t = threading.Thread(target=lambda: Schedule([_Slow(inside, go)]))
    fork = multiprocessing.get_context("fork")
    here, there = fork.Pipe()
    try:
        t.start()
        assert inside.wait(60)
        child = fork.Process(target=_child_dispatch, args=(there,), daemon=True)
        child.start()
    finally:
        go.set()
        t.join()
    got = here.recv() if here.poll(120) else None
    child.join(5)
    if child.is_alive():
        child.kill()
    assert got == (esper.current_world, ["charge"])
