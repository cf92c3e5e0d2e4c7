"""Differential test of batches: a World of B games gives exactly the results of B
independent single-game Worlds fed the same per-game actions.

Hypothesis draws a board (two players, a few objects and the first player's library, the
same in every game), then up to 25 actions. Now and then the batch is one of Two-Headed
Giant games (810): four players in two teams, seated together or apart, sharing life and
poison (810.8, 810.10). Each action names its games in one of the accepted forms (None,
a mask, an index array in any order, one index) and draws a target and an amount for
every selected game separately, so the games diverge: objects die in some games and live
in others, tokens are created in some games only, players lose in some games, libraries
are drawn, milled and ordered apart. Before half of the draws and mills a token is moved
into the library in some games, mostly on top or among the top cards: a draw stops at it
and a mill leaves it in its place (111.8), in the batch's general path as in each single
World's plain-int one.

Ids: a batch's games share ids, while single Worlds allocate their own, so objects are
compared as *logical objects*: each game keeps a map logical object -> current id, in the
batch and in its single World. Creating an object gives both ids; each zone-change event
(the object becomes a new object, CR 400.7) moves the map to the new id. Targets are drawn
as logical objects known in that game (including dead ones: a stale id must then fail the
same way on both sides).

Now and then an action takes ``where="present"``, often with the ids as they were
created (stale in the games where the object changed zones): the batch skips those games'
rows, and each single World is given only its ids that exist; damage now and then names
a source in each game (its controller gains by lifelink, 120.3f) or is combat damage.
Counters are now and then put (or moved, proliferated, entered with, arrived with by
``move_zone(counters=)``, to any zone a World names) by another player (122.6a); objects
are now and then made with ``no_counters`` (101.3) and prohibitions are of every kind;
actions name games that have ended with ``skip_finished=True`` (left out there); caps
end (``clear_cap``, 122.4) as prohibitions do (``allow``); power and toughness are set
(layer 7b, 613.4b) as well as modified, and the effects end
(``clear_pt``, of one object or of all); objects are made several at once
(``add_objects``), entering with counters and caps that differ per game.

After every action:

* the batch raises a CounterError iff some single World raises one, and then of a class
  one of them raised; the batch is then unchanged (and the single Worlds are rolled back);
* the events of each game match, step by step (each step as a multiset, ids mapped to
  logical objects, last-known counters included);
* ``tick()`` in the batch acts as many times as the longest single game;
* a draw or mill returns the same cards in each game, in the order drawn (121.2), and a
  move of counters the same amounts; a shuffled library is the same cards;
* every logical object and player reads the same in every game, through ``observe``
  (counters of every kind, power, toughness, loyalty, defense, zone, tapped, damage, life,
  losses) and the game results are equal; at the end also through the per-object reads.

A main phase checks state-based actions in its selected games only (117.5): most main phases
first leave state-based work (a lethal -1/-1 counter or damage, a player out of life or
poisoned, a draw from an empty library) in a selected game and in a left-out one, so that
a check of the wrong games shows.

Before an action the batch may be cloned, the sequence going on with the clone or with its
source (``Harness.branch``): the one left behind must end exactly as it was left, though
the two shared their arrays until one wrote them (copy on write, ``Store.mut``).
"""
from __future__ import annotations

import sys
import tempfile
from collections import Counter

import numpy as np
import reach
from can_have_rules import RULESETS
from host_rules import HOST_SYSTEMS
from host_rules import OBJECT_KINDS as HOST_KINDS
from host_rules import PLAYER_KINDS as HOST_PLAYER_KINDS
from hypothesis import given, note, settings
from hypothesis import strategies as st
from profiles import examples
from state import full_state

from ecs import CounterChanged, CounterError, DamageDealt, GameEnded, PlayerLost, Tapped, World, ZoneChanged, zones
from ecs.components import TYPE_BIT
from ecs.host import marks
from ecs.schedule import Schedule

# Hypothesis favours the first elements of a list: the per-game replacement effects come early.
KINDS = ["+1/+1", "shield", "stun", "-1/-1", "finality", "indestructible", "loyalty", "defense",
         "charge", "poison", "flying", "deathtouch"]
FEATURES = (["present", "zone", "tapped", "damage", "power", "toughness", "loyalty", "defense",
             "life", "lost", "token", "controller"] + [f"counter:{k}" for k in KINDS + ["rad"]])
# the counters of a host's own systems (tests/host_rules.py), in the examples that install them
HOST_FEATURES = [f"counter:{k}" for k in HOST_KINDS + HOST_PLAYER_KINDS]
# every zone a World names (400.1, and the Grand Archive's memory), the usual ones first
ZONES = ["graveyard", "exile", "hand", "library", "battlefield", "stack", "command", "memory"]
OBJECT_SPECS = [
    dict(types={"creature"}, power=2, toughness=2),
    dict(types={"creature"}, power=1, toughness=3, keywords={"deathtouch"}),
    dict(types={"creature"}, power=0, toughness=1, token=True),
    dict(types={"planeswalker"}, loyalty=3),
    dict(types={"battle"}, defense=2),
    dict(types={"artifact"}, counters={"charge": 2}),
    dict(types={"creature"}, power=3, toughness=3, counters={"+1/+1": 1}, zone="graveyard"),
    dict(types={"sorcery"}, zone="library"),   # libraries: draws, mills and rad (728.1)
    dict(types={"land"}, zone="library"),
]
LIBRARY = [7, 8, 7]   # every board's first player starts with a library of these
ACTIONS = ["put", "put", "put", "remove", "damage", "damage", "destroy", "sacrifice", "move_zone",
           "tap", "untap", "proliferate", "set_cap", "life", "poison", "move_counters",
           "add_object", "tick", "tick", "cleanup", "pt", "host_flag", "main_phase", "main_phase",
           "draw", "library_order", "finished"]
N_PLAYERS = 2


