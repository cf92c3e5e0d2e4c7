"""A host engine's card pool of counter cards on the public API: replacement effects on
putting counters as a ruleset's ``place`` hook (614.1a, 122.6), and what the core must
keep true under them."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ecs import CounterChanged, CounterError, CountOverflowError, World, ZoneChanged, crossed, zones
from ecs.check import Check, System
from ecs.game import Game
from ecs.limits import MAX_COUNT
from ecs.rules import Magic


class DoublingSeason(Magic):
    """"If an effect would put one or more counters on a permanent you control, it puts
    twice that many of those counters on that permanent instead" (614.1a), on every put."""

    def place(self, world: Any, kind: str, g: np.ndarray, c: np.ndarray, amount: np.ndarray,
              cause: str, by: Any, e: np.ndarray | None = None) -> None:
        super().place(world, kind, g, c, np.asarray(amount, np.int64) * 2, cause, by, e)


@pytest.mark.parametrize("batch", [1, 3])
def test_hook_doubling_past_count_limit_raises_overflow_not_wrap(batch: int) -> None:
    """122.6 / 614.1a under the count limit: a put the action's own check lets through
    (2**30 + 5 fits) that a host's placement replacement doubles past 2**31 - 1 raises
    CountOverflowError and writes nothing, in one game and in a batch; it never wraps to a
    negative count nor logs a count past the limit."""
    w = World(seed=1, batch=batch)
    w.ruleset = DoublingSeason()
    me = w.add_player()
    relic = w.add_object(me, "artifact")
    with pytest.raises(CountOverflowError, match="charge"):
        w.put_counters(relic, "charge", 2**30 + 5)
    assert np.all(np.asarray(w.count(relic, "charge")) == 0)
    assert w.events() == []


