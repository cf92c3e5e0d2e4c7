# mypy: warn-return-any
"""A user's program over the public API, in strictly typed style: tests/test_user_typing.py
runs mypy on it (strict, no casts) and never imports it. It follows the docs' examples:
a single game's search, a batch, a host's system, event handlers and ruleset, and the
Grand Archive's actions. ``assert_type`` pins what each read and action returns: a plain
value for one game or an array for a batch where the World's size decides (the honest
type is their union, which a user narrows), and never ``Any``."""
from __future__ import annotations

from typing import Any, assert_type

import esper
import numpy as np

from ecs import (
    DRAW,
    ONGOING,
    CounterChanged,
    Event,
    IllegalActionError,
    InvalidGameError,
    InvalidPhaseError,
    InvalidSeedError,
    Schedule,
    StaleEntityError,
    World,
    ZoneChanged,
    crossed,
    montecarlo,
    zones,
)
from ecs.check import Check, System, When
from ecs.estimates import Estimate
from ecs.game import Game
from ecs.rules import Magic
from ecs.scenario import Scenario, loads


def search() -> str:
    """docs/batches-and-search.md "A tree-search step": one game's reads are plain values
    once narrowed."""
    w = World(seed=7)
    me, you = w.add_player(), w.add_player()
    assert_type(me, int)
    bear = w.add_object(me, {"creature"}, power=2, toughness=2, name="bear")
    walker = w.add_object(you, "planeswalker", loyalty=2)
    assert_type(bear, int)
    assert_type(w.add_objects(2, me, "creature", power=1, toughness=1), np.ndarray)

    def evaluate(world: World) -> int:
        life_me, life_you, gone = world.life(me), world.life(you), not world.exists(walker)
        assert isinstance(life_me, int) and isinstance(life_you, int)   # one game: plain ints
        return life_me - life_you + 5 * gone

    root = w.snapshot()
    scores: dict[str, int] = {}
    for action in ("attack walker", "attack player", "pump bear"):
        if action == "attack walker":
            w.deal_damage(walker, w.power(bear), combat=True)
        elif action == "attack player":
            w.deal_damage(you, w.power(bear), combat=True)
        else:
            w.put_counters(bear, "+1/+1", 1)
        assert_type(w.tick(), int)
        scores[action] = evaluate(w)
        w.restore(root)
    best = max(scores, key=lambda a: scores[a])

    assert_type(w.life(me), int | np.ndarray)
    assert_type(w.exists(bear), bool | np.ndarray)
    assert_type(w.counters(bear), dict[str, int] | dict[str, np.ndarray])
    assert_type(w.count(bear, "+1/+1"), int | np.ndarray)
    assert_type(w.power(bear), int | np.ndarray)
    assert_type(w.loyalty(walker), int | np.ndarray)
    assert_type(w.keywords(bear), frozenset[str] | np.ndarray)
    assert_type(w.zone(bear), str | np.ndarray)
    assert_type(w.name(bear), str | None)
    assert_type(w.controller(bear), int | np.ndarray)
    assert_type(w.is_tapped(bear), bool | np.ndarray)
    assert_type(w.result(), str | int | np.ndarray)
    assert_type(w.players(), list[int])
    assert_type(w.objects(zone="battlefield"), list[int])
    assert_type(w.library(me), list[int])
    assert_type(w.events(), list[Event])
    assert_type(w.clone(), World)

    counters = w.counters(bear)
    assert not isinstance(next(iter(counters.values()), 0), np.ndarray)
    result = w.result()
    if isinstance(result, str):   # one game: "ongoing" or "draw", else the winner's id
        outcome = result
    else:
        assert isinstance(result, int)
        outcome = f"player {result} won"

    deck = [w.add_object(me, "sorcery", zone="library", name=f"card{i}") for i in range(3)]
    w.order_library(me, deck[::-1])
    drawn = w.draw(me)
    assert_type(drawn, list[int] | np.ndarray)
    assert_type(w.mill(me, 2), list[int] | np.ndarray)
    card = w.move_zone(bear, "hand")
    assert_type(card, int | np.ndarray)
    assert_type(w.move_counters(walker, you, "loyalty", zone=None), int | np.ndarray)
    try:
        w.put_counters(bear, "+1/+1")
    except StaleEntityError as e:
        print(e)
    return f"{best}: {outcome}, {len(drawn)} drawn, {card}"


def batch(n: int) -> float:
    """docs/batches-and-search.md "Batches of games": a batch's reads are arrays once
    narrowed; the event table and ``ongoing`` are arrays always."""
    w = World(batch=n, seed=5)
    alice, bob = w.add_player(), w.add_player()
    bear = w.add_object(alice, "creature", power=2, toughness=3)
    w.put_counters(bear, "-1/-1", w.rng.integers(0, 3, n))
    w.lose_life(bob, 20, games=np.arange(n) % 2 == 1)
    w.tick()
    result = w.result()
    assert isinstance(result, np.ndarray)
    won = (result != ONGOING) & (result != DRAW)
    assert_type(w.ongoing, np.ndarray)
    assert_type(w.event_table()["entity"], np.ndarray)
    obs, names = w.observe([bear], ["present", "power"], dtype=np.int32)
    assert_type(names, list[str])
    ids, mask = w.object_mask(zone="battlefield")
    assert_type(ids, np.ndarray)
    assert_type(w.select(np.arange(n) % 2 == 0), World)
    try:
        w.select("even")  # type: ignore[arg-type]
    except InvalidGameError:
        pass
    fork = w.fork(0, 100, events=False)
    fork.deal_damage(bear, fork.rng.integers(0, 4, 100))
    fork.tick()
    alive = fork.exists(bear)
    assert isinstance(alive, np.ndarray)
    return float(alive.mean()) + float(won.mean()) + float(obs.sum()) + int(mask.sum())


