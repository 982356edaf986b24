"""An independent checker of the bot's deals, written from docs/FAIRNESS.md alone.

It does not import the engine (nor anything but :mod:`hashlib` and :mod:`hmac`): it is the
page's specification in code, so that a test comparing it with the engine compares two
implementations, and an end-to-end test can recompute a deal the way a player would.

    >>> seed = bytes(range(32))
    >>> fingerprint(seed)
    '630dcd2966c43366'
    >>> deal = next(deals(seed, highest=6, seats=4, hand_size=7, middle_size=0, with_stock=False))
    >>> len(deal.hands), len(deal.hands[0]), deal.lot in range(4)
    (4, 7, True)

A tile is a ``(low, high)`` tuple with ``low <= high``.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator
from dataclasses import dataclass

Tile = tuple[int, int]  # (low, high), low <= high

SEED_BYTES = 32
FINGERPRINT_DIGITS = 16
_SPAN = 2**32


def fingerprint(seed: bytes) -> str:
    """The commitment shown before a hand: the first 16 hex digits (lower case) of the
    SHA-256 of the 32 raw seed bytes."""
    return hashlib.sha256(seed).hexdigest()[:FINGERPRINT_DIGITS]


def words(seed: bytes) -> Iterator[int]:
    """The seed's stream of 32-bit numbers: block k is HMAC-SHA-256 with the seed as key and
    k as 8 bytes big-endian as message (k = 0, 1, 2, ...); each 32-byte block is read as
    eight big-endian 4-byte unsigned numbers, in order."""
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a seed is {SEED_BYTES} bytes, not {len(seed)}")
    counter = 0
    while True:
        block = hmac.new(seed, counter.to_bytes(8, "big"), hashlib.sha256).digest()
        for at in range(0, 32, 4):
            yield int.from_bytes(block[at : at + 4], "big")
        counter += 1


def below(stream: Iterator[int], n: int) -> int:
    """A number from 0 to n - 1: the next word under 2**32 - (2**32 mod n), mod n (words at
    or above that limit are skipped)."""
    limit = _SPAN - _SPAN % n
    for word in stream:
        if word < limit:
            return word % n
    raise AssertionError("the stream never ends")


def full_set(highest: int) -> list[Tile]:
    """The double-``highest`` set in the specified order: by high half, then low half
    (0-0, 0-1, 1-1, 0-2, 1-2, 2-2, 0-3, ...)."""
    return [(low, high) for high in range(highest + 1) for low in range(high + 1)]


def shuffle(stream: Iterator[int], highest: int) -> list[Tile]:
    """Fisher-Yates over :func:`full_set`: for i from the last position down to 1, swap the
    tiles at positions i and ``below(i + 1)``."""
    tiles = full_set(highest)
    for i in range(len(tiles) - 1, 0, -1):
        j = below(stream, i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles


@dataclass(frozen=True)
class CheckedDeal:
    """One deal of a seed's stream: ``hands[s]`` is seat s's tiles in the order dealt;
    ``middle`` the face-down middle (``middle[0]`` turned up, its low half to the left);
    ``stock`` the stock in draw order (games with a stock); ``lot`` the seat drawn by lot."""

    hands: list[list[Tile]]
    middle: list[Tile]
    stock: list[Tile]
    lot: int

    @property
    def double_in_hand(self) -> bool:
        """Whether some seat was dealt a double (the middle and the stock do not count): a
        deal without one is skipped in the games that must open with a double."""
        return any(low == high for hand in self.hands for low, high in hand)


def deals(
    seed: bytes,
    highest: int,
    seats: int,
    hand_size: int,
    middle_size: int,
    with_stock: bool,
) -> Iterator[CheckedDeal]:
    """The 1st, 2nd, ... deal of ``seed``'s stream (endless): each is a shuffle of the
    double-``highest`` set, then ``lot = below(seats)``, both read from the one stream; the
    shuffled list is cut into ``hand_size`` tiles for seat 0, then seat 1, ..., then either
    ``middle_size`` middle tiles or (``with_stock``) every remaining tile as the stock."""
    stream = words(seed)
    while True:
        tiles = shuffle(stream, highest)
        lot = below(stream, seats)
        hands = [tiles[s * hand_size : (s + 1) * hand_size] for s in range(seats)]
        rest = tiles[seats * hand_size :]
        if with_stock:
            yield CheckedDeal(hands, [], rest, lot)
        else:
            yield CheckedDeal(hands, rest[:middle_size], [], lot)
