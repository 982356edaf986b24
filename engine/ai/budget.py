"""The hard level's budget: counted work, not wall time.

A decision stops searching after a number of simulated moves (each ``step``/``apply`` of a
playout, each node of the exact solver), counted here, so one view and one seed give one
decision however loaded the machine is. A caller that must also bound the wall time (a bot
on a slow machine) passes ``deadline``: a function of no arguments that says when time is
up; the engine never reads a clock itself, and without one a decision is reproducible.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

Deadline = Callable[[], bool]  # True once the caller's time is up


@dataclass(slots=True)
class Work:
    """Moves simulated so far for one decision, against its ``limit``."""

    limit: int
    deadline: Deadline | None = None
    done: int = 0

    def spend(self, moves: int = 1) -> None:
        self.done += moves

    def spent(self) -> bool:
        """Whether the search should stop after the deal it is on."""
        if self.done >= self.limit:
            return True
        return self.deadline is not None and self.deadline()
