"""The measured operations, shared by the pytest-benchmark suites and the report.

A ``Case`` is a ``run`` to time and a ``setup`` that puts the state back before each
run, outside the timed region (a tick changes the board, so every run starts from the
same generated board), and a ``release`` that frees what its runs left when they are
done (esper keeps every world in module globals until it is deleted: left there, a
baseline's worlds pile up and make every later full collection slower, on either side).
Built boards are cached so the suites and the report build each one once per process.
"""
from __future__ import annotations

import dataclasses
import functools
import gc
import tracemalloc
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from . import naive_esper as nv
from . import soak
from .boards import CREATURE, BoardSpec, Built, build_baseline, build_engine, make_board
from .esper_baseline import OBSERVED, EsperGame
from .naive_esper import NaiveGame

SIZES = (100, 1_000, 10_000, 100_000)              # single board, one tick
BATCHES = ((64, 1_000), (1_024, 1_000), (4_096, 200))  # (games, objects), one tick
CLONE_GAME = (1, 1_000)
CLONE_BATCH = (1_024, 1_000)
SEED = 2024


def _nothing() -> None:
    return None


@dataclass
class Case:
    name: str
    run: Callable[[], Any]
    setup: Callable[[], Any] = _nothing      # before each run, not timed
    prepare: Callable[[], Any] = _nothing    # before a block of runs (interleaved), not timed
    teardown: Callable[[], Any] = _nothing   # after each run, not timed
    release: Callable[[], Any] = _nothing    # after a block of runs, not timed: frees what they left
    objects: int = 0        # objects checked by one run (games x objects), 0 if not a tick
    info: dict[str, Any] = field(default_factory=dict)


@functools.lru_cache(maxsize=None)
def board(games: int, n: int) -> BoardSpec:
    """The board of a measurement. A single game never starts with a losing player: a game
    that ends on the first check is frozen (README), which would leave later checks out."""
    return make_board(n, games=games, seed=SEED + 7919 * games + n,
                      loss_rate=0.0 if games == 1 else 0.03)


def ongoing(games: int, n: int, played: int | None = None) -> int:
    """The games of ``board(games, n)`` (its first ``played``) that the first check does not
    end: no player starts at 0 life or 10 poison (704.5a, 704.5c). A game that has ended is
    frozen, so a settled tick checks the objects of these games only."""
    spec = board(games, n)
    lost = np.asarray(((spec.life <= 0) | (spec.poison >= 10)).any(axis=1))
    return int((~lost[:played]).sum())


def engine(games: int, n: int, host: bool = False, early: bool = False) -> tuple[Built, dict[str, Any]]:
    """The engine loaded with ``board(games, n)`` (with ``host``, and ``host_effects`` on
    it; with ``early``, ``early_board(n)``, one game), and its snapshot before any tick: one
    World per board, however it is asked for (its settled snapshot, ``_settled_snapshot``,
    restores as settled only in the World whose tick settled it). The events of building
    it are cleared (a simulator clears its log between moves too), so snapshots, restores
    and clones copy the game state, not a log of how it was set up."""
    return _engine(games, n, bool(host), bool(early))


def _board(games: int, n: int, early: bool) -> BoardSpec:
    """``board(games, n)``, or with ``early`` ``early_board(n)`` (one game only)."""
    if not early:
        return board(games, n)
    if games != 1:
        raise ValueError(f"an early root is one game's board, not {games} games'")
    return early_board(n)


@functools.lru_cache(maxsize=None)
def _engine(games: int, n: int, host: bool, early: bool = False) -> tuple[Built, dict[str, Any]]:
    spec = _board(games, n, early)
    built = build_engine(spec)
    if host:
        host_effects(built, spec)
    built.world.clear_events()
    return built, built.world.snapshot()


#: Of the board's creatures, the first of each ``every`` under each kind of a host engine's
#: effects (``ecs.host``), in every game: (every, first).
HOST_EFFECTS = {"modify_pt": (10, 0), "set_pt": (50, 5), "set_redirect": (50, 3),
                "set_hold": (100, 7), "prohibit": (100, 1)}


