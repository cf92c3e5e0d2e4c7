"""Differential tests: the engine against tests/reference_ga.py, for the Grand Archive
ruleset (buff/debuff, damage counters, bulwark, recover, durability, enlighten, wither,
reserve, immortality, destroy, sacrifice and control, zone moves by ``move_zone`` to each GA
zone, GA state-based checks) and for MTG rad counters (libraries, draw, mill, 728.1).

Hypothesis builds a batch of 1-3 games that share players (each game's cards are added with
``games=[g]``, two identical ones now and then by one ``add_objects``; a player starts with
zero to two champions on the field, so one may come to hold only another's; in a batch, up
to two cards are made by one call in several games),
then plays rounds: in each round every ongoing game gets one to three random actions of
its own (applied with ``games=[g]``, or in a batch of one game sometimes without, as a user
would, which takes the single-game paths; half of a game's card actions pick its focus
card, most of its puts one rule's kinds; among them ``move_counters``, damage to several
units in one call, damage from a source (one, or one per target), gaining and paying
reserve, ``prohibit`` and ``allow`` of a kind or of every kind, puts, moves and arriving
counters put by a player named (``by``, ``put_by``), and cards made with ``no_counters``,
which no put, move, entering counter or durability counter reaches in any zone), or the
whole batch gets a global one
(``tick()``, ``begin_main_phase()``, ``draw()`` or ``mill()`` for every ongoing game at
once, with no ``games=``, which exercises the vectorized phase systems on games in
different states and, in a World of one game, the one-card draw and mill path; before a
draw or mill, now and then a token moved from the field into the library, mostly on top or
among the top cards, which the draw stops at and the mill leaves in its place, 111.8, until
the next check removes it, 704.5d), or one
action on a card made in several games, in all of them at once, where their states have
diverged (an amount per game, or ``where="present"``): a refusal in one refuses all.
After every action:

* the engine raises exactly when the model does, with the same exception class, and then
  the engine's state is unchanged (snapshot arrays compared);
* every game reads the same as its model: each card's zone, counters, marked damage,
  power/life/LV, each player's reserve, life, counters, loss and library order, the result
  and the turn player;
* the call's zone changes (``ZoneChanged`` events) are the model's: each card's from and to
  zone ("none": it left the game), its counters just before (last-known information) and
  its controller then, and its cause;
* the call's other events are the model's (``Pair.compare_events``): counter changes
  (entity, kind, before, after, cause, and ``by``, who put them: the player named, the
  controller of what enters with them, none for damage counters or any removal),
  reserve paid, the actions' ``Acted`` records, ``DamageDealt``, losses and game ends;
  those of the cards made too (entering counters);
* after a ``prohibit`` or ``allow``, ``is_prohibited`` of that card, of the kind, of every
  kind and of another; a card made with ``no_counters`` reads as prohibited in every zone.
"""
from __future__ import annotations

import collections
import pickle
import sys
from unittest import mock

import numpy as np
import pytest
import reach
from hypothesis import given, note, settings
from hypothesis import strategies as st
from profiles import examples as profile_examples

import ecs.systems.base
from ecs import (
    Acted,
    CounterChanged,
    CounterError,
    DamageDealt,
    GameEnded,
    PlayerLost,
    ReserveChanged,
    World,
    ZoneChanged,
)
from ecs.systems.wither_upkeep import pay_nothing

try:
    import reference_ga as ref
    from state import full_state
except ImportError:  # pragma: no cover - imported as a package
    from tests import reference_ga as ref
    from tests.state import full_state

#: move_zone destinations, by the GA names the engine takes (its zone_aliases) and the
#: shared ones (every zone a World names: command too, and the canonical names the GA ones
#: alias); the field and the graveyard (Champion 8) more often.
MOVE_ZONES = ["field", "field", "graveyard", "graveyard", "banishment", "hand", "memory", "deck",
              "effects stack", "command", "battlefield", "exile"]
GA_KINDS = ["buff", "debuff", "damage", "durability", "level", "enlighten", "wither",
            "bulwark", "charge"]
PUT_KINDS = GA_KINDS + ["wither", "buff", "debuff"]
#: card actions, puts and main phases (where wither is paid) the most often
CARD_ACTIONS = ["put"] * 5 + ["begin"] * 3 + [
    "remove", "damage", "damage", "recover", "enlighten", "reserve", "reserve", "cleanup",
    "level_up", "immortal", "destroy", "sacrifice", "control", "move", "move", "move_counters",
    "prohibit"]
#: the kinds a put or removal on a card in several games of a batch takes
SHARED_KINDS = ["buff", "debuff", "damage", "durability", "wither", "enlighten", "level", "bulwark"]
SHARED_ACTIONS = ["put", "put", "remove", "damage", "recover", "enlighten", "level_up",
                  "destroy", "sacrifice", "move", "immortal", "control"]
#: most puts of a game take the kinds of one rule, so that its counters add up on a card
#: (Buff 4 meets buff and debuff; Enlighten wants 3; Wither at a main phase; Bulwark)
PALETTES = [("buff", "debuff"), ("enlighten",), ("wither",), ("damage",), ("bulwark",),
            ("durability",), ("level",)]
#: the kind a put of buff or debuff meets, put first half the time (Buff 4 / Debuff 4)
CANCELS = {"buff": "debuff", "debuff": "buff"}
PHASE_VALUES = [True, True, True, False, "precombat", "postcombat", "combat"]


def pay_every(world, games, ids, cost, reserve):
    """A host's wither policy that pays for every object with wither counters (an immortal
    one too), whatever the reserve: InsufficientReserveError where it overpays."""
    return ids >= 0


#: begin_main_phase's policy by the model's name of it (``reference_ga.Game._wither``)
POLICIES = {"most": None, "nothing": pay_nothing, "every": pay_every}


def at(v, g):
    return v if np.ndim(v) == 0 else v[g]


def putter(data, pair) -> int | None:
    """The ``by`` of a put, a move or a zone change's arriving counters: now and then a
    player (the one who puts them, docs/api.md), else none named."""
    return data.draw(st.integers(0, len(pair.pids) - 1)) if data.draw(st.integers(0, 2)) == 0 else None


def engine_by(pair, by: int | None):
    """``putter``'s player as the engine names it (an id)."""
    return None if by is None else pair.pids[by]


