"""Hypothesis profiles.

``ci`` (the default) is sized so that the differential tests (tests/test_differential.py)
take about one to two minutes in total on the 2-core CI machine; ``thorough`` runs many
more examples (``HYPOTHESIS_PROFILE=thorough python -m pytest``); ``dev`` is a quick
smoke run while editing. Each property test gives its count under ``ci`` through
``profiles.examples``, which takes the profile's own count under the others.
"""
from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_COMMON = dict(
    deadline=None,  # one example runs dozens of engine actions; timing varies with the machine
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)

settings.register_profile("ci", max_examples=150, derandomize=True, **_COMMON)
settings.register_profile("thorough", max_examples=3000, **_COMMON)
settings.register_profile("dev", max_examples=20, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Clones share arrays until written (copy on write, ecs.store.Store.mut); here shared arrays
# are also made read-only, so any write that bypasses Store.mut raises in the tests.
import ecs.store  # noqa: E402

ecs.store.CHECK_SHARING = True
