"""How strong and how fast the computer players are: seeded hands between levels.

    python -m benchmarks.tournament [--hands N] [--hands-for matador=N,...] [--seed S]
                                [--games pair,gaple,muggins,...] [--focus hard]
                                [--field normal] [--workers W]

Duplicate style, so that the luck of the deal cancels out: every deal is played once per
seating. In ``pair`` the focus level plays one partnership and the field level the other,
then the same deal is played with the partnerships swapped; in ``gaple`` and ``gaple-dead``
one focus player sits among three field players, once at each of the four seats. Every hand
is the first of a fresh match (default options), so its opening is the game's first-hand
rule.

Per game and level it prints the share of hands won (per seat in the one-seat games, so
parity is 1/4; in ``pair`` also the share of decisive hands, draws left out), the points per
hand (``gaple-dead``: the total counted against the seat, lower is better), each with a 95%
confidence interval taken over deals (the seatings of one deal are not independent), and
the median and 99th percentile CPU time of the decisions that had a choice (forced moves
take no time and are left out). The last line is one JSON object with those figures keyed by
game and level, and per game the focus level's edge by the measure that decides that game
(hands won; points per hand where points come during play; the total against a seat in the
penalty games), paired over deals. ``--workers`` (default: every core) plays deals in
parallel processes; the figures do not depend on it (the players' budgets are counted work,
not time, so neither does any decision). ``--hands-for`` gives a game more hands where its
edge is small against the luck of the deal (Matador's is: by default it plays 4,000).

The end of the run is a summary, one line per game: the edge and its interval, the hands,
each level's median and 99th percentile decision time, and whether the targets hold (the
focus level ahead at 95%, its median at most 50 ms and its 99th percentile at most 300 ms;
the expert's median at most 500 ms),
with the machine's load average at the start and the end (the times are CPU times of the
deciding process, but a loaded machine still slows them). The default run (2,000 hands of
each game, 4,000 of Matador, hard against normal) takes over an hour on two quiet cores;
``--hands 400 --hands-for matador=400`` gives rough figures in about fifteen minutes.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from engine import VARIANTS, variant
from engine.ai import Player, player
from engine.match import Match
from engine.views import player_view

GAMES = tuple(VARIANTS)  # every game, in the registry's display order
SEATS = 4
MORE_HANDS = {"matador": 4000}  # default hands where the edge is small beside the luck
TARGET_MEDIAN_MS = 50.0
TARGET_P99_MS = 300.0
#: The issue's time targets for a focus level, where they differ from hard's: the expert's
#: median at most 500 ms, its 99th percentile free (it thinks off the event loop).
TIME_TARGETS: dict[str, tuple[float, float | None]] = {"expert": (500.0, None)}
Z95 = 1.96
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


@dataclass(frozen=True, slots=True)
class DealResult:
    """One deal, all its seatings: per level, wins, decisive hands, points and seat-hands."""

    wins: dict[str, float]
    decisive: dict[str, float]
    points: dict[str, float]
    seat_hands: dict[str, int]  # how many (seat or side, hand) pairs the figures are over


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


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95% interval (normal approximation over independent deals)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def ratio_interval(tops: Sequence[float], bottoms: Sequence[float]) -> tuple[float, float, float]:
    """sum(tops)/sum(bottoms) and its 95% interval by the delta method over deals."""
    total = sum(bottoms)
    if not total:
        return math.nan, math.nan, math.nan
    ratio = sum(tops) / total
    if len(tops) < 2:
        return ratio, ratio, ratio
    residuals = [t - ratio * b for t, b in zip(tops, bottoms, strict=True)]
    half = Z95 * statistics.stdev(residuals) / math.sqrt(len(tops)) / (total / len(tops))
    return ratio, ratio - half, ratio + half


def share_bounds(estimate: tuple[float, float, float]) -> list[float]:
    """A share's interval, kept within 0..1 (the normal approximation can overshoot)."""
    return [round(max(0.0, estimate[1]), 4), round(min(1.0, estimate[2]), 4)]


