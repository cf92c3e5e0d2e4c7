"""The stronger baseline: the same rules in idiomatic esper, written to keep esper fast.

The naive baseline (``naive_esper``) deletes an entity and creates another when a
permanent changes zones, and every check walks every entity. Each delete or create
throws away esper's query caches, so the next check rebuilds them. This one is what a
careful esper user writes instead:

- A zone change mutates the entity (its ``Zone`` becomes the graveyard, its counters,
  damage and caps are cleared) and retires the object's id: the game hands out object
  ids of its own, mapped to esper entities, and the new object gets a new id (400.7),
  so a reference taken before the move no longer reaches it. No component is added or
  removed, so esper's query caches survive.
- The first check of a tick looks at everything (the host may have changed anything
  since the last tick); later checks of the same tick only re-check what the perform
  changed (nothing else can have started to meet a state-based action).
- Actions are a validated component lookup and a dict update: what the engine's
  ``put_counters``, ``deal_damage`` and ``destroy`` do for one object of one game.
- A tick of a state a tick left, nothing written since, checks nothing: every action
  clears a flag the tick sets (the engine keeps the same mark of a settled state).
- A clone copies what a game changes: the mutable components are copied, the card's
  frozen ones shared, and esper builds its query caches again on first use.

Its results equal the engine's (tests/benchmarks/test_baseline_matches_engine.py).
"""
from __future__ import annotations

import copy
from typing import Any, Callable, Self, Sequence

import esper
import numpy as np

from . import naive_esper as nv

KINDS = frozenset((nv.PLUS, nv.MINUS, nv.LOYALTY, nv.DEFENSE, nv.POISON))
_OBSERVED_KINDS = tuple(sorted(KINDS))
#: The ``World.observe`` features this baseline models (its objects have no printed
#: loyalty or defense: on the battlefield a planeswalker's loyalty and a battle's defense
#: are their counters, 306.5c and 310.4c; elsewhere they have none).
OBSERVED = ("present", "zone:battlefield", "zone:graveyard", "power", "toughness", "loyalty",
            "defense", "damage", "life", "lost", "has:power", "has:toughness", "has:loyalty",
            "has:defense", "has:life", *(f"counter:{k}" for k in _OBSERVED_KINDS))


#: A copy of each mutable component; the others (``nv.CHARACTERISTICS``, frozen) are shared.
_COPY: dict[type, Callable[[Any], Any]] = {
    nv.Zone: lambda c: nv.Zone(c.name),
    nv.Counters: lambda c: nv.Counters(dict(c.counts)),
    nv.Caps: lambda c: nv.Caps(dict(c.caps)),
    nv.Damage: lambda c: nv.Damage(c.marked, c.deathtouch),
    nv.Player: lambda c: nv.Player(c.life, c.lost),
}


def _shared(component: Any) -> Any:
    return component


def _count(n: Any, what: str) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"{what}: amount must be a non-negative integer, got {n!r}")
    return n


def to_graveyard(ent: int) -> int:
    """Put a permanent into its owner's graveyard by mutating its entity (no component added
    or removed: esper's query caches stay valid); the id is retired by the game."""
    zone = esper.component_for_entity(ent, nv.Zone)
    ctr = esper.component_for_entity(ent, nv.Counters)
    zone.name = nv.GRAVEYARD
    ctr.counts.clear()      # 122.2: the new object has no counters
    dmg = esper.try_component(ent, nv.Damage)
    if dmg is not None:
        dmg.marked, dmg.deathtouch = 0, False
    caps = esper.try_component(ent, nv.Caps)
    if caps is not None:
        caps.caps = {}      # a cap belonged to the old object's ability on the battlefield
    return ent


class Retire(nv.Perform):
    """Perform, with a zone change that mutates the entity instead of replacing it."""

    def leave(self, ent: int) -> int:
        return to_graveyard(ent)


