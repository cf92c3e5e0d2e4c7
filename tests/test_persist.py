"""Save files (ecs.persist): round trips, damaged and crafted files, and the
the hardening: files whose digest was recomputed after an edit that makes them
contradict themselves, bounds on the work a file can ask for, and safe writing against
the file system and other writers.

``rewrite`` makes a crafted file the way an attacker would: edit arrays, recompute the
digest as ``save`` does, write a valid ``.npz``.
"""
import os
import re
import signal
import stat
import subprocess
import sys
import threading
import tracemalloc
import zipfile
from pathlib import Path

import numpy as np
import pytest

from ecs import SnapshotError, World, ZoneChanged, persist
from ecs.components import ALL_FIELDS, GAME_COLUMN
from ecs.events import CAUSES
from ecs.host import marks
from ecs.zones import ZONES

try:
    from state import full_state
    from test_search import busy_world, more_actions
except ImportError:  # pragma: no cover - imported as a package
    from tests.state import full_state
    from tests.test_search import busy_world, more_actions

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def saved(tmp_path):
    w, ids = busy_world()
    path = tmp_path / "world.npz"
    w.save(path)
    return w, ids, path


def arrays_of(path):
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


def write(arrays, dst, fix_digest=True):
    if fix_digest:
        arrays["digest"] = np.array(persist.digest(arrays))
    with open(dst, "wb") as fh:
        np.savez(fh, **arrays)


def rewrite(src, dst, change, fix_digest=True):
    arrays = arrays_of(src)
    change(arrays)
    write(arrays, dst, fix_digest)


def temporaries(folder):
    return sorted(f for f in os.listdir(folder) if persist._TMP in f)


# ---- round trips ------------------------------------------------------------------------------
def test_save_load_round_trip(saved, tmp_path):
    w, ids, path = saved
    loaded = World.load(path)
    assert full_state(loaded) == full_state(w)
    assert loaded.events() == w.events()
    # both continue identically (generator and spawn counter included)
    more_actions(w, ids)
    more_actions(loaded, ids)
    assert full_state(loaded) == full_state(w)
    assert full_state(w.fork(0, 2)) == full_state(loaded.fork(0, 2))
    # the file is a standard .npz
    with np.load(path, allow_pickle=False) as z:
        assert int(z["format_version"]) == persist.FORMAT_VERSION
        assert z["store.counts"].dtype == np.int32
    assert sorted(os.listdir(tmp_path)) == ["world.npz"]   # no temporary left behind


@pytest.mark.parametrize("make", [
    lambda: World(),
    lambda: World(batch=2, seed=[1, 2, 3]),
    lambda: World(seed=2**100 + 7),
    lambda: World(ruleset="mtg", two_headed_giant=True, max_passes=17,
                  seed=np.random.SeedSequence(4)),
    lambda: World(seed=np.random.SeedSequence(5, pool_size=persist.MAX_POOL_SIZE)),
    lambda: World(seed=[]),
    lambda: World(seed=10**persist.MAX_ENTROPY_DIGITS - 1),
])
def test_round_trip_of_other_configurations(tmp_path, make):
    w = make()
    if w.two_headed_giant:
        w.add_player(team=0), w.add_player(team=0), w.add_player(team=1)
    path = tmp_path / "w.npz"
    w.save(path)
    loaded = World.load(str(path))
    assert full_state(loaded) == full_state(w)
    assert loaded.rng.random(3).tolist() == w.rng.random(3).tolist()


@pytest.mark.parametrize("path", [None, 5, 2.5, ["a.npz"]])
def test_a_path_that_is_no_path_raises_snapshot_error(path, tmp_path):
    """save and load take a str or os.PathLike; anything else is a SnapshotError naming
    it, and nothing is written. A folder that does not exist is the file system's
    error (an OSError, as open() raises it)."""
    w = World(seed=0)
    with pytest.raises(SnapshotError, match="not a path"):
        w.save(path)
    with pytest.raises(SnapshotError, match="not a path"):
        World.load(path)
    with pytest.raises(OSError):
        w.save(tmp_path / "missing" / "w.npz")
    assert not any(tmp_path.iterdir())


def test_save_overwrites_atomically(saved):
    w, ids, path = saved
    w.put_counters(ids["walker"], "loyalty", 1)
    w.save(path)
    assert full_state(World.load(path)) == full_state(w)


