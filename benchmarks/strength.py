"""How strong a computer level is against an outside yardstick: IS-MCTS, in pair dominoes.

    python -m benchmarks.strength [--level hard] [--opponent ismcts] [--simulations 500]
                                  [--uct 30] [--deals 400] [--seed 2026] [--workers 1]

Issue 25 measured the computer players against OpenSpiel's information-set Monte Carlo tree
search (500 simulations a move, random rollouts, UCT constant about 30 points) in four-seat
partnership dominoes with our pair rules. This plays the same match on our engine against
the same algorithm written over it (:mod:`benchmarks.ismcts`), so the figures mean the same
thing: ``--level`` holds one partnership and ``--opponent`` the other, and every deal is
played twice, the partnerships swapped (:mod:`benchmarks.tournament`'s duplicate deals).
Each player sees only its own seat's view and decides from one seeded ``rng``; the IS-MCTS
settings are counted work (simulations), so no decision depends on the machine's load.

It prints the level's hands won, lost and drawn; its points a hand, net (the points its
partnership scored less the other's, as the pair game scores each hand), with a 95% interval
over deals (the two seatings of a deal are not independent); the share of decisive hands it
won, likewise; and the median and 99th percentile CPU time of each side's decisions that had
a choice, with the ratio of the two medians (the yardstick's speed in units of the level's,
comparable across machines). For reference it repeats what the issue measured with
OpenSpiel. The last line is one JSON object with every figure. ``--opponent`` may also be
another level (``normal``), ``--simulations 5000`` is the expert target's yardstick.
Progress goes to stderr, a line a chunk of deals.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engine.ai import Player, player

from .deal_stats import DealResult, level_figures, mean_interval, ratio_interval, share_bounds
from .duplicate import play_deals
from .ismcts import SIMULATIONS, UCT_C, IsmctsPlayer
from .tournament import load_average, run_and_report

GAME = "pair"
YARDSTICK = "ismcts"
# What issue 25 measured: hard against OpenSpiel's IS-MCTS, 500 simulations, 174 hands.
REFERENCE = (
    "issue 25, hard vs OpenSpiel IS-MCTS(500), 174 hands: won 85 / lost 87 / drawn 2,"
    " -1.76 points a hand [-4.77, +1.24]; medians hard 29 ms, IS-MCTS 365 ms (12.6x)"
)


def figures_of(
    results: list[DealResult], times: dict[str, list[float]], level: str, opponent: str
) -> dict[str, Any]:
    """Hands won, lost and drawn by ``level``, its net points a hand and its share of the
    decisive hands (intervals over deals), and each side's decision times."""
    hands = sum(d.seat_hands[level] for d in results)
    won = sum(d.wins[level] for d in results)
    lost = sum(d.wins[opponent] for d in results)
    net = [(d.points[level] - d.points[opponent]) / d.seat_hands[level] for d in results]
    points = mean_interval(net)
    decisive = ratio_interval(
        [d.wins[level] for d in results], [d.decisive[level] for d in results]
    )
    sides = {}
    for name in (level, opponent):
        timed = level_figures(name, results, times[name])
        sides[name] = {key: timed[key] for key in ("decisions", "median_ms", "p99_ms")}
    mine, theirs = sides[level]["median_ms"], sides[opponent]["median_ms"]
    return {
        "deals": len(results),
        "hands": hands,
        "won": round(won),
        "lost": round(lost),
        "drawn": round(hands - won - lost),
        "points_per_hand": round(points[0], 2),
        "points_ci": [round(points[1], 2), round(points[2], 2)],
        "decisive_win_share": round(decisive[0], 4),
        "decisive_win_share_ci": share_bounds(decisive),
        level: sides[level],
        opponent: sides[opponent],
        "median_ratio": round(theirs / mine, 2) if mine and theirs else None,
    }


def describe(figures: dict[str, Any], level: str, opponent: str) -> list[str]:
    lo, hi = figures["points_ci"]
    dlo, dhi = figures["decisive_win_share_ci"]
    lines = [
        f"  {level}: won {figures['won']} / lost {figures['lost']} / drawn {figures['drawn']}"
        f" of {figures['hands']} hands; of decisive {figures['decisive_win_share']:.1%}"
        f" [{dlo:.1%}, {dhi:.1%}]",
        f"  {level} points a hand (its partnership's less the other's): "
        f"{figures['points_per_hand']:+.2f} [{lo:+.2f}, {hi:+.2f}] (95%, over deals)",
    ]
    for name in (level, opponent):
        side = figures[name]
        if side["decisions"]:
            lines.append(
                f"  {name} decisions with a choice: {side['decisions']}, CPU median"
                f" {side['median_ms']:.1f} ms, p99 {side['p99_ms']:.1f} ms"
            )
    if figures["median_ratio"] is not None:
        lines.append(f"  {opponent} median / {level} median: {figures['median_ratio']:.2f}x")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.strength", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--level", default="hard", help="the level measured (default hard)")
    parser.add_argument("--opponent", default=YARDSTICK,
                        help="ismcts (default), or another level of the engine's")
    parser.add_argument("--simulations", type=int, default=SIMULATIONS,
                        help=f"IS-MCTS simulations a move (default {SIMULATIONS})")
    parser.add_argument("--uct", type=float, default=UCT_C,
                        help=f"IS-MCTS UCT constant, in points (default {UCT_C:g})")
    parser.add_argument("--deals", type=int, default=400,
                        help="deals, each played twice (default 400)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.simulations < 1:
        parser.error("--deals and --simulations must be positive")
    if args.level == args.opponent:
        parser.error("--level and --opponent must be different")
    player(args.level)  # an unknown level fails here, before any hand is played
    others: dict[str, Player] = {}
    if args.opponent == YARDSTICK:
        others[YARDSTICK] = IsmctsPlayer(args.simulations, args.uct)
    else:
        player(args.opponent)
    what = (f"IS-MCTS, {args.simulations} simulations a move, UCT {args.uct:g}"
            if args.opponent == YARDSTICK else "a level of the engine's")
    report: dict[str, Any] = {
        "game": GAME, "level": args.level, "opponent": args.opponent,
        "simulations": args.simulations if args.opponent == YARDSTICK else None,
        "uct_c": args.uct if args.opponent == YARDSTICK else None,
        "seed": args.seed, "load_before": load_average(),
    }
    started = time.perf_counter()

    def progress(done: int, deals: int) -> None:
        print(f"{done}/{deals} deals, {time.perf_counter() - started:.0f} s, load"
              f" {load_average()}", file=sys.stderr, flush=True)

    def run(pool: ProcessPoolExecutor | None) -> None:
        results, times = play_deals(GAME, 2 * args.deals, args.seed, args.level,
                                    args.opponent, pool, others, progress)
        figures = figures_of(results, times, args.level, args.opponent)
        report.update(figures)
        report["load_after"] = load_average()
        print(f"{GAME}: {args.level} vs {args.opponent} ({what}), {figures['deals']} deals,"
              f" each twice with the partnerships swapped; seed {args.seed}")
        for line in describe(figures, args.level, args.opponent):
            print(line)
        print(f"  load average before {report['load_before']}, after {report['load_after']}")
        print(f"  reference: {REFERENCE}")

    return run_and_report(args.workers, run, report)


if __name__ == "__main__":
    raise SystemExit(main())