class Harness:
    """The batch, its B single Worlds, and the logical-object maps of every game."""

    def __init__(self, batch: int, specs: list[int], systems: list | None = None,
                 can_have: tuple[str, int] | None = None, teams: list[int] | None = None) -> None:
        """``systems``: a schedule for the batch and every single World (a host's own);
        ``can_have``: a host's "can't have counters" of a class of objects
        (tests/can_have_rules.py) and the index of the player who controls it; ``teams``:
        a Two-Headed Giant game (810), each player's team in seat order."""
        self.B = batch
        self.teams = teams
        self.n_players = N_PLAYERS if teams is None else len(teams)
        thg = teams is not None
        self.batch = World(batch=batch, seed=0, two_headed_giant=thg)
        self.singles = [World(seed=0, two_headed_giant=thg) for _ in range(batch)]
        for w in (self.batch, *self.singles):
            if systems is not None:
                w.schedule = Schedule(systems)
            if can_have is not None:   # (before anything enters: 122.6)
                w.ruleset = RULESETS[can_have[0]][0](can_have[1])
        self.bid: list[dict[int, int]] = [{} for _ in range(batch)]   # logical -> batch id
        self.sid: list[dict[int, int]] = [{} for _ in range(batch)]   # logical -> single id
        self.brev: list[dict[int, int]] = [{} for _ in range(batch)]  # batch id -> logical
        self.srev: list[dict[int, int]] = [{} for _ in range(batch)]  # single id -> logical
        self.known: list[list[int]] = [[] for _ in range(batch)]      # logicals of each game
        # logical -> (batch id, single id) as created: stale where it has changed zones
        self.first: list[dict[int, tuple[int, int]]] = [{} for _ in range(batch)]
        self.n_logical = 0
        self.log: list[str] = []
        self.left: list[tuple[World, dict]] = []   # see branch()
        self.last: tuple | None = None              # see run()
        self.reached: Counter | None = None         # the cases a coverage run counts (run_sequence)
        # Swarm testing: an example may use a few kinds and actions only (see swarm()),
        # so rare interactions (stun and untap, caps and proliferate) come up often.
        self.kinds, self.actions = (KINDS + HOST_KINDS * 4 if systems else KINDS), ACTIONS
        self.features = FEATURES + HOST_FEATURES if systems else FEATURES
        self.player_kinds = ["poison", "rad"] + (HOST_PLAYER_KINDS if systems else [])
        for team in teams or [None] * N_PLAYERS:
            self.create(lambda w, games, team=team: w.add_player(team=team), range(batch), batch_games=None)
        for i in [*specs, *LIBRARY]:
            spec = OBJECT_SPECS[i]
            self.create(lambda w, games, spec=spec: w.add_object(0, games=games, **spec),
                        range(batch), batch_games=None)
        self.clear()

    # ---- bookkeeping -------------------------------------------------------------------
    def create(self, make, games, batch_games, make_single=None) -> None:
        """``make(world, games)`` makes one object or an array of them (``add_objects``):
        a logical object each, in ``games``; ``make_single(world, g)``, if given, makes
        them in single World ``g``."""
        games = list(games)
        made = [int(x) for x in np.ravel(make(self.batch, batch_games))]
        make_single = make_single or (lambda w, g: make(w, None))
        single = {g: [int(x) for x in np.ravel(make_single(self.singles[g], g))] for g in games}
        for k, b in enumerate(made):
            logical = self.n_logical
            self.n_logical += 1
            for g in games:
                s = single[g][k]
                self.bid[g][logical], self.sid[g][logical] = b, s
                self.first[g][logical] = (b, s)
                self.brev[g][b], self.srev[g][s] = logical, logical
                self.known[g].append(logical)

    def clear(self) -> None:
        self.batch.clear_events()
        for w in self.singles:
            w.clear_events()

    def branch(self, on_clone: bool) -> None:
        """Clone the batch and go on with the clone or with its source; the one left behind
        (which shares arrays with the other until either writes them: Store copy on write)
        keeps its state, checked by ``check_left``."""
        twin = self.batch.clone()
        left, self.batch = (self.batch, twin) if on_clone else (twin, self.batch)
        self.left.append((left, full_state(left)))
        self.log.append(f"# went on with the {'clone' if on_clone else 'source'}")

    def check_left(self) -> None:
        for i, (w, state) in enumerate(self.left):
            assert full_state(w) == state, f"world left at branch {i} changed"

    def players(self) -> list[int]:
        return list(range(self.n_players))   # logical numbers of the players (created first)

    # ---- events ------------------------------------------------------------------------
    @staticmethod
    def _steps(w: World, games_of_rows: np.ndarray | None, game: int):
        """Events of one game, grouped by step (in order)."""
        table = w.event_table()
        events = w.events()
        rows = [i for i in range(len(events)) if games_of_rows is None or events[i].game == game]
        groups: list[tuple[int, list]] = []
        for i in rows:
            step = int(table["step"][i])
            if not groups or groups[-1][0] != step:
                groups.append((step, []))
            groups[-1][1].append(events[i])
        return [evs for _, evs in groups]

    @staticmethod
    def _norm(event, rev: dict[int, int]) -> tuple:
        if isinstance(event, CounterChanged):
            return ("counter", rev[event.entity], event.kind, event.before, event.after,
                    event.cause, event.by)
        if isinstance(event, ZoneChanged):
            logical = rev[event.old]
            if event.new is not None:
                rev[event.new] = logical
            return ("zone", logical, event.new is None, event.from_zone, event.to_zone,
                    event.cause, tuple(sorted(event.lki.items())), event.controller)
        if isinstance(event, PlayerLost):
            return ("lost", event.player, event.cause)
        if isinstance(event, Tapped):
            return ("tap", rev[event.entity], event.before, event.after, event.cause)
        if isinstance(event, DamageDealt):
            return ("damage", rev[event.target], None if event.source is None else rev[event.source],
                    event.amount, event.dealt, event.cause)
        assert isinstance(event, GameEnded)
        return ("end", event.winner, event.cause)

    def check_events(self) -> None:
        for g in range(self.B):
            b_steps = self._steps(self.batch, np.ones(1), g)
            s_steps = self._steps(self.singles[g], None, 0)
            b = [Counter(self._norm(e, self.brev[g]) for e in evs) for evs in b_steps]
            s = [Counter(self._norm(e, self.srev[g]) for e in evs) for evs in s_steps]
            assert b == s, f"events of game {g} differ:\nbatch  {b}\nsingle {s}"
            # follow every zone change to the new object
            for evs, rev, ids in ((b_steps, self.brev[g], self.bid[g]),
                                  (s_steps, self.srev[g], self.sid[g])):
                for e in (e for step in evs for e in step):
                    if isinstance(e, ZoneChanged) and e.new is not None:
                        ids[rev[e.old]] = e.new
        self.clear()

    # ---- state -------------------------------------------------------------------------
    def check_state(self, final: bool = False) -> None:
        M = max(len(k) for k in self.known)
        ids = np.full((self.B, M), -1, np.int64)
        for g in range(self.B):
            ids[g, : len(self.known[g])] = [self.bid[g][x] for x in self.known[g]]
        b_obs, names = self.batch.observe(ids, self.features, dtype=np.int32)
        result = self.batch.result()
        for w in (self.batch, *self.singles):   # what a zone change reads to end the host's effects (400.7)
            assert np.array_equal(w.store.a["host_marked"], marks(w.store.a)), "the host's mark is off"
        for g, w in enumerate(self.singles):
            row = [self.sid[g][x] for x in self.known[g]] + [-1] * (M - len(self.known[g]))
            s_obs, _ = w.observe(row, self.features, dtype=np.int32)
            if not np.array_equal(b_obs[g], s_obs[0]):
                bad = np.argwhere(b_obs[g] != s_obs[0])[0]
                raise AssertionError(
                    f"game {g}, logical object {self.known[g][bad[0]]}, {names[bad[1]]}: "
                    f"batch {b_obs[g][tuple(bad)]}, single {s_obs[0][tuple(bad)]}")
            single_result = w.result()
            code = {"ongoing": -1, "draw": -2}.get(single_result, single_result)
            assert int(result[g]) == code, f"result of game {g}: {result[g]} vs {single_result}"
            assert bool(self.batch.ongoing[g]) == bool(w.ongoing[0])
            for p in range(self.n_players):   # libraries in the same order (401.4), as logical objects
                stack = [self.brev[g][e] for e in self.batch.library(self.batch.players()[p], game=g)]
                assert stack == [self.srev[g][e] for e in w.library(w.players()[p])], f"library {p}, game {g}"
            if final:
                self.check_reads(g)

    def check_reads(self, g: int) -> None:
        """The per-object reads (not only observe) of one game."""
        w = self.singles[g]
        for x in self.known[g]:
            b, s = self.bid[g][x], self.sid[g][x]
            present = bool(self.batch.exists(b)[g])
            assert present == bool(w.exists(s))
            if not present:
                continue
            counters = {k: int(v[g]) for k, v in self.batch.counters(b).items() if v[g]}
            assert counters == w.counters(s)
            assert self.batch.zone(b)[g] == w.zone(s)
            assert self.batch.keywords(b)[g] == w.keywords(s)
            if x < self.n_players:
                assert self.batch.life(b)[g] == w.life(s)
                assert self.batch.has_lost(b)[g] == w.has_lost(s)
            else:
                assert self.batch.is_tapped(b)[g] == w.is_tapped(s)
                for who in ("controller", "owner"):   # as player indices (ids may differ)
                    assert (self.batch.players().index(int(getattr(self.batch, who)(b)[g]))
                            == w.players().index(getattr(w, who)(s))), f"{who} of {x} in game {g}"
                assert self.batch.damage(b)[g] == w.damage(s)
                for stat in ("power", "toughness", "loyalty", "defense"):
                    try:
                        single = getattr(w, stat)(s)
                    except CounterError as exc:
                        single = type(exc)
                    try:
                        batch = getattr(self.batch, stat)(b)[g]
                    except CounterError as exc:
                        batch = type(exc)
                    assert batch == single, f"{stat} of logical object {x} in game {g}"

    def check_derived(self, g: int, tmp: str) -> None:
        """select([g]), fork(g, 2) and a save/load round trip of the batch still read like
        single World g (ids are unchanged by all three)."""
        row = np.array([self.bid[g][x] for x in self.known[g]], np.int64)
        single, _ = self.singles[g].observe([self.sid[g][x] for x in self.known[g]], self.features,
                                            dtype=np.int32)
        path = f"{tmp}/batch.npz"
        self.batch.save(path)
        loaded = World.load(path)
        assert full_state(loaded) == full_state(self.batch)
        for world, games in ((self.batch.select([g]), [0]), (self.batch.fork(g, 2), [0, 1]),
                             (loaded, [g])):
            obs, _ = world.observe(row, self.features, dtype=np.int32)
            for k in games:
                assert np.array_equal(obs[k], single[0]), f"derived World differs in game {k}"

    # ---- running one action --------------------------------------------------------------
    def run(self, batch_call, single_calls: dict[int, object]) -> None:
        """``batch_call()`` on the batch, ``single_calls[g]()`` on single World g; compare
        raising, roll back on error, then compare events and state."""
        self.last = None   # (the batch's result, the singles') of a call that did not raise
        snaps = {g: self.singles[g].snapshot() for g in single_calls}
        errors: dict[int, type] = {}
        results = {}
        for g, call in single_calls.items():
            try:
                results[g] = call()
            except CounterError as exc:
                errors[g] = type(exc)
        b_snap = self.batch.snapshot()
        try:
            b_result = batch_call()
        except CounterError as exc:
            note(f"batch raised {type(exc).__name__}: {exc}; singles raised {errors}")
            assert errors, f"the batch raised {exc!r}, no single World did"
            assert type(exc) in errors.values(), f"batch {type(exc)} vs singles {errors}"
            after = self.batch.snapshot()
            assert after["log"]["rows"] == b_snap["log"]["rows"]
            for k, v in b_snap["store"].items():
                assert np.array_equal(after["store"][k], v), f"failed action changed {k}"
            for g, snap in snaps.items():
                if g in errors:   # a single World that raised is unchanged too
                    assert self.singles[g].snapshot()["log"]["rows"] == snap["log"]["rows"]
                self.singles[g].restore(snap)
            self.clear()
            return
        assert not errors, f"single Worlds raised {errors}, the batch did not"
        self.last = (b_result, results)
        if self.reached is not None and self.teams is not None and single_calls:
            self.reached["two-headed giant: an action played in some games"] += 1
        self.check_events()
        self.check_state()


