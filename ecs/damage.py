"""Results of damage in the MTG rules (CR 120.3), with shield counters (122.1c).

Rows are (game, column) targets already validated as present; each row is one damage
event of ``amount`` >= 0 from one source with the given abilities, and rows of one target
(from several sources, dealt at once: 510.2) are distinct in their sources. ``flags`` maps
deathtouch, wither, infect and lifelink to a bool or a per-row bool array (a source's
abilities may differ between games), unpreventable and combat to a bool, and (when the
action named a source) ``source`` to per-row source ids and ``source_player`` to per-row
player indices of its controller (-1: none): that player puts the -1/-1 and poison
counters (120.3b, 120.3d: ``by`` in their events) and gains the life (lifelink, 120.3f).
"""
from __future__ import annotations

from typing import Any, Mapping, NamedTuple, TypeVar

import numpy as np

from . import args, counting, stats, zones
from .components import TYPE_BIT
from .events import CAUSE, DAMAGE
from .game import Game, Rules
from .kinds import KEYWORD_BIT
from .limits import MAX_COUNT, MAX_LIFE
from .store import GAME_ZERO

B = TypeVar("B", bool, np.ndarray)


class Outcome(NamedTuple):
    """What one damage event does to its target (CR 120.3), per row: plain bools for one
    row, bool arrays for many (``outcome``)."""
    dealt: Any       # not prevented by a shield counter
    minus: Any       # -1/-1 counters (120.3d)
    marked: Any      # marked damage (120.3e)
    deathtouch: Any  # dealt by a source with deathtouch (702.2b, checked by 704.5h)
    loyalty: Any     # loyalty counters removed (120.3c)
    defense: Any     # defense counters removed (120.3h)
    poison: Any      # poison counters (120.3b)
    loses: Any       # life lost (120.3a)
    gain: Any        # the source's controller gains that much life (lifelink, 120.3f)


def outcome(player: B, creature: B, walker: B, battle: B, permanent: B, shielded: B,
            unpreventable: bool, deathtouch: B, wither: B, infect: B, lifelink: B, sourced: B) -> Outcome:
    """The rules of damage to a target of each kind, for rows of dealt (non-zero) damage
    given as plain bools or bool arrays alike (``x ^ True`` negates either): the scalar
    and the vectorized paths decide by this one statement of them. ``shielded``: a
    permanent with a shield counter, whose one prevention effect applies (122.1c)
    unless the damage can't be prevented (615.12, shield ruling 2022-04-29);
    ``sourced``: a source's controller is known (lifelink needs one)."""
    dealt = (shielded ^ True) | unpreventable
    hit = dealt & permanent & creature
    minus = hit & (wither | infect)
    # (tuple.__new__: a NamedTuple's own __new__ is a Python function, a frame per event)
    return tuple.__new__(Outcome, (dealt, minus, hit & (minus ^ True), hit & deathtouch, dealt & permanent & walker,
                                   dealt & permanent & battle, player & infect, player & (infect ^ True),
                                   dealt & lifelink & sourced))


def _target_kinds(rules: Rules, types: B) -> tuple[B, B, B, B, B]:
    """(player, creature, planeswalker, battle, damageable permanent type) of the card
    types ``types`` in the ruleset ``rules``: an int or an array of them alike."""
    mask = rules.damageable_mask
    return ((types & _PLAYER) != 0, (types & _CREATURE) != 0, (types & _WALKER) != 0,
            (types & _BATTLE) != 0, (types & mask) != 0)


_PLAYER, _CREATURE, _WALKER, _BATTLE = (TYPE_BIT[t] for t in ("player", "creature", "planeswalker", "battle"))
#: Damage abilities a source's keywords (printed or keyword counters, 122.1b) give.
SOURCE_ABILITIES = ("deathtouch", "wither", "infect", "lifelink")
_OUTCOMES: dict[tuple[Any, ...], Outcome | None] = {}   # _outcome_one's arguments -> its value
_MAX_OUTCOMES = 4096
_UNKNOWN = object()


