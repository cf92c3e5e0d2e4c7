"""What a Grand Archive host porting its card pool relies on: a refusal names only what
the refused call can do."""

import pytest

from ecs import StaleEntityError, World


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


def test_put_counters_a_stale_id_is_refused_offering_where():
    """Counters 1 (a put): ``put_counters`` takes ``where="present"``, and its refusal says so."""
    w, _, _, _, ally = ga_batch()
    w.move_zone(ally, "hand", games=0)
    with pytest.raises(StaleEntityError, match="where='present'"):
        w.put_counters(ally, "buff", 1)
