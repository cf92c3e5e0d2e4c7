"""observe(): every feature against a reference built from the reads; a missing stat told
apart from a real 0 by its ``has:<stat>`` mask."""
from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from ecs import CounterError, InvalidKindError, InvalidTypeError, World
from ecs.components import TYPE_BIT
from ecs.components.card import NO_STAT
from ecs.kinds import pt_modifier

STATS = ("power", "toughness", "loyalty", "defense", "life")


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_has_stat_masks_tell_a_missing_stat_from_a_real_zero(dtype):
    """A 0/0 creature, a noncreature artifact, a 0-loyalty planeswalker, a 0-defense
    battle and a player at 0 life: every value reads 0; the masks say which exist."""
    w = World(batch=2)
    p = w.add_player()
    w.lose_life(p, 20, games=[0])
    zero = w.add_object(p, "creature", power=0, toughness=0)
    rock = w.add_object(p, "artifact")
    walker = w.add_object(p, "planeswalker", loyalty=0)
    battle = w.add_object(p, "battle", defense=0)
    ids = [zero, rock, walker, battle, p]
    obs, names = w.observe(ids, dtype=dtype)
    col = {n: i for i, n in enumerate(names)}
    assert all(f"has:{s}" in col for s in STATS)
    want = {zero: {"power", "toughness"}, rock: set(), walker: {"loyalty"},
            battle: {"defense"}, p: {"life"}}
    for j, e in enumerate(ids):
        for s in STATS:
            assert obs[0, j, col[s]] == 0
            assert obs[:, j, col[f"has:{s}"]].tolist() == [s in want[e]] * 2, (e, s)
    assert obs[1, 4, col["life"]] == 20
    assert not np.isnan(obs.astype(np.float64)).any()


def test_208_3_a_noncreature_with_printed_power_has_none_in_reads_and_observations():
    """208.3: a noncreature permanent has no power or toughness, even with them printed
    (a Vehicle): ``power()`` raises and ``has:power`` is 0, one rule (the ruleset's
    ``pt_exists``) for both."""
    w = World()
    p = w.add_player()
    vehicle = w.add_object(p, "artifact", power=3, toughness=3)
    obs, _ = w.observe([vehicle], ["has:power", "has:toughness", "power"])
    assert obs[0].tolist() == [[0, 0, 0]]
    with pytest.raises(InvalidTypeError):
        w.power(vehicle)


def test_613_4b_a_batch_reads_power_where_each_game_has_it():
    """A */* creature whose power the host set in one game only (613.4b): a batch reads
    it there and 0 in the game where it has none, as ``observe`` does; where no game has
    it, the read raises as one game's does."""
    w = World(batch=2)
    p = w.add_player()
    star = w.add_object(p, "creature")
    with pytest.raises(InvalidTypeError):
        w.power(star)
    w.set_pt(star, 4, 5, games=[1])
    assert w.power(star).tolist() == [0, 4] and w.toughness(star).tolist() == [0, 5]
    obs, _ = w.observe([star], ["has:power", "power"])
    assert obs[:, 0].tolist() == [[0, 0], [1, 4]]


