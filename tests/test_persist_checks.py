"""What restore and load check beyond a file's form: a snapshot's parts are values (its
nested mappings read-only too, so restore may trust it as taken), and every value a file
or a copy of a snapshot holds is one the actions can make: life totals, a host's effects,
library positions, Grand Archive state, team keys, the World it was taken from, integers.
"""
import copy
import pickle

import numpy as np
import pytest

from ecs import CountOverflowError, SnapshotError, World
from ecs.events import ZONE
from ecs.limits import MAX_LIFE, MAX_STAT

try:
    from state import full_state as state
    from test_persist import arrays_of, rewrite
except ImportError:  # pragma: no cover - imported as a package
    from tests.state import full_state as state
    from tests.test_persist import arrays_of, rewrite


def board(ruleset: str = "mtg") -> tuple[World, int, int, int]:
    """A World with two players, a creature and events; (world, player, player, creature)."""
    w = World(ruleset, seed=1)
    a, b = w.add_player(), w.add_player()
    unit = "creature" if ruleset == "mtg" else "ally"
    bear = w.add_object(a, unit, power=2, toughness=2)
    w.put_counters(bear, "+1/+1" if ruleset == "mtg" else "buff", 2)
    w.rng.random(3)
    return w, a, b, bear


def _at(col, name, value):
    """An edit of the file's ``store.{name}`` at column ``col`` of game 0 (a player's index for
    players' arrays)."""
    def edit(arrays):
        arrays["store." + name] = arrays["store." + name].copy()
        arrays["store." + name][0, col] = value
    return edit


# ---- a snapshot's parts are read-only --------------------------------------------------------
def test_a_snapshots_nested_parts_are_read_only_and_restore_as_taken():
    """The store's arrays, the log's mapping and chunks, the generator's state: every part
    refuses a write, so restore, which trusts a snapshot as taken, gets it as taken (an
    edit of a nested part used to go through, unchecked, and restore put it in)."""
    w, _, _, bear = board()
    snap = w.snapshot()
    taken = state(w)
    zone = np.array(snap["store"]["zone"])
    zone[0, :] = 9
    writes = [
        lambda: snap["store"].__setitem__("zone", zone),
        lambda: snap["store"].pop("zone"),
        lambda: snap["store"].update(zone=zone),
        lambda: snap["log"].__setitem__("rows", 7),
        lambda: snap["log"]["chunks"][0].__setitem__("game", np.zeros(1, np.int64)),
        lambda: snap["rng"].__setitem__("has_uint32", 1),
        lambda: snap["rng"]["state"].__setitem__("state", 1),
        lambda: snap.__setitem__("n_spawned", 3),
        lambda: snap["names"].intern("a name the World never had"),
    ]
    for write in writes:
        with pytest.raises(TypeError, match="read-only"):
            write()
    for arr in (snap["store"]["zone"], snap["log"]["chunks"][0]["game"]):
        with pytest.raises(ValueError, match="read-only"):
            arr[0] = 9
    w.put_counters(bear, "charge", 1)
    w.snapshot()   # (so restoring ``snap`` is not the restore of the snapshot taken last)
    w.restore(snap)
    assert state(w) == taken
    w.add_object(w.players()[0], "artifact", name="after the restore")   # a restored World names as before
    assert "a name the World never had" not in w.names and "after the restore" not in snap["names"]


def test_copies_of_a_snapshot_are_plain_data_that_restore_checks():
    """dict(), copy, deepcopy and pickle give plain dicts all the way down, which restore
    checks before it takes them: an edit that does not fit raises SnapshotError and
    changes nothing."""
    w, _, _, bear = board()
    snap = w.snapshot()
    taken = state(w)
    for deep in (pickle.loads(pickle.dumps(snap)), copy.deepcopy(snap)):
        assert all(type(deep[part]) is dict for part in ("store", "log", "rng"))
        assert type(deep["rng"]["state"]) is dict
        assert all(type(ch) is dict for ch in deep["log"]["chunks"])
    assert type(copy.copy(snap)) is dict and type(dict(snap["store"])) is dict
    w.put_counters(bear, "charge", 1)
    after = state(w)
    zone = np.array(snap["store"]["zone"])
    zone[0, :] = 9   # every object "in the player zone"
    bad_log = {**snap["log"], "rows": 7}
    for bad in ({**snap, "store": {**snap["store"], "zone": zone}}, {**snap, "log": bad_log}):
        with pytest.raises(SnapshotError):
            w.restore(bad)
        assert state(w) == after
    w.restore(pickle.loads(pickle.dumps(snap)))
    assert state(w) == taken