def _outcome_one(rules: Any, types: Any, permanent: bool, shielded: bool, unpreventable: bool, deathtouch: bool,
                 wither: bool, infect: bool, lifelink: bool, sourced: bool) -> Outcome | None:
    """``outcome`` of one row of plain values (``rules``: the ruleset, ``types``: the card
    types as an int), None where the target can't be dealt damage (120.3). It depends on
    these values only: ``deal_one`` keeps it in ``_OUTCOMES`` (a hit is a dict lookup, not
    the two frames of the rules; a plain dict, as functools' cache was a cold path of its
    own after other work)."""
    player, creature, walker, battle, damageable = _target_kinds(rules, types)
    if not (player or (permanent and damageable)):
        return None
    return outcome(player, creature, walker, battle, permanent, shielded, unpreventable, deathtouch, wither, infect,
                   lifelink, sourced)


def deal_one(world: Game, e: int, col: int, amount: int, source: Any, given: tuple[Any, ...],
             unpreventable: bool, combat: bool) -> bool:
    """``deal_damage`` of one row of plain values: ``amount`` to the target ``e`` in column
    ``col`` of a single game, from ``source`` (an id, or None), with the abilities
    ``given`` (deathtouch, wither, infect, lifelink: True, False, or None: the source's).
    False, having changed nothing, where the general path must do it: the errors (it
    raises them) and arguments of other types."""
    resolved = source_one(world, source, given)
    if resolved is None:
        return False
    src, by, given = resolved
    shields, o = _row_outcome(world, col, given, by, unpreventable)
    if o is None:
        return False
    if amount == 0:   # 120.8: not dealt, and no event
        world.log.next_step()
        return True
    dealt, minus, marks, deadly, loyalty, defense, poisons, loses, gain = o   # (one unpacking, no descriptors)
    s = world.store
    a = s.views()
    # The counts written below, read once for their room and their change (-1: no room).
    minus_had = counting.room_one(world, "-1/-1", 0, col, amount) if minus else 0
    pool = counting.holder_one(world, "poison", 0, col) if poisons else col   # (2HG: the team's, 810.10)
    poison_had = counting.room_one(world, "poison", 0, pool, amount) if poisons else 0
    marked: int = a["damage"][0, col] if marks else 0
    if minus_had < 0 or poison_had < 0 or marked + amount > MAX_COUNT:
        return False
    life = _life_one(world, ((col, amount, o),), by) if loses or gain else {}
    if life is None:
        return False
    world.log.next_step()
    world.log.one(DAMAGE, CAUSE["combat damage" if combat else "damage"], 0, e, -1, amount,
                  amount if dealt else 0, src)
    if shields:   # 122.1c: one shield counter prevents it (or is removed by unpreventable damage)
        counting.set_one(world, "shield", 0, col, shields, shields - 1, "shield", -1, e)
    if minus:
        counting.put_one(world, "-1/-1", 0, col, amount, "damage", by, have=minus_had, e=e)
    if marks:
        s.write("damage", (0, col), marked + amount)
    if deadly:
        s.write("deathtouch_hit", (0, col), True)
    if loyalty:
        counting.change_one(world, "loyalty", 0, col, -amount, "damage", e=e)
    if defense:
        counting.change_one(world, "defense", 0, col, -amount, "damage", e=e)
    if poisons:
        counting.put_one(world, "poison", 0, pool, amount, "damage", by, have=poison_had, e=e)
    for idx, total in life.items():
        s.write("life", (0, idx), total)
    return True