# ---- damaged files -------------------------------------------------------------------------
def test_truncated_files_raise_snapshot_error(saved, tmp_path):
    _, _, path = saved
    data = path.read_bytes()
    cuts = sorted(set(range(0, len(data), max(1, len(data) // 60)))
                  | {len(data) - 1, len(data) - 22})
    bad = tmp_path / "bad.npz"
    for n in cuts:
        bad.write_bytes(data[:n])
        with pytest.raises(SnapshotError):
            World.load(bad)


def test_flipped_bytes_raise_or_load_the_exact_state(saved, tmp_path):
    """A flipped byte is detected (zip CRC, .npy header, or the SHA-256 digest), or it hit
    a byte nothing reads (a zip timestamp): then the World is exactly the saved one."""
    w, _, path = saved
    data = bytearray(path.read_bytes())
    expected = full_state(w)
    bad = tmp_path / "bad.npz"
    rng = np.random.default_rng(0)
    positions = sorted(set(rng.integers(0, len(data), 150).tolist()) | set(range(0, 64)))
    detected = 0
    for i in positions:
        corrupt = bytearray(data)
        corrupt[i] ^= 0xFF
        bad.write_bytes(bytes(corrupt))
        try:
            loaded = World.load(bad)
        except SnapshotError:
            detected += 1
        else:
            assert full_state(loaded) == expected
    assert detected > len(positions) // 2


def test_a_changed_value_with_a_stale_digest_is_detected(saved, tmp_path):
    _, _, path = saved
    bad = tmp_path / "bad.npz"

    def change(a):
        a["store.counts"] = a["store.counts"].copy()
        a["store.counts"].flat[0] += 1
    rewrite(path, bad, change, fix_digest=False)
    with pytest.raises(SnapshotError, match="checksum"):
        World.load(bad)


def _drop(key):
    return lambda a: a.pop(key)


def _set(key, value):
    def change(a):
        a[key] = value(a[key]) if callable(value) else value
    return change


@pytest.mark.parametrize("change, message", [
    (_set("format_version", np.array(persist.FORMAT_VERSION + 1, np.int64)),
     f"format version {persist.FORMAT_VERSION + 1} is newer than this library's "
     f"{persist.FORMAT_VERSION}"),
    (_set("format_version", np.array(0, np.int64)), "unknown format version 0"),
    (_set("format_version", np.array(2, np.int64)), "format version 2 was written by an older "
                                                    "tcg-counters.*build the World again"),
    (_set("format_version", np.array(1, np.int64)), "format version 1 was written by an older"),
    (_set("format_version", np.array(1.0)), "format_version"),
    (_set("magic", np.array("something else")), "not a tcg-counters"),
    (_drop("store.counts"), "missing array 'store.counts'"),
    (_drop("log.lki_row"), "missing"),
    (_drop("rng"), "missing"),
    (_drop("config.batch"), "missing"),
    (_drop("format_version"), "missing"),
    (_set("store.counts", lambda v: v[:, :, :-1]), "shape"),
    (_set("store.zone", lambda v: v[:-1]), "shape"),
    (_set("store.life", lambda v: v[:, :1]), "shape"),
    (_set("store.entity_id", lambda v: v[:-1]), "shape"),
    (_set("store.cap_val", lambda v: v[:, :0]), "shape"),
    (_set("log.game", lambda v: v[:-1]), "shape"),
    (_set("store.winner", lambda v: np.zeros((2, 2), v.dtype)), "shape"),
    (_set("config.batch", np.array(4, np.int64)), "batch"),
    (_set("store.counts", lambda v: v.astype(np.int64)), "dtype"),
    (_set("store.zone", lambda v: np.full_like(v, 42)), "outside"),
    (_set("store.counts", lambda v: -v - 1), "outside"),
    (_set("store.entity_id", lambda v: np.roll(v, 1, axis=1)), "two slots|different ids|free slot"),
    (_set("store.kind_names", lambda v: np.array(["Bad Kind"] * v.size)), "kind"),
    (_set("log.game", lambda v: v + 10), "outside"),
    (_set("log.lki_row", lambda v: v + 10_000), "outside"),
    (_set("config.ruleset", np.array("poker")), "ruleset"),
    (_set("seed.entropy", np.array("12x")), "entropy"),
    (_set("rng", lambda v: np.zeros(6, np.uint64)), "PCG64"),
    (_set("rng", lambda v: np.where(np.arange(6) == 4, np.uint64(2), v)), "PCG64"),        # has_uint32
    (_set("rng", lambda v: np.where(np.arange(6) == 5, np.uint64(2**32), v)), "PCG64"),    # uinteger
    (_set("log.meta", lambda v: np.array([-1, v[1]])), "log.meta: -1 rows"),
    (_set("config.max_passes", np.array(0, np.int64)), "config.max_passes 0 is outside 1.."),
    (_set("config.max_passes", np.array(2**31, np.int64)), f"config.max_passes {2**31} is outside 1.."),
    (_set("seed.entropy", lambda v: v.reshape(1, -1)), r"'seed.entropy' has shape \(1, 1\), expected \(\) or"),
    (lambda a: a.update(extra=np.zeros(1)), "unexpected"),
])
def test_damaged_contents_raise_a_clear_snapshot_error(saved, tmp_path, change, message):
    _, _, path = saved
    bad = tmp_path / "bad.npz"
    rewrite(path, bad, change)
    with pytest.raises(SnapshotError, match=message):
        World.load(bad)


def test_another_version_is_named_before_anything_else_is_read(saved, tmp_path):
    """A file of another version (whose arrays may differ) is refused by
    its version, even when its arrays are not this version's."""
    _, _, path = saved
    bad = tmp_path / "bad.npz"

    def future(a):
        a["format_version"] = np.array(persist.FORMAT_VERSION + 1, np.int64)
        a.pop("store.counts")
        a["store.slots"] = np.zeros(3)
    rewrite(path, bad, future)
    with pytest.raises(SnapshotError, match=f"format version {persist.FORMAT_VERSION + 1}"):
        World.load(bad)


@pytest.mark.parametrize("content", [b"", b"not a zip at all", b"PK\x03\x04" + b"\0" * 40])
def test_not_a_save_file(tmp_path, content):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(content)
    with pytest.raises(SnapshotError):
        World.load(bad)


def test_other_numpy_files_and_missing_paths(tmp_path):
    np.save(tmp_path / "x.npy", np.arange(3))
    with pytest.raises(SnapshotError):
        World.load(tmp_path / "x.npy")
    np.savez(tmp_path / "y.npz", a=np.arange(3))
    with pytest.raises(SnapshotError, match="not a tcg-counters"):
        World.load(tmp_path / "y.npz")
    with pytest.raises(SnapshotError, match="no such file"):
        World.load(tmp_path / "missing.npz")
    with pytest.raises(SnapshotError, match="not a regular file|can't be read"):
        World.load(tmp_path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_loading_a_fifo_does_not_wait_for_a_writer(tmp_path):
    os.mkfifo(tmp_path / "fifo.npz")
    with pytest.raises(SnapshotError, match="not a regular file"):
        World.load(tmp_path / "fifo.npz")


# ---- crafted files that contradict themselves -------------------------------------
def _col(a, entity):
    return int(np.nonzero(a["store.entity_id"] == entity)[1][0])


def _edit(key, edit):
    """Change array ``key`` in place on a copy: ``edit(arr, arrays)``."""
    def change(a):
        a[key] = a[key].copy()
        edit(a[key], a)
    return change


def _first(a, event_type):
    return int(np.flatnonzero(a["log.type"] == event_type)[0])


CONTRADICTIONS = {
    # card fields and players
    "an object column also typed as a player": (
        _edit("store.types", lambda v, a: v.__setitem__((slice(None), _col(a, 2)), v[:, _col(a, 2)] | 1)),
        "typed as a player"),
    "a player column typed as a creature too": (
        _edit("store.types", lambda v, a: v.__setitem__((slice(None), a["store.player_col"][0]), 3)),
        "not a player"),
    "a player in the battlefield": (
        _edit("store.zone", lambda v, a: v.__setitem__((0, a["store.player_col"][0]), 3)),
        "player is missing"),
    "an object in the player zone": (
        _edit("store.zone", lambda v, a: v.__setitem__((0, _col(a, 3)), 9)),
        "player zone"),
    "a player controlled by another": (
        _edit("store.controller", lambda v, a: v.__setitem__((slice(None), a["store.player_col"][0]), 1)),
        "control itself"),
    "a token player (704.5d would remove it)": (
        _edit("store.token", lambda v, a: v.__setitem__((slice(None), a["store.player_col"][0]), True)),
        "player has store.token"),
    "an id not issued yet (the next object would get it too)": (
        _edit("store.entity_id", lambda v, a: v.__setitem__((slice(None), _col(a, 2)), a["store.meta"][2])),
        "'store.entity_id' holds"),
    "id 0 (the first player's) in an object's slot too": (
        _edit("store.entity_id", lambda v, a: v.__setitem__((0, _col(a, 2)), 0)), "one id in two slots of a game"),
    "a player with an owner": (
        _edit("store.owner", lambda v, a: v.__setitem__((slice(None), a["store.player_col"][0]), 1)),
        "a player has store.owner"),
    "an object in a zone one past the last": (
        _edit("store.zone", lambda v, a: v.__setitem__((0, _col(a, 2)), len(ZONES))),
        f"'store.zone' holds {len(ZONES)}, outside"),
    "an object owned by one past the players": (
        _edit("store.owner", lambda v, a: v.__setitem__((slice(None), _col(a, 3)), a["store.player_col"].size)),
        "'store.owner' holds 2"),
    "a name index one past the names": (
        _edit("store.name_id", lambda v, a: v.__setitem__((0, _col(a, 3)), a["names"].size)), "'store.name_id' holds"),
    "a live object in no zone": (
        _edit("store.zone", lambda v, a: v.__setitem__((0, _col(a, 3)), 0)), "an object is in no zone"),
    "negative damage marked": (
        _edit("store.damage", lambda v, a: v.__setitem__((0, _col(a, 3)), -1)), "'store.damage' holds -1"),
    "a deathtouch hit on a card in a graveyard": (
        _edit("store.deathtouch_hit", lambda v, a: v.__setitem__(
            tuple(np.argwhere(a["store.zone"] == 4)[0]), True)), "off the battlefield has store.deathtouch_hit"),
    "a player listed twice": (
        _edit("store.player_col", lambda v, a: v.__setitem__(1, v[0])), "twice|not a player"),
    "an unknown type bit": (
        _edit("store.types", lambda v, a: v.__setitem__((slice(None), _col(a, 2)), 1 << 30)), "unknown type"),
    "a Grand Archive type in a Magic World": (
        _edit("store.types", lambda v, a: v.__setitem__((slice(None), _col(a, 2)), 1 << 10)), "do not exist"),
    "an unknown keyword bit": (
        _edit("store.keywords", lambda v, a: v.__setitem__(0, 1 << 31)), "keyword"),
    "a power past the printed bound": (
        _edit("store.power", lambda v, a: v.__setitem__((slice(None), _col(a, 2)), 2**31 - 1)), "store.power"),
    "a negative printed loyalty": (
        _edit("store.loyalty", lambda v, a: v.__setitem__((slice(None), _col(a, 3)), -1)), "store.loyalty"),
    "a name index past the names": (
        _edit("store.name_id", lambda v, a: v.__setitem__(0, 99)), "name_id"),
    "a card name twice": (_set("names", lambda v: np.array(["Bear", "Bear"])), "twice"),
    "a boolean that is 2": (
        _edit("store.token", lambda v, a: v.view(np.uint8).__setitem__(0, 2)), "neither 0 nor 1"),
    "text that is not Unicode": (
        _edit("names", lambda v, a: v.reshape(-1).view(np.uint32).__setitem__(0, 0xD800)),
        "Unicode"),
    "text naming the last surrogate": (
        _edit("names", lambda v, a: v.reshape(-1).view(np.uint32).__setitem__(0, 0xDFFF)),
        "Unicode"),
    "text past the last code point": (
        _edit("names", lambda v, a: v.reshape(-1).view(np.uint32).__setitem__(0, 0x110000)),
        "Unicode"),
    # slots: a free slot holds nothing, only permanents are tapped or damaged
    "counters on a free slot": (
        _edit("store.counts", lambda v, a: v.__setitem__(
            (0,) + tuple(np.argwhere(a["store.entity_id"] < 0)[0]), 5)), "free slot holds counters"),
    "damage on a free slot": (
        _edit("store.damage", lambda v, a: v.__setitem__(
            tuple(np.argwhere(a["store.entity_id"] < 0)[0]), 1)), "free slot holds store.damage"),
    "a tapped card in a graveyard": (
        _edit("store.tapped", lambda v, a: v.__setitem__(
            tuple(np.argwhere(a["store.zone"] == 4)[0]), True)), "tapped"),
    "a free slot in a zone": (lambda a: _free_slot_in_a_zone(a), "free slot holds store.types"),
    # caps
    "a cap on an absent object": (lambda a: _cap_where_absent(a), "absent object has a cap"),
    "two caps of one kind on one object": (lambda a: _duplicate_cap(a), "two caps"),
    "a cap below none": (_edit("store.cap_val", lambda v, a: v.__setitem__((0, 0), -5)), "cap"),
    "a cap one below none": (_edit("store.cap_val", lambda v, a: v.__setitem__((0, 0), -2)), "a cap below -1"),
    "a cap on a column past the store's": (
        _edit("store.cap_col", lambda v, a: v.__setitem__(0, a["store.meta"][1])), "'store.cap_col' holds"),
    "a cap of a kind past the World's": (
        _edit("store.cap_kind", lambda v, a: v.__setitem__(0, a["store.kind_names"].size)), "'store.cap_kind' holds"),
    # players' state and results
    "negative reserve": (_edit("store.reserve", lambda v, a: v.__setitem__((0, 0), -1)), "reserve"),
    "two turn players": (_edit("store.active", lambda v, a: v.__setitem__(0, True)),
                         "turn players"),
    "a prohibition of the kind one past the World's": (_edit("store.ban", lambda v, a: v.__setitem__(
        (0, _col(a, 2)), np.uint64(1 << a["store.kind_names"].size))), "prohibits a kind"),
    "a prohibition of a kind the World lacks": (_edit("store.ban", lambda v, a: v.__setitem__(
        (0, _col(a, 2)), np.uint64(1 << 40))), "prohibits a kind"),
    "a host effect on a player": (_edit("store.pt_set_power", lambda v, a: v.__setitem__(
        (0, a["store.player_col"][0]), 3)), "an effect on objects"),
    "a zone change's controller outside the players": (
        _edit("log.before", lambda v, a: v.__setitem__(_first(a, 1), 50)), "controller"),
    "a winner who lost": (_edit("store.lost", lambda v, a: v.__setitem__(
        (2, a["store.winner"][2]), True)), "winner has lost"),
    "a winner below a draw (-2)": (_edit("store.winner", lambda v, a: v.__setitem__(0, -3)),
                                   "'store.winner' holds -3"),
    "a winner outside the players": (_edit("store.winner", lambda v, a: v.__setitem__(0, 7)),
                                     "store.winner"),
    "a player head in a game without teams": (
        _edit("store.player_head", lambda v, a: v.__setitem__(1, 0)), "head"),
    # events
    "an event naming an entity that never existed": (
        _edit("log.entity", lambda v, a: v.__setitem__(0, a["store.meta"][2] + 5)), "log.entity"),
    "a loss naming an object": (
        _edit("log.entity", lambda v, a: v.__setitem__(_first(a, 2), 2)), "non-player"),
    "a game won by an object": (
        _edit("log.entity", lambda v, a: v.__setitem__(_first(a, 3), 2)), "non-player"),
    "a zone change to an older id": (
        _edit("log.other", lambda v, a: v.__setitem__(_first(a, 1), 0)), "new object"),
    "a counter event that changes nothing": (
        _edit("log.after", lambda v, a: v.__setitem__(_first(a, 0), a["log.before"][_first(a, 0)])),
        "changes nothing"),
    "a counter event of an unknown kind": (
        _edit("log.kind", lambda v, a: v.__setitem__(_first(a, 0), 40)), "log.kind"),
    "a kind on a loss": (_edit("log.kind", lambda v, a: v.__setitem__(_first(a, 2), 0)),
                         "log.kind"),
    "a counter put by no player": (
        _edit("log.other", lambda v, a: v.__setitem__(_first(a, 0), 9)), "log.other"),
    "events out of step order": (
        _edit("log.step", lambda v, a: v.__setitem__(slice(None), v[::-1])), "order"),
    "a zone change from no zone": (
        _edit("log.from_zone", lambda v, a: v.__setitem__(_first(a, 1), 0)), "from_zone"),
    "last-known counters of a counter event": (
        _edit("log.lki_row", lambda v, a: v.__setitem__(0, _first(a, 0))), "not a zone change"),
    "last-known counters of a kind past the World's": (
        _edit("log.lki_kind", lambda v, a: v.__setitem__(0, a["store.kind_names"].size)), "'log.lki_kind' holds"),
    "last-known count of zero": (_edit("log.lki_count", lambda v, a: v.__setitem__(0, 0)),
                                 "lki_count"),
    "a step past the log's": (_set("log.meta", lambda v: np.array([v[0], 0])), "log.step"),
    "an event one step past the log's": (
        _edit("log.step", lambda v, a: v.__setitem__(-1, a["log.meta"][1] + 1)), "log.step"),
    "an event in a game past the batch": (
        _edit("log.game", lambda v, a: v.__setitem__(0, a["config.batch"])), "log.game"),
    "an event of no type": (_edit("log.type", lambda v, a: v.__setitem__(-1, 8)), "log.type"),
    "an event of the cause one past the last": (
        _edit("log.cause", lambda v, a: v.__setitem__(0, len(CAUSES))), f"'log.cause' holds {len(CAUSES)}"),
    "an event of no cause": (_edit("log.cause", lambda v, a: v.__setitem__(0, 10**4)), "log.cause"),
    "a counter put by a player past the players": (
        _edit("log.other", lambda v, a: v.__setitem__(_first(a, 0), a["store.player_col"].size)), "log.other"),
    "a zone change's controller one past the players": (
        _edit("log.before", lambda v, a: v.__setitem__(_first(a, 1), a["store.player_col"].size + 1)),
        "controller"),
    "a zone change to the same id": (
        _edit("log.other", lambda v, a: v.__setitem__(_first(a, 1), a["log.entity"][_first(a, 1)])),
        "new object"),
    "a damage event dealing more than asked": (
        _edit("log.after", lambda v, a: v.__setitem__(_first(a, 7), a["log.before"][_first(a, 7)] + 1)),
        "more than asked"),
    "damage to an entity not issued yet": (
        _edit("log.entity", lambda v, a: v.__setitem__(_first(a, 7), a["store.meta"][2])), "'log.entity' holds"),
    "damage from a source not issued yet": (
        _edit("log.other", lambda v, a: v.__setitem__(_first(a, 7), a["store.meta"][2])), "'log.other' holds"),
    "a tap event that leaves it tapped twice over": (
        _edit("log.after", lambda v, a: v.__setitem__(_first(a, 6), 2)), "'log.after' holds 2"),
    "a game won by no one below none (-1)": (
        _edit("log.entity", lambda v, a: v.__setitem__(_first(a, 3), -2)), "end names a non-player"),
    "a counter put by a player below none (-1)": (
        _edit("log.other", lambda v, a: v.__setitem__(_first(a, 0), -2)), "'log.other' holds -2"),
    "a zone change into the player zone": (
        _edit("log.to_zone", lambda v, a: v.__setitem__(_first(a, 1), 9)), "'log.to_zone' holds 9"),
    "a zone change to an id not issued yet": (
        _edit("log.other", lambda v, a: v.__setitem__(_first(a, 1), a["store.meta"][2])), "new object"),
    "a zone change into a zone with no new object": (
        _edit("log.other", lambda v, a: v.__setitem__(_first(a, 1), -1)), "new object"),
    "a counter event naming a zone": (
        _edit("log.to_zone", lambda v, a: v.__setitem__(_first(a, 0), 3)), "to_zone is set on an event that is not"),
    "a loss naming another player": (
        _edit("log.other", lambda v, a: v.__setitem__(_first(a, 2), 0)), "log.other is set on a loss"),
    "a damage source before none": (
        _edit("log.other", lambda v, a: v.__setitem__(_first(a, 7), -2)), "log.other"),
    "a tap event tapped twice over": (
        _edit("log.before", lambda v, a: v.__setitem__(_first(a, 6), 2)), "log.before"),
    "last-known counters of a row past the log": (
        _edit("log.lki_row", lambda v, a: v.__setitem__(0, a["log.meta"][0])), "lki_row"),
    "last-known counters of one kind twice": (
        lambda a: _lki_kind_twice(a), "twice"),
}


def _lki_kind_twice(a):
    """The first last-known row given again: one event with one kind's count twice."""
    for key in ("log.lki_row", "log.lki_kind", "log.lki_count"):
        a[key] = np.append(a[key], a[key][0])


def _free_slot_in_a_zone(a):
    """Free the walker's slot (entity 3) in game 0 although it is still on the battlefield."""
    a["store.entity_id"] = a["store.entity_id"].copy()
    a["store.entity_id"][0, _col(a, 3)] = -1


def _free_slot(a, g, col):
    """Empty slot (g, col) in the file as the engine does: every field's fill value (of
    the fields a file holds: not those a load derives)."""
    for f in ALL_FIELDS:
        if f.shape == GAME_COLUMN and "store." + f.name in a:
            a["store." + f.name] = a["store." + f.name].copy()
            a["store." + f.name][g, col] = f.fill
    a["store.counts"] = a["store.counts"].copy()
    a["store.counts"][:, g, col] = 0


def _cap_where_absent(a):
    a["store.cap_val"] = a["store.cap_val"].copy()
    col = a["store.cap_col"][0]
    g = np.flatnonzero(a["store.entity_id"][:, col] < 0)
    if g.size == 0:   # the rock is everywhere: take it out of game 0 in the file
        _free_slot(a, 0, col)
        g = np.array([0])
    a["store.cap_val"][g[0], 0] = 3


def _duplicate_cap(a):
    for key in ("store.cap_col", "store.cap_kind"):
        a[key] = np.append(a[key], a[key][0])
    a["store.cap_val"] = np.concatenate([a["store.cap_val"], a["store.cap_val"][:, :1]], axis=1)


@pytest.mark.parametrize("name", list(CONTRADICTIONS))
def test_a_redigested_file_that_contradicts_itself_is_refused(saved, tmp_path, name):
    """A digest recomputed after an edit no longer lets a file through whose
    arrays contradict each other."""
    _, _, path = saved
    change, message = CONTRADICTIONS[name]
    bad = tmp_path / "bad.npz"
    rewrite(path, bad, change)
    with pytest.raises(SnapshotError, match=message):
        World.load(bad)


def test_a_players_column_counted_from_the_end_is_refused(tmp_path):
    """Column -1 is the last column to NumPy: a file naming the last player's column so
    would pass every check of that column, and is refused as a column out of range."""
    w = World(seed=1)
    w.add_player(), w.add_player()
    w.save(tmp_path / "w.npz")
    rewrite(tmp_path / "w.npz", tmp_path / "bad.npz",
            _set("store.player_col", lambda v: v - np.array([0, v.size], v.dtype)))
    with pytest.raises(SnapshotError, match="'store.player_col' holds -1"):
        World.load(tmp_path / "bad.npz")


def test_two_headed_giant_team_heads_are_checked(tmp_path):
    w = World(two_headed_giant=True)
    w.add_player(team=0), w.add_player(team=0), w.add_player(team=1)
    w.save(tmp_path / "w.npz")
    rewrite(tmp_path / "w.npz", tmp_path / "bad.npz",
            _edit("store.player_head", lambda v, a: v.__setitem__(1, 1)))
    with pytest.raises(SnapshotError, match="head"):
        World.load(tmp_path / "bad.npz")


def test_104_2a_a_two_headed_giant_game_is_won_by_its_teams_first_player(tmp_path):
    """A team that wins wins together (CR 104.2a): the file names its first player as the
    winner, and one naming the team's other player is refused."""
    w = World(two_headed_giant=True)
    a, b, c = w.add_player(team=0), w.add_player(team=0), w.add_player(team=1)
    w.lose_life(c, 30)
    w.tick()
    assert w.result() == a
    w.save(tmp_path / "w.npz")
    assert World.load(tmp_path / "w.npz").result() == a
    rewrite(tmp_path / "w.npz", tmp_path / "bad.npz",
            _edit("store.winner", lambda v, arrays: v.__setitem__(0, list(w.players()).index(b))))
    with pytest.raises(SnapshotError, match="winner is not its team's first player"):
        World.load(tmp_path / "bad.npz")


def test_805_4_a_two_headed_giant_team_turn_saves_and_two_teams_turns_are_refused(tmp_path):
    """Both players of the active team are turn players (805.4) and the file keeps them;
    turn players of two teams are a contradiction."""
    w = World(two_headed_giant=True, batch=2)
    a1, b1, a2, b2 = (w.add_player(team=t) for t in (0, 1, 0, 1))
    w.begin_main_phase(a2)
    w.save(tmp_path / "w.npz")
    back = World.load(tmp_path / "w.npz")
    assert back.store.a["active"].tolist() == [[True, False, True, False]] * 2
    assert back.active_player().tolist() == [a1, a1]
    rewrite(tmp_path / "w.npz", tmp_path / "bad.npz",
            _edit("store.active", lambda v, a: v.__setitem__((1, 1), True)))
    with pytest.raises(SnapshotError, match="two teams"):
        World.load(tmp_path / "bad.npz")


@pytest.mark.parametrize("column, value, message", [
    ("log.other", -1, "log.other.*player who acted"),
    ("log.other", 2, "log.other.*player who acted"),
    ("log.kind", "K", "'log.kind' holds"),   # one past the World's kinds
])
def test_an_action_by_no_player_or_of_no_kind_is_refused(tmp_path, column, value, message):
    """An Acted row (a Grand Archive recover) names the player who acted: one past the
    players made events() fail, -1 named the last player; both are refused on load, and
    so is a kind the World does not have."""
    w = World("grand_archive")
    p, _ = w.add_player(), w.add_player()
    champion = w.add_object(p, "champion", life=20)
    w.deal_damage(champion, 3)
    w.recover(champion, 2)
    w.save(tmp_path / "a.npz")
    rewrite(tmp_path / "a.npz", tmp_path / "b.npz", _edit(column, lambda v, a: v.__setitem__(
        _first(a, 5), a["store.kind_names"].size if value == "K" else value)))
    with pytest.raises(SnapshotError, match=message):
        World.load(tmp_path / "b.npz")


def test_a_grand_archive_file_in_two_headed_giant_is_refused(tmp_path):
    """Earlier versions made a GA World in Two-Headed Giant, a Magic variant (CR 810)."""
    World(ruleset="grand_archive").save(tmp_path / "w.npz")
    rewrite(tmp_path / "w.npz", tmp_path / "bad.npz",
            lambda a: a.__setitem__("config.two_headed_giant", np.array(True)))
    with pytest.raises(SnapshotError, match="grand_archive game in Two-Headed Giant"):
        World.load(tmp_path / "bad.npz")


def test_603_10a_zone_changes_keep_their_controller_and_older_files_load_without(saved, tmp_path):
    """A zone change's last-known controller (603.10a) is saved; a file from before it was
    logged (0 in the column) loads, its zone changes naming none."""
    w, _, path = saved
    zone_events = [e for e in World.load(path).events() if isinstance(e, ZoneChanged)]
    assert zone_events and zone_events == [e for e in w.events() if isinstance(e, ZoneChanged)]
    assert all(e.controller is not None for e in zone_events)
    older = tmp_path / "older.npz"
    rewrite(path, older, lambda a: a.__setitem__("log.before", np.where(a["log.type"] == 1, 0, a["log.before"])))
    assert {e.controller for e in World.load(older).events() if isinstance(e, ZoneChanged)} == {None}


# ---- bounds on the work a file can ask for -------------------------------------------
@pytest.mark.parametrize("pool_size", [persist.MAX_POOL_SIZE + 1, 10**12])
def test_a_huge_seed_pool_is_refused_before_any_work(saved, tmp_path, pool_size):
    """A SeedSequence costs the square of its pool size (30,000: 4 s; 10**6: an hour)."""
    _, _, path = saved
    bad = tmp_path / "bad.npz"
    rewrite(path, bad, _set("seed.pool_size", np.array(pool_size, np.int64)))
    with pytest.raises(SnapshotError, match=f"pool size {pool_size}"):
        World.load(bad)


@pytest.mark.parametrize("key, value, message", [
    ("seed.pool_size", 3, "pool size 3 is outside 4.."),
    ("seed.spawn_key", np.array([0, persist.MAX_COUNTER + 1], np.int64), "spawn key"),
    ("seed.n_spawned", -1, "n_spawned -1 outside"),
])
def test_a_seed_no_seed_sequence_or_world_has_is_refused(saved, tmp_path, key, value, message):
    """A pool of fewer than 4 words (SeedSequence refuses it with a ValueError, not the
    file's error), a spawn key past 2**62 or a negative spawn counter: each is refused
    naming the file and the value, before any World is built."""
    _, _, path = saved
    bad = tmp_path / "bad.npz"
    rewrite(path, bad, _set(key, np.array(value, np.int64)))
    with pytest.raises(SnapshotError, match=f"^{re.escape(str(bad))}: .*{message}"):
        World.load(bad)


def test_the_digest_covers_each_arrays_dtype_and_shape():
    """The same bytes as another dtype or shape are another array: the digest tells them
    apart, so a file whose header was changed and not its data fails its checksum."""
    same = persist.digest({"a": np.zeros(4, np.int32)})
    for other in (np.zeros(4, np.uint32), np.zeros(2, np.int64), np.zeros((2, 2), np.int32)):
        assert other.tobytes() == np.zeros(4, np.int32).tobytes()
        assert persist.digest({"a": other}) != same
    assert persist.digest({"a": np.zeros(4, np.int32), "digest": np.array("x")}) == same


def test_saving_parts_whose_max_passes_is_past_int64_is_refused(tmp_path):
    """``persist.save`` of parts no file may hold raises SnapshotError and writes nothing
    (the int64 it would not fit in raised OverflowError)."""
    w = World(seed=1)
    parts = persist.Parts(w.ruleset.name, w.batch, w.two_headed_giant, 2**63, w.snapshot())
    with pytest.raises(SnapshotError, match="max_passes past int64"):
        persist.save(parts, tmp_path / "w.npz")
    assert os.listdir(tmp_path) == []


def test_a_generator_holding_half_a_draw_round_trips(tmp_path):
    """PCG64 keeps the other half of a 64-bit draw after one 32-bit draw (has_uint32 and
    uinteger): the file keeps both, and the loaded World draws the same numbers."""
    w = World(seed=3)
    w.rng.integers(0, 10, dtype=np.uint32)
    state = w.rng.bit_generator.state
    assert state["has_uint32"] == 1 and state["uinteger"] > 1
    w.save(tmp_path / "w.npz")
    loaded = World.load(tmp_path / "w.npz")
    assert loaded.rng.bit_generator.state == state
    assert (loaded.rng.integers(0, 2**32, 5, dtype=np.uint32).tolist()
            == w.rng.integers(0, 2**32, 5, dtype=np.uint32).tolist())


def _archive(dst, arrays, key, write):
    """A save file of ``arrays`` as ``save`` stores them, but member ``key`` written by
    ``write(member, array)``."""
    with zipfile.ZipFile(dst, "w") as zf:
        for name, arr in arrays.items():
            with zf.open(name + ".npy", "w") as m:
                (write if name == key else np.lib.format.write_array)(m, arr)


def test_a_fortran_ordered_member_is_refused_naming_it(saved, tmp_path):
    """A member NumPy wrote in Fortran order (its values and digest right) is refused as
    such, not read in C order as other values."""
    _, _, path = saved
    arrays = arrays_of(path)
    assert min(arrays["store.counts"].shape) > 1
    _archive(tmp_path / "bad.npz", arrays, "store.counts",
             lambda m, arr: np.lib.format.write_array(m, np.asfortranarray(arr)))
    with pytest.raises(SnapshotError, match="'store.counts.npy' is not a plain C-ordered array"):
        World.load(tmp_path / "bad.npz")


def test_a_member_longer_than_its_header_says_is_refused_naming_it(saved, tmp_path):
    _, _, path = saved

    def padded(m, arr):
        np.lib.format.write_array(m, arr)
        m.write(bytes(8))
    _archive(tmp_path / "bad.npz", arrays_of(path), "names", padded)
    with pytest.raises(SnapshotError, match="'names.npy' is [0-9]+ bytes in the archive, its header says"):
        World.load(tmp_path / "bad.npz")


def _resized(arrays, dim, size, fill):
    """Every array with dimension ``dim`` (``persist._SPEC``) cut or grown to ``size``
    along it, grown with ``fill(key)``."""
    for key, (_, shape) in persist._SPEC.items():
        if shape and dim in shape:
            axis, arr = shape.index(dim), arrays[key]
            if size <= arr.shape[axis]:
                arrays[key] = arr.take(range(size), axis=axis)
            else:
                more = list(arr.shape)
                more[axis] = size - arr.shape[axis]
                arrays[key] = np.concatenate([arr, np.full(more, fill(key), arr.dtype)], axis=axis)


def test_a_file_of_no_games_is_refused(tmp_path):
    """A World has at least one game: a file of none, each array cut to it, is refused."""
    World(seed=1).save(tmp_path / "w.npz")

    def none(a):
        _resized(a, "B", 0, None)
        a["config.batch"] = np.array(0, np.int64)
        a["store.meta"] = np.array([0, *a["store.meta"][1:]])
    rewrite(tmp_path / "w.npz", tmp_path / "bad.npz", none)
    with pytest.raises(SnapshotError, match="config.batch 0 is not positive"):
        World.load(tmp_path / "bad.npz")


def test_more_columns_than_ids_are_refused(tmp_path):
    """A column is made for an id: a file with a (free) column more than the ids issued
    is refused, as store.meta contradicting itself."""
    World(seed=1, batch=2).save(tmp_path / "w.npz")
    fields = {f.name: f.fill for f in ALL_FIELDS}

    def one_more(a):
        n, next_id = a["store.meta"][1:]
        assert n == next_id == 0
        _resized(a, "n", 1, lambda key: fields.get(key[6:], 0))
        a["store.meta"] = np.array([a["store.meta"][0], 1, 0])
    rewrite(tmp_path / "w.npz", tmp_path / "bad.npz", one_more)
    with pytest.raises(SnapshotError, match="store.meta: 1 columns and 0 ids do not fit"):
        World.load(tmp_path / "bad.npz")


def test_a_member_listed_twice_is_refused(saved, tmp_path):
    """An archive naming one array twice (the zip directory allows it; the last would win)
    is refused, whichever copy a reader would take."""
    _, _, path = saved
    bad = tmp_path / "bad.npz"
    bad.write_bytes(path.read_bytes())
    with pytest.warns(UserWarning, match="Duplicate name"), zipfile.ZipFile(bad, "a") as zf:
        with zf.open("names.npy", "w") as m:
            np.lib.format.write_array(m, np.array(["Other"]))
    with pytest.raises(SnapshotError, match="member 'names.npy' is not one array"):
        World.load(bad)


@pytest.mark.parametrize("seed, message", [
    (np.random.SeedSequence(1, pool_size=persist.MAX_POOL_SIZE + 1), "pool size"),
    (10**persist.MAX_ENTROPY_DIGITS, "entropy"),
    ([1, 10**persist.MAX_ENTROPY_DIGITS], "entropy"),
])
def test_save_refuses_what_load_would_refuse(tmp_path, seed, message):
    """A World whose seed no file may hold is refused by save, not saved unloadable."""
    w = World(seed=seed)
    with pytest.raises(SnapshotError, match=message):
        w.save(tmp_path / "w.npz")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("key", ["seed.n_spawned", "log.meta"])
def test_counters_a_world_increments_are_bounded(saved, tmp_path, key):
    """A loaded World can spawn seeds and record steps without passing int64."""
    _, _, path = saved
    bad = tmp_path / "bad.npz"
    big = np.int64(2**63 - 1)
    rewrite(path, bad, _set(key, lambda v: np.array([v[0], big]) if v.ndim else np.array(big)))
    with pytest.raises(SnapshotError, match="n_spawned|log.meta"):
        World.load(bad)


def _peak_while(fn):
    tracemalloc.start()
    try:
        fn()
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


def test_a_deflated_member_is_refused_without_inflating_it(saved, tmp_path):
    """A small file with a big deflated member (a zip bomb) is refused from the
    archive directory; nothing is decompressed. (A 2 MB file with a 2 GiB member took
    13-30 s and 4 GB before this check; here a 64 MiB member, some 64 kB on disk.)"""
    _, _, path = saved
    arrays = arrays_of(path)
    arrays["store.counts"] = np.zeros(2**24, np.int32)
    bomb = tmp_path / "bomb.npz"
    with zipfile.ZipFile(bomb, "w") as zf:
        for key, arr in arrays.items():
            info = zipfile.ZipInfo(key + ".npy", (2020, 1, 1, 0, 0, 0))
            if key == "store.counts":
                info.compress_type = zipfile.ZIP_DEFLATED
            with zf.open(info, "w") as m:
                np.lib.format.write_array(m, arr)
    assert bomb.stat().st_size < 2**20
    with pytest.raises(SnapshotError, match="compressed"):
        World.load(bomb)
    assert _peak_while(lambda: pytest.raises(SnapshotError, World.load, bomb)) < 4 * 2**20


def test_compressed_save_files_are_refused(saved, tmp_path):
    """One format: members stored as save writes them (np.savez_compressed's are not)."""
    _, _, path = saved
    np.savez_compressed(tmp_path / "z.npz", **arrays_of(path))
    with pytest.raises(SnapshotError, match="compressed"):
        World.load(tmp_path / "z.npz")


def _directory_sizes(src, dst, key, compressed, size):
    """Copy the save file ``src`` to ``dst`` with the archive directory's compressed size
    and size of member ``key`` set to the given values (the data left as it is)."""
    data = bytearray(Path(src).read_bytes())
    name = (key + ".npy").encode()
    at = data.find(b"PK\x01\x02")
    while at >= 0:   # the central directory's entries: sizes at 20 and 24, name at 46
        length = int.from_bytes(data[at + 28:at + 30], "little")
        if data[at + 46:at + 46 + length] == name:
            data[at + 20:at + 28] = compressed.to_bytes(4, "little") + size.to_bytes(4, "little")
            Path(dst).write_bytes(data)
            return
        at = data.find(b"PK\x01\x02", at + 46 + length)
    raise AssertionError(f"no directory entry for {key}")


def test_a_stored_member_whose_sizes_disagree_is_refused_naming_it(saved, tmp_path):
    """The archive directory of a stored member gives two sizes, stored and whole, which
    save writes equal: a file where they differ is refused from the directory, naming the
    array and both sizes, before any member is read."""
    _, _, path = saved
    size = zipfile.ZipFile(path).getinfo("store.counts.npy").file_size
    bad = tmp_path / "bad.npz"
    _directory_sizes(path, bad, "store.counts", size - 1, size)
    with pytest.raises(SnapshotError, match=rf"'store.counts' is stored in {size - 1} bytes "
                                            rf"where the archive directory says it holds {size}"):
        World.load(bad)


def test_a_directory_listing_more_bytes_than_the_file_is_refused(saved, tmp_path):
    """A member the archive directory says holds 4 GB in a file of a few kB is refused from
    the directory, naming the file's size: no member is read."""
    _, _, path = saved
    bad = tmp_path / "bad.npz"
    _directory_sizes(path, bad, "store.counts", 2**32 - 1, 2**32 - 1)
    size = bad.stat().st_size
    with pytest.raises(SnapshotError, match=f"lists more bytes than the file's {size}"):
        World.load(bad)


def test_member_shapes_are_checked_from_their_headers_before_any_data_is_read(saved, tmp_path):
    """A stored 64 MiB member whose header disagrees with the header arrays
    (store.meta, config.batch) is refused from its header: its data is never read."""
    _, _, path = saved
    bad = tmp_path / "bad.npz"
    rewrite(path, bad, _set("store.counts", lambda v: np.zeros((1, 1, 2**24), np.int32)))
    peak = _peak_while(lambda: pytest.raises(SnapshotError, World.load, bad))
    with pytest.raises(SnapshotError, match="shape"):
        World.load(bad)
    assert peak < 4 * 2**20


def test_a_huge_batch_with_nothing_in_it_costs_what_its_file_holds(tmp_path):
    """A file of 2**18 games with no object (512 kB of store.winner) loads without
    allocating a store's default capacity of 64 columns in every game first (that took
    1,400x the file)."""
    w = World(batch=2**18, seed=1)
    w.save(tmp_path / "w.npz")
    size = (tmp_path / "w.npz").stat().st_size
    peak = _peak_while(lambda: World.load(tmp_path / "w.npz"))
    assert peak < 100 * size


# ---- writing safely -------------------------------------------------------------------
def test_save_never_follows_a_link_planted_at_its_temporary_name(saved, tmp_path, monkeypatch):
    """The temporary name is unpredictable and created exclusively: a link planted where a
    temporary file goes (the old predictable name, or this save's first random pick) is
    never written through, and the saved path is a regular file."""
    w, ids, path = saved
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious")
    os.symlink(victim, f"{path}.tmp-{os.getpid()}")       # the name before writes were made safe
    picks = iter(["0" * 16])
    real = persist.secrets.token_hex
    monkeypatch.setattr(persist.secrets, "token_hex", lambda n: next(picks, None) or real(n))
    planted = tmp_path / f".world.npz{persist._TMP}{os.getpid()}-{'0' * 16}"
    os.symlink(victim, planted)
    w.put_counters(ids["walker"], "loyalty", 1)
    w.save(path)
    assert victim.read_bytes() == b"precious"
    assert path.is_file() and not path.is_symlink()
    assert full_state(World.load(path)) == full_state(w)
    assert planted.is_symlink()   # not ours to remove: its pid (ours) is alive


def test_save_replaces_a_link_at_the_target_without_writing_through_it(saved, tmp_path):
    w, _, _ = saved
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious")
    link = tmp_path / "link.npz"
    os.symlink(victim, link)
    w.save(link)
    assert victim.read_bytes() == b"precious"
    assert link.is_file() and not link.is_symlink()


def test_threads_saving_to_one_path_leave_one_whole_file(tmp_path):
    """4 threads x 5 saves to one path (before: FileNotFoundError on the shared
    temporary name, and a final file unloadable in 1 run of 4)."""
    path = tmp_path / "w.npz"
    worlds = []
    for i in range(4):
        w, _ = busy_world(batch=2 + i, seed=i)
        worlds.append(w)
    errors = []

    def run(w):
        try:
            for _ in range(5):
                w.save(path)
        except Exception as exc:   # reported below, with the others
            errors.append(exc)
    threads = [threading.Thread(target=run, args=(w,)) for w in worlds]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert full_state(World.load(path)) in [full_state(w) for w in worlds]
    assert temporaries(tmp_path) == []


_KILLED_WRITER = """
import os, signal, sys
import numpy as np
from ecs import World

def die_mid_write(fh, **arrays):
    fh.write(b"x" * 1_000_000)
    fh.flush()
    os.kill(os.getpid(), signal.SIGKILL)

w = World.load(sys.argv[1])
w.put_counters(w.players()[0], "poison", 1)
np.savez = die_mid_write
w.save(sys.argv[1])
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX kill -9")
def test_a_writer_killed_mid_save_loses_nothing_and_its_leftover_is_removed(saved, tmp_path):
    """Kill -9 during a save keeps the previous file, and the next save to that
    path removes the dead writer's temporary file (before: left forever)."""
    w, _, path = saved
    r = subprocess.run([sys.executable, "-c", _KILLED_WRITER, str(path)], cwd=ROOT,
                       capture_output=True, timeout=120)
    assert r.returncode == -signal.SIGKILL, r.stderr.decode()
    assert len(temporaries(tmp_path)) == 1
    assert full_state(World.load(path)) == full_state(w)
    w.save(path)
    assert temporaries(tmp_path) == []
    assert full_state(World.load(path)) == full_state(w)


def test_only_leftovers_of_dead_writers_of_that_name_are_removed(saved, tmp_path):
    w, _, path = saved
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True)
    dead = int(done.stdout)
    names = {"dead": f".world.npz{persist._TMP}{dead}-ab12",
             "alive": f".world.npz{persist._TMP}{os.getpid()}-cd34",
             "other target": f".other.npz{persist._TMP}{dead}-ef56",
             "not a pid": f".world.npz{persist._TMP}x1-0000",
             "no random part": f".world.npz{persist._TMP}{dead}"}
    for name in names.values():
        (tmp_path / name).write_bytes(b"partial")
    w.save(path)
    assert temporaries(tmp_path) == sorted(v for k, v in names.items() if k != "dead")


def test_save_fsyncs_the_file_before_renaming_it_and_the_folder_after(saved, monkeypatch):
    w, _, path = saved
    calls = []
    fsync, replace = os.fsync, os.replace

    def logged_fsync(fd):
        calls.append("fsync folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "fsync file")
        fsync(fd)

    def logged_replace(src, dst):
        calls.append("rename")
        replace(src, dst)
    monkeypatch.setattr(os, "fsync", logged_fsync)
    monkeypatch.setattr(os, "replace", logged_replace)
    w.save(path)
    assert calls == ["fsync file", "rename", "fsync folder"]


def test_a_failed_save_keeps_the_old_file_and_leaves_no_temporary(saved, tmp_path, monkeypatch):
    w, ids, path = saved
    before = path.read_bytes()

    def broken(fh, **arrays):
        fh.write(b"half a file")
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(np, "savez", broken)
    w.put_counters(ids["walker"], "loyalty", 1)
    with pytest.raises(OSError, match="No space"):
        w.save(path)
    assert path.read_bytes() == before
    assert temporaries(tmp_path) == []


def test_a_version_3_file_loads(saved, tmp_path):
    """Version 4 lets an id sit in different columns in different games; a version-3 file
    (each id in one column) is a version-4 file that never does, and loads as it was."""
    w, _, path = saved
    old = tmp_path / "v3.npz"
    rewrite(path, old, _set("format_version", np.array(3, np.int64)))
    assert full_state(World.load(old)) == full_state(w)


def test_an_id_twice_in_one_game_is_refused(tmp_path):
    w = World(batch=2)
    p = w.add_player()
    a, b = w.add_object(p, "artifact"), w.add_object(p, "artifact")
    path, bad = tmp_path / "w.npz", tmp_path / "bad.npz"
    w.save(path)

    def twice(arrays):
        ids = arrays["store.entity_id"].copy()
        ids[1][ids[1] == b] = a
        arrays["store.entity_id"] = ids
    rewrite(path, bad, twice)
    with pytest.raises(SnapshotError, match="one id in two slots of a game"):
        World.load(bad)


def test_a_file_holds_the_hosts_effects_and_a_load_marks_them_again(tmp_path):
    """The mark of a host's effects (``ecs.host.marks``) is made from them, not saved:
    the format stays version 4, and a load marks exactly what the World had marked (an
    effect set then ended leaves none), so the loaded World ends them on a zone change."""
    w = World(batch=2, seed=0)
    p = w.add_player()
    a, b, c = (w.add_object(p, "creature", power=2, toughness=2) for _ in range(3))
    w.modify_pt(a, 1, 1, games=[0])
    w.set_hold(b)
    w.set_hold(b, False, games=[1])
    w.prohibit(c, "-1/-1")
    w.allow(c)
    w.set_redirect(c, "exile", games=[1])
    path = tmp_path / "w.npz"
    w.save(path)
    assert "store.host_marked" not in arrays_of(path)
    loaded = World.load(path)
    assert full_state(loaded) == full_state(w)
    assert int(loaded.store.a["host_marked"].sum()) == 3   # a and b in game 0, c in game 1
    loaded.move_zone([a, b, c], "hand")
    assert not loaded.store.a["host_marked"].any() and not marks(loaded.store.a).any()
