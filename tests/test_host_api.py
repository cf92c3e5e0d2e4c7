"""The embedding API, part B: damage sources, entering with counters, tap and
damage events, events since a step, host systems, batched-loop selection, rule gaps."""
from __future__ import annotations

import esper
import numpy as np
import pytest

from ecs import (
    CounterChanged,
    CountOverflowError,
    DamageDealt,
    GameOverError,
    IllegalActionError,
    StaleEntityError,
    Tapped,
    World,
    ZoneChanged,
)
from ecs.check import Check, System


def _two(batch: int = 1, **kw: object) -> tuple[World, int, int]:
    w = World(batch=batch, **kw)  # type: ignore[arg-type]
    return w, w.add_player(), w.add_player()


def test_wither_source_counters_are_put_by_its_controller_122_6a() -> None:
    """120.3d: the source's controller puts the -1/-1 counters (``by``)."""
    w, p, q = _two()
    src = w.add_object(q, "creature", power=1, toughness=1)
    bear = w.add_object(p, "creature", power=3, toughness=3)
    step = w.step
    w.deal_damage(bear, 2, source=src, wither=True)
    ev = [e for e in w.events_since(step) if isinstance(e, CounterChanged)]
    assert [(e.kind, e.after, e.by) for e in ev] == [("-1/-1", 2, q)]
    dealt = [e for e in w.events_since(step) if isinstance(e, DamageDealt)]
    assert dealt == [DamageDealt(0, bear, src, 2, 2, "damage")]


def test_source_keywords_and_keyword_counters_apply_unless_overridden() -> None:
    """Deathtouch from a keyword counter (122.1b) kills; an explicit False overrides."""
    w, p, q = _two()
    src = w.add_object(q, "creature", power=1, toughness=1)
    w.put_counters(src, "deathtouch")
    a = w.add_object(p, "creature", power=5, toughness=5)
    b = w.add_object(p, "creature", power=5, toughness=5)
    w.deal_damage(a, 1, source=src)
    w.deal_damage(b, 1, source=src, deathtouch=False)
    w.tick()
    assert not w.exists(a) and w.exists(b)


def test_lifelink_gains_what_is_dealt_not_what_is_prevented_120_3f() -> None:
    w, p, q = _two()
    src = w.add_object(q, "creature", power=3, toughness=3, keywords=["lifelink"])
    a = w.add_object(p, "creature", power=5, toughness=5)
    shielded = w.add_object(p, "creature", power=5, toughness=5, counters={"shield": 1})
    w.deal_damage([a, shielded, p], 3, source=src)
    assert w.life(q) == 26 and w.life(p) == 17
    ev = [e for e in w.events() if isinstance(e, DamageDealt) and e.target == shielded]
    assert ev[0].prevented == 3


def test_per_game_sources_differ_per_game() -> None:
    """One source id per selected game: the keyword comes from each game's source."""
    w, p, q = _two(batch=2)
    s1 = w.add_object(q, "creature", power=1, toughness=1, keywords=["lifelink"])
    s2 = w.add_object(q, "creature", power=1, toughness=1)
    w.deal_damage(p, 2, source=[s1, s2])
    assert w.life(q).tolist() == [22, 20]


def test_a_player_is_not_a_damage_source_and_nothing_changes() -> None:
    w, p, q = _two()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    with pytest.raises(IllegalActionError, match="source"):
        w.deal_damage(bear, 1, source=q)
    assert w.damage(bear) == 0 and w.events() == []


def test_move_zone_enters_with_counters_in_the_same_step_122_6() -> None:
    w, p, q = _two(batch=2)
    card = w.add_object(p, "creature", power=2, toughness=2, zone="graveyard")
    step = w.step
    new = w.move_zone(card, "battlefield", counters={"-1/-1": [1, 2]}, by=q)
    assert w.count(new, "-1/-1").tolist() == [1, 2]
    evs = w.events_since(step)
    assert isinstance(evs[0], ZoneChanged)
    t = w.event_table(since=step)
    assert (t["step"] == step + 1).all()
    counter = [e for e in evs if isinstance(e, CounterChanged)]
    assert {(e.cause, e.by) for e in counter} == {("enter", q)}


@pytest.mark.parametrize("batch", [1, 2])
def test_move_zone_counters_overflow_is_refused_before_moving(batch: int) -> None:
    """CR 122.6, 306.5b: loyalty counters given beside the printed loyalty that would pass
    the count limit raise CountOverflowError (as add_objects does), naming the object,
    and nothing moves."""
    w, p, _ = _two(batch)
    walker = w.add_object(p, "planeswalker", loyalty=3, zone="hand")
    with pytest.raises(CountOverflowError, match=f"entity {walker} .*loyalty"):
        w.move_zone(walker, "battlefield", counters={"loyalty": 2**31 - 3})
    assert np.all(w.zone(walker) == "hand") and w.events() == []