class Pair:
    """The engine World and one model per game, with the name -> id lookups."""

    def __init__(self, ruleset: str, batch: int, n_players: int) -> None:
        self.w = World(ruleset=ruleset, batch=batch, seed=0)
        self.ruleset = ruleset
        self.pids = [self.w.add_player() for _ in range(n_players)]
        self.models = [ref.Game(ruleset, n_players) for _ in range(batch)]
        self.focus: dict[int, str] = {}   # game -> the card half its card actions pick
        self.kinds: dict[int, list[str]] = {}   # game -> the counter kinds its puts favour
        self.shared: list[str] = []   # cards made in several games of the batch by one call
        #: cards made together by ``add_objects`` (identical, so nameless in the engine): id
        #: -> the model's name, followed through their zone changes (``Pair.since``)
        self.alias: dict[int, str] = {}
        self.tokens = 0   # tokens made (token_to_deck): their names

    def add(self, g: int, name: str, ctrl: int, types, zone="battlefield", counters=None,
            put_by: int | None = None, no_counters: bool = False, **stats) -> None:
        """A card of game ``g``; ``counters``: put as it enters, kind by kind in the order
        given (Buff 4 / Debuff 4 between them), by player ``put_by``, else its controller;
        ``no_counters``: none can be put on it (docs/api.md)."""
        kw = {k: v for k, v in stats.items() if v is not None}
        step, made = self.w.step, [len(m.events) for m in self.models]
        self.w.add_object(self.pids[ctrl], types, zone=zone, name=name, games=[g], counters=counters,
                          no_counters=no_counters, put_by=None if put_by is None else self.pids[put_by], **kw)
        c = self.models[g].add(name, ctrl, types, zone, no_counters=no_counters, **stats)
        for kind, n in (counters or {}).items():
            self.models[g].put(c, kind, n, cause="enter", by=ctrl if put_by is None else put_by)
        self.compare_made(f"add {name}", step, made)

    def add_many(self, g: int, names: list[str], ctrl: int, types, counters=None,
                 put_by: int | None = None, no_counters: bool = False, **stats) -> None:
        """Identical cards of game ``g`` made by one ``add_objects`` call, each entering
        with ``counters`` as ``add`` puts them; the model names them ``names``, in the
        order of the ids made."""
        kw = {k: v for k, v in stats.items() if v is not None}
        step, made = self.w.step, [len(m.events) for m in self.models]
        ids = self.w.add_objects(len(names), self.pids[ctrl], types, games=[g], counters=counters,
                                 no_counters=no_counters,
                                 put_by=None if put_by is None else self.pids[put_by], **kw)
        self.models[g].reached["add_objects, several at once"] += 1
        for e, name in zip(np.ravel(ids).tolist(), names):
            self.alias[e] = name
            c = self.models[g].add(name, ctrl, types, "battlefield", no_counters=no_counters, **stats)
            for kind, n in (counters or {}).items():
                self.models[g].put(c, kind, n, cause="enter", by=ctrl if put_by is None else put_by)
        self.compare_made(f"add_objects {names}", step, made)

    def compare_made(self, label: str, step: int, made: list[int]) -> None:
        """The events of cards just made (``add_object`` records their entering counters),
        compared as a call's (``compare_events``)."""
        self.compare_events(label, *self.since(step), made)
        self.forget()

    def label(self, e: int) -> str | None:
        """The model's name of object ``e``."""
        return self.alias[e] if e in self.alias else self.w.name(e)

    def ids(self, g: int) -> dict[str, int]:
        return {self.label(i): i for i in self.w.objects(game=g)}

    def since(self, step: int) -> tuple[list, dict[int, str | None]]:
        """The events after ``step``, and the model's names of the objects their zone
        changes name (old and new ids: an object may be gone since), the aliases moved
        on to the new objects."""
        events = self.w.events_since(step)
        names: dict[int, str | None] = {}
        for e in events:
            if isinstance(e, ZoneChanged):
                name = self.alias.pop(e.old) if e.old in self.alias else e.name
                names[e.old] = name
                if e.new is not None:
                    names[e.new] = name
                    if e.name is None:
                        self.alias[e.new] = name
        return events, names

    def call(self, label: str, engine_fn, model_fns) -> bool:
        """Apply to the engine and to the models (a list of (game, fn)); compare. False if
        both refused it."""
        note(label)
        errs = []
        before, step = full_state(self.w), self.w.step
        logged = [len(m.zone_log) for m in self.models]
        made = [len(m.events) for m in self.models]
        snaps = [ref_copy(m) for m in self.models]
        for _, fn in model_fns:   # each game's refusal: a call over several refuses in all
            try:
                fn()
            except ref.ModelError as e:
                errs.append(e)
        if errs:
            self.models[:] = snaps
        try:
            engine_fn()
        except CounterError as e:
            assert errs, f"{label}: engine raised {e!r}, model did not"
            # games refusing for different reasons: the engine names one of them
            assert type(e).__name__ in {x.kind for x in errs}, f"{label}: engine {e!r}, model {errs}"
            assert full_state(self.w) == before, f"{label}: engine changed on error"
            return False
        assert not errs, f"{label}: model raised {errs}, engine did not"
        events, names = self.since(step)
        self.compare(label)
        self.compare_zone_changes(label, events, names, logged)
        self.compare_events(label, events, names, made)
        self.forget()
        return True

    def forget(self) -> None:
        """Drop the models' compared logs: ``call`` pickles every model before each call,
        and a log kept whole would make that grow with the game."""
        for m in self.models:
            m.zone_log.clear()
            m.events.clear()

    def compare_events(self, label: str, events: list, names: dict[int, str | None],
                       made: list[int]) -> None:
        """The call's ``events`` but the zone changes, in each game, as the model made them
        (its ``events`` from ``made[g]`` on; ``names``: ``since``'s). Counter changes of one entity and kind
        in order: the log is oldest first, so each one's ``before`` is the count the last
        left (Buff 4: placed, then cancelled); the rest as multisets, the docs promising no
        order between the rows of one step (one action or check, CR 704.3) and the model
        keeping none of steps. A counter change's ``by`` is compared: the player who put
        them, None for every removal (nobody puts those: the Buff 4 cancelling, a cost, the
        wither trigger's, enlighten's, recover's) and for damage counters (Damage 1 names
        no player)."""
        pids = self.pids

        def who(e: int | None):
            if e is None:
                return None
            if e in pids:
                return pids.index(e)
            return names[e] if e in names else self.label(e)
        seen: list[list[tuple]] = [[] for _ in self.models]
        for e in events:
            if isinstance(e, CounterChanged):
                row = ("counter", who(e.entity), e.kind, e.before, e.after, e.cause, who(e.by))
            elif isinstance(e, ReserveChanged):
                row = ("reserve", who(e.player), e.before, e.after, e.cause)
            elif isinstance(e, Acted):
                row = ("acted", who(e.entity), who(e.player), e.kind, e.before, e.after, e.cause)
            elif isinstance(e, DamageDealt):
                row = ("damage", who(e.target), who(e.source), e.amount, e.dealt, e.cause)
            elif isinstance(e, PlayerLost):
                row = ("lost", who(e.player), e.cause)
            elif isinstance(e, GameEnded):
                row = ("ended", who(e.winner), e.cause)
            else:
                assert isinstance(e, ZoneChanged), f"{label}: an event the model makes none of: {e}"
                continue
            seen[e.game].append(row)
        for g, m in enumerate(self.models):
            got, want = split_events(seen[g]), split_events(m.events[made[g]:])
            assert got == want, f"{label}: game {g} events {seen[g]} != {m.events[made[g]:]}"

    def compare_zone_changes(self, label: str, events: list, names: dict[int, str | None],
                             logged: list[int]) -> None:
        """The call's zone changes in each game, as the model logged them: each card's from
        and to zone, the counters it had just before (last-known information) and its
        controller then, its cause (in any order: the model need not order one check's moves)."""
        seen: list[list] = [[] for _ in self.models]
        for e in events:
            if isinstance(e, ZoneChanged):
                seen[e.game].append((names[e.old], e.from_zone, e.to_zone, dict(e.lki),
                                     self.pids.index(e.controller), e.cause))
        for g, m in enumerate(self.models):
            want = m.zone_log[logged[g]:]
            key = lambda z: repr((*z[:3], sorted(z[3].items()), *z[4:]))   # noqa: E731
            assert sorted(map(key, seen[g])) == sorted(map(key, want)), \
                f"{label}: game {g} zone changes {seen[g]} != {want}"

    def compare(self, label: str) -> None:
        w = self.w
        res = w.result()
        for g, m in enumerate(self.models):
            ids = self.ids(g)
            assert set(ids) == set(m.cards), f"{label}: game {g} cards"
            for name, c in m.cards.items():
                e = ids[name]
                where = f"{label}: game {g} {name}"
                assert at(w.zone(e), g) == c.zone, where
                assert int(at(w.controller(e), g)) == self.pids[c.ctrl], f"{where}: controller"
                got = {k: int(at(v, g)) for k, v in w.counters(e).items() if at(v, g)}
                assert got == c.counters, f"{where}: {got} != {c.counters}"
                assert int(at(w.damage(e), g)) == c.damage, where
                if m.ga and c.power is not None:
                    assert int(at(w.stat(e, "power"), g)) == c.stat("power"), where
                if m.ga and c.life is not None:
                    assert int(at(w.stat(e, "life"), g)) == c.stat("life"), where
                if m.ga and c.durability is not None:   # Stats: Durability 1, 3
                    want = c.count("durability") if c.zone == "battlefield" else c.durability
                    assert int(at(w.stat(e, "durability"), g)) == want, f"{where}: durability"
                if m.ga and c.level is not None:
                    assert int(at(w.base_level(e), g)) == c.level, where
                    if c.has("champion"):   # LV: Level 1, Level Counters 1-2
                        assert int(at(w.stat(e, "level"), g)) == c.stat("level"), f"{where}: LV"
                if m.ga:
                    assert bool(at(w.is_immortal(e), g)) == c.immortal, where
                if c.no_counters:   # (the card's: through every zone change)
                    assert bool(at(w.is_prohibited(e), g)), f"{where}: no_counters"
            for i, (pid, p) in enumerate(zip(self.pids, m.players)):
                where = f"{label}: game {g} player {i}"
                assert bool(at(w.has_lost(pid), g)) == p.lost, where
                assert int(at(w.reserve(pid), g)) == p.reserve, where
                if not m.ga:
                    assert int(at(w.life(pid), g)) == p.life, where
                got = {k: int(at(v, g)) for k, v in w.counters(pid).items() if at(v, g)}
                assert got == p.counters, where
                assert [self.label(x) for x in w.library(pid, game=g)] == p.library, where
            want = {"ongoing": -1, "draw": -2}.get(m.result, None)
            want = self.pids[m.result] if want is None else want
            got = at(res, g)
            got = {"ongoing": -1, "draw": -2}.get(got, got)
            assert int(got) == want, f"{label}: game {g} result"
            if m.active >= 0:
                assert int(at(w.active_player(), g)) == self.pids[m.active], f"{label}: game {g} turn"