BOARD = """
ruleset = "mtg"
turns = 5
[[players]]
name = "alice"
[[objects]]
name = "bear"
controller = "alice"
types = ["creature"]
power = 2
toughness = 2
[[effects]]
action = "deal_damage"
n = [0, 2]
target = { name = "bear" }
"""


def monte_carlo(board: Scenario) -> tuple[float, float]:
    """docs/scenarios.md "From Python"."""
    r = montecarlo.run(board, games=64, seed=3, workers=1)
    assert_type(r.survival["bear"], Estimate)
    assert_type(r.survival["bear"].ci, tuple[float, float])
    assert_type(r.draw.p, float)
    assert_type(r.length.mean, float)
    assert_type(r.raw, dict[str, np.ndarray] | None)
    return r.survival["bear"].ci


class Thaw(System):
    """docs/api.md "The schedule and custom systems": ice and fire counters on a permanent
    melt each other in pairs."""
    causes = ("remove",)
    when = When.EVERY_CHECK

    def process(self, game: Game, check: Check) -> None:
        s = game.store
        ice, fire = s.plane("ice"), s.plane("fire")
        if ice is None or fire is None:
            return
        pairs = np.minimum(ice, fire)
        pairs[~check.live_games(game)] = 0
        pairs[s.a["zone"][:, : s.n_cols] != zones.BATTLEFIELD] = 0
        g, c = np.nonzero(pairs)
        check.remove((s.kind_index["ice"], s.kind_index["fire"]), g, c, pairs[g, c].astype(np.int64), "remove")


class HardenedScales(Magic):
    """docs/api.md "A ruleset's hook replaced": one more +1/+1 counter is put instead."""

    def place(self, world: Game, kind: str, g: np.ndarray, c: np.ndarray, amount: np.ndarray,
              cause: str, by: Any, e: np.ndarray | None = None) -> None:
        if kind == "+1/+1":
            amount = np.where(amount > 0, amount + 1, amount)
        super().place(world, kind, g, c, amount, cause, by, e)


def on_zone_changed(world: World, event: ZoneChanged) -> None:
    """Undying, as a handler ``dispatch_events`` calls."""
    if event.to_zone == "graveyard" and event.new is not None and "+1/+1" not in event.lki:
        world.put_counters(world.move_zone(event.new, "battlefield"), "+1/+1")


def host() -> list[str]:
    w = World(seed=0)
    w.ruleset = HardenedScales()
    w.schedule = Schedule(w.ruleset.systems).with_systems(Thaw(), after="Lethality")
    assert_type(w.systems, tuple[System, ...])
    p = w.add_player()
    torch = w.add_object(p, "artifact", counters={"ice": 2, "fire": 3})
    w.add_object(p, "creature", power=2, toughness=2, counters={"-1/-1": 2})   # dies (704.5f)
    esper.set_handler("zone_changed", on_zone_changed)
    since = w.step
    w.tick()
    assert_type(w.dispatch_events(since), int)
    w.set_controller(torch, p)
    w.set_redirect(torch, "exile")
    w.begin_main_phase(p, precombat=True)
    try:   # what the World refuses, the types refuse too (the ignores must be used)
        w.begin_main_phase(p, precombat=1)  # type: ignore[arg-type]
    except InvalidPhaseError:
        pass
    try:
        w.schedule.with_systems(Thaw, before=0)  # type: ignore[arg-type]
    except IllegalActionError:
        pass
    return [f"{e.kind} {e.delta} {e.cause} {crossed(e, 3)}" for e in w.events() if isinstance(e, CounterChanged)]


def grand_archive() -> None:
    w = World("grand_archive", seed=[1, 2])
    try:
        World(seed=1.5)  # type: ignore[arg-type]
    except InvalidSeedError:
        pass
    p = w.add_player()
    champion = w.add_object(p, "champion", life=20, level=0, counters={"damage": 3, "enlighten": 3})
    assert_type(w.recover(champion, 2), int | np.ndarray)
    assert_type(w.reserve(p), int | np.ndarray)
    assert_type(w.stat(champion, "level"), int | np.ndarray)
    assert_type(w.activate_enlighten(champion), int | np.ndarray)


def misspelt() -> None:
    """A name ecs lacks is an error to the type checker too, not Any (ecs loads its engine
    lazily, by a module ``__getattr__`` the checker must not see)."""
    try:
        from ecs import Wrold  # type: ignore[attr-defined]  # noqa: F401
    except ImportError:
        pass


def main() -> None:
    print(search(), batch(8), host())
    print(monte_carlo(loads(BOARD, "board.toml")))
    grand_archive()
    misspelt()


if __name__ == "__main__":
    main()
