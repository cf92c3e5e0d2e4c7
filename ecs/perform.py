"""Performing one check: every decision of the systems applied together (CR 704.3).

The systems (``ecs.systems``) only read the state and record what they decided in a
``Check``; ``perform`` applies all of it at once, as one event: counters removed from
permanents that stay, objects moved with their last-known information (704.8), players
who lose and the games that end. It returns what the next check needs to look at.
"""
from __future__ import annotations

import numpy as np

from . import sets, zones
from . import store as store_module
from .args import sum_rows
from .check import Check, Loss, PerRowRemoval
from .counting import change, change_one, changed, slot_ids
from .events import CAUSE, GAME_END, LOST, RESERVE
from .game import Game
from .kernels import INDEX, array, empty, head, kernel
from .limits import MAX_LIFE
from .prefetch import AHEAD, prefetch_read
from .relocation import move_objects
from .store import remove_clamped

ONGOING, DRAW = -1, -2  # codes of World.result() in a batch (else the winner's id)
_NO_SLOTS = np.zeros(0, np.int64)


def perform(world: Game, check: Check) -> np.ndarray:
    """Perform one check's decisions simultaneously (704.3): counters removed from
    permanents that stay, moves with LKI from before the check (704.8), losses, and the
    per-player updates of a phase (life, reserve). Returns ``Check.touched`` for the
    re-check: the flat slots of the permanents it changed, but by settling removals."""
    s = world.store
    # Flat (game, column) indices: one lookup each, cheaper than indexing with g and c.
    cap = s.capacity
    leaving: np.ndarray | None = None
    if len(check.moves) == 1:   # one decision (a death): nothing to merge
        g, c, z, cause = check.moves[0].games, check.moves[0].cols, check.moves[0].zones, check.moves[0].cause
        if check.removals:
            leaving = np.zeros(world.batch * cap, bool)
            leaving[g * cap + c] = True
    elif check.moves:
        # Whatever the systems' order (704.3): an object leaves once, by the decision that
        # takes it out of the game if one does (its owner left: GA Ending the Game 7), else
        # by the one whose cause comes first in CAUSES (704.5f before 704.5h, say); the rows
        # go by slot, as one system's do (the new ids and library positions follow them).
        g, c, z, cause = (np.concatenate(x) for x in zip(*(
            (mv.games, mv.cols, mv.zones,
             np.full(mv.games.size, CAUSE[mv.cause]) if isinstance(mv.cause, str) else mv.cause)
            for mv in check.moves)))
        at = g * cap + c
        order = np.argsort(at, kind="stable")   # (each decision's rows come by slot: runs to merge)
        first = np.ones(order.size, bool)
        first[1:] = at[order[1:]] != at[order[:-1]]
        if not first.all():   # an object two systems move: by slot, out of the game, cause
            order = np.lexsort((cause, z != zones.NONE, at))
            first[1:] = at[order[1:]] != at[order[:-1]]
        keep = order[first]
        g, c, z, cause = g[keep], c[keep], z[keep], cause[keep]
        leaving = np.zeros(world.batch * cap, bool)
        leaving[at[keep]] = True
    # Removals of one kind for one reason are one change (one event chunk); a paired
    # removal (704.5q) is one pass over its rows.
    groups: dict[tuple[tuple[int, ...], str, bool, int], list[tuple[np.ndarray, ...]]] = {}
    for i, r in enumerate(check.removals):
        at = r.games * cap + r.cols
        # counters on an object that leaves go with it
        rows = ((r.games, r.cols, at, r.amounts, None) if leaving is None
                else _staying(leaving, r.games, r.cols, at, r.amounts))
        if isinstance(r, PerRowRemoval):
            kinds = r.kinds if rows[4] is None else r.kinds[rows[4]]
            for k in sets.distinct(kinds):
                m = kinds == k
                groups.setdefault(((int(k),), r.cause, r.settles, -1), []).append(
                    tuple(x[m] for x in rows[:4]))
        else:   # a paired removal stays its own group: one pass over its rows
            groups.setdefault((r.kinds, r.cause, r.settles, -1 if len(r.kinds) == 1 else i),
                              []).append(rows[:4])
    touched = []   # (games, columns) of the permanents changed, but by settling removals
    # In the order of the causes (then kinds), not of the systems: removals of one kind
    # for two rules (704.5q, 704.5r) clamp at what is there, and the rows split the same
    # whatever the schedule's order.
    for (ks, why, settles, _), parts_ in sorted(groups.items(), key=lambda kv: (CAUSE[kv[0][1]], kv[0][0])):
        rg, rc, at, amount = _merged(world, parts_) if len(parts_) > 1 else parts_[0]
        if len(ks) == 1:
            change(world, s.kind_names[ks[0]], rg, rc, -amount, why, at=at)
        elif rg.size == 1 and store_module.SCALAR_PATHS:   # one row (a pair): plain ints, kind by kind
            for k in ks:
                change_one(world, s.kind_names[k], int(rg[0]), int(rc[0]), -int(amount[0]), why)
        else:   # each kind's rows of before and after go to its event chunk
            counts = s.mut("counts")
            before, after, every = remove_clamped(counts.reshape(counts.shape[0], -1),
                                                  np.array(ks, np.int64), at, amount)
            ids = slot_ids(world, at)   # (one take for every kind)
            for m, k in enumerate(ks):
                changed(world, k, rg, ids, before[m], after[m], bool(every[m]), why)
        if not settles:
            touched.append((rg, rc))
    if check.moves:   # (one row, a death, is move_objects' plain-int move_one)
        _, dest = move_objects(world, g, c, z, cause)
        if dest.size == 1:   # (one row: read as an int)
            if dest.item(0) == zones.BATTLEFIELD:
                touched.append((g, c))
        else:
            enter = np.flatnonzero(dest == zones.BATTLEFIELD)
            if enter.size:   # new permanents, in the slots the old objects left
                touched.append((g[enter], c[enter]))
    if check.losses:
        lose(world, check.losses)
    for u in check.player_updates:
        paid = u.field == "reserve"   # a payment is an event (GA Costs and Memory 1)
        had = s.a["reserve"][u.games, u.players].astype(np.int64) if paid else None
        who = u.players   # (Two-Headed Giant: a player's life is the team's, 810.8)
        if u.field == "life" and world.two_headed_giant:
            who = s.a["player_head"][who].astype(np.int64)
        np.add.at(s.mut(u.field), (u.games, who), u.amounts)
        if u.field == "life":   # a system's change stops at the bound the actions refuse past
            life = s.mut("life")   # (written just above: no copy)
            life[u.games, who] = np.clip(life[u.games, who], -MAX_LIFE, MAX_LIFE)
        if paid:
            world.log.record(RESERVE, u.cause, game=u.games,
                             entity=s.a["entity_id"][0, s.a["player_col"][u.players]],
                             before=had, after=s.a["reserve"][u.games, u.players])
    cap = s.capacity   # the moves may have grown it
    return sets.distinct(np.concatenate([tg * cap + tc for tg, tc in touched])) if touched else _NO_SLOTS