class Draw:
    """Every choice of a run: from hypothesis (shrinkable, biased toward simple values) or,
    for the long runs, from a numpy Generator seeded by hypothesis (uniform)."""

    def __init__(self, data=None, rng: np.random.Generator | None = None) -> None:
        self.data, self.rng = data, rng

    def integer(self, lo: int, hi: int) -> int:
        if self.rng is not None:
            return int(self.rng.integers(lo, hi + 1))
        return self.data.draw(st.integers(lo, hi))

    def boolean(self) -> bool:
        return bool(self.integer(0, 1)) if self.rng is not None else self.data.draw(st.booleans())

    def choice(self, seq):
        seq = list(seq)
        if self.rng is not None:
            return seq[int(self.rng.integers(len(seq)))]
        return self.data.draw(st.sampled_from(seq))

    def mask(self, n: int) -> list[bool]:
        return [self.boolean() for _ in range(n)]

    def permutation(self, xs: list) -> list:
        if self.rng is not None:
            return [xs[i] for i in self.rng.permutation(len(xs))]
        return self.data.draw(st.permutations(xs))

    def subset(self, seq, lo: int, hi: int) -> list:
        if self.rng is not None:
            k = self.integer(lo, hi)
            return [seq[i] for i in self.rng.choice(len(seq), size=k, replace=False)]
        return self.data.draw(st.lists(st.sampled_from(seq), min_size=lo, max_size=hi, unique=True))


def _games(d, h: Harness):
    """A selection of games in one of the accepted forms, and the selected ongoing games in
    the order their rows are given."""
    ongoing = h.batch.ongoing
    form = d.choice(["none", "mask", "index", "int"])
    if form == "none":
        return None, [int(g) for g in np.flatnonzero(ongoing)]
    mask = np.array(d.mask(h.B))
    mask &= ongoing
    chosen = [int(g) for g in np.flatnonzero(mask)]
    if form == "mask":
        return mask, chosen
    if form == "int":
        if not chosen:
            return np.zeros(0, np.int64), []
        return chosen[0], chosen[:1]
    order = d.permutation(chosen)
    return np.array(order, np.int64), list(order)


def _pick(d, h: Harness, games: list[int], m: int = 1, players: bool = False, where: dict | None = None):
    """Per game, ``m`` logical targets known in that game: (batch (G, m), single {g: [ids]}).
    Objects are mostly drawn among the permanents of that game (one bad target in any game
    makes the whole batch action fail), sometimes among every object ever known there: half
    of the time for an action ``where="present"`` (it skips the ones gone)."""
    b = np.zeros((len(games), m), np.int64)
    s = {}
    for r, g in enumerate(games):
        pool = h.players() if players else h.known[g]
        if where and not players and d.boolean():   # mostly objects that moved in some game
            pool = [x for x in pool if any(x in h.first[k] and h.first[k][x][0] != h.bid[k][x]
                                           for k in range(h.B))] or pool
        elif not players and d.integer(0, 9) > (4 if where else 1):
            st = h.batch.store
            on_bf = [x for x in pool if st.present(g, h.bid[g][x]) >= 0
                     and st.a["zone"][g, st.present(g, h.bid[g][x])] == zones.BATTLEFIELD]
            pool = on_bf or pool
        # Half of the time the first eligible object: actions then pile up on one object.
        xs = [pool[0] if d.boolean() else
              pool[d.integer(0, 10**6) % len(pool)] for _ in range(m)]
        b[r] = [h.bid[g][x] for x in xs]
        s[g] = [h.sid[g][x] for x in xs]
        if where and not players and d.boolean():
            # the ids as created: present in the games where the object never changed
            # zones, skipped where it did (a host looping over a batch's first ids)
            b[r] = [h.first[g][x][0] for x in xs]
            s[g] = [h.first[g][x][1] for x in xs]
    return b, s


def _where(d) -> dict:
    """``where="present"`` one time in four: the batch acts only where each id is present,
    and a single World is given the ids present in it (none: it is not called)."""
    return {"where": "present"} if d.integer(0, 3) == 0 else {}