def test_has_stat_of_ga_objects_and_absent_rows():
    """GA life is stored as toughness: has:toughness is its mask; a padded or stale row
    is all zeros, masks included."""
    w = World(ruleset="grand_archive")
    p = w.add_player()
    champ = w.add_object(p, "champion", life=20, level=1)
    item = w.add_object(p, "item")
    obs, names = w.observe([champ, item, -1], ["has:power", "has:toughness", "present"])
    assert obs[0].tolist() == [[0, 1, 1], [0, 0, 1], [0, 0, 0]]


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_ga_level_and_durability_features_read_as_the_stat_reads(batch, dtype):
    """GA stats observed as read: ``level`` is LV, ``stat(e, "level")`` (the base level plus
    level counters on a champion, Level Counters 1-2; on an ally they do nothing),
    ``base_level`` is ``base_level(e)``, ``durability`` is ``stat(e, "durability")`` (the
    durability counters on the field, the printed stat elsewhere: Stats: Durability 1), and
    ``has:level``, ``has:durability`` are 1 where the stat is printed. A missing stat (the
    read raises) reads 0, as does an absent row (a card moved in one game: a new object).
    One game and a batch whose games differ; the default features do not grow."""
    w = World(ruleset="grand_archive", batch=batch, seed=0)
    a, b = w.add_player(), w.add_player()
    champ = w.add_object(a, "champion", life=20, level=1)
    w.add_object(b, "champion", life=20, level=0)
    bare = w.add_object(a, "champion", life=5)                    # no level stat
    ally = w.add_object(a, "ally", power=1, life=2, level=2)      # a level, not a champion's
    sword = w.add_object(a, "weapon", power=1, durability=3)      # enters with 3 (Durability 1)
    spare = w.add_object(a, "weapon", power=1, durability=2, zone="hand")
    item = w.add_object(a, "item", durability=0)
    last = [batch - 1]
    w.put_counters(champ, "level", 2, games=last)
    w.put_counters(ally, "level", 1)
    w.put_counters(spare, "durability", 4)                        # off the field: the printed 2
    w.remove_counters(sword, "durability", 1)
    moved = int(np.max(w.move_zone(sword, "hand", games=last)))   # stale there, printed 3 in hand
    ids = [champ, bare, ally, sword, spare, item, moved, a, -1]
    reads = {"level": lambda e: w.stat(e, "level"), "base_level": w.base_level,
             "durability": lambda e: w.stat(e, "durability")}
    obs, _ = w.observe(ids, [*reads, "has:level", "has:durability"], dtype=dtype)
    for j, e in enumerate(ids):
        for g in range(batch):
            want = [0] * 5
            if e >= 0 and np.atleast_1d(w.exists(e))[g]:
                for f, read in enumerate(reads.values()):
                    try:
                        want[f] = int(np.atleast_1d(read(e))[g])
                        want[3 + (f == 2)] = 1
                    except InvalidTypeError:   # not printed (here: in no game)
                        pass
            assert obs[g, j].tolist() == want, (g, w.name(e) if e >= 0 else e, want)
    assert obs[-1, 0, :2].tolist() == [3, 1]   # LV 1 + 2 level counters, base level 1
    assert not {"level", "base_level", "durability", "has:level", "has:durability"} & set(w.observation_features())


def test_no_features_of_absent_rows_is_an_empty_observation():
    """An empty feature list gives (B, m, 0), padded and stale rows among the ids too."""
    w = World(batch=2)
    p = w.add_player()
    ids = w.add_objects(2, p, "creature", power=1, toughness=1)
    w.destroy(ids[0], games=[1])
    obs, names = w.observe([*ids, -1], [])
    assert obs.shape == (2, 3, 0) and names == []


@pytest.mark.parametrize("batch", [1, 2])
def test_int32_observations_saturate_and_never_wrap(batch):
    """Life (int64) and power/toughness (printed + modifications + counters, int64) may pass
    int32's range: an int32 observation reads its bound there, never a wrapped value; the
    float32 one keeps the value's magnitude."""
    w = World(batch=batch)
    p = w.add_player(life=2**40)
    big = w.add_object(p, "creature", power=2**30, toughness=2**30)
    small = w.add_object(p, "creature", power=0, toughness=0)
    w.put_counters(big, "+1/+1", 2**31 - 1)
    w.modify_pt(small, -2**30, -2**30)
    w.put_counters(small, "-1/-1", 2**31 - 1)
    obs, _ = w.observe([p, big, small], ["life", "power", "toughness"], dtype=np.int32)
    top, bottom = 2**31 - 1, -2**31
    assert obs[:, 0, 0].tolist() == [top] * batch
    assert obs[:, 1, 1:].tolist() == [[top, top]] * batch
    assert obs[:, 2, 1:].tolist() == [[bottom, bottom]] * batch
    flt, _ = w.observe([p], ["life"])
    assert flt[:, 0, 0].tolist() == [2.0**40] * batch


