"""Damage results (CR 120.3), shield (122.1c), stun (122.1d), destroy/sacrifice."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples
from state import full_state

from ecs import (
    CounterChanged,
    CountOverflowError,
    DamageDealt,
    IllegalActionError,
    InvalidGameError,
    StaleEntityError,
    World,
    ZoneChanged,
)
from ecs.limits import MAX_COUNT, MAX_LIFE


@pytest.fixture
def game():
    w = World()
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    return w, p, q, bear


def test_120_3e_damage_is_marked_and_514_2_cleanup_removes_it(game):
    w, _, _, bear = game
    w.deal_damage(bear, 1)
    assert w.damage(bear) == 1 and w.counters(bear) == {}
    w.cleanup()
    assert w.damage(bear) == 0


@pytest.mark.parametrize("batch", [1, 2])
def test_810_10_infect_damage_to_each_player_of_a_team_adds_up_on_the_team(batch):
    """810.10: "Effects that cause players to get poison counters happen to each player
    individually. The poison counters are shared by the team." Infect damage to both
    players of a team in one call (120.3b), one of them named twice, gives the team the
    poison counters of every row, which loses by 704.6b: one event for each player who
    got them (b1 its 10, then b2 its 5, in seat order), each with the team's count."""
    w = World(two_headed_giant=True, batch=batch, seed=0)
    a1, _ = w.add_player(team=0), w.add_player(team=0)
    b1, b2 = w.add_player(team=1), w.add_player(team=1)
    rat = w.add_object(a1, "creature", power=1, toughness=1)
    w.clear_events()
    w.deal_damage([b2, b1, b1], 5, rat, infect=True)
    assert np.all(w.count(b2, "poison") == 15)
    changes = [(e.game, e.entity, e.kind, e.before, e.after) for e in w.events()
               if isinstance(e, CounterChanged)]
    assert sorted(changes) == sorted((g, p, "poison", *ba) for g in range(batch)
                                     for p, ba in ((b1, (0, 10)), (b2, (10, 15))))
    w.tick()
    assert np.all(w.result() == a1)


def test_120_3d_wither_and_infect_put_minus_counters(game):
    w, p, _, bear = game
    w.deal_damage(bear, 1, wither=True)
    other = w.add_object(p, {"creature"}, power=3, toughness=3)
    w.deal_damage(other, 2, infect=True)
    assert w.counters(bear) == {"-1/-1": 1} and w.damage(bear) == 0
    assert w.counters(other) == {"-1/-1": 2} and w.toughness(other) == 1


@pytest.mark.parametrize("batch", [1, 2])
def test_101_3_damage_puts_no_counters_where_it_cant_have_them_so_nothing_overflows(batch):
    """120.3d and 120.3b put -1/-1 and poison counters; where the permanent or player
    can't have them (101.3) none are put, so a count at the limit raises no
    CountOverflowError (docs/rules-mtg.md, Counts), in one game and in a batch."""
    w = World(batch=batch)
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    w.deal_damage(bear, MAX_COUNT, wither=True)
    w.deal_damage(q, MAX_COUNT, infect=True)
    w.prohibit(bear, "-1/-1")
    w.prohibit(q, "poison")
    w.deal_damage(bear, MAX_COUNT, wither=True)
    w.deal_damage(bear, 1, infect=True)
    w.deal_damage(q, MAX_COUNT, infect=True)
    assert np.atleast_1d(w.count(bear, "-1/-1")).tolist() == [MAX_COUNT] * batch
    assert np.atleast_1d(w.count(q, "poison")).tolist() == [MAX_COUNT] * batch
    w.allow(bear)
    with pytest.raises(CountOverflowError, match="-1/-1"):
        w.deal_damage(bear, 1, wither=True)


def test_120_3a_b_players_lose_life_or_get_poison(game):
    w, p, q, _ = game
    w.deal_damage(q, 3)
    w.deal_damage(q, 2, infect=True)
    assert w.life(q) == 17 and w.counters(q) == {"poison": 2}


def test_120_3c_h_planeswalkers_and_battles_lose_counters(game):
    w, p, q, _ = game
    pw = w.add_object(p, {"planeswalker"}, loyalty=5)
    battle = w.add_object(q, {"battle"}, defense=4)
    w.deal_damage([pw, battle], 3)
    assert w.loyalty(pw) == 2 and w.defense(battle) == 1