def host_effects(built: Built, spec: BoardSpec) -> None:
    """What a host engine that embeds the core keeps on a board: anthems and auras (+1/+1,
    613.4c), an effect that sets power and toughness (613.4b), "exile it instead if it
    would die", a permanent the state-based actions leave (704.5v's exception), "can't
    have -1/-1 counters" (101.3). Each field the passes and zone changes read is then set
    somewhere: none can be skipped as holding its fill value everywhere."""
    w = built.world
    creatures = built.objects[spec.card_type == CREATURE]
    pick = {name: creatures[first::every] for name, (every, first) in HOST_EFFECTS.items()}
    w.modify_pt(pick["modify_pt"], 1, 1)
    w.set_pt(pick["set_pt"], 1, 1)
    w.set_redirect(pick["set_redirect"], "exile")
    w.set_hold(pick["set_hold"])
    w.prohibit(pick["prohibit"], "-1/-1")


def snapshot_nbytes(snap: Any) -> int:
    """Bytes of the NumPy arrays in a snapshot (nested dicts and lists walked)."""
    if isinstance(snap, np.ndarray):
        return snap.nbytes
    if isinstance(snap, dict):
        return sum(snapshot_nbytes(v) for v in snap.values())
    if isinstance(snap, (list, tuple)):
        return sum(snapshot_nbytes(v) for v in snap)
    return 0


def state_nbytes(world: Any) -> int:
    """Bytes of a World's game state: the engine's ``nbytes`` if it has one, else the store
    arrays of a snapshot (the used part of every array, no spare capacity)."""
    nbytes = getattr(world, "nbytes", None)
    return int(nbytes) if nbytes is not None else snapshot_nbytes(world.snapshot()["store"])


def store_nbytes(games: int, n: int) -> int:
    """``state_nbytes`` of ``engine(games, n)`` as built, before any tick."""
    built, snap = engine(games, n)
    built.world.restore(snap)
    return state_nbytes(built.world)


# ---- ticks -----------------------------------------------------------------------------
# A tick on the generated board acts (counters are removed, objects die, the check repeats);
# a ``settled`` tick runs on the board that tick left, where one check finds nothing to do:
# the cost of checking alone, the common case in a game loop. (A tick of a state a tick left
# and nothing wrote since makes no check at all, ``Store.settled``, nor does ``EsperGame``'s
# (its flag): the settled ticks clear that mark first, so that the check is what is timed;
# the op "tick (nothing written)" times the tick without a check.) A settled tick counts the
# objects of the games still going (``ongoing``): those of a game that has ended are not
# checked, on either side.

def checked_tick(w: Any) -> int:
    """``w.tick()`` with its check: the mark of a state a tick left unwritten cleared."""
    w.store.settled = None
    return int(w.tick())


@functools.lru_cache(maxsize=None)
def _settled_snapshot(games: int, n: int, host: bool = False, early: bool = False) -> dict[str, Any]:
    built, snap = engine(games, n, host, early)
    built.world.restore(snap)
    built.world.tick()
    built.world.clear_events()
    return built.world.snapshot()


def engine_tick(games: int, n: int, settled: bool = False, host: bool = False) -> Case:
    """The engine's tick on ``board(games, n)`` (``settled``: on the board a tick left),
    with ``host``: under ``host_effects``."""
    built, snap = engine(games, n, host)
    w = built.world
    start = _settled_snapshot(games, n, host) if settled else snap

    def setup() -> None:
        w.restore(start)

    # A settled tick changes nothing: the board is restored once per block, not per run.
    return Case(f"engine {'settled ' if settled else ''}{games}x{n}{' host effects' if host else ''}",
                functools.partial(checked_tick, w) if settled else w.tick,
                _nothing if settled else setup, prepare=setup,
                objects=(ongoing(games, n) if settled else games) * n)


def checked_baseline_tick(batch: nv.NaiveBatch) -> None:
    """The baseline's tick with its check: ``EsperGame``'s mark of a state a tick left
    unwritten cleared (as ``checked_tick`` clears the engine's; the naive one keeps none)."""
    for game in batch.games:
        if isinstance(game, EsperGame):
            game.settled = False
    batch.tick()


def baseline_tick(games: int, n: int, max_games: int | None = None, settled: bool = False,
                  game: type[NaiveGame] = NaiveGame) -> Case:
    """The baseline's tick (``game``: naive or ``EsperGame``) on ``board(games, n)``, rebuilt
    before each run with esper's query caches built, as a game loop's last check left them
    (the engine's side restores its world); ``settled``: rebuilt and ticked once a block.
    The baseline runs games one after another, so a big batch may be measured on its first
    ``max_games`` games (``info["games_run"]``)."""
    spec = board(games, n)
    played = games if max_games is None else min(games, max_games)
    if played < games:
        spec = spec.select(slice(0, played))
    state: dict[str, Built] = {}

    def release() -> None:
        if "built" in state:
            state.pop("built").world.close()

    def setup() -> None:
        release()
        built = state["built"] = build_baseline(spec, game)
        if settled:
            built.world.tick()   # (its last check queried everything: the caches are built)
        else:
            built.world.warm()

    return Case(f"{BASELINE_NAMES[game]} {'settled ' if settled else ''}{games}x{n}",
                (lambda: checked_baseline_tick(state["built"].world)) if settled
                else (lambda: state["built"].world.tick()),
                _nothing if settled else setup, prepare=setup, release=release,
                objects=(ongoing(games, n, played) if settled else played) * n, info={"games_run": played})


