"""benchmarks.interleave: sides alternate round by round, every timed block runs
with the collector collected beforehand and off, for engine and baselines alike, and
frees what it built after."""
import gc
from types import SimpleNamespace

import hypothesis.strategies as st
import pytest
from fake_clock import FakeClock
from hypothesis import given, settings
from profiles import examples

from benchmarks import cases, interleave


def probe(log: list[str], name: str) -> cases.Case:
    return cases.Case(name, run=lambda: log.append(f"{name} run gc={gc.isenabled()}"),
                      setup=lambda: log.append(f"{name} setup"),
                      prepare=lambda: log.append(f"{name} prepare"),
                      release=lambda: log.append(f"{name} release"))


@pytest.mark.parametrize("regime", interleave.REGIMES)
def test_block_prepares_once_sets_up_each_run_and_times_with_the_collector_off(regime):
    log: list[str] = []
    times = interleave.block(probe(log, "a"), 3, regime)
    assert len(times) == 3 and all(t >= 0 for t in times)
    assert log == ["a prepare"] + ["a setup", "a run gc=False"] * 3 + ["a release"]
    assert gc.isenabled()


def test_block_turns_the_collector_back_on_and_releases_when_a_run_raises():
    def boom():
        raise RuntimeError("x")
    released = []
    with pytest.raises(RuntimeError):
        interleave.block(cases.Case("boom", boom, release=lambda: released.append(1)), 2, "hot")
    assert gc.isenabled() and released == [1]


def test_unknown_regime_raises():
    with pytest.raises(ValueError, match="regime"):
        interleave.block(cases.Case("x", lambda: None), 1, "lukewarm")


def test_compare_alternates_sides_each_round():
    log: list[str] = []
    contest = interleave.Contest("c", probe(log, "e"), {"b": probe(log, "b")})
    out = interleave.compare(contest, "hot", rounds=3, budget=0.0)
    prepares = [line.split()[0] for line in log if line.endswith("prepare")]
    assert prepares[-6:] == ["e", "b"] * 3       # after calibration: e b e b e b
    assert len(out.sides["engine"].round_medians) == 3


def test_a_batch_tick_contest_scales_a_baseline_by_the_objects_it_checks():
    """The baselines play the first games of a batch: an acting tick checks every game's
    objects, a settled one those of the games still going (``cases.ongoing``), on either
    side; the scale is the engine's objects over the baseline's."""
    games, n, played = 200, 20, 64
    for settled in (False, True):
        contest = interleave.tick_contest(games, n, settled, played)
        live = cases.ongoing(games, n) if settled else games
        live_played = cases.ongoing(games, n, played) if settled else played
        assert contest.objects == contest.engine.objects == live * n
        assert contest.scale == {label: live / live_played for label in ("naive esper", "esper")}
    assert cases.ongoing(games, n) < games


def test_speedup_is_the_ratio_of_medians_scaled_to_the_games_played():
    contest = interleave.Contest("c", cases.Case("e", lambda: None),
                                 {"b": cases.Case("b", lambda: None)}, scale={"b": 4.0})
    sides = {"engine": interleave.Side([1.0, 2.0, 4.0]),
             "b": interleave.Side([1.0, 1.0, 1.0])}
    mid, low, high = interleave.Outcome(contest, "hot", sides).speedup("b")
    assert (mid, low, high) == (2.0, 1.0, 4.0)


_RUNS = st.lists(st.floats(1e-7, 1.0), min_size=1, max_size=5)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.tuples(_RUNS, _RUNS), min_size=1, max_size=7))
def test_a_speedup_lies_within_its_spread_over_the_rounds(rounds):
    """The figure printed beside its min-max spread is never outside it (a reader takes a
    figure outside its own spread for an error), whatever each round's runs were."""
    blocks = iter([runs for pair in rounds for runs in pair])
    contest = interleave.Contest("c", cases.Case("e", lambda: None), {"b": cases.Case("b", lambda: None)})
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(interleave, "calibrate", lambda case, budget: 1)
        patch.setattr(interleave, "block", lambda case, runs, regime: next(blocks))
        out = interleave.compare(contest, "hot", rounds=len(rounds))
    mid, low, high = out.speedup("b")
    assert low * (1 - 1e-12) <= mid <= high * (1 + 1e-12)


