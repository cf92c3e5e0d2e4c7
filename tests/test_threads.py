"""Worlds in threads and processes: one World per thread (or per process) plays exactly as
it plays alone, and a World's tick or a schedule being built in one thread leaves esper's
module state (the current context, the handlers) as the other threads see it.

A thread test here forces thread switches (``sys.setswitchinterval``) or pins one
interleaving with events, and asserts outcomes (digests, handler calls), never timing.
"""
from __future__ import annotations

import hashlib
import multiprocessing
import os
import pickle
import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import esper
import numpy as np
import pytest

from ecs import CounterError, World, ZoneChanged
from ecs.check import Check, System
from ecs.game import Game
from ecs.rules import GrandArchive, Magic

try:
    from host_rules import Thaw  # a host's state-based rule (ice and fire melt in pairs)
except ImportError:   # (imported as a package module)
    from tests.host_rules import Thaw


def _one_more_charge(kind: str, amount: Any) -> Any:
    """A host's replacement: one more charge counter is put instead (a ``place`` hook)."""
    return np.where(amount > 0, amount + 1, amount) if kind == "charge" else amount


class _Doubling(Magic):
    def place(self, world: Any, kind: str, g: Any, c: Any, amount: Any, cause: Any, by: Any,
              e: Any = None) -> None:
        super().place(world, kind, g, c, _one_more_charge(kind, amount), cause, by, e)


class _GADoubling(GrandArchive):
    def place(self, world: Any, kind: str, g: Any, c: Any, amount: Any, cause: Any, by: Any,
              e: Any = None) -> None:
        super().place(world, kind, g, c, _one_more_charge(kind, amount), cause, by, e)


def _feed(h: Any, x: Any) -> None:
    if isinstance(x, np.ndarray):
        h.update(f"{x.dtype}{x.shape}".encode())
        h.update(np.ascontiguousarray(x).tobytes())
    elif hasattr(x, "keys"):
        for k in sorted(x.keys(), key=str):
            if k not in ("settled", "layout"):   # (a schedule's serial, unique per process)
                h.update(f"{k}:".encode())
                _feed(h, x[k])
    elif isinstance(x, (list, tuple)) or type(x).__name__ == "Names":
        h.update(f"[{len(x)}".encode())
        for i in x:
            _feed(h, i)
    else:
        h.update(repr(x).encode())


def _digest(*parts: Any) -> str:
    h = hashlib.sha256()
    for p in parts:
        _feed(h, p)
    return h.hexdigest()


def _state(w: World) -> str:
    return _digest(w.snapshot(), w.event_table())


# The handlers are registered once, before any thread starts: esper's handlers are the
# process's, so each is called by every thread's dispatch_events and routes by its World.
_HEARD: dict[int, list[str]] = {}


def _hear(world: World, event: Any) -> None:
    heard = _HEARD.get(id(world))
    if heard is None:
        return
    heard.append(repr(event))
    # a trigger: a phoenix that dies returns, and its return is heard at the next dispatch
    if isinstance(event, ZoneChanged) and event.name == "phoenix" and event.new is not None \
            and event.to_zone == "graveyard" and len(heard) < 400:
        try:
            world.move_zone(event.new, "battlefield", games=event.game, counters={"charge": 1})
        except CounterError as err:
            heard.append(type(err).__name__)


for _name in ("counter_changed", "zone_changed", "damage_dealt"):
    esper.set_handler(_name, _hear)


