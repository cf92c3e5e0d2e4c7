"""benchmarks.cases: the boards the measurements run on are what their names say, and
the cases start and leave the baselines as a game loop would."""
import esper
import numpy as np
import pytest

from benchmarks import cases, interleave, report
from benchmarks.boards import CREATURE, build_baseline
from benchmarks.esper_baseline import EsperGame
from benchmarks.naive_esper import NaiveGame
from ecs.components import HOST_OBJECT_FIELDS
from ecs.events import ZoneChanged

HOST_FIELDS_SET = [f.name for f in HOST_OBJECT_FIELDS]   # (the effects and their mark)


def test_the_host_effects_board_holds_each_effect_in_every_game():
    """``engine(..., host=True)``: the board under a host engine's effects (613.4b, 613.4c,
    a redirect, 704.5v's hold, 101.3's prohibition), each on its creatures in every game,
    so no pass or zone change can skip a field it sets as holding its fill everywhere."""
    games, n = 4, 200
    built, snap = cases.engine(games, n, host=True)
    plain, plain_snap = cases.engine(games, n)
    w, other = built.world, plain.world
    w.restore(snap)
    other.restore(plain_snap)
    assert all(not w.store.at_fill(name) for name in HOST_FIELDS_SET)
    assert all(other.store.at_fill(name) for name in HOST_FIELDS_SET)
    spec = cases.board(games, n)
    creatures = built.objects[spec.card_type == CREATURE]
    pick = {name: creatures[first::every] for name, (every, first) in cases.HOST_EFFECTS.items()}
    assert all(ids.size for ids in pick.values())
    modified, set_to = int(pick["modify_pt"][0]), int(pick["set_pt"][0])
    assert np.array_equal(w.power(modified), other.power(modified) + 1)
    printed = int(spec.toughness[np.flatnonzero(built.objects == set_to)[0]])   # (not one modified)
    assert np.array_equal(w.toughness(set_to) - other.toughness(set_to), np.full(games, 1 - printed))
    assert w.is_held(int(pick["set_hold"][0])).all()
    assert w.is_prohibited(int(pick["prohibit"][0]), "-1/-1").all()
    redirected = int(pick["set_redirect"][0])   # "exile it instead if it would die"
    w.clear_events()
    w.destroy(redirected)
    moves = [e for e in w.events() if isinstance(e, ZoneChanged) and e.old == redirected]
    assert sorted(e.game for e in moves) == list(range(games))
    assert {(e.from_zone, e.to_zone) for e in moves} == {("battlefield", "exile")}


def test_a_single_games_cases_restore_their_settled_board_as_settled():
    """The one-game cases act on the board a tick left, restored into the World whose tick
    left it: settled, as that tick left it (``Store.settled``), the state a search that
    restores its own snapshots acts on. (``engine`` is one World per board, asked for with
    ``host`` or without.)"""
    assert cases.engine(1, 100) is cases.engine(1, 100, host=False)
    case = cases.engine_op(100, "tick (nothing written)")
    case.prepare()
    assert cases.engine(1, 100)[0].world.store.settled is not None


def test_the_baseline_cases_leave_no_esper_world_behind():
    """esper keeps every world in module globals until it is deleted: a case releases the
    worlds its runs built when they are done (measured by the report, interleaved, or by
    pytest-benchmark), so that they do not pile up and slow every later full collection."""
    made = [cases.baseline_tick(2, 50, None, settled, game) for settled in (False, True)
            for game in (NaiveGame, EsperGame)]
    made += [cases.esper_op(100, op) for op in ("put_counters", "tick (one death)")]
    made += [cases.esper_step(100, clone) for clone in (False, True)]
    made.append(cases.esper_early_step(100))
    made += [cases.baseline_clone(1, 50, game) for game in (NaiveGame, EsperGame)]
    before = set(esper.list_worlds())   # (the settled game the single-game cases copy is kept)
    for case in made:
        interleave.block(case, 2, "hot")
        report.measure(case, 0.0, min_rounds=2)
        assert set(esper.list_worlds()) == before, case.name