BASELINE_NAMES: dict[type[NaiveGame], str] = {NaiveGame: "naive esper", EsperGame: "esper"}


# ---- single actions, reads, clone+act+tick and a self-play step --------------
# All on one game's settled board (what a tick left), the state a simulator acts on. The
# targets are creatures that start with no counters and no damage (so they are alive on
# the settled board); ``step`` is what one self-play step does to them before its tick.
ACTION_SIZES = (100, 1_000)


@functools.lru_cache(maxsize=None)
def targets(n: int) -> tuple[int, int, int]:
    """Three distinct creatures of ``board(1, n)`` (indices) alive on its settled board."""
    spec = board(1, n)
    calm = ((spec.card_type == CREATURE) & (spec.plus[0] == 0) & (spec.minus[0] == 0)
            & (spec.damage[0] == 0) & (spec.toughness >= 2))
    a, b, c = np.random.default_rng(SEED + n).choice(np.flatnonzero(calm), 3, replace=False)
    return int(a), int(b), int(c)


def step(game: Any, ids: tuple[int, int, int]) -> None:
    """A self-play step's actions, the same calls on the engine and ``EsperGame``: a +1/+1
    counter, two -1/-1 counters (which may kill a 2-toughness creature on the tick) and
    one damage, on three creatures."""
    a, b, c = ids
    game.put_counters(a, "+1/+1", 1)
    game.put_counters(b, "-1/-1", 2)
    game.deal_damage(c, 1)


def _engine_settled(n: int, early: bool = False) -> tuple[Any, Callable[[], None], tuple[int, int, int]]:
    """The engine's World of ``board(1, n)`` (with ``early``: of ``early_board(n)``), a
    restore of its settled snapshot and the ids of ``targets(n)``."""
    built, _ = engine(1, n, early=early)
    snap = _settled_snapshot(1, n, early=early)
    return (built.world, lambda: built.world.restore(snap),
            tuple(int(built.objects[i]) for i in targets(n)))  # type: ignore[return-value]


def _engine_observed(n: int) -> list[int]:
    """The ids ``observe`` reads in ``board(1, n)``'s engine game: its players, then its
    objects."""
    built, _ = engine(1, n)
    return [*built.players.tolist(), *built.objects.tolist()]


@functools.lru_cache(maxsize=None)
def _esper_observed(n: int) -> list[int]:
    """The ids ``observe`` reads in ``board(1, n)``'s baseline game: its players, then
    its objects (as ``engine_op``'s: the same order, the baseline's own ids)."""
    built = build_baseline(board(1, n), EsperGame)
    try:
        return [*built.players[0].tolist(), *built.objects[0].tolist()]
    finally:
        built.world.close()


@functools.lru_cache(maxsize=None)
def _esper_root(n: int, early: bool = False) -> tuple[Built, tuple[int, int, int]]:
    """``board(1, n)`` (with ``early``: ``early_board(n)``) in ``EsperGame`` after one tick:
    the template the baseline acts on (kept for the process; cases act on it or on its
    clones), and the ids of ``targets(n)``."""
    with nv.kept_world():
        built = build_baseline(_board(1, n, early), EsperGame)
        built.world.games[0].tick()
    return built, tuple(int(built.objects[0, i]) for i in targets(n))  # type: ignore[return-value]


def _esper_settled(n: int, early: bool = False) -> tuple[EsperGame, tuple[int, int, int]]:
    """``_esper_root``'s game and ids."""
    built, ids = _esper_root(n, early)
    return built.world.games[0], ids


OPS = ("put_counters", "put_counters (3 targets)", "deal_damage", "deal_damage (3 targets)", "count",
       "counters", "damage (read)", "destroy", "destroy (3 targets)", "add_object", "tick (one death)",
       "tick (nothing written)", "observe")
