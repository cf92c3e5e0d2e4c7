"""The ``tcg-counters`` command: ``simulate``, ``scenarios`` and ``demo``."""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Sequence, TextIO

import numpy as np

from . import montecarlo
from .errors import CounterError
from .scenario import DEFAULT, ScenarioError, embedded


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {n}")
    return n


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tcg-counters", description=(
        "Counters for trading card games: batch Monte Carlo evaluation of scenarios."))
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    s = sub.add_parser("simulate", help="play a scenario many times and print its statistics")
    s.add_argument("scenario", nargs="?", default=None,
                   help=f"a scenario TOML file or an embedded name (default: {DEFAULT})")
    s.add_argument("--games", type=_positive, default=10_000, help="games to play (10000)")
    s.add_argument("--seed", type=int, default=1, help="random seed (1)")
    s.add_argument("--workers", type=_positive, default=None,
                   help="local worker processes (default: every core; 1 = this process)")
    s.add_argument("--batch", type=_positive, default=None,
                   help=f"games per shard, a multiple of {montecarlo.BLOCK} (default: automatic)")
    s.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="run the shards on a Dask cluster, e.g. tcp://host:8786")
    s.add_argument("--json", metavar="OUT", default=None, help="write the result as JSON ('-': stdout)")
    s.add_argument("--plot", metavar="OUT.png", default=None, help="write a PNG chart (needs matplotlib)")
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    sub.add_parser("scenarios", help="list the embedded scenarios")
    d = sub.add_parser("demo", help="tick a board of thousands of permanents and print timings")
    d.add_argument("--objects", type=_positive, default=10_000)
    d.add_argument("--batch", type=_positive, default=1)
    return p


# ---- output ------------------------------------------------------------------------------
def _p(e: montecarlo.Estimate) -> str:
    lo, hi = e.ci
    return f"{e.p:7.4f}  [{lo:.4f}, {hi:.4f}]" if e.n else "      -"


def _d(d: montecarlo.Distribution) -> str:
    return f"{d.mean:9.2f} {d.p5:7g} {d.p95:7g}"


def summary(r: montecarlo.Result) -> str:
    """A readable table of a result."""
    sc = r.scenario
    out = [f"Scenario {sc.name} ({sc.ruleset}, {sc.n_objects:,} objects, {sc.turns} turns): "
           f"{r.games:,} games, seed {r.seed}"]
    if r.games < r.requested:
        out.append(f"  INTERRUPTED: {r.games:,} of {r.requested:,} games finished")
    out.append(f"  {r.elapsed:.2f} s, {r.games_per_s:,.0f} games/s, {r.ticks_per_s:,.0f} game-ticks/s, "
               f"workers {r.workers}, batch {r.batch}")
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
            out.append(f"  {'  survivors':<{w - 2}}  mean {d.mean:.1f}, 5%-95% {d.p5:g}-{d.p95:g}")
    out += ["", f"{'Players':<{w}}  {'loses':>7}  95% CI{'':<14}{'life mean':>10} {'poison':>7}"]
    for p in sc.players:
        out.append(f"  {p.name:<{w - 2}}  {_p(r.loss[p.name])}  {r.life[p.name].mean:9.2f} "
                   f"{r.poison[p.name].mean:7.2f}")
    out.append(f"  {'draw':<{w - 2}}  {_p(r.draw)}")
    out.append(f"  {'game over by the end':<{w - 2}}  {_p(r.ended)}")
    ln = r.length
    out.append(f"  {'game length (turns)':<{w - 2}}  mean {ln.mean:.2f}, 5% {ln.p5:g}, 95% {ln.p95:g}")
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
def simulate(args: argparse.Namespace, out: TextIO) -> int:
    try:
        r = montecarlo.run(args.scenario, games=args.games, seed=args.seed, workers=args.workers,
                           batch=args.batch, progress=not args.no_progress, scheduler=args.scheduler)
    except (ScenarioError, ValueError) as e:
        print(f"tcg-counters: {e}", file=sys.stderr)
        return 2
    except CounterError as e:  # the engine refused an action in the middle of a run
        print(f"tcg-counters: the engine stopped the run: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("tcg-counters: interrupted before any game finished", file=sys.stderr)
        return 130
    print(summary(r), file=out)
    if args.json:
        text = json.dumps(r.to_dict(), indent=2, allow_nan=False)
        if args.json == "-":
            print(text, file=out)
        else:
            with open(args.json, "w", encoding="utf-8") as f:
                f.write(text + "\n")
    if args.plot and r.games:
        plot(r, args.plot)
    return 130 if r.interrupted else 0


def scenarios(out: TextIO) -> int:
    for name, desc in embedded().items():
        mark = " (default)" if name == DEFAULT else ""
        print(f"{name}{mark}\n    {desc}", file=out)
    return 0


def demo(objects: int, batch: int, out: TextIO) -> int:
    """A board of ``objects`` creatures with random +1/+1 and -1/-1 counters: time the ticks."""
    from .world import World
    rng = np.random.default_rng(1)
    t0 = time.perf_counter()
    w = World(batch=batch, seed=1)
    a, b = w.add_player(), w.add_player()
    ids = np.concatenate([w.add_objects(objects // 2, a, "creature", power=2, toughness=2),
                          w.add_objects(objects - objects // 2, b, "creature", power=2, toughness=2)])
    w.put_counters(ids, "+1/+1", rng.integers(0, 3, (batch, ids.size)))
    w.put_counters(ids, "-1/-1", rng.integers(0, 4, (batch, ids.size)))
    t1 = time.perf_counter()
    checks = w.tick()
    t2 = time.perf_counter()
    w.tick()
    t3 = time.perf_counter()
    alive = np.asarray(w.object_mask("battlefield")[1]).sum()
    cells = objects * batch
    print(f"board: {objects:,} creatures x {batch} game(s); setup {1e3 * (t1 - t0):.1f} ms", file=out)
    print(f"first tick: {1e3 * (t2 - t1):.1f} ms ({checks} checks acted; annihilation and "
          f"deaths), {cells / (t2 - t1) / 1e6:.1f} M objects/s", file=out)
    print(f"quiet tick: {1e3 * (t3 - t2):.2f} ms, {cells / (t3 - t2) / 1e6:.1f} M objects/s; "
          f"{alive:,} permanents left", file=out)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    out = sys.stdout
    if args.command == "simulate":
        return simulate(args, out)
    if args.command == "scenarios":
        return scenarios(out)
    return demo(args.objects, args.batch, out)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
