"""Muggins (all fives): a spinner opens four ways; each count of the ends that is a multiple
of five scores at once."""

from __future__ import annotations

from ..board import Board, Piece
from ..deal import Deal
from ..events import HandEndReason, ScoreReason
from ..options import SET_SIX, Options, target
from ..seams import NO_POINTS, HandEnd, HandScore, Opening, PreviousHand, Score
from ..tiles import End, Tile
from .base import Variant
from .openings import lot_opening, winner_or_opener
from .scoring import lightest, nearest_five


class Muggins(Variant):
    name = "muggins"
    search_steps = 600
    aliases = ("маггинс", "all-fives", "fives")
    seat_counts = (2, 3, 4)
    option_specs = (SET_SIX, target(200))
    layout = "spinner"
    points_in_play = True
    keeps_scored = True
    scores_count = True
    deal_sizes = {2: 7, 3: 5, 4: 5}
    has_stock = True
    plays_on_tie = True

    def opening(self, options: Options, deal: Deal, previous: PreviousHand | None) -> Opening:
        if previous is None:
            return lot_opening(deal.lot, deal.seats)
        return Opening(winner_or_opener(previous))

    def lead_cross(self, tile: Tile) -> bool:
        return tile.is_double  # the spinner

    def ways(self, board: Board, end: End, tile: Tile) -> tuple[Piece, ...]:
        piece = self.along(board.opens(end), tile)
        if piece is None or not tile.is_double:
            return () if piece is None else (piece,)
        cross = Piece(tile, tile.low, tile.high, True)
        return (cross,) if board.spinner is None else (piece, cross)

    def lead_points(self, board: Board, piece: Piece) -> tuple[Score, ...]:
        return _fives(board)

    def pips_decide(self, reason: HandEndReason) -> bool:
        return reason is HandEndReason.BLOCKED  # going out scores 10, whatever is left

    def play_points(
        self, options: Options, board: Board, piece: Piece, end: End
    ) -> tuple[Score, ...]:
        return _fives(board)

    def score(self, options: Options, end: HandEnd) -> HandScore:
        totals = end.totals
        points = [0] * len(totals)
        if end.reason is HandEndReason.OUT:
            assert end.out_seat is not None
            points[end.out_seat] = 10
            return HandScore(end.out_seat, tuple(points))
        winner = lightest(totals)
        if winner is not None:
            points[winner] = nearest_five(sum(totals) - 2 * totals[winner])
        return HandScore(winner, tuple(points))


def _fives(board: Board) -> tuple[Score, ...]:
    count = board.count()
    return ((count, ScoreReason.FIFTEEN),) if count and count % 5 == 0 else NO_POINTS