def test_has_stat_rejects_unknown_stats():
    w = World()
    w.add_player()
    with pytest.raises(InvalidTypeError, match="has:speed"):
        w.observe([0], ["has:speed"])


def test_two_headed_giant_poison_is_observed_as_the_teams() -> None:
    """810.10: in Two-Headed Giant a player's poison counters are the team's, so each
    teammate observes the team's count, as ``counters`` reads it, and an object its own."""
    w = World(batch=2, two_headed_giant=True, seed=3)
    a1, a2, b1 = w.add_player(team=0), w.add_player(team=0), w.add_player(team=1)
    bear = w.add_object(a1, "creature", toughness=3)
    w.put_counters(a2, "poison", np.array([[2], [5]]))
    w.put_counters(b1, "poison", 1)
    w.put_counters(bear, "poison", 4)
    obs, _ = w.observe([a1, a2, b1, bear], ["counter:poison"], dtype=np.int32)
    assert obs[:, :, 0].tolist() == [[2, 2, 1, 4], [5, 5, 1, 4]]
    for j, e in enumerate((a1, a2, b1, bear)):
        assert obs[:, j, 0].tolist() == list(w.counters(e)["poison"])


# ---- observe against a reference built from the public reads ----------------------------
TYPES = ("creature", "planeswalker", "battle", "artifact", "land")
KINDS = ("+1/+1", "-1/-1", "+2/+0", "loyalty", "defense", "flying", "hexproof from black", "charge")
ZONES = ("graveyard", "exile", "hand")
EXTRA = ["zone", "type:creature", "type:planeswalker", "type:player", "keyword:flying",
         "keyword:hexproof", "keyword:trample", "counter:poison", "counter:never used"]


def _reference(w: World, ids: np.ndarray, names: list[str]) -> np.ndarray:
    """``observe`` slowly, one game, object and feature at a time, from the reads
    (``counters``, ``zone``, ``loyalty``, ``life``...; raw fields only for what no read
    gives: the token flag, the card types, a printed stat's presence), and power and
    toughness from 613.4's layers in the test (printed or set, 7b; modified and counters,
    7c), not from the engine's formula."""
    from ecs import zones
    slots, _ = w.object_mask()
    players = w.players()
    out = np.zeros(ids.shape + (len(names),), np.int64)

    def per_game(value, g):   # a batched read gives one value per game
        return value[g] if w.batch > 1 or isinstance(value, np.ndarray) else value

    for g in range(w.batch):
        for j, e in enumerate(ids[g].tolist()):
            if e < 0 or not per_game(w.exists(e), g):
                continue
            col = int(np.flatnonzero(slots[g] == e)[0])
            a = {f: int(w.store.a[f][g, col]) for f in ("token", "types", "power", "toughness",
                                                        "loyalty", "defense")}
            zone = str(per_game(w.zone(e), g))
            is_player = zone == "player"
            typed = {t: bool(a["types"] & TYPE_BIT[t]) for t in TYPE_BIT}
            # 208.3 / 613.4b: a creature's power and toughness, printed or set (a vehicle's printed
            # power is none)
            pt = {f: typed["creature"] and (a[f] != NO_STAT or int(w.store.a["pt_set_" + f][g, col]) != NO_STAT)
                  for f in ("power", "toughness")}
            has = {"power": pt["power"], "toughness": pt["toughness"],
                   "loyalty": a["loyalty"] != NO_STAT and typed["planeswalker"],
                   "defense": a["defense"] != NO_STAT and typed["battle"], "life": is_player}
            counters = {k: int(per_game(v, g)) for k, v in w.counters(e).items()}
            kws = per_game(w.keywords(e), g)   # (a keyword counter's variant by its whole name)
            for f, name in enumerate(names):
                kind, _, arg = name.partition(":")
                if name == "present":
                    v = 1
                elif name == "zone":
                    v = zones.CODE[zone]
                elif kind == "zone":
                    v = zone == arg
                elif name == "tapped":
                    v = bool(per_game(w.is_tapped(e), g)) if not is_player else False
                elif name == "token":
                    v = a["token"]
                elif name == "controller":
                    v = players.index(int(per_game(w.controller(e), g))) if not is_player else int(
                        w.store.a["controller"][g, col])
                elif name in ("power", "toughness"):   # 613.4: printed or set (7b), then 7c
                    set_to = int(w.store.a["pt_set_" + name][g, col])
                    v = ((a[name] if set_to == NO_STAT else set_to) + int(w.store.a["pt_mod_" + name][g, col])
                         + sum(n * (pt_modifier(k) or (0, 0))[name == "toughness"] for k, n in counters.items())
                         if has[name] else 0)
                elif name in ("loyalty", "defense"):
                    v = int(per_game(getattr(w, name)(e), g)) if has[name] else 0
                elif name == "damage":
                    v = int(per_game(w.damage(e), g)) if not is_player else 0
                elif name in ("life", "lost"):
                    read = w.life if name == "life" else w.has_lost
                    v = int(per_game(read(e), g)) if is_player else 0
                elif kind == "has":
                    v = has[arg]
                elif kind == "counter":
                    v = counters.get(arg, 0)
                elif kind == "type":
                    v = typed[arg]
                else:
                    v = any(k == arg or k.startswith(arg + " ") for k in kws)
                out[g, j, f] = int(v)
    return out