#: Ops that change the board for good (a zone change retires the id, 400.7; a new object):
#: each run starts from the settled board again (untimed), with the -1/-1 counters that
#: kill ``b`` for the tick.
ONE_SHOT = {"destroy", "destroy (3 targets)", "add_object", "tick (one death)"}
LETHAL = 1_000   # -1/-1 counters on ``b``: more than any toughness, so it dies on the tick (704.5f)


def engine_op(n: int, op: str) -> Case:
    """One action or read on one object of a settled ``n``-object game (state drifts from
    run to run, e.g. counters pile up: harmless to the cost); a one-shot op from the settled
    board each run."""
    w, restore, (a, b, c) = _engine_settled(n)
    player = w.players()[0]
    every = _engine_observed(n)
    run = {"put_counters": lambda: w.put_counters(a, "+1/+1", 1),
           "put_counters (3 targets)": lambda: w.put_counters([a, b, c], "+1/+1", 1),
           "deal_damage": lambda: w.deal_damage(a, 1),
           "deal_damage (3 targets)": lambda: w.deal_damage([a, b, c], 1),
           "count": lambda: w.count(a, "+1/+1"),
           "counters": lambda: w.counters(a),
           "damage (read)": lambda: w.damage(a),
           "destroy": lambda: w.destroy(a),
           "destroy (3 targets)": lambda: w.destroy([a, b, c]),
           "add_object": lambda: w.add_object(player, "creature", power=2, toughness=2),
           "tick (one death)": w.tick, "tick (nothing written)": w.tick,
           "observe": lambda: w.observe(every, OBSERVED)}[op]

    def fresh() -> None:
        restore()
        if op == "tick (one death)":
            w.put_counters(b, "-1/-1", LETHAL)

    return Case(f"engine {op} 1x{n}", run, setup=fresh if op in ONE_SHOT else _nothing, prepare=restore)


def esper_op(n: int, op: str) -> Case:
    game, (a, b, c) = _esper_settled(n)
    every = _esper_observed(n)
    twin: dict[str, EsperGame] = {}

    def release() -> None:
        if "g" in twin:
            twin.pop("g").close()

    def prepare() -> None:  # a fresh copy of the settled game, as the engine restores one
        release()
        twin["g"] = game.clone()
        twin["g"].warm()   # (a clone's caches are empty; the engine's restored game is warm)
        if op == "tick (one death)":
            twin["g"].put_counters(b, "-1/-1", LETHAL)

    run = {"put_counters": lambda: twin["g"].put_counters(a, "+1/+1", 1),
           "put_counters (3 targets)": lambda: _each(twin["g"].put_counters, (a, b, c), "+1/+1", 1),
           "deal_damage": lambda: twin["g"].deal_damage(a, 1),
           "deal_damage (3 targets)": lambda: _each(twin["g"].deal_damage, (a, b, c), 1),
           "count": lambda: twin["g"].count(a, "+1/+1"),
           "counters": lambda: twin["g"].counters(a),
           "damage (read)": lambda: twin["g"].damage(a),
           "destroy": lambda: twin["g"].destroy(a),
           "destroy (3 targets)": lambda: _each(twin["g"].destroy, (a, b, c)),
           "add_object": lambda: twin["g"].add_object(new_creature(2, 2)),
           "tick (one death)": lambda: twin["g"].tick(), "tick (nothing written)": lambda: twin["g"].tick(),
           "observe": lambda: twin["g"].observe(every)}[op]
    return Case(f"esper {op} 1x{n}", run, setup=prepare if op in ONE_SHOT else _nothing, prepare=prepare,
                release=release)


def new_creature(power: int, toughness: int) -> list[Any]:
    """The esper components of a new creature on the battlefield, as ``add_object`` makes
    one in the engine: no counters, no damage."""
    return [nv.Counters({}), nv.Creature(power, toughness), nv.Damage(0, False)]


def _each(act: Callable[..., Any], targets: tuple[int, ...], *rest: Any) -> None:
    """esper's action on several targets: one call each (esper has no other)."""
    for x in targets:
        act(x, *rest)


def engine_step(n: int, clone: bool = False) -> Case:
    """A self-play step (``step`` then a tick) from the settled board; with ``clone``, on a
    clone of it (tree search: clone, act, tick)."""
    w, restore, ids = _engine_settled(n)

    def run() -> Any:
        g = w.clone() if clone else w
        step(g, ids)
        g.tick()
        return g

    return Case(f"engine {'clone+' if clone else ''}step 1x{n}", run,
                setup=_nothing if clone else restore, prepare=restore)