class EsperGame(nv.NaiveGame):
    """One game in its own esper world; ids are the game's object ids, not esper entities."""

    def __init__(self) -> None:
        super().__init__()
        self._last_id = 0
        self.entity: dict[int, int] = {}   # live object id -> esper entity
        self.object: dict[int, int] = {}   # esper entity -> its current object id
        self.settled = False   # a tick left this state and nothing was written since

    def processors(self) -> list[esper.Processor]:
        return [nv.Annihilation(), nv.CapEnforcement(), nv.Lethality(), Retire()]

    def _new_id(self, ent: int) -> int:
        self._last_id = oid = self._last_id + 1
        self.entity[oid], self.object[ent] = ent, oid
        return oid

    def _retire(self, ent: int) -> int:
        del self.entity[self.object[ent]]
        return self._new_id(ent)

    def _ent(self, oid: int) -> int:
        ent = self.entity.get(oid)
        if ent is None:
            raise KeyError(f"object {oid} does not exist (it changed zones or was never there)")
        return ent

    def add_player(self, life: int, poison: int) -> int:
        self.settled = False
        ent = super().add_player(life, poison)
        self.players[-1] = oid = self._new_id(ent)
        return oid

    def add_object(self, components: list[Any]) -> int:
        self.settled = False
        return self._new_id(super().add_object(components))

    def tick(self) -> None:
        """The naive tick, skipped where a tick left the state and nothing wrote since."""
        if not self.settled:
            super().tick()
            self.settled = True

    def performed(self, check: nv.Check) -> set[int]:
        for ent in check.dies:
            self._retire(ent)
        return check.touched

    # ---- actions: one object of one game ----
    def put_counters(self, oid: int, kind: str, n: int = 1) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown counter kind {kind!r}")
        _count(n, f"put {kind!r} counters on object {oid}")
        ent = self._ent(oid)
        self.activate()
        self.settled = False
        counts = esper.component_for_entity(ent, nv.Counters).counts
        counts[kind] = counts.get(kind, 0) + n

    def deal_damage(self, oid: int, n: int, deathtouch: bool = False) -> None:
        _count(n, f"damage to object {oid}")
        ent = self._ent(oid)
        self.activate()
        self.settled = False
        dmg = esper.try_component(ent, nv.Damage)
        if dmg is None:
            raise ValueError(f"object {oid} can't be dealt damage")
        if n:
            dmg.marked += n
            dmg.deathtouch |= deathtouch

    def destroy(self, oid: int) -> int:
        """Destroy a permanent (701.8): it moves to the graveyard as a new object, whose id
        is returned."""
        ent = self._ent(oid)
        self.activate()
        self.settled = False
        if esper.component_for_entity(ent, nv.Zone).name != nv.BATTLEFIELD:
            raise ValueError(f"object {oid} is not a permanent")
        to_graveyard(ent)
        return self._retire(ent)

    # ---- reads ----
    def count(self, oid: int, kind: str) -> int:
        ent = self._ent(oid)
        self.activate()
        return esper.component_for_entity(ent, nv.Counters).counts.get(kind, 0)

    def exists(self, oid: int) -> bool:
        return oid in self.entity

    def zone(self, oid: int) -> str:
        return super().zone(self._ent(oid))

    def counters(self, oid: int) -> dict[str, int]:
        return super().counters(self._ent(oid))

    def damage(self, oid: int) -> int:
        return super().damage(self._ent(oid))

    def player(self, p: int) -> nv.Player:
        return super().player(self._ent(p))

    def observe(self, oids: Sequence[int]) -> np.ndarray:
        """``World.observe(oids, OBSERVED)`` of this game, (1, len(oids), features) float32:
        one row per object, from its components (zeros for an id no longer there)."""
        self.activate()
        rows = []
        for oid in oids:
            ent = self.entity.get(oid)
            if ent is None:
                rows.append([0] * len(OBSERVED))
                continue
            zone = esper.try_component(ent, nv.Zone)
            counts = esper.component_for_entity(ent, nv.Counters).counts
            card = esper.try_component(ent, nv.Creature)
            dmg = esper.try_component(ent, nv.Damage)
            player = esper.try_component(ent, nv.Player)
            power = toughness = 0
            if card is not None:   # 122.1a
                power = card.power + counts.get(nv.PLUS, 0) - counts.get(nv.MINUS, 0)
                toughness = card.toughness + counts.get(nv.PLUS, 0) - counts.get(nv.MINUS, 0)
            here = zone is not None and zone.name == nv.BATTLEFIELD
            walker = here and esper.has_component(ent, nv.Planeswalker)
            battle = here and esper.has_component(ent, nv.Battle)
            rows.append([1, here, zone is not None and zone.name == nv.GRAVEYARD, power, toughness,
                         counts.get(nv.LOYALTY, 0) if walker else 0,
                         counts.get(nv.DEFENSE, 0) if battle else 0,
                         0 if dmg is None else dmg.marked, 0 if player is None else player.life,
                         player is not None and player.lost, card is not None, card is not None,
                         walker, battle, player is not None, *(counts.get(k, 0) for k in _OBSERVED_KINDS)])
        return np.array([rows], np.float32)

    def clone(self) -> Self:
        """A snapshot as an esper user writes one: a new world of copies of the mutable
        components and the frozen ones shared, its query caches empty (esper builds them on
        first use, as after any change), the stateless processors shared. esper has no
        public copy of a world: its table is read and written, as the naive clone does."""
        esper.switch_world(self.name)  # (even if current) syncs esper's globals into its table
        count, components, entities, dead, _, _, procs, by_type, _, _, _ = esper._context_map[self.name]
        twin = copy.copy(self)
        twin.name, twin.players = f"esper-{next(nv._names)}", list(self.players)
        twin.entity, twin.object = dict(self.entity), dict(self.object)
        esper._context_map[twin.name] = (
            copy.copy(count), {kind: set(ents) for kind, ents in components.items()},
            {ent: {kind: _COPY.get(kind, _shared)(c) for kind, c in comps.items()}
             for ent, comps in entities.items()},
            set(dead), {}, {}, list(procs), dict(by_type), False, {}, {})
        return twin
