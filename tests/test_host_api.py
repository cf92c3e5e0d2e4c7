"""The embedding API, part B: damage sources, entering with counters, tap and
damage events, events since a step, host systems, batched-loop selection, rule gaps."""
from __future__ import annotations

import esper
import numpy as np
import pytest
from ga_helpers import unchanged
from host_rules import column, once

from ecs import (
    CounterChanged,
    CountOverflowError,
    DamageDealt,
    GameOverError,
    IllegalActionError,
    InvalidCountError,
    StaleEntityError,
    Tapped,
    World,
    ZoneChanged,
)
from ecs.check import Check, System, When
from ecs.limits import MAX_COUNT


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


@pytest.mark.parametrize("since", [-1, True, 1.5, "0"])
def test_events_since_and_event_table_refuse_a_step_that_is_no_step(since: object) -> None:
    """A step is a non-negative integer (``World.step``): anything else is refused, naming
    it, rather than read as some step (-1 or True would hand out events silently)."""
    w, p, _ = _two()
    w.put_counters(p, "poison")
    for read, what in ((w.events_since, "step"), (w.event_table, "since")):
        with pytest.raises(InvalidCountError, match=f"^{what} "):
            read(since)  # type: ignore[operator]


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


def test_603_2_dispatch_events_hands_out_the_events_its_handlers_make_at_the_next_call() -> None:
    """603.2: every event that matches a trigger makes it trigger, those a trigger's
    resolution makes too: a handler that acts (a "whenever a charge counter is put"
    trigger putting a +1/+1 counter) makes events the next dispatch_events hands out, so a
    trigger that triggers another is not lost."""
    w, p, _ = _two()
    a = w.add_object(p, "creature", power=1, toughness=1)
    b = w.add_object(p, "creature", power=1, toughness=1)
    seen: list[tuple[int, str]] = []

    def on_counter(world: World, event: CounterChanged) -> None:
        seen.append((event.entity, event.kind))
        if event.kind == "charge":
            world.put_counters(b, "+1/+1")

    esper.set_handler("counter_changed", on_counter)
    try:
        start = w.step
        w.put_counters(a, "charge")
        step = w.dispatch_events(start)
        assert seen == [(a, "charge")] and step < w.step
        assert w.dispatch_events(step) == w.step
        assert w.dispatch_events(w.step) == w.step
    finally:
        esper.remove_handler("counter_changed", on_counter)
    assert seen == [(a, "charge"), (b, "+1/+1")]


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


def test_skip_finished_does_not_look_for_an_id_in_an_ended_game() -> None:
    """An object that left an ended game is not looked for there: the other games act."""
    w, p, q = _two(batch=2)
    c = w.add_object(p, "creature", power=1, toughness=1)
    w.destroy(c, games=[0])
    w.lose_life(p, 20, games=[0])
    w.tick()
    w.put_counters(c, "charge", games=[0, 1], skip_finished=True)
    assert w.count(c, "charge").tolist() == [0, 1]


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


# ---- a host system's decisions are checked before any is performed (704.3) -----------
def _deciding(decide, batch: int = 1) -> tuple[World, dict[str, int]]:
    """A World whose host system decides ``decide(game, check, ids)`` in its first check."""
    w, p, q = _two(batch, seed=0)
    ids = {"p": p, "q": q,
           "torch": w.add_object(p, "artifact", counters={"charge": 3}),
           "bear": w.add_object(p, "creature", power=2, toughness=2, counters={"-1/-1": 2})}
    w.schedule = w.schedule.with_systems(once(lambda game, check: decide(game, check, ids)))
    return w, ids



