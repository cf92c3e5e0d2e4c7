"""A scenario's turn as docs/scenarios.md describes it: effects drawn one at a time with the
state-based actions checked between them, `targets` past the matches, and the card types a
file may name."""

import pytest
from scenario_text import scenario_text

from ecs import montecarlo
from ecs.scenario import ScenarioError, loads

PLAYERS = 'name = "alice"\n\nname = "bob"'
RATS = 'name = "rats"\ncontroller = "bob"\ntypes = ["creature"]\npower = 1\ntoughness = 1\n'


def test_each_draw_picks_among_what_survived_the_previous_check_704_3():
    """704.3: the check after the first -1/-1 counter kills its 1/1, so the second draw's one
    target is the other 1/1, in every game (without the check between them, about half the
    games would put both counters on one rat and keep the other)."""
    text = scenario_text(1, PLAYERS, RATS + "count = 2",
                         'action = "put_counters"\nkind = "-1/-1"\ntarget = { name = "rats" }',
                         top="effects_per_turn = 2")
    r = montecarlo.run(loads(text, "draws.toml"), games=256, seed=3, workers=1)
    assert r.survival["rats"].k == 0 and r.survivors["rats"].max == 0


def test_targets_past_the_matches_takes_every_match_704_5f():
    """`targets = 5` of three matching 1/1s puts a -1/-1 counter on each: all die (704.5f)."""
    text = scenario_text(1, PLAYERS, RATS + "count = 3",
                         'action = "put_counters"\nkind = "-1/-1"\ntargets = 5\n'
                         'target = { types = ["creature"] }')
    r = montecarlo.run(loads(text, "targets.toml"), games=64, seed=1, workers=1)
    assert r.survival["rats"].k == 0


@pytest.mark.parametrize("where", ["objects", "target"])
def test_player_is_no_card_type_a_file_may_name(where: str):
    """"player" is the engine's mark for players, no card type of either ruleset (Magic
    300.1): the file check refuses it and does not offer it among the card types."""
    obj, target = RATS, 'target = { name = "rats" }'
    if where == "objects":
        obj = RATS.replace('"creature"', '"player"')
    else:
        target = 'target = { types = ["player"] }'
    text = scenario_text(1, PLAYERS, obj, f'action = "destroy"\n{target}')
    with pytest.raises(ScenarioError, match=r"types: expected card types among creature, .*"
                       r"got 'player'") as e:
        loads(text, "types.toml")
    assert "among player" not in str(e.value) and "types.toml" in str(e.value)