@pytest.mark.parametrize("batch", [1, 3])
def test_hook_doubling_within_count_limit_is_made(batch: int) -> None:
    """614.1a: a doubled put that lands just below 2**31 - 1 is made."""
    w = World(seed=1, batch=batch)
    w.ruleset = DoublingSeason()
    me = w.add_player()
    relic = w.add_object(me, "artifact", counters={"charge": 1})   # enters with 2 (122.6)
    w.put_counters(relic, "charge", (MAX_COUNT - 2) // 2)
    w.put_counters(relic, "charge", 0)
    assert np.all(np.asarray(w.count(relic, "charge")) == 2 + (MAX_COUNT - 3))


class SagaRule(System):
    """704.5s / 714.4: a Saga whose lore counters are at least its final chapter number,
    and that is the source of no chapter ability still on the stack (the host's), is
    sacrificed. The host knows its Sagas' final chapters by name."""

    causes = ("704.5s",)

    def __init__(self, chapters: dict[str, int], on_stack: set[int]) -> None:
        self.chapters, self.on_stack = chapters, on_stack

    def process(self, game: Game, check: Check) -> None:
        s = game.store
        lore = s.plane("lore")
        if lore is None:
            return
        n = s.n_cols
        final = np.full(len(game.names) + 1, MAX_COUNT + 1, np.int64)   # -1: no name
        for name, chapter in self.chapters.items():
            if name in game.names:
                final[game.names.index(name)] = chapter
        due = (lore[:, :n] >= final[s.a["name_id"][:, :n]]) & (s.a["zone"][:, :n] == zones.BATTLEFIELD)
        due &= ~np.isin(s.a["entity_id"][:, :n], list(self.on_stack))
        due[~check.live_games(game)] = False
        g, c = np.nonzero(due)
        check.move(g, c, zones.GRAVEYARD, "704.5s")


def test_saga_sacrificed_by_a_host_system_with_cause_704_5s() -> None:
    """714.3a: a Saga enters with a lore counter; 714.3b/714.2c: each lore counter put
    triggers the chapters it reaches (``crossed``); 714.4 (704.5s): with lore counters at
    its final chapter number and no chapter ability of it on the stack, it is sacrificed,
    logged with its own rule's cause."""
    w = World(seed=1)
    me, _ = w.add_player(), w.add_player()
    stack: set[int] = set()
    w.schedule = w.schedule.with_systems(SagaRule({"History of Benalia": 3}, stack),
                                         before="EmptyDraw")
    step = w.step
    saga = w.add_object(me, "enchantment", name="History of Benalia", counters={"lore": 1})
    chapters: list[int] = []

    def triggered(since: int) -> None:
        chapters.extend(n for e in w.events_since(since) if isinstance(e, CounterChanged)
                        and e.kind == "lore" for n in (1, 2, 3) if crossed(e, n))

    triggered(step)
    for _turn in (2, 3):
        step = w.step
        w.put_counters(saga, "lore", by=me)
        triggered(step)
        stack.add(saga)                   # the chapter ability waits on the stack
        w.tick()
        assert w.exists(saga)
    assert chapters == [1, 2, 3]
    stack.clear()                         # chapter III resolved
    w.tick()
    assert not w.exists(saga)
    [gone] = [e for e in w.events() if isinstance(e, ZoneChanged)]
    assert (gone.cause, gone.to_zone, gone.lki) == ("704.5s", "graveyard", {"lore": 3})


class Recorder(Magic):
    """A placement hook that notes its arguments and puts what it is given."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, str, list[int], list[int], list[int]]] = []

    def place(self, world: Any, kind: str, g: np.ndarray, c: np.ndarray, amount: np.ndarray,
              cause: str, by: Any, e: np.ndarray | None = None) -> None:
        ids = world.store.a["entity_id"][g, c].tolist()
        self.calls.append((kind, cause, ids, np.broadcast_to(by, g.shape).tolist(),
                           np.broadcast_to(amount, g.shape).tolist()))
        super().place(world, kind, g, c, amount, cause, by, e)


def test_place_hook_names_the_putting_player_by_index_and_targets_by_column() -> None:
    """122.6a as the hook sees it: ``by`` is the putting player's index in ``players()``
    (-1 where the action named none), and the rows' columns lead to the ids; entering
    counters (122.6), moves (122.5), proliferate (701.34) and infect (702.90b) all pass
    through it."""
    w = World(seed=1)
    rec = Recorder()
    w.ruleset = rec
    me = w.add_player()
    w.add_object(me, "artifact")                 # ids and player indices differ
    you = w.add_player()
    assert (me, you) == (0, 2) and w.players() == [0, 2]
    bear = w.add_object(you, "creature", power=2, toughness=2, counters={"+1/+1": 1})
    w.put_counters(bear, "+1/+1", 2, by=me)
    w.put_counters(bear, "+1/+1", 1)
    golem = w.add_object(me, ("artifact", "creature"), power=3, toughness=3)
    w.move_counters(bear, golem, "+1/+1", 1)
    w.proliferate([bear], by=you)
    w.deal_damage(me, 2, source=bear, infect=True)
    assert rec.calls == [
        ("+1/+1", "enter", [bear], [1], [1]),        # its controller puts them
        ("+1/+1", "put", [bear], [0], [2]),
        ("+1/+1", "put", [bear], [-1], [1]),
        ("+1/+1", "move", [golem], [-1], [1]),
        ("+1/+1", "proliferate", [bear], [1], [1]),
        ("poison", "damage", [me], [1], [2]),        # the source's controller
    ]


class Vorinclex(Magic):
    """"If you would put one or more counters on a permanent or player, put twice that many
    ... instead. If an opponent would put one or more counters on a permanent or player,
    they put half that many ... rounded down" (614.1a; ``by`` the putter, 122.6a)."""

    def __init__(self, you: int) -> None:
        super().__init__()
        self.you = you   # the controller's player index

    def place(self, world: Any, kind: str, g: np.ndarray, c: np.ndarray, amount: np.ndarray,
              cause: str, by: Any, e: np.ndarray | None = None) -> None:
        amount = np.asarray(amount, np.int64)
        by = np.broadcast_to(by, g.shape)
        mine, theirs = by == self.you, (by >= 0) & (by != self.you)
        super().place(world, kind, g, c, np.where(mine, amount * 2, np.where(theirs, amount // 2, amount)),
                      cause, by, e)


@pytest.mark.parametrize("batch", [1, 2])
def test_move_counters_by_names_who_puts_them(batch: int) -> None:
    """122.5 and 122.6a: moving counters puts them on the destination, and the player who
    moves them puts them: The Ozolith's controller moving its counters onto an opponent's
    creature under their own Vorinclex gets twice as many there; the event names them."""
    w = World(seed=1, batch=batch)
    me, you = w.add_player(), w.add_player()
    w.ruleset = Vorinclex(you=w.players().index(me))
    ozolith = w.add_object(me, "artifact", name="The Ozolith")
    w.ruleset, ruleset = Magic(), w.ruleset
    w.put_counters(ozolith, "+1/+1", 3)
    w.ruleset = ruleset
    bear = w.add_object(you, "creature", power=2, toughness=2)
    step = w.step
    moved = w.move_counters(ozolith, bear, "+1/+1", 3, by=me)
    assert np.all(np.asarray(moved) == 3)
    assert np.all(np.asarray(w.count(bear, "+1/+1")) == 6)
    assert np.all(np.asarray(w.count(ozolith, "+1/+1")) == 0)
    put = [e for e in w.events_since(step) if isinstance(e, CounterChanged) and e.delta > 0]
    assert [(e.entity, e.after, e.cause, e.by) for e in put] == [(bear, 6, "move", me)] * batch


def test_move_counters_by_an_object_is_refused_and_moves_nothing() -> None:
    """122.6a: only a player puts counters; ``by`` naming an object raises a CounterError
    naming it, and nothing moves."""
    w = World(seed=1)
    me = w.add_player()
    relic = w.add_object(me, "artifact", counters={"charge": 2})
    other = w.add_object(me, "artifact")
    step = w.step
    with pytest.raises(CounterError, match=str(other)):
        w.move_counters(relic, other, "charge", 1, by=other)
    assert (w.counters(relic), w.counters(other), w.step) == ({"charge": 2}, {}, step)
