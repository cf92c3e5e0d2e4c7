"""The example host (examples/host.py) plays its cards ("ship an example host")."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from ecs import World

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
import host as ex  # noqa: E402


def _creature(w: World, p: int, name: str, t: int = 2) -> int:
    return w.add_object(p, "creature", power=2, toughness=t, name=name)


def test_persist_returns_once_with_a_minus_counter() -> None:
    """702.79a: returns with a -1/-1 counter, in the move's step (cause enter); then not."""
    w = World()
    p = w.add_player()
    h = ex.Host(w)
    finks = _creature(w, p, "Kitchen Finks", t=3)
    w.destroy(finks)
    h.settle()
    back = w.objects(zone="battlefield")
    assert len(back) == 1 and w.counters(back[0]) == {"-1/-1": 1}
    enter = [e for e in w.events() if getattr(e, "cause", None) == "enter"]
    assert enter and enter[0].kind == "-1/-1" and enter[0].by == p
    w.destroy(back[0])
    h.settle()
    assert w.objects(zone="battlefield") == []


def test_undying_returns_with_a_plus_counter_then_stays_dead() -> None:
    w = World()
    p = w.add_player()
    h = ex.Host(w)
    wolf = _creature(w, p, "Young Wolf", t=1)
    w.deal_damage(wolf, 1)
    h.settle()
    (back,) = w.objects(zone="battlefield")
    assert w.counters(back) == {"+1/+1": 1} and w.toughness(back) == 2
    w.destroy(back)
    h.settle()
    assert w.objects(zone="battlefield") == []


def test_modular_moves_last_known_counters_to_an_artifact_creature() -> None:
    """702.43a with LKI (122.8): the dead worker's counters go to the target, put by its
    controller."""
    w = World()
    p, q = w.add_player(), w.add_player()
    h = ex.Host(w)
    worker = ex.modular_creature(w, p, 2)
    w.put_counters(worker, "+1/+1", 1)
    other = ex.modular_creature(w, p, 1)
    w.sacrifice(worker)
    h.settle(modular_target=other)
    assert w.counters(other) == {"+1/+1": 4}
    last = [e for e in w.events() if getattr(e, "entity", None) == other][-1]
    assert last.by == p and q != p


@pytest.mark.parametrize("batch", [1, 2])
def test_603_10a_modular_of_a_creature_given_away_is_put_by_who_controlled_it(batch: int) -> None:
    """603.3a, 603.10a: the trigger is controlled by the player who controlled the worker
    as it died (``ZoneChanged.controller``), not its owner, whose the new object is (110.2)."""
    w = World(batch=batch)
    alice, bob = w.add_player(), w.add_player()
    h = ex.Host(w)
    worker = ex.modular_creature(w, alice, 1)
    golem = w.add_object(bob, ("artifact", "creature"), power=3, toughness=3, name="Golem")
    w.set_controller(worker, bob)
    step = w.step
    w.destroy(worker)
    (died,) = [e for e in w.events_since(step) if type(e).__name__ == "ZoneChanged"][:1]
    assert died.controller == bob and np.all(w.controller(died.new) == alice)
    h.settle(modular_target=golem)
    puts = [e for e in w.events_since(step) if getattr(e, "entity", None) == golem]
    assert [e.by for e in puts] == [bob] * batch


@pytest.mark.parametrize("batch", [1, 2])
def test_111_8_a_persist_token_that_dies_stays_gone_and_a_modular_one_moves_its_counters(
        batch: int) -> None:
    """704.5d, 111.8: a token that died ceases to exist in the check that follows, before
    the host resolves its triggers; its name is the event's (``ZoneChanged.name``), so
    modular (702.43a) still moves its last-known counters, and persist does not return it."""
    w = World(batch=batch)
    p = w.add_player()
    h = ex.Host(w)
    finks = w.add_object(p, "creature", power=3, toughness=3, name="Kitchen Finks", token=True)
    worker = w.add_object(p, ("artifact", "creature"), power=0, toughness=0,
                          name="Arcbound Worker", token=True, counters={"+1/+1": 2})
    golem = w.add_object(p, ("artifact", "creature"), power=3, toughness=3, name="Golem")
    w.destroy([finks, worker])
    h.settle(modular_target=golem)
    assert np.array_equal(np.atleast_1d(w.count(golem, "+1/+1")), [2] * batch)
    for g in range(batch):
        assert w.objects(zone="battlefield", game=g) == [golem]
        assert w.objects(zone="graveyard", game=g) == []


