"""Tree search and Monte Carlo support: snapshot/restore, clone, fork, select
and observations (save/load: tests/test_persist.py).

"Exactly the snapshotted state" is checked on everything a World holds: every store array
(dtype, shape and values), the event log (columns, LKI, row and step counters), the name
table, the random generator's state and the seed sequence with its spawn counter.
"""
import sys

import numpy as np
import pytest

from ecs import (
    CounterChanged,
    CounterError,
    GameOverError,
    InvalidGameError,
    InvalidTypeError,
    SnapshotError,
    StaleEntityError,
    UnknownEntityError,
    World,
    ZoneChanged,
)
from ecs import batch as batches
from ecs import observe as observation
from ecs.components import ALL_FIELDS, GAME_COLUMN

try:
    from state import full_state
except ImportError:  # pragma: no cover - imported as a package
    from tests.state import full_state


def busy_world(batch: int = 3, seed: int = 11) -> tuple[World, dict]:
    """A batch whose games have diverged: moves, tokens in some games, caps, losses, events."""
    w = World(batch=batch, seed=seed)
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2, name="Bear")
    walker = w.add_object(q, {"planeswalker"}, loyalty=4, name="Walker")
    battle = w.add_object(q, {"battle"}, defense=3)
    rock = w.add_object(p, {"artifact"}, counters={"charge": 2}, caps={"charge": 3})
    w.put_counters(bear, "+1/+1", np.arange(batch))
    w.put_counters(bear, "shield", 1, games=[0])
    w.deal_damage(walker, 2, games=[1])
    w.destroy(bear, games=[0, batch - 1])
    tok = w.add_object(p, {"creature"}, power=1, toughness=1, token=True, games=[1],
                       counters={"flying": 1})
    w.put_counters(p, "poison", 3, games=[batch - 1])
    w.lose_life(q, 25, games=[batch - 1])
    w.tap(rock)
    w.tick()
    return w, dict(p=p, q=q, bear=bear, walker=walker, battle=battle, rock=rock, tok=tok)


def more_actions(w: World, ids: dict) -> None:
    """Actions that touch every part of the state, including new players, kinds and names."""
    p = ids["p"]
    w.add_player(life=7)
    w.put_counters(ids["walker"], "loyalty", 1)
    w.put_counters(ids["rock"], "brand-new kind", 2)
    w.add_objects(3, p, {"creature"}, power=1, toughness=1, name="Elf", games=[0, 1])
    w.move_zone(ids["rock"], "exile", games=[1])
    w.deal_damage(ids["battle"], 3)
    w.set_cap(ids["walker"], "loyalty", 1, games=[0])
    w.rng.random(7)
    w.spawn_seeds(2)
    w.tick()
    w.clear_events()
    w.lose_life(p, 30, games=[0])
    w.tick()


# ---- snapshot and restore --------------------------------------------------------------------
def test_restore_gives_back_exactly_the_snapshotted_state():
    w, ids = busy_world()
    before = full_state(w)
    snap = w.snapshot()
    more_actions(w, ids)
    assert full_state(w) != before
    w.restore(snap)
    assert full_state(w) == before
    # the snapshot was not consumed or aliased: act and restore again
    more_actions(w, ids)
    w.restore(snap)
    assert full_state(w) == before


def test_snapshots_restored_in_turn_give_their_states_and_what_followed_them():
    """A depth-first search restores its snapshots in turn (a node's, a child's, the node's
    again), each of them read whole: each restore gives its state, and the same actions
    then give what they gave from it the first time, the ids they make included (the
    snapshot carries the store's id index). A plain dict of the same arrays (its index
    rebuilt from the slots) as well."""
    w, ids = busy_world()
    node, node_state, first = w.snapshot(), full_state(w), w.clone()
    more_actions(first, ids)
    after = full_state(first)   # what followed the node, never restored
    more_actions(w, ids)
    child, child_state = w.snapshot(), full_state(w)
    for snap, state in ((node, node_state), (child, child_state), (node, node_state)):
        w.restore(snap)
        assert full_state(w) == state
    more_actions(w, ids)
    assert full_state(w) == after
    w.restore(child)
    w.restore(dict(node, store=dict(node["store"])))   # (plain arrays: nothing carried)
    assert full_state(w) == node_state
    more_actions(w, ids)
    assert full_state(w) == after


