"""ecs.stats: power/toughness from counters of every +X/+Y kind (122.1a), read in one game,
in a batch, by ``observe`` and by the state-based check, exactly (int64, never wrapped);
Grand Archive's LV likewise."""
from __future__ import annotations

import numpy as np
import pytest

from ecs import InvalidKindError, World
from ecs.kinds import pt_modifier
from ecs.limits import MAX_STAT
from ecs.rules.mtg import Magic

INT32_MAX = 2**31 - 1


@pytest.mark.parametrize("batch", [1, 2])
def test_122_1a_each_kind_changes_power_and_toughness_by_its_own_x_and_y(batch):
    """122.1a: a +X/+Y counter adds X to power and Y to toughness, a -X/-Y one subtracts:
    with X and Y unequal (+1/+2, -2/-1, -0/-2) each stat takes its own number, in one
    game's reads, a batch's and ``observe``; and the state-based check sees the same
    toughness (704.5f: a 1/3 whose -0/-2 counters bring it to 0 dies)."""
    w = World(batch=batch)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=1, toughness=1)
    counters = {"+1/+2": 2, "-2/-1": 1, "-0/-2": 1}
    for kind, n in counters.items():
        w.put_counters(bear, kind, n)
    want = [1 + sum(n * pt_modifier(k)[i] for k, n in counters.items()) for i in (0, 1)]
    assert [int(np.max(w.power(bear))), int(np.max(w.toughness(bear)))] == want == [1, 2]
    obs, _ = w.observe([bear], ["power", "toughness"], dtype=np.int32)
    assert obs[:, 0].tolist() == [want] * batch
    thopter = w.add_object(p, "creature", power=0, toughness=3)
    w.put_counters(thopter, "-0/-2", 1, games=[batch - 1])
    w.tick()
    assert np.all(w.exists(bear)) and np.all(w.exists(thopter))   # toughness 2 and 1: alive
    w.put_counters(thopter, "-0/-2", 1, games=[batch - 1])   # 3 - 4 = -1 there (704.5f)
    w.tick()
    assert np.atleast_1d(w.exists(thopter)).tolist() == [True] * (batch - 1) + [False]


@pytest.mark.parametrize("batch", [1, 2])
def test_122_1a_many_counters_of_a_plus_2_kind_read_exactly_never_wrapped(batch):
    """122.1a: 2**31 - 1 +2/+0 counters add 2 * (2**31 - 1) to power: the reads give the
    exact sum (int64) in one game and a batch, a float32 observation its magnitude and an
    int32 one its upper bound, never a wrapped value."""
    w = World(batch=batch)
    p = w.add_player()
    big = w.add_object(p, "creature", power=3, toughness=1)
    w.put_counters(big, "+2/+0", INT32_MAX)
    want = 3 + 2 * INT32_MAX
    assert np.atleast_1d(w.power(big)).tolist() == [want] * batch
    assert np.atleast_1d(w.toughness(big)).tolist() == [1] * batch
    obs, _ = w.observe([big], ["power"], dtype=np.int32)
    assert obs.ravel().tolist() == [INT32_MAX] * batch
    assert w.observe([big], ["power"])[0].ravel().tolist() == [np.float32(want)] * batch


@pytest.mark.parametrize("batch", [1, 2])
def test_ga_level_past_int32_reads_exactly_never_wrapped(batch):
    """Grand Archive LV (Level Counters 1-2) is the base level plus the level counters on a
    champion: a base level of MAX_STAT and 2**31 - 1 counters read as their exact sum, and
    an int32 observation reads its upper bound, not a wrapped (negative) level."""
    w = World(ruleset="grand_archive", batch=batch)
    p = w.add_player()
    champ = w.add_object(p, "champion", life=20, level=MAX_STAT)
    w.put_counters(champ, "level", INT32_MAX)
    assert np.atleast_1d(w.stat(champ, "level")).tolist() == [MAX_STAT + INT32_MAX] * batch
    obs, _ = w.observe([champ], ["level"], dtype=np.int32)
    assert obs.ravel().tolist() == [INT32_MAX] * batch


