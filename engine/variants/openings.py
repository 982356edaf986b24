"""Who opens a hand: the ways several games choose the first player and the first tile."""

from __future__ import annotations

from collections.abc import Sequence

from ..deal import Deal
from ..errors import BadInputError
from ..seams import Opening, PreviousHand
from ..tiles import Tile


def holder(deal_hands: Sequence[Sequence[Tile]], tile: Tile) -> int:
    """The seat that holds ``tile``."""
    return next(seat for seat, hand in enumerate(deal_hands) if tile in hand)


def highest_double_lead(deal: Deal) -> Opening:
    """The holder of the highest double dealt must lead it."""
    best: Tile | None = None
    best_seat = 0
    for seat, hand in enumerate(deal.hands):
        for tile in hand:
            if tile.is_double and (best is None or tile.low > best.low):
                best, best_seat = tile, seat
    if best is None:
        raise BadInputError("no double was dealt, so nobody can lead the first hand")
    return Opening(best_seat, (best,))


def doubles_from(deal: Deal, start: int) -> Opening:
    """The first seat from ``start`` in turn order holding a double leads one of its own."""
    for step in range(deal.seats):
        seat = (start + step) % deal.seats
        held = tuple(t for t in deal.hands[seat] if t.is_double)
        if held:
            return Opening(seat, held)
    raise BadInputError("nobody holds a double, so nobody can lead this hand")


def lot_seat(deal: Deal) -> int:
    """The seat drawn by lot, checked only where a game uses it (elsewhere it is ignored)."""
    if type(deal.lot) is not int or not 0 <= deal.lot < deal.seats:
        raise BadInputError(f"the seat drawn by lot must be 0 to {deal.seats - 1}")
    return deal.lot


def lot_opening(deal_lot: object, seats: int) -> Opening:
    """The seat drawn by lot opens, with any tile (the games with a stock say "first")."""
    if type(deal_lot) is not int or not 0 <= deal_lot < seats:
        raise BadInputError("this hand needs the seat chosen by lot ('first')")
    return Opening(deal_lot)


def winner_or_opener(previous: PreviousHand) -> int:
    """The previous hand's winner; after a hand without winner, its opener."""
    return previous.winner_seat if previous.winner_seat is not None else previous.opener
