"""The World: a batch of games sharing one entity layout, and every action and read.

Every counter change goes through ``_put``/``_change`` (validation, replacement effects,
one event row per change), every zone change through ``systems.zone_change.move_objects``.
Actions validate everything before they write anything, so a bad input changes nothing.
"""
from __future__ import annotations

import itertools
import numbers
import weakref
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator, Mapping

import esper
import numpy as np

from ecs.components import TYPE_BIT, type_mask
from ecs.components.card import NO_STAT
from ecs.systems.base import Pending
from ecs.systems.zone_change import move_objects

from . import stats, zones
from .errors import (CountOverflowError, IllegalActionError, InvalidCountError, InvalidGameError,
                     InvalidTypeError, SBALoopError, StaleEntityError, UnknownEntityError)
from .events import COUNTER, Event, EventLog
from .kinds import KEYWORD_BIT, KEYWORDS, keyword_of, validate_kind
from .grand_archive import GrandArchiveActions
from .rulesets import Ruleset, get_ruleset
from .search import SearchActions
from .selection import MAX_COUNT, as_amounts, as_ids, select_games
from .perform import DRAW, ONGOING, perform
from .store import Store, add_clamped
from .turns import TurnActions

_world_names = itertools.count()


def _drop_esper_world(name: str) -> None:
    if esper.current_world == name:
        esper.switch_world("default")
    esper.delete_world(name)


