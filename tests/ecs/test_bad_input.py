"""Bad input raises a clear error naming entity, kind and value, and changes nothing."""
import numpy as np
import pytest

from ecs import (
    CounterError,
    CountOverflowError,
    GameOverError,
    IllegalActionError,
    InvalidCountError,
    InvalidGameError,
    InvalidKindError,
    InvalidTypeError,
    InvalidZoneError,
    StaleEntityError,
    UnknownEntityError,
    World,
)
from ecs.errors import InvalidSeedError
from ecs.limits import MAX_BATCH, MAX_LIFE, MAX_OBJECTS, MAX_SEEDS, MAX_SLOTS


def state(w):
    snap = w.store.snapshot()
    return {k: v.tolist() if hasattr(v, "tolist") else v for k, v in snap.items()}, w.log.rows


@pytest.fixture
def game():
    w = World(batch=2)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2, counters={"charge": 1})
    gone = w.add_object(p, {"artifact"})
    w.sacrifice(gone)
    return w, p, bear, gone


BAD = [
    (lambda w, p, b, g: w.put_counters(b, "+1/+1", -1), InvalidCountError, "-1"),
    (lambda w, p, b, g: w.put_counters(b, "+1/+1", 1.5), InvalidCountError, "1.5"),
    (lambda w, p, b, g: w.put_counters(b, "+1/+1", True), InvalidCountError, "True"),
    (lambda w, p, b, g: w.put_counters(b, "+1/+1", 2**40), InvalidCountError, str(2**40)),
    (lambda w, p, b, g: w.put_counters(b, "charge", 2**31 - 1), CountOverflowError, "charge"),
    (lambda w, p, b, g: w.put_counters(b, "Flying", 1), InvalidKindError, "Flying"),
    (lambda w, p, b, g: w.put_counters(b, "", 1), InvalidKindError, "''"),
    (lambda w, p, b, g: w.put_counters(b, 7, 1), InvalidKindError, "7"),
    (lambda w, p, b, g: w.put_counters(b, "a  b", 1), InvalidKindError, "a  b"),
    (lambda w, p, b, g: w.put_counters(999, "charge", 1), UnknownEntityError, "999"),
    (lambda w, p, b, g: w.put_counters(g, "charge", 1), StaleEntityError, "{g}"),
    (lambda w, p, b, g: w.put_counters([b, 999], "charge", 1), UnknownEntityError, "999"),
    (lambda w, p, b, g: w.put_counters(b, "charge", 1, games=5), InvalidGameError, "5"),
    (lambda w, p, b, g: w.put_counters(b, "charge", [1, 2, 3]), InvalidCountError,
     "3 amounts for 2 selected games"),
    (lambda w, p, b, g: w.move_zone(b, "narnia"), InvalidZoneError, "narnia"),
    (lambda w, p, b, g: w.add_object(p, {"wizard"}), InvalidTypeError, "wizard"),
    (lambda w, p, b, g: w.add_object(p, {"creature"}, counters={"+1/+1": -2}), InvalidCountError, "-2"),
    (lambda w, p, b, g: w.add_object(b, {"creature"}), Exception, "{b}"),
    (lambda w, p, b, g: w.proliferate([b, g]), StaleEntityError, "{g}"),
    (lambda w, p, b, g: w.deal_damage(b, -3), InvalidCountError, "-3"),
    (lambda w, p, b, g: w.set_cap(b, "charge", -1), InvalidCountError, "-1"),
    # an unhashable reason or flag is refused, not looked up or tested for truth (704.5a, 704.5c)
    (lambda w, p, b, g: w.set_cant_lose(p, np.array(["life", "poison"])), InvalidTypeError, "unknown reason"),
    (lambda w, p, b, g: w.cant_lose(p, ["life"]), InvalidTypeError, "unknown reason"),
    (lambda w, p, b, g: w.fork(0, 2, events=np.array([True, False])), IllegalActionError, "fork's events"),
    # a read of one game names a game of the batch: not the last one by a negative index
    (lambda w, p, b, g: w.objects(game=-1), InvalidGameError, "-1"),
    (lambda w, p, b, g: w.objects(game=2), InvalidGameError, "2"),
    (lambda w, p, b, g: w.objects(game=True), InvalidGameError, "True"),
    (lambda w, p, b, g: w.library(p, game=2), InvalidGameError, "2"),
    (lambda w, p, b, g: w.library(p, game=np.int64(-1)), InvalidGameError, "-1"),
    # a ragged list makes no array: refused as a value, not NumPy's own ValueError
    (lambda w, p, b, g: w.set_pt(b, power=[[1, 2], [3]]), InvalidCountError, "[[1, 2], [3]]"),
    (lambda w, p, b, g: w.modify_pt(b, toughness=[[1, 2], [3]]), InvalidCountError, "[[1, 2], [3]]"),
    (lambda w, p, b, g: w.set_hold(b, [[True], [False, True]]), InvalidTypeError, "[[True], [False, True]]"),
    (lambda w, p, b, g: w.observe([[b], [b, b]]), UnknownEntityError, "must be an integer or an array of integers"),
    (lambda w, p, b, g: w.put_counters(b, "charge", [[1, 2], [3]]), InvalidCountError, "[[1, 2], [3]]"),
    # two flags for one player: which one is meant? (as set_hold refuses)
    (lambda w, p, b, g: w.set_cant_lose([p, p], "life", [True, False]), IllegalActionError, "twice"),
    # entering with counters past the limit: a count past it, as add_objects says (CR 122.6)
    (lambda w, p, b, g: w.move_zone(b, "exile", counters={"charge": 2**31}), InvalidCountError, "2147483648"),
    # the value named is the one out of range, not the first given
    (lambda w, p, b, g: w.put_counters(b, "charge", [1, -2]), InvalidCountError, "amount -2 is outside"),
    # games= that is a bool, a mask of another length, or names a game twice
    (lambda w, p, b, g: w.put_counters(b, "charge", 1, games=True), InvalidGameError, "games=True"),
    (lambda w, p, b, g: w.put_counters(b, "charge", 1, games=np.array([True, False, False])), InvalidGameError,
     "game mask of shape (3,) for a batch of 2"),
    (lambda w, p, b, g: w.put_counters(b, "charge", 1, games=[1, 1]), InvalidGameError,
     "games=[1, 1] names a game twice"),
    # ids of a (G, m) array for another number of games
    (lambda w, p, b, g: w.put_counters(np.full((3, 1), b), "charge"), InvalidGameError,
     "ids of shape (3, 1): expected (m,) or (2, m)"),
    # an id not made yet is unknown, also where="present" (which skips ids that left)
    (lambda w, p, b, g: w.put_counters(w.store.next_id, "charge", where="present"), UnknownEntityError,
     "does not exist in this World"),
    (lambda w, p, b, g: w.put_counters(-1, "charge", games=[0], skip_finished=True), UnknownEntityError,
     "entity -1 is outside"),
]


