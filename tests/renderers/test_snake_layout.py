"""The snake: every line from 0 to 91 tiles fits the table, tiles never overlap, matching halves
touch, the line turns at the edges, doubles stand across only where the game lays them so."""

from __future__ import annotations

import pytest

from engine import Placed
from goldens.samples import walk
from renderers.snake import LARGEST_SIDE, Snake, Spot, snake
from renderers.table import LINE_AREA

AREA_W = LINE_AREA[2] - LINE_AREA[0]
AREA_H = LINE_AREA[3] - LINE_AREA[1]
LENGTHS = range(92)


def _lay(tiles: int, across: bool) -> tuple[tuple[Placed, ...], Snake]:
    line = walk(12)[:tiles]
    return line, snake(line, across, AREA_W, AREA_H)


def _halves(spot: Spot) -> list[tuple[int, tuple[int, int, int, int]]]:
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


def _gap_and_overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> tuple[int, int]:
    """The distance between two boxes side by side, and how far they face each other."""
    gap_x = max(b[0] - a[2], a[0] - b[2])
    gap_y = max(b[1] - a[3], a[1] - b[3])
    if gap_x >= gap_y:
        return gap_x, min(a[3], b[3]) - max(a[1], b[1])
    return gap_y, min(a[2], b[2]) - max(a[0], b[0])


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("across", [True, False])
def test_every_line_length_fits_the_table(across: bool) -> None:
    for tiles in LENGTHS:
        _, laid = _lay(tiles, across)
        assert laid.width <= AREA_W and laid.height <= AREA_H, tiles
        assert len(laid.spots) == tiles
        for spot in laid.spots:
            left, top, right, bottom = spot.box
            assert left >= 0 and right <= laid.width and top >= 0 and bottom <= laid.height


@pytest.mark.parametrize("across", [True, False])
def test_tiles_and_end_badges_never_overlap(across: bool) -> None:
    for tiles in (1, 2, 13, 27, 28, 29, 54, 55, 90, 91):
        _, laid = _lay(tiles, across)
        boxes = [spot.box for spot in laid.spots]
        r = laid.badge_radius
        boxes += [(e.x - r, e.y - r, e.x + r, e.y + r) for e in laid.ends]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert not _overlap(a, b), (tiles, a, b)


@pytest.mark.parametrize("across", [True, False])
def test_matching_halves_touch(across: bool) -> None:
    for tiles in LENGTHS:
        line, laid = _lay(tiles, across)
        for index in range(tiles - 1):
            number = line[index].right
            assert line[index + 1].left == number
            outgoing = [box for n, box in _halves(laid.spots[index]) if n == number]
            incoming = [box for n, box in _halves(laid.spots[index + 1]) if n == number]
            pairs = [_gap_and_overlap(a, b) for a in outgoing for b in incoming]
            best = min(pairs, key=lambda pair: (pair[0], -pair[1]))  # a double: either half
            assert best[0] <= laid.gap, (tiles, index, best)
            assert best[1] >= laid.side // 2, (tiles, index, best)


def test_the_open_ends_are_marked_beyond_the_end_tiles() -> None:
    for tiles in LENGTHS:
        line, laid = _lay(tiles, True)
        if not tiles:
            assert laid.ends == ()
            continue
        left_end, right_end = laid.ends
        assert (left_end.number, right_end.number) == (line[0].left, line[-1].right)
        r = laid.badge_radius
        for end, spot in ((left_end, laid.spots[0]), (right_end, laid.spots[-1])):
            badge = (end.x - r, end.y - r, end.x + r, end.y + r)
            assert _gap_and_overlap(badge, spot.box)[0] == laid.gap


def test_long_lines_turn_and_short_ones_are_drawn_big() -> None:
    _, one = _lay(1, True)
    _, opening = _lay(4, True)
    _, whole = _lay(91, True)
    assert one.side == opening.side == LARGEST_SIDE
    assert whole.rows >= 5  # a snake, not a line running off the picture
    assert whole.side >= 36  # still readable on a phone at 1280 px


def _corners(laid: Snake) -> set[int]:
    """Where the snake turns: a standing tile with the next tile in the row below it."""
    spots = laid.spots
    return {
        i
        for i, spot in enumerate(spots[:-1])
        if spot.vertical and spots[i + 1].y >= spot.y + laid.side
    }


def test_doubles_stand_across_only_in_games_that_lay_them_so() -> None:
    line, across = _lay(91, True)
    _, along = _lay(91, False)
    turns = _corners(across)
    assert len(turns) == across.rows - 1
    for index, placed in enumerate(line[:-1]):
        if index not in turns:  # a double just after a turn lies along, under the corner
            expected = placed.tile.is_double and index - 1 not in turns
            assert across.spots[index].vertical == expected, index
    turns = _corners(along)
    assert len(turns) == along.rows - 1
    assert all(spot.vertical == (i in turns) for i, spot in enumerate(along.spots[:-1]))
