"""The benchmark baseline: the same counter state-based actions written with esper alone.

This is the code a user would write without the NumPy store: one Python component object
per entity (a dict of counters, a marked-damage record, tag components for the card
types) and one ``esper.Processor`` per state-based action, each looping over
``esper.get_components``. It is meant to be honest, not slow: it uses esper's cached
component queries, touches only the entities a query returns, and does no more work than
the rules ask.

Rules (the same as the engine's, README "Where the rules leave a choice"):
704.5q annihilation, 704.5r caps (removals of one check add up, clamped at what is
there), 704.5f toughness <= 0, 704.5g lethal damage, 704.5h deathtouch, 704.5i loyalty 0,
704.5v defense 0, 704.5a life <= 0, 704.5c ten poison; a permanent that leaves the
battlefield becomes a new object without counters (400.7, 122.2). All processors of one
check read the same state and only record what they would do; ``Perform`` (the last
processor) does it all at once; ``tick`` repeats checks until one performs nothing
(704.3). A game that has ended is frozen (README).

Only the +1/+1 and -1/-1 power/toughness kinds are modelled: they are the only ones the
benchmark boards use.
"""
from __future__ import annotations

import contextlib
import copy
import itertools
from dataclasses import dataclass, field
from typing import Any, Iterator, Self

import esper

PLUS, MINUS, LOYALTY, DEFENSE, POISON = "+1/+1", "-1/-1", "loyalty", "defense", "poison"
BATTLEFIELD, GRAVEYARD = "battlefield", "graveyard"
MAX_CHECKS = 1000  # loop guard: a runaway tick raises instead of hanging


# ---- components ------------------------------------------------------------------------
@dataclass(slots=True)
class Zone:
    name: str


@dataclass(slots=True)
class Counters:
    """Counters on an object or player; a kind whose count drops to 0 is deleted."""
    counts: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class Caps:
    """"Can't have more than N counters of this kind" (122.4), only on the objects that have one."""
    caps: dict[str, int]


@dataclass(slots=True)
class Damage:
    marked: int = 0
    deathtouch: bool = False  # dealt damage by a deathtouch source since the last check


@dataclass(slots=True, frozen=True)
class Creature:
    power: int
    toughness: int  # printed; counters modify it (122.1a)


@dataclass(slots=True, frozen=True)
class Planeswalker:
    pass


@dataclass(slots=True, frozen=True)
class Battle:
    pass


@dataclass(slots=True)
class Player:
    life: int
    lost: bool = False


# Components that describe the card itself, so the new object after a zone change keeps
# them (400.7 keeps the card; counters, damage and caps belong to the old object).
CHARACTERISTICS: tuple[type, ...] = (Creature, Planeswalker, Battle)


@dataclass
class Check:
    """What one state-based check decided, to be performed together (704.3). ``only``
    limits the check to some entities (None: all; the stronger baseline's re-checks);
    ``touched`` collects the entities the perform changed."""
    remove: dict[int, dict[str, int]] = field(default_factory=dict)
    dies: set[int] = field(default_factory=set)
    loses: set[int] = field(default_factory=set)
    only: set[int] | None = None
    touched: set[int] = field(default_factory=set)

    def remove_counters(self, ent: int, kind: str, n: int) -> None:
        kinds = self.remove.setdefault(ent, {})
        kinds[kind] = kinds.get(kind, 0) + n

    def __bool__(self) -> bool:
        return bool(self.remove or self.dies or self.loses)


def rows(check: Check, *types: type) -> list[tuple[int, tuple[Any, ...]]]:
    """The (entity, components) rows a processor checks: esper's cached query, or the
    entities of ``check.only`` that have those components."""
    if check.only is None:
        return esper.get_components(*types)
    out: list[tuple[int, tuple[Any, ...]]] = []
    for ent in check.only:
        comps: tuple[Any, ...] | None = esper.try_components(ent, *types)
        if comps is not None:
            out.append((ent, comps))
    return out


