"""How several games score a hand's end from the pips left in hand."""

from __future__ import annotations

from collections.abc import Sequence

from ..events import HandEndReason
from ..seams import HandScore


def lightest(totals: Sequence[int]) -> int | None:
    """The one seat with the fewest pips, or None on a tie."""
    low = min(totals)
    seats = [seat for seat, total in enumerate(totals) if total == low]
    return seats[0] if len(seats) == 1 else None


def winner_takes_the_rest(
    reason: HandEndReason, out_seat: int | None, totals: tuple[int, ...]
) -> HandScore:
    """Gaple's scoring (also Kolbasa's and Matador's): the out seat, or the one lightest
    hand, takes the pips of every other hand; a tie for lightest scores nobody."""
    winner = out_seat if reason is HandEndReason.OUT else lightest(totals)
    points = [0] * len(totals)
    if winner is not None:
        points[winner] = sum(totals) - totals[winner]
    return HandScore(winner, tuple(points))


def nearest_five(points: int) -> int:
    """Rounded to the nearest multiple of 5: a remainder of 1-2 down, 3-4 up."""
    return (points + 2) // 5 * 5
