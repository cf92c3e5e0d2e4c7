"""Batches of games: one entity layout, B games that diverge freely.

Every action takes ``games=`` (None: every game still in progress; an index; a boolean
mask; an index array), per-game amounts and per-game targets as (G, m) arrays; every read
returns one value per game as a NumPy array (plain Python values when batch == 1).
"""
import numpy as np
import pytest
from ga_helpers import unchanged

from ecs import (
    DRAW,
    ONGOING,
    CounterChanged,
    GameOverError,
    IllegalActionError,
    InvalidCountError,
    InvalidGameError,
    StaleEntityError,
    World,
    ZoneChanged,
)


@pytest.fixture
def batch():
    w = World(batch=4, seed=0)
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    return w, p, q, bear


def state(w: World) -> dict:
    """Everything observable about a World, as comparable Python data."""
    snap = w.snapshot()["store"]
    return {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in snap.items()}


# ---- reads --------------------------------------------------------------------------------
def test_single_game_reads_are_plain_python_values():
    w = World(seed=0)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    w.put_counters(bear, "+1/+1", 1)
    for value, typ in ((w.power(bear), int), (w.toughness(bear), int), (w.zone(bear), str),
                       (w.is_tapped(bear), bool), (w.damage(bear), int), (w.life(p), int),
                       (w.has_lost(p), bool), (w.exists(bear), bool), (w.count(bear, "+1/+1"), int),
                       (w.result(), str)):
        assert type(value) is typ
    assert w.counters(bear) == {"+1/+1": 1} and type(w.counters(bear)["+1/+1"]) is int
    assert w.keywords(bear) == frozenset()


def test_batch_reads_return_one_value_per_game(batch):
    w, p, q, bear = batch
    w.put_counters(bear, "+1/+1", np.array([0, 1, 2, 3]))
    w.tap(bear, games=[1, 3])
    w.deal_damage(bear, 1, games=2)
    w.lose_life(q, np.array([1, 2, 3, 4]))
    for read, expected in ((w.power(bear), [2, 3, 4, 5]), (w.toughness(bear), [2, 3, 4, 5]),
                           (w.count(bear, "+1/+1"), [0, 1, 2, 3]),
                           (w.is_tapped(bear), [False, True, False, True]),
                           (w.damage(bear), [0, 0, 1, 0]), (w.life(q), [19, 18, 17, 16]),
                           (w.life(p), [20] * 4), (w.has_lost(p), [False] * 4),
                           (w.exists(bear), [True] * 4), (w.result(), [ONGOING] * 4)):
        assert isinstance(read, np.ndarray) and read.shape == (4,)
        assert read.tolist() == expected
    assert w.zone(bear).tolist() == ["battlefield"] * 4
    counters = w.counters(bear)
    assert list(counters) == ["+1/+1"] and counters["+1/+1"].tolist() == [0, 1, 2, 3]
    kw = w.keywords(bear)
    assert kw.shape == (4,) and all(k == frozenset() for k in kw)


def test_reads_are_copies_not_views_of_the_state(batch):
    w, p, _, bear = batch
    life = w.life(p)
    life[:] = 0
    tapped = w.is_tapped(bear)
    tapped[:] = True
    assert w.life(p).tolist() == [20] * 4 and not w.is_tapped(bear).any()


# ---- selections of every form -----------------------------------------------------------
@pytest.mark.parametrize("games, chosen", [
    (None, [0, 1, 2, 3]),
    (2, [2]),
    (np.int64(1), [1]),
    (np.array([True, False, True, False]), [0, 2]),
    ([False, True, True, True], [1, 2, 3]),
    (np.array([3, 0]), [0, 3]),
    ([1], [1]),
    (np.array([], np.int64), []),
    (np.zeros(4, bool), []),
])
def test_every_form_of_games(batch, games, chosen):
    w, _, _, bear = batch
    w.put_counters(bear, "charge", 2, games=games)
    expected = [2 if g in chosen else 0 for g in range(4)]
    assert w.count(bear, "charge").tolist() == expected