_ONE = np.array([0])
BAD_DECISIONS = {
    "a negative amount": (lambda g, c, i: c.remove(g.store.kind_index["charge"], _ONE, column(g, i["torch"]),
                                                   np.array([-5]), "remove"), InvalidCountError),
    "a float amount (NaN)": (lambda g, c, i: c.remove(g.store.kind_index["charge"], _ONE, column(g, i["torch"]),
                                                      np.array([np.nan]), "remove"), IllegalActionError),
    "one object twice in a removal": (lambda g, c, i: c.remove(g.store.kind_index["charge"], np.array([0, 0]),
                                                               np.repeat(column(g, i["torch"]), 2), np.array([2, 2]),
                                                               "remove"), IllegalActionError),
    "a kind the World lacks": (lambda g, c, i: c.remove(99, _ONE, column(g, i["torch"]), _ONE + 1, "remove"),
                               IllegalActionError),
    "a player moved": (lambda g, c, i: c.move(_ONE, column(g, i["p"]), 2, "remove"), IllegalActionError),
    "a free column": (lambda g, c, i: c.move(_ONE, np.array([g.store.n_cols]), 2, "remove"), IllegalActionError),
    "an unknown zone": (lambda g, c, i: c.move(_ONE, column(g, i["torch"]), 77, "remove"), IllegalActionError),
    "the player zone": (lambda g, c, i: c.move(_ONE, column(g, i["torch"]), 9, "remove"), IllegalActionError),
    "zone -1": (lambda g, c, i: c.move(_ONE, column(g, i["torch"]), -1, "remove"), IllegalActionError),
    "an unknown cause": (lambda g, c, i: c.move(_ONE, column(g, i["torch"]), 2, "melted"), IllegalActionError),
    "player index -1": (lambda g, c, i: c.lose(_ONE, np.array([-1]), "704.5a"), IllegalActionError),
    "player index 7": (lambda g, c, i: c.lose(_ONE, np.array([7]), "704.5a"), IllegalActionError),
    "game -1": (lambda g, c, i: c.lose(np.array([-1]), _ONE, "704.5a"), IllegalActionError),
    "game 1 of 1": (lambda g, c, i: c.lose(_ONE + 1, _ONE, "704.5a"), IllegalActionError),
    "games and players of two lengths": (lambda g, c, i: c.lose(_ONE, np.array([0, 1]), "704.5a"),
                                         IllegalActionError),
    "float players in a loss": (lambda g, c, i: c.lose(_ONE, np.array([0.5]), "704.5a"), IllegalActionError),
    "games and columns of two lengths": (lambda g, c, i: c.move(np.array([0, 0]), column(g, i["torch"]), 2, "remove"),
                                         IllegalActionError),
    "one object moved twice": (lambda g, c, i: c.move(np.array([0, 0]), np.repeat(column(g, i["torch"]), 2),
                                                      np.array([4, 6]), "remove"), IllegalActionError),
    "a cause per row of another length": (
        lambda g, c, i: c.move(_ONE, column(g, i["torch"]), 4, np.array([2, 2, 2])), IllegalActionError),
    "amounts of another length": (lambda g, c, i: c.remove(g.store.kind_index["charge"], _ONE, column(g, i["torch"]),
                                                          np.array([1, 1]), "remove"), IllegalActionError),
    "a player field the World lacks": (lambda g, c, i: c.add_to_players("poison", _ONE, _ONE, 1),
                                       IllegalActionError),
    # one past each bound, and what only the removals and the moves were not checked for
    "an amount one past MAX_COUNT": (lambda g, c, i: c.remove(g.store.kind_index["charge"], _ONE,
                                                              column(g, i["torch"]), np.array([MAX_COUNT + 1]),
                                                              "remove"), InvalidCountError),
    "a life change one past MAX_COUNT": (lambda g, c, i: c.add_to_players("life", _ONE, _ONE, MAX_COUNT + 1),
                                         InvalidCountError),
    "player index 2 of 2 players": (lambda g, c, i: c.lose(_ONE, np.array([2]), "704.5a"), IllegalActionError),
    "an unknown cause of a removal": (lambda g, c, i: c.remove(g.store.kind_index["charge"], _ONE,
                                                               column(g, i["torch"]), _ONE + 1, "melted"),
                                      IllegalActionError),
    "float zones in a move": (lambda g, c, i: c.move(_ONE, column(g, i["torch"]), np.array([2.0]), "remove"),
                              IllegalActionError),
    # the error names what is wrong: the array, the value, the lengths
    "float kinds of a per-row removal": (lambda g, c, i: c.remove(np.array([float(g.store.kind_index["charge"])]),
                                                                  _ONE, column(g, i["torch"]), _ONE + 1, "remove"),
                                         IllegalActionError, "a removal's arrays must be integers, got float64"),
    "float columns in a move": (lambda g, c, i: c.move(_ONE, column(g, i["torch"]).astype(float), 2, "remove"),
                                IllegalActionError, "a move's arrays must be integers, got float64"),
    "zones per row of another length": (lambda g, c, i: c.move(_ONE, column(g, i["torch"]), np.array([4, 6]),
                                                               "remove"),
                                        IllegalActionError, "a move's zones: 2 values for 1 rows"),
    "a life change one past -MAX_COUNT": (lambda g, c, i: c.add_to_players("life", _ONE, _ONE, -MAX_COUNT - 1),
                                          InvalidCountError, f"life change {-MAX_COUNT - 1} of a player"),
    "the second of two life changes past MAX_COUNT": (
        lambda g, c, i: c.add_to_players("life", np.array([0, 0]), np.array([0, 1]), np.array([1, MAX_COUNT + 1])),
        InvalidCountError, f"life change {MAX_COUNT + 1} of a player is more than {MAX_COUNT} in size"),
    "float life changes": (lambda g, c, i: c.add_to_players("life", _ONE, _ONE, np.array([1.5])),
                           InvalidCountError, "life changes of players must be integers, got float64"),
}


