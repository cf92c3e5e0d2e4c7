"""The command line: simulate (summary, JSON, PNG, errors found before the run), scenarios,
demo, --version and a closed stdout. Ctrl-C is in tests/test_cli_signals.py."""
from __future__ import annotations

import importlib.metadata
import json
import os
import re
import signal
import socket
import subprocess
import sys
import types
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ecs import cli, executors, limits, montecarlo, warmup
from ecs.cli import main
from ecs.scenario import DEFAULT, embedded

try:
    from test_montecarlo import OVERFLOW  # (a run the engine stops in game 256)
except ImportError:  # pragma: no cover - imported as a package
    from tests.test_montecarlo import OVERFLOW

ROOT = Path(__file__).resolve().parents[1]


def _env() -> dict[str, str]:
    """The command's environment: this checkout first on the path, and stdout buffered as
    in a shell pipeline. With PYTHONUNBUFFERED every print is written at once, so a closed
    stdout would fail in the first print, never in main()'s flush of what is buffered."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    return {**env, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def test_scenarios_lists_the_embedded_ones(capsys: pytest.CaptureFixture[str]) -> None:
    """Each embedded scenario's name, the default one marked, and its description under it."""
    assert main(["scenarios"]) == 0
    out = capsys.readouterr().out
    for name, description in embedded().items():
        mark = " (default)" if name == DEFAULT else ""
        assert f"{name}{mark}\n    {description}\n" in out, name
    assert out.count("(default)") == 1


