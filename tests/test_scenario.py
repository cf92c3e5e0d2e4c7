"""The scenario format: good files load into the typed dataclasses, bad files raise a
ScenarioError naming the file, the field and what was expected, before any game is played."""
from __future__ import annotations

import os
import sys
import threading
import tomllib
from pathlib import Path
from typing import Any

import pytest
from scenario_text import scenario_text

from ecs import montecarlo, scenario
from ecs.errors import CounterError
from ecs.limits import MAX_STAT
from ecs.rules import RULESETS
from ecs.scenario import DEFAULT, Effect, Filter, ObjectSpec, PlayerSpec, Scenario, ScenarioError, embedded, load, loads

GOOD = """
name = "good"
description = "every feature once"
ruleset = "mtg"
turns = 5
effects_per_turn = 2

[[players]]
name = "alice"
life = 30
poison = 2
team = "red"

[[players]]
name = "bob"

[[objects]]
name = "bear"
controller = "alice"
types = ["creature"]
power = 2
toughness = 2
counters = { "+1/+1" = 1 }
caps = { "-1/-1" = 3 }

[[objects]]
name = "elves"
controller = "bob"
types = "creature"
power = 1
toughness = 1
token = true
count = 2000

[[effects]]
action = "put_counters"
weight = 2.5
kind = "-1/-1"
n = [1, 3]
targets = 4
target = { name = ["bear", "elves"], types = ["creature"], token = false }

[[effects]]
action = "deal_damage"
n = 2
infect = true
target = { player = "any" }

[[effects]]
action = "move_counters"
kind = "+1/+1"
source = { has = "+1/+1" }
target = { controller = "bob" }

[[effects]]
action = "proliferate"
players = true

[[effects]]
action = "move_zone"
zone = "exile"
target = { token = true }

[[effects]]
action = "nothing"
weight = 0
"""


# Every other feature: Two-Headed Giant, every action and damage flag, the other stats,
# a report, zones, keywords and reserve.
FULL = scenario_text(
    3,
    'name = "a"\nlife = 40\npoison = 1\nreserve = 2\nteam = "x"\n\n'
    'name = "b"\nteam = "y"\n\nname = "c"\nteam = "x"\n\nname = "d"\nteam = "y"',
    'name = "bear"\ncontroller = "a"\ntypes = ["artifact", "creature"]\ntoughness = 3\npower = -1\n'
    'keywords = ["trample"]\ncounters = { "+1/+1" = 2, shield = 1 }\ncaps = { "-1/-1" = 4 }\n\n'
    'name = "walker"\ncontroller = "b"\ntypes = "planeswalker"\nloyalty = 0\nzone = "graveyard"\n\n'
    'name = "spire"\ncontroller = "c"\ntypes = ["battle"]\ndefense = 5\n\n'
    'name = "saprolings"\ncontroller = "d"\ntypes = ["creature"]\npower = 1\ntoughness = 1\n'
    'token = true\ncount = 3\nlevel = 2',
    'action = "remove_counters"\nkind = "+1/+1"\nn = 1\ntargets = 1\ntarget = { player = "b" }\n\n'
    'action = "deal_damage"\nweight = 3\nn = [0, 4]\ndeathtouch = true\nwither = true\n'
    'infect = false\nunpreventable = true\ncombat = true\ntargets = 2\n'
    'target = { name = "bear", controller = "a", types = ["creature"], token = false, has = "shield" }\n\n'
    'action = "move_counters"\nkind = "shield"\nn = [1, 2]\nsource = { name = ["bear", "saprolings"] }\n'
    'target = { types = "creature", token = true }\n\n'
    'action = "proliferate"\ntargets = 2\ntarget = { has = "+1/+1" }\n\n'
    'action = "destroy"\ntarget = { name = "saprolings" }\ntargets = "all"\n\n'
    'action = "sacrifice"\ntarget = { controller = "d" }\n\n'
    'action = "move_zone"\nzone = "library"\ntarget = {}\n\n'
    'action = "lose_life"\nn = 2\ntarget = { player = "any" }\n\n'
    'action = "gain_life"\nweight = 0.5\nn = [1, 5]\ntarget = { player = "c" }\n\n'
    'action = "begin_main_phase"\nweight = 0\n\n'
    'action = "nothing"\nweight = 1e3',
    'name = "full"\ndescription = """every other feature"""\neffects_per_turn = 3\n'
    'begin_main_phase = true\ntwo_headed_giant = true\n[report]\nkinds = ["+1/+1", "charge"]')

# Only what is required: every other field takes its default.
MINIMAL = scenario_text(1, 'name = "a"', 'name = "o"\ncontroller = "a"',
                        'action = "proliferate"\n\naction = "put_counters"\nkind = "charge"\ntarget = {}')

