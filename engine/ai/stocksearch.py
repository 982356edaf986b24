"""Hard for the games of seed 002: imagine the hidden tiles, likeliest first, and search.

Perfect-information Monte Carlo as in :mod:`search`: deals (other hands and the stock's
order) consistent with every draw, knock and cut the seat saw (:mod:`stock`) are drawn, then
weighted by how well they explain the other seats' lays: a seat is modelled as the normal
level, choosing a lay with probability proportional to ``exp(value / temperature)``, so a
world where it laid a light tile while holding a heavy one that fitted is less likely. In
each world every legal move is tried and the hand finished with every seat on normal's
judgement (the same luck for every move), and the result valued as the match counts it: points
scored during play included, penalty games reversed, a win worth a bonus where wins decide,
a cut's ribbon counted in the hand of whoever received it.

The budget is counted work (:class:`Work`: simulated moves), so a view and a seed always give
the same decision; a caller may add a ``deadline`` of its own.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from ..actions import Action, Play
from ..events import HandEnded
from ..hand_board import BoardHand as StockHand
from ..variants import Variant as StockGame
from ..variants import variant
from ..views import PlayerView
from .budget import Deadline, Work
from .stock import Known, board_of, imagine, lay_gain, read_history

WIN_BONUS = 25.0  # what winning a hand is worth on top of its pips, where wins decide
# The budget in simulated moves. A move costs more in some games (Kolbasa's ribbons, Muggins'
# four arms, points to count), so each game's keeps its decisions about as quick (measured
# with benchmarks.tournament); Matador's choices are the closest, so it gets the most deals
# its cheap moves allow.
STEPS = {"matador": 2000, "kolbasa": 1200, "six-matador": 1000, "french": 1200, "muggins": 600}
DEFAULT_STEPS = 1500
LEAD_STEPS = 3  # the lead: the longest hand to play out and the most moves, once a hand
HALVING = (0.4, 0.7)  # shares of the budget after which the weaker half of the moves drops out


def hand_value(game: StockGame, seat: int, result: HandEnded, win_bonus: float) -> float:
    """How good a finished hand is for ``seat``, as the match counts it: where points come
    during play, its points against the others' average; in penalty games, the others'
    average against its own; where the hand's winner scores, ``win_bonus`` for winning it
    plus the others' average pips against its own (how near a win it came, and how much a
    win is worth)."""
    points = result.points
    others = (sum(points) - points[seat]) / (len(points) - 1)
    if game.points_in_play:
        return points[seat] - others
    if game.lowest_total_wins:
        return others - points[seat]
    totals = result.totals
    margin = (sum(totals) - totals[seat]) / (len(totals) - 1) - totals[seat]
    return margin + (win_bonus if result.winner == seat else 0.0)


def playout(
    game: StockGame, hand: StockHand, rng: random.Random, work: Work, scoring: bool
) -> HandEnded:
    """Finish ``hand`` with every seat on normal's judgement (:func:`lay_gain`: points now,
    pips unloaded, a cut's ribbon), greedily. Every move made is counted in ``work``."""
    moves = 0
    while hand.result is None:
        seat = hand.to_move
        assert seat is not None
        legal = hand.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        else:
            action = max(legal, key=lambda a: (lay_gain(game, hand, seat, a, scoring),
                                               rng.random()))
        hand.apply(seat, action)
        moves += 1
    work.spend(moves)
    return hand.result


def log_likelihood(known: Known, world: StockHand, temperature: float, erratic: float) -> float:
    """The log-probability, in ``world``, of the lays the other seats chose (each judged on
    the hand the seat held then: its tiles now, plus those it laid since, less those it was
    given since; lays followed by a draw of that seat are left out, the drawn tile unknown)."""
    total = 0.0
    for choice in known.choices:
        if choice.drew:
            continue
        held = (world.masks[choice.seat] | choice.since) & ~choice.received
        values = [worth for index, worth in choice.values.items() if held >> index & 1]
        if len(values) < 2:
            continue
        top = max(values)
        spread = sum(math.exp((v - top) / temperature) for v in values)
        sensible = math.exp((choice.chosen - top) / temperature) / spread
        total += math.log((1.0 - erratic) * sensible + erratic / len(values))
    return total


