"""Shared helpers of the Grand Archive, wither and rad tests."""
from __future__ import annotations

try:
    from state import full_state
except ImportError:  # pragma: no cover - imported as a package
    from tests.state import full_state


def unchanged(w, fn, exc):
    """``fn()`` raises ``exc`` and leaves ``w`` exactly as it was; returns the error."""
    import pytest
    before = full_state(w)
    with pytest.raises(exc) as info:
        fn()
    assert full_state(w) == before
    return info.value
