"""A zone change's last-known card types and token flag (ZoneChanged.types, .token)."""
import numpy as np
import pytest
from scalar_paths import run_on

from ecs import SnapshotError, StaleEntityError, World, ZoneChanged
from ecs.components import TYPE_BIT
from ecs.events import ZONE, ZONE_TOKEN, zone_types

try:
    from test_persist import rewrite
except ImportError:  # pragma: no cover - imported as a package
    from tests.test_persist import rewrite


def _moves(w: World) -> list[tuple[int, str, str, tuple[str, ...] | None, bool | None]]:
    return [(e.old, e.from_zone, e.to_zone, e.types, e.token)
            for e in w.events() if isinstance(e, ZoneChanged)]


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_704_5d_111_7_a_dead_creature_token_is_known_as_one_after_it_ceased(path):
    """"Whenever a creature token you control dies": the token ceases to exist in the check
    after it dies (704.5d, 111.7), where reading its new object raises, so the trigger reads
    the types and token flag it had as it left (last-known information, 608.2h, 603.10a)
    from both of its zone changes."""
    w = World()
    p = w.add_player()
    token = w.add_object(p, "creature", power=1, toughness=1, name="Saproling", token=True)
    w.put_counters(token, "-1/-1", 1)
    w.clear_events()
    with run_on(path):
        w.tick()   # 704.5f: it dies; the next check of the tick, 704.5d: it ceases to exist
    died, ceased = [e for e in w.events() if isinstance(e, ZoneChanged)]
    with pytest.raises(StaleEntityError):
        w.zone(died.new)
    assert ceased.old == died.new and ceased.new is None
    assert _moves(w) == [(token, "battlefield", "graveyard", ("creature",), True),
                         (died.new, "graveyard", "none", ("creature",), True)]
    creature_tokens_died = [e for e in w.events() if isinstance(e, ZoneChanged)
                            and e.from_zone == "battlefield" and e.to_zone == "graveyard"
                            and e.token and "creature" in e.types]
    assert creature_tokens_died == [died]


@pytest.mark.parametrize("path", ["scalar", "general"])
def test_701_8_an_artifact_creature_destroyed_is_known_as_both_and_as_no_token(path):
    """"Whenever an artifact is put into a graveyard from the battlefield": destroying an
    artifact creature (701.8) logs its every card type (in ``TYPE_BIT`` order) and no token
    flag; a nontoken card stays a card, so nothing ceases."""
    w = World()
    p = w.add_player()
    golem = w.add_object(p, ("artifact", "creature"), power=3, toughness=3)
    relic = w.add_object(p, "enchantment")
    w.clear_events()
    with run_on(path):
        w.destroy([golem, relic] if path == "general" else golem)
        w.tick()
    moves = _moves(w)
    assert moves[0] == (golem, "battlefield", "graveyard", ("creature", "artifact"), False)
    if path == "general":
        assert moves[1] == (relic, "battlefield", "graveyard", ("enchantment",), False)
    assert len(moves) == (2 if path == "general" else 1)


def test_event_table_zone_rows_kind_is_minus_2_minus_types_and_token_code():
    """In ``event_table`` a zone change's ``kind`` is -2 - (its ``TYPE_BIT`` bits |
    ``ZONE_TOKEN`` for a token): never >= 0, so ``kind >= 0`` still picks counter rows, and
    ``zone_types`` reads the names back."""
    w = World()
    p = w.add_player()
    token = w.add_object(p, ("artifact", "creature"), power=1, toughness=1, token=True)
    w.put_counters(token, "+1/+1", 1)
    w.destroy(token)
    t = w.event_table()
    zone = t["type"] == ZONE
    code = -2 - t["kind"][zone]
    assert code.tolist() == [TYPE_BIT["artifact"] | TYPE_BIT["creature"] | ZONE_TOKEN]
    assert zone_types(int(code[0])) == ("creature", "artifact")
    assert (t["kind"][t["kind"] >= 0] == w.store.kind_index["+1/+1"]).all()
    assert not (t["kind"][zone] >= 0).any()