def _kept(h: Harness, g: int, ids: list[int], row: np.ndarray, where: dict):
    """The ids of single World ``g`` that ``where`` keeps, and their amounts (of ``row``)."""
    keep = [bool(h.singles[g].exists(x)) or not where for x in ids]
    if h.reached is not None and not all(keep):
        h.reached["where=present: an id skipped in a game"] += 1
    return [x for x, k in zip(ids, keep) if k], row[np.array(keep, bool)]


def _amounts(d, games: list[int], m: int = 1, hi: int = 4):
    a = np.array([[d.integer(0, hi) for _ in range(m)] for _ in games],
                 np.int64).reshape(len(games), m)
    return a


def _pending_work(d, h: Harness):
    """For a main phase: a selection of games that leaves some ongoing game out (a mask, an
    index array in any order, or one index), and state-based work left pending (no check
    after it) in a selected game, a left-out game and maybe others: lethal -1/-1 counters
    or damage (maybe deathtouch) on a creature, a player's life lost, ten poison counters or
    a draw from an empty library (704.5a, b, c, f, g, h).
    A main phase must then check the selected games only (117.5), leaving the others' work
    for a later check. None with fewer than two games going."""
    going = [int(g) for g in np.flatnonzero(h.batch.ongoing)]
    if len(going) < 2:
        return None
    sel = d.subset(going, 1, len(going) - 1)
    out = [g for g in going if g not in sel]
    pend = sorted({d.choice(sel), d.choice(out)} | {g for g in going if d.boolean()})
    s = h.batch.store
    cols = {g: [(x, s.present(g, h.bid[g][x])) for x in h.known[g][h.n_players:]] for g in pend}
    creatures = {g: [x for x, c in cols[g] if c >= 0 and s.a["zone"][g, c] == zones.BATTLEFIELD
                     and s.a["types"][g, c] & TYPE_BIT["creature"]] for g in pend}
    how = d.choice(["-1/-1", "damage"])   # mostly a creature's death: a player's loss ends a game
    if d.integer(0, 2) == 0:
        how = d.choice(["life", "poison", "draw"])
    if how in ("-1/-1", "damage") and not all(creatures.values()):
        how = "life"
    lo, hi = {"-1/-1": (1, 4), "damage": (1, 5), "life": (15, 25), "poison": (10, 10), "draw": (1, 3)}[how]
    a = _amounts(d, pend, 1, hi=hi - lo) + lo
    mask = np.isin(np.arange(h.B), pend)
    if how == "draw":   # from the second player's library, mostly empty (704.5b)
        h.log.append(f"draw(player 1, {a.tolist()}, games={mask!r})")
        h.run(lambda: h.batch.draw(h.batch.players()[1], a, games=mask),
              {g: (lambda g=g, r=r: h.singles[g].draw(h.singles[g].players()[1], int(a[r, 0])))
               for r, g in enumerate(pend)})
    else:
        xs = {g: (d.integer(0, h.n_players - 1) if how in ("life", "poison")
                  else creatures[g][d.integer(0, len(creatures[g]) - 1)]) for g in pend}
        t = np.array([[h.bid[g][xs[g]]] for g in pend], np.int64).reshape(len(pend), 1)
        flags = {"deathtouch": d.boolean()} if how == "damage" else {}   # (704.5h: one damage is lethal)
        method, kind = {"damage": ("deal_damage", ()), "life": ("lose_life", ())}.get(how, ("put_counters", (how,)))
        h.log.append(f"{method}({t.tolist()}, {kind}, {a.tolist()}, games={mask!r}, **{flags})")
        h.run(lambda: getattr(h.batch, method)(t, *kind, a, games=mask, **flags),
              {g: (lambda g=g, r=r: getattr(h.singles[g], method)(h.sid[g][xs[g]], *kind, int(a[r, 0]), **flags))
               for r, g in enumerate(pend)})
    form = d.choice(["mask", "index", "int"] if len(sel) == 1 else ["mask", "index"])
    if form == "mask":
        return np.isin(np.arange(h.B), sel), sel
    return (sel[0], sel) if form == "int" else (np.array(sel, np.int64), sel)


def _token_to_library(d, h: Harness, p: int, sel: list[int]) -> None:
    """Before a draw or mill, in some of the games (mostly drawing ones), a token of player
    ``p``'s moved from the battlefield into their library: one there or one made for it,
    then mostly put on top or among the top cards (401.4). Until the next check (704.5d)
    it is there, and a draw or mill leaves it in its place (111.8), in the batch's general
    path and in each single World's plain-int one."""
    going = [int(g) for g in np.flatnonzero(h.batch.ongoing)]
    games = sorted(set(d.subset(sel, 1, len(sel)) if sel else [])
                   | {g for g in going if d.integer(0, 3) == 0})
    if not games:
        return
    bw, pid = h.batch, h.batch.players()[p]
    tokens = {g: [x for x in h.known[g][h.n_players:] if bw.exists(h.bid[g][x])[g]
                  and bw.zone(h.bid[g][x])[g] == "battlefield" and bw.owner(h.bid[g][x])[g] == pid
                  and _token_of(h, g, x)] for g in games}
    pick = {g: d.choice(tokens[g]) for g in games if tokens[g] and d.boolean()}
    new = [g for g in games if g not in pick]
    if new:   # (made for it, in those games only)
        spec = dict(types=["creature"], power=1, toughness=1, token=True)
        first = h.n_logical
        h.log.append(f"add_object(player {p}, **{spec}, games={new})")
        h.create(lambda w, gs: w.add_object(w.players()[p], games=gs, **spec), new,
                 batch_games=np.array(new, np.int64))
        h.check_events()
        h.check_state()
        pick.update({g: first for g in new})
    t = np.array([[h.bid[g][pick[g]]] for g in games], np.int64)
    h.log.append(f"move_zone({t.tolist()}, 'library', games={games})")
    h.run(lambda: bw.move_zone(t, "library", games=np.array(games, np.int64)),
          {g: (lambda g=g: h.singles[g].move_zone(h.sid[g][pick[g]], "library")) for g in games})
    for g in games:   # one game at a time: the libraries' lengths differ
        stack = [h.brev[g][x] for x in bw.library(pid, game=g)]
        if len(stack) < 2 or stack[-1] != pick[g] or d.integer(0, 3) == 0:
            continue
        k = d.integer(0, min(2, len(stack) - 1))
        order = stack[:k] + stack[-1:] + stack[k:-1]
        ids = np.array([[h.bid[g][x] for x in order]], np.int64)
        h.log.append(f"order_library(player {p}, {ids.tolist()}, games=[{g}])")
        sids = [h.sid[g][x] for x in order]
        h.run(lambda ids=ids, g=g: bw.order_library(pid, ids, games=np.array([g], np.int64)),
              {g: (lambda w=h.singles[g], sids=sids: w.order_library(w.players()[p], sids))})


def _token_of(h: Harness, g: int, x: int) -> bool:
    """Whether logical object ``x`` of game ``g`` is a token (in the batch)."""
    obs, _ = h.batch.observe([h.bid[g][x]], ["token"], dtype=np.int32)
    return bool(obs[g, 0, 0])