def test_a_snapshot_restored_after_a_long_run_finds_its_ids_again():
    """After a snapshot, a long run makes and retires thousands of ids (400.7), and the id
    index drops the pages of ids no game holds any more; restored, every object of the
    snapshot is found by its id again, and acts."""
    w = World(batch=2, seed=5)
    p = w.add_player()
    tokens = w.add_objects(200, p, "creature", token=True, power=1, toughness=1)
    cards = [int(x) for x in w.add_objects(40, p, "creature", power=1, toughness=2)]
    w.destroy(tokens)
    w.tick()   # the tokens cease to exist (704.5d): the cards' ids share pages with none alive
    snap, state = w.snapshot(), full_state(w)
    alive = list(cards)
    for _ in range(60):   # each card leaves and comes back (its new ids, game by game): the old ids retire
        alive = np.asarray(w.move_zone(alive, "graveyard")).reshape(2, -1)[0].tolist()
        alive = np.asarray(w.move_zone(alive, "battlefield")).reshape(2, -1)[0].tolist()
    assert w.store.next_id > 4000
    w.restore(snap)
    assert full_state(w) == state
    assert all(w.exists(e).all() for e in cards)
    w.put_counters(cards, "+1/+1", 1)
    assert [int(w.counters(e)["+1/+1"][1]) for e in cards] == [1] * len(cards)


def test_after_restore_the_same_actions_give_the_same_state_and_random_numbers():
    w, ids = busy_world()
    snap = w.snapshot()
    more_actions(w, ids)
    first, draws = full_state(w), w.rng.integers(0, 2**62, 8).tolist()
    w.restore(snap)
    more_actions(w, ids)
    assert full_state(w) == first
    assert w.rng.integers(0, 2**62, 8).tolist() == draws


def test_restore_brings_back_events_cleared_after_the_snapshot():
    w, ids = busy_world()
    events = w.events()
    assert any(isinstance(e, ZoneChanged) and e.lki for e in events)
    snap = w.snapshot()
    w.clear_events()
    w.put_counters(ids["walker"], "loyalty", 1)
    w.restore(snap)
    assert w.events() == events


def test_restore_makes_ids_created_after_the_snapshot_unknown():
    w, ids = busy_world()
    snap = w.snapshot()
    elf = w.add_object(ids["p"], {"creature"}, power=1, toughness=1)
    w.restore(snap)
    with pytest.raises(UnknownEntityError):
        w.zone(elf)
    assert w.add_object(ids["p"], {"creature"}, power=1, toughness=1) == elf  # same id again


def test_a_loaded_world_fits_the_snapshots_of_the_world_it_was_saved_from(tmp_path):
    """load builds a World of one game and restores the file's games into it: it then has
    the saved World's batch size, so it takes that World's snapshots (and copies of them,
    checked against its own configuration), as a World built the same way does."""
    w, ids = busy_world()
    w.save(tmp_path / "w.npz")
    loaded = World.load(tmp_path / "w.npz")
    assert loaded.snapshot()["config"] == w.snapshot()["config"] == ("mtg", 3, False)
    more_actions(w, ids)
    after = full_state(w)
    for snap in (w.snapshot(), dict(w.snapshot())):
        loaded.restore(snap)
        assert full_state(loaded) == after


def _damaged(snap: dict, other: World) -> dict:
    """Snapshots restore must refuse, by what is wrong with them."""
    store = snap["store"]
    counts = store["counts"]
    return {
        "not a mapping": None,
        "a key missing": {k: v for k, v in snap.items() if k != "log"},
        "a count of another type": {**snap, "n_spawned": "x"},
        "a store that is no mapping": {**snap, "store": 5},
        "an array of another shape": {**snap, "store": {**store, "counts": counts[:, :, :-1]}},
        "an array of another dtype": {**snap, "store": {**store, "counts": counts.astype(np.int64)}},
        "a value out of range": {**snap, "store": {**store, "zone": store["zone"] + 100}},
        "another batch": other.snapshot(),
        "another ruleset": World(ruleset="grand_archive", batch=3).snapshot(),
        "Two-Headed Giant": World(batch=3, two_headed_giant=True).snapshot(),
    }


def test_a_snapshot_that_does_not_fit_raises_snapshot_error_and_changes_nothing():
    """restore takes a snapshot of a World of the same ruleset, batch size and Two-Headed
    Giant setting; a copy (dict, pickle, deepcopy) is checked as a save file is, and
    restores exactly. Anything else raises SnapshotError, a CounterError, and leaves the
    World as it was (a missing part used to raise a KeyError after the store was back)."""
    import copy
    import pickle
    w, ids = busy_world()
    snap = w.snapshot()
    more_actions(w, ids)
    after = full_state(w)
    for why, bad in _damaged(snap, World(batch=2)).items():
        with pytest.raises(SnapshotError):
            w.restore(bad)
        assert full_state(w) == after, why
    w.restore(snap)
    state = full_state(w)
    for copied in (dict(snap), pickle.loads(pickle.dumps(snap)), copy.deepcopy(snap)):
        more_actions(w, ids)
        w.restore(copied)
        assert full_state(w) == state
    n_spawned = snap["n_spawned"]
    with pytest.raises(TypeError, match=r"^WorldSnapshot is read-only: a snapshot and its parts are values"):
        snap["n_spawned"] = 0   # (a snapshot is read-only: a copy is what to change)
    assert snap["n_spawned"] is n_spawned


