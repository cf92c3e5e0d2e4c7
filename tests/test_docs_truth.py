"""What the docs state about the code holds: the signatures in docs/api.md's tables (and
the other pages' call tables), the values of the limits, the bases of the errors and what
the Errors table's example calls raise, the fields of the events, the command line's
options, the scenario actions' fields, the embedded scenarios and docs/design.md's layers
table against pyproject.toml's contract.

Only a table row's first cell is parsed for a call (`name(args)`; in the Errors table, the
`w.` calls of the second cell too), so prose around it may change freely; a row that stops
parsing fails the count checks rather than passing unseen.
"""
from __future__ import annotations

import ast
import builtins
import dataclasses
import inspect
import re
import tomllib
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

import ecs
from ecs import World, cli, limits, montecarlo, scenario
from ecs.schedule import Schedule

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CALL = re.compile(r"([A-Za-z_][\w.]*)\((.*)\)")
# What a row may leave out, because the page's prose says which calls take it: `games=`
# (every action but add_player and tick()) and `where=`/`skip_finished=` (the
# actions that target objects, and lose_life and gain_life).
GENERAL = frozenset({"games", "where", "skip_finished"})


def _section(path: Path, heading: str) -> str:
    text = path.read_text()
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else None]


def _rows(text: str) -> list[list[str]]:
    """The cells of a markdown table's body rows (header and rule rows left out)."""
    lines = text.splitlines()
    rows = []
    for line, after in zip(lines, lines[1:] + [""]):
        if line.startswith("| ") and not after.startswith("|---"):
            rows.append([c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]])
    return rows