def _ruleset_changing_toughness_by(change: int) -> Magic:
    class Growth(Magic):
        def pt_modifier(self, kind):
            return (0, change) if kind == "growth" else super().pt_modifier(kind)
    return Growth()


def test_122_1a_a_change_per_counter_of_max_stat_in_size_is_counted():
    """A ruleset's change per counter of exactly MAX_STAT (either sign) is within the bound:
    read, observed and checked (704.5f) as 122.1a says."""
    for change in (MAX_STAT, -MAX_STAT):
        w = World()
        w.ruleset = _ruleset_changing_toughness_by(change)
        p = w.add_player()
        bear = w.add_object(p, "creature", power=1, toughness=1, counters={"growth": 1})
        assert w.toughness(bear) == 1 + change
        assert w.observe([bear], ["toughness"], dtype=np.int32)[0].ravel().tolist() == [1 + change]
        w.tick()
        assert w.exists(bear) == (change > 0)


def test_122_1a_a_negative_change_per_counter_past_max_stat_is_refused_by_name():
    """A ruleset's change per counter past MAX_STAT in size is refused when counted, a
    negative one as a positive one: InvalidKindError naming the kind and the change."""
    w = World()
    w.ruleset = _ruleset_changing_toughness_by(-MAX_STAT - 1)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=1, toughness=1, counters={"growth": 1})
    with pytest.raises(InvalidKindError, match=f"'growth'.*{-MAX_STAT - 1}"):
        w.toughness(bear)
    with pytest.raises(InvalidKindError, match=f"'growth'.*{-MAX_STAT - 1}"):
        w.tick()
    assert w.exists(bear) and w.count(bear, "growth") == 1


@pytest.mark.parametrize("batch", [1, 2])
def test_613_4_a_set_value_then_modifications_then_counters(batch):
    """613.4b sets power (5, over the printed 2), 613.4c adds modifications (+3 toughness)
    and counters (+1/+1, 122.1a): 6/6 in one game's reads, a batch's and ``observe``."""
    w = World(batch=batch)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2, counters={"+1/+1": 1})
    w.set_pt(bear, power=5)
    w.modify_pt(bear, toughness=3)
    want = [5 + 1, 2 + 3 + 1]
    assert [np.atleast_1d(w.power(bear)).tolist(), np.atleast_1d(w.toughness(bear)).tolist()] == \
        [[want[0]] * batch, [want[1]] * batch]
    assert w.observe([bear], ["power", "toughness"], dtype=np.int32)[0][:, 0].tolist() == [want] * batch


@pytest.mark.parametrize("batch", [1, 2])
def test_ga_level_counters_on_a_non_champion_leave_its_level_printed(batch):
    """Grand Archive Level 1 ("Level counters on champions give that champion +1 Level for
    each level counter on that champion") and Level Counters 1 (+1 LV "on the champion"):
    an ally's level counters add nothing, its LV stays its printed level, in one game's
    reads, a batch's and ``observe``; a champion's rises by its counters."""
    w = World(ruleset="grand_archive", batch=batch)
    p = w.add_player()
    champ = w.add_object(p, "champion", life=20, level=1)
    ally = w.add_object(p, "ally", power=1, life=1, level=2)
    w.put_counters([champ, ally], "level", 3)
    want = [1 + 3, 2]
    assert [np.atleast_1d(w.stat(e, "level")).tolist() for e in (champ, ally)] == \
        [[want[0]] * batch, [want[1]] * batch]
    obs, _ = w.observe([champ, ally], ["level"], dtype=np.int32)
    assert obs[..., 0].tolist() == [want] * batch


