"""Where each tile of the line goes: two snakes growing out of the lead, as on a real table.

The lead lies in the middle of the area. The right end's tiles run right from it, turn down at
the edge and run back beneath; the left end's tiles are the same figure turned half round:
they run left, turn up and run back above. A tile's place depends only on the tiles between it
and the lead, so laying a tile at either end moves nothing already drawn, until the line no
longer fits and every tile is drawn a size smaller (sizes come from a short ladder, so that
happens a few times a hand), or one end's rows reach further from the lead than half the area
while the whole still fits: then the line moves up or down as little as keeps it inside, rather
than shrink.

A plain tile that would leave no room for a turn becomes the corner: it turns down along the
line, hanging from the far half of the tile before (entered through its end, so that it never
reads as a double laid across), and the next row runs back beside its lower half, so matching
halves always touch. Doubles stand across the line where the game lays them so, the lead too
(and only they, or the matadors laid across, stand crosswise); a double that arrives where the
line must turn is the corner itself, standing beside the row's end with the next row beneath it,
and one that follows such a corner lies across the turn, centred under it, so that no double
stands jumbled beside a double's corner. Pure geometry: no Pillow here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from engine import LaidTile, Tile

# Halves' sides in pixels, largest first: the largest whose snake fits is used. Even, so that
# every edge of the layout falls on a whole pixel.
SIDES = (80, 72, 64, 58, 52, 46, 42, 38, 34, 32, 28, 26, 24, 22, 20, 18, 16)
LARGEST_SIDE, SMALLEST_SIDE = SIDES[0], SIDES[-1]
SMALLEST_BADGE = 28  # its number is drawn at 32 px (1.15 x the radius), the smallest text


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
    """The line in an area of ``width`` x ``height``; coordinates are the area's own."""

    side: int  # a half's side in pixels: tiles are side x 2*side
    gap: int
    badge_radius: int
    spots: tuple[Spot, ...]  # in the line's order, left end first
    ends: tuple[EndMark, ...]  # (left end, right end), or () for an empty line
    width: int
    height: int
    rows: int  # rows of tiles, the lead's included

    def _boxes(self) -> list[tuple[int, int, int, int]]:
        r = self.badge_radius
        return [s.box for s in self.spots] + [(e.x - r, e.y - r, e.x + r, e.y + r)
                                              for e in self.ends]

    @property
    def fits(self) -> bool:
        """Every tile and badge lies inside the area."""
        return all(b[0] >= 0 and b[1] >= 0 and b[2] <= self.width and b[3] <= self.height
                   for b in self._boxes())

    @property
    def least_height(self) -> float:
        """The least area height (of the same width) in which this snake would fit: its rows
        do not depend on the height (infinite where they are too wide)."""
        boxes = self._boxes()
        if not all(b[0] >= 0 and b[2] <= self.width for b in boxes):
            return float("inf")
        return max((b[3] for b in boxes), default=0) - min((b[1] for b in boxes), default=0)

    def settled(self) -> Snake:
        """The snake moved up or down as little as keeps it inside the area, where one end's
        rows run further from the lead than half the area (a line laid mostly at one end):
        such a line keeps its tiles' size."""
        boxes = self._boxes()
        top, bottom = min((b[1] for b in boxes), default=0), max((b[3] for b in boxes), default=0)
        shift = -top if top < 0 else self.height - bottom if bottom > self.height else 0
        if not shift or bottom - top > self.height:
            return self
        return replace(self, spots=tuple(replace(s, y=s.y + shift) for s in self.spots),
                       ends=tuple(replace(e, y=e.y + shift) for e in self.ends))