def percentile(sorted_values: Sequence[float], share: float) -> float:
    if not sorted_values:
        return math.nan
    index = min(len(sorted_values) - 1, math.ceil(share * len(sorted_values)) - 1)
    return sorted_values[max(0, index)]


def level_figures(level: str, deals: list[DealResult], times: list[float]) -> dict[str, Any]:
    per = [d.seat_hands[level] for d in deals]
    win = ratio_interval([d.wins[level] for d in deals], per)
    decisive = ratio_interval([d.wins[level] for d in deals], [d.decisive[level] for d in deals])
    points = ratio_interval([d.points[level] for d in deals], per)
    ordered = sorted(times)
    return {
        "hands": sum(per),
        "win_share": round(win[0], 4),
        "win_share_ci": share_bounds(win),
        "decisive_win_share": round(decisive[0], 4),
        "decisive_win_share_ci": share_bounds(decisive),
        "points": round(points[0], 2),
        "points_ci": [round(points[1], 2), round(points[2], 2)],
        "decisions": len(ordered),
        "median_ms": round(1000 * statistics.median(ordered), 2) if ordered else None,
        "p99_ms": round(1000 * percentile(ordered, 0.99), 2) if ordered else None,
    }


def deciding_measure(game: str) -> str:
    """What decides ``game``'s matches: ``"wins"`` where the hand's winner scores,
    ``"points"`` where points come during play, ``"penalty"`` where each seat's own total
    counts against it (lower is better)."""
    rules = variant(game)
    if getattr(rules, "points_in_play", False):
        return "points"
    return "penalty" if rules.lowest_total_wins else "wins"


def edge(game: str, deals: list[DealResult], focus: str, field: str) -> dict[str, Any]:
    """The focus level's edge over the field by the deciding measure, per deal (paired:
    the same deal in every seating), with its 95% interval; ahead when it excludes 0."""
    measure = deciding_measure(game)
    sign = -1.0 if measure == "penalty" else 1.0
    diffs = []
    for deal in deals:
        got = deal.wins if measure == "wins" else deal.points
        mine = got[focus] / deal.seat_hands[focus]
        theirs = got[field] / deal.seat_hands[field]
        diffs.append(sign * (mine - theirs))
    mean, low, high = mean_interval(diffs)
    return {
        "measure": measure,
        "edge": round(mean, 4),
        "edge_ci": [round(low, 4), round(high, 4)],
        "ahead": low > 0,
    }


