"""One Grand Archive game at a time: a settled tick, single actions, a reserve payment,
the player actions enlighten and recover, the next player's main phase and a self-play
step (``cases.GA_OPS``) on a settled 100-object board. Engine only: the esper baselines
play the Magic rules (the report's single-game contests compare those)."""
from __future__ import annotations

from typing import Any

import pytest

from .cases import GA_OPS, bench, ga_op


@pytest.mark.parametrize("op", GA_OPS)
def test_grand_archive_one_game(benchmark: Any, op: str) -> None:
    acted = bench(benchmark, ga_op(100, op), 200, f"grand archive {op} 1x100")
    if op == "settled tick":
        assert acted == 0   # the board a tick left: the cost of checking alone