def test_snapshot_is_arrays_not_python_objects():
    w, _ = busy_world()
    snap = w.snapshot()
    assert all(isinstance(v, np.ndarray) for v in snap["store"].values())
    assert all(isinstance(v, np.ndarray) for ch in snap["log"]["chunks"] for v in ch.values())


# ---- clone -------------------------------------------------------------------------------------
def test_clone_is_equal_and_independent():
    w, ids = busy_world()
    c = w.clone()
    assert full_state(c) == full_state(w)
    before = full_state(w)
    more_actions(c, ids)
    assert full_state(w) == before
    cloned = full_state(c)
    more_actions(w, ids)
    assert full_state(c) == cloned
    assert full_state(w) == cloned  # same actions from the same state: the same result


def test_clone_keeps_the_seed_sequence_of_an_unseeded_world():
    w = World(batch=2)                       # entropy from the OS
    c = w.clone()
    assert [s.generate_state(4).tolist() for s in c.spawn_seeds(2)] == \
        [s.generate_state(4).tolist() for s in w.spawn_seeds(2)]
    assert c.rng.random(3).tolist() == w.rng.random(3).tolist()


def test_a_world_seeded_by_a_child_seed_keeps_its_spawn_key_in_clones_and_snapshots():
    """A shard's World seeded by a child from ``spawn_seeds`` (a SeedSequence with a spawn
    key): its clone and a World restored from its snapshot draw from that child, not from
    the root it came from, and hand out that child's children."""
    kid = World(seed=5).spawn_seeds(2)[1]
    expect_draws = np.random.default_rng(np.random.SeedSequence(5).spawn(2)[1]).random(3).tolist()
    expect_seeds = [k.generate_state(4).tolist() for k in np.random.SeedSequence(5).spawn(2)[1].spawn(2)]
    w = World(seed=kid)
    restored = World(seed=6)
    restored.restore(w.snapshot())
    for x in (w.clone(), restored, w):
        assert x.seed_seq.spawn_key == (1,)
        assert x.rng.random(3).tolist() == expect_draws
        assert [k.generate_state(4).tolist() for k in x.spawn_seeds(2)] == expect_seeds


# ---- seeds ---------------------------------------------------------------------------------------
def test_spawn_seeds_are_seedsequence_children_and_part_of_the_state():
    w = World(seed=5)
    kids = w.spawn_seeds(3)
    expected = np.random.SeedSequence(5).spawn(3)
    assert [k.generate_state(4).tolist() for k in kids] == [e.generate_state(4).tolist() for e in expected]
    snap = w.snapshot()
    again = w.spawn_seeds(1)[0].generate_state(4).tolist()
    w.restore(snap)
    assert w.spawn_seeds(1)[0].generate_state(4).tolist() == again
    assert again == np.random.SeedSequence(5).spawn(4)[3].generate_state(4).tolist()


def test_restore_brings_back_the_seed_sequence_of_the_snapshot():
    # A World made the same way from another seed takes the snapshot's seed sequence, not
    # its own, with the snapshot's spawn counter: its next children are the snapshot's.
    w, other = World(seed=5), World(seed=6)
    w.spawn_seeds(2)
    snap = w.snapshot()
    other.spawn_seeds(1)
    other.restore(snap)
    assert other.seed_seq.entropy == 5
    assert [k.generate_state(4).tolist() for k in other.spawn_seeds(2)] == \
        [k.generate_state(4).tolist() for k in w.spawn_seeds(2)] == \
        [k.generate_state(4).tolist() for k in np.random.SeedSequence(5).spawn(4)[2:]]


def test_same_seed_and_actions_give_bit_identical_worlds():
    a, ids_a = busy_world(seed=3)
    b, ids_b = busy_world(seed=3)
    assert ids_a == ids_b
    more_actions(a, ids_a)
    more_actions(b, ids_b)
    assert full_state(a) == full_state(b)
    fa, fb = a.fork(1, 4), b.fork(1, 4)
    assert full_state(fa) == full_state(fb)
    c, _ = busy_world(seed=4)
    assert full_state(c)["rng"] != full_state(a)["rng"]


# ---- fork --------------------------------------------------------------------------------------
def reads(w: World, e: int, game: int) -> tuple:
    """Every per-game read of one entity in one game (None where it raises)."""
    out = []
    for f in (w.counters, w.zone, w.exists, w.is_tapped, w.damage, w.power, w.toughness,
              w.loyalty, w.defense, w.keywords):
        try:
            v = f(e)
        except (InvalidTypeError, StaleEntityError):
            out.append(None)
            continue
        if isinstance(v, dict):
            v = {k: int(np.asarray(a).reshape(-1)[game] if w.batch > 1 else a) for k, a in v.items()}
            v = {k: n for k, n in v.items() if n}
        elif w.batch > 1:
            v = v[game]
        out.append(v.item() if hasattr(v, "item") else v)
    return tuple(out)


