"""The event log: objects and columnar arrays agree; steps group simultaneous rows."""
import numpy as np
import pytest
from scalar_paths import run_on

from ecs import CounterChanged, GameEnded, PlayerLost, World, ZoneChanged
from ecs.components import TYPE_BIT
from ecs.events import (
    ACTION,
    CAUSES,
    COUNTER,
    DAMAGE,
    GAME_END,
    LOST,
    RESERVE,
    TAP,
    ZONE,
    ZONE_TOKEN,
    Acted,
    DamageDealt,
    EventLog,
    ReserveChanged,
    Tapped,
    crossed,
    event_name,
    zone_kind,
    zone_types,
)


def test_columnar_table_matches_event_objects():
    w = World(batch=2)
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2, counters={"+1/+1": 1})
    w.put_counters(bear, "-1/-1", np.array([1, 4]))
    w.deal_damage(q, 20, games=[1])
    w.tick()
    events, t = w.events(), w.event_table()
    assert len(events) == t["type"].size
    for i, e in enumerate(events):
        assert e.game == t["game"][i]
        if isinstance(e, CounterChanged):
            assert t["type"][i] == COUNTER and (e.before, e.after) == (t["before"][i], t["after"][i])
            assert e.cause == CAUSES[t["cause"][i]]
        if isinstance(e, ZoneChanged):
            assert t["type"][i] == ZONE and e.old == t["entity"][i] and e.new == t["other"][i]
    kinds = [type(e).__name__ for e in events]
    assert kinds.count("ZoneChanged") == 1 and PlayerLost(1, q, "704.5a") in events
    assert GameEnded(1, p, "104.2a") in events
    # game 0 annihilated; game 1 died (704.5f) so its counters were not "removed" (122.2)
    removed = [(e.game, e.cause) for e in events if isinstance(e, CounterChanged) and e.delta < 0]
    assert removed == [(0, "704.5q"), (0, "704.5q")]


def test_one_check_is_one_step():
    w = World()
    p = w.add_player()
    a = w.add_object(p, {"creature"}, power=1, toughness=1, counters={"+1/+1": 1, "-1/-1": 1})
    b = w.add_object(p, {"artifact"}, counters={"charge": 3}, caps={"charge": 1})
    w.clear_events()
    w.tick()
    t = w.event_table()
    assert t["type"].size == 3 and np.unique(t["step"]).size == 1
    assert w.counters(a) == {} and w.counters(b) == {"charge": 1}   # 704.5q and 704.5r together


def test_lki_rows_in_the_table():
    w = World()
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2, counters={"charge": 2, "+1/+1": 1})
    w.clear_events()
    w.sacrifice(bear)
    t = w.event_table()
    kinds = {w.store.kind_names[k]: n for k, n in zip(t["lki_kind"], t["lki_count"])}
    assert kinds == {"charge": 2, "+1/+1": 1} and set(t["lki_row"]) == {0}


def test_clear_events():
    """clear_events drops the rows and leaves the step (api.md: it never falls)."""
    w = World()
    p = w.add_player()
    w.put_counters(p, "energy", 2)
    step = w.step
    w.clear_events()
    assert w.events() == [] and w.event_table()["type"].size == 0
    assert w.step == step > 0


def test_events_since_a_step_gives_the_rows_of_the_later_steps_however_the_log_is_held(tmp_path):
    """events_since(k) is the rows of the steps after k: on the log as written, as a clone
    holds it and as a saved file loads it (chunks of several steps each)."""
    w = World(batch=2, seed=0)
    p, q = w.add_player(), w.add_player()
    bears = [w.add_object(p, "creature", power=2, toughness=2) for _ in range(3)]
    for i, bear in enumerate(bears):
        w.put_counters(bear, "+1/+1", i + 1)
        w.deal_damage(bear, 2, games=[i % 2])
        w.tick()
    w.lose_life(q, 3)
    w.save(tmp_path / "w.npz")
    steps = w.event_table()["step"].tolist()
    for held in (w, w.clone(), World.load(tmp_path / "w.npz")):
        events = held.events()
        assert events == w.events()
        assert held.events_since(None) == events
        for k in range(w.step + 1):
            want = [e for e, s in zip(events, steps) if s > k]
            assert held.events_since(k) == want, k


def _quiet_batch() -> tuple[World, int, int, int]:
    w = World(batch=2, seed=0)
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    w.tick()
    return w, p, q, bear


