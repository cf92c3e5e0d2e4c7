"""Counter kinds: the name grammar, power/toughness kinds and keyword counters (CR 122.1).

A kind is identified by its name. Names are validated once, then mapped to a dense
plane index by the store. The grammar is ASCII only: a digit is 0-9 (``re.ASCII``: a
fullwidth, Arabic-Indic or mathematical digit is not one, so no two names read alike).
"""
from __future__ import annotations

import re
from typing import Final

from .errors import InvalidKindError

MAX_KIND_LENGTH: Final = 40
_WORDS = re.compile(r"[a-z0-9]+(?:[ -][a-z0-9]+)*", re.ASCII)
# CR 122.1a names +X/+Y and -X/-Y counters only: both signs agree (the backreference);
# numbers are written without leading zeros, so "+01/+01" is not a second name of +1/+1
# (counters of one name are interchangeable, 122.1; 704.5q pairs +1/+1 with -1/-1).
_PT = re.compile(r"([+-])(0|[1-9][0-9]{0,2})/(\1)(0|[1-9][0-9]{0,2})", re.ASCII)

#: CR 122.1b: the keywords a keyword counter can be (variants start with one of these).
KEYWORDS: Final = (
    "flying", "first strike", "double strike", "deathtouch", "decayed", "exalted",
    "haste", "hexproof", "indestructible", "lifelink", "menace", "reach", "shadow",
    "trample", "vigilance",
)
KEYWORD_BIT: Final = {k: 1 << i for i, k in enumerate(KEYWORDS)}

#: The printed stats a Magic object enters the battlefield with as counters of the same
#: name, and the card type that has each: loyalty (306.5b), defense (310.4b).
ENTERING: Final = (("loyalty", "planeswalker"), ("defense", "battle"))


def validate_kind(kind: object) -> str:
    """Return ``kind`` if it is a well-formed counter kind name, else raise InvalidKindError."""
    if not isinstance(kind, str):
        raise InvalidKindError(f"counter kind must be a str, got {type(kind).__name__} {kind!r}")
    pt = _PT.fullmatch(kind)
    if pt is not None and pt.group(2) == pt.group(4) == "0":   # (+0/+0 and -0/-0: one nothing, two names)
        raise InvalidKindError(f"malformed counter kind {kind!r}: a power/toughness kind changes one of them "
                               "(CR 122.1a)")
    if len(kind) > MAX_KIND_LENGTH or not (_WORDS.fullmatch(kind) or pt):
        raise InvalidKindError(
            f"malformed counter kind {kind!r}: expected lowercase words of a-z0-9 joined by "
            f"single spaces or hyphens (at most {MAX_KIND_LENGTH} characters), or +X/+Y, -X/-Y "
            "(X, Y numbers without leading zeros)"
        )
    return kind


def pt_modifier(kind: str) -> tuple[int, int] | None:
    """(X, Y) for a +X/+Y or -X/-Y counter (CR 122.1a), None for any other kind."""
    m = _PT.fullmatch(kind)
    if m is None:
        return None
    sx, x, sy, y = m.groups()
    return (int(x) if sx == "+" else -int(x), int(y) if sy == "+" else -int(y))


def keyword_of(kind: str) -> str | None:
    """The keyword a keyword counter grants (CR 122.1b), including variants such as
    "hexproof from black"; None when ``kind`` is not a keyword counter."""
    for k in KEYWORDS:
        if kind == k or kind.startswith(k + " "):
            return k
    return None