def game_view(w: World, game: int) -> dict:
    """Every entity's reads, the players' life and losses and the result, in one game."""
    s = w.store
    ids = [int(i) for i in s.a["entity_id"][game, : s.n_cols] if i >= 0]
    players = w.players()
    res = w.result()
    return {"objects": {e: reads(w, e, game) for e in ids},
            "life": [np.atleast_1d(w.life(p))[game].item() for p in players],
            "lost": [bool(np.atleast_1d(w.has_lost(p))[game]) for p in players],
            "result": res if w.batch == 1 else int(res[game]),
            "events": [e for e in w.events() if e.game == game]}


def strip_game(view: dict) -> dict:
    out = dict(view)
    out["events"] = [type(e)(**{**e.__dict__, "game": 0}) for e in view["events"]]
    if isinstance(out["result"], str):
        out["result"] = {"ongoing": -1, "draw": -2}[out["result"]]
    return out


@pytest.mark.parametrize("game", [0, 1, 2])
def test_fork_copies_one_game_into_n_games(game):
    w, ids = busy_world()
    f = w.fork(game, 5)
    assert f.batch == 5 and f.ruleset.name == w.ruleset.name
    source = strip_game(game_view(w, game))
    for g in range(5):
        assert strip_game(game_view(f, g)) == source
    assert [e.game for e in f.events()][:5] == [0, 1, 2, 3, 4][: min(5, len(f.events()))]


def test_fork_then_diverge_and_the_source_is_unchanged():
    w, ids = busy_world()
    before = full_state(w)
    f = w.fork(1, 3)
    assert full_state(w)["store"] == before["store"]     # only the spawn counter moved
    assert w.n_spawned == before["n_spawned"] + 1
    f.deal_damage(ids["walker"], np.array([0, 1, 5]))
    f.tick()
    assert f.zone(ids["walker"]).tolist() == ["battlefield", "battlefield", "none"]
    assert full_state(w)["store"] == before["store"]


def _index_matches_slots(w: World) -> None:
    """Every id ever made maps, in every game, to the column whose slot holds it (-1 where
    none does): what an index made from the slots themselves says."""
    s = w.store
    slots = s.a["entity_id"][:, : s.n_cols]
    every = np.arange(s.next_id, dtype=np.int64)
    for g in range(w.batch):
        want = np.full(every.size, -1, np.int64)
        held = slots[g] >= 0
        want[slots[g][held]] = np.flatnonzero(held)
        got = s.ids.lookup(every, np.full(every.size, g, np.int64))
        there = (got >= 0) & (got < s.n_cols)
        got = np.where(there, got, -1)
        got[there] = np.where(slots[g][got[there]] == every[there], got[there], -1)
        np.testing.assert_array_equal(got, want, err_msg=f"game {g}")


def test_a_forks_index_is_made_from_its_one_game_and_holds_as_the_copies_diverge():
    """fork makes the id index of its copies from the slots of the one game it copies (every
    id in the same column in each copy), where the source's games had diverged (an id in
    a different column per game); the copies then diverge in turn (a token ceases to exist
    in one, 704.5d, and new objects take each game's lowest free slot), and every id maps
    to its slot in every game throughout; a card that changed zones is a new object (400.7)."""
    w = World(batch=3, seed=5)
    p = w.add_player()
    w.add_player()
    tokens = w.add_objects(2, p, "creature", token=True, power=1, toughness=1)
    bears = w.add_objects(3, p, "creature", power=2, toughness=2)
    w.move_zone(int(tokens[0]), "graveyard", games=[1])   # it ceases to exist in game 1 only
    w.tick()
    spread = int(w.add_object(p, "creature", power=3, toughness=3))   # game 1's slot 1, others' new one
    assert len({int(c) for c in w.store.ids.lookup(np.array([spread] * 3), np.arange(3))}) == 2
    f = w.fork(1, 4)
    _index_matches_slots(f)
    assert f.power(spread).tolist() == [3] * 4
    f.move_zone(int(tokens[1]), "graveyard", games=[0, 2])
    f.tick()
    made = int(f.add_object(p, "creature", power=4, toughness=4))   # spread across the copies
    _index_matches_slots(f)
    f.put_counters(made, "+1/+1", np.arange(4))
    assert f.power(made).tolist() == [4, 5, 6, 7]
    new = f.move_zone(int(bears[0]), "graveyard")
    _index_matches_slots(f)
    with pytest.raises(StaleEntityError):
        f.zone(int(bears[0]))
    assert f.zone(int(np.ravel(new)[0])).tolist() == ["graveyard"] * 4
    _index_matches_slots(w)