@pytest.mark.parametrize("batch", [1, 2])
def test_122_1b_each_keyword_counter_grants_its_own_keyword_and_variants(batch):
    """122.1b: a keyword counter (or a variant's, "hexproof from black") makes its object
    gain that keyword and no other; a kind that merely starts with a keyword's letters
    ("reaches") is no keyword counter. Asked for several keywords in one ``observe``,
    each reads its own counters."""
    w = World(batch=batch)
    p = w.add_player()
    bird, ward, other = (w.add_object(p, "creature", power=1, toughness=1) for _ in range(3))
    w.put_counters(bird, "flying", 1)
    w.put_counters(ward, "hexproof from black", 1)
    w.put_counters(other, "reaches", 1)
    obs, _ = w.observe([bird, ward, other], ["keyword:flying", "keyword:hexproof", "keyword:reach"])
    assert obs.tolist() == [[[1, 0, 0], [0, 1, 0], [0, 0, 0]]] * batch


@pytest.mark.parametrize("batch", [1, 2])
def test_702_12b_an_indestructible_counter_keeps_its_object_only_while_there(batch):
    """122.1b and 702.12b: a permanent with an indestructible counter can't be destroyed;
    one whose counter was removed, and one that never had one, are destroyed (destroyed
    together, with ``where="present"``: the rows path, in one game too)."""
    w = World(batch=batch)
    p = w.add_player()
    kept, removed, plain = (w.add_object(p, "creature", power=1, toughness=1) for _ in range(3))
    w.put_counters([kept, removed], "indestructible", 1)
    w.remove_counters(removed, "indestructible", 1)
    w.destroy([kept, removed, plain], where="present")
    assert [np.atleast_1d(w.exists(e)).tolist() for e in (kept, removed, plain)] == \
        [[True] * batch] + [[False] * batch] * 2   # (400.7: the others are new objects now)


@pytest.mark.parametrize("zone", ["graveyard", "exile", "library", "hand"])
@pytest.mark.parametrize("batch", [1, 2])
def test_209_1_loyalty_off_the_battlefield_is_the_printed_number(batch, zone):
    """209.1 and 306.5c: a planeswalker card's loyalty off the battlefield is its printed
    loyalty, whatever counters it has (122.1b: cards in other zones may have them); on the
    battlefield it is the loyalty counters. One game's reads, a batch's and ``observe``."""
    w = World(batch=batch)
    p = w.add_player()
    card = w.add_object(p, "planeswalker", loyalty=3, zone=zone, counters={"loyalty": 5})
    walker = w.add_object(p, "planeswalker", loyalty=3)
    w.put_counters(walker, "loyalty", 2)
    want = [3, 3 + 2]
    assert [np.atleast_1d(w.loyalty(e)).tolist() for e in (card, walker)] == [[v] * batch for v in want]
    obs, _ = w.observe([card, walker], ["loyalty"], dtype=np.int32)
    assert obs[..., 0].tolist() == [want] * batch


@pytest.mark.parametrize("batch", [1, 2])
def test_122_1a_a_ruleset_installed_mid_game_counts_its_own_change_per_counter(batch):
    """122.1a: a host's ruleset installed after the stats were read counts its kinds' change
    per counter from then on, in reads and ``observe``; a clone taken before, sharing the
    store's cached values, goes on counting by the ruleset it plays by."""
    w = World(batch=batch)
    p = w.add_player()
    bear = w.add_object(p, "creature", power=1, toughness=1, counters={"growth": 1})
    before = w.clone()
    assert np.atleast_1d(w.toughness(bear)).tolist() == [1] * batch   # (Magic: growth changes nothing)
    w.ruleset = _ruleset_changing_toughness_by(2)
    assert np.atleast_1d(w.toughness(bear)).tolist() == [3] * batch
    assert w.observe([bear], ["toughness"], dtype=np.int32)[0].ravel().tolist() == [3] * batch
    assert np.atleast_1d(before.toughness(bear)).tolist() == [1] * batch
    w.ruleset = Magic()
    assert np.atleast_1d(w.toughness(bear)).tolist() == [1] * batch