def split_events(rows: list[tuple]) -> tuple[dict, list]:
    """Event rows as compared: counter changes by (entity, kind), each list in order; the
    others sorted."""
    chains: dict[tuple, list] = {}
    rest = []
    for r in rows:
        if r[0] == "counter":
            chains.setdefault(r[1:3], []).append(r[3:])
        else:
            rest.append(r)
    return chains, sorted(rest, key=repr)


def ref_copy(m: ref.Game) -> ref.Game:
    """A deep copy of a model (``Pair.call`` takes one of every game's before each call,
    to roll back a refused one), by pickle: several times faster than ``copy.deepcopy``."""
    return pickle.loads(pickle.dumps(m, pickle.HIGHEST_PROTOCOL))


# ---------------------------------------------------------------------------------------
def build_ga(data, pair: Pair, g: int) -> None:
    n = len(pair.pids)
    for i in range(n):
        # Most players start with a champion on the field; one may start without (it may
        # then hold only another's, by set_controller: Ending the Game 5 when its owner
        # leaves, 7, 9), or with two (losing one is no loss).
        for k in range(data.draw(st.sampled_from([1, 1, 1, 0, 2]))):
            pair.add(g, f"g{g}.champ{i}" + ("" if k == 0 else f".{k}"), i, ("champion",),
                     life=data.draw(st.integers(1, 8)), level=data.draw(st.sampled_from([None, 0, 1, 2])))
        # Two allies, or two objects, are now and then made by one add_objects call,
        # identical (each entering with its durability and counters, and the slots in order)
        allies = data.draw(st.integers(0, 2))
        both = allies == 2 and data.draw(st.booleans())
        for j in range(1 if both else allies):
            # now and then entering with buff and debuff counters at once (placed in the
            # order given: the second cancels against the first, Buff 4 / Debuff 4)
            first = data.draw(st.sampled_from([None, None, None, "buff", "debuff"]))
            counters = None if first is None else {first: data.draw(st.integers(1, 3)),
                                                   CANCELS[first]: data.draw(st.integers(1, 3))}
            stats = dict(power=data.draw(st.integers(0, 3)), life=data.draw(st.integers(1, 4)))
            stats.update(made_with(data, pair, counters))
            if both:
                pair.add_many(g, [f"g{g}.ally{i}.0", f"g{g}.ally{i}.1"], i, ("ally",),
                              counters=counters, **stats)
            else:
                pair.add(g, f"g{g}.ally{i}.{j}", i, ("ally",), counters=counters, **stats)
        objects = data.draw(st.integers(0, 2))
        both = objects == 2 and data.draw(st.booleans())
        for j in range(1 if both else objects):
            types = data.draw(st.sampled_from([("weapon",), ("weapon", "regalia"),
                                               ("domain", "siegeable"), ("item",), ("item", "regalia")]))
            dur = data.draw(st.sampled_from([None, 0, 1, 2]))
            power = 1 if "weapon" in types else None
            # (a weapon made with no_counters gets no durability counters: Types of Checks 3)
            how = made_with(data, pair, None)
            if both:
                pair.add_many(g, [f"g{g}.obj{i}.0", f"g{g}.obj{i}.1"], i, types, power=power,
                              durability=dur, **how)
            else:
                pair.add(g, f"g{g}.obj{i}.{j}", i, types, power=power, durability=dur, **how)
        for j in range(data.draw(st.integers(0, 3))):
            pair.add(g, f"g{g}.deck{i}.{j}", i, ("action",), zone="library")
        if data.draw(st.integers(0, 3)) == 0:   # a champion card off the field, to move on
            name, zone = f"g{g}.spare{i}", data.draw(st.sampled_from(["hand", "exile", "library"]))
            pair.add(g, name, i, ("champion",), zone=zone, life=data.draw(st.integers(1, 8)), level=1)
            omens = data.draw(st.integers(0, 2)) if zone == "exile" else 0
            if omens:   # Counters: Omen 1, counters on a card in banishment
                pair.call(f"put {name} omen {omens} (g{g})",
                          lambda name=name, n=omens: pair.w.put_counters(pair.ids(g)[name], "omen", n, games=[g]),
                          [(g, lambda name=name, n=omens: pair.models[g].put(pair.models[g].cards[name], "omen", n))])


def made_with(data, pair: Pair, counters) -> dict:
    """``add_object``'s ``no_counters`` (one card in eight: none can be put on it, docs/api.md)
    and, with entering ``counters``, now and then ``put_by`` (the player who puts them)."""
    how: dict = {}
    if data.draw(st.integers(0, 7)) == 0:
        how["no_counters"] = True
    if counters and data.draw(st.integers(0, 2)) == 0:
        how["put_by"] = data.draw(st.integers(0, len(pair.pids) - 1))
    return how


def build_mtg(data, pair: Pair, g: int) -> None:
    for i in range(len(pair.pids)):
        for j in range(data.draw(st.integers(0, 6))):
            land = data.draw(st.booleans())
            pair.add(g, f"g{g}.{'L' if land else 'S'}{i}.{j}", i, ("land",) if land else ("sorcery",),
                     zone="library")


