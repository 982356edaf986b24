"""Gaple as played in Indonesia (seed 003): pass when stuck, the one who goes out scores."""

from __future__ import annotations

from collections.abc import Sequence

from ..deal import Deal
from ..events import HandEndReason
from ..options import SET_ANY, Options, target
from ..tiles import Tile
from .base import HandScore, Opening, PreviousHand, Variant, highest_double_lead


class Gaple(Variant):
    name = "gaple"
    aliases = ("gaple-pass", "gaple-indonesia", "indonesian", "гапле")
    seat_counts = (4,)
    option_specs = (SET_ANY, target(100))

    def opening(self, options: Options, deal: Deal, previous: PreviousHand | None) -> Opening:
        if previous is None:
            return highest_double_lead(deal)
        if previous.winner_seat is None:  # a drawn hand: the same leader again
            return Opening(previous.opener)
        return Opening(previous.winner_seat)

    def score(
        self,
        options: Options,
        reason: HandEndReason,
        out_seat: int | None,
        totals: tuple[int, ...],
        hands: Sequence[Sequence[Tile]],
        dead: Sequence[Sequence[Tile]],
    ) -> HandScore:
        if reason is HandEndReason.OUT:
            assert out_seat is not None
            winner: int | None = out_seat
        else:
            lowest = min(totals)
            fewest = [seat for seat, total in enumerate(totals) if total == lowest]
            winner = fewest[0] if len(fewest) == 1 else None
        points = [0] * len(totals)
        if winner is not None:
            points[winner] = sum(totals) - totals[winner]
        return HandScore(winner, tuple(points))