def test_120_8_zero_damage_is_not_dealt(game):
    w, _, _, bear = game
    w.put_counters(bear, "shield", 1)
    w.clear_events()
    w.deal_damage(bear, 0, deathtouch=True)
    w.tick()
    assert w.exists(bear) and w.counters(bear) == {"shield": 1} and w.events() == []


def test_122_1c_shield_prevents_damage_and_one_counter_goes(game):
    w, _, _, bear = game
    w.put_counters(bear, "shield", 2)
    w.deal_damage(bear, 5, deathtouch=True)
    w.tick()
    assert w.exists(bear) and w.damage(bear) == 0 and w.counters(bear) == {"shield": 1}


def test_122_1c_one_damage_event_from_two_sources_uses_one_shield(game):
    """Ambiguity 8.1: simultaneous damage to one permanent is one event: all prevented."""
    w, _, _, bear = game
    w.put_counters(bear, "shield", 2)
    w.deal_damage([bear, bear], 3, combat=True)
    assert w.damage(bear) == 0 and w.counters(bear) == {"shield": 1}


@pytest.mark.parametrize("batch", [1, 2])
def test_510_2_122_1c_combat_damage_from_two_blockers_at_once_uses_one_shield(batch):
    """A 4/4 with one shield counter blocked by a 2/2 and a deathtouch 3/3: their combat
    damage is dealt at once (510.2), one event per source, and the shield prevents all of
    it (122.1c), one counter removed: the attacker lives. Each source's
    abilities stay its own: its deathtouch kills the attacker where the shield is gone."""
    w = World(batch=batch, seed=0)
    p, q = w.add_player(), w.add_player()
    attacker = w.add_object(p, "creature", power=4, toughness=4, counters={"shield": 1})
    bear = w.add_object(q, "creature", power=2, toughness=2)
    snake = w.add_object(q, "creature", power=3, toughness=3, keywords={"deathtouch"})
    w.clear_events()
    blockers = [bear, snake] if batch == 1 else [[bear, snake]] * batch   # (a batch: (games, targets))
    w.deal_damage([attacker, attacker], [2, 3], source=blockers, combat=True)
    dealt = sorted((e.source, e.amount, e.dealt) for e in w.events() if isinstance(e, DamageDealt))
    assert dealt == sorted([(bear, 2, 0), (snake, 3, 0)] * batch)
    assert np.all(w.count(attacker, "shield") == 0) and np.all(w.damage(attacker) == 0)
    w.tick()
    assert np.all(w.exists(attacker))
    w.deal_damage([attacker, attacker], [1, 1], source=blockers, combat=True)
    w.tick()
    assert not np.any(w.exists(attacker))


def test_120_3_each_source_of_damage_dealt_at_once_puts_and_gains_as_its_own():
    """Several sources at once: lifelink gains each source's controller what it dealt
    (120.3f), wither's -1/-1 counters are put by each source's controller (120.3d,
    122.6a), and one source named twice for one target is one event of the sum."""
    w = World(seed=0)
    p, q = w.add_player(), w.add_player()
    wall = w.add_object(p, "creature", power=0, toughness=9)
    mine = w.add_object(p, "creature", power=1, toughness=1, keywords={"lifelink"})
    theirs = w.add_object(q, "creature", power=1, toughness=1, keywords={"lifelink"})
    w.clear_events()
    w.deal_damage([wall, wall, wall], [1, 2, 3], source=[mine, theirs, mine], wither=True)
    assert (w.life(p), w.life(q)) == (24, 22) and w.counters(wall) == {"-1/-1": 6}
    assert sorted((e.source, e.amount) for e in w.events() if isinstance(e, DamageDealt)) == \
        sorted([(mine, 4), (theirs, 2)])
    assert sorted((e.by, e.after - e.before) for e in w.events() if isinstance(e, CounterChanged)) == \
        sorted([(p, 4), (q, 2)])


def test_damage_sources_of_a_shape_that_fits_no_target_are_refused_and_change_nothing(game):
    w, p, q, bear = game
    a = w.add_object(q, "creature", power=1, toughness=1)
    before = full_state(w)
    for source in ([a, a, a], np.array([[a, a]]).T, [[a], [a]]):
        with pytest.raises(InvalidGameError, match="source of shape"):
            w.deal_damage([bear, bear], 1, source=source)
    assert full_state(w) == before


