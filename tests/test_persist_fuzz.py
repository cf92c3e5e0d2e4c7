"""A save-file fuzzer: random byte flips, truncations, and edits of every array
with the digest recomputed the way ``save`` computes it.

Every file must end in a SnapshotError or a World: for flips and truncations exactly the
saved World (a flip may hit a byte nothing reads), for re-digested edits a World the
loader's checks (ecs.persist) accepted, which must then be usable: every read works on
every id, ``tick()``, ``fork`` and ``select`` work, and after them the World saves and
loads again (it is still consistent). Anything else - another exception, a hang - fails.

Sized for CI (a few seconds); ``HYPOTHESIS_PROFILE=thorough`` runs the profile's number
of examples.
"""
from __future__ import annotations

import functools
import os
import tempfile

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from profiles import examples

from ecs import CounterError, SnapshotError, World, persist

try:
    from state import full_state
    from test_search import busy_world
except ImportError:  # pragma: no cover - imported as a package
    from tests.state import full_state
    from tests.test_search import busy_world

_FUZZ = settings(max_examples=examples(150), deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])


def _ga_world() -> World:
    w = World(ruleset="grand_archive", batch=2, seed=[7, 8])
    a, b = w.add_player(), w.add_player()
    w.add_object(a, "champion", life=20, level=1, name="champion")
    ally = w.add_object(b, "ally", power=2, life=3, counters={"buff": 2})
    w.add_objects(3, a, "action", zone="library")
    w.add_object(b, "item", durability=2, counters={"wither": 1})
    w.set_reserve(b, 3)
    w.deal_damage(ally, np.array([0, 5]))
    w.begin_main_phase(b)
    w.shuffle_library(a)
    w.draw(a)
    return w


def _two_headed_giant() -> World:
    w = World(batch=2, two_headed_giant=True, seed=3)
    p, _, r = w.add_player(team=0), w.add_player(team=0), w.add_player(team=1)
    w.put_counters(p, "poison", 4)
    w.add_object(r, {"creature"}, power=1, toughness=1, counters={"-1/-1": 1})
    w.tick()
    return w


@functools.lru_cache(maxsize=None)
def bases() -> tuple[tuple[World, bytes, dict], ...]:
    """The saved Worlds the fuzzer starts from: each as a World, its file and its state."""
    busy, _ = busy_world()
    out = []
    with tempfile.TemporaryDirectory() as d:
        for w in (busy, busy.select([2, 0]), _ga_world(), _two_headed_giant()):
            path = os.path.join(d, "w.npz")
            w.save(path)
            with open(path, "rb") as fh:
                out.append((w, fh.read(), full_state(w)))
    return tuple(out)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A folder for the fuzzed files; saves there skip fsync (durability is not what is
    fuzzed here, and it costs most of a save: tests/test_persist.py checks it)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(os, "fsync", lambda fd: None)
        yield tmp_path_factory.mktemp("fuzz")


def load_bytes(data: bytes, folder) -> World:
    path = folder / "fuzzed.npz"
    path.write_bytes(data)
    return World.load(path)


def check_usable(w: World, folder) -> None:
    """Every read on every id, fork, select and a tick; then the World saves and loads to
    an equal World (the tick left it consistent). CounterErrors are answers; anything
    else fails the test."""
    def answer(fn, *args):
        try:
            return fn(*args)
        except CounterError:
            return None

    for e in range(w.store.next_id):
        if not np.any(answer(w.exists, e)):
            continue
        for read in (w.zone, w.counters, w.controller, w.name, w.keywords, w.is_tapped,
                     w.damage, w.power, w.toughness, w.loyalty, w.defense, w.life,
                     w.has_lost):
            answer(read, e)
        if w.ruleset.name == "grand_archive":
            answer(w.reserve, e)
    w.result(), w.players(), w.events(), w.event_table(), w.active_player()
    answer(w.observe, np.arange(w.store.next_id))
    w.fork(0, 2), w.select([w.batch - 1]), w.clone()
    answer(w.tick)
    path = folder / "again.npz"
    w.save(path)
    assert full_state(World.load(path)) == full_state(w)


@_FUZZ
@given(base=st.integers(0, 3), flips=st.lists(st.tuples(st.integers(0, 2**31), st.integers(1, 255)),
                                              min_size=1, max_size=4))
def test_flipped_bytes_give_a_snapshot_error_or_the_saved_world(folder, base, flips):
    _, data, state = bases()[base]
    corrupt = bytearray(data)
    for at, xor in flips:
        corrupt[at % len(data)] ^= xor
    try:
        loaded = load_bytes(bytes(corrupt), folder)
    except SnapshotError:
        return
    assert full_state(loaded) == state


@_FUZZ
@given(base=st.integers(0, 3), keep=st.floats(0, 1, exclude_max=True))
def test_a_truncated_file_gives_a_snapshot_error(folder, base, keep):
    _, data, _ = bases()[base]
    with pytest.raises(SnapshotError):
        load_bytes(data[: int(keep * len(data))], folder)