def test_tap_untap_and_stun_are_events_122_1d() -> None:
    w, p, _ = _two()
    c = w.add_object(p, "creature", power=1, toughness=1)
    w.tap(c)
    w.tap(c)   # already tapped: no event
    w.put_counters(c, "stun")
    w.untap(c)
    w.untap(c)
    taps = [e for e in w.events() if isinstance(e, Tapped)]
    assert [(e.before, e.after, e.cause) for e in taps] == [
        (False, True, "tap"), (True, True, "stun"), (True, False, "untap")]


def test_events_since_keeps_last_known_information() -> None:
    w, p, _ = _two()
    c = w.add_object(p, "creature", power=1, toughness=1, counters={"+1/+1": 2})
    w.put_counters(c, "charge")
    step = w.step
    w.destroy(c)
    (ev,) = w.events_since(step)
    assert isinstance(ev, ZoneChanged) and ev.lki == {"+1/+1": 2, "charge": 1}
    t = w.event_table(since=step)
    assert t["lki_row"].tolist() == [0, 0] and t["type"].size == 1
    assert w.events_since(w.step) == []


def test_dispatch_events_calls_esper_handlers_in_order() -> None:
    w, p, _ = _two()
    c = w.add_object(p, "creature", power=1, toughness=1)
    seen: list[object] = []

    def on_counter(world: World, event: CounterChanged) -> None:
        seen.append(event.after)

    esper.set_handler("counter_changed", on_counter)
    try:
        start = w.step
        w.put_counters(c, "+1/+1")
        w.put_counters(c, "+1/+1", 2)
        assert w.dispatch_events(start) == w.step
    finally:
        esper.remove_handler("counter_changed", on_counter)
    assert seen == [1, 3]


class _Marker(System):
    causes = ("host",)
    calls: list[str] = []

    def process(self, game: World, check: Check) -> None:  # type: ignore[override]
        self.calls.append(type(self).__name__)


def test_with_systems_inserts_before_a_named_system() -> None:
    w, _, _ = _two()
    old = w.schedule
    new = old.with_systems(_Marker(), before="Lethality")
    names = [type(s).__name__ for s in new.systems]
    assert names.index("_Marker") == names.index("Lethality") - 1
    assert "_Marker" not in [type(s).__name__ for s in old.systems]
    w.schedule = new
    w.tick()
    assert _Marker.calls
    with pytest.raises(IllegalActionError):
        old.with_systems(_Marker(), before="NoSuchSystem")


def test_where_present_skips_stale_ids_and_minus_one_padding() -> None:
    """An id stale in some games no longer raises for the whole call."""
    w, p, _ = _two(batch=3)
    c = w.add_object(p, "creature", power=1, toughness=1)
    w.destroy(c, games=[1])
    with pytest.raises(StaleEntityError):
        w.put_counters(c, "charge")
    w.put_counters(c, "charge", where="present")
    w.put_counters(np.array([[c], [-1], [-1]]), "charge", [5, 6, 7][0], where="present")
    assert w.count(c, "charge")[[0, 2]].tolist() == [6, 1]


def test_skip_finished_drops_ended_games_from_games() -> None:
    w, p, q = _two(batch=2)
    w.lose_life(p, 20, games=[0])
    w.tick()
    with pytest.raises(GameOverError):
        w.gain_life(q, [1, 2], games=[0, 1])
    w.gain_life(q, [1, 2], games=[0, 1], skip_finished=True)
    assert w.life(q).tolist() == [20, 22]


def test_scalar_reads_false_reads_one_game_as_a_batch() -> None:
    w, p, _ = _two(scalar_reads=False)
    assert isinstance(w.life(p), np.ndarray) and w.life(p).tolist() == [20]
    assert World().scalar_reads


def test_proliferate_chooses_only_holders_701_34a() -> None:
    w, p, _ = _two()
    a = w.add_object(p, "creature", power=1, toughness=1, counters={"+1/+1": 1})
    b = w.add_object(p, "creature", power=1, toughness=1)
    with pytest.raises(IllegalActionError, match="701.34a"):
        w.proliferate([a, b])
    assert w.count(a, "+1/+1") == 1
    w.proliferate(a)
    assert w.count(a, "+1/+1") == 2


def test_pt_counters_on_a_player_are_bad_input_122_1a() -> None:
    w, p, _ = _two()
    with pytest.raises(IllegalActionError, match="122.1a"):
        w.put_counters(p, "+1/+1")
    w.put_counters(p, "poison")
    assert w.counters(p) == {"poison": 1}
