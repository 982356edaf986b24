"""Where the tiles go on a layout of arms: a spinner's cross (Muggins) and a base's two ribbons
(Kolbasa); a line is a snake (:mod:`renderers.snake`). Pure geometry: no Pillow here.

A spinner's cross: the spinner (or, before one is laid, the lead) sits in the middle of the
area and its arms run out from it, right, down, left and up: each lays its first
:data:`STRAIGHT` tiles straight out, so the four read as a cross and each end's chain as that
end's, before any turn (the size shrinks until they fit). An arm that would leave the area
then turns a quarter clockwise at a corner tile, so the four arms wheel round the spinner
without crossing. Tiles laid crosswise stand across their arm; a corner is never a double, so
a double lying across the way its arm comes from is always one laid crosswise (in Muggins it
counts twice): a double laid along that arrives where the arm must turn goes straight, the
tile before it turning instead. Where the cross must be drawn smaller than the largest size, the
spinner may move off the middle (:func:`hub_place`), away from where its long arms run, if that
lets the tiles be larger.

Ribbons: the base stands across at the left of the figure and the two ribbons run right from
its two halves, side by side, the left ribbon on top (players are told the engine's left and
right ribbons as the upper and the lower one, as drawn here). The figure is centred in the
area. Long ribbons fold at the area's edge, away from each other (the left one up, the right
one down) rather than shrink below :data:`FLAT_RIBBONS`.

Either way the largest tile size (from :data:`~renderers.snake.SIDES`) is used at which every
tile and end mark lies inside the area and no two overlap; on a cross, too, where an arm's
turned part (which may come back beside the next arm: the right one, turned down and then left,
towards the down arm) keeps :func:`clearance_for` of felt from every other arm, so two arms never
read as one row nor a badge as another arm's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import End, LaidTile, LayoutView

from .snake import SIDES, Spot, badge_radius_for, gap_for

Box = tuple[float, float, float, float]
Vector = tuple[int, int]

RIGHTWARD, DOWNWARD, LEFTWARD, UPWARD = (1, 0), (0, 1), (-1, 0), (0, -1)
# Tiles each arm of a spinner's cross lays straight out from the spinner before it may turn: two,
# so that even the short arms (up and down: the area is wider than high) stand out of the
# spinner's row as a cross, and an arm's turned part runs well clear of its neighbour's.
STRAIGHT = 2
# Each arm's first direction; its turns are clockwise from there.
DIRECTIONS: dict[End, Vector] = {
    End.RIGHT: RIGHTWARD, End.DOWN: DOWNWARD, End.LEFT: LEFTWARD, End.UP: UPWARD,
}


@dataclass(frozen=True, slots=True)
class Mark:
    """Where an open end's mark goes: centred at (x, y), pointing ``direction`` (away from the
    tiles), in the area's coordinates."""

    end: End
    x: int
    y: int
    direction: Vector


@dataclass(frozen=True, slots=True)
class Owner:
    """The arm a tile or mark belongs to, and whether it lies at or beyond the arm's first
    corner (where it may come back beside another arm)."""

    end: End
    turned: bool


@dataclass(frozen=True, slots=True)
class Figure:
    """The laid tiles of a layout of arms at one size, in an area of width x height."""

    side: int
    badge_radius: int
    spots: tuple[Spot, ...]
    marks: tuple[Mark, ...]
    width: int
    height: int
    # The arm of each of :meth:`boxes` (None: the hub, and every box where arms lie side by
    # side on purpose, as Kolbasa's ribbons do); empty: none is an arm's.
    owners: tuple[Owner | None, ...] = ()

    def boxes(self) -> list[Box]:
        r = self.badge_radius
        tiles: list[Box] = [(b[0], b[1], b[2], b[3]) for b in (s.box for s in self.spots)]
        return tiles + [(m.x - r, m.y - r, m.x + r, m.y + r) for m in self.marks]

    @property
    def fits(self) -> bool:
        """Everything inside the area, no two tiles or marks overlapping, and an arm's turned
        part no nearer another arm than :func:`clearance_for` (so the two never read as one
        row, nor a badge as the other arm's)."""
        boxes = self.boxes()
        if not all(b[0] >= 0 and b[1] >= 0 and b[2] <= self.width and b[3] <= self.height
                   for b in boxes):
            return False
        if any(_overlap(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :]):
            return False
        # Each turned box grown by the clearance, against every other arm's boxes: few boxes
        # have turned, so this costs far less than the pairs above.
        clear = clearance_for(self.side)
        owned = [(box, owner) for box, owner in zip(boxes, self.owners, strict=False)
                 if owner is not None]
        return not any(
            owner.end is not other.end and _overlap(grown, box)
            for grown, owner in ((_grown(box, clear), owner) for box, owner in owned
                                 if owner.turned)
            for box, other in owned)