# ---- processors (higher priority runs first) -------------------------------------------
class Annihilation(esper.Processor):
    """704.5q: N +1/+1 and N -1/-1 counters are removed, N the smaller count."""
    priority = 40

    def process(self, check: Check) -> None:
        for ent, (zone, ctr) in rows(check, Zone, Counters):
            counts = ctr.counts
            if PLUS in counts and MINUS in counts and zone.name == BATTLEFIELD:
                n = min(counts[PLUS], counts[MINUS])
                check.remove_counters(ent, PLUS, n)
                check.remove_counters(ent, MINUS, n)


class CapEnforcement(esper.Processor):
    """704.5r: all but N counters of a capped kind are removed."""
    priority = 30

    def process(self, check: Check) -> None:
        for ent, (zone, ctr, caps) in rows(check, Zone, Counters, Caps):
            if zone.name != BATTLEFIELD:
                continue
            for kind, cap in caps.caps.items():
                have = ctr.counts.get(kind, 0)
                if have > cap:
                    check.remove_counters(ent, kind, have - cap)


class Lethality(esper.Processor):
    """704.5f/g/h creatures, 704.5i planeswalkers, 704.5v battles, 704.5a/c players."""
    priority = 20

    def process(self, check: Check) -> None:
        for ent, (zone, card, ctr, dmg) in rows(check, Zone, Creature, Counters, Damage):
            if zone.name != BATTLEFIELD:
                continue
            counts = ctr.counts
            toughness = card.toughness + counts.get(PLUS, 0) - counts.get(MINUS, 0)
            # 704.5f, then (toughness > 0) 704.5h and 704.5g
            if toughness <= 0 or dmg.deathtouch or dmg.marked >= toughness:
                check.dies.add(ent)
        for ent, (zone, _, ctr) in rows(check, Zone, Planeswalker, Counters):
            if zone.name == BATTLEFIELD and not ctr.counts.get(LOYALTY):
                check.dies.add(ent)
        for ent, (zone, _, ctr) in rows(check, Zone, Battle, Counters):
            if zone.name == BATTLEFIELD and not ctr.counts.get(DEFENSE):
                check.dies.add(ent)
        for ent, (player, ctr) in rows(check, Player, Counters):
            if not player.lost and (player.life <= 0 or ctr.counts.get(POISON, 0) >= 10):
                check.loses.add(ent)


class Perform(esper.Processor):
    """Performs everything the check decided, as one event."""
    priority = 0

    def process(self, check: Check) -> None:
        for ent, kinds in check.remove.items():
            if ent in check.dies:
                continue  # it leaves the battlefield: its counters simply cease to exist (122.2)
            counts = esper.component_for_entity(ent, Counters).counts
            for kind, n in kinds.items():
                left = counts[kind] - n
                if left > 0:
                    counts[kind] = left
                else:
                    del counts[kind]
            check.touched.add(ent)
        for ent in check.dies:
            check.touched.add(self.leave(ent))
        for ent in check.loses:
            esper.component_for_entity(ent, Player).lost = True

    def leave(self, ent: int) -> int:
        """Put a permanent into its owner's graveyard; the entity of the new object."""
        return to_graveyard(ent)


def to_graveyard(ent: int) -> int:
    """Put a permanent into its owner's graveyard: a new object, without counters (400.7)."""
    comps: tuple[Any, ...] = esper.components_for_entity(ent)
    card = [c for c in comps if type(c) in CHARACTERISTICS]
    esper.delete_entity(ent, immediate=True)
    return esper.create_entity(Zone(GRAVEYARD), Counters(), *card)


# ---- one game = one esper world --------------------------------------------------------
_names = itertools.count()