LOADED = [
    # (a file, its source, what it loads to, its number of objects)
    (GOOD, "good.toml", Scenario(
        "good", "mtg", 5,
        (PlayerSpec("alice", 30, 2, team=0), PlayerSpec("bob")),
        (ObjectSpec("bear", 0, ("creature",), stats=(("power", 2), ("toughness", 2)),
                    counters=(("+1/+1", 1),), caps=(("-1/-1", 3),)),
         ObjectSpec("elves", 1, ("creature",), stats=(("power", 1), ("toughness", 1)), token=True,
                    count=2000)),
        (Effect("put_counters", 2.5, "-1/-1", (1, 3),
                Filter(names=(0, 1), types=("creature",), token=False), targets=4),
         Effect("deal_damage", 1.0, n=(2, 2), target=Filter(player=-1), flags=("infect",)),
         Effect("move_counters", 1.0, "+1/+1", target=Filter(controller=1),
                source=Filter(has="+1/+1")),
         Effect("proliferate", 1.0, targets=None, players=True),
         Effect("move_zone", 1.0, target=Filter(token=True), zone="exile"),
         Effect("nothing", 0.0)),
        "every feature once", effects_per_turn=2, report_kinds=("+1/+1", "-1/-1"),
        source="good.toml", teams=("red",)), 2001),
    (FULL, "full.toml", Scenario(
        "full", "mtg", 3,
        (PlayerSpec("a", 40, 1, 2, 0), PlayerSpec("b", team=1), PlayerSpec("c", team=0),
         PlayerSpec("d", team=1)),
        (ObjectSpec("bear", 0, ("artifact", "creature"), stats=(("power", -1), ("toughness", 3)),
                    keywords=("trample",), counters=(("+1/+1", 2), ("shield", 1)),
                    caps=(("-1/-1", 4),)),
         ObjectSpec("walker", 1, ("planeswalker",), "graveyard", (("loyalty", 0),)),
         ObjectSpec("spire", 2, ("battle",), stats=(("defense", 5),)),
         ObjectSpec("saprolings", 3, ("creature",),
                    stats=(("power", 1), ("toughness", 1), ("level", 2)), token=True, count=3)),
        (Effect("remove_counters", 1.0, "+1/+1", target=Filter(player=1)),
         Effect("deal_damage", 3.0, n=(0, 4), targets=2,
                target=Filter((0,), 0, ("creature",), False, "shield"),
                flags=("deathtouch", "wither", "unpreventable", "combat")),
         Effect("move_counters", 1.0, "shield", (1, 2), Filter(types=("creature",), token=True),
                source=Filter(names=(0, 3))),
         Effect("proliferate", 1.0, target=Filter(has="+1/+1"), targets=2),
         Effect("destroy", 1.0, target=Filter(names=(3,)), targets=None),
         Effect("sacrifice", 1.0, target=Filter(controller=3)),
         Effect("move_zone", 1.0, target=Filter(), zone="library"),
         Effect("lose_life", 1.0, n=(2, 2), target=Filter(player=-1)),
         Effect("gain_life", 0.5, n=(1, 5), target=Filter(player=2)),
         Effect("begin_main_phase", 0.0),
         Effect("nothing", 1000.0)),
        "every other feature", effects_per_turn=3, begin_main_phase=True, two_headed_giant=True,
        report_kinds=("+1/+1", "charge"), source="full.toml", teams=("x", "y")), 6),
    (MINIMAL, "boards/min.toml", Scenario(
        "min", "mtg", 1, (PlayerSpec("a"),), (ObjectSpec("o", 0),),
        (Effect("proliferate", 1.0, targets=None),
         Effect("put_counters", 1.0, "charge", target=Filter())),
        report_kinds=("charge",), source="boards/min.toml"), 1),
]


@pytest.mark.parametrize("text, source, want, n_objects", LOADED, ids=["good", "full", "minimal"])
def test_a_good_file_loads_exactly_as_written(text: str, source: str, want: Scenario,
                                              n_objects: int) -> None:
    """Every field comes back as the file wrote it, and an absent one as its default (the
    name: the file's; the report: every kind the file names)."""
    sc = loads(text, source)
    assert sc == want
    assert sc.n_objects == n_objects


def test_a_scenario_without_a_name_or_a_file_is_named_scenario() -> None:
    assert loads(MINIMAL).name == "scenario" and loads(MINIMAL).source == "<scenario>"


@pytest.mark.parametrize("name", sorted(embedded()))
def test_every_embedded_scenario_is_valid(name: str) -> None:
    sc = load(name)
    assert sc.name == name and sc.source == f"{name}.toml"
    assert sc.ruleset in RULESETS
    montecarlo.check(sc)  # the engine accepts every object and every effect


def test_embedded_scenarios_hold_the_default_both_rulesets_and_a_2000_object_board() -> None:
    names = embedded()
    assert DEFAULT in names
    scs = [load(n) for n in names]
    assert {"mtg", "grand_archive"} <= {s.ruleset for s in scs}
    assert max(s.n_objects for s in scs) >= 2000
    assert all(names[n] for n in names)  # every one has a description
    assert names == {n: s.description for n, s in zip(names, scs)}


def test_a_file_path_loads(tmp_path: Path) -> None:
    f = tmp_path / "mine.toml"
    f.write_text(GOOD)
    assert load(f).source == str(f)
    assert load(str(f)).name == "good"