def gap_for(side: int) -> int:
    return max(3, side // 12)


def drop_for(side: int) -> int:
    """How far a corner sits below its row: the rows stand that much further apart, so that
    doubles standing in neighbouring rows do not touch."""
    return side // 4


def badge_radius_for(side: int) -> int:
    return max(SMALLEST_BADGE, side // 2)


Box = tuple[float, float, float, float]

# Which tiles stand across the line: every double (``True``), none (``False``), or exactly the
# tiles laid crosswise, where the game lays each tile along or across (a matador, a double).
Across = bool | frozenset[Tile]


def stands(across: Across, tile: Tile) -> bool:
    if isinstance(across, frozenset):
        return tile in across
    return across and tile.is_double


@dataclass(frozen=True, slots=True)
class _Piece:
    """A tile placed in a branch's frame: the lead's centre at (0, 0), the branch running right
    and turning down; ``near``/``far`` are its halves towards and away from the lead."""

    laid: LaidTile
    box: Box
    vertical: bool
    near_first: bool  # the near half is drawn first (left or top)


def _branch(tiles: Sequence[LaidTile], across: Across, side: int, lead: Box,
            reach: float) -> tuple[list[_Piece], tuple[float, float], int]:
    """One end's tiles from the lead outwards (``first`` is the half towards the lead):
    their pieces, where that end's badge goes, and the last row used. Tiles keep to
    ``-reach <= x <= reach``; ``lead`` is the lead's box."""
    gap, radius, drop = gap_for(side), badge_radius_for(side), drop_for(side)
    pitch = 2 * side + gap + drop
    pieces: list[_Piece] = []
    row, direction, cursor = 0, 1, lead[2] + gap
    last = lead  # the piece before, whose far end a plain corner hangs from
    corner: Box | None = None  # the corner just laid, if the last piece was one
    for index, laid in enumerate(tiles):
        following = tiles[index + 1] if index + 1 < len(tiles) else None
        if pieces:
            last = pieces[-1].box
        centre = row * pitch
        double = stands(across, laid.tile)
        room = reach - cursor if direction == 1 else cursor + reach
        if corner is not None and double:
            # Across the turn: lying, centred under the corner's lower half; the next tile
            # runs on from its far half, the number it joined.
            middle = (corner[0] + corner[2]) / 2
            box = (middle - side, centre - side / 2, middle + side, centre + side / 2)
            facing = _joined(laid, following)
            pieces.append(_Piece(_facing(laid, following), box, False,
                                 direction == 1 or facing is None))
            cursor = box[2] + gap if direction == 1 else box[0] - gap
            corner = None
            continue
        turn = room < (4 * side + 2 * gap if double else 3 * side + gap)
        if turn and corner is None and not double:
            # A plain tile turns down along the line: hanging from the far half of the tile
            # before, entered through its end, so it never reads as a double across; the next
            # row runs back beside its lower half.
            left = last[2] - side if direction == 1 else last[0]
            box = (left, last[3] + gap, left + side, last[3] + gap + 2 * side)
            pieces.append(_Piece(laid, box, True, True))
            row += 1
            cursor = left - gap if direction == 1 else left + side + gap
            direction = -direction
            corner = None
            continue
        if turn and corner is None:
            # The corner: standing, the next row beside its lower (far) half, the number the
            # next tile joined.
            left = cursor if direction == 1 else cursor - side
            box = (left, centre - side / 2 + drop, left + side, centre + 1.5 * side + drop)
            pieces.append(_Piece(_facing(laid, following), box, True, True))
            row += 1
            cursor = left + side if direction == 1 else left
            direction = -direction
            corner = box
            continue
        extent = side if double else 2 * side
        left = cursor if direction == 1 else cursor - extent
        if double:
            box = (left, centre - side, left + side, centre + side)
        else:
            box = (left, centre - side / 2, left + 2 * side, centre + side / 2)
        pieces.append(_Piece(laid, box, double, direction == 1))
        cursor = left + extent + gap if direction == 1 else left - gap
        corner = None
    if corner is not None:  # the end is a corner's lower half, facing down
        badge = ((corner[0] + corner[2]) / 2, corner[3] + gap + radius)
    else:
        badge = (cursor + direction * radius, row * pitch)
    return pieces, badge, row


def _joined(laid: LaidTile, following: LaidTile | None) -> int | None:
    """The number of a crosswise tile that is no double (both its numbers open) that the tile
    after it joined, as the engine says; ``None`` for any other tile, or none joined yet."""
    if not laid.cross or laid.first == laid.second or following is None:
        return None
    return following.joined if following.joined in (laid.first, laid.second) else None


def _facing(laid: LaidTile, following: LaidTile | None) -> LaidTile:
    """A crosswise tile (written low half first) turned so that its far half, ``second``, is
    the number the tile after it joined: where the line turns there, that half faces the next
    tile. Any other tile as it is."""
    if _joined(laid, following) != laid.first:
        return laid
    return replace(laid, first=laid.second, second=laid.first)


def _spot(piece: _Piece, turned: bool, ox: float, oy: float, side: int) -> Spot:
    """A branch piece in the area's coordinates; ``turned``: the left end's branch, which is
    the right end's figure turned half round about the lead."""
    x0, y0, x1, y1 = piece.box
    near_first = piece.near_first
    if turned:
        x0, y0, x1, y1 = -x1, -y1, -x0, -y0
        near_first = not near_first
    laid = piece.laid
    # A turned branch holds flipped tiles (``first`` towards the lead), so "near" is its first.
    near, far = laid.first, laid.second
    first, second = (near, far) if near_first else (far, near)
    return Spot(laid.tile, round(ox + x0), round(oy + y0), first, second, piece.vertical, side)


def lead_index(count: int, left_plays: int) -> int:
    """The lead's place in a line of ``count`` tiles: one tile for each play at the left end
    lies before it."""
    return max(0, min(count - 1, left_plays))


def lay(line: Sequence[LaidTile], lead: int, across: Across, side: int, width: int,
        height: int) -> Snake:
    """The line at one tile size in a ``width`` x ``height`` area, ``line[lead]`` the lead."""
    gap, radius = gap_for(side), badge_radius_for(side)
    if not line:
        return Snake(side, gap, radius, (), (), width, height, 0)
    ox, oy = width / 2, height // 2  # a whole pixel: the rows fall alike at any height
    reach = width / 2 - gap - 2 * radius  # room for a badge beyond every row's last tile
    first = line[lead]
    standing = stands(across, first.tile)
    half = side / 2 if standing else side
    lead_box = (-half, -side if standing else -side / 2, half, side if standing else side / 2)
    lead_spot = _spot(_Piece(first, lead_box, standing, True), False, ox, oy, side)
    right, right_badge, below = _branch(line[lead + 1 :], across, side, lead_box, reach)
    flipped = [replace(t, first=t.second, second=t.first) for t in reversed(line[:lead])]
    left, left_badge, above = _branch(flipped, across, side, lead_box, reach)
    spots = [_spot(piece, True, ox, oy, side) for piece in reversed(left)]
    spots += [lead_spot] + [_spot(piece, False, ox, oy, side) for piece in right]
    ends = (
        EndMark(line[0].first, round(ox - left_badge[0]), round(oy - left_badge[1])),
        EndMark(line[-1].second, round(ox + right_badge[0]), round(oy + right_badge[1])),
    )
    return Snake(side, gap, radius, tuple(spots), ends, width, height,
                 1 + below + above).settled()


def snake(line: Sequence[LaidTile], lead: int, doubles_across: Across, width: int,
          height: int) -> Snake:
    """The line with the largest tiles that fit the area (below the smallest it may overflow).
    ``lead`` is the lead's index in ``line`` (see :func:`lead_index`)."""
    lead = lead_index(len(line), lead)
    laid = lay(line, lead, doubles_across, SIDES[0], width, height)
    for side in SIDES[1:]:
        if laid.fits:
            break
        laid = lay(line, lead, doubles_across, side, width, height)
    return laid


def least_heights(line: Sequence[LaidTile], lead: int, doubles_across: Across,
                  width: int) -> Iterator[tuple[int, float]]:
    """Each tile size of :data:`SIDES`, largest first, with the least area height in which
    the line at that size fits ``width``: a picture's height is chosen from these, each size
    laid once rather than once for every height tried."""
    lead = lead_index(len(line), lead)
    for side in SIDES:
        yield side, lay(line, lead, doubles_across, side, width, 0).least_height
