"""Measure everything and print one table: ``python -m benchmarks.report``.

Time per tick, objects checked per second and the engine/baseline ratio for single boards
and batches; clone costs as ratios to a raw copy of the same bytes, to deepcopy of the
naive baseline and to the esper baseline's clone; bytes per object per game; a 4,096 x
1,000 memory probe in a fresh process; the bytes a held clone of one game costs (a
search's kept nodes), engine against the esper baseline; the big batches' acting ticks
under a host engine's effects against the same without them. Each throughput target
(docs/performance.md) is printed as met or missed. A PNG plot of objects per second
against board and batch size (engine vs baseline, log axes) is written to ``--plot``.

Everything runs pinned to one core (``os.sched_setaffinity``). A figure is the median of
repeated runs, each from the same freshly restored (engine) or rebuilt (baseline, its
query caches built as a game loop has them) board; setup is never timed. Runs follow
each other as in a game loop with the garbage collector on, as users run Python (and
pytest-benchmark measures), after a ``gc.collect()`` before each case's runs, and each
case frees what it built when they are done: no case pays for another's garbage. The
targets are judged on these. Single boards are also measured in two other regimes, to
show what the ratios depend on: the collector off while a run is timed (timeit's way;
the baseline's per-entity objects trigger collections, the engine's arrays hardly any)
and ``cold``, after a full ``gc.collect()`` before each run, which also flushes the CPU
caches.
"""
from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import cases, interleave, soak
from .boards import build_engine, make_board
from .esper_baseline import EsperGame

BASELINE_GAMES = 64   # batches: the baseline plays games one by one; time this many
BOARD_TARGETS = ((10_000, 40), (1_000, 8), (100, 1))   # single boards: objects, engine/baseline
GIB = 2**30


REGIMES = ("loop", "gc off", "cold")


def measure(case: cases.Case, min_time: float, min_rounds: int = 3, max_rounds: int = 1000,
            regime: str = "loop") -> float:
    """Median seconds of ``case.run``: at least ``min_rounds`` runs, more until the runs
    add up to ``min_time`` (or setups and runs together to ten times that), in one of
    the ``REGIMES`` (see the module docstring). ``case.prepare`` runs once first, as
    before an interleaved block (a settled tick's case builds its board there), then a
    full collection; ``case.release`` once after the runs."""
    case.prepare()
    gc.collect()
    times: list[float] = []
    start = time.perf_counter()
    try:
        while len(times) < min_rounds or (sum(times) < min_time and len(times) < max_rounds
                                          and time.perf_counter() - start < 10 * min_time):
            case.setup()
            if regime == "cold":
                gc.collect()
            elif regime == "gc off":
                gc.disable()
            t0 = time.perf_counter()
            made = [case.run()]
            t1 = time.perf_counter()
            gc.enable()
            made.clear()  # freeing what the run made (a clone) is not part of it
            case.teardown()
            times.append(t1 - t0)
    finally:
        gc.enable()
        case.release()
    return statistics.median(times)


@dataclass
class Target:
    what: str
    value: float
    goal: float
    higher_is_better: bool = True

    @property
    def met(self) -> bool:
        return self.value >= self.goal if self.higher_is_better else self.value <= self.goal

    def line(self) -> str:
        op = ">=" if self.higher_is_better else "<="
        return (f"  [{'met' if self.met else 'MISSED'}] {self.what}: {figure(self.value)} "
                f"(target {op} {figure(self.goal)})")


def figure(x: float) -> str:
    """A target's figure as read: 3 significant digits, in full from 100 up to a million
    (1,000, not 1e+03), in powers of ten past it (objects per second)."""
    return f"{x:,.0f}" if 100 <= abs(x) < 1e6 else f"{x:,.3g}"


