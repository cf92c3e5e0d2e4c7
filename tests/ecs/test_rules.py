"""The ruleset lookup (ecs.rules): names it knows, and the error for any other."""
from __future__ import annotations

import pytest

import ecs.rules
from ecs import InvalidTypeError, World
from ecs.rules import RULESETS, GrandArchive, Magic, get_ruleset


def test_each_ruleset_is_found_by_its_name_and_exported():
    """``get_ruleset`` gives the one ruleset of each name; the package exports the lookup."""
    assert type(get_ruleset("mtg")) is Magic and isinstance(get_ruleset("grand_archive"), GrandArchive)
    assert get_ruleset("mtg") is RULESETS["mtg"] is World().ruleset
    assert {"RULESETS", "get_ruleset"} <= set(ecs.rules.__all__)


@pytest.mark.parametrize("name", ["nope", ["mtg"], None])
def test_an_unknown_ruleset_is_refused_naming_it_and_the_known_ones(name):
    """A name no ruleset has, or no name at all (unhashable too), raises InvalidTypeError
    (an ecs.CounterError, not a bare KeyError or TypeError) naming it and the choices,
    with no lookup error chained to it."""
    with pytest.raises(InvalidTypeError) as info:
        World(ruleset=name)
    msg = str(info.value)
    assert repr(name) in msg and "['grand_archive', 'mtg']" in msg
    assert info.value.__cause__ is None and info.value.__suppress_context__