@pytest.mark.parametrize("games, error", [
    (4, InvalidGameError), (-1, InvalidGameError), ([0, 0], InvalidGameError),
    (np.ones(3, bool), InvalidGameError), (True, InvalidGameError), ([0.5], InvalidGameError),
    (np.zeros((2, 2), np.int64), InvalidGameError), ("0", InvalidGameError),
])
def test_bad_game_selections_raise_and_change_nothing(batch, games, error):
    w, _, _, bear = batch
    before = state(w)
    with pytest.raises(error):
        w.put_counters(bear, "charge", 1, games=games)
    assert state(w) == before


class _NoRepr(list):
    """A game selection whose repr must not be taken: a batch's games array takes about a
    millisecond to print, once per action if a message were built before it is needed."""

    def __repr__(self) -> str:
        raise AssertionError("a selection was printed with no error to report")


def test_a_good_game_selection_is_never_printed(batch):
    w, _, _, bear = batch
    w.put_counters(bear, "charge", 1, games=_NoRepr([1, 3]))
    assert w.count(bear, "charge").tolist() == [0, 1, 0, 1]


# ---- per-game amounts and targets ----------------------------------------------------------
def test_per_game_amounts_for_one_id_index_the_selected_games(batch):
    w, _, _, bear = batch
    w.put_counters(bear, "charge", np.array([5, 7]), games=[3, 1])
    assert w.count(bear, "charge").tolist() == [0, 7, 0, 5]
    w.remove_counters(bear, "charge", np.array([1, 2, 3, 4]))
    assert w.count(bear, "charge").tolist() == [0, 5, 0, 1]


def test_amounts_broadcast_against_games_and_objects(batch):
    w, p, _, bear = batch
    elf = w.add_object(p, {"creature"}, power=1, toughness=1)
    w.put_counters([bear, elf], "charge", np.array([1, 2]))            # one per object
    assert w.count(bear, "charge").tolist() == [1] * 4 and w.count(elf, "charge").tolist() == [2] * 4
    w.put_counters([bear, elf], "lore", np.array([[1, 2], [3, 4]]), games=[0, 2])  # (G, m)
    assert w.count(bear, "lore").tolist() == [1, 0, 3, 0]
    assert w.count(elf, "lore").tolist() == [2, 0, 4, 0]
    with pytest.raises(InvalidCountError):
        w.put_counters([bear, elf], "lore", np.array([1, 2, 3]))
    with pytest.raises(InvalidCountError):
        w.put_counters(bear, "lore", np.array([1, -1, 1, 1]))
    assert w.count(bear, "lore").tolist() == [1, 0, 3, 0]


def test_per_game_targets_as_a_games_by_objects_array(batch):
    w, p, q, bear = batch
    elf = w.add_object(p, {"creature"}, power=1, toughness=1)
    targets = np.array([[bear], [elf], [elf], [bear]])       # a different target in each game
    w.put_counters(targets, "+1/+1", np.array([[1], [2], [3], [4]]))
    assert w.count(bear, "+1/+1").tolist() == [1, 0, 0, 4]
    assert w.count(elf, "+1/+1").tolist() == [0, 2, 3, 0]
    w.deal_damage(np.array([[q], [bear]]), 2, games=[0, 1])  # a player in one, a creature in another
    assert w.life(q).tolist() == [18, 20, 20, 20]
    assert w.damage(bear).tolist() == [0, 2, 0, 0]
    # the same object twice in one row is one damage event of the sum (CR 120.3)
    w.deal_damage(np.array([[elf, elf]]), np.array([[1, 1]]), games=[3])
    assert w.damage(elf).tolist() == [0, 0, 0, 2]
    with pytest.raises(InvalidGameError):                      # rows must match the games
        w.put_counters(np.array([[bear], [elf]]), "charge", 1)