@pytest.mark.parametrize("action,error,needle", BAD)
def test_bad_input_raises_clear_error_and_changes_nothing(game, action, error, needle):
    w, p, bear, gone = game
    before = state(w)
    with pytest.raises(error) as info:
        action(w, p, bear, gone)
    assert needle.format(b=bear, g=gone) in str(info.value)
    assert state(w) == before


def test_grand_archive_immortality_of_a_ragged_list_is_refused():
    """GA Immortality: ``set_immortal`` takes a bool, or one per row; a ragged list is
    refused with a CounterError and changes nothing."""
    w = World(ruleset="grand_archive", batch=2)
    q = w.add_player()
    ally = w.add_object(q, "ally", power=1, life=1)
    before = state(w)
    with pytest.raises(InvalidTypeError, match="immortal"):
        w.set_immortal(ally, [[True], [True, False]])
    assert state(w) == before


def test_errors_subclass_builtin_types():
    assert issubclass(UnknownEntityError, KeyError) and issubclass(InvalidCountError, ValueError)


def test_count_limit_is_int32_and_never_wraps():
    w = World()
    p = w.add_player()
    x = w.add_object(p, {"artifact"})
    w.put_counters(x, "charge", 2**31 - 1)
    with pytest.raises(CountOverflowError):
        w.put_counters(x, "charge", 1)
    with pytest.raises(CountOverflowError):
        w.proliferate([x])
    assert w.count(x, "charge") == 2**31 - 1
    assert isinstance(w.count(x, "charge"), int) and np.iinfo(np.int32).max == 2**31 - 1