def test_fork_has_its_own_generator_from_a_seed_sequence_child():
    w, _ = busy_world(seed=9)
    spawned = w.n_spawned
    f1, f2 = w.fork(0, 2), w.fork(0, 2)
    child = np.random.SeedSequence(9).spawn(spawned + 1)[spawned]
    assert f1.rng.random(4).tolist() == np.random.default_rng(child).random(4).tolist()
    assert f1.seed_seq.spawn_key == (spawned,)
    assert f2.seed_seq.spawn_key == (spawned + 1,)
    assert f1.n_spawned == 0
    # restore replays the same fork
    w2, _ = busy_world(seed=9)
    snap = w2.snapshot()
    a = full_state(w2.fork(2, 3))
    w2.restore(snap)
    assert full_state(w2.fork(2, 3)) == a


def test_fork_of_a_finished_game_stays_finished():
    w, ids = busy_world()
    assert not w.ongoing[2]
    f = w.fork(2, 2)
    assert f.ongoing.tolist() == [False, False]
    assert f.result().tolist() == [ids["p"]] * 2
    with pytest.raises(GameOverError):
        f.put_counters(ids["walker"], "loyalty", 1, games=0)
    f.tick()


@pytest.mark.parametrize("game, n", [(3, 1), (-1, 1), (0, 0), (0, -2), (True, 1), (0, 1.5),
                                     (np.array([0]), 1), (0, True)])
def test_fork_rejects_bad_arguments(game, n):
    w, _ = busy_world()
    with pytest.raises(InvalidGameError):
        w.fork(game, n)


def test_fork_of_a_single_game_world():
    w = World(seed=1)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    f = w.fork(0, 64)
    k = f.rng.integers(0, 3, 64)
    f.put_counters(bear, "-1/-1", k)
    f.tick()
    assert ((f.zone(bear) == "none") == (k >= 2)).all()
    assert w.zone(bear) == "battlefield" and w.counters(bear) == {}


# ---- select ------------------------------------------------------------------------------------
@pytest.mark.parametrize("games, idx", [
    ([2, 0], [2, 0]), (np.array([1]), [1]), (1, [1]), (np.array([True, False, True]), [0, 2]),
    (np.array([0, 1, 2]), [0, 1, 2]),
])
def test_select_keeps_those_games_in_that_order(games, idx):
    w, _ = busy_world()
    s = w.select(games)
    assert s.batch == len(idx)
    for new, old in enumerate(idx):
        a, b = strip_game(game_view(s, new)), strip_game(game_view(w, old))
        assert a == b


def test_select_keeps_finished_games_and_renumbers_events():
    w, ids = busy_world()
    s = w.select([2, 1])
    assert s.ongoing.tolist() == [False, True]
    table, orig = s.event_table(), w.event_table()
    assert sorted(set(table["game"].tolist())) == [0, 1]
    assert (table["game"] == 0).sum() == (orig["game"] == 2).sum()
    assert table["lki_row"].size == np.isin(orig["game"][orig["lki_row"]], [1, 2]).sum()


def test_select_has_its_own_generator_from_the_next_seed_sequence_child_and_keeps_the_step():
    """select, as fork, takes the next child of the seed sequence (never the source's own
    generator) and keeps the step counter: the events after a step read before it are
    the new World's new ones."""
    w, ids = busy_world(seed=9)
    spawned, step = w.n_spawned, w.step
    s = w.select([2, 0])
    assert w.n_spawned == spawned + 1 and s.n_spawned == 0
    assert s.seed_seq.spawn_key == (spawned,)
    child = np.random.SeedSequence(9).spawn(spawned + 1)[spawned]
    assert s.rng.random(4).tolist() == np.random.default_rng(child).random(4).tolist()
    assert s.step == step and s.events_since(step) == []
    s.put_counters(ids["walker"], "loyalty", 1, games=[1])
    assert s.step > step
    assert [(type(e), e.game) for e in s.events_since(step)] == [(CounterChanged, 1)]


@pytest.mark.parametrize("games, error", [
    ([], InvalidGameError), (np.zeros(3, bool), InvalidGameError), ([0, 0], InvalidGameError),
    ([3], InvalidGameError), (np.ones(2, bool), InvalidGameError),
])
def test_select_rejects_bad_selections(games, error):
    w, _ = busy_world()
    with pytest.raises(error):
        w.select(games)


def test_select_and_fork_are_independent_of_the_source():
    w, ids = busy_world()
    s = w.select([0, 1])
    before = full_state(w)["store"]
    s.put_counters(ids["walker"], "loyalty", 9)
    s.add_player()
    assert full_state(w)["store"] == before
    assert s.clone().select([1]).fork(0, 2).batch == 2


