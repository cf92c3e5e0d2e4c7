"""Zone changes: new objects, ceasing counters, stale ids, LKI (CR 400.7, 122.2, 704.8)."""
import numpy as np
import pytest

from ecs import StaleEntityError, World, ZoneChanged
from ecs.components import ALL_FIELDS, GAME_COLUMN


def test_400_7_122_2_moved_object_is_new_and_its_counters_cease():
    w = World()
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2, name="Bear")
    w.put_counters(bear, "+1/+1", 2)
    w.clear_events()
    card = w.move_zone(bear, "hand")
    assert card != bear and w.zone(card) == "hand" and w.counters(card) == {}
    assert w.name(card) == "Bear" and (w.power(card), w.toughness(card)) == (2, 2)
    (ev,) = w.events()     # no "removed" events (122.2)
    assert ev == ZoneChanged(0, bear, card, "battlefield", "hand", "zone", {"+1/+1": 2}, p, "Bear",
                             ("creature",), False)
    with pytest.raises(StaleEntityError, match=str(bear)):
        w.put_counters(bear, "+1/+1", 1)
    with pytest.raises(StaleEntityError):
        w.counters(bear)
    assert not w.exists(bear)


def test_704_8_lki_is_from_before_the_check():
    """Young Wolf: +1/+1 and three -1/-1 -> dies; LKI has the +1/+1 (undying won't trigger)."""
    w = World()
    p = w.add_player()
    wolf = w.add_object(p, {"creature"}, power=1, toughness=1, counters={"+1/+1": 1})
    w.put_counters(wolf, "-1/-1", 3)
    w.clear_events()
    w.tick()
    (ev,) = w.events()
    assert isinstance(ev, ZoneChanged) and ev.cause == "704.5f"
    assert ev.lki == {"+1/+1": 1, "-1/-1": 3}


def test_704_5d_tokens_cease_to_exist_outside_the_battlefield():
    w = World()
    p = w.add_player()
    tok = w.add_object(p, {"creature"}, power=1, toughness=1, token=True)
    new = w.move_zone(tok, "graveyard")
    assert w.zone(new) == "graveyard"      # triggers can see it there (111.7)
    w.tick()
    assert not w.exists(new)
    assert w.events()[-1].cause == "704.5d" and w.events()[-1].new is None


def test_entering_the_battlefield_puts_printed_loyalty():
    w = World()
    p = w.add_player()
    card = w.add_object(p, {"planeswalker"}, zone="hand", loyalty=3)
    pw = w.move_zone(card, "battlefield")
    assert w.counters(pw) == {"loyalty": 3}
    assert w.events()[-1].cause == "enter"


def test_stale_column_is_never_aliased():
    w = World()
    p = w.add_player()
    a = w.add_object(p, {"artifact"})
    w.sacrifice(a)
    b = w.add_object(p, {"artifact"})
    assert b != a
    with pytest.raises(StaleEntityError):
        w.count(a, "charge")


def test_batch_object_gone_in_some_games_only():
    w = World(batch=3)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    w.put_counters(bear, "-1/-1", 2, games=[1])
    w.tick()
    assert w.exists(bear).tolist() == [True, False, True]
    with pytest.raises(StaleEntityError, match="game 1"):
        w.put_counters(bear, "charge", 1)
    w.put_counters(bear, "charge", 1, games=[0, 2])
    assert w.count(bear, "charge").tolist() == [1, 0, 1]


def _ways_to_get_counters(tmp_path):
    """Every path by which an object comes to hold counters: (name, world, object)."""
    def base():
        w = World(batch=2)
        p = w.add_player()
        return w, p
    w, p = base()
    x = w.add_object(p, {"artifact"}, counters={"charge": 2})            # enters with them
    yield "enters", w, x
    w, p = base()
    x = w.add_object(p, {"artifact"})
    w.put_counters(x, "loyalty", 1)                                        # any kind, any object
    yield "put", w, x
    w, p = base()
    x = w.add_object(p, {"artifact"}, counters={"charge": 1, "+1/+1": 1})
    w.proliferate([x])
    yield "proliferate", w, x
    w, p = base()
    src = w.add_object(p, {"artifact"}, counters={"charge": 3})
    x = w.add_object(p, {"artifact"})
    w.move_counters(src, x, "charge", 2)
    yield "moved", w, x
    w, p = base()
    x = w.add_object(p, {"creature"}, power=1, toughness=5)
    w.deal_damage(x, 2, wither=True)                                       # 120.3d: -1/-1
    yield "wither", w, x
    for how in ("restore", "clone", "select", "fork", "load"):
        w, p = base()
        x = w.add_object(p, {"artifact"}, counters={"charge": 4, "defense": 1})
        snap = w.snapshot()
        if how == "restore":
            w = World(batch=2)
            w.restore(snap)
        elif how == "clone":
            w = w.clone()
        elif how == "select":
            w = w.select([1, 0])
        elif how == "fork":
            w = w.fork(0, 2)
        else:
            w.save(tmp_path / "w.npz")
            w = World.load(tmp_path / "w.npz")
        yield how, w, x