def _reach_tokens(h: Harness, method: str, p: int, sel: list[int], a: np.ndarray) -> None:
    """Count, in a coverage run, the games of a draw whose library has a token on top
    (111.8: nothing drawn) and those of a mill with one among the top N cards (it stays)."""
    if h.reached is None:
        return
    pid = h.batch.players()[p]
    for r, g in enumerate(sel):
        top = h.batch.library(pid, game=g)[: int(a[r, 0])]
        marks = [_token_of(h, g, h.brev[g][x]) for x in top]
        if method == "draw" and any(marks):   # (on top, or under cards drawn first)
            h.reached["111.8 a draw stops at a token"] += 1
        elif method == "mill" and any(marks):
            h.reached["111.8 a token milled stays"] += 1


def _by(d, h: Harness) -> int | None:
    """Now and then the player (logical number) who puts counters (122.6a), else None."""
    return d.integer(0, h.n_players - 1) if d.integer(0, 2) == 0 else None


def _by_kw(w: World, by: int | None, name: str = "by") -> dict:
    """``by`` as World ``w``'s player id, for an action's keyword ``name``."""
    return {} if by is None else {name: w.players()[by]}


def _reach(h: Harness, case) -> None:
    """Count ``case`` (a falsy one: none) in a coverage run, if the last action did not fail."""
    if h.reached is not None and h.last is not None and case:
        h.reached[case] += 1


def swarm(d, h: Harness) -> None:
    """Half of the examples draw from a few counter kinds and actions only."""
    if d.boolean():
        h.kinds = d.subset(h.kinds, 1, 4)
        h.actions = d.subset(sorted(set(ACTIONS)), 2, 6) + ["tick"]
        h.log.append(f"# swarm: kinds {h.kinds}, actions {h.actions}")