# ---- observations -------------------------------------------------------------------------------
def test_observe_matches_the_reads():
    w, ids = busy_world()
    objs = [ids[k] for k in ("bear", "walker", "battle", "rock", "tok", "p", "q")]
    obs, names = w.observe(objs)
    assert obs.shape == (3, len(objs), len(names)) and obs.dtype == np.float32
    assert names == w.observation_features()
    col = {n: i for i, n in enumerate(names)}
    for g in range(3):
        for j, e in enumerate(objs):
            row = obs[g, j]
            present = bool(w.exists(e)[g])
            assert row[col["present"]] == present
            if not present:
                assert not row.any()
                continue
            zone = w.zone(e)[g]
            if zone != "player":
                one_hot = [col[f"zone:{z}"] for z in observation._REAL_ZONES]
                assert row[col[f"zone:{zone}"]] == 1 and row[one_hot].sum() == 1
                assert row[col["tapped"]] == w.is_tapped(e)[g]
                assert row[col["damage"]] == w.damage(e)[g]
            for kind, counts in w.counters(e).items():
                assert row[col[f"counter:{kind}"]] == counts[g]
            for stat in ("power", "toughness", "loyalty", "defense"):
                try:
                    assert row[col[stat]] == getattr(w, stat)(e)[g]
                except InvalidTypeError:
                    assert row[col[stat]] == 0
            if e in (ids["p"], ids["q"]):
                assert row[col["life"]] == w.life(e)[g] and row[col["lost"]] == w.has_lost(e)[g]


def test_observe_per_game_ids_padding_stale_ids_and_explicit_features():
    w, ids = busy_world()
    bear, walker = ids["bear"], ids["walker"]
    new_bear = next(e.new for e in w.events() if isinstance(e, ZoneChanged) and e.old == bear)
    per_game = np.array([[bear, -1], [bear, walker], [new_bear, walker]])  # game 0: shielded
    feats = ["present", "zone", "counter:+1/+1", "counter:never used", "power", "type:creature",
             "keyword:flying", "controller", "token"]
    obs, names = w.observe(per_game, feats, dtype=np.int32)
    assert names == feats and obs.dtype == np.int32 and obs.shape == (3, 2, len(feats))
    assert obs[0, 1].tolist() == [0] * len(feats)                      # padding
    assert obs[0, 0, :3].tolist() == [1, 3, 0]                         # on the battlefield
    assert obs[2, 0, :3].tolist() == [1, 4, 0]                         # in the graveyard
    assert obs[1, 0].tolist() == [1, 3, 1, 0, 3, 1, 0, 0, 0]
    w.sacrifice(walker, games=[0, 1])
    obs2, _ = w.observe([walker], ["present", "counter:loyalty"])
    assert obs2[:, 0].tolist() == [[0, 0], [0, 0], [1, 4]]           # game 2 is finished: unchanged
    w2, ids2 = busy_world()
    w2.sacrifice(ids2["walker"], games=[0, 1])
    w2.destroy(ids2["rock"], games=[0, 1])
    obs3, _ = w2.observe([ids2["rock"]], ["present", "zone:battlefield"])
    assert obs3[:, 0].tolist() == [[0, 0], [0, 0], [1, 1]]


def test_observe_a_pad_is_absent_even_where_its_column_is_free():
    """A -1 pad reads as a free slot's id: it must still read absent (an empty World's
    first column is free)."""
    w = World(batch=2, seed=0)
    obs, _ = w.observe([-1], ["present", "zone"], dtype=np.int32)
    assert not obs.any()
    p = w.add_player()
    obs, _ = w.observe([-1, p], ["present"], dtype=np.int32)
    assert obs[:, :, 0].tolist() == [[0, 1], [0, 1]]


@pytest.mark.parametrize("ids, features, dtype, error", [
    ([10**6], None, np.float32, UnknownEntityError),
    ([-2], None, np.float32, UnknownEntityError),
    ([0.5], None, np.float32, UnknownEntityError),
    (np.zeros((2, 1), np.int64), None, np.float32, InvalidGameError),
    ([0], ["no such feature"], np.float32, InvalidTypeError),
    ([0], ["zone:ante"], np.float32, InvalidTypeError),
    ([0], ["type:wizard"], np.float32, InvalidTypeError),
    ([0], ["counter:Bad"], np.float32, Exception),
    ([0], "present", np.float32, InvalidTypeError),
    ([0], None, np.float64, InvalidTypeError),
])
def test_observe_rejects_bad_arguments(ids, features, dtype, error):
    w, _ = busy_world()
    with pytest.raises(error):
        w.observe(ids, features, dtype=dtype)


def _python_lines(fn):
    """How many lines of Python ``fn()`` runs (a loop's body counts at each turn)."""
    lines = 0

    def trace(frame, event, arg):
        nonlocal lines
        lines += event == "line"
        return trace
    sys.settrace(trace)
    try:
        fn()
    finally:
        sys.settrace(None)
    return lines


def test_observe_a_big_board_is_vectorized():
    """1,000 objects in 256 games: one call, no per-object Python work: observing all of
    them runs as many lines of Python as observing 10 (its plan made once before)."""
    w = World(batch=256, seed=0)
    p = w.add_player()
    objs = w.add_objects(1000, p, {"creature"}, power=2, toughness=2, counters={"+1/+1": 1})
    obs, names = w.observe(objs)
    assert obs.shape == (256, 1000, len(names))
    assert (obs[:, :, names.index("power")] == 3).all()
    assert _python_lines(lambda: w.observe(objs)) == _python_lines(lambda: w.observe(objs[:10]))