def test_damage_sources_are_looked_at_only_for_the_targets_an_action_keeps():
    """``where="present"`` skips a target that left (and a -1 pad): its cell's source is
    not looked at either, a -1 pad or an object gone; no target, no source to look at."""
    w = World(batch=2, seed=0)
    p, q = w.add_player(), w.add_player()
    a, b = (w.add_object(p, "creature", power=1, toughness=5) for _ in range(2))
    s1, s2 = (w.add_object(q, "creature", power=1, toughness=1) for _ in range(2))
    w.destroy([b, s2], games=[1])
    w.deal_damage([[a, b], [a, -1]], 1, source=[[s1, s2], [s1, -1]], where="present")
    assert w.damage(a).tolist() == [1, 1] and w.damage(b).tolist()[0] == 1
    with pytest.raises(StaleEntityError, match="source"):   # a kept target's source gone: refused
        w.deal_damage([[a, b], [a, -1]], 1, source=[[s2, s1], [s2, -1]], where="present")
    w.deal_damage(np.zeros((2, 0), np.int64), 1, source=np.zeros((2, 0), np.int64))
    assert w.damage(a).tolist() == [1, 1]


KEYWORD_SETS = [set(), {"deathtouch"}, {"lifelink"}, {"deathtouch", "lifelink"}]


@st.composite
def volleys(draw):
    """A board (creatures, a planeswalker and a battle, some with shield counters; three
    sources of drawn keywords and controllers) and per game rows (target, source, amount)."""
    targets = [dict(types="creature", power=2, toughness=draw(st.integers(1, 4))),
               dict(types="creature", power=1, toughness=3),
               dict(types="planeswalker", loyalty=draw(st.integers(1, 4))),
               dict(types="battle", defense=3)]
    shields = [draw(st.integers(0, 2)) for _ in targets]
    sources = [(draw(st.sampled_from(KEYWORD_SETS)), draw(st.integers(0, 1))) for _ in range(3)]
    flags = {f: draw(st.booleans()) for f in ("wither", "infect", "unpreventable")}
    n_rows = draw(st.integers(1, 5))
    games = [[(draw(st.integers(0, len(targets) + 1)), draw(st.integers(0, 2)), draw(st.integers(0, 4)))
              for _ in range(n_rows)] for _ in range(2)]
    return targets, shields, sources, flags, games


def expected(before, rows, flags, sources):
    """The results by the rules read plainly: every row is its source's damage to its
    target (120.3), all at once: a permanent's shield counter prevents all of the damage
    it is dealt and goes once (122.1c; unpreventable: dealt, and the counter still goes,
    615.12), 0 damage is not dealt (120.8)."""
    after = {e: dict(v) for e, v in before.items()}
    hit = {t for t, _, n in rows if n > 0}
    for t in hit:
        if "shield" in after[t] and after[t]["shield"] > 0:
            after[t]["shield"] -= 1
    for t, src, n in rows:
        if n == 0:
            continue
        keywords, controller = sources[src]
        o = after[t]
        if o["kind"] == "player":
            if flags["infect"]:
                o["poison"] += n
            else:
                o["life"] -= n
        else:
            if before[t]["shield"] > 0 and not flags["unpreventable"]:
                continue
            if o["kind"] == "creature":
                if flags["wither"] or flags["infect"]:
                    o["-1/-1"] += n
                else:
                    o["damage"] += n
                o["deathtouch"] |= "deathtouch" in keywords
            else:
                o[o["kind"]] -= min(n, o[o["kind"]])
        if "lifelink" in keywords:
            after[("player", controller)]["life"] += n
    return after


def state(w, g, ids, players):
    def one(x):
        return x if w.batch == 1 else x[g]
    out = {}
    for i, e in enumerate(ids):
        col = w.store.present(g, e)
        kind = ["creature", "creature", "planeswalker", "battle"][i]
        out[i] = {"kind": kind, "shield": one(w.count(e, "shield")), "-1/-1": one(w.count(e, "-1/-1")),
                  "damage": one(w.damage(e)), "deathtouch": bool(w.store.a["deathtouch_hit"][g, col]),
                  "planeswalker": one(w.count(e, "loyalty")), "battle": one(w.count(e, "defense"))}
    for j, p in enumerate(players):
        out[("player", j)] = {"kind": "player", "life": one(w.life(p)), "poison": one(w.count(p, "poison")),
                              "shield": 0}
    return out