def play(seed: int, ruleset: str, batch: int, steps: int = 60) -> str:
    """A seeded self-play game of one World: the host's ruleset and system, counters,
    damage, destroys, objects made, zone changes, draws and mills, main phases, P/T
    effects, clones, snapshots restored, forks, observations and dispatched events; the
    digest of everything it saw and of its final state."""
    rng = np.random.default_rng(seed)
    ga = ruleset == "grand_archive"
    w = World(ruleset=ruleset, batch=batch, seed=seed)
    w.ruleset = _GADoubling() if ga else _Doubling()
    w.schedule = w.schedule.with_systems(Thaw)
    heard = _HEARD[id(w)] = []
    kinds = ["charge", "ice", "fire", "buff", "debuff", "damage"] if ga else \
        ["charge", "ice", "fire", "-1/-1", "+1/+1", "shield", "stun"]
    seen: list[Any] = []
    try:
        players = [w.add_player(), w.add_player()]
        stat = {"life": 3} if ga else {"toughness": 3}
        ids = [w.add_object(p, "ally" if ga else "creature", power=2, name=f"c{i}" if i else "phoenix",
                            **{k: v + i for k, v in stat.items()}) for p in players for i in range(5)]
        for p in players:
            for i in range(5):
                w.add_object(p, "action" if ga else "sorcery", zone="library", name=f"card{i}")
        since = w.step
        for t in range(steps):
            op = int(rng.integers(0, 12))
            e = ids[int(rng.integers(0, len(ids)))]
            p = players[t % 2]
            n = rng.integers(0, 5, batch) if batch > 1 else int(rng.integers(0, 5))
            try:
                if op == 0:
                    w.put_counters(e, kinds[int(rng.integers(0, len(kinds)))], n, where="present")
                elif op == 1:
                    w.deal_damage(e, n, where="present")
                elif op == 2:
                    w.destroy(e, where="present")
                elif op == 3:
                    ids.append(w.add_object(p, "ally" if ga else "creature", power=1, name="phoenix",
                                            counters={"charge": 1}, **stat))
                elif op == 4:
                    seen.append(w.move_zone(e, ("hand", "graveyard")[t % 2], where="present"))
                elif op == 5:
                    seen.append(w.draw(p) if t % 2 else w.mill(p))
                elif op == 6:
                    w.begin_main_phase()
                elif op == 7:
                    w.modify_pt(e, 1, 1, games=w.exists(e) & w.ongoing)
                elif op == 8:
                    c = w.clone()
                    c.put_counters(e, "charge", 2, where="present")
                    c.tick()
                    seen.append(_state(c))
                elif op == 9:
                    snap = w.snapshot()
                    w.put_counters(e, "debuff" if ga else "-1/-1", 3, where="present")
                    w.tick()
                    seen.append(_state(w))
                    w.restore(snap)
                elif op == 10:
                    f = w.fork(0, 3, events=bool(t % 2))
                    f.deal_damage(e, f.rng.integers(0, 4, 3), where="present")
                    f.tick()
                    seen.append(_state(f))
                else:
                    seen.append(w.observe(np.array(ids[:8])))
            except CounterError as err:
                seen.append(type(err).__name__)
            w.tick()
            since = w.dispatch_events(since)
            seen.append(w.step)
        return _digest(seen, heard, _state(w))
    finally:
        del _HEARD[id(w)]


CASES = [(11, "mtg", 1), (12, "mtg", 8), (13, "grand_archive", 1), (14, "grand_archive", 8)]


def _play(case: tuple[int, str, int]) -> str:
    return play(*case)


@pytest.fixture(scope="module")
def serial() -> list[str]:
    return [_play(c) for c in CASES]


@pytest.fixture
def switching() -> Iterator[None]:
    """Thread switches as often as the interpreter allows."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def test_one_world_per_thread_plays_as_it_plays_alone(serial: list[str], switching: None) -> None:
    """Four threads, each its own Worlds (Magic and Grand Archive, one game and eight):
    every game's events, handler calls and final state are those of the serial run, and
    esper's current context is where it was."""
    before = esper.current_world
    with ThreadPoolExecutor(4) as pool:
        for _ in range(4):
            assert list(pool.map(_play, CASES)) == serial
    assert esper.current_world == before


@pytest.mark.parametrize("method", ["spawn", "fork"])
def test_worlds_in_worker_processes_play_as_alone(serial: list[str], method: str) -> None:
    """The same games in a process pool, and a World pickled to a worker midway plays on
    there as it plays on here."""
    w = World(ruleset="mtg", batch=4, seed=3)
    w.schedule = w.schedule.with_systems(Thaw)
    p = w.add_player()
    bears = w.add_objects(4, p, "creature", power=1, toughness=3, counters={"ice": 1})
    w.tick()
    blob = pickle.dumps((w, bears))
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context(method)) as pool:
        assert list(pool.map(_play, CASES)) == serial
        assert pool.submit(_play_on, blob).result() == _play_on(blob)


def _play_on(blob: bytes) -> str:
    w, bears = pickle.loads(blob)
    for t in range(8):
        w.put_counters(bears[t % 4], ("fire", "-1/-1")[t % 2], w.rng.integers(0, 3, 4), where="present")
        w.tick()
    return _state(w)


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