@pytest.mark.parametrize("name", sorted(BAD_DECISIONS))
def test_a_host_systems_bad_decision_raises_and_changes_nothing(name: str) -> None:
    """A decision perform could not apply as the rules read is refused before the check is
    performed, with the bear's death (704.5f) it would have gone with: nothing changes."""
    decide, exc, *needle = BAD_DECISIONS[name]
    w, ids = _deciding(decide)
    err = unchanged(w, w.tick, exc)
    assert all(n in str(err) for n in needle), str(err)
    assert w.exists(ids["bear"]) and w.counters(ids["torch"]) == {"charge": 3}


def test_704_3_a_host_removal_of_a_kind_per_row_may_name_one_object_for_two_kinds() -> None:
    """One object in two rows of a per-row removal, for two kinds: two removals, both
    performed with the check (one object named twice for one kind is refused)."""
    w, ids = _deciding(lambda g, c, i: c.remove(
        np.array([g.store.kind_index["charge"], g.store.kind_index["stun"]]), np.array([0, 0]),
        np.repeat(column(g, i["torch"]), 2), np.array([1, 2]), "remove"))
    w.put_counters(ids["torch"], "stun", 3)
    w.tick()
    assert w.counters(ids["torch"]) == {"charge": 2, "stun": 1} and not w.exists(ids["bear"])


def test_a_host_systems_bad_decision_after_the_rules_decided_a_loss_is_refused() -> None:
    """A host system's decisions are checked, its own only, after the ruleset's systems
    decided in the same check (a loss, 704.5a): nothing changes."""
    w, ids = _deciding(lambda g, c, i: c.add_to_players("poison", _ONE, _ONE, 1))
    w.lose_life(ids["q"], 20)
    unchanged(w, w.tick, IllegalActionError)


def test_a_host_decision_naming_an_empty_slot_is_refused() -> None:
    """The slot of a token that ceased to exist (704.5d) holds no object to move."""
    w, p, _ = _two(seed=0)
    token = w.add_object(p, "creature", power=1, toughness=1, token=True)
    w.add_object(p, "artifact")
    w.move_zone(token, "graveyard")
    w.tick()
    col = int(np.flatnonzero(w.store.a["entity_id"][0, : w.store.n_cols] < 0)[0])
    w.schedule = _deciding(lambda g, c, i: c.move(_ONE, np.array([col]), 2, "remove"))[0].schedule
    unchanged(w, w.tick, IllegalActionError)


def test_a_host_decision_in_an_ended_game_is_refused() -> None:
    """A check acts in no game that has ended (704.3's games, api.md "custom systems")."""
    w, ids = _deciding(lambda g, c, i: c.remove(g.store.kind_index["charge"], np.array([1]), column(g, i["torch"]),
                                                _ONE + 1, "remove"), batch=2)
    w.lose_life(ids["q"], 20, games=[1])
    plan = w.schedule
    w.schedule = World(seed=0).schedule
    w.tick()   # game 1 ends
    w.schedule = plan
    unchanged(w, w.tick, IllegalActionError)