def test_fork_without_events_starts_an_empty_log_and_fast_fork_log_equals_the_general_one():
    w, ids = busy_world()
    f = w.fork(1, 4, events=False)
    assert f.events() == [] and f.log.step == w.log.step
    assert strip_game(game_view(f, 3))["objects"] == strip_game(game_view(w, 1))["objects"]
    table = w.event_table()
    for game in range(3):
        for n in (1, 3):
            fast = batches._fork_log(table, game, n, 7)
            slow = batches._take_log(table, np.full(n, game), 7)
            assert fast["rows"] == slow["rows"] and fast["step"] == slow["step"] == 7
            for part in ("chunks", "lki"):
                assert len(fast[part]) == len(slow[part])
                for a, b in zip(fast[part], slow[part]):
                    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def test_grand_archive_world_with_libraries_round_trips_and_forks(tmp_path):
    w = World(ruleset="grand_archive", batch=3, seed=[1, 2])
    a, b = w.add_player(), w.add_player()
    champ = w.add_object(a, "champion", life=20, level=1, name="champion")
    ally = w.add_object(b, "ally", power=2, life=3, counters={"buff": 2})
    w.deal_damage(ally, np.array([0, 1, 5]))
    w.tick()
    path = tmp_path / "ga.npz"
    w.save(path)
    loaded = World.load(path)
    assert full_state(loaded) == full_state(w)
    f = loaded.fork(0, 2)
    assert f.ruleset.name == "grand_archive"
    assert f.counters(ally)["buff"].tolist() == [2, 2]
    assert f.zone(champ).tolist() == ["battlefield"] * 2


# ---- restore after any sequence of actions (hypothesis) ----------------------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from profiles import examples  # noqa: E402

try:
    from test_batch_differential import OBJECT_SPECS, Draw, Harness, step
except ImportError:  # pragma: no cover - imported as a package
    from tests.test_batch_differential import OBJECT_SPECS, Draw, Harness, step

_EXAMPLES = examples(30)


@settings(max_examples=_EXAMPLES)
@given(data=st.data(), batch=st.integers(2, 3),
       specs=st.lists(st.integers(0, len(OBJECT_SPECS) - 1), min_size=1, max_size=4))
def test_restore_after_any_sequence_of_actions_is_exact(data, batch, specs):
    h = Harness(batch, specs)
    d = Draw(data)
    for _ in range(data.draw(st.integers(0, 8), label="before")):
        step(d, h)
    w = h.batch
    snap, before = w.snapshot(), full_state(w)
    clone: World | None = w.clone()
    if not data.draw(st.booleans(), label="the clone kept"):
        clone = None   # (gone: the restores below may write this World's arrays in place)
    if data.draw(st.booleans(), label="restored already"):
        # the restore below is then of the snapshot restored last: it rewrites only the
        # arrays the actions wrote since (``Store.mut`` notes them)
        w.restore(snap)
    for _ in range(data.draw(st.integers(1, 12), label="after")):
        step(d, h)
    if data.draw(st.booleans(), label="cloned and dropped"):   # (what was written, set aside)
        w.clone()
        for _ in range(data.draw(st.integers(0, 4), label="after that")):
            step(d, h)
    later = w.clone() if data.draw(st.booleans(), label="a later clone") else None
    later_state = full_state(later) if later is not None else None
    if data.draw(st.booleans(), label="draw"):
        w.rng.random(3)
    if data.draw(st.booleans(), label="spawn"):
        w.spawn_seeds(2)
    w.restore(snap)
    assert full_state(w) == before
    if clone is not None:
        assert full_state(clone) == before
    if later is not None:   # (a restore never writes into arrays a living clone shares)
        assert full_state(later) == later_state


def _exact_state(w: World) -> dict:
    """The state without taking a snapshot (which would change what a restore rewrites):
    every array's used part, the counters, where each id ever made sits in each game, the
    events and the generator."""
    s = w.store
    n = s.n_cols
    ids = np.arange(s.next_id)
    games = np.repeat(np.arange(s.batch)[:, None], ids.size, axis=1)
    return {"arrays": {k: (a[:, :n] if a.ndim == 2 and a.shape == (s.batch, s.capacity) else a).tolist()
                       for k, a in s.a.items()},
            "counts": s.counts[: s.n_kinds, :, :n].tolist(), "kinds": list(s.kind_names),
            "next_id": s.next_id, "where": s.locate(games, np.broadcast_to(ids, games.shape)).tolist(),
            "events": {k: v.tolist() for k, v in w.event_table().items()},
            "rng": w.rng.bit_generator.state}