def _ticks(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def _target(name: str) -> Callable[..., Any]:
    """The code a call's name in the docs means: a World method (`w.` optional), World(),
    `World.load`, the schedule's, or a dotted name under `ecs`."""
    w = World()
    if name == "World":
        return World
    if name == "add_object":   # its keyword arguments are add_objects' (docstring: see there)
        sig = inspect.signature(w.add_objects)
        params = [p for n, p in sig.parameters.items() if n != "n"]
        return _with_signature(sig.replace(parameters=params))
    if name.startswith("World."):
        return getattr(World, name.split(".", 1)[1])
    if name == "ecs.Schedule":
        return Schedule
    if name.startswith("schedule."):
        return getattr(Schedule(w.ruleset.systems), name.split(".", 1)[1])
    if name.startswith("ecs."):
        obj: Any = ecs
        for part in name.split(".")[1:]:
            obj = getattr(obj, part)
        return obj
    if name.startswith("montecarlo."):
        return getattr(montecarlo, name.split(".", 1)[1])
    return getattr(w, name.removeprefix("w."))


def _with_signature(sig: inspect.Signature) -> Callable[..., Any]:
    def f(*args: Any, **kwargs: Any) -> None: ...
    f.__signature__ = sig   # type: ignore[attr-defined]
    return f


def _documented(args: str) -> list[tuple[str, str, Any]]:
    """(name, kind, default or Parameter.empty) of each parameter a row writes."""
    fn = ast.parse(f"def f({args}): pass").body[0]
    assert isinstance(fn, ast.FunctionDef)
    a = fn.args

    def value(d: ast.expr | None) -> Any:
        # literals and np.float32
        return inspect.Parameter.empty if d is None else eval(ast.unparse(d), {"np": np})

    pos = a.posonlyargs + a.args
    defaults = [None] * (len(pos) - len(a.defaults)) + list(a.defaults)
    out = [(x.arg, "positional", value(d)) for x, d in zip(pos, defaults)]
    if a.vararg:
        out.append((a.vararg.arg, "var", inspect.Parameter.empty))
    out += [(x.arg, "keyword", value(d)) for x, d in zip(a.kwonlyargs, a.kw_defaults)]
    return out


def _actual(fn: Callable[..., Any]) -> list[tuple[str, str, Any]]:
    kinds = {inspect.Parameter.POSITIONAL_ONLY: "positional",
             inspect.Parameter.POSITIONAL_OR_KEYWORD: "positional",
             inspect.Parameter.VAR_POSITIONAL: "var", inspect.Parameter.KEYWORD_ONLY: "keyword",
             inspect.Parameter.VAR_KEYWORD: "var keyword"}
    return [(p.name, kinds[p.kind], p.default) for p in inspect.signature(fn).parameters.values()
            if p.name != "self"]


def _calls(path: Path) -> list[tuple[str, str, str]]:
    """(written call, name, arguments) of each call in a table row's first cell."""
    found = []
    for row in _rows(path.read_text()):
        for tick in _ticks(row[0]):
            m = CALL.fullmatch(tick)
            if m:
                found.append((tick, m.group(1), m.group(2)))
    return found


# api.md, batches-and-search.md and scenarios.md write whole signatures; rules-grand-archive
# writes the calls as a Grand Archive host makes them (fewer arguments), checked loosely.
SIGNATURE_PAGES = ("api.md", "batches-and-search.md")


def _signature_cases() -> list[tuple[str, str, str, str]]:
    return [(page, *call) for page in SIGNATURE_PAGES for call in _calls(DOCS / page)]


@pytest.mark.parametrize("page,written,name,args", _signature_cases(),
                         ids=[f"{c[0]}:{c[2]}" for c in _signature_cases()])
def test_a_call_table_row_is_the_codes_signature(page: str, written: str, name: str,
                                                 args: str) -> None:
    """Each parameter a row writes is the code's, in its order, kind and default; the
    code's other parameters are only the ones the page's prose gives every action, and a
    row ending in `...` writes the first ones only."""
    partial = args.rstrip().endswith("...")
    documented = _documented(re.sub(r",?\s*\.\.\.$", "", args))
    actual = _actual(_target(name))
    if partial:
        assert documented == actual[:len(documented)], written
        return
    names = [n for n, _, _ in documented]
    assert [p for p in actual if p[0] in names] == documented, written
    assert {n for n, _, _ in actual} - set(names) <= GENERAL, written


def test_the_call_tables_are_parsed() -> None:
    """The row parser still finds the calls (a table whose format changed fails here)."""
    assert len(_calls(DOCS / "api.md")) >= 60
    assert {n for _, n, _ in _calls(DOCS / "batches-and-search.md")} >= {
        "snapshot", "restore", "clone", "fork", "select", "spawn_seeds", "World.load", "observe"}


def test_the_grand_archive_calls_name_the_codes_parameters_and_defaults() -> None:
    """docs/rules-grand-archive.md's rows write what a Grand Archive host passes: each
    parameter is the code's, positional ones in its order, keyword-only ones keyword-only,
    with the code's default where one is written."""
    checked = 0
    for written, name, args in _calls(DOCS / "rules-grand-archive.md"):
        try:
            documented = _documented(args)
        except SyntaxError:
            continue   # `add_object(..., power=, ...)`: a list of names, not a call
        if name == "World":
            continue   # `World(ruleset="grand_archive")` passes a value: no default
        actual = {n: (k, d) for n, k, d in _actual(_target(name))}
        positional = [n for n, k, _ in documented if k == "positional"]
        assert positional == [n for n in actual if n in positional], written
        for n, kind, default in documented:
            assert n in actual and actual[n][0] == kind, written
            if default is not inspect.Parameter.empty:
                assert actual[n] == (kind, default), written
        checked += 1
    assert checked >= 10


def test_the_actions_that_take_where_and_skip_finished_are_those_api_md_names() -> None:
    """docs/api.md: the actions that target objects take keyword-only `where="all"` and
    `skip_finished=False`; lose_life, gain_life and the Grand Archive's reserve actions take
    `skip_finished`."""
    text = (DOCS / "api.md").read_text()
    m = re.search(r"The actions that target objects \(([^)]*)\) also take keyword-only", text)
    assert m
    named = set(_ticks(m.group(1)))
    w = World()
    methods = {n: inspect.signature(getattr(w, n)).parameters for n in dir(World)
               if not n.startswith("_") and inspect.isfunction(getattr(World, n, None))}
    assert {n for n, ps in methods.items() if "where" in ps} == named
    assert {n for n, ps in methods.items() if "skip_finished" in ps} == named | {
        "lose_life", "gain_life", "set_reserve", "gain_reserve", "pay_reserve"}
    for n in named:
        ps = methods[n]
        assert (ps["where"].kind, ps["where"].default) == (inspect.Parameter.KEYWORD_ONLY, "all")
        assert (ps["skip_finished"].kind, ps["skip_finished"].default) == (
            inspect.Parameter.KEYWORD_ONLY, False)


def test_the_limits_table_gives_each_limits_value() -> None:
    """docs/api.md's Limits table: each `MAX_*` is the value it writes."""
    checked = 0
    for row in _rows(_section(DOCS / "api.md", "Limits")):
        names, values = _ticks(row[0]), _ticks(row[1])
        assert len(names) == len(values), row
        for name, value in zip(names, values):
            assert getattr(limits, name) == eval(value, {}), name
            checked += 1
    assert checked == len([n for n in vars(limits) if n.startswith("MAX_")])


def test_the_errors_table_gives_each_errors_base() -> None:
    """docs/api.md's Errors table: `Name` (a `Base`) holds, for builtins and ecs errors."""
    checked = 0
    for row in _rows(_section(DOCS / "api.md", "Errors")):
        head, _, base = row[0].partition("(")
        names = _ticks(head)
        bases = _ticks(base)
        for name in names:
            error = getattr(ecs, name)
            assert issubclass(error, ecs.CounterError), name
            for b in bases:
                parent = getattr(ecs, b, None) or getattr(builtins, b)
                assert issubclass(error, parent), (name, b)
            checked += 1
    assert checked >= 19


def _error_examples() -> list[tuple[str, tuple[str, ...]]]:
    """(call, the row's error names) of each `w.` call written in the Errors table's
    second column."""
    found = []
    for row in _rows(_section(DOCS / "api.md", "Errors")):
        names = tuple(_ticks(row[0].partition("(")[0]))
        found += [(t, names) for t in _ticks(row[1]) if t.startswith("w.") and CALL.fullmatch(t)]
    return found


def test_the_errors_table_has_examples_for_bad_ids_kinds_amounts_and_sources() -> None:
    """The rows that say which error a bad target, source, kind or amount raises show a
    call (checked below), the damage source's -1 among them (no object: InvalidTypeError)."""
    examples = dict(_error_examples())
    assert len(examples) >= 12
    assert examples["w.deal_damage(bear, 1, source=-1)"] == ("InvalidTypeError",)
    assert {n for names in examples.values() for n in names} >= {
        "UnknownEntityError", "StaleEntityError", "InvalidKindError", "InvalidCountError",
        "InvalidZoneError", "InvalidTypeError", "IllegalActionError"}


@pytest.mark.parametrize("call, names", _error_examples(), ids=[c for c, _ in _error_examples()])
def test_an_errors_table_example_raises_its_rows_error(call: str, names: tuple[str, ...]) -> None:
    """Each example call of docs/api.md's Errors table raises its row's error itself (not a
    subclass or a base of it), on a World of two players, a creature (`bear`) and an id
    whose object changed zones (`old`), and changes nothing."""
    w = World()
    p = w.add_player()
    w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    old = w.add_object(p, "creature", power=1, toughness=1)
    w.move_zone(old, "graveyard")
    before, logged = w.snapshot()["store"], len(w.events())
    with pytest.raises(ecs.CounterError) as caught:
        eval(call, {"w": w, "p": p, "bear": bear, "old": old})
    assert type(caught.value).__name__ in names, (call, caught.value)
    after = w.snapshot()["store"]
    assert after.keys() == before.keys() and len(w.events()) == logged
    for name, column in before.items():
        np.testing.assert_array_equal(after[name], column, err_msg=f"{call}: {name}")


def test_the_events_table_gives_each_events_fields() -> None:
    """docs/api.md's Events table: the fields, in order, of each event class."""
    rows = _rows(_section(DOCS / "api.md", "Events"))
    assert len(rows) == 6
    for row in rows:
        [name] = _ticks(row[0])
        fields = _ticks(row[1])[0].split(", ")
        assert [f.name for f in dataclasses.fields(getattr(ecs, name))] == fields, name


def test_the_command_line_table_names_every_option_and_its_defaults() -> None:
    """docs/scenarios.md's option table: the `simulate` options, and the defaults it
    writes as `(N)`."""
    sub = next(a for a in cli.parser()._actions if a.dest == "command")
    simulate = sub.choices["simulate"]
    options = {o: a for a in simulate._actions for o in a.option_strings} | {
        a.dest: a for a in simulate._actions if not a.option_strings}
    table = _rows(_section(DOCS / "scenarios.md", "The command line"))
    written = [t.split()[0] for row in table for t in _ticks(row[0])]
    assert set(written) == set(options) - {"-h", "--help"}
    for row in table:
        m = re.search(r"\(([\d,]+)\)$", row[1])
        if m:
            [option] = [t.split()[0] for t in _ticks(row[0])]
            assert options[option].default == int(m.group(1).replace(",", "")), option


def test_the_effects_table_gives_each_actions_fields() -> None:
    """docs/scenarios.md's effects table: every action, with exactly its keys."""
    table = _rows(_section(DOCS / "scenarios.md", "Effects and targets"))
    seen = set()
    for row in table:
        keys = {re.match(r"\w+", t).group(0) for t in _ticks(row[1])   # type: ignore[union-attr]
                if re.match(r"\w+", t)}
        for action in _ticks(row[0]):
            required, optional = scenario.ACTIONS[action]
            assert keys == set(required) | set(optional), action
            seen.add(action)
    assert seen == set(scenario.ACTIONS)


def test_run_is_the_signature_scenarios_md_writes() -> None:
    """docs/scenarios.md writes montecarlo.run's whole signature."""
    text = (DOCS / "scenarios.md").read_text()
    m = re.search(r"`run\((.*?)\)`", text, re.S)
    assert m
    documented = _documented(" ".join(m.group(1).split()))
    assert documented == _actual(montecarlo.run)


def test_the_embedded_scenarios_are_those_listed() -> None:
    section = _section(DOCS / "scenarios.md", "The embedded scenarios")
    listed = re.findall(r"^- `(\w+)`", section, re.M)
    assert set(listed) == set(scenario.embedded())
    assert scenario.DEFAULT in section and "(the default)" in section


def _layers_table() -> list[list[str]]:
    """The modules of each row of docs/design.md's layers table, bottom first."""
    rows = _rows(_section(DOCS / "design.md", "Layers"))
    out = []
    for row in rows:
        # (`components/`, installed as `ecs.components`: one module named twice)
        names = [t.removeprefix("ecs.").rstrip("/") for t in _ticks(row[2])]
        out.append(list(dict.fromkeys(names)))
    return out


def test_the_layers_table_is_the_import_contract() -> None:
    """docs/design.md's layers table names each module of pyproject.toml's layers contract
    once, and lists them in an order the contract allows: a module only after those below
    it."""
    contract = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    [layers] = [c["layers"] for c in contract["contracts"] if c["type"] == "layers"]
    level = {m.strip(): i for i, layer in enumerate(reversed(layers))
             for m in layer.split("|")}
    listed = [m for row in _layers_table() for m in row]
    assert sorted(listed) == sorted(level)
    for i, a in enumerate(listed):
        for b in listed[i + 1:]:
            assert level[a] <= level[b], f"{a} is listed before {b}, which it sits above"


def test_every_system_module_is_named_in_the_layers_table() -> None:
    """The systems row names each system class of `systems/` and the shared modules."""
    row = next(r for r in _rows(_section(DOCS / "design.md", "Layers")) if r[0] == "systems")
    from ecs import systems
    from ecs.check import System
    classes = {n for n, v in vars(systems).items()
               if isinstance(v, type) and issubclass(v, System) and v is not System}
    assert classes and all(c in row[1] for c in classes)
    helpers = {p.stem for p in (ROOT / "systems").glob("*.py")} - {"__init__"}
    named = set(_ticks(row[1]))
    assert {"base", "parallel", "settled"} <= named <= helpers



def test_the_mtg_systems_table_is_the_rulesets_order() -> None:
    """docs/rules-mtg.md's table of systems (704) lists the Magic ruleset's systems in the
    order `tick()` runs them, each row citing every rule of 704 its system decides with."""
    rows = [r for r in _rows((DOCS / "rules-mtg.md").read_text()) if r[0].isidentifier()]
    systems = World().systems
    assert [r[0] for r in rows] == [type(s).__name__ for s in systems]
    for row, system in zip(rows, systems):
        assert {c for c in system.causes if c.startswith("704.")} <= set(
            re.findall(r"704\.\d+[a-z]", row[1])), row[0]