@pytest.mark.parametrize("game", [NaiveGame, EsperGame], ids=["naive", "esper"])
def test_a_baseline_acting_tick_starts_with_its_query_caches_built(game, monkeypatch):
    """In a game loop the previous tick's last check built esper's query caches and the
    actions since keep them: the timed acting tick starts so, its first check queries
    nothing anew, where a freshly built board's would (a settled tick's board, ticked
    once, has them already)."""
    queried = []
    real_query, real_process = esper._get_components, esper.process
    monkeypatch.setattr(esper, "_get_components", lambda *types: (queried.append(types), real_query(*types))[1])
    per_check = []

    def process(*args):
        start = len(queried)
        real_process(*args)
        per_check.append(len(queried) - start)
    monkeypatch.setattr(esper, "process", process)
    fresh = build_baseline(cases.board(1, 200), game)
    try:
        fresh.world.tick()
    finally:
        fresh.world.close()
    assert per_check[0] > 0
    per_check.clear()
    case = cases.baseline_tick(1, 200, game=game)
    case.prepare()
    try:
        case.run()
    finally:
        case.release()
    assert len(per_check) >= 2 and per_check[0] == 0


@pytest.mark.parametrize("game", [NaiveGame, EsperGame], ids=["naive", "esper"])
def test_a_settled_tick_checks_on_both_baselines(game, monkeypatch):
    """The settled tick's case times a check on either baseline (``EsperGame`` skips a
    tick of a state a tick left unwritten: its mark is cleared first, as the engine's)."""
    case = cases.baseline_tick(2, 50, None, True, game)
    case.prepare()
    checks = []
    real = esper.process
    monkeypatch.setattr(esper, "process", lambda *a: (checks.append(1), real(*a))[1])
    try:
        case.run()
    finally:
        case.release()
    assert checks and len(checks) == cases.ongoing(2, 50)


def test_a_settled_tick_counts_the_objects_of_the_games_still_going():
    """A game that has ended is frozen (it has no check): ``ongoing`` games are those in
    which no player has lost after the first tick, in the engine and in the baseline, and
    a settled tick counts their objects; an acting tick counts every game's."""
    games, n, played = 200, 20, 64
    built, _ = cases.engine(games, n)
    built.world.restore(cases._settled_snapshot(games, n))
    lost = np.stack([np.atleast_1d(built.world.has_lost(int(p))) for p in built.players]).any(axis=0)
    assert 0 < lost.sum() and cases.ongoing(games, n) == games - lost.sum()
    baseline = build_baseline(cases.board(games, n).select(slice(0, played)))
    try:
        baseline.world.tick()
        assert cases.ongoing(games, n, played) == sum(not g.over for g in baseline.world.games)
    finally:
        baseline.world.close()
    assert cases.engine_tick(games, n, settled=True).objects == cases.ongoing(games, n) * n
    assert cases.engine_tick(games, n).objects == games * n
    assert cases.baseline_tick(games, n, played, settled=True).objects == cases.ongoing(games, n, played) * n


def _checks_per_run(case, monkeypatch, runs=2):
    """The esper checks of each of ``runs`` runs of ``case`` (its setup before each, untimed)."""
    checks = []
    real = esper.process
    monkeypatch.setattr(esper, "process", lambda *a: (checks.append(1), real(*a))[1])
    case.prepare()
    per_run = []
    try:
        for _ in range(runs):
            case.setup()
            start = len(checks)
            case.run()
            per_run.append(len(checks) - start)
            case.teardown()
    finally:
        case.release()
    return per_run


def test_every_run_of_an_engine_acting_tick_starts_from_the_generated_board():
    """An acting tick is timed on the generated board every run (restored before each,
    untimed): the second run acts as the first did, it does not tick the board the first
    left (a settled tick, far cheaper)."""
    case = cases.engine_tick(2, 50)
    case.prepare()
    acted = []
    for _ in range(2):
        case.setup()
        acted.append(case.run())
    assert acted[0] == acted[1] > 0


@pytest.mark.parametrize("game", [NaiveGame, EsperGame], ids=["naive", "esper"])
def test_every_run_of_a_baseline_acting_tick_starts_from_the_generated_board(game, monkeypatch):
    """The baselines' acting tick, rebuilt before each run: every run makes the same
    checks, more than one (704.3: the check after the first perform)."""
    per_run = _checks_per_run(cases.baseline_tick(2, 50, None, False, game), monkeypatch)
    assert per_run[0] == per_run[1] >= 2 * 2


def test_every_run_of_an_engine_settled_tick_makes_its_check(monkeypatch):
    """The engine's settled tick times one check that finds nothing, every run: the mark of
    a state a tick left is cleared first (``checked_tick``), as the baselines' is, so that
    the engine is not timed skipping the check where the baselines make it."""
    from ecs import schedule
    case = cases.engine_tick(2, 50, settled=True)
    case.prepare()
    calls = []
    real = schedule._tick
    monkeypatch.setattr(schedule, "_tick", lambda *a: (calls.append(1), real(*a))[1])
    for _ in range(3):
        case.setup()
        assert case.run() == 0
    assert len(calls) == 3


