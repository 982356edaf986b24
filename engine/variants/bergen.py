"""Bergen: two stock tiles are never drawn; equal ends (a double or a triple header) score
at once, and a hand is won outright for 2."""

from __future__ import annotations

from collections.abc import Sequence

from ..board import LEFT, RIGHT, Board, Piece
from ..deal import Deal
from ..events import DecidedBy, Decision, HandEndReason, ScoreReason
from ..options import SET_SIX, Options, target
from ..seams import NO_POINTS, HandEnd, HandScore, Opening, PreviousHand, Score
from ..tiles import End, Tile
from .base import Variant
from .openings import holder


class Bergen(Variant):
    name = "bergen"
    aliases = ("берген", "bergen-dominoes")
    seat_counts = (2, 3, 4)
    option_specs = (SET_SIX, target(10))
    draw_limit = 1
    stock_reserve = 2
    points_in_play = True
    keeps_scored = True
    deal_sizes = {2: 6, 3: 6, 4: 5}
    has_stock = True
    plays_on_tie = True

    def default_target(self, seats: int) -> int:
        return 15 if seats == 2 else 10  # D21

    def opening(self, options: Options, deal: Deal, previous: PreviousHand | None) -> Opening:
        dealt = [t for hand in deal.hands for t in hand]
        doubles = [t for t in dealt if t.is_double]
        lowest = min(doubles, key=lambda t: t.low) if doubles else min(
            dealt, key=lambda t: (t.pips, t.low)
        )
        return Opening(holder(deal.hands, lowest), (lowest,))

    def lead_cross(self, tile: Tile) -> bool:
        return tile.is_double

    def ways(self, board: Board, end: End, tile: Tile) -> tuple[Piece, ...]:
        piece = self.along(board.opens(end), tile)
        if piece is None:
            return ()
        return (Piece(tile, tile.low, tile.high, True),) if tile.is_double else (piece,)

    def lead_points(self, board: Board, piece: Piece) -> tuple[Score, ...]:
        return ((2, ScoreReason.DOUBLE_LEAD),) if piece.tile.is_double else NO_POINTS

    def pips_decide(self, reason: HandEndReason) -> bool:
        return reason is HandEndReason.BLOCKED  # going out scores 2, whatever is left (D20)

    def play_points(
        self, options: Options, board: Board, piece: Piece, end: End
    ) -> tuple[Score, ...]:
        if board.opens(LEFT) != board.opens(RIGHT):
            return NO_POINTS
        tiles = (board.end_piece(LEFT), board.end_piece(RIGHT))
        if any(p is not None and p.tile.is_double for p in tiles):
            return ((3, ScoreReason.TRIPLE_HEADER),)
        return ((2, ScoreReason.DOUBLE_HEADER),)

    def score(self, options: Options, end: HandEnd) -> HandScore:
        points = [0] * len(end.totals)
        decision = None
        if end.reason is HandEndReason.OUT:
            winner: int | None = end.out_seat
        else:
            winner, decision = blocked_result(end.totals, end.hands)
        if winner is not None:
            points[winner] = 2
        return HandScore(winner, tuple(points), decision)


def lowest_double_held(hands: Sequence[Sequence[Tile]]) -> Tile | None:
    """The lowest double in the hands when every player holds one (else None): what wins
    Bergen's blocked hand then (D20)."""
    if not all(any(t.is_double for t in hand) for hand in hands):
        return None
    return min((t for hand in hands for t in hand if t.is_double), key=lambda t: t.low)


def blocked_result(totals: Sequence[int], hands: Sequence[Sequence[Tile]]
                   ) -> tuple[int | None, Decision]:
    """D20: who wins a blocked hand, and why. If every player holds a double, the holder of
    the lowest (LOWEST_DOUBLE, with it); else the lightest hand of the players holding no
    double (NO_DOUBLE: the winner, then the others holding none), and a tie for the lightest
    of them is a drawn hand (NO_DOUBLE: the seats level on it)."""
    low = lowest_double_held(hands)
    if low is not None:
        winner = holder(hands, low)
        return winner, Decision(DecidedBy.LOWEST_DOUBLE, (winner,), (low,))
    plain = [seat for seat, hand in enumerate(hands) if not any(t.is_double for t in hand)]
    fewest = min(totals[seat] for seat in plain)
    lightest = tuple(seat for seat in plain if totals[seat] == fewest)
    if len(lightest) > 1:
        return None, Decision(DecidedBy.NO_DOUBLE, lightest)
    winner = lightest[0]
    return winner, Decision(DecidedBy.NO_DOUBLE,
                            (winner, *(seat for seat in plain if seat != winner)))


def bergen_blocked_winner(totals: Sequence[int], hands: Sequence[Sequence[Tile]]) -> int | None:
    """D20: the winner of a blocked hand (:func:`blocked_result`), None for a drawn one."""
    return blocked_result(totals, hands)[0]
