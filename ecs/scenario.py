"""Monte Carlo scenario files: a TOML format, loaded and validated into a typed `Scenario`.

The format is documented in docs/scenarios.md ("The scenario format (TOML)"). Every
problem is reported as a `ScenarioError` naming the file, the field
(``objects[2].toughness``) and what was expected, before any game is played.
"""
from __future__ import annotations

import os
import re
import stat
import sys
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

from ecs.components import TYPE_BIT

from .errors import CounterError
from .errors import ScenarioError as ScenarioError  # re-exported: the error of this module
from .kinds import validate_kind
from .limits import MAX_STAT

RULESETS = ("mtg", "grand_archive")
#: Card types of either ruleset ("player" is the engine's bit for players, no card type).
CARD_TYPES = tuple(t for t in TYPE_BIT if t != "player")
#: Zones an object may start in (Grand Archive aliases accepted by the engine map onto these).
ZONE_NAMES = ("battlefield", "field", "graveyard", "exile", "banishment", "hand", "library",
              "command", "memory")
#: Zones an effect may move an object to (not the battlefield: see `Filter`).
MOVE_TO = tuple(z for z in ZONE_NAMES if z not in ("battlefield", "field"))
STATS = ("power", "toughness", "life", "loyalty", "defense", "durability", "level")
#: Stats that are counters' starting amounts (the engine's bounds: 0..MAX_STAT, the others
#: -MAX_STAT..MAX_STAT).
COUNTER_STATS = ("loyalty", "defense", "durability")
DAMAGE_FLAGS = ("deathtouch", "wither", "infect", "unpreventable", "combat")
#: action -> (required keys, optional keys) besides ``action`` and ``weight``.
ACTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "nothing": ((), ()),
    "put_counters": (("kind", "target"), ("n", "targets")),
    "remove_counters": (("kind", "target"), ("n", "targets", "cost")),
    "move_counters": (("source", "target"), ("kind", "n")),   # no kind: every kind
    "proliferate": ((), ("target", "targets", "players")),
    "deal_damage": (("n", "target"), ("targets",) + DAMAGE_FLAGS),
    "destroy": (("target",), ("targets",)),
    "sacrifice": (("target",), ("targets",)),
    "move_zone": (("target", "zone"), ("targets",)),
    "begin_main_phase": ((), ()),
    "lose_life": (("n", "target"), ()),
    "gain_life": (("n", "target"), ()),
}
#: actions whose target may be a player (``target = { player = "..." }``).
PLAYER_ACTIONS = ("put_counters", "remove_counters", "deal_damage", "lose_life", "gain_life")
# Bounds on what a file may ask for, checked before any work: a scenario is read whole,
# parsed by a recursive parser and played game by game, so each of these is a cost.
MAX_BYTES = 1 << 20       # file size
MAX_DEPTH = 32            # tables, arrays and dotted-key parts nested in one another
MAX_PLAYERS = 64
MAX_OBJECTS = 100_000     # copies of every entry together (each is a column in every game)
MAX_EFFECTS = 1_000
MAX_TURNS = 100_000
#: turns x effect draws a turn x objects: about 50 ns each, so at most ~0.5 s per game.
MAX_WORK = 10_000_000


@dataclass(frozen=True)
class PlayerSpec:
    name: str
    life: int | None = None       # None: the ruleset's starting life
    poison: int = 0
    reserve: int = 0
    team: int | None = None       # index of the team (teams are named in the file)


@dataclass(frozen=True)
class ObjectSpec:
    """One entry of ``[[objects]]``: ``count`` identical copies named ``name``."""
    name: str
    controller: int               # player index
    types: tuple[str, ...] = ()
    zone: str = "battlefield"
    stats: tuple[tuple[str, int], ...] = ()
    keywords: tuple[str, ...] = ()
    token: bool = False
    counters: tuple[tuple[str, int], ...] = ()
    caps: tuple[tuple[str, int], ...] = ()
    count: int = 1