def card_action(data, pair: Pair, g: int) -> None:
    w, m = pair.w, pair.models[g]
    names = sorted(m.cards)

    def pick(fits=None) -> str:
        # Half the picks go to the game's focus card, so that one card gathers counters and
        # flags and the rules that need several (Buff 4, Enlighten, Wither, Bulwark,
        # Immortality against lethal damage) are reached, not only drawn on. With ``fits``,
        # three picks in four are among the cards on the field it fits, where there are
        # some (an action that takes only those: the others test its refusal).
        among = names
        if fits is not None and data.draw(st.integers(0, 3)):
            among = [n for n in names if m.cards[n].zone == "battlefield" and fits(m.cards[n])] or names
        focus = pair.focus.get(g)
        if focus in among and data.draw(st.booleans()):
            return focus
        return data.draw(st.sampled_from(among))
    ids = pair.ids(g)
    # one game alone: sometimes no games= (the single-game paths), as a user would call
    sel = None if w.batch == 1 and data.draw(st.booleans()) else [g]
    action = data.draw(st.sampled_from(CARD_ACTIONS))
    if action == "put" and names:
        kinds = pair.kinds.get(g) if data.draw(st.integers(0, 3)) else None
        name, kind = pick(), data.draw(st.sampled_from(kinds or PUT_KINDS))
        if kind in CANCELS:   # Buff 4 / Debuff 4 want the other kind there
            put_first(data, pair, g, name, CANCELS[kind], sel)
            m = pair.models[g]
        n, by = data.draw(st.integers(0, 3)), putter(data, pair)
        c = m.cards[name]
        pair.call(f"put {name} {kind} {n} by={by} (g{g})",
                  lambda: w.put_counters(ids[name], kind, n, games=sel, by=engine_by(pair, by)),
                  [(g, lambda: m.put(c, kind, n, by=by))])
    elif action == "remove" and names:
        name, kind, n = pick(), data.draw(st.sampled_from(GA_KINDS)), data.draw(st.integers(0, 3))
        cost = data.draw(st.integers(0, 2)) == 0   # (118.3: all n or none)
        c = m.cards[name]
        pair.call(f"remove {name} {kind} {n} cost={cost} (g{g})",
                  lambda: w.remove_counters(ids[name], kind, n, games=sel, cost=cost),
                  [(g, lambda: m.remove(c, kind, n, cost))])
    elif action == "damage" and names and data.draw(st.integers(0, 2)) == 0:
        damage_several(data, pair, g, pick, sel)
    elif action == "damage" and names:
        name = pick(lambda c: any(c.has(t) for t in ref.UNITS))
        n = data.draw(st.integers(-2, 4))   # (Damage 15: below 0 is 0)
        combat, unprev = data.draw(st.booleans()), data.draw(st.booleans())
        src = data.draw(st.sampled_from([None] + names))   # (a source in any zone)
        if combat:   # Bulwark 2 wants bulwark counters on the unit dealt combat damage
            put_first(data, pair, g, name, "bulwark", sel)
            m = pair.models[g]
        c = m.cards[name]
        pair.call(f"damage {name} {n} source={src} combat={combat} unpreventable={unprev} (g{g})",
                  lambda: w.deal_damage(ids[name], n, None if src is None else ids[src], combat=combat,
                                        unpreventable=unprev, games=sel),
                  [(g, lambda: m.deal_damage(c, n, combat, unprev, src and m.cards[src]))])
    elif action == "recover" and names:
        name, n, cost = pick(), data.draw(st.integers(0, 4)), data.draw(st.booleans())
        put_first(data, pair, g, name, "damage", sel)
        m = pair.models[g]   # (a refused call puts the models back: these are new objects)
        c = m.cards[name]
        pair.call(f"recover {name} {n} cost={cost} (g{g})",
                  lambda: w.recover(ids[name], n, games=sel, cost=cost),
                  [(g, lambda: m.recover(c, n, cost))])
    elif action == "enlighten" and names:
        name = pick()
        put_first(data, pair, g, name, "enlighten", sel)
        m = pair.models[g]
        c = m.cards[name]
        pair.call(f"enlighten {name} (g{g})", lambda: w.activate_enlighten(ids[name], games=sel),
                  [(g, lambda: m.enlighten(c))])
    elif action == "reserve":
        p, n = data.draw(st.integers(0, len(pair.pids) - 1)), data.draw(st.integers(0, 4))
        how = data.draw(st.sampled_from(["set", "set", "gain", "pay"]))
        if how == "set":
            set_reserve(pair, g, p, n, sel)
        else:   # paying is all or nothing (InsufficientReserveError)
            pair.call(f"{how}_reserve p{p} {n} (g{g})",
                      lambda: getattr(w, f"{how}_reserve")(pair.pids[p], n, games=sel),
                      [(g, lambda: getattr(pair.models[g], f"{how}_reserve")(p, n))])
    elif action == "cleanup":
        allies = [n for n, c in m.cards.items()
                  if c.zone == "battlefield" and c.has("ally") and not c.has("champion")]
        if allies:   # Types of Checks 6 wants damage counters on an ally
            put_first(data, pair, g, data.draw(st.sampled_from(sorted(allies))), "damage", sel)
            m = pair.models[g]
        pair.call(f"cleanup (g{g})", lambda: w.cleanup(games=[g]), [(g, m.cleanup)])
    elif action == "level_up" and names:
        name = pick(lambda c: c.has("champion") and c.level is not None)
        c = m.cards[name]
        level = (c.level if c.level is not None else 0) + data.draw(st.sampled_from([1, 1, 2]))
        life, power = data.draw(st.integers(1, 9)), data.draw(st.sampled_from([None, 0, 2]))
        pair.call(f"level_up {name} {level} life={life} power={power} (g{g})",
                  lambda: w.level_up(ids[name], level, life, power, games=sel),
                  [(g, lambda: m.level_up(c, level, life, power))])
    elif action == "immortal" and names:
        set_immortal(pair, g, pick(), data.draw(st.booleans()), sel)
    elif action == "control" and names:   # (a card in any zone: Ending the Game 5 counts the field's)
        name = pick()
        set_controller(pair, g, name, data.draw(st.integers(0, len(pair.pids) - 1)), sel)
    elif action in ("destroy", "sacrifice") and names:
        chosen = data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=3))
        if data.draw(st.integers(0, 3)) == 0:   # Immortality 1: an immortal one stays
            set_immortal(pair, g, chosen[0], True, sel)
            m = pair.models[g]
        cards = [m.cards[name] for name in chosen]
        # one game alone: an int or a list of ids, the single-game paths; else games=[g]
        alone = pair.w.batch == 1 and data.draw(st.booleans())
        targets = ids[chosen[0]] if alone and len(chosen) == 1 else [ids[n] for n in chosen]
        fn = getattr(w, action)
        pair.call(f"{action} {chosen} (g{g}{', alone' if alone else ''})",
                  lambda: fn(targets) if alone else fn(targets, games=[g]),
                  [(g, lambda: m.destroy(cards, action == "sacrifice"))])
    elif action == "move" and names:
        move_action(data, pair, g, names, ids)
    elif action == "move_counters" and names:
        move_counters_action(data, pair, g, pick, sel)
    elif action == "prohibit" and names:
        prohibit_action(data, pair, g, pick, sel)
    elif action == "begin":
        begin_one(data, pair, g)


def put_first(data, pair: Pair, g: int, name: str, kind: str, sel) -> None:
    """Half the time, a put of 0 to 4 ``kind`` counters on the card an action is about to
    use them on (a put on its own, compared as every call is): Recover 2, Enlighten, Buff
    4, Bulwark 2 and Types of Checks 6 want counters there, which puts spread over every
    card and kind rarely leave."""
    if data.draw(st.booleans()):
        n, c = data.draw(st.integers(0, 4)), pair.models[g].cards[name]
        pair.call(f"put {name} {kind} {n} (g{g})",
                  lambda: pair.w.put_counters(pair.ids(g)[name], kind, n, games=sel),
                  [(g, lambda: pair.models[g].put(c, kind, n))])


def set_immortal(pair: Pair, g: int, name: str, flag: bool, sel) -> None:
    """``set_immortal`` of one card of game ``g`` (Keywords: Immortality), compared."""
    c = pair.models[g].cards[name]

    def model() -> None:
        c.immortal = flag
    pair.call(f"set_immortal {name} {flag} (g{g})",
              lambda: pair.w.set_immortal(pair.ids(g)[name], flag, games=sel), [(g, model)])


def set_reserve(pair: Pair, g: int, p: int, n: int, sel) -> None:
    """``set_reserve`` of player ``p`` of game ``g``, compared."""
    def model() -> None:
        pair.models[g].players[p].reserve = n
    pair.call(f"set_reserve p{p} {n} (g{g})", lambda: pair.w.set_reserve(pair.pids[p], n, games=sel),
              [(g, model)])


def set_controller(pair: Pair, g: int, name: str, p: int, sel) -> None:
    """``set_controller`` of one card of game ``g`` to player ``p``, compared."""
    c = pair.models[g].cards[name]
    pair.call(f"set_controller {name} p{p} (g{g})",
              lambda: pair.w.set_controller(pair.ids(g)[name], pair.pids[p], games=sel),
              [(g, lambda: pair.models[g].set_controller(c, p))])


def damage_several(data, pair: Pair, g: int, pick, sel) -> None:
    """One ``deal_damage`` call naming two or three units of game ``g`` (a unit may be named
    twice: its amounts add up, one instance), one amount for all or one each: several
    units dealt lethal damage at once die in one check (Types of Checks 2), champions of
    different players too (Ending the Game 5, 6)."""
    w, m = pair.w, pair.models[g]
    units = lambda c: any(c.has(t) for t in ref.UNITS)   # noqa: E731
    chosen = [pick(units) for _ in range(data.draw(st.integers(2, 3)))]
    if data.draw(st.booleans()):
        amounts = [data.draw(st.integers(0, 4)) for _ in chosen]
    else:
        amounts = data.draw(st.integers(-1, 5))   # (Damage 15: below 0 is 0)
    combat, unprev = data.draw(st.booleans()), data.draw(st.booleans())
    # no source, one for all, or one per target (510.2; a unit named twice with two is
    # refused, Damage 16); any card of the game, in any zone
    cards = sorted(m.cards)
    how = data.draw(st.sampled_from([None, "one", "each"]))
    src = data.draw(st.sampled_from(cards)) if how == "one" else \
        [data.draw(st.sampled_from(cards)) for _ in chosen] if how == "each" else None
    srcs = src if isinstance(src, list) else [src] * len(chosen)
    ids = pair.ids(g)
    hits = list(zip(chosen, amounts if isinstance(amounts, list) else [amounts] * len(chosen)))
    pair.call(f"damage {chosen} {amounts} source={src} combat={combat} unpreventable={unprev} (g{g})",
              lambda: w.deal_damage([ids[n] for n in chosen], amounts,
                                    src and (ids[src] if how == "one" else [ids[x] for x in src]),
                                    combat=combat, unpreventable=unprev, games=sel),
              [(g, lambda: m.deal_damage_many([(m.cards[n], k) for n, k in hits], combat, unprev,
                                              [x and m.cards[x] for x in srcs]))])


