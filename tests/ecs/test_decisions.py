"""ecs.decisions: a host system's decisions are checked before ``perform`` applies any
(704.3: the check's results are performed together), each sort from its own start, and a
refusal names the row that is wrong: its entity, game, value."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest
from ga_helpers import unchanged
from host_rules import once

from ecs import IllegalActionError, InvalidCountError, World
from ecs.check import Check
from ecs.decisions import check
from ecs.events import CAUSES
from ecs.limits import MAX_COUNT


def _board(batch: int = 2) -> tuple[World, dict[str, int]]:
    """Two players, a torch with 3 charge counters and an artifact with 1, in ``batch`` games."""
    w = World(batch=batch, seed=0)
    p, q = w.add_player(), w.add_player()
    return w, {"p": p, "q": q, "torch": w.add_object(p, "artifact", counters={"charge": 3}),
               "lamp": w.add_object(q, "artifact", counters={"charge": 1})}


def _col(w: World, e: int) -> int:
    return int(np.flatnonzero(w.store.a["entity_id"][0, : w.store.n_cols] == e)[0])


def _ints(*values: int) -> np.ndarray:
    return np.array(values, np.int64)


# one bad decision of each sort (removals, moves, losses, player updates: ``Check.sizes``)
_BAD: dict[int, Callable[[Check, World, dict[str, int]], None]] = {
    0: lambda c, w, i: c.remove(w.store.kind_index["charge"], _ints(0), _ints(_col(w, i["torch"])), _ints(-1),
                                "remove"),
    1: lambda c, w, i: c.move(_ints(0), _ints(_col(w, i["torch"])), 77, "remove"),
    2: lambda c, w, i: c.lose(_ints(0), _ints(5), "704.5a"),
    3: lambda c, w, i: c.add_to_players("life", _ints(0), _ints(5), _ints(-1)),
}


@pytest.mark.parametrize("sort", sorted(_BAD))
def test_704_3_each_sort_of_decision_is_checked_from_its_own_start(sort: int) -> None:
    """``since`` counts each sort apart (``Check.sizes()`` before the host's system
    decided): a bad decision past its own sort's start is refused whatever the others'
    starts, and one before it (the ruleset's, checked by construction) is not looked at."""
    w, ids = _board()
    decided = Check()
    _BAD[sort](decided, w, ids)
    with pytest.raises((IllegalActionError, InvalidCountError)):
        check(w, decided, tuple(0 if i == sort else 5 for i in range(4)))  # type: ignore[arg-type]
    check(w, decided, tuple(1 if i == sort else 0 for i in range(4)))  # type: ignore[arg-type]


def test_704_3_a_removal_of_none_or_of_more_than_there_are_is_performed() -> None:
    """Amounts 0..MAX_COUNT are removals perform applies: none removes nothing, and a removal
    of more counters than there are removes what there is (as removals of one kind
    clamp, docs/design.md "One check, one event")."""
    w, ids = _board(batch=1)
    kind = w.store.kind_index["charge"]
    decided = Check()
    decided.remove(kind, _ints(0, 0), _ints(_col(w, ids["torch"]), _col(w, ids["lamp"])), _ints(0, MAX_COUNT),
                   "remove")
    check(w, decided)
    w.schedule = w.schedule.with_systems(once(lambda game, c: c.remove(
        kind, _ints(0, 0), _ints(_col(game, ids["torch"]), _col(game, ids["lamp"])), _ints(0, MAX_COUNT),
        "remove")))
    w.tick()
    assert w.counters(ids["torch"]) == {"charge": 3} and w.counters(ids["lamp"]) == {}


def test_a_removal_per_row_may_name_one_column_in_two_games() -> None:
    """A per-row removal names an object once per kind in each game: the same kind from
    column c of game 1 and column c + 1 of game 0 are two objects, both removed from."""
    w, ids = _board()
    kind = w.store.kind_index["charge"]
    torch, lamp = _col(w, ids["torch"]), _col(w, ids["lamp"])
    assert lamp == torch + 1
    w.schedule = w.schedule.with_systems(once(lambda game, c: c.remove(
        _ints(kind, kind), _ints(1, 0), _ints(torch, lamp), _ints(1, 1), "remove")))
    w.tick()
    assert w.count(ids["torch"], "charge").tolist() == [3, 2]
    assert w.count(ids["lamp"], "charge").tolist() == [0, 1]


def test_a_refused_removal_amount_names_its_entity_game_and_value() -> None:
    """The first bad row of a removal, in the second game, is the one the error names."""
    w, ids = _board()
    kind = w.store.kind_index["charge"]
    torch, lamp = _col(w, ids["torch"]), _col(w, ids["lamp"])
    w.schedule = w.schedule.with_systems(once(lambda game, c: c.remove(
        kind, _ints(0, 1), _ints(torch, lamp), _ints(1, -4), "remove")))
    err = unchanged(w, w.tick, InvalidCountError)
    assert f"of -4 counters from entity {ids['lamp']} in game 1:" in str(err), str(err)


def test_a_move_cause_code_past_the_last_cause_is_refused() -> None:
    """Per-row cause codes are indices of ``ecs.events.CAUSES``: one past the last is no cause."""
    w, ids = _board()
    torch = _col(w, ids["torch"])
    w.schedule = w.schedule.with_systems(once(lambda game, c: c.move(
        _ints(0), _ints(torch), 4, _ints(len(CAUSES)))))
    err = unchanged(w, w.tick, IllegalActionError)
    assert f"cause code {len(CAUSES)} is outside 0..{len(CAUSES) - 1}" in str(err), str(err)


def test_a_refused_move_names_the_entity_and_zone_of_its_first_bad_row() -> None:
    """Two rows, the second (in game 1) to a zone there is not: the error names that one."""
    w, ids = _board()
    torch, lamp = _col(w, ids["torch"]), _col(w, ids["lamp"])
    w.schedule = w.schedule.with_systems(once(lambda game, c: c.move(
        _ints(0, 1), _ints(torch, lamp), _ints(4, 77), "remove")))
    err = unchanged(w, w.tick, IllegalActionError)
    assert f"a move ('remove') of entity {ids['lamp']} to zone 77:" in str(err), str(err)


@pytest.mark.parametrize("decide", [
    lambda c: c.lose(_ints(0), _ints(1), "melted"),
    lambda c: c.add_to_players("life", _ints(0), _ints(1), _ints(-1), "melted"),
], ids=["a loss", "a life change"])
def test_a_loss_or_player_change_for_an_unknown_cause_is_refused(decide: Callable[[Check], None]) -> None:
    """A cause names an event's reason (``ecs.events.CAUSES``): a loss (704.5a's, ...) or a
    change of life for a cause the World does not have is refused and changes nothing."""
    w, _ = _board()
    w.schedule = w.schedule.with_systems(once(lambda game, c: decide(c)))
    err = unchanged(w, w.tick, IllegalActionError)
    assert "unknown cause 'melted'" in str(err), str(err)


def test_704_3_a_decision_naming_a_going_and_an_ended_game_is_refused_naming_the_ended() -> None:
    """A check acts in no game that has ended: one row in an ended game (game 1) is enough
    for the whole decision to be refused, and the error names that game."""
    w, ids = _board()
    kind, torch = w.store.kind_index["charge"], _col(w, ids["torch"])
    w.lose_life(ids["q"], 20, games=1)
    w.tick()   # game 1 ends (704.5a)
    w.schedule = w.schedule.with_systems(once(lambda game, c: c.remove(
        kind, _ints(0, 1), _ints(torch, torch), _ints(1, 1), "remove")))
    err = unchanged(w, w.tick, IllegalActionError)
    assert "names game 1, which has ended" in str(err), str(err)


def test_a_decision_naming_a_free_slot_names_that_column_and_game() -> None:
    """A token that ceased to exist in game 1 only (704.5d) leaves its column free there:
    a move of the torch in game 0 and of that column in game 1 is refused for the second."""
    w, ids = _board()
    token = w.add_object(ids["p"], "creature", power=1, toughness=1, token=True)
    col, torch = _col(w, token), _col(w, ids["torch"])
    w.move_zone(token, "graveyard", games=1)
    w.tick()
    w.schedule = w.schedule.with_systems(once(lambda game, c: c.move(
        _ints(0, 1), _ints(torch, col), 4, "remove")))
    err = unchanged(w, w.tick, IllegalActionError)
    assert f"names column {col} of game 1, which holds no object" in str(err), str(err)


@pytest.mark.parametrize("games, cols", [(np.zeros((1, 1), np.int64), None), (_ints(0, 1), "one")],
                         ids=["2-D rows", "games and columns of two lengths"])
def test_rows_of_a_decision_are_1_d_arrays_of_one_length(games: np.ndarray, cols: Any) -> None:
    """Rows are pairs (game, column): 2-D arrays, or games and columns that broadcast
    (two games, one column), are refused rather than read some way."""
    w, ids = _board()
    torch = _col(w, ids["torch"])
    rows = np.full(games.shape, torch) if cols is None else _ints(torch)
    w.schedule = w.schedule.with_systems(once(lambda game, c: c.remove(
        game.store.kind_index["charge"], games, rows, np.ones(games.shape, np.int64), "remove")))
    err = unchanged(w, w.tick, IllegalActionError)
    assert "games and columns must be 1-D arrays of one length" in str(err), str(err)


@pytest.mark.parametrize("games, players", [(_ints(0), _ints(2)), (_ints(2), _ints(0))],
                         ids=["player index 2 of 2", "game 2 of 2"])
def test_a_change_of_players_life_naming_no_player_is_refused(games: np.ndarray, players: np.ndarray) -> None:
    """A life change names a player index and a game the World has, like a loss."""
    w, ids = _board()
    w.schedule = w.schedule.with_systems(once(lambda game, c: c.add_to_players("life", games, players, -1)))
    err = unchanged(w, w.tick, IllegalActionError)
    assert "is outside 0..1" in str(err), str(err)


def test_a_move_of_a_player_names_the_player_and_game() -> None:
    """A player is in no zone: a move naming the torch in game 0 and player q in game 1 is
    refused, and the error names q and game 1."""
    w, ids = _board()
    torch, q = _col(w, ids["torch"]), _col(w, ids["q"])
    w.schedule = w.schedule.with_systems(once(lambda game, c: c.move(_ints(0, 1), _ints(torch, q), 4, "remove")))
    err = unchanged(w, w.tick, IllegalActionError)
    assert f"names player {ids['q']} in game 1: a player is in no zone" in str(err), str(err)


def test_a_loss_of_2_d_games_and_players_is_refused() -> None:
    """Games and players of a loss are 1-D arrays of one length, not any broadcastable shape."""
    w, _ = _board()
    w.schedule = w.schedule.with_systems(once(lambda game, c: c.lose(
        np.zeros((1, 1), np.int64), np.ones((1, 1), np.int64), "704.5a")))
    err = unchanged(w, w.tick, IllegalActionError)
    assert "games and players must be 1-D arrays of one length" in str(err), str(err)


def test_a_refused_removal_names_the_entity_in_its_own_game() -> None:
    """Ids differ between games once an object changed zones in one of them (400.7): the
    error names the new object of game 1, not what the same column holds in game 0."""
    w, ids = _board()
    new = int(np.asarray(w.move_zone(ids["lamp"], "graveyard", games=1)).reshape(-1)[0])
    col = int(np.flatnonzero(w.store.a["entity_id"][1, : w.store.n_cols] == new)[0])
    assert new != ids["lamp"] and w.store.a["entity_id"][0, col] == ids["lamp"]
    w.schedule = w.schedule.with_systems(once(lambda game, c: c.remove(
        game.store.kind_index["charge"], _ints(1), _ints(col), _ints(-2), "remove")))
    err = unchanged(w, w.tick, InvalidCountError)
    assert f"of -2 counters from entity {new} in game 1:" in str(err), str(err)
