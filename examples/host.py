"""An example host: a few real cards on the tcg-counters embedding API.

The engine keeps counters and the state-based actions; the host keeps its cards' text.
Triggers are polled (CR 603.3: triggered abilities go on the stack the next time a player
would receive priority, after the state-based actions): the host notes ``world.step``,
acts, runs ``world.tick()`` and reads ``world.events_since(step)``. Here the "stack"
resolves at once, in the order the events were recorded.

Cards (by name, as the host's card database):

* Persist (702.79a) - "Kitchen Finks": when it dies, if it had no -1/-1 counters on it,
  return it to the battlefield with a -1/-1 counter on it.
* Undying (702.93a) - "Young Wolf": the same with +1/+1 counters.
* Modular N (702.43a) - "Arcbound Worker": enters with N +1/+1 counters; when it dies,
  its controller may put its +1/+1 counters (last known, 122.8) on an artifact creature.
* A Siege (310.11) - "Invasion of Ergamon": a battle; when its last defense counter is
  removed it is defeated (704.5v puts it into the graveyard; the host, as the card's
  "exile it, then cast it transformed", exiles it and counts the win).
* The legend rule (704.5j) as a host system in the simultaneous check.
* With the host-state API (``World.modify_pt``, ``World.prohibit``): an anthem plus a
  pump, a creature that can't have -1/-1 counters, a player who can't get poison.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ecs import Event, World, ZoneChanged, zones
from ecs.check import Check, System
from ecs.game import Game

PERSIST = {"Kitchen Finks"}
UNDYING = {"Young Wolf"}
MODULAR = {"Arcbound Worker": 1}
SIEGES = {"Invasion of Ergamon"}


class LegendRule(System):
    """704.5j: a player controlling two or more legendary permanents with the same name
    chooses one and puts the others into the graveyard. The host's legendary names are
    given; its choice: the newest (highest id) stays."""

    causes = ("704.5j",)

    def __init__(self, legendary: set[str]) -> None:
        self.legendary = legendary

    def process(self, game: Game, check: Check) -> None:
        s = game.store
        n = s.n_cols
        names = [game.names.index(x) for x in self.legendary if x in game.names]
        if not names:
            return
        legend = np.isin(s.a["name_id"][:, :n], names) & (s.a["zone"][:, :n] == zones.BATTLEFIELD)
        legend[~check.live_games(game)] = False
        g, c = np.nonzero(legend)   # every legendary permanent of the games checked
        if g.size < 2:
            return
        # Groups of one game, one controller and one name; the newest (highest id) of each stays.
        key = np.stack([g, s.a["controller"][g, c], s.a["name_id"][g, c]], axis=1)
        _, group = np.unique(key, axis=0, return_inverse=True)
        group = group.ravel()
        ids = s.a["entity_id"][g, c]
        newest = np.full(group.max() + 1, -1, np.int64)
        np.maximum.at(newest, group, ids)
        lose = ids != newest[group]
        check.move(g[lose], c[lose], zones.GRAVEYARD, "704.5j")


@dataclass
class Host:
    """A host driving one World (one game or a batch) with the cards above."""

    world: World
    legendary: set[str] = field(default_factory=set)
    defeated: list[tuple[int, int]] = field(default_factory=list)   # (game, siege id)
    _seen: int = 0

    def __post_init__(self) -> None:
        if self.legendary:
            self.world.schedule = self.world.schedule.with_systems(
                LegendRule(self.legendary), before="EmptyDraw")
        self._seen = self.world.step

    def settle(self, modular_target: int | None = None) -> None:
        """State-based actions, then the triggers of everything since the last settle,
        until none are left."""
        w = self.world
        while True:
            w.tick()
            events = w.events_since(self._seen)
            self._seen = w.step
            if not self._resolve(events, modular_target):
                return

    def _resolve(self, events: list[Event], modular_target: int | None) -> bool:
        w = self.world
        acted = False
        for ev in events:
            if not (isinstance(ev, ZoneChanged) and ev.new is not None
                    and ev.from_zone == "battlefield"):
                continue
            name = ev.name   # as it left: a token is gone from the graveyard by now (704.5d)
            dies = ev.to_zone == "graveyard"
            # a token that left the battlefield can't come back (111.8): it ceased to exist
            back = bool(np.atleast_1d(w.exists(ev.new))[ev.game])
            if dies and back and name in PERSIST and not ev.lki.get("-1/-1"):
                w.move_zone(ev.new, "battlefield", games=ev.game, counters={"-1/-1": 1})
                acted = True
            elif dies and back and name in UNDYING and not ev.lki.get("+1/+1"):
                w.move_zone(ev.new, "battlefield", games=ev.game, counters={"+1/+1": 1})
                acted = True
            elif dies and name in MODULAR and modular_target is not None and ev.lki.get("+1/+1"):
                w.put_counters(modular_target, "+1/+1", ev.lki["+1/+1"], games=ev.game,
                               by=ev.controller,   # who controlled it as it died (603.10a)
                               where="present")
                acted = True
            elif name in SIEGES and ev.cause == "704.5v":   # defeated (310.11, 704.5v)
                w.move_zone(ev.new, "exile", games=ev.game)
                self.defeated.append((ev.game, ev.old))
                acted = True
        return acted




def modular_creature(w: World, controller: int, n: int | None = None) -> int:
    """Arcbound Worker: a 0/0 artifact creature that enters with modular N counters."""
    n = MODULAR["Arcbound Worker"] if n is None else n
    return w.add_object(controller, ("artifact", "creature"), power=0, toughness=0,
                        name="Arcbound Worker", counters={"+1/+1": n})


def siege(w: World, controller: int, defense: int = 5) -> int:
    """Invasion of Ergamon: a Siege battle with ``defense`` defense counters (310.4b)."""
    return w.add_object(controller, "battle", defense=defense, name="Invasion of Ergamon")


# ---- cards on the host-state API (World.modify_pt, World.prohibit) -------------------
def anthem_and_pump(w: World, creatures: list[int], pumped: int) -> None:
    """Glorious Anthem (+1/+1 to each) and Giant Growth (+3/+3 until end of turn) on one:
    P/T modifiers the host sets (613.4c), with counters added on top."""
    for c in creatures:
        w.modify_pt(c, 1, 1)
    w.modify_pt(pumped, 3, 3)


def cant_have_minus_counters(w: World, creature: int) -> None:
    """"This creature can't have -1/-1 counters put on it" (a prohibition of a kind)."""
    w.prohibit(creature, "-1/-1")


def cant_get_poison(w: World, player: int) -> None:
    """"You can't get poison counters" (Solemnity-like, for one player)."""
    w.prohibit(player, "poison")


def main() -> None:
    """A short game: each card once, and the events the host polled after each play."""
    w = World(seed=1)
    alice, bob = w.add_player(), w.add_player()
    h = Host(w, legendary={"Thalia"})

    def play(what: str, act: Callable[[], object], modular_target: int | None = None) -> None:
        step = w.step   # noted before acting: the act's events, the checks', the triggers'
        act()
        h.settle(modular_target)
        print(f"{what}:")
        for ev in w.events_since(step):
            print(f"  {ev}")

    finks = w.add_object(alice, "creature", power=3, toughness=2, name="Kitchen Finks")
    play("Kitchen Finks is destroyed (persist)", lambda: w.destroy(finks))
    worker = modular_creature(w, alice)
    golem = w.add_object(alice, ("artifact", "creature"), power=3, toughness=3, name="Golem")
    play("Arcbound Worker is destroyed (modular onto the Golem)", lambda: w.destroy(worker),
         modular_target=golem)
    ergamon = siege(w, bob, defense=3)
    play("the Golem deals 3 damage to Invasion of Ergamon (a Siege defeated)",
         lambda: w.deal_damage(ergamon, 3, source=golem))
    w.add_object(alice, "creature", power=2, toughness=1, name="Thalia")
    play("a second Thalia (the legend rule)",
         lambda: w.add_object(alice, "creature", power=2, toughness=1, name="Thalia"))
    print("Alice's battlefield:",
          {w.name(e): w.counters(e) for e in w.objects(zone="battlefield", controller=alice)})


__all__ = ["Host", "LegendRule", "anthem_and_pump", "cant_get_poison",
           "cant_have_minus_counters", "main", "modular_creature", "siege"]

if __name__ == "__main__":
    main()