def test_a_schedule_built_and_run_leaves_esper_as_it_was() -> None:
    """A Schedule keeps its systems itself: building one (a World's first tick,
    ``with_systems``, an unpickled World) and running it make no esper context and switch
    none, so another thread's esper calls (its handlers, a host's own entities) never see
    another context than their own."""
    before = (esper.current_world, set(esper.list_worlds()))
    w, bear = _bear_world(Thaw())
    w.put_counters(bear, "ice")
    w.put_counters(bear, "fire")
    w.tick()
    w.begin_main_phase()
    pickle.loads(pickle.dumps(w)).tick()
    assert (esper.current_world, set(esper.list_worlds())) == before
    assert w.counters(bear) == {}


def test_a_handler_that_removes_itself_leaves_the_others_their_events() -> None:
    """A one-shot trigger removes its handler as it runs: dispatch_events goes on, and
    calls the other handlers for every event (iterating esper's own set raised)."""
    w, bear = _bear_world()
    calls: list[tuple[str, str]] = []

    def once(world: World, event: Any) -> None:
        calls.append(("once", event.kind))
        esper.remove_handler("counter_changed", once)

    def every(world: World, event: Any) -> None:
        calls.append(("every", event.kind))

    esper.set_handler("counter_changed", once)
    esper.set_handler("counter_changed", every)
    try:
        step = w.step
        w.put_counters(bear, "charge")
        w.put_counters(bear, "quest")
        assert w.dispatch_events(step) == w.step
    finally:
        esper.remove_handler("counter_changed", once)
        esper.remove_handler("counter_changed", every)
    assert sorted(calls) == [("every", "charge"), ("every", "quest"), ("once", "charge")]


def _battle(seed: int) -> str:
    """A batch of games whose Lethality pass is split (``MIN_ELEMENTS`` lowered)."""
    w = World(batch=16, seed=seed)
    bears = w.add_objects(30, w.add_player(), "creature", power=1, toughness=3)
    for _ in range(6):
        w.deal_damage(bears[w.rng.integers(0, 30, (16, 5))], 1, where="present")
        w.put_counters(bears[w.rng.integers(0, 30, (16, 3))], "-1/-1", 1, where="present")
        w.tick()
    return _state(w)


def test_set_threads_while_other_threads_tick_split_batches(monkeypatch: pytest.MonkeyPatch,
                                                            switching: None) -> None:
    """One thread changes ``set_threads`` (1, 2, 3, ...) while three others tick batches
    whose Lethality pass is split: each split uses the count it read, and no pass finds
    a pool of no thread (ValueError) or one another split shut down (RuntimeError); the
    results are the serial ones, 704.5f and 704.5g applied alike."""
    from ecs.systems import parallel
    before = parallel.threads()
    monkeypatch.setattr(parallel, "MIN_ELEMENTS", 1)
    parallel.set_threads(1)
    serial = [_battle(s) for s in range(6)]
    stop = threading.Event()

    def toggle() -> None:
        i = 0
        while not stop.is_set():
            parallel.set_threads(1 + i % 3)
            i += 1

    toggler = threading.Thread(target=toggle)
    toggler.start()
    try:
        with ThreadPoolExecutor(3) as pool:
            for _ in range(4):
                assert list(pool.map(_battle, range(6))) == serial
    finally:
        stop.set()
        toggler.join()
        parallel.set_threads(before)


ROOT = Path(__file__).resolve().parents[1]

_COLD = """
import sys, threading
from concurrent.futures import ThreadPoolExecutor
sys.setswitchinterval(1e-6)
from ecs import World

def play(case):
    ruleset, batch = case
    w = World(ruleset=ruleset, batch=batch, seed=batch)
    p = w.add_player()
    stat = {"life": 2} if ruleset == "grand_archive" else {"toughness": 2}
    ids = w.add_objects(4, p, "ally" if ruleset == "grand_archive" else "creature", power=1, **stat)
    w.deal_damage(ids[1], 1)
    w.put_counters(ids[2], "charge", 2)
    w.tick()
    return w.event_table()["entity"].tolist(), repr(w.exists(ids[1]))

cases = [("mtg", 1), ("mtg", 8), ("grand_archive", 1), ("grand_archive", 8)]
with ThreadPoolExecutor(4) as pool:
    together = list(pool.map(play, cases))
assert together == [play(c) for c in cases], together
print("ok")
"""