# ---- the promise holds for constructors, ids, sizes, life and steps ------------
def full_state(w):
    """The store's arrays, the event rows and step, names and the seed counter."""
    s, rows = state(w)
    return s, rows, w.log.step, list(w.names), w.n_spawned


def refused(w, fn, error, needle):
    """``fn()`` raises ``error`` (a CounterError) naming ``needle`` and changes nothing; returns the error."""
    before = full_state(w)
    with pytest.raises(error) as info:
        fn()
    assert isinstance(info.value, CounterError) and needle in str(info.value)
    assert full_state(w) == before
    return info.value


@pytest.mark.parametrize("make,error,needle", [
    (lambda w, p: w.add_player(life=2**63), InvalidCountError, str(2**63)),
    (lambda w, p: w.add_player(life=MAX_LIFE + 1), InvalidCountError, str(MAX_LIFE + 1)),
    (lambda w, p: w.add_player(team=2**40), IllegalActionError, str(2**40)),
    (lambda w, p: w.add_object(p, {"creature"}, name=123), InvalidTypeError, "123"),
    (lambda w, p: w.add_object(p, None), InvalidTypeError, "None"),
    (lambda w, p: w.add_object(p, [{"creature"}]), InvalidTypeError, "creature"),
    (lambda w, p: w.add_object(p, keywords=5), InvalidTypeError, "5"),
    (lambda w, p: w.add_object(p, token=np.array([1, 2])), IllegalActionError, "token"),
    (lambda w, p: w.add_object(p, {"planeswalker"}, loyalty=4,
                               counters={"loyalty": 2**31 - 1}), CountOverflowError, "loyalty"),
    (lambda w, p: w.add_object(p, caps={"charge": 2**63 - 1}), InvalidCountError, str(2**63 - 1)),
    (lambda w, p: w.add_object(p, caps={"charge": 2**31}), InvalidCountError, str(2**31)),
    (lambda w, p: w.add_objects(2**31, p), InvalidCountError, str(2**31)),
    (lambda w, p: w.add_objects(MAX_OBJECTS + 1, p), InvalidCountError, str(MAX_OBJECTS + 1)),
    (lambda w, p: w.put_counters(2**63, "charge"), UnknownEntityError, str(2**63)),
    (lambda w, p: w.put_counters(np.array([2**63], np.uint64), "charge"), UnknownEntityError,
     str(2**63)),
    (lambda w, p: w.put_counters(-2**63 - 1, "charge"), UnknownEntityError, str(-2**63 - 1)),
    (lambda w, p: w.put_counters(p, "charge", np.timedelta64(1)), InvalidCountError, "1"),
    (lambda w, p: w.put_counters(p, "charge", games=np.timedelta64(0, "D")), InvalidGameError,
     "games"),
    (lambda w, p: w.counters(2**64), UnknownEntityError, str(2**64)),
    (lambda w, p: w.spawn_seeds(2**40), InvalidGameError, str(2**40)),
    (lambda w, p: w.fork(0, 2**31), InvalidGameError, str(2**31)),
    (lambda w, p: w.fork(0, MAX_BATCH + 1), InvalidGameError, str(MAX_BATCH + 1)),
    (lambda w, p: w.deal_damage(p, 1, combat="yes"), InvalidTypeError, "combat"),
    (lambda w, p: w.add_object(p, "artifact", token=1), IllegalActionError, "token must be True or False, got 1"),
    # a card type of another ruleset (GA's champion) is not a Magic one (300.1)
    (lambda w, p: w.add_object(p, {"creature", "champion"}), InvalidTypeError,
     "card types ['champion'] do not exist in the mtg ruleset"),
])
def test_refused_before_anything_is_made(make, error, needle):
    w = World(batch=2)
    p = w.add_player()
    refused(w, lambda: make(w, p), error, needle)