def test_810_8_a_host_systems_life_change_of_a_teammate_is_the_teams() -> None:
    """A Two-Headed Giant player's life is the team's (810.8): a system's change of the
    second-seated player's life changes the team's total."""
    w = World(two_headed_giant=True)
    a1, b1, a2, b2 = (w.add_player(team=t) for t in (0, 1, 0, 1))
    w.schedule = w.schedule.with_systems(once(lambda game, check: check.add_to_players(
        "life", np.array([0]), np.array([2]), np.array([-3]))))
    w.tick()
    assert (w.life(a1), w.life(a2), w.life(b1)) == (27, 27, 30)


def test_only_a_host_systems_own_decisions_are_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ruleset's systems decide within the state: beside a host's system, only the
    host's decisions go through ``ecs.decisions.check``."""
    import ecs.decisions
    seen: list[tuple[int, int, int, int]] = []
    real = ecs.decisions.check
    monkeypatch.setattr(ecs.decisions, "check", lambda game, check, since=(0, 0, 0, 0): (
        seen.append((len(check.removals) - since[0], len(check.moves) - since[1])), real(game, check, since))[1])
    w, p, _ = _two(seed=0)
    w.add_object(p, "creature", power=2, toughness=2, counters={"-1/-1": 2, "+1/+1": 1, "ice": 1})
    w.schedule = w.schedule.with_systems(_Melt(1))
    w.tick()
    assert seen and all(counts == (1, 0) or counts == (0, 0) for counts in seen)


@pytest.mark.parametrize("causes", ["704.5j", "remove"])
def test_causes_given_as_one_string_are_refused_with_the_fix(causes: str) -> None:
    class Slip(System):
        def process(self, game, check):  # type: ignore[no-untyped-def]
            pass
    Slip.causes = causes  # type: ignore[assignment]
    with pytest.raises(IllegalActionError, match="a tuple of names"):
        World().schedule.with_systems(Slip())


class _Melt(System):
    """A host rule removing ``n`` ice counters from every object with some (cause remove)."""
    causes = ("remove",)

    def __init__(self, n: int) -> None:
        self.n = n

    def process(self, game, check):  # type: ignore[no-untyped-def]
        s = game.store
        ice = s.plane("ice")
        if ice is None:
            return
        live = ice.copy()
        live[~check.live_games(game)] = 0
        g, c = np.nonzero(live)
        check.remove(s.kind_index["ice"], g, c, np.full(g.size, self.n), "remove")


@pytest.mark.parametrize("batch", [1, 2])
def test_704_3_two_host_removals_of_one_kind_add_up_whatever_their_order(batch: int) -> None:
    """Two systems removing one kind for one reason in one check remove both amounts,
    simultaneously, as one row; the systems' order changes nothing."""
    logs = []
    for order in ((1, 2), (2, 1)):
        w, p, _ = _two(batch, seed=0)
        t = w.add_object(p, "artifact", counters={"ice": 4})
        w.schedule = w.schedule.with_systems(*(_Melt(n) for n in order))
        w.clear_events()
        w.tick()
        assert np.all(w.count(t, "ice") == 0)
        logs.append([(e.game, e.before, e.after) for e in w.events() if isinstance(e, CounterChanged)])
    assert logs[0] == logs[1] == [(g, 4, 1) for g in range(batch)] + [(g, 1, 0) for g in range(batch)]


@pytest.mark.parametrize("batch", [1, 2])
def test_the_live_games_a_system_reads_are_read_only(batch: int) -> None:
    """Every system of a check reads the same games: one cannot narrow them for the next."""
    class Narrow(System):
        causes = ("remove",)

        def process(self, game, check):  # type: ignore[no-untyped-def]
            live = check.live_games(game)
            live &= np.zeros(game.batch, bool)

    w, p, _ = _two(batch, seed=0)
    w.add_object(p, "creature", power=2, toughness=2, counters={"-1/-1": 2})
    w.schedule = w.schedule.with_systems(Narrow(), before="Lethality")
    with pytest.raises(ValueError, match="read-only"):
        w.tick()