def clearance_for(side: int) -> int:
    """The felt kept between an arm's turned part and another arm: half a half's side, six
    times the gap between an arm's own tiles."""
    return side // 2


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def _grown(box: Box, by: float) -> Box:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def _clockwise(direction: Vector) -> Vector:
    dx, dy = direction
    return (-dy, dx)


def _box(centre: tuple[float, float], direction: Vector, start: float, length: float,
         breadth: float) -> Box:
    """A box along ``direction`` from ``start`` (distance along the axis from ``centre``'s
    projection) over ``length``, ``breadth`` wide about the axis through ``centre``."""
    cx, cy = centre
    dx, dy = direction
    a, b = start, start + length
    if dx:
        x0, x1 = sorted((cx + dx * a, cx + dx * b))
        return (x0, cy - breadth / 2, x1, cy + breadth / 2)
    y0, y1 = sorted((cy + dy * a, cy + dy * b))
    return (cx - breadth / 2, y0, cx + breadth / 2, y1)


def _spot(laid: LaidTile, box: Box, direction: Vector, side: int, near_first: bool) -> Spot:
    """A tile in ``box``; its near half (``laid.first`` on an arm) towards the spinner."""
    vertical = box[3] - box[1] > box[2] - box[0]
    near, far = (laid.first, laid.second) if near_first else (laid.second, laid.first)
    if laid.cross:  # crosswise: low half on the left or on top, as the view gives it
        first, second = laid.first, laid.second
    elif direction in (RIGHTWARD, DOWNWARD):
        first, second = near, far
    else:
        first, second = far, near
    return Spot(laid.tile, round(box[0]), round(box[1]), first, second, vertical, side)


def _may_turn(laid: LaidTile) -> bool:
    """Whether ``laid`` may be a corner: a tile laid along that is no double (a double at a
    corner would lie across the way its arm came, as a crosswise double does)."""
    return not laid.cross and not laid.tile.is_double


def _arm(tiles: Sequence[LaidTile], origin: tuple[float, float], direction: Vector,
         start: float, side: int, bounds: Box, near_first: bool,
         straight: int = 0, fold: bool = False) -> tuple[list[Spot], Mark, int]:
    """One arm from ``origin`` (the spinner's centre), its first tile ``start`` px out, and
    how many of its tiles lie before its first corner; its first ``straight`` tiles never
    turn. A ``fold`` arm turns twice at once where it meets the edge, coming straight back
    beside itself, and turns no more."""
    gap, radius = gap_for(side), badge_radius_for(side)
    beyond = 2 * radius + 2 * gap  # a badge after an arm's last tile
    centre, cursor, turned = origin, start, False
    corners, before = 0, len(tiles)
    spots: list[Spot] = []
    for index, laid in enumerate(tiles):
        length, breadth = (side, 2 * side) if laid.cross else (2 * side, side)
        room = _room(centre, direction, cursor, bounds)
        if fold and corners == 1 and _may_turn(laid):
            room, turned = -1.0, False  # the fold's second corner, at once
        elif fold and corners >= 2:
            room = float("inf")
        following = tiles[index + 1] if index + 1 < len(tiles) else None
        # A double laid along next, with no room for it beyond this tile: turn here.
        double_next = (following is not None and not following.cross
                       and following.tile.is_double
                       and room < length + gap + 2 * side + beyond)
        # Straight out first; the tile before a double laid along may turn from the second.
        early = straight if not double_next else min(straight, 1)
        if (index >= early and not turned and _may_turn(laid)
                and (room < length + beyond or double_next)):
            # The corner: along the new direction, its near half beside the cursor.
            turn = _clockwise(direction)
            near = _box(centre, direction, cursor, side, side)
            middle = ((near[0] + near[2]) / 2, (near[1] + near[3]) / 2)
            box = _box(middle, turn, -side / 2, 2 * side, side)
            spots.append(_spot(laid, box, turn, side, near_first))
            centre, direction, cursor, turned = middle, turn, 1.5 * side + gap, True
            before = min(before, index)
            corners += 1
            continue
        box = _box(centre, direction, cursor, length, breadth)
        spots.append(_spot(laid, box, direction, side, near_first))
        cursor += length + gap
        turned = False
    dx, dy = direction
    at = cursor + radius
    mark = Mark(End.LEFT, round(centre[0] + dx * at), round(centre[1] + dy * at), direction)
    return spots, mark, before


