"""ecs.frozen.ReadOnlyDict: a snapshot and its parts can't be written, and every copy of
one is a plain dict to change (what a restore checks before it trusts it)."""
from __future__ import annotations

import copy
import pickle

import pytest

from ecs import World
from ecs.frozen import ReadOnlyDict

WRITES = {
    "setitem": lambda d: d.__setitem__("a", 9),
    "delitem": lambda d: d.__delitem__("a"),
    "setdefault": lambda d: d.setdefault("new", 9),
    "pop": lambda d: d.pop("a"),
    "popitem": lambda d: d.popitem(),
    "clear": lambda d: d.clear(),
    "update": lambda d: d.update(a=9),
    "|=": lambda d: d.__ior__({"a": 9}),
}


def _made() -> list[dict]:
    w = World()
    w.add_player()
    return [ReadOnlyDict({"a": 1, "b": 2}), w.snapshot()]


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES)
def test_every_write_to_a_read_only_dict_raises_and_changes_nothing(write):
    for d in _made():
        before = dict(d)
        with pytest.raises(TypeError, match="is read-only"):
            write(d)
        assert dict(d) == before


@pytest.mark.parametrize("how", [dict, copy.copy, copy.deepcopy, lambda d: pickle.loads(pickle.dumps(d))],
                         ids=["dict", "copy", "deepcopy", "pickle"])
def test_a_copy_of_a_read_only_dict_is_a_plain_dict_to_change(how):
    for d in _made():
        before = dict(d)
        twin = how(d)
        assert type(twin) is dict and twin.keys() == d.keys()
        key = next(iter(twin))
        twin[key] = "changed"
        assert d[key] is before[key]
