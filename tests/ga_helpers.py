"""Shared helpers of the Grand Archive, wither and rad tests."""
from __future__ import annotations

import numpy as np


def same_state(a: dict, b: dict) -> bool:
    """Two World.snapshot()s hold equal arrays (and the same number of event rows)."""
    sa, sb = a["store"], b["store"]
    if sa.keys() != sb.keys():
        return False
    for k in sa:
        x, y = np.asarray(sa[k]), np.asarray(sb[k])
        if x.shape != y.shape or not np.array_equal(x, y):
            return False
    return a["log"]["rows"] == b["log"]["rows"]


def unchanged(w, fn, exc):
    """``fn()`` raises ``exc`` and leaves ``w`` exactly as it was; returns the error."""
    import pytest
    before = w.snapshot()
    with pytest.raises(exc) as info:
        fn()
    assert same_state(before, w.snapshot())
    return info.value
