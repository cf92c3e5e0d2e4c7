"""The ordered state-based systems and the tick (CR 704.3, 704.5, 704.6, 122.3, 122.4)."""

import numpy as np
import pytest

import ecs.systems
from ecs import SBALoopError, World, zones
from ecs.check import Check, System
from ecs.schedule import Schedule


def board(**kw):
    w = World(**kw)
    p, q = w.add_player(), w.add_player()
    return w, p, q


def test_704_5q_annihilation_on_permanents_only():
    w, p, _ = board()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2, counters={"+1/+1": 3, "-1/-1": 1})
    art = w.add_object(p, {"artifact"}, counters={"+1/+1": 1, "-1/-1": 2})      # 8.15
    card = w.add_object(p, {"creature"}, zone="graveyard", power=1, toughness=1,
                        counters={"+1/+1": 1, "-1/-1": 1})                     # scenario 39
    assert w.tick() == 1
    assert w.counters(bear) == {"+1/+1": 2}
    assert w.counters(art) == {"-1/-1": 1}
    assert w.counters(card) == {"+1/+1": 1, "-1/-1": 1}


def test_122_3_only_plus1_and_minus1_annihilate():
    w, p, _ = board()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2, counters={"+2/+2": 1, "-1/-1": 1})
    w.tick()
    assert w.counters(bear) == {"+2/+2": 1, "-1/-1": 1}


def test_704_5r_cap_trims_to_n():
    w, p, _ = board()
    x = w.add_object(p, {"artifact"}, caps={"charge": 3}, counters={"charge": 5})
    w.tick()
    assert w.counters(x) == {"charge": 3}
    assert w.events()[-1].cause == "704.5r"


def test_704_3_cap_does_not_save_a_creature_the_same_check_kills():
    """docs/design.md: a 2/2 with three -1/-1 and a cap of one -1/-1 dies (cap first would save it)."""
    w, p, _ = board()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2, caps={"-1/-1": 1})
    w.put_counters(bear, "-1/-1", 3)
    w.tick()
    assert not w.exists(bear)
    (ev,) = [e for e in w.events() if e.cause.startswith("704")]
    assert ev.cause == "704.5f" and ev.lki == {"-1/-1": 3}


def test_704_3_cap_and_annihilation_removals_add_up():
    """Choice: simultaneous removals of one kind add up (clamped at what is there)."""
    w, p, _ = board()
    art = w.add_object(p, {"artifact"}, caps={"-1/-1": 1})
    w.put_counters(art, "+1/+1", 1)
    w.put_counters(art, "-1/-1", 3)
    assert w.tick() == 1
    assert w.counters(art) == {}


_ORDERS = [list(range(7)), list(range(7))[::-1]] + [
    list(np.random.default_rng(i).permutation(7)) for i in range(22)]


@pytest.mark.parametrize("order", _ORDERS)
def test_704_3_order_of_systems_never_changes_the_result(order):
    """Every system, the phase systems (rad 728.1) and EmptyDraw (704.5b) too, permuted
    through the public schedule: the results and the events are the same, row for row.
    Where two rules decide on one thing in one check, the rule first in CAUSES names it
    and the rows split the same: -1/-1 counters that annihilation (704.5q) and a cap
    (704.5r) both remove from a permanent that stays; a creature at 0 toughness with
    deathtouch damage (704.5f, h); a planeswalker creature at 0 toughness and 0 loyalty
    (704.5f, i); a player at 0 life with 10 poison (704.5a, c); deaths the new ids follow."""
    def run(order):
        w, p, q = board()
        w.schedule = Schedule([type(w.systems[i]) for i in order])
        a = w.add_object(p, {"creature"}, power=2, toughness=2, caps={"-1/-1": 1},
                         counters={"+1/+1": 1, "-1/-1": 3})
        b = w.add_object(p, {"creature"}, power=1, toughness=1, counters={"+1/+1": 2, "-1/-1": 1})
        c = w.add_object(q, {"planeswalker", "creature"}, power=1, toughness=3, loyalty=1)
        w.deal_damage(c, 1)
        t = w.add_object(q, {"creature"}, power=1, toughness=1, token=True)
        w.put_counters(t, "-1/-1", 1)
        w.put_counters(q, "poison", 9)
        art = w.add_object(p, {"artifact"}, counters={"+1/+1": 2, "-1/-1": 3}, caps={"-1/-1": 0})
        both = w.add_object(p, {"creature"}, power=1, toughness=1, counters={"-1/-1": 1})
        w.deal_damage(both, 1, deathtouch=True)
        walker = w.add_object(q, {"planeswalker", "creature"}, power=1, toughness=1, loyalty=1)
        w.put_counters(walker, "-1/-1", 1)
        w.remove_counters(walker, "loyalty", 1)
        r = w.add_player()
        w.lose_life(r, 20)
        w.put_counters(r, "poison", 10)
        w.add_objects(3, p, {"land"}, zone="library")
        w.put_counters(p, "rad", 2)
        w.begin_main_phase(p)
        w.draw(q)           # q's library is empty: q loses at the next check (704.5b)
        w.tick()
        t = w.event_table()
        rows = list(zip(*(t[k].tolist() for k in ("step", "type", "entity", "kind", "before", "after",
                                                  "cause", "other", "to_zone"))))
        assert w.counters(art) == {}
        return ([(w.exists(e), w.counters(e) if w.exists(e) else None) for e in (a, b, c)],
                w.result(), w.life(p), rows)
    assert run(order) == run(range(7))


