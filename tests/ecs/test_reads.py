"""Reads at their edges: the first id never given out, an id whose slot another object of
another game took, objects of several types, a team's prohibitions (810.10c), the Grand
Archive's zone names, a loyalty or defense never printed (306.5c, 310.4c)."""
import numpy as np
import pytest
from scalar_paths import run_on
from state import full_state

from ecs import InvalidGameError, InvalidTypeError, UnknownEntityError, World


def test_the_next_id_was_never_given_out():
    """api.md: an id that never existed raises UnknownEntityError, the first unused one too;
    so does a bool, which is no id (though True equals the id 1 here)."""
    w = World()
    p = w.add_player()
    x = w.add_object(p, "creature", power=1, toughness=1)
    for read in (w.exists, lambda e: w.observe([e])):
        with pytest.raises(UnknownEntityError):
            read(x + 1)
    assert x == 1 and w.exists(x)
    with pytest.raises(UnknownEntityError, match="True"):
        w.exists(True)


def test_reads_of_an_id_in_a_game_where_its_slot_holds_another_object_are_none():
    """A token that left game 1 (704.5d) frees its slot there, and game 1's next object
    takes it: the token's reads in game 1 are none, not the new object's damage,
    counters, keywords, tapped status, power and toughness, zone, controller or owner; a kind of
    counter held in some games only is read in every game (0 where none)."""
    w = World(batch=2, seed=0)
    p, q = w.add_player(), w.add_player()
    x = w.add_object(p, "creature", power=5, toughness=5, token=True)
    w.destroy(x, games=[1])
    w.tick()
    y = w.add_object(p, "creature", power=5, toughness=5, games=[1])
    w.deal_damage(y, 2, games=[1])
    w.put_counters(y, "charge", 3, games=[1])
    w.put_counters(y, "flying", 1, games=[1])   # (a keyword counter, 122.1b)
    w.set_controller(y, q, games=[1])
    w.tap(y, games=[1])
    assert w.damage(x).tolist() == [0, 0] and "charge" not in w.counters(x)
    assert w.count(x, "charge").tolist() == [0, 0] and w.is_tapped(x).tolist() == [False, False]
    assert w.power(x).tolist() == [5, 0] and w.toughness(x).tolist() == [5, 0]
    assert w.zone(x).tolist() == ["battlefield", "none"]
    assert w.controller(x).tolist() == [p, -1] and w.owner(x).tolist() == [p, -1]
    assert w.keywords(x).tolist() == [frozenset()] * 2
    assert w.damage(y).tolist() == [0, 2] and w.counters(y)["charge"].tolist() == [0, 3]
    assert w.keywords(y).tolist() == [frozenset(), {"flying"}]


def test_objects_of_several_types_are_those_of_every_one():
    """api.md: objects(types=...) are the objects that have all the types."""
    w = World()
    p = w.add_player()
    w.add_object(p, "artifact")
    both = w.add_object(p, ["artifact", "creature"], power=1, toughness=1)
    assert w.objects(types=("artifact", "creature")) == [both]


def test_810_10c_a_prohibition_on_the_teams_first_player_is_the_teammates_too():
    w = World(two_headed_giant=True)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    w.add_player(team=1), w.add_player(team=1)
    w.prohibit(a1, "poison")
    assert w.is_prohibited(a2, "poison")
    w.put_counters(a2, "poison", 2)
    assert w.count(a2, "poison") == 0


def test_a_grand_archive_zone_is_observed_by_either_name():
    w = World(ruleset="grand_archive")
    p = w.add_player()
    champ = w.add_object(p, "champion", life=20)
    assert w.observe([champ], ["zone:field", "zone:battlefield"])[0][0, 0].tolist() == [1, 1]
    assert np.all(w.observe([champ], ["zone:graveyard"])[0] == 0)


