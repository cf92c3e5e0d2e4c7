"""The ``tcg-counters`` command: ``simulate``, ``scenarios`` and ``demo``.

Exit status: 0 done; 1 the run stopped early on an error (the engine refused an action in
some game: that game's shard is lost; the executor kept losing work) or an output could not
be written: the finished games are still reported; 2 bad arguments, scenario or options,
found before any game is played; 130 interrupted (Ctrl-C: the finished games are reported);
143 terminated (SIGTERM: as Ctrl-C); 141 stdout was closed (``| head``).

``simulate --json OUT`` writes one object (``-``: to stdout, and the table goes to stderr):

  schema_version    1 (changes when a key changes meaning or goes away)
  scenario, source, ruleset, turns, seed
  games, requested  games finished, games asked for
  complete          every game asked for was played
  interrupted       Ctrl-C or SIGTERM stopped the run
  error             why the run stopped early (the engine refused an action; the executor
                    kept losing work), else null
  survival          {entry: {p, ci95: [lo, hi], k, n, copies}}: at least one copy is left
  survivors         {entry: DIST}: copies left
  counters          {entry: {kind: DIST}}: counters on the entry's copies left at the end
  loss              {player: {p, ci95, k, n}}
  draw, ended       {p, ci95, k, n} (ended: the game was over by the end)
  length            DIST of game lengths: the turn a game ended in (0: over before the
                    first turn), ``turns`` if it did not end
  life, poison      {player: DIST} (Magic)
  reserve           {player: DIST} (Grand Archive)
  ticks             game-ticks played (a tick: one game's state-based actions to a fixed point)
  throughput        {elapsed_s, games_per_s, ticks_per_s, workers, batch (games per shard),
                    startup_s, compiled}: elapsed_s and the rates are the games' own; startup_s
                    is the time before them (the scenario checked, the kernels loaded from
                    numba's disk cache, or compiled on a first run: ``compiled`` kernels)

DIST is {mean, p5, p95, min, max}; the percentiles are values some game had (inverted CDF).
Probabilities come with 95% Wilson intervals; a statistic of no games is null.
"""
from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Sequence, TextIO

import numpy as np

from . import limits, montecarlo, warmup
from .errors import ScenarioError
from .scenario import DEFAULT, embedded
from .world import World

PROG = "tcg-counters"


def _count(lo: int, hi: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if not lo <= n <= hi:
            raise argparse.ArgumentTypeError(f"expected an integer in {lo}..{hi:,}, got {n}")
        return n
    return parse


def _version() -> str:
    try:
        return importlib.metadata.version("tcg-counters")
    except importlib.metadata.PackageNotFoundError:
        return "(not installed)"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=PROG, description=(
        "Counters for trading card games: batch Monte Carlo evaluation of scenarios."))
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    s = sub.add_parser("simulate", help="play a scenario many times and print its statistics",
                       epilog=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("scenario", nargs="?", default=None,
                   help=f"a scenario TOML file or an embedded name (default: {DEFAULT})")
    s.add_argument("--games", type=_count(1, montecarlo.MAX_GAMES), default=10_000,
                   help="games to play (10000)")
    s.add_argument("--seed", type=_count(0, 2**63 - 1), default=1, help="random seed (1)")
    s.add_argument("--workers", type=_count(1, 4096), default=None,
                   help="local worker processes (default: every core; 1 = this process)")
    s.add_argument("--batch", type=_count(1, montecarlo.MAX_GAMES), default=None,
                   help=f"games per shard, rounded up to a multiple of {montecarlo.BLOCK} "
                   "(default: the fewest shards that keep every worker busy)")
    s.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="run the shards on a Dask cluster, e.g. tcp://host:8786")
    s.add_argument("--json", metavar="OUT", default=None,
                   help="write the result as JSON ('-': stdout; the table goes to stderr)")
    s.add_argument("--plot", metavar="OUT.png", default=None,
                   help="write a chart (needs matplotlib): PNG, or another format matplotlib "
                   "writes, by the name's suffix (.svg, .pdf, ...)")
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    sub.add_parser("scenarios", help="list the embedded scenarios")
    d = sub.add_parser("demo", help="tick a board of thousands of permanents and print timings")
    # Half the creatures are made by one engine call, which makes at most MAX_OBJECTS.
    d.add_argument("--objects", type=_count(1, 2 * limits.MAX_OBJECTS), default=10_000,
                   help="creatures on the board, half for each of two players (10000); "
                   f"batch x (objects + 2 players) at most {limits.MAX_SLOTS:,}")
    d.add_argument("--batch", type=_count(1, 100_000), default=1,
                   help="games ticked at once, each with its own counters (1)")
    return p