def test_moving_several_objects_returns_their_new_ids_a_row_per_selected_game(batch):
    """400.7: ``move_zone`` of several ids gives each moved object's new id, a (selected
    games, ids) array in a batch, which names those new objects again as per-game rows."""
    w, p, q, bear = batch
    elf = w.add_object(p, {"creature"}, power=1, toughness=1)
    new = w.move_zone([bear, elf], "hand", games=[0, 2])
    assert new.shape == (2, 2) and (new[0] == new[1]).all()
    w.put_counters(new, "charge", 1, games=[0, 2])
    assert [w.count(int(e), "charge").tolist() for e in new[0]] == [[1, 0, 1, 0]] * 2


@pytest.mark.parametrize("spread", [False, True], ids=["same-columns", "spread"])
@pytest.mark.parametrize("zone", ["exile", "graveyard", "library", "battlefield"])
def test_new_ids_count_on_in_the_order_the_ids_are_given_as_in_one_game(zone, spread):
    """400.7: cards moved together become new objects numbered in the order given, in a
    batch (and a fork) as in one game: the same actions give the same ids and events. With
    ``spread`` the cards sit in other columns in one game (an object made there alone
    first), which a batch numbers by another path."""
    def played(batch: int) -> tuple[list[list[int]], list[tuple[int, int | None]]]:
        w = World(batch=batch, seed=1)
        me, _ = w.add_player(), w.add_player()
        if spread:
            w.add_object(me, "creature", zone="graveyard", games=[batch - 1])
        a = w.add_object(me, "creature", zone="hand")
        b = w.add_object(me, "creature", zone="hand")
        if spread and batch > 1:
            assert len(set(w.store.locate(np.arange(batch), b).tolist())) == 2
        w.clear_events()
        new = np.asarray(w.move_zone([b, a], zone)).reshape(batch, 2) - w.store.next_id
        events = [(e.old - a, e.new - w.store.next_id) for e in w.events() if e.game == 0]
        return new.tolist(), events
    one_new, one_events = played(1)
    assert one_new == [[-2, -1]]                           # b first, then a
    many_new, many_events = played(3)
    assert many_new == one_new * 3 and many_events == one_events


def test_move_counters_with_per_game_sources_and_amounts(batch):
    w, p, _, bear = batch
    elf = w.add_object(p, {"creature"}, power=1, toughness=1)
    w.put_counters(bear, "oil", 3)
    moved = w.move_counters(bear, elf, "oil", np.array([0, 1, 2, 5]))
    assert moved.tolist() == [0, 1, 2, 3]
    assert w.count(bear, "oil").tolist() == [3, 2, 1, 0]
    assert w.count(elf, "oil").tolist() == [0, 1, 2, 3]


# ---- divergence -----------------------------------------------------------------------------
def test_an_object_can_be_gone_in_some_games_and_there_in_others(batch):
    w, p, _, bear = batch
    w.put_counters(bear, "+1/+1", 1, games=[1, 2])
    w.destroy(bear, games=[0, 1])
    assert w.zone(bear).tolist() == ["none", "none", "battlefield", "battlefield"]
    assert w.exists(bear).tolist() == [False, False, True, True]
    moves = [e for e in w.events() if isinstance(e, ZoneChanged)]
    assert [e.game for e in moves] == [0, 1]
    new = moves[0].new
    assert moves[1].new == new and moves[1].lki == {"+1/+1": 1} and moves[0].lki == {}
    assert w.zone(new).tolist() == ["graveyard", "graveyard", "none", "none"]
    # the old id still works where the object stayed, and is stale where it left
    w.put_counters(bear, "charge", 1, games=[2, 3])
    with pytest.raises(StaleEntityError):
        w.put_counters(bear, "charge", 1, games=[0])
    with pytest.raises(StaleEntityError):
        w.put_counters(bear, "charge", 1)           # games=None includes game 0
    # leaving in the remaining games frees the column: the id is stale everywhere
    w.sacrifice(bear, games=[2, 3])
    with pytest.raises(StaleEntityError):
        w.zone(bear)
    assert w.exists(bear).tolist() == [False] * 4