def describe(game: str, level: str, figures: dict[str, Any]) -> str:
    lo, hi = figures["win_share_ci"]
    text = f"  {level:<7} won {figures['win_share']:.1%} [{lo:.1%}, {hi:.1%}]"
    if partnership(game):
        lo, hi = figures["decisive_win_share_ci"]
        text += f", of decisive {figures['decisive_win_share']:.1%} [{lo:.1%}, {hi:.1%}]"
    lo, hi = figures["points_ci"]
    what = "total against" if variant(game).lowest_total_wins else "points"
    text += f"; {what} {figures['points']:.2f} [{lo:.2f}, {hi:.2f}] per hand"
    if figures["decisions"]:
        text += (
            f"; {figures['decisions']} decisions: median {figures['median_ms']:.1f} ms,"
            f" p99 {figures['p99_ms']:.1f} ms"
        )
    return text


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.tournament", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=2000, help="hands per game (default 2000)")
    parser.add_argument("--hands-for", default=None, type=hands_for,
                        help="GAME=N,...: other numbers of hands for some games"
                             " (default matador=4000; given, it replaces that default)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    parser.add_argument("--focus", default="hard", help="the level measured (default hard)")
    parser.add_argument("--field", default="normal", help="the level it plays against")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    games = [g for g in args.games.split(",") if g]
    for name in (args.focus, args.field):
        player(name)  # an unknown level fails here, before any hand is played
    if args.focus == args.field:
        parser.error("--focus and --field must be different levels")

    more = MORE_HANDS if args.hands_for is None else args.hands_for
    report: dict[str, Any] = {"seed": args.seed, "focus": args.focus, "field": args.field,
                              "load_before": load_average()}

    def run(pool: ProcessPoolExecutor | None) -> None:
        for game in games:
            hands = more.get(game, args.hands)
            figures = play_game(game, hands, args.seed, args.focus, args.field, pool)
            seats = "one partnership each" if partnership(game) else f"one {args.focus} seat"
            print(f"{game}: {args.focus} vs {args.field}, {figures['hands']} hands"
                  f" ({figures['deals']} deals, {seats}, every seating)")
            for level in (args.focus, args.field):
                print(describe(game, level, figures[level]))
            ahead = figures["edge"]
            lo, hi = ahead["edge_ci"]
            print(f"  {args.focus} edge by {ahead['measure']}: {ahead['edge']:+.3f} [{lo:+.3f},"
                  f" {hi:+.3f}] per seat-hand: {'ahead' if ahead['ahead'] else 'not shown ahead'}"
                  " at 95%")
            report[game] = figures
        report["load_after"] = load_average()
        summarise(games, report, args.focus, args.field)

    return run_and_report(args.workers, run, report)


def hands_for(text: str) -> dict[str, int]:
    """``"matador=4000,french=800"`` as a mapping; a clear error for anything else."""
    out: dict[str, int] = {}
    for item in filter(None, text.split(",")):
        game, _, count = item.partition("=")
        if game not in VARIANTS or not count.isdigit() or not int(count):
            raise argparse.ArgumentTypeError(f"expected GAME=HANDS, got {item!r}")
        out[game] = int(count)
    return out


def load_average() -> list[float]:
    """The machine's 1, 5 and 15 minute load averages (empty where the system has none)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:  # pragma: no cover - not on Linux
        return []


def targets(figures: dict[str, Any], focus: str) -> dict[str, bool]:
    """Whether ``figures`` meet the issue's targets for the focus level."""
    mine = figures[focus]
    median, p99 = mine["median_ms"], mine["p99_ms"]
    most_median, most_p99 = TIME_TARGETS.get(focus, (TARGET_MEDIAN_MS, TARGET_P99_MS))
    met = {
        "ahead": bool(figures["edge"]["ahead"]),
        "median": median is not None and median <= most_median,
    }
    if most_p99 is not None:
        met["p99"] = p99 is not None and p99 <= most_p99
    return met


def summarise(games: Sequence[str], report: dict[str, Any], focus: str, field: str) -> None:
    """One line per game with every figure, the targets met, and the machine's load."""
    print(f"summary: {focus} vs {field}; load average before {report['load_before']},"
          f" after {report['load_after']}")
    for game in games:
        figures = report[game]
        ahead = figures["edge"]
        lo, hi = ahead["edge_ci"]
        times = "; ".join(
            f"{level} {figures[level]['median_ms']}/{figures[level]['p99_ms']} ms"
            for level in (focus, field)
        )
        met = targets(figures, focus)
        figures["targets"] = met
        missed = [name for name, ok in met.items() if not ok]
        print(f"  {game:<12} edge {ahead['edge']:+.3f} [{lo:+.3f}, {hi:+.3f}] by"
              f" {ahead['measure']}, {figures['hands']} hands; median/p99 {times};"
              f" {'targets met' if not missed else 'missed: ' + ', '.join(missed)}")


def run_and_report(
    workers: int, run: Callable[[ProcessPoolExecutor | None], None], report: dict[str, Any]
) -> int:
    """Run with a pool of ``workers`` processes (none for one), then print the wall time to
    stderr and ``report`` as the last line of stdout."""
    started = time.perf_counter()
    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    try:
        run(pool)
    finally:
        if pool is not None:
            pool.shutdown()
    report["seconds"] = round(time.perf_counter() - started, 1)
    print(f"{report['seconds']:.0f} s", file=sys.stderr)
    print(json.dumps(report))
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
