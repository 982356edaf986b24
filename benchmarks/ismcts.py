"""An outside yardstick for the computer players: information-set Monte Carlo tree search.

The algorithm of OpenSpiel's ``open_spiel.python.algorithms.ismcts`` (Cowling, Powley and
Whitehouse 2011, single observer), written again over our engine so that it plays by our
rules and sees exactly what a seat sees: its own :class:`~engine.views.PlayerView`, nothing
else. Its settings default to those the strength figures were first taken with: 500
simulations a move, UCT constant 30 (in points), random rollouts, most visited move.

One decision grows one tree whose nodes are information states: the seat to move, the tiles
it holds (and its own dead tiles), and the public moves since the decision began. Each
simulation

1. deals the hidden tiles again, consistently with everything the seat has seen: its own
   hand, the tiles laid, and every knock (a seat that knocked holds no tile showing the ends
   open then). The deal is drawn and the hand replayed to now by the hard level's own
   machinery (:mod:`engine.ai.inference`, :mod:`engine.ai.worlds`), so no rule of
   consistency is written twice;
2. walks down the tree by UCT (mean points plus ``uct_c * sqrt(ln N / n)``, near ties broken
   at random), first trying each move of a node once in random order;
3. adds the first information state it reaches that the tree lacks, then plays the hand out
   with uniformly random moves;
4. credits every move taken in the tree with the final points of the seat that took it.

A seat with nothing to do but knock is not a node (OpenSpiel's partnership dominoes has no
pass move): the knock is played and the walk goes on. The move played is the most visited at
the root. All randomness comes from the ``rng`` passed to :meth:`IsmctsPlayer.choose`, so one
view and one seed give one decision. The plain-line games only (pair, gaple, gaple-dead):
those whose hidden deals the engine's players know how to draw.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import ClassVar

from engine.actions import KNOCK, Action, Discard
from engine.ai.inference import Knowledge, infer
from engine.ai.simulation import LineHand, mask_of, plays_on_line
from engine.ai.worlds import Bins, ReplayPlan, bins_of, build_world, place_hidden, replay_plan
from engine.events import HandEnded
from engine.variants import variant
from engine.views import PlayerView

SIMULATIONS = 500
UCT_C = 30.0  # in points: about a typical hand's swing in pair
TIE_TOLERANCE = 1e-5  # as OpenSpiel: moves this close to the best are equals
RESAMPLE_TRIES = 50  # drawn deals that fail to reach the position before giving up
HIDDEN_DISCARD = "dead"  # another seat's dead tile, as the table sees it: face down


class NoConsistentDealError(RuntimeError):
    """No deal of the hidden tiles fits the view (should not happen: the view is real)."""


@dataclass(slots=True)
class Resampler:
    """Deals consistent with one seat's view, each as the hand replayed up to now."""

    view: PlayerView
    know: Knowledge = field(init=False)
    bins: Bins = field(init=False)
    plan: ReplayPlan = field(init=False)

    def __post_init__(self) -> None:
        table = self.view.table
        if not plays_on_line(variant(table.game), table.options, table.seats):
            raise ValueError(f"IS-MCTS plays the plain-line games only, not {table.game!r}")
        self.know = infer(self.view)
        self.bins = bins_of(self.know)
        self.plan = replay_plan(self.view)

    def world(self, rng: random.Random) -> LineHand:
        for _ in range(RESAMPLE_TRIES):
            placed = place_hidden(self.know.unseen, self.bins, rng)
            if placed is None:
                break
            world = build_world(self.view, self.know, self.plan, placed)
            if world is not None:
                return world
        raise NoConsistentDealError("no deal of the hidden tiles fits this view")


def seat_returns(game: str, sides: tuple[tuple[int, ...], ...], result: HandEnded) -> list[float]:
    """What the finished hand is worth to each seat, in points, zero-sum: in ``pair`` (as
    OpenSpiel's partnership dominoes) the partnership's points less the other's; in one-seat
    games the seat's points less the others' average; where totals count against their owner
    (``gaple-dead``), the others' average total less the seat's own."""
    seats = sum(len(side) for side in sides)
    if variant(game).lowest_total_wins:
        totals = result.totals
        everyone = sum(totals)
        return [(everyone - t) / (seats - 1) - t for t in totals]
    points = result.points
    whole = sum(points)
    out = [0.0] * seats
    for index, side in enumerate(sides):
        mine = points[index]
        worth = mine - (whole - mine) / (len(sides) - 1)
        for seat in side:
            out[seat] = worth
    return out