def test_tokens_created_in_some_games_only(batch):
    w, p, _, _ = batch
    tok = w.add_object(p, {"creature"}, power=1, toughness=1, token=True, games=[1, 3],
                       counters={"+1/+1": np.array([1, 2])})
    assert w.exists(tok).tolist() == [False, True, False, True]
    assert w.count(tok, "+1/+1").tolist() == [0, 1, 0, 2]
    assert w.power(tok).tolist() == [0, 2, 0, 3]     # no object there: nothing to read (0)
    with pytest.raises(StaleEntityError):
        w.tap(tok, games=0)
    w.move_zone(tok, "graveyard", games=[1])
    w.tick()                                          # 704.5d: the token ceases to exist
    assert w.exists(tok).tolist() == [False, False, False, True]
    ids = w.add_objects(3, p, {"artifact"}, games=np.array([True, False, False, True]))
    assert ids.shape == (3,)
    assert w.object_mask(types={"artifact"})[1].sum(axis=1).tolist() == [3, 0, 0, 3]


def test_per_game_state_based_actions_losses_and_draws(batch):
    w, p, q, bear = batch
    w.lose_life(p, np.array([20, 0, 20, 0]))
    w.lose_life(q, np.array([0, 20, 20, 0]))
    w.put_counters(bear, "-1/-1", 2, games=[3])
    assert w.tick() >= 1
    assert w.has_lost(p).tolist() == [True, False, True, False]
    assert w.has_lost(q).tolist() == [False, True, True, False]
    assert w.result().tolist() == [q, p, DRAW, ONGOING]
    assert w.zone(bear).tolist() == ["battlefield"] * 3 + ["none"]
    assert w.ongoing.tolist() == [False, False, False, True]


def test_finished_games_are_frozen(batch):
    w, p, q, bear = batch
    w.lose_life(p, 20, games=[0, 2])
    w.tick()
    assert w.ongoing.tolist() == [False, True, False, True]
    # games=None skips finished games
    w.put_counters(bear, "-1/-1", 5)
    assert w.count(bear, "-1/-1").tolist() == [0, 5, 0, 5]
    w.lose_life(q, 30)
    assert w.life(q).tolist() == [20, -10, 20, -10]
    # a finished game's state-based actions do nothing
    w.tick()
    assert w.zone(bear).tolist() == ["battlefield", "none", "battlefield", "none"]
    assert w.has_lost(q).tolist() == [False, True, False, True]
    assert w.result().tolist() == [q, p, q, p]
    # naming a finished game explicitly raises and changes nothing
    before = state(w)
    for action in (lambda: w.put_counters(bear, "charge", 1, games=0),
                   lambda: w.deal_damage(bear, 1, games=[2]),
                   lambda: w.tap(bear, games=np.array([True, False, False, False])),
                   lambda: w.lose_life(p, 1, games=[0, 2]),
                   lambda: w.destroy(bear, games=2),
                   lambda: w.add_object(p, {"artifact"}, games=[0]),
                   lambda: w.cleanup(games=0)):
        with pytest.raises(GameOverError):
            action()
        assert state(w) == before
    # every game over: games=None is an empty selection, not an error
    w.put_counters(bear, "charge", 1)
    w.cleanup()
    assert state(w) == before


def test_events_carry_the_game_and_come_as_columns(batch):
    w, p, _, bear = batch
    w.clear_events()
    w.put_counters(bear, "+1/+1", np.array([1, 0, 2]), games=[0, 1, 3])
    w.destroy(bear, games=[3])
    events = w.events()
    puts = [e for e in events if isinstance(e, CounterChanged)]
    assert [(e.game, e.before, e.after) for e in puts] == [(0, 0, 1), (3, 0, 2)]
    zone = [e for e in events if isinstance(e, ZoneChanged)]
    assert [(e.game, e.old, e.lki) for e in zone] == [(3, bear, {"+1/+1": 2})]
    table = w.event_table()
    assert all(isinstance(v, np.ndarray) for v in table.values())
    n = len(events)
    assert {len(table[c]) for c in ("type", "game", "entity", "kind", "before", "after")} == {n}
    assert table["game"].tolist() == [e.game for e in events]
    assert table["lki_count"].tolist() == [2]