def test_704_8_lki_holds_every_kind_however_the_counters_came(tmp_path):
    """122.2, 704.8: the zone-change event carries every counter the object had, whichever
    action, copy or file put them there."""
    for how, w, x in _ways_to_get_counters(tmp_path):
        had = w.counters(x)
        assert had, how
        w.clear_events()
        w.destroy(x)
        (ev,) = [e for e in w.events() if isinstance(e, ZoneChanged)][:1]
        expect = {k: int(v[ev.game]) for k, v in had.items() if v[ev.game] > 0}
        assert ev.lki == expect, how


def test_704_8_a_reused_column_keeps_no_kind_of_its_old_object():
    w = World()
    p = w.add_player()
    old = w.add_object(p, {"artifact"}, counters={"charge": 2}, token=True)
    gone = int(w.store.locate(0, old))
    w.destroy(old)
    w.tick()                                # 704.5d: the token ceased to exist, its slot is free
    new = w.add_object(p, {"artifact"}, zone="battlefield")
    assert int(w.store.locate(0, new)) == gone     # the old object's slot, reused
    w.put_counters(new, "+1/+1", 1)
    w.clear_events()
    w.destroy(new)
    (ev,) = [e for e in w.events() if isinstance(e, ZoneChanged)]
    assert ev.lki == {"+1/+1": 1}


@pytest.mark.parametrize("batch", [1, 2])
def test_306_5b_a_planeswalker_entering_the_battlefield_gets_its_printed_loyalty(batch):
    """In one game and in each game of a batch, with a move of another object at once."""
    w = World(batch=batch)
    p = w.add_player()
    card = w.add_object(p, {"planeswalker"}, zone="hand", loyalty=3)
    rock = w.add_object(p, {"artifact"}, zone="hand")
    pw = int(np.atleast_2d(w.move_zone([card, rock], "battlefield"))[0, 0])   # (one id in every game)
    assert np.all(w.count(pw, "loyalty") == 3)


@pytest.mark.parametrize("batch", [1, 2])
def test_ga_champion_8_a_banished_champion_sent_to_a_graveyard_stays_the_same_object(batch):
    """A champion card in banishment that would be put into a graveyard is banished
    instead (GA Champion 8): it stays where it is, the same object with its counters, no
    zone change (new id -1, no event): 400.7 does not make it new."""
    w = World(ruleset="grand_archive", batch=batch, seed=0)
    a, b = w.add_player(), w.add_player()
    w.add_object(b, "champion", life=20)
    card = w.add_object(a, "champion", life=20, zone="banishment", counters={"buff": 2})
    w.clear_events()
    assert w.move_zone(card, "graveyard") == -1
    assert np.all(w.exists(card)) and np.all(w.zone(card) == "exile")
    assert np.all(w.count(card, "buff") == 2) and w.events() == []


@pytest.mark.parametrize("batch", [1, 2])
def test_614_1a_122_1h_a_card_put_into_a_graveyard_from_the_hand_does_not_die(batch):
    """A host's "if it would die" redirect and a finality counter (122.1h) replace only a
    permanent's move from the battlefield to a graveyard: a card with both discarded
    from the hand goes to the graveyard, in one game and in a batch."""
    w = World(batch=batch)
    p = w.add_player()
    card = w.add_object(p, {"creature"}, zone="hand", power=1, toughness=1, counters={"finality": 1})
    w.set_redirect(card, "exile")
    new = w.move_zone(card, "graveyard")
    assert np.all(w.zone(new) == "graveyard")