@dataclass(slots=True)
class Node:
    """One information state: visits, and per move tried its visits and summed points."""

    visits: int = 0
    tried: dict[Action, list[float]] = field(default_factory=dict)  # move -> [visits, sum]


@dataclass(slots=True)
class Tree:
    """The search of one decision."""

    rng: random.Random
    uct_c: float
    game: str
    sides: tuple[tuple[int, ...], ...]
    nodes: dict[tuple[int, int, int, int], Node] = field(default_factory=dict)
    public: dict[tuple[int, object], int] = field(default_factory=dict)  # (state, move) -> state

    def key(self, hand: LineHand, state: int, seat: int) -> tuple[int, int, int, int]:
        """The information state of ``seat`` to move: what it holds and what the table saw."""
        return state, seat, hand.masks[seat], mask_of(hand.dead[seat])

    def after(self, state: int, action: Action) -> int:
        """The public state once ``action`` is seen (another's dead tile shows no face)."""
        move: object = HIDDEN_DISCARD if type(action) is Discard else action
        return self.public.setdefault((state, move), len(self.public) + 1)

    def simulate(self, hand: LineHand) -> None:
        """One simulation from the root on the deal ``hand`` (played on, spoilt after)."""
        rng = self.rng
        path: list[tuple[list[float], int]] = []
        state = 0
        while hand.result is None:
            seat: int = hand.to_move  # type: ignore[assignment]
            legal = hand.legal_actions()
            if len(legal) == 1 and legal[0] is KNOCK:
                hand.step(seat, KNOCK)
                state = self.after(state, KNOCK)
                continue
            key = self.key(hand, state, seat)
            node = self.nodes.get(key)
            if node is None:  # a new information state: add it, then roll out
                self.nodes[key] = Node()
                break
            action = self.pick(node, legal)
            node.visits += 1
            child = node.tried[action]
            child[0] += 1
            path.append((child, seat))
            hand.step(seat, action)
            state = self.after(state, action)
        while hand.result is None:  # the rollout: uniformly random moves
            legal = hand.legal_actions()
            move = legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0]
            hand.step(hand.to_move, move)  # type: ignore[arg-type]
        worth = seat_returns(self.game, self.sides, hand.result)
        for child, seat in path:
            child[1] += worth[seat]

    def pick(self, node: Node, legal: tuple[Action, ...]) -> Action:
        """A move not tried yet (in random order), else the best by UCT."""
        tried = node.tried
        if len(tried) < len(legal):
            fresh = [a for a in legal if a not in tried]
            action = fresh[self.rng.randrange(len(fresh))]
            tried[action] = [0.0, 0.0]
            return action
        log_total = math.log(node.visits)
        scores = [
            (stats[1] / stats[0] + self.uct_c * math.sqrt(log_total / stats[0]), action)
            for action, stats in tried.items()
        ]
        top = max(score for score, _ in scores)
        best = [action for score, action in scores if score > top - TIE_TOLERANCE]
        return best[self.rng.randrange(len(best))]


def search(view: PlayerView, rng: random.Random, simulations: int, uct_c: float) -> Action:
    """The most visited of ``view.legal`` after ``simulations`` simulations."""
    table = view.table
    resampler = Resampler(view)
    tree = Tree(rng, uct_c, table.game, table.sides)
    for _ in range(simulations):
        tree.simulate(resampler.world(rng))
    root = tree.nodes.get((0, view.seat, mask_of(view.hand), mask_of(view.dead)))
    if root is None or not root.tried:
        return view.legal[rng.randrange(len(view.legal))]
    most = max(stats[0] for stats in root.tried.values())
    best = [action for action, stats in root.tried.items() if stats[0] == most]
    chosen = best[rng.randrange(len(best))]
    return view.legal[view.legal.index(chosen)]


@dataclass(frozen=True, slots=True)
class IsmctsPlayer:
    """IS-MCTS as a computer player (:class:`engine.ai.Player`): ``simulations`` a move,
    UCT constant ``uct_c`` in points. It sees only the view it is given."""

    level: ClassVar[str] = "ismcts"
    simulations: int = SIMULATIONS
    uct_c: float = UCT_C

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        if not view.legal:
            raise ValueError("this seat has no move now")
        if len(view.legal) == 1:
            return view.legal[0]
        return search(view, rng, self.simulations, self.uct_c)
