"""How many examples a property test draws, under the hypothesis profile loaded
(``HYPOTHESIS_PROFILE``, registered in tests/conftest.py).

A test's own count is sized for the ``ci`` profile, the default, which CI runs: the suite's
time is kept in check there. Any other profile is a choice of how hard to look, and every
test takes its count: ``thorough`` draws its many examples in each test, ``dev`` its few.
"""
from __future__ import annotations

import os

from hypothesis import settings

#: The profile loaded, by name.
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")


def examples(n: int) -> int:
    """``n`` under the ``ci`` profile; the loaded profile's own count under any other."""
    return n if PROFILE == "ci" else settings.default.max_examples