@pytest.mark.parametrize("when", ["every check", None, 1])
def test_a_system_whose_when_is_no_moment_is_refused(when: object) -> None:
    """A ``when`` that is not an ecs.check.When would run the system at no moment."""
    class Lost(System):
        def process(self, game, check):  # type: ignore[no-untyped-def]
            pass
    Lost.when = when  # type: ignore[assignment]
    with pytest.raises(IllegalActionError, match="When"):
        World().schedule.with_systems(Lost())


def test_a_system_declaring_an_unknown_cause_is_refused() -> None:
    class Melted(System):
        causes = ("melted",)

        def process(self, game, check):  # type: ignore[no-untyped-def]
            pass
    with pytest.raises(IllegalActionError, match="melted"):
        World().schedule.with_systems(Melted())


# ---- host effects and schedules: one test per mutant the suite let live ----
def test_a_world_makes_at_least_one_check_a_tick() -> None:
    """``max_passes`` bounds the checks of a tick (704.3 repeats them until none acts): 0
    would be a tick that checks nothing, and is refused naming the value."""
    with pytest.raises(InvalidCountError, match="max_passes 0 is outside 1.."):
        World(max_passes=0)
    assert World(max_passes=1).max_passes == 1


def test_a_worlds_schedule_is_replaced_by_a_schedule_only() -> None:
    """``world.schedule = ...`` takes an ``ecs.Schedule``; a list of its systems is refused,
    naming it, and the World keeps the schedule it had."""
    w = World()
    plan = w.schedule
    with pytest.raises(IllegalActionError, match=r"schedule must be an ecs.Schedule, got \("):
        w.schedule = tuple(plan.systems)  # type: ignore[assignment]
    assert w.schedule is plan


def test_with_systems_takes_before_or_after_not_both():
    """``before=`` and ``after=`` together are refused."""
    w = World(seed=0)
    with pytest.raises(IllegalActionError):
        w.schedule.with_systems(_Noop(), before="Lethality", after="Lethality")


class _Noop(System):
    def process(self, game, check):
        pass


def test_with_systems_next_to_a_class_listed_twice_goes_beside_both():
    """``after=`` a class listed twice inserts after its last instance, ``before=`` before
    its first: never between them."""
    first, second, new = _Noop(), _Noop(), _Noop()
    w = World(seed=0)
    s = w.schedule.with_systems(first, second)
    assert s.with_systems(new, after=_Noop).systems[-3:] == (first, second, new)
    assert s.with_systems(new, before=_Noop).systems[-3:] == (new, first, second)


def test_phase_systems_run_in_the_schedules_order():
    """Main-phase systems run in the schedule's order."""
    calls = []

    class A(System):
        when = When.MAIN_PHASE
        def process(self, game, check):
            calls.append("A")

    class B(A):
        def process(self, game, check):
            calls.append("B")

    w = World(seed=0)
    p = w.add_player()
    w.schedule = w.schedule.with_systems(A(), B())
    w.begin_main_phase(p)
    assert calls == ["A", "B"]


def test_a_main_phase_is_its_own_event_step():
    """A main phase's decisions are a new event step (728.1: one event)."""
    w = World(seed=0)
    p = w.add_player()
    w.add_object(p, "sorcery", zone="library")
    w.put_counters(p, "rad", 1)
    step = w.step
    w.begin_main_phase(p)
    rows = w.event_table(since=step)
    assert rows["step"].size and (rows["step"] > step).all()


def test_704_3_a_host_system_acts_only_in_the_games_a_check_looks_at() -> None:
    """A main phase begun in some games of a batch checks state-based actions there only
    (117.5): a host's state-based action reading ``live_games`` acts in those games and
    leaves the others as they are until their own check."""

    class Melt(System):
        causes = ("host",)

        def process(self, game, check):  # type: ignore[no-untyped-def]
            k = game.store.kind_index["charge"]
            g, c = np.nonzero((game.store.counts[k] > 0) & check.live_games(game)[:, None])
            check.move(g, c, 4, "host")   # (the graveyard)

    w, p, _ = _two(2, seed=0)
    torch = w.add_object(p, "artifact", counters={"charge": 1})
    w.schedule = w.schedule.with_systems(Melt())
    w.begin_main_phase(p, games=[0])
    assert w.exists(torch).tolist() == [False, True]
    w.tick()
    assert w.exists(torch).tolist() == [False, False]