@settings(max_examples=examples(60), deadline=None)
@given(volleys(), st.sampled_from([1, 2]))
def test_120_3_122_1c_damage_from_several_sources_at_once_equals_the_rules_read_plainly(volley, batch):
    """Random volleys of damage from several sources at once (``source`` one per target)
    to creatures, a planeswalker, a battle and players, in one game and in a batch whose
    games deal different volleys: each game ends as ``expected`` reads the rules."""
    targets, shields, sources, flags, games = volley
    w = World(batch=batch, seed=0)
    players = [w.add_player(), w.add_player()]
    ids = [w.add_object(players[0], **spec, counters={"shield": k} if k else None)
           for spec, k in zip(targets, shields)]
    src = [w.add_object(players[c], "creature", power=1, toughness=1, keywords=kw) for kw, c in sources]
    befores = [state(w, g, ids, players) for g in range(batch)]
    everyone = ids + players
    tid = np.array([[everyone[t] if t < len(ids) else players[t - len(ids)] for t, _, _ in games[g]]
                    for g in range(batch)])
    sid = np.array([[src[s] for _, s, _ in games[g]] for g in range(batch)])
    amount = np.array([[n for _, _, n in games[g]] for g in range(batch)])
    if batch == 1:
        tid, sid, amount = tid[0], sid[0], amount[0]
    w.deal_damage(tid, amount, source=sid, **flags)
    for g in range(batch):
        rows = [(t if t < len(ids) else ("player", t - len(ids)), s, n) for t, s, n in games[g]]
        assert state(w, g, ids, players) == expected(befores[g], rows, flags, sources), f"game {g}"


def test_615_12_unpreventable_damage_is_dealt_and_still_uses_a_shield(game):
    w, _, _, bear = game
    w.put_counters(bear, "shield", 1)
    w.deal_damage(bear, 2, unpreventable=True)
    assert w.damage(bear) == 2 and w.counters(bear) == {}
    w.tick()
    assert not w.exists(bear)


def test_122_1c_shield_replaces_destroy_but_not_sacrifice(game):
    w, p, _, bear = game
    w.put_counters(bear, "shield", 1)
    w.destroy(bear)
    assert w.exists(bear) and w.counters(bear) == {}
    other = w.add_object(p, {"creature"}, power=1, toughness=1, counters={"shield": 1})
    w.sacrifice(other)
    assert not w.exists(other)


def test_701_21a_a_sacrificed_permanent_goes_to_the_graveyard(game):
    w, _, _, bear = game
    w.clear_events()
    w.sacrifice(bear)
    moved = [(e.old, e.from_zone, e.to_zone) for e in w.events() if isinstance(e, ZoneChanged)]
    assert moved == [(bear, "battlefield", "graveyard")]


def test_shield_ruling_sba_still_destroy_a_shielded_creature(game):
    """Ruling 2022-04-29: lethal damage marked destroys it despite a shield counter."""
    w, _, _, bear = game
    w.deal_damage(bear, 2)
    w.put_counters(bear, "shield", 1)
    w.tick()
    assert not w.exists(bear)


def test_shield_ruling_unpreventable_deathtouch_damage_still_destroys(game):
    """Ruling 2022-04-29: "A creature with a shield counter on it may still be destroyed by
    state-based actions if it ... has been dealt unpreventable damage by a source with
    deathtouch": the damage is dealt, the shield counter still goes (615.12) and 704.5h
    destroys it; the same damage without unpreventable is prevented."""
    w, p, _, bear = game
    w.put_counters(bear, "shield", 2)
    w.deal_damage(bear, 1, deathtouch=True)
    w.tick()
    assert w.exists(bear) and w.counters(bear) == {"shield": 1} and w.damage(bear) == 0
    w.deal_damage(bear, 1, deathtouch=True, unpreventable=True)
    assert w.counters(bear) == {} and w.damage(bear) == 1
    w.tick()
    assert not w.exists(bear)