def test_704_5f_g_h_creature_deaths():
    w, p, _ = board()
    zero = w.add_object(p, {"creature"}, power=1, toughness=1, counters={"-1/-1": 1})
    lethal = w.add_object(p, {"creature"}, power=1, toughness=3)
    w.deal_damage(lethal, 3)
    touched = w.add_object(p, {"creature"}, power=1, toughness=5)
    w.deal_damage(touched, 1, deathtouch=True)
    ok = w.add_object(p, {"creature"}, power=1, toughness=3)
    w.deal_damage(ok, 2)
    w.tick()
    causes = {e.old: e.cause for e in w.events() if hasattr(e, "old")}
    assert causes == {zero: "704.5f", lethal: "704.5g", touched: "704.5h"}
    assert w.exists(ok)


def test_704_5h_deathtouch_only_since_the_last_check():
    w, p, _ = board()
    ind = w.add_object(p, {"creature"}, power=1, toughness=5, counters={"indestructible": 1})
    w.deal_damage(ind, 1, deathtouch=True)
    w.tick()
    w.remove_counters(ind, "indestructible", 1)
    w.tick()
    assert w.exists(ind)


def test_704_5i_v_planeswalker_and_battle_at_zero():
    w, p, q = board()
    pw = w.add_object(p, {"planeswalker"}, loyalty=2)
    bt = w.add_object(q, {"battle"}, defense=2, counters={"indestructible": 1})
    w.deal_damage([pw, bt], 2)
    w.tick()
    assert not w.exists(pw) and not w.exists(bt)
    causes = sorted(e.cause for e in w.events() if hasattr(e, "old"))
    assert causes == ["704.5i", "704.5v"]


def test_704_5a_c_player_losses_and_104_2a_the_other_wins():
    w, p, q = board()
    w.put_counters(q, "poison", 9)
    w.tick()
    assert w.result() == "ongoing"
    w.put_counters(q, "poison", 1)
    w.tick()
    assert w.has_lost(q) and not w.has_lost(p) and w.result() == p


def test_104_4a_simultaneous_losses_are_a_draw():
    w, p, q = board()
    w.lose_life(p, 20)
    w.deal_damage(q, 10, infect=True)
    w.tick()
    assert w.has_lost(p) and w.has_lost(q) and w.result() == "draw"


def test_finished_games_are_frozen():
    w = World(batch=2)
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    w.lose_life(q, 20, games=[0])
    w.tick()
    w.put_counters(bear, "-1/-1", 5)       # games=None: the ongoing game only
    w.tick()
    assert w.exists(bear).tolist() == [True, False]
    from ecs import GameOverError
    with pytest.raises(GameOverError, match="game 0"):
        w.put_counters(bear, "charge", 1, games=[0])


def test_704_6_two_headed_giant_team_poison_and_life():
    w = World(two_headed_giant=True)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    b1, b2 = w.add_player(team=1), w.add_player(team=1)
    assert w.life(a1) == w.life(a2) == 30
    w.put_counters(b1, "poison", 6)
    w.put_counters(b2, "poison", 6)     # 810.10: shared by the team
    assert w.count(b1, "poison") == 12 == w.count(b2, "poison")
    w.tick()
    assert w.result() == "ongoing"      # 704.5c is ignored (scenario 23)
    seen = len(w.events())
    w.proliferate([b1, b2])             # 701.34b: one poison for the team
    assert w.count(b2, "poison") == 13
    assert [(e.kind, e.before, e.after, e.cause) for e in w.events()[seen:]] == [
        ("poison", 12, 13, "proliferate")]   # one row for the team's pool, not one per teammate
    w.put_counters(b2, "poison", 2)
    w.tick()
    assert w.has_lost(b1) and w.has_lost(b2) and w.result() == a1


