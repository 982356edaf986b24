"""The knowledge of the games the engine plays on its plain line: gaple, gaple-dead, pair.

A stuck seat knocks or puts a tile down dead, and nothing scores during play. Normal judges a
play by :mod:`policy`, plus what the table has shown: an end the next opponent knocked on is
good to leave, one the partner knocked on is bad. Hard counts the tiles (:mod:`inference`),
imagines the hidden deal (:mod:`worlds`) weighted by the other seats' choices
(:mod:`belief`), and in each deal finishes the hand with the other seats on the normal policy
while this seat searches its own last few moves; once few tiles are left in all hands it
solves the hand exactly (:mod:`solver`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from ..actions import Action, Discard, Play
from ..events import HandEnded
from ..variants import variant
from ..views import PlayerView
from .belief import choices, log_likelihood
from .budget import Effort, Plan, Work
from .inference import infer
from .policy import best_play, cheapest_discard, knock_seen, partner_of, playout_action
from .sampling import likely_deals
from .simulation import LineHand, mask_of
from .solver import Value, solve
from .worlds import bins_of, build_world, place_hidden, replay_plan

WIN_BONUS = 12.0  # what winning the hand is worth on top of its points, where it counts
STEPS = 12000  # simulated moves and solver nodes per decision: the work budget
WORLDS = 40  # deals searched per decision: the iteration budget
POOL = 160  # consistent deals drawn and weighed to pick those from
OWN_TILES = 5  # search its own plays once it holds this few tiles
# Solve exactly once this few tiles are left in all hands. Partnerships (pair) are two sides,
# whose alpha-beta prunes most of the tree, so it reaches further out in the same work than
# max-n, which prunes nothing; solved from 15 tiles, hard gained about a point a hand against
# IS-MCTS over solving from 11 (docs/AI.md).
EXACT_TILES = 11
EXACT_TILES_PARTNERS = 15


def outcome_value(game: str, seat: int, side: int, result: HandEnded) -> float:
    """How good a finished hand is for ``seat`` (of ``side``), as its match sees it: pair
    counts the partnership's points against the other's and nothing else (its lead passes
    round the table, so a hand won is worth its points alone), gaple the seat's points
    against the others' average, gaple-dead the others' average total against the seat's own
    (totals count against their owner); in these two, winning the hand adds a bonus."""
    points = result.points
    won = WIN_BONUS if result.winner == side else 0.0
    if variant(game).lowest_total_wins:
        totals = result.totals
        return (sum(totals) - totals[seat]) / (len(totals) - 1) - totals[seat] + won
    if len(points) == 2:  # two sides: what one wins the other loses
        return float(points[side] - points[1 - side])
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

    def worth(self, hand: LineHand, voids: list[int]) -> float:
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

    def after(self, hand: LineHand, action: Action, voids: list[int]) -> float:
        """The worth of playing ``action`` now, on a copy of ``hand``."""
        trial = hand.fork()
        seat: int = hand.to_move  # type: ignore[assignment]
        knock_seen(voids, hand, seat, action)
        trial.step(seat, action)
        return self.worth(trial, voids)


@dataclass(frozen=True, slots=True)
class PlainLine:
    """The plain line's knowledge (see the module's docstring)."""

    def normal(self, view: PlayerView, rng: random.Random) -> Action:
        table = view.table
        mask = mask_of(view.hand)
        plays = [a for a in view.legal if type(a) is Play]
        if not plays:
            discards = [a for a in view.legal if type(a) is Discard]
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

    def plan(self, view: PlayerView, rng: random.Random, effort: Effort) -> Plan[LineHand]:
        table = view.table
        legal = view.legal
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
        scale = effort.scale
        work = Work(effort.steps if effort.steps is not None else STEPS * scale, effort.deadline)
        own = effort.own_tiles if effort.own_tiles is not None else OWN_TILES
        look = Lookahead(view.seat, partners, value, own, work)
        replay = replay_plan(view)
        partnership = any(len(members) > 1 for members in table.sides)
        exact_tiles = effort.exact_tiles if effort.exact_tiles is not None else (
            EXACT_TILES_PARTNERS if partnership else EXACT_TILES) + effort.exact_further
        exact = sum(know.hand_counts) <= exact_tiles
        worlds = effort.worlds if effort.worlds is not None else WORLDS * scale
        observed = choices(view)
        blank_25 = table.options.blank_double_25
        bins = bins_of(know)

        def weigh(placed: list[int]) -> float:
            return log_likelihood(observed, placed, effort.temperature, blank_25, effort.erratic)

        def built() -> Iterator[LineHand]:
            deals = likely_deals(
                lambda: place_hidden(know.unseen, bins, rng),
                weigh if observed else None,
                effort.pool if effort.pool is not None else POOL * scale,
                worlds,
                rng,
            )
            for placed in deals:
                world = build_world(view, know, replay, placed)
                if world is not None:
                    yield world

        def worths(world: LineHand, moves: list[int], _: random.Random) -> list[float]:
            actions = tuple(legal[i] for i in moves)
            if exact:
                return solve(world, actions, view.seat, side_of, value, work)
            return [look.after(world, action, list(know.void_numbers)) for action in actions]

        return Plan(work, list(range(len(legal))), built(), worths, worlds)
