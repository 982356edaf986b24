"""Duplicate deals between two levels: every seeded deal played once per seating.

The playing behind :mod:`benchmarks.tournament` (and :mod:`benchmarks.strength`, which plays
the same deals against an outside player), apart from its command line so that a script or a
test can play a game's deals and take their figures (:mod:`benchmarks.deal_stats`) without it.
In a partnership game the focus level plays one side and the field level the other, then the
sides swap; in a one-seat game the focus player sits once at each seat. Decision times are CPU
times of the deciding process, kept only for decisions that had a choice.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from engine import variant
from engine.ai import Player, player
from engine.match import Match
from engine.views import player_view

from .deal_stats import DealResult, edge, level_figures

SEATS = 4
# CPU time of the deciding process: the machine may be shared, and with several workers
# wall time would also measure the others' load rather than the decision.
CLOCK = time.process_time
Progress = Callable[[int, int], None]  # told (deals played, deals) as chunks of deals finish


@dataclass(frozen=True, slots=True)
class Seating:
    """Which seats the focus level takes in one playing of a deal."""

    focus: frozenset[int]


def partnership(game: str) -> bool:
    """Whether seats of ``game`` play in sides of more than one."""
    return any(len(side) > 1 for side in variant(game).sides(SEATS))


def seatings(game: str) -> tuple[Seating, ...]:
    if partnership(game):
        return tuple(Seating(frozenset(side)) for side in variant(game).sides(SEATS))
    return tuple(Seating(frozenset({seat})) for seat in range(SEATS))


@dataclass(frozen=True, slots=True)
class Task:
    game: str
    focus: str
    field: str
    seed: int
    first_deal: int
    deals: int
    # Players by name that are no level of the engine's (an outside yardstick such as
    # :mod:`benchmarks.ismcts`): the focus or field name looked up here first.
    others: tuple[tuple[str, Player], ...] = ()

    def player(self, name: str) -> Player:
        return dict(self.others).get(name) or player(name)


def play_deal(task: Task, deal_number: int, times: dict[str, list[float]]) -> DealResult:
    """Play one deal in every seating; decision times (with a choice) go into ``times``."""
    levels = (task.focus, task.field)
    wins = dict.fromkeys(levels, 0.0)
    decisive = dict.fromkeys(levels, 0.0)
    points = dict.fromkeys(levels, 0.0)
    seat_hands = dict.fromkeys(levels, 0)
    players = {level: task.player(level) for level in levels}
    for number, seating in enumerate(seatings(task.game)):
        match = Match(task.game, SEATS)
        match.deal_hand(random.Random(f"{task.seed}/{task.game}/deal/{deal_number}"))
        hand = match.hand
        ply = 0
        while hand.result is None:
            seat = hand.to_move
            assert seat is not None
            level = task.focus if seat in seating.focus else task.field
            view = player_view(match, seat)
            rng = random.Random(f"{task.seed}/{task.game}/{deal_number}/{number}/{ply}")
            started = CLOCK()
            action = players[level].choose(view, rng)
            if len(view.legal) > 1:
                times[level].append(CLOCK() - started)
            match.apply(seat, action)
            ply += 1
        result = hand.result
        for side, members in enumerate(match.sides):
            level = task.focus if members[0] in seating.focus else task.field
            seat_hands[level] += 1
            points[level] += result.points[side] if not variant(task.game).lowest_total_wins else (
                result.totals[members[0]]
            )
            if result.winner is not None:
                decisive[level] += 1
                wins[level] += result.winner == side
    return DealResult(wins, decisive, points, seat_hands)


def run_task(task: Task) -> tuple[list[DealResult], dict[str, list[float]]]:
    times: dict[str, list[float]] = {task.focus: [], task.field: []}
    deals = range(task.first_deal, task.first_deal + task.deals)
    results = [play_deal(task, number, times) for number in deals]
    return results, times


def play_game(
    game: str, hands: int, seed: int, focus: str, field: str, pool: ProcessPoolExecutor | None,
    others: Mapping[str, Player] | None = None, progress: Progress | None = None,
) -> dict[str, Any]:
    """Play ``hands`` hands of ``game`` (whole deals, every seating): the figures of each
    level and the focus level's edge. ``others``: players by name besides the engine's
    levels; ``progress(deals_done, deals)`` is called as chunks of deals finish."""
    results, times = play_deals(game, hands, seed, focus, field, pool, others, progress)
    deals = len(results)
    figures: dict[str, Any] = {"deals": deals, "hands": deals * len(seatings(game))}
    for level in (focus, field):
        figures[level] = level_figures(level, results, times[level])
    figures["edge"] = edge(game, results, focus, field)
    return figures


def play_deals(
    game: str, hands: int, seed: int, focus: str, field: str, pool: ProcessPoolExecutor | None,
    others: Mapping[str, Player] | None = None, progress: Progress | None = None,
) -> tuple[list[DealResult], dict[str, list[float]]]:
    """Every deal's result, in deal order, and each level's decision times (see
    :func:`play_game`)."""
    rotations = len(seatings(game))
    deals = max(1, hands // rotations)
    chunk = max(1, min(25, deals // 16 or 1))
    extra = tuple((others or {}).items())
    tasks = [
        Task(game, focus, field, seed, start, min(chunk, deals - start), extra)
        for start in range(0, deals, chunk)
    ]
    outputs: Iterable[tuple[list[DealResult], dict[str, list[float]]]] = (
        pool.map(run_task, tasks) if pool is not None else map(run_task, tasks)
    )
    results: list[DealResult] = []
    times: dict[str, list[float]] = {focus: [], field: []}
    for part, timed in outputs:
        results.extend(part)
        for level in (focus, field):
            times[level].extend(timed[level])
        if progress is not None:
            progress(len(results), deals)
    return results, times