def esper_step(n: int, clone: bool = False) -> Case:
    """``engine_step``'s in ``EsperGame``: the step on a warm copy of the settled game (as
    the engine restores one), or with ``clone`` on a clone made in the timed run (whose
    tick builds its query caches: an esper clone's cost)."""
    game, ids = _esper_settled(n)
    state: dict[str, EsperGame] = {}

    def drop() -> None:
        if "g" in state:
            state.pop("g").close()

    def fresh() -> None:
        drop()
        state["g"] = game.clone()
        state["g"].warm()

    def run() -> Any:
        g = state["g"] = game.clone() if clone else state["g"]
        step(g, ids)
        g.tick()
        return g

    return Case(f"esper {'clone+' if clone else ''}step 1x{n}", run, setup=_nothing if clone else fresh,
                teardown=drop, release=drop)


# ---- memory of held clones -----------------------------------------------------------------
# A tree search keeps many nodes' states alive: what one more costs. An engine clone shares
# its root's arrays until it writes one (copy on write), an esper clone copies its mutable
# components; each holds what ``engine_step``'s clone+step left in it.

def _held(case: Case, k: int) -> tuple[list[Any], int]:
    """``k`` runs of ``case`` kept alive, and the bytes they added (tracemalloc, which
    traces NumPy's array data too, after a full collection at each reading). One run
    first, not counted: a first clone's allocations for the process (caches, layouts)
    are not a held clone's."""
    case.prepare()
    case.run()
    case.teardown()
    tracing = tracemalloc.is_tracing()
    if not tracing:
        tracemalloc.start()
    try:
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        held = [case.run() for _ in range(k)]
        gc.collect()
        return held, tracemalloc.get_traced_memory()[0] - before
    finally:
        if not tracing:
            tracemalloc.stop()


def _stepped(game: Any, ids: tuple[int, int, int]) -> tuple[int, int]:
    """What ``step`` leaves on a game: the +1/+1 counters of its first target and the
    damage of its third, both alive after the tick (``targets`` have toughness 2 or more:
    one damage is not lethal, 704.5g)."""
    a, _, c = ids
    return int(game.count(a, "+1/+1")), int(game.damage(c))


def held_clones(n: int, k: int) -> dict[str, Any]:
    """Bytes per clone of ``board(1, n)``'s settled game held alive, engine against
    ``EsperGame``: ``k`` clones of the root, each given ``step`` and a tick by the
    clone+self-play step cases (``engine_step``, ``esper_step``). Also the engine root's
    live-state bytes (``soak.live_bytes``) and state bytes (``state_nbytes``). Every kept
    clone holds the step's results, the same on both sides (not an empty clone)."""
    with nv.kept_world():
        return _held_clones(n, k)


def _held_clones(n: int, k: int) -> dict[str, Any]:
    w, restore, ids = _engine_settled(n)
    restore()
    game, esper_ids = _esper_settled(n)
    root = _stepped(w, ids)
    if root != _stepped(game, esper_ids):
        raise RuntimeError(f"the roots differ: engine {root}, esper {_stepped(game, esper_ids)}")
    live, state = soak.live_bytes(w), state_nbytes(w)
    out: dict[str, Any] = dict(n=n, k=k, live_bytes=live, state_bytes=state)
    for side, case, side_ids in (("engine", engine_step(n, clone=True), ids),
                                 ("esper", esper_step(n, clone=True), esper_ids)):
        held: list[Any] = []
        try:
            held, nbytes = _held(case, k)
            got = {_stepped(g, side_ids) for g in held}
            if got != {(root[0] + 1, root[1] + 1)}:
                raise RuntimeError(f"{side}'s held clones do not hold the step's results: {got}, root {root}")
        finally:
            for g in held:
                if isinstance(g, NaiveGame):
                    g.close()
            case.release()
        out[f"{side}_bytes"] = nbytes / k
    return out


# ---- clone+step from an early-game root ----------------------------------------------------
# Early in a game a search's root holds no counters of some kinds: a child that puts the
# first one makes a new kind plane, so its kinds layout (``Store.kinds_layout``) is not its
# root's, where the settled board above already holds every kind a step puts.
EARLY = "clone+self-play step, early root"


@functools.lru_cache(maxsize=None)
def early_board(n: int) -> BoardSpec:
    """``board(1, n)`` with no +1/+1 and no -1/-1 counters and no cap of either (a cap
    makes its kind's plane too; its cards, damage, other counters and players as they
    are): the root of an early game. ``targets(n)`` are creatures alive on it too (they
    had no counters and no damage)."""
    spec = board(1, n)
    none = np.full_like(spec.cap_plus, -1)
    return dataclasses.replace(spec, plus=np.zeros_like(spec.plus), minus=np.zeros_like(spec.minus),
                               cap_plus=none, cap_minus=none)