def test_one_code_path_a_batch_game_equals_a_single_game():
    """The same actions in game 2 of a batch and in a World of one game read the same."""
    single, many = World(seed=0), World(batch=3, seed=0)
    out = []
    for w, games in ((single, None), (many, [2])):
        p, q = w.add_player(), w.add_player()
        walker = w.add_object(p, {"planeswalker"}, loyalty=3)
        bear = w.add_object(q, {"creature"}, power=2, toughness=2)
        w.deal_damage(walker, 1, games=games)
        w.put_counters(bear, "+1/+1", 2, games=games)
        w.put_counters(bear, "-1/-1", 3, games=games)
        w.tick()
        pick = (lambda v: v) if games is None else (lambda v: v[2])
        out.append((pick(w.loyalty(walker)), pick(w.zone(bear)), pick(w.life(q))))
    assert out[0] == tuple(v.item() if hasattr(v, "item") else v for v in out[1])


def test_illegal_action_in_one_game_changes_no_game(batch):
    w, p, _, bear = batch
    w.destroy(bear, games=[1])
    card = w.add_object(p, {"creature"}, zone="graveyard", power=1, toughness=1)
    before = state(w)
    with pytest.raises(IllegalActionError):
        w.deal_damage(np.array([[bear], [card], [bear]]), 1, games=[0, 2, 3])
    assert state(w) == before


def test_add_object_takes_per_game_counters_and_caps(batch):
    """One new object: a 1-D array of starting counters or caps is one value per selected
    game, as for a single id in every other action (fixed in World.add_objects)."""
    w, p, _, _ = batch
    rock = w.add_object(p, {"artifact"}, counters={"charge": np.array([1, 2, 3, 4])},
                        caps={"charge": np.array([-1, 1, 5, 0])})
    assert w.count(rock, "charge").tolist() == [1, 2, 3, 4]
    w.tick()                                      # 704.5r removes what is over the cap
    assert w.count(rock, "charge").tolist() == [1, 1, 3, 0]
    before = state(w)
    with pytest.raises(InvalidCountError):
        w.add_object(p, {"artifact"}, caps={"charge": np.array([1, 2, 3])})
    with pytest.raises(InvalidCountError):
        w.add_objects(2, p, {"artifact"}, counters={"charge": np.array([1, 2, 3, 4])})
    assert state(w) == before


def test_a_game_that_ends_mid_tick_is_frozen_for_the_later_checks():
    """Check 1 ends game 0 (its player is at 0 life) and removes a +1/+1 counter over its
    cap (704.5r), which leaves a 0/0 creature: check 2 would put it into the graveyard
    (704.5f), but game 0 has ended by then; game 1 carries on."""
    w = World(batch=2, seed=0)
    p, q = w.add_player(), w.add_player()
    body = w.add_object(q, {"creature"}, power=0, toughness=0, counters={"+1/+1": 1},
                        caps={"+1/+1": 0})
    w.lose_life(p, 20, games=0)
    w.tick()
    assert w.result().tolist() == [q, ONGOING]
    assert w.zone(body).tolist() == ["battlefield", "none"]
    assert w.count(body, "+1/+1").tolist() == [0, 0]