@dataclass(frozen=True)
class Filter:
    """Which objects an effect may pick: on the battlefield, from the scenario's entries.

    Only permanents that have been on the battlefield since the game began are candidates
    (an object that changes zones is a new object, CR 400.7, and is not followed), so the
    candidate order is the same in every shard and results do not depend on sharding.
    ``player`` is set instead for a player target: a player index, or -1 for a random one.
    """
    names: tuple[int, ...] = ()   # object entry indices; () = any entry
    controller: int | None = None
    types: tuple[str, ...] = ()   # all of these types
    token: bool | None = None
    has: str | None = None        # has at least one counter of this kind
    player: int | None = None


@dataclass(frozen=True)
class Effect:
    action: str
    weight: float
    kind: str | None = None       # move_counters: None moves every kind (CR 122.5)
    n: tuple[int, int] | None = (1, 1)   # inclusive range, drawn uniformly per game; None: all
    target: Filter | None = None
    source: Filter | None = None  # move_counters
    targets: int | None = 1       # distinct random targets; None = every match
    zone: str | None = None       # move_zone destination
    flags: tuple[str, ...] = ()   # deal_damage keywords that are true
    players: bool = False         # proliferate: also every player
    cost: bool = False            # remove_counters: all n or none (CR 118.3)


@dataclass(frozen=True)
class Scenario:
    name: str
    ruleset: str
    turns: int
    players: tuple[PlayerSpec, ...]
    objects: tuple[ObjectSpec, ...]
    effects: tuple[Effect, ...]
    description: str = ""
    effects_per_turn: int = 1
    begin_main_phase: bool = False
    two_headed_giant: bool = False
    report_kinds: tuple[str, ...] = ()
    source: str = "<scenario>"
    teams: tuple[str, ...] = field(default=())

    @property
    def n_objects(self) -> int:
        return sum(o.count for o in self.objects)


# ---- validation helpers ------------------------------------------------------------------
class _Checker:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, expected: str, got: Any = ...) -> ScenarioError:
        tail = ""
        if got is not ...:
            shown = repr(got)
            if len(shown) > 80:     # (TOML takes integers of thousands of digits, strings of any size)
                shown = f"{shown[:60]}... ({len(shown):,} characters)"
            tail = f", got {shown}"
        return ScenarioError(f"{self.source}: {where}: expected {expected}{tail}")

    def table(self, v: Any, where: str, allowed: tuple[str, ...], required: tuple[str, ...] = ()
              ) -> Mapping[str, Any]:
        if not isinstance(v, Mapping):
            raise self.fail(where, "a table", v)
        for k in v:
            if k not in allowed:
                raise self.fail(f"{where}.{k}" if where else k,
                                f"one of the keys {', '.join(allowed)} (unknown key)")
        for k in required:
            if k not in v:
                raise self.fail(f"{where}.{k}" if where else k, "a value (the field is required)")
        return v

    def int_(self, v: Any, where: str, lo: int = 0, hi: int = 2**31 - 1) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise self.fail(where, f"an integer in {lo}..{hi}", v)
        return v

    def bool_(self, v: Any, where: str) -> bool:
        if not isinstance(v, bool):
            raise self.fail(where, "true or false", v)
        return v

    def str_(self, v: Any, where: str, choices: tuple[str, ...] | None = None) -> str:
        if not isinstance(v, str) or (choices is not None and v not in choices) or not v:
            raise self.fail(where, "a non-empty string" if choices is None
                            else f"one of {', '.join(choices)}" if choices
                            else "a name the file defines (it defines none)", v)
        return v

    def strs(self, v: Any, where: str) -> tuple[str, ...]:
        if isinstance(v, str):
            v = [v]
        if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v):
            raise self.fail(where, "a string or a list of strings", v)
        return tuple(v)

    def types(self, v: Any, where: str) -> tuple[str, ...]:
        out = self.strs(v, where)
        for t in out:
            if t not in CARD_TYPES:
                raise self.fail(where, f"card types among {', '.join(CARD_TYPES)}", t)
        return out

    def kind(self, v: Any, where: str) -> str:
        try:
            return validate_kind(v)
        except CounterError as e:
            raise self.fail(where, f"a counter kind ({e})", v) from None

    def counts(self, v: Any, where: str) -> tuple[tuple[str, int], ...]:
        if not isinstance(v, Mapping):
            raise self.fail(where, 'a table of kind = count, e.g. { "+1/+1" = 2 }', v)
        return tuple((self.kind(k, f"{where}.{k!r}"), self.int_(n, f"{where}.{k!r}"))
                     for k, n in v.items())

    def amount(self, v: Any, where: str) -> tuple[int, int]:
        if isinstance(v, list) and len(v) == 2:
            lo, hi = (self.int_(x, f"{where}[{i}]") for i, x in enumerate(v))
            if lo > hi:
                raise self.fail(where, "[low, high] with low <= high", v)
            return lo, hi
        if isinstance(v, int) and not isinstance(v, bool):
            n = self.int_(v, where)
            return n, n
        raise self.fail(where, "an integer or an inclusive range [low, high]", v)