def test_every_run_of_the_one_death_tick_kills_on_both_sides(monkeypatch):
    """"tick (one death)": each run ticks the settled board with -1/-1 counters enough to
    kill a creature (704.5f), set up before it on both sides, so every run of either side
    checks, performs the death and checks again: not a tick of a settled board."""
    w, _, (_, b, _) = cases._engine_settled(100)
    case = cases.engine_op(100, "tick (one death)")
    case.prepare()
    for _ in range(2):
        case.setup()
        assert case.run() == 1 and not w.exists(b)
    assert _checks_per_run(cases.esper_op(100, "tick (one death)"), monkeypatch) == [2, 2]


@pytest.mark.parametrize("make", [lambda: cases.esper_op(100, "tick (one death)"),
                                  lambda: cases.esper_step(100, clone=False)], ids=["op", "step"])
def test_the_esper_single_game_runs_start_with_its_query_caches_built(make, monkeypatch):
    """The engine acts on a restored world; ``EsperGame`` on a copy of the settled game
    whose query caches are built before the timed run (a clone's are empty; a game loop's
    are built), so the first check of the run queries nothing anew."""
    queried = []
    real_query = esper._get_components
    monkeypatch.setattr(esper, "_get_components", lambda *types: (queried.append(types), real_query(*types))[1])
    per_check = []
    real_process = esper.process

    def process(*args):
        start = len(queried)
        real_process(*args)
        per_check.append(len(queried) - start)
    monkeypatch.setattr(esper, "process", process)
    case = make()
    case.prepare()
    try:
        case.setup()
        case.run()
    finally:
        case.teardown()
        case.release()
    assert per_check and per_check[0] == 0


def test_every_run_of_the_engine_self_play_step_starts_from_the_settled_board():
    """The step (not on a clone) is timed from the settled board every run, restored before
    it, as the esper side's runs start from a fresh copy: each run's two -1/-1 counters
    land on a creature that holds none, never on the counters the runs before left."""
    w, _, (_, b, _) = cases._engine_settled(100)
    case = cases.engine_step(100)
    case.prepare()
    for _ in range(3):
        case.setup()
        case.run()
        assert w.counters(b) == {"-1/-1": 2}


@pytest.mark.parametrize("op, action", [("put_counters (3 targets)", "put_counters"),
                                        ("deal_damage (3 targets)", "deal_damage"),
                                        ("destroy (3 targets)", "destroy")])
def test_the_three_target_ops_act_on_the_same_three_objects_on_both_sides(op, action, monkeypatch):
    """The engine's one call on three ids against esper's three calls, one a target: each
    side's run acts on the three targets of ``cases.targets``."""
    from ecs import World
    seen = {"engine": [], "esper": []}
    for side, cls in (("engine", World), ("esper", EsperGame)):
        real = getattr(cls, action)
        monkeypatch.setattr(cls, action, lambda self, e, *a, _f=real, _s=side, **k: (
            seen[_s].append(e), _f(self, e, *a, **k))[1])
    _, _, engine_ids = cases._engine_settled(100)
    _, esper_ids = cases._esper_settled(100)
    for case in (cases.engine_op(100, op), cases.esper_op(100, op)):
        case.prepare()
        try:
            case.setup()
            seen["engine"].clear(), seen["esper"].clear()
            case.run()
        finally:
            case.release()
        if case.name.startswith("engine"):
            assert seen == {"engine": [list(engine_ids)], "esper": []}
        else:
            assert seen == {"engine": [], "esper": list(esper_ids)}


@pytest.mark.parametrize("clone", [False, True], ids=["step", "clone+step"])
def test_the_esper_step_run_checks_only_in_its_tick(clone, monkeypatch):
    """The timed esper step is the actions and one tick: every pass of its deciding
    processors belongs to one of the tick's checks (``warm``'s pass, which builds the
    caches, is untimed setup), so the baseline is not timed doing work the engine skips."""
    from benchmarks import naive_esper as nv
    decided, checks = [], []
    real_decide, real_process = nv.Annihilation.process, esper.process
    case = cases.esper_step(100, clone)
    case.prepare()
    try:
        case.setup()
        monkeypatch.setattr(nv.Annihilation, "process",
                            lambda self, check: (decided.append(1), real_decide(self, check))[1])
        monkeypatch.setattr(esper, "process", lambda *a: (checks.append(1), real_process(*a))[1])
        case.run()
    finally:
        case.teardown()
        case.release()
    assert checks and len(decided) == len(checks)


