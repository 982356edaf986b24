"""Kolbasa: a line of two ribbons kept level, cut by the tile that shows both their ends."""

from __future__ import annotations

from ..board import LEFT, RIGHT, Board
from ..deal import Deal
from ..errors import BadInputError
from ..options import SET_SIX, Options, target
from ..seams import Opening, PreviousHand
from ..tiles import End, Tile
from .base import Variant
from .openings import doubles_from, holder, winner_or_opener

DOUBLES_UP = tuple(Tile(n, n) for n in (1, 2, 3, 4, 5, 6, 0))  # the first lead (D4)


class Kolbasa(Variant):
    name = "kolbasa"
    search_steps = 1200
    aliases = ("колбаса", "kolbasa-dominoes", "sausage")
    seat_counts = (2, 3, 4)
    option_specs = (SET_SIX, target(100))
    layout = "ribbons"
    has_cut = True
    keeps_scored = True
    deal_sizes = {2: 7, 3: 7, 4: 7}
    has_stock = True
    plays_on_tie = True

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
