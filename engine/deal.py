"""Deals: who holds what at the start of a hand. A deal plus the moves is the whole hand."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from .errors import BadInputError
from .tiles import Tile, full_set


@dataclass(frozen=True, slots=True)
class Deal:
    """The tiles each seat holds, the middle (face down), and the seat drawn by lot.

    ``turned_left`` is the half of ``middle[0]`` that lies towards the left when the game turns
    it up (``None``: its low half). ``lot`` is checked only by games that choose a seat by lot.
    """

    hands: tuple[tuple[Tile, ...], ...]
    middle: tuple[Tile, ...] = ()
    lot: int = 0
    turned_left: int | None = None
    stock: tuple[Tile, ...] = ()  # face down, in draw order (games with a stock)
    # The secret this deal was made from (:mod:`engine.fairness`), if it was: shown once the
    # hand is over, so that anyone can make the deal again. Never in a seat's view.
    seed: bytes | None = field(default=None, repr=False)

    @property
    def seats(self) -> int:
        return len(self.hands)

    def settled(self) -> Deal:
        """The same deal with the turned-up tile's lie spelled out, as a stored match has it."""
        if self.middle and self.turned_left is None:
            return replace(self, turned_left=self.middle[0].low)
        return self

    def validate(
        self, highest: int, hand_size: int, middle_size: int, seats: int, stock_size: int = 0
    ) -> None:
        """Raise :class:`BadInputError` unless this deal fits the table and the set."""
        if len(self.stock) != stock_size:
            raise BadInputError(f"the stock has {len(self.stock)} tiles, not {stock_size}")
        if len(self.hands) != seats:
            raise BadInputError(f"the deal has {len(self.hands)} hands for {seats} seats")
        for seat, hand in enumerate(self.hands):
            if len(hand) != hand_size:
                raise BadInputError(f"seat {seat} was dealt {len(hand)} tiles, not {hand_size}")
        if len(self.middle) != middle_size:
            raise BadInputError(f"the middle has {len(self.middle)} tiles, not {middle_size}")
        seen = 0
        for tile in [t for hand in self.hands for t in hand] + list(self.middle) + list(self.stock):
            if tile.high > highest:
                raise BadInputError(f"{tile} is not in the double-{highest} set")
            bit = 1 << tile.index
            if seen & bit:
                raise BadInputError(f"{tile} is dealt twice")
            seen |= bit
        if self.turned_left is not None and (
            not self.middle or not self.middle[0].shows(self.turned_left)
        ):
            raise BadInputError("the turned-up half is not on the middle tile")


def shuffle_deal(
    rng: random.Random,
    highest: int,
    seats: int,
    hand_size: int,
    middle_size: int,
    with_stock: bool = False,
) -> Deal:
    """Shuffle the double-``highest`` set with ``rng`` and deal it (see :func:`cut_deal`): for
    simulations and tests; the bot deals from a seed (:mod:`engine.fairness`)."""
    tiles = list(full_set(highest))
    rng.shuffle(tiles)
    return cut_deal(tiles, rng.randrange(seats), seats, hand_size, middle_size, with_stock)


def cut_deal(
    tiles: list[Tile],
    lot: int,
    seats: int,
    hand_size: int,
    middle_size: int,
    with_stock: bool = False,
    seed: bytes | None = None,
) -> Deal:
    """The shuffled ``tiles`` dealt in order: ``hand_size`` to each seat from seat 0, then the
    middle (its first tile turned up with its low half to the left); ``with_stock``: every
    tile not dealt goes to the stock, in the shuffled order."""
    hands = tuple([tuple(tiles[s : s + hand_size]) for s in range(0, seats * hand_size, hand_size)])
    start = seats * hand_size
    if with_stock:
        return Deal(hands, (), lot, None, tuple(tiles[start:]), seed)
    middle = tuple(tiles[start : start + middle_size])
    return Deal(hands, middle, lot, middle[0].low if middle else None, (), seed)
