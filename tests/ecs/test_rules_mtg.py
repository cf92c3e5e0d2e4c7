"""The Magic ruleset's hooks (``ecs.rules.mtg.Magic``): what the single-game placement
paths log, as the general path logs it (CR 122, 701.34, 810.10); damage to a few targets,
which objects have power and toughness, the counters printed numbers enter as, and the
card types (120.3, 208.3, 306.5b, 300.1)."""
import abc

import numpy as np
import pytest
from scalar_paths import general, run_on

from ecs import CounterChanged, DamageDealt, IllegalActionError, InvalidTypeError, World
from ecs.components import TYPE_BIT
from ecs.components.card import NO_STAT
from ecs.rules import GrandArchive, Magic, get_ruleset


def _rows(w):
    return [(e.entity, e.kind, e.before, e.after, e.cause, e.by) for e in w.events()
            if isinstance(e, CounterChanged)]


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_810_10_a_players_poison_is_logged_on_that_player_not_the_team(path):
    """810.10: effects that give poison counters happen to each player individually, and
    the team holds them: one put on the second-seated player is one CounterChanged row on
    that player (the team's count before and after), as the general path logs it."""
    w = World(two_headed_giant=True)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    w.add_player(team=1), w.add_player(team=1)
    w.put_counters(a1, "poison", 1)
    w.clear_events()
    if path == "general":
        with general():
            w.put_counters(a2, "poison", 2)
    else:
        w.put_counters(a2, "poison", 2)
    assert _rows(w) == [(a2, "poison", 1, 3, "put", None)]
    assert w.count(a1, "poison") == w.count(a2, "poison") == 3


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_701_34a_proliferate_names_the_player_who_proliferates_on_every_counter(path):
    """701.34a, 122.6a: the player who proliferates puts the counters: every CounterChanged
    row of a proliferate of a few objects and players names them (``by``)."""
    w = World()
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2, counters={"+1/+1": 1})
    w.put_counters(q, "poison", 2)
    w.clear_events()
    if path == "general":
        with general():
            w.proliferate([bear, q], by=p)
    else:
        w.proliferate([bear, q], by=p)
    assert _rows(w) == [(bear, "+1/+1", 1, 2, "proliferate", p), (q, "poison", 2, 3, "proliferate", p)]


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_120_3_122_1c_unpreventable_damage_to_a_few_shielded_targets_is_dealt(path):
    """122.1c, 615.12: damage that can't be prevented is dealt to every target of one
    damage event, shield counters or not: all of it dealt, as to one target."""
    w = World()
    p = w.add_player()
    bears = [w.add_object(p, "creature", power=3, toughness=3, counters={"shield": 1}) for _ in range(2)]
    w.clear_events()
    with run_on(path):
        w.deal_damage(bears, 2, unpreventable=True)
    assert [w.damage(b) for b in bears] == [2, 2]
    dealt = [(e.target, e.amount, e.dealt) for e in w.events() if isinstance(e, DamageDealt)]
    assert dealt == [(bears[0], 2, 2), (bears[1], 2, 2)]


def test_208_3_613_4b_power_is_a_creatures_printed_or_set_by_an_effect():
    """208.3: only a creature (or creature card) has power and toughness, a noncreature's
    printed ones are none; 613.4b: a creature without printed ones (*/*) has those an
    effect sets. ``pt_exists`` decides it the same for ints and arrays."""
    magic = get_ruleset("mtg")
    creature, artifact = TYPE_BIT["creature"], TYPE_BIT["artifact"]
    assert magic.pt_exists(creature, 2, NO_STAT) and magic.pt_exists(creature, NO_STAT, 4)
    assert not magic.pt_exists(creature, NO_STAT, NO_STAT)
    assert not magic.pt_exists(artifact, 3, NO_STAT) and not magic.pt_exists(artifact, NO_STAT, 3)
    got = magic.pt_exists(np.array([creature, creature, artifact]), np.array([NO_STAT, 1, 1]),
                          np.array([5, NO_STAT, NO_STAT]))
    assert got.tolist() == [True, True, False]
    w = World()
    p = w.add_player()
    x = w.add_object(p, "creature")
    w.set_pt(x, power=4, toughness=5)
    assert (w.power(x), w.toughness(x)) == (4, 5)


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_306_5b_310_4b_only_printed_loyalty_and_defense_enter_as_counters(path):
    """306.5b, 310.4b: a planeswalker enters with its printed loyalty in loyalty counters,
    a battle with its printed defense in defense counters; a planeswalker without a
    printed loyalty enters with none (and dies, 704.5i), and a creature given those
    numbers enters with no such counters."""
    w = World()
    p = w.add_player()
    walker = w.add_object(p, "planeswalker", loyalty=3, zone="hand")
    blank = w.add_object(p, "planeswalker", zone="hand")
    siege = w.add_object(p, "battle", defense=4, zone="hand")
    odd = w.add_object(p, "creature", power=1, toughness=1, loyalty=3, defense=2, zone="hand")
    with run_on(path):
        entered = [w.move_zone(x, "battlefield") for x in (walker, siege, odd)]
    assert [w.counters(x) for x in entered] == [{"loyalty": 3}, {"defense": 4}, {}]
    w.clear_events()
    with run_on(path):
        w.move_zone(blank, "battlefield")
        w.tick()
    assert not any(isinstance(e, CounterChanged) for e in w.events())
    assert len(w.objects(zone="graveyard")) == 1 and w.objects(zone="battlefield") == entered