def test_702_12b_indestructible_counter_stops_destroy_and_lethal_damage(game):
    w, _, _, bear = game
    w.put_counters(bear, "indestructible", 1)
    w.destroy(bear)
    w.deal_damage(bear, 5, deathtouch=True)
    w.tick()
    assert w.exists(bear)
    w.put_counters(bear, "-1/-1", 2)     # 704.5f is not destruction
    w.tick()
    assert not w.exists(bear)


def test_122_1d_stun_replaces_untapping(game):
    w, _, _, bear = game
    w.put_counters(bear, "stun", 2)
    w.untap(bear)                      # untapped already: nothing to replace (8.3)
    assert w.counters(bear) == {"stun": 2}
    w.tap(bear)
    w.untap(bear)
    assert w.is_tapped(bear) and w.counters(bear) == {"stun": 1}
    w.untap(bear)
    w.untap(bear)
    assert not w.is_tapped(bear) and w.counters(bear) == {}
    assert [e.cause for e in w.events()
            if isinstance(e, CounterChanged) and e.after < e.before] == ["stun", "stun"]


def test_122_1h_finality_exiles_instead_of_graveyard(game):
    w, p, _, bear = game
    w.put_counters(bear, "finality", 1)
    w.destroy(bear)
    ev = w.events()[-1]
    assert ev.to_zone == "exile" and w.zone(ev.new) == "exile"
    dies = w.add_object(p, {"creature"}, power=1, toughness=1, counters={"finality": 2})
    w.put_counters(dies, "-1/-1", 1)
    w.tick()
    assert w.events()[-1].to_zone == "exile"
    to_hand = w.add_object(p, {"creature"}, power=1, toughness=1, counters={"finality": 1})
    new = w.move_zone(to_hand, "hand")
    assert w.zone(new) == "hand"     # ruling: only the graveyard is replaced


def test_120_3_damage_to_cards_off_the_battlefield_is_illegal(game):
    w, p, _, _ = game
    card = w.add_object(p, {"creature"}, zone="graveyard", power=1, toughness=1)
    rock = w.add_object(p, {"artifact"})
    for target in (card, rock):
        with pytest.raises(IllegalActionError, match=str(target)):
            w.deal_damage(target, 1)


def test_702_2b_a_source_per_game_deals_with_its_own_abilities_to_merged_rows():
    """One damage source per game (``source=`` in the order of the games), the same target
    named twice (its rows merged, 120.3): in each game the damage is its own source's, so
    deathtouch (702.2b) destroys the bear only where the source has it, and each event
    names that game's source."""
    from ecs import DamageDealt
    w = World(batch=2, seed=0)
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=3)
    plain = w.add_object(q, {"creature"}, power=1, toughness=1)
    snake = w.add_object(q, {"creature"}, power=1, toughness=1, keywords={"deathtouch"})
    w.deal_damage([bear, bear], 1, source=[plain, snake])
    assert w.damage(bear).tolist() == [2, 2]
    assert sorted((e.game, e.source) for e in w.events() if isinstance(e, DamageDealt)) == \
        [(0, plain), (1, snake)]
    w.tick()
    assert w.exists(bear).tolist() == [True, False]


@pytest.mark.parametrize("few", [False, True])
@pytest.mark.parametrize("result", ["damage", "-1/-1", "poison", "life"])
def test_120_3_a_result_past_its_limit_is_refused_and_changes_nothing(game, result, few):
    """Marked damage (120.3e), -1/-1 counters (120.3d), poison counters (120.3b) and a
    life total (120.3a) one past their bounds: CountOverflowError, and nothing changes,
    for one target or with another target dealt damage at once."""
    w, p, q, bear = game
    victim = w.add_player(life=-MAX_LIFE) if result == "life" else q if result == "poison" else bear
    if result in ("damage", "-1/-1"):
        w.deal_damage(bear, MAX_COUNT, wither=result == "-1/-1")
    elif result == "poison":
        w.deal_damage(q, MAX_COUNT, infect=True)
    other = w.add_object(q, {"creature"}, power=5, toughness=5)
    before = full_state(w)
    with pytest.raises(CountOverflowError):
        w.deal_damage([other, victim] if few else victim, 1, wither=result == "-1/-1", infect=result == "poison")
    assert full_state(w) == before


