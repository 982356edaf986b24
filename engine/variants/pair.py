"""Pair dominoes: two partnerships, seats 0+2 against 1+3."""

from __future__ import annotations

from ..deal import Deal
from ..events import HandEndReason
from ..options import SET_ANY, Options, choice, target
from ..seams import HandEnd, HandScore, Opening, PreviousHand
from .base import Variant
from .openings import highest_double_lead, lot_seat

SIDES = ((0, 2), (1, 3))


class Pair(Variant):
    name = "pair"
    aliases = ("pairs", "partners", "partnership", "team", "teams", "парный", "парная", "пары")
    seat_counts = (4,)
    option_specs = (
        SET_ANY,
        target(100),
        choice("first_lead", "6-6", "lot"),
        choice("block_count", "opponents", "all"),
    )
    doubles_across = True

    def sides(self, seats: int) -> tuple[tuple[int, ...], ...]:
        return SIDES

    def opening(self, options: Options, deal: Deal, previous: PreviousHand | None) -> Opening:
        if previous is not None:
            return Opening((previous.opener + 1) % deal.seats)
        if options.first_lead == "lot":
            return Opening(lot_seat(deal))
        return highest_double_lead(deal)

    def score(self, options: Options, end: HandEnd) -> HandScore:
        reason, out_seat, totals = end.reason, end.out_seat, end.totals
        side_pips = (totals[0] + totals[2], totals[1] + totals[3])  # SIDES
        if reason is HandEndReason.OUT:
            assert out_seat is not None
            winner: int | None = out_seat % 2
        elif side_pips[0] == side_pips[1]:
            winner = None
        else:
            winner = 0 if side_pips[0] < side_pips[1] else 1
        if winner is None:
            return HandScore(None, (0, 0))
        scored = side_pips[1 - winner]
        if reason is HandEndReason.BLOCKED and options.block_count == "all":
            scored = sum(side_pips)
        points = [0, 0]
        points[winner] = scored
        return HandScore(winner, (points[0], points[1]))
