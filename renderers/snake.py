"""Where each tile of the line goes: a snake that turns at the edges of its area.

The line runs left to right along the first row; a tile that would leave no room for a turn
becomes the corner, standing, and the next row runs back the other way beneath it, so matching
halves always touch. The largest tile size whose snake fits the area is chosen, so an opening
is drawn big and a 91-tile double-12 line still fits. Pure geometry: no Pillow here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import Placed, Tile

LARGEST_SIDE = 60
SMALLEST_SIDE = 16


@dataclass(frozen=True, slots=True)
class Spot:
    """One tile's place: top-left corner, halves as drawn (left/top first), standing or not."""

    tile: Tile
    x: int
    y: int
    first: int
    second: int
    vertical: bool
    side: int

    @property
    def box(self) -> tuple[int, int, int, int]:
        """(left, top, right, bottom)."""
        across, along = (self.side, 2 * self.side) if self.vertical else (2 * self.side, self.side)
        return (self.x, self.y, self.x + across, self.y + along)


@dataclass(frozen=True, slots=True)
class EndMark:
    """An open end's number, drawn as a badge centred at (x, y) beyond the end tile."""

    number: int
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Snake:
    side: int  # a half's side in pixels: tiles are side x 2*side
    gap: int
    badge_radius: int
    spots: tuple[Spot, ...]
    ends: tuple[EndMark, ...]  # (left end, right end), or () for an empty line
    width: int
    height: int
    rows: int  # each turn starts a row


def gap_for(side: int) -> int:
    return max(3, side // 12)


def badge_radius_for(side: int) -> int:
    return max(19, side // 2)


def _lay(line: Sequence[Placed], across: bool, side: int, inner: int) -> Snake:
    """The snake at one tile size, in coordinates whose origin is the top-left of its box."""
    gap, radius = gap_for(side), badge_radius_for(side)
    pitch = 2 * side + gap
    half = side // 2
    spots: list[Spot] = []
    row, direction, cursor, after_corner = 0, 1, 0, False
    last_index = len(line) - 1
    for index, placed in enumerate(line):
        standing = across and placed.tile.is_double and not after_corner
        extent = side if standing else 2 * side
        centre = row * pitch
        room = inner - cursor if direction == 1 else cursor
        fits = room >= extent + gap + side or (index == last_index and room >= extent)
        if fits:
            left = cursor if direction == 1 else cursor - extent
            if standing:
                spots.append(
                    Spot(placed.tile, left, centre - side, placed.left, placed.right, True, side)
                )
            else:
                first, second = (
                    (placed.left, placed.right) if direction == 1 else (placed.right, placed.left)
                )
                spots.append(Spot(placed.tile, left, centre - half, first, second, False, side))
            cursor = left + extent + gap if direction == 1 else left - gap
            after_corner = False
        else:
            # The corner stands; its top half continues this row, its bottom half the next.
            left = cursor if direction == 1 else cursor - side
            spots.append(
                Spot(placed.tile, left, centre - half, placed.left, placed.right, True, side)
            )
            row += 1
            cursor = left + side if direction == 1 else left
            direction = -direction
            after_corner = True
    ends: list[EndMark] = []
    if spots:
        first_spot, last_spot = spots[0], spots[-1]
        ends.append(EndMark(line[0].left, first_spot.x - gap - radius, 0))
        if after_corner:  # the line ends on a corner: its open half faces down
            ends.append(
                EndMark(line[-1].right, last_spot.x + half, last_spot.y + 2 * side + gap + radius)
            )
        elif direction == 1:
            ends.append(EndMark(line[-1].right, last_spot.box[2] + gap + radius, row * pitch))
        else:
            ends.append(EndMark(line[-1].right, last_spot.x - gap - radius, row * pitch))
    return _normalised(side, gap, radius, spots, ends, row + 1)


def _normalised(side: int, gap: int, radius: int, spots: list[Spot], ends: list[EndMark],
                rows: int) -> Snake:
    """Shift everything so that the bounding box of tiles and badges starts at (0, 0)."""
    if not spots:
        return Snake(side, gap, radius, (), (), 0, 0, 0)
    boxes = [s.box for s in spots]
    boxes += [(e.x - radius, e.y - radius, e.x + radius, e.y + radius) for e in ends]
    left = min(b[0] for b in boxes)
    top = min(b[1] for b in boxes)
    right = max(b[2] for b in boxes)
    bottom = max(b[3] for b in boxes)
    return Snake(
        side,
        gap,
        radius,
        tuple(
            Spot(s.tile, s.x - left, s.y - top, s.first, s.second, s.vertical, side)
            for s in spots
        ),
        tuple(EndMark(e.number, e.x - left, e.y - top) for e in ends),
        right - left,
        bottom - top,
        rows,
    )


def _fits(line: Sequence[Placed], across: bool, side: int, width: int,
          height: int) -> Snake | None:
    inner = width - 2 * (gap_for(side) + 2 * badge_radius_for(side))
    laid = _lay(line, across, side, inner)
    return laid if laid.height <= height and laid.width <= width else None


def snake(line: Sequence[Placed], doubles_across: bool, width: int, height: int) -> Snake:
    """The line laid out in a ``width`` x ``height`` area with the largest tiles that fit.

    A slightly smaller size (down to 85 %) is preferred when it keeps a short line straight, so
    that nine tiles make one row rather than a row and a lone corner. Coordinates are relative
    to the snake's own box (``Snake.width`` x ``Snake.height``); the caller centres that box.
    Below the smallest size the snake may overflow.
    """
    side = min(LARGEST_SIDE, width // 8) // 2 * 2
    best = _fits(line, doubles_across, side, width, height)
    while best is None and side > SMALLEST_SIDE:
        side -= 2
        best = _fits(line, doubles_across, side, width, height)
    if best is None:
        radius = badge_radius_for(side)
        return _lay(line, doubles_across, side, width - 2 * (gap_for(side) + 2 * radius))
    if best.rows != 2:
        return best
    for smaller in range(side - 2, int(side * 0.85) - 1, -2):
        other = _fits(line, doubles_across, smaller, width, height)
        if other is not None and other.rows < best.rows:
            best = other
    return best