def distinct_moves(
    game: StockGame, hand: StockHand, seat: int, legal: tuple[Action, ...]
) -> list[int]:
    """Indices of ``legal`` less the moves that lead to the same position as an earlier one:
    on a line, laying a tile at either of two ends that look alike leaves the same open ends
    (the hand's future depends on nothing else there), so one of them is searched."""
    if game.layout != "line" or hand.board.center is None:
        return list(range(len(legal)))
    seen: set[object] = set()
    kept = []
    for i, action in enumerate(legal):
        trial = hand.fork()
        trial.apply(seat, action)
        board = trial.board
        ends = sorted(
            (board.opens(end), piece.tile.is_double, piece.cross)
            for end in board.arms
            if (piece := board.end_piece(end)) is not None
        )
        key = (action.tile if isinstance(action, Play) else None, tuple(ends))
        if key not in seen:
            seen.add(key)
            kept.append(i)
    return kept


@dataclass(frozen=True, slots=True)
class StockSearch:
    """Hard for the games of seed 002: Monte Carlo over imagined deals and stock orders."""

    level: ClassVar[str] = "hard"
    steps: int | None = None  # simulated moves per decision; None: the game's own (STEPS)
    max_worlds: int = 64  # deals searched at most (short hands end the budget late)
    pool: int = 48  # consistent deals drawn and weighed to pick the searched ones from
    temperature: float = 2.0  # how loosely other seats are assumed to follow normal's judgement
    erratic: float = 0.2  # the share of lays assumed to be made at random
    win_bonus: float = WIN_BONUS
    deadline: Deadline | None = None  # the caller's own time limit, if any (never the default)

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        game = variant(view.table.game)
        assert isinstance(game, StockGame)
        board = board_of(view)
        scratch = imagine(view, board, rng)
        known = read_history(view, game, scratch.fork())  # the fork is written over
        scoring = game.points_in_play or game.matador_score(view.table.options)
        steps = self.steps if self.steps is not None else STEPS.get(game.name, DEFAULT_STEPS)
        if board.center is None:
            steps *= LEAD_STEPS
        work = Work(steps, self.deadline)
        alive = distinct_moves(game, scratch, view.seat, legal)
        totals = [0.0] * len(legal)
        cuts = [steps * share for share in HALVING]
        for searched, world in enumerate(self.worlds(view, known, rng), 1):
            seed = rng.getrandbits(32)  # every move meets the same luck in this world
            for i in alive:
                trial = world.fork()
                trial.apply(view.seat, legal[i])
                result = playout(game, trial, random.Random(seed), work, scoring)
                totals[i] += hand_value(game, view.seat, result, self.win_bonus)
            if work.spent() or searched >= self.max_worlds:
                break
            if len(alive) > 2 and cuts and work.done >= cuts[0]:
                cuts.pop(0)  # the weaker half has had its chance: spend the rest on the others
                alive = sorted(alive, key=lambda i: -totals[i])[: (len(alive) + 1) // 2]
        return legal[max(alive, key=lambda i: totals[i])]

    def worlds(self, view: PlayerView, known: Known, rng: random.Random) -> Iterator[StockHand]:
        """Deals to search, endlessly: uniform among the consistent ones while the others made
        no judgeable lay, else drawn from ``pool`` of them in proportion to their likelihood."""
        board = board_of(view)
        if not known.choices:
            while True:
                yield imagine(view, board, rng, known)
        pool = [imagine(view, board, rng, known) for _ in range(self.pool)]
        weights = [log_likelihood(known, w, self.temperature, self.erratic) for w in pool]
        top = max(weights)
        cumulative: list[float] = []
        running = 0.0
        for weight in weights:
            running += math.exp(weight - top)
            cumulative.append(running)
        while True:
            yield rng.choices(pool, cum_weights=cumulative)[0]


__all__ = ["StockSearch", "hand_value", "log_likelihood", "playout"]