def move_counters_action(data, pair: Pair, g: int, pick, sel) -> None:
    """``move_counters`` from one card of game ``g`` to another (one kind, or every kind:
    ``kind=None``), compared with its count moved. The destination's placement is a put
    (CR 122.5): buff onto debuff cancels as it arrives (Buff 4 / Debuff 4); durability,
    damage or wither moved off or on meets the checks and the main phase."""
    kind = data.draw(st.sampled_from((pair.kinds.get(g) or []) + GA_KINDS + [None, "buff", "debuff"]))
    src = pick(lambda c: True)   # (mostly a card on the field: the move's zone)
    put_first(data, pair, g, src, kind or data.draw(st.sampled_from(GA_KINDS)), sel)
    has = sorted(pair.models[g].cards[src].counters)
    if has and data.draw(st.booleans()):   # a kind it has, most moves
        kind = data.draw(st.sampled_from(has + [None]))
    # now and then a card that can't have counters put on it (no_counters, prohibit): what
    # it can't have stays on src (122.5)
    cant = sorted(x for x, c in pair.models[g].cards.items()
                  if c.zone == "battlefield" and (c.no_counters or c.banned))
    dst = data.draw(st.sampled_from(cant)) if cant and data.draw(st.integers(0, 2)) == 0 else pick(lambda c: True)
    if kind in CANCELS:   # Buff 4 / Debuff 4 as they arrive: the other kind there
        other, k = CANCELS[kind], data.draw(st.integers(1, 3))
        pair.call(f"put {dst} {other} {k} (g{g})",
                  lambda: pair.w.put_counters(pair.ids(g)[dst], other, k, games=sel),
                  [(g, lambda: pair.models[g].put(pair.models[g].cards[dst], other, k))])
    n, by = data.draw(st.sampled_from([None, 1, 2, 3])), putter(data, pair)
    m, ids, got = pair.models[g], pair.ids(g), {}

    def engine() -> None:
        got["engine"] = int(np.sum(pair.w.move_counters(ids[src], ids[dst], kind, n, games=sel,
                                                        by=engine_by(pair, by))))

    def model() -> None:
        got["model"] = m.move_counters(m.cards[src], m.cards[dst], kind, n, by=by)
    pair.call(f"move_counters {src} -> {dst} {kind} {n} by={by} (g{g})", engine, [(g, model)])
    assert got["engine"] == got["model"], f"move_counters moved {got}"


def add_shared(data, pair: Pair, k: int) -> None:
    """A card made by one ``add_object`` in two or more games of the batch (``games=None``:
    all), then played on in each (``shared_action``): its games diverge."""
    batch = pair.w.batch
    games = [g for g in range(batch) if data.draw(st.booleans())]
    games = games if len(games) >= 2 else list(range(batch))
    sel = None if len(games) == batch and data.draw(st.booleans()) else games
    p = data.draw(st.integers(0, len(pair.pids) - 1))
    what = data.draw(st.sampled_from(["ally", "champion", "weapon"]))
    types, stats = {
        "ally": (("ally",), dict(power=data.draw(st.integers(0, 3)), life=data.draw(st.integers(1, 4)))),
        "champion": (("champion",), dict(life=data.draw(st.integers(2, 8)), level=1)),
        "weapon": (("weapon",), dict(power=1, durability=data.draw(st.integers(1, 2)))),
    }[what]
    name = f"shared{k}.{what}{p}"
    step, made = pair.w.step, [len(m.events) for m in pair.models]
    pair.w.add_object(pair.pids[p], types, name=name, games=sel, **stats)
    for g in games:
        pair.models[g].add(name, p, types, **stats)
    pair.compare_made(f"add {name} (games {games})", step, made)
    pair.shared.append(name)


def shared_action(data, pair: Pair) -> bool:
    """An action on a card made in several games (``add_shared``), in the ongoing games where
    its id still is: ``games=`` those (an amount for all or one per game) or, for the
    actions that take it, ``where="present"`` over every ongoing game. Each game acts as its
    model says, and a refusal in any one refuses the whole call (every game checked before
    any changes): costs (118.3, Recover as a cost, enlighten), level ups (Leveling Up 2)
    and zone moves where the games' states differ. False if none is left to act on."""
    name = data.draw(st.sampled_from(pair.shared))
    where: dict[int, list[int]] = {}
    for g, m in enumerate(pair.models):
        if not m.over and name in m.cards:
            where.setdefault(pair.ids(g)[name], []).append(g)
    if not where:
        return False
    e, games = data.draw(st.sampled_from(sorted(where.items())))
    action = data.draw(st.sampled_from(SHARED_ACTIONS))
    per_game = data.draw(st.booleans())

    def amount(lo: int, hi: int):
        return [data.draw(st.integers(lo, hi)) for _ in games] if per_game else data.draw(st.integers(lo, hi))

    def each(fn, amounts=None):
        """One model call per game, looked up when run (a refusal puts the models back)."""
        return [(g, lambda g=g, i=i: fn(pair.models[g], pair.models[g].cards[name],
                                        amounts[i] if isinstance(amounts, list) else amounts))
                for i, g in enumerate(games)]
    # where="present": every ongoing game, acting where the id is (one amount for all)
    present = action in ("put", "remove", "damage", "destroy", "sacrifice") and data.draw(
        st.integers(0, 3)) == 0
    if present:
        per_game = False
    sel = dict(games=None, where="present") if present else dict(games=games)
    label = f"{name} in games {games}{' (present)' if present else ''}:"
    done = shared_call(data, pair, action, name, e, games, sel, per_game, label, amount, each)
    if len(games) > 1:   # (counted for the coverage guard below)
        pair.models[games[0]].reached["one call, several games" + ("" if done else ", refused")] += 1
    return True


def shared_call(data, pair: Pair, action: str, name: str, e: int, games: list[int], sel: dict,
                per_game: bool, label: str, amount, each) -> bool:
    """``shared_action``'s call, compared; False if refused."""
    w = pair.w
    if action == "put":
        kind, n = data.draw(st.sampled_from(SHARED_KINDS)), amount(0, 3)
        return pair.call(f"{label} put {kind} {n}", lambda: w.put_counters(e, kind, n, **sel),
                  each(lambda m, c, k: m.put(c, kind, k), n))
    elif action == "remove":
        kind, n, cost = data.draw(st.sampled_from(SHARED_KINDS)), amount(0, 3), data.draw(st.booleans())
        return pair.call(f"{label} remove {kind} {n} cost={cost}",
                  lambda: w.remove_counters(e, kind, n, cost=cost, **sel),
                  each(lambda m, c, k: m.remove(c, kind, k, cost), n))
    elif action == "damage":
        n, combat, unprev = amount(0, 4), data.draw(st.booleans()), data.draw(st.booleans())
        return pair.call(f"{label} damage {n} combat={combat} unpreventable={unprev}",
                  lambda: w.deal_damage(e, n, combat=combat, unpreventable=unprev, **sel),
                  each(lambda m, c, k: m.deal_damage(c, k, combat, unprev), n))
    elif action == "recover":
        n, cost = amount(0, 3), data.draw(st.booleans())
        return pair.call(f"{label} recover {n} cost={cost}", lambda: w.recover(e, n, games=games, cost=cost),
                  each(lambda m, c, k: m.recover(c, k, cost), n))
    elif action == "enlighten":
        return pair.call(f"{label} enlighten", lambda: w.activate_enlighten(e, games=games),
                  each(lambda m, c, k: m.enlighten(c)))
    elif action == "level_up":
        # the next level in each game (its own, the games may differ), now and then one
        # game's off by one: every game refuses (Leveling Up 2)
        levels = [(pair.models[g].cards[name].level or 0) + 1 for g in games]
        if data.draw(st.integers(0, 3)) == 0:
            levels[data.draw(st.integers(0, len(games) - 1))] += 1
        lvl = levels if per_game or len(set(levels)) > 1 else levels[0]
        life = amount(1, 9)
        return pair.call(f"{label} level_up {lvl} life={life}", lambda: w.level_up(e, lvl, life, games=games),
                  [(g, lambda g=g, i=i: pair.models[g].level_up(
                      pair.models[g].cards[name], levels[i], life[i] if isinstance(life, list) else life, None))
                   for i, g in enumerate(games)])
    elif action in ("destroy", "sacrifice"):
        fn = getattr(w, action)
        return pair.call(f"{label} {action}", lambda: fn(e, **sel),
                  each(lambda m, c, k: m.destroy([c], action == "sacrifice")))
    elif action == "move":
        zone = data.draw(st.sampled_from(MOVE_ZONES))
        return pair.call(f"{label} move_zone {zone!r}", lambda: w.move_zone(e, zone, games=games),
                  each(lambda m, c, k: m.move_zone([c], zone)))
    elif action == "immortal":
        flag = data.draw(st.booleans())
        return pair.call(f"{label} set_immortal {flag}", lambda: w.set_immortal(e, flag, games=games),
                  each(lambda m, c, k: setattr(c, "immortal", flag)))
    else:   # control
        p = data.draw(st.integers(0, len(pair.pids) - 1))
        return pair.call(f"{label} set_controller p{p}", lambda: w.set_controller(e, pair.pids[p], games=games),
                  each(lambda m, c, k: m.set_controller(c, p)))