def _room(centre: tuple[float, float], direction: Vector, cursor: float, bounds: Box) -> float:
    dx, dy = direction
    if dx > 0:
        return bounds[2] - (centre[0] + cursor)
    if dx < 0:
        return (centre[0] - cursor) - bounds[0]
    if dy > 0:
        return bounds[3] - (centre[1] + cursor)
    return (centre[1] - cursor) - bounds[1]


def _with_end(mark: Mark, end: End) -> Mark:
    return Mark(end, mark.x, mark.y, mark.direction)


def _hub_index(layout: LayoutView) -> int:
    return layout.spinner if layout.spinner is not None else layout.center or 0


def hub_place(layout: LayoutView, width: int, height: int) -> tuple[float, float]:
    """Where the spinner goes when its cross, centred, must be drawn smaller: away from the
    sides its long arms head for (each runs out and then turns clockwise: the left arm
    towards the top, the up arm to the right, the right arm down, the down arm to the
    left), at most a sixth of the area off the middle."""
    hub = _hub_index(layout)
    left, right = hub, len(layout.line) - hub - 1
    up, down = len(layout.up), len(layout.down)

    def share(before: int, after: int) -> float:
        return min(2 / 3, max(1 / 3, (before + 1) / (before + after + 2)))

    return width * share(left + down, right + up), height * share(up + left, down + right)


def cross_at(layout: LayoutView, side: int, width: int, height: int,
             centre: tuple[float, float] | None = None) -> Figure:
    """A spinner's cross at one size, the spinner at ``centre`` (the area's middle)."""
    radius = badge_radius_for(side)
    if not layout.line:
        return Figure(side, radius, (), (), width, height)
    hub_index = _hub_index(layout)
    hub = layout.line[hub_index]
    centre = centre or (width / 2, height / 2)
    across, along = (side, 2 * side) if hub.cross else (2 * side, side)
    hub_box = (centre[0] - across / 2, centre[1] - along / 2,
               centre[0] + across / 2, centre[1] + along / 2)
    spots = [Spot(hub.tile, round(hub_box[0]), round(hub_box[1]), hub.first, hub.second,
                  hub.cross, side)]
    gap = gap_for(side)
    bounds: Box = (0, 0, width, height)
    arms: dict[End, tuple[Sequence[LaidTile], bool]] = {
        End.LEFT: (tuple(reversed(layout.line[:hub_index])), False),
        End.RIGHT: (layout.line[hub_index + 1 :], True),
        End.UP: (layout.up, True),
        End.DOWN: (layout.down, True),
    }
    marks = []
    owners: list[Owner | None] = [None]
    marks_owners: list[Owner | None] = []
    shown = {e.end for e in layout.ends}
    for end, (tiles, near_first) in arms.items():
        if end not in shown:
            continue
        direction = DIRECTIONS[end]
        start = (across if direction[0] else along) / 2 + gap
        laid, mark, before = _arm(tiles, centre, direction, start, side, bounds, near_first,
                                  STRAIGHT)
        spots.extend(laid)
        owners += [Owner(end, index >= before) for index in range(len(laid))]
        marks.append(_with_end(mark, end))
        marks_owners.append(Owner(end, before < len(laid)))
    return Figure(side, radius, tuple(spots), tuple(marks), width, height,
                  tuple(owners + marks_owners))