def damage_step(game: Any, ids: tuple[int, int, int]) -> None:
    """``step`` with damage for its -1/-1 counters, the same calls on both sides: a +1/+1
    counter, two damage (lethal to a 2-toughness creature, as the two counters are: 704.5g,
    704.5f) and one damage."""
    a, b, c = ids
    game.put_counters(a, "+1/+1", 1)
    game.deal_damage(b, 2)
    game.deal_damage(c, 1)


def _two_children(clone: Callable[[], Any], ids: tuple[int, int, int], made: list[Any]) -> list[Any]:
    """``made`` with a clone stepped by ``step`` and ticked, then one by ``damage_step``."""
    for act in (step, damage_step):
        child = clone()
        made.append(child)
        act(child, ids)
        child.tick()
    return made


def engine_early_step(n: int) -> Case:
    """Two children of the settled ``early_board(n)``, as a search makes them: a clone,
    ``step`` and a tick, then a clone, ``damage_step`` and a tick. The root holds no +1/+1
    and no -1/-1 counters, so each child makes new kind planes: the first both kinds, the
    second +1/+1 only, two kinds layouts neither of them the root's, one after the other
    (run after run). A run is the two nodes (one of each, so that every run does the same
    work; runs that alternated would put a block's median between the two)."""
    w, restore, ids = _engine_settled(n, early=True)
    # (the children are returned: freeing them is not timed)
    return Case(f"engine clone+step early root 1x{n}", lambda: _two_children(w.clone, ids, []),
                prepare=restore)


def esper_early_step(n: int) -> Case:
    """``engine_early_step``'s in ``EsperGame``: its clones of the settled early board, each
    stepped and ticked (a clone's tick builds its query caches: an esper clone's cost)."""
    game, ids = _esper_settled(n, early=True)
    made: list[EsperGame] = []

    def drop() -> None:
        while made:
            made.pop().close()

    return Case(f"esper clone+step early root 1x{n}", lambda: _two_children(game.clone, ids, made),
                teardown=drop, release=drop)


# ---- a host engine's calls on one game -----------------------------------------------------
# What a host that drives the core does besides counters (``ecs.host``, caps, the turn),
# on one creature of the settled board (a player for ``set_cant_lose``; the next player's
# main phase for ``begin_main_phase``): engine only, the esper baselines model no host
# effects and no turns.
HOST_OPS = ("set_pt", "modify_pt", "clear_pt", "set_controller", "prohibit", "set_hold", "set_redirect",
            "set_cant_lose", "set_cap", "clear_cap", "begin_main_phase")


def host_op(n: int, op: str) -> Case:
    """One of ``HOST_OPS`` on a creature of the settled ``n``-object game, from that board
    each run (``clear_pt`` ends a +1/+1 set up before it, untimed; ``set_cap`` changes and
    ``clear_cap`` ends a cap set up before it)."""
    w, restore, (a, _, _) = _engine_settled(n)
    player, other = w.players()[:2]
    run = {"set_pt": lambda: w.set_pt(a, power=3, toughness=3), "modify_pt": lambda: w.modify_pt(a, 1, 1),
           "clear_pt": lambda: w.clear_pt(a), "set_controller": lambda: w.set_controller(a, other),
           "prohibit": lambda: w.prohibit(a, "+1/+1"), "set_hold": lambda: w.set_hold(a, True),
           "set_redirect": lambda: w.set_redirect(a, "exile"),
           "set_cant_lose": lambda: w.set_cant_lose(player, "life", True),
           "set_cap": lambda: w.set_cap(a, "+1/+1", 5), "clear_cap": lambda: w.clear_cap(a, "+1/+1"),
           "begin_main_phase": lambda: w.begin_main_phase()}[op]

    def setup() -> None:
        restore()
        if op == "clear_pt":
            w.modify_pt(a, 1, 1)
        if op in ("set_cap", "clear_cap"):
            w.set_cap(a, "+1/+1", 9)

    return Case(f"engine {op} 1x{n}", run, setup=setup, prepare=restore)


# ---- a host's calls on a whole batch ---------------------------------------------------------
# Besides the tick: one game's objects (a host looping over the games asks this of each:
# its cost must be that game's, not the batch's) and a cap put on many ids in every game.
BATCH_CALLS = ("objects of one game", "set_cap of 500 ids")


