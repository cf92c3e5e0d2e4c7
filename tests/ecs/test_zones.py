"""ecs.zones: the zones of CR 400.1 and a ruleset's names for them; "none" (an object not
in that game) and "player" (a player's slot) are codes, not zones an object can go to."""
from __future__ import annotations

import pytest
from ga_helpers import unchanged

from ecs import InvalidZoneError, World
from ecs.zones import BATTLEFIELD, CODE, EXILE, zone_code


@pytest.mark.parametrize("zone", ["none", "player", "Battlefield", "field", None, 3, ["battlefield"]])
def test_400_1_a_code_that_is_no_zone_is_refused_by_name(zone):
    """Refused when an object is made or moved there, naming the value and the zones; a
    value that is not even hashable (a list) is refused alike, not with a TypeError."""
    w = World()
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    for make in (lambda: w.add_object(p, "creature", power=1, toughness=1, zone=zone),
                 lambda: w.move_zone(bear, zone)):
        err = unchanged(w, make, InvalidZoneError)
        message, _, expected = str(err).partition("; expected one of ")
        assert message == f"unknown zone {zone!r}" and "'battlefield'" in expected
        assert "'player'" not in expected and "'none'" not in expected


def test_a_rulesets_names_for_zones_are_its_codes_and_named_when_refused():
    """Grand Archive calls the battlefield the field and exile banishment; Magic does not."""
    aliases = World(ruleset="grand_archive").ruleset.zone_aliases
    assert zone_code("field", aliases) == BATTLEFIELD and zone_code("banishment", aliases) == EXILE
    assert zone_code("exile", aliases) == CODE["exile"]
    with pytest.raises(InvalidZoneError, match="'banishment'"):
        zone_code("narnia", aliases)