_INTS = [-2**63, -2**31, -129, -3, -2, -1, 0, 1, 2, 3, 4, 5, 8, 9, 10, 15, 16, 40, 127, 255,
         2**15 - 1, 2**30, 2**31 - 1, 2**32, 2**62, 2**63 - 1]
_TEXT = ["", "x", "mtg", "grand_archive", "+1/+1", "poison", "buff", "Bad Kind", "0", "12x",
         "9" * 300, "\u00e9", "tcg-counters-world"]
_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint32, np.uint64, np.bool_, np.float64,
           "<U3", ">i8"]


def _cast(values: list, dtype: np.dtype) -> np.ndarray:
    """Values as ``dtype``, wrapping around as C does (an attacker writes any bytes)."""
    if dtype.kind == "U":
        return np.array([str(v) for v in values], dtype=dtype)
    if dtype.kind == "b":
        return np.array([v % 256 for v in values], np.uint8).view(np.bool_)
    bits = dtype.itemsize * 8
    wrapped = [v % 2**bits for v in values]
    if dtype.kind == "i":
        wrapped = [v - 2**bits if v >= 2**(bits - 1) else v for v in wrapped]
    return np.array(wrapped, dtype)


def _sizes(arrays: dict) -> list[int]:
    """The sizes of the saved World (games, columns, ids, kinds, players, rows) and
    their neighbours: the first values outside (or just inside) a range."""
    sizes = [arrays[k].size for k in ("store.kind_names", "store.player_col", "log.type",
                                      "names") if k in arrays]
    sizes += [int(x) for k in ("store.meta", "log.meta") if k in arrays
              for x in arrays[k].reshape(-1)[:3]]
    return sorted({s + d for s in sizes for d in (-1, 0, 1)})


@st.composite
def edits(draw, arrays: dict) -> tuple[str, str]:
    """Change one array of ``arrays`` in place; returns (array, what was done)."""
    key = draw(st.sampled_from(sorted(arrays)), label="array")
    arr = arrays[key]
    how = draw(st.sampled_from(["values", "values", "values", "swap", "dtype", "shape",
                                "drop", "extra"]), label="edit")
    if how == "values" and arr.size:
        arr = arr.copy()
        flat = arr.reshape(-1)
        at = draw(st.lists(st.integers(0, arr.size - 1), min_size=1, max_size=3))
        if arr.dtype.kind == "U":
            new = draw(st.lists(st.sampled_from(_TEXT + [str(x) for x in flat[:20]]),
                                min_size=len(at), max_size=len(at)))
            values = flat.tolist()   # (new text may be longer: rebuild the array)
            for i, v in zip(at, new):
                values[i] = v
            arr = np.array(values, dtype=str).reshape(arr.shape)
        else:   # the subtle values: sizes, their neighbours, values from elsewhere
            pool = st.sampled_from(_INTS + _sizes(arrays)) | st.integers(-20, 60) \
                | st.sampled_from([int(x) for x in flat[:50]])
            new = draw(st.lists(pool, min_size=len(at), max_size=len(at)))
            flat[at] = _cast(new, arr.dtype)
    elif how == "swap" and arr.ndim and arr.shape[0] > 1:
        i, j = draw(st.integers(0, arr.shape[0] - 1)), draw(st.integers(0, arr.shape[0] - 1))
        arr = arr.copy()
        arr[[i, j]] = arr[[j, i]]
    elif how == "dtype":
        dtype = np.dtype(draw(st.sampled_from(_DTYPES)))
        try:
            arr = arr.astype(dtype)
        except (ValueError, OverflowError):
            arr = np.zeros(arr.shape, dtype)
    elif how == "shape":
        change = draw(st.sampled_from(["shorter", "longer", "flat", "axis", "empty", "scalar"]))
        if change == "shorter" and arr.ndim:
            arr = arr[:-1]
        elif change == "longer" and arr.ndim and arr.shape[0]:
            arr = np.concatenate([arr, arr[-1:]])
        elif change == "flat":
            arr = arr.reshape(-1)
        elif change == "axis":
            arr = arr[None]
        elif change == "empty":
            arr = arr.reshape(-1)[:0]
        elif arr.size:
            arr = arr.reshape(-1)[0]
    elif how == "drop":
        del arrays[key]
        return key, how
    elif how == "extra":
        arrays[draw(st.sampled_from(["extra", "store.extra", "log.extra"]))] = np.zeros(2)
        return key, how
    arrays[key] = np.asarray(arr)
    return key, how


@_FUZZ
@given(base=st.integers(0, 3), data=st.data())
def test_redigested_edits_give_a_snapshot_error_or_a_usable_world(folder, base, data):
    _, raw, _ = bases()[base]
    path = folder / "edited.npz"
    path.write_bytes(raw)
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    done = [data.draw(edits(arrays)) for _ in range(data.draw(st.integers(1, 2), label="edits"))]
    arrays["digest"] = np.array(persist.digest(arrays))
    with open(path, "wb") as fh:
        np.savez(fh, **arrays)
    try:
        loaded = World.load(path)
    except SnapshotError:
        event("refused")
        return
    event(f"loaded after {' and '.join(how for _, how in done)}")
    check_usable(loaded, folder)