# ---- what a copy says of its World -------------------------------------------------------------
@pytest.mark.parametrize("source, target", [
    (dict(), dict(two_headed_giant=True)),
    (dict(two_headed_giant=True), dict()),
    (dict(ruleset="grand_archive"), dict(ruleset="mtg")),
    (dict(ruleset="mtg"), dict(ruleset="grand_archive")),
])
def test_a_copy_of_a_snapshot_restores_only_into_a_world_of_its_configuration(source, target):
    """A copy carries the ruleset, batch size and Two-Headed Giant setting of its World, as
    the snapshot does: restore refuses it in another kind of World, as it refuses the
    snapshot itself (a copy used to restore into any)."""
    w = World(seed=1, **source)
    two_headed = source.get("two_headed_giant", False)
    p = w.add_player(**({"team": 0} if two_headed else {}))
    w.add_player(**({"team": 1} if two_headed else {}))
    w.gain_life(p, 3)
    other = World(seed=2, **target)
    other.add_player(**({"team": 0} if target.get("two_headed_giant") else {}))
    before = state(other)
    snap = w.snapshot()
    for bad in (snap, dict(snap), pickle.loads(pickle.dumps(snap)), copy.deepcopy(snap)):
        with pytest.raises(SnapshotError, match="does not fit"):
            other.restore(bad)
        assert state(other) == before


@pytest.mark.parametrize("batch", [1.0, np.int64(1), np.array([1])])
def test_a_copy_whose_configuration_is_not_plain_values_is_refused(batch):
    """A copy's configuration is (str, int, bool) as ``snapshot()`` gives it: a batch size
    that only compares equal to this World's (a float, a NumPy value) does not fit."""
    w, _, _, _ = board()
    before = state(w)
    snap = w.snapshot()
    with pytest.raises(SnapshotError, match="does not fit"):
        w.restore({**snap, "config": ("mtg", batch, False)})
    assert state(w) == before
    w.restore({**snap, "config": ("mtg", 1, False)})   # (the same values, plain, fit)


def test_team_keys_a_world_cannot_have_are_refused():
    """Without the configuration (a snapshot made by hand), the team keys tell: every
    Two-Headed Giant player names a team (810.1), and outside it a player has its own key
    (-1 - its index) or a team named (0 and up)."""
    plain = World(seed=1)
    plain.add_player(), plain.add_player()
    snap = {k: v for k, v in plain.snapshot().items() if k != "config"}
    thg = World(seed=1, two_headed_giant=True)
    thg.add_player(team=0)
    with pytest.raises(SnapshotError, match="player_team' holds -1 as a Two-Headed Giant player's team"):
        thg.restore(snap)
    team = np.array(snap["store"]["player_team"])
    team[1] = -5   # another player's own key, or none
    with pytest.raises(SnapshotError, match="player_team' holds -5 as a team named"):
        plain.restore({**snap, "store": {**snap["store"], "player_team": team}})
    plain.restore(snap)   # (its own keys fit)


@pytest.mark.parametrize("part, value", [
    ("n_spawned", 2.5), ("n_spawned", True), ("n_spawned", "2"),
    ("seed_seq", (1.5, (), 4)), ("seed_seq", (1, (0.5,), 4)), ("seed_seq", (1, (), 4.0)),
    ("names", [7]),
])
def test_a_copy_holding_a_non_integer_is_refused_not_cut_to_one(part, value):
    """A count, a seed or a name of another type raises SnapshotError (2.5 spawned children
    used to restore as 2)."""
    w, _, _, _ = board()
    before = state(w)
    with pytest.raises(SnapshotError, match="not an integer|not a str"):
        w.restore({**w.snapshot(), part: value})
    assert state(w) == before


def test_log_counts_of_a_copy_are_integers():
    w, _, _, _ = board()
    snap = w.snapshot()
    for key in ("rows", "step"):
        with pytest.raises(SnapshotError, match="not an integer"):
            w.restore({**snap, "log": {**snap["log"], key: float(snap["log"][key])}})