NOOP_ACTIONS = {
    "a put of 0": lambda w, p, q, e: w.put_counters(e, "+1/+1", 0),
    "a removal of counters it lacks": lambda w, p, q, e: w.remove_counters(e, "-1/-1", 2),
    "0 damage (120.8)": lambda w, p, q, e: w.deal_damage(e, 0),
    "a put in no game": lambda w, p, q, e: w.put_counters(e, "+1/+1", 1, games=[]),
    "a destroy in no game": lambda w, p, q, e: w.destroy(e, games=[]),
    "a move in no game": lambda w, p, q, e: w.move_zone(e, "graveyard", games=[]),
    "objects made in no game": lambda w, p, q, e: w.add_object(p, "creature", power=1, toughness=1,
                                                               games=[]),
    "a proliferate of nothing": lambda w, p, q, e: w.proliferate(p, []),
}


def test_an_accepted_action_that_changes_nothing_takes_a_step_of_its_own():
    """api.md: each accepted call of an action that logs events takes a step, rows or none,
    so the rows with ``step == w.step`` after a call are that call's and no earlier one's."""
    for name, act in NOOP_ACTIONS.items():
        w, p, q, bear = _quiet_batch()
        before, rows = w.step, len(w.events())
        act(w, p, q, bear)
        assert (w.step, len(w.events())) == (before + 1, rows), name


def test_a_put_where_present_of_an_id_gone_takes_a_step_and_writes_nothing():
    w, p, q, bear = _quiet_batch()
    w.destroy(bear, games=[0])
    before, rows = w.step, len(w.events())
    w.put_counters(bear, "+1/+1", 1, where="present", games=[0])
    assert (w.step, len(w.events())) == (before + 1, rows)


def test_a_refused_call_life_cleanup_and_a_quiet_tick_take_no_step():
    """A refused call changes nothing, its step neither; life changes and cleanup (514.2)
    log no events, and a tick with nothing to do (704.3) none either."""
    w, p, q, bear = _quiet_batch()
    before = w.step
    with pytest.raises(ValueError):
        w.put_counters(bear, "+1/+1", -1)
    w.lose_life(q, 1)
    w.gain_life(q, 1)
    w.cleanup()
    w.tick()
    assert w.step == before and w.life(q).tolist() == [20, 20]



def test_types_of_checks_6_grand_archive_cleanup_takes_a_step_where_it_removes_counters():
    """api.md: the Grand Archive's cleanup that removes allies' damage counters (Types of
    Checks 6) takes one step, a ``cleanup`` row for each; one with none to remove (marked
    damage only, which is no counter) takes none."""
    w = World(ruleset="grand_archive")
    a, b = w.add_player(), w.add_player()
    allies = [w.add_object(p, "ally", power=1, life=3) for p in (a, b)]
    w.deal_damage(allies[0], 1)
    before = w.step
    w.cleanup()
    assert w.step == before and w.damage(allies[0]) == 0
    for e in allies:
        w.put_counters(e, "damage", 2)
    step = w.step
    w.cleanup()
    assert w.step == step + 1
    assert [(e.entity, e.before, e.after, e.cause) for e in w.events_since(step)] == [
        (e, 2, 0, "cleanup") for e in allies]


def test_event_name_is_the_snake_case_of_the_class():
    """dispatch_events dispatches under these names (api.md), no leading underscore."""
    assert event_name(CounterChanged(0, 1, "charge", 0, 1, "put")) == "counter_changed"
    assert event_name(ZoneChanged(0, 1, 2, "hand", "graveyard", "zone")) == "zone_changed"
    assert event_name(Tapped(0, 1, False, True, "tap")) == "tapped"
    assert event_name(DamageDealt(0, 1, None, 3, 1, "damage")) == "damage_dealt"


def test_120_3_unsourced_damage_names_no_source_and_what_a_shield_prevented():
    """A damage event with no source names None; ``prevented`` is what would have been
    dealt less what was (122.1c: a shield counter prevents it all)."""
    w = World()
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=5, counters={"shield": 1})
    w.clear_events()
    w.deal_damage(bear, 3)
    (ev,) = [e for e in w.events() if isinstance(e, DamageDealt)]
    assert (ev.target, ev.source, ev.amount, ev.dealt) == (bear, None, 3, 0)
    assert ev.prevented == 3