def _players(c: _Checker, raw: Any, two_headed_giant: bool
             ) -> tuple[tuple[PlayerSpec, ...], dict[str, int], tuple[str, ...]]:
    if not isinstance(raw, list) or not raw:
        raise c.fail("players", "a non-empty array of tables ([[players]])", raw)
    if len(raw) > MAX_PLAYERS:
        raise c.fail("players", f"at most {MAX_PLAYERS} players", len(raw))
    out, index, teams = [], {}, []
    for i, p in enumerate(raw):
        w = f"players[{i}]"
        p = c.table(p, w, ("name", "life", "poison", "reserve", "team"), ("name",))
        name = c.str_(p["name"], f"{w}.name")
        if name in index:
            raise c.fail(f"{w}.name", "a player name not used before", name)
        team = None
        if two_headed_giant and "team" not in p:
            raise c.fail(f"{w}.team", "a team name: two_headed_giant = true puts every player "
                         "on a team (CR 810.1)")
        if "team" in p:
            t = c.str_(p["team"], f"{w}.team")
            if t not in teams:
                teams.append(t)
            team = teams.index(t)
        index[name] = i
        out.append(PlayerSpec(
            name, None if "life" not in p else c.int_(p["life"], f"{w}.life", -(2**31), 2**31 - 1),
            c.int_(p.get("poison", 0), f"{w}.poison"), c.int_(p.get("reserve", 0), f"{w}.reserve"),
            team))
    return tuple(out), index, tuple(teams)


def _objects(c: _Checker, raw: Any, players: dict[str, int]) -> tuple[ObjectSpec, ...]:
    if not isinstance(raw, list):
        raise c.fail("objects", "an array of tables ([[objects]])", raw)
    out: list[ObjectSpec] = []
    keys = ("name", "controller", "types", "zone", "keywords", "token", "counters", "caps",
            "count") + STATS
    total = 0
    for i, o in enumerate(raw):
        w = f"objects[{i}]"
        o = c.table(o, w, keys, ("name", "controller"))
        count = c.int_(o.get("count", 1), f"{w}.count", 1, MAX_OBJECTS)
        total += count
        if total > MAX_OBJECTS:
            raise c.fail(f"{w}.count", f"at most {MAX_OBJECTS} objects in all entries together "
                         f"({total - count} before this one)", count)
        name = c.str_(o["name"], f"{w}.name")
        if any(x.name == name for x in out):
            raise c.fail(f"{w}.name", "an object name not used before", name)
        ctrl = c.str_(o["controller"], f"{w}.controller", tuple(players))
        stats = tuple((s, c.int_(o[s], f"{w}.{s}", 0 if s in COUNTER_STATS else -MAX_STAT,
                                 MAX_STAT)) for s in STATS if s in o)
        out.append(ObjectSpec(
            name, players[ctrl], c.types(o.get("types", []), f"{w}.types"),
            c.str_(o.get("zone", "battlefield"), f"{w}.zone", ZONE_NAMES), stats,
            c.strs(o.get("keywords", []), f"{w}.keywords"),
            c.bool_(o.get("token", False), f"{w}.token"),
            c.counts(o.get("counters", {}), f"{w}.counters"),
            c.counts(o.get("caps", {}), f"{w}.caps"),
            count))
    return tuple(out)