# ---- life ---------------------------------------------------------------------------------
@pytest.mark.parametrize("life", [MAX_LIFE + 1, 2**63 - 1, -MAX_LIFE - 1, -2**63])
def test_a_life_total_past_max_life_is_refused(tmp_path, life):
    """Life stays within -MAX_LIFE..MAX_LIFE (what lets gain_life add and compare without
    wrapping); a file or a copy past it used to load, and gain_life then wrapped."""
    w, a, _, _ = board()
    w.save(tmp_path / "w.npz")
    rewrite(tmp_path / "w.npz", tmp_path / "bad.npz", _at(0, "life", life))
    with pytest.raises(SnapshotError, match=f"store.life' holds {life}"):
        World.load(tmp_path / "bad.npz")
    snap = w.snapshot()
    totals = np.array(snap["store"]["life"])
    totals[0, 0] = life
    with pytest.raises(SnapshotError, match=f"store.life' holds {life}"):
        w.restore({**snap, "store": {**snap["store"], "life": totals}})
    fits = MAX_LIFE if life > 0 else -MAX_LIFE   # (the bound itself loads)
    rewrite(tmp_path / "w.npz", tmp_path / "ok.npz", _at(0, "life", fits))
    assert World.load(tmp_path / "ok.npz").life(a) == fits


@pytest.mark.parametrize("life", [-MAX_LIFE, MAX_LIFE])
def test_a_team_life_total_of_2_63_in_size_is_refused_naming_it(life):
    """Two Two-Headed Giant players of MAX_LIFE in size come to 2**63 in size, past int64's
    range on the positive side: the team total is refused as any past MAX_LIFE, and the
    message names the total as it would be, not a wrapped one."""
    w = World(seed=1, two_headed_giant=True)
    a = w.add_player(team=0, life=life)
    with pytest.raises(CountOverflowError, match=f"would be {2 * life},"):
        w.add_player(team=0, life=life)
    assert w.life(a) == life and len(w.players()) == 1


# ---- a host's effects, libraries and Grand Archive state in a file ----------------------------
@pytest.mark.parametrize("name, value, message", [
    ("redirect", 9, "redirect' holds 9"),         # the "player" zone
    ("redirect", 0, "redirect' holds 0"),         # no zone
    ("redirect", 100, "redirect' holds 100"),
    ("redirect", 3, "redirect holds the battlefield"),   # (dying there is what it replaces)
    ("redirect", -2, "redirect' holds -2"),
    ("pt_set_power", MAX_STAT + 1, f"pt_set_power' holds {MAX_STAT + 1}"),
    ("pt_set_toughness", -MAX_STAT - 1, f"pt_set_toughness' holds {-MAX_STAT - 1}"),
    ("pt_mod_power", -MAX_STAT - 1, f"pt_mod_power' holds {-MAX_STAT - 1}"),
    ("pt_mod_toughness", np.iinfo(np.int32).min, "pt_mod_toughness' holds"),
    ("position", 3, "position' holds 3 off a library"),
    ("immortal", True, "immortal holds True in a 'mtg' World"),
])
def test_values_no_action_makes_are_refused_by_load(tmp_path, name, value, message):
    """A redirect names a zone set_redirect can, set and modified power and toughness are at
    most MAX_STAT in size as set_pt and modify_pt keep them, a card off a library has no
    position, and Immortality is Grand Archive's: a file otherwise used to load (and a
    redirect to "player" then put the creature there as it died)."""
    w, _, _, bear = board()
    w.save(tmp_path / "w.npz")
    rewrite(tmp_path / "w.npz", tmp_path / "bad.npz", _at(w.store.present(0, bear), name, value))
    with pytest.raises(SnapshotError, match=message):
        World.load(tmp_path / "bad.npz")


def test_champion_left_in_a_magic_file_is_refused(tmp_path):
    w, _, _, _ = board()
    w.save(tmp_path / "w.npz")

    def edit(arrays):
        arrays["store.champion_left"] = np.ones_like(arrays["store.champion_left"])
    rewrite(tmp_path / "w.npz", tmp_path / "bad.npz", edit)
    with pytest.raises(SnapshotError, match="champion_left holds True in a 'mtg' World"):
        World.load(tmp_path / "bad.npz")