def ribbons_at(layout: LayoutView, side: int, width: int, height: int, lead: int = 0,
               folded: bool = False) -> Figure:
    """A base and its two ribbons at one size: the base standing across, the ribbons to its
    right, ``lead`` px kept free at the left of the figure (their names); ``folded``, a
    ribbon that reaches the area's right edge turns away from the other (the left one up,
    the right one down) and on, so that long ribbons keep large tiles."""
    radius = badge_radius_for(side)
    if not layout.line or layout.center is None:
        return Figure(side, radius, (), (), width, height)
    gap = gap_for(side)
    base = layout.line[layout.center]
    top_ribbon = tuple(reversed(layout.line[: layout.center]))
    bottom_ribbon = layout.line[layout.center + 1 :]
    longest = max(len(top_ribbon), len(bottom_ribbon))
    figure_width = lead + side + gap + longest * (2 * side + gap) + 2 * radius
    left = max(0.0, (width - figure_width) / 2) + lead
    middle = height / 2
    # The base's first half meets the left ribbon (after a cut too: the view writes it so).
    spots = [Spot(base.tile, round(left), round(middle - side), base.first, base.second, True,
                  side)]
    marks = []
    right = width if folded else width * 4
    bounds = (left + side + gap, 0.0, float(right), float(height))
    # Each ribbon is laid as the lower one (the way an arm turns); the upper one is then
    # turned over onto its side of the line between them. The left ribbon's tiles come in
    # the line's order, outer half first: their near half is the second.
    for end, tiles, near_first in ((End.LEFT, top_ribbon, False),
                                   (End.RIGHT, bottom_ribbon, True)):
        laid, mark, _ = _arm(tiles, (left + side / 2, middle + side / 2), RIGHTWARD,
                             side / 2 + gap, side, bounds, near_first, fold=folded)
        if end is End.LEFT:
            laid, mark = [_over(spot, height) for spot in laid], Mark(
                mark.end, mark.x, height - mark.y, (mark.direction[0], -mark.direction[1]))
        spots.extend(laid)
        # A mark wider than a ribbon keeps to its own side of the line between them.
        y = mark.y
        if mark.direction == RIGHTWARD:
            y = min(y, round(middle - radius)) if end is End.LEFT else max(
                y, round(middle + radius))
        marks.append(Mark(end, mark.x, y, mark.direction))
    return Figure(side, radius, tuple(spots), tuple(marks), width, height)


def _over(spot: Spot, height: int) -> Spot:
    """``spot`` turned over the area's middle row: a standing tile's halves change places."""
    bottom = spot.box[3]
    first, second = (spot.second, spot.first) if spot.vertical else (spot.first, spot.second)
    return Spot(spot.tile, spot.x, height - bottom, first, second, spot.vertical, spot.side)


# The least a ribbon's tile may be (its half's side, of 1280 px) before the ribbons fold to
# keep them larger: 64 px is 20 at a phone's 400.
FLAT_RIBBONS = 64


def largest(layout: LayoutView, width: int, height: int, lead: int = 0) -> Figure:
    """The layout with the largest tiles that fit (below the smallest it may overflow);
    ribbons fold only where flat ones would be smaller than :data:`FLAT_RIBBONS`."""
    if layout.kind == "ribbons":
        flat = [side for side in SIDES if side >= FLAT_RIBBONS]
        for folded, sizes in ((False, flat), (True, SIDES)):
            for side in sizes:
                figure = ribbons_at(layout, side, width, height, lead, folded)
                if figure.fits:
                    return figure
        return figure
    figure = cross_at(layout, SIDES[0], width, height)
    for side in SIDES[1:]:
        if figure.fits:
            break
        figure = cross_at(layout, side, width, height)
    # Smaller than the largest: the spinner moved off the middle may give larger tiles (the
    # sizes above are tried upwards, while they fit).
    place = hub_place(layout, width, height)
    for side in reversed([side for side in SIDES
                          if side > figure.side or (side == figure.side and not figure.fits)]):
        moved = cross_at(layout, side, width, height, place)
        if not moved.fits:
            break
        figure = moved
    return figure