def test_120_1_a_player_is_no_source_of_damage(game):
    w, _, q, bear = game
    before = full_state(w)
    with pytest.raises(IllegalActionError, match=f"entity {q} .*120.1"):
        w.deal_damage(bear, 1, source=q)
    assert full_state(w) == before


@pytest.mark.parametrize("counters", [False, True])
def test_702_2b_702_15b_a_sources_own_deathtouch_and_lifelink_deal_its_damage(game, counters):
    """A named source's own abilities (printed, or keyword counters: 122.1b) decide its
    damage to one target: lifelink gains its controller (the first player) the damage
    dealt (120.3f), deathtouch destroys the creature dealt damage (704.5h)."""
    w, p, q, bear = game
    words = {"deathtouch", "lifelink"}
    snake = w.add_object(p, {"creature"}, power=1, toughness=1,
                         **({"counters": dict.fromkeys(words, 1)} if counters else {"keywords": words}))
    victim = w.add_object(q, {"creature"}, power=4, toughness=4)
    w.deal_damage(victim, 1, source=snake)
    assert w.life(p) == 21 and w.damage(victim) == 1
    w.tick()
    assert not w.exists(victim) and w.exists(bear)


@pytest.mark.parametrize("batch", [1, 2])
def test_810_8_810_10_damage_to_a_teammate_changes_the_teams_life_and_poison(batch):
    """Two-Headed Giant: damage to either player of a team is lost from the team's shared
    life total and lifelink gains the source's controller's team (810.8); infect damage
    gives that player poison counters, which the team holds (810.10). One target at a
    time, in one game and in a batch."""
    w = World(two_headed_giant=True, batch=batch, seed=0)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    b1, b2 = w.add_player(team=1), w.add_player(team=1)
    link = w.add_object(a2, "creature", power=1, toughness=1, keywords={"lifelink"})
    w.deal_damage(b2, 3, link)
    w.deal_damage(b2, 2, infect=True)
    for x, life in ((a1, 33), (a2, 33), (b1, 27), (b2, 27)):
        assert np.all(w.life(x) == life), x
    assert np.all(w.count(b1, "poison") == 2) and np.all(w.count(b2, "poison") == 2)


@pytest.mark.parametrize("batch", [1, 2])
def test_122_1c_several_sources_at_once_remove_one_shield_counter_in_one_event(batch):
    """Damage from two sources dealt at once to a permanent with shield counters is one
    prevention (122.1c): one counter goes, in one event per game."""
    w = World(batch=batch, seed=0)
    p, q = w.add_player(), w.add_player()
    wall = w.add_object(p, "creature", power=0, toughness=4, counters={"shield": 3})
    a, b = (w.add_object(q, "creature", power=1, toughness=1) for _ in range(2))
    w.clear_events()
    w.deal_damage([wall, wall], [1, 2], source=[a, b] if batch == 1 else [[a, b]] * batch)
    assert np.all(w.count(wall, "shield") == 2) and np.all(w.damage(wall) == 0)
    assert sorted((e.game, e.before, e.after) for e in w.events() if isinstance(e, CounterChanged)) == \
        [(g, 3, 2) for g in range(batch)]


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("few", [False, True])
def test_120_3e_damage_marked_on_a_damaged_creature_adds_up(batch, few):
    """Marked damage adds to what is marked (120.3e, until cleanup: 514.2), for one target
    or several at once, in one game and in a batch."""
    w = World(batch=batch)
    p = w.add_player()
    bear, wall = (w.add_object(p, {"creature"}, power=2, toughness=9) for _ in range(2))
    w.deal_damage(bear, 2)
    w.deal_damage([bear, wall] if few else bear, 3)
    assert np.all(w.damage(bear) == 5)


@pytest.mark.parametrize("few", [False, True])
def test_120_8_zero_damage_to_several_targets_is_not_dealt(game, few):
    """0 damage is no damage event and nothing to prevent (120.8): a shield counter stays."""
    w, p, _, bear = game
    wall = w.add_object(p, {"creature"}, power=0, toughness=4, counters={"shield": 1})
    w.clear_events()
    w.deal_damage([bear, wall] if few else wall, 0)
    assert w.events() == [] and w.counters(wall) == {"shield": 1}


