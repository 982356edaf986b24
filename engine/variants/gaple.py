"""Gaple as played in Indonesia (seed 003): pass when stuck, the one who goes out scores.

Its seams are all the plain line's defaults (equal numbers, no stock, knock when stuck)."""

from __future__ import annotations

from collections.abc import Sequence

from ..deal import Deal
from ..events import HandEndReason
from ..options import SET_ANY, Options, target
from ..tiles import Tile
from .base import (
    HandScore,
    Opening,
    PreviousHand,
    Variant,
    highest_double_lead,
    winner_takes_the_rest,
)


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
        return winner_takes_the_rest(reason, out_seat, totals)