def test_siege_is_defeated_by_damage_and_exiled() -> None:
    """120.3h removes defense counters; 704.5v defeats the battle; the host exiles it."""
    w = World()
    p = w.add_player()
    h = ex.Host(w)
    battle = ex.siege(w, p, defense=3)
    w.deal_damage(battle, 2)
    h.settle()
    assert w.count(battle, "defense") == 1 and not h.defeated
    w.deal_damage(battle, 1)
    h.settle()
    assert h.defeated == [(0, battle)]
    assert len(w.objects(zone="exile")) == 1


def test_legend_rule_host_system_keeps_the_newest() -> None:
    """704.5j as a host System in the simultaneous check: the older copy goes."""
    w = World()
    p, q = w.add_player(), w.add_player()
    h = ex.Host(w, legendary={"Thalia"})
    first = _creature(w, p, "Thalia")
    theirs = _creature(w, q, "Thalia")
    second = _creature(w, p, "Thalia")
    h.settle()
    assert set(w.objects(zone="battlefield")) == {theirs, second}
    assert not w.exists(first)
    moved = [e for e in w.events() if getattr(e, "cause", None) == "704.5j"]
    assert len(moved) == 1


@pytest.mark.parametrize("batch", [1, 3])
def test_legend_rule_groups_by_controller_and_name_alone(batch: int) -> None:
    """704.5j counts one player's legendary permanents of one name: two players' legends
    of different names never group, whatever their indices in the name table (a key of
    controller * 4096 + name index made player 0's 4,097th name player 1's first), and
    in a batch each game is its own."""
    w = World(batch=batch)
    p, q = w.add_player(), w.add_player()
    h = ex.Host(w, legendary={"Alpha", "Omega"})
    alpha = _creature(w, q, "Alpha")                       # name index 0
    for i in range(4095):
        w.add_object(p, "artifact", zone="exile", name=f"filler {i}")
    omega = _creature(w, p, "Omega")                       # name index 4096
    assert w.names.index("Omega") == 4096
    h.settle()
    assert np.all(w.exists(alpha)) and np.all(w.exists(omega))
    twin = _creature(w, p, "Omega")
    h.settle()
    assert not np.any(w.exists(omega)) and np.all(w.exists(twin)) and np.all(w.exists(alpha))


def test_anthem_and_pump() -> None:
    w = World()
    p = w.add_player()
    a, b = _creature(w, p, "Bear"), _creature(w, p, "Bear")
    w.put_counters(a, "+1/+1")
    ex.anthem_and_pump(w, [a, b], pumped=b)
    assert (w.power(a), w.toughness(a)) == (4, 4)
    assert (w.power(b), w.toughness(b)) == (6, 6)


def test_creature_that_cant_have_minus_counters() -> None:
    w = World()
    p = w.add_player()
    c = _creature(w, p, "Melira's Keepers")
    ex.cant_have_minus_counters(w, c)
    w.put_counters(c, "-1/-1", 2)
    w.put_counters(c, "+1/+1", 1)
    assert w.counters(c) == {"+1/+1": 1}


def test_player_who_cant_get_poison() -> None:
    w = World()
    p, q = w.add_player(), w.add_player()
    ex.cant_get_poison(w, p)
    src = _creature(w, q, "Blight Mamba")
    w.deal_damage(p, 3, source=src, infect=True)
    assert w.count(p, "poison") == 0


def test_the_example_runs_as_a_script_and_shows_each_card(capsys: pytest.CaptureFixture[str]) -> None:
    """``python examples/host.py`` plays each card once and prints the events it polled."""
    ex.main()
    out = capsys.readouterr().out
    for seen in ("cause='enter'", "cause='704.5v'", "cause='704.5j'", "DamageDealt",
                 "Alice's battlefield: {'Kitchen Finks': {'-1/-1': 1}, 'Golem': {'+1/+1': 1}, 'Thalia': {}}"):
        assert seen in out