def test_ga_champion_8_a_kept_row_leaves_each_other_row_its_own_cause():
    """A check moving a banished champion card to a graveyard (it stays, GA Champion 8)
    and another card there for another reason: the card's zone change carries its own
    decision's cause, not the kept row's."""
    from ecs import zones
    from ecs.check import System

    w = World(ruleset="grand_archive", seed=0)
    a, b = w.add_player(), w.add_player()
    w.add_object(b, "champion", life=20)
    champ = w.add_object(a, "champion", life=20, zone="banishment")
    card = w.add_object(a, "ally", power=1, life=1, zone="hand")
    cols = {e: int(w.store.locate(0, e)) for e in (champ, card)}
    done = []

    class Discard(System):
        causes = ("host", "sacrifice")

        def process(self, game, check):  # type: ignore[no-untyped-def]
            if not done:
                done.append(1)
                check.move(np.array([0]), np.array([cols[champ]]), zones.GRAVEYARD, "host")
                check.move(np.array([0]), np.array([cols[card]]), zones.GRAVEYARD, "sacrifice")

    w.schedule = w.schedule.with_systems(Discard())
    w.clear_events()
    w.tick()
    assert [(e.old, e.cause) for e in w.events() if isinstance(e, ZoneChanged)] == [(card, "sacrifice")]
    assert w.zone(champ) == "exile"


@pytest.mark.parametrize("batch", [1, 2])
def test_122_1h_one_finality_counter_exiles_a_dying_permanent(batch):
    """A permanent with one finality counter that would die is exiled (122.1h), in one
    game and in each game of a batch, dying with another at once."""
    w = World(batch=batch)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2, counters={"finality": 1})
    other = w.add_object(p, {"creature"}, power=2, toughness=2)
    w.destroy([bear, other])
    assert len(w.objects(zone="exile")) == 1 and len(w.objects(zone="graveyard")) == 1


# One object's move takes the single-game path (``relocation.move_one``); two at once, or a
# batch's, the general one: each rule below holds on both.
PATHS = [(1, False), (1, True), (2, False)]   # (batch, with another object moving at once)


def _dying(w: World, e: int, with_other: bool, move=lambda w, es: w.destroy(es)):  # type: ignore[no-untyped-def]
    """``move`` of ``e`` (and another creature of its controller's, ``with_other``)."""
    if not with_other:
        return move(w, e)
    other = w.add_object(w.controller(e) if w.batch == 1 else int(w.controller(e)[0]), {"creature"},
                         power=1, toughness=1)
    return np.atleast_2d(move(w, [e, other]))[0, 0]


@pytest.mark.parametrize("batch, with_other", PATHS)
def test_614_1a_122_1h_a_redirect_replaces_dying_first_and_finality_only_what_still_dies(batch, with_other):
    """A host's "if it would die, put it into <zone> instead" goes first: a permanent with a
    finality counter redirected to its owner's hand goes there, not to exile (122.1h
    replaces only a move to the graveyard); one redirected to exile is exiled."""
    for zone in ("hand", "exile"):
        w = World(batch=batch)
        p = w.add_player()
        bear = w.add_object(p, {"creature"}, power=2, toughness=2, counters={"finality": 1})
        w.set_redirect(bear, zone)
        w.clear_events()
        _dying(w, bear, with_other)
        (ev, *_) = [e for e in w.events() if isinstance(e, ZoneChanged)]
        assert (ev.old, ev.from_zone, ev.to_zone) == (bear, "battlefield", zone)
        assert len(w.objects(zone=zone)) == 1


def _dies_to_704_5f(w: World, e: int, with_other: bool) -> int:
    """``e`` (and another creature of its controller's, ``with_other``) put into the
    graveyard by one state-based check (704.5f); ``e``'s new id."""
    es = [e]
    if with_other:
        es.append(w.add_object(w.controller(e) if w.batch == 1 else int(w.controller(e)[0]),
                               {"creature"}, power=1, toughness=1))
    w.put_counters(es, "-1/-1", 2)
    w.clear_events()
    w.tick()
    return next(ev.new for ev in w.events() if isinstance(ev, ZoneChanged) and ev.old == e)


@pytest.mark.parametrize("how", ["move_zone", "704.5f"])
@pytest.mark.parametrize("batch, with_other", PATHS)
def test_110_2_400_7_a_moved_permanent_returns_to_its_owners_control(batch, with_other, how):
    """A permanent another player controls that changes zones is a new object under its
    owner's control (110.2, 400.7): moved alone, with another object, or in several games
    at once, by an action or by a state-based check."""
    w = World(batch=batch)
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    w.set_controller(bear, q)
    new = (_dying(w, bear, with_other, lambda w, es: w.move_zone(es, "graveyard")) if how == "move_zone"
           else _dies_to_704_5f(w, bear, with_other))
    assert np.all(w.zone(new) == "graveyard")
    assert np.all(w.controller(new) == p) and np.all(w.owner(new) == p)


