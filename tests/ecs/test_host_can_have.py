"""A host's "can't have counters" of a class of objects: the ruleset hook ``can_have``
(``ecs.rules.Magic.can_have``), asked wherever the World asks its own ``no_counters`` and
``prohibit`` (CR 101.3, 122.5, 122.6), on one game's scalar paths and the general ones,
and in a batch."""
import numpy as np
import pytest
from scalar_paths import run_on

from ecs import CounterChanged, World
from ecs.components import TYPE_BIT
from ecs.rules import Magic

_CREATURE = TYPE_BIT["creature"]


class Solemnity(Magic):
    """"Counters can't be put on artifacts, creatures, enchantments, or lands": here
    creatures only, so artifacts can hold the counters a test moves."""

    def can_have(self, world, kind, g, c):
        return (world.store.a["types"][g, c] & _CREATURE) == 0


class Melira(Magic):
    """"Creatures you control can't have -1/-1 counters put on them": player 0's."""

    def can_have(self, world, kind, g, c):
        if kind != "-1/-1":
            return None
        a = world.store.a
        return ~(((a["types"][g, c] & _CREATURE) != 0) & (a["controller"][g, c] == 0))


def _board(ruleset: Magic, batch: int = 1):
    w = World(batch=batch)
    w.ruleset = ruleset
    me, you = w.add_player(), w.add_player()
    bear = w.add_object(me, "creature", power=2, toughness=2)
    relic = w.add_object(me, "artifact", counters={"+1/+1": 2, "charge": 1})
    theirs = w.add_object(you, "creature", power=2, toughness=2)
    w.tick()
    w.clear_events()
    return w, me, bear, relic, theirs


def _counter_rows(w):
    return [(e.entity, e.kind, e.before, e.after) for e in w.events() if isinstance(e, CounterChanged)]


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_101_3_a_put_on_what_a_hosts_effect_says_cant_have_counters_puts_none(path):
    """101.3, 122.1: under Solemnity a put on a creature puts none (no event); on an
    artifact it puts them; one call naming both puts on the artifact only."""
    w, _, bear, relic, _ = _board(Solemnity())
    with run_on(path):
        w.put_counters(bear, "+1/+1", 2)
        w.put_counters(relic, "charge", 1)
        w.put_counters([bear, relic], "oil", 1)
    assert w.counters(bear) == {} and w.counters(relic) == {"+1/+1": 2, "charge": 2, "oil": 1}
    assert _counter_rows(w) == [(relic, "charge", 1, 2), (relic, "oil", 0, 1)]
    assert w.is_prohibited(bear, "+1/+1") and not w.is_prohibited(relic, "+1/+1")


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_122_6_an_object_entering_under_the_effect_gets_no_entering_counters(path):
    """122.6: counters an object enters with are put on it, so an effect that says it
    can't have them holds as it enters (where ``prohibit``, set on an object that exists,
    comes too late)."""
    w, me, *_ = _board(Solemnity())
    with run_on(path):
        grown = w.add_object(me, "creature", power=1, toughness=1, counters={"+1/+1": 2})
        walker = w.add_object(me, "planeswalker", loyalty=3)
    assert w.counters(grown) == {} and w.count(walker, "loyalty") == 3


@pytest.mark.parametrize("kind", ["+1/+1", None])
@pytest.mark.parametrize("path", ["scalar", "general"])
def test_122_5_a_move_onto_what_cant_have_the_counters_moves_none_and_removes_none(path, kind):
    """122.5: if the second object can't have counters put onto it, it's not possible to
    move them: none is removed from the first (a hook on the placement alone would have
    removed them and put none: counters lost)."""
    w, _, bear, relic, _ = _board(Solemnity())
    with run_on(path):
        moved = w.move_counters(relic, bear, kind, 2)
    assert moved == 0 and w.counters(relic) == {"+1/+1": 2, "charge": 1} and w.counters(bear) == {}
    assert _counter_rows(w) == []


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_701_34a_proliferate_and_wither_damage_put_nothing_where_the_effect_forbids(path):
    """701.34a, 120.3d: proliferate gives a creature under Melira no more -1/-1 counters
    (its +1/+1 still grow), and wither damage to it puts none, where the opponent's creature
    gets them."""
    w, me, bear, _, theirs = _board(Melira())
    w.put_counters([bear, theirs], "+1/+1", 1)
    w.put_counters(theirs, "-1/-1", 1)
    w.ruleset = Magic()   # (a -1/-1 counter on mine before Melira)
    w.put_counters(bear, "-1/-1", 1)
    w.ruleset = Melira()
    w.clear_events()
    with run_on(path):
        w.proliferate([bear, theirs], by=me)
        w.deal_damage([bear, theirs], 1, wither=True)
    assert w.counters(bear) == {"+1/+1": 2, "-1/-1": 1}
    assert w.counters(theirs) == {"+1/+1": 2, "-1/-1": 3}


def test_101_3_a_batch_asks_the_hook_per_game_as_its_single_games_do():
    """101.3: the hook answers per row, so a batch where the same id is a creature
    controlled by different players (``set_controller`` in one game) puts as each game would
    alone: Melira's player 0 controls it in game 0 only."""
    w, me, bear, relic, theirs = _board(Melira(), batch=2)
    w.set_controller(bear, w.players()[1], games=[1])
    w.put_counters(bear, "-1/-1", 1)
    w.move_counters(relic, bear, "+1/+1", 1)
    assert np.asarray(w.count(bear, "-1/-1")).tolist() == [0, 1]
    assert np.asarray(w.count(bear, "+1/+1")).tolist() == [1, 1]