def move_action(data, pair: Pair, g: int, names: list[str], ids: dict[str, int]) -> None:
    """World.move_zone of one to three cards of game ``g`` (one id or a list) to a zone, by
    its GA name: ``games=[g]``, or in a batch of one game sometimes without (the
    single-game paths). Sometimes a card already there, or one named twice: both refuse
    the call. The reference model (Game.move) gives what the rules say of a zone change."""
    w, m = pair.w, pair.models[g]
    zone = data.draw(st.sampled_from(MOVE_ZONES))
    chosen = data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=3))
    banished = sorted(n for n, c in m.cards.items() if c.zone == "exile" and c.has("champion"))
    if banished and data.draw(st.integers(0, 3)) == 0:
        # Champion 8 in banishment: one there already, banished instead where it is
        zone, first = "graveyard", data.draw(st.sampled_from(banished))
        chosen = [first] + [n for n in chosen[1:] if n != first]
    counters = by = None
    if data.draw(st.booleans()) if zone == "field" else data.draw(st.integers(0, 3)) == 0:
        # entering the field with counters (Durability 1's added to; buff and debuff placed
        # kind by kind in the order given, Buff 4 / Debuff 4), in the move's event step,
        # a card off the field where there is one; elsewhere they are a put (none on a
        # champion banished instead of going to the graveyard, Champion 8)
        counters = {data.draw(st.sampled_from(["buff", "debuff", "durability", "wither", "damage"])):
                    data.draw(st.integers(1, 3)) for _ in range(data.draw(st.integers(1, 2)))}
        by = putter(data, pair)
        off = sorted(n for n, c in m.cards.items() if c.zone != "battlefield")
        chosen = [data.draw(st.sampled_from(off))] if off and zone == "field" else chosen
    cards = [m.cards[n] for n in chosen]
    alone = w.batch == 1 and data.draw(st.booleans())
    one = len(chosen) == 1 and data.draw(st.booleans())
    targets = ids[chosen[0]] if one else [ids[n] for n in chosen]

    eby = engine_by(pair, by)
    pair.call(f"move_zone {chosen[0] if one else chosen} {zone!r} counters={counters} by={by} "
              f"(g{g}{', alone' if alone else ''})",
              lambda: (w.move_zone(targets, zone, counters=counters, by=eby) if alone
                       else w.move_zone(targets, zone, games=[g], counters=counters, by=eby)),
              [(g, lambda: m.move_zone(cards, zone, counters, by))])


def prohibit_action(data, pair: Pair, g: int, pick, sel) -> None:
    """``prohibit`` on a card of game ``g``, or ``allow`` (mostly on a card with a
    prohibition, where there is one), of one kind (mostly one the game's puts favour) or
    of every kind (None), compared with what ``is_prohibited`` reads of it; then, half the
    time, a put of that kind there (a call of its own): it puts none where it is
    prohibited (docs/api.md, Prohibitions; a put of every kind outlasts allowing one), and
    a zone change ends them (a new object)."""
    m = pair.models[g]
    banned = sorted(n for n, c in m.cards.items() if c.banned)
    what = "allow" if banned and data.draw(st.booleans()) else "prohibit"
    name = data.draw(st.sampled_from(banned)) if what == "allow" else pick()
    c = m.cards[name]
    kinds = sorted(c.banned - {"*"}) + pair.kinds.get(g, []) + GA_KINDS
    kind = None if data.draw(st.integers(0, 3)) == 0 else data.draw(st.sampled_from(kinds))
    pair.call(f"{what} {name} {kind} (g{g})",
              lambda: getattr(pair.w, what)(pair.ids(g)[name], kind, games=sel),
              [(g, lambda: getattr(m, what)(c, kind))])
    e = pair.ids(g)[name]
    for k in (kind, None, "wither"):
        assert bool(at(pair.w.is_prohibited(e, k), g)) == m.is_prohibited(c, k), \
            f"is_prohibited({name}, {k!r}) (g{g}) under {sorted(c.banned)}"
    if data.draw(st.booleans()):
        k, n = kind or data.draw(st.sampled_from(kinds)), data.draw(st.integers(1, 3))
        pair.call(f"put {name} {k} {n} (g{g})",
                  lambda: pair.w.put_counters(e, k, n, games=sel), [(g, lambda: m.put(c, k, n))])


def player_action(data, pair: Pair, g: int) -> None:
    w, m = pair.w, pair.models[g]
    p = data.draw(st.integers(0, len(pair.pids) - 1))
    pid, pl = pair.pids[p], m.players[p]
    action = data.draw(st.sampled_from(["rad", "rad", "unrad", "life", "draw", "mill", "order", "begin",
                                        "prohibit"]))
    n = data.draw(st.integers(0, 4))
    if action == "rad":
        by = putter(data, pair)
        pair.call(f"put rad p{p} {n} by={by} (g{g})",
                  lambda: w.put_counters(pid, "rad", n, games=[g], by=engine_by(pair, by)),
                  [(g, lambda: m.put(pl, "rad", n, by=by))])
    elif action == "prohibit":   # "you can't get rad counters" (docs/api.md, Prohibitions)
        what = data.draw(st.sampled_from(["prohibit", "prohibit", "allow"]))
        kind = data.draw(st.sampled_from(["rad", "rad", None]))
        pair.call(f"{what} p{p} {kind} (g{g})", lambda: getattr(w, what)(pid, kind, games=[g]),
                  [(g, lambda: getattr(m, what)(pl, kind))])
        for k in (kind, None):
            assert bool(at(w.is_prohibited(pid, k), g)) == m.is_prohibited(pl, k), f"is_prohibited(p{p}, {k!r})"
    elif action == "unrad":
        cost = data.draw(st.integers(0, 2)) == 0   # (118.3: all n or none)
        pair.call(f"remove rad p{p} {n} cost={cost} (g{g})",
                  lambda: w.remove_counters(pid, "rad", n, games=[g], cost=cost),
                  [(g, lambda: m.remove(pl, "rad", n, cost))])
    elif action == "life":
        n = data.draw(st.integers(0, 25))

        def model():
            pl.life -= n
        pair.call(f"lose_life p{p} {n} (g{g})", lambda: w.lose_life(pid, n, games=[g]), [(g, model)])
    elif action in ("draw", "mill"):
        n = min(n, 2) if action == "draw" else n
        token_to_deck(data, pair, g, p, 7)   # (the Magic games draw often: fewer, to keep their time)
        # a World of one game: sometimes no games=, as a user would call it (one card: the
        # one-game path, turns._one_card, which takes the top card by library.top_card)
        alone = w.batch == 1 and data.draw(st.booleans())
        fn, model = getattr(w, action), getattr(m, action)
        pair.call(f"{action} p{p} {n} (g{g}{', alone' if alone else ''})",
                  lambda: fn(pid, n) if alone else fn(pid, n, games=[g]), [(g, lambda: model(p, n))])
    elif action == "order" and pl.library:
        perm = data.draw(st.permutations(pl.library))
        ids = pair.ids(g)

        def model():
            pl.library[:] = list(perm)
        pair.call(f"order_library p{p} {perm} (g{g})",
                  lambda: w.order_library(pid, [ids[x] for x in perm], games=[g]), [(g, model)])
    elif action == "begin":
        begin_one(data, pair, g)


def begin_one(data, pair: Pair, g: int) -> None:
    """begin_main_phase in one game: its pre- and post-ticks check that game only."""
    w = pair.w
    p = data.draw(st.sampled_from([None] + list(range(len(pair.pids)))))
    phase = data.draw(st.sampled_from(PHASE_VALUES))
    ga = pair.ruleset == "grand_archive"
    pay = data.draw(st.sampled_from(["most", "most", "nothing", "nothing", "every"])) if ga else "most"
    if ga and p is not None and phase in (True, "precombat"):
        wither_first(data, pair, g, p)
    pid = None if p is None else pair.pids[p]
    fns = [(g, lambda: pair.models[g].begin_main_phase(p, phase, pay))]
    pair.call(f"begin_main_phase({p}, {phase!r}, pay={pay}) (g{g})",
              lambda: w.begin_main_phase(pid, phase, POLICIES[pay], games=[g]), fns)