def test_worlds_made_in_four_threads_at_once_on_a_cold_cache(tmp_path: Path) -> None:
    """The first Worlds of a process, made in four threads at once before any kernel is
    compiled (numba's disk cache empty): the kernels are compiled once, one thread at a
    time, and every World plays as it plays alone (two threads compiling at once failed
    numba's typing, or the compile helper forked while another thread held numba's
    compiler lock waited for it forever)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path),
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    p = subprocess.run([sys.executable, "-c", _COLD], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=600)
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stderr[-2000:]


def _play_clone(c: World, bears: np.ndarray, k: int) -> str:
    for t in range(20):
        c.put_counters(bears[(k + t) % 20], ("fire", "-1/-1", "+1/+1")[t % 3], 1 + k % 2,
                       where="present")
        if t % 7 == 0:
            snap = c.snapshot()
            c.deal_damage(bears[t], 2, where="present")
            c.tick()
            c.restore(snap)
        c.tick()
    return _state(c)


@pytest.mark.parametrize("batch", [1, 8])
def test_clones_played_in_threads_while_their_source_plays_on(batch: int, switching: None) -> None:
    """Clones of one World, each played in a thread of its own while the source plays on
    and is restored here: the arrays they share are copied by whichever writes first, so
    each clone ends as it ends played alone (704.5f, 704.5q in each)."""
    w = World(batch=batch, seed=5)
    w.schedule = w.schedule.with_systems(Thaw)
    bears = w.add_objects(20, w.add_player(), "creature", power=1, toughness=4, counters={"ice": 1})
    w.tick()
    base = w.snapshot()
    alone = [_play_clone(w.clone(), bears, k) for k in range(6)]
    w.restore(base)
    for _ in range(3):
        clones = [w.clone() for _ in range(6)]
        with ThreadPoolExecutor(4) as pool:
            played = [pool.submit(_play_clone, c, bears, k) for k, c in enumerate(clones)]
            for t in range(20):
                w.put_counters(bears[t], "-1/-1", 2, where="present")
                w.tick()
                if t % 5 == 0:
                    w.restore(base)
            assert [f.result() for f in played] == alone
        w.restore(base)


def test_a_clones_first_read_beside_its_sources_copy_on_write_keeps_each_its_damage(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A clone in another thread reads the marked damage (120.3e) for the first time while
    its source copies that array (its first write since the clone): the view of the shared
    array the clone hands its source lands after the source's copy. The source's later
    damage goes to its own array and the clone's stays 0 (the source's views took that
    view as its own: its damage went to the clone's array, and it read that back)."""
    from ecs import store as store_module
    monkeypatch.setattr(store_module, "CHECK_SHARING", False)   # (the guard starts a clone's views afresh)
    w = World(seed=1)
    bear = w.add_object(w.add_player(), "creature", power=1, toughness=5)
    w.tick()
    assert w.counters(bear) == {}
    c = w.clone()
    source_views = w.store.views()
    inside, resume = threading.Event(), threading.Event()

    def pausing(method: Any) -> Any:
        def paused(self: Any, name: str, view: Any) -> Any:
            if self is source_views and threading.current_thread() is reader:
                inside.set()   # the clone is about to give its source a view
                assert resume.wait(60)
            return method(self, name, view)
        return paused

    for name in ("__setitem__", "setdefault"):
        monkeypatch.setattr(store_module.Views, name, pausing(getattr(dict, name)))
    seen: list[Any] = []
    reader = threading.Thread(target=lambda: seen.append(c.damage(bear)))
    reader.start()
    try:
        assert inside.wait(60)
        w.deal_damage(bear, 2)
    finally:
        resume.set()
        reader.join()
    w.deal_damage(bear, 1)
    assert (seen, w.damage(bear), c.damage(bear)) == ([0], 3, 0)


