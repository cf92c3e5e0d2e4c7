"""A stand-in for pytest-benchmark's ``benchmark`` fixture as the suites use it (group, name,
extra_info, pedantic): ``pedantic`` runs setup, run and teardown for a few rounds, untimed,
and logs what ``spy`` reads just before each run."""
from __future__ import annotations

from typing import Any, Callable


class FakeBenchmark:
    def __init__(self, rounds: int = 2, spy: Callable[[], Any] | None = None) -> None:
        self.group: str | None = None
        self.name: str | None = None
        self.extra_info: dict[str, Any] = {}
        self.rounds = rounds
        self.spy = spy
        self.seen: list[Any] = []

    def pedantic(self, run: Callable[[], Any], setup: Callable[[], Any] | None = None,
                 teardown: Callable[[], Any] | None = None, rounds: int = 1) -> Any:
        out = None
        for _ in range(self.rounds):
            if setup is not None:
                setup()
            if self.spy is not None:
                self.seen.append(self.spy())
            out = run()
            if teardown is not None:
                teardown()
        return out
