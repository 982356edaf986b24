"""Deals anyone can check: a hand's deal made from a secret seed, committed to before play.

Before a hand is played, the group sees the seed's :func:`fingerprint`; when the hand ends,
the seed itself. From the seed alone anyone can make the deal again: the bytes come from
HMAC-SHA-256 in counter mode (:class:`SeedStream`), the numbers from them by rejection
(:meth:`SeedStream.below`), the order of the set by a Fisher-Yates shuffle (:func:`shuffled`),
and the deal is that order cut into hands, middle and stock (:func:`seeded_deal`). Every
step is specified in docs/FAIRNESS.md so that a checker can be written from that page alone;
this module is the reference, and nothing here reads a clock or the operating system's
randomness (the bot draws the seed).
"""

from __future__ import annotations

import hashlib
import hmac

from .deal import Deal, cut_deal
from .errors import BadInputError
from .tiles import Tile, full_set

SEED_BYTES = 32
FINGERPRINT_DIGITS = 16  # hex digits of SHA-256(seed): 64 bits, too many to find a second seed
_WORD = 4  # bytes a number is read from
_SPAN = 1 << (8 * _WORD)


def fingerprint(seed: bytes) -> str:
    """What the group sees before the hand: the first hex digits of SHA-256 of the seed."""
    return hashlib.sha256(seed).hexdigest()[:FINGERPRINT_DIGITS]


def parse_seed(text: object) -> bytes:
    """A seed written as its 64 hex digits; :class:`BadInputError` for anything else."""
    # bytes.fromhex alone would skip spaces: 64 characters with two of them are 31 bytes
    if (
        not isinstance(text, str)
        or len(text) != 2 * SEED_BYTES
        or not all(c in "0123456789abcdefABCDEF" for c in text)
    ):
        raise BadInputError(f"a seed is {2 * SEED_BYTES} hex digits")
    return bytes.fromhex(text)


class SeedStream:
    """The bytes HMAC-SHA-256(key=seed, message=counter as 8 bytes big-endian) for the counter
    0, 1, 2, ..., one after another, read as 32-bit big-endian numbers."""

    __slots__ = ("_seed", "_counter", "_buffer", "_at")

    def __init__(self, seed: bytes) -> None:
        if len(seed) != SEED_BYTES:
            raise BadInputError(f"a seed is {SEED_BYTES} bytes, not {len(seed)}")
        self._seed = seed
        self._counter = 0
        self._buffer = b""
        self._at = 0

    def __repr__(self) -> str:
        return f"<SeedStream block={self._counter} at={self._at}>"

    def word(self) -> int:
        """The next 4 bytes as an unsigned big-endian number."""
        if self._at + _WORD > len(self._buffer):
            # 32-byte blocks hold whole words: a block is never read across
            block = self._counter.to_bytes(8, "big")
            self._buffer = hmac.new(self._seed, block, hashlib.sha256).digest()
            self._counter += 1
            self._at = 0
        word = int.from_bytes(self._buffer[self._at:self._at + _WORD], "big")
        self._at += _WORD
        return word

    def below(self, n: int) -> int:
        """A number from 0 to ``n - 1``, each equally likely: words at or above the largest
        multiple of ``n`` under 2**32 are thrown away, the first other word is taken mod n."""
        if not 0 < n <= _SPAN:
            raise BadInputError(f"cannot draw a number below {n}")
        limit = _SPAN - _SPAN % n
        while True:
            word = self.word()
            if word < limit:
                return word % n


def shuffled(stream: SeedStream, highest: int) -> list[Tile]:
    """The double-``highest`` set in the order of :func:`full_set` (0-0, 0-1, 1-1, 0-2, ...),
    shuffled by Fisher-Yates: for i from the last place down to 1, swap place i with place
    ``stream.below(i + 1)``."""
    tiles = list(full_set(highest))
    for i in range(len(tiles) - 1, 0, -1):
        j = stream.below(i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles


def seeded_deal(
    stream: SeedStream,
    seed: bytes,
    highest: int,
    seats: int,
    hand_size: int,
    middle_size: int,
    with_stock: bool = False,
) -> Deal:
    """The next deal ``stream`` gives: the shuffled set cut into hands (seat 0 first), the
    middle, and (``with_stock``) every tile not dealt as the stock in draw order; then the seat
    drawn by lot, ``stream.below(seats)``. The deal remembers ``seed``."""
    tiles = shuffled(stream, highest)
    lot = stream.below(seats)
    return cut_deal(tiles, lot, seats, hand_size, middle_size, with_stock, seed)
