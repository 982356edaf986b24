"""Tiles, sets and the ends of a layout.

Tiles are interned: ``Tile(3, 5) is Tile(5, 3)`` holds, so identity, equality and hashing all
agree and are cheap, which matters because AI players replay thousands of hands per decision.
"""

from __future__ import annotations

import enum
from functools import cache

from .errors import BadInputError, shown

MAX_PIPS = 12


class End(enum.Enum):
    """An open end of the layout: the line's two ends, Muggins' spinner arms, Kolbasa's
    ribbons (``left`` and ``right``)."""

    LEFT = "left"
    RIGHT = "right"
    UP = "up"
    DOWN = "down"

    def __repr__(self) -> str:
        return f"End.{self.name}"

    # Members are singletons compared by identity, so identity's hash serves: Enum's own
    # hashes the name in Python, and the board looks its arms up by end in every move.
    __hash__ = object.__hash__


class Tile:
    """One domino: two halves ``low <= high``. Written ``"low-high"``.

    >>> Tile(5, 3)
    Tile(3, 5)
    >>> str(Tile.parse("6-2")), Tile(4, 4).pips, Tile(4, 4).is_double
    ('2-6', 8, True)
    """

    __slots__ = ("low", "high", "pips", "is_double", "index", "bit")
    _interned: dict[tuple[int, int], Tile] = {}

    low: int
    high: int
    pips: int
    is_double: bool
    index: int
    bit: int  # 1 << index: a hand is the sum (the OR) of its tiles' bits

    def __new__(cls, a: int, b: int) -> Tile:
        try:
            return cls._interned[(a, b)]  # both orders are interned
        except (KeyError, TypeError):
            pass
        if (
            type(a) is not int
            or type(b) is not int
            or not (0 <= a <= MAX_PIPS and 0 <= b <= MAX_PIPS)
        ):
            raise BadInputError(f"no such tile: {a}-{b}")
        low, high = (a, b) if a <= b else (b, a)
        tile = super().__new__(cls)
        object.__setattr__(tile, "low", low)
        object.__setattr__(tile, "high", high)
        object.__setattr__(tile, "pips", low + high)
        object.__setattr__(tile, "is_double", low == high)
        # Position in the double-12 set ordered by (high, low): a dense, stable index.
        object.__setattr__(tile, "index", high * (high + 1) // 2 + low)
        object.__setattr__(tile, "bit", 1 << tile.index)
        cls._interned[(low, high)] = cls._interned[(high, low)] = tile
        return tile

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Tile is immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.low, self.high))

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: object) -> Tile:
        return self

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Tile) -> bool:
        return (self.high, self.low) < (other.high, other.low)

    def __repr__(self) -> str:
        return f"Tile({self.low}, {self.high})"

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    def shows(self, number: int) -> bool:
        """Whether either half shows ``number``."""
        return self.low == number or self.high == number

    def other_half(self, number: int) -> int:
        """The half opposite ``number`` (which the tile must show)."""
        return self.high if self.low == number else self.low

    @staticmethod
    def parse(text: object) -> Tile:
        """Parse ``"a-b"`` (either order). Raises :class:`BadInputError` otherwise."""
        halves = parse_halves(text)
        return Tile(*halves)


def parse_halves(text: object) -> tuple[int, int]:
    """Parse ``"a-b"`` keeping its order: the first tile of a line is laid as written."""
    if not isinstance(text, str):
        raise BadInputError(f"a tile is written a-b, not {shown(text)}")
    parts = text.strip().split("-")
    if len(parts) != 2 or not all(p.isdigit() and p.isascii() for p in parts):
        raise BadInputError(f"a tile is written a-b, not {shown(text)}")
    # int() refuses 4,300 digits and more (leading zeros too), with a ValueError of its own
    digits = [p.lstrip("0") or "0" for p in parts]
    if any(len(d) > 2 for d in digits):
        raise BadInputError(f"no such tile: {shown(text)}")
    a, b = int(digits[0]), int(digits[1])
    if a > MAX_PIPS or b > MAX_PIPS:
        raise BadInputError(f"no such tile: {shown(text)}")
    return a, b


@cache
def full_set(highest: int) -> tuple[Tile, ...]:
    """Every tile of the double-``highest`` set, ordered by (high, low)."""
    if highest not in (6, 9, 12):
        raise BadInputError(f"there is no double-{highest} set here (6, 9 or 12)")
    return tuple(Tile(low, high) for high in range(highest + 1) for low in range(high + 1))


def doubles(tiles: tuple[Tile, ...] | list[Tile]) -> list[Tile]:
    """The doubles among ``tiles``, lowest first."""
    return sorted((t for t in tiles if t.is_double), key=lambda t: t.low)