def test_a_world_holds_at_most_max_slots_games_x_columns():
    w = World(batch=MAX_SLOTS // MAX_OBJECTS * 2)
    p = w.add_player()
    refused(w, lambda: w.add_objects(MAX_OBJECTS, p), InvalidCountError, "MAX_SLOTS")


def test_life_never_wraps():
    """Life totals stay within -MAX_LIFE..MAX_LIFE (int64): gain past it raises, all or nothing."""
    w = World(batch=2)
    p = w.add_player(life=MAX_LIFE - 1)
    refused(w, lambda: w.gain_life(p, 2), CountOverflowError, str(MAX_LIFE + 1))
    refused(w, lambda: w.gain_life([p, p], 1), CountOverflowError, str(MAX_LIFE + 1))
    w.gain_life(p, np.array([1, 0]))
    assert w.life(p).tolist() == [MAX_LIFE, MAX_LIFE - 1]
    q = w.add_player(life=-MAX_LIFE)
    refused(w, lambda: w.lose_life(q, 1), CountOverflowError, str(-MAX_LIFE - 1))


def test_two_headed_giant_team_life_is_not_summed_past_the_limit():
    """CR 810.4: a team's life is the sum of its players' starting lives; past MAX_LIFE the
    second player is refused and does not exist."""
    w = World(two_headed_giant=True)
    w.add_player(life=MAX_LIFE, team=0)
    refused(w, lambda: w.add_player(life=1, team=0), CountOverflowError, "life")
    assert len(w.players()) == 1


def test_a_refused_put_takes_no_event_step():
    w = World()
    p = w.add_player()
    x = w.add_object(p, {"artifact"})
    w.put_counters(x, "charge", 2**31 - 1)
    refused(w, lambda: w.put_counters(x, "charge", 1), CountOverflowError, "charge")


@pytest.mark.parametrize("kwargs,error", [
    (dict(seed=-1), InvalidSeedError), (dict(seed="abc"), InvalidSeedError),
    (dict(seed=1.5), InvalidSeedError), (dict(seed=[1, -2]), InvalidSeedError),
    (dict(seed=np.timedelta64(1)), InvalidSeedError),
    (dict(batch=2**31), InvalidGameError), (dict(batch=MAX_BATCH + 1), InvalidGameError),
    (dict(batch=0), InvalidGameError), (dict(max_passes="x"), InvalidCountError),
    (dict(two_headed_giant="yes"), IllegalActionError),
])
def test_world_arguments_raise_counter_errors(kwargs, error):
    with pytest.raises(error) as info:
        World(**kwargs)
    assert isinstance(info.value, CounterError)


def test_seeds_that_are_accepted_give_the_same_games_as_before():
    """Accepted seeds (non-negative integers, NumPy integers, sequences) seed as NumPy does."""
    for seed in (0, 7, np.uint32(7), [1, 2], 2**70):
        want = np.random.SeedSequence(int(seed) if np.ndim(seed) == 0 else seed)
        assert World(seed=seed).seed_seq.entropy == want.entropy


def test_result_with_no_players():
    assert World().result() == "ongoing"
    assert World(batch=2).result().tolist() == [-1, -1]


def test_a_fork_refused_for_its_events_flag_hands_out_no_seed():
    """An array given as fork's events flag is refused before the fork takes a seed
    sequence child (its truth is ambiguous)."""
    w = World()
    w.add_player()
    with pytest.raises(IllegalActionError, match="fork's events"):
        w.fork(0, 2, events=np.array([True, False]))
    assert w.n_spawned == 0


def test_spawn_seeds_refused_hands_out_nothing():
    w = World(seed=1)
    refused(w, lambda: w.spawn_seeds(MAX_SEEDS + 1), InvalidGameError, str(MAX_SEEDS + 1))
    assert w.spawn_seeds(2)[0].spawn_key == (0,)


def test_per_game_amounts_follow_the_selection_not_the_batch():
    """ecs.args: with one id a 1-D amount array has one amount per selected game, in the
    order of games=; one of length batch with a subset selected is refused, not guessed."""
    w = World(batch=3)
    p = w.add_player()
    x = w.add_object(p, {"artifact"})
    w.put_counters(x, "charge", np.array([5, 7]), games=[2, 0])
    assert w.count(x, "charge").tolist() == [7, 0, 5]
    refused(w, lambda: w.put_counters(x, "charge", np.array([1, 2, 3]), games=[0, 2]),
            InvalidCountError, "3 amounts for 2 selected games")


@pytest.mark.parametrize("ids,n,end", [
    (2, [1, 2, 3], "amounts of shape (3,) do not fit (2, 2) (selected games, objects)"),
    (3, [5, 7], "amounts of shape (2,) do not fit (2, 3) (selected games, objects): a 1-D amount array has "
                "one amount per id; one per game is a (games, 1) array, n[:, None]"),
])
def test_amounts_of_another_shape_say_what_they_had_to_fit(ids, n, end):
    """ecs.args: a 1-D amount array with several ids has one amount per id; where its
    length is the number of games, the message says how to give one per game."""
    w = World(batch=2)
    p = w.add_player()
    objs = [w.add_object(p, {"artifact"}) for _ in range(ids)]
    err = refused(w, lambda: w.put_counters(objs, "charge", n), InvalidCountError, end)
    assert str(err).endswith(end), str(err)


def test_the_error_names_the_first_object_that_is_not_a_permanent():
    """701.21a: only a permanent can be sacrificed; of several, the first refused is named."""
    w = World(batch=2)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    cards = [w.add_object(p, {"creature"}, zone="graveyard", power=1, toughness=1) for _ in range(2)]
    refused(w, lambda: w.sacrifice([bear, *cards]), IllegalActionError,
            f"entity {cards[0]} in game 0 is not a permanent")


@pytest.mark.parametrize("ids", [lambda x: x, lambda x: [x], lambda x: np.array([x, x])])
def test_a_game_that_ended_is_left_as_it_ended_104_1(ids):
    """games=None selects the games still going: in a single game that ended (104.1) a
    put on one id, or on a few, changes nothing; naming the game raises GameOverError."""
    w = World()
    p, q = w.add_player(), w.add_player()
    x = w.add_object(p, {"artifact"})
    w.lose_life(q, 20)
    w.tick()
    before = state(w)
    w.put_counters(ids(x), "charge")
    assert state(w) == before
    refused(w, lambda: w.put_counters(ids(x), "charge", games=[0]), GameOverError, "game 0 has ended")


@pytest.mark.parametrize("read,types,kwargs,needle", [
    ("loyalty", "artifact", dict(loyalty=3), "it is not a planeswalker"),
    ("loyalty", "planeswalker", dict(zone="graveyard"), "a planeswalker without a printed loyalty"),
    ("defense", "land", dict(defense=2), "it is not a battle"),
    ("defense", "battle", dict(zone="exile"), "a battle without a printed defense"),
])
def test_a_missing_loyalty_or_defense_says_why(read, types, kwargs, needle):
    """Loyalty (209.1, 306.5) and defense (310.4) are a planeswalker's and a battle's: off
    the battlefield their printed numbers, so a read of either names what is missing, the
    type or the printed number (on the battlefield the counters are the stat: test_reads)."""
    w = World(seed=0)
    e = w.add_object(w.add_player(), types, **kwargs)
    with pytest.raises(InvalidTypeError, match=needle):
        getattr(w, read)(e)


@pytest.mark.parametrize("ruleset,make,error,needle", [
    # printed loyalty (306.5b), defense (310.4b) and GA durability are counts: never negative
    ("mtg", lambda w, p: w.add_object(p, {"planeswalker"}, loyalty=-1), InvalidCountError, "loyalty -1"),
    ("mtg", lambda w, p: w.add_object(p, {"battle"}, defense=-1), InvalidCountError, "defense -1"),
    ("grand_archive", lambda w, p: w.add_object(p, {"item"}, durability=-1), InvalidCountError,
     "durability -1"),
    # GA life is toughness by another name: both at once is ambiguous
    ("grand_archive", lambda w, p: w.add_object(p, {"champion"}, life=20, toughness=20),
     InvalidTypeError, "toughness or life"),
    ("mtg", lambda w, p: w.add_object(p, {"creature"}, keywords={"flyng"}), InvalidTypeError, "'flyng'"),
    ("mtg", lambda w, p: w.add_object(p, {"creature"}, counters=[("charge", 1)]), InvalidCountError,
     "counters must be a mapping"),
    ("mtg", lambda w, p: w.add_object(p, {"creature"}, caps=5), InvalidCountError, "caps must be a mapping"),
])
def test_an_object_of_bad_characteristics_is_refused_before_it_is_made(ruleset, make, error, needle):
    w = World(ruleset, batch=2)
    p = w.add_player()
    refused(w, lambda: make(w, p), error, needle)


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("ids", [lambda b, p: p, lambda b, p: [b, p]])
def test_122_1a_power_toughness_counters_on_a_player_are_refused(batch, ids):
    """122.1a: +X/+Y counters modify an object's power and toughness; a player has none,
    so putting them on a player (alone or among objects) is refused, naming the player."""
    w = World(batch=batch)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    refused(w, lambda: w.put_counters(ids(bear, p), "+1/+1"), IllegalActionError,
            f"entity {p} in game 0 is a player: '+1/+1' counters change power/toughness, which "
            "players don't have (CR 122.1a)")


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("kind", ["buff", "debuff"])
def test_ga_buff_1_debuff_1_stat_counters_on_a_player_are_refused_citing_ga(batch, kind):
    """GA Buff 1, Debuff 1: buff and debuff counters modify an object's power and life
    stats; a player is refused them as in Magic, the message citing Grand Archive's rule
    and stats, not Magic's."""
    w = World(ruleset="grand_archive", batch=batch)
    p = w.add_player()
    refused(w, lambda: w.put_counters(p, kind), IllegalActionError,
            f"entity {p} in game 0 is a player: {kind!r} counters change an object's power and "
            "life stats, which players don't have (GA Buff 1, Debuff 1)")


@pytest.mark.parametrize("batch", [1, 2])
def test_120_1_a_damage_source_of_id_minus_one_is_refused(batch):
    """A source is an object's id (120.1): -1, the id of nothing, is bad input naming the
    game, not an object that left."""
    w = World(batch=batch)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    refused(w, lambda: w.deal_damage(bear, 1, source=-1), InvalidTypeError,
            "source -1 for a target in game 0: a source is an object's id")


@pytest.mark.parametrize("act,error,needle", [
    (lambda w, p, x: w.move_zone(x, "battlefield", counters=[("charge", 1)]), InvalidCountError,
     "counters must be a mapping"),
    (lambda w, p, x: w.move_zone(x, "graveyard", counters={"a  b": 1}), InvalidKindError, "a  b"),
    # 122.6a: whoever puts the entering counters is a player
    (lambda w, p, x: w.move_zone(x, "battlefield", counters={"charge": 1}, by=x), IllegalActionError,
     "entity {x} is not a player"),
    (lambda w, p, x: w.add_object(p, {"artifact"}, counters={"charge": 1}, put_by=x), IllegalActionError,
     "entity {x} is not a player"),
])
def test_a_move_or_a_new_object_with_bad_counters_or_putter_is_refused_before_anything_moves(act, error, needle):
    w = World()
    p = w.add_player()
    x = w.add_object(p, {"artifact"}, zone="hand")
    refused(w, lambda: act(w, p, x), error, needle.format(x=x))