def test_tap_and_untap_events_carry_the_state_before_and_after():
    w = World()
    p = w.add_player()
    rock = w.add_object(p, {"artifact"})
    w.clear_events()
    w.tap(rock)
    w.untap(rock)
    assert w.events() == [Tapped(0, rock, False, True, "tap"), Tapped(0, rock, True, False, "untap")]


def test_104_4a_a_game_all_its_players_lose_at_once_is_a_draw_with_no_winner():
    w = World()
    p, q = w.add_player(), w.add_player()
    w.lose_life(p, 20)
    w.lose_life(q, 20)
    w.clear_events()
    w.tick()
    ends = [e for e in w.events() if isinstance(e, GameEnded)]
    assert ends == [GameEnded(0, None, "104.4a")]


def test_each_row_type_reads_as_its_event_with_each_column_in_its_field():
    """One row of each type with a distinct value in every column: the event object takes
    each from its column (``before``/``after`` in order; -1 and 0 as None where a field is
    optional: no player, no source, no winner, no kind, no controller or name in older
    files)."""
    kinds, players = ["+1/+1", "charge", "damage"], np.array([50, 60, 70])
    log = EventLog()
    log.record(RESERVE, "ga.reserve", game=0, entity=60, before=5, after=2)
    log.record(ACTION, "ga.recover", game=0, entity=9, kind=0, before=4, after=1, other=2)
    log.record(ACTION, "ga.level_up", game=0, entity=9, kind=-1, before=1, after=2, other=1)
    log.record(TAP, "untap", game=0, entity=9, before=1, after=0)
    log.record(DAMAGE, "damage", game=0, entity=9, before=5, after=2, other=-1)
    log.record(DAMAGE, "damage", game=0, entity=9, before=5, after=5, other=0)
    log.record(COUNTER, "put", game=0, entity=9, kind=1, before=1, after=3, other=0)
    log.record(COUNTER, "put", game=0, entity=9, kind=1, before=3, after=4)
    log.record(ZONE, "zone", game=0, entity=9, before=0, other=-1, from_zone=3, to_zone=0)
    log.record(ZONE, "zone", game=0, entity=9, before=3, after=2, other=11, from_zone=2, to_zone=4)
    log.record(LOST, "704.5a", game=0, entity=60)
    log.record(GAME_END, "104.4a", game=0, entity=-1)
    log.record(GAME_END, "104.2a", game=0, entity=0)
    assert log.objects(kinds, players, ["Bear", "Finks"]) == [
        ReserveChanged(0, 60, 5, 2, "ga.reserve"),
        Acted(0, 9, 70, "+1/+1", 4, 1, "ga.recover"),
        Acted(0, 9, 60, None, 1, 2, "ga.level_up"),
        Tapped(0, 9, True, False, "untap"),
        DamageDealt(0, 9, None, 5, 2, "damage"),
        DamageDealt(0, 9, 0, 5, 5, "damage"),
        CounterChanged(0, 9, "charge", 1, 3, "put", 50),
        CounterChanged(0, 9, "charge", 3, 4, "put", None),
        ZoneChanged(0, 9, None, "battlefield", "none", "zone", {}, None),
        ZoneChanged(0, 9, 11, "hand", "graveyard", "zone", {}, 70, "Finks"),
        PlayerLost(0, 60, "704.5a"),
        GameEnded(0, None, "104.4a"),
        GameEnded(0, 0, "104.2a"),
    ]


#: The cause codes as the first saved files hold them: a code names the same cause in every
#: version (new causes are appended), or an older file's events would read as other causes.
SAVED_CAUSES = (
    "put", "remove", "move", "proliferate", "enter", "damage", "shield", "stun",
    "destroy", "sacrifice", "zone", "cleanup",
    "704.5a", "704.5c", "704.5d", "704.5f", "704.5g", "704.5h", "704.5i", "704.5q",
    "704.5r", "704.5v", "704.6a", "704.6b", "104.4a", "104.2a",
    "ga.placement", "ga.damage", "ga.durability", "ga.champion", "ga.recover", "ga.enlighten",
    "ga.wither", "rad", "draw", "mill",
    "ga.reserve", "ga.level_up", "ga.left_game",
    "tap", "untap", "combat damage", "704.5j", "host",
)


def test_cause_codes_keep_their_meaning_across_versions():
    assert CAUSES[:len(SAVED_CAUSES)] == SAVED_CAUSES
    assert len(set(CAUSES)) == len(CAUSES)


