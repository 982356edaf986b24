"""The figures of duplicate deals: what one deal counted, and the shares, points, intervals and
edges over many.

Apart from the playing (:mod:`benchmarks.duplicate`) because it is only arithmetic on what
the deals counted, and its users differ: :mod:`benchmarks.tournament`,
:mod:`benchmarks.strength` and :mod:`benchmarks.ai_compare` take the same intervals over
deals. Every interval is over deals, not hands: the seatings of one deal are not independent.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import variant

Z95 = 1.96


@dataclass(frozen=True, slots=True)
class DealResult:
    """One deal, all its seatings: per level, wins, decisive hands, points and seat-hands."""

    wins: dict[str, float]
    decisive: dict[str, float]
    points: dict[str, float]
    seat_hands: dict[str, int]  # how many (seat or side, hand) pairs the figures are over


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