def step(d, h: Harness) -> None:
    if d.integer(0, 3) == 0:
        h.branch(on_clone=d.boolean())
    action = d.choice(h.actions)
    games, sel = _games(d, h)
    bw = h.batch
    one = lambda ids: ids[0] if len(ids) == 1 else ids          # noqa: E731
    amt = lambda row: int(row[0]) if row.size == 1 else row.tolist()  # noqa: E731

    if action in ("put", "remove", "set_cap"):
        kind = d.choice(h.kinds)
        # a removal as a cost (118.3), half of them: paid in every selected game or in none,
        # two rows of one object adding up
        kw = {"cost": True} if action == "remove" and d.boolean() else {}
        m = d.integer(1, 2) if action == "put" or kw else 1
        where = _where(d)
        t, st_ids = _pick(d, h, sel, m, where=where)
        a = _amounts(d, sel, m, hi=2 if kw else 4)
        method = {"put": "put_counters", "remove": "remove_counters", "set_cap": "set_cap"}[action]
        if action == "set_cap" and d.integer(0, 2) == 0:   # the cap ends (122.4)
            method = "clear_cap"
        by = _by(d, h) if action == "put" else None   # another player puts them (122.6a)
        amount = (lambda row: ()) if method == "clear_cap" else (lambda row: (row,))   # noqa: E731
        kept = {g: _kept(h, g, st_ids[g], a[r], where) for r, g in enumerate(sel)}
        h.log.append(f"{method}({t.tolist()}, {kind!r}, {a.tolist()}, games={games!r}, **{kw}, **{where}, "
                     f"by=player {by})")
        h.run(lambda: getattr(bw, method)(t, kind, *amount(a), games=games, **kw, **where, **_by_kw(bw, by)),
              {g: (lambda g=g: getattr(h.singles[g], method)(one(kept[g][0]), kind, *amount(amt(kept[g][1])),
                                                             **kw, **_by_kw(h.singles[g], by)))
               for g in sel if kept[g][0]})
        _reach(h, {"clear_cap": "clear_cap", "put_counters": by is not None and "put_counters by another player"
                   }.get(method))
    elif action == "poison":   # or rad counters, which a precombat main phase acts on (728.1)
        kind = d.choice(h.player_kinds)
        t, st_ids = _pick(d, h, sel, 1, players=True)
        a = _amounts(d, sel, 1, hi=6)
        h.log.append(f"put_counters({t.tolist()}, {kind!r}, {a.tolist()}, games={games!r})")
        h.run(lambda: bw.put_counters(t, kind, a, games=games),
              {g: (lambda g=g, r=r: h.singles[g].put_counters(st_ids[g][0], kind, int(a[r, 0])))
               for r, g in enumerate(sel)})
    elif action == "life":
        t, st_ids = _pick(d, h, sel, 1, players=True)
        method = d.choice(["lose_life", "lose_life", "gain_life"])
        a = _amounts(d, sel, 1, hi=25 if method == "lose_life" else 5)
        h.log.append(f"{method}({t.tolist()}, {a.tolist()}, games={games!r})")
        h.run(lambda: getattr(bw, method)(t, a, games=games),
              {g: (lambda g=g, r=r: getattr(h.singles[g], method)(st_ids[g][0], int(a[r, 0])))
               for r, g in enumerate(sel)})
    elif action == "damage":
        m = d.integer(1, 2)
        to_player = d.boolean()
        where = _where(d)
        t, st_ids = _pick(d, h, sel, m, players=to_player, where=where)
        a = _amounts(d, sel, m, hi=5)
        flags = {f: d.boolean() for f in
                 ("deathtouch", "wither", "infect", "unpreventable")}
        flags["combat"] = d.integer(0, 2) == 0   # (its events' cause)
        kept = {g: _kept(h, g, st_ids[g], a[r], where) for r, g in enumerate(sel)}
        src = s_src = None
        if d.boolean():   # a source in each game (its deathtouch, lifelink and controller: 120.3f)
            src, s_src = _pick(d, h, sel, 1)
            src = src[:, 0]
            for ability in ("deathtouch", "lifelink"):
                flags[ability] = d.choice([None, None, True, False])
        h.log.append(f"deal_damage({t.tolist()}, {a.tolist()}, source={None if src is None else src.tolist()}, "
                     f"games={games!r}, **{flags}, **{where})")
        h.run(lambda: bw.deal_damage(t, a, None if src is None else src, games=games, **flags, **where),
              {g: (lambda g=g: h.singles[g].deal_damage(one(kept[g][0]), amt(kept[g][1]),
                                                        None if s_src is None else s_src[g][0], **flags))
               for g in sel if kept[g][0]})
        _reach(h, flags["combat"] and "combat damage")
    elif action in ("destroy", "sacrifice", "tap", "untap", "proliferate"):
        m = d.integer(1, 2) if action == "proliferate" else 1
        where = _where(d)
        t, st_ids = _pick(d, h, sel, m, players=action == "proliferate" and d.boolean(), where=where)
        kept = {g: _kept(h, g, st_ids[g], np.zeros(m), where)[0] for g in sel}
        by = _by(d, h) if action == "proliferate" else None
        h.log.append(f"{action}({t.tolist()}, games={games!r}, **{where}, by=player {by})")
        h.run(lambda: getattr(bw, action)(t, games=games, **where, **_by_kw(bw, by)),
              {g: (lambda g=g: getattr(h.singles[g], action)(one(kept[g]), **_by_kw(h.singles[g], by)))
               for g in sel if kept[g]})
    elif action == "move_zone":   # several at once: a library stacks them in the order given (401.4)
        zone = d.choice(ZONES)
        m = d.integer(1, 3)
        where = _where(d)
        t, st_ids = _pick(d, h, sel, m, where=where)
        kept = {g: _kept(h, g, st_ids[g], np.zeros(m), where)[0] for g in sel}
        counters: dict = {}   # now and then arriving with counters (122.6), put by a player drawn (122.6a)
        by = None
        if d.integer(0, 2) == 0:
            by = _by(d, h)
            counters = {"counters": {d.choice(h.kinds): d.integer(1, 3)}, **_by_kw(bw, by)}
        single_kw = lambda w: {} if not counters else {   # noqa: E731
            "counters": counters["counters"], **_by_kw(w, by)}
        h.log.append(f"move_zone({t.tolist()}, {zone!r}, games={games!r}, **{where}, **{counters})")
        h.run(lambda: bw.move_zone(t, zone, games=games, **where, **counters),
              {g: (lambda g=g: h.singles[g].move_zone(one(kept[g]), zone, **single_kw(h.singles[g])))
               for g in sel if kept[g]})
        _reach(h, counters and "move_zone with counters" + (" by a player" if by is not None else ""))
    elif action == "move_counters":
        kind = None if d.integer(0, 3) == 0 else d.choice(h.kinds)   # None: every kind (122.5)
        src, s_src = _pick(d, h, sel, 1)
        dst, s_dst = _pick(d, h, sel, 1)
        a = _amounts(d, sel, 1)
        by = _by(d, h)
        h.log.append(f"move_counters({src.tolist()}, {dst.tolist()}, {kind!r}, {a.tolist()}, "
                     f"games={games!r}, by=player {by})")
        h.run(lambda: bw.move_counters(src, dst, kind, a, games=games, **_by_kw(bw, by)),
              {g: (lambda g=g, r=r: h.singles[g].move_counters(s_src[g][0], s_dst[g][0], kind,
                                                                int(a[r, 0]), **_by_kw(h.singles[g], by)))
               for r, g in enumerate(sel)})
        if h.last is not None:
            moved, single_moved = h.last
            for r, g in enumerate(sel):
                assert int(moved[r, 0]) == single_moved[g]
    elif action == "add_object":
        spec = OBJECT_SPECS[d.integer(0, len(OBJECT_SPECS) - 1)]
        controller = d.integer(0, h.n_players - 1)
        n = 1 if d.boolean() else d.integer(1, 3)   # add_objects: n at once
        extra: dict = {}   # per game and object: counters it enters with, caps (a negative: none)
        if d.boolean():
            extra["counters"] = {**spec.get("counters", {}), d.choice(h.kinds): _amounts(d, sel, n, hi=3)}
        if d.integer(0, 2) == 0:
            extra["caps"] = {d.choice(h.kinds): _amounts(d, sel, n, hi=4) - 1}
        if d.integer(0, 4) == 0:   # 101.3: counters can't be put on them (entering ones neither)
            spec = {**spec, "no_counters": True}
            if h.reached is not None and sel:
                h.reached["add_objects: no_counters"] += 1
        by = _by(d, h)
        spec = {k: v for k, v in spec.items() if k not in extra}

        def row(r: int) -> dict:   # the amounts of the game of row r, as a single World takes them
            return {f: {k: v if np.isscalar(v) else (int(v[r, 0]) if n == 1 else v[r].tolist())
                        for k, v in m.items()} for f, m in extra.items()}
        h.log.append(f"add_objects({n}, {controller}, games={games!r}, **{spec}, **{extra}, put_by=player {by})")
        h.create(lambda w, g: w.add_objects(n, controller, games=g, **spec, **extra, **_by_kw(w, by, "put_by")),
                 sel, batch_games=games,
                 make_single=lambda w, g: w.add_objects(n, controller, **spec, **row(sel.index(g)),
                                                        **_by_kw(w, by, "put_by")))
        if h.reached is not None and sel:
            h.reached["add_objects: several at once"] += n > 1
            h.reached["add_objects: counters or caps per game"] += bool(extra)
        h.check_events()
        h.check_state()
    elif action == "tick":
        h.log.append("tick()")
        acted = bw.tick()
        single_acted = [w.tick() for w in h.singles]
        assert acted == max(single_acted), f"batch acted {acted} times, singles {single_acted}"
        h.check_events()
        h.check_state()
    elif action == "pt":   # per-game layer 7b and 7c effects (613.4b, c), and their end (514.2)
        which = d.choice(["modify_pt", "set_pt", "clear_pt"])
        t, st_ids = _pick(d, h, sel, 1)
        if which == "modify_pt":
            dp, dt = _amounts(d, sel, 1) - 2, _amounts(d, sel, 1) - 2
            h.log.append(f"modify_pt({t.tolist()}, {dp.tolist()}, {dt.tolist()}, games={games!r})")
            h.run(lambda: bw.modify_pt(t, dp, dt, games=games),
                  {g: (lambda g=g, r=r: h.singles[g].modify_pt(st_ids[g][0], int(dp[r, 0]), int(dt[r, 0])))
                   for r, g in enumerate(sel)})
        elif which == "set_pt":   # None leaves that stat's set value
            sp = None if d.integer(0, 3) == 0 else _amounts(d, sel, 1) - 1
            stg = None if sp is not None and d.integer(0, 3) == 0 else _amounts(d, sel, 1) - 1
            v = lambda x, r: None if x is None else int(x[r, 0])   # noqa: E731
            h.log.append(f"set_pt({t.tolist()}, {None if sp is None else sp.tolist()}, "
                         f"{None if stg is None else stg.tolist()}, games={games!r})")
            h.run(lambda: bw.set_pt(t, sp, stg, games=games),
                  {g: (lambda g=g, r=r: h.singles[g].set_pt(st_ids[g][0], v(sp, r), v(stg, r)))
                   for r, g in enumerate(sel)})
        elif d.boolean():   # every object's
            h.log.append(f"clear_pt(None, games={games!r})")
            h.run(lambda: bw.clear_pt(None, games=games), {g: h.singles[g].clear_pt for g in sel})
        else:
            h.log.append(f"clear_pt({t.tolist()}, games={games!r})")
            h.run(lambda: bw.clear_pt(t, games=games),
                  {g: (lambda g=g: h.singles[g].clear_pt(st_ids[g][0])) for g in sel})
        _reach(h, which)
    elif action == "host_flag":   # holds, prohibitions, can't-lose flags, control: per game
        which = d.choice(["set_hold", "prohibit", "allow", "set_cant_lose", "set_controller", "set_redirect"])
        on_player = which == "set_cant_lose" or (which in ("prohibit", "allow") and d.integer(0, 3) == 0)
        t, st_ids = _pick(d, h, sel, 1, players=on_player)
        on = np.array([[d.boolean()] for _ in sel], bool).reshape(len(sel), 1)
        kind = d.choice(h.kinds)
        if which == "set_hold":
            h.log.append(f"set_hold({t.tolist()}, {on.tolist()}, games={games!r})")
            h.run(lambda: bw.set_hold(t, on, games=games),
                  {g: (lambda g=g, r=r: h.singles[g].set_hold(st_ids[g][0], bool(on[r, 0])))
                   for r, g in enumerate(sel)})
        elif which == "set_controller":   # 108.4, per game; observe's "controller" compares
            p = d.integer(0, h.n_players - 1)
            h.log.append(f"set_controller({t.tolist()}, player {p}, games={games!r})")
            h.run(lambda: bw.set_controller(t, bw.players()[p], games=games),
                  {g: (lambda g=g: h.singles[g].set_controller(st_ids[g][0], h.singles[g].players()[p]))
                   for g in sel})
        elif which == "set_redirect":   # 614.1a; deaths in one check stack in a library by slot
            zone = d.choice(["library", "exile", None])
            h.log.append(f"set_redirect({t.tolist()}, {zone!r}, games={games!r})")
            h.run(lambda: bw.set_redirect(t, zone, games=games),
                  {g: (lambda g=g: h.singles[g].set_redirect(st_ids[g][0], zone)) for g in sel})
        elif which == "prohibit":
            kind = None if d.integer(0, 2) == 0 else kind   # None: every kind (101.3)
            h.log.append(f"prohibit({t.tolist()}, {kind!r}, games={games!r})")
            h.run(lambda: bw.prohibit(t, kind, games=games),
                  {g: (lambda g=g: h.singles[g].prohibit(st_ids[g][0], kind)) for g in sel})
            _reach(h, kind is None and "prohibit every kind")
        elif which == "allow":   # None: every prohibition of it ends
            kind = None if d.integer(0, 2) == 0 else kind
            h.log.append(f"allow({t.tolist()}, {kind!r}, games={games!r})")
            h.run(lambda: bw.allow(t, kind, games=games),
                  {g: (lambda g=g: h.singles[g].allow(st_ids[g][0], kind)) for g in sel})
            _reach(h, "allow")
        else:
            h.log.append(f"set_cant_lose({t.tolist()}, 'life', {on.tolist()}, games={games!r})")
            h.run(lambda: bw.set_cant_lose(t, "life", on, games=games),
                  {g: (lambda g=g, r=r: h.singles[g].set_cant_lose(st_ids[g][0], "life", bool(on[r, 0])))
                   for r, g in enumerate(sel)})
    elif action == "main_phase":   # checks state-based actions in the selected games only (117.5)
        if d.integer(0, 3) > 0:   # mostly with work pending both in a selected and in a left-out game
            games, sel = _pending_work(d, h) or (games, sel)
        if h.reached is not None and sel and len(sel) < int(h.batch.ongoing.sum()):
            pending = [w.clone().tick() > 0 for w in h.singles]   # (a clone: the single is left as it is)
            left_out = set(np.flatnonzero(h.batch.ongoing).tolist()) - set(sel)
            if any(pending[g] for g in sel) and any(pending[g] for g in left_out):
                h.reached["main phase: work pending in a selected and a left-out game"] += 1
        p = d.integer(0, h.n_players - 1)
        pre = d.integer(0, 3) > 0
        h.log.append(f"begin_main_phase(player {p}, precombat={pre}, games={games!r})")
        h.run(lambda: bw.begin_main_phase(bw.players()[p], precombat=pre, games=games),
              {g: (lambda g=g: h.singles[g].begin_main_phase(h.singles[g].players()[p], precombat=pre))
               for g in sel})
    elif action == "draw":   # per-game amounts; the ids come back in the order drawn (121.2)
        method = d.choice(["draw", "mill"])
        p = d.integer(0, 3) // 3   # mostly the first player, whose library there is
        if d.boolean():   # 111.8: a token in the library first, in some games
            _token_to_library(d, h, p, sel)
        a = _amounts(d, sel, 1, hi=3)
        _reach_tokens(h, method, p, sel, a)
        h.log.append(f"{method}(player {p}, {a.tolist()}, games={games!r})")
        h.run(lambda: getattr(bw, method)(bw.players()[p], a, games=games),
              {g: (lambda g=g, r=r: getattr(h.singles[g], method)(h.singles[g].players()[p], int(a[r, 0])))
               for r, g in enumerate(sel)})
        if h.last is not None:
            got, single_got = h.last
            for g in range(h.B):
                drawn = [h.brev[g][int(x)] for x in got[g] if x >= 0]
                assert drawn == [h.srev[g][x] for x in single_got.get(g, [])], f"{method} in game {g}"
    elif action == "library_order":   # order (401.4) or shuffle a library in the selected games
        p = d.integer(0, 3) // 3
        stacks = {g: [h.brev[g][x] for x in bw.library(bw.players()[p], game=g)] for g in sel}
        if d.boolean():   # a shuffle: the batch's generator, its order then given to each single
            h.log.append(f"shuffle_library(player {p}, games={games!r})")
            bw.shuffle_library(bw.players()[p], games=games)
            for g in sel:
                shuffled = [h.brev[g][x] for x in bw.library(bw.players()[p], game=g)]
                assert sorted(shuffled) == sorted(stacks[g]), f"shuffle changed library {p} of game {g}"
                h.singles[g].order_library(h.singles[g].players()[p], [h.sid[g][x] for x in shuffled])
            h.check_events()
            h.check_state()
            return
        # one row per game, so the games ordered are those whose library is as long as the first's
        same = [g for g in sel if len(stacks[g]) == len(stacks[sel[0]])] if sel else []
        orders = {g: d.permutation(stacks[g]) for g in same}
        if same and stacks[same[0]] and d.integer(0, 4) == 0:   # not exactly the library: refused
            g = same[-1]
            orders[g] = orders[g][:-1] + [h.known[g][d.integer(0, len(h.known[g]) - 1)]]
        ids = np.array([[h.bid[g][x] for x in orders[g]] for g in same], np.int64).reshape(
            len(same), len(orders[same[0]]) if same else 0)
        h.log.append(f"order_library(player {p}, {ids.tolist()}, games={same})")
        h.run(lambda: bw.order_library(bw.players()[p], ids, games=np.array(same, np.int64)),
              {g: (lambda g=g: h.singles[g].order_library(h.singles[g].players()[p],
                                                          [h.sid[g][x] for x in orders[g]]))
               for g in same})
    elif action == "finished":
        finished_action(d, h)
    else:
        h.log.append(f"cleanup(games={games!r})")
        h.run(lambda: bw.cleanup(games=games), {g: h.singles[g].cleanup for g in sel})