def test_704_8_the_lki_of_the_rows_since_a_step_is_their_own():
    """events_since(k) and event_table(k) after earlier rows: each zone change carries its
    own object's last-known counters, and the table's lki_row indexes the rows it returns."""
    w = World(batch=2)
    p = w.add_player()
    a = w.add_object(p, {"artifact"}, counters={"charge": 1})
    b = w.add_object(p, {"artifact"}, counters={"charge": 2})
    c = w.add_object(p, {"artifact"}, counters={"charge": 3})
    for single in (False, True):
        w.clear_events()
        w.destroy(a, games=[0] if single else None)
        k = w.step
        w.destroy(b, games=[0] if single else None)
        w.destroy(c, games=[0] if single else None)
        moved = [e for e in w.events_since(k) if isinstance(e, ZoneChanged)]
        assert [(e.old, e.lki) for e in moved] == [(b, {"charge": 2})] * (1 if single else 2) + [
            (c, {"charge": 3})] * (1 if single else 2)
        t = w.event_table(k)
        got = sorted((int(t["entity"][r]), int(n)) for r, n in zip(t["lki_row"], t["lki_count"]))
        assert got == sorted([(b, 2), (c, 3)] * (1 if single else 2))
        a, b, c = (w.add_object(p, {"artifact"}, counters={"charge": n}) for n in (1, 2, 3))


def test_a_snapshot_of_the_log_is_read_only_and_a_long_logs_holds_few_chunks():
    """EventLog.snapshot is a value: its chunks' arrays can't be written; and it holds some
    log2 of a long log's rows' chunks, as a clone does."""
    from math import log2

    log = EventLog()
    for i in range(200):
        log.next_step()
        log.one(COUNTER, 0, 0, i, 0, 0, 1)
        log.record(COUNTER, "put", game=np.arange(3), entity=np.arange(3) + i, kind=0,
                   before=np.arange(3), after=np.arange(3) + 1)
    snap = log.snapshot()
    assert len(snap["chunks"]) <= 2 + log2(snap["rows"])
    for ch in snap["chunks"]:
        for v in ch.values():
            with pytest.raises(ValueError):
                v[...] = 0


def test_a_recorded_column_is_a_copy_of_the_callers_array():
    """``record`` keeps as they are only the columns named ``fresh``: a caller may reuse
    the arrays it passed, and the log reads as recorded."""
    log = EventLog()
    game, entity, after = np.array([0, 1], np.int64), np.array([7, 8], np.int64), np.array([2, 3], np.int64)
    log.record(COUNTER, "put", game=game, entity=entity, kind=0, before=0, after=after)
    game[:], entity[:], after[:] = 5, 5, 5
    t = log.table()
    assert (t["game"].tolist(), t["entity"].tolist(), t["after"].tolist()) == ([0, 1], [7, 8], [2, 3])


def test_603_10a_a_permanent_of_the_first_player_leaves_under_that_players_control():
    """603.3a, 603.10a: a ZoneChanged names the player who controlled the object just before
    it left, the first player (index 0) as much as another, in a game's log as recorded
    and in a log of raw rows alike."""
    w = World()
    p, q = w.add_player(), w.add_player()
    mine = w.add_object(p, "creature", power=2, toughness=2)
    theirs = w.add_object(q, "creature", power=2, toughness=2)
    w.clear_events()
    w.destroy([mine, theirs])
    moved = [(e.old, e.controller) for e in w.events() if isinstance(e, ZoneChanged)]
    assert moved == [(mine, p), (theirs, q)]
    log = EventLog()
    log.record(ZONE, "destroy", game=0, entity=9, before=1, other=11, from_zone=3, to_zone=4)
    [row] = log.objects([], np.array([50, 60]), [])
    assert row.controller == 50



@pytest.mark.parametrize("path", ["scalar", "general"])
@pytest.mark.parametrize("how", ["destroy", "704.5f"])
def test_603_10a_a_stolen_permanent_leaves_under_its_controllers_control_not_its_owners(path, how):
    """603.3a, 603.10a, 110.2: a ZoneChanged names the player who controlled the object
    just before it left (here not its owner, after a control change, 108.4), in the event
    and in event_table's ``before`` (that player's index + 1); the new object is the
    owner's."""
    with run_on(path):
        w = World()
        p, q = w.add_player(), w.add_player()
        bear = w.add_object(p, "creature", power=2, toughness=2)
        w.set_controller(bear, q)
        w.clear_events()
        if how == "destroy":
            w.destroy(bear)
        else:
            w.put_counters(bear, "-1/-1", 2)
            w.tick()
    [left] = [e for e in w.events() if isinstance(e, ZoneChanged)]
    assert (left.old, left.controller, left.cause) == (bear, q, how)
    assert w.controller(left.new) == p
    t = w.event_table()
    assert t["before"][t["type"] == ZONE].tolist() == [w.players().index(q) + 1]

