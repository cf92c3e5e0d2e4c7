"""ecs.components: each field's dtype holds every value the rules and ``ecs.limits`` let
into it (nothing wraps), a player index or a name past a narrower type's range reads back
as it was given, and the object state a zone change ends is not kept by the new object
(CR 400.7)."""
from __future__ import annotations

import numpy as np
import pytest

from ecs import IllegalActionError, World, limits, zones
from ecs.components import ALL_FIELDS, BAN_ALL, TYPE_BIT
from ecs.components.card import NO_STAT
from ecs.components.game import NO_CAP
from ecs.kinds import KEYWORD_BIT

_FIELD = {f.name: f for f in ALL_FIELDS}
_STATS = ("power", "toughness", "loyalty", "defense", "durability", "level", "pt_set_power",
          "pt_set_toughness")
_PLAYER_INDEX = (-1, limits.MAX_PLAYERS - 1)

#: field -> the values it must hold: its fill, and the bounds of what may be written to it.
HELD = {
    "entity_id": (-1, limits.MAX_ID),
    "controller": _PLAYER_INDEX,
    "owner": _PLAYER_INDEX,
    "player_head": _PLAYER_INDEX,
    "winner": (-2, *_PLAYER_INDEX),                      # -2 a draw, -1 ongoing
    "player_team": (0, limits.MAX_TEAM),
    "life": (-limits.MAX_LIFE, limits.MAX_LIFE),
    "reserve": (0, limits.MAX_COUNT),
    "damage": (0, limits.MAX_COUNT),
    "cap_val": (NO_CAP, limits.MAX_COUNT),
    "pt_mod_power": (-limits.MAX_STAT, limits.MAX_STAT),
    "pt_mod_toughness": (-limits.MAX_STAT, limits.MAX_STAT),
    **{name: (int(NO_STAT), -limits.MAX_STAT, limits.MAX_STAT) for name in _STATS},
    "types": (sum(TYPE_BIT.values()),),
    "keywords": (sum(KEYWORD_BIT.values()),),
    "ban": ((1 << 64) - 1, 1 << BAN_ALL),
    "zone": tuple(zones.CODE.values()),
    "redirect": (-1, *zones.CODE.values()),
}


@pytest.mark.parametrize("name", HELD)
def test_each_field_holds_every_value_its_limit_allows(name):
    """A field narrower than its limit would wrap a value the API accepts (ecs.limits:
    past a bound a call raises, within it nothing wraps)."""
    info = np.iinfo(_FIELD[name].dtype)
    assert all(info.min <= v <= info.max for v in HELD[name] + (_FIELD[name].fill,)), name


@pytest.mark.parametrize("name,dtype", [("damage", np.int32), ("entity_id", np.int64),
                                        ("controller", np.int16), ("owner", np.int16),
                                        ("winner", np.int16)])
def test_a_field_has_the_dtype_docs_api_limits_give_it(name, dtype):
    """docs/api.md's Limits: marked damage is int32 (as a count), ids int64, player indices
    int16; a save file stores each field in its dtype, so another one is another format."""
    assert _FIELD[name].dtype is dtype


def test_an_object_controlled_by_a_player_past_index_127_reads_as_theirs():
    """A player index is int16 (limits.MAX_PLAYERS): the 200th player's object is theirs,
    after a zone change too (its owner, 110.2)."""
    w = World()
    players = [w.add_player() for _ in range(200)]
    last = players[-1]
    e = w.add_object(last, "artifact")
    assert w.controller(e) == last
    assert w.controller(w.move_zone(e, "graveyard")) == last


def test_704_5a_the_200th_player_wins_when_every_other_player_has_lost():
    """``winner`` holds the winning player's index (int16, limits.MAX_PLAYERS): the last of
    200 players, the one left when the rest are at 0 life, is the winner."""
    w = World()
    players = [w.add_player() for _ in range(200)]
    for p in players[:-1]:
        w.lose_life(p, 20)
    w.tick()
    assert w.result() == players[-1]


def test_a_card_named_after_40000_other_names_reads_its_own_name():
    """``name_id`` indexes the World's table of names, which only grows: a name past
    int16's range still names its card."""
    w = World()
    p = w.add_player()
    for i in range(40_000):
        w.names.intern(f"card {i}")
    e = w.add_object(p, "artifact", name="The Last One")
    assert w.name(e) == "The Last One"