def _merged(world: Game, parts: list[tuple[np.ndarray, ...]]) -> tuple[np.ndarray, ...]:
    """Several decisions' rows (games, cols, flat slots, amounts) removing one kind for
    one reason, as one: an object two of them name loses both amounts, simultaneously
    (704.3; a host's systems share the cause ``remove``)."""
    rg, rc, at, amount = (np.concatenate(x) for x in zip(*parts))
    if not sets.repeats(at):
        return rg, rc, at, amount
    rg, rc, amount = sum_rows(world, rg, rc, amount)
    return rg, rc, rg * world.store.capacity + rc, amount


@kernel(array(np.bool_, 1), INDEX, INDEX, INDEX, INDEX)
def _staying(leaving: np.ndarray, games: np.ndarray, cols: np.ndarray, at: np.ndarray,
             amount: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          np.ndarray]:  # pragma: no cover - compiled
    """The rows whose flat slot ``at`` is not ``leaving``: (games, cols, at, amount, row
    indices), in one pass (NumPy took a gather, a nonzero and four takes), prefetching
    the row ``AHEAD`` on."""
    keep = empty(at.size, np.int64)
    m = 0
    for i in range(at.size):
        if i + AHEAD < at.size:
            prefetch_read(leaving, at[i + AHEAD])
        keep[m] = i
        m += not leaving[at[i]]
    keep = head(keep, m)
    g, c, a, n = empty(m, np.int64), empty(m, np.int64), empty(m, np.int64), empty(m, np.int64)
    for j in range(m):   # (a loop: four fancy takes compiled NumPy's indexing four times)
        k = keep[j]
        g[j], c[j], a[j], n[j] = games[k], cols[k], at[k], amount[k]
    return g, c, a, n, keep


def lose(world: Game, losses: list[Loss]) -> None:
    """Players lose (each once, with the cause first in CAUSES named); a game with one team left is
    won by that team's first player (104.2a), with none left a draw (104.4a). In
    Two-Headed Giant a player's loss is the team's (810.8a): the teammate loses with them,
    for the same cause."""
    s = world.store
    lost = s.mut("lost")
    gone_g, gone_p = [], []
    for loss in sorted(losses, key=lambda x: CAUSE[x.cause]):   # (the systems' order aside: 704.5a before 704.5c)
        g, p = loss.games, loss.players
        if world.two_headed_giant:
            head = s.a["player_head"]
            i, p = np.nonzero(head[p][:, None] == head[None, :])   # each row's team, in turn
            g = g[i]
        new = ~lost[g, p]
        key = sets.distinct(g[new] * s.n_players + p[new])
        g, p = key // s.n_players, key % s.n_players
        lost[g, p] = True
        world.log.record(LOST, loss.cause, game=g, entity=s.a["entity_id"][0, s.a["player_col"][p]])
        gone_g.append(g)
        gone_p.append(p)
    games = sets.distinct(np.concatenate([loss.games for loss in losses]))
    # each player's team as an index into the sorted distinct teams (a few players: Python)
    teams = s.a["player_team"].tolist()
    index = {t: i for i, t in enumerate(sorted(set(teams)))}
    onehot = np.zeros((s.n_players, len(index)), np.int64)
    onehot[np.arange(s.n_players), [index[t] for t in teams]] = 1
    teams_left = ((~lost[games]).astype(np.int64) @ onehot) > 0     # (G, T)
    n_left = teams_left.sum(axis=1)
    draw = games[n_left == 0]
    s.mut("winner")[draw] = DRAW
    world.log.record(GAME_END, "104.4a", game=draw, entity=-1)
    won = n_left == 1
    if won.any():
        win_team = np.argmax(teams_left[won], axis=1)
        first = np.argmax(onehot[:, win_team].T, axis=1)  # the team's first player
        s.mut("winner")[games[won]] = first
        world.log.record(GAME_END, "104.2a", game=games[won],
                         entity=s.a["entity_id"][0, s.a["player_col"][first]])
    g, p = np.concatenate(gone_g), np.concatenate(gone_p)
    on = s.a["winner"][g] == ONGOING   # (a game that goes on: what a leaving player had, at once)
    if on.any():
        world.ruleset.players_left(world, g[on], p[on])
