"""The rulesets: Magic: The Gathering (``"mtg"``, the default) and the Grand Archive TCG."""
from __future__ import annotations

from ecs.errors import InvalidTypeError

from .grand_archive import GrandArchive
from .mtg import Magic

RULESETS: dict[str, Magic] = {"mtg": Magic(), "grand_archive": GrandArchive()}


def get_ruleset(name: str) -> Magic:
    """The ruleset called ``name``; InvalidTypeError for an unknown name."""
    try:
        return RULESETS[name]
    except (KeyError, TypeError):
        raise InvalidTypeError(f"unknown ruleset {name!r}; expected one of {sorted(RULESETS)}") from None


__all__ = ["RULESETS", "GrandArchive", "Magic", "get_ruleset"]