def finished_action(d, h: Harness) -> None:
    """An action whose ``games=`` names games that have ended beside ongoing ones, with
    ``skip_finished=True`` (docs: the ended ones are left out instead of raising
    GameOverError; ids and amounts are still given for the whole selection), now and then
    with ``where="present"`` too: each ongoing game acts as its single World does."""
    bw = h.batch
    ended = [g for g in range(h.B) if not bw.ongoing[g]]
    going = [g for g in range(h.B) if bw.ongoing[g]]
    named = ((d.subset(ended, 1, len(ended)) if ended else [])
             + (d.subset(going, 0, len(going)) if going else []))
    games: object
    if d.boolean():   # a mask: the rows in game order
        named = sorted(named)
        games = np.isin(np.arange(h.B), named)
    else:   # an index array, in any order
        named = d.permutation(named)
        games = np.array(named, np.int64)
    which = d.choice(["put_counters", "remove_counters", "deal_damage", "tap", "destroy", "lose_life"])
    where = _where(d) if which != "lose_life" else {}
    t, st_ids = _pick(d, h, named, 1, players=which == "lose_life", where=where)
    a = _amounts(d, named, 1, hi=25 if which == "lose_life" else 3)
    kind = d.choice(h.kinds)
    extra = {"put_counters": (kind,), "remove_counters": (kind,)}.get(which, ())
    amount = (lambda row: ()) if which in ("tap", "destroy") else (lambda row: (row,))   # noqa: E731
    rows = {g: r for r, g in enumerate(named) if g in going}
    kept = {g: _kept(h, g, st_ids[g], a[r], where) for g, r in rows.items()}
    h.log.append(f"{which}({t.tolist()}, *{extra}, {a.tolist()}, games={games!r}, skip_finished=True, **{where})")
    h.run(lambda: getattr(bw, which)(t, *extra, *amount(a), games=games, skip_finished=True, **where),
          {g: (lambda g=g: getattr(h.singles[g], which)(kept[g][0][0], *extra, *amount(int(kept[g][1][0]))))
           for g in rows if kept[g][0]})
    _reach(h, bool(set(named) & set(ended)) and "skip_finished: an ended game named")