def test_122_7_crossed_is_the_put_that_reaches_the_number_from_below():
    """For "whenever the Nth counter is put" triggers, a put crosses N when it takes the
    count from below N to N or more; a put starting at N crossed nothing (it was reached
    earlier)."""
    at_two = CounterChanged(0, 1, "lore", 2, 3, "put")
    at_three = CounterChanged(0, 1, "lore", 3, 4, "put")
    assert crossed(at_two, 3) and not crossed(at_two, 2) and not crossed(at_two, 4)
    assert not crossed(at_three, 3) and crossed(at_three, 4)


@pytest.mark.parametrize("ruleset", ["mtg", "grand_archive"])
def test_a_main_phase_or_reserve_bookkeeping_with_nothing_to_log_takes_no_step(ruleset):
    """The rows at ``w.step`` are the last call's that logged (api.md, Events): a main phase
    with no state-based action and no wither counter to pay (GA Wither 3) logs nothing and
    takes no step, nor do GA set_reserve and gain_reserve; a main phase that pays one
    does."""
    w = World(ruleset=ruleset, seed=1)
    me, _ = w.add_player(), w.add_player()
    step = w.step
    w.begin_main_phase(me)
    if ruleset == "grand_archive":
        w.set_reserve(me, 3)
        w.gain_reserve(me, 1)
    assert w.step == step and w.events_since(step) == []
    if ruleset == "grand_archive":
        relic = w.add_object(me, "item", name="relic")
        w.put_counters(relic, "wither", 1)
        step = w.step
        w.begin_main_phase(me)
        assert w.step > step and w.reserve(me) == 3


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_704_5d_a_dead_tokens_zone_changes_name_it_after_it_ceased_to_exist(path, tmp_path):
    """704.5d, 111.8: a token that dies ceases to exist in the next check, so a host's "when
    it dies" trigger can't read ``name(e.new)``; each ZoneChanged names the card as it left
    (None where it has none), in ``event_table`` as ``after`` (the name's index + 1), and
    after a save and a load."""
    w = World()
    p = w.add_player()
    token = w.add_object(p, "creature", power=1, toughness=1, name="Saproling", token=True)
    plain = w.add_object(p, "creature", power=1, toughness=1)
    w.clear_events()
    with run_on(path):
        w.destroy([token, plain])
        w.tick()
    moves = [(e.old == token, e.to_zone, e.name) for e in w.events() if isinstance(e, ZoneChanged)]
    assert moves == [(True, "graveyard", "Saproling"), (False, "graveyard", None),
                     (False, "none", "Saproling")]
    t = w.event_table()
    zone_rows = t["type"] == ZONE
    assert t["after"][zone_rows].tolist() == [w.names.index("Saproling") + 1, 0,
                                              w.names.index("Saproling") + 1]
    path_ = tmp_path / "game.npz"
    w.save(path_)
    again = [e.name for e in World.load(path_).events() if isinstance(e, ZoneChanged)]
    assert again == ["Saproling", None, "Saproling"]


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_400_7_zone_kind_is_the_one_encoding_of_both_move_paths(path):
    """A zone change's ``kind`` is ``zone_kind`` of the object's types and token flag, on the
    single-game path and the compiled one alike (the ruleset's highest type bit too), and ``-2 -
    kind`` reads them back."""
    w = World()
    p = w.add_player()
    made = [(("artifact", "creature"), True), (("land",), False), (("kindred", "enchantment"), True)]
    ids = [w.add_object(p, types, token=token) for types, token in made]
    w.clear_events()
    with run_on(path):
        for i in ids:
            w.destroy(i)
    t = w.event_table()
    kinds = t["kind"][t["type"] == ZONE].tolist()
    assert kinds == [zone_kind(sum(TYPE_BIT[n] for n in types), token) for types, token in made]
    assert [(set(zone_types(-2 - k)), bool((-2 - k) & ZONE_TOKEN)) for k in kinds] == [
        (set(types), token) for types, token in made]
