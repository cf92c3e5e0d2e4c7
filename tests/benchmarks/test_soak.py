"""benchmarks.soak (issue 13), as a smoke test of a few steps: the workload stays legal
(every game kills objects of its own choosing and the harness keeps track), rows record
time, RSS and live bytes, the targets and the plot come out. The full soak is opt-in
(``python -m benchmarks.soak`` or ``python -m benchmarks.report --soak``)."""
import numpy as np

from benchmarks import soak


def test_a_few_steps_of_the_soak_on_a_batch_and_a_single_game(tmp_path):
    runs = soak.report([1, 3], steps=4, every=2, path=tmp_path / "soak.png")
    assert [s.games for s in runs] == [1, 3]
    for s in runs:
        assert [r["step"] for r in s.rows] == [1, 2, 4] and not s.stopped
        assert all(r["seconds"] > 0 and r["rss"] > 0 and r["live_bytes"] > 0 for r in s.rows)
        assert [what for what, _, _ in soak.targets(s)][0].startswith("time/step at step 4")
    assert (tmp_path / "soak.png").stat().st_size > 0


def test_the_population_stays_constant_while_history_grows():
    """Each step as many objects die as enter: the battlefield keeps POPULATION objects per
    game (no state-based action kills: annihilation only), the columns grow."""
    s = soak.run(2, steps=3, every=1)
    assert s.rows[-1]["columns"] > s.rows[0]["columns"]
    assert all(r["alive_min"] == r["alive_max"] == soak.POPULATION for r in s.rows)


def test_limits_stop_a_run_and_say_so():
    s = soak.run(1, steps=50, every=1, rss_limit=1.0)
    assert len(s.rows) == 1 and "RSS" in s.stopped
    assert np.isfinite(s.rows[0]["seconds"])