@given(data=st.data())
@settings(max_examples=examples(100))
def test_observe_matches_a_reference_of_the_reads(data) -> None:
    """Every feature of every id ever made (stale ones and -1 pads too), in one or three
    games, two-headed or not, after random puts, damage, taps, zone changes (400.7), a
    host's set and modified power/toughness (613.4b, c) and ticks (704): what the reads
    say, feature by feature."""
    batch = data.draw(st.sampled_from([1, 3]), label="batch")
    thg = data.draw(st.booleans(), label="two-headed giant")
    w = World(batch=batch, seed=0, two_headed_giant=thg)
    players = [w.add_player(team=t) for t in ((0, 0, 1) if thg else (0, 1))]
    made = list(players)
    for _ in range(data.draw(st.integers(2, 6), label="objects")):
        types = data.draw(st.sampled_from(TYPES))
        stats = {"creature": dict(power=data.draw(st.integers(0, 3)), toughness=data.draw(st.integers(1, 4))),
                 "planeswalker": dict(loyalty=data.draw(st.integers(1, 4))),
                 "battle": dict(defense=data.draw(st.integers(1, 4)))}.get(types, {})
        if data.draw(st.booleans()):   # a printed stat its type does not use (a vehicle's power)
            stats[data.draw(st.sampled_from(["power", "loyalty", "defense"]))] = 2
        made.append(w.add_object(data.draw(st.sampled_from(players)), types,
                                 token=data.draw(st.booleans()),
                                 keywords=data.draw(st.sets(st.sampled_from(["flying", "trample"]))),
                                 **stats))
    games = st.one_of(st.none(), st.lists(st.integers(0, batch - 1), min_size=1, max_size=batch, unique=True))
    for _ in range(data.draw(st.integers(0, 10), label="actions")):
        e = data.draw(st.sampled_from(made if data.draw(st.booleans()) else made[len(players):]))
        act = data.draw(st.sampled_from(["put", "put", "damage", "tap", "move", "set_pt", "modify_pt",
                                         "poison", "tick"]))
        try:
            if act == "put":
                w.put_counters(e, data.draw(st.sampled_from(KINDS)), data.draw(st.integers(1, 3)),
                               games=data.draw(games))
            elif act == "damage":
                w.deal_damage(e, data.draw(st.integers(1, 3)), games=data.draw(games))
            elif act == "tap":
                w.tap(e, games=data.draw(games))
            elif act == "move":
                new = w.move_zone(e, data.draw(st.sampled_from(ZONES)), games=data.draw(games))
                made.extend(int(x) for x in np.unique(new) if x >= 0)
            elif act == "set_pt":
                w.set_pt(e, power=data.draw(st.integers(0, 5)), games=data.draw(games))
            elif act == "modify_pt":
                w.modify_pt(e, power=data.draw(st.integers(-1, 2)), toughness=data.draw(st.integers(-1, 2)),
                            games=data.draw(games))
            elif act == "poison":
                w.put_counters(data.draw(st.sampled_from(players)), "poison", 1, games=data.draw(games))
            else:
                w.tick()
        except CounterError:   # an illegal action changes nothing (atomic); go on
            pass
    names = w.observation_features() + EXTRA
    ids = np.array(made + [-1])
    if batch > 1 and data.draw(st.booleans(), label="per-game ids"):
        per = np.array([data.draw(st.permutations(ids.tolist())) for _ in range(batch)])
    else:
        per = np.broadcast_to(ids, (batch, ids.size))
    obs, got_names = w.observe(per if per.base is None else ids, names, dtype=np.int32)
    assert got_names == names
    np.testing.assert_array_equal(obs, _reference(w, np.asarray(per), names))