class NaiveGame:
    """One game in its own esper world (esper keeps worlds in module globals)."""

    def __init__(self) -> None:
        self.name = f"naive-esper-{next(_names)}"
        self.over = False
        self.players: list[int] = []
        self.deciders: list[esper.Processor] = []   # the processors but the perform, for ``warm``
        esper.switch_world(self.name)
        for proc in self.processors():
            esper.add_processor(proc, proc.priority)
            if not isinstance(proc, Perform):
                self.deciders.append(proc)

    def processors(self) -> list[esper.Processor]:
        return [Annihilation(), CapEnforcement(), Lethality(), Perform()]

    def activate(self) -> None:
        if esper.current_world != self.name:
            esper.switch_world(self.name)

    def add_player(self, life: int, poison: int) -> int:
        self.activate()
        p = esper.create_entity(Player(life), Counters({POISON: poison} if poison else {}))
        self.players.append(p)
        return p

    def add_object(self, components: list[Any]) -> int:
        self.activate()
        return esper.create_entity(Zone(BATTLEFIELD), *components)

    def warm(self) -> None:
        """Build esper's query caches without changing the game, as a game loop has them
        at a tick: the previous tick's last check queried everything, and the counter and
        damage actions since add or remove no component. The deciding processors run on a
        check that is thrown away."""
        self.activate()
        check = Check()
        for proc in self.deciders:
            proc.process(check)

    def tick(self) -> None:
        """State-based actions to their fixed point (704.3)."""
        self.activate()
        only: set[int] | None = None
        for _ in range(MAX_CHECKS):
            if self.over:
                return
            check = Check(only=only)
            esper.process(check)
            if not check:
                return
            if check.loses:
                self.over = sum(not self.player(p).lost for p in self.players) <= 1
            only = self.performed(check)
        raise RuntimeError(f"{self.name}: state-based actions did not settle in {MAX_CHECKS} checks")

    def performed(self, check: Check) -> set[int] | None:
        """After a perform: the entities the next check of the tick looks at (None: all of
        them, the naive way)."""
        return None

    # ---- reads (for the equality tests) ----
    def exists(self, ent: int) -> bool:
        self.activate()
        return esper.entity_exists(ent)

    def zone(self, ent: int) -> str:
        self.activate()
        return esper.component_for_entity(ent, Zone).name

    def counters(self, ent: int) -> dict[str, int]:
        self.activate()
        return dict(esper.component_for_entity(ent, Counters).counts)

    def damage(self, ent: int) -> int:
        self.activate()
        dmg = esper.try_component(ent, Damage)
        return 0 if dmg is None else dmg.marked

    def player(self, p: int) -> Player:
        self.activate()
        return esper.component_for_entity(p, Player)

    def zone_sizes(self) -> dict[str, int]:
        """How many objects are in each zone (new objects included)."""
        self.activate()
        sizes: dict[str, int] = {}
        for _, zone in esper.get_component(Zone):
            sizes[zone.name] = sizes.get(zone.name, 0) + 1
        return sizes

    # ---- copies and cleanup ----
    def clone(self) -> Self:
        """A deep copy of this game's esper world: the naive way to snapshot a game
        (``EsperGame.clone`` copies only what a game changes)."""
        esper.switch_world(self.name)  # (even if current) syncs esper's globals into its table
        state = copy.deepcopy(esper._context_map[self.name])  # noqa: SLF001 (esper has no public copy)
        twin = copy.copy(self)
        twin.name, twin.players = f"naive-esper-{next(_names)}", list(self.players)
        esper._context_map[twin.name] = state  # noqa: SLF001
        return twin

    def close(self) -> None:
        """Delete this game's esper world."""
        if esper.current_world == self.name:
            esper.switch_world("default")
        if self.name in esper.list_worlds():
            esper.delete_world(self.name)


@contextlib.contextmanager
def kept_world() -> Iterator[None]:
    """esper's current world as it was before the block, whatever the games in it
    activated: a host's handlers (``esper.set_handler``) are its current world's, and a
    benchmark helper must not leave another one current for the engine's events."""
    before = esper.current_world
    try:
        yield
    finally:
        if esper.current_world != before and before in esper.list_worlds():
            esper.switch_world(before)


class NaiveBatch:
    """Many games, one esper world each: an esper user runs a batch as a loop."""

    def __init__(self, games: list[NaiveGame]) -> None:
        self.games = games

    def tick(self) -> None:
        for game in self.games:
            game.tick()

    def warm(self) -> None:
        for game in self.games:
            game.warm()

    def close(self) -> None:
        for game in self.games:
            game.close()
