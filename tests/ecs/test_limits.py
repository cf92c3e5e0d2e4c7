"""ecs.limits: each bound is the number docs/api.md's Limits table gives, and the bounds
a dtype fixes are that dtype's range (a count past int32 or a player index past int16
would wrap); the rule numbers are the rules' (CR 103.4, 704.5c, 704.6b, 810.4)."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from ecs import World, limits

API = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def _documented() -> dict[str, int]:
    """name -> value of each row of the Limits table (``| `A`, `B` | `v`, `w` | ... |``)."""
    text = API.read_text()
    start = text.index("\n## Limits\n")
    table = text[start:text.find("\n## ", start + 1)]
    out = {}
    for names, values in re.findall(r"^\| (`MAX_[^|]*) \| ([^|]*) \|", table, re.M):
        pairs = zip(re.findall(r"`(\w+)`", names), re.findall(r"`([0-9* +-]+)`", values), strict=True)
        out.update((n, int(eval(v, {"__builtins__": {}}))) for n, v in pairs)   # "2**31 - 1"
    return out


def test_each_bound_is_the_value_the_limits_table_documents():
    documented = _documented()
    bounds = {n: v for n, v in vars(limits).items() if n.startswith("MAX_")}
    assert len(documented) >= 10 and documented == bounds


@pytest.mark.parametrize("name,dtype", [("MAX_COUNT", np.int32), ("MAX_ID", np.int64),
                                        ("MAX_PLAYERS", np.int16), ("MAX_TEAM", np.int32)])
def test_a_bound_a_dtype_fixes_is_the_top_of_that_dtype(name, dtype):
    assert getattr(limits, name) == np.iinfo(dtype).max


def test_103_4_704_5c_a_player_starts_at_20_life_and_loses_at_10_poison():
    """103.4: 20 life; 704.5c: ten or more poison counters lose the game (nine do not)."""
    assert (limits.STARTING_LIFE, limits.POISON_TO_LOSE) == (20, 10)
    w = World()
    p, q = w.add_player(), w.add_player()
    assert w.life(p) == 20
    w.put_counters(p, "poison", 9)
    w.tick()
    assert w.result() == "ongoing"
    w.put_counters(p, "poison", 1)
    w.tick()
    assert w.result() == q


def test_810_4_704_6b_two_headed_giant_shares_30_life_and_loses_at_15_poison():
    """810.4: a team's life is 30 (15 a head); 704.6b: fifteen poison counters among the
    team lose it (fourteen do not)."""
    assert (limits.TWO_HEADED_GIANT_LIFE, limits.TWO_HEADED_GIANT_POISON_TO_LOSE) == (15, 15)
    w = World(two_headed_giant=True)
    a, b = w.add_player(team=0), w.add_player(team=0)
    c, _ = w.add_player(team=1), w.add_player(team=1)
    assert (w.life(a), w.life(b)) == (30, 30)
    w.put_counters(a, "poison", 14)
    w.tick()
    assert w.result() == "ongoing"
    w.put_counters(b, "poison", 1)
    w.tick()
    assert w.result() == c