def test_a_clones_check_beside_its_sources_destroys_each_its_own_dying(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A World and its clone each deal lethal damage to another creature and tick in two
    threads, the clone's whole tick run between the end of the source's probe and its
    reading of the creatures the probe found dying: each destroys its own (704.5g). (The
    two probes wrote their rows into one buffer the clone's cached arguments took from the
    source's, and the source destroyed the clone's creature.)"""
    from ecs.systems import settled
    w = World(seed=1)
    bears = w.add_objects(4, w.add_player(), "creature", power=1, toughness=2)
    w.tick()
    c = w.clone()
    w.deal_damage(bears[0], 2)
    c.deal_damage(bears[1], 2)
    inside, resume = threading.Event(), threading.Event()
    probe = settled._acting

    def pausing(*args: Any) -> Any:
        found = probe(*args)
        if threading.current_thread() is ticking:
            inside.set()
            assert resume.wait(60)
        return found

    monkeypatch.setattr(settled, "_acting", pausing)
    ticking = threading.Thread(target=w.tick)
    ticking.start()
    try:
        assert inside.wait(60)
        c.tick()
    finally:
        resume.set()
        ticking.join()
    assert [bool(w.exists(b)) for b in bears] == [False, True, True, True]
    assert [bool(c.exists(b)) for b in bears] == [True, False, True, True]


def _stunned_die(original: Any) -> Any:
    """A host's Lethality process: the ruleset's, and a creature with a stun counter dies
    too (704.5g's cause, the host's rule)."""
    def process(self: Any, game: Any, check: Check) -> None:
        original(self, game, check)
        from ecs import zones
        plane = game.store.plane("stun")
        if plane is not None:
            here = game.store.a["zone"][:, : plane.shape[1]] == zones.BATTLEFIELD
            g, c = np.nonzero((plane > 0) & here)
            if g.size:
                check.move(g, c, zones.GRAVEYARD, "704.5g")
    return process


def _replaced_while(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, paused: Any) -> tuple[World, int]:
    """A fresh World's first tick in a thread, paused where ``paused(result, frame)`` says
    (in ``owner.name``, wrapped) while this thread replaces Lethality's process (as a host
    does at run time): the World and its stunned creature."""
    from ecs.systems.lethality import Lethality
    w = World(seed=1)
    w.schedule = w.schedule.with_systems()   # (a schedule that has not looked at the processes yet)
    bear = w.add_object(w.add_player(), "creature", power=1, toughness=3, counters={"stun": 1})
    inside, resume = threading.Event(), threading.Event()
    real = getattr(owner, name)

    def wrapped(*args: Any) -> Any:
        result = real(*args)
        if threading.current_thread() is ticking and not inside.is_set() and paused(args, sys._getframe(1)):
            inside.set()
            assert resume.wait(60)
        return result

    monkeypatch.setattr(owner, name, wrapped)
    ticking = threading.Thread(target=w.tick)
    ticking.start()
    try:
        assert inside.wait(60)
        monkeypatch.setattr(Lethality, "process", _stunned_die(Lethality.process))
    finally:
        resume.set()
        ticking.join()
    monkeypatch.setattr(owner, name, real)
    return w, bear


def test_a_process_replaced_while_a_schedule_looks_at_them_runs_at_the_next_check(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A host replaces Lethality's process in one thread while a schedule in another looks
    at whether its probe covers every process (Lethality's looked at, unreplaced then):
    the next check runs the host's process, and the stunned creature dies (704.5g, the
    host's rule). (The schedule noted its answer under the count after the replacement,
    and trusted the probe, which knows nothing of stun, from then on.)"""
    from ecs import schedule
    from ecs.systems.lethality import Lethality
    w, bear = _replaced_while(monkeypatch, schedule, "_replaced", lambda args, frame: args[1] is Lethality)
    w.put_counters(bear, "charge")
    w.tick()
    assert not w.exists(bear)


def test_a_process_replaced_as_a_tick_ends_runs_at_the_next_tick(monkeypatch: pytest.MonkeyPatch) -> None:
    """A host replaces Lethality's process in one thread as another thread's tick ends
    (after the schedule's last look at the processes, before the tick marks the state
    settled): the next tick checks, and the host's process destroys the stunned creature
    (704.5g, the host's rule). (The mark took the count after the replacement, and the
    next tick took the state as settled.)"""
    from ecs.schedule import Schedule
    w, bear = _replaced_while(monkeypatch, Schedule, "probed",
                              lambda args, frame: frame.f_code.co_name == "_check")   # (the tick's last look)
    w.tick()
    assert not w.exists(bear)
