"""Our computer players against those of the PyPI package ``dominoes``, on that package's game.

    python -m benchmarks.ai_compare [--hands N] [--seed S] [--workers W]
                                [--their-start-move M] [--their-samples K]

A benchmark, not part of the product: it needs the ``bench`` extra (``pip install
'.[bench]'``). ``dominoes`` plays the 4-player partnership block game with a double-6 set
that our ``pair`` is; its games are dealt and scored by the package itself (when a player
goes out, the team scores the pips of all three other hands; a blocked hand, all four). Our
players see that game through a mirror: a ``pair`` match (``block_count: all``) kept move for
move in step with it, from which each of our seats gets its ordinary view.

Their players: ``bota_gorda`` lays the heaviest tile; ``probabilistic_alphabeta`` draws
``--their-samples`` hands for the others consistent with the passes and solves each to the
end with alpha-beta, from move ``--their-start-move`` on (before it, ``bota_gorda``'s choice).
Each matchup plays every deal twice, the contestants swapping partnerships. Printed per
matchup: the first contestant's share of decisive hands (95% interval over deals), points
per hand for each side, and the median, mean and 99th percentile CPU time of each side's
decisions that had a choice. The last line is one JSON object with those figures. The default run
(four matchups of 1,000 hands) takes about twenty minutes on two cores, most of it spent
waiting for ``probabilistic_alphabeta``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from benchmarks.deal_stats import percentile, ratio_interval, share_bounds
from benchmarks.tournament import run_and_report
from engine.actions import KNOCK, Action, Play
from engine.ai import player
from engine.deal import Deal
from engine.match import Match
from engine.tiles import End, Tile
from engine.views import player_view

OURS = ("easy", "normal", "hard")
THEIRS = ("bota_gorda", "probabilistic_alphabeta")
MATCHUPS = (
    ("hard", "bota_gorda"),
    ("normal", "bota_gorda"),
    ("hard", "normal"),
    ("hard", "probabilistic_alphabeta"),
)
CLOCK = time.process_time  # CPU time: other work on a shared machine slows neither side


@dataclass(frozen=True, slots=True)
class Settings:
    seed: int
    their_start_move: int
    their_samples: int


@dataclass(frozen=True, slots=True)
class Task:
    first: str
    second: str
    first_deal: int
    deals: int
    settings: Settings


@dataclass(frozen=True, slots=True)
class DealResult:
    """Both seatings of one deal, from the first contestant's side."""

    wins: int
    decisive: int
    points_for: int
    points_against: int


def _tile(domino: Any) -> Tile:
    return Tile(domino.first, domino.second)


class Mirror:
    """Our ``pair`` match, kept in step with one of their games."""

    def __init__(self, game: Any) -> None:
        hands = [[_tile(d) for d in hand] for hand in game.hands]
        opener = game.starting_player
        hands[opener].append(Tile(6, 6))  # their game has laid the opening 6-6 already
        self.match = Match("pair", 4, {"block_count": "all"})
        self.match.start_hand(Deal(tuple(tuple(hand) for hand in hands)))
        self.seen = 0
        self.catch_up(game)

    def catch_up(self, game: Any) -> None:
        """Apply their moves made since the last call: ``None`` is a pass."""
        for move in game.moves[self.seen :]:
            seat = self.match.to_move
            assert seat is not None
            action: Action = KNOCK
            if move is not None:
                domino, left = move
                action = Play(_tile(domino), End.LEFT if left else End.RIGHT)
            self.match.apply(seat, action)
        self.seen = len(game.moves)


def _their_move(action: Action, game: Any) -> tuple[Any, bool]:
    """Their valid move that is our ``action``."""
    assert type(action) is Play
    for domino, left in game.valid_moves:
        if _tile(domino) is action.tile and (action.end is not End.RIGHT) == left:
            return domino, left
    raise AssertionError(f"{action} is not among their moves {game.valid_moves}")


def _decide(name: str, game: Any, mirror: Mirror, rng: random.Random,
            settings: Settings) -> tuple[tuple[Any, bool], float]:
    """The move ``name`` makes now and the CPU seconds it took."""
    import dominoes  # type: ignore[import-not-found, import-untyped, unused-ignore]

    started = CLOCK()
    if name in OURS:
        view = player_view(mirror.match, game.turn)
        started = CLOCK()
        action = player(name).choose(view, rng)
        return _their_move(action, game), CLOCK() - started
    dominoes.players.bota_gorda(game)
    if name == "probabilistic_alphabeta":
        dominoes.players.probabilistic_alphabeta(
            start_move=settings.their_start_move,
            sample_size=settings.their_samples,
            player=dominoes.players.bota_gorda,
        )(game)
    return game.valid_moves[0], CLOCK() - started


def _play(task: Task, deal: int, first_team: int, times: dict[str, list[float]]) -> int:
    """One seating of one deal; the hand's points for team 0 (negative: team 1 won)."""
    import dominoes

    settings = task.settings
    random.seed(f"{settings.seed}/deal/{deal}")  # they deal with the global random module
    game = dominoes.Game.new(starting_domino=dominoes.Domino(6, 6))
    random.seed(f"{settings.seed}/{task.first}/{task.second}/{deal}/{first_team}")
    mirror = Mirror(game)
    ply = 0
    while game.result is None:
        name = task.first if game.turn % 2 == first_team else task.second
        rng = random.Random(f"{settings.seed}/{deal}/{first_team}/{ply}")
        choice = len(game.valid_moves) > 1
        move, seconds = _decide(name, game, mirror, rng, settings)
        if choice:
            times[name].append(seconds)
        game.make_move(*move)
        mirror.catch_up(game)
        ply += 1
    assert mirror.match.hand.over  # the mirror ended with their game
    points: int = game.result.points
    return points


