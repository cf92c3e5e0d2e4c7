"""ecs.errors: each error is the built-in and project errors docs/api.md's table says it
is (code that catches ``KeyError``, ``IndexError`` or ``ValueError`` catches it too), and
a message reads as written, never quoted as a KeyError's would be."""
from __future__ import annotations

import builtins
import re
from pathlib import Path

import pytest

import ecs
from ecs import CounterError, StaleEntityError, UnknownEntityError, World

API = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def _table() -> list[tuple[list[str], list[str]]]:
    """(errors, what each is) per row of the Errors table: ``| `A`, `B` (`Base`s) | ... |``."""
    text = API.read_text()
    start = text.index("\n## Errors\n")
    rows = re.findall(r"^\| ([^|]*Error[^|]*) \|", text[start:text.find("\n## ", start + 1)], re.M)
    out = []
    for cell in rows:
        names, _, bases = cell.partition("(")
        out.append((re.findall(r"`(\w+)`", names), re.findall(r"`(\w+)`", bases)))
    return out


def test_each_error_is_what_the_error_table_says_it_is():
    rows = _table()
    assert len(rows) >= 15
    for names, bases in rows:
        for name in names:
            error = getattr(ecs, name)
            assert issubclass(error, CounterError), name
            for base in bases:
                assert issubclass(error, getattr(builtins, base, None) or getattr(ecs, base)), (name, base)


def test_a_reserve_short_is_a_cost_that_cannot_be_paid():
    """GA: paying more reserve than a player has is an unpayable cost (Costs and Memory 1),
    caught where any unpayable cost is."""
    assert issubclass(ecs.InsufficientReserveError, ecs.UnpayableCostError)


@pytest.mark.parametrize("error,others", [
    (ecs.GameOverError, (ValueError, LookupError)),   # not a bad value: the game has ended
    (ecs.SBALoopError, (ValueError,)),
    (ecs.UnknownEntityError, (ValueError, IndexError)),
])
def test_an_error_is_not_a_built_in_it_does_not_resemble(error, others):
    assert not issubclass(error, others)


def test_an_unknown_or_stale_id_error_reads_unquoted_and_is_caught_as_a_key_error():
    """KeyError's str() quotes its message; these read as written (the id first)."""
    w = World()
    p = w.add_player()
    gone = w.add_object(p, "artifact")
    w.sacrifice(gone)
    for e, error in ((999, UnknownEntityError), (gone, StaleEntityError)):
        with pytest.raises(KeyError) as info:
            w.put_counters(e, "charge", 1)
        assert type(info.value) is error and str(info.value).startswith(f"entity {e} ")
    assert str(UnknownEntityError()) == ""
