"""The snake: every line from 0 to 91 tiles fits the table, wherever its lead lies; tiles never
overlap, matching halves touch, the line grows both ways from the lead and a tile once drawn
stays put until the tiles must be drawn smaller (or the line moves up or down, all alike, to
stay inside); doubles stand across where the game lays them so, the lead too, and no double
stands jumbled beside a corner."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

import pytest

from engine import LaidTile, table_view
from goldens.positions import plain_line, played, walk, with_line
from renderers.board import tile_side, tile_sides
from renderers.labels import ENGLISH
from renderers.snake import LARGEST_SIDE, SIDES, Snake, Spot, snake
from renderers.table import LINE_AREA, line_layout

AREA_W = LINE_AREA[2] - LINE_AREA[0]
AREA_H = LINE_AREA[3] - LINE_AREA[1]
LENGTHS = range(92)
Box = tuple[int, int, int, int]


def _leads(tiles: int) -> set[int]:
    """The lead at the left end, in the middle and at the right end."""
    return {0, max(0, (tiles - 1) // 2), max(0, tiles - 1)}


def _lay(tiles: int, across: bool, lead: int) -> tuple[tuple[LaidTile, ...], Snake]:
    line = walk(12)[:tiles]
    return line, snake(line, lead, across, AREA_W, AREA_H)


def _every_layout(across: bool) -> list[tuple[int, int, tuple[LaidTile, ...], Snake]]:
    return [(tiles, lead, *_lay(tiles, across, lead))
            for tiles in LENGTHS for lead in sorted(_leads(tiles))]


LAYOUTS = {across: _every_layout(across) for across in (True, False)}


def _halves(spot: Spot) -> list[tuple[int, Box]]:
    """Each half's number and box, as drawn."""
    left, top, right, bottom = spot.box
    if spot.vertical:
        middle = top + spot.side
        return [
            (spot.first, (left, top, right, middle)),
            (spot.second, (left, middle, right, bottom)),
        ]
    middle = left + spot.side
    return [(spot.first, (left, top, middle, bottom)), (spot.second, (middle, top, right, bottom))]


def _gap_and_overlap(a: Box, b: Box) -> tuple[int, int]:
    """The distance between two boxes side by side, and how far they face each other."""
    gap_x = max(b[0] - a[2], a[0] - b[2])
    gap_y = max(b[1] - a[3], a[1] - b[3])
    if gap_x >= gap_y:
        return gap_x, min(a[3], b[3]) - max(a[1], b[1])
    return gap_y, min(a[2], b[2]) - max(a[0], b[0])


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _corners(laid: Snake, lead: int) -> set[int]:
    """Where the line turns: a standing tile whose neighbour towards the lead (a plain
    corner, hanging from it) or away from it (or, at an end, whose badge: a double's corner)
    lies below or above the tile's middle, in another row."""
    found = set()
    for i, spot in enumerate(laid.spots):
        if not spot.vertical or i == lead:
            continue
        outward = i + 1 if i > lead else i - 1
        inward = i - 1 if i > lead else i + 1
        if 0 <= outward < len(laid.spots):
            top, bottom = laid.spots[outward].box[1], laid.spots[outward].box[3]
        else:
            end = laid.ends[1 if i > lead else 0]
            top, bottom = end.y - laid.badge_radius, end.y + laid.badge_radius
        before = laid.spots[inward].box
        middle = spot.y + spot.side
        if top >= middle or bottom <= middle or before[1] >= middle or before[3] <= middle:
            found.add(i)
    return found


@pytest.mark.parametrize("across", [True, False])
def test_every_line_length_fits_the_table_wherever_the_lead_lies(across: bool) -> None:
    for tiles, lead, _, laid in LAYOUTS[across]:
        assert laid.fits, (tiles, lead)
        assert len(laid.spots) == tiles
        for spot in laid.spots:
            left, top, right, bottom = spot.box
            assert left >= 0 and top >= 0 and right <= AREA_W and bottom <= AREA_H