def test_704_5d_a_batch_logs_each_game_its_own_token_deaths_only():
    """A batch where the same id dies in some games only: each game that moved it logs its
    types and token flag, the games it stayed in log nothing, and the next check's 704.5d
    rows say the same (the general path, several rows at once)."""
    w = World(batch=4)
    p = w.add_player()
    token = w.add_object(p, "creature", power=1, toughness=1, token=True)
    card = w.add_object(p, ("artifact", "creature"), power=2, toughness=2)
    w.clear_events()
    w.destroy([token, card], games=[1, 3])
    w.tick()
    rows = [(e.game, e.old == token, e.to_zone, e.types, e.token)
            for e in w.events() if isinstance(e, ZoneChanged)]
    assert sorted(rows) == sorted(
        [(g, True, "graveyard", ("creature",), True) for g in (1, 3)]
        + [(g, False, "graveyard", ("creature", "artifact"), False) for g in (1, 3)]
        + [(g, False, "none", ("creature",), True) for g in (1, 3)])
    t = w.event_table()
    zone = t["type"] == ZONE
    assert set(t["game"][zone].tolist()) == {1, 3}
    assert np.atleast_1d(w.exists(token)).tolist() == [True, False, True, False]


def test_types_and_token_flag_survive_a_save_and_a_load(tmp_path):
    """A saved log keeps each zone change's types and token flag: the loaded World's events
    and table are the saved one's."""
    w = World(batch=2)
    p = w.add_player()
    token = w.add_object(p, "creature", power=1, toughness=1, token=True, name="Goblin")
    w.add_object(p, "land")
    w.destroy(token, games=[1])
    w.tick()
    w.save(tmp_path / "w.npz")
    again = World.load(tmp_path / "w.npz")
    assert again.events() == w.events()
    assert again.event_table()["kind"].tolist() == w.event_table()["kind"].tolist()
    assert [(e.types, e.token) for e in again.events() if isinstance(e, ZoneChanged)] == [
        (("creature",), True)] * 2


def test_a_zone_change_of_a_file_saved_before_reads_none_for_types_and_token(tmp_path):
    """A file saved before zone changes carried them holds ``kind`` -1 on its zone rows (no
    format version switch: the rows' bytes keep their meaning): it loads, and its zone
    changes read None for both."""
    w = World()
    p = w.add_player()
    w.destroy(w.add_object(p, "creature", power=1, toughness=1, token=True))
    w.save(tmp_path / "new.npz")

    def before(arrays):
        arrays["log.kind"] = arrays["log.kind"].copy()
        arrays["log.kind"][arrays["log.type"] == ZONE] = -1

    rewrite(tmp_path / "new.npz", tmp_path / "old.npz", before)
    [moved] = World.load(tmp_path / "old.npz").events()
    assert moved.to_zone == "graveyard" and (moved.types, moved.token) == (None, None)


@pytest.mark.parametrize("kind", [0, 5, -2 - TYPE_BIT["player"], -2 - (1 << 40), -2 - (1 << 30)])
def test_a_zone_change_with_an_unknown_type_or_flag_is_refused(tmp_path, kind):
    """``load`` refuses a zone row whose ``kind`` is no -2 - (types | token flag) nor -1:
    a counter kind, a player's type (a player changes no zone), a bit past the flags."""
    w = World()
    p = w.add_player()
    w.destroy(w.add_object(p, "creature", power=1, toughness=1))
    w.save(tmp_path / "w.npz")

    def edit(arrays):
        arrays["log.kind"] = arrays["log.kind"].copy()
        arrays["log.kind"][arrays["log.type"] == ZONE] = kind

    rewrite(tmp_path / "w.npz", tmp_path / "bad.npz", edit)
    with pytest.raises(SnapshotError, match="log.kind"):
        World.load(tmp_path / "bad.npz")