def test_a_feature_list_observed_again_follows_new_kinds_and_the_ruleset() -> None:
    """``observe`` compiles a feature list once: a kind that appears later (a new counter
    plane), another World's ruleset or Two-Headed Giant must not reuse what it compiled."""
    feats = ["counter:-1/-1", "counter:+1/+1", "counter:poison", "toughness", "keyword:flying"]
    w = World(seed=0)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    assert w.observe([bear], feats, dtype=np.int32)[0][0, 0].tolist() == [0, 0, 0, 2, 0]
    w.put_counters(bear, "+1/+1", 3)
    w.put_counters(bear, "flying", 1)
    assert w.observe([bear], feats, dtype=np.int32)[0][0, 0].tolist() == [0, 3, 0, 5, 1]
    w.put_counters(bear, "-1/-1", 1)   # (a plane before +1/+1's in a fresh World's order)
    assert w.observe([bear], feats, dtype=np.int32)[0][0, 0].tolist() == [1, 3, 0, 4, 1]
    for ruleset in ("mtg", "grand_archive"):   # no kind yet in either: the same kinds layout
        game = World(ruleset=ruleset, seed=0)
        p = game.add_player()
        if ruleset == "mtg":
            assert game.observe([p], ["counter:+1/+1"], dtype=np.int32)[0].tolist() == [[[0]]]
        else:   # a Magic kind, which the Grand Archive's ruleset refuses
            with pytest.raises(InvalidKindError):
                game.observe([p], ["counter:+1/+1"])
    for two_headed, seen in ((False, [0, 2]), (True, [2, 2])):   # 810.10: the team's poison
        game = World(seed=0, two_headed_giant=two_headed)
        a1, a2 = game.add_player(team=0), game.add_player(team=0)
        game.put_counters(a2, "poison", 2)   # (the same kinds in both Worlds)
        assert game.observe([a1, a2], ["counter:poison"], dtype=np.int32)[0][0, :, 0].tolist() == seen


@pytest.mark.parametrize("ids", [[2**64 - 1], np.array([2**64 - 1], np.uint64), [2**63], [True], [1.0]],
                         ids=["2**64-1", "uint64", "2**63", "bool", "float"])
def test_ids_past_int64_or_not_integers_are_refused_not_wrapped(ids):
    """An id is an integer of 0..MAX_ID (or -1, padding): 2**64 - 1 wrapped to -1 and read
    as padding, a row of zeros; now it is refused, naming it as given."""
    from ecs import UnknownEntityError
    w = World()
    p = w.add_player()
    w.add_object(p, "creature", power=2, toughness=2)
    with pytest.raises(UnknownEntityError, match=r"^entity (\d+ is outside -1\.\.|must be an integer)"):
        w.observe(ids, ["present", "power"])