def test_306_5c_310_4c_on_the_battlefield_the_counters_are_the_stat_printed_or_not():
    """A planeswalker or battle without a printed number (made so by an effect) has, on the
    battlefield, the loyalty or defense of its counters, as 704.5i and 704.5v read them; off
    it, none: one game, and a batch where it left in one game only."""
    w = World(batch=2, seed=0)
    p = w.add_player()
    walker = w.add_object(p, "planeswalker", counters={"loyalty": 3})
    siege = w.add_object(p, "battle", counters={"defense": 2})
    assert w.loyalty(walker).tolist() == [3, 3] and w.defense(siege).tolist() == [2, 2]
    obs, names = w.observe([walker, siege], ["loyalty", "has:loyalty", "defense", "has:defense"])
    assert obs[:, 0, :2].tolist() == [[3, 1]] * 2 and obs[:, 1, 2:].tolist() == [[2, 1]] * 2
    dead = w.move_zone(walker, "graveyard", games=[1])
    assert w.loyalty(walker).tolist() == [3, 0]   # gone from game 1: its id names nothing there
    with pytest.raises(InvalidTypeError, match="without a printed loyalty"):
        w.loyalty(dead)   # in game 1's graveyard, and not in game 0
    assert w.observe([dead], ["has:loyalty"])[0][:, 0, 0].tolist() == [0, 0]
    one = World(seed=0)
    q = one.add_player()
    x = one.add_object(q, "planeswalker", counters={"loyalty": 1})
    assert one.loyalty(x) == 1 and one.observe([x], ["has:loyalty"])[0][0, 0, 0] == 1
    one.remove_counters(x, "loyalty", 1)
    assert one.loyalty(x) == 0
    one.tick()   # 704.5i
    [gone] = one.objects(zone="graveyard")
    with pytest.raises(InvalidTypeError, match="without a printed loyalty"):
        one.loyalty(gone)
    assert one.observe([gone], ["loyalty", "has:loyalty"])[0][0, 0].tolist() == [0, 0]


def test_a_batchs_reads_are_the_callers_own_arrays():
    """A read of a batch is an array of its own: a caller that writes into it (scales
    life, clears a loss flag, blanks ids of ``object_mask``) changes nothing in the World."""
    w = World(batch=2, seed=0)
    p, q = w.add_player(), w.add_player()
    x = w.add_object(p, "creature", power=2, toughness=2)
    w.lose_life(q, 20, games=[1])
    w.tick()
    before = full_state(w)
    life, lost = w.life(q), w.has_lost(q)
    ids, mask = w.object_mask()
    assert life.tolist() == [20, 0] and lost.tolist() == [False, True] and x in ids[0]
    life[:] = 7
    lost[:] = False
    ids[:] = -1
    mask[:] = False
    assert full_state(w) == before
    assert w.life(q).tolist() == [20, 0] and w.has_lost(q).tolist() == [False, True]
    assert w.objects() == [x]


@pytest.mark.parametrize("batch", [1, 2])
def test_810_10_a_players_poison_counters_read_as_the_teams(batch):
    """In Two-Headed Giant poison counters are the team's (810.10): ``counters`` and
    ``count`` of either teammate read the team's total, in one game and in a batch;
    other kinds stay the player's own, and the other team has none."""
    w = World(two_headed_giant=True, batch=batch, seed=0)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    b1, _ = w.add_player(team=1), w.add_player(team=1)
    w.put_counters(a2, "poison", 3)
    w.put_counters(a1, "poison", 2)
    w.put_counters(a2, "rad", 1)
    for p, own in ((a1, {}), (a2, {"rad": 1})):
        assert np.all(w.count(p, "poison") == 5) and np.all(w.count(p, "rad") == own.get("rad", 0))
        got = {k: np.ravel(v).tolist() for k, v in w.counters(p).items()}
        assert got == {k: [n] * batch for k, n in {"poison": 5, **own}.items()}
    assert np.all(w.count(b1, "poison") == 0) and w.counters(b1) == {}


@pytest.mark.parametrize("batch", [1, 2])
def test_108_3_the_owner_stays_when_control_changes(batch):
    """108.3: an object's owner is the player it started under, the first player too; a
    control change (``set_controller``) changes its controller, not its owner."""
    w = World(batch=batch, seed=0)
    p, q = w.add_player(), w.add_player()
    x = w.add_object(p, "artifact")
    w.set_controller(x, q)
    assert np.all(w.owner(x) == p) and np.all(w.controller(x) == q)
    assert w.objects(controller=q) == [x] and w.objects(controller=p) == []


@pytest.mark.parametrize("batch", [1, 2])
def test_exists_finds_the_first_player_in_the_first_column(batch):
    """The first player is in every game's first column: it exists, in one game and in a
    batch, as a later object does; a token gone from one game does not exist there."""
    w = World(batch=batch, seed=0)
    p = w.add_player()
    x = w.add_object(p, "creature", power=1, toughness=1, token=True)
    assert np.all(w.exists(p)) and np.all(w.exists(x))
    w.destroy(x, games=[batch - 1])
    w.tick()
    assert np.ravel(w.exists(x)).tolist() == [True] * (batch - 1) + [False]


