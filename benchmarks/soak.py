"""The soak: a long run of the same workload; does cost grow with history?

Each game holds the same number of objects throughout: POPULATION cards and TOKEN_POP
tokens on the battlefield and GRAVEYARD cards in the graveyard. Each step, in every game:
ENTER cards of its own random choosing return from its graveyard to the battlefield and
as many of its cards on the battlefield, chosen at random per game, go to the graveyard
(both ``move_zone``: every card that moves becomes a new object, 400.7); TOKENS tokens
are created (the same new objects in every game) and as many of each game's tokens,
chosen at random, are destroyed (they cease to exist at the tick, 704.5d); +1/+1 and
-1/-1 counters go on per-game random targets (704.5q annihilates them in the tick), 1
damage on one; then the tick, and clean-up removes damage (514.2). Nothing but the
harness's moves kills, so its record of each game's objects stays exact. A single game
is driven as its users drive one, by ids as ints, one call each (the scalar paths): as
(1, k) arrays it would take the batch paths, and miss what the scalar ones keep.

Only the engine's calls are timed; choosing targets is not. Every ``every`` steps a row
records the median time of the steps since the last row (one step's time alone swings
with the machine's load), the process's resident memory (RSS) and the bytes of the
engine's live state: the bytes of a slot (one object of one game, every field and
counter plane) times the slots objects occupy, summed over the games. The targets: time
per step and RSS at step 1,000 within 1.2x of step 50; RSS within 2x of the live state's
bytes, judged on the memory the run added to its process's: (anonymous RSS - anonymous
RSS before) / live, where "before" is the process after its imports and the compiled
kernels, before any of the run's own work, and anonymous RSS is the resident pages that
are not a file's (the heap, NumPy's buffers, the World's objects). Printed beside it, not
judged: the RSS the run added with the file-backed pages in it (the libraries' code the
run runs for the first time: some 1.6 MiB of NumPy's core module, whatever the batch
size, shared with every process that maps it), and the whole process's RSS over the live
state (the interpreter, NumPy, numba and the kernels: some 168 MiB).

``python -m benchmarks.soak`` (``--help``) runs it, each batch size three times, each run in
a process of its own (``alone``), and judges the targets on the median run;
``SOAK_STEPS`` / ``SOAK_BATCHES`` / ``SOAK_REPEAT`` set the defaults (the test suite runs a
few steps only).
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

POPULATION = 40      # cards on the battlefield per game (stays constant)
TOKEN_POP = 8        # tokens on the battlefield per game (stays constant)
GRAVEYARD = 20       # cards in each game's graveyard (stays constant)
ENTER, TOKENS = 3, 1  # cards returning and tokens made per step (as many die)
TARGETS = 4          # counter targets per game per step
BATCHES = (1, 256, 1_024, 4_096)


def rss() -> tuple[int, int]:
    """Resident bytes of this process now and the anonymous part of them (Linux: the
    resident pages that are not a file's or shared memory); elsewhere its peak, twice."""
    try:
        with open("/proc/self/statm") as f:
            _, resident, shared = (int(v) for v in f.read().split()[:3])
        page = os.sysconf("SC_PAGE_SIZE")
        return resident * page, (resident - shared) * page
    except OSError:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        return peak, peak


def store_bytes(world: Any) -> int:
    """Bytes of the engine store's arrays (allocated, spare capacity included)."""
    s = world.store
    arrays = [s.counts, *s.a.values()]
    return s.ids.nbytes + sum(int(a.nbytes) for a in arrays if isinstance(a, np.ndarray))


def live_bytes(world: Any) -> int:
    """Bytes of the live state: a slot's bytes (every (games, columns) array and each
    counter kind's plane, per slot) times the slots in use, summed over the games."""
    s = world.store
    per_slot = 4 * s.n_kinds + sum(int(a.itemsize) for a in s.a.values()
                                   if a.ndim == 2 and a.shape == (s.batch, s.capacity))
    return per_slot * int((s.a["entity_id"][:, : s.n_cols] >= 0).sum())


#: What a recorded row holds (``Soak.rows``: one dict of these each).
ROW = ("step", "seconds", "rss", "run_rss", "run_anon", "store_bytes", "columns", "alive_min",
       "alive_max", "live_bytes")


@dataclass
class Soak:
    games: int
    steps: int
    every: int
    rows: list[dict[str, float]] = field(default_factory=list)
    stopped: str = ""     # why the run stopped early, if it did
    pid: int = field(default_factory=os.getpid)   # the process it ran in
    before: float = 0.0   # RSS bytes before the run's own work: the imports and the kernels
    before_anon: float = 0.0   # the anonymous part of them

    def at(self, step: int) -> dict[str, float]:
        """The recorded row nearest ``step``."""
        return min(self.rows, key=lambda r: abs(r["step"] - step))


def run(games: int, steps: int, every: int = 10, seed: int = 0,
        rss_limit: float | None = None, time_limit: float | None = None) -> Soak:
    """The workload on a batch of ``games`` (see the module docstring). Stops early, saying
    so, if RSS passes ``rss_limit`` bytes or the run ``time_limit`` seconds."""
    from ecs import World, kernels
    from ecs.rules import get_ruleset

    # A process's first World compiles or loads its kernels, some 60 MB: not the run's.
    # ``ready`` compiles or loads every kernel the run's World calls and freezes them
    # (numba compiles nothing after it), so "before" needs no warm-up World: whatever the
    # World and its first calls cost besides is the run's.
    kernels.ready(optional=games == 1, systems=get_ruleset("mtg").systems)
    # The records are the harness's, made before "before": a row a list of dicts gained
    # each ``every`` steps (some 1 KB) would read as the engine's growth at one game.
    record = np.full((steps // every + 2, len(ROW)), np.nan)
    times = np.full(every, np.nan)   # the steps' times since the last row
    began, (before, before_anon) = time.perf_counter(), rss()
    rng = np.random.default_rng(seed)
    w = World(ruleset="mtg", batch=games, seed=seed)
    players = [w.add_player(life=20) for _ in range(2)]

    def spread(ids: np.ndarray) -> np.ndarray:   # the same ids in every game, as (games, n)
        return np.broadcast_to(np.asarray(ids, np.int64), (games, len(ids))).copy()

    cards = spread(w.add_objects(POPULATION, controller=players[0], types="creature",
                                 power=2, toughness=3))
    tokens = spread(w.add_objects(TOKEN_POP, controller=players[1], types="creature",
                                  token=True, power=1, toughness=2))
    grave = spread(w.add_objects(GRAVEYARD, controller=players[0], types="creature",
                                 zone="graveyard", power=2, toughness=3))
    rows = np.arange(games)[:, None]
    out = Soak(games, steps, every, before=before, before_anon=before_anon)

    def each(action: Any, ids: np.ndarray, *args: Any) -> Any:
        """``action`` on the (games, k) ids: one call; in a single game, one call per id,
        an int, as its users drive it (the scalar paths), the results as (1, k)."""
        if games > 1:
            return action(ids, *args)
        return np.array([[action(int(e), *args) for e in ids.ravel()]])
    recorded = timed = 0

    def pick(n_from: int, k: int) -> np.ndarray:
        """k distinct positions of ``n_from`` per game, uniformly: rows with a repeat are
        drawn again. (games, k) arrays only: the harness's own temporaries stay small
        beside the engine's, whose memory the run measures."""
        out = rng.integers(0, n_from, (games, k))
        while True:
            s = np.sort(out, axis=1)
            again = (s[:, 1:] == s[:, :-1]).any(axis=1)
            if not again.any():
                return out
            out[again] = rng.integers(0, n_from, (int(again.sum()), k))

    for i in range(1, steps + 1):
        back, dies, tok_dies = pick(GRAVEYARD, ENTER), pick(POPULATION, ENTER), pick(TOKEN_POP, TOKENS)
        t0 = time.perf_counter()
        buried = each(w.move_zone, cards[rows, dies], "graveyard")
        returned = each(w.move_zone, grave[rows, back], "battlefield")
        made = (w.add_objects(TOKENS, controller=players[i % 2], types="creature", token=True,
                              power=1, toughness=2) if games > 1 else
                [w.add_object(players[i % 2], "creature", token=True, power=1, toughness=2)
                 for _ in range(TOKENS)])
        each(w.destroy, tokens[rows, tok_dies])
        t1 = time.perf_counter()
        cards[rows, dies] = np.reshape(returned, (games, ENTER))
        grave[rows, back] = np.reshape(buried, (games, ENTER))
        tokens[rows, tok_dies] = np.asarray(made, np.int64)
        at = pick(POPULATION + TOKEN_POP, TARGETS)   # of the game's cards, then its tokens
        hit = np.where(at < POPULATION, cards[rows, np.minimum(at, POPULATION - 1)],
                       tokens[rows, np.maximum(at - POPULATION, 0)])
        t2 = time.perf_counter()
        each(w.put_counters, hit, "+1/+1", 1)
        each(w.put_counters, hit, "-1/-1", 1)
        each(w.deal_damage, hit[:, :1], 1)
        w.tick()
        w.cleanup()
        w.clear_events()   # a simulator reads its events each step and drops them
        t3 = time.perf_counter()
        times[timed] = (t1 - t0) + (t3 - t2)
        timed += 1
        if i == 1 or i % every == 0 or i == steps:
            (mem, anon), nbytes = rss(), store_bytes(w)
            on_field = w.object_mask("battlefield")[1].sum(axis=1)   # per game, untimed
            record[recorded] = (i, np.median(times[:timed]), mem, mem - before, anon - before_anon,
                                nbytes, w.store.n_cols, on_field.min(), on_field.max(), live_bytes(w))
            recorded += 1
            timed = 0
            if rss_limit is not None and mem > rss_limit:
                out.stopped = f"stopped at step {i}: RSS {mem / 2**30:.2f} GiB passed the limit"
                break
            if time_limit is not None and time.perf_counter() - began > time_limit:
                out.stopped = f"stopped at step {i}: the run passed {time_limit:g} s"
                break
    out.rows = [dict(zip(ROW, map(float, r))) for r in record[:recorded]]
    return out


def targets(soak: Soak) -> list[tuple[str, float, float | None]]:
    """(what, value, goal) of the soak targets, judged on the rows recorded (the last one stands
    for step 1,000 when a run is shorter; the text says which step it is); a goal of None:
    a figure shown beside them, not judged. Time per step is the running median of
    ``smoothed``."""
    early, late = soak.at(50), soak.rows[-1]
    times = dict(zip((r["step"] for r in soak.rows), smoothed(soak)))
    at = int(late["step"])
    return [(f"time/step at step {at} / step {int(early['step'])}",
             times[late["step"]] / times[early["step"]], 1.2),
            (f"RSS at step {at} / step {int(early['step'])}", late["rss"] / early["rss"], 1.2),
            (f"(anonymous RSS - anonymous RSS before the run) / live state bytes at step {at}",
             late["run_anon"] / late["live_bytes"], 2.0),
            (f"(RSS - RSS before the run) / live state bytes at step {at} (with the "
             "libraries' code pages the run touched first)", late["run_rss"] / late["live_bytes"], None),
            (f"RSS / live state bytes at step {at} (the whole process's)",
             late["rss"] / late["live_bytes"], None),
            (f"store / live state bytes at step {at} (the engine's own part)",
             late["store_bytes"] / late["live_bytes"], 2.0)]


def smoothed(soak: Soak) -> list[float]:
    """Time per step, a running median of five recorded rows (each the median of its steps)."""
    t = [r["seconds"] for r in soak.rows]
    return [float(np.median(t[max(0, i - 2): i + 3])) for i in range(len(t))]


def table(soaks: list[Soak]) -> str:
    lines = ["| games | step | time/step | RSS MiB | live state MiB | store MiB | columns |",
             "|---|---|---|---|---|---|---|"]
    for s in soaks:
        times = smoothed(s)
        for r, t in zip(s.rows, times):
            if r["step"] in (1, 50) or r["step"] % max(s.steps // 5, 1) == 0 or r is s.rows[-1]:
                lines.append(f"| {s.games} | {int(r['step'])} | {t * 1e3:.3g} ms | "
                             f"{r['rss'] / 2**20:.0f} | {r['live_bytes'] / 2**20:.3g} | "
                             f"{r['store_bytes'] / 2**20:.3g} | {int(r['columns'])} |")
    return "\n".join(lines)


def plot(soaks: list[Soak], path: Path) -> None:
    """Time per step and RSS against step, one line per batch size."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax_t, ax_m) = plt.subplots(1, 2, figsize=(11, 4.2))
    for s in soaks:
        steps = [r["step"] for r in s.rows]
        ax_t.plot(steps, [t * 1e3 for t in smoothed(s)], label=f"{s.games} games")
        ax_m.plot(steps, [r["rss"] / 2**20 for r in s.rows], label=f"{s.games} games, RSS")
        ax_m.plot(steps, [r["live_bytes"] / 2**20 for r in s.rows], ":",
                  label=f"{s.games} games, live state")
    ax_t.set(xlabel="step", ylabel="ms per step (running median of 5 rows)", yscale="log",
             title="time per step")
    ax_m.set(xlabel="step", ylabel="MiB", yscale="log", title="memory")
    for ax in (ax_t, ax_m):
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)


def alone(games: int, steps: int, every: int, rss_limit: float | None = None,
          time_limit: float | None = None) -> Soak:
    """``run`` in a new process of its own, its first work there. RSS is the process's: a
    run after another in one process reuses the heap the first left behind, and its growth
    reads low (at 1,024 games after smaller runs, 1.57x of the live state against 2.2-2.4x
    alone); so would a warm-up run before it (at 256 games, 1.9x against 2.9x)."""
    spawn = multiprocessing.get_context("spawn")   # (not fork: the parent's heap, again)
    with ProcessPoolExecutor(1, mp_context=spawn) as pool:
        return pool.submit(run, games, steps, every, 0, rss_limit, time_limit).result()


def report(batches: list[int], steps: int, every: int, path: Path | None,
           rss_limit: float | None = None, time_limit: float | None = None,
           repeat: int = 1) -> list[Soak]:
    """Each batch size in turn, ``repeat`` times, each run in a process of its own
    (``alone``); returns the first run of each size (the table's and the plot's). Each
    target is judged on the median of the runs, every run's figure printed beside it: what
    the allocator keeps of freed memory differs from run to run of the same code (at 256
    games, 1.8x to 2.2x of the live state), so one run alone says little."""
    if repeat < 1:
        raise ValueError(f"repeat: runs of each batch size, at least 1; got {repeat}")
    runs: list[list[Soak]] = []
    for games in sorted(batches):
        runs.append([alone(games, steps, every, rss_limit, time_limit) for _ in range(repeat)])
        print(f"  soaked {games} games", file=sys.stderr, flush=True)
    soaks = [r[0] for r in runs]
    print(f"soak: {steps} steps; per game {POPULATION} cards and {TOKEN_POP} tokens on the "
          f"battlefield, {GRAVEYARD} cards in the graveyard; per step {ENTER} cards return and "
          f"as many die, {TOKENS} token made and as many destroyed")
    print(table(soaks))
    for same in runs:
        s = same[0]
        for stopped in sorted({r.stopped for r in same if r.stopped}):
            print(f"{s.games} games: {stopped}")
        print(f"  {s.games} games: RSS before the run (the interpreter, its imports and the kernels): "
              f"{', '.join(f'{r.before / 2**20:.1f}' for r in same)} MiB")
        for judged in zip(*map(targets, same)):   # (what, value, goal) of each run
            what, _, goal = judged[0]
            values = [value for _, value, _ in judged]
            value = float(np.median(values))
            detail = (f"median of {len(values)} runs: {', '.join(f'{v:.3g}' for v in values)}"
                      if len(values) > 1 else "")
            if goal is None:
                print(f"  [not judged] {s.games} games: {what}: {value:.3g}" + (f" ({detail})" if detail else ""))
            else:
                print(f"  [{'met' if value <= goal else 'MISSED'}] {s.games} games: {what}: "
                      f"{value:.3g} ({detail + '; ' if detail else ''}target <= {goal:g})")
    if path is not None:
        plot(soaks, path)
        print(f"soak plot written to {path}")
    return soaks


def defaults() -> tuple[int, list[int], int]:
    """Steps, batch sizes and runs of each (``SOAK_STEPS``, ``SOAK_BATCHES``, ``SOAK_REPEAT``)."""
    steps = int(os.environ.get("SOAK_STEPS", "1000"))
    batches = [int(b) for b in os.environ.get("SOAK_BATCHES", ",".join(map(str, BATCHES))).split(",")]
    return steps, batches, int(os.environ.get("SOAK_REPEAT", "3"))


def main(argv: list[str] | None = None) -> int:
    steps, batches, repeat = defaults()
    ap = argparse.ArgumentParser(prog="python -m benchmarks.soak", description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=steps, help="steps per run (default: %(default)s)")
    ap.add_argument("--batches", type=lambda v: [int(x) for x in v.split(",")], default=batches,
                    help="comma-separated batch sizes (default: %(default)s)")
    ap.add_argument("--every", type=int, default=10, help="record a row every N steps")
    ap.add_argument("--repeat", type=int, default=repeat,
                    help="runs of each batch size; targets are judged on their median (default: %(default)s)")
    ap.add_argument("--rss-limit-gib", type=float, default=4.0,
                    help="stop a run whose RSS passes this (default: %(default)s)")
    ap.add_argument("--time-limit", type=float, default=600.0,
                    help="stop a run after this many seconds (default: %(default)s)")
    ap.add_argument("--plot", type=Path, default=Path("benchmarks/out/soak.png"))
    args = ap.parse_args(argv)
    report(args.batches, args.steps, args.every, args.plot, args.rss_limit_gib * 2**30,
           args.time_limit, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