@pytest.mark.parametrize("batch", [1, 2])
def test_pads_observed_before_any_object_is_made_are_rows_of_zeros(batch):
    """A -1 pad is no object: in a World with no object yet (every slot free) its row is
    all zeros, ``present`` included, as it is once objects exist."""
    w = World(batch=batch)
    obs, names = w.observe([-1, -1])
    assert obs.shape == (batch, 2, len(names)) and not obs.any()
    p = w.add_player()
    obs, _ = w.observe([-1, p], ["present"])
    assert obs[:, :, 0].tolist() == [[0, 1]] * batch


def test_zone_features_name_a_zone_of_the_ruleset():
    """``zone:<name>`` is one of the zones an object can be in, or a ruleset's name for
    one: another name (a player's pseudo-zone, another ruleset's name) is an unknown
    feature, InvalidTypeError as for any other."""
    w = World()
    p = w.add_player()
    for name in ("zone:player", "zone:none", "zone:field", "zone:nowhere"):
        with pytest.raises(InvalidTypeError, match=f"unknown feature '{name}'"):
            w.observe([p], [name])


def test_one_id_observes_as_a_list_of_it_and_ids_or_features_of_another_shape_are_refused():
    """One id is a list of one; ids of a shape other than (m,) or (batch, m) raise
    InvalidGameError naming the shape (a (1, m) array is not broadcast to every game), and
    one string of features raises InvalidTypeError, not read as its letters."""
    from ecs import InvalidGameError
    w = World(batch=2)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    one, names = w.observe(bear, ["present", "power"])
    assert names == ["present", "power"] and one.tolist() == w.observe([bear], names)[0].tolist() == [[[1, 2]]] * 2
    for ids in (np.array([[bear, p]]), np.array([[bear]] * 3), np.array([[[bear]]] * 2)):
        with pytest.raises(InvalidGameError, match=re.escape(f"ids of shape {ids.shape}")):
            w.observe(ids, ["present"])
    for features in ("", "present"):
        with pytest.raises(InvalidTypeError, match="not one string"):
            w.observe([bear], features)



def test_ga_a_printed_negative_level_is_a_level():
    """A level is printed where it is not NO_STAT, negative too (a printed stat may be as
    low as -MAX_STAT): ``has:level`` is 1 and ``level``/``base_level`` read as
    ``stat(e, "level")`` and ``base_level(e)`` (LV: the base level plus a champion's level
    counters, Level Counters 1-2)."""
    w = World(ruleset="grand_archive")
    p = w.add_player()
    ally = w.add_object(p, "ally", power=1, life=1, level=-1)
    champ = w.add_object(p, "champion", life=20, level=-2)
    w.put_counters(champ, "level", 3)
    obs, _ = w.observe([ally, champ], ["has:level", "level", "base_level"], dtype=np.int32)
    assert obs[0].tolist() == [[1, w.stat(e, "level"), w.base_level(e)] for e in (ally, champ)]
    assert obs[0, :, 1].tolist() == [-1, 1]


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.int16, bool, "no such dtype", object])
def test_an_observation_dtype_other_than_float32_or_int32_is_refused(dtype):
    """``dtype`` is float32 or int32: another, or a name NumPy does not know, raises
    InvalidTypeError naming it."""
    w = World()
    p = w.add_player()
    with pytest.raises(InvalidTypeError, match="observe dtype must be float32 or int32"):
        w.observe([p], ["present"], dtype=dtype)


def test_the_next_id_not_yet_made_is_unknown():
    """An id is known once made: the next one is not yet, ``UnknownEntityError`` naming it
    (not a row of zeros as for an id that existed and is gone)."""
    from ecs import UnknownEntityError
    w = World()
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    with pytest.raises(UnknownEntityError, match=f"entity {bear + 1} does not exist"):
        w.observe([bear, bear + 1], ["present"])


def test_an_id_in_different_columns_in_different_games_is_observed_in_each_games_own():
    """An object made in every game after one made in one game only sits in different
    columns in the two games: each game observes it where it is there, as the reads do."""
    w = World(batch=2)
    p = w.add_player()
    w.add_object(p, "artifact", games=[0])
    bear = w.add_object(p, "creature", power=2, toughness=3)
    w.put_counters(bear, "+1/+1", [1, 2])
    obs, _ = w.observe([bear], ["present", "type:creature", "power", "toughness"], dtype=np.int32)
    assert obs[:, 0].tolist() == [[1, 1, 3, 4], [1, 1, 4, 5]]
    assert w.power(bear).tolist() == [3, 4]


