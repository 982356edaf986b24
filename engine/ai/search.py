"""Hard: count the tiles, imagine the deals that fit, and play the move that does best in them.

Perfect-information Monte Carlo: draw deals consistent with the seat's view (:mod:`worlds`),
weighted by how well they explain the other seats' choices (:mod:`belief`); in each, try
every legal move and finish the hand with the other seats on the normal policy while this
seat searches its own last few moves; once few tiles are left, solve the hand exactly
(:mod:`solver`). The move with the best average outcome wins. Every move is tried on the
same deals, so the luck of the draw does not pick the move.

The budget is counted work (:class:`Work`: simulated moves and solver nodes) and a number of
deals, so a seed and a view always give the same decision, however loaded the machine; a
caller may add a ``deadline`` of its own (the engine never reads a clock).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import ClassVar

from ..actions import Action, Play
from ..events import HandEnded
from ..hand_line import LineHand as Hand
from ..variants import variant
from ..views import PlayerView
from .belief import choices, log_likelihood
from .budget import Deadline, Work
from .knowledge import Knowledge, infer
from .players import HeuristicPlayer, legal_of
from .policy import knock_seen, partner_of, playout_action
from .solver import Value, solve
from .stocksearch import StockSearch
from .worlds import Bins, bins_of, build_world, place_hidden, replay_plan

WIN_BONUS = 12.0  # what winning the hand is worth on top of its points


def outcome_value(game: str, seat: int, side: int, result: HandEnded) -> float:
    """How good a finished hand is for ``seat`` (of ``side``), as its match sees it: pair
    counts the partnership's points against the other's, gaple the seat's points against the
    others' average, gaple-dead the others' average total against the seat's own (totals count
    against their owner); winning the hand adds a bonus."""
    points = result.points
    won = WIN_BONUS if result.winner == side else 0.0
    if variant(game).lowest_total_wins:
        totals = result.totals
        return (sum(totals) - totals[seat]) / (len(totals) - 1) - totals[seat] + won
    if len(points) == 2:  # two sides: what one wins the other loses
        lost = WIN_BONUS if result.winner == 1 - side else 0.0
        return float(points[side] - points[1 - side]) + won - lost
    others = (sum(points) - points[side]) / (len(points) - 1)
    return points[side] - others + won


@dataclass(frozen=True, slots=True)
class Lookahead:
    """One decision's playouts: other seats follow the normal policy, while ``me`` tries
    every play once it holds at most ``own_tiles`` tiles (the end of a hand decides it)."""

    me: int
    partners: tuple[int, ...]
    value: Value
    own_tiles: int
    work: Work

    def worth(self, hand: Hand, voids: list[int]) -> float:
        """The value to ``me`` of finishing ``hand`` from here (``voids`` is changed)."""
        me, partners = self.me, self.partners
        while hand.result is None:
            seat: int = hand.to_move  # type: ignore[assignment]
            legal = hand.legal_actions()
            if (
                seat == me
                and len(legal) > 1
                and type(legal[0]) is Play
                and hand.masks[me].bit_count() <= self.own_tiles
            ):
                return max(self.after(hand, action, list(voids)) for action in legal)
            action = legal[0] if len(legal) == 1 else playout_action(hand, legal, voids, partners)
            knock_seen(voids, hand, seat, action)
            hand.step(seat, action)
            self.work.spend()
        return self.value(me, hand.result)

    def after(self, hand: Hand, action: Action, voids: list[int]) -> float:
        """The worth of playing ``action`` now, on a copy of ``hand``."""
        trial = hand.fork()
        seat: int = hand.to_move  # type: ignore[assignment]
        knock_seen(voids, hand, seat, action)
        trial.step(seat, action)
        return self.worth(trial, voids)


@dataclass(frozen=True, slots=True)
class CountingPlayer:
    """Hard: Monte Carlo search over the deals the view allows, likeliest most often."""

    level: ClassVar[str] = "hard"
    worlds: int = 40  # deals searched per decision: the iteration budget
    candidates: int = 160  # consistent deals drawn and weighed to pick those from
    temperature: float = 2.0  # how loosely other seats are assumed to follow the heuristic
    erratic: float = 0.2  # the share of choices assumed to be made at random
    own_tiles: int = 5  # search its own plays once it holds this few tiles
    exact_tiles: int = 9  # solve exactly once this few tiles are left in all hands
    steps: int = 12000  # simulated moves and solver nodes per decision: the work budget
    deadline: Deadline | None = None  # the caller's own time limit, if any (never the default)
    stock: StockSearch = field(default_factory=StockSearch)  # the games of seed 002

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        table = view.table
        if not table.layout.plain:  # a game of seed 002
            return self.stock.choose(view, rng)
        side_of = tuple(
            next(i for i, members in enumerate(table.sides) if seat in members)
            for seat in range(table.seats)
        )
        game = table.game

        def value(seat: int, result: HandEnded) -> float:
            return outcome_value(game, seat, side_of[seat], result)

        know = infer(view)
        partners = tuple(
            -1 if (p := partner_of(table.sides, s)) is None else p for s in range(table.seats)
        )
        work = Work(self.steps, self.deadline)
        look = Lookahead(view.seat, partners, value, self.own_tiles, work)
        plan = replay_plan(view)
        exact = sum(know.hand_counts) <= self.exact_tiles
        totals = [0.0] * len(legal)
        searched = 0
        for placed in self._likely_deals(view, know, bins_of(know), rng):
            world = build_world(view, know, plan, placed)
            if world is None:
                continue
            if exact:
                worths = solve(world, legal, view.seat, side_of, value, work)
            else:
                worths = [look.after(world, action, list(know.void_numbers)) for action in legal]
            totals = [total + worth for total, worth in zip(totals, worths, strict=True)]
            searched += 1
            if work.spent():
                break
        if not searched:  # no deal fits what it inferred: should not happen, but never stall
            return HeuristicPlayer().choose(view, rng)
        return legal[totals.index(max(totals))]

    def _likely_deals(
        self, view: PlayerView, know: Knowledge, bins: Bins, rng: random.Random
    ) -> list[list[int]]:
        """``worlds`` deals drawn from ``candidates`` consistent ones in proportion to how
        well each explains the other seats' choices (uniformly when they made none)."""
        observed = choices(view)
        pool: list[list[int]] = []
        weights: list[float] = []
        blank_25 = view.table.options.blank_double_25
        for _ in range(self.candidates if observed else self.worlds):
            placed = place_hidden(know.unseen, bins, rng)
            if placed is None:
                break
            pool.append(placed)
            weights.append(
                log_likelihood(observed, placed, self.temperature, blank_25, self.erratic)
            )
        if not pool or not observed:
            return pool
        top = max(weights)
        return rng.choices(pool, [math.exp(w - top) for w in weights], k=self.worlds)