def test_704_6b_810_10_two_headed_giant_team_poison_boundary_14_vs_15():
    """704.6b: a team with fifteen or more poison counters loses; fourteen is not enough
    (and 704.5c's ten is ignored in Two-Headed Giant). The poison is the team's (810.10),
    so seven on each teammate make fourteen, and one more on either makes fifteen."""
    w = World(two_headed_giant=True)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    b1, b2 = w.add_player(team=1), w.add_player(team=1)
    w.put_counters(b1, "poison", 7)
    w.put_counters(b2, "poison", 7)
    assert w.count(b1, "poison") == 14 == w.count(b2, "poison")
    w.tick()
    assert w.result() == "ongoing"
    assert not w.has_lost(b1) and not w.has_lost(b2)
    w.put_counters(b2, "poison", 1)
    assert w.count(b1, "poison") == 15
    w.tick()
    assert w.has_lost(b1) and w.has_lost(b2)
    assert not w.has_lost(a1) and not w.has_lost(a2) and w.result() == a1


def test_704_6a_two_headed_giant_team_life():
    w = World(two_headed_giant=True)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    b1, b2 = w.add_player(team=1), w.add_player(team=1)
    w.deal_damage(a1, 20)
    w.tick()
    assert w.life(a2) == 10 and w.result() == "ongoing"
    w.lose_life(a2, 10)
    w.tick()
    assert w.has_lost(a1) and w.has_lost(a2) and not w.has_lost(b2) and w.result() == b1


def test_tick_repeats_to_a_fixed_point():
    w, p, _ = board()
    tok = w.add_object(p, {"creature"}, power=1, toughness=1, token=True, counters={"-1/-1": 1})
    assert w.tick() == 2        # dies (704.5f), then the token ceases to exist (704.5d)
    assert w.tick() == 0 and not w.exists(tok)


def test_runaway_loop_raises_a_clear_error(monkeypatch):
    w, p, _ = board(max_passes=5)
    w.add_object(p, {"artifact"}, counters={"charge": 1})

    def always(self, world, pending: Check):
        pending.remove(0, np.array([0]), np.array([1]), np.array([0]), "704.5r")
    monkeypatch.setattr(ecs.systems.CapEnforcement, "process", always)
    with pytest.raises(SBALoopError, match="5 checks"):
        w.tick()


def test_systems_are_esper_processors_in_the_documented_order():
    w, _, _ = board()
    import esper
    assert all(isinstance(p, esper.Processor) for p in w.schedule.systems)
    names = [type(p).__name__ for p in w.schedule.systems]
    assert names == ["ZoneChange", "Annihilation", "CapEnforcement", "Lethality", "WitherUpkeep",
                     "Rad", "EmptyDraw"]


def test_lethality_exact_near_int32_limits():
    """Lethality sums toughness in int64: counts near the int32 limit stay exact (122.1a)."""
    big = 2**31 - 1
    w = World()
    p = w.add_player()
    tall = w.add_object(p, {"creature"}, power=0, toughness=5, counters={"+1/+1": big})
    w.deal_damage(tall, big)                       # toughness 2**31 + 4 > damage: survives
    low = w.add_object(p, {"creature"}, power=0, toughness=-2**30, counters={"+1/+1": big})
    w.deal_damage(low, 2**30)                      # toughness 2**30 - 1 <= damage: dies
    gone = w.add_object(p, {"creature"}, power=0, toughness=2**30, counters={"-1/-1": big})
    w.tick()
    assert w.exists(tall) and not w.exists(low) and not w.exists(gone)
    assert {e.cause for e in w.events() if type(e).__name__ == "ZoneChanged"} == {"704.5g", "704.5f"}


def test_lethality_multiplies_a_kinds_change_per_counter_exactly():
    """122.1a: +X/+Y counters of up to three digits times a count near the int32 limit stay
    exact: the product is int64 (wrapped to int32 it would be 2**31 - 999, and the damage
    below lethal, 704.5g)."""
    w = World()
    p = w.add_player()
    tall = w.add_object(p, {"creature"}, power=0, toughness=-2**30, counters={"+999/+999": 2**31 - 1})
    w.deal_damage(tall, 2**31 - 1)
    w.tick()
    assert w.exists(tall) and w.toughness(tall) == -2**30 + 999 * (2**31 - 1)


def test_a_rulesets_change_per_counter_past_max_stat_is_refused_by_name():
    """A host's ruleset whose power/toughness change per counter (122.1a) is past
    MAX_STAT in size: the check raises InvalidKindError naming the kind and the change,
    before it changes anything."""
    from ecs import InvalidKindError
    from ecs.limits import MAX_STAT
    from ecs.rules.mtg import Magic

    class Huge(Magic):
        def pt_modifier(self, kind):
            return (0, MAX_STAT + 1) if kind == "growth" else super().pt_modifier(kind)

    w = World()
    w.ruleset = Huge()
    p = w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=0, counters={"growth": 1})
    with pytest.raises(InvalidKindError, match=f"'growth'.*{MAX_STAT + 1}"):
        w.tick()
    assert w.exists(bear) and w.count(bear, "growth") == 1


