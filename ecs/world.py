"""The World: the state of a batch of games sharing one entity layout, and its API.

World holds the state (the store, the event log, the ruleset, the seeds and the
schedule) and offers every action and read as a method. The work is done by the modules
that hold it, each a set of functions of a ``Game`` (``ecs.game``), bound here as methods:
``ecs.actions`` (creating objects, counters, zone changes, damage, life), ``ecs.reads``,
``ecs.turns`` (main phases, libraries), ``ecs.batch`` (fork, select, seeds),
``ecs.observe``, ``ecs.host`` (what a host engine tells the core: power/toughness
effects, control, prohibitions, ...), ``ecs.persist`` (save, load) and
``ecs.rules.grand_archive`` (reserve, recover, enlighten, GA stats). Actions validate
everything before they write anything, so a bad input changes nothing.
"""
from __future__ import annotations

import contextlib
import os
from typing import Any, Iterator, Mapping, Sequence

import esper
import numpy as np

from . import actions, args, host, kernels, persist, reads, schedule, turns
from . import batch as batches
from . import observe as observation
from . import store as store_module
from .check import System, SystemType
from .errors import IllegalActionError, InvalidGameError, InvalidSeedError
from .events import Event, EventLog, event_name
from .frozen import ReadOnlyDict
from .game import Rules
from .limits import MAX_BATCH, MAX_PASSES
from .names import Names
from .perform import ONGOING
from .rules import get_ruleset
from .rules import grand_archive as ga
from .store import LocalId, Store


def _read_only_state(state: Mapping[str, Any]) -> ReadOnlyDict[str, Any]:
    """A generator's state (``bit_generator.state``: a dict of values and dicts) read-only."""
    return ReadOnlyDict({k: ReadOnlyDict(v) if isinstance(v, dict) else v for k, v in state.items()})


#: What ``World(seed=)`` takes (see ``_seed_sequence``; anything else: InvalidSeedError).
Seed = None | int | np.integer[Any] | Sequence[int | np.integer[Any]] | np.ndarray | np.random.SeedSequence


def _seed_sequence(seed: Any) -> np.random.SeedSequence:
    """The SeedSequence of a seed: None (fresh entropy), a SeedSequence, a non-negative
    Python or NumPy integer, or a sequence of them (InvalidSeedError otherwise)."""
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if seed is None:
        return np.random.SeedSequence()
    sequence = isinstance(seed, (list, tuple, np.ndarray)) and np.ndim(seed) == 1
    values = [seed] if args.is_integer(seed) else list(seed) if sequence else None
    if values is None or not all(args.is_integer(v) and v >= 0 for v in values):
        raise InvalidSeedError(f"seed must be None, a numpy SeedSequence, a non-negative integer "
                               f"or a sequence of them, got {seed!r}")
    return np.random.SeedSequence(int(seed) if args.is_integer(seed) else [int(v) for v in values])


class WorldSnapshot(ReadOnlyDict[str, Any]):
    """``World.snapshot()``: the state as a read-only mapping, its parts read-only too (the
    store's arrays, the event log's chunks, the generator's state), and ``config``, the
    ruleset, batch size and Two-Headed Giant setting of the World it was taken from.
    ``restore`` takes it as it is; a copy of it (``dict(snap)``, a pickle,
    ``copy.deepcopy``) is plain data, which ``restore`` checks first (its ``config`` too)."""

    __slots__ = ()


