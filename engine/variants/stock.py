"""What the six games of seed 002 share: a stock, must-lay, the seams their rules fill in.

A game here declares its layout, matching rule, matadors, drawing rule, crosswise tiles,
points during play and hand end; :class:`engine.table.StockHand` plays any of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..board import Board, Piece
from ..deal import Deal
from ..errors import BadInputError
from ..events import HandEndReason, ScoreReason
from ..options import SET_SIX, Options
from ..tiles import End, Tile, full_set
from .base import HandScore, Opening, PreviousHand, Variant

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ..table import StockHand

Score = tuple[int, ScoreReason]  # points scored during play and why
NO_POINTS: tuple[Score, ...] = ()
SET_OPTION = SET_SIX
FULL_MASK = sum(t.bit for t in full_set(6))
SHOWS = tuple(sum(t.bit for t in full_set(6) if t.shows(n)) for n in range(7))


class StockGame(Variant):
    """Base of the games of seed 002 (double-6, a stock, must lay, draw, knock)."""

    layout: str = "line"  # "line", "spinner" (Muggins) or "ribbons" (Kolbasa)
    join_sum: int | None = None  # None: equal numbers join; else halves adding up to it
    matadors: frozenset[Tile] = frozenset()  # laid crosswise at any end
    matadors_along: bool = True  # a matador may also go along where it fits (not 0-0)
    draw_limit: int | None = None  # tiles a stuck player may draw in one turn (None: no limit)
    stock_reserve: int = 0  # tiles of the stock that are never drawn (Bergen: 2)
    skip_empty: bool = False  # a seat with no tiles and an empty stock is skipped
    deal_sizes: dict[int, int] = {}
    has_cut: bool = False
    points_in_play: bool = False  # most points come during play: points decide, not wins

    # --- table -------------------------------------------------------------------------
    def hand_size(self, options: Options, seats: int) -> int:
        return self.deal_sizes[seats]

    def stock_size(self, options: Options, seats: int) -> int:
        return 28 - seats * self.deal_sizes[seats]

    def new_hand(
        self,
        options: Options,
        deal: Deal,
        opening: Opening,
        number: int,
        scores_before: tuple[int, ...],
    ) -> StockHand:
        from ..table import StockHand

        return StockHand(self, options, deal, opening, number, scores_before)

    # --- laying ------------------------------------------------------------------------
    def lead_cross(self, tile: Tile) -> bool:
        """Whether the lead lies crosswise (the rules fix it)."""
        return False

    def joins(self, number: int, tile: Tile) -> int | None:
        """The half of ``tile`` that may touch an open ``number`` along, or None."""
        if self.join_sum is None:
            return number if tile.shows(number) else None
        if number == 0:
            return None  # nothing is laid along on a blank
        need = self.join_sum - number
        return need if 0 <= need <= 6 and tile.shows(need) else None

    def along(self, opens: tuple[int, ...], tile: Tile) -> Piece | None:
        for number in opens:
            half = self.joins(number, tile)
            if half is not None:
                return Piece(tile, half, tile.other_half(half), False)
        return None

    def ways(self, board: Board, end: End, tile: Tile) -> tuple[Piece, ...]:
        """Every legal way to lay ``tile`` at ``end``: along first, then crosswise."""
        opens = board.opens(end)
        out: list[Piece] = []
        if tile in self.matadors:
            if self.matadors_along and not tile.is_double:
                piece = self.along(opens, tile)
                if piece is not None:
                    out.append(piece)
            out.append(Piece(tile, tile.low, tile.high, True))
            return tuple(out)
        piece = self.along(opens, tile)
        return () if piece is None else (piece,)

    def lay_mask(self, board: Board) -> int:
        """The tiles that could be laid somewhere now, as a bit mask (cuts included): one
        AND with a hand says whether it can lay, as in the line games' fast path."""
        if board.center is None:
            return FULL_MASK
        fit = self.cut_mask(board)
        for end in board.arms:
            if self.end_open(board, end):
                fit |= self.end_fit(board, end)
        return fit

    def end_fit(self, board: Board, end: End) -> int:
        """The tiles that may be laid at ``end`` in some way (a superset :meth:`ways` sorts
        out: it is exact for every game here)."""
        fit = self.matador_mask
        total = self.join_sum
        for number in board.opens(end):
            if total is None:
                fit |= SHOWS[number]
            elif number and 0 <= total - number <= 6:
                fit |= SHOWS[total - number]
        return fit

    @property
    def matador_mask(self) -> int:
        return _mask(self.matadors)

    def cut_mask(self, board: Board) -> int:
        return 0

    def end_open(self, board: Board, end: End) -> bool:
        """Whether a tile may be laid at ``end`` now (Kolbasa keeps its ribbons level)."""
        return True

    # --- points during play ------------------------------------------------------------
    def lead_points(self, board: Board, piece: Piece) -> tuple[Score, ...]:
        return NO_POINTS

    def play_points(
        self, options: Options, board: Board, piece: Piece, end: End
    ) -> tuple[Score, ...]:
        if piece.cross and piece.tile in self.matadors and self.matador_score(options):
            return ((10, ScoreReason.MATADOR),)
        return NO_POINTS

    def matador_score(self, options: Options) -> bool:
        return False

    def knock_points(self, options: Options) -> tuple[Score, ...]:
        return NO_POINTS

    # --- the end of a hand -------------------------------------------------------------
    def out_seat(self, hand: StockHand, mover: int) -> int | None:
        """The seat whose empty hand ends the hand now, if any: by default the mover."""
        return mover if not hand.masks[mover] else None

    def blocked_by_table(self, hand: StockHand) -> bool:
        """Another way a hand blocks (French: no tile off the table fits anywhere)."""
        return False

    def score(
        self,
        options: Options,
        reason: HandEndReason,
        out_seat: int | None,
        totals: tuple[int, ...],
        hands: Sequence[Sequence[Tile]],
        dead: Sequence[Sequence[Tile]],
    ) -> HandScore:
        """Gaple's scoring (Kolbasa, Matador): the out seat, or the one lightest hand, takes
        the pips of every other hand; a tie for lightest scores nobody."""
        winner = out_seat if reason is HandEndReason.OUT else lightest(totals)
        points = [0] * len(totals)
        if winner is not None:
            points[winner] = sum(totals) - totals[winner]
        return HandScore(winner, tuple(points))

    def score_hand(
        self,
        options: Options,
        reason: HandEndReason,
        out_seat: int | None,
        hands: Sequence[Sequence[Tile]],
        scored: tuple[int, ...],
    ) -> HandScore:
        """The hand's result: the end-of-hand points plus those scored during play."""
        totals = self.totals(options, hands, [[] for _ in hands])
        end = self.score(options, reason, out_seat, totals, hands, [])
        return HandScore(end.winner, tuple(a + b for a, b in zip(end.points, scored, strict=True)))

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

    def settlement(self, scores: tuple[int, ...], winner: int | None) -> tuple[int, ...] | None:
        """What the bot shows as settled at the match end, apart from the scores (None:
        nothing; Six-matador: the seed's settlement)."""
        return None


def _mask(tiles: frozenset[Tile]) -> int:
    return sum(t.bit for t in tiles)


def lightest(totals: Sequence[int]) -> int | None:
    """The one seat with the fewest pips, or None on a tie."""
    low = min(totals)
    seats = [seat for seat, total in enumerate(totals) if total == low]
    return seats[0] if len(seats) == 1 else None


def holder(deal_hands: Sequence[Sequence[Tile]], tile: Tile) -> int:
    return next(seat for seat, hand in enumerate(deal_hands) if tile in hand)


def lot_opening(deal_lot: object, seats: int) -> Opening:
    if type(deal_lot) is not int or not 0 <= deal_lot < seats:
        raise BadInputError("this hand needs the seat chosen by lot ('first')")
    return Opening(deal_lot)


def winner_or_opener(previous: PreviousHand) -> int:
    """The previous hand's winner; after a hand without winner, its opener."""
    return previous.winner_seat if previous.winner_seat is not None else previous.opener
