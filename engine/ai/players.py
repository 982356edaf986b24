"""The players' one small interface, and the easy and normal levels.

A player sees exactly what a human in its seat sees, the seat's :class:`PlayerView`, and
takes its randomness from the ``rng`` it is given, so one view and one seed always give one
decision.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar, Protocol

from ..actions import Action
from ..views import PlayerView
from .games import knowledge_of


class Player(Protocol):
    """Anything that picks one of ``view.legal``; raises ValueError when there is none."""

    @property
    def level(self) -> str: ...

    def choose(self, view: PlayerView, rng: random.Random) -> Action: ...


def legal_of(view: PlayerView) -> tuple[Action, ...]:
    if not view.legal:
        raise ValueError("this seat has no move now")
    return view.legal


@dataclass(frozen=True, slots=True)
class RandomPlayer:
    """Easy: any legal move, uniformly, so a beginner can win."""

    level: ClassVar[str] = "easy"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = legal_of(view)
        return legal[rng.randrange(len(legal))]


@dataclass(frozen=True, slots=True)
class HeuristicPlayer:
    """Normal: a sound heuristic, the game's own judgement of each move (:mod:`games`)."""

    level: ClassVar[str] = "normal"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        return knowledge_of(view).normal(view, rng)