def test_state_based_actions_do_nothing_in_a_finished_game():
    """White-box: write into a finished game every state the systems act on (lethal damage,
    0 toughness, 0 loyalty and defense, a counter pair, a count over its cap, a token in a
    graveyard, a player at 0 life and with 10 poison): no check acts there."""
    w = World(batch=2, seed=0)
    p, q, r = w.add_player(), w.add_player(), w.add_player()
    w.lose_life(p, 20, games=0)
    w.lose_life(q, 20, games=0)
    w.tick()
    assert w.result().tolist() == [r, ONGOING]
    bear = w.add_object(r, {"creature"}, power=2, toughness=2, counters={"+1/+1": 1, "-1/-1": 1},
                        caps={"+1/+1": 0}, games=[1])
    walker = w.add_object(r, {"planeswalker"}, loyalty=1, games=[1])
    battle = w.add_object(r, {"battle"}, defense=1, games=[1])
    zero = w.add_object(r, {"creature"}, power=0, toughness=0, games=[1], counters={"+0/+1": 1})
    token = w.add_object(r, {"creature"}, power=1, toughness=1, token=True, games=[1])
    s = w.store
    cols = {e: int(s.locate(1, e)) for e in (bear, walker, battle, zero, token)}
    zone, counts, damage = s.mut("zone"), s.mut("counts"), s.mut("damage")   # writes go through mut
    for c in cols.values():                       # copy game 1's objects into finished game 0
        zone[0, c] = zone[1, c]
        counts[:, 0, c] = counts[:, 1, c]
    zone[0, cols[token]] = 4                      # a token in the graveyard (704.5d)
    damage[0, cols[bear]] = 5                     # lethal damage (704.5g)
    counts[s.kind_index["loyalty"], 0, cols[walker]] = 0     # 704.5i
    counts[s.kind_index["defense"], 0, cols[battle]] = 0     # 704.5v
    counts[s.kind_index["+0/+1"], 0, cols[zero]] = 0         # 0 toughness (704.5f)
    s.mut("life")[0, 2] = 0                                  # 704.5a
    k = s.kind_id("poison", create=True)
    s.mut("counts")[k, 0, s.a["player_col"][2]] = 10        # 704.5c
    s.mut("cap_val")[0] = s.a["cap_val"][1]
    before = state(w)
    rows = w.log.rows
    w.tick()
    after = state(w)
    for key in ("zone", "damage", "life", "lost", "winner"):
        assert np.array_equal(np.asarray(after[key])[0], np.asarray(before[key])[0]), key
    assert np.array_equal(np.asarray(after["counts"])[:, 0], np.asarray(before["counts"])[:, 0])
    assert all(e.game == 1 for e in w.events()[rows:] if hasattr(e, "game"))


def test_replacement_effects_are_decided_per_game():
    """Stun (122.1d), shield (122.1c), indestructible counters (702.12b) and finality
    (122.1h) on the same object in different games: each game follows its own counters."""
    w = World(batch=5, seed=0)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    w.put_counters(bear, "stun", np.array([0, 1, 2, 0, 0]))
    w.tap(bear, games=[0, 1, 2, 3])
    w.untap(bear)
    assert w.is_tapped(bear).tolist() == [False, True, True, False, False]
    assert w.count(bear, "stun").tolist() == [0, 0, 1, 0, 0]
    w.put_counters(bear, "shield", 1, games=[1])
    w.put_counters(bear, "indestructible", 1, games=[2])
    w.put_counters(bear, "finality", 1, games=[3])
    w.destroy(bear)
    assert w.zone(bear).tolist() == ["none", "battlefield", "battlefield", "none", "none"]
    assert w.count(bear, "shield").tolist() == [0, 0, 0, 0, 0]
    moved = {e.game: e.to_zone for e in w.events() if isinstance(e, ZoneChanged)}
    assert moved == {0: "graveyard", 3: "exile", 4: "graveyard"}
    w.put_counters(bear, "shield", 1, games=[1])
    w.deal_damage(bear, 5, games=[1, 2])
    assert w.damage(bear).tolist() == [0, 0, 5, 0, 0]
    w.tick()
    assert w.zone(bear).tolist() == ["none", "battlefield", "battlefield", "none", "none"]


@pytest.mark.parametrize("action", ["destroy", "sacrifice", "put_counters", "deal_damage", "move_zone"])
def test_an_action_on_one_object_per_game_allocates_in_proportion_to_its_rows(action):
    """One target per game of a wide batch: the action's temporaries grow with its rows
    (games), never with rows x games (a (B, B) gather of 2,048 games is 32 MiB)."""
    import tracemalloc
    B = 2048
    w = World(batch=B)
    p = w.add_player()
    ids = w.add_objects(4, p, "creature", power=2, toughness=2)
    per_game = ids[np.arange(B) % 4][:, None]            # (games, 1): another object per game
    act = {"destroy": lambda: w.destroy(per_game), "sacrifice": lambda: w.sacrifice(per_game),
           "put_counters": lambda: w.put_counters(per_game, "+1/+1", 1),
           "deal_damage": lambda: w.deal_damage(per_game, 1),
           "move_zone": lambda: w.move_zone(per_game, "exile")}[action]
    tracemalloc.start()
    try:
        act()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * 2**20


