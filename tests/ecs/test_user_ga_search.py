"""What a Grand Archive self-play search relies on: every accepted action takes an event
step of its own (docs/api.md, Events), so a search reads a call's rows by ``w.step``;
and a copy of a snapshot holds only the state the actions can make."""

import copy

import numpy as np
import pytest

from ecs import IllegalActionError, SnapshotError, World


def ga(batch: int = 1) -> tuple[World, int, int, int]:
    """Two players with champions, the first with 3 reserve; (world, player, player, champion)."""
    w = World(ruleset="grand_archive", batch=batch, seed=1)
    a, b = w.add_player(), w.add_player()
    champ = w.add_object(a, "champion", life=20, level=1)
    w.add_object(b, "champion", life=20, level=1)
    w.set_reserve(a, 3)
    return w, a, b, champ


@pytest.mark.parametrize("batch", [1, 2])
def test_costs_and_memory_paying_0_reserve_takes_a_step_and_logs_no_payment(batch):
    """Costs and Memory 1: paying 0 reserve is no payment (no ReserveChanged), but the call
    is accepted, so it takes a step of its own: the rows at ``w.step`` are not the
    previous payment's."""
    w, a, _, _ = ga(batch)
    w.pay_reserve(a, 1)
    step, rows = w.step, len(w.events())
    w.pay_reserve(a, 0)
    assert (w.step, len(w.events())) == (step + 1, rows)
    assert not (w.event_table()["step"] == w.step).any()
    assert np.array_equal(w.reserve(a), 2 if batch == 1 else [2, 2])


def test_costs_and_memory_paying_reserve_in_no_game_takes_a_step():
    w, a, _, _ = ga(batch=2)
    step, rows = w.step, len(w.events())
    w.pay_reserve(a, 1, games=[])
    assert (w.step, len(w.events())) == (step + 1, rows)
    assert w.reserve(a).tolist() == [3, 3]


@pytest.mark.parametrize("batch", [1, 2])
def test_recover_2_in_no_game_takes_a_step_as_enlighten_in_no_game_does(batch):
    """Recover 2 named in no game recovers nothing, an accepted call all the same: a step
    of its own, as activate_enlighten and put_counters in no game take."""
    w, _, _, champ = ga(batch)
    w.deal_damage(champ, 2)
    for act in (lambda: w.recover(champ, 1, games=[]), lambda: w.activate_enlighten(champ, games=[])):
        step, rows = w.step, len(w.events())
        act()
        assert (w.step, len(w.events())) == (step + 1, rows)
    assert np.array_equal(w.count(champ, "damage"), 2 if batch == 1 else [2, 2])


def test_immortality_1_a_snapshot_copy_with_an_immortal_player_is_refused():
    """Immortality 1 is an object's: set_immortal refuses a player, and so does restoring
    a copy of a snapshot (or loading a file) that holds a player's immortal flag."""
    w, a, _, champ = ga()
    with pytest.raises(IllegalActionError, match="is a player"):
        w.set_immortal(a)
    w.set_immortal(champ)
    snap = copy.deepcopy(w.snapshot())
    store = dict(snap["store"])
    immortal = np.array(store["immortal"])
    immortal[0, int(np.flatnonzero(store["entity_id"][0] == a)[0])] = True
    store["immortal"] = immortal
    bad = dict(snap)
    bad["store"] = store
    other = w.clone()
    with pytest.raises(SnapshotError, match="a player has store.immortal"):
        other.restore(bad)
    assert other.reserve(a) == 3
    w.restore(copy.deepcopy(w.snapshot()))   # the champion's own flag is the actions' state



@pytest.mark.parametrize("batch", [1, 3])
def test_immortality_1_is_read_per_game_and_ends_with_the_object(batch):
    """Immortality 1: a search reads what set_immortal declared, per game; a new object
    after a zone change (Counters: General 5) is not immortal, nor is a player; Magic has
    no Immortality to read."""
    w = World(ruleset="grand_archive", batch=batch, seed=1, scalar_reads=False)
    me = w.add_player()
    ally, other = w.add_objects(2, me, "ally", power=1, life=2)
    w.set_immortal(ally, games=0)
    assert w.is_immortal(ally).tolist() == [True] + [False] * (batch - 1)
    assert w.is_immortal(other).tolist() == [False] * batch
    assert w.is_immortal(me).tolist() == [False] * batch
    new = int(np.asarray(w.move_zone(ally, "hand", games=0)).ravel()[0])
    assert w.is_immortal(new).tolist() == [False] * batch
    one = World(ruleset="grand_archive", seed=1)
    champ = one.add_object(one.add_player(), "champion", life=20, level=0)
    one.set_immortal(champ)
    assert one.is_immortal(champ) is True
    with pytest.raises(IllegalActionError, match="is_immortal is a Grand Archive action"):
        World(seed=1).is_immortal(0)