@pytest.mark.parametrize("batch, with_other", PATHS)
def test_400_7_a_moved_card_keeps_its_characteristics_on_every_path(batch, with_other):
    """A card that changes zones is a new object in the same slot with the card's
    characteristics (400.7): its name, printed power and toughness and keywords, moved
    alone, with another object, or in several games at once."""
    w = World(batch=batch)
    p = w.add_player()
    bear = w.add_object(p, {"artifact", "creature"}, power=3, toughness=4, keywords={"flying"},
                        name="Bear", counters={"+1/+1": 1})
    new = _dying(w, bear, with_other, lambda w, es: w.move_zone(es, "hand"))
    assert np.all(w.zone(new) == "hand")
    assert np.all(w.power(new) == 3) and np.all(w.toughness(new) == 4)
    assert w.name(new) == "Bear" and np.all(w.keywords(new) == frozenset({"flying"}))


@pytest.mark.parametrize("spread", [False, True], ids=["same-columns", "spread"])
def test_400_7_122_1h_one_new_id_per_old_id_and_destination_across_the_games(spread):
    """A permanent destroyed in three games at once, exiled instead in one of them by its
    finality counter (122.1h), becomes two new objects (400.7): one id shared by the games
    where it went to the graveyard together, another for the exile. With ``spread`` it sits
    in another column in one game (an object made there alone first)."""
    w = World(batch=3, seed=0)
    p = w.add_player()
    if spread:
        w.add_object(p, {"creature"}, zone="graveyard", games=[2])
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    assert len(set(w.store.locate(np.arange(3), bear).tolist())) == (2 if spread else 1)
    w.put_counters(bear, "finality", 1, games=[1])
    w.clear_events()
    w.destroy(bear)
    new = {ev.game: (ev.new, ev.to_zone) for ev in w.events() if isinstance(ev, ZoneChanged)}
    assert [z for _, z in new.values()] == ["graveyard", "exile", "graveyard"]
    assert new[0][0] == new[2][0] != new[1][0]
    assert w.zone(new[0][0]).tolist() == ["graveyard", "none", "graveyard"]
    assert w.zone(new[1][0]).tolist() == ["none", "exile", "none"]


@pytest.mark.parametrize("batch, with_other", PATHS)
def test_122_1h_a_finality_counter_does_not_replace_a_bounce(batch, with_other):
    """Finality replaces a move from the battlefield to a graveyard only: a permanent with
    one returned to its owner's hand goes there."""
    w = World(batch=batch)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2, counters={"finality": 1})
    new = _dying(w, bear, with_other, lambda w, es: w.move_zone(es, "hand"))
    assert np.all(w.zone(new) == "hand")


@pytest.mark.parametrize("batch", [1, 2])
def test_704_5d_111_8_a_token_ceases_to_exist_and_frees_a_clean_slot(batch):
    """A token put into a graveyard ceases to exist at the next check (704.5d): the event
    names no new object, and the game's next object in its slot keeps nothing of it (not a
    token, not its name or its power)."""
    w = World(batch=batch)
    p = w.add_player()
    tok = w.add_object(p, {"creature"}, power=3, toughness=3, token=True, name="Goblin")
    gone = int(w.store.locate(0, tok))
    w.move_zone(tok, "graveyard")
    w.clear_events()
    w.tick()
    assert [(e.cause, e.new) for e in w.events()] == [("704.5d", None)] * batch
    rock = w.add_object(p, {"artifact"})
    assert int(w.store.locate(0, rock)) == gone
    plain = World(batch=batch)   # the same artifact in a slot no object held
    plain.add_object(plain.add_player(), {"artifact"})
    assert int(plain.store.locate(0, plain.store.next_id - 1)) == gone
    for f in ALL_FIELDS:
        if f.shape == GAME_COLUMN and f.name != "entity_id":
            assert np.array_equal(w.store.a[f.name][:, gone], plain.store.a[f.name][:, gone]), f.name
    card = w.move_zone(rock, "graveyard")
    w.tick()
    assert np.all(w.exists(card))   # not a token: it stays in the graveyard


@pytest.mark.parametrize("batch, together", [(1, False), (1, True), (2, True)])
def test_401_4_cards_put_into_a_library_go_to_its_bottom_in_order(batch, together):
    w = World(batch=batch)
    p = w.add_player()
    top = w.add_object(p, {"artifact"}, zone="library")
    cards = [w.add_object(p, {"artifact"}, zone="hand") for _ in range(2)]
    if together:
        new = [int(x) for x in np.atleast_2d(w.move_zone(cards, "library"))[0]]
    else:
        new = [int(np.atleast_1d(w.move_zone(c, "library"))[0]) for c in cards]
    for g in range(batch):
        assert w.library(p, g)[-2:] == new and w.library(p, g)[0] == top