def test_300_1_magics_card_types_are_its_own():
    """300.1: kindred is a Magic card type; a Grand Archive type (a champion) is none of
    Magic's, and an object of it is refused before anything is made."""
    w = World()
    p = w.add_player()
    k = w.add_object(p, ["kindred", "instant"], zone="hand")
    assert w.objects(types="kindred") == [k]
    with pytest.raises(InvalidTypeError, match="champion"):
        w.add_object(p, "champion")
    assert w.objects() == [k]


def test_702_80_a_wither_counter_in_magic_is_generic_at_a_main_phase():
    """702.80: in Magic wither is a damage keyword, and a counter named so is generic: the
    beginning of a main phase neither sacrifices its permanent nor removes it (the Grand
    Archive's Wither trigger is that ruleset's)."""
    w = World()
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=2, counters={"wither": 2})
    w.begin_main_phase(p)
    assert w.zone(bear) == "battlefield" and w.counters(bear) == {"wither": 2}


def test_514_2_magics_cleanup_removes_marked_damage_only():
    """514.2: the cleanup step removes all marked damage; in Magic nothing more: a tapped
    permanent stays tapped and its counters stay."""
    w = World()
    p = w.add_player()
    bear = w.add_object(p, "creature", power=2, toughness=3, counters={"+1/+1": 1})
    w.deal_damage(bear, 2)
    w.tap(bear)
    w.cleanup()
    assert w.damage(bear) == 0 and w.is_tapped(bear) and w.counters(bear) == {"+1/+1": 1}


def _doubling(world, kind, g, c, amount, cause, by, e=None):
    Magic.place(world.ruleset, world, kind, g, c, amount * 2, cause, by, e)


@pytest.mark.parametrize("games", [1, 3])
def test_122_6_a_placement_hook_assigned_to_the_worlds_ruleset_is_refused_and_changes_nothing(games):
    """122.6, 614.1a: a replacement of how many counters are put is a subclass's ``place``.
    Assigned to a World's ruleset instead (shared by every default World of the process),
    the single-game paths would not call it where a batch's would: refused, naming the hook,
    and every World still puts what it is told to."""
    w, other = World(batch=games), World()
    for x in (w, other):
        x.add_player()
    a = w.add_object(w.players()[0], "creature", power=2, toughness=2)
    b = other.add_object(other.players()[0], "creature", power=2, toughness=2)
    for ruleset in (w.ruleset, GrandArchive()):
        with pytest.raises(IllegalActionError, match=r"\.place is a ruleset hook: replace it in a subclass"):
            ruleset.place = _doubling
        with pytest.raises(IllegalActionError, match="deal_damage_one is a ruleset hook"):
            del ruleset.deal_damage_one
    w.put_counters(a, "+1/+1", 1)
    w.put_counters([a, a], "+1/+1", 1)
    other.put_counters(b, "+1/+1", 1)
    assert np.all(np.asarray(w.count(a, "+1/+1")) == 3) and other.count(b, "+1/+1") == 1


def test_122_6_a_hook_assigned_to_a_ruleset_class_is_refused_but_a_subclass_replaces_it():
    """122.6: a class's hooks are trusted by where they are defined, so assigning one to a
    ruleset class (a monkeypatch) is refused as on an instance; a subclass that defines it
    (abstract bases and its own state allowed) is how a host replaces it."""
    for cls in (Magic, GrandArchive):
        with pytest.raises(IllegalActionError, match=rf"{cls.__name__}\.place is a ruleset hook"):
            cls.place = _doubling
        assert "place" not in vars(cls) or vars(cls)["place"] is not _doubling

    class HostBase(Magic, abc.ABC):
        @abc.abstractmethod
        def doubles(self) -> bool: ...

    class Doubling(HostBase):
        def __init__(self) -> None:
            self.factor = 2   # (a host's own state: not a hook)

        def doubles(self) -> bool:
            return True

        def place(self, world, kind, g, c, amount, cause, by, e=None):
            super().place(world, kind, g, c, amount * self.factor, cause, by, e)

    w = World()
    a = w.add_object(w.add_player(), "creature", power=2, toughness=2)
    w.ruleset = Doubling()
    w.put_counters(a, "+1/+1", 1)
    assert w.count(a, "+1/+1") == 2