@pytest.mark.parametrize("regime", interleave.REGIMES)
def test_a_block_collects_after_prepare_disturbs_before_each_run_and_times_the_run_alone(regime, monkeypatch):
    """The order of a block: prepare, a full collection (the garbage prepare made is not
    the timed runs'), then per run setup, the disturbance (disturbed regime only, after
    the setup, so that the setup's work does not warm the caches again) and the run. Only
    the run is timed: not the setup, the disturbance, the teardown, nor freeing what the
    run returned (a clone, a game)."""
    clock, log = FakeClock(), []
    monkeypatch.setattr(interleave, "time", SimpleNamespace(perf_counter=clock))
    monkeypatch.setattr(gc, "collect", lambda *a: log.append("collect"))
    monkeypatch.setattr(interleave, "disturb", lambda: (log.append("disturb"), clock.spend(100.0)))

    class Made:
        def __del__(self) -> None:
            log.append("freed")
            clock.spend(100.0)

    def run() -> Made:
        log.append("run")
        clock.spend(1.0)
        return Made()

    case = cases.Case("c", run, setup=lambda: (log.append("setup"), clock.spend(100.0)),
                      prepare=lambda: log.append("prepare"),
                      teardown=lambda: (log.append("teardown"), clock.spend(100.0)),
                      release=lambda: log.append("release"))
    times = interleave.block(case, 3, regime)
    assert times == [1.0, 1.0, 1.0]
    one_run = ["setup"] + (["disturb"] if regime == "disturbed" else []) + ["run", "freed", "teardown"]
    assert log == ["prepare", "collect"] + one_run * 3 + ["release"]


def test_compare_keeps_each_rounds_median_and_their_median(monkeypatch):
    """The spread of a speedup is over the rounds' medians; its middle, the median of
    those (not the fastest run, which flatters whichever side is noisier, nor the median of
    all runs pooled, which can fall outside the spread)."""
    blocks = iter([[1.0, 2.0, 9.0], [4.0, 4.0, 4.0], [3.0, 5.0, 6.0], [4.0, 4.0, 4.0],
                   [1.0, 1.0, 8.0], [8.0, 8.0, 8.0]])
    monkeypatch.setattr(interleave, "calibrate", lambda case, budget: 3)
    monkeypatch.setattr(interleave, "block", lambda case, runs, regime: next(blocks))
    contest = interleave.Contest("c", cases.Case("e", lambda: None), {"b": cases.Case("b", lambda: None)})
    out = interleave.compare(contest, "hot", rounds=3)
    assert out.sides["engine"].round_medians == [2.0, 5.0, 1.0] and out.sides["b"].round_medians == [4.0, 4.0, 8.0]
    assert out.sides["engine"].median == 2.0   # (all engine runs pooled: 3.0)
    assert out.speedup("b") == (2.0, 0.8, 8.0)

def test_disturb_writes_a_buffer_bigger_than_a_last_level_cache_and_churns_small_objects():
    """Every element of a buffer of 32 MiB or more is written (what evicts the caches), and
    a burst of small Python objects is made (what churns the allocator): megabytes of them."""
    import tracemalloc

    import numpy as np
    before = interleave._JUNK.copy()
    tracemalloc.start()
    try:
        interleave.disturb()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert interleave._JUNK.nbytes >= 32 * 2**20
    assert np.array_equal(interleave._JUNK, before + 1.0)
    assert peak > 2 * 2**20


@pytest.mark.parametrize("run_s, budget, runs", [(0.01, 0.2, 10), (1.0, 0.05, 5), (0.0, 0.05, 300)],
                         ids=["budget", "at least low", "at most high"])
def test_calibrate_fits_a_block_of_runs_with_their_setups_to_the_budget(run_s, budget, runs, monkeypatch):
    """Runs of ``run_s`` seconds after setups of as long: as many as fill ``budget``,
    between 5 and 300."""
    clock = FakeClock()
    monkeypatch.setattr(interleave, "time", SimpleNamespace(perf_counter=clock))
    case = cases.Case("probe", run=lambda: clock.spend(run_s), setup=lambda: clock.spend(run_s))
    assert interleave.calibrate(case, budget) == runs
