"""benchmarks.soak, as a smoke test of a few steps: the workload stays legal
(every game kills objects of its own choosing and the harness keeps track), rows record
time, RSS and live bytes, the targets and the plot come out. The full soak is opt-in
(``python -m benchmarks.soak`` or ``python -m benchmarks.report --soak``)."""
import os
import re
from types import SimpleNamespace

import numpy as np
import pytest

from benchmarks import soak


def test_a_few_steps_of_the_soak_on_a_batch_and_a_single_game(tmp_path):
    runs = soak.report([1, 3], steps=4, every=2, path=tmp_path / "soak.png")
    assert [s.games for s in runs] == [1, 3]
    assert len({os.getpid(), *(s.pid for s in runs)}) == 3     # each run in a process of its own
    for s in runs:
        assert [r["step"] for r in s.rows] == [1, 2, 4] and not s.stopped
        assert all(r["rss"] - r["run_rss"] == s.before > 0 for r in s.rows)   # one "before", the run's
        assert 0 < s.before_anon <= s.before   # (equal where only the peak is known: not Linux)
        assert all(0 < r["run_anon"] + s.before_anon <= r["rss"] for r in s.rows)   # a part of RSS
        assert all(r["seconds"] > 0 and r["rss"] > 0 and r["live_bytes"] > 0 for r in s.rows)
        assert [what for what, _, _ in soak.targets(s)][0].startswith("time/step at step 4")
    assert (tmp_path / "soak.png").stat().st_size > 0


def test_the_live_state_and_the_columns_stay_constant_while_history_grows():
    """Each step as many objects die as enter, cards change zones and tokens cease to
    exist: the battlefield keeps its objects per game (no state-based action kills:
    annihilation only), and the columns follow what a game holds, not the history (a
    card that moves keeps its slot; a token's slot is reused by the game's next object,
    though each game destroyed another token). The run is seeded."""
    s = soak.run(4, steps=30, every=1)
    alive = soak.POPULATION + soak.TOKEN_POP
    assert all(r["alive_min"] == r["alive_max"] == alive for r in s.rows)
    held = alive + soak.GRAVEYARD + 2     # and the two players
    assert max(r["columns"] for r in s.rows) == held + soak.TOKENS   # made before one dies
    assert s.rows[-1]["live_bytes"] == s.rows[0]["live_bytes"]


def test_a_single_game_is_driven_by_ids_as_ints(monkeypatch):
    """One game's run calls its actions as its users do, one int id a call (the scalar
    paths); a batch's, with the (games, k) arrays. Both keep their objects as above."""
    from ecs import World
    seen = []
    for name in ("move_zone", "destroy", "put_counters", "deal_damage"):
        action = getattr(World, name)
        monkeypatch.setattr(World, name, lambda w, e, *a, _f=action, **k: (seen.append(type(e)), _f(w, e, *a, **k))[1])
    for games, kind in ((1, int), (2, np.ndarray)):
        seen.clear()
        s = soak.run(games, steps=5, every=1)
        assert set(seen) == {kind} and len(seen) == 5 * (
            2 * soak.ENTER + soak.TOKENS + 2 * soak.TARGETS + 1 if games == 1 else 6)
        alive = soak.POPULATION + soak.TOKEN_POP
        assert all(r["alive_min"] == r["alive_max"] == alive for r in s.rows)


def test_limits_stop_a_run_and_say_so():
    s = soak.run(1, steps=50, every=1, rss_limit=1.0)
    assert len(s.rows) == 1 and "RSS" in s.stopped
    assert np.isfinite(s.rows[0]["seconds"])


def test_repeated_runs_are_judged_on_their_median(capsys):
    """Each run of a size in a process of its own; every target line gives each run's
    figure and is judged on their median (what the allocator keeps differs run to run);
    the whole process's RSS over the live state is shown, not judged."""
    runs = soak.report([2], steps=3, every=1, path=None, repeat=3)
    assert [s.games for s in runs] == [2]
    out = capsys.readouterr().out.splitlines()
    lines = [line for line in out if "2 games:" in line and "target" in line]
    shown = [what for what, _, goal in soak.targets(runs[0]) if goal is None]
    assert len(lines) == len(soak.targets(runs[0])) - len(shown) and len(shown) == 2
    for what in shown:
        assert any(line.lstrip().startswith("[not judged] 2 games: " + what) for line in out)
    assert any(line.lstrip().startswith("[") and "(anonymous RSS - anonymous RSS before the run) / live" in line
               and "target <= 2" in line for line in out)
    for line in lines:
        got = re.search(r": (\S+) \(median of 3 runs: ([^;]+); target <= (\S+)\)$", line)
        assert got is not None, line
        shown, goal = float(got[1]), float(got[3])
        values = [float(v) for v in got[2].split(", ")]
        assert len(values) == 3
        assert shown == pytest.approx(float(np.median(values)), rel=1e-2)
        assert line.lstrip().startswith("[met]" if shown <= goal else "[MISSED]")


def test_a_repeat_below_one_is_refused_before_any_run():
    with pytest.raises(ValueError, match="repeat.*got 0"):
        soak.report([2], steps=3, every=1, path=None, repeat=0)