def test_120_3f_without_a_source_lifelink_gains_no_one_and_wither_counters_have_no_putter(game):
    """Lifelink gains the source's controller life (120.3f) and wither's -1/-1 counters are
    put by it (120.3d): damage given these abilities but no source gains no player life,
    and its counters' events name no player."""
    w, p, q, bear = game
    w.clear_events()
    w.deal_damage(bear, 1, lifelink=True, wither=True)
    assert (w.life(p), w.life(q)) == (20, 20) and w.counters(bear) == {"-1/-1": 1}
    assert [e.by for e in w.events() if isinstance(e, CounterChanged)] == [None]


@pytest.mark.parametrize("batch", [1, 2])
def test_120_3a_a_life_total_may_reach_its_bound_and_the_error_names_the_player_past_it(batch):
    """Damage to players (120.3a) takes their life down to -MAX_LIFE, the bound itself
    included; one more is refused with a CountOverflowError naming that player (not the
    first target) and the total it would have, and changes nothing."""
    w = World(batch=batch)
    p, q = w.add_player(), w.add_player(life=-MAX_LIFE + 3)
    w.deal_damage([p, q], 3)
    assert np.all(w.life(q) == -MAX_LIFE) and np.all(w.life(p) == 17)
    before = full_state(w)
    with pytest.raises(CountOverflowError, match=rf"^life of player {q} in game 0 would be {-MAX_LIFE - 1}, "
                                                 rf"past -{MAX_LIFE}\.\.{MAX_LIFE}$"):
        w.deal_damage([p, q], 1)
    assert full_state(w) == before


@pytest.mark.parametrize("batch", [1, 2])
def test_120_3a_120_3f_810_8_life_lost_and_gained_by_one_total_at_once_adds_up(batch):
    """The life results of one damage action add up on each total they change: a source
    with lifelink dealing damage to its own controller loses and gains that player the same
    amount (120.3a, 120.3f: no change), and in Two-Headed Giant damage to both players of
    a team at once is lost from the team's one total twice (810.8)."""
    w = World(batch=batch)
    p = w.add_player()
    leech = w.add_object(p, "creature", power=3, toughness=3, keywords={"lifelink"})
    w.deal_damage(p, 3, leech)
    assert np.all(w.life(p) == 20)
    w = World(two_headed_giant=True, batch=batch)
    a1, a2 = w.add_player(team=0), w.add_player(team=0)
    w.add_player(team=1), w.add_player(team=1)
    team = w.life(a1)
    w.deal_damage([a1, a2], 3)
    w.deal_damage([a2, a1], [2, 5])
    assert np.all(w.life(a1) == team - 13) and np.all(w.life(a2) == team - 13)


@pytest.mark.parametrize("batch", [1, 2])
def test_702_2b_702_15b_abilities_given_false_override_the_sources_own(batch):
    """A flag given as False overrides the source's ability (docs/api.md): a deathtouch,
    lifelink source dealt damage "without" them gains its controller no life (120.3f) and
    its 1 damage to a 4/4 does not destroy it (702.2b); given None, its own apply."""
    w = World(batch=batch)
    p, q = w.add_player(), w.add_player()
    snake = w.add_object(p, {"creature"}, power=1, toughness=1, keywords={"deathtouch", "lifelink"})
    victim = w.add_object(q, {"creature"}, power=4, toughness=4)
    w.deal_damage(victim, 1, source=snake, deathtouch=False, lifelink=False)
    w.tick()
    assert np.all(w.exists(victim)) and np.all(w.life(p) == 20) and np.all(w.damage(victim) == 1)
    w.deal_damage(victim, 1, source=snake)
    w.tick()
    assert not np.any(w.exists(victim)) and np.all(w.life(p) == 21)


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("few", [False, True])
def test_122_1c_a_players_shield_counter_prevents_no_damage(batch, few):
    """A shield counter prevents damage to the permanent it is on (122.1c): a player given
    one (a counter of any kind can be put on a player, 122.1) still loses life to damage
    (120.3a), and keeps the counter."""
    w = World(batch=batch)
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    w.put_counters(q, "shield", 1)
    w.deal_damage([q, bear] if few else q, 3)
    assert np.all(w.life(q) == 17) and np.all(w.count(q, "shield") == 1)