def test_move_objects_leaves_the_callers_array_and_the_log_its_own():
    """``move_objects`` applies replacements to a copy of the destinations it is given, and
    the zone-change rows keep their own copy of the destinations it returns."""
    from ecs import zones
    from ecs.events import ZONE
    from ecs.relocation import move_objects
    w = World(batch=2)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    w.set_redirect(bear, "exile")
    cols = np.full(2, int(w.store.locate(0, bear)), np.int64)
    dest = np.full(2, zones.GRAVEYARD, np.int64)
    w.clear_events()
    _, to = move_objects(w, np.arange(2, dtype=np.int64), cols, dest, "destroy")
    assert dest.tolist() == [zones.GRAVEYARD] * 2 and to.tolist() == [zones.EXILE] * 2
    to[:] = zones.HAND
    t = w.event_table()
    assert t["to_zone"][t["type"] == ZONE].tolist() == [zones.EXILE] * 2


@pytest.mark.parametrize("batch", [1, 2])
def test_ga_champion_8_a_kept_row_leaves_each_other_row_its_zone(batch):
    """Moved with a banished champion card that stays (GA Champion 8), another card goes to
    the graveyard and gets the counters it arrives with."""
    w = World(ruleset="grand_archive", batch=batch, seed=0)
    a, b = w.add_player(), w.add_player()
    w.add_object(b, "champion", life=20)
    champ = w.add_object(a, "champion", life=20, zone="banishment")
    card = w.add_object(a, "ally", power=1, life=1, zone="hand")
    new = np.atleast_2d(w.move_zone([champ, card], "graveyard", counters={"buff": 1}))[0]
    assert new[0] == -1 and np.all(w.zone(int(new[1])) == "graveyard")
    assert np.all(w.count(int(new[1]), "buff") == 1)


@pytest.mark.parametrize("batch", [1, 2])
def test_614_1a_a_redirect_sends_only_its_own_permanent_elsewhere(batch):
    """Two permanents destroyed at once, one redirected to its owner's library: it goes to
    the library's bottom, the other to the graveyard, holding no library position (every
    slot outside a library holds 0, ecs.library)."""
    w = World(batch=batch)
    p = w.add_player()
    a, b = (w.add_object(p, {"creature"}, power=1, toughness=1) for _ in range(2))
    w.set_redirect(a, "library")
    w.destroy([a, b])
    (shelved,), (dead,) = w.objects(zone="library"), w.objects(zone="graveyard")
    for g in range(batch):
        assert w.library(p, g) == [shelved]
        assert w.store.a["position"][g, int(w.store.locate(g, dead))] == 0


def test_306_5b_only_the_rows_entering_the_battlefield_get_their_printed_loyalty():
    """One move of two planeswalker cards, one to the battlefield and one to the graveyard:
    the one entering gets its loyalty counters (306.5b), the other none."""
    from ecs import zones
    from ecs.relocation import move_objects
    w = World()
    p = w.add_player()
    cards = [w.add_object(p, {"planeswalker"}, zone="hand", loyalty=3) for _ in range(2)]
    cols = np.array([int(w.store.locate(0, c)) for c in cards], np.int64)
    new, _ = move_objects(w, np.zeros(2, np.int64), cols, np.array([zones.BATTLEFIELD, zones.GRAVEYARD]), "zone")
    assert w.counters(int(new[0])) == {"loyalty": 3} and w.counters(int(new[1])) == {}


@pytest.mark.parametrize("counters", [None, {"+1/+1": 1}])
def test_104_a_game_that_has_ended_moves_nothing_and_move_zone_returns_minus_one(counters):
    """An action on a game that has ended does nothing (its state is final, 104): a World
    of one game given one id returns one id, -1 where none arrived, as a move refused by
    111.8 or Champion 8 does, not an empty array."""
    w = World()
    a, b = w.add_player(), w.add_player()
    card = w.add_object(a, "creature", power=1, toughness=1, zone="graveyard")
    w.lose_life(a, 20)
    w.tick()
    assert w.result() == b
    w.clear_events()
    assert w.move_zone(card, "exile", counters=counters) == -1
    assert w.zone(card) == "graveyard" and w.events() == []


def test_104_a_game_that_has_ended_returns_minus_one_for_each_id_given():
    """Several ids to move in a World of one game that has ended: one id each, -1 where
    none arrived (104: the game's state is final), as in a game going on."""
    w = World()
    a = w.add_player()
    w.add_player()
    cards = [w.add_object(a, "creature", power=1, toughness=1, zone="graveyard") for _ in range(2)]
    w.lose_life(a, 20)
    w.tick()
    assert w.move_zone(cards, "exile").tolist() == [-1, -1]
    assert [w.zone(e) for e in cards] == ["graveyard", "graveyard"]
