"""Bad input raises a clear error naming entity, kind and value, and changes nothing."""
import numpy as np
import pytest

from ecs import (
    CountOverflowError,
    InvalidCountError,
    InvalidGameError,
    InvalidKindError,
    InvalidTypeError,
    InvalidZoneError,
    StaleEntityError,
    UnknownEntityError,
    World,
)


def state(w):
    snap = w.store.snapshot()
    return {k: v.tolist() if hasattr(v, "tolist") else v for k, v in snap.items()}, w.log.rows


@pytest.fixture
def game():
    w = World(batch=2)
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2, counters={"charge": 1})
    gone = w.add_object(p, {"artifact"})
    w.sacrifice(gone)
    return w, p, bear, gone


BAD = [
    (lambda w, p, b, g: w.put_counters(b, "+1/+1", -1), InvalidCountError, "-1"),
    (lambda w, p, b, g: w.put_counters(b, "+1/+1", 1.5), InvalidCountError, "1.5"),
    (lambda w, p, b, g: w.put_counters(b, "+1/+1", True), InvalidCountError, "True"),
    (lambda w, p, b, g: w.put_counters(b, "+1/+1", 2**40), InvalidCountError, str(2**40)),
    (lambda w, p, b, g: w.put_counters(b, "charge", 2**31 - 1), CountOverflowError, "charge"),
    (lambda w, p, b, g: w.put_counters(b, "Flying", 1), InvalidKindError, "Flying"),
    (lambda w, p, b, g: w.put_counters(b, "", 1), InvalidKindError, "''"),
    (lambda w, p, b, g: w.put_counters(b, 7, 1), InvalidKindError, "7"),
    (lambda w, p, b, g: w.put_counters(b, "a  b", 1), InvalidKindError, "a  b"),
    (lambda w, p, b, g: w.put_counters(999, "charge", 1), UnknownEntityError, "999"),
    (lambda w, p, b, g: w.put_counters(g, "charge", 1), StaleEntityError, "{g}"),
    (lambda w, p, b, g: w.put_counters([b, 999], "charge", 1), UnknownEntityError, "999"),
    (lambda w, p, b, g: w.put_counters(b, "charge", 1, games=5), InvalidGameError, "5"),
    (lambda w, p, b, g: w.put_counters(b, "charge", [1, 2, 3]), InvalidCountError,
     "3 amounts for 2 selected games"),
    (lambda w, p, b, g: w.move_zone(b, "narnia"), InvalidZoneError, "narnia"),
    (lambda w, p, b, g: w.add_object(p, {"wizard"}), InvalidTypeError, "wizard"),
    (lambda w, p, b, g: w.add_object(p, {"creature"}, counters={"+1/+1": -2}), InvalidCountError, "-2"),
    (lambda w, p, b, g: w.add_object(b, {"creature"}), Exception, "{b}"),
    (lambda w, p, b, g: w.proliferate([b, g]), StaleEntityError, "{g}"),
    (lambda w, p, b, g: w.deal_damage(b, -3), InvalidCountError, "-3"),
    (lambda w, p, b, g: w.set_cap(b, "charge", -1), InvalidCountError, "-1"),
]


@pytest.mark.parametrize("action,error,needle", BAD)
def test_bad_input_raises_clear_error_and_changes_nothing(game, action, error, needle):
    w, p, bear, gone = game
    before = state(w)
    with pytest.raises(error) as info:
        action(w, p, bear, gone)
    assert needle.format(b=bear, g=gone) in str(info.value)
    assert state(w) == before


def test_errors_subclass_builtin_types():
    assert issubclass(UnknownEntityError, KeyError) and issubclass(InvalidCountError, ValueError)


def test_count_limit_is_int32_and_never_wraps():
    w = World()
    p = w.add_player()
    x = w.add_object(p, {"artifact"})
    w.put_counters(x, "charge", 2**31 - 1)
    with pytest.raises(CountOverflowError):
        w.put_counters(x, "charge", 1)
    with pytest.raises(CountOverflowError):
        w.proliferate([x])
    assert w.count(x, "charge") == 2**31 - 1
    assert isinstance(w.count(x, "charge"), int) and np.iinfo(np.int32).max == 2**31 - 1