def test_120_3d_101_3_each_putter_is_named_where_a_target_cant_have_the_counters():
    """Wither damage from two sources at once (120.3d): each source's controller puts its
    -1/-1 counters; where one target can't have them (101.3) none are put there, and the
    other target's counters still name their own putter."""
    w = World(seed=0)
    p, q = w.add_player(), w.add_player()
    wall, bear = (w.add_object(p, "creature", power=0, toughness=9) for _ in range(2))
    mine = w.add_object(p, "creature", power=1, toughness=1)
    theirs = w.add_object(q, "creature", power=1, toughness=1)
    w.prohibit(wall, "-1/-1")
    w.clear_events()
    w.deal_damage([wall, bear], [1, 2], source=[mine, theirs], wither=True)
    assert w.counters(wall) == {} and w.counters(bear) == {"-1/-1": 2}
    assert [(e.entity, e.by, e.before, e.after) for e in w.events() if isinstance(e, CounterChanged)] == \
        [(bear, q, 0, 2)]


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("few", [False, True])
def test_122_1c_damage_a_shield_prevents_is_recorded_as_not_dealt(batch, few):
    """A damage event a shield counter prevents (122.1c) is recorded with the amount that
    would have been dealt and 0 dealt; beside it, damage to a target without one is dealt
    in full."""
    w = World(batch=batch)
    p = w.add_player()
    wall = w.add_object(p, {"creature"}, power=0, toughness=4, counters={"shield": 1})
    bear = w.add_object(p, {"creature"}, power=2, toughness=2)
    w.clear_events()
    w.deal_damage([wall, bear] if few else wall, 3)
    got = sorted((e.game, e.target, e.amount, e.dealt) for e in w.events() if isinstance(e, DamageDealt))
    assert got == sorted((g, e, 3, n) for g in range(batch) for e, n in ((wall, 0), (bear, 3))[:1 + few])


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("few", [False, True])
def test_510_2_combat_damage_is_recorded_as_combat_damage(batch, few):
    """Combat damage (510.2) is recorded with the cause "combat damage", other damage with
    "damage": what "deals combat damage" triggers tell apart."""
    w = World(batch=batch)
    p, q = w.add_player(), w.add_player()
    bear = w.add_object(p, {"creature"}, power=2, toughness=9)
    targets = [q, bear] if few else q
    w.clear_events()
    w.deal_damage(targets, 1, combat=True)
    w.deal_damage(targets, 1)
    causes = [e.cause for e in w.events() if isinstance(e, DamageDealt)]
    rows = batch * (1 + few)
    assert causes == ["combat damage"] * rows + ["damage"] * rows


def test_122_1c_a_shield_counter_in_one_game_of_a_batch_prevents_that_games_damage_alone():
    """Each game's shield counters are its own (122.1c): damage to a creature with a shield
    counter in the second of three games only is prevented there, one counter removed
    there, and dealt in the others."""
    w = World(batch=3)
    p = w.add_player()
    wall = w.add_object(p, {"creature"}, power=0, toughness=9)
    w.put_counters(wall, "shield", 1, games=[1])
    w.clear_events()
    w.deal_damage(wall, 2)
    assert w.damage(wall).tolist() == [2, 0, 2] and w.count(wall, "shield").tolist() == [0, 0, 0]
    assert sorted((e.game, e.dealt) for e in w.events() if isinstance(e, DamageDealt)) == [(0, 2), (1, 0), (2, 2)]
    assert [(e.game, e.before, e.after) for e in w.events() if isinstance(e, CounterChanged)] == [(1, 1, 0)]


def test_120_3a_a_life_total_past_its_bound_in_a_later_game_of_a_batch_is_named_with_that_game():
    """Damage of one amount per game (120.3a) that takes a life total past -MAX_LIFE in
    the third game of a batch only is refused with an error naming that game and the total
    it would have there, and changes nothing in any game."""
    w = World(batch=3)
    q = w.add_player(life=-MAX_LIFE + 1)
    before = full_state(w)
    with pytest.raises(CountOverflowError, match=rf"^life of player {q} in game 2 would be {-MAX_LIFE - 1}, "):
        w.deal_damage(q, np.array([1, 0, 2]))
    assert full_state(w) == before
