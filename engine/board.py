"""The board, every layout but the plain line: a lead (or Kolbasa's base) with arms growing
from it.

A line is the lead with a ``left`` and a ``right`` arm; Muggins adds ``up`` and ``down`` arms
from its spinner; Kolbasa's two ribbons are the base's ``left`` and ``right`` arms, and a cut
makes a new base. A tile lies along (its ``inner`` half touching, ``outer`` open) or crosswise
(both its numbers open: a matador; a crosswise double shows its number).
"""

from __future__ import annotations

from typing import NamedTuple

from .tiles import End, Tile

LEFT, RIGHT, UP, DOWN = End.LEFT, End.RIGHT, End.UP, End.DOWN


class Piece(NamedTuple):
    """A laid tile: along, ``inner`` towards the lead and ``outer`` open; crosswise, ``inner``
    and ``outer`` are its low and high halves. The lead: ``inner`` faces left."""

    tile: Tile
    inner: int
    outer: int
    cross: bool

    def opens(self) -> tuple[int, ...]:
        """The numbers a tile may join at this piece when it ends an arm."""
        if self.cross:
            return (self.inner,) if self.inner == self.outer else (self.inner, self.outer)
        return (self.outer,)


class Board:
    """A lead and its arms, the spinner (Muggins) and the tiles cut off (Kolbasa)."""

    __slots__ = ("center", "arms", "spinner", "off")

    def __init__(self) -> None:
        self.center: Piece | None = None
        self.arms: dict[End, list[Piece]] = {LEFT: [], RIGHT: []}
        self.spinner: tuple[End | None, int] | None = None  # (arm or None: the lead, index)
        self.off: list[Tile] = []

    def copy(self) -> Board:
        twin = Board()
        twin.center = self.center
        twin.arms = {end: list(arm) for end, arm in self.arms.items()}
        twin.spinner = self.spinner
        twin.off = list(self.off)
        return twin

    # --- reading -----------------------------------------------------------------------
    def spinner_piece(self) -> Piece | None:
        if self.spinner is None:
            return None
        arm, index = self.spinner
        return self.center if arm is None else self.arms[arm][index]

    def ends(self) -> tuple[End, ...]:
        return tuple(self.arms)

    def opens(self, end: End) -> tuple[int, ...]:
        """The numbers open at ``end`` (the lead's or the spinner's when the arm is empty)."""
        arm = self.arms[end]
        if arm:
            return arm[-1].opens()
        return self.base_opens(end)

    def base_opens(self, end: End) -> tuple[int, ...]:
        """The numbers open at ``end`` before its arm's first tile: the lead's (Kolbasa: the
        base's) or, on Muggins' up and down arms, the spinner's."""
        if end is UP or end is DOWN:
            spinner = self.spinner_piece()
            assert spinner is not None
            return (spinner.inner,)
        center = self.center
        assert center is not None
        if center.cross:
            return center.opens()
        return (center.inner,) if end is LEFT else (center.outer,)

    def end_piece(self, end: End) -> Piece | None:
        """The tile at ``end`` (for a line end, the lead when the arm is empty)."""
        arm = self.arms[end]
        if arm:
            return arm[-1]
        return self.center if end in (LEFT, RIGHT) else None

    def line(self) -> list[Piece]:
        """The main line from left to right (the left arm reversed)."""
        if self.center is None:
            return []
        return [*reversed(self.arms[LEFT]), self.center, *self.arms[RIGHT]]

    def line_index(self, arm: End | None, index: int) -> int:
        left = len(self.arms[LEFT])
        if arm is None:
            return left
        return left - 1 - index if arm is LEFT else left + 1 + index

    def tiles(self) -> list[Tile]:
        """Every tile on the table in play (not those cut off)."""
        out = [] if self.center is None else [self.center.tile]
        for arm in self.arms.values():
            out.extend(p.tile for p in arm)
        return out

    def count(self) -> int:
        """Muggins' count: the open ends added up (a crosswise double counts both halves)."""
        return sum(sum(self.counted(end)) for end in self.arms)

    def counted(self, end: End) -> tuple[int, ...]:
        """The halves ``end`` adds to the count: both of a crosswise double, one of a tile
        along, none for an empty spinner arm; a line of one tile counts its halves once,
        the left one at ``left`` and the right one at ``right``."""
        center = self.center
        if center is None:
            return ()
        if end is UP or end is DOWN:
            arm = self.arms[end]
            return _end_halves(arm[-1], end, None) if arm else ()
        if not self.arms[LEFT] and not self.arms[RIGHT]:
            return (center.inner,) if end is LEFT else (center.outer,)
        return _end_halves(self.end_piece(end), end, center)

    # --- laying ------------------------------------------------------------------------
    def lead(self, tile: Tile, left_half: int, cross: bool) -> Piece:
        piece = Piece(tile, tile.low, tile.high, True) if cross else Piece(
            tile, left_half, tile.other_half(left_half), False
        )
        self.center = piece
        return piece

    def attach(self, end: End, piece: Piece) -> int:
        """Lay ``piece`` at ``end``; the index it got in its arm."""
        arm = self.arms[end]
        arm.append(piece)
        return len(arm) - 1

    def open_spinner(self, arm: End | None, index: int) -> None:
        self.spinner = (arm, index)
        self.arms[UP] = []
        self.arms[DOWN] = []


def _end_halves(piece: Piece | None, end: End, center: Piece | None) -> tuple[int, ...]:
    """What one end adds to the count: a crosswise double both halves, else its open half
    (the lead's left half at an empty left arm)."""
    if piece is None:
        return ()
    if piece.cross:
        return (piece.inner, piece.outer)
    return (piece.inner,) if piece is center and end is LEFT else (piece.outer,)