def _filter(c: _Checker, raw: Any, w: str, players: dict[str, int], objects: tuple[ObjectSpec, ...],
            allow_player: bool) -> Filter:
    if isinstance(raw, Mapping) and "player" in raw:
        if not allow_player:
            raise c.fail(f"{w}.player", "no player target for this action (objects only)")
        c.table(raw, w, ("player",))
        p = c.str_(raw["player"], f"{w}.player", tuple(players) + ("any",))
        return Filter(player=-1 if p == "any" else players[p])
    raw = c.table(raw, w, ("name", "controller", "types", "token", "has", "player"))
    names = tuple(x.name for x in objects)
    idx = tuple(names.index(c.str_(n, f"{w}.name", names))
                for n in c.strs(raw.get("name", []), f"{w}.name"))
    if "name" in raw and not idx:   # one of no names is none: no filter means any
        raise c.fail(f"{w}.name", "an entry's name or a non-empty list of them", raw["name"])
    ctrl = raw.get("controller")
    return Filter(
        idx, None if ctrl is None else players[c.str_(ctrl, f"{w}.controller", tuple(players))],
        c.types(raw.get("types", []), f"{w}.types"),
        None if "token" not in raw else c.bool_(raw["token"], f"{w}.token"),
        None if "has" not in raw else c.kind(raw["has"], f"{w}.has"))


def _effects(c: _Checker, raw: Any, players: dict[str, int], objects: tuple[ObjectSpec, ...]
             ) -> tuple[Effect, ...]:
    if not isinstance(raw, list) or not raw:
        raise c.fail("effects", "a non-empty array of tables ([[effects]])", raw)
    if len(raw) > MAX_EFFECTS:
        raise c.fail("effects", f"at most {MAX_EFFECTS} effects", len(raw))
    out = []
    for i, e in enumerate(raw):
        w = f"effects[{i}]"
        if not isinstance(e, Mapping) or "action" not in e:
            raise c.fail(f"{w}.action", "a table with an action", e)
        action = c.str_(e["action"], f"{w}.action", tuple(ACTIONS))
        req, opt = ACTIONS[action]
        e = c.table(e, w, ("action", "weight") + req + opt, req)
        weight = e.get("weight", 1.0)
        # (compared, not converted: an integer past a float's range raises OverflowError)
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or \
                not abs(weight) <= sys.float_info.max or weight < 0:
            raise c.fail(f"{w}.weight", "a finite number >= 0", weight)
        target = _filter(c, e["target"], f"{w}.target", players, objects,
                         action in PLAYER_ACTIONS) if "target" in e else None
        if action in ("lose_life", "gain_life") and target is not None and target.player is None:
            raise c.fail(f"{w}.target",
                         'a player target, { player = "name" } or { player = "any" }')
        targets: int | None = 1 if action != "proliferate" else None
        if "targets" in e:
            t = e["targets"]
            targets = None if t == "all" else c.int_(t, f"{w}.targets", 1, 64)
        if target is not None and target.player is not None and targets != 1:
            raise c.fail(f"{w}.targets", "1 for a player target", e["targets"])
        # Every kind's move without an amount moves all of each, as the engine's does.
        every = action == "move_counters" and "kind" not in e and "n" not in e
        out.append(Effect(
            action, float(weight), c.kind(e["kind"], f"{w}.kind") if "kind" in e else None,
            None if every else c.amount(e.get("n", 1), f"{w}.n"), target,
            _filter(c, e["source"], f"{w}.source", players, objects, False)
            if "source" in e else None, targets,
            c.str_(e["zone"], f"{w}.zone", MOVE_TO) if "zone" in e else None,
            tuple(k for k in DAMAGE_FLAGS if k in e and c.bool_(e[k], f"{w}.{k}")),
            c.bool_(e.get("players", False), f"{w}.players"),
            c.bool_(e.get("cost", False), f"{w}.cost")))
    if sum(e.weight for e in out) <= 0:
        raise c.fail("effects", "at least one effect with a weight > 0")
    return tuple(out)


