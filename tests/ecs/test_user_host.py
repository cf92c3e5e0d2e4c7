"""A host engine embedding the core: what it relies on across copies of a World."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ecs import World
from ecs.rules import Magic


class HardenedScales(Magic):
    """A host's replacement (614.1a): one more +1/+1 counter is put wherever any would be
    (122.6)."""

    def place(self, world: Any, kind: str, g: np.ndarray, c: np.ndarray, amount: np.ndarray,
              cause: str, by: Any, e: np.ndarray | None = None) -> None:
        if kind == "+1/+1":
            amount = np.where(amount > 0, amount + 1, amount)
        super().place(world, kind, g, c, amount, cause, by, e)


@pytest.mark.parametrize("copy", ["clone", "fork", "select"])
def test_host_ruleset_replacing_a_122_6_placement_goes_on_in_every_copy(copy: str) -> None:
    """A host's ruleset (its replacement of putting counters, 122.6) is the copy's too:
    a clone, a fork and a selection play the position as the World they came from."""
    w = World(batch=2, seed=1)
    w.ruleset = HardenedScales()
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2)
    other = {"clone": w.clone, "fork": lambda: w.fork(0, 2), "select": lambda: w.select([1, 0])}[copy]()
    assert isinstance(other.ruleset, HardenedScales)
    other.put_counters(bear, "+1/+1", 1)
    assert other.count(bear, "+1/+1").tolist() == [2, 2]



LEVEL_UP = """
from ecs import World
w = World(ruleset="grand_archive", seed=1)
a, b = w.add_player(), w.add_player()
champ = w.add_object(a, "champion", life=15, level=0)
w.add_object(b, "champion", life=15, level=0)
w.level_up(champ, level=1, life=20, power=1)
assert (w.base_level(champ), w.stat(champ, "life"), w.stat(champ, "power")) == (1, 20, 1)
"""


def test_level_up_of_one_champion_warns_nothing() -> None:
    """A host's level up (GA Leveling Up 7.ii; Level Up 1) of the champion of a single game
    raises no NumPy FutureWarning about a broadcast array, so a host that makes warnings
    errors can level up. A fresh process: the warning comes with a process's first call."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-W", "error", "-c", LEVEL_UP],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.parametrize("batch", [1, 2])
def test_grand_archive_missing_life_stat_is_named_life(batch: int) -> None:
    """Reading the life of an object without a printed life (GA Stats: Life; an item)
    raises InvalidTypeError naming the entity and the stat the host asked for, life, not
    the Magic field it is stored in."""
    from ecs import InvalidTypeError

    w = World(ruleset="grand_archive", batch=batch, seed=1)
    a = w.add_player()
    relic = w.add_object(a, "item", name="relic")
    with pytest.raises(InvalidTypeError) as e:
        w.stat(relic, "life")
    assert str(relic) in str(e.value) and "life" in str(e.value)
    assert "toughness" not in str(e.value)


def test_host_ruleset_kept_by_restore_and_not_by_load(tmp_path: Any) -> None:
    """A snapshot and a file hold no code: restore keeps the World's ruleset (its 122.6
    replacement goes on), load builds the built-in one (the host sets its own again)."""
    w = World(seed=1)
    w.ruleset = HardenedScales()
    bear = w.add_object(w.add_player(), "creature", power=2, toughness=2)
    snap = w.snapshot()
    w.put_counters(bear, "+1/+1", 1)
    w.restore(snap)
    w.put_counters(bear, "+1/+1", 1)
    assert w.count(bear, "+1/+1") == 2
    w.save(tmp_path / "game.npz")
    loaded = World.load(tmp_path / "game.npz")
    assert type(loaded.ruleset) is Magic
    loaded.put_counters(bear, "+1/+1", 1)
    assert loaded.count(bear, "+1/+1") == 3