def _invariants_hold(w: World) -> None:
    """What the passes and ``alloc`` rely on: each field the store says holds its fill
    (``at_fill``) does, in every slot; columns past the used ones, and count planes past
    the kinds used, hold their fills."""
    s = w.store
    for f in ALL_FIELDS:
        a = s.a[f.name]
        if s.at_fill(f.name):
            assert (a == f.fill).all(), f.name
        if f.shape == GAME_COLUMN:
            assert (a[:, s.n_cols:] == f.fill).all(), f.name
    assert not s.counts[s.n_kinds:].any() and not s.counts[:, :, s.n_cols:].any()


def _knows_every_field_at_its_fill(w: World) -> None:
    """After a restore the store knows each tracked field that holds its fill as such:
    the next zone change then reads none of them (a big batch's acting tick saves some ms)."""
    from ecs.store import _TRACKED
    for f in _TRACKED:
        assert w.store.at_fill(f.name) == bool((w.store.a[f.name] == f.fill).all()), f.name


@settings(max_examples=examples(60))
@given(data=st.data(), batch=st.integers(1, 2))
def test_snapshots_taken_and_restored_in_any_order_are_exact(data, batch):
    """A search takes snapshots and restores any of them, in any order, with actions and
    clones between: a snapshot shares the arrays nothing wrote since the snapshot taken or
    restored before it, and a restore rewrites only the arrays that differ. Each restore
    gives exactly the state its snapshot was taken in, a plain copy of it (read whole) the
    same, and the store knows which fields hold their fill, exactly after a restore. An
    action the engine refuses (a CounterError) leaves the state exactly as it was."""
    w = World(batch=batch, seed=3)
    p = w.add_player()
    first = w.add_objects(4, p, "creature", power=1, toughness=3)[0]
    for kind in ("+1/+1", "-1/-1", "charge"):   # (kinds made once: later snapshots share arrays)
        w.put_counters(first, kind, 1)
    taken: list[tuple[dict, dict]] = []
    clones = []
    for _ in range(data.draw(st.integers(1, 30), label="moves")):
        move = data.draw(st.sampled_from(["act", "act", "snapshot", "restore", "restore", "clone", "drop"]))
        objs = sorted({e for g in range(batch) for zone in ("battlefield", "graveyard")
                       for e in w.objects(zone=zone, game=g)})
        # mostly an object there; sometimes any id ever made (a player, a stale id, a card
        # in exile): acts the engine may refuse, which must change nothing
        anyone = not objs or data.draw(st.integers(0, 3), label="any id") == 0
        e = data.draw(st.integers(0, w.store.next_id - 1) if anyone else st.sampled_from(objs))
        # (no snapshot here: taking one would change what a later restore rewrites)
        before = _exact_state(w) if move == "act" else None
        try:
            if move == "act":
                act = data.draw(st.sampled_from(["put", "damage", "destroy", "add", "move", "tick",
                                                 "modify_pt", "clear_pt", "tap", "redirect"]))
                # (in some games only: the games diverge, and an id may sit in different columns)
                games = data.draw(st.sampled_from([None, [0], [batch - 1]]), label="games")
                if act == "put":
                    kind = data.draw(st.sampled_from(["+1/+1", "-1/-1", "charge", "charge", "brand new"]))
                    w.put_counters(e, kind, data.draw(st.integers(1, 3)), games=games)
                elif act == "damage":
                    w.deal_damage(e, data.draw(st.integers(1, 3)), games=games)
                elif act == "destroy":
                    w.destroy(e, games=games)
                elif act == "add":
                    w.add_object(p, "creature", power=1, toughness=data.draw(st.integers(1, 3)),
                                 token=data.draw(st.booleans()), games=games)
                elif act == "move":
                    w.move_zone(e, data.draw(st.sampled_from(["graveyard", "exile", "battlefield"])), games=games)
                elif act == "tick":
                    w.tick()
                elif act == "modify_pt":
                    w.modify_pt(e, power=1)
                elif act == "clear_pt":
                    w.clear_pt(e)
                elif act == "tap":
                    w.tap(e)
                else:
                    w.set_redirect(e, "exile")
            elif move == "snapshot":
                taken.append((w.snapshot(), _exact_state(w)))
            elif move == "restore" and taken:
                snap, state = data.draw(st.sampled_from(taken))
                plain = data.draw(st.booleans(), label="a plain copy")
                w.restore(dict(snap, store=dict(snap["store"])) if plain else snap)
                assert _exact_state(w) == state
                _knows_every_field_at_its_fill(w)
            elif move == "clone":
                clones.append((w.clone(), _exact_state(w)))
            elif move == "drop" and clones:
                clones.pop(0)
        except CounterError as err:   # an illegal action is refused and changes nothing (atomicity)
            assert move == "act", f"{move} raised {err!r}"
            assert _exact_state(w) == before, f"refused {act} {e} games={games} changed the state: {err!r}"
        _invariants_hold(w)
    for clone, state in clones:   # (a restore never writes into arrays a clone shares)
        assert _exact_state(clone) == state
