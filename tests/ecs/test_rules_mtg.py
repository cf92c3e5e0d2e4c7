"""The Magic ruleset's placement hooks (``ecs.rules.mtg.Magic.place_one``/``place_few``):
what the single-game paths log, as the general path logs it (CR 122, 701.34, 810.10)."""
import pytest
from scalar_paths import general

from ecs import CounterChanged, World


def _rows(w):
    return [(e.entity, e.kind, e.before, e.after, e.cause, e.by) for e in w.events()
            if isinstance(e, CounterChanged)]


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_810_10_a_players_poison_is_logged_on_that_player_not_the_team(path):
    """810.10: effects that give poison counters happen to each player individually, and
    the team holds them: one put on the second-seated player is one CounterChanged row on
    that player (the team's count before and after), as the general path logs it."""
    w = World(two_headed_giant=True)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    w.add_player(team=1), w.add_player(team=1)
    w.put_counters(a1, "poison", 1)
    w.clear_events()
    if path == "general":
        with general():
            w.put_counters(a2, "poison", 2)
    else:
        w.put_counters(a2, "poison", 2)
    assert _rows(w) == [(a2, "poison", 1, 3, "put", None)]
    assert w.count(a1, "poison") == w.count(a2, "poison") == 3


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_701_34a_proliferate_names_the_player_who_proliferates_on_every_counter(path):
    """701.34a, 122.6a: the player who proliferates puts the counters: every CounterChanged
    row of a proliferate of a few objects and players names them (``by``)."""
    w = World()
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2, counters={"+1/+1": 1})
    w.put_counters(q, "poison", 2)
    w.clear_events()
    if path == "general":
        with general():
            w.proliferate([bear, q], by=p)
    else:
        w.proliferate([bear, q], by=p)
    assert _rows(w) == [(bear, "+1/+1", 1, 2, "proliferate", p), (q, "poison", 2, 3, "proliferate", p)]