def wither_first(data, pair: Pair, g: int, p: int) -> None:
    """Half the time, before player ``p``'s precombat main phase begins in game ``g``: 1 to 3
    wither counters on a card of theirs on the field, then that card made immortal, or
    their reserve set to 0 to 4, or neither (each a call of its own, compared): Wither 3
    (paid), 4 (sacrificed) and Immortality 1.2 want wither counters there at that time,
    which puts spread over every card and kind rarely leave."""
    m = pair.models[g]
    mine = sorted(n for n, c in m.cards.items() if c.zone == "battlefield" and c.ctrl == p)
    if not mine or m.over or not data.draw(st.booleans()):
        return
    for _ in range(data.draw(st.sampled_from([1, 1, 2, 3]))):
        name, n = data.draw(st.sampled_from(mine)), data.draw(st.integers(1, 3))
        pair.call(f"put {name} wither {n} (g{g})",
                  lambda name=name, n=n: pair.w.put_counters(pair.ids(g)[name], "wither", n, games=[g]),
                  [(g, lambda name=name, n=n: pair.models[g].put(pair.models[g].cards[name], "wither", n))])
    then = data.draw(st.sampled_from(["immortal", "reserve", "reserve", None]))
    if then == "immortal":
        set_immortal(pair, g, name, True, [g])
    elif then == "reserve":
        set_reserve(pair, g, p, data.draw(st.integers(0, 4)), [g])


def global_action(data, pair: Pair) -> None:
    what = data.draw(st.sampled_from(["tick", "begin", "tick", "begin", "draw", "mill"]))
    if what == "tick":
        pair.call("tick()", pair.w.tick, [(g, m.tick) for g, m in enumerate(pair.models)])
    elif what in ("draw", "mill"):
        # no games=: every ongoing game (in a World of one game, one card takes the
        # one-game path), as a user would call it
        p, n = data.draw(st.integers(0, len(pair.pids) - 1)), data.draw(st.sampled_from([1, 1, 2]))
        for g in range(pair.w.batch):
            token_to_deck(data, pair, g, p)
        fns = [(g, (lambda m=m: getattr(m, what)(p, n) if not m.over else None))
               for g, m in enumerate(pair.models)]
        pair.call(f"{what}(p{p}, {n}) (all games)", lambda: getattr(pair.w, what)(pair.pids[p], n), fns)
    else:
        pre = data.draw(st.booleans())
        fns = [(g, (lambda m=m: m.begin_main_phase(None, pre) if not m.over else None))
               for g, m in enumerate(pair.models)]
        pair.call(f"begin_main_phase(precombat={pre}) (all games)",
                  lambda: pair.w.begin_main_phase(precombat=pre), fns)


def token_to_deck(data, pair: Pair, g: int, p: int, odds: int = 3) -> None:
    """One time in ``odds``, before a draw or mill, a token of player ``p``'s made on the field of
    game ``g`` and moved into their library (deck), then mostly put on top or among the top
    cards (each a call of its own, compared): until the next check removes it (704.5d) it
    stays there, and a draw stops at it, a mill leaves it in its place (111.8; the docs
    treat a Grand Archive token in a deck the same way)."""
    m = pair.models[g]
    if m.over or data.draw(st.integers(0, odds - 1)):
        return
    name = f"g{g}.token{pair.tokens}"
    pair.tokens += 1
    ga = pair.ruleset == "grand_archive"
    pair.add(g, name, p, ("ally",) if ga else ("land",), token=True,
             **(dict(power=1, life=1) if ga else {}))
    c = pair.models[g].cards[name]
    pair.call(f"move_zone {name} 'library' (g{g})", lambda: pair.w.move_zone(pair.ids(g)[name], "library", games=[g]),
              [(g, lambda: pair.models[g].move_zone([c], "library"))])
    lib = pair.models[g].players[p].library
    if len(lib) > 1 and data.draw(st.integers(0, 3)):
        k = data.draw(st.integers(0, min(2, len(lib) - 1)))
        order = lib[:k] + lib[-1:] + lib[k:-1]
        ids = pair.ids(g)

        def model() -> None:
            pair.models[g].players[p].library[:] = order
        pair.call(f"order_library p{p} {order} (g{g})",
                  lambda: pair.w.order_library(pair.pids[p], [ids[x] for x in order], games=[g]), [(g, model)])


def hand_over(data, pair: Pair, g: int) -> None:
    """Each player of game ``g``, half the time, takes control of another's card on the
    field, not a champion (no loss at once; a call of its own, compared): Ending the Game
    8 wants the first of three players to lose to control another's card, which control
    actions rarely leave."""
    for p in range(len(pair.pids)):
        m = pair.models[g]
        theirs = sorted(n for n, c in m.cards.items()
                        if c.zone == "battlefield" and c.ctrl != p and not c.has("champion"))
        if theirs and data.draw(st.booleans()):
            set_controller(pair, g, data.draw(st.sampled_from(theirs)), p, [g])


def play(data, ruleset: str) -> Pair:
    batch = data.draw(st.integers(1, 3), label="batch")
    n_players = data.draw(st.integers(2, 3), label="players")
    pair = Pair(ruleset, batch, n_players)
    for g in range(batch):
        (build_ga if ruleset == "grand_archive" else build_mtg)(data, pair, g)
        # the focus: a champion on the field where there is one, most of the time (the
        # card the most rules act on: damage counters, recover, levels, wither)
        cards = pair.models[g].cards
        champs = sorted(n for n, c in cards.items() if c.has("champion") and c.zone == "battlefield")
        if cards:
            focus = pair.focus[g] = data.draw(st.sampled_from(
                champs if champs and data.draw(st.integers(0, 3)) else sorted(cards)))
            if ruleset == "grand_archive" and data.draw(st.integers(0, 3)) == 0:
                # Immortality 1 against lethal damage, and wither (1.2)
                set_immortal(pair, g, focus, True, [g])
        if ruleset == "grand_archive" and n_players > 2:
            hand_over(data, pair, g)
        pair.kinds[g] = list(data.draw(st.sampled_from(PALETTES)))
    if ruleset == "grand_archive" and batch > 1:
        for k in range(data.draw(st.integers(0, 2))):
            add_shared(data, pair, k)
    pair.compare("setup")
    for _ in range(data.draw(st.integers(1, 25), label="rounds")):
        if not pair.w.ongoing.any():
            break
        way = data.draw(st.integers(0, 3))
        if way == 0:
            global_action(data, pair)
            continue
        if way == 1 and pair.shared and shared_action(data, pair):   # (a round of its own)
            continue
        for g in range(batch):
            for _ in range(data.draw(st.integers(1, 3))):
                if not pair.models[g].over:
                    (card_action if ruleset == "grand_archive" else player_action)(data, pair, g)
    if pair.w.ongoing.any():
        pair.call("final tick()", pair.w.tick, [(g, m.tick) for g, m in enumerate(pair.models)])
    return pair


#: examples of each property test under the "ci" profile; the coverage test below plays
#: COVERAGE_EXAMPLES more of each, compared the same way, from a seeded ``random.Random``
examples = settings(max_examples=profile_examples(40))


@examples
@given(st.data())
def test_grand_archive_games_match_reference(data):
    """Passes visit one game per chunk here (ecs.systems.base.game_chunks), so the chunk loop
    and the re-checks that index only the games a perform changed run as on big batches."""
    with mock.patch.object(ecs.systems.base, "CHUNK_ELEMENTS", 1):
        play(data, "grand_archive")


@examples
@given(st.data())
def test_rad_games_match_reference(data):
    play(data, "mtg")


# ---------------------------------------------------------------------------------------
# Coverage: the rules the docstrings above name are reached (counted by the model,
# reference_ga.Game.reached) on a seeded run of the same strategy (tests/reach.py). Each
# minimum is about a third of the least that five seeds reached, and a rule one of them
# reached less than three times is left out (its hand-written tests carry it).
#: rule -> how often the seeded run of the Grand Archive games must reach it ("one call,
#: several games" counts shared_action's calls on a card in several games, accepted or
#: refused, which the harness adds to a game's model: no rule, a path). The rarer
#: situations are set up before the action that tests them (put_first, wither_first,
#: hand_over, an immortal card destroyed, a banished champion sent to the graveyard), so
#: that each is reached in every seed's run: Bulwark 2 on damage it prevents, Immortality
#: against destroy and wither, Wither 3 paid, Champion 8 from banishment, Ending the Game 8.
GA_RULES = {
    "Durability 1": 58, "Durability 0": 16, "Champion 8": 13, "Champion 8 in banishment": 1,
    "Damage 1": 19, "Damage 12": 5, "Buff 4 / Debuff 4": 9, "Bulwark 2": 2,
    "Bulwark 2 unpreventable": 2, "Recover 2": 3, "Enlighten": 1, "Leveling Up 2": 16,
    "Sacrifice 2": 6, "Immortality 1 destroy": 6, "Immortality 1 lethal damage": 6,
    "Immortality 1.2 wither": 4, "Types of Checks lethal damage": 10, "Types of Checks 6": 9,
    "Ending the Game 5 empty draw": 7, "Ending the Game 5 no champion": 26,
    "Ending the Game 7": 51, "Ending the Game 8": 4, "Ending the Game 9": 1,
    "Wither 3 paid": 2, "Wither 4 sacrificed": 8, "122.5 move": 5,
    "deal_damage, several units at once": 8, "Types of Checks lethal damage, several at once": 1,
    "one call, several games": 13, "one call, several games, refused": 7,
    "add_objects, several at once": 45, "damage from a source": 24,
    "101.3 no_counters": 27, "101.3 prohibited": 10, "101.3 prohibited, every kind": 5, "allow": 1,
    "put by another player": 39, "122.5 move, none where dst can't have them": 1,
    "111.8 a draw finds a token on top": 5, "111.8 a token milled stays": 2, "704.5d": 15,
}
#: the same for the Magic games with rad counters
RAD_RULES = {"728.1 rad": 17, "728.1 rad, a nonland milled": 7, "704.5a": 25, "704.5b": 25,
             "101.3 prohibited": 12, "101.3 prohibited, every kind": 3, "allow": 2,
             "allow, every kind": 1, "put by another player": 15,
             "111.8 a draw finds a token on top": 14, "111.8 a token milled stays": 16, "704.5d": 31}