def run_task(task: Task) -> tuple[list[DealResult], dict[str, list[float]]]:
    times: dict[str, list[float]] = {task.first: [], task.second: []}
    results = []
    for deal in range(task.first_deal, task.first_deal + task.deals):
        wins = decisive = points_for = points_against = 0
        for first_team in (0, 1):
            points = _play(task, deal, first_team, times)
            ours = points if first_team == 0 else -points  # from the first contestant's side
            decisive += ours != 0
            wins += ours > 0
            points_for += max(ours, 0)
            points_against += max(-ours, 0)
        results.append(DealResult(wins, decisive, points_for, points_against))
    return results, times


def _timing(times: list[float]) -> dict[str, Any]:
    ordered = sorted(times)
    if not ordered:
        return {"decisions": 0, "median_ms": None, "mean_ms": None, "p99_ms": None}
    return {
        "decisions": len(ordered),
        "median_ms": round(1000 * statistics.median(ordered), 2),
        "mean_ms": round(1000 * statistics.fmean(ordered), 2),
        "p99_ms": round(1000 * percentile(ordered, 0.99), 2),
    }


def play_matchup(first: str, second: str, deals: int, settings: Settings,
                 pool: ProcessPoolExecutor | None) -> dict[str, Any]:
    chunk = max(1, min(10, deals // 16 or 1))
    tasks = [Task(first, second, start, min(chunk, deals - start), settings)
             for start in range(0, deals, chunk)]
    outputs = list(pool.map(run_task, tasks)) if pool is not None else list(map(run_task, tasks))
    results = [r for part, _ in outputs for r in part]
    share = ratio_interval([r.wins for r in results], [r.decisive for r in results])
    bounds = share_bounds(share)
    hands = [2] * len(results)
    points_for = ratio_interval([r.points_for for r in results], hands)
    points_against = ratio_interval([r.points_against for r in results], hands)
    figures: dict[str, Any] = {
        "hands": 2 * len(results),
        "decisive": sum(r.decisive for r in results),
        "first_decisive_win_share": round(share[0], 4),
        "first_decisive_win_share_ci": bounds,
        "first_points": round(points_for[0], 2),
        "first_points_ci": [round(points_for[1], 2), round(points_for[2], 2)],
        "second_points": round(points_against[0], 2),
        "second_points_ci": [round(points_against[1], 2), round(points_against[2], 2)],
    }
    for role, name in (("first", first), ("second", second)):
        figures[f"{role}_time"] = _timing([t for _, timed in outputs for t in timed[name]])
    return figures


def describe(first: str, second: str, figures: dict[str, Any]) -> list[str]:
    lo, hi = figures["first_decisive_win_share_ci"]
    lines = [
        f"{first} vs {second}: {figures['hands']} hands; {first} won"
        f" {figures['first_decisive_win_share']:.1%} [{lo:.1%}, {hi:.1%}] of decisive hands;"
        f" points per hand {figures['first_points']:.2f} to {figures['second_points']:.2f}"
    ]
    for role, name in (("first", first), ("second", second)):
        timing = figures[f"{role}_time"]
        if timing["decisions"]:
            lines.append(f"  {name}: {timing['decisions']} decisions, median"
                         f" {timing['median_ms']:.1f} ms, mean {timing['mean_ms']:.1f} ms,"
                         f" p99 {timing['p99_ms']:.1f} ms (CPU)")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ai_compare", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1000,
                        help="hands per matchup, half each way (default 1000)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--their-start-move", type=int, default=6)
    parser.add_argument("--their-samples", type=int, default=10)
    parser.add_argument("--matchups", default=",".join(f"{a}:{b}" for a, b in MATCHUPS),
                        help="comma-separated first:second contestants")
    args = parser.parse_args(argv)
    try:
        import dominoes  # noqa: F401
    except ImportError:
        print("dominoes is not installed (pip install '.[bench]'): no comparison")
        return 1
    matchups = [tuple(m.split(":")) for m in args.matchups.split(",") if m]
    for pair in matchups:
        if len(pair) != 2 or not all(name in OURS + THEIRS for name in pair):
            parser.error(f"unknown matchup {':'.join(pair)}; players: {', '.join(OURS + THEIRS)}")
    settings = Settings(args.seed, args.their_start_move, args.their_samples)
    deals = max(1, args.hands // 2)
    report: dict[str, Any] = {
        "seed": args.seed,
        "their_start_move": args.their_start_move,
        "their_samples": args.their_samples,
    }

    def run(pool: ProcessPoolExecutor | None) -> None:
        for first, second in matchups:
            figures = play_matchup(first, second, deals, settings, pool)
            print("\n".join(describe(first, second, figures)))
            report[f"{first}:{second}"] = figures

    return run_and_report(args.workers, run, report)

if __name__ == "__main__":
    raise SystemExit(main())
