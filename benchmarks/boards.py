"""Seeded random boards, and builders that load one board into the engine or the baseline.

A ``BoardSpec`` is plain NumPy arrays: what each card is (the same in every game of a
batch) and, per game, the counters, caps and damage each object has and each player's
life and poison. It is generated once, outside any timed region, and both builders read
the same arrays, so the engine and the baseline start from identical states.

The mix aims at a realistic board: most objects have no counters; some have +1/+1 and
some -1/-1 counters (a tenth have both, for 704.5q); a few have a cap (704.5r), loyalty
or defense counters (704.5i, 704.5v), marked damage (704.5g), deathtouch damage
(704.5h); now and then a player is at 0 life or 10 poison (704.5a, 704.5c). Some objects
die on the first check, and a few only on a later one (a cap removes +1/+1 counters).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from . import naive_esper as nv

# Card types of the boards, as indices into TYPE_NAMES.
CREATURE, PLANESWALKER, BATTLE, ARTIFACT = range(4)
TYPE_NAMES = ("creature", "planeswalker", "battle", "artifact")
TYPE_SHARE = (0.70, 0.08, 0.04, 0.18)


@dataclass(frozen=True)
class BoardSpec:
    """``games`` games of ``n`` objects each; (n,) arrays describe cards, (games, ...) states."""
    card_type: np.ndarray   # (n,) int8, index into TYPE_NAMES
    power: np.ndarray       # (n,) int32 printed power (creatures; 0 for the others)
    toughness: np.ndarray   # (n,) int32 printed toughness (creatures; 0 for the others)
    controller: np.ndarray  # (n,) int8 player index
    plus: np.ndarray        # (games, n) int32 +1/+1 counters
    minus: np.ndarray       # (games, n) int32 -1/-1 counters
    loyalty: np.ndarray     # (games, n) int32 loyalty counters (planeswalkers)
    defense: np.ndarray     # (games, n) int32 defense counters (battles)
    damage: np.ndarray      # (games, n) int32 marked damage (creatures)
    deathtouch: np.ndarray  # (games, n) bool: that damage came from a deathtouch source
    cap_plus: np.ndarray    # (n,) int32 "can't have more than N +1/+1"; -1: no cap
    cap_minus: np.ndarray   # (n,) int32 the same for -1/-1 (a cap is the card's ability)
    life: np.ndarray        # (games, players) int64
    poison: np.ndarray      # (games, players) int32

    @property
    def games(self) -> int:
        return self.plus.shape[0]

    @property
    def n(self) -> int:
        return self.card_type.shape[0]

    @property
    def players(self) -> int:
        return self.life.shape[1]

    def select(self, games: slice) -> "BoardSpec":
        """The boards of some of the games (the cards, (n,) arrays, are shared by all)."""
        return BoardSpec(**{name: (arr if arr.ndim == 1 else arr[games])
                            for name, arr in vars(self).items()})


def make_board(n: int, games: int = 1, seed: int = 0, players: int = 2,
               loss_rate: float = 0.03) -> BoardSpec:
    """A random board of ``n`` objects in each of ``games`` games, reproducible from ``seed``;
    a player starts at 0 or less life or at 10 poison with probability ``loss_rate``."""
    rng = np.random.default_rng(seed)
    card_type = rng.choice(len(TYPE_NAMES), size=n, p=TYPE_SHARE).astype(np.int8)
    creature = card_type == CREATURE
    power = np.where(creature, rng.integers(0, 7, n), 0).astype(np.int32)
    toughness = np.where(creature, rng.integers(1, 8, n), 0).astype(np.int32)
    shape = (games, n)

    def some(share: float, low: int, high: int, where: np.ndarray | bool = True) -> np.ndarray:
        """Counts in [low, high) on about ``share`` of the objects selected by ``where``."""
        hit = (rng.random(shape) < share) & where
        return np.where(hit, rng.integers(low, high, shape), 0).astype(np.int32)

    # +1/+1 only 14%, -1/-1 only 6%, both 10%: u in [0, .14) | [.20, .30), [.14, .30)
    u = rng.random(shape)
    plus = np.where((u < 0.14) | ((u >= 0.20) & (u < 0.30)), rng.integers(1, 4, shape), 0)
    minus = np.where((u >= 0.14) & (u < 0.30), rng.integers(1, 4, shape), 0)
    damage = some(0.15, 1, 5, creature)
    cap_plus = np.where(rng.random(n) < 0.015, rng.integers(0, 3, n), -1)
    cap_minus = np.where(rng.random(n) < 0.015, rng.integers(0, 3, n), -1)
    life = np.where(rng.random((games, players)) < loss_rate * 2 / 3,
                    rng.integers(-5, 1, (games, players)), rng.integers(1, 21, (games, players)))
    poison = np.where(rng.random((games, players)) < loss_rate / 3,
                      rng.integers(10, 13, (games, players)),
                      np.where(rng.random((games, players)) < 0.2,
                               rng.integers(1, 10, (games, players)), 0))
    return BoardSpec(
        card_type=card_type, power=power, toughness=toughness,
        controller=(np.arange(n) % players).astype(np.int8),
        plus=plus.astype(np.int32), minus=minus.astype(np.int32),
        # loyalty 0 / defense 0 on about one in seven / six of them
        loyalty=np.where(card_type == PLANESWALKER, rng.integers(0, 7, shape), 0).astype(np.int32),
        defense=np.where(card_type == BATTLE, rng.integers(0, 6, shape), 0).astype(np.int32),
        damage=damage, deathtouch=(damage > 0) & (rng.random(shape) < 0.1),
        cap_plus=cap_plus.astype(np.int32), cap_minus=cap_minus.astype(np.int32),
        life=life.astype(np.int64), poison=poison.astype(np.int32),
    )


@dataclass
class Built:
    """A board loaded into the engine or the baseline, with the ids of its entities."""
    world: Any              # ecs.World or naive_esper.NaiveBatch
    objects: np.ndarray     # (n,) engine ids, or (games, n) baseline ids
    players: np.ndarray     # (players,) engine ids, or (games, players) baseline ids


# ---- the engine ------------------------------------------------------------------------
START_LIFE = 20


def build_engine(spec: BoardSpec, batch: int | None = None, seed: int = 0) -> Built:
    """Load ``spec`` into one engine World of ``batch`` games (default: the spec's games;
    a one-game spec can be repeated in every game of a bigger batch)."""
    from ecs import World  # imported here so the baseline works without the engine

    batch = spec.games if batch is None else batch
    if batch != spec.games and spec.games != 1:
        raise ValueError(f"a spec of {spec.games} games can't fill a batch of {batch}")
    per_game = lambda arr: np.broadcast_to(arr, (batch,) + arr.shape[1:])  # noqa: E731
    w = World(ruleset="mtg", batch=batch, seed=seed)
    players = np.array([w.add_player(life=START_LIFE) for _ in range(spec.players)], np.int64)
    for j, p in enumerate(players.tolist()):
        life = per_game(spec.life)[:, j]
        w.lose_life(p, np.maximum(START_LIFE - life, 0))
        w.gain_life(p, np.maximum(life - START_LIFE, 0))
        w.put_counters(p, "poison", per_game(spec.poison)[:, j])

    # add_objects makes identical cards (scalar printed stats), so cards are added in groups
    # of equal type, stats, controller and capped kinds; a cap is given only to a group
    # whose objects have one, so the engine's sparse cap table stays sparse.
    counter_planes = (("+1/+1", spec.plus), ("-1/-1", spec.minus),
                      ("loyalty", spec.loyalty), ("defense", spec.defense))
    cap_planes = (("+1/+1", spec.cap_plus), ("-1/-1", spec.cap_minus))
    key = np.stack([spec.card_type, spec.power, spec.toughness, spec.controller]
                   + [arr >= 0 for _, arr in cap_planes], axis=1)
    groups, inverse = np.unique(key, axis=0, return_inverse=True)
    ids = np.empty(spec.n, np.int64)
    for gi, (t, power, toughness, ctl, *capped) in enumerate(groups.tolist()):
        idx = np.flatnonzero(inverse.ravel() == gi)
        stats = dict(power=power, toughness=toughness) if t == CREATURE else {}
        counters = {kind: per_game(arr[:, idx]) for kind, arr in counter_planes if arr[:, idx].any()}
        caps = {kind: arr[idx] for (kind, arr), has in zip(cap_planes, capped) if has}
        ids[idx] = w.add_objects(idx.size, controller=int(players[ctl]), types={TYPE_NAMES[t]},
                                 counters=counters, caps=caps, **stats)
    hurt = np.flatnonzero(spec.damage.any(axis=0))
    for deathtouch in (False, True):
        amounts = np.where(spec.deathtouch[:, hurt] == deathtouch, spec.damage[:, hurt], 0)
        w.deal_damage(ids[hurt], per_game(amounts), deathtouch=deathtouch)
    return Built(w, ids, players)


# ---- the baseline ----------------------------------------------------------------------

def _baseline_components(card: tuple[int, ...], state: tuple[int, ...]) -> list[Any]:
    """The esper components of one object: its card (type, power, toughness, caps) and its
    state in one game (+1/+1, -1/-1, loyalty, defense, damage, deathtouch)."""
    t, power, toughness, cap_plus, cap_minus = card
    plus, minus, loyalty, defense, damage, deathtouch = state
    counts = {kind: v for kind, v in ((nv.PLUS, plus), (nv.MINUS, minus),
                                      (nv.LOYALTY, loyalty), (nv.DEFENSE, defense)) if v}
    comps: list[Any] = [nv.Counters(counts)]
    caps = {kind: v for kind, v in ((nv.PLUS, cap_plus), (nv.MINUS, cap_minus)) if v >= 0}
    if caps:
        comps.append(nv.Caps(caps))
    if t == CREATURE:
        comps += [nv.Creature(power, toughness), nv.Damage(damage, bool(deathtouch))]
    elif t == PLANESWALKER:
        comps.append(nv.Planeswalker())
    elif t == BATTLE:
        comps.append(nv.Battle())
    return comps


def build_baseline(spec: BoardSpec, game: type[nv.NaiveGame] = nv.NaiveGame) -> Built:
    """Load ``spec`` into one esper world per game: ``game`` is the baseline's game class
    (the naive one, or ``esper_baseline.EsperGame``)."""
    cards = list(zip(*(a.tolist() for a in (spec.card_type, spec.power, spec.toughness,
                                            spec.cap_plus, spec.cap_minus))))
    games, objects, players = [], [], []
    for g in range(spec.games):
        one = game()
        players.append([one.add_player(life, poison) for life, poison in
                        zip(spec.life[g].tolist(), spec.poison[g].tolist())])
        states = zip(*(a[g].tolist() for a in (spec.plus, spec.minus, spec.loyalty, spec.defense,
                                                spec.damage, spec.deathtouch)))
        objects.append([one.add_object(_baseline_components(card, state))
                        for card, state in zip(cards, states)])
        games.append(one)
    return Built(nv.NaiveBatch(games), np.array(objects, np.int64), np.array(players, np.int64))
