"""The package's layers run one way (docs/design.md): no import cycle anywhere, and the
import-linter layer contracts of pyproject.toml hold. Imports under TYPE_CHECKING and
inside functions count like any other."""
from __future__ import annotations

from pathlib import Path

import grimp
from importlinter.cli import EXIT_STATUS_SUCCESS, lint_imports

ROOT = Path(__file__).resolve().parents[1]


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.find_modules_directly_imported_by(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for m in sorted(graph.modules):
        if m not in index:
            visit(m)
    return out


def test_no_import_cycle_among_the_project_modules():
    graph = grimp.build_graph("ecs", include_external_packages=False)
    # A package imports its own submodules by nature (``ecs/__init__`` re-exports World):
    # leave out the edges from a package to what it contains, keep every other.
    for m in list(graph.modules):
        for child in graph.find_children(m):
            if graph.direct_import_exists(importer=m, imported=child):
                graph.remove_import(importer=m, imported=child)
    assert _cycles(graph) == []


def test_layer_contracts_hold(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    status = lint_imports(no_cache=True)
    assert status == EXIT_STATUS_SUCCESS, capsys.readouterr().out[-4000:]


def test_every_module_has_a_layer():
    """A module left out of the layer contract is checked by nothing but the cycle test:
    every module and subpackage directly in ``ecs`` is named in one layer."""
    import tomllib
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (layers,) = [c["layers"] for c in config["contracts"] if c["type"] == "layers"]
    named = {m.strip() for layer in layers for m in layer.split("|")}
    graph = grimp.build_graph("ecs", include_external_packages=False)
    assert {m.split(".")[1] for m in graph.find_children("ecs")} == named


def test_every_exception_is_exported_and_a_counter_error():
    """Every exception a user can see is an ecs.CounterError subclass, exported."""
    import inspect

    import ecs
    from ecs import errors
    mine = [c for _, c in inspect.getmembers(errors, inspect.isclass)
            if issubclass(c, Exception) and c.__module__ == errors.__name__]
    assert mine and all(issubclass(c, ecs.CounterError) for c in mine)
    assert {c.__name__ for c in mine} <= set(ecs.__all__)


def test_every_event_and_the_engine_names_are_exported():
    """``ecs`` exports each event class, ``crossed``, and the names whose modules load the
    engine on first use (World, Schedule, DRAW, ONGOING); ``from ecs import *`` binds every
    exported name, the lazy ones too."""
    import inspect

    import ecs
    from ecs import events
    mine = {c.__name__ for _, c in inspect.getmembers(events, inspect.isclass)
            if issubclass(c, events.Event) and c.__module__ == events.__name__}
    assert {"Tapped", "DamageDealt", "ZoneChanged"} <= mine
    assert mine | {"crossed", "World", "Schedule", "DRAW", "ONGOING"} <= set(ecs.__all__)
    space: dict[str, object] = {}
    exec("from ecs import *", space)
    assert set(ecs.__all__) <= set(space)
