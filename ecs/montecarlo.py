"""Batch Monte Carlo evaluation of a scenario, sharded over any concurrent.futures.Executor.

Games are numbered 0..games-1 and grouped in blocks of ``BLOCK`` games. Block ``b`` draws
all its random numbers from ``SeedSequence(seed, spawn_key=(b,))`` (the b-th child of
``SeedSequence(seed).spawn``), one fixed-width row per game per effect draw, so a game's
fate depends on the seed and its block only: results are identical whatever the number
of workers or the batch size. A shard is a run of whole blocks played as one
``World(batch=...)``. Shards are submitted a few at a time and each one's per-game outcomes
are folded into running statistics as it finishes (histograms of integer values: exact
means and percentiles), so a run of any length holds a few shards in memory, never its games.

Ctrl-C stops a run and returns the games that finished; so does an executor that keeps
losing a shard (a killed worker, a lost scheduler) after ``RETRIES`` resubmissions, and so
does the engine refusing an action in some game (a count past its limit): that game's shard
is lost with it.
"""
from __future__ import annotations

import concurrent.futures as cf
import functools
import math
import os
import re
import sys
import time
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, TextIO

import numpy as np

from ecs.components import type_mask

from . import counting, executors, limits, warmup
from .errors import CounterError, ScenarioError, SchedulerError
from .estimates import Distribution, Estimate, Histogram, json_number, wilson
from .executors import interrupt
from .perform import DRAW, ONGOING
from .scenario import DEFAULT, Effect, Filter, Scenario, load
from .world import World

#: What a random damage target may be (CR 120.3; GA: units).
DAMAGEABLE = {"mtg": ("creature", "planeswalker", "battle"), "grand_archive": ("champion", "ally")}
#: What is reported of each player at the end, by ruleset (GA has no player life or poison).
PLAYER_STATS = {"mtg": ("life", "poison"), "grand_archive": ("reserve",)}
BLOCK = 32                 # games per random-number block (fixed: results depend on it)
MAX_BATCH = 1 << 14        # default cap on games per shard (per-game arrays, progress)
#: Default cap on games x objects per shard: past it a shard is slower per game (its arrays
#: outgrow the caches: token_swarm's 2,002 objects took 2.0 ms a game at 256 games, 2.4 at 512).
MAX_CELLS = 1 << 19
MAX_GAMES = 1 << 53        # every count stays exact in JSON (a double)
RETRIES = 2                # resubmissions of a shard whose worker or scheduler was lost


# ---- one shard: setup, random targets, the turn loop -------------------------------------
class _Board:
    """The scenario's objects in one World: their ids, entries and static properties.
    ``where`` gets the file's field (``players[1]``, ``objects[2]``) before each is built,
    so that check() can name the one the engine refuses."""

    def __init__(self, world: World, sc: Scenario, where: list[str] | None = None) -> None:
        self.world, self.sc = world, sc
        where = [] if where is None else where
        players = []
        for i, p in enumerate(sc.players):
            where.append(f"players[{i}] ({p.name})")
            players.append(_add_player(world, p))
        self.players = np.array(players, np.int64)
        ids = []
        for i, o in enumerate(sc.objects):
            where.append(f"objects[{i}] ({o.name})")
            ids.append(_add_objects(world, o, int(self.players[o.controller])))
        self.ids = np.concatenate(ids) if ids else np.zeros(0, np.int64)
        self.entry = np.repeat(np.arange(len(sc.objects)), [o.count for o in sc.objects])
        self.starts = np.cumsum([0] + [o.count for o in sc.objects])[:-1]
        self.ctrl = np.array([o.controller for o in sc.objects], np.int64)[self.entry]
        self.types = np.array([type_mask(o.types) for o in sc.objects], np.int64)[self.entry]
        self.token = np.array([o.token for o in sc.objects], bool)[self.entry]
        self._cache: dict[str, np.ndarray] = {}

    def refresh(self) -> None:
        """Forget cached reads. Within one draw every effect touches its own games only, so
        reads taken before the draw stay valid for the games each effect still has to do."""
        self._cache.clear()

    def _read(self, feature: str) -> np.ndarray:
        """(B, N) int: one ``World.observe`` feature of the scenario's original objects
        (0 where an object no longer exists: it changed zones, CR 400.7), cached."""
        if feature not in self._cache:
            obs, _ = self.world.observe(self.ids, [feature], dtype=np.int32)
            self._cache[feature] = obs[:, :, 0]
        return self._cache[feature]

    def present(self, zone: str | None = "battlefield") -> np.ndarray:
        """(B, N) bool: the original object is still there (in ``zone``)."""
        return self._read("present" if zone is None else f"zone:{zone}") != 0

    def counts(self, kind: str) -> np.ndarray:
        """(B, N) counts of ``kind`` on the scenario's original objects."""
        return self._read(f"counter:{kind}").astype(np.int64)

    def static(self, f: Filter, action: str = "") -> np.ndarray:
        """(N,) bool: objects whose entry, controller, types and token-ness match ``f``
        (and, for damage, that can be dealt damage at all)."""
        ok = np.ones(self.ids.size, bool)
        if action == "deal_damage":
            ok &= (self.types & type_mask(DAMAGEABLE[self.sc.ruleset])) != 0
        if f.names:
            ok &= np.isin(self.entry, f.names)
        if f.controller is not None:
            ok &= self.ctrl == f.controller
        if f.types:
            t = type_mask(f.types)
            ok &= (self.types & t) == t
        if f.token is not None:
            ok &= self.token == f.token
        return ok

    def candidates(self, f: Filter, games: np.ndarray, action: str = "") -> np.ndarray:
        """(G, N) bool: objects on the battlefield matching ``f`` in each selected game."""
        mask = self.present()[games] & self.static(f, action)[None, :]
        if f.has is not None:
            mask &= self.counts(f.has)[games] > 0
        return mask


