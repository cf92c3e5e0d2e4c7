"""benchmarks.cases: the boards the measurements run on are what their names say."""
import numpy as np

from benchmarks import cases
from benchmarks.boards import CREATURE
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