@pytest.mark.parametrize("batch", [1, 2])
def test_306_5c_310_4c_a_permanent_without_a_printed_value_has_its_loyalty_or_defense_counters(batch):
    """A planeswalker (or battle) with no printed loyalty (defense) has the stat on the
    battlefield, its counters (306.5c, 310.4c): ``has:loyalty`` is 1 and ``loyalty`` reads
    them, as ``loyalty()`` does; in a graveyard it has none."""
    w = World(batch=batch)
    p = w.add_player()
    walker = w.add_object(p, "planeswalker")
    battle = w.add_object(p, "battle")
    w.put_counters(walker, "loyalty", 2)
    w.put_counters(battle, "defense", 3)
    names = ["has:loyalty", "loyalty", "has:defense", "defense"]
    obs, _ = w.observe([walker, battle], names, dtype=np.int32)
    assert obs[:, 0].tolist() == [[1, 2, 0, 0]] * batch and obs[:, 1].tolist() == [[0, 0, 1, 3]] * batch
    assert np.all(w.loyalty(walker) == 2) and np.all(w.defense(battle) == 3)
    gone = w.move_zone(walker, "graveyard")
    assert not w.observe([gone], names)[0].any()


def test_zone_features_apart_and_a_rulesets_names_for_zones():
    """Zone features need not be side by side in the list, and a ruleset's own name for a
    zone (Grand Archive's field, banishment) is its zone's feature."""
    w = World(ruleset="grand_archive")
    p = w.add_player()
    champ = w.add_object(p, "champion", life=20, level=1)
    item = w.add_object(p, "item", zone="banishment")
    names = ["zone:field", "present", "zone:banishment", "zone:battlefield", "zone:hand"]
    obs, _ = w.observe([champ, item], names, dtype=np.int32)
    assert obs[0].tolist() == [[1, 1, 0, 1, 0], [0, 1, 1, 0, 0]]


@pytest.mark.parametrize("feature", ["type:wizard", "keyword:teleport", "colour", 3, None],
                         ids=["type", "keyword", "name", "int", "None"])
def test_an_unknown_feature_is_refused_naming_it(feature):
    """A card type, keyword or feature that does not exist, or a name that is no string,
    raises InvalidTypeError naming it (not a KeyError or AttributeError of a look-up)."""
    w = World()
    p = w.add_player()
    with pytest.raises(InvalidTypeError, match=re.escape(repr(feature))):
        w.observe([p], ["present", feature])


def test_default_features_are_fixed_then_counter_kinds_in_order_of_first_use():
    """``observation_features()`` is a fixed layout (present, the zone one-hots, flags and
    stats, the five ``has:`` masks) and then one ``counter:<kind>`` per kind in the order
    the World first used it: a new kind appends, so an earlier layout stays a prefix."""
    w = World()
    p = w.add_player()
    fixed = (["present"] + [f"zone:{z}" for z in ("library", "hand", "battlefield", "graveyard", "stack",
                                                   "exile", "command", "memory")]
             + ["tapped", "token", "controller", "power", "toughness", "loyalty", "defense", "damage",
                "life", "lost", "has:power", "has:toughness", "has:loyalty", "has:defense", "has:life"])
    assert w.observation_features() == fixed
    bear = w.add_object(p, "creature", power=2, toughness=2)
    w.put_counters(bear, "charge", 1)
    w.put_counters(bear, "+1/+1", 2)
    assert w.observation_features() == fixed + ["counter:charge", "counter:+1/+1"]
    obs, names = w.observe([bear], dtype=np.int32)
    assert obs[0, 0, names.index("power")] == 4 and obs[0, 0, names.index("toughness")] == 4
    assert obs[0, 0, -2:].tolist() == [1, 2]