class World(TurnActions, GrandArchiveActions, SearchActions):
    """One game (``batch=1``) or ``batch`` games that share an entity layout."""

    # Declared here, not only in __init__: the mixins, ecs.stats and the systems import
    # this module in a cycle, and mypy can't infer attribute types across it.
    ruleset: Ruleset
    two_headed_giant: bool
    max_passes: int
    seed: Any
    n_spawned: int
    store: Store
    log: EventLog
    names: list[str]
    _rng: np.random.Generator | None
    _rng_state: Mapping[str, Any] | None
    _seed_seq: np.random.SeedSequence | None
    _seed_key: tuple[Any, tuple[int, ...], int]
    _esper_name: str | None
    _systems: list[Any] | None

    def __init__(self, ruleset: str = "mtg", batch: int = 1, seed: Any = None, *,
                 two_headed_giant: bool = False, max_passes: int = 1000) -> None:
        if isinstance(batch, bool) or not isinstance(batch, numbers.Integral) or batch < 1:
            raise InvalidGameError(f"batch must be a positive integer, got {batch!r}")
        self.ruleset = get_ruleset(ruleset)
        self.two_headed_giant = bool(two_headed_giant)
        self.max_passes = int(max_passes)
        self.seed = seed
        # The root of all randomness (issue 4): forks and shards get children of it,
        # numbered by ``n_spawned`` (part of the snapshot, so restore replays them).
        self._set_seed_seq(seed if isinstance(seed, np.random.SeedSequence)
                           else np.random.SeedSequence(seed))
        self.n_spawned = 0
        self._rng = None          # built on first use
        self._rng_state = None    # its state until then; None: fresh
        self.store = Store(int(batch))
        self.log = EventLog()
        self.names = []
        self._esper_name = None
        self._systems = None
        self._set_up_esper()

    # ---- lazily built parts ----------------------------------------------------------
    # A clone builds its SeedSequence (~4 us), Generator (~10 us) and esper context with
    # its systems (~15 us) on first use: together ten times the copy of a 1,000-object game.
    # Until a World's generator is built its state is a dict (or None: fresh from seed_seq),
    # which clones share: reading a built generator's state costs ~0.7 us, most of a clone.
    def _set_seed_seq(self, ss: np.random.SeedSequence) -> None:
        self._seed_seq = ss
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
        """The generator's state without building the generator (the dict is never mutated)."""
        if self._rng is not None:
            return self._rng.bit_generator.state
        if self._rng_state is None:   # fresh: the state a generator from seed_seq starts in
            self._rng_state = np.random.default_rng(self.seed_seq).bit_generator.state
        return self._rng_state

    def _set_up_esper(self) -> None:
        """This World's own esper context (esper is module-global) and its systems."""
        self._esper_name = f"tcg-counters-{next(_world_names)}"
        self._systems = [cls() for cls in self.ruleset.systems]
        with self._esper():
            for priority, system in zip(range(len(self._systems), 0, -1), self._systems):
                esper.add_processor(system, priority=priority)
        weakref.finalize(self, _drop_esper_world, self._esper_name)

    @property
    def systems(self) -> list[Any]:
        if self._systems is None:
            self._set_up_esper()
        return self._systems  # type: ignore[return-value]

    @contextmanager
    def _esper(self) -> Iterator[None]:
        """esper is module-global: switch to this World's context, then back."""
        if self._systems is None:
            self._set_up_esper()
        previous = esper.current_world
        esper.switch_world(self._esper_name)  # type: ignore[arg-type]  # set by _set_up_esper
        try:
            yield
        finally:
            esper.switch_world(previous)

    # ---- basic properties ------------------------------------------------------------
    @property
    def batch(self) -> int:
        return self.store.batch

    @property
    def ongoing(self) -> np.ndarray:
        """(B,) bool: games that have not ended."""
        return self.store.a["winner"] == ONGOING

    def _out(self, values: np.ndarray) -> Any:
        """Plain Python value for a single game, the per-game array for a batch."""
        return values[0].item() if self.batch == 1 else values

    # ---- creating players and objects ------------------------------------------------
    def add_player(self, life: int | None = None, team: int | None = None) -> int:
        """A new player, present in every game. In Two-Headed Giant (810) ``team`` is
        required and the player's starting life (15 by default) adds to the team's."""
        s = self.store
        if life is None:
            life = 15 if self.two_headed_giant else 20
        if isinstance(life, bool) or not isinstance(life, numbers.Integral):
            raise InvalidCountError(f"player life must be an integer, got {life!r}")
        if self.two_headed_giant and team is None:
            raise IllegalActionError("a Two-Headed Giant player needs a team (CR 810.1)")
        index = s.n_players
        team_key = int(team) if team is not None else -1 - index
        teams = s.a["player_team"]
        mates = np.flatnonzero(teams == team_key)
        head = int(mates[0]) if (mates.size and self.two_headed_giant) else index
        cols, ids = s.alloc(1)
        s.mut("types")[cols] = TYPE_BIT["player"]
        s.mut("controller")[cols] = index
        s.mut("zone")[:, cols] = zones.PLAYER
        s.add_player_arrays(int(cols[0]), team_key, head, 0 if head != index else int(life))
        if head != index:
            s.mut("life")[:, head] += int(life)
        return int(ids[0])

    def add_object(self, controller: int, types: Iterable[str] | str = (), **kwargs: Any) -> int:
        """One new object; see ``add_objects`` for the arguments."""
        return int(self.add_objects(1, controller, types, **kwargs)[0])

    def add_objects(self, n: int, controller: int, types: Iterable[str] | str = (), *,
                    zone: str = "battlefield", power: int | None = None,
                    toughness: int | None = None, loyalty: int | None = None,
                    defense: int | None = None, life: int | None = None,
                    durability: int | None = None, level: int | None = None,
                    keywords: Iterable[str] = (), token: bool = False, name: str | None = None,
                    counters: Mapping[str, Any] | None = None,
                    caps: Mapping[str, Any] | None = None, no_counters: bool = False,
                    put_by: int | None = None, games: Any = None) -> np.ndarray:
        """``n`` identical new objects in the selected games (absent from the others).

        Objects entering the battlefield get their printed loyalty/defense counters and
        ``counters`` as they enter: that is putting counters (122.6), done by the
        controller unless ``put_by`` names another player (122.6a). ``counters`` and
        ``caps`` map kinds to amounts broadcast against (selected games, n); a negative cap
        means none. GA ``life`` is an alias of ``toughness``."""
        s = self.store
        if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 0:
            raise InvalidCountError(f"number of objects must be a non-negative integer, got {n!r}")
        n = int(n)
        owner = self._player_index(controller)
        by = self._player_index(put_by) if put_by is not None else owner
        mask = type_mask(types)
        self.ruleset.check_types(mask)
        code = zones.zone_code(zone, self.ruleset.zone_aliases)
        if life is not None:
            if toughness is not None:
                raise InvalidTypeError("give toughness or life, not both")
            toughness = life
        statvals = {}
        for stat, v in (("power", power), ("toughness", toughness), ("loyalty", loyalty),
                        ("defense", defense), ("durability", durability), ("level", level)):
            if v is None:
                continue
            if isinstance(v, bool) or not isinstance(v, numbers.Integral) or not -2**30 <= v <= 2**30:
                raise InvalidCountError(f"{stat} must be an integer of at most 2**30 in size, got {v!r}")
            if stat in ("loyalty", "defense", "durability") and v < 0:
                raise InvalidCountError(f"{stat} can't be negative, got {v}")
            statvals[stat] = int(v)
        kw = 0
        for k in ([keywords] if isinstance(keywords, str) else keywords):
            if k not in KEYWORD_BIT:
                raise InvalidTypeError(f"unknown keyword {k!r}; expected one of {list(KEYWORDS)}")
            kw |= KEYWORD_BIT[k]
        gsel = select_games(games, self.ongoing)
        # One object (add_object): a 1-D array is one amount per selected game, as for a
        # single id everywhere else (README "Ids, amounts and games broadcast together").
        start = {kind: as_amounts(v, (gsel.size, n), n == 1, f"counters[{kind!r}]")
                 for kind, v in (counters or {}).items() if self._kind(kind)}
        capvals = {}
        for kind, v in (caps or {}).items():
            self._kind(kind)
            arr = np.asarray(v)
            if arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer):
                raise InvalidCountError(f"cap of {kind!r} must be an integer, got {v!r}")
            if n == 1 and arr.ndim == 1:
                arr = arr[:, None]
            try:
                capvals[kind] = np.broadcast_to(np.where(arr < 0, -1, arr).astype(np.int64), (gsel.size, n))
            except ValueError:
                raise InvalidCountError(f"caps of {kind!r} of shape {arr.shape} do not fit "
                                        f"{(gsel.size, n)} (selected games, objects)") from None

        cols, ids = s.alloc(n)
        s.mut("types")[cols] = mask
        for stat, v in statvals.items():
            s.mut(stat)[cols] = v
        s.mut("keywords")[cols] = kw
        s.mut("controller")[cols] = owner
        s.mut("token")[cols] = bool(token)
        s.mut("no_counters")[cols] = bool(no_counters)
        s.mut("name_id")[cols] = self._name_id(name)
        g = np.repeat(gsel, n)
        c = np.tile(cols, gsel.size)
        s.mut("zone")[g, c] = code
        self.log.next_step()
        if code == zones.BATTLEFIELD:
            self.enter_battlefield(g, c, by=by)
        for kind, amounts in start.items():
            self._put(kind, g, c, amounts.ravel(), "enter" if code == zones.BATTLEFIELD else "put", by)
        for kind, values in capvals.items():
            self._set_caps(kind, g, c, values.ravel())
        return ids

    def enter_battlefield(self, g: np.ndarray, c: np.ndarray, by: int | None) -> None:
        """Counters put on objects as they enter by their own abilities (122.6, 614.1c)."""
        who = self.store.a["controller"][c].astype(np.int64) if by is None else by
        for kind, amounts in self.ruleset.enter_counters(self, c):
            put = amounts > 0
            if put.any():
                self._put(kind, g[put], c[put], amounts[put], "enter",
                          who[put] if isinstance(who, np.ndarray) else who)

    # ---- resolving arguments ---------------------------------------------------------
    def _kind(self, kind: Any) -> str:
        return self.ruleset.validate_kind(validate_kind(kind))

    def _name_id(self, name: str | None) -> int:
        if name is None:
            return -1
        if not isinstance(name, str):
            raise InvalidTypeError(f"name must be a str, got {name!r}")
        if name not in self.names:
            self.names.append(name)
        return self.names.index(name)

    def _player_index(self, player: Any) -> int:
        s = self.store
        if isinstance(player, bool) or not isinstance(player, numbers.Integral):
            raise UnknownEntityError(f"player must be an id, got {player!r}")
        col = int(s.columns(np.array([player]))[0])
        if not s.a["types"][col] & TYPE_BIT["player"]:
            raise IllegalActionError(f"entity {player} is not a player")
        return int(s.a["controller"][col])

    def _targets(self, ids: Any, games: Any) -> tuple[np.ndarray, np.ndarray, bool]:
        """Flat (game, column) rows of an action's targets, and whether one id was given.
        Raises for ids that never existed or no longer exist in a selected game."""
        s = self.store
        gsel = select_games(games, self.ongoing)
        idarr, single = as_ids(ids, gsel.size)
        cols = s.columns(idarr)
        g = np.broadcast_to(gsel[:, None], cols.shape)
        absent = s.a["zone"][g, cols] == zones.NONE
        if absent.any():
            i = np.argwhere(absent)[0]
            raise StaleEntityError(f"entity {int(idarr[tuple(i)])} does not exist in game "
                                   f"{int(g[tuple(i)])} (it changed zones or was never there)")
        return g.ravel(), cols.ravel(), single

    def _holder(self, kind: str, c: np.ndarray) -> np.ndarray:
        """Two-Headed Giant: a player's poison counters are the team's (810.10)."""
        s = self.store
        if not (self.two_headed_giant and kind == "poison"):
            return c
        is_player = (s.a["types"][c] & TYPE_BIT["player"]) != 0
        head_col = s.a["player_col"][s.a["player_head"][s.a["controller"][c]]]
        return np.where(is_player, head_col, c).astype(np.int64)

    def _require(self, ok: np.ndarray, g: np.ndarray, c: np.ndarray, what: str) -> None:
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            e = int(self.store.a["entity_id"][c[i]])
            raise IllegalActionError(f"entity {e} in game {int(g[i])} {what}")

    def _on_battlefield(self, g: np.ndarray, c: np.ndarray) -> np.ndarray:
        return self.store.a["zone"][g, c] == zones.BATTLEFIELD

    def _is(self, c: np.ndarray, type_name: str) -> np.ndarray:
        return (self.store.a["types"][c] & TYPE_BIT[type_name]) != 0

    def _sum_rows(self, g: np.ndarray, c: np.ndarray, amount: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Merge rows naming the same (game, column), adding their amounts."""
        if g.size < 2:
            return g, c, amount
        cap = self.store.capacity
        uniq, inv = np.unique(g * cap + c, return_inverse=True)
        total = np.bincount(inv.ravel(), weights=amount, minlength=uniq.size).astype(np.int64)
        return uniq // cap, uniq % cap, total

    def _distinct(self, g: np.ndarray, c: np.ndarray, what: str) -> None:
        if np.unique(g * self.store.capacity + c).size != g.size:
            raise IllegalActionError(f"{what} names the same object twice in one game")

    # ---- the choke point for counters --------------------------------------------------
    def _check_room(self, kind: str, g: np.ndarray, c: np.ndarray, amount: np.ndarray) -> None:
        s = self.store
        k = s.kind_index.get(kind)
        have = s.counts[k, g, c].astype(np.int64) if k is not None else np.int64(0)
        self._check_total(have, amount, g, c, f"{kind!r} counters")

    def _check_marked_damage(self, g: np.ndarray, c: np.ndarray, amount: np.ndarray) -> None:
        """Marked damage is int32 like counts: passing MAX_COUNT raises, it never wraps."""
        have = self.store.a["damage"][g, c].astype(np.int64)
        self._check_total(have, amount, g, c, "damage")

    def _check_total(self, have: np.ndarray | np.int64, amount: np.ndarray, g: np.ndarray,
                     c: np.ndarray, what: str) -> None:
        over = have + amount > MAX_COUNT
        if np.any(over):
            i = int(np.flatnonzero(np.broadcast_to(over, g.shape))[0])
            raise CountOverflowError(
                f"putting {int(np.broadcast_to(amount, g.shape)[i])} {what} on entity "
                f"{int(self.store.a['entity_id'][c[i]])} in game {int(g[i])} would pass "
                f"{MAX_COUNT}")

    def _put(self, kind: str, g: np.ndarray, c: np.ndarray, amount: np.ndarray | int,
             cause: str, by: Any = -1) -> None:
        """Put counters (rows must be distinct): objects that can't have counters get none
        (101.3); the ruleset may replace the placement (Grand Archive buff/debuff)."""
        amounts = np.broadcast_to(np.asarray(amount, np.int64), g.shape)
        ok = (amounts > 0) & ~self.store.a["no_counters"][c]
        if not ok.all():
            g, c, amounts = g[ok], c[ok], amounts[ok]
            by = by[ok] if isinstance(by, np.ndarray) else by
        if g.size:
            self._check_room(kind, g, c, amounts)
            self.ruleset.place(self, kind, g, c, amounts, cause, by)

    def _change(self, kind: str, g: np.ndarray, c: np.ndarray, delta: np.ndarray | int,
                cause: str, by: Any = -1, at: np.ndarray | None = None) -> None:
        """Add ``delta`` (negative: remove, clamped at 0) and record one event per change
        (``at``: the rows' flat indices ``g * capacity + c``, if the caller has them)."""
        s = self.store
        delta = np.asarray(delta, np.int64)   # broadcasts against the rows below
        k = s.kind_index.get(kind)
        if k is None:   # a new kind gets a plane only when counters are put
            k = s.kind_id(kind, create=g.size > 0 and bool((delta > 0).any()))
        if k < 0 or g.size == 0:
            return
        # The plane is a contiguous (B, C) array: flat indices address it in one pass.
        if at is None:
            at = g * s.capacity + c
        before, after, every = add_clamped(s.mut("counts")[k].reshape(-1), at, delta.reshape(-1))
        self._changed(k, g, c, before, after, every, cause, by)

    def _changed(self, k: int, g: np.ndarray, c: np.ndarray, before: np.ndarray,
                 after: np.ndarray, every: bool, cause: str, by: Any = -1) -> None:
        """Record the events of a change of kind ``k`` already made (``_change``'s second
        half): one row per (game, column) whose count changed (``every``: all did)."""
        s = self.store
        if not every:   # rows that changed nothing get no event
            ch = after != before
            g, c, before, after = g[ch], c[ch], before[ch], after[ch]
            if np.ndim(by):
                by = np.broadcast_to(by, ch.shape)[ch]
        self.log.record(COUNTER, cause, game=g, entity=s.a["entity_id"][c], kind=k,
                        before=before, after=after, other=by, fresh=("entity", "before", "after"))

    # ---- counter actions ---------------------------------------------------------------
    def put_counters(self, e: Any, kind: str, n: Any = 1, games: Any = None,
                     by: int | None = None) -> None:
        """Put ``n`` counters of ``kind`` on each target (CR 122.1, 122.6)."""
        kind = self._kind(kind)
        g, c, single = self._targets(e, games)
        amount = self._amounts(n, e, games, single, lambda: f"put {kind!r} counters on entity {e}")
        who = self._player_index(by) if by is not None else -1
        c = self._holder(kind, c)
        g, c, amount = self._sum_rows(g, c, amount)
        self.log.next_step()
        self._put(kind, g, c, amount, "put", who)

    def remove_counters(self, e: Any, kind: str, n: Any = 1, games: Any = None) -> None:
        """Remove up to ``n`` counters of ``kind``; fewer if fewer are there (101.3)."""
        kind = self._kind(kind)
        g, c, single = self._targets(e, games)
        amount = self._amounts(n, e, games, single, lambda: f"remove {kind!r} counters from entity {e}")
        c = self._holder(kind, c)
        g, c, amount = self._sum_rows(g, c, amount)
        self.log.next_step()
        self._change(kind, g, c, -amount, "remove")

    def _amounts(self, n: Any, e: Any, games: Any, single: bool,
                 what: str | Callable[[], str]) -> np.ndarray:
        gsel = select_games(games, self.ongoing)
        idarr, _ = as_ids(e, gsel.size)
        return np.ascontiguousarray(as_amounts(n, idarr.shape, single, what)).ravel()

    def move_counters(self, src: Any, dst: Any, kind: str, n: Any = 1, games: Any = None,
                      zone: str | None = "battlefield") -> Any:
        """Move ``n`` counters of ``kind`` from ``src`` to ``dst`` (CR 122.5); returns how many
        moved in each game. Nothing happens where the objects are the same, ``src`` has none,
        ``dst`` can't have counters, or either is no longer in ``zone`` (None: any zone).
        More than ``src`` has moves what it has (101.3)."""
        s = self.store
        kind = self._kind(kind)
        gsel = select_games(games, self.ongoing)
        src_ids, s1 = as_ids(src, gsel.size)
        dst_ids, s2 = as_ids(dst, gsel.size)
        try:
            src_ids, dst_ids = np.broadcast_arrays(src_ids, dst_ids)
        except ValueError:
            raise InvalidGameError(f"src of shape {src_ids.shape} and dst of shape {dst_ids.shape} "
                                   "do not broadcast") from None
        amount = as_amounts(n, src_ids.shape, s1 and s2, f"move {kind!r} counters").ravel()
        g = np.broadcast_to(gsel[:, None], src_ids.shape).ravel()
        sc = self._cols_or_gone(src_ids.ravel())
        dc = self._cols_or_gone(dst_ids.ravel())
        code = None if zone is None else zones.zone_code(zone, self.ruleset.zone_aliases)
        ok = (sc >= 0) & (dc >= 0) & (sc != dc)
        scs, dcs = np.where(ok, sc, 0), np.where(ok, dc, 0)
        zs, zd = s.a["zone"][g, scs], s.a["zone"][g, dcs]
        ok &= (zs != zones.NONE) & (zd != zones.NONE)
        if code is not None:
            ok &= (zs == code) & (zd == code)
        ok &= ~s.a["no_counters"][dcs]
        scs, dcs = self._holder(kind, scs), self._holder(kind, dcs)
        ok &= scs != dcs
        k = s.kind_index.get(kind)
        have = s.counts[k, g, scs].astype(np.int64) if k is not None else np.zeros(g.size, np.int64)
        moved = np.where(ok, np.minimum(amount, have), 0)
        m = moved > 0
        self._distinct(np.concatenate([g[m], g[m]]), np.concatenate([scs[m], dcs[m]]), "move_counters")
        self._check_room(kind, g[m], dcs[m], moved[m])
        self.log.next_step()
        self._change(kind, g[m], scs[m], -moved[m], "move")
        self._put(kind, g[m], dcs[m], moved[m], "move")
        out = moved.reshape(src_ids.shape)
        if s1 and s2:
            full = np.zeros(self.batch, np.int64)
            full[gsel] = out[:, 0]
            return self._out(full)
        return out

    def _cols_or_gone(self, ids: np.ndarray) -> np.ndarray:
        """Columns of ids; -1 for stale ids (they left their zone); raises for unknown ids."""
        s = self.store
        bad = ids[(ids < 0) | (ids >= s.next_id)]
        if bad.size:
            raise UnknownEntityError(f"entity {int(bad[0])} does not exist in this World")
        return s.col_of_id[ids].astype(np.int64)

    def proliferate(self, ids: Any, games: Any = None, by: int | None = None) -> None:
        """Each chosen permanent or player gets one more counter of each kind it already
        has (CR 701.34a); in Two-Headed Giant a team gets at most one poison (701.34b)."""
        s = self.store
        g, c, _ = self._targets(ids, games)
        self._require(self._on_battlefield(g, c) | self._is(c, "player"), g, c,
                      "is neither a permanent nor a player (CR 701.34a)")
        who = self._player_index(by) if by is not None else -1
        g, c, _ = self._sum_rows(g, c, np.zeros(g.size, np.int64))
        plan = []
        for k, kind in enumerate(s.kind_names):
            cc = self._holder(kind, c)
            gk, ck, _ = self._sum_rows(g, cc, np.zeros(g.size, np.int64))
            has = s.counts[k, gk, ck] > 0
            if has.any():
                self._check_room(kind, gk[has], ck[has], np.ones(int(has.sum()), np.int64))
                plan.append((kind, gk[has], ck[has]))
        self.log.next_step()
        for kind, gk, ck in plan:
            self._put(kind, gk, ck, 1, "proliferate", who)

    def set_cap(self, e: Any, kind: str, n: Any, games: Any = None) -> None:
        """"Can't have more than ``n`` counters of ``kind``" (CR 122.4), enforced by the
        state-based check 704.5r. The cap ends when the object changes zones."""
        kind = self._kind(kind)
        g, c, single = self._targets(e, games)
        amount = self._amounts(n, e, games, single, lambda: f"cap of {kind!r} on entity {e}")
        self._set_caps(kind, g, c, amount)

    def clear_cap(self, e: Any, kind: str, games: Any = None) -> None:
        kind = self._kind(kind)
        g, c, _ = self._targets(e, games)
        self._set_caps(kind, g, c, np.full(g.size, -1, np.int64))

    def _set_caps(self, kind: str, g: np.ndarray, c: np.ndarray, values: np.ndarray) -> None:
        s = self.store
        k = s.kind_id(kind, create=True)
        a = s.a
        known = {(int(col), int(kk)): i for i, (col, kk) in enumerate(zip(a["cap_col"], a["cap_kind"]))}
        new = [int(col) for col in np.unique(c) if (int(col), k) not in known]
        if new:
            a["cap_col"] = np.concatenate([a["cap_col"], np.array(new, np.int32)])
            a["cap_kind"] = np.concatenate([a["cap_kind"], np.full(len(new), k, np.int32)])
            a["cap_val"] = np.concatenate([a["cap_val"], np.full((self.batch, len(new)), -1, np.int64)], axis=1)
            known.update({(col, k): len(known) + i for i, col in enumerate(new)})
        m = np.array([known[(int(col), k)] for col in c], np.int64)
        s.mut("cap_val")[g, m] = values

    # ---- zone changes and damage -----------------------------------------------------
    def destroy(self, e: Any, games: Any = None) -> None:
        """Destroy permanents (CR 701.8): indestructible ones are not (702.12b); a shield
        counter is removed instead (122.1c); finality exiles instead (122.1h)."""
        g, c, _ = self._targets(e, games)
        g, c, _ = self._sum_rows(g, c, np.zeros(g.size, np.int64))
        self._require(self._on_battlefield(g, c), g, c, "is not a permanent (CR 701.8a)")
        indestructible = stats.has_keyword(self, c, "indestructible")[g, np.arange(c.size)]
        shield = self.store.plane("shield")
        shielded = ~indestructible & (shield[g, c] > 0 if shield is not None else False)
        self.log.next_step()
        self._change("shield", g[shielded], c[shielded], -1, "shield")
        die = ~indestructible & ~shielded
        move_objects(self, g[die], c[die], np.full(int(die.sum()), zones.GRAVEYARD), "destroy")

    def sacrifice(self, e: Any, games: Any = None) -> None:
        """Sacrifice permanents (CR 701.21a): shields and indestructible don't help."""
        g, c, _ = self._targets(e, games)
        g, c, _ = self._sum_rows(g, c, np.zeros(g.size, np.int64))
        self._require(self._on_battlefield(g, c), g, c, "is not a permanent (CR 701.21a)")
        self.log.next_step()
        move_objects(self, g, c, self.ruleset.sacrifice_zone(self, c), "sacrifice")

    def move_zone(self, e: Any, zone: str, games: Any = None) -> Any:
        """Move objects to ``zone``; each becomes a new object (400.7) whose id is returned
        (one id when a single id was given). A token outside the battlefield stays (111.8)."""
        code = zones.zone_code(zone, self.ruleset.zone_aliases)
        g, c, single = self._targets(e, games)
        shape = (g.size,)
        self._require(~self._is(c, "player"), g, c, "is a player, not an object")
        self._require(self.store.a["zone"][g, c] != code, g, c, f"is already in the {zone}")
        self._distinct(g, c, "move_zone")
        stays = self.store.a["token"][c] & ~self._on_battlefield(g, c)
        self.log.next_step()
        new = np.full(shape, -1, np.int64)
        go = ~stays
        new[go] = move_objects(self, g[go], c[go], np.full(int(go.sum()), code), "zone")[0]
        if single:
            vals = np.unique(new)
            return int(vals[0]) if vals.size == 1 else new
        return new

    def deal_damage(self, target: Any, amount: Any, *, deathtouch: bool = False,
                    wither: bool = False, infect: bool = False, unpreventable: bool = False,
                    combat: bool = False, games: Any = None) -> None:
        """Deal damage from one source with the given abilities to each target, all at once
        (CR 120.3); 0 damage is not dealt (120.8), but its targets are still checked. Several
        rows naming one target are one damage event to it."""
        g, c, single = self._targets(target, games)
        a = self._amounts(amount, target, games, single, lambda: f"damage to entity {target}")
        g, c, a = self._sum_rows(g, c, a)
        flags = dict(deathtouch=deathtouch, wither=wither, infect=infect,
                     unpreventable=unpreventable, combat=combat)
        self.ruleset.deal_damage(self, g, c, a, flags)

    def tap(self, e: Any, games: Any = None) -> None:
        g, c, _ = self._targets(e, games)
        self._require(self._on_battlefield(g, c), g, c, "is not a permanent")
        self.store.mut("tapped")[g, c] = True

    def untap(self, e: Any, games: Any = None) -> None:
        """Untap permanents; a tapped one with a stun counter loses one instead (122.1d)."""
        s = self.store
        g, c, _ = self._targets(e, games)
        g, c, _ = self._sum_rows(g, c, np.zeros(g.size, np.int64))
        self._require(self._on_battlefield(g, c), g, c, "is not a permanent")
        tapped = s.a["tapped"][g, c]
        stun = s.plane("stun")
        stunned = tapped & (stun[g, c] > 0 if stun is not None else False)
        self.log.next_step()
        self._change("stun", g[stunned], c[stunned], -1, "stun")
        s.mut("tapped")[g[tapped & ~stunned], c[tapped & ~stunned]] = False

    def lose_life(self, p: Any, n: Any, games: Any = None) -> None:
        self._life(p, n, games, -1)

    def gain_life(self, p: Any, n: Any, games: Any = None) -> None:
        self._life(p, n, games, +1)

    def _life(self, p: Any, n: Any, games: Any, sign: int) -> None:
        s = self.store
        g, c, single = self._targets(p, games)
        self._require(self._is(c, "player"), g, c, "is not a player")
        a = self._amounts(n, p, games, single, lambda: f"life of player {p}")
        idx = s.a["controller"][c].astype(np.int64)
        if self.two_headed_giant:
            idx = s.a["player_head"][idx].astype(np.int64)  # team life (810.8)
        np.add.at(s.mut("life"), (g, idx), sign * a)

    def cleanup(self, games: Any = None) -> None:
        """The cleanup step's damage removal (CR 514.2)."""
        gsel = select_games(games, self.ongoing)
        self.store.mut("damage")[gsel] = 0

    # ---- state-based actions -----------------------------------------------------------
    def tick(self) -> int:
        """Check state-based actions on one snapshot, perform them together as one event,
        repeat until a check performs nothing (CR 704.3); returns the checks that acted."""
        acted = 0
        live = touched = None   # the first check looks at everything
        with self._esper():
            while True:
                pending = Pending(live=live, touched=touched)
                esper.process(self, pending)
                # deathtouch marks are "since the last check"; reading is cheaper than writing
                if self.store.a["deathtouch_hit"].any():
                    self.store.mut("deathtouch_hit")[self.ongoing] = False
                if pending.empty():
                    return acted
                acted += 1
                if acted > self.max_passes:
                    raise SBALoopError(f"state-based actions still acting after {self.max_passes} "
                                       "checks; a system keeps producing actions")
                self.log.next_step()
                touched = perform(self, pending)
                # A game no decision named is as this check saw it, and the check found
                # nothing there (systems decide per game, from that game's state alone; the
                # cleared deathtouch marks only take reasons away): check again only the
                # games the perform changed, and there, systems that decide each permanent
                # alone look only at the permanents it touched (Pending.touched).
                live = pending.games_named(self.batch) & self.ongoing
                if not live.any():   # settling removals alone: nothing left to check
                    return acted

    # ---- reads ------------------------------------------------------------------------
    def _col(self, e: Any) -> int:
        if isinstance(e, bool) or not isinstance(e, numbers.Integral):
            raise UnknownEntityError(f"entity must be an id, got {e!r}")
        return int(self.store.columns(np.array([e]))[0])

    def exists(self, e: int) -> Any:
        """Whether ``e`` names an object or player present in each game (never raises for
        stale ids: they are simply gone)."""
        s = self.store
        if isinstance(e, bool) or not isinstance(e, numbers.Integral) or not 0 <= e < s.next_id:
            raise UnknownEntityError(f"entity {e!r} does not exist in this World")
        col = s.col_of_id[e]
        present = (s.a["zone"][:, col] != zones.NONE) if col >= 0 else np.zeros(self.batch, bool)
        return self._out(present)

    def counters(self, e: int) -> Any:
        """Kinds with a nonzero count: {kind: n} (a batch: {kind: array over games})."""
        s = self.store
        col = self._col(e)
        values = s.counts[: s.n_kinds, :, col].astype(np.int64)
        if self.two_headed_giant and "poison" in s.kind_index:
            k = s.kind_index["poison"]
            values[k] = s.counts[k, :, int(self._holder("poison", np.array([col]))[0])]
        if self.batch == 1:
            return {s.kind_names[k]: int(v) for k, v in enumerate(values[:, 0]) if v}
        return {s.kind_names[k]: values[k] for k in range(s.n_kinds) if values[k].any()}

    def count(self, e: int, kind: str) -> Any:
        s = self.store
        kind = self._kind(kind)
        col = int(self._holder(kind, np.array([self._col(e)]))[0])
        k = s.kind_index.get(kind)
        values = s.counts[k, :, col].astype(np.int64) if k is not None else np.zeros(self.batch, np.int64)
        return self._out(values)

    def _stat(self, e: int, stat: str, which: int) -> Any:
        col = self._col(e)
        if not self.ruleset.has_stat(self, col, stat):
            raise InvalidTypeError(f"entity {e} has no {stat}")
        return self._out(stats.pt(self, np.array([col]), which)[:, 0])

    def power(self, e: int) -> Any:
        """Printed power plus power/toughness counters (CR 122.1a)."""
        return self._stat(e, "power", 0)

    def toughness(self, e: int) -> Any:
        """Printed toughness plus power/toughness counters (CR 122.1a)."""
        return self._stat(e, "toughness", 1)

    def _counted_stat(self, e: int, stat: str, type_name: str) -> Any:
        s = self.store
        col = self._col(e)
        printed = s.a[stat][col]
        if not s.a["types"][col] & TYPE_BIT[type_name] or printed == NO_STAT:
            raise InvalidTypeError(f"entity {e} has no {stat} (it is not a {type_name})")
        k = s.kind_index.get(stat)
        count = s.counts[k, :, col].astype(np.int64) if k is not None else np.zeros(self.batch, np.int64)
        on_bf = s.a["zone"][:, col] == zones.BATTLEFIELD
        return self._out(np.where(on_bf, count, int(printed)))

    def loyalty(self, e: int) -> Any:
        """Loyalty counters on the battlefield (306.5c), the printed number elsewhere (209.1)."""
        return self._counted_stat(e, "loyalty", "planeswalker")

    def defense(self, e: int) -> Any:
        """Defense counters on the battlefield (310.4c), the printed number elsewhere (310.4a)."""
        return self._counted_stat(e, "defense", "battle")

    def keywords(self, e: int) -> Any:
        """Printed keywords plus keyword counters, in any zone (CR 122.1b)."""
        s = self.store
        col = self._col(e)
        printed = {k for k in KEYWORDS if s.a["keywords"][col] & KEYWORD_BIT[k]}
        per_game = []
        for g in range(self.batch):
            got = set(printed)
            for k, name in enumerate(s.kind_names):
                if keyword_of(name) and s.counts[k, g, col] > 0:
                    got.add(name)
            per_game.append(frozenset(got))
        return per_game[0] if self.batch == 1 else np.array(per_game + [None], dtype=object)[:-1]

    def zone(self, e: int) -> Any:
        col = self._col(e)
        names = np.array(zones.ZONES)[self.store.a["zone"][:, col]]
        return str(names[0]) if self.batch == 1 else names

    def name(self, e: int) -> str | None:
        i = int(self.store.a["name_id"][self._col(e)])
        return self.names[i] if i >= 0 else None

    def controller(self, e: int) -> int:
        s = self.store
        p = int(s.a["controller"][self._col(e)])
        return int(s.a["entity_id"][s.a["player_col"][p]])

    def is_tapped(self, e: int) -> Any:
        return self._out(self.store.a["tapped"][:, self._col(e)].copy())

    def damage(self, e: int) -> Any:
        """Damage marked on the object (CR 120.3e)."""
        return self._out(self.store.a["damage"][:, self._col(e)].astype(np.int64))

    def life(self, p: int) -> Any:
        s = self.store
        idx = self._player_index(p)
        if self.two_headed_giant:
            idx = int(s.a["player_head"][idx])
        return self._out(s.a["life"][:, idx].copy())

    def has_lost(self, p: int) -> Any:
        return self._out(self.store.a["lost"][:, self._player_index(p)].copy())

    def result(self) -> Any:
        """One game: "ongoing", "draw" or the winner's id (a Two-Headed Giant team is named
        by its first player). A batch: an int array, ONGOING (-1), DRAW (-2) or winner id."""
        s = self.store
        w = s.a["winner"].astype(np.int64)
        ids = np.where(w >= 0, s.a["entity_id"][s.a["player_col"][np.maximum(w, 0)]], w)
        if self.batch > 1:
            return ids
        return "ongoing" if ids[0] == ONGOING else "draw" if ids[0] == DRAW else int(ids[0])

    def players(self) -> list[int]:
        s = self.store
        return [int(x) for x in s.a["entity_id"][s.a["player_col"]]]

    def object_mask(self, zone: str | None = None, types: Iterable[str] | str = (),
                    controller: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(ids, mask): the id of every column and a (B, columns) mask of the objects that
        are in ``zone`` (any zone if None), have all ``types`` and that controller."""
        s = self.store
        n = s.n_cols
        z = s.a["zone"][:, :n]
        mask = (z != zones.NONE) & (z != zones.PLAYER)
        if zone is not None:
            mask &= z == zones.zone_code(zone, self.ruleset.zone_aliases)
        t = type_mask(types)
        if t:
            mask &= ((s.a["types"][:n] & t) == t)[None, :]
        if controller is not None:
            mask &= (s.a["controller"][:n] == self._player_index(controller))[None, :]
        return s.a["entity_id"][:n].copy(), mask

    def objects(self, zone: str | None = None, types: Iterable[str] | str = (),
                controller: int | None = None, game: int = 0) -> list[int]:
        """Ids of the objects matching the filter in one game."""
        ids, mask = self.object_mask(zone, types, controller)
        return [int(x) for x in ids[mask[game]]]

    # ---- events ---------------------------------------------------------------------------
    def events(self) -> list[Event]:
        """Every event since the last ``clear_events()``, oldest first."""
        s = self.store
        return self.log.objects(s.kind_names, s.a["entity_id"][s.a["player_col"]])

    def event_table(self) -> dict[str, np.ndarray]:
        """The same events as columnar arrays (see ecs.events)."""
        return self.log.table()

    def clear_events(self) -> None:
        self.log.clear()

    # ---- snapshots --------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The whole state as array copies (plus the event log and the random generator)."""
        return {"store": self.store.snapshot(), "layout": self.store.layout, "log": self.log.snapshot(),
                "rng": self._rng_snapshot(), "names": list(self.names),
                "seed_seq": self._seed_key, "n_spawned": self.n_spawned}

    def restore(self, snap: Mapping[str, Any]) -> None:
        """Return to a snapshot taken from this World (or a clone of it)."""
        self.store.restore(snap["store"], snap.get("layout"))
        self.log.restore(snap["log"])
        entropy, spawn_key, pool_size = snap["seed_seq"]
        self._set_seed_seq(np.random.SeedSequence(entropy, spawn_key=spawn_key, pool_size=pool_size))
        self.n_spawned = int(snap["n_spawned"])
        if self._rng is None:   # nobody holds a generator: stay lazy
            self._rng_state = snap["rng"]
        else:                   # in place: a generator taken from ``rng`` follows the World
            self._rng.bit_generator.state = snap["rng"]
        self.names = list(snap["names"])

    def clone(self) -> "World":
        """An independent copy of this World, without going through ``__init__``: the
        store's arrays are shared until either World writes them (copy on write,
        ``Store.mut``), the event log's chunks shared (never mutated), and the generator
        and esper context built on first use. Every attribute is copied as
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
        d["_esper_name"] = d["_systems"] = None  # its own esper context, made on first use
        other.__dict__ = d
        return other