def deal_few(world: Game, targets: list[tuple[int, int]], amount: int, source: Any, given: tuple[Any, ...],
             unpreventable: bool, combat: bool) -> bool:
    """``deal_one`` of ``amount`` to each of a single game's few ``targets`` ((id, column)
    pairs, ``ecs.args.few``), all at once (120.3) in the general path's order of work:
    rows naming one target are one event to it, their amounts added; every outcome, room
    and life total is decided before anything changes; then the damage events, and each
    kind of result for every target in turn (shields, -1/-1 counters, marks, loyalty,
    defense, poison, life). False, having changed nothing, where ``deal_one`` would be."""
    resolved = source_one(world, source, given)
    if resolved is None:
        return False
    src, by, given = resolved
    rows = []
    for col, n, e in counting.summed(targets, amount):
        shields, o = _row_outcome(world, col, given, by, unpreventable)
        if o is None:
            return False
        rows.append((col, n, e, shields, o))
    if amount == 0:   # 120.8: none dealt, and no event
        world.log.next_step()
        return True
    s = world.store
    a = s.views()
    had: dict[tuple[str, int], int] = {}   # (kind, column) -> count, read once for its room and change
    for col, n, _, _, o in rows:
        for kind, put in (("-1/-1", o.minus), ("poison", o.poison)):
            if put:
                have = -1 if counting.shared(world, kind) else counting.room_one(world, kind, 0, col, n)
                if have < 0:
                    return False
                had[kind, col] = have
        if o.marked and a["damage"][0, col] + n > MAX_COUNT:
            return False
    life = _life_one(world, [(col, n, o) for col, n, _, _, o in rows], by)
    if life is None:
        return False
    world.log.next_step()
    cause = CAUSE["combat damage" if combat else "damage"]
    for _, n, e, _, o in rows:
        world.log.one(DAMAGE, cause, 0, e, -1, n, n if o.dealt else 0, src)
    for col, _, e, shields, _ in rows:   # 122.1c
        if shields:
            counting.set_one(world, "shield", 0, col, shields, shields - 1, "shield", -1, e)
    for col, n, e, _, o in rows:
        if o.minus:
            counting.put_one(world, "-1/-1", 0, col, n, "damage", by, have=had["-1/-1", col], e=e)
    for col, n, _, _, o in rows:
        if o.marked:
            s.write("damage", (0, col), s.views()["damage"][0, col] + n)
        if o.deathtouch:
            s.write("deathtouch_hit", (0, col), True)
    for kind in ("loyalty", "defense"):
        for col, n, e, _, o in rows:
            if o.loyalty if kind == "loyalty" else o.defense:
                counting.change_one(world, kind, 0, col, -n, "damage", e=e)
    for col, n, e, _, o in rows:
        if o.poison:
            counting.put_one(world, "poison", 0, col, n, "damage", by, have=had["poison", col], e=e)
    for idx, total in life.items():
        s.write("life", (0, idx), total)
    return True


def source_one(world: Game, source: Any, given: tuple[Any, ...]) -> tuple[int, int, tuple[Any, ...]] | None:
    """The source's id, its controller's player index and the abilities ``given`` with the
    source's own where None (122.1b: printed or keyword counters), as the general path
    resolves them; -1, -1 and ``given`` without a source. None where the general path
    must resolve them (it raises): abilities not bools, a source absent or a player (120.1)."""
    for v in given:
        if v is not None and type(v) is not bool:
            return None
    if source is None:
        return -1, -1, given
    if type(source) is not int and not args.is_integer(source):
        return None
    sc = args.present_one(world, source)
    a = world.store.views()
    if sc < 0 or a["types"][0, sc] & _PLAYER:
        return None
    return int(source), a["controller"][0, sc], tuple(
        v if v is not None else k in KEYWORD_BIT and bool(stats.has_keyword_at(world, GAME_ZERO, np.array([sc]), k)[0])
        for k, v in zip(SOURCE_ABILITIES, given))


def _row_outcome(world: Game, col: int, given: tuple[Any, ...], by: int, unpreventable: bool
                 ) -> tuple[int, Outcome | None]:
    """The shield counters on the target in column ``col`` of a single game (0 off the
    battlefield) and its ``outcome`` (None: it can't be dealt damage, 120.3)."""
    s = world.store
    a = s.views()
    permanent = a["zone"][0, col] == zones.BATTLEFIELD
    k = s.kind_index.get("shield")
    shields: int = a["counts"][k, 0, col] if permanent and k is not None else 0
    deathtouch, wither, infect, lifelink = given   # (None: False, without a source)
    key = (world.ruleset, a["types"][0, col], permanent, shields > 0, unpreventable, deathtouch is True,
           wither is True, infect is True, lifelink is True, by >= 0)
    o: Any = _OUTCOMES.get(key, _UNKNOWN)
    if o is _UNKNOWN:
        if len(_OUTCOMES) >= _MAX_OUTCOMES:
            _OUTCOMES.clear()
        o = _OUTCOMES[key] = _outcome_one(*key)
    return shields, o