@pytest.mark.parametrize("across", [True, False])
def test_tiles_and_end_badges_never_overlap(across: bool) -> None:
    for tiles, lead, _, laid in LAYOUTS[across]:
        boxes = [spot.box for spot in laid.spots]
        r = laid.badge_radius
        boxes += [(e.x - r, e.y - r, e.x + r, e.y + r) for e in laid.ends]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert not _overlap(a, b), (tiles, lead, a, b)


@pytest.mark.parametrize("across", [True, False])
def test_matching_halves_touch(across: bool) -> None:
    for tiles, lead, line, laid in LAYOUTS[across]:
        for index in range(tiles - 1):
            number = line[index].second
            assert line[index + 1].first == number
            outgoing = [box for n, box in _halves(laid.spots[index]) if n == number]
            incoming = [box for n, box in _halves(laid.spots[index + 1]) if n == number]
            pairs = [_gap_and_overlap(a, b) for a in outgoing for b in incoming]
            best = min(pairs, key=lambda pair: (pair[0], -pair[1]))  # a double: either half
            assert best[0] <= laid.gap, (tiles, lead, index, best)
            assert best[1] >= laid.side // 2, (tiles, lead, index, best)


def test_the_open_ends_are_marked_beyond_the_end_tiles() -> None:
    for tiles, _, line, laid in LAYOUTS[True]:
        if not tiles:
            assert laid.ends == ()
            continue
        left_end, right_end = laid.ends
        assert (left_end.number, right_end.number) == (line[0].first, line[-1].second)
        r = laid.badge_radius
        for end, spot in ((left_end, laid.spots[0]), (right_end, laid.spots[-1])):
            badge = (end.x - r, end.y - r, end.x + r, end.y + r)
            assert _gap_and_overlap(badge, spot.box)[0] == laid.gap


def _in_the_middle(laid: Snake, spot: Spot) -> bool:
    """Whether ``spot`` is where a lead lies: in the middle of the area, or (a line that
    reaches further from its lead one way than half the area) in the middle column with the
    line moved as little as keeps it inside: a tile or badge touching the area's top or
    bottom."""
    left, top, right, bottom = spot.box
    r = laid.badge_radius
    boxes = [s.box for s in laid.spots] + [(e.x - r, e.y - r, e.x + r, e.y + r)
                                           for e in laid.ends]
    moved = top + bottom - laid.height
    touching = (min(b[1] for b in boxes) == 0 if moved > 1 else
                max(b[3] for b in boxes) == laid.height if moved < -1 else True)
    return abs(left + right - laid.width) <= 1 and touching