def _spy_on_live(monkeypatch):
    """The games each check's Lethality looked at (None: every ongoing game)."""
    seen = []
    process = ecs.systems.Lethality.process

    def spy(self, world, pending):
        seen.append(None if pending.live is None else np.flatnonzero(pending.live).tolist())
        process(self, world, pending)
    monkeypatch.setattr(ecs.systems.Lethality, "process", spy)
    return seen


def test_704_3_a_recheck_looks_only_at_the_games_the_perform_changed(monkeypatch):
    """704.3: after a perform, check again; a game no decision named is as the last check
    saw it, so only the changed games are looked at, and what they need is still found:
    here a cap removal (704.5r) that lowers toughness to 0 (704.5f next check)."""
    w, p, _ = board(batch=4)
    x = w.add_object(p, {"creature"}, power=1, toughness=1, caps={"+0/+1": 0})
    w.put_counters(x, "+0/+1", 1, games=[1, 3])
    w.put_counters(x, "-1/-1", 1, games=[1, 3])
    w.put_counters(x, "-1/-1", 1, games=[3])          # game 3 dies on the first check
    seen = _spy_on_live(monkeypatch)
    assert w.tick() == 2
    assert seen == [None, [1, 3], [1]]
    assert w.exists(x).tolist() == [True, False, True, False]
    causes = [(e.game, e.cause) for e in w.events() if e.cause.startswith("704")]
    assert causes == [(1, "704.5r"), (3, "704.5f"), (1, "704.5f")]


def test_704_5d_token_ceases_in_the_recheck_of_its_game_only(monkeypatch):
    w, p, _ = board(batch=8)
    tok = w.add_object(p, {"creature"}, power=1, toughness=1, token=True)
    w.put_counters(tok, "-1/-1", 1, games=[2, 5])
    seen = _spy_on_live(monkeypatch)
    assert w.tick() == 2        # dies (704.5f), then ceases to exist (704.5d)
    assert seen == [None, [2, 5], [2, 5]]
    assert w.exists(tok).tolist() == [g not in (2, 5) for g in range(8)]
    gone = [e for e in w.events() if e.cause == "704.5d"]
    assert sorted(e.game for e in gone) == [2, 5]


