"""The documentation runs: every ```python block of README.md and docs/*.md, every scenario
(```toml) block, the two commands, the main job's printed excerpt and every link.

The Python blocks of one file run in order in one namespace (a later block may use an
earlier block's names), with ``__name__ == "__main__"``, so Monte Carlo examples guarded
by ``if __name__ == "__main__":`` (needed by the spawn start method) run too. A block
preceded by a ``<!-- no-test: reason -->`` line is not run (a Dask cluster, say).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import ecs
from ecs import cli, limits, montecarlo
from ecs.scenario import loads

ROOT = Path(__file__).resolve().parents[1]
FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README = (ROOT / "README.md").read_text()
MAIN_JOB = "python -m pip install -e . && tcg-counters simulate"
TEST_COMMAND = 'python -m pip install -e ".[test]" && python -m pytest'
NO_TEST = re.compile(r"<!-- no-test: (\S.*) -->")


@dataclass(frozen=True)
class Block:
    path: Path
    line: int        # of the opening fence, 1-based
    lang: str
    code: str
    skip: str | None  # the no-test reason

    @property
    def name(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of a markdown file, with their line numbers."""
    found: list[Block] = []
    lines = path.read_text().splitlines()
    i = 0
    while i < len(lines):
        m = re.fullmatch(r"```(\w+)", lines[i])
        if m:
            end = lines.index("```", i + 1)
            before = NO_TEST.fullmatch(next((x for x in reversed(lines[:i]) if x.strip()), ""))
            found.append(Block(path, i + 1, m.group(1), "\n".join(lines[i + 1:end]) + "\n",
                               before.group(1) if before else None))
            i = end
        i += 1
    return found


ALL = [b for f in FILES for b in blocks(f)]
PYTHON = [b for b in ALL if b.lang == "python"]
TOML = [b for b in ALL if b.lang == "toml"]
# One namespace per file: (blocks run so far, names they defined).
_RUN: dict[Path, tuple[int, dict[str, Any]]] = {}


def _exec(block: Block, namespace: dict[str, Any]) -> None:
    # Padded so that tracebacks give the markdown file's own line numbers.
    code = "\n" * block.line + block.code
    exec(compile(code, str(block.path.relative_to(ROOT)), "exec"), namespace)


@pytest.mark.parametrize("block", PYTHON, ids=[b.name for b in PYTHON])
def test_python_block_runs(block: Block) -> None:
    """Each example runs, after the earlier blocks of its file, and its asserts hold."""
    if block.skip:
        compile(block.code, block.name, "exec")   # it is still valid Python
        pytest.skip(block.skip)
    mine = [b for b in PYTHON if b.path == block.path and not b.skip]
    k = mine.index(block)
    done, namespace = _RUN.pop(block.path, (0, {"__name__": "__main__"}))
    if done != k:   # run alone (or after a failure): run the earlier blocks first
        namespace = {"__name__": "__main__"}
        for earlier in mine[:k]:
            try:
                _exec(earlier, namespace)
            except Exception as e:
                pytest.fail(f"an earlier block of the file fails: {earlier.name}: {e!r}")
    _exec(block, namespace)
    _RUN[block.path] = (k + 1, namespace)


def test_docs_have_examples() -> None:
    """Every page with an API has runnable examples."""
    for name in ("README.md", "api.md", "batches-and-search.md", "scenarios.md",
                 "rules-grand-archive.md"):
        assert any(b.path.name == name and not b.skip for b in PYTHON), name


@pytest.mark.parametrize("block", TOML, ids=[b.name for b in TOML])
def test_scenario_block_plays(block: Block) -> None:
    """A scenario shown in the docs is valid and plays."""
    sc = loads(block.code, block.name)
    r = montecarlo.run(sc, games=32, workers=1)
    assert r.games == 32 and all(0 <= e.p <= 1 for e in r.survival.values())


def test_readme_states_the_two_commands_and_ci_runs_the_test_command() -> None:
    assert f"\n    {MAIN_JOB}\n" in README
    assert f"\n    {TEST_COMMAND}\n" in README
    assert TEST_COMMAND in (ROOT / ".ci" / "run").read_text()


def _shape(line: str) -> str:
    """A printed line with its numbers masked and its spaces collapsed: what does not
    depend on the sample."""
    indent = len(line) - len(line.lstrip())
    return " " * indent + " ".join(re.sub(r"\d[\d,.]*", "#", line).split())


def test_readme_shows_what_the_main_job_prints(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's excerpt is what ``tcg-counters simulate`` prints: the same lines, labels
    and columns (here on 64 games in this process; the figures differ with the sample)."""
    excerpt = next(b for b in ALL if b.path.name == "README.md" and b.lang == "text").code
    assert excerpt.startswith("Scenario mtg_skirmish (mtg, 47 objects, 12 turns): 10,000 games")
    assert cli.main(["simulate", "--games", "64", "--workers", "1", "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert [_shape(x) for x in printed.splitlines()] == [_shape(x) for x in excerpt.splitlines()]


def test_readme_is_short() -> None:
    """The README says what it is and how to start; docs/ has the rest."""
    assert len(README.splitlines()) <= 200


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _anchors(path: Path) -> set[str]:
    """GitHub's anchors of a markdown file's headings."""
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-")
            for h in re.findall(r"^#+ (.+)$", path.read_text(), re.M)}


LINKED = [*FILES, ROOT / "CHANGELOG.md"]


@pytest.mark.parametrize("path", LINKED, ids=[str(f.relative_to(ROOT)) for f in LINKED])
def test_links_stay_in_the_repository_and_resolve(path: Path) -> None:
    """Every relative link names a file of the repository (and a heading of it); nothing
    points outside the repository."""
    text = path.read_text()
    for outside in ("../shared", "DESIGN.md", "rules.md"):
        assert outside not in text, f"{path.name} refers to {outside}, outside the repository"
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue   # a web address
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        assert dest.is_file() and ROOT in dest.parents, f"{path.name}: broken link {target}"
        if anchor:
            assert anchor in _anchors(dest), f"{path.name}: no heading for {target}"


def _section(path: Path, heading: str) -> str:
    text = path.read_text()
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else None]


def test_the_error_table_names_every_exported_exception() -> None:
    """Every exception ``ecs`` exports is a CounterError and is in the table of
    docs/api.md (the scenario error lives in ecs.scenario)."""
    table = _section(ROOT / "docs" / "api.md", "Errors")
    exported = [n for n in ecs.__all__
                if isinstance(getattr(ecs, n), type) and issubclass(getattr(ecs, n), Exception)]
    assert "PolicyError" in exported and "InvalidSeedError" in exported
    missing = [n for n in exported if n != "CounterError" and f"`{n}`" not in table]
    assert missing == []


def test_the_limits_table_names_every_limit() -> None:
    """Each ``MAX_*`` bound of ecs.limits is in docs/api.md's Limits table."""
    table = _section(ROOT / "docs" / "api.md", "Limits")
    names = [n for n in vars(limits) if n.startswith("MAX_")]
    assert len(names) >= 10
    assert [n for n in names if f"`{n}`" not in table] == []