def _life_one(world: Game, rows: Any, by: int) -> dict[int, int] | None:
    """``_life_changes`` of rows (column, amount, ``Outcome``) of a single game: {player
    index: new total}; None past the bounds of life (the general path raises)."""
    a = world.store.views()
    out: dict[int, int] = {}
    for col, amount, o in rows:
        for idx, delta in ((a["controller"][0, col], -amount) if o.loses else (-1, 0),
                           (by, amount) if o.gain else (-1, 0)):
            if delta:
                if world.two_headed_giant:   # the team's total (810.8)
                    idx = a["player_head"][idx]
                out[idx] = out.get(idx, a["life"][0, idx]) + delta
    return None if any(abs(v) > MAX_LIFE for v in out.values()) else out


def row_flag(flags: Mapping[str, Any], name: str, n: int) -> np.ndarray:
    """(n,) bool: a flag given as a bool or per-row array (absent: False)."""
    return np.broadcast_to(np.asarray(flags.get(name, False), bool), (n,))


def deal_damage(world: Game, g: np.ndarray, c: np.ndarray, amount: np.ndarray,
                flags: Mapping[str, Any]) -> None:
    s = world.store
    player, creature, walker, battle, damageable = _target_kinds(world.ruleset, s.a["types"][g, c])
    permanent = args.on_battlefield(world, g, c)
    args.require(world, player | (permanent & damageable), g, c,
                   "can't be dealt damage: only players, creatures, planeswalkers and battles "
                   "on the battlefield can (CR 120.3)")
    n = g.size
    source = np.broadcast_to(np.asarray(flags.get("source", -1), np.int64), (n,))
    by = np.broadcast_to(np.asarray(flags.get("source_player", -1), np.int64), (n,))
    f = {k: row_flag(flags, k, n) for k in ("deathtouch", "wither", "infect", "lifelink")}
    dealt = amount > 0                             # 120.8: 0 damage is not dealt (nor prevented)
    if not dealt.all():
        g, c, amount = g[dealt], c[dealt], amount[dealt]
        player, creature, walker = player[dealt], creature[dealt], walker[dealt]
        battle, permanent = battle[dealt], permanent[dealt]
        source, by = source[dealt], by[dealt]
        f = {k: v[dealt] for k, v in f.items()}
    # 122.1c: one prevention effect, however many shield counters: one counter per
    # permanent dealt damage at once, from however many sources.
    shield = s.plane("shield")
    shielded = permanent & (shield[g, c] > 0 if shield is not None else False)
    o = outcome(player, creature, walker, battle, permanent, shielded, bool(flags["unpreventable"]),
                f["deathtouch"], f["wither"], f["infect"], f["lifelink"], by >= 0)

    # Validate what is actually dealt before anything changes (prevented damage puts nothing).
    # Rows of one target add up where several sources dealt it damage (``several``).
    several = bool(flags.get("several", False))
    summed = args.sum_rows if several else _as_is
    minus, poison = o.minus, o.poison
    m_rows = _putters(world, g[minus], c[minus], amount[minus], by[minus], several)
    counting.check_room(world, "-1/-1", *m_rows[4])
    mg, mc, mn = summed(world, g[o.marked], c[o.marked], amount[o.marked])
    counting.check_marked_damage(world, mg, mc, mn)
    # 810.10: each player gets poison counters, the team holds them (``counting.put``)
    p_rows = _putters(world, g[poison], c[poison], amount[poison], by[poison], several)
    counting.check_room(world, "poison", *p_rows[4])
    life = _life_changes(world, g, c, amount, o.loses, by, o.gain)
    world.log.next_step()

    record(world, g, c, amount, np.where(o.dealt, amount, 0), source, bool(flags["combat"]))
    sg, sc, _ = summed(world, g[shielded], c[shielded], np.zeros(int(shielded.sum()), np.int64))
    counting.change(world, "shield", sg, sc, -1, "shield")
    _put(world, "-1/-1", m_rows)
    s.mut("damage")[mg, mc] += mn.astype(np.int32)   # (rows distinct)
    s.mut("deathtouch_hit")[g[o.deathtouch], c[o.deathtouch]] = True
    for kind, r in (("loyalty", o.loyalty), ("defense", o.defense)):
        counting.change(world, kind, *summed(world, g[r], c[r], -amount[r]), "damage")
    _put(world, "poison", p_rows)
    if life is not None:
        s.mut("life")[life[0], life[1]] = life[2]


