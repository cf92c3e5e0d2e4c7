"""Everything a World holds, as one comparable value: the tests' one state comparison."""
from __future__ import annotations

from ecs import World
from ecs.components import ALL_FIELDS, GAME_COLUMN


def full_state(w: World) -> dict:
    """Every store array of a snapshot (dtype, shape, values), the event log (columns, row
    and step counters), the name table, the random generator and the seed sequence with
    its spawn counter, and the configuration. The objects' fields and counts are read from
    the live arrays too: a snapshot shares the last one's arrays where the store believes
    nothing was written since, so a stale array would look equal through snapshots alone.
    (It takes a snapshot: a later restore rewrites what was written since this one.)"""
    snap = w.snapshot()
    store = {k: (v.dtype.str, v.shape, v.tolist()) for k, v in snap["store"].items()}
    s = w.store
    live = {f.name: s.a[f.name][:, : s.n_cols].tolist() for f in ALL_FIELDS if f.shape == GAME_COLUMN}
    live["counts"] = s.counts[: len(s.kind_names), :, : s.n_cols].tolist()
    return {"store": store, "live": live, "events": {k: v.tolist() for k, v in w.event_table().items()},
            "rows": w.log.rows, "step": w.log.step, "rng": snap["rng"], "names": snap["names"],
            "seed_seq": snap["seed_seq"], "n_spawned": snap["n_spawned"],
            "config": (w.ruleset.name, w.batch, w.two_headed_giant, w.max_passes)}
