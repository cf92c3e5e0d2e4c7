"""Hypothesis profiles.

``ci`` (the default) is sized so that the differential tests (tests/test_differential.py)
take about one to two minutes in total on the 2-core CI machine; ``thorough`` runs many
more examples (``HYPOTHESIS_PROFILE=thorough python -m pytest``); ``dev`` is a quick
smoke run while editing. Each property test gives its count under ``ci`` through
``profiles.examples``, which takes the profile's own count under the others.
``--hypothesis-seed=N`` replays ``ci``'s counts under seed N.
"""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

_COMMON = dict(
    deadline=None,  # one example runs dozens of engine actions; timing varies with the machine
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)

settings.register_profile("ci", max_examples=150, derandomize=True, **_COMMON)
# (derandomize is said where it is off: under a CI variable hypothesis's own default has it on)
settings.register_profile("thorough", max_examples=3000, derandomize=False, **_COMMON)
settings.register_profile("dev", max_examples=20, derandomize=False, **_COMMON)
settings.register_profile("ci-seeded", max_examples=150, derandomize=False, **_COMMON)   # ci's counts, a seed's draws
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config: pytest.Config) -> None:
    """``--hypothesis-seed`` draws ``ci``'s counts from that seed: ``ci`` derandomizes (each
    test draws its own fixed examples), which would leave the seed unused."""
    if config.getoption("hypothesis_seed", None) is not None and \
            os.environ.get("HYPOTHESIS_PROFILE", "ci") == "ci":
        settings.load_profile("ci-seeded")

# Clones share arrays until written (copy on write, ecs.store.Store.mut); here shared arrays
# are also made read-only, so any write that bypasses Store.mut raises in the tests.
import ecs.store  # noqa: E402

ecs.store.CHECK_SHARING = True