Rows3 = tuple[np.ndarray, np.ndarray, np.ndarray]


def _as_is(world: Game, g: np.ndarray, c: np.ndarray, n: np.ndarray) -> Rows3:
    """``args.sum_rows`` of rows known distinct."""
    return g, c, n


def _putters(world: Game, g: np.ndarray, c: np.ndarray, n: np.ndarray, by: np.ndarray,
             merge: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Rows3]:
    """Counters damage puts (-1/-1, 120.3d; poison, 120.3b), rows summed per target and
    putter (each source's controller, ``by``) where ``merge`` (rows may repeat a target):
    (games, columns, amounts, putters, and the totals per target, for their room)."""
    if not merge:
        return g, c, n, by, (g, c, n)
    total = args.sum_rows(world, g, c, n)
    if total[0].size == g.size:   # one row per target
        return g, c, n, by, total
    g2, c2, who, amounts, _ = args.merged_rows_by(world, g, c, by + 1, world.store.n_players + 1, n)
    return g2, c2, amounts, who - 1, total


def _put(world: Game, kind: str, rows: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Rows3]) -> None:
    """``counting.put`` of ``_putters``' rows, which takes one row per target: where a
    target has rows of several putters, one put per putter (the players: a few)."""
    g, c, n, by, total = rows
    if total[0].size == g.size:
        counting.put(world, kind, g, c, n, "damage", by)
        return
    for p in np.unique(by):
        m = by == p
        counting.put(world, kind, g[m], c[m], n[m], "damage", int(p))


def _life_changes(world: Game, g: np.ndarray, c: np.ndarray, amount: np.ndarray,
                  loses: np.ndarray, by: np.ndarray, gain: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The new life totals (games, player indices, totals) after the life lost to damage
    (120.3a: rows ``loses``) and gained by lifelink (120.3f: rows ``gain``: the source's
    controller gains the damage dealt, whatever the target), validated; None if no total
    changes. In Two-Headed Giant the team's total changes (810.8)."""
    s = world.store
    if not (loses.any() or gain.any()):
        return None
    lose_idx = s.a["controller"][g[loses], c[loses]].astype(np.int64)
    gs = np.concatenate([g[loses], g[gain]])
    idx = np.concatenate([lose_idx, by[gain]])
    delta = np.concatenate([-amount[loses], amount[gain]])
    if world.two_headed_giant:
        idx = s.a["player_head"][idx].astype(np.int64)
    gs, idx, delta = args.sum_rows(world, gs, idx, delta)
    return gs, idx, counting.life_after(world, gs, idx, delta)


def record(world: Game, g: np.ndarray, c: np.ndarray, amount: np.ndarray, dealt: np.ndarray,
           source: np.ndarray | int, combat: bool) -> None:
    """One damage event per row (``ecs.events.DamageDealt``): ``amount`` would be dealt,
    ``dealt`` was; ``source`` ids (-1: none)."""
    cause = CAUSE["combat damage" if combat else "damage"]
    world.log.record(DAMAGE, cause, game=g, entity=world.store.a["entity_id"][g, c], before=amount,
                     after=dealt, other=source)