def _add_player(world: World, p: Any) -> int:
    pid = world.add_player(**({"life": p.life} if p.life is not None else {}),
                           **({"team": p.team} if p.team is not None else {}))
    if p.reserve:
        world.set_reserve(pid, p.reserve)
    if p.poison:
        world.put_counters(pid, "poison", p.poison)
    return pid


def _add_objects(world: World, o: Any, controller: int) -> np.ndarray:
    kw = dict(o.stats)
    return np.asarray(world.add_objects(
        o.count, controller, o.types, zone=o.zone, keywords=o.keywords, token=o.token,
        name=o.name, counters=dict(o.counters) or None, caps=dict(o.caps) or None, **kw), np.int64)


def pick(mask: np.ndarray, u: np.ndarray, k: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Choose up to ``k`` distinct True columns per row of ``mask`` (G, N), uniformly without
    replacement, using the row's uniforms ``u`` (G, >=k); k=None takes every True column.
    Returns (index, valid), both (G, m), invalid slots padded with the row's first pick."""
    g, n = mask.shape
    cnt = mask.sum(axis=1)
    if k is None:
        m = int(cnt.max(initial=0))
        rank = np.broadcast_to(np.arange(m), (g, m))
    else:
        m = k
        rank = np.zeros((g, k), np.int64)
        for j in range(k):  # k is small (at most 64): loops over picks, never over objects
            left = np.maximum(cnt - j, 1)
            r = np.minimum((u[:, j] * left).astype(np.int64), left - 1)
            for s_ in np.sort(rank[:, :j], axis=1).T:  # rank among the rest -> rank among all
                r += s_ <= r
            rank[:, j] = r
    valid = rank < cnt[:, None]
    # The column of each row's rank-th True: where the row's running count first exceeds the
    # rank. Rows are offset by n + 1 so one sorted search serves every row (cheaper than
    # listing every candidate with nonzero: boards have thousands, picks are few).
    dtype = np.int32 if g * (n + 1) < 2**31 else np.int64
    running = np.cumsum(mask, axis=1, dtype=dtype)
    np.add(running, (np.arange(g, dtype=dtype) * (n + 1))[:, None], out=running)
    want = np.where(valid, rank, 0) + 1 + (np.arange(g) * (n + 1))[:, None]
    pos = np.searchsorted(running.ravel(), want) - (np.arange(g) * n)[:, None]
    idx = np.where(valid, np.minimum(pos, max(n - 1, 0)), 0)
    if m:
        idx = np.where(valid, idx, idx[:, :1])
    return idx.astype(np.int64), valid


def _amount(n: tuple[int, int], u: np.ndarray) -> np.ndarray:
    lo, hi = n
    return np.minimum(lo + (u * (hi - lo + 1)).astype(np.int64), hi)


def _player_target(board: _Board, f: Filter, games: np.ndarray, u: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
    """(G,) player ids and which games have one (a random player still in the game for -1)."""
    w = board.world
    if f.player is not None and f.player >= 0:
        return np.full(games.size, board.players[f.player]), np.ones(games.size, bool)
    alive = np.stack([~np.asarray(w.has_lost(int(p)), bool)[games] for p in board.players], 1)
    idx, valid = pick(alive, u[:, None], 1)
    return board.players[idx[:, 0]], valid[:, 0]


def apply_effect(board: _Board, e: Effect, games: np.ndarray, u: np.ndarray) -> None:
    """Perform effect ``e`` in the selected games; ``u`` is (G, width) uniforms per game:
    column 0 chose the effect, 1 the amount, 2 the source, 3.. the targets."""
    w, a = board.world, e.action
    if a == "nothing" or games.size == 0:
        return
    if a == "begin_main_phase":
        # The next player's main phase in the engine's turn order: GA wither (paying the
        # reserve the default policy allows), MTG rad counters; it checks SBAs itself.
        w.begin_main_phase(games=games)
        return
    t = e.target
    if a == "move_counters":
        assert e.source is not None and t is not None
        s_idx, s_ok = pick(board.candidates(e.source, games), u[:, 2:3], 1)
        d_idx, d_ok = pick(board.candidates(t, games), u[:, 3:4], 1)
        ok = s_ok[:, 0] & d_ok[:, 0]
        if ok.any():   # (kind None: every kind; n None: all of each, the engine's default)
            w.move_counters(board.ids[s_idx[ok]], board.ids[d_idx[ok]], e.kind,
                            None if e.n is None else _amount(e.n, u[ok, 1])[:, None],
                            games=games[ok])
        return
    assert e.n is not None   # (None only for every kind's move)
    n = _amount(e.n, u[:, 1])
    kind = str(e.kind)   # (the counter actions require one: the others never read it)
    if t is not None and t.player is not None:
        pid, ok = _player_target(board, t, games, u[:, 3])
        if e.cost:   # a game whose player can't pay all n skips the effect (118.3)
            ok &= _player_counts(board, kind, games, pid) >= n
        g, pid, n = games[ok], pid[ok][:, None], n[ok][:, None]
        if g.size == 0:
            return
        if a == "remove_counters":
            w.remove_counters(pid, kind, n, games=g, cost=e.cost)
        elif a == "put_counters":
            w.put_counters(pid, kind, n, games=g)
        elif a == "deal_damage":
            w.deal_damage(pid, n, games=g, **{f: True for f in e.flags})
        else:
            getattr(w, a)(pid, n, games=g)
        return
    if t is None:  # proliferate with no target filter: every object
        t = Filter()
    idx, valid = pick(board.candidates(t, games, a), u[:, 3:], e.targets)
    has = np.array(valid.any(axis=1))
    ids = board.ids[idx]
    if a == "proliferate" and e.players:  # every player too; pad games without objects
        everyone = np.broadcast_to(board.players, (games.size, board.players.size))
        ids = np.concatenate([np.where(valid, ids, everyone[:, :1]), everyone], 1)
        has[:] = True
    if e.cost:   # every target pays all n, or the game skips the effect (118.3)
        have = np.take_along_axis(board.counts(kind)[games], idx, axis=1)
        has &= (~valid | (have >= n[:, None])).all(axis=1)
    g, ids, valid, n = games[has], ids[has], valid[has], n[has]
    if g.size == 0:
        return
    amounts = np.where(valid, n[:, None], 0) if valid.shape == ids.shape else n[:, None]
    if a == "remove_counters":
        w.remove_counters(ids, kind, amounts, games=g, cost=e.cost)
    elif a == "put_counters":
        w.put_counters(ids, kind, amounts, games=g)
    elif a == "deal_damage":
        w.deal_damage(ids, amounts, games=g, **{f: True for f in e.flags})
    elif a == "proliferate":   # only those with a counter can be chosen (701.34a): -1 pads
        ok = np.ones(ids.shape, bool)
        ok[:, :valid.shape[1]] = valid
        w.proliferate(np.where(ok & _has_counters(w, g, ids), ids, -1), games=g, where="present")
    elif a in ("destroy", "sacrifice"):
        getattr(w, a)(ids, games=g)  # padded duplicates are merged by the engine
    elif a == "move_zone":
        for j in range(valid.shape[1]):  # distinct picks: one call per pick slot
            v = valid[:, j]
            if v.any():
                w.move_zone(ids[v, j][:, None], str(e.zone), games=g[v])
    else:
        raise ScenarioError(f"unknown action {a!r}")


def _player_counts(board: _Board, kind: str, games: np.ndarray, pid: np.ndarray) -> np.ndarray:
    """(G,) the count of ``kind`` on player ``pid[i]`` in game ``games[i]`` (a Two-Headed
    Giant player's poison: the team's, 810.10)."""
    w = board.world
    every = np.stack([np.asarray(w.count(int(p), kind)).reshape(-1) for p in board.players], 1)
    return every[games, np.argmax(board.players[None, :] == pid[:, None], axis=1)]


def _has_counters(w: World, g: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """(G, m) bool: which ids have a counter in their game (a player the team's poison)."""
    s = w.store
    gg = np.broadcast_to(g[:, None], ids.shape)
    cols = s.locate(gg, ids)
    at = np.where(cols < 0, 0, cols)
    out = np.zeros(cols.shape, bool)
    for k, kind in enumerate(s.kind_names):
        out |= s.counts[k, gg, counting.holder(w, kind, gg, at)] > 0
    return out & (cols >= 0)


def _width(sc: Scenario) -> int:
    k = max([e.targets or 1 for e in sc.effects], default=1)
    return 3 + k


def _block_rngs(seed: int, first_block: int, n_blocks: int) -> list[np.random.Generator]:
    return [np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(b,)))
            for b in range(first_block, first_block + n_blocks)]


def _ongoing(world: World) -> np.ndarray:
    return np.asarray(world.result()) == ONGOING


def play_shard(sc: Scenario, seed: int, first_block: int, n_blocks: int) -> dict[str, np.ndarray]:
    """Play blocks ``first_block .. first_block + n_blocks - 1`` as one World; returns the
    per-game outcome arrays (leading axis: the shard's games, in order), ``ticks`` included.
    An action the engine refuses raises its CounterError, naming the run's game number."""
    # Every random choice comes from the block generators; the World's own generator
    # (library shuffles) is never used here, so its seed cannot make results shard-dependent.
    world = World(ruleset=sc.ruleset, batch=n_blocks * BLOCK, seed=[seed, first_block],
                  two_headed_giant=sc.two_headed_giant)
    board = _Board(world, sc)
    try:
        return _play_turns(board, seed, first_block, n_blocks)
    except CounterError as e:
        raise _in_run(e, board, first_block * BLOCK) from None


def _in_run(e: CounterError, board: _Board, first_game: int) -> CounterError:
    """``e`` told in the run's terms: the engine numbers the shard's own games from 0 (the
    same failing game was "game 0" or "game 256" as --batch changed) and knows entities by id.
    Its messages say "game N", "games [N, ...]", "entity ID" and "player ID", outside the
    quotes that hold a counter kind (a kind may be named 'game 1')."""
    names = {int(i): board.sc.objects[k].name for i, k in zip(board.ids, board.entry)}
    names |= {int(i): p.name for i, p in zip(board.players, board.sc.players)}

    def entity(m: re.Match[str]) -> str:
        name = names.get(int(m[1]))
        return m[0] if name is None else f"{m[0]} ({name})"

    def games(m: re.Match[str]) -> str:
        return m[1] + re.sub(r"\d+", lambda n: str(first_game + int(n[0])), m[2])

    def told(part: str) -> str:
        part = re.sub(r"\b(games? )(\d+|\[[\d, ]*\])", games, part)
        return re.sub(r"\b(?:entity|player) (\d+)", entity, part)

    parts = re.split(r"('[^']*')", str(e))   # (odd parts: quoted)
    return type(e)("".join(p if i % 2 else told(p) for i, p in enumerate(parts)))


def _play_turns(board: _Board, seed: int, first_block: int, n_blocks: int
                ) -> dict[str, np.ndarray]:
    world, sc, b = board.world, board.sc, n_blocks * BLOCK
    rngs = _block_rngs(seed, first_block, n_blocks)
    width = _width(sc)
    cum = _cumulative([e.weight for e in sc.effects])
    ticks = np.zeros(b, np.int64)   # per game: padding games past the run's end are dropped
    world.tick()
    # A game's length: the turn it ended in, ``turns`` if it never did, 0 if it was over
    # before the first (a player starting at 0 life).
    length = np.where(_ongoing(world), sc.turns, 0).astype(np.int32)
    for turn in range(sc.turns):
        ongoing = _ongoing(world)
        if not ongoing.any():
            break
        if sc.begin_main_phase:
            board.refresh()
            apply_effect(board, Effect("begin_main_phase", 1.0), np.flatnonzero(ongoing),
                         np.zeros((b, width)))
            ticks[ongoing] += 1
            world.tick()
            world.clear_events()
        for _ in range(sc.effects_per_turn):
            u = np.concatenate([r.random((BLOCK, width)) for r in rngs])
            choice = np.minimum(np.searchsorted(cum, u[:, 0], side="right"), len(cum) - 1)
            ongoing = _ongoing(world)
            board.refresh()
            for i, e in enumerate(sc.effects):
                sel = np.flatnonzero(ongoing & (choice == i))
                apply_effect(board, e, sel, u[sel])
            ticks[ongoing] += 1
            world.tick()
            world.clear_events()  # nobody reads them here: keep memory flat
        still = _ongoing(world)
        if still.any():
            world.cleanup(games=np.flatnonzero(still))  # damage wears off (CR 514.2)
        length[(length == sc.turns) & ~still] = turn + 1
    board.refresh()
    return _outcome(board, _ongoing(world), length, ticks)


def _cumulative(weights: list[float]) -> np.ndarray:
    """Cumulative effect probabilities. The weights are scaled by a power of two first (exact,
    so ordinary weights give the same numbers) and their sum cannot overflow to inf."""
    w = np.array(weights, np.float64)
    w = np.ldexp(w, -int(np.frexp(w.max())[1]))
    return np.cumsum(w) / w.sum()


def _player_stat(world: World, stat: str, p: int) -> Any:
    return world.count(p, "poison") if stat == "poison" else getattr(world, stat)(p)


def _outcome(board: _Board, ongoing: np.ndarray, length: np.ndarray, ticks: np.ndarray
             ) -> dict[str, np.ndarray]:
    w, sc = board.world, board.sc
    here = board.present(zone=None)                      # (B, N): the same object still exists
    starts = board.starts
    seg: Callable[[np.ndarray], np.ndarray] = \
        (lambda x: np.add.reduceat(x, starts, axis=1)) if starts.size else \
        (lambda x: np.zeros((x.shape[0], 0), x.dtype))
    survivors = seg(here.astype(np.int32))
    kinds = sc.report_kinds
    counts = np.stack([seg(np.where(here, board.counts(k), 0)) for k in kinds], axis=2) \
        if kinds else np.zeros((w.batch, len(sc.objects), 0), np.int64)
    res = np.asarray(w.result())
    per_player: Callable[[Callable[[int], Any]], np.ndarray] = \
        lambda f: np.stack([np.asarray(f(int(p))) for p in board.players], 1)  # noqa: E731
    out = {
        "survivors": survivors.astype(np.int64), "counts": counts.astype(np.int64),
        "lost": per_player(w.has_lost).astype(bool), "draw": res == DRAW, "ended": ~ongoing,
        "length": length.astype(np.int64), "ticks": ticks,
    }
    for stat in PLAYER_STATS[sc.ruleset]:
        out[stat] = per_player(functools.partial(_player_stat, w, stat)).astype(np.int64)
    return out


def _shapes(sc: Scenario) -> dict[str, tuple[int, ...]]:
    """The per-game shape of each outcome array of ``_outcome``."""
    e, p, k = len(sc.objects), len(sc.players), len(sc.report_kinds)
    return {"survivors": (e,), "counts": (e, k), "lost": (p,), "draw": (), "ended": (),
            "length": (), "ticks": ()} | {s: (p,) for s in PLAYER_STATS[sc.ruleset]}


FLAGS = ("lost", "draw", "ended")   # outcome arrays that are yes/no per game


def check(sc: Scenario) -> None:
    """Build the scenario in a 2-game World, try every effect once and read every reported
    kind: raise a ScenarioError naming the field when the engine refuses something, before
    any real work starts."""
    built: list[str] = []      # the players and objects _Board started building
    where: str | None = None   # None: building them (the last one started failed)
    try:
        world = World(ruleset=sc.ruleset, batch=2, two_headed_giant=sc.two_headed_giant)
        board = _Board(world, sc, built)
        where = "objects"          # their first state-based actions
        world.tick()
        snap = world.snapshot()
        u = np.full((2, _width(sc)), 0.5)
        for i, e in enumerate(sc.effects):
            where = f"effects[{i}] ({e.action})"
            for key, f in (("source", e.source), ("target", e.target)):
                if f is not None and f.player is None and not board.static(f, e.action).any():
                    raise ScenarioError(f"{sc.source}: effects[{i}].{key}: expected a filter that "
                                        f"matches at least one object that can be a {e.action} "
                                        "target; it matches none")
            world.restore(snap)
            board.refresh()
            apply_effect(board, e, np.flatnonzero(_ongoing(world)), u)
            world.tick()
        for i, k in enumerate(sc.report_kinds):
            where = f"report.kinds[{i}] ({k!r})"
            board.counts(k)
        where = "report"
        _outcome(board, _ongoing(world), np.zeros(2, np.int32), np.zeros(2, np.int64))
    except ScenarioError:
        raise
    except CounterError as err:
        at = where or (built[-1] if built else "ruleset")
        raise ScenarioError(f"{sc.source}: {at}: the engine refused it: {err}") from None


# ---- the result --------------------------------------------------------------------------
class Tally:
    """Running statistics of a run: shards' outcome arrays folded in as they finish, in any
    order (per column: how many games said yes, or a histogram of the values)."""

    def __init__(self, sc: Scenario) -> None:
        self.games = 0
        self.ticks = 0
        self.flags: dict[str, np.ndarray] = {}
        self.hists: dict[str, list[Histogram]] = {}
        for key, shape in _shapes(sc).items():
            cols = math.prod(shape)
            if key in FLAGS:
                self.flags[key] = np.zeros(cols, np.int64)
            elif key != "ticks":
                self.hists[key] = [Histogram() for _ in range(cols)]

    def add(self, part: dict[str, np.ndarray]) -> None:
        n = int(part["length"].shape[0])
        if n == 0:
            return
        self.games += n
        self.ticks += int(part["ticks"].sum())
        for key, k in self.flags.items():
            k += np.count_nonzero(part[key].reshape(n, -1), axis=0)
        for key, hs in self.hists.items():
            for h, column in zip(hs, part[key].reshape(n, -1).T):
                h.add(Histogram.of(column))


#: The version of ``Result.to_dict()``'s layout (documented in ecs.cli); bumped on changes.
SCHEMA_VERSION = 1


@dataclass
class Result:
    """Statistics of a run. ``raw`` holds the per-game outcome arrays in game order when the
    run kept them (``run(..., keep_games=True)``), else None. ``interrupted``: Ctrl-C stopped
    the run; ``error``: why the run stopped early, the executor kept losing work or the engine
    refused an action (the games that did finish count)."""
    scenario: Scenario
    seed: int
    requested: int
    tally: Tally
    elapsed: float = 0.0
    workers: int | str = 1
    batch: int = 0
    interrupted: bool = False
    error: str | None = None
    raw: dict[str, np.ndarray] | None = None
    #: seconds before the games' clock (the scenario checked, the kernels loaded, or compiled,
    #: a Dask scheduler reached); ``compiled``: kernels compiled (0: all from the disk cache)
    startup: float = 0.0
    compiled: int = 0
    survival: dict[str, Estimate] = field(init=False)
    survivors: dict[str, Distribution] = field(init=False)
    counters: dict[str, dict[str, Distribution]] = field(init=False)
    loss: dict[str, Estimate] = field(init=False)
    draw: Estimate = field(init=False)
    ended: Estimate = field(init=False)
    length: Distribution = field(init=False)
    #: stat (PLAYER_STATS of the ruleset: life and poison, or reserve) -> player -> values
    player_stats: dict[str, dict[str, Distribution]] = field(init=False)

    def __post_init__(self) -> None:
        t, sc, n = self.tally, self.scenario, self.tally.games
        names = [o.name for o in sc.objects]
        pnames = [p.name for p in sc.players]
        k = len(sc.report_kinds)
        surv = t.hists["survivors"]
        self.survival = {o: Estimate(n - surv[i].count(0), n) for i, o in enumerate(names)}
        self.survivors = {o: surv[i].distribution() for i, o in enumerate(names)}
        self.counters = {o: {kind: t.hists["counts"][i * k + j].distribution()
                             for j, kind in enumerate(sc.report_kinds)}
                         for i, o in enumerate(names)}
        self.loss = {p: Estimate(int(t.flags["lost"][i]), n) for i, p in enumerate(pnames)}
        self.draw = Estimate(int(t.flags["draw"][0]), n)
        self.ended = Estimate(int(t.flags["ended"][0]), n)
        self.length = t.hists["length"][0].distribution()
        self.player_stats = {s: {p: t.hists[s][i].distribution() for i, p in enumerate(pnames)}
                             for s in PLAYER_STATS[sc.ruleset]}

    @property
    def games(self) -> int:
        return self.tally.games

    @property
    def ticks(self) -> int:
        return self.tally.ticks

    @property
    def complete(self) -> bool:
        return self.games == self.requested and not self.interrupted and self.error is None

    @property
    def games_per_s(self) -> float:
        return self.games / self.elapsed if self.elapsed > 0 else math.nan

    @property
    def ticks_per_s(self) -> float:
        return self.ticks / self.elapsed if self.elapsed > 0 else math.nan

    @property
    def total(self) -> float:
        """Seconds of the whole run, startup included."""
        return self.startup + self.elapsed

    def to_dict(self, timing: bool = True) -> dict[str, Any]:
        """Everything as JSON-ready values (``timing=False`` drops run-dependent fields)."""
        sc = self.scenario
        d: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "scenario": sc.name, "source": sc.source, "ruleset": sc.ruleset, "turns": sc.turns,
            "seed": self.seed, "games": self.games, "requested": self.requested,
            "complete": self.complete, "interrupted": self.interrupted, "error": self.error,
            "survival": {n: e.to_dict() | {"copies": o.count} for (n, e), o in
                         zip(self.survival.items(), sc.objects)},
            "survivors": {n: d.to_dict() for n, d in self.survivors.items()},
            "counters": {n: {k: v.to_dict() for k, v in ks.items()}
                         for n, ks in self.counters.items()},
            "loss": {p: e.to_dict() for p, e in self.loss.items()},
            "draw": self.draw.to_dict(), "ended": self.ended.to_dict(),
            "length": self.length.to_dict(),
        }
        for stat, values in self.player_stats.items():
            d[stat] = {p: v.to_dict() for p, v in values.items()}
        d["ticks"] = self.ticks
        if timing:
            d["throughput"] = {"elapsed_s": self.elapsed, "games_per_s": json_number(self.games_per_s),
                               "ticks_per_s": json_number(self.ticks_per_s), "workers": self.workers,
                               "batch": self.batch, "startup_s": self.startup,
                               "compiled": self.compiled}
        return d


