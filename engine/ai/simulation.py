"""The engine's inside that the computer players simulate with, imported here only.

A search replays the public history and plays hands out on the engine's own hands (forked,
never rebuilt by hand), so the rules it plays by are the engine's. Those hands, the board a
layout is rebuilt on and the tile masks are engine internals: every module of the computer
players takes them from here, so a change inside the engine is met in this one place.
"""

from __future__ import annotations

from ..board import DOWN, LEFT, RIGHT, UP, Board, Piece
from ..deal import Deal
from ..hand_board import BoardHand
from ..hand_line import AT_LEFT, AT_RIGHT, LineHand, plays_at
from ..masks import SHOWS, TILE_AT, mask_of, tiles_of
from ..match import plays_on_line
from ..options import Options
from ..seams import Opening
from ..variants import Variant

__all__ = [
    "AT_LEFT", "AT_RIGHT", "DOWN", "LEFT", "RIGHT", "SHOWS", "TILE_AT", "UP", "Board",
    "BoardHand", "Deal", "LineHand", "Opening", "Piece", "board_hand", "line_hand", "mask_of",
    "plays_at", "plays_on_line", "put_on", "tiles_of",
]


def line_hand(game: Variant, options: Options, deal: Deal, opening: Opening,
              number: int) -> LineHand:
    """A new hand of a game the engine plays on its plain line (the bit-mask fast path)."""
    return LineHand(game, options, deal, opening, number)


def board_hand(
    game: Variant,
    options: Options,
    deal: Deal,
    opening: Opening,
    number: int,
    board: Board,
    scored: tuple[int, ...],
    draws: int,
    to_move: int,
) -> BoardHand:
    """A hand on the board as it stands now: ``board`` (copied), the points scored so far,
    the tiles the seat to move has drawn this turn."""
    hand = BoardHand(game, options, deal, opening, number)
    hand.board = board.copy()
    hand.scored = list(scored)
    hand.draws = draws
    hand.to_move = to_move
    return hand


def put_on(hand: BoardHand, board: Board, seat: int, held: int) -> None:
    """Set a scratch ``hand`` (read for its rules only, spoilt after) on ``board`` with
    ``seat`` holding the tiles of mask ``held``: to ask what any of them could do there."""
    hand.board = board
    hand.masks[seat] = held
