"""Scenario files for the tests, from their parts: the tests' one way to write one."""
from __future__ import annotations


def scenario_text(turns: int, players: str, objects: str, effects: str, top: str = "") -> str:
    """A Magic scenario file of ``turns`` turns (``top``: more top-level lines); ``players``,
    ``objects`` and ``effects`` are the bodies of their [[...]] tables, in order, separated
    by blank lines."""
    def tables(section: str, bodies: str) -> str:
        return "".join(f"[[{section}]]\n{b.strip()}\n" for b in bodies.split("\n\n") if b.strip())
    return (f'ruleset = "mtg"\nturns = {turns}\n{top}\n' + tables("players", players)
            + tables("objects", objects) + tables("effects", effects))