def _no_player_life(c: _Checker, players: tuple[PlayerSpec, ...], effects: tuple[Effect, ...]
                    ) -> None:
    """Grand Archive players have no life and take no poison (their champions have life):
    the engine keeps such numbers but no rule reads them, so they would silently do nothing."""
    for i, p in enumerate(players):
        if p.life is not None:
            raise c.fail(f"players[{i}].life", "no player life in grand_archive (its players "
                         "have none: champions have life)", p.life)
        if p.poison:
            raise c.fail(f"players[{i}].poison", "no poison in grand_archive (Magic's)", p.poison)
    for i, e in enumerate(effects):
        if e.action in ("lose_life", "gain_life"):
            raise c.fail(f"effects[{i}].action", "an action for grand_archive (its players have "
                         "no life: deal_damage to a champion)", e.action)
        if e.kind == "poison" and e.target is not None and e.target.player is not None:
            raise c.fail(f"effects[{i}].kind", "a kind a grand_archive player can have "
                         "(poison is Magic's)", e.kind)

TOP_KEYS = ("name", "description", "ruleset", "turns", "effects_per_turn", "begin_main_phase",
            "two_headed_giant", "report", "players", "objects", "effects")


#: Counters that stats or damage put, besides the kinds a file names.
_STAT_KINDS = {"loyalty": "loyalty", "defense": "defense", "durability": "durability"}


def _default_kinds(ruleset: str, objects: tuple[ObjectSpec, ...], effects: tuple[Effect, ...]
                   ) -> tuple[str, ...]:
    """Every kind the file mentions or implies, in order of first mention."""
    seen = [k for o in objects for k, _ in o.counters + o.caps]
    seen += [_STAT_KINDS[s] for o in objects for s, _ in o.stats if s in _STAT_KINDS]
    for e in effects:
        seen += [k for k in (e.kind, e.target.has if e.target else None,
                             e.source.has if e.source else None) if k]
        if e.action == "deal_damage" and e.target is not None and e.target.player is None:
            if ruleset == "grand_archive":
                seen.append("damage")
            elif "wither" in e.flags or "infect" in e.flags:
                seen.append("-1/-1")
    return tuple(dict.fromkeys(seen))


def _description(c: _Checker, v: Any) -> str:
    if not isinstance(v, str):
        raise c.fail("description", "a string", v)
    return v


def parse(data: Mapping[str, Any], source: str = "<scenario>") -> Scenario:
    """Validate a decoded TOML document (a dict) into a `Scenario`."""
    c = _Checker(source)
    c.table(data, "", TOP_KEYS, ("ruleset", "turns", "players", "effects"))
    ruleset = c.str_(data["ruleset"], "ruleset", RULESETS)
    two_headed_giant = c.bool_(data.get("two_headed_giant", False), "two_headed_giant")
    if two_headed_giant and ruleset == "grand_archive":
        raise c.fail("two_headed_giant", "false for grand_archive (Two-Headed Giant is a "
                     "Magic variant, 810)", True)
    players, pindex, teams = _players(c, data["players"], two_headed_giant)
    objects = _objects(c, data.get("objects", []), pindex)
    effects = _effects(c, data["effects"], pindex, objects)
    if ruleset == "grand_archive":
        _no_player_life(c, players, effects)
    report = c.table(data.get("report", {}), "report", ("kinds",))
    kinds = tuple(c.kind(k, f"report.kinds[{i}]")
                  for i, k in enumerate(c.strs(report.get("kinds", []), "report.kinds")))
    if not kinds:  # default: every kind the file mentions, in order of first mention
        kinds = _default_kinds(ruleset, objects, effects)
    default_name = Path(source).stem if source != "<scenario>" else "scenario"
    sc = Scenario(
        name=c.str_(data.get("name", default_name), "name"),
        ruleset=ruleset,
        turns=c.int_(data["turns"], "turns", 1, MAX_TURNS),
        players=players, objects=objects, effects=effects,
        description=_description(c, data.get("description", "")),
        effects_per_turn=c.int_(data.get("effects_per_turn", 1), "effects_per_turn", 0, 1000),
        begin_main_phase=c.bool_(data.get("begin_main_phase", False), "begin_main_phase"),
        two_headed_giant=two_headed_giant,
        report_kinds=kinds, source=source, teams=teams)
    steps, n = sc.effects_per_turn + sc.begin_main_phase, max(1, sc.n_objects)
    if sc.turns * steps * n > MAX_WORK:
        raise c.fail("turns", f"turns x (effects_per_turn + begin_main_phase) x objects of at "
                     f"most {MAX_WORK:,} per game (about half a second); this file asks for "
                     f"{sc.turns:,} x {steps:,} x {n:,} = {sc.turns * steps * n:,}")
    return sc