@pytest.mark.parametrize("name, value", [("types", "champion"), ("keywords", "deathtouch")])
def test_a_grand_archive_object_add_object_now_refuses_still_loads(tmp_path, name, value):
    """A file an earlier version wrote may hold a champion card in a graveyard or Magic's
    printed keywords in Grand Archive, which ``add_object`` refuses now (Champion 8, CR
    122.1b): it loads as it was saved (nothing is lost), where an unknown type is refused."""
    from ecs.components import TYPE_BIT
    from ecs.kinds import KEYWORD_BIT
    w = World("grand_archive", seed=1)
    a, _ = w.add_player(), w.add_player()
    card = w.add_object(a, "ally", zone="graveyard", power=1, life=1)
    w.save(tmp_path / "w.npz")
    bits = TYPE_BIT if name == "types" else KEYWORD_BIT
    col = w.store.present(0, card)
    rewrite(tmp_path / "w.npz", tmp_path / "old.npz", _at(col, name, bits[value]))
    loaded = World.load(tmp_path / "old.npz")
    assert loaded.zone(card) == "graveyard" and int(loaded.store.a[name][0, col]) == bits[value]
    rewrite(tmp_path / "w.npz", tmp_path / "bad.npz", _at(col, "types", TYPE_BIT["creature"]))
    with pytest.raises(SnapshotError, match=r"store.types: card types \['creature'\] do not exist"):
        World.load(tmp_path / "bad.npz")


def test_a_library_position_below_its_numbering_is_refused(tmp_path):
    """Ordering and shuffling number a library from -(its size): a position below -(the
    columns) is none the actions make."""
    w, a, _, _ = board()
    cards = [w.add_object(a, "creature", power=1, toughness=1, zone="library") for _ in range(3)]
    w.order_library(a, cards[::-1])
    w.save(tmp_path / "w.npz")
    n = int(arrays_of(tmp_path / "w.npz")["store.meta"][1])
    rewrite(tmp_path / "w.npz", tmp_path / "bad.npz", _at(w.store.present(0, cards[0]), "position", -n - 1))
    with pytest.raises(SnapshotError, match=f"position' holds {-n - 1} in a library"):
        World.load(tmp_path / "bad.npz")


def test_values_the_actions_make_load(tmp_path):
    """The bounds of those checks are the actions' own: every value they set loads back."""
    w, a, _, bear = board()
    w.set_redirect(bear, "memory")
    w.set_pt(bear, MAX_STAT, -MAX_STAT)
    w.modify_pt(bear, -MAX_STAT, MAX_STAT)
    cards = [w.add_object(a, "creature", power=1, toughness=1, zone="library") for _ in range(4)]
    w.shuffle_library(a)
    w.order_library(a, cards)
    w.move_zone(cards[0], "hand")
    w.add_player(life=-MAX_LIFE)
    w.save(tmp_path / "w.npz")
    assert state(World.load(tmp_path / "w.npz")) == state(w)
    ga, p, _, ally = board("grand_archive")
    ga.set_immortal(ally)
    ga.set_redirect(ally, "banishment")
    ga.save(tmp_path / "ga.npz")
    assert state(World.load(tmp_path / "ga.npz")) == state(ga)


@pytest.mark.parametrize("value", [-1, 2])
def test_a_zone_change_naming_no_card_of_the_file_is_refused(tmp_path, value):
    """A zone change's ``after`` is its card name's index + 1 (0: none): one past the file's
    names, or below 0, is refused, naming the column."""
    w, _, _, bear = board()
    w.destroy(bear)   # a card without a name: ``after`` 0; the file holds no names
    w.save(tmp_path / "w.npz")

    def edit(arrays):
        arrays["log.after"] = arrays["log.after"].copy()
        arrays["log.after"][arrays["log.type"] == ZONE] = value

    rewrite(tmp_path / "w.npz", tmp_path / "bad.npz", edit)
    assert World.load(tmp_path / "w.npz").events()[-1].name is None
    with pytest.raises(SnapshotError, match="log.after.*card name"):
        World.load(tmp_path / "bad.npz")