def test_a_single_type_name_filters_as_a_list_of_it_does():
    """``objects``/``object_mask`` take ``types`` as one name or several (an iterable of
    them): "creature" is the type, not its letters."""
    w = World()
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    w.add_object(p, "artifact")
    assert w.objects(types="creature") == w.objects(types=["creature"]) == [bear]
    assert (w.object_mask(types="creature")[1] == w.object_mask(types=("creature",))[1]).all()


def test_the_card_type_bits_and_the_no_stat_sentinel_are_the_save_formats():
    """A save file stores each object's types as these bits (``store.types``) and a missing
    stat as NO_STAT: a type's bit never moves, or a file saved before would load its
    creatures as something else (new types take new bits at the end), and a moved sentinel
    would read its missing stats as numbers."""
    assert NO_STAT == np.iinfo(np.int32).min
    assert list(TYPE_BIT) == [
        "player", "creature", "planeswalker", "battle", "artifact", "enchantment", "land",
        "instant", "sorcery", "kindred",
        "champion", "ally", "weapon", "regalia", "domain", "item", "action", "attack", "phantasia",
        "siegeable", "mastery"]
    assert list(TYPE_BIT.values()) == [1 << i for i in range(len(TYPE_BIT))]


def test_122_1_a_prohibition_names_any_of_the_first_63_kinds_and_no_later_one():
    """Prohibitions are a bit mask over the World's first 63 kinds (docs/api.md), one bit
    beside them for every kind: the 63rd kind used has a bit of its own, the 64th raises
    IllegalActionError, and a prohibition of the 63rd leaves the others allowed (122.1)."""
    w = World()
    p = w.add_player()
    e = w.add_object(p, "artifact")
    kinds = [f"k{i}" for i in range(64)]
    for kind in kinds:
        w.put_counters(e, kind, 1)
    w.prohibit(e, kinds[62])
    assert w.is_prohibited(e, kinds[62]) and not w.is_prohibited(e, kinds[0])
    w.put_counters(e, kinds[0], 1)
    w.put_counters(e, kinds[62], 1)
    assert (w.count(e, kinds[0]), w.count(e, kinds[62])) == (2, 1)
    with pytest.raises(IllegalActionError, match="first 63 kinds"):
        w.prohibit(e, kinds[63])


@pytest.mark.parametrize("batch", [1, 2])
def test_400_7_immortality_ends_when_its_object_changes_zones(batch):
    """GA Immortality is the object's (Keywords: Immortality 1): the new object a zone
    change makes (400.7) is mortal until the host declares it again, and is destroyed."""
    w = World(ruleset="grand_archive", batch=batch, seed=7)
    a = w.add_player()
    w.add_object(a, "champion", life=20, level=1)
    ally = w.add_object(a, "ally", power=1, life=2)
    w.set_immortal(ally)
    w.destroy(ally)
    assert all(w.objects(zone="graveyard", game=g) == [] for g in range(batch))
    back = w.move_zone(w.move_zone(ally, "hand"), "battlefield")
    w.destroy(back)
    assert all(len(w.objects(zone="graveyard", game=g)) == 1 for g in range(batch))


@pytest.mark.parametrize("batch", [1, 2])
def test_400_7_a_card_that_leaves_its_library_leaves_its_position_behind(batch, tmp_path):
    """A library's order (``position``) is its cards' (401.1): one drawn, milled or moved
    out is a new object with none (400.7), so the World saves and loads as it was."""
    w = World(batch=batch, seed=1)
    p = w.add_player()
    cards = [int(c) for c in w.add_objects(6, p, "creature", zone="library", power=1, toughness=1)]
    w.order_library(p, cards[::-1])
    w.draw(p)
    w.mill(p, 1)
    w.move_zone(w.library(p)[0], "exile")
    w.add_object(p, "artifact", zone="library")   # an arrival, after the highest position
    w.save(tmp_path / "w.npz")
    back = World.load(tmp_path / "w.npz")
    assert all(back.library(p, g) == w.library(p, g) for g in range(batch))
    assert len(w.library(p)) == 4 and w.library(p)[:3] == cards[2::-1]