def test_a_file_named_as_an_embedded_scenario_is_the_file(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path(DEFAULT).write_text(GOOD)
    assert load(DEFAULT).name == "good" and load(DEFAULT).source == DEFAULT


def _bad(old: str, new: str, base: str = GOOD) -> str:
    assert old in base, old
    return base.replace(old, new, 1)


BAD = [
    # (the change to GOOD, words the message must contain)
    (('ruleset = "mtg"', ''), ["ruleset", "required"]),
    (('ruleset = "mtg"', 'ruleset = "pokemon"'), ["ruleset", "mtg, grand_archive", "'pokemon'"]),
    (('turns = 5', 'turns = 0'), ["turns", "an integer in 1..", "0"]),
    (('turns = 5', 'turns = "5"'), ["turns", "an integer"]),
    (('effects_per_turn = 2', 'effects_per_turn = -1'), ["effects_per_turn"]),
    (('name = "bob"', 'name = "alice"'), ["players[1].name", "not used before"]),
    (('life = 30', 'life = 30.5'), ["players[0].life", "integer"]),
    (('poison = 2', 'poison = -2'), ["players[0].poison"]),
    (('team = "red"', 'team = 3'), ["players[0].team", "string"]),
    (('controller = "alice"', 'controller = "carol"'), ["objects[0].controller", "alice, bob", "'carol'"]),
    (('toughness = 2', 'toughness = "two"'), ["objects[0].toughness", "integer", "'two'"]),
    (('types = ["creature"]\npower = 2', 'types = ["creatur"]\npower = 2'),
     ["objects[0].types", "creature", "'creatur'"]),
    (('counters = { "+1/+1" = 1 }', 'counters = { "Plus One" = 1 }'),
     ["objects[0].counters", "counter kind", "Plus One"]),
    (('counters = { "+1/+1" = 1 }', 'counters = { "+1/+1" = -1 }'), ["objects[0].counters", "integer"]),
    (('caps = { "-1/-1" = 3 }', 'caps = [3]'), ["objects[0].caps", "table of kind = count"]),
    (('count = 2000', 'count = 0'), ["objects[1].count", "1..100000"]),
    (('token = true', 'token = "yes"'), ["objects[1].token", "true or false"]),
    (('toughness = 2\n', 'toughness = 2\ncolour = "red"\n'), ["objects[0].colour", "unknown key"]),
    (('action = "nothing"', 'action = "explode"'), ["effects[5].action", "put_counters", "'explode'"]),
    (('weight = 2.5', 'weight = -1'), ["effects[0].weight", "finite number >= 0"]),
    (('weight = 0', 'weight = "heavy"'), ["effects[5].weight", "number"]),
    (('n = [1, 3]', 'n = [3, 1]'), ["effects[0].n", "low <= high"]),
    (('n = [1, 3]', 'n = "many"'), ["effects[0].n", "integer or an inclusive range"]),
    (('targets = 4', 'targets = 0'), ["effects[0].targets", "1..64"]),
    (('name = ["bear", "elves"]', 'name = ["bear", "wolves"]'), ["effects[0].target.name", "bear, elves", "'wolves'"]),
    (('kind = "-1/-1"', 'kinds = "-1/-1"'), ["effects[0].kinds", "unknown key"]),
    (('kind = "-1/-1"\n', ''), ["effects[0].kind", "required"]),
    (('target = { player = "any" }', 'target = { player = "carol" }'), ["effects[1].target.player", "'carol'"]),
    (('source = { has = "+1/+1" }', 'source = { player = "bob" }'), ["effects[2].source.player", "objects only"]),
    (('zone = "exile"', 'zone = "battlefield"'), ["effects[4].zone", "graveyard", "'battlefield'"]),
    (('infect = true', 'infect = 1'), ["effects[1].infect", "true or false"]),
    (('[[players]]\nname = "bob"\n', ''), ["objects[1].controller"]),
    # the engine's bounds on stats (ecs.limits.MAX_STAT; loyalty, defense, durability >= 0),
    # not int32's: power 2**31 - 1 was refused by the engine under "objects"
    (('power = 2', 'power = 2147483647'), ["objects[0].power", "-1073741824..1073741824"]),
    (('toughness = 2', 'toughness = -1073741825'), ["objects[0].toughness", "-1073741824.."]),
    (('power = 2', 'loyalty = -1'), ["objects[0].loyalty", "0..1073741824", "-1"]),
    # Two-Headed Giant without a team was refused by the engine under "objects"
    (('turns = 5', 'turns = 5\ntwo_headed_giant = true'), ["players[1].team", "CR 810.1"]),
    # each field's wrong type or value, one past each bound, an unknown key at each level
    (('turns = 5\n', ''), [": turns: expected a value (the field is required)"]),
    (('turns = 5', 'turns = 5\ntwo_headed_giant = 1'), [": two_headed_giant: expected true or false, got 1"]),
    (('description = "every feature once"', 'description = 3'), [": description: expected a string, got 3"]),
    (('effects_per_turn = 2', 'effects_per_turn = 2\nreport = ["+1/+1"]'),
     [": report: expected a table, got ['+1/+1']"]),
    (('effects_per_turn = 2', 'effects_per_turn = 2\n[report]\nkinds = ["+1/+1", "Plus One"]'),
     ["report.kinds[1]: expected a counter kind", "'Plus One'"]),
    (('name = "bob"', 'name = ""'), ["players[1].name: expected a non-empty string, got ''"]),
    (('life = 30', 'life = 2147483648'),
     ["players[0].life: expected an integer in -2147483648..2147483647, got 2147483648"]),
    (('life = 30', 'life = -2147483649'), ["players[0].life: expected an integer in -2147483648..", "-2147483649"]),
    (('poison = 2', 'poison = true'), ["players[0].poison: expected an integer in 0..2147483647, got True"]),
    (('poison = 2', 'reserve = -1'), ["players[0].reserve: expected an integer in 0..2147483647, got -1"]),
    (('name = "elves"', 'name = "bear"'), ["objects[1].name: expected an object name not used before, got 'bear'"]),
    (('controller = "alice"\n', ''), ["objects[0].controller: expected a value (the field is required)"]),
    (('power = 2', 'defense = -1'), ["objects[0].defense: expected an integer in 0..1073741824, got -1"]),
    (('token = true', 'zone = "moon"'), ["objects[1].zone: expected one of battlefield, field,", "'moon'"]),
    (('toughness = 2\n', 'toughness = 2\nkeywords = ["flying", ""]\n'),
     ["objects[0].keywords: expected a string or a list of strings"]),
    (('counters = { "+1/+1" = 1 }', 'counters = { "+1/+1" = 2147483648 }'),
     ["objects[0].counters.'+1/+1': expected an integer in 0..2147483647, got 2147483648"]),
    (('target = { name = ["bear", "elves"], types = ["creature"], token = false }\n', ''),
     ["effects[0].target: expected a value (the field is required)"]),
    (('name = ["bear", "elves"]', 'name = 3'),
     ["effects[0].target.name: expected a string or a list of strings, got 3"]),
    # one of no names matches nothing: refused, where it matched every object as no `name`
    (('name = ["bear", "elves"]', 'name = []'),
     ["effects[0].target.name: expected an entry's name or a non-empty list of them, got []"]),
    (('types = ["creature"], token = false', 'types = ["creatur"], token = false'),
     ["effects[0].target.types: expected card types", "'creatur'"]),
    (('n = [1, 3]', 'n = [1, 2, 3]'), ["effects[0].n: expected an integer or an inclusive range", "[1, 2, 3]"]),
    (('n = [1, 3]', 'n = [1, -1]'), ["effects[0].n[1]: expected an integer in 0..2147483647, got -1"]),
    (('n = 2\ninfect', 'n = true\ninfect'),
     ["effects[1].n: expected an integer or an inclusive range [low, high], got True"]),
    (('target = { player = "any" }', 'target = { player = "any", token = true }'),
     ["effects[1].target.token: expected one of the keys player (unknown key)"]),
    (('kind = "+1/+1"\nsource', 'kind = "Plus One"\nsource'),
     ["effects[2].kind: expected a counter kind", "'Plus One'"]),
    (('source = { has = "+1/+1" }', 'source = { has = "Plus One" }'),
     ["effects[2].source.has: expected a counter kind", "'Plus One'"]),
    (('target = { controller = "bob" }', 'target = { controller = "carol" }'),
     ["effects[2].target.controller: expected one of alice, bob, got 'carol'"]),
    (('players = true', 'players = 1'), ["effects[3].players: expected true or false, got 1"]),
    (('zone = "exile"', 'zone = "field"'), ["effects[4].zone: expected one of graveyard,", "'field'"]),
    (('zone = "exile"\n', ''), ["effects[4].zone: expected a value (the field is required)"]),
    (('target = { token = true }', 'target = { token = "yes" }'),
     ["effects[4].target.token: expected true or false, got 'yes'"]),
    (('target = { token = true }', 'target = [{ token = true }]'),
     ["effects[4].target: expected a table, got [{'token': True}]"]),
    (('weight = 0', 'weight = true'), ["effects[5].weight: expected a finite number >= 0, got True"]),
    (('weight = 0', 'weight = inf'), ["effects[5].weight: expected a finite number >= 0, got inf"]),
    (('weight = 0', 'weight = nan'), ["effects[5].weight: expected a finite number >= 0, got nan"]),
    # an integer past a float's range raised OverflowError
    (('weight = 0', 'weight = 1' + '0' * 400),
     ["effects[5].weight: expected a finite number >= 0, got 1" + "0" * 59 + "... (401 characters)"]),
    # a long value is cut in the message (its size said)
    (('token = true', 'zone = "' + "m" * 100 + '"'),
     ["objects[1].zone: expected one of battlefield,", "got '" + "m" * 59 + "... (102 characters)"]),
]
# (the change to FULL, words the message must contain)
BAD_FULL = [
    (('begin_main_phase = true', 'begin_main_phase = "yes"'),
     [": begin_main_phase: expected true or false, got 'yes'"]),
    (('kinds = ["+1/+1", "charge"]', 'kinds = ["+1/+1"]\nkind = "charge"'),
     ["report.kind: expected one of the keys kinds (unknown key)"]),
    (('reserve = 2', 'reserve = 2\nmana = 3'),
     ["players[0].mana: expected one of the keys name, life, poison, reserve, team (unknown key)"]),
    (('level = 2', 'level = 1073741825'), ["objects[3].level: expected an integer in -1073741824..1073741824"]),
    (('deathtouch = true', 'deathtouch = "yes"'), ["effects[1].deathtouch: expected true or false, got 'yes'"]),
    (('source = { name = ["bear", "saprolings"] }', 'source = { name = ["bear", "saps"] }'),
     ["effects[2].source.name: expected one of bear, walker, spire, saprolings, got 'saps'"]),
    (('targets = 2\ntarget = { has', 'targets = 65\ntarget = { has'),
     ["effects[3].targets: expected an integer in 1..64, got 65"]),
    (('targets = "all"', 'targets = "every"'), ["effects[4].targets: expected an integer in 1..64, got 'every'"]),
    (('target = { controller = "d" }', 'target = { controller = "d", zone = "hand" }'),
     ["effects[5].target.zone: expected one of the keys name, controller, types, token, has, player (unknown key)"]),
    (('n = 2\ntarget = { player = "any" }', 'target = { player = "any" }'),
     ["effects[7].n: expected a value (the field is required)"]),
    (('weight = 0.5\n', 'weight = 0.5\ntargets = 1\n'),
     ["effects[8].targets: expected one of the keys action, weight, n, target (unknown key)"]),
]


@pytest.mark.parametrize("base, change, words", [(GOOD, *c) for c in BAD] + [(FULL, *c) for c in BAD_FULL],
                         ids=[c[0][1][:30] or c[0][0][:30] for c in BAD]
                         + ["full: " + (c[0][1][:30] or c[0][0][:30]) for c in BAD_FULL])
def test_a_bad_file_names_the_file_the_field_and_the_expectation(base: str, change: tuple[str, str],
                                                                 words: list[str]) -> None:
    with pytest.raises(ScenarioError) as err:
        loads(_bad(*change, base), "bad.toml")
    msg = str(err.value)
    assert msg.startswith("bad.toml: "), msg
    for w in words + ["expected"]:
        assert w in msg, (w, msg)


def test_structural_errors() -> None:
    with pytest.raises(ScenarioError, match=r"x.toml: not valid TOML"):
        loads("turns = = 3", "x.toml")
    # an integer of more digits than int() reads (TOML's are 64-bit) raised tomllib's ValueError
    with pytest.raises(ScenarioError, match=r"^x.toml: not valid TOML: Exceeds the limit \(\d+ digits\) for "
                       r"integer string conversion: value has 5000 digits$"):
        loads("turns = " + "9" * 5000, "x.toml")
    with pytest.raises(ScenarioError, match=r"x.toml: players: expected a non-empty array"):
        loads('ruleset = "mtg"\nturns = 1\nplayers = []\n[[effects]]\naction = "nothing"', "x.toml")
    with pytest.raises(ScenarioError, match=r"x.toml: effects: expected at least one effect with a weight > 0"):
        loads('ruleset = "mtg"\nturns = 1\n[[players]]\nname = "a"\n[[effects]]\naction = "nothing"\n'
              'weight = 0', "x.toml")
    with pytest.raises(ScenarioError, match=r"x.toml: effects\[0\].target: expected a player target"):
        loads('ruleset = "mtg"\nturns = 1\n[[players]]\nname = "a"\n[[effects]]\naction = "lose_life"\n'
              'n = 1\ntarget = {}', "x.toml")
    with pytest.raises(ScenarioError, match=r"x.toml: colour: expected one of the keys"):
        loads('colour = 1', "x.toml")
    with pytest.raises(ScenarioError, match=r"effects\[0\].target.name: expected a name the file defines "
                                            r"\(it defines none\), got 'bear'"):
        loads('ruleset = "mtg"\nturns = 1\n[[players]]\nname = "a"\n[[effects]]\naction = "destroy"\n'
              'target = { name = "bear" }', "x.toml")


NOTHING = 'action = "nothing"'
SHAPES = [
    # (a file, the message after its name): a table where an array of tables is expected,
    # and the other way round, at each level; a required section missing
    (scenario_text(1, "", "", NOTHING), "players: expected a value (the field is required)"),
    (scenario_text(1, "", "", NOTHING, 'players = { name = "a" }'),
     "players: expected a non-empty array of tables ([[players]]), got {'name': 'a'}"),
    (scenario_text(1, "", "", NOTHING, 'players = ["a"]'), "players[0]: expected a table, got 'a'"),
    (scenario_text(1, 'name = "a"', "", NOTHING, 'objects = { name = "o" }'),
     "objects: expected an array of tables ([[objects]]), got {'name': 'o'}"),
    (scenario_text(1, 'name = "a"', "", NOTHING, 'objects = ["o"]'), "objects[0]: expected a table, got 'o'"),
    (scenario_text(1, 'name = "a"', "", ""), "effects: expected a value (the field is required)"),
    (scenario_text(1, 'name = "a"', "", "", 'effects = { action = "nothing" }'),
     "effects: expected a non-empty array of tables ([[effects]]), got {'action': 'nothing'}"),
    (scenario_text(1, 'name = "a"', "", "", "effects = []"),
     "effects: expected a non-empty array of tables ([[effects]]), got []"),
    (scenario_text(1, 'name = "a"', "", "", 'effects = ["nothing"]'),
     "effects[0].action: expected a table with an action, got 'nothing'"),
    (scenario_text(1, 'name = "a"', "", "weight = 1"),
     "effects[0].action: expected a table with an action, got {'weight': 1}"),
    (scenario_text(1, 'name = "a"', "", NOTHING, '[[report]]\nkinds = ["+1/+1"]'),
     "report: expected a table, got [{'kinds': ['+1/+1']}]"),
]


@pytest.mark.parametrize("text, message", SHAPES, ids=[m.split(",")[0] for _, m in SHAPES])
def test_a_file_of_the_wrong_shape_names_the_field(text: str, message: str) -> None:
    with pytest.raises(ScenarioError) as err:
        loads(text, "shape.toml")
    assert str(err.value) == f"shape.toml: {message}"


def _one_effect(effect: str, turns: int = 1, top: str = "") -> str:
    """Two players, a bear and one effect."""
    return scenario_text(turns, 'name = "a"\n\nname = "b"',
                         'name = "bear"\ncontroller = "a"\ntypes = ["creature"]\npower = 2\ntoughness = 2',
                         effect, top)


def test_the_bounds_of_a_file_are_inclusive() -> None:
    """An amount [2, 2] is one value; no effects in a turn whose main phase begins is a
    run of main phases; work of exactly MAX_WORK per game is allowed, one more is not."""
    put = 'action = "put_counters"\nkind = "charge"\nn = [2, 2]\ntarget = {name = "bear"}'
    assert loads(_one_effect(put), "x.toml").effects[0].n == (2, 2)
    sc = loads(_one_effect(put, 3, "effects_per_turn = 0\nbegin_main_phase = true"), "x.toml")
    assert sc.effects_per_turn == 0 and sc.begin_main_phase
    turns = scenario.MAX_WORK // 1000   # 999 effects and a main phase a turn, one object
    work = "effects_per_turn = 999\nbegin_main_phase = true"
    assert loads(_one_effect(put, turns, work), "x.toml").turns == turns
    with pytest.raises(ScenarioError, match="turns"):
        loads(_one_effect(put, turns + 1, work), "x.toml")


def test_a_player_target_takes_one_target() -> None:
    with pytest.raises(ScenarioError, match=r"effects\[0\]\.targets: expected 1 for a player target"):
        loads(_one_effect('action = "put_counters"\nkind = "poison"\ntargets = 2\ntarget = {player = "b"}'),
              "x.toml")


GA = """ruleset = "grand_archive"
turns = 1
[[players]]
name = "alice"
[[players]]
name = "bob"
[[objects]]
name = "champ"
controller = "alice"
types = ["champion"]
life = 20
[[effects]]
action = "deal_damage"
n = 1
target = { name = "champ" }
"""


@pytest.mark.parametrize("change, words", [
    (('name = "bob"', 'name = "bob"\nlife = 20'), ["players[1].life", "no player life", "20"]),
    (('name = "bob"', 'name = "bob"\nlife = 0'), ["players[1].life", "no player life", "got 0"]),
    (('name = "bob"', 'name = "bob"\npoison = 3'), ["players[1].poison", "Magic's", "3"]),
    (('name = "bob"', 'name = "bob"\npoison = 1'), ["players[1].poison", "Magic's", "got 1"]),
    (('action = "deal_damage"\nn = 1\ntarget = { name = "champ" }',
      'action = "lose_life"\nn = 1\ntarget = { player = "bob" }'),
     ["effects[0].action", "'lose_life'"]),
    (('action = "deal_damage"\nn = 1\ntarget = { name = "champ" }',
      'action = "gain_life"\nn = 1\ntarget = { player = "any" }'),
     ["effects[0].action", "'gain_life'"]),
    (('action = "deal_damage"\nn = 1\ntarget = { name = "champ" }',
      'action = "put_counters"\nkind = "poison"\ntarget = { player = "bob" }'),
     ["effects[0].kind", "'poison'"])])
def test_grand_archive_player_life_and_poison_are_refused(change: tuple[str, str],
                                                           words: list[str]) -> None:
    """Grand Archive players have no life or poison: a file giving them some, or effects on
    them, ran and they silently did nothing."""
    loads(GA, "ga.toml")
    assert GA.count(change[0]) == 1
    with pytest.raises(ScenarioError) as err:
        loads(GA.replace(*change), "ga.toml")
    for w in ["ga.toml: ", "expected", *words]:
        assert w in str(err.value), (w, str(err.value))


def test_two_headed_giant_is_refused_for_grand_archive() -> None:
    """810: Two-Headed Giant is a Magic variant. The file loaded and its run failed naming
    `ruleset`, the field the user had right."""
    change = ('ruleset = "grand_archive"', 'ruleset = "grand_archive"\ntwo_headed_giant = true')
    with pytest.raises(ScenarioError) as err:
        loads(_bad(*change, GA), "ga.toml")
    assert str(err.value).startswith("ga.toml: two_headed_giant: expected false for grand_archive")
    assert str(err.value).endswith("got True")


BEAR = 'name = "bear"\ncontroller = "a"\ntypes = ["creature"]\npower = 2\ntoughness = 2'


@pytest.mark.parametrize("text, kinds", [
    (scenario_text(1, 'name = "a"', 'name = "o"\ncontroller = "a"\nloyalty = 1\ndefense = 2\ndurability = 3\n'
                   'counters = { shield = 1 }\ncaps = { lore = 3 }', NOTHING),
     ("shield", "lore", "loyalty", "defense", "durability")),
    (scenario_text(1, 'name = "a"', BEAR, 'action = "move_counters"\nkind = "charge"\n'
                   'source = { has = "shield" }\ntarget = { has = "lore" }'), ("charge", "lore", "shield")),
    (scenario_text(1, 'name = "a"', BEAR, 'action = "deal_damage"\nn = 1\nwither = true\ntarget = {}'),
     ("-1/-1",)),
    (scenario_text(1, 'name = "a"', BEAR, 'action = "deal_damage"\nn = 1\ninfect = true\ntarget = {}'),
     ("-1/-1",)),
    (scenario_text(1, 'name = "a"', BEAR, 'action = "deal_damage"\nn = 1\ninfect = true\n'
                   'target = { player = "a" }'), ()),    # poison, a player's: not an object's kind
    (scenario_text(1, 'name = "a"', BEAR, 'action = "deal_damage"\nn = 1\ntarget = {}'), ()),
    (GA, ("damage",)),                                   # Grand Archive damage is counters
], ids=["stats, counters, caps", "kind and has", "wither", "infect", "infect to a player", "damage", "ga damage"])
def test_the_report_is_every_kind_the_file_names_or_implies(text: str, kinds: tuple[str, ...]) -> None:
    """Without [report] kinds: in order of first mention, the kinds of counters and caps,
    those of stats that are counters, an effect's kind and filters' `has`, and the counters
    damage puts on objects."""
    assert loads(text, "kinds.toml").report_kinds == kinds


def test_a_file_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    """Some editors start a UTF-8 file with a BOM: "not valid TOML: Invalid statement (at
    line 1, column 1)"."""
    f = tmp_path / "bom.toml"
    f.write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    assert load(f).name == "good"


def test_a_missing_file_names_it_and_lists_the_embedded_ones(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as err:
        load(tmp_path / "nope.toml")
    assert "nope.toml: cannot read the scenario" in str(err.value) and DEFAULT in str(err.value)
    with pytest.raises(ScenarioError, match="too long"):   # (past the file system's name limit)
        load(tmp_path / ("a" * 300 + ".toml"))


def test_scenario_errors_are_counter_errors() -> None:
    assert issubclass(ScenarioError, CounterError) and issubclass(ScenarioError, ValueError)


def test_the_engine_refusal_is_reported_before_any_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that is well formed but that the engine refuses (a keyword it does not know;
    damage to an artifact that is not a creature) fails in check(), naming the field: the
    entry, where it said "objects" for every player and object."""
    text = _bad('toughness = 2\n', 'toughness = 2\nkeywords = ["flyin"]\n')
    with pytest.raises(ScenarioError, match=r"bad.toml: objects\[0\] \(bear\): the engine "
                       r"refused it: unknown keyword 'flyin'"):
        montecarlo.run(loads(text, "bad.toml"), games=10, workers=1)
    text = GOOD.replace('types = "creature"', 'types = "artifact"').replace(
        'action = "nothing"', 'action = "deal_damage"\nn = 1\ntarget = { name = "elves" }')
    played = []
    monkeypatch.setattr(montecarlo, "play_shard", lambda *a: played.append(a))
    with pytest.raises(ScenarioError, match=r"bad.toml: effects\[5\].target: expected a filter that "
                       "matches at least one object that can be a deal_damage target"):
        montecarlo.run(loads(text, "bad.toml"), games=10, workers=1)
    text = GOOD.replace('counters = { "+1/+1" = 1 }', 'counters = { "+1/+1" = 2147483647 }').replace(
        '[[effects]]\naction = "nothing"',
        '[[effects]]\naction = "put_counters"\nkind = "+1/+1"\ntarget = { name = "bear" }')
    with pytest.raises(ScenarioError, match=r"bad.toml: effects\[3\] \(proliferate\): the engine "
                       r"refused it: .*would pass 2147483647"):
        montecarlo.run(loads(text, "bad.toml"), games=10, workers=1)
    assert played == []


def test_the_readme_section_example_runs() -> None:
    """The TOML example of docs/scenarios.md is a valid, runnable scenario."""
    import re
    text = (Path(__file__).resolve().parents[1] / "docs/scenarios.md").read_text()
    sc = loads(re.search(r"```toml\n(.*?)```", text, re.S).group(1), "readme.toml")
    assert sc.name == "bear_decay" and sc.players[0].team == 0
    r = montecarlo.run(sc, games=64, workers=1)
    assert r.games == 64 and 0 <= r.survival["bear"].p <= 1


# ---- bounds on what a file may ask for, checked before any work ---------------------
@pytest.mark.parametrize("text", [
    "x = " + "[" * 2000 + "]" * 2000,                 # RecursionError in the parser
    "x = " + "{ a = " * 2000 + "1" + " }" * 2000,
    "a" + ".a" * 100_000 + " = 1",                    # 200 KB: 37 s and 7.6 GB in the parser
    "[" + ".".join(["t"] * 40) + "]",
])
def test_deep_nesting_is_refused_before_parsing(text: str) -> None:
    with pytest.raises(ScenarioError, match=r"^deep.toml: line 1: expected tables, arrays and "
                       r"dotted keys nested at most 32 levels deep$"):
        loads(text, "deep.toml")


@pytest.mark.parametrize("deep", [
    lambda n: "x = " + "[" * n + "]" * n,                          # arrays
    lambda n: "x = " + "{ a = " * (n - 1) + "{}" + " }" * (n - 1),  # inline tables
    lambda n: "x" + ".a" * n + " = 1",                              # a dotted key: a level a dot
    lambda n: "[" + ".".join(["t"] * n) + "]",                      # a table's header: its bracket, its dots
    lambda n: "x = { a" + ".a" * (n - 1) + " = 1.5 }",             # a number's dot is not the key's
    lambda n: "y = 1.5\nx" + ".a" * n + " = 1",                    # nor the line's before
], ids=["arrays", "inline tables", "dotted key", "header", "key and number", "number and key"])
def test_nesting_is_accepted_to_its_bound_and_refused_one_past(deep: Any) -> None:
    """MAX_DEPTH levels are parsed (the file is refused for its unknown key only); one more
    is refused naming the line where it happens."""
    d = scenario.MAX_DEPTH
    with pytest.raises(ScenarioError, match=r"^deep.toml: a: expected one of the keys .* \(unknown key\)$"):
        loads(f"a = 1\nb = 2\n{deep(d)}\nc = 3\n", "deep.toml")
    with pytest.raises(ScenarioError) as err:
        loads(f"a = 1\nb = 2\n{deep(d + 1)}\nc = 3\n", "deep.toml")
    line = 3 + deep(d).count("\n")
    assert str(err.value) == f"deep.toml: line {line}: expected tables, arrays and dotted keys nested at most {d} " \
                             "levels deep"


@pytest.mark.parametrize("value", [
    '"' + "[{." * 200 + '"',                # a string
    '["\\\\", "' + "[{." * 200 + '"]',       # after one ending in an escaped backslash
    "'" + "[{." * 200 + "'",                # a literal string
    "'''\n" + "[[.]]" * 200 + "\n'''",  # a multi-line one
    "[" + ", ".join(["1.5"] * 200) + "]",   # numbers: each one's dot is its own
], ids=["string", "escaped backslash", "literal", "multi-line literal", "numbers"])
def test_brackets_and_dots_in_values_and_comments_are_not_nesting(value: str) -> None:
    text = GOOD.replace('description = "every feature once"', f"notes = {value}  # " + "[." * 200)
    with pytest.raises(ScenarioError, match=r"^strings.toml: notes: expected one of the keys"):
        loads(text, "strings.toml")        # parsed (and refused for its unknown key only)


@pytest.mark.parametrize("string", ['"""ends in a quote""""', '"""ends in two"""""',
                                    '"""an escaped \\""" [{."""', "'''ends in a quote''''",
                                    '""""""'])
def test_a_multi_line_string_ends_where_toml_ends_it(string: str) -> None:
    """One or two quotes before the closing three are the string's own, and so is an escaped
    quote: the scanner ended the string early, took the rest of the line for a string or
    nesting, and refused a valid file for the brackets of its comment."""
    text = GOOD.replace('"every feature once"', string + '  # "see" \'it\' ' + "[." * 40)
    assert loads(text, "quotes.toml").description == tomllib.loads(text)["description"]


def test_only_a_regular_file_of_bounded_size_is_read(tmp_path: Path) -> None:
    """/dev/zero exhausted memory, a FIFO hung: a scenario is a regular file of at most
    scenario.MAX_BYTES, read no further; undecodable bytes name their offset."""
    if os.path.exists("/dev/zero"):
        with pytest.raises(ScenarioError, match=r"^/dev/zero: expected a regular file, got a dev"):
            load("/dev/zero")
    big = tmp_path / "big.toml"
    big.write_text(GOOD + "#" * (scenario.MAX_BYTES - len(GOOD)))
    assert load(big).name == "good"
    big.write_text(GOOD + "#" * (scenario.MAX_BYTES + 1 - len(GOOD)))
    with pytest.raises(ScenarioError, match=r"big.toml: expected a scenario of at most 1,048,576"):
        load(big)
    with pytest.raises(ScenarioError, match=r"^big.toml: expected a scenario of at most 1,048,576 bytes, "
                       r"got 1,048,577 characters$"):
        loads(big.read_text(), "big.toml")     # text given to loads() is bounded too
    latin = tmp_path / "latin.toml"
    latin.write_bytes(GOOD.replace("every feature once", "caf\xe9").encode("latin-1"))
    with pytest.raises(ScenarioError, match=r"latin.toml: expected UTF-8 text, got byte 0xe9 at "):
        load(latin)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    errors: list[BaseException] = []
    t = threading.Thread(daemon=True, target=lambda: errors.append(
        pytest.raises(ScenarioError, load, fifo).value))
    t.start()
    t.join(30)
    if t.is_alive():                       # unblock the reader, then fail
        with open(fifo, "w"):
            pass
        pytest.fail("load() waited for a writer on a FIFO")
    assert "pipe.toml: expected a regular file, got a FIFO" in str(errors[0])


def _many(section: str, n: int, body: str) -> str:
    return "".join(f"\n[[{section}]]\n{body.format(i=i)}" for i in range(n))


def test_the_work_a_file_asks_for_is_bounded() -> None:
    """10^7 objects failed with an allocation error; 100,000 turns x 1,000 effects a turn were
    accepted (hours of work). Each bound is a message naming the file and the field."""
    head = 'ruleset = "mtg"\nturns = 10\n[[players]]\nname = "a"\n'
    nothing = '\n[[effects]]\naction = "nothing"\n'
    ten_millions = head + _many("objects", 10, 'name = "o{i}"\ncontroller = "a"\ncount = 1000000')
    with pytest.raises(ScenarioError, match=r"^big.toml: objects\[0\].count: expected an integer "
                       r"in 1..100000, got 1000000$"):
        loads(ten_millions + nothing, "big.toml")
    two = head + _many("objects", 2, 'name = "o{i}"\ncontroller = "a"\ncount = 60000')
    with pytest.raises(ScenarioError, match=r"^big.toml: objects\[1\].count: expected at most "
                       r"100000 objects in all entries together \(60000 before this one\), "
                       r"got 60000"):
        loads(two + nothing, "big.toml")
    long = head.replace("turns = 10", "turns = 100000\neffects_per_turn = 1000") + nothing
    with pytest.raises(ScenarioError, match=r"^long.toml: turns: expected turns x "
                       r"\(effects_per_turn \+ begin_main_phase\) x objects of at most "
                       r"10,000,000 per game .* 100,000 x 1,000 x 1 = 100,000,000$"):
        loads(long, "long.toml")
    players = 'ruleset = "mtg"\nturns = 1\n' + _many("players", 65, 'name = "p{i}"') + nothing
    with pytest.raises(ScenarioError, match=r"^p.toml: players: expected at most 64 players"):
        loads(players, "p.toml")
    effects = head + nothing * 1001
    with pytest.raises(ScenarioError, match=r"^e.toml: effects: expected at most 1000 effects"):
        loads(effects, "e.toml")


_SIZE = dict(players=2, effects=1, counts=(1,), turns=1, per_turn=1)


def _sized(**size: object) -> str:
    """A file of so many players, effects, object entries (their counts), turns and effects
    a turn (`_SIZE` for those not given)."""
    z: dict[str, Any] = {**_SIZE, **size}
    return scenario_text(
        z["turns"], "\n\n".join(f'name = "p{i}"' for i in range(z["players"])),
        "\n\n".join(f'name = "o{i}"\ncontroller = "p0"\ncount = {n}' for i, n in enumerate(z["counts"])),
        "\n\n".join([NOTHING] * z["effects"]), f"effects_per_turn = {z['per_turn']}")


MP, ME, MO, MT = scenario.MAX_PLAYERS, scenario.MAX_EFFECTS, scenario.MAX_OBJECTS, scenario.MAX_TURNS
SIZES = [
    # (a file at a bound, the same one past it, the message after the file's name)
    (dict(players=MP), dict(players=MP + 1), f"players: expected at most {MP} players, got {MP + 1}"),
    (dict(effects=ME), dict(effects=ME + 1), f"effects: expected at most {ME} effects, got {ME + 1}"),
    (dict(counts=(MO,)), dict(counts=(MO + 1,)), f"objects[0].count: expected an integer in 1..{MO}, got {MO + 1}"),
    (dict(counts=(MO // 2, MO // 2)), dict(counts=(MO // 2, MO // 2 + 1)),
     f"objects[1].count: expected at most {MO} objects in all entries together ({MO // 2} before this one), "
     f"got {MO // 2 + 1}"),
    (dict(turns=MT, per_turn=0), dict(turns=MT + 1, per_turn=0),
     f"turns: expected an integer in 1..{MT}, got {MT + 1}"),
    (dict(per_turn=1000), dict(per_turn=1001), "effects_per_turn: expected an integer in 0..1000, got 1001"),
]


@pytest.mark.parametrize("edge, past, message", SIZES, ids=[m.split(":")[0] for *_, m in SIZES])
def test_each_size_is_accepted_at_its_bound_and_refused_one_past(edge: dict[str, Any], past: dict[str, Any],
                                                                 message: str) -> None:
    sc = loads(_sized(**edge), "size.toml")
    assert dict(players=len(sc.players), effects=len(sc.effects), counts=tuple(o.count for o in sc.objects),
                turns=sc.turns, per_turn=sc.effects_per_turn) == {**_SIZE, **edge}
    with pytest.raises(ScenarioError) as err:
        loads(_sized(**past), "size.toml")
    assert str(err.value) == f"size.toml: {message}"


ZONES = ("battlefield", "field", "graveyard", "exile", "banishment", "hand", "library", "command", "memory")
EDGES = [
    # (the change to GOOD at a bound, where the value lands, the value): one past each is in BAD
    (('life = 30', 'life = -2147483648'), lambda sc: sc.players[0].life, -2**31),
    (('life = 30', 'life = 2147483647'), lambda sc: sc.players[0].life, 2**31 - 1),
    (('power = 2', 'power = -1073741824'), lambda sc: sc.objects[0].stats[0], ("power", -MAX_STAT)),
    (('toughness = 2', 'toughness = 1073741824'), lambda sc: sc.objects[0].stats[1], ("toughness", MAX_STAT)),
    (('power = 2', 'loyalty = 0'), lambda sc: sc.objects[0].stats[1], ("loyalty", 0)),
    (('counters = { "+1/+1" = 1 }', 'counters = { "+1/+1" = 2147483647 }'),
     lambda sc: sc.objects[0].counters, (("+1/+1", 2**31 - 1),)),
    (('targets = 4', 'targets = 64'), lambda sc: sc.effects[0].targets, 64),
    (('n = [1, 3]', 'n = [0, 2147483647]'), lambda sc: sc.effects[0].n, (0, 2**31 - 1)),
    (('weight = 2.5', 'weight = 1.7976931348623157e308'), lambda sc: sc.effects[0].weight, sys.float_info.max),
    *[(('token = true', f'token = true\nzone = "{z}"'), lambda sc: sc.objects[1].zone, z) for z in ZONES],
    *[(('zone = "exile"', f'zone = "{z}"'), lambda sc: sc.effects[4].zone, z) for z in ZONES[2:]],
]


@pytest.mark.parametrize("change, where, value", EDGES, ids=[c[1] for c, *_ in EDGES])
def test_each_value_is_accepted_at_its_bound(change: tuple[str, str], where: Any, value: object) -> None:
    assert where(loads(_bad(*change), "edge.toml")) == value


def test_a_reported_kind_of_another_ruleset_fails_before_any_game(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A Grand Archive file whose report.kinds names a Magic kind passed validation and failed
    after 1,024 games naming neither file nor field."""
    ga = load("ga_wither")
    assert ga.ruleset == "grand_archive"
    text = (Path(montecarlo.__file__).parent / "scenarios" / "ga_wither.toml").read_text()
    sc = loads(text + '\n[report]\nkinds = ["damage", "+1/+1"]\n', "ga.toml")
    played: list[object] = []
    monkeypatch.setattr(montecarlo, "play_shard", lambda *a: played.append(a))
    with pytest.raises(ScenarioError, match=r"^ga.toml: report.kinds\[1\] \('\+1/\+1'\): "
                       r"the engine refused it: .*Magic"):
        montecarlo.run(sc, games=2048, workers=1)
    assert played == []