def fmt_time(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def table(header: list[str], rows: list[list[str]]) -> str:
    """A Markdown table (readable as text, pastable into the README)."""
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    line = lambda r: "| " + " | ".join(c.rjust(w) for c, w in zip(r, widths)) + " |"  # noqa: E731
    return "\n".join([line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
                     + [line(r) for r in rows])


# ---- the measurements ------------------------------------------------------------------
def tick_rows(shapes: list[tuple[int, int]], min_time: float, baseline_games: int | None,
              settled: bool = False, regime: str = "loop") -> list[dict[str, Any]]:
    rows = []
    for games, n in shapes:
        eng = cases.engine_tick(games, n, settled)
        base = cases.baseline_tick(games, n, baseline_games, settled)
        te, tb = measure(eng, min_time, regime=regime), measure(base, min_time, regime=regime)
        ops_e, ops_b = eng.objects / te, base.objects / tb
        rows.append(dict(games=games, n=n, engine_s=te, engine_ops=ops_e, baseline_s=tb,
                         baseline_ops=ops_b, baseline_games=base.info["games_run"],
                         ratio=ops_e / ops_b))  # = time ratio when both play the same games
        print(f"  measured {eng.name}", file=sys.stderr, flush=True)
    return rows


def clone_rows(min_time: float) -> list[dict[str, Any]]:
    rows = []
    for games, n in (cases.CLONE_GAME, cases.CLONE_BATCH):
        nbytes = cases.store_nbytes(games, n)
        raw = measure(cases.raw_copy(nbytes), min_time)
        row = dict(games=games, n=n, bytes=nbytes, raw_s=raw,
                   clone_s=measure(cases.engine_clone(games, n), min_time),
                   written_s=measure(cases.engine_clone_written(games, n), min_time),
                   snap_s=measure(cases.engine_snapshot_restore(games, n), min_time))
        if games == 1:  # the baseline's worlds are one game each; 1,024 of them would be 1,024x
            row["deepcopy_s"] = measure(cases.baseline_deepcopy(games, n), min_time)
            row["esper_clone_s"] = measure(cases.baseline_clone(games, n, EsperGame), min_time)
        rows.append(row)
    return rows


def peak_rss() -> int:
    """This process's peak resident bytes: Linux's ``VmHWM``, which counts this process's
    own memory only. (``ru_maxrss``, the fallback elsewhere, carries over the peak of the
    parent that started it: a fork and exec keep it.)"""
    try:
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def memory_probe(games: int, n: int) -> dict[str, Any]:
    """Generate, build and tick a games x n engine batch in this process; its memory."""
    built = build_engine(make_board(n, games=games, seed=cases.SEED))
    built.world.clear_events()
    store = cases.state_nbytes(built.world)
    built.world.tick()
    return dict(games=games, n=n, store_bytes=store, peak_rss=peak_rss())


def memory_row(games: int, n: int) -> dict[str, Any]:
    """``memory_probe`` in a fresh interpreter, so its peak is the batch's alone."""
    out = subprocess.run([sys.executable, "-m", "benchmarks.report", "--memory-probe",
                          str(games), str(n)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


# ---- output ----------------------------------------------------------------------------
def tick_table(rows: list[dict[str, Any]]) -> str:
    return table(["games x objects", "engine / tick", "engine objects/s", "baseline / tick",
                  "baseline objects/s", "engine/baseline"],
                 [[f"{r['games']}x{r['n']}", fmt_time(r["engine_s"]), f"{r['engine_ops']:.3g}",
                   fmt_time(r["baseline_s"]) + ("" if r["baseline_games"] == r["games"]
                                                else f" ({r['baseline_games']} games)"),
                   f"{r['baseline_ops']:.3g}", f"{r['ratio']:.3g}x"] for r in rows])


def commit() -> str:
    """The commit measured (and whether the tree had changes on top of it): that of the
    checkout the engine is imported from, wherever the report is run."""
    import ecs
    where = Path(ecs.__file__).resolve().parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True, cwd=where).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True, cwd=where).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return f"unknown ({where} is not in a git checkout)"
    return head + (" with uncommitted changes" if dirty else "")


INTERLEAVED_BATCHES = ((1_024, 200),)   # a batch beside the single games (baselines: 64 games)


def interleaved_section(sizes: list[int], rounds: int, budget: float) -> dict[tuple[str, str], Any]:
    """Engine and baselines timed interleaved (benchmarks.interleave), hot and disturbed;
    prints one table per regime and returns the outcomes by (contest name, regime)."""
    contests = [interleave.tick_contest(1, n, settled) for n in sizes for settled in (True, False)]
    contests += [interleave.tick_contest(games, n, settled, BASELINE_GAMES)
                 for games, n in INTERLEAVED_BATCHES for settled in (True, False)]
    contests += [c for n in cases.ACTION_SIZES for c in interleave.action_contests(n)]
    got: dict[tuple[str, str], Any] = {}
    for regime in interleave.REGIMES:
        rows = []
        for c in contests:
            o = got[(c.name, regime)] = interleave.compare(c, regime, rounds, budget)
            rows.append([c.name, fmt_time(o.sides["engine"].median)]
                        + [fmt_time(o.sides[b].median) if b in o.sides else "" for b in ("naive esper", "esper")]
                        + [interleave.fmt_speedup(o, b) if b in o.sides else "" for b in ("naive esper", "esper")])
            print(f"  measured {c.name} ({regime})", file=sys.stderr, flush=True)
        print(f"interleaved, {regime}: engine speedup = baseline time / engine time "
              f"(> 1: engine faster), median (min-max over {rounds} rounds):")
        print(table(["operation", "engine", "naive esper", "esper", "vs naive", "vs esper"], rows))
        print()
    return got


def host_section(rounds: int, budget: float) -> list[interleave.Outcome]:
    """The batch acting ticks under a host engine's effects (``cases.host_effects``)
    against the same ticks without them, interleaved; prints their table."""
    # The tick without effects is the contest's "engine" side: its speedup over the tick
    # with them is the time with / without.
    out = [interleave.compare(interleave.Contest(
        f"acting tick {games}x{n}", cases.engine_tick(games, n),
        {_HOSTED: cases.engine_tick(games, n, host=True)}), "hot", rounds, budget)
        for games, n in cases.BATCHES[1:]]
    print("batch acting tick under a host engine's effects (some objects of every game with "
          "+1/+1, a set power/toughness, a redirect, a hold, a prohibition), interleaved "
          f"with the same tick without them: median (min-max over {rounds} rounds):")
    print(table(["board", "with host effects", "without", "with / without"],
                [[o.contest.name, fmt_time(o.sides[_HOSTED].median), fmt_time(o.sides["engine"].median),
                  interleave.fmt_speedup(o, _HOSTED)] for o in out]))
    print()
    return out


_HOSTED = "with host effects"


HELD_CLONES = ((100, 200), (1_000, 50))   # (objects, clones held): a few seconds in all


def held_clone_section() -> list[dict[str, Any]]:
    """Bytes per held clone (``cases.held_clones``), engine against the esper baseline, for
    each of ``HELD_CLONES``; prints their table."""
    rows = []
    for n, k in HELD_CLONES:
        rows.append(cases.held_clones(n, k))
        print(f"  measured held clones 1x{n}", file=sys.stderr, flush=True)
    print("memory per held clone (a search keeps many nodes alive): bytes a clone of the settled game, "
          "given a self-play step and its tick, keeps allocated (tracemalloc, NumPy's data included), "
          "over the engine root's live state:")
    print(table(["board", "clones held", "live state", "engine / clone", "esper / clone", "esper / engine",
                 "engine / live", "esper / live"],
                [[f"1x{r['n']}", f"{r['k']}", f"{r['live_bytes']:,}", f"{r['engine_bytes']:,.0f}",
                  f"{r['esper_bytes']:,.0f}", f"{r['esper_bytes'] / r['engine_bytes']:.3g}x",
                  f"{r['engine_bytes'] / r['live_bytes']:.3g}x", f"{r['esper_bytes'] / r['live_bytes']:.3g}x"]
                 for r in rows]))
    print()
    return rows


def single_game_targets(got: dict[tuple[str, str], Any]) -> list[Target]:
    """The single-game targets against the esper baseline, in both regimes."""
    out = []
    for regime in interleave.REGIMES:
        def speed(name: str, regime: str = regime) -> float:
            return float(got[(name, regime)].speedup("esper")[0])
        for op in cases.OPS:  # "within 2x": the engine at most 2x slower
            out.append(Target(f"{regime}: {op} 1x100, speedup vs esper", speed(f"{op} 1x100"), 0.5))
        step = "self-play step (3 actions + tick)"
        out.append(Target(f"{regime}: {step} 1x100, speedup vs esper", speed(f"{step} 1x100"), 3))
        if (f"{step} 1x1000", regime) in got:
            out.append(Target(f"{regime}: {step} 1x1000, speedup vs esper", speed(f"{step} 1x1000"), 10))
        if ("settled tick 1x100", regime) in got:
            out.append(Target(f"{regime}: settled tick 1x100, speedup vs esper",
                              speed("settled tick 1x100"), 3))
    return out


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    import numpy
    load = ", load average {:.1f} at start".format(os.getloadavg()[0]) if hasattr(os, "getloadavg") else ""
    return (f"{cpu}, {os.cpu_count()} cores (pinned to one), Python {platform.python_version()}, "
            f"NumPy {numpy.__version__}, {datetime.date.today().isoformat()}{load}")


def plot(single: list[dict[str, Any]], batch: list[dict[str, Any]], settled: list[dict[str, Any]],
         path: Path) -> None:
    """Objects checked per second against objects per tick: single boards left, batches right."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    calm = {(r["games"], r["n"]): r for r in settled}
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    panels = ((axes[0], single, "n", "single board", "objects on the board"),
              (axes[1], batch, "games", "batch", "games in the batch (x objects per game)"))
    for ax, acting, xkey, title, xlabel in panels:
        acting = sorted(acting, key=lambda r: r[xkey])
        x = [r[xkey] for r in acting]
        quiet = [calm[(r["games"], r["n"])] for r in acting]
        for rows, key, label, style in ((acting, "engine_ops", "engine", "o-"),
                                        (acting, "baseline_ops", "naive esper", "s--"),
                                        (quiet, "engine_ops", "engine, settled board", "o:"),
                                        (quiet, "baseline_ops", "naive esper, settled board", "s:")):
            ax.plot(x, [r[key] for r in rows], style, label=label)
        if xkey == "games":
            ax.axhline(1e8, color="grey", lw=0.8, ls="--")
            ax.annotate("target", (x[0], 1e8), fontsize=8, color="grey",
                        textcoords="offset points", xytext=(0, -11))
            for xi, r in zip(x, acting):
                ax.annotate(f"{r['games']}x{r['n']}", (xi, r["engine_ops"]), fontsize=8,
                            textcoords="offset points", xytext=(4, 4))
        ax.set(xscale="log", yscale="log", title=title, xlabel=xlabel)
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("objects checked per second")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.report", description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="shorter timing (noisier figures)")
    ap.add_argument("--plot", type=Path, default=Path("benchmarks/out/throughput.png"),
                    help="where to write the PNG plot (default: %(default)s)")
    ap.add_argument("--full-baseline", action="store_true",
                    help=f"time the baseline on every game of a batch, not the first {BASELINE_GAMES}")
    ap.add_argument("--only", choices=("all", "interleaved", "held-clones", "soak"), default="all",
                    help="run one part only (default: everything but the soak, which is opt-in)")
    ap.add_argument("--soak", action="store_true",
                    help="also run the soak (sizes: SOAK_STEPS, SOAK_BATCHES, SOAK_REPEAT)")
    ap.add_argument("--soak-plot", type=Path, default=Path("benchmarks/out/soak.png"))
    ap.add_argument("--rounds", type=int, default=7, help="interleaved rounds (default: %(default)s)")
    ap.add_argument("--memory-probe", nargs=2, type=int, metavar=("GAMES", "N"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.memory_probe:
        print(json.dumps(memory_probe(*args.memory_probe)))
        return 0
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    min_time = 0.2 if args.quick else 1.0

    print(f"# SBA throughput, {machine()}\ncommit measured: {commit()}\n", flush=True)
    if args.only in ("all", "interleaved"):
        got = interleaved_section(list(cases.SIZES[:2] if args.quick else cases.SIZES[:3]),
                                  3 if args.quick else args.rounds, 0.03 if args.quick else 0.1)
        print("single-game targets (against the esper baseline, interleaved):")
        print("\n".join(t.line() for t in single_game_targets(got)))
        print()
    if args.only in ("all", "held-clones"):
        held_clone_section()
    if args.soak or args.only == "soak":
        steps, batches, repeat = soak.defaults()
        soak.report(batches, steps, max(steps // 100, 1), args.soak_plot, 4 * GIB,
                    float(os.environ.get("SOAK_TIME_LIMIT", "300")), repeat)
        print()
    if args.only != "all":
        return 0
    single = tick_rows([(1, n) for n in cases.SIZES], min_time, None)
    batch_games = None if args.full_baseline else BASELINE_GAMES
    batch = tick_rows(list(cases.BATCHES), min_time, batch_games)
    host_section(3 if args.quick else args.rounds, 0.03 if args.quick else 0.1)
    settled = tick_rows([(1, n) for n in cases.SIZES] + list(cases.BATCHES), min_time,
                        batch_games, settled=True)
    others = {regime: tick_rows([(1, n) for n in cases.SIZES[:3]], min_time, None, regime=regime)
              for regime in REGIMES[1:]}
    clones = clone_rows(min_time)
    mem = memory_row(4_096, 1_000)

    for title, rows in (("one tick on the generated board (state-based actions act)", single + batch),
                        ("one tick on the board that tick left (one check, nothing to do; objects/s counts "
                         "the objects of the games still going, which are all it checks)", settled)):
        print(title + ":")
        print(tick_table(rows))
        print()
    print("engine/baseline of an acting tick on single boards, by regime:")
    print(table(["objects"] + list(REGIMES),
                [[f"{r['n']}"] + [f"{x['ratio']:.3g}x" for x in [r] + [others[g][i] for g in REGIMES[1:]]]
                 for i, r in enumerate(single[:3])]))
    print()
    clone_table = []
    for r in clones:
        shape = f"{r['games']}x{r['n']}"
        clone_table.append([f"raw np.copyto {shape}", fmt_time(r["raw_s"]), f"{r['bytes']:,}", "1x", ""])
        for key, label in (("clone_s", "engine clone()"), ("written_s", "engine clone() + every array written"),
                           ("snap_s", "engine snapshot()+restore()")):
            clone_table.append([f"{label} {shape}", fmt_time(r[key]), "", f"{r[key] / r['raw_s']:.3g}x",
                                f"{r['deepcopy_s'] / r[key]:.3g}x" if "deepcopy_s" in r else ""])
        if "deepcopy_s" in r:
            clone_table.append([f"baseline deepcopy {shape}", fmt_time(r["deepcopy_s"]), "",
                                f"{r['deepcopy_s'] / r['raw_s']:.3g}x", "1x"])
            clone_table.append([f"esper baseline's clone (its mutable components copied) {shape}",
                                fmt_time(r["esper_clone_s"]), "", f"{r['esper_clone_s'] / r['raw_s']:.3g}x",
                                f"{r['deepcopy_s'] / r['esper_clone_s']:.3g}x"])
    print(table(["copy", "time", "bytes", "vs raw copy", "deepcopy / this"], clone_table))
    one = clones[0]
    print(f"the esper baseline's clone / engine clone() 1x{one['n']}: {one['esper_clone_s'] / one['clone_s']:.3g}x")
    print()
    per_obj = {f"{r['games']}x{r['n']}": r["bytes"] / (r["games"] * r["n"]) for r in clones}
    per_obj["4096x1000"] = mem["store_bytes"] / (mem["games"] * mem["n"])
    print("store bytes per object per game: "
          + ", ".join(f"{k}: {v:.1f}" for k, v in per_obj.items()))
    print(f"4096x1000 batch: store {mem['store_bytes'] / GIB:.3f} GiB, peak RSS of a process "
          f"that generates, builds and ticks it {mem['peak_rss'] / GIB:.3f} GiB\n")

    by = {(r["games"], r["n"]): r for r in single + batch}
    calm = {(r["games"], r["n"]): r for r in settled}
    # The batch target counts objects per second; judged on both ticks: the acting one
    # (check, perform, re-check) and the settled one (a check that finds nothing).
    targets = [
        *(Target(f"{n:,} objects: engine/baseline speed per tick", by[(1, n)]["ratio"], goal)
          for n, goal in BOARD_TARGETS if (1, n) in by),
        *(Target(f"batch {g}x{n}: objects/s on one core, {what}", rows[(g, n)]["engine_ops"], 1e8)
          for g, n in cases.BATCHES[1:]
          for what, rows in (("acting tick", by), ("settled tick (one check)", calm))),
        Target("clone of a 1,000-object game / raw copy of its bytes", one["clone_s"] / one["raw_s"], 3, False),
        Target("deepcopy of the baseline / clone of a 1,000-object game", one["deepcopy_s"] / one["clone_s"], 1000),
        Target("4096x1000 batch peak memory, GiB", mem["peak_rss"] / GIB, 4, False),
    ]
    print("throughput targets:")
    print("\n".join(t.line() for t in targets))
    plot(single, batch, settled, args.plot)
    print(f"\nplot written to {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
