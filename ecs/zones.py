"""Zone codes (CR 400.1). Code 0 means "this object does not exist in that game"."""
from __future__ import annotations

from typing import Final, Mapping

from .errors import InvalidZoneError

NONE: Final = 0
# "player" is not a zone: it marks that a player entity exists in a game.
ZONES: Final = ("none", "library", "hand", "battlefield", "graveyard", "stack", "exile",
                "command", "memory", "player")
CODE: Final = {name: i for i, name in enumerate(ZONES)}
LIBRARY, HAND, BATTLEFIELD, GRAVEYARD, STACK, EXILE, COMMAND, MEMORY, PLAYER = range(1, 10)
#: A power of two above every code: ``column * RADIX + code`` packs a (column, zone) pair.
RADIX: Final = 16
assert len(ZONES) <= RADIX


def zone_code(zone: object, aliases: Mapping[str, str]) -> int:
    """The code of a zone name (ruleset aliases allowed), or InvalidZoneError."""
    name = aliases.get(zone, zone) if isinstance(zone, str) else zone
    if not isinstance(name, str) or name not in CODE or name in ("none", "player"):
        raise InvalidZoneError(
            f"unknown zone {zone!r}; expected one of {sorted(set(ZONES[1:-1]) | set(aliases))}")
    return CODE[name]
