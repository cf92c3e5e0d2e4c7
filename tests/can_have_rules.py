"""A host's "can't have counters" of a class of objects, as rulesets with the hook
``can_have`` (docs/api.md): the differential tests play games under one and compare with
the reference model's predicate of the same name (tests/reference_model.py: ``solemnity``,
``melira``), which the model asks wherever it asks a prohibition (101.3, 122.5, 122.6).

109.2: "artifact", "creature" and so on without "card" mean permanents, so the object
clauses hold on the battlefield only.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ecs import zones
from ecs.components import TYPE_BIT
from ecs.rules import Magic

try:
    import reference_model as ref  # tests/ is on sys.path (pytest rootdir conftest)
except ImportError:  # pragma: no cover - imported as a package
    from tests import reference_model as ref

_PLAYER, _CREATURE = TYPE_BIT["player"], TYPE_BIT["creature"]
_PERMANENT_CLASSES = sum(TYPE_BIT[t] for t in sorted(ref.PERMANENT_CLASSES))


def _on_battlefield(a: Any, g: np.ndarray, c: np.ndarray) -> np.ndarray:
    return a["zone"][g, c] == zones.BATTLEFIELD


class Solemnity(Magic):
    """"Players can't get counters. Counters can't be put on artifacts, creatures,
    enchantments, or lands." """

    def can_have(self, world, kind, g, c):
        a = world.store.a
        types = a["types"][g, c]
        player = (types & _PLAYER) != 0
        return ~player & ~(((types & _PERMANENT_CLASSES) != 0) & _on_battlefield(a, g, c))


class Melira(Magic):
    """Melira, Sylvok Outcast, controlled by the player of index ``you``: "You can't get
    poison counters. Creatures you control can't have -1/-1 counters put on them." (A
    player's column holds its own index as its controller.)"""

    def __init__(self, you: int = 0) -> None:
        self.you = you

    def can_have(self, world, kind, g, c):
        a = world.store.a
        types, yours = a["types"][g, c], a["controller"][g, c] == self.you
        if kind == "poison":
            return ~(((types & _PLAYER) != 0) & yours)
        if kind == "-1/-1":
            return ~(((types & _CREATURE) != 0) & yours & _on_battlefield(a, g, c))
        return None


#: name -> (the engine's ruleset, the model's predicate), each given the index of the
#: player who controls the effect (players are the model's first ids, 0, 1, ...)
RULESETS: dict[str, tuple[Callable[[int], Magic], Callable[[int], Callable]]] = {
    "solemnity": (lambda you: Solemnity(), lambda you: ref.solemnity),
    "melira": (Melira, ref.melira),
}
