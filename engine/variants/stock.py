"""What the six games of seed 002 share: a double-6 set, a stock, and Gaple's scoring.

Each game declares its seams (:class:`engine.variants.base.Variant`: layout, matching rule,
matadors, drawing rule, crosswise tiles, points during play, hand end); the hand machine
(:mod:`engine.machine`) plays any of them on the board (:class:`engine.table.StockHand`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import BadInputError
from ..events import HandEndReason
from ..options import SET_SIX, Options
from ..tiles import Tile
from .base import (
    NO_POINTS,
    HandScore,
    Opening,
    PreviousHand,
    Score,
    Variant,
    lightest,
    winner_takes_the_rest,
)

__all__ = [
    "NO_POINTS", "SET_OPTION", "Score", "StockGame", "holder", "lightest", "lot_opening",
    "winner_or_opener",
]

SET_OPTION = SET_SIX


class StockGame(Variant):
    """Base of the games of seed 002 (double-6, a stock, must lay, draw, knock)."""

    deal_sizes: dict[int, int] = {}
    keeps_scored = True

    # --- table -------------------------------------------------------------------------
    def hand_size(self, options: Options, seats: int) -> int:
        return self.deal_sizes[seats]

    def stock_size(self, options: Options, seats: int) -> int:
        return 28 - seats * self.deal_sizes[seats]

    # --- the end of a hand -------------------------------------------------------------
    def score(
        self,
        options: Options,
        reason: HandEndReason,
        out_seat: int | None,
        totals: tuple[int, ...],
        hands: Sequence[Sequence[Tile]],
        dead: Sequence[Sequence[Tile]],
    ) -> HandScore:
        """Gaple's scoring (Kolbasa, Matador)."""
        return winner_takes_the_rest(reason, out_seat, totals)

    # --- the match ---------------------------------------------------------------------
    def match_outcome(
        self, options: Options, scores: tuple[int, ...], reached: bool
    ) -> tuple[bool, int | None, bool]:
        """(over, winner, target reached): once a score reaches the target the match ends
        after the first hand that leaves one seat alone with the best score (D3)."""
        reached = reached or max(scores) >= options.target
        if not reached:
            return False, None, False
        best = min(scores) if self.lowest_total_wins else max(scores)
        leaders = [side for side, score in enumerate(scores) if score == best]
        return (True, leaders[0], True) if len(leaders) == 1 else (False, None, True)

    def match_result(self, options: Options, scores: tuple[int, ...]) -> tuple[bool, int | None]:
        over, winner, _ = self.match_outcome(options, scores, False)
        return over, winner


def holder(deal_hands: Sequence[Sequence[Tile]], tile: Tile) -> int:
    return next(seat for seat, hand in enumerate(deal_hands) if tile in hand)


def lot_opening(deal_lot: object, seats: int) -> Opening:
    if type(deal_lot) is not int or not 0 <= deal_lot < seats:
        raise BadInputError("this hand needs the seat chosen by lot ('first')")
    return Opening(deal_lot)


def winner_or_opener(previous: PreviousHand) -> int:
    """The previous hand's winner; after a hand without winner, its opener."""
    return previous.winner_seat if previous.winner_seat is not None else previous.opener
