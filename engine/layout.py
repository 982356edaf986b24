"""The layout: a single line with two open ends.

Muggins' spinner and Kolbasa's two ribbons lie on :class:`engine.board.Board` instead (a lead
or base with arms growing from it); the hand only asks a layout for its open ends and to place
a tile at one.
"""

from __future__ import annotations

from collections import deque
from typing import NamedTuple

from .tiles import End, Tile


class Placed(NamedTuple):
    """A tile as it lies in the line: ``left`` half towards the left end.

    A named tuple rather than a dataclass: one is made per move, in the engine's hottest loop.
    """

    tile: Tile
    left: int
    right: int

    def __str__(self) -> str:
        return f"{self.left}-{self.right}"


class Line:
    """Tiles from left to right; ``left``/``right`` are the open numbers (``None`` when empty)."""

    __slots__ = ("placed", "left", "right")

    def __init__(self) -> None:
        self.placed: deque[Placed] = deque()
        self.left: int | None = None
        self.right: int | None = None

    def __len__(self) -> int:
        return len(self.placed)

    @property
    def ends(self) -> tuple[int, int] | None:
        if self.left is None or self.right is None:
            return None
        return (self.left, self.right)

    def start(self, tile: Tile, left_half: int) -> Placed:
        """Lay the first tile with ``left_half`` towards the left."""
        right_half = tile.other_half(left_half)
        placed = Placed(tile, left_half, right_half)
        self.placed.append(placed)
        self.left, self.right = left_half, right_half
        return placed

    def attach(self, tile: Tile, end: End) -> Placed:
        """Lay ``tile`` at ``end``; the caller has checked that it fits."""
        if end is End.LEFT:
            assert self.left is not None
            outer = tile.other_half(self.left)
            placed = Placed(tile, outer, self.left)
            self.placed.appendleft(placed)
            self.left = outer
        else:
            assert self.right is not None
            outer = tile.other_half(self.right)
            placed = Placed(tile, self.right, outer)
            self.placed.append(placed)
            self.right = outer
        return placed