#: What can nest in TOML (strings and comments are skipped: their brackets and dots are text).
#: A multi-line string may end in one or two quotes of its own (""""" closes one ending in "").
_NESTING = re.compile(r'"""(?:[^"\\]|\\[\s\S]|""?(?!"))*"{3,5}|\'\'\'(?:[^\']|\'\'?(?!\'))*\'{3,5}'
                      r'|"(?:\\.|[^"\\\n])*"|\'[^\'\n]*\'|#[^\n]*|[][{}.=,\n]')


def _too_deep(text: str) -> int | None:
    """The line at which ``text`` nests deeper than MAX_DEPTH, found without parsing it (the
    parser recurses into arrays and inline tables, and dotted keys cost it quadratic time):
    each open bracket or brace is a level, and so is each dot of a key."""
    depth = dots = 0
    for m in _NESTING.finditer(text):
        t = m.group()
        if t in ("[", "{"):
            depth += 1
        elif t in ("]", "}"):
            depth, dots = depth - 1, 0
        elif t == ".":
            dots += 1
        elif t in ("=", ",", "\n"):
            dots = 0
        if depth + dots > MAX_DEPTH:
            return text.count("\n", 0, m.start()) + 1
    return None


def loads(text: str, source: str = "<scenario>") -> Scenario:
    """Parse TOML text into a validated `Scenario`."""
    if len(text) > MAX_BYTES:
        raise ScenarioError(f"{source}: expected a scenario of at most {MAX_BYTES:,} bytes, "
                            f"got {len(text):,} characters")
    line = _too_deep(text)
    if line is not None:
        raise ScenarioError(f"{source}: line {line}: expected tables, arrays and dotted keys "
                            f"nested at most {MAX_DEPTH} levels deep")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(f"{source}: not valid TOML: {e}") from None
    except ValueError as e:   # tomllib's own int() of an integer of thousands of digits
        raise ScenarioError(f"{source}: not valid TOML: {str(e).split(';')[0]}") from None
    return parse(data, source)


def _read(path: str | Path) -> str:
    """The text of a regular file of at most MAX_BYTES: a device, a FIFO or a directory is
    refused before anything is read (O_NONBLOCK: opening a FIFO does not wait for a writer)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            what = ("a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else
                    "a FIFO" if stat.S_ISFIFO(mode) else "not a regular file")
            raise ScenarioError(f"{path}: expected a regular file, got {what}")
        data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ScenarioError(f"{path}: expected a scenario of at most {MAX_BYTES:,} bytes, "
                            "it is larger")
    try:
        return data.decode("utf-8-sig")   # (a byte order mark, as some editors write, is not TOML)
    except UnicodeDecodeError as e:
        raise ScenarioError(f"{path}: expected UTF-8 text, got byte {data[e.start]:#04x} at "
                            f"offset {e.start}") from None


def load(path: str | Path) -> Scenario:
    """Load a scenario: a file path, or the name of an embedded scenario (see `embedded`)."""
    p = Path(path)
    try:
        there = p.exists()
    except OSError:   # (a name too long for the file system: read below says so)
        there = False
    if not there and str(path) in embedded():
        return loads(_embedded_dir().joinpath(f"{path}.toml").read_text("utf-8"), f"{path}.toml")
    try:
        text = _read(p)
    except OSError as e:
        known = ", ".join(embedded())
        raise ScenarioError(f"{path}: cannot read the scenario ({e.strerror}); "
                            f"embedded scenarios are: {known}") from None
    return loads(text, str(path))


DEFAULT = "mtg_skirmish"


def _embedded_dir() -> Any:
    return resources.files("ecs").joinpath("scenarios")


def embedded() -> dict[str, str]:
    """Embedded scenario names -> their description."""
    out = {}
    for f in sorted(_embedded_dir().iterdir(), key=lambda f: f.name):
        if f.name.endswith(".toml"):
            data = tomllib.loads(f.read_text("utf-8"))
            out[f.name[:-5]] = str(data.get("description", ""))
    return out