def test_122_1_a_kind_all_of_whose_counters_were_removed_is_not_read():
    """``counters`` of one game names the kinds the object has counters of (122.1): a kind
    whose counters were all removed is not among them, another still held is."""
    w = World()
    p = w.add_player()
    x = w.add_object(p, "artifact", counters={"charge": 2, "oil": 1})
    w.remove_counters(x, "charge", 2)
    assert w.counters(x) == {"oil": 1} and w.count(x, "charge") == 0


@pytest.mark.parametrize("batch", [1, 2])
def test_122_1a_power_and_toughness_are_each_their_own_stat(batch):
    """122.1a: a +1/+1 counter adds one to each of power and toughness; a 2/3 creature
    with one reads power 3 and toughness 4 (not one stat for both), one game or a batch."""
    w = World(batch=batch, seed=0)
    p = w.add_player()
    x = w.add_object(p, "creature", power=2, toughness=3, counters={"+1/+1": 1})
    assert np.all(w.power(x) == 3) and np.all(w.toughness(x) == 4)


@pytest.mark.parametrize("batch", [1, 2])
def test_208_3_a_noncreature_with_a_printed_power_has_none(batch):
    """208.3: a noncreature permanent has no power or toughness, even a card with them
    printed (a Vehicle): the reads raise InvalidTypeError, one game or a batch."""
    w = World(batch=batch, seed=0)
    p = w.add_player()
    vehicle = w.add_object(p, "artifact", power=3, toughness=3)
    for read in (w.power, w.toughness):
        with pytest.raises(InvalidTypeError, match="has no"):
            read(vehicle)


def test_209_1_310_4a_off_the_battlefield_a_batch_reads_the_printed_loyalty_and_defense():
    """209.1, 310.4a: a planeswalker or battle card in a hand has the printed loyalty or
    defense, in every game of a batch (there are no counters there to read)."""
    w = World(batch=2, seed=0)
    p = w.add_player()
    walker = w.add_object(p, "planeswalker", loyalty=4, zone="hand")
    siege = w.add_object(p, "battle", defense=5, zone="hand")
    assert w.loyalty(walker).tolist() == [4, 4] and w.defense(siege).tolist() == [5, 5]


@pytest.mark.parametrize("batch", [1, 2])
def test_209_1_only_a_planeswalker_has_loyalty_and_only_a_battle_defense(batch):
    """209.1, 310.4a: loyalty is a planeswalker's, defense a battle's: a creature given
    those numbers has neither (InvalidTypeError), one game or a batch."""
    w = World(batch=batch, seed=0)
    p = w.add_player()
    x = w.add_object(p, "creature", power=1, toughness=1, loyalty=3, defense=2, zone="hand")
    with pytest.raises(InvalidTypeError, match="not a planeswalker"):
        w.loyalty(x)
    with pytest.raises(InvalidTypeError, match="not a battle"):
        w.defense(x)


def test_the_first_name_given_is_read_as_given():
    """``name`` reads each object's name, the first one given too; an unnamed object has
    None."""
    w = World()
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2, name="Grizzly Bears")
    elf = w.add_object(p, "creature", power=1, toughness=1, name="Llanowar Elves")
    blank = w.add_object(p, "artifact")
    assert (w.name(bear), w.name(elf), w.name(blank)) == ("Grizzly Bears", "Llanowar Elves", None)


@pytest.mark.parametrize("path", ["scalar", "general"])
@pytest.mark.parametrize("batch, scalar_reads", [(2, True), (1, False)])
def test_a_name_is_one_str_in_a_batch_too_read_where_the_id_still_is(batch, scalar_reads, path):
    """An id names one card: ``name`` is one ``str`` (None unnamed) where every other read
    is per game, in a batch and with ``scalar_reads=False`` too; where the id has left some
    games (400.7), it is read in a game it is still in."""
    w = World(batch=batch, scalar_reads=scalar_reads)
    p = w.add_player()
    rock = w.add_object(p, "artifact", name="Mind Stone")
    blank = w.add_object(p, "artifact")
    if batch > 1:
        w.destroy(rock, games=0)
    with run_on(path):
        assert w.name(rock) == "Mind Stone" and w.name(blank) is None
        assert isinstance(w.zone(blank), np.ndarray)   # (the reads beside it are per game)


@pytest.mark.parametrize("batch", [1, 2])
def test_810_9_teammates_read_the_teams_shared_life_total(batch):
    """810.9: a Two-Headed Giant team has one shared life total (30): life lost by one
    teammate is read from either; the other team's is its own."""
    w = World(two_headed_giant=True, batch=batch, seed=0)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    b1, b2 = w.add_player(team=1), w.add_player(team=1)
    w.lose_life(a2, 3)
    for p, life in ((a1, 27), (a2, 27), (b1, 30), (b2, 30)):
        assert np.all(w.life(p) == life)


