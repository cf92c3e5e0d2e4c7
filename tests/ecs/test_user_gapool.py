"""What a Grand Archive host porting its card pool relies on: a refusal names only what
the refused call can do, and an observation holds the reserve a wither or a reserve cost
pays from."""

import numpy as np
import pytest

from ecs import IllegalActionError, StaleEntityError, World


def ga_batch(batch: int = 2) -> tuple[World, int, int, int, int]:
    """Two players with champions and an ally of the first's; (world, a, b, champion, ally)."""
    w = World(ruleset="grand_archive", batch=batch, seed=1)
    a, b = w.add_player(), w.add_player()
    champ = w.add_object(a, "champion", life=20, level=1)
    w.add_object(b, "champion", life=20, level=1)
    ally = w.add_object(a, "ally", power=1, life=2)
    return w, a, b, champ, ally


@pytest.mark.parametrize("call", [
    lambda w, champ, ally: w.recover(champ, 1),                  # Recover 2
    lambda w, champ, ally: w.activate_enlighten(champ),          # Enlighten 1
    lambda w, champ, ally: w.set_immortal(champ),                # Immortality 1
    lambda w, champ, ally: w.set_hold(champ),                    # a host's action
], ids=["recover", "enlighten", "set_immortal", "set_hold"])
def test_recover_enlighten_immortality_a_stale_id_is_refused_without_offering_where(call):
    """Recover 2, Enlighten 1, Immortality 1: these actions take no ``where=`` (docs/api.md:
    name the games where the object is), so their refusal of an id gone from one game of a
    batch must not offer ``where='present'``: it names ``games=`` instead."""
    w, _, _, champ, ally = ga_batch()
    w.move_zone(champ, "hand", games=1)
    with pytest.raises(StaleEntityError) as refused:
        call(w, champ, ally)
    assert "where=" not in str(refused.value)
    assert "games=" in str(refused.value)


@pytest.mark.parametrize("call", [
    lambda w, champ: w.lose_life(champ, 1),
    lambda w, champ: w.gain_life(champ, 1),
    lambda w, champ: w.set_reserve(champ, 1),                    # Costs and Memory
    lambda w, champ: w.gain_reserve(champ, 1),
    lambda w, champ: w.pay_reserve(champ, 1),
], ids=["lose_life", "gain_life", "set_reserve", "gain_reserve", "pay_reserve"])
def test_life_and_reserve_a_stale_id_is_refused_without_offering_where(call):
    """The player actions take no ``where=`` either (a player is in every game): their
    refusal of an id gone from one game of a batch must not offer ``where='present'``,
    which they would refuse as an unexpected keyword."""
    w, _, _, champ, _ = ga_batch()
    w.move_zone(champ, "hand", games=1)
    with pytest.raises(StaleEntityError) as refused:
        call(w, champ)
    assert "where=" not in str(refused.value)
    assert "games=" in str(refused.value)


def test_put_counters_a_stale_id_is_refused_offering_where():
    """Counters 1 (a put): ``put_counters`` takes ``where="present"``, and its refusal says so."""
    w, _, _, _, ally = ga_batch()
    w.move_zone(ally, "hand", games=0)
    with pytest.raises(StaleEntityError, match="where='present'"):
        w.put_counters(ally, "buff", 1)


@pytest.mark.parametrize("batch", [1, 3])
def test_costs_and_memory_reserve_is_an_observation_feature_of_players(batch):
    """Costs and Memory, Wither 3: a player's reserve is what wither and reserve costs pay
    from, so an agent observes it (``reserve``, as ``reserve(p)``; 0 in an object's row)."""
    w, a, b, champ, _ = ga_batch(batch)
    w.set_reserve(a, np.arange(batch) + 2 if batch > 1 else 4)
    w.set_reserve(b, 1)
    features = ["reserve", "toughness", "has:life"]    # GA life is toughness
    obs, names = w.observe([a, b, champ], features, dtype=np.int32)
    assert names == features
    assert obs[:, 0, 0].tolist() == np.atleast_1d(w.reserve(a)).tolist()
    assert obs[:, 1, 0].tolist() == [1] * batch
    assert obs[:, 1, 2].tolist() == [1] * batch           # a player's row
    assert obs[:, 2].tolist() == [[0, 20, 0]] * batch    # a champion's: no reserve
    w.pay_reserve(a, 2)
    again, _ = w.observe([a], ["reserve"])
    assert again[:, 0, 0].tolist() == np.atleast_1d(w.reserve(a)).tolist()


def test_costs_and_memory_reserve_reads_0_in_magic_and_is_not_a_default_feature():
    """Magic has no reserve: the feature reads 0 there, as GA's level does; the default
    list keeps its shape (observations made before it existed keep their layout)."""
    w = World(seed=1)
    p = w.add_player()
    obs, _ = w.observe([p], ["reserve", "has:life"])
    assert obs.tolist() == [[[0, 1]]]
    assert "reserve" not in w.observation_features()


@pytest.mark.parametrize("batch", [1, 2])
def test_enlighten_1_an_object_off_the_field_is_refused_citing_the_rule(batch):
    """Enlighten 1: the ability is an object's on the field; one in the hand with three
    enlighten counters is refused, the message citing the rule, and nothing changes."""
    w, a, *_ = ga_batch(batch)
    card = w.add_object(a, "ally", power=1, life=2, zone="hand", counters={"enlighten": 3})
    with pytest.raises(IllegalActionError, match=r"not an object on the field \(GA Enlighten 1\)"):
        w.activate_enlighten(card)
    assert np.all(np.asarray(w.count(card, "enlighten")) == 3)