def test_simulate_prints_a_summary_and_writes_json_and_png(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    js, png = tmp_path / "r.json", tmp_path / "r.PNG"    # (the suffix's case does not matter)
    rc = main(["simulate", "bear_decay", "--games", "200", "--seed", "3", "--workers", "1",
               "--batch", "64", "--json", str(js), "--plot", str(png), "--no-progress"])
    assert rc == 0
    out = capsys.readouterr().out
    for words in ("Scenario bear_decay (mtg, 1 object, 10 turns): 200 games, seed 3", "games/s",
                  "Survival", "bear", "95% CI", "Players", "alice", "draw", "game length", "-1/-1"):
        assert words in out, words
    d = json.loads(js.read_text())
    assert d["games"] == 200 and d["seed"] == 3 and "bear" in d["survival"]
    assert d["throughput"]["batch"] == 64
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000


def test_json_to_stdout_is_json_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """With --json - the table went to stdout too and the JSON did not parse. Now
    stdout is the JSON object (with its schema version) and the table goes to stderr.
    ``-`` is no file: the current folder need not be writable (os.access faked: root may
    write anywhere)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "access", lambda p, mode: Path(p).resolve() != tmp_path.resolve())
    assert main(["simulate", "--games", "40", "--workers", "1", "--no-progress",
                 "--json", "-"]) == 0
    captured = capsys.readouterr()
    d = json.loads(captured.out)
    assert d["schema_version"] == montecarlo.SCHEMA_VERSION == 1
    assert d["scenario"] == DEFAULT and d["games"] == 40 and d["complete"] is True
    assert d["interrupted"] is False and d["error"] is None
    assert captured.err.startswith(f"Scenario {DEFAULT} ")


def test_simulate_with_no_option_plays_the_defaults(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """No option: the default scenario, 10,000 games, seed 1, a worker a core, the batch chosen
    for them, a progress bar and the kernels' compile notes on stderr, no JSON, no chart."""
    runs: list[tuple[Any, ...]] = []
    real = montecarlo.run

    def run(*a: Any, **k: Any) -> montecarlo.Result:
        runs.append((a, k))
        return real(*a, **k)

    monkeypatch.setattr(montecarlo, "run", run)
    monkeypatch.chdir(ROOT / "tests")     # (no file written here)
    assert main(["simulate"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Scenario {DEFAULT} (mtg, 47 objects, 12 turns): 10,000 games, seed 1\n")
    assert f", workers {os.cpu_count()}, batch " in out and "Survival" in out
    assert runs == [((None,), {"games": 10_000, "seed": 1, "workers": None, "batch": None,
                               "progress": True, "scheduler": None, "status": sys.stderr})]


#: A table row of a probability: its label, p, the interval's ends, then the player's means.
_ROW = re.compile(r"  (\S.*?) +(\d\.\d{4})  \[(\d\.\d{4}), (\d\.\d{4})\] *(.*)")


def _shown(text: str, value: float) -> bool:
    """``text``, a number of the table, is ``value`` at the precision it is printed with."""
    places = len(text.partition(".")[2])
    return abs(float(text.replace(",", "")) - value) <= 0.5 * 10 ** -places + 1e-9


#: bear_decay without its -1/-1 counters: no counter is left at the end of any game.
QUIET = (ROOT / "ecs" / "scenarios" / "bear_decay.toml").read_text().replace(
    'action = "put_counters"\nweight = 0.3\nkind = "-1/-1"\ntarget = { name = "bear" }',
    'action = "nothing"\nweight = 0.3')


@pytest.mark.parametrize("scenario", ["mtg_skirmish", "quiet"])
def test_the_table_and_the_json_show_the_same_numbers(scenario: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Every figure of the table is the JSON's at the table's precision: the games, seed,
    workers and batch; each entry's survival and each player's loss with their intervals and
    means; the draw, the games over by the end, the length, the survivors of an entry of many
    copies, and the counters some game had (no table of them if none had any). The JSON file
    ends its last line."""
    js = tmp_path / "r.json"
    if scenario == "quiet":
        assert "put_counters" not in QUIET
        (tmp_path / "quiet.toml").write_text(QUIET)
        scenario = str(tmp_path / "quiet.toml")
    assert main(["simulate", scenario, "--games", "256", "--seed", "2", "--workers", "1",
                 "--no-progress", "--json", str(js)]) == 0
    table = capsys.readouterr().out.splitlines()
    text = js.read_text()
    assert text.endswith("}\n")
    d = json.loads(text)
    assert table[0].endswith(f"): {d['games']} games, seed {d['seed']}")
    assert f"workers {d['throughput']['workers']}, batch {d['throughput']['batch']}" in table[1]
    rows = {re.sub(r" \(any of \d+\)$", "", m[1]): m.groups()[1:]
            for line in table if (m := _ROW.fullmatch(line))}
    expected = {**{name: (e, []) for name, e in d["survival"].items()},
                **{p: (e, [d[s][p]["mean"] for s in ("life", "poison")]) for p, e in d["loss"].items()},
                "draw": (d["draw"], []), "game over by the end": (d["ended"], [])}
    assert rows.keys() == expected.keys()
    for name, (p, lo, hi, means) in rows.items():
        e, stats = expected[name]
        assert _shown(p, e["p"]) and _shown(lo, e["ci95"][0]) and _shown(hi, e["ci95"][1]), name
        assert len(means.split()) == len(stats) and all(map(_shown, means.split(), stats)), name
    many = [d["survivors"][name] for name, e in d["survival"].items() if e["copies"] > 1]
    survivors = [m for line in table
                 if (m := re.fullmatch(r" +survivors +mean ([\d.]+), 5%-95% ([\d,]+)-([\d,]+)", line))]
    length = [m for line in table
              if (m := re.fullmatch(r" +game length \(turns\) +mean ([\d.]+), 5% (\d+), 95% (\d+)", line))]
    assert len(survivors) == len(many) and len(length) == 1
    for m, dist in zip(survivors + length, many + [d["length"]]):
        assert all(map(_shown, m.groups(), (dist["mean"], dist["p5"], dist["p95"]))), m[0]
    kinds = {(n, k) for n, ks in d["counters"].items() for k, dist in ks.items() if dist["max"] > 0}
    header = [i for i, line in enumerate(table) if line.startswith("Counters at the end")]
    assert len(header) == (1 if kinds else 0)
    shown = {(n, k): rest for n, k, *rest in (line.split() for line in table[header[0] + 1:])} if kinds else {}
    assert shown.keys() == kinds
    for (n, k), texts in shown.items():
        dist = d["counters"][n][k]
        assert all(map(_shown, texts, (dist["mean"], dist["p5"], dist["p95"]))), (n, k)


def test_the_json_schema_is_documented_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    """Every top-level key of the JSON is named in `simulate --help`."""
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = capsys.readouterr().out
    assert "schema_version" in text
    d = montecarlo.run("bear_decay", games=32, workers=1).to_dict()
    d |= montecarlo.run("ga_wither", games=32, workers=1).to_dict()
    for key in d:
        assert re.search(rf"\b{key}\b", text), key


@pytest.mark.parametrize("scenario", ["mtg_skirmish", "bear_decay"])
def test_summary_columns_line_up_with_long_labels(scenario: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Every probability row starts its confidence interval in the same column, also for
    an entry of many copies ("saprolings (any of 40)"), and with names all shorter than
    the table's own labels ("game over by the end")."""
    assert main(["simulate", scenario, "--games", "64", "--workers", "1"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if "]" in line]
    assert any("game over by the end" in r for r in rows)
    assert len({r.index("[") for r in rows}) == 1


def test_players_show_what_the_ruleset_has(capsys: pytest.CaptureFixture[str]) -> None:
    """Grand Archive players have no life or poison (their champions have life):
    the table and the JSON show their reserve instead; Magic players show life and poison."""
    assert main(["simulate", "ga_wither", "--games", "64", "--workers", "1", "--json", "-"]) == 0
    captured = capsys.readouterr()
    d = json.loads(captured.out)
    assert "reserve" in d and "life" not in d and "poison" not in d
    players = captured.err[captured.err.index("Players"):].splitlines()[0]
    assert "reserve" in players and "life" not in players and "poison" not in players
    assert main(["simulate", "bear_decay", "--games", "32", "--workers", "1"]) == 0
    players = capsys.readouterr().out.split("Players")[1].splitlines()[0]
    assert "life" in players and "poison" in players and "reserve" not in players


def test_counts_are_singular_for_one(capsys: pytest.CaptureFixture[str]) -> None:
    """Singular nouns: "1 objects", "1 checks" were printed."""
    assert main(["simulate", "bear_decay", "--games", "32", "--workers", "1", "--batch", "40"]) == 0
    out = capsys.readouterr().out
    assert "(mtg, 1 object, 10 turns)" in out
    assert main(["demo", "--objects", "1"]) == 0
    out = capsys.readouterr().out
    assert "1 creature x 1 game;" in out and re.search(r"\b1 (check|permanent)s\b", out) is None


def test_the_batch_printed_is_the_one_used(capsys: pytest.CaptureFixture[str]) -> None:
    """--batch 40 plays shards of two whole blocks (64 games); 40 was printed."""
    assert main(["simulate", "bear_decay", "--games", "100", "--workers", "1", "--batch", "40",
                 "--json", "-"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["throughput"]["batch"] == 64
    assert "batch 64" in captured.err


def test_a_bad_scenario_file_is_a_clear_error(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    text = (ROOT / "ecs" / "scenarios" / "bear_decay.toml").read_text()
    bad.write_text(text.replace("turns = 10", "turns = -1"))
    assert main(["simulate", str(bad), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: turns: expected an integer in 1..100000, got -1" in err
    assert main(["simulate", str(tmp_path / "missing.toml")]) == 2
    assert "missing.toml: cannot read the scenario" in capsys.readouterr().err


@pytest.mark.parametrize("args", [["frobnicate"], []])
def test_bad_arguments_exit_2(args: list[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(args)
    assert e.value.code == 2


#: Each count option: its command, its bounds.
BOUNDS = [("simulate", "--games", 1, montecarlo.MAX_GAMES), ("simulate", "--seed", 0, 2**63 - 1),
          ("simulate", "--workers", 1, 4096), ("simulate", "--batch", 1, montecarlo.MAX_GAMES),
          ("demo", "--objects", 1, 2 * limits.MAX_OBJECTS), ("demo", "--batch", 1, 100_000)]


@pytest.mark.parametrize("command, option, lo, hi", BOUNDS, ids=[f"{c} {o}" for c, o, *_ in BOUNDS])
def test_a_count_option_takes_its_bounds_and_refuses_one_past_them(
        command: str, option: str, lo: int, hi: int, capsys: pytest.CaptureFixture[str]) -> None:
    """One past either bound, or not a number, is refused with the usage line, the option,
    its range and what was given (exit 2); both bounds are taken (here parsed, not played:
    2^53 games or 2 million creatures take long)."""
    for bad, said in ((lo - 1, f" in {lo}..{hi:,}, got {lo - 1}"), (hi + 1, f" in {lo}..{hi:,}, got {hi + 1}"),
                      ("x", ", got 'x'")):
        with pytest.raises(SystemExit) as e:
            main([command, option, str(bad)])
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith(f"usage: tcg-counters {command}")
        assert f"error: argument {option}: expected an integer{said}\n" in err, err
    for good in (lo, hi):
        assert getattr(cli.parser().parse_args([command, option, str(good)]), option[2:]) == good


def test_a_bad_seed_is_named_with_the_usage_line(capsys: pytest.CaptureFixture[str]) -> None:
    """``--seed -1`` got run()'s "seed must be ..." with neither the option nor the usage."""
    with pytest.raises(SystemExit):
        main(["simulate", "bear_decay", "--seed", "-1"])
    err = capsys.readouterr().err
    assert err.startswith("usage: tcg-counters simulate")
    assert "argument --seed: expected an integer in 0..9,223,372,036,854,775,807, got -1" in err


def test_demo_is_bounded_by_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    """``demo --objects 3000000`` (allowed by its help) and ``--objects 1000000 --batch 1000``
    ended in an InvalidCountError traceback from the engine; now the first is refused by the
    option (above) and the second, past the engine's slots, in one line, exit 2."""
    assert main(["demo", "--objects", "1000000", "--batch", "1000"]) == 2
    _one_line_error(capsys, "--objects 1000000 --batch 1000", f"{limits.MAX_SLOTS:,} slots")


def test_demo_takes_the_engines_slots_exactly(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """A board of exactly the engine's slots is ticked, one more creature is refused: here
    with the limit lowered to 3 games x (40 creatures + 2 players) (2^27 slots take GBs)."""
    monkeypatch.setattr(limits, "MAX_SLOTS", 3 * (40 + 2))
    assert main(["demo", "--objects", "40", "--batch", "3"]) == 0
    assert "40 creatures x 3 games" in capsys.readouterr().out
    assert main(["demo", "--objects", "41", "--batch", "3"]) == 2
    _one_line_error(capsys, "--objects 41 --batch 3: expected at most 126 slots", "got 129")


# ---- options checked before the run ---------------------------------------------
@pytest.fixture
def no_run(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Records every shard played: an option error must come before any game."""
    played: list[Any] = []
    real = montecarlo.play_shard

    def play(*a: Any) -> Any:
        played.append(a)
        return real(*a)

    monkeypatch.setattr(montecarlo, "play_shard", play)
    return played


def _one_line_error(capsys: pytest.CaptureFixture[str], *words: str) -> None:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tcg-counters: ") and "Traceback" not in err
    for w in words:
        assert w in err, (w, err)


@pytest.mark.parametrize("left", [None, types.ModuleType("matplotlib")], ids=["missing", "no spec"])
def test_plot_without_matplotlib_fails_first(
        left: Any, monkeypatch: pytest.MonkeyPatch, no_run: list[Any], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Not installed (``import matplotlib`` fails), or a module of that name without a spec
    (a stub) in its place: one line, before any game."""
    monkeypatch.setitem(sys.modules, "matplotlib", left)
    assert main(["simulate", "bear_decay", "--games", "64", "--workers", "1", "--no-progress",
                 "--plot", str(tmp_path / "r.png")]) == 2
    _one_line_error(capsys, "--plot needs matplotlib", "pip install")
    assert no_run == []


@pytest.mark.parametrize("option", ["--json", "--plot"])
def test_an_output_that_cannot_be_written_fails_first(
        option: str, no_run: list[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A missing folder, a folder, a name too long, a folder or a file not writable: one line
    naming the option and the path, exit 2, before any game, no file written."""
    out = tmp_path / "no" / "such" / "r.out"
    assert main(["simulate", "bear_decay", "--games", "64", "--workers", "1", "--no-progress",
                 option, str(out)]) == 2
    _one_line_error(capsys, option, str(out), "does not exist")
    assert no_run == []
    assert main(["simulate", "bear_decay", "--games", "64", "--workers", "1", "--no-progress",
                 option, str(tmp_path)]) == 2
    _one_line_error(capsys, option, "a folder")
    long = tmp_path / ("a" * 300 + ".out")   # (past the file system's name limit)
    assert main(["simulate", "bear_decay", "--games", "64", "--workers", "1", "--no-progress",
                 option, str(long)]) == 2
    _one_line_error(capsys, option, "too long")
    # Root may write anywhere: os.access answers as it would to a user without the right.
    locked, old = tmp_path / "locked", tmp_path / "old.out"
    locked.mkdir()
    old.write_text("kept")
    for path, denied in ((locked / "r.out", locked), (old, old)):
        monkeypatch.setattr(os, "access", lambda p, mode, denied=denied: Path(p) != denied)
        assert main(["simulate", "bear_decay", "--games", "64", "--workers", "1", "--no-progress",
                     option, str(path)]) == 2
        _one_line_error(capsys, f"{option} {path}: not writable")
    assert no_run == [] and list(locked.iterdir()) == [] and old.read_text() == "kept"


@pytest.mark.parametrize("name, words", [
    ("r.xyz", ["--plot", "r.xyz", "a format matplotlib writes", ".png", "got .xyz"]),
    ("r", ["--plot", "got none"]),
    ("-", ["--plot -: expected a file name", "only --json"])])
def test_a_plot_format_matplotlib_cannot_write_fails_first(
        name: str, words: list[str], no_run: list[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``--plot out.xyz`` played every game and then died in matplotlib's ValueError;
    ``--plot -`` wrote a file named ``-.png`` (and ``--plot r`` one named ``r.png``)."""
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "bear_decay", "--games", "64", "--workers", "1", "--no-progress",
                 "--plot", name]) == 2
    _one_line_error(capsys, *words)
    assert no_run == [] and list(tmp_path.iterdir()) == []


def test_a_batch_past_the_engines_slots_is_a_bad_option(
        no_run: list[Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """5,000 tokens in shards of 30,000 games pass the engine's MAX_SLOTS: that was "the
    engine stopped the run: InvalidCountError", exit 1, after the scenario check."""
    big = tmp_path / "swarm.toml"
    big.write_text((ROOT / "ecs" / "scenarios" / "bear_decay.toml").read_text()
                   .replace("toughness = 2", "toughness = 2\ncount = 5000"))
    most = limits.MAX_SLOTS // 5002 // montecarlo.BLOCK * montecarlo.BLOCK
    assert main(["simulate", str(big), "--games", "30000", "--batch", "30000", "--workers", "1",
                 "--no-progress"]) == 2
    _one_line_error(capsys, "--batch 30000: expected at most", f"{most:,} games")
    assert no_run == []


def test_an_engine_error_reports_the_games_that_finished(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Game 256 puts a second 1.5e9 +1/+1 counters on the bear: past int32. That printed
    no table and no JSON (exit 1, as documented for a run that stops early with its finished
    games reported), and named "game 0" (the shard's own numbering). Now the 256 games of the
    shards before are reported, and the error names the run's game and the entry."""
    sc, js = tmp_path / "rare.toml", tmp_path / "r.json"
    sc.write_text(OVERFLOW)
    assert main(["simulate", str(sc), "--games", "1024", "--batch", "32", "--workers", "1",
                 "--no-progress", "--json", str(js)]) == 1
    captured = capsys.readouterr()
    assert "STOPPED EARLY: 256 of 1,024 games finished" in captured.out
    assert "Survival" in captured.out
    assert "e+09" not in captured.out and "1,500,000,000" in captured.out   # (it was %g)
    assert re.search(r"the run stopped early: the engine refused an action: CountOverflowError: "
                     r".*entity \d+ \(bear\) in game 256 ", captured.err)
    d = json.loads(js.read_text())
    assert (d["games"], d["complete"]) == (256, False) and "in game 256" in d["error"]


def test_a_run_with_no_game_finished_reports_none(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Game 256 stops the only shard (512 games): no game finished. The header says 0 games
    and why, with no statistics under it; the JSON says so too (its statistics null); no
    chart is drawn (of nothing)."""
    sc, js, png = tmp_path / "rare.toml", tmp_path / "r.json", tmp_path / "r.png"
    sc.write_text(OVERFLOW)
    assert main(["simulate", str(sc), "--games", "512", "--batch", "512", "--workers", "1",
                 "--no-progress", "--json", str(js), "--plot", str(png)]) == 1
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0] == "Scenario rare (mtg, 1 object, 2 turns): 0 games, seed 1"
    assert lines[1].startswith("  STOPPED EARLY: 0 of 512 games finished (the engine refused")
    assert len(lines) == 4 and "Traceback" not in captured.err
    d = json.loads(js.read_text())
    assert (d["games"], d["requested"], d["complete"]) == (0, 512, False)
    assert d["survival"]["bear"]["p"] is None and d["length"]["mean"] is None
    assert not png.exists()
    assert f"tcg-counters: no chart written to {png}: no game finished" in captured.err


def test_an_error_in_an_interrupted_run_is_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A run both interrupted and stopped by an engine error (a Result may be both) exits 130
    and named the error nowhere but in the JSON: the table and stderr show it too."""
    real = montecarlo.run
    monkeypatch.setattr(montecarlo, "run", lambda *a, **k: replace(real(*a, **k), interrupted=True))
    sc = tmp_path / "rare.toml"
    sc.write_text(OVERFLOW)
    assert main(["simulate", str(sc), "--games", "1024", "--batch", "32", "--workers", "1",
                 "--no-progress"]) == 130
    captured = capsys.readouterr()
    assert re.search(r"  INTERRUPTED: 256 of 1,024 games finished; an error stopped it too \(the "
                     r"engine refused an action: CountOverflowError: .* in game 256 ", captured.out)
    assert re.search(r"^tcg-counters: the run stopped early: the engine refused an action: "
                     r"CountOverflowError: .* in game 256 ", captured.err, re.M)


@pytest.mark.parametrize("option, name", [("--json", "r.json"), ("--plot", "r.png")])
def test_an_output_that_fails_while_written_is_named_after_the_table(
        option: str, name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A disk that fills up while the output is written (``/dev/full`` under the output's
    name): the table is printed, then one line naming the option, the path and the reason;
    exit 1 (the run was done: an output could not be written)."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    out = tmp_path / name
    out.symlink_to("/dev/full")
    assert main(["simulate", "bear_decay", "--games", "32", "--workers", "1", "--no-progress",
                 option, str(out)]) == 1
    captured = capsys.readouterr()
    assert captured.out.startswith("Scenario bear_decay ") and "Survival" in captured.out
    assert captured.err == f"tcg-counters: cannot write {option} {out}: No space left on device\n"


def test_a_closed_stdout_while_the_json_is_written_is_quiet() -> None:
    """``simulate --json - | head -c 10``: the JSON's write failing with EPIPE was caught as a
    file that could not be written (exit 1, "cannot write the output: Broken pipe")."""
    read, write = os.pipe()
    os.close(read)
    try:
        p = subprocess.run([sys.executable, "-m", "ecs", "simulate", "mtg_skirmish", "--games",
                            "32", "--workers", "1", "--no-progress", "--json", "-"], stdout=write,
                           stderr=subprocess.PIPE, text=True, env=_env(), cwd=ROOT, timeout=300)
    finally:
        os.close(write)
    assert p.returncode == 141 and "cannot write" not in p.stderr, p.stderr


def test_scheduler_without_dask_fails_first(monkeypatch: pytest.MonkeyPatch, no_run: list[Any],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    assert main(["simulate", "bear_decay", "--games", "64", "--no-progress",
                 "--scheduler", "tcp://127.0.0.1:8786"]) == 2
    _one_line_error(capsys, "--scheduler needs Dask")
    assert no_run == []


def test_an_unreachable_scheduler_is_one_line(monkeypatch: pytest.MonkeyPatch, no_run: list[Any],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """30 s and a 55-line traceback; now CONNECT_TIMEOUT and one line."""
    pytest.importorskip("distributed")
    monkeypatch.setattr(executors, "CONNECT_TIMEOUT", 1.0)
    with socket.socket() as s:       # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert main(["simulate", "bear_decay", "--games", "64", "--no-progress",
                 "--scheduler", f"tcp://127.0.0.1:{port}"]) == 2
    _one_line_error(capsys, "cannot reach the Dask scheduler", f"127.0.0.1:{port}")
    assert no_run == []


def test_simulate_on_a_dask_scheduler(tmp_path: Path) -> None:
    """--scheduler ADDRESS runs the shards on a Dask cluster; the result equals the local one."""
    distributed = pytest.importorskip("distributed")
    local, remote = tmp_path / "local.json", tmp_path / "dask.json"
    common = ["simulate", "bear_decay", "--games", "300", "--seed", "9", "--no-progress", "--json"]
    assert main(common + [str(local), "--workers", "1"]) == 0
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        assert main(common + [str(remote), "--scheduler", cluster.scheduler_address,
                              "--batch", "64"]) == 0
    a, b = json.loads(local.read_text()), json.loads(remote.read_text())
    assert b["throughput"]["workers"].startswith("dask ")
    a.pop("throughput"), b.pop("throughput")
    assert a == b


def test_a_run_that_loses_its_executor_reports_the_finished_games(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """When the executor gives up, the finished games are printed and written (as
    on Ctrl-C), the reason is one line, the exit status 1."""
    real = montecarlo.run

    def losing(*a: Any, **k: Any) -> montecarlo.Result:
        r = real(*a, **k)
        r.error = "games 64..95 were lost 3 times: KilledWorker: ..."
        return r

    monkeypatch.setattr(montecarlo, "run", losing)
    js = tmp_path / "r.json"
    assert main(["simulate", "bear_decay", "--games", "64", "--workers", "1", "--no-progress",
                 "--json", str(js)]) == 1
    captured = capsys.readouterr()
    assert "STOPPED EARLY" in captured.out and "Survival" in captured.out
    assert "tcg-counters: the run stopped early: games 64..95 were lost" in captured.err
    assert json.loads(js.read_text())["complete"] is False


# ---- demo, --version, python -m ecs, a closed stdout -------------------------------------------
def test_demo_prints_timings_with_the_kernels_loaded_first(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The first tick was timed with the kernels' loading in it (90 ms vs 0.4 ms):
    a small board is ticked first, and its time is reported on its own line."""
    boards: list[int] = []
    real, watch = cli._board, warmup.watch
    monkeypatch.setattr(cli, "_board", lambda n, b: boards.append(n) or real(n, b))
    notes: list[Any] = []       # where the kernels' compile notes go (on a first run only)
    monkeypatch.setattr(warmup, "watch", lambda stream: notes.append(stream) or watch(stream))
    assert main(["demo", "--objects", "3000"]) == 0
    out = capsys.readouterr().out
    assert boards == [64, 3000] and notes == [sys.stderr]
    assert out.startswith("kernels: ") and "3,000 creatures" in out
    assert "first tick" in out and "objects/s" in out


@pytest.mark.parametrize("args, objects, batch", [([], 10_000, 1), (["--objects", "1001", "--batch", "3"], 1001, 3)])
def test_demo_leaves_the_creatures_its_counters_do_not_kill(
        args: list[str], objects: int, batch: int, capsys: pytest.CaptureFixture[str]) -> None:
    """``demo`` (10,000 creatures in 1 game unless told) puts 0-2 +1/+1 and 0-3 -1/-1 counters
    on each 2/2 (its own seeded draws, one creature a column, game by game): those with two
    -1/-1 more than +1/+1 die (CR 704.5f), the rest are left, counted over every game."""
    assert main(["demo", *args]) == 0
    out = capsys.readouterr().out
    rng = np.random.default_rng(1)
    plus, minus = rng.integers(0, 3, (batch, objects)), rng.integers(0, 4, (batch, objects))
    left = int((2 + plus - minus > 0).sum())
    assert f"board: {objects:,} creatures x {batch} game{'s' if batch > 1 else ''}; " in out
    assert out.endswith(f"; {left:,} permanents left\n"), out


def test_demo_options_have_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    text = capsys.readouterr().out
    assert re.search(r"--objects OBJECTS\s+creatures on the board", text)
    assert re.search(r"--batch BATCH\s+games ticked at once", text)


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out == f"tcg-counters {importlib.metadata.version('tcg-counters')}\n"


def test_python_dash_m_ecs() -> None:
    p = subprocess.run([sys.executable, "-m", "ecs", "scenarios"], capture_output=True, text=True,
                       env=_env(), cwd=ROOT, timeout=60)
    assert p.returncode == 0 and DEFAULT in p.stdout


def test_a_closed_stdout_is_not_a_traceback() -> None:
    """`tcg-counters scenarios | head -2` ended in a BrokenPipeError traceback. The
    reader is gone before the first write here: exit 141 (as SIGPIPE would), nothing on stderr."""
    read, write = os.pipe()
    os.close(read)
    try:
        p = subprocess.run([sys.executable, "-m", "ecs", "scenarios"], stdout=write,
                           stderr=subprocess.PIPE, text=True, env=_env(), cwd=ROOT, timeout=60)
    finally:
        os.close(write)
    assert p.returncode == 141 and p.stderr == ""


def test_a_survival_row_names_the_entry_and_its_copies(capsys: pytest.CaptureFixture[str]) -> None:
    """An entry of one copy is labelled by its name alone; an entry of many copies is
    "NAME (any of N)": its survival is that at least one copy is left."""
    assert main(["simulate", "mtg_skirmish", "--games", "32", "--workers", "1", "--no-progress",
                 "--json", "-"]) == 0
    captured = capsys.readouterr()
    labels = {m[1] for line in captured.err.splitlines() if (m := _ROW.fullmatch(line))}
    survival = json.loads(captured.out)["survival"]
    assert {e["copies"] for e in survival.values()} >= {1, 40}
    for name, e in survival.items():
        assert (name if e["copies"] == 1 else f"{name} (any of {e['copies']})") in labels, name


@pytest.mark.parametrize("option, name", [("--json", "r.json"), ("--plot", "r.png")])
def test_an_output_under_a_file_rather_than_a_folder_fails_first(
        option: str, name: str, no_run: list[Any], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``--json notes.txt/r.json`` (the "folder" a file): one line naming the option and the
    path, exit 2, before any game; not a run that ends failing to write its output, exit 1."""
    pytest.importorskip("matplotlib")
    afile = tmp_path / "notes.txt"
    afile.write_text("kept")
    out = afile / name
    assert main(["simulate", "bear_decay", "--games", "64", "--workers", "1", "--no-progress",
                 option, str(out)]) == 2
    _one_line_error(capsys, f"{option} {out}: the folder {afile} ")
    assert no_run == [] and afile.read_text() == "kept"


def test_an_interrupted_run_whose_output_fails_still_exits_130(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Exit status 130 says the run was interrupted, also when its JSON could not be written
    afterwards (1 is for a run that was done and lost its output); the failure is one line."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    real = montecarlo.run
    monkeypatch.setattr(montecarlo, "run", lambda *a, **k: replace(real(*a, **k), interrupted=True))
    out = tmp_path / "r.json"
    out.symlink_to("/dev/full")
    assert main(["simulate", "bear_decay", "--games", "32", "--workers", "1", "--no-progress",
                 "--json", str(out)]) == 130
    captured = capsys.readouterr()
    assert "  INTERRUPTED: 32 of 32 games finished" in captured.out
    assert captured.err == f"tcg-counters: cannot write --json {out}: No space left on device\n"


def test_demo_times_each_step_on_its_own(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Each line is its own step's time (a fake clock here): the kernels' load, the board's
    setup, the first tick and the quiet one; a tick's rate counts the objects of every game
    ticked (creatures x games)."""
    ticks = iter([0.0, 0.5, 0.5 + 2**-8, 0.5 + 2**-8 + 2**-16, 0.5 + 2**-8 + 2**-16 + 2**-17])
    monkeypatch.setattr(cli, "time", types.SimpleNamespace(perf_counter=lambda: next(ticks)))
    assert main(["demo", "--objects", "100", "--batch", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "kernels: 500 ms to load or compile (once per process)"
    assert lines[1] == "board: 100 creatures x 3 games; setup 3.9 ms"
    # 300 objects in 2^-16 s and in 2^-17 s
    assert lines[2].startswith("first tick: 0.02 ms (") and lines[2].endswith(", 19.7 M objects/s")
    assert lines[3].startswith("quiet tick: 0.01 ms, 39.3 M objects/s; ")


def test_sigterm_that_ctrl_c_s_handler_lets_pass_leaves_the_status(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """SIGTERM outside a run goes through Ctrl-C's handler, here a program's own that stops
    nothing: the command finishes with its own status (0); 143 is for a command SIGTERM
    stopped."""
    got: list[int] = []
    real = cli.embedded

    def embedded() -> dict[str, str]:
        os.kill(os.getpid(), signal.SIGTERM)
        return real()

    monkeypatch.setattr(cli, "embedded", embedded)
    old = signal.signal(signal.SIGINT, lambda signum, frame: got.append(signum))
    try:
        assert cli.main(["scenarios"]) == 0
    finally:
        signal.signal(signal.SIGINT, old)
    assert got == [signal.SIGINT] and DEFAULT in capsys.readouterr().out
