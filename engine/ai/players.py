"""The players' one small interface, and the easy and normal levels.

A player sees exactly what a human in its seat sees, the seat's :class:`PlayerView`, and
takes its randomness from the ``rng`` it is given, so one view and one seed always give one
decision.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar, Protocol

from ..actions import Action, Discard, Play
from ..masks import mask_of
from ..views import PlayerView
from .knowledge import infer
from .policy import best_play, cheapest_discard, partner_of
from .stock import normal_choice


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
    """Normal: the :mod:`policy` judgement of each move, plus what the table has shown: an
    end the next opponent knocked on is good to leave, one the partner knocked on is bad."""

    level: ClassVar[str] = "normal"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        table = view.table
        if not table.layout.plain:  # a game of seed 002
            return normal_choice(view, rng)
        mask = mask_of(view.hand)
        plays = [a for a in legal if type(a) is Play]
        if not plays:
            discards = [a for a in legal if type(a) is Discard]
            counted = mask | mask_of(view.dead)
            return cheapest_discard(discards, counted, table.options.blank_double_25)
        voids = infer(view).void_numbers
        partner = partner_of(table.sides, view.seat)
        left, right = table.ends if table.ends is not None else (None, None)
        return best_play(
            plays,
            mask,
            left,
            right,
            voids[(view.seat + 1) % table.seats],
            voids[partner] if partner is not None else 0,
            rng,
        )