def _spy_on_touched(monkeypatch):
    """The (game, column) slots each check's Lethality and Annihilation looked at (None:
    every permanent of the live games)."""
    seen = []
    process = ecs.systems.Lethality.process

    def spy(self, world, pending):
        cap = world.store.capacity
        seen.append(None if pending.touched is None
                    else [(int(a) // cap, int(a) % cap) for a in pending.touched])
        process(self, world, pending)
    monkeypatch.setattr(ecs.systems.Lethality, "process", spy)
    return seen


def test_704_3_annihilation_alone_calls_for_no_recheck(monkeypatch):
    """704.3, 704.5q: removing N +1/+1 and N -1/-1 counters changes nothing a check reads,
    so a game where only that happened is not checked again."""
    w, p, _ = board(batch=3)
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    w.put_counters(bear, "+1/+1", 2)
    w.put_counters(bear, "-1/-1", 1)
    seen = _spy_on_live(monkeypatch)
    assert w.tick() == 1
    assert seen == [None]
    assert w.counters(bear)["+1/+1"].tolist() == [1, 1, 1] and "-1/-1" not in w.counters(bear)


def test_704_3_a_recheck_looks_only_at_the_permanents_the_perform_touched(monkeypatch):
    """704.3: the re-check's per-permanent systems look only at the permanents whose
    counters a non-settling removal changed (here a cap, 704.5r) or that entered; the
    annihilated bystander and the dead bear are not looked at again."""
    w, p, _ = board(batch=2)
    capped = w.add_object(p, {"artifact"}, caps={"charge": 1}, counters={"charge": 3})
    by = w.add_object(p, {"creature"}, power=2, toughness=2, counters={"+1/+1": 1, "-1/-1": 1})
    dead = w.add_object(p, {"creature"}, power=1, toughness=1, counters={"-1/-1": 1})
    seen = _spy_on_touched(monkeypatch)
    assert w.tick() == 1
    col = int(w.store.locate(0, capped))
    assert int(w.store.locate(1, capped)) == col
    assert seen == [None, [(0, col), (1, col)]]
    assert w.counters(capped)["charge"].tolist() == [1, 1] and w.counters(by) == {}
    assert not w.exists(dead).any()


def test_704_3_annihilation_and_a_cap_on_one_permanent_are_rechecked_together():
    """A permanent whose pairs annihilate while a cap trims another P/T kind: the cap's
    removal is not settling, so the re-check sees toughness 0 (704.5f)."""
    w, p, _ = board()
    x = w.add_object(p, {"creature"}, power=1, toughness=1, caps={"+0/+1": 0},
                     counters={"+1/+1": 1, "-1/-1": 2, "+0/+1": 2})   # 1 + 1 - 2 + 2 = 2
    assert w.tick() == 2
    assert not w.exists(x)
    causes = [e.cause for e in w.events() if e.cause.startswith("704")]
    assert causes == ["704.5q", "704.5q", "704.5r", "704.5f"]


def test_systems_declare_the_causes_they_decide_with():
    """Each system names its causes (rule numbers, CR 704.5x); they are causes the event
    log knows (ecs.events.CAUSES), and together with the actions' causes they are all of them."""
    from ecs.events import CAUSES
    from ecs.rules import RULESETS
    systems = {s for r in RULESETS.values() for s in r.systems}
    declared = {c for s in systems for c in s.causes}
    assert all(s.causes for s in systems)
    assert declared <= set(CAUSES)
    # the actions' causes, and perform's game ends (104.2a, 104.4a)
    others = {"put", "remove", "move", "proliferate", "enter", "damage", "shield", "stun",
              "destroy", "sacrifice", "zone", "cleanup", "104.4a", "104.2a",
              "ga.placement", "ga.recover", "ga.enlighten", "draw", "mill",
              "ga.reserve", "ga.level_up", "ga.left_game", "tap", "untap", "combat damage",
              "704.5j", "704.5s", "host"}   # the last three: for a host's own systems
    assert set(CAUSES) - declared <= others


@pytest.mark.parametrize("batch", [1, 4])
def test_704_3_a_check_that_finds_most_objects_decides_for_each(batch):
    """The passes' outputs start with room for a sixteenth of the objects they look at
    and grow where they fill (``ecs.kernels.grown``): a check that finds nearly every
    object still decides for each - pairs (704.5q), deaths with their counters as
    last-known information (704.5f, 704.8), tokens elsewhere (704.5d), caps (704.5r)."""
    from ecs.events import CAUSE, ZONE

    w, p, _ = board(batch=batch)
    n = 300
    paired = w.add_objects(n, p, "creature", power=2, toughness=2,
                           counters={"+1/+1": 1, "-1/-1": 1})
    doomed = w.add_objects(n, p, "creature", power=2, toughness=2, counters={"-1/-1": 3})
    capped = w.add_objects(n, p, "artifact", counters={"charge": 5}, caps={"charge": 2})
    tokens = w.move_zone(w.add_objects(n, p, "artifact", token=True), "graveyard")
    w.clear_events()
    w.tick()
    for e in paired:
        assert np.all(w.count(int(e), "+1/+1") == 0) and np.all(w.count(int(e), "-1/-1") == 0)
    for e in capped:
        assert np.all(w.count(int(e), "charge") == 2)
    t = w.event_table()
    died = np.flatnonzero((t["type"] == ZONE) & (t["cause"] == CAUSE["704.5f"]))
    ceased = np.flatnonzero((t["type"] == ZONE) & (t["cause"] == CAUSE["704.5d"]))
    assert sorted(set(t["entity"][died].tolist())) == sorted(doomed.tolist())
    assert died.size == ceased.size == n * batch
    assert set(t["entity"][ceased].tolist()) == set(np.asarray(tokens).ravel().tolist())
    lki = np.isin(t["lki_row"], died)
    assert lki.sum() == n * batch
    assert (t["lki_kind"][lki] == w.store.kind_index["-1/-1"]).all() and (t["lki_count"][lki] == 3).all()


def test_704_5r_caps_trim_permanents_only():
    """704.5r: the cap is a state-based action on permanents; a card in a graveyard keeps
    every counter past its cap (as 704.5q leaves its pairs, above)."""
    w, p, _ = board()
    card = w.add_object(p, {"artifact"}, zone="graveyard", caps={"charge": 1}, counters={"charge": 3})
    assert w.tick() == 0
    assert w.counters(card) == {"charge": 3}


# What each game of a batch holds for a rule (the cause its event names), set up before a
# main phase begun in game 1 only
_IN_BOTH_GAMES = {
    "704.5q": ("704.5q", lambda w, p, q: w.put_counters(
        w.add_object(p, {"artifact"}, counters={"+1/+1": 1}), "-1/-1", 1)),
    "704.5d": ("704.5d", lambda w, p, q: w.move_zone(
        w.add_object(p, {"artifact"}, token=True), "graveyard")),
    "704.5r": ("704.5r", lambda w, p, q: w.put_counters(
        w.add_object(p, {"artifact"}, caps={"charge": 1}), "charge", 2)),
    "704.5f": ("704.5f", lambda w, p, q: w.put_counters(
        w.add_object(p, {"creature"}, power=1, toughness=1), "-1/-1", 1)),
    "704.5a": ("704.5a", lambda w, p, q: w.lose_life(q, 20)),
    "704.5b": ("draw", lambda w, p, q: w.draw(q)),
}


@pytest.mark.parametrize("rule", sorted(_IN_BOTH_GAMES))
def test_704_3_a_main_phase_of_one_game_checks_that_game_only(rule):
    """117.5, 704.3: beginning a main phase in game 1 of a batch checks the state-based
    actions of game 1 alone; game 0, which holds the same, waits for a check of its own."""
    cause, setup = _IN_BOTH_GAMES[rule]
    w, p, q = board(batch=2)
    setup(w, p, q)
    w.clear_events()
    w.begin_main_phase(p, games=[1])
    assert cause in {e.cause for e in w.events() if e.game == 1}
    assert [e for e in w.events() if e.game == 0] == []
    w.clear_events()
    assert w.tick() >= 1
    assert cause in {e.cause for e in w.events() if e.game == 0}


def test_704_5r_a_recheck_trims_each_permanent_by_its_own_caps():
    """704.5r, 704.3: the re-check after a cap trimmed one permanent (to three charge
    counters) reads that permanent's own caps alone: another's lower cap of the kind (one)
    takes nothing from either of them."""
    w, p, _ = board(batch=2)   # (a one-game re-check asks the probe about the whole board)
    high = w.add_object(p, {"artifact"}, caps={"charge": 3}, counters={"charge": 5})
    low = w.add_object(p, {"artifact"}, caps={"charge": 1}, counters={"charge": 1})
    assert w.tick() == 1
    assert w.counters(high)["charge"].tolist() == [3, 3] and w.counters(low)["charge"].tolist() == [1, 1]


def test_704_3_a_recheck_leaves_a_game_that_ended_as_it_ended():
    """104.2a, 704.3: a check where a cap (704.5r) brings a creature to toughness 0 in both
    games of a batch while a player loses game 0 (704.5a): the re-check, of game 1 only,
    kills the creature there (704.5f); in the ended game it stays."""
    w, p, q = board(batch=2)
    x = w.add_object(p, {"creature"}, power=1, toughness=1, caps={"+0/+1": 0},
                     counters={"+0/+1": 1, "-1/-1": 1})
    w.lose_life(q, 20, games=[0])
    assert w.tick() == 2
    assert w.result().tolist() == [p, -1]
    assert w.exists(x).tolist() == [True, False]
    assert [(e.game, e.cause) for e in w.events() if e.cause in ("704.5r", "704.5f")] == [
        (0, "704.5r"), (1, "704.5r"), (1, "704.5f")]


def test_704_5f_g_a_creature_with_no_printed_toughness_counts_it_as_0():
    """704.5f, 704.5g: a creature with no printed toughness has toughness 0 and dies; with
    one +1/+1 counter (122.1a) its toughness is 1, and one damage is lethal."""
    w, p, _ = board()
    bare = w.add_object(p, {"creature"})
    grown = w.add_object(p, {"creature"}, counters={"+1/+1": 1})
    w.deal_damage(grown, 1)
    w.tick()
    causes = {e.old: e.cause for e in w.events() if hasattr(e, "old")}
    assert causes == {bare: "704.5f", grown: "704.5g"}


# What holds a creature at toughness 1 once a cap (704.5r) trims its +0/+2 counter: a
# host's layer 7c effect (613.4c), or a third kind of P/T counter (122.1a)
_HELD_AT_1 = {
    "613.4c": (lambda w, x: w.modify_pt(x, toughness=1), {}),
    "122.1a": (lambda w, x: None, {"+0/+1": 1}),
}


@pytest.mark.parametrize("by", sorted(_HELD_AT_1))
def test_704_3_a_recheck_reads_the_whole_toughness(by):
    """704.3, 704.5f: the re-check after a cap trims a 1/1's +0/+2 counter sums its
    toughness as the first check does: its -1/-1 counter and what else it has leave it at
    1, and it stays (in a batch, where the re-check reads the touched permanents alone)."""
    effect, counters = _HELD_AT_1[by]
    w, p, _ = board(batch=2)
    x = w.add_object(p, {"creature"}, power=1, toughness=1, caps={"+0/+2": 0},
                     counters={"-1/-1": 1, "+0/+2": 1, **counters})
    effect(w, x)
    assert w.tick() == 1
    assert w.exists(x).all() and w.toughness(x).tolist() == [1, 1]


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("how", ["keyword", "counter"])
def test_704_5f_702_12b_indestructible_does_not_save_a_creature_at_0_toughness(how, batch):
    """702.12b: indestructible stops 704.5g and 704.5h only; a creature with it (the
    keyword, or an indestructible counter, 122.1b) at 0 toughness still dies (704.5f)."""
    w, p, _ = board(batch=batch)
    kw = {"keywords": ("indestructible",)} if how == "keyword" else {"counters": {"indestructible": 1}}
    x = w.add_object(p, {"creature"}, power=1, toughness=1, **kw)
    w.put_counters(x, "-1/-1", 1)
    w.tick()
    assert not np.any(w.exists(x))
    assert [e.cause for e in w.events() if hasattr(e, "old")] == ["704.5f"] * batch


@pytest.mark.parametrize("batch", [1, 2])
def test_704_5i_a_planeswalker_with_loyalty_stays_when_loyalty_is_the_first_kind(batch):
    """704.5i: a planeswalker dies with no loyalty counters; with two it stays, also where
    loyalty is the first counter kind the game uses (the kind at index 0)."""
    w, p, _ = board(batch=batch)
    pw = w.add_object(p, {"planeswalker"}, loyalty=2)
    assert w.store.kind_index["loyalty"] == 0
    assert w.tick() == 0
    assert np.all(w.exists(pw))
    w.remove_counters(pw, "loyalty", 2)
    w.tick()
    assert not np.any(w.exists(pw))
    assert [e.cause for e in w.events() if hasattr(e, "old")] == ["704.5i"] * batch


def test_704_5g_122_1a_each_game_sums_every_toughness_kind_of_its_own():
    """122.1a, 704.5g: a creature's toughness sums every kind of +X/+Y counter on it, each
    game of a batch its own: a 1/1 with +0/+1, +0/+2 and +0/+4 counters in both games and a
    +0/+3 counter in game 0 has toughness 1 + 1 + 2 + 3 + 4 = 11 there and 8 in game 1, so
    8 damage is lethal in game 1 alone."""
    w, p, _ = board(batch=2)
    x = w.add_object(p, {"creature"}, power=1, toughness=1, counters={"+0/+1": 1, "+0/+2": 1})
    w.put_counters(x, "+0/+3", 1, games=[0])
    w.put_counters(x, "+0/+4", 1)
    assert w.toughness(x).tolist() == [11, 8]
    w.deal_damage(x, 8)
    w.tick()
    assert w.exists(x).tolist() == [True, False]
    assert [(e.game, e.cause) for e in w.events() if hasattr(e, "old")] == [(1, "704.5g")]


@pytest.mark.parametrize("batch", [1, 2])
def test_704_5i_v_a_planeswalker_and_a_battle_with_counters_stay(batch):
    """704.5i, 704.5v: a planeswalker with loyalty counters and a battle with defense
    counters stay, each read by its own kind; with none of its kind, each dies."""
    w, p, q = board(batch=batch)
    pw = w.add_object(p, {"planeswalker"}, loyalty=3)
    bt = w.add_object(q, {"battle"}, defense=2)
    assert w.tick() == 0
    assert np.all(w.exists(pw)) and np.all(w.exists(bt))
    w.remove_counters(bt, "defense", 2)
    w.tick()
    assert np.all(w.exists(pw)) and not np.any(w.exists(bt))
    w.remove_counters(pw, "loyalty", 3)
    w.tick()
    assert not np.any(w.exists(pw))
    assert [e.cause for e in w.events() if hasattr(e, "old")] == ["704.5v"] * batch + ["704.5i"] * batch


@pytest.mark.parametrize("batch", [1, 2])
def test_704_5g_613_4c_a_hosts_toughness_change_counts_in_the_first_check(batch):
    """613.4c, 704.5f, 704.5g: a host's toughness modification counts where the check
    sums toughness: a 1/1 given +2 takes 2 damage and stays; a 1/1 given -1 dies (704.5f)."""
    w, p, _ = board(batch=batch)
    big = w.add_object(p, {"creature"}, power=1, toughness=1)
    small = w.add_object(p, {"creature"}, power=1, toughness=1)
    w.modify_pt(big, toughness=2)
    w.modify_pt(small, toughness=-1)
    w.deal_damage(big, 2)
    w.tick()
    assert np.all(w.exists(big)) and not np.any(w.exists(small))
    assert [e.cause for e in w.events() if hasattr(e, "old")] == ["704.5f"] * batch


@pytest.mark.parametrize("batch", [1, 2])
def test_704_5d_a_token_past_the_last_permanent_ceases_to_exist(batch):
    """704.5d: a token in a graveyard ceases to exist wherever its slot is, also past every
    permanent of a board wider than a block of columns (where the battlefield passes stop)."""
    from ecs.systems.base import BLOCK_COLUMNS

    w, p, _ = board(batch=batch)
    w.add_objects(BLOCK_COLUMNS + 10, p, "artifact")
    tok = w.move_zone(w.add_object(p, {"artifact"}, token=True), "graveyard")
    w.clear_events()
    assert w.tick() == 1
    assert not np.any(w.exists(tok))
    assert [e.cause for e in w.events() if hasattr(e, "old")] == ["704.5d"] * batch


def test_704_5r_each_game_trims_by_its_own_cap():
    """704.5r, 122.4: a cap set per game trims each game's permanent to that game's cap:
    three charge counters under a cap of one in game 0 and of three in game 1."""
    w, p, _ = board(batch=2)
    x = w.add_object(p, {"artifact"}, counters={"charge": 3}, caps={"charge": [1, 3]})
    assert w.tick() == 1
    assert w.counters(x)["charge"].tolist() == [1, 3]
    assert [(e.game, e.cause) for e in w.events() if e.cause == "704.5r"] == [(0, "704.5r")]


@pytest.mark.parametrize("by, cause", [("life", "704.6a"), ("poison", "704.6b")])
def test_704_6a_b_a_two_headed_giant_teams_loss_names_its_rule(by, cause):
    """704.6a, 704.6b: a team at 0 life loses by 704.6a, a team with fifteen poison
    counters by 704.6b; both of its players lose, each named with that rule."""
    w = World(two_headed_giant=True)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    w.add_player(team=1), w.add_player(team=1)
    if by == "life":
        w.lose_life(a1, 30)
    else:
        w.put_counters(a1, "poison", 15)
    w.tick()
    assert w.has_lost(a1) and w.has_lost(a2)
    assert sorted((e.player, e.cause) for e in w.events() if type(e).__name__ == "PlayerLost") == [
        (a1, cause), (a2, cause)]


@pytest.mark.parametrize("batch", [1, 2])
def test_704_5f_a_creature_card_in_a_graveyard_is_not_put_there_again(batch):
    """704.5f applies to creatures on the battlefield: a 0/0 dies once, and the re-check
    after its move reads its slot, now a creature card in the graveyard, which stays."""
    w, p, _ = board(batch=batch)
    x = w.add_object(p, {"creature"}, power=0, toughness=0)
    w.clear_events()
    w.tick()
    moves = [(e.cause, e.to_zone) for e in w.events() if hasattr(e, "old")]
    assert moves == [("704.5f", "graveyard")] * batch
    assert not np.any(w.exists(x)) and len(w.objects("graveyard")) == 1


@pytest.mark.parametrize("batch", [1, 2])
def test_704_5i_v_a_cap_that_takes_the_last_counters_kills_at_the_recheck(batch):
    """704.5r then 704.5i, 704.5v: caps of 0 loyalty and 0 defense counters trim a
    planeswalker's and a battle's counters; the re-check finds them with none and they
    die (in a batch the re-check reads the touched permanents alone)."""
    w, p, q = board(batch=batch)
    pw = w.add_object(p, {"planeswalker"}, loyalty=2, caps={"loyalty": 0})
    bt = w.add_object(q, {"battle"}, defense=2, caps={"defense": 0})
    w.clear_events()
    assert w.tick() == 2
    assert not np.any(w.exists(pw)) and not np.any(w.exists(bt))
    assert sorted(e.cause for e in w.events()) == sorted(["704.5r", "704.5r", "704.5i", "704.5v"] * batch)


class _Fade(System):
    """A host's rule for the test below: a card off the battlefield loses its fade counters."""
    causes = ("remove",)

    def process(self, game, check: Check) -> None:
        s = game.store
        fade = s.plane("fade")
        if fade is None:
            return
        on = fade * (s.a["zone"][:, : s.n_cols] != zones.BATTLEFIELD) * check.live_games(game)[:, None]
        g, c = np.nonzero(on)
        check.remove(s.kind_index["fade"], g, c, on[g, c].astype(np.int64), "remove")


@pytest.mark.parametrize("batch", [1, 2])
def test_704_5f_q_r_a_recheck_of_a_card_off_the_battlefield_leaves_it(batch):
    """704.5f, 704.5q and 704.5r apply to permanents (400.1): where a host's system removes
    counters from a 0/0 creature card in a graveyard, the re-check that reads its slot
    leaves it there with its pair and the charge counter past its cap."""
    w, p, _ = board(batch=batch)
    w.schedule = w.schedule.with_systems(_Fade)
    card = w.add_object(p, {"creature"}, zone="graveyard", power=0, toughness=0, caps={"charge": 0},
                        counters={"fade": 1, "+1/+1": 1, "-1/-1": 1, "charge": 1})
    w.clear_events()
    assert w.tick() == 1
    assert np.all(w.zone(card) == "graveyard") and np.all(w.count(card, "fade") == 0)
    assert all(np.all(w.count(card, k) == 1) for k in ("+1/+1", "-1/-1", "charge"))
    assert [e.cause for e in w.events()] == ["remove"] * batch