def test_errors_of_per_game_targets_say_what_to_do():
    """A batch's usual slips get messages that name the fix: amounts one per game given as
    a 1-D array for (games, 1) targets, and an id gone from some games; a long id array
    stays on one line."""
    w = World(batch=8, seed=0)
    p = w.add_player()
    b = w.add_object(p, "creature", power=1, toughness=1)
    with pytest.raises(InvalidCountError, match=r"one per game is a \(games, 1\) array, n\[:, None\]") as err:
        w.put_counters(np.full((8, 1), b), "+1/+1", np.arange(8))
    assert "\n" not in str(err.value)
    w.destroy(b, games=[3])
    with pytest.raises(StaleEntityError, match=f"entity {b} does not exist in game 3 .*where='present'"):
        w.put_counters(b, "+1/+1", 1)
    w.put_counters(b, "+1/+1", 1, where="present")
    assert w.count(b, "+1/+1").tolist() == [1, 1, 1, 0, 1, 1, 1, 1]


# ---- fork, select and seeds ---------------------------------------------------------------
@pytest.mark.parametrize("copy", [lambda w: w.fork(0, 0), lambda w: w.fork(4, 1), lambda w: w.select([]),
                                  lambda w: w.select(np.zeros(4, bool))],
                         ids=["fork of no games", "fork of game 4 of 4", "select of none", "select of a false mask"])
def test_a_refused_fork_or_select_hands_out_no_seed_and_changes_nothing(batch, copy):
    """A fork or select refused for its arguments takes no child of the seed sequence: the
    next fork gets the child it would have got (the same seed and actions, the same Worlds)."""
    w = batch[0]
    unchanged(w, lambda: copy(w), InvalidGameError)
    assert w.n_spawned == 0 and w.fork(0, 1).seed_seq.spawn_key == (0,)


def test_fork_refuses_an_events_option_that_is_not_true_or_false(batch):
    """``events`` is a flag: a string (whose truth says nothing) is refused, naming it, before
    any seed is handed out; a NumPy bool is taken."""
    w = batch[0]
    err = unchanged(w, lambda: w.fork(0, 2, events="no"), IllegalActionError)
    assert "fork's events must be True or False, got 'no'" in str(err)
    assert w.fork(0, 2, events=np.False_).events() == []


def test_seeds_a_world_hands_out_keep_its_pool_size():
    """Children of a World seeded by a SeedSequence of another pool size are what
    ``SeedSequence.spawn`` gives: the same entropy, pool size and spawn keys."""
    root = np.random.SeedSequence(5, pool_size=8)
    w = World(seed=np.random.SeedSequence(5, pool_size=8))
    got = w.spawn_seeds(2) + [w.fork(0, 1).seed_seq]
    for a, b in zip(got, root.spawn(3)):
        assert (a.pool_size, a.spawn_key) == (b.pool_size, b.spawn_key)
        assert a.generate_state(4).tolist() == b.generate_state(4).tolist()


def test_a_fork_may_hold_up_to_max_slots_slots(batch, monkeypatch):
    """``ecs.limits.MAX_SLOTS`` bounds the games times the columns of a fork: exactly the
    bound is made, one game more is refused (naming both) and changes nothing."""
    import ecs.batch
    w = batch[0]
    cols = w.store.n_cols
    monkeypatch.setattr(ecs.batch, "MAX_SLOTS", 3 * cols)
    assert w.fork(1, 3).batch == 3
    err = unchanged(w, lambda: w.fork(1, 4), InvalidGameError)
    assert f"a fork of 4 games x {cols} columns would pass the bound of {3 * cols} slots" in str(err)