# ---- sharding and executors ---------------------------------------------------------------
def plan(games: int, batch: int) -> Iterator[tuple[int, int]]:
    """Shards as (first block, number of blocks), lazily: ``batch`` rounded up to whole blocks."""
    n_blocks = -(-games // BLOCK)
    per = max(1, -(-batch // BLOCK))
    return ((b, min(per, n_blocks - b)) for b in range(0, n_blocks, per))


def default_batch(games: int, workers: int, objects: int = 0) -> int:
    """Whole blocks: the fewest shards that keep every worker busy (a multiple of
    ``workers``), each at most MAX_BATCH games and MAX_CELLS games x objects (at least one
    block). A shard's Python costs about the same at any size (some 0.2 s of mtg_skirmish's
    effects and ticks), so bigger shards win until their arrays outgrow the caches."""
    workers = max(1, workers)
    cap = max(1, min(MAX_BATCH, MAX_CELLS // max(1, objects)) // BLOCK)   # in blocks
    blocks = -(-games // BLOCK)
    shards = -(-max(-(-blocks // cap), 1) // workers) * workers
    return min(cap, -(-blocks // shards)) * BLOCK


def _play(sc: Scenario, seed: int, first_block: int, n_blocks: int, attempt: int
          ) -> dict[str, np.ndarray]:
    """play_shard for an executor. ``attempt`` only makes a resubmission a new task (Dask
    names a task by its function and arguments, and would hand back the lost one)."""
    return play_shard(sc, seed, first_block, n_blocks)


class _Collector:
    """Folds finished shards into the statistics (dropping padding games past the run's
    end), keeps their arrays if asked, and reports progress."""

    def __init__(self, sc: Scenario, games: int, keep: bool, progress: bool,
                 on_shard: Callable[[int], None] | None) -> None:
        self.sc, self.games, self.progress, self.on_shard = sc, games, progress, on_shard
        self.tally = Tally(sc)
        self.parts: dict[int, dict[str, np.ndarray]] | None = {} if keep else None
        self.bar: Any = None

    def start(self) -> None:
        self.bar = _bar(self.games, self.progress)

    def add(self, first_block: int, n_blocks: int, part: dict[str, np.ndarray],
            notify: bool = True) -> None:
        n = min(n_blocks * BLOCK, self.games - first_block * BLOCK)
        part = {k: v[:n] for k, v in part.items()}
        self.tally.add(part)
        if self.parts is not None:
            self.parts[first_block] = part
        if self.bar is not None:
            self.bar.update(n)
        if notify and self.on_shard is not None:
            self.on_shard(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()

    def raw(self) -> dict[str, np.ndarray] | None:
        """The kept per-game arrays, concatenated in game order."""
        if self.parts is None:
            return None
        parts = [self.parts[b] for b in sorted(self.parts)]
        return {k: np.concatenate([p[k] for p in parts]) if parts else
                np.zeros((0,) + shape, bool if k in FLAGS else np.int64)
                for k, shape in _shapes(self.sc).items()}


def resolve(scenario: Scenario | str | os.PathLike[str] | None) -> Scenario:
    if isinstance(scenario, Scenario):
        return scenario
    return load(DEFAULT if scenario is None else os.fspath(scenario))


class ArgumentError(ValueError):
    """A bad argument of run(): ``name`` (games, seed, batch), its ``value`` and what was
    ``expected`` (the command line names its option with them)."""

    def __init__(self, name: str, value: Any, expected: str) -> None:
        super().__init__(f"{name} must be {expected}, got {value!r}")
        self.name, self.value, self.expected = name, value, expected


def _count(name: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ArgumentError(name, value, f"an integer in {lo}..{hi:,}")
    return value


def max_batch(sc: Scenario) -> int:
    """The most games a shard of ``sc`` can hold, in whole blocks: a World holds at most
    limits.MAX_BATCH games and limits.MAX_SLOTS games x columns (a column per player and
    object; a zone change keeps its object's column)."""
    cols = len(sc.players) + sc.n_objects
    return min(limits.MAX_BATCH, limits.MAX_SLOTS // cols) // BLOCK * BLOCK


def _engine_error(e: CounterError) -> str:
    return f"the engine refused an action: {type(e).__name__}: {e}"


def run(scenario: Scenario | str | os.PathLike[str] | None = None, games: int = 10_000,
        seed: int = 1, executor: Executor | None = None, *, workers: int | None = None,
        batch: int | None = None, progress: bool = False, scheduler: str | None = None,
        on_shard: Callable[[int], None] | None = None, keep_games: bool = False,
        status: TextIO | None = None) -> Result:
    """Play ``games`` games of ``scenario`` (a Scenario, a file, an embedded name or None
    for the default) and return their statistics.

    ``executor`` may be any concurrent.futures.Executor (e.g. a Dask ``Client.get_executor()``
    or a ProcessPoolExecutor of any start method); without one, ``scheduler`` names a Dask
    scheduler, else ``workers`` local processes (default: every core; 1 runs in this
    process). A shard whose worker is lost is resubmitted up to RETRIES times (a local pool
    of our own is replaced; a Dask client that reconnects to its scheduler is waited for
    first); past that, the run stops with ``error`` set. Ctrl-C stops the
    run too (``interrupted``); either way the games that finished are returned.
    An action the engine refuses in some game (a count past its limit) stops the run too,
    with ``error`` saying so (the games of that game's shard are not counted).
    ``keep_games`` keeps every game's outcome arrays in ``Result.raw`` (memory grows with
    ``games``); ``on_shard(n)`` is called as each shard's ``n`` games are folded in.
    A bad ``games``, ``seed`` or ``batch`` raises ArgumentError (a ValueError), a
    ``batch`` past what a World holds (``max_batch``) too, before any game.

    Before the clock starts (``Result.startup``) the scenario is checked in this process,
    which loads its ruleset's kernels, or compiles them on a first run (``status``, e.g.
    stderr, gets a line while they compile): once, before local workers fork (they inherit
    them) or start (they load them from the disk cache), rather than in every worker."""
    t0 = time.perf_counter()
    sc = resolve(scenario)
    games = _count("games", games, 1, MAX_GAMES)
    seed = _count("seed", seed, 0, 2**63 - 1)
    if batch is not None:
        batch = _count("batch", batch, 1, MAX_GAMES)
    workers = workers or os.cpu_count() or 1
    n_blocks = -(-games // BLOCK)
    most = max_batch(sc)
    if batch is not None and min(-(-batch // BLOCK), n_blocks) * BLOCK > most:
        # (a shard is never bigger than the run: a big batch for a short run is fine)
        raise ArgumentError("batch", batch, f"at most {most:,} games for this scenario (a "
                            f"World holds {limits.MAX_SLOTS:,} slots, games x "
                            f"{len(sc.players) + sc.n_objects:,} players and objects)")
    col = _Collector(sc, games, keep_games, progress, on_shard)
    interrupted, error = False, None
    with executors.Interrupts() as stop:
        with warmup.watch(status) as compiles:
            check(sc)                # a World: its kernels compiled or loaded (kernels.ready)
        stop.check()                 # an interrupt that the kernel compiler swallowed
        label: int | str = workers
        close = None
        if executor is None and scheduler is not None:
            executor, close = executors.dask_executor(scheduler)
            label = f"dask {scheduler}"
        elif executor is not None:
            label = type(executor).__name__
        if batch is None:   # (as many shards at once as the executor plays)
            batch = default_batch(games, workers if executor is None else executors.parallelism(executor, workers),
                                  sc.n_objects)
        per = min(max(1, -(-batch // BLOCK)), n_blocks)
        local = executor is None and (workers == 1 or per >= n_blocks)
        start = time.perf_counter()
        startup = start - t0
        try:
            if local:
                label = 1
                col.start()
                for fb, nb in plan(games, per * BLOCK):
                    stop.check()
                    try:
                        part = play_shard(sc, seed, fb, nb)
                    except CounterError as e:
                        error = _engine_error(e)
                        break
                    col.add(fb, nb, part)
            else:
                error = _pooled(sc, seed, plan(games, per * BLOCK),
                                executors.Pool(executor, workers, _play, close), col, stop)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            elapsed = time.perf_counter() - start
            col.close()
        interrupted = interrupted or stop.flag.is_set()
    return Result(sc, seed, games, col.tally, elapsed, label, per * BLOCK, interrupted, error,
                  col.raw(), startup, compiles.count)


def _pooled(sc: Scenario, seed: int, shards: Iterator[tuple[int, int]], pool: executors.Pool,
            col: _Collector, stop: executors.Interrupts) -> str | None:
    """Play ``shards`` on the pool, a few at a time, resubmitting lost ones; returns why the
    executor could not finish (None if it did). KeyboardInterrupt (Ctrl-C, or ``on_shard``)
    stops it with the shards that finished meanwhile kept."""
    window = 2 * pool.parallelism + 1
    pending: dict[Future[dict[str, np.ndarray]], tuple[int, int, int]] = {}
    error: str | None = None
    abandon = True

    def fill() -> str | None:
        while len(pending) < window and not stop.flag.is_set():
            nxt = next(shards, None)
            if nxt is None:
                break
            try:
                pending[pool.submit(sc, seed, *nxt, 0)] = (*nxt, 0)
            except Exception as e:  # whatever it is, it takes no work
                return pool.refused(e)
        return None

    stop.raising = False
    done: set[Future[dict[str, np.ndarray]]] = set()
    started = False
    try:
        while True:
            with executors.sigint_held():    # local workers start (or restart) in these submissions
                for f in done:
                    fb, nb, attempt = pending.pop(f)
                    exc = cf.CancelledError() if f.cancelled() else f.exception()
                    if exc is None:
                        col.add(fb, nb, f.result())
                    elif isinstance(exc, CounterError):   # the engine refused: retrying won't help
                        error = error or _engine_error(exc)
                    elif attempt < RETRIES:
                        try:
                            f = pool.resubmit(sc, seed, fb, nb, attempt + 1)
                            pending[f] = (fb, nb, attempt + 1)
                        except Exception as e:  # whatever it is, it takes no work
                            error = pool.refused(e)
                    else:
                        error = pool.lost() or (
                            f"games {fb * BLOCK:,}..{(fb + nb) * BLOCK - 1:,} were lost "
                            f"{attempt + 1} times: {type(exc).__name__}: {exc}").rstrip(": ")
                if error is None:
                    error = fill()
            if not started:
                col.start()         # after the workers started: tqdm starts a thread
                started = True
            if not pending or error is not None:
                break
            stop.check()
            done, _ = cf.wait(pending, timeout=0.25, return_when=cf.FIRST_COMPLETED)
            if not done:
                error = pool.lost()
            elif any(f.cancelled() for f in done):
                pool.settle(stop)
        abandon = error is not None
        if abandon:
            _harvest(pending, col)
    except KeyboardInterrupt:
        _harvest(pending, col)
        raise
    finally:
        stop.raising = True
        pool.close(list(pending), abandon)
    return error


def _harvest(pending: dict[Future[dict[str, np.ndarray]], tuple[int, int, int]],
             col: _Collector) -> None:
    """Keep the shards that finished while the run was stopping."""
    for f, (fb, nb, _) in pending.items():
        if f.done() and not f.cancelled() and f.exception() is None:
            col.add(fb, nb, f.result(), notify=False)


def _bar(total: int, enabled: bool) -> Any:
    if not enabled:
        return None
    from tqdm import tqdm
    return tqdm(total=total, unit="game", delay=1.0, file=sys.stderr, dynamic_ncols=True)


__all__ = ["BLOCK", "ArgumentError", "Distribution", "Estimate", "Histogram", "Result",
           "SchedulerError", "Tally", "check", "interrupt", "max_batch", "pick", "plan",
           "play_shard", "run", "wilson"]
