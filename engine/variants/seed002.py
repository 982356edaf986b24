"""The six games of seed 002 (docs/RULES.md): Kolbasa, Matador, Six-matador, French,
Muggins and Bergen, each a small declaration over :class:`StockGame`'s seams."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..board import DOWN, LEFT, RIGHT, UP, Board, Piece
from ..deal import Deal
from ..errors import BadInputError
from ..events import HandEndReason, ScoreReason
from ..options import Options, choice, target
from ..tiles import End, Tile
from .base import NO_POINTS, HandScore, Opening, PreviousHand, Score, lightest
from .stock import SET_OPTION, StockGame, holder, lot_opening, winner_or_opener

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ..machine import HandCore

DOUBLES_UP = tuple(Tile(n, n) for n in (1, 2, 3, 4, 5, 6, 0))  # Kolbasa's first lead (D4)
MATADORS_7 = frozenset({Tile(6, 1), Tile(5, 2), Tile(4, 3), Tile(0, 0)})
MATADORS_6 = frozenset({Tile(0, 6), Tile(1, 5), Tile(2, 4), Tile(3, 3), Tile(0, 0)})


def doubles_from(deal: Deal, start: int) -> Opening:
    """The first seat from ``start`` in turn order holding a double leads one of its own."""
    for step in range(deal.seats):
        seat = (start + step) % deal.seats
        held = tuple(t for t in deal.hands[seat] if t.is_double)
        if held:
            return Opening(seat, held)
    raise BadInputError("nobody holds a double, so nobody can lead this hand")


class Kolbasa(StockGame):
    name = "kolbasa"
    aliases = ("колбаса", "kolbasa-dominoes", "sausage")
    seat_counts = (2, 3, 4)
    option_specs = (SET_OPTION, target(100))
    layout = "ribbons"
    deal_sizes = {2: 7, 3: 7, 4: 7}
    has_cut = True

    def opening(self, options: Options, deal: Deal, previous: PreviousHand | None) -> Opening:
        if previous is None:
            dealt = {t for hand in deal.hands for t in hand}
            for double in DOUBLES_UP:
                if double in dealt:
                    return Opening(holder(deal.hands, double), (double,))
            raise BadInputError("no double was dealt, so nobody can lead: deal again")
        return doubles_from(deal, winner_or_opener(previous))

    def end_open(self, board: Board, end: End) -> bool:
        left, right = len(board.arms[LEFT]), len(board.arms[RIGHT])
        return left <= right if end is LEFT else right <= left

    def cut_mask(self, board: Board) -> int:
        level = len(board.arms[LEFT])
        if level < 1 or len(board.arms[RIGHT]) != level:
            return 0
        return Tile(board.opens(LEFT)[0], board.opens(RIGHT)[0]).bit


class Matador(StockGame):
    name = "matador"
    aliases: tuple[str, ...] = ("матадор", "matador-dominoes")
    seat_counts = (2, 3, 4)
    option_specs = (SET_OPTION, target(100), choice("matador_points", False, True))
    join_sum = 7
    matadors = MATADORS_7
    draw_limit = 1
    skip_empty = True
    deal_sizes = {2: 6, 3: 6, 4: 5}

    def opening(self, options: Options, deal: Deal, previous: PreviousHand | None) -> Opening:
        return lot_opening(deal.lot, deal.seats)

    def lead_cross(self, tile: Tile) -> bool:
        return tile is Tile(0, 0)

    def matador_score(self, options: Options) -> bool:
        return options.matador_points

    def out_seat(self, hand: HandCore, mover: int) -> int | None:
        return None  # the hand ends only blocked (D10)


class SixMatador(Matador):
    name = "six-matador"
    aliases = ("шестерной-матадор", "шестерной", "sixmatador", "matador-6")  # six_matador: by key
    option_specs = (SET_OPTION, target(100), choice("scoring", "strict", "simple"))
    join_sum = 6
    matadors = MATADORS_6
    matadors_along = False  # always crosswise (D24)
    points_in_play = True
    deal_sizes = {2: 6, 3: 6, 4: 7}

    def lead_cross(self, tile: Tile) -> bool:
        return tile is Tile(0, 0) or tile is Tile(3, 3)

    def matador_score(self, options: Options) -> bool:
        return True

    def play_points(
        self, options: Options, board: Board, piece: Piece, end: End
    ) -> tuple[Score, ...]:
        if piece.cross:
            return ((10, ScoreReason.MATADOR),)
        if options.scoring != "strict":
            return NO_POINTS
        if piece.outer == 6:
            return ((1, ScoreReason.JOINT), (5, ScoreReason.FREE_SIX))
        return ((1, ScoreReason.JOINT),)

    def knock_points(self, options: Options) -> tuple[Score, ...]:
        return ((-6, ScoreReason.KNOCK),) if options.scoring == "strict" else NO_POINTS

    def pips_decide(self, reason: HandEndReason) -> bool:
        return False  # a hand's points are those scored in it, its winner has the most

    def settlement(self, scores: tuple[int, ...], winner: int | None) -> tuple[int, ...] | None:
        """D25: the winner receives from each other seat the difference between their two
        scores (shown, not added to any score); per seat, what it receives (negative: pays)."""
        if winner is None:
            return None
        paid = [scores[seat] - scores[winner] for seat in range(len(scores))]
        paid[winner] = -sum(paid)
        return tuple(paid)

    def score_hand(
        self,
        options: Options,
        reason: HandEndReason,
        out_seat: int | None,
        hands: Sequence[Sequence[Tile]],
        scored: tuple[int, ...],
        dead: Sequence[Sequence[Tile]] = (),
        totals: tuple[int, ...] | None = None,
    ) -> HandScore:
        best = max(scored)
        leaders = [seat for seat, points in enumerate(scored) if points == best]
        return HandScore(leaders[0] if len(leaders) == 1 else None, scored)


class French(StockGame):
    name = "french"
    aliases = ("французская", "французская-партия", "french-dominoes", "francuzskaya")
    seat_counts = (2, 3, 4, 5)
    option_specs = (SET_OPTION, target(101))
    lowest_total_wins = True
    join_sum = 7
    matadors = MATADORS_7
    deal_sizes = {2: 5, 3: 5, 4: 5, 5: 5}

    def opening(self, options: Options, deal: Deal, previous: PreviousHand | None) -> Opening:
        top = max((t for hand in deal.hands for t in hand), key=lambda t: (t.pips, t.high))
        return Opening(holder(deal.hands, top), (top,))

    def out_seat(self, hand: HandCore, mover: int) -> int | None:
        if hand.stock_left:
            return None
        return next((seat for seat, mask in enumerate(hand.masks) if not mask), None)

    def blocked_by_table(self, hand: HandCore) -> bool:
        if not hand.laid:
            return False
        off_table = sum(t.bit for t in hand.stock[hand.drawn :]) | sum(hand.masks)
        return not off_table & hand.lay_mask()

    def score(
        self,
        options: Options,
        reason: HandEndReason,
        out_seat: int | None,
        totals: tuple[int, ...],
        hands: Sequence[Sequence[Tile]],
        dead: Sequence[Sequence[Tile]],
    ) -> HandScore:
        return HandScore(lightest(totals), totals)  # penalty points: each seat's own pips


class Muggins(StockGame):
    name = "muggins"
    aliases = ("маггинс", "all-fives", "fives")
    seat_counts = (2, 3, 4)
    option_specs = (SET_OPTION, target(200))
    layout = "spinner"
    points_in_play = True
    deal_sizes = {2: 7, 3: 5, 4: 5}

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

    def score(
        self,
        options: Options,
        reason: HandEndReason,
        out_seat: int | None,
        totals: tuple[int, ...],
        hands: Sequence[Sequence[Tile]],
        dead: Sequence[Sequence[Tile]],
    ) -> HandScore:
        points = [0] * len(totals)
        if reason is HandEndReason.OUT:
            assert out_seat is not None
            points[out_seat] = 10
            return HandScore(out_seat, tuple(points))
        winner = lightest(totals)
        if winner is not None:
            points[winner] = nearest_five(sum(totals) - 2 * totals[winner])
        return HandScore(winner, tuple(points))


def _fives(board: Board) -> tuple[Score, ...]:
    count = board.count()
    return ((count, ScoreReason.FIFTEEN),) if count and count % 5 == 0 else NO_POINTS


def nearest_five(points: int) -> int:
    """Rounded to the nearest multiple of 5: a remainder of 1-2 down, 3-4 up."""
    return (points + 2) // 5 * 5


class Bergen(StockGame):
    name = "bergen"
    aliases = ("берген", "bergen-dominoes")
    seat_counts = (2, 3, 4)
    option_specs = (SET_OPTION, target(10))
    draw_limit = 1
    stock_reserve = 2
    points_in_play = True
    deal_sizes = {2: 6, 3: 6, 4: 5}

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

    def score(
        self,
        options: Options,
        reason: HandEndReason,
        out_seat: int | None,
        totals: tuple[int, ...],
        hands: Sequence[Sequence[Tile]],
        dead: Sequence[Sequence[Tile]],
    ) -> HandScore:
        points = [0] * len(totals)
        low = None
        if reason is HandEndReason.OUT:
            winner: int | None = out_seat
        else:
            winner = bergen_blocked_winner(totals, hands)
            low = lowest_double_held(hands)
        if winner is not None:
            points[winner] = 2
        return HandScore(winner, tuple(points), low)


def lowest_double_held(hands: Sequence[Sequence[Tile]]) -> Tile | None:
    """The lowest double in the hands when every player holds one (else None): what wins
    Bergen's blocked hand then (D20)."""
    if not all(any(t.is_double for t in hand) for hand in hands):
        return None
    return min((t for hand in hands for t in hand if t.is_double), key=lambda t: t.low)


def bergen_blocked_winner(totals: Sequence[int], hands: Sequence[Sequence[Tile]]) -> int | None:
    """D20: the lightest of the players holding no double (a tie: nobody); if every player
    holds a double, the holder of the lowest double."""
    low = lowest_double_held(hands)
    if low is not None:
        return holder(hands, low)
    plain = [seat for seat, hand in enumerate(hands) if not any(t.is_double for t in hand)]
    fewest = min(totals[seat] for seat in plain)
    seats = [seat for seat in plain if totals[seat] == fewest]
    return seats[0] if len(seats) == 1 else None


SEED_002 = (Kolbasa(), Matador(), SixMatador(), French(), Muggins(), Bergen())
__all__ = ["DOWN", "RIGHT", "SEED_002", "UP"]