# 60 examples under the "ci" profile, to stay well under a minute; another profile runs
# its own number.
_EXAMPLES = examples(60)


def run_sequence(d: Draw, batch: int, specs: list[int], n: int, host: bool = False,
                 reached: Counter | None = None) -> None:
    """``n`` actions on a Harness of ``batch`` games, now and then under a host's "can't
    have counters" of a class of objects (tests/can_have_rules.py: each game decides from
    its own objects, 101.3); ``reached``: a Counter the cases the run reaches are counted
    in (a coverage run; ``Harness.reached``)."""
    systems = None
    if host:   # each of a host's systems at a place drawn among the ruleset's
        systems = list(World().ruleset.systems)
        for system in HOST_SYSTEMS:
            systems.insert(d.integer(0, len(systems)), system)
    name = d.choice([None] * 4 + sorted(RULESETS))
    can_have = None if name is None else (name, d.integer(0, N_PLAYERS - 1))
    teams = None   # now and then Two-Headed Giant (810): two teams, seated together or apart
    if d.integer(0, 3) == 3:
        teams = d.choice([[0, 0, 1, 1], [0, 1, 1, 0]])
    h = Harness(batch, specs, systems, can_have, teams)
    h.reached = reached
    if systems:
        h.log.append(f"# schedule: {[c.__name__ for c in systems]}")
    if teams:
        h.log.append(f"# two-headed giant, teams {teams}")
    if can_have:
        h.log.append(f"# ruleset: {RULESETS[can_have[0]][0](can_have[1])!r}, player {can_have[1]}")
    swarm(d, h)
    h.check_state()
    try:
        for _ in range(n):
            step(d, h)
        bw = h.batch
        acted = bw.tick()
        assert acted == max(w.tick() for w in h.singles)
        h.check_events()
        h.check_state(final=True)
        h.check_left()
        with tempfile.TemporaryDirectory() as tmp:
            h.check_derived(d.integer(0, batch - 1), tmp)
        if reached is not None and teams is not None:
            reached["two-headed giant: a game ended"] += int((~h.batch.ongoing).sum())
    finally:
        note("\n".join(h.log))


@settings(max_examples=_EXAMPLES)
@given(data=st.data(), batch=st.integers(2, 4),
       specs=st.lists(st.integers(0, len(OBJECT_SPECS) - 1), min_size=2, max_size=5))
def test_a_batch_equals_independent_single_games(data, batch, specs):
    run_sequence(Draw(data), batch, specs, data.draw(st.integers(6, 25), label="actions"))


@settings(max_examples=max(_EXAMPLES // 2, 5))
@given(seed=st.integers(0, 2**63 - 1), batch=st.integers(2, 4),
       specs=st.lists(st.integers(0, len(OBJECT_SPECS) - 1), min_size=3, max_size=6))
def test_long_uniform_runs_of_a_batch_equal_single_games(seed, batch, specs):
    """Long sequences whose choices are uniform (a seeded Generator, not hypothesis's
    simplicity-biased draws): rare interactions such as stun and untap, or shield and
    damage, in some games only, come up here. The failing calls are printed."""
    run_sequence(Draw(rng=np.random.default_rng(seed)), batch, specs, 60)


@settings(max_examples=max(_EXAMPLES // 2, 5))
@given(seed=st.integers(0, 2**63 - 1), batch=st.integers(2, 4),
       specs=st.lists(st.integers(0, len(OBJECT_SPECS) - 1), min_size=3, max_size=6))
def test_a_batch_with_a_hosts_own_systems_equals_single_games(seed, batch, specs):
    """A host's state-based systems (tests/host_rules.py) at drawn places in the schedule of
    the batch and of each single World: each decides a game from that game alone and only
    in the games a check names (704.3, a re-check of the games the last perform changed),
    so the batch still plays each game as a World of its own would. Uniform choices, as
    the long runs above."""
    run_sequence(Draw(rng=np.random.default_rng(seed)), batch, specs, 60, host=True)


# Coverage (tests/reach.py): a seeded run of the long runs' strategy reaches main phases
# whose check must leave out games that have state-based work of their own (a check of
# every game, of none, or of other games than the selected ones then differs from the
# single Worlds). Uniform draws from one seeded generator (as the long runs draw), not
# hypothesis's: its games move with each hypothesis release.
#: case (Harness.reached) -> how often the seeded run must reach it (about a third of the
#: least five seeds reached: 11-16)
MAIN_PHASE_CASES = {"main phase: work pending in a selected and a left-out game": 3}
#: and actions ``where="present"`` whose id is gone in some game (one seed reached 19)
PRESENT_CASES = {"where=present: an id skipped in a game": 4}
#: and the paths where a batch's vectorized code parts most from a single game's (about a
#: third of the least of five seeds, seed 0 reaching set_pt once): Two-Headed Giant batches
#: (810.8, 810.10), combat damage, layer 7b and the end of both layers (613.4b, 514.2), the
#: end of prohibitions and caps (122.4), counters another player puts (122.6a) and
#: ``add_objects`` of several objects, entering with per-game counters or caps; and (a third
#: of seed 0's, or 1) games that ended named with ``skip_finished=True``, prohibitions of
#: every kind, moves arriving with counters a player drawn puts, objects made ``no_counters``
GAP_CASES = {"two-headed giant: an action played in some games": 20, "two-headed giant: a game ended": 1,
             "combat damage": 1, "set_pt": 1, "clear_pt": 1, "allow": 1, "clear_cap": 1,
             "put_counters by another player": 5, "add_objects: several at once": 2,
             "add_objects: counters or caps per game": 4, "skip_finished: an ended game named": 6,
             "prohibit every kind": 1, "move_zone with counters": 1, "move_zone with counters by a player": 1,
             "add_objects: no_counters": 1}
#: and draws and mills that meet a token in the library (111.8; the least of five seeds
#: reached a draw 1-3 times, a mill 3)
TOKEN_CASES = {"111.8 a draw stops at a token": 1, "111.8 a token milled stays": 1}
COVERAGE_EXAMPLES = 14


def _reached(seed: int = 0) -> Counter:
    """The cases counted over ``COVERAGE_EXAMPLES`` long uniform runs, drawn as the long
    runs' tests draw them, from ``seed``."""
    total: Counter = Counter()
    for data in reach.games(sys.modules[__name__], COVERAGE_EXAMPLES, seed):
        d = Draw(rng=np.random.default_rng(data.draw(st.integers(0, 2**63 - 1))))
        batch = data.draw(st.integers(2, 4))
        specs = data.draw(st.lists(st.integers(0, len(OBJECT_SPECS) - 1), min_size=3, max_size=6))
        run_sequence(d, batch, specs, 60, reached=total)
    return total


def test_main_phases_of_some_games_and_the_batch_only_paths_are_reached():
    """117.5, 704.3: main phases begun in some games while both a selected game and a
    left-out one have state-based work are reached on a seeded run (tests/reach.py); so
    are actions with ``where="present"`` whose id changed zones in some games only (400.7:
    the batch skips it there, each single World that still has it acts), and the actions
    of ``GAP_CASES``, Two-Headed Giant batches among them (810), and draws and mills that
    meet a token in a library (111.8, ``TOKEN_CASES``)."""
    reach.assert_reached(_reached(), {**MAIN_PHASE_CASES, **PRESENT_CASES, **GAP_CASES, **TOKEN_CASES})
