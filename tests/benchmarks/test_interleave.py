"""benchmarks.interleave: sides alternate round by round, every timed block runs
with the collector collected beforehand and off, for engine and baselines alike, and
frees what it built after."""
import gc

import pytest

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
    sides = {"engine": interleave.Side([1.0, 2.0, 3.0], [1.0, 2.0]),
             "b": interleave.Side([1.0, 1.0, 1.0], [1.0, 1.0])}
    mid, low, high = interleave.Outcome(contest, "hot", sides).speedup("b")
    assert (mid, low, high) == (2.0, 2.0, 4.0)