COVERAGE_EXAMPLES = 80


def _reached(ruleset):
    """The models' rule counts summed over a seeded run of the property tests' games
    (tests/reach.py), each compared with the engine's as in the tests."""
    total = collections.Counter()
    for data in reach.games(sys.modules[__name__], COVERAGE_EXAMPLES):
        for m in play(data, ruleset).models:
            total.update(m.reached)
    return total


@pytest.mark.parametrize("ruleset, wanted", [("grand_archive", GA_RULES), ("mtg", RAD_RULES)])
def test_the_rules_named_are_reached(ruleset, wanted):
    """Each rule the property tests name is applied at least a few times on a seeded run
    of their strategy (tests/reach.py)."""
    reach.assert_reached(_reached(ruleset), wanted)


def champion_in_banishment():
    """A game where alice's spent champion card is in banishment with 2 omen counters
    (Counters: Omen 1, counters on a card in banishment) and declared immortal."""
    w = World(ruleset="grand_archive", seed=0)
    alice, bob = w.add_player(), w.add_player()
    for p in (alice, bob):
        w.add_object(p, "champion", life=5, level=1)
    spent = w.add_object(alice, "champion", life=5, level=1, zone="banishment", name="spent")
    w.put_counters(spent, "omen", 2)
    w.set_immortal(spent)
    return w, spent


def test_model_champion_banished_from_banishment_keeps_its_counters():
    """GA Champion 8: "If a Champion card would be put into a graveyard from anywhere, it
    is instead banished." From banishment it stays there, changing no zone, so it keeps
    its counters (Counters, General 5: "Counters persist on an object or card in a zone as
    long as it does not change zones")."""
    m = ref.Game("grand_archive", 2)
    m.add("champ0", 0, ("champion",), life=5, level=1)
    m.add("champ1", 1, ("champion",), life=5, level=1)
    spent = m.add("spent", 0, ("champion",), zone="exile", life=5, level=1)
    m.put(spent, "omen", 2)
    spent.immortal = True
    m.move_zone([spent], "graveyard")
    assert (spent.zone, spent.counters, spent.immortal) == ("exile", {"omen": 2}, True)
    with pytest.raises(ref.ModelError):
        m.move_zone([spent], "banishment")   # already there: refused, as by the engine


def test_champion_8_a_champion_sent_from_banishment_to_the_graveyard_stays_as_it_is():
    """The engine on the case above: banished instead, where it is, the card changes no
    zone: the same object, its counters and Immortality kept; no new object (-1)."""
    w, spent = champion_in_banishment()
    assert w.move_zone(spent, "graveyard") == -1
    assert w.zone(spent) == "exile" and w.counters(spent) == {"omen": 2}
    assert bool(w.store.a["immortal"][0, w.store.ids.one(spent)])


def test_ending_the_game_9_a_champion_leaving_with_its_owner_is_a_loss_for_its_controller():
    """Ending the Game 7, 9 with 5: A loses (an empty draw); their champion a2, which C
    controls and C's only one, leaves the game with A, and that counts as "having left the
    field of play" (9), so C "previously controlled a champion" and controls none: C loses
    at the next pass, B wins. The engine and the reference model alike."""
    w = World(ruleset="grand_archive", seed=1)
    a, b, c = (w.add_player() for _ in range(3))
    w.add_object(a, "champion", life=5, level=1)
    a2 = w.add_object(a, "champion", life=5, level=1)
    w.add_object(b, "champion", life=5, level=1)
    w.set_controller(a2, c)
    w.draw(a, 1)
    w.tick()
    assert [bool(w.has_lost(p)) for p in (a, b, c)] == [True, False, True] and w.result() == b
    m = ref.Game("grand_archive", 3)
    m.add("a1", 0, ("champion",), life=5, level=1)
    m.add("a2", 0, ("champion",), life=5, level=1)
    m.add("b1", 1, ("champion",), life=5, level=1)
    m.set_controller(m.cards["a2"], 2)
    m.draw(0, 1)
    m.tick()
    assert [p.lost for p in m.players] == [True, False, True] and m.result == 1


def test_who_puts_counters_in_grand_archive_and_what_no_counters_stops():
    """The ``by`` of each counter change, engine and model alike: the player a put names;
    entering counters their ``put_by``, but durability counters the controller's (Durability
    1 names no player: the card's own, as printed loyalty is); damage counters no player's,
    from a source too (Damage 1: "placed whenever a champion is dealt any type of damage");
    the Buff 4 cancelling none. A weapon made with ``no_counters`` enters with no durability
    counters and is destroyed (Types of Checks 3); a champion moved to the graveyard with
    counters is banished instead and gets none (Champion 8)."""
    w = World(ruleset="grand_archive", seed=0)
    a, b = w.add_player(), w.add_player()
    champ = w.add_object(a, "champion", life=9, level=1, name="champ")
    w.add_object(b, "champion", life=9, level=1)
    sword = w.add_object(a, "weapon", power=1, durability=2, counters={"buff": 1}, put_by=b, name="sword")
    step = w.step
    w.put_counters(sword, "debuff", 2, by=b)
    w.deal_damage(champ, 2, sword)
    bare = w.add_object(a, "weapon", power=1, durability=2, no_counters=True, name="bare")
    spare = w.add_object(a, "champion", life=9, level=1, zone="hand", name="spare")
    w.move_zone(spare, "graveyard", counters={"omen": 1}, by=b)
    w.tick()
    rows = [(w.name(e.entity), e.kind, e.before, e.after, e.cause, e.by)
            for e in w.events() if isinstance(e, CounterChanged)]
    first = [r for r in rows if r[0] == "sword"][:2]
    assert first == [("sword", "durability", 0, 2, "enter", a), ("sword", "buff", 0, 1, "enter", b)]
    assert [(w.name(e.entity), e.kind, e.before, e.after, e.cause, e.by)
            for e in w.events_since(step) if isinstance(e, CounterChanged)] == [
        ("sword", "debuff", 0, 2, "put", b), ("sword", "debuff", 2, 1, "ga.placement", None),
        ("sword", "buff", 1, 0, "ga.placement", None), ("champ", "damage", 0, 2, "damage", None)]
    assert not w.exists(bare) and [w.zone(e) for e in w.objects() if w.name(e) in ("bare", "spare")] == [
        "graveyard", "exile"]

    m = ref.Game("grand_archive", 2)
    mc = m.add("champ", 0, ("champion",), life=9, level=1)
    m.add("other", 1, ("champion",), life=9, level=1)
    ms = m.add("sword", 0, ("weapon",), power=1, durability=2)
    m.put(ms, "buff", 1, cause="enter", by=1)
    m.put(ms, "debuff", 2, by=1)
    m.deal_damage(mc, 2, False, False, ms)
    mb = m.add("bare", 0, ("weapon",), power=1, durability=2, no_counters=True)
    mp = m.add("spare", 0, ("champion",), zone="hand", life=9, level=1)
    m.move_zone([mp], "graveyard", {"omen": 1}, 1)
    m.tick()
    assert [r[1:] for r in m.events if r[0] == "counter"] == [
        ("sword", "durability", 0, 2, "enter", 0), ("sword", "buff", 0, 1, "enter", 1),
        ("sword", "debuff", 0, 2, "put", 1), ("sword", "debuff", 2, 1, "ga.placement", None),
        ("sword", "buff", 1, 0, "ga.placement", None), ("champ", "damage", 0, 2, "damage", None)]
    assert (mb.zone, mp.zone, mp.counters) == ("graveyard", "exile", {})