class World:
    """One game (``batch=1``) or ``batch`` games that share an entity layout."""

    ruleset: Rules
    two_headed_giant: bool
    max_passes: int
    seed: Seed
    n_spawned: int
    store: Store
    log: EventLog
    names: Names
    scalar_reads: bool

    def __init__(self, ruleset: str = "mtg", batch: int = 1, seed: Seed = None, *,
                 two_headed_giant: bool = False, max_passes: int = 1000,
                 scalar_reads: bool = True) -> None:
        """``scalar_reads=False``: reads return per-game arrays (of length 1) even for one
        game, as for a batch, so code written for batches reads one game right; with the
        default a World of one game reads plain values. (Reads that build their own
        values, ``result()`` among them, follow ``ecs.args.scalar``.) Not saved: ``load``
        builds a World with the default; set ``world.scalar_reads`` after it (each read
        looks at the attribute). Clones, fork and select keep it; ``restore`` leaves it."""
        batch = args.integer(batch, "batch", 1, MAX_BATCH, InvalidGameError)
        self.scalar_reads = args.flag(scalar_reads, "scalar_reads")
        self.ruleset = get_ruleset(ruleset)
        # compiled or loaded once per process, before any is called: those of the ruleset's
        # systems, and the optional ones (one game's settled-tick probe) for a World of one game
        kernels.ready(optional=batch == 1, systems=self.ruleset.systems)
        self.two_headed_giant = args.flag(two_headed_giant, "two_headed_giant")
        if self.two_headed_giant and not self.ruleset.two_headed_giant:
            raise IllegalActionError(
                f"two_headed_giant=True: Two-Headed Giant is a Magic variant (CR 810); the "
                f"{self.ruleset.name} ruleset has no teams")
        self.max_passes = args.integer(max_passes, "max_passes", 1, MAX_PASSES)
        self.seed = seed
        # The root of all randomness: forks and shards get children of it, numbered by
        # ``n_spawned`` (part of the snapshot, so restore replays them).
        self._set_seed_seq(_seed_sequence(seed))
        self.n_spawned = 0
        self._rng: np.random.Generator | None = None    # built on first use
        self._rng_state: Mapping[str, Any] | None = None  # its state until then; None: fresh
        self.store = Store(batch)
        self.log = EventLog()
        self.names = Names()
        self._schedule: schedule.Schedule | None = None
        # what a snapshot must share with the World restoring it: ruleset, batch, 2HG
        self._fits = (self.ruleset.name, batch, self.two_headed_giant)

    # ---- lazily built parts ----------------------------------------------------------
    # A clone builds its SeedSequence (~4 us) and Generator (~10 us) on first use:
    # together ten times the copy of a 1,000-object game. Until a World's generator is
    # built its state is a dict (or None: fresh from seed_seq), which clones share.
    def _set_seed_seq(self, ss: np.random.SeedSequence) -> None:
        self._seed_seq: np.random.SeedSequence | None = ss
        self._seed_key = (ss.entropy, tuple(ss.spawn_key), ss.pool_size)

    @property
    def seed_seq(self) -> np.random.SeedSequence:
        if self._seed_seq is None:
            entropy, spawn_key, pool_size = self._seed_key
            self._seed_seq = np.random.SeedSequence(entropy, spawn_key=spawn_key, pool_size=pool_size)
        return self._seed_seq

    @property
    def rng(self) -> np.random.Generator:
        if self._rng is None:
            self._rng = np.random.default_rng(self.seed_seq)
            if self._rng_state is not None:
                self._rng.bit_generator.state = self._rng_state
                self._rng_state = None
        return self._rng

    def _rng_snapshot(self) -> Mapping[str, Any]:
        """The generator's state, read-only, without building the generator."""
        if self._rng is not None:
            return _read_only_state(self._rng.bit_generator.state)
        state = self._rng_state
        if type(state) is not ReadOnlyDict:   # (None: fresh, the state a generator from seed_seq starts in)
            state = self._rng_state = _read_only_state(
                np.random.default_rng(self.seed_seq).bit_generator.state if state is None else state)
        return state

    @property
    def schedule(self) -> schedule.Schedule:
        """The systems of a check, in order, and when each runs (``ecs.schedule``): the
        ruleset's, unless replaced (``world.schedule = Schedule([...])``)."""
        if self._schedule is None:
            self._schedule = schedule.Schedule(self.ruleset.systems)
        return self._schedule

    @schedule.setter
    def schedule(self, value: schedule.Schedule) -> None:
        if not isinstance(value, schedule.Schedule):
            raise IllegalActionError(f"schedule must be an ecs.Schedule, got {value!r}")
        self._schedule = value

    @property
    def systems(self) -> tuple[System, ...]:
        return self.schedule.systems

    # ---- basic properties ------------------------------------------------------------
    @property
    def batch(self) -> int:
        return self.store.batch

    @property
    def ongoing(self) -> np.ndarray:
        """(B,) bool: games that have not ended."""
        return self.store.a["winner"] == ONGOING

    # ---- actions (ecs.actions) ---------------------------------------------------------
    add_player = actions.add_player
    add_object = actions.add_object
    add_objects = actions.add_objects
    put_counters = actions.put_counters
    remove_counters = actions.remove_counters
    move_counters = actions.move_counters
    proliferate = actions.proliferate
    set_cap = actions.set_cap
    clear_cap = actions.clear_cap
    destroy = actions.destroy
    sacrifice = actions.sacrifice
    move_zone = actions.move_zone
    deal_damage = actions.deal_damage
    tap = actions.tap
    untap = actions.untap
    lose_life = actions.lose_life
    gain_life = actions.gain_life
    cleanup = actions.cleanup

    # ---- host engine (ecs.host) ---------------------------------------------------------
    set_pt = host.set_pt
    modify_pt = host.modify_pt
    clear_pt = host.clear_pt
    set_controller = host.set_controller
    owner = reads.owner
    prohibit = host.prohibit
    allow = host.allow
    is_prohibited = host.is_prohibited
    set_cant_lose = host.set_cant_lose
    cant_lose = host.cant_lose
    set_hold = host.set_hold
    is_held = host.is_held
    set_redirect = host.set_redirect
    redirect = host.redirect

    # ---- state-based actions ------------------------------------------------------------
    def tick(self) -> int:
        """Check state-based actions on one snapshot, perform them together as one event,
        repeat until a check performs nothing (CR 704.3); returns the checks that acted.

        A state a tick of this World's schedule and ruleset left, unwritten since
        (``Store.settled``), is settled: the check would find what it found then, nothing,
        so it is not made. Where a system reads what the store does not hold (a host's, or
        a process replaced since: ``Schedule.probed``), every tick checks."""
        s, by = self.store, self._schedule
        mark = s.settled   # (None after any write: one look)
        # (tested here, in one frame, no property call once the schedule is made: a tick of a
        # settled state after other work is mostly its calls, each a cache miss)
        if (mark is not None and by is not None and mark[0] == by.serial and mark[1] == s.a.version
                and mark[2] == SystemType.replaced and mark[3] is self.ruleset and store_module.SCALAR_PATHS):
            return 0
        replaced = SystemType.replaced   # (before the tick looks at the processes: see _settled_mark)
        by = by or self.schedule
        acted = schedule.tick(self, by, self.max_passes)
        # (its check's look at the processes, read, not asked again)
        s.settled = (by.serial, s.a.version, replaced, self.ruleset) if by.trust == (replaced, True) else None
        return acted

    def _settled_mark(self) -> tuple[int, int, int, Rules] | None:
        """``Store.settled`` for the state a tick of this World's schedule just left: the
        schedule, the arrays' version, ``SystemType.replaced`` before the schedule looks at
        the processes (one replaced since, in another thread during the look too, makes it
        stale) and the ruleset (whose hooks, ``pt_modifier``, the checks read: another
        installed since makes it stale); or None where that schedule's systems do not decide
        from the store's state alone. (``tick`` makes the same mark from what its check
        looked at.)"""
        replaced = SystemType.replaced
        by = self.schedule
        return (by.serial, self.store.a.version, replaced, self.ruleset) if by.probed() else None

    def _left_settled(self) -> bool:
        """Whether a tick of this World's schedule and ruleset left the state settled,
        unwritten since (``tick``'s test, with the mark made anew: for a snapshot, and a main
        phase's check of some of a batch's games, which a settled state spares)."""
        mark = self.store.settled
        return mark is not None and mark == self._settled_mark()

    def _ruling(self) -> LocalId:
        """A number of this process's naming the schedule and ruleset this World plays by
        now (``Schedule.ruling``; clones too, while neither is replaced in either): what a
        snapshot names as the rules its state was left settled under (``snapshot``,
        ``_restore``)."""
        return LocalId(self.schedule.ruling(self.ruleset))

    # ---- turns (ecs.turns) -----------------------------------------------------------
    active_player = turns.active_player
    begin_main_phase = turns.begin_main_phase
    library = turns.library
    order_library = turns.order_library
    shuffle_library = turns.shuffle_library
    draw = turns.draw
    mill = turns.mill

    # ---- Grand Archive (ecs.rules.grand_archive) ---------------------------------------
    reserve = ga.reserve
    set_reserve = ga.set_reserve
    gain_reserve = ga.gain_reserve
    pay_reserve = ga.pay_reserve
    recover = ga.recover
    activate_enlighten = ga.activate_enlighten
    set_immortal = ga.set_immortal
    is_immortal = ga.is_immortal
    level_up = ga.level_up
    stat = ga.stat
    base_level = ga.base_level

    # ---- reads (ecs.reads) ---------------------------------------------------------------
    exists = reads.exists
    counters = reads.counters
    count = reads.count
    cap = reads.cap
    power = reads.power
    toughness = reads.toughness
    loyalty = reads.loyalty
    defense = reads.defense
    keywords = reads.keywords
    zone = reads.zone
    name = reads.name
    controller = reads.controller
    is_tapped = reads.is_tapped
    damage = reads.damage
    life = reads.life
    has_lost = reads.has_lost
    result = reads.result
    players = reads.players
    object_mask = reads.object_mask
    objects = reads.objects
    observe = observation.observe
    observation_features = observation.observation_features

    # ---- events ---------------------------------------------------------------------------
    # Triggers: the host polls. Rows of one action or one check share a step; a host
    # notes ``step`` before acting and reads ``events_since(step)`` (or the columnar
    # ``event_table(since=step)``) when a player would next receive priority, which is
    # when the rules put triggered abilities on the stack (CR 603.3), after the
    # state-based actions. ``dispatch_events`` hands those events to esper handlers.
    @property
    def step(self) -> int:
        """The number of the last event step: it never falls as the game goes on
        (``clear_events`` leaves it); ``restore`` returns it to the snapshot's."""
        return self.log.step

    def events(self) -> list[Event]:
        """Every event since the last ``clear_events()``, oldest first."""
        return self.events_since(None)

    def events_since(self, step: int | None) -> list[Event]:
        """The events of the steps after ``step`` (a ``World.step`` read earlier), oldest
        first; None: every event."""
        s = self.store
        since = None if step is None else args.integer(step, "step", 0, 2**62)
        return self.log.objects(s.kind_names, s.a["entity_id"][0, s.a["player_col"]], self.names, since)

    def event_table(self, since: int | None = None) -> dict[str, np.ndarray]:
        """The same events as columnar arrays (see ecs.events); ``since``: of later steps."""
        return self.log.table(None if since is None else args.integer(since, "since", 0, 2**62))

    def dispatch_events(self, since: int | None) -> int:
        """esper's event idiom: each event of the steps after ``since`` is dispatched with
        ``esper.dispatch_event(name, world, event)`` to the handlers a host registered
        with ``esper.set_handler(name, func)``, in order; names are ``ecs.events.
        event_name`` (``"counter_changed"``, ``"zone_changed"``, ``"tapped"``,
        ``"damage_dealt"``, ...). Returns the step it dispatched up to, to pass next time:
        the events the handlers' own actions make (a trigger that triggers another, 603.2)
        are dispatched by that next call.

        Each event goes to the handlers registered for its name as it is dispatched (a
        copy of esper's set, called as ``esper.dispatch_event`` calls them): a handler that
        removes itself or adds another, here or in another thread, changes the handlers
        of the next event, where iterating esper's own set would raise."""
        step = self.log.step
        for event in self.events_since(since):
            for ref in tuple(esper.event_registry.get(event_name(event), ())):
                handler = ref()
                if handler is not None:   # (one collected since: esper drops it)
                    handler(self, event)
        return step

    def clear_events(self) -> None:
        self.log.clear()

    # ---- batches and search (ecs.batch) ------------------------------------------------
    spawn_seeds = batches.spawn_seeds

    def fork(self, game: int, n: int, events: bool = True) -> World:
        """A new World of ``n`` games, each a copy of game ``game`` of this one (see
        ``ecs.batch.fork``)."""
        return self._from_parts(batches.fork(self, game, n, events))

    def select(self, games: args.Games) -> World:
        """A new World keeping games ``games``, in that order (see ``ecs.batch.select``)."""
        return self._from_parts(batches.select(self, games))

    def _from_parts(self, parts: batches.Parts) -> World:
        other = World(self.ruleset.name, int(parts.store["meta"][0]), parts.seed,
                      two_headed_giant=self.two_headed_giant, max_passes=self.max_passes,
                      scalar_reads=self.scalar_reads)
        other._restore({"store": parts.store, "log": parts.log, "rng": other.rng.bit_generator.state,
                        "names": self.names.copy(), "n_spawned": 0,
                        "seed_seq": batches.seed_key(parts.seed)})
        other.ruleset = self.ruleset       # a host's ruleset and systems go on in the new World
        other._schedule = self._schedule
        return other

    # ---- save and load (ecs.persist) --------------------------------------------------
    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the whole World (state, events, generator, configuration) to ``path``, an
        uncompressed ``.npz``; the file under that name is replaced atomically (see
        ``ecs.persist``)."""
        persist.save(persist.Parts(self.ruleset.name, self.batch, self.two_headed_giant,
                                   self.max_passes, self.snapshot()), path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> World:
        """The World saved in ``path``; ``SnapshotError`` for a missing, damaged or
        inconsistent file or another format version (checked before a World is built)."""
        parts = persist.load(path)
        # One game at first: restore sizes the store for the file's games.
        world = cls(parts.ruleset, 1, parts.seed_seq, two_headed_giant=parts.two_headed_giant,
                    max_passes=parts.max_passes)
        world._restore(parts.snapshot)
        return world

    # ---- snapshots --------------------------------------------------------------------
    def snapshot(self) -> WorldSnapshot:
        """The whole state as array copies (plus the event log, the random generator and
        whether a tick of this World's schedule and ruleset left it settled, ``tick``)."""
        s, by = self.store, self._schedule
        settled = self._ruling() if by is not None and self._left_settled() else None
        return WorldSnapshot(store=s.snapshot(), layout=LocalId(s.layout), log=self.log.snapshot(),
                             rng=self._rng_snapshot(), names=self.names.copy(frozen=True), seed_seq=self._seed_key,
                             n_spawned=self.n_spawned, settled=settled, config=self._fits)

    def restore(self, snap: Mapping[str, Any]) -> None:
        """Return to a snapshot taken from this World or from one of the same ruleset,
        batch size and Two-Headed Giant setting (a clone of it, one built the same way).
        A copy of a snapshot (``dict(snap)``, a pickle) is checked first as a save file is
        (``ecs.persist.check_snapshot``); anything that does not fit raises SnapshotError
        and changes nothing."""
        if type(snap) is WorldSnapshot:
            if snap["config"] != self._fits:
                raise persist.misfit(snap["config"], self._fits)
        else:
            snap = persist.check_snapshot(snap, *self._fits, self.max_passes)
        self._restore(snap)

    def _restore(self, snap: Mapping[str, Any]) -> None:
        """``restore`` of a snapshot known to be sound (``snapshot()``'s, checked, or made
        of a fork's or a save file's checked parts), whatever its batch size."""
        s, by = self.store, self._schedule
        names = snap["names"]   # (first: a table of repeated names raises before anything changes)
        names = names.copy() if isinstance(names, Names) else Names(names)
        s.restore(snap["store"], snap.get("layout"))
        settled = snap.get("settled")
        if by is not None and settled is not None and settled == self._ruling():   # as a tick of these rules left it
            s.settled = self._settled_mark()
        self.log.restore(snap["log"])
        self._seed_seq, self._seed_key = None, snap["seed_seq"]   # (built on first use: ``seed_seq``)
        self.n_spawned = int(snap["n_spawned"])
        if self._rng is None:   # nobody holds a generator: stay lazy
            self._rng_state = snap["rng"]
        else:                   # in place: a generator taken from ``rng`` follows the World
            self._rng.bit_generator.state = snap["rng"]
        self.names = names
        self._fits = (self.ruleset.name, s.batch, self.two_headed_giant)

    @contextlib.contextmanager
    def atomic(self) -> Iterator[None]:
        """A block of calls made as one: where anything in it raises (an action's bad input,
        a host's hook's refusal or bug, an interrupt), the World is returned to its state as
        the block began, event log, step and generator included, and the exception goes on
        as raised. Each action of the built-in rulesets is atomic by itself; a host's hooks
        run inside an action, after some of its writes, and a host's effect is often several
        actions: this makes either whole. It keeps a ``clone()`` as it begins (copy on write:
        the block's first write of each array copies it), and restores from it on a raise.
        What a snapshot holds is undone; a ruleset or schedule set in the block is not."""
        kept = self.clone()
        try:
            yield
        except BaseException:
            snap = kept.snapshot()
            del kept   # (the traceback keeps this frame: neither holds the old state on)
            self._restore(snap)
            del snap
            raise

    def clone(self) -> "World":
        """An independent copy of this World, without going through ``__init__``: the
        store's arrays are shared until either World writes them (copy on write,
        ``Store.mut``), the event log's chunks shared (never mutated), the schedule shared
        (systems keep no game state), and the generator built on first use. Every attribute is copied as
        is (configuration: immutable values) but those replaced here."""
        other = type(self).__new__(type(self))
        d = self.__dict__.copy()
        d["store"] = self.store.clone()
        d["log"] = self.log.clone()
        d["names"] = self.names.copy()
        d["_seed_seq"] = None                   # SeedSequence.spawn() mutates it
        d["_rng"] = None
        if self._rng is not None:
            d["_rng_state"] = self._rng.bit_generator.state
        other.__dict__ = d
        return other