def test_only_a_player_has_life_not_a_card_in_grand_archives_memory():
    """``has:life`` is 1 on a player's row alone: a card in any zone, Grand Archive's memory
    too, has no player life (``life`` reads 0 there; a GA champion's own life is its
    ``toughness``)."""
    w = World(ruleset="grand_archive")
    p = w.add_player(life=7)
    ally = w.add_object(p, "ally", power=1, life=2, zone="memory")
    champ = w.add_object(p, "champion", life=20, level=1)
    obs, _ = w.observe([ally, champ, p], ["has:life", "life"], dtype=np.int32)
    assert obs[0].tolist() == [[0, 0], [0, 0], [1, 7]]


def test_an_unhashable_feature_name_is_refused_as_no_string():
    """A feature name that is no string is InvalidTypeError naming it, an unhashable one
    (a list) too: not the TypeError of a cache look-up."""
    w = World()
    p = w.add_player()
    with pytest.raises(InvalidTypeError, match=re.escape("['power']")):
        w.observe([p], ["present", ["power"]])


def test_per_game_ids_pad_and_stale_rows_are_zeros():
    """A (batch, m) id array: a -1 pad, and an id gone from one game (it changed zones,
    400.7), give a row of zeros in that game, ``present`` 0, as one id list does."""
    w = World(batch=2)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    w.move_zone(bear, "graveyard", games=[1])
    obs, _ = w.observe(np.array([[bear, -1], [-1, bear]]), ["present", "power"], dtype=np.int32)
    assert obs.tolist() == [[[1, 2], [0, 0]], [[0, 0], [0, 0]]]


@pytest.mark.parametrize("batch", [1, 2])
def test_ga_level_counters_past_int32_are_summed_and_saturate_in_int32(batch):
    """Level Counters 1-2: LV is the base level plus a champion's level counters; the sum
    of a printed level at its bound and int32's largest count is read whole by ``stat``
    and the float32 observation, and an int32 observation reads int32's bound, never a
    wrapped value."""
    from ecs.limits import MAX_COUNT, MAX_STAT
    w = World(ruleset="grand_archive", batch=batch)
    p = w.add_player()
    champ = w.add_object(p, "champion", life=20, level=MAX_STAT)
    w.put_counters(champ, "level", MAX_COUNT)
    assert np.atleast_1d(w.stat(champ, "level")).tolist() == [MAX_STAT + MAX_COUNT] * batch
    whole, _ = w.observe([champ], ["level", "base_level"], dtype=np.int32)
    assert whole[:, 0].tolist() == [[2**31 - 1, MAX_STAT]] * batch
    flt, _ = w.observe([champ], ["level"])
    assert flt[:, 0, 0].tolist() == [float(np.float32(MAX_STAT + MAX_COUNT))] * batch


def test_ga_a_power_the_host_set_is_no_printed_power():
    """rules-grand-archive.md Observations: ``has:power`` is 1 where power is printed, so
    a champion without printed power reads power 0 and ``has:power`` 0, a value the host
    set (``set_pt``) notwithstanding; the read raises as for any missing stat."""
    w = World(ruleset="grand_archive")
    p = w.add_player()
    champ = w.add_object(p, "champion", life=20, level=1)
    w.set_pt(champ, 3, 4)
    obs, _ = w.observe([champ], ["has:power", "power"], dtype=np.int32)
    assert obs[0, 0].tolist() == [0, 0]
    with pytest.raises(InvalidTypeError, match=f"entity {champ} has no power"):
        w.power(champ)


def test_ga_type_features_of_an_object_of_several_types_are_each_1():
    """``type:<type>`` is 1 for each of an object's types: a weapon regalia (rules-grand-
    archive.md, An example) is a weapon and a regalia, not a champion."""
    w = World(ruleset="grand_archive")
    p = w.add_player()
    sword = w.add_object(p, ("weapon", "regalia"), power=1, durability=2)
    obs, _ = w.observe([sword], ["type:weapon", "type:regalia", "type:champion"], dtype=np.int32)
    assert obs[0, 0].tolist() == [1, 1, 0]