def test_objects_of_a_game_past_the_batch_raise():
    """``objects(game=...)`` names a game of the batch: the index one past the last raises
    InvalidGameError."""
    w = World(batch=2, seed=0)
    w.add_player()
    assert w.objects(game=1) == []
    with pytest.raises(InvalidGameError):
        w.objects(game=2)


def test_104_2a_104_4a_one_games_result_is_ongoing_a_draw_or_the_winners_id():
    """A game goes on ("ongoing") until one player is left (104.2a: that player's id) or
    all lose at once (104.4a: "draw"); a batch reads ONGOING (-1), DRAW (-2) or the id."""
    games = []
    for losers in ((), (0,), (0, 1)):
        w = World()
        p, q = w.add_player(), w.add_player()
        for i in losers:
            w.lose_life((p, q)[i], 20)
        w.tick()
        games.append(w.result())
    assert games == ["ongoing", q, "draw"]
    w = World(batch=3, seed=0)
    p, q = w.add_player(), w.add_player()
    w.lose_life(p, 20, games=[1, 2])
    w.lose_life(q, 20, games=[2])
    w.tick()
    assert w.result().tolist() == [-1, q, -2]


def test_objects_in_a_zone_are_those_of_that_zone_only():
    """``objects(zone=...)`` and ``object_mask(zone=...)`` name the objects of that zone,
    no other; players are objects of no zone."""
    w = World()
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    card = w.add_object(p, "instant", zone="hand")
    assert w.objects(zone="hand") == [card] and w.objects(zone="battlefield") == [bear]
    ids, mask = w.object_mask(zone="hand")
    assert ids[0][mask[0]].tolist() == [card]


@pytest.mark.parametrize("path", ["scalar", "general"])
@pytest.mark.parametrize("batch", [1, 2])
def test_122_1b_keywords_are_a_frozenset_of_printed_keywords_and_keyword_counters(path, batch):
    """api.md: keywords(e) is the printed keywords plus the keyword counters (122.1b), a
    frozenset (hashable, immutable); a batch reads one frozenset per game."""
    with run_on(path):
        w = World(batch=batch)
        p = w.add_player()
        bear = w.add_object(p, "creature", power=2, toughness=2, keywords=("trample",))
        w.put_counters(bear, "flying")
        read = w.keywords(bear)
        per_game = [read] if batch == 1 else list(read)
        assert len(per_game) == batch
        for kws in per_game:
            assert type(kws) is frozenset and kws == {"trample", "flying"}
            assert hash(kws) == hash(frozenset({"trample", "flying"}))


@pytest.mark.parametrize("path", ["scalar", "general"])
@pytest.mark.parametrize("batch", [1, 2])
def test_122_1a_208_3_a_noncreatures_power_raises_naming_the_entity_and_stat(path, batch):
    """A noncreature has no power or toughness (122.1a, 208.3), printed or not: the read
    raises InvalidTypeError naming the entity and the stat, in one game and a batch."""
    w = World(batch=batch)
    p = w.add_player()
    rock = w.add_object(p, "artifact", power=3, toughness=3)
    with run_on(path):
        for read, stat in ((w.power, "power"), (w.toughness, "toughness")):
            with pytest.raises(InvalidTypeError, match=f"^entity {rock} has no {stat}$"):
                read(rock)


def test_122_1_count_checks_the_kind_against_the_ruleset_in_force():
    """122.1: a kind is read under the rules the World plays by now: after a host's ruleset
    that has no -1/-1 counters is installed, ``count`` of -1/-1 raises InvalidKindError as
    ``put_counters`` does, although a plane of -1/-1 counters is still in the store."""
    from ecs import InvalidKindError
    from ecs.rules import Magic

    class NoMinus(Magic):
        def validate_kind(self, kind):
            if kind == "-1/-1":
                raise InvalidKindError("this host's game has no -1/-1 counters")
            return super().validate_kind(kind)

    w = World()
    c = w.add_object(w.add_player(), "creature", power=3, toughness=3)
    w.put_counters(c, "-1/-1", 1)
    assert w.count(c, "-1/-1") == 1
    w.ruleset = NoMinus()
    for read in (lambda: w.count(c, "-1/-1"), lambda: w.put_counters(c, "-1/-1", 1)):
        with pytest.raises(InvalidKindError):
            read()