def batch_call(games: int, n: int, call: str) -> Case:
    """One of ``BATCH_CALLS`` on ``board(games, n)`` as built, restored before each run."""
    built, snap = engine(games, n)
    w, ids = built.world, built.objects[:500]
    run = {"objects of one game": lambda: w.objects(game=games // 2),
           "set_cap of 500 ids": lambda: w.set_cap(ids, "charge", 5)}[call]
    restore = functools.partial(w.restore, snap)
    return Case(f"engine {call} {games}x{n}", run, setup=restore, prepare=restore)


# ---- one Grand Archive game ---------------------------------------------------------------
# The same regime in the other ruleset: one game's settled board (allies, weapons with
# durability, a champion each; buff, debuff and damage counters), its single actions and a
# self-play step. Engine only: the esper baselines play the Magic rules.
GA_OPS = ("settled tick", "put_counters", "deal_damage (ally)", "deal_damage (champion)", "pay_reserve",
          "activate_enlighten", "recover", "begin_main_phase", "self-play step")


@functools.lru_cache(maxsize=None)
def _ga_settled(n: int) -> tuple[Any, dict[str, Any], tuple[int, int, int]]:
    """A Grand Archive game of ``n`` objects after a tick, its snapshot, and an ally, a
    second ally and a champion that the ops act on (alive on the settled board)."""
    from ecs import World

    rng = np.random.default_rng(SEED + n)
    w = World(ruleset="grand_archive", seed=SEED)
    players = [w.add_player(), w.add_player()]
    champions = [w.add_object(p, "champion", power=2, life=30) for p in players]
    allies = []
    for i in range(n - 2):
        p = players[i % 2]
        if i % 4 == 3:
            w.add_object(p, "weapon", durability=int(rng.integers(1, 4)))
        elif i % 10 == 0:   # the first player's deck, to draw from (Enlighten 1)
            w.add_object(p, "ally", power=1, life=1, zone="deck")
        else:
            given = {("buff", "debuff")[i % 2]: int(rng.integers(1, 3))} if rng.random() < 0.3 else {}
            allies.append(w.add_object(p, "ally", power=int(rng.integers(1, 4)), life=int(rng.integers(2, 6)),
                                       counters=given))
    w.deal_damage(champions[1], 1)   # damage counters are a kind of the game, as after a first hit
    w.deal_damage(champions[0], 2)   # to recover from (Recover 2)
    w.put_counters(champions[0], "enlighten", 3)   # to activate (Enlighten 1)
    w.set_reserve(players[0], 5)     # cards to pay costs with (GA Costs and Memory 1)
    w.tick()
    w.clear_events()
    a, b = [x for x in allies if w.exists(x)][:2]   # (an ally whose debuff took its life died)
    return w, w.snapshot(), (a, b, champions[0])


def ga_op(n: int, op: str) -> Case:
    """One op of ``GA_OPS`` on the settled ``n``-object game, from that board each run."""
    w, snap, (a, b, champion) = _ga_settled(n)

    def step() -> Any:
        w.put_counters(a, "buff", 1)
        w.put_counters(b, "debuff", 1)
        w.deal_damage(champion, 1)
        return w.tick()

    run = {"settled tick": functools.partial(checked_tick, w), "put_counters": lambda: w.put_counters(a, "buff", 1),
           "deal_damage (ally)": lambda: w.deal_damage(a, 1),
           "deal_damage (champion)": lambda: w.deal_damage(champion, 1),
           "pay_reserve": lambda: w.pay_reserve(w.players()[0], 1),
           "activate_enlighten": lambda: w.activate_enlighten(champion), "recover": lambda: w.recover(champion, 1),
           "begin_main_phase": lambda: w.begin_main_phase(), "self-play step": step}[op]
    restore = functools.partial(w.restore, snap)
    return Case(f"grand archive {op} 1x{n}", run, setup=_nothing if op == "settled tick" else restore,
                prepare=restore)


# ---- copies ----------------------------------------------------------------------------
def _restored(games: int, n: int) -> tuple[Any, Callable[[], None]]:
    """The engine world of ``board(games, n)`` and a setup that restores it as built."""
    built, snap = engine(games, n)
    return built.world, lambda: built.world.restore(snap)


def engine_clone(games: int, n: int) -> Case:
    w, setup = _restored(games, n)
    return Case(f"engine clone {games}x{n}", w.clone, setup, info={"bytes": store_nbytes(games, n)})


def engine_clone_of_a_long_log(n: int, rows: int) -> Case:
    """clone() of one game whose event log keeps ``rows`` rows or more (a search that does
    not clear its events): rows recorded one at a time between ticks' chunks, as a single
    game's actions and ticks record them."""
    built, _ = engine(1, n)
    w = built.world
    w.tick()
    a = int(built.objects[targets(n)[0]])
    while w.log.rows < rows:
        w.put_counters(a, "+1/+1", 1)
        w.put_counters(a, "-1/-1", 1)
        w.tick()   # (704.5q: the pair is annihilated, a chunk of its own)
    return Case(f"engine clone 1x{n}, a log of {rows} rows", w.clone, info={"log_rows": w.log.rows})


def engine_clone_written(games: int, n: int) -> Case:
    """clone(), then a write to every array of the clone: what copy on write defers from the
    clone to its first writes, all of it (an action writes a few arrays only)."""
    w, setup = _restored(games, n)

    def run() -> Any:
        c = w.clone()
        for name in ("counts", *c.store.a):
            c.store.mut(name)
        return c

    return Case(f"engine clone+written {games}x{n}", run, setup, info={"bytes": store_nbytes(games, n)})


def engine_snapshot_restore(games: int, n: int) -> Case:
    w, setup = _restored(games, n)
    return Case(f"engine snapshot+restore {games}x{n}", lambda: w.restore(w.snapshot()), setup,
                info={"bytes": store_nbytes(games, n)})


#: A search's uses of snapshots on one game's settled board (``search``).
SEARCHES = ("depth-first node", "restore the root from a node")


def search(n: int, what: str) -> Case:
    """One of ``SEARCHES`` on the settled ``n``-object game: a depth-first node (a
    snapshot, then two children, each a self-play step and a tick undone by a restore of
    it), or, after a node's snapshot and a step from it, a restore of the root (what a
    search that goes back up, e.g. Monte Carlo tree search, does each iteration)."""
    w, restore, ids = _engine_settled(n)
    root = w.snapshot()

    def node() -> None:
        snap = w.snapshot()
        for _ in range(2):
            step(w, ids)
            w.tick()
            w.restore(snap)

    def deep() -> None:
        w.restore(root)
        step(w, ids)
        w.tick()
        w.snapshot()
        step(w, ids)
        w.tick()

    if what == "depth-first node":
        return Case(f"engine search: {what} 1x{n}", node, setup=functools.partial(w.restore, root), prepare=restore)
    return Case(f"engine search: {what} 1x{n}", functools.partial(w.restore, root), setup=deep, prepare=restore)


def raw_copy(nbytes: int) -> Case:
    """np.copyto of ``nbytes`` bytes into a preallocated buffer: the physical floor of a clone."""
    src = np.ones(nbytes, np.uint8)
    dst = np.zeros_like(src)
    return Case(f"np.copyto {nbytes} B", lambda: np.copyto(dst, src), info={"bytes": nbytes})


def baseline_clone(games: int, n: int, game: type[NaiveGame] = NaiveGame) -> Case:
    """A clone of the baseline's esper world(s) of ``board(games, n)``: the naive baseline's
    copy.deepcopy, or ``EsperGame``'s snapshot of what a game changes."""
    state: dict[str, nv.NaiveBatch] = {}
    twins: list[NaiveGame] = []

    def teardown() -> None:
        while twins:
            twins.pop().close()

    def prepare() -> None:
        release()
        state["built"] = build_baseline(board(games, n), game).world

    def release() -> None:
        teardown()
        if "built" in state:
            state.pop("built").close()

    name = "baseline deepcopy" if game is NaiveGame else "esper clone"
    return Case(f"{name} {games}x{n}", lambda: twins.extend(g.clone() for g in state["built"].games),
                teardown=teardown, prepare=prepare, release=release)


def baseline_deepcopy(games: int, n: int) -> Case:
    """copy.deepcopy of the naive baseline's esper world(s), the copy target's reference."""
    return baseline_clone(games, n, NaiveGame)


def bench(benchmark: Any, case: Case, rounds: int, group: str) -> Any:
    """Time ``case`` with pytest-benchmark (with --benchmark-disable: run it once)."""
    benchmark.group = group
    benchmark.name = case.name
    benchmark.extra_info.update(objects=case.objects, **case.info)
    case.prepare()
    gc.collect()   # (no garbage of another case's in this one's timed runs)
    try:
        return benchmark.pedantic(case.run, setup=case.setup, teardown=case.teardown, rounds=rounds)
    finally:
        case.release()