@pytest.mark.parametrize("n", cases.ACTION_SIZES)
def test_the_early_roots_children_each_make_a_kinds_layout_their_root_has_not(n):
    """``cases.EARLY``'s regime: its root holds no +1/+1 and no -1/-1 counters and no cap
    of either kind (122.1; a cap makes its kind's plane too), where the settled board's
    holds both; each timed run's first child makes both kinds' planes, its second the
    +1/+1 one only: two kinds layouts, neither the root's, one after the other."""
    root, restore, _ = cases._engine_settled(n, early=True)
    restore()
    settled, _, _ = cases._engine_settled(n)
    assert {"+1/+1", "-1/-1"} <= set(settled.store.kind_names)
    assert not {"+1/+1", "-1/-1"} & set(root.store.kind_names)
    case = cases.engine_early_step(n)
    case.prepare()
    for _ in range(2):
        first, second = case.run()
        assert set(first.store.kind_names) - set(root.store.kind_names) == {"+1/+1", "-1/-1"}
        assert set(second.store.kind_names) - set(root.store.kind_names) == {"+1/+1"}
        assert len({root.store.kinds_layout, first.store.kinds_layout, second.store.kinds_layout}) == 3
    assert not {"+1/+1", "-1/-1"} & set(root.store.kind_names)


def test_the_timed_batches_have_players_who_start_lost_and_a_single_game_none():
    """A batch's games that end on the first check (cases.ongoing) are part of what the
    ticks are timed on; a single game never starts lost (it would end on the first check)."""
    games, n = 256, 20
    assert cases.ongoing(games, n) < games
    spec = cases.board(games, n)
    assert ((spec.life <= 0).any(axis=1) | (spec.poison >= 10).any(axis=1)).mean() > 0.02
    assert cases.ongoing(1, 100) == 1


def test_a_baseline_batch_tick_plays_the_games_it_counts(monkeypatch):
    """A baseline timed on the first games of a batch plays those games only: the objects it
    is counted for are the ones it checks (more would make its objects/s read low)."""
    from benchmarks.naive_esper import NaiveBatch
    played = []
    real = NaiveBatch.tick
    monkeypatch.setattr(NaiveBatch, "tick", lambda self: (played.append(len(self.games)), real(self))[1])
    case = cases.baseline_tick(6, 20, max_games=4)
    case.prepare()
    try:
        case.run()
    finally:
        case.release()
    assert played == [4] and case.objects == 4 * 20


def test_a_held_clone_costs_bytes_on_both_sides_and_the_engines_shares_its_roots_unwritten_arrays():
    """``held_clones``: each side's kept clones cost bytes (each holds the step's results,
    checked there), the engine's well under its root's state, since a clone copies only the
    arrays the step writes (copy on write); the esper worlds it made are deleted after.
    1,000 objects: at 100 a clone's Python objects weigh as much as the root's arrays, and
    sharing would not show."""
    cases._esper_settled(1_000)   # (the root, kept for the process)
    worlds = len(esper.list_worlds())
    got = cases.held_clones(1_000, 3)
    assert got["engine_bytes"] > 0 and got["esper_bytes"] > 0
    assert got["engine_bytes"] < got["state_bytes"] / 2
    assert len(esper.list_worlds()) == worlds


def test_held_clones_are_checked_to_hold_the_steps_results(monkeypatch):
    """A clone that holds nothing of its self-play step (here: a step that does nothing) is
    not measured as a held node."""
    monkeypatch.setattr(cases, "step", lambda game, ids: None)
    before = esper.current_world
    with pytest.raises(RuntimeError, match="do not hold the step's results"):
        cases.held_clones(100, 2)
    assert esper.current_world == before   # (a host's handlers are its current world's)


def test_an_esper_root_built_leaves_esper_in_the_world_it_found():
    """Building (and ticking) the baseline's cached root leaves esper's current world as
    it was: the engine's ``dispatch_events`` calls the current world's handlers, and a test
    after a benchmark helper would otherwise hear nothing."""
    before = esper.current_world
    cases._esper_settled(30)
    assert esper.current_world == before