def test_the_lead_lies_in_the_middle_of_the_area() -> None:
    moved = {0: 0, 1: 0}  # lines led from the middle, and from one end
    for tiles, lead, _, laid in LAYOUTS[True]:
        if tiles:
            assert _in_the_middle(laid, laid.spots[lead]), (tiles, lead)
            middle = lead == max(0, (tiles - 1) // 2)
            moved[not middle] += abs(sum(laid.spots[lead].box[1::2]) - AREA_H) > 1
    assert moved[0] < moved[1] // 4  # mostly lines laid at one end move


def test_long_lines_turn_and_short_ones_are_drawn_big() -> None:
    _, one = _lay(1, True, 0)
    _, opening = _lay(4, True, 1)
    _, whole = _lay(91, True, 45)
    assert one.side == opening.side == LARGEST_SIDE
    assert whole.rows >= 5  # a snake, not a line running off the picture
    assert whole.side >= 34  # still shows its colours on a phone


@pytest.mark.parametrize("across", [True, False])
def test_doubles_stand_across_the_lead_too_and_never_beside_a_corner(across: bool) -> None:
    for tiles, lead, line, laid in LAYOUTS[across]:
        turns = _corners(laid, lead)
        assert len(turns) == max(0, laid.rows - 1), (tiles, lead)
        for index, (placed, spot) in enumerate(zip(line, laid.spots, strict=True)):
            before = index - 1 if index > lead else index + 1
            # Only a double's corner has a double after it lie across the turn: a plain corner
            # hangs from the row before, and the row after runs on beside its lower half.
            after_turn = before in turns and across and line[before].tile.is_double
            if index in turns:
                continue  # a corner stands, a double too
            if across and placed.tile.is_double and not after_turn:
                assert spot.vertical, (tiles, lead, index)  # across the line
            elif across and placed.tile.is_double:
                # Across the turn: lying beneath the corner, centred on it.
                corner = laid.spots[index - 1 if index > lead else index + 1]
                assert not spot.vertical
                assert abs((spot.box[0] + spot.box[2]) - (corner.box[0] + corner.box[2])) <= 1
            else:
                assert not spot.vertical, (tiles, lead, index)
        for turn in turns:  # no double stands in the row beside a double's corner
            if not (across and line[turn].tile.is_double):
                continue
            for neighbour in (turn - 1, turn + 1):
                if 0 <= neighbour < tiles and neighbour not in turns:
                    spot = laid.spots[neighbour]
                    assert not (line[neighbour].tile.is_double and spot.vertical), (
                        tiles, lead, turn)


def _grown(lead_at: int, lefts: list[bool]) -> list[Snake]:
    """The layouts as a line grows from ``walk(12)[lead_at]``, one tile a step, at the left
    end where ``lefts`` says so and at the right end otherwise."""
    whole = walk(12)
    low = high = lead_at
    layouts = [snake(whole[low : high + 1], 0, True, AREA_W, AREA_H)]
    for left in lefts:
        if left and low > 0:
            low -= 1
        else:
            high += 1
        layouts.append(snake(whole[low : high + 1], lead_at - low, True, AREA_W, AREA_H))
    return layouts


@pytest.mark.parametrize("pattern", ["alternating", "left runs", "right only"])
def test_laying_a_tile_at_either_end_moves_no_tile_already_drawn(pattern: str) -> None:
    steps = 90
    lefts = {
        "alternating": [step % 2 == 0 for step in range(steps)],
        "left runs": [step % 7 < 4 for step in range(steps)],
        "right only": [False] * steps,
    }[pattern]
    lead_at = 0 if pattern == "right only" else 45
    layouts = _grown(lead_at, lefts)
    kept, rescaled, moved = 0, 0, 0
    for before, after in pairwise(layouts):
        if before.side != after.side:
            rescaled += 1
            continue
        drawn = {spot.tile: spot for spot in before.spots}
        # Where the line moved up or down to keep inside the area, all of it moved alike.
        shift = {spot.y - drawn[spot.tile].y for spot in after.spots if spot.tile in drawn}
        assert len(shift) == 1, (pattern, shift)
        for spot in after.spots:
            if spot.tile in drawn:
                assert replace(drawn[spot.tile], y=spot.y) == spot, (pattern, spot.tile)
        moved += shift != {0}
        kept += shift == {0}
    # Tiles stay put most of the time.
    assert rescaled < len(SIDES) and kept > 3 * (rescaled + moved), (kept, rescaled, moved)


def test_the_lead_is_found_from_the_history_of_a_real_hand() -> None:
    """Through the engine: every position of a seeded hand, laid as the picture lays it."""
    seen = 0
    for moves in range(1, 28):
        match = played("pair", 4, moves, seed=3)
        view = table_view(match)
        laid, _, _ = line_layout(view)
        if view.layout.line:
            first_play = next(m for m in view.history if m.tile is not None)
            lead = next(spot for spot in laid.spots if spot.tile == first_play.tile)
            assert _in_the_middle(laid, lead)
            seen += 1
        if match.hand.result is not None:
            break
    assert seen > 5


def test_a_lines_size_at_each_height_is_the_size_it_is_drawn_at() -> None:
    """A picture's height is chosen from each size's least height (``board.tile_sides``),
    not by laying the line at every height tried: it gives the sizes drawn."""
    base = table_view(played("pair", 4, 3, seed=21))
    heights = range(200, 1400, 37)
    for tiles in range(0, 92, 7):
        for lead in _leads(tiles):
            view = replace(with_line(base, tiles), layout=plain_line(walk(12)[:tiles], lead))
            drawn = [tile_side(view, AREA_W, height, ENGLISH) for height in heights]
            assert list(tile_sides(view, AREA_W, heights, ENGLISH)) == drawn, (tiles, lead)