def test_the_memory_target_is_judged_on_the_anonymous_memory_the_run_added():
    """The libraries' code pages a run touches first are file-backed, shown beside the
    judged figure: a run that added 3x the live state in RSS of which 1.5x anonymous
    meets the target; one whose anonymous memory alone is 3x misses it."""
    def judged(run_rss: float, run_anon: float) -> dict[str, tuple[float, float | None]]:
        row = dict(step=50, seconds=1.0, rss=200.0, run_rss=run_rss, run_anon=run_anon,
                   store_bytes=13.0, live_bytes=10.0)
        s = soak.Soak(games=2, steps=50, every=50, rows=[row])
        return {what.split(" at step")[0]: (value, goal) for what, value, goal in soak.targets(s)}
    code = judged(run_rss=30.0, run_anon=15.0)
    assert code["(anonymous RSS - anonymous RSS before the run) / live state bytes"] == (1.5, 2.0)
    assert code["(RSS - RSS before the run) / live state bytes"] == (3.0, None)
    heap = judged(run_rss=30.0, run_anon=30.0)
    assert heap["(anonymous RSS - anonymous RSS before the run) / live state bytes"] == (3.0, 2.0)


def _rows(early_seconds: float = 1.0, late_seconds: float = 2.0, late_rss: float = 150.0) -> list[dict[str, float]]:
    """Rows every 10 steps to step 1,000: a slow start (steps 1 and 10), ``early_seconds``
    per step and RSS 100 to step 500, then ``late_seconds`` and ``late_rss``, the last
    row's time a spike that the running median leaves out."""
    rows = []
    for step in [1, *range(10, 1001, 10)]:
        late = step > 500
        rows.append(dict(step=float(step), seconds=0.25 if step <= 10 else late_seconds if late else early_seconds,
                         rss=10.0 if step == 1 else late_rss if late else 100.0, run_rss=30.0, run_anon=15.0,
                         store_bytes=13.0, live_bytes=10.0, columns=70.0, alive_min=48.0, alive_max=48.0))
    rows[-1]["seconds"] = 50.0
    return rows


def test_the_soak_targets_compare_step_1000_with_step_50():
    """Time per step (a running median of five rows: one slow row is not the trend) and RSS
    at step 1,000 over step 50, not over the start-up; memory over the live state's bytes."""
    s = soak.Soak(games=2, steps=1000, every=10, rows=_rows())
    got = soak.targets(s)
    assert [(value, goal) for _, value, goal in got] == [(2.0, 1.2), (1.5, 1.2), (1.5, 2.0), (3.0, None),
                                                         (15.0, None), (1.3, 2.0)]
    assert got[0][0] == "time/step at step 1000 / step 50" and got[1][0] == "RSS at step 1000 / step 50"


def test_a_soak_target_at_its_goal_is_met_and_the_runs_are_judged_on_their_median(monkeypatch, capsys):
    """"Within 1.2x": RSS at step 1,000 exactly 1.2x step 50 meets the target; time per step
    1.0x, 1.3x and 1.5x of step 50 in three runs is judged on 1.3x, their median: missed."""
    made = iter([soak.Soak(games=2, steps=1000, every=10, rows=_rows(late_seconds=late, late_rss=120.0))
                 for late in (1.5, 1.0, 1.3)])
    monkeypatch.setattr(soak, "alone", lambda *a: next(made))
    soak.report([2], steps=1000, every=10, path=None, repeat=3)
    out = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert any(line.startswith("[met] 2 games: RSS at step 1000 / step 50: 1.2 (") for line in out)
    assert any(line.startswith("[MISSED] 2 games: time/step at step 1000 / step 50: 1.3 (median of 3 runs: 1.5, 1, 1.3")
               for line in out)


def test_a_row_records_the_median_time_of_the_engines_calls_since_the_last(monkeypatch):
    """A step's time is its zone changes, tokens and destroys plus its counters, damage and
    tick (the targets' choosing is not timed); a row holds the median step since the last
    row. A fake clock whose n-th reading is n**2 makes step i take 16i - 6."""
    calls = iter(range(10**6))
    monkeypatch.setattr(soak, "time", SimpleNamespace(perf_counter=lambda: float(next(calls)) ** 2))
    s = soak.run(1, steps=6, every=3)
    assert [(r["step"], r["seconds"]) for r in s.rows] == [(1.0, 10.0), (3.0, 34.0), (6.0, 74.0)]


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads Linux's statm")
def test_rss_counts_resident_bytes_and_the_anonymous_part_apart():
    """64 MiB written add about 64 MiB to both figures; the anonymous part leaves out the
    shared libraries' resident pages (the imports: NumPy, the engine's kernels)."""
    before, before_anon = soak.rss()
    ballast = np.ones(64 * 2**20 // 8)
    after, after_anon = soak.rss()
    assert 0.9 * ballast.nbytes < after - before < 1.1 * ballast.nbytes
    assert 0.9 * ballast.nbytes < after_anon - before_anon < 1.1 * ballast.nbytes
    assert after_anon < after


def test_the_live_bytes_are_a_slots_bytes_times_the_slots_in_use_and_the_store_holds_them():
    from benchmarks.boards import build_engine, make_board
    from benchmarks.cases import state_nbytes
    built = build_engine(make_board(62, games=3, seed=1))   # 64 columns: no spare one
    s = built.world.store
    assert s.n_cols == s.capacity
    slots = s.batch * s.capacity
    per_slot = s.counts[: s.n_kinds].nbytes / slots + sum(
        a.nbytes / slots for a in s.a.values() if a.shape == (s.batch, s.capacity))
    assert soak.live_bytes(built.world) == per_slot * s.batch * (built.objects.size + built.players.size)
    assert soak.store_bytes(built.world) >= state_nbytes(built.world)   # the id index and unused kinds besides
