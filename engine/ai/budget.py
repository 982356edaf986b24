"""The searching levels' budget: counted work, not wall time.

A decision stops searching after a number of simulated moves (each ``step``/``apply`` of a
playout, each node of the exact solver), counted here, so one view and one seed give one
decision however loaded the machine is. A caller that must also bound the wall time (a bot
on a slow machine) passes ``deadline``: a function of no arguments that says when time is
up; the engine never reads a clock itself, and without one a decision is reproducible.

Here too, below every game's knowledge, the shape they share: the :class:`Effort` a searching
player asks for, and the :class:`Plan` of one decision's search a game's knowledge returns.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

Deadline = Callable[[], bool]  # True once the caller's time is up
World = TypeVar("World")


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


class Effort(Protocol):
    """How hard the hard and expert levels look: ``None`` leaves a budget to the game's
    knowledge, ``scale`` multiplies the budgets it leaves."""

    @property
    def steps(self) -> int | None: ...  # simulated moves and solver nodes per decision
    @property
    def worlds(self) -> int | None: ...  # deals searched at most
    @property
    def pool(self) -> int | None: ...  # consistent deals drawn and weighed to pick those from
    @property
    def temperature(self) -> float: ...  # how loosely others are assumed to play sensibly
    @property
    def erratic(self) -> float: ...  # the share of their choices assumed to be random
    @property
    def deadline(self) -> Deadline | None: ...  # the caller's own time limit, if any
    @property
    def scale(self) -> int: ...  # multiplies the game's own steps, deals and pool
    @property
    def exact_tiles(self) -> int | None: ...  # solve exactly once this few tiles are left
    @property
    def exact_further(self) -> int: ...  # or this many tiles further out than the game's own
    @property
    def own_tiles(self) -> int | None: ...  # search its own plays once it holds this few


@dataclass(frozen=True, slots=True)
class Plan(Generic[World]):
    """One decision's search, as a game's knowledge sets it up: the ``moves`` (indices of
    the legal actions) worth trying, the deals to try them in, and how to value each of them
    in a deal. ``halving``: shares of the budget after which the weaker half of the moves
    drops out (none: every move is searched to the end)."""

    work: Work
    moves: list[int]
    worlds: Iterator[World]
    worths: Callable[[World, list[int], random.Random], list[float]]
    most_worlds: int
    halving: tuple[float, ...] = ()