# ---- output ------------------------------------------------------------------------------
def _n(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _p(e: montecarlo.Estimate) -> str:
    lo, hi = e.ci
    return f"{e.p:7.4f}  [{lo:.4f}, {hi:.4f}]" if e.n else "      -"


def _i(x: float) -> str:
    """A percentile, min or max: a value some game had, an integer (%g wrote 1.5e+09)."""
    return f"{x:,.0f}"


def _d(d: montecarlo.Distribution) -> str:
    return f"{d.mean:9.2f} {_i(d.p5):>7} {_i(d.p95):>7}"


def summary(r: montecarlo.Result) -> str:
    """A readable table of a result."""
    sc = r.scenario
    out = [f"Scenario {sc.name} ({sc.ruleset}, {_n(sc.n_objects, 'object')}, "
           f"{_n(sc.turns, 'turn')}): {_n(r.games, 'game')}, seed {r.seed}"]
    if r.interrupted:
        also = f"; an error stopped it too ({r.error})" if r.error else ""
        out.append(f"  INTERRUPTED: {r.games:,} of {r.requested:,} games finished{also}")
    elif r.error:
        out.append(f"  STOPPED EARLY: {r.games:,} of {r.requested:,} games finished ({r.error})")
    out.append(f"  {r.elapsed:.2f} s, {r.games_per_s:,.0f} games/s, {r.ticks_per_s:,.0f} "
               f"game-ticks/s, workers {r.workers}, batch {r.batch}")
    # One shape warm or cold (the README's excerpt is compared with it): only numbers change.
    out.append(f"  startup {r.startup:.2f} s (scenario check, kernels: {r.compiled} compiled, "
               f"the others loaded); in all {r.total:.2f} s, "
               f"{r.games / r.total if r.total > 0 else 0:,.0f} games/s")
    if r.games == 0:
        return "\n".join(out)
    labels = {o.name: o.name if o.count == 1 else f"{o.name} (any of {o.count})"
              for o in sc.objects}
    w = 2 + max([len(x) for x in labels.values()] + [len(p.name) for p in sc.players]
                + [len("game over by the end")])     # every label fits its column
    out += ["", f"{'Survival':<{w}}  {'p':>7}  95% CI (Wilson)"]
    for o in sc.objects:
        label = labels[o.name]
        out.append(f"  {label:<{w - 2}}  {_p(r.survival[o.name])}")
        if o.count > 1:
            d = r.survivors[o.name]
            out.append(f"  {'  survivors':<{w - 2}}  mean {d.mean:.1f}, 5%-95% {_i(d.p5)}-{_i(d.p95)}")
    stats = list(r.player_stats)       # what the ruleset has: life and poison, or reserve
    out += ["", f"{'Players':<{w}}  {'loses':>7}  {'95% CI':<16}"
            + "".join(f"{'mean ' + s:>14}" for s in stats)]
    for p in sc.players:
        out.append(f"  {p.name:<{w - 2}}  {_p(r.loss[p.name]):<25}"
                   + "".join(f"{r.player_stats[s][p.name].mean:14.2f}" for s in stats))
    out.append(f"  {'draw':<{w - 2}}  {_p(r.draw)}")
    out.append(f"  {'game over by the end':<{w - 2}}  {_p(r.ended)}")
    ln = r.length
    out.append(f"  {'game length (turns)':<{w - 2}}  mean {ln.mean:.2f}, 5% {_i(ln.p5)}, "
               f"95% {_i(ln.p95)}")
    rows = [(o.name, k, d) for o in sc.objects for k, d in r.counters[o.name].items() if d.max > 0]
    if rows:
        out += ["", f"{'Counters at the end':<{w}} {'kind':<10}{'mean':>9} {'5%':>7} {'95%':>7}"]
        out += [f"  {n:<{w - 2}} {k:<10}{_d(d)}" for n, k, d in rows]
    return "\n".join(out)


def plot(r: montecarlo.Result, path: str) -> None:
    """Survival probabilities with 95% error bars, and counter distributions, as a PNG."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    sc = r.scenario
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, max(3.0, 0.35 * len(sc.objects) + 2)))
    names = [o.name for o in sc.objects] + [f"{p.name} loses" for p in sc.players]
    ests = [r.survival[o.name] for o in sc.objects] + [r.loss[p.name] for p in sc.players]
    p = np.array([e.p for e in ests])
    ci = np.array([e.ci for e in ests]).reshape(-1, 2)
    y = np.arange(len(names))
    a1.barh(y, p, xerr=[p - ci[:, 0], ci[:, 1] - p], capsize=3,
            color=["tab:green"] * len(sc.objects) + ["tab:red"] * len(sc.players))
    a1.set_yticks(y, names)
    a1.invert_yaxis()
    a1.set_xlim(0, 1)
    a1.set_title(f"survival / loss probability (95% Wilson), {r.games:,} games")
    rows = [(f"{n} {k}", d) for n, ks in r.counters.items() for k, d in ks.items() if d.max > 0]
    if rows:
        y2 = np.arange(len(rows))
        mean = np.array([d.mean for _, d in rows])
        lo, hi = np.array([d.p5 for _, d in rows]), np.array([d.p95 for _, d in rows])
        a2.errorbar(mean, y2, xerr=[np.maximum(mean - lo, 0), np.maximum(hi - mean, 0)], fmt="o",
                    capsize=3)
        a2.set_yticks(y2, [n for n, _ in rows])
        a2.invert_yaxis()
    a2.set_title("counters at the end: mean, 5th-95th percentile")
    fig.suptitle(f"{sc.name} ({sc.ruleset}), seed {r.seed}")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# ---- commands ----------------------------------------------------------------------------
def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # ValueError: a module in sys.modules without a spec (a stub)
        return False


def _unwritable(path: str, option: str) -> str | None:
    """Why ``path`` cannot be written, checked before the run rather than found after it."""
    p = Path(path)
    folder = p.parent
    try:
        if p.is_dir():
            return f"{option} {path}: expected a file name, got a folder"
        if not folder.is_dir():
            return f"{option} {path}: the folder {folder} does not exist"
        if not os.access(folder, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
            return f"{option} {path}: not writable"
    except OSError as e:   # (a name too long for the file system, ...)
        return f"{option} {path}: {e.strerror}"
    return None


def _plot_format(path: str) -> str | None:
    """Why matplotlib would not write a chart to ``path``: it picks the format by the name's
    suffix, and found a bad one only after the whole run (a name without one got ``.png``
    added: ``-`` wrote a file ``-.png``)."""
    if path == "-":
        return "--plot -: expected a file name (only --json writes to stdout)"
    from matplotlib.backend_bases import FigureCanvasBase
    formats = FigureCanvasBase.get_supported_filetypes()
    suffix = Path(path).suffix[1:].lower()
    if suffix not in formats:
        return (f"--plot {path}: expected a file name ending in a format matplotlib writes "
                f"(.{', .'.join(sorted(formats))}), got {'.' + suffix if suffix else 'none'}")
    return None


def preflight(args: argparse.Namespace) -> str | None:
    """The first problem with the outputs or the executor options, before any game."""
    if args.plot is not None and not _importable("matplotlib"):
        return "--plot needs matplotlib: pip install 'tcg-counters[plot]'"
    if args.scheduler is not None and not _importable("distributed"):
        return "--scheduler needs Dask: pip install 'tcg-counters[dask]'"
    for option, path in (("--json", args.json), ("--plot", args.plot)):
        if path is not None and path != "-":
            problem = _unwritable(path, option)
            if problem:
                return problem
    return None if args.plot is None else _plot_format(args.plot)


def simulate(args: argparse.Namespace, out: TextIO) -> int:
    problem = preflight(args)
    if problem:
        print(f"{PROG}: {problem}", file=sys.stderr)
        return 2
    try:
        r = montecarlo.run(args.scenario, games=args.games, seed=args.seed, workers=args.workers,
                           batch=args.batch, progress=not args.no_progress,
                           scheduler=args.scheduler, status=sys.stderr)
    except (ScenarioError, montecarlo.SchedulerError) as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    except montecarlo.ArgumentError as e:   # what only the scenario bounds (--batch)
        print(f"{PROG}: --{e.name} {e.value}: expected {e.expected}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: stopped before any game finished", file=sys.stderr)
        return 130
    print(summary(r), file=sys.stderr if args.json == "-" else out)
    rc = 130 if r.interrupted else 1 if r.error else 0
    if r.error:                 # (also when interrupted: the exit status says only that)
        print(f"{PROG}: the run stopped early: {r.error}", file=sys.stderr)
    writing = ""                # the output being written: its option and path, as given
    try:
        if args.json:
            writing = f"--json {args.json}"
            text = json.dumps(r.to_dict(), indent=2, allow_nan=False)
            if args.json == "-":
                print(text, file=out)
            else:
                Path(args.json).write_text(text + "\n", encoding="utf-8")
        if args.plot and r.games:
            writing = f"--plot {args.plot}"
            plot(r, args.plot)
        elif args.plot:
            print(f"{PROG}: no chart written to {args.plot}: no game finished", file=sys.stderr)
    except BrokenPipeError:
        raise                   # stdout was closed (``| head``): main() stops quietly, 141
    except OSError as e:        # (a full disk's error names no file)
        print(f"{PROG}: cannot write {writing}: {e.strerror or e}", file=sys.stderr)
        return rc or 1
    return rc


def scenarios(out: TextIO) -> int:
    for name, desc in embedded().items():
        mark = " (default)" if name == DEFAULT else ""
        print(f"{name}{mark}\n    {desc}", file=out)
    return 0


def _board(objects: int, batch: int) -> World:
    """``objects`` 2/2 creatures split between two players, with random +1/+1 and -1/-1
    counters in every game (the first tick annihilates them and kills some, CR 704.5)."""
    rng = np.random.default_rng(1)
    w = World(batch=batch, seed=1)
    a, b = w.add_player(), w.add_player()
    half = objects // 2
    ids = np.concatenate([w.add_objects(half, a, "creature", power=2, toughness=2),
                          w.add_objects(objects - half, b, "creature", power=2, toughness=2)])
    w.put_counters(ids, "+1/+1", rng.integers(0, 3, (batch, ids.size)))
    w.put_counters(ids, "-1/-1", rng.integers(0, 4, (batch, ids.size)))
    return w


def demo(objects: int, batch: int, out: TextIO) -> int:
    """A board of ``objects`` creatures with random +1/+1 and -1/-1 counters: time the ticks.
    A small board is ticked first, so the kernels' loading is not counted as the first tick."""
    slots = batch * (objects + 2)    # a column per creature and per player, in every game
    if slots > limits.MAX_SLOTS:
        print(f"{PROG}: demo --objects {objects} --batch {batch}: expected at most "
              f"{limits.MAX_SLOTS:,} slots (games x (objects + 2 players)), got {slots:,}",
              file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    with warmup.watch(sys.stderr):
        _board(min(objects, 64), batch).tick()
    t1 = time.perf_counter()
    w = _board(objects, batch)
    t2 = time.perf_counter()
    checks = w.tick()
    t3 = time.perf_counter()
    w.tick()
    t4 = time.perf_counter()
    alive = np.asarray(w.object_mask("battlefield")[1]).sum()
    cells = objects * batch
    print(f"kernels: {1e3 * (t1 - t0):.0f} ms to load or compile (once per process)", file=out)
    print(f"board: {_n(objects, 'creature')} x {_n(batch, 'game')}; setup "
          f"{1e3 * (t2 - t1):.1f} ms", file=out)
    print(f"first tick: {1e3 * (t3 - t2):.2f} ms ({_n(checks, 'check')} acted; annihilation "
          f"and deaths), {cells / (t3 - t2) / 1e6:.1f} M objects/s", file=out)
    print(f"quiet tick: {1e3 * (t4 - t3):.2f} ms, {cells / (t4 - t3) / 1e6:.1f} M objects/s; "
          f"{_n(int(alive), 'permanent')} left", file=out)
    return 0


def _dispatch(argv: Sequence[str] | None) -> int:
    args = parser().parse_args(argv)
    out = sys.stdout
    if args.command == "simulate":
        return simulate(args, out)
    if args.command == "scenarios":
        return scenarios(out)
    return demo(args.objects, args.batch, out)


class _Terminate:
    """SIGTERM (``kill PID``, a service manager stopping us) stops the command as Ctrl-C does:
    a run stops its workers (they were left running, holding our output pipes open) and
    reports the games that finished. Python's default would end this process alone."""

    def __init__(self) -> None:
        self.got = False
        self.old: Any = None

    def __call__(self, signum: int, frame: Any) -> None:
        self.got = True
        if montecarlo.interrupt():  # a run stops as Ctrl-C stops it, even with Ctrl-C ignored
            return
        on_int = signal.getsignal(signal.SIGINT)
        if callable(on_int):       # Python's handler (KeyboardInterrupt)
            on_int(signal.SIGINT, frame)
        else:                      # Ctrl-C ignored (a background job): stop all the same
            raise KeyboardInterrupt

    def __enter__(self) -> "_Terminate":
        if threading.current_thread() is threading.main_thread() and \
                signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
            self.old = signal.signal(signal.SIGTERM, self)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.old is not None:
            signal.signal(signal.SIGTERM, self.old)

    def status(self, rc: int) -> int:
        """143 for a command that SIGTERM stopped, as for a process it killed."""
        return 143 if self.got and rc == 130 else rc


def main(argv: Sequence[str] | None = None) -> int:
    """The console entry point: one line for Ctrl-C, SIGTERM and a closed stdout, never a trace."""
    with _Terminate() as term:
        try:
            rc = _dispatch(argv)
            sys.stdout.flush()          # a closed pipe shows here rather than at exit
            return term.status(rc)
        except KeyboardInterrupt:
            print(f"{PROG}: {'terminated' if term.got else 'interrupted'}", file=sys.stderr)
            return term.status(130)
        except BrokenPipeError:
            # The reader went away (``| head``): stop quietly, as a program killed by SIGPIPE
            # would; stdout now writes nowhere so the interpreter's flush at exit cannot fail.
            try:
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            except (OSError, ValueError):
                pass
            return 141

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
