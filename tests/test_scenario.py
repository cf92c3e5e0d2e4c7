"""The scenario format: good files load into the typed dataclasses, bad files raise a
ScenarioError naming the file, the field and what was expected, before any game is played."""
from __future__ import annotations

from pathlib import Path

import pytest

from ecs import montecarlo
from ecs.errors import CounterError
from ecs.rules import RULESETS
from ecs.scenario import DEFAULT, Effect, Filter, Scenario, ScenarioError, embedded, load, loads

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


def test_a_good_file_loads_into_typed_fields() -> None:
    sc = loads(GOOD, "good.toml")
    assert isinstance(sc, Scenario) and sc.name == "good" and sc.turns == 5
    assert sc.effects_per_turn == 2 and sc.source == "good.toml"
    alice, bob = sc.players
    assert (alice.life, alice.poison, alice.team, bob.life, bob.team) == (30, 2, 0, None, None)
    bear, elves = sc.objects
    assert bear.counters == (("+1/+1", 1),) and bear.caps == (("-1/-1", 3),)
    assert dict(bear.stats) == {"power": 2, "toughness": 2}
    assert elves.types == ("creature",) and elves.token and elves.count == 2000
    assert sc.n_objects == 2001
    put, dmg, move, prolif, mz, nothing = sc.effects
    assert put == Effect("put_counters", 2.5, "-1/-1", (1, 3),
                         Filter(names=(0, 1), types=("creature",), token=False), targets=4)
    assert dmg.target == Filter(player=-1) and dmg.flags == ("infect",) and dmg.n == (2, 2)
    assert move.source == Filter(has="+1/+1") and move.target == Filter(controller=1)
    assert prolif.targets is None and prolif.players and prolif.target is None
    assert mz.zone == "exile" and nothing.weight == 0
    assert sc.report_kinds == ("+1/+1", "-1/-1")


@pytest.mark.parametrize("name", sorted(embedded()))
def test_every_embedded_scenario_is_valid(name: str) -> None:
    sc = load(name)
    assert sc.name == name and sc.source == f"{name}.toml"
    if sc.ruleset not in RULESETS:
        pytest.skip(f"the {sc.ruleset} ruleset is not in the engine yet")
    try:
        montecarlo.check(sc)  # the engine accepts every object and every effect
    except ScenarioError as e:
        if "not in this engine yet" in str(e) or "no reserve yet" in str(e):
            pytest.skip(str(e))
        raise


def test_embedded_scenarios_cover_the_issue() -> None:
    names = embedded()
    assert DEFAULT in names
    scs = [load(n) for n in names]
    assert {"mtg", "grand_archive"} <= {s.ruleset for s in scs}
    assert max(s.n_objects for s in scs) >= 2000
    assert all(names[n] for n in names)  # every one has a description


def test_a_file_path_loads(tmp_path: Path) -> None:
    f = tmp_path / "mine.toml"
    f.write_text(GOOD)
    assert load(f).source == str(f)
    assert load(str(f)).name == "good"


def _bad(old: str, new: str) -> str:
    assert old in GOOD, old
    return GOOD.replace(old, new, 1)


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
    (('types = ["creature"]\npower = 2', 'types = ["creatur"]\npower = 2'), ["objects[0].types", "creature", "'creatur'"]),
    (('counters = { "+1/+1" = 1 }', 'counters = { "Plus One" = 1 }'), ["objects[0].counters", "counter kind", "Plus One"]),
    (('counters = { "+1/+1" = 1 }', 'counters = { "+1/+1" = -1 }'), ["objects[0].counters", "integer"]),
    (('caps = { "-1/-1" = 3 }', 'caps = [3]'), ["objects[0].caps", "table of kind = count"]),
    (('count = 2000', 'count = 0'), ["objects[1].count", "1..1000000"]),
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
]


@pytest.mark.parametrize("change, words", BAD, ids=[c[0][1][:30] or c[0][0][:30] for c in BAD])
def test_a_bad_file_names_the_file_the_field_and_the_expectation(change: tuple[str, str],
                                                                 words: list[str]) -> None:
    with pytest.raises(ScenarioError) as err:
        loads(_bad(*change), "bad.toml")
    msg = str(err.value)
    assert msg.startswith("bad.toml: "), msg
    for w in words + ["expected"]:
        assert w in msg, (w, msg)


def test_structural_errors() -> None:
    with pytest.raises(ScenarioError, match=r"x.toml: not valid TOML"):
        loads("turns = = 3", "x.toml")
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


def test_a_missing_file_names_it_and_lists_the_embedded_ones(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as err:
        load(tmp_path / "nope.toml")
    assert "nope.toml: cannot read the scenario" in str(err.value) and DEFAULT in str(err.value)


def test_scenario_errors_are_counter_errors() -> None:
    assert issubclass(ScenarioError, CounterError) and issubclass(ScenarioError, ValueError)


def test_the_engine_refusal_is_reported_before_any_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that is well formed but that the engine refuses (a planeswalker with negative
    loyalty; damage to an artifact that is not a creature) fails in check(), naming the field."""
    text = _bad('power = 2\ntoughness = 2', 'loyalty = -3').replace('types = ["creature"]\nloyalty',
                                                                     'types = ["planeswalker"]\nloyalty', 1)
    with pytest.raises(ScenarioError, match=r"bad.toml: objects: the engine refused it: .*loyalty"):
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
