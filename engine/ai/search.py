"""Hard: count the tiles, imagine the deals that fit, and play the move that does best in them.

Perfect-information Monte Carlo, one loop for every game: the game's knowledge
(:mod:`games`) draws deals consistent with the seat's view, likeliest most often
(:mod:`sampling`), and values each move the seat may make in each deal by finishing the hand
(played out with every seat on the normal level's judgement, or solved exactly once few tiles
are left where the game allows). Every move is tried in the same deals, so the luck of the
draw does not pick the move; where the knowledge asks for it, the weaker half of the moves
drops out once a share of the budget is spent. The move with the best total wins.

The budget is counted work (:class:`Work`: simulated moves and solver nodes) and a number of
deals, so a seed and a view always give the same decision, however loaded the machine; a
caller may add a ``deadline`` of its own (the engine never reads a clock).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from ..actions import Action
from ..views import PlayerView
from .budget import Deadline, Plan
from .games import knowledge_of
from .players import legal_of

World = TypeVar("World")
EXPERT_SCALE = 8  # the expert's budgets, as a multiple of each game's hard budget
EXPERT_EXACT_FURTHER = 2  # the expert solves the plain line exactly from 2 tiles further out
EXPERT_OWN_TILES = 7  # and searches its own plays from this few tiles in hand


def best_move(plan: Plan[World], count: int, rng: random.Random) -> int | None:
    """The index of the move with the best total over the plan's deals (the first among
    equals); None when no deal could be searched."""
    work = plan.work
    alive = plan.moves
    totals = [0.0] * count
    cuts = [work.limit * share for share in plan.halving]
    searched = 0
    for world in plan.worlds:
        for move, worth in zip(alive, plan.worths(world, alive, rng), strict=True):
            totals[move] += worth
        searched += 1
        if work.spent() or searched >= plan.most_worlds:
            break
        if len(alive) > 2 and cuts and work.done >= cuts[0]:
            cuts.pop(0)  # the weaker half has had its chance: spend the rest on the others
            alive = sorted(alive, key=lambda i: -totals[i])[: (len(alive) + 1) // 2]
    if not searched:
        return None
    return max(alive, key=lambda i: totals[i])


@dataclass(frozen=True, slots=True)
class CountingPlayer:
    """Hard: Monte Carlo search over the deals the view allows, likeliest most often. A
    budget left ``None`` is the game's own (its knowledge knows what keeps it quick)."""

    level: ClassVar[str] = "hard"
    steps: int | None = None  # simulated moves and solver nodes per decision
    worlds: int | None = None  # deals searched at most
    pool: int | None = None  # consistent deals drawn and weighed to pick those from
    temperature: float = 2.0  # how loosely other seats are assumed to follow normal's judgement
    erratic: float = 0.2  # the share of choices assumed to be made at random
    deadline: Deadline | None = None  # the caller's own time limit, if any (never the default)
    scale: int = 1  # multiplies the game's own budgets (those left None above)
    exact_tiles: int | None = None  # solve exactly once this few tiles are left in all hands
    exact_further: int = 0  # solve exactly from this many tiles further out than the game's own
    own_tiles: int | None = None  # search its own plays once it holds this few tiles

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        knowledge = knowledge_of(view)
        best = best_move(knowledge.plan(view, rng, self), len(legal), rng)
        if best is None:  # no deal fits what it inferred: should not happen, but never stall
            return knowledge.normal(view, rng)
        return legal[best]


@dataclass(frozen=True, slots=True)
class ExpertPlayer(CountingPlayer):
    """Expert: the hard player's search, looking much further: many times the deals and the
    work, the hand solved exactly from further out, and its own plays searched sooner, so
    its decisions take a few hundred milliseconds where hard's take tens."""

    level: ClassVar[str] = "expert"
    scale: int = EXPERT_SCALE
    exact_further: int = EXPERT_EXACT_FURTHER
    own_tiles: int | None = EXPERT_OWN_TILES
