"""Gaple as played in Indonesia: pass when stuck, the one who goes out scores.

Its seams are all the plain line's defaults (equal numbers, no stock, knock when stuck), and
its scoring is the default: the winner takes the pips of every other hand."""

from __future__ import annotations

from ..deal import Deal
from ..options import SET_ANY, Options, target
from ..seams import Opening, PreviousHand
from .base import Variant
from .openings import highest_double_lead


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
