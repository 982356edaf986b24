"""RULES.md, muggins: the spinner's four ends are four chains, and a crosswise double counts
twice. So the picture shows a cross (each arm leaves the spinner straight, in its own
direction, before it may turn) and a double lies across its arm only when it was laid
crosswise, at a bend too."""

from __future__ import annotations

from itertools import pairwise

from picture_kit import laid_view

from engine import End, LayoutView, TableView
from goldens.positions import hand_views, long_tables
from renderers.arms import STRAIGHT, Figure, cross_at, largest
from renderers.snake import Spot
from renderers.table import LINE_AREA

AREA_W, AREA_H = LINE_AREA[2] - LINE_AREA[0], LINE_AREA[3] - LINE_AREA[1]
# The tester's hand (muggins_3, hand 3), a left arm added: spinner 3-3; down 3-5, 5-0,
# 0-0 along, 0-2, 2-2 across, 2-1; up 3-1, 1-1 along, 1-4; right 3-4; left 3-0.
CROSS = ("0 3-3", "1 3-5 down", "0 3-1 up", "1 5-0 down", "0 1-1 up along",
         "1 0-0 down along", "0 1-4 up", "1 0-2 down", "0 3-4 right", "1 2-2 down cross",
         "0 3-0 left", "1 2-1 down")
SPARE = "6-6 5-6 6-4 6-3 5-5 4-4 1-0"
DIRECTIONS = {End.RIGHT: (1, 0), End.DOWN: (0, 1), End.LEFT: (-1, 0), End.UP: (0, -1)}


def _arms(layout: LayoutView, figure: Figure) -> dict[End, list[Spot]]:
    """The figure's tiles per arm, from the spinner outwards (as ``arms.cross_at`` lays them:
    left, right, up, down after the hub)."""
    hub = layout.spinner if layout.spinner is not None else layout.center or 0
    lengths = {End.LEFT: hub, End.RIGHT: len(layout.line) - hub - 1,
               End.UP: len(layout.up), End.DOWN: len(layout.down)}
    arms, index = {}, 1
    for end, length in lengths.items():
        arms[end] = list(figure.spots[index:index + length])
        index += length
    assert index == len(figure.spots)
    return arms


def _centre(spot: Spot) -> tuple[float, float]:
    x0, y0, x1, y1 = spot.box
    return (x0 + x1) / 2, (y0 + y1) / 2


def _cross(view: TableView) -> tuple[LayoutView, Figure]:
    assert view.layout is not None and view.layout.spinner is not None
    return view.layout, largest(view.layout, AREA_W, AREA_H)


def _straight_out(layout: LayoutView, figure: Figure, count: int) -> None:
    """Each arm's first ``count`` tiles lie on its axis, along it, further out each time."""
    hx, hy = _centre(figure.spots[0])
    for end, arm in _arms(layout, figure).items():
        dx, dy = DIRECTIONS[end]
        straight = arm[:count]
        assert len(straight) == count, end
        for spot in straight:
            x, y = _centre(spot)
            if dx:
                assert y == hy and not spot.vertical, (end, spot)
            else:
                assert x == hx and spot.vertical, (end, spot)
        outwards = [dx * (x - hx) + dy * (y - hy) for x, y in map(_centre, straight)]
        assert outwards == sorted(outwards) and outwards[0] > 0, end


def test_each_arm_leaves_the_spinner_straight_for_two_tiles_in_its_own_direction() -> None:
    """Two tiles on every arm: up and down stand out of the spinner's row as far as left and
    right do, in the space above and below it (they turned at once where the tiles were
    larger)."""
    view = laid_view("muggins", 2, ("0 3-3", "1 3-5 up", "0 3-1 down", "1 3-2 left",
                                    "0 3-4 right", "1 5-6 up", "0 1-4 down", "1 2-0 left",
                                    "0 4-6 right"))
    layout, figure = _cross(view)
    assert figure.fits and STRAIGHT == 2
    _straight_out(layout, figure, STRAIGHT)


def test_the_testers_cross_shows_each_end_on_its_own_side() -> None:
    layout, figure = _cross(laid_view("muggins", 2, CROSS, spare=SPARE))
    assert figure.fits
    # Down turns after one tile: its second (5-0) turns so that 0-0, laid along, need not.
    _straight_out(layout, figure, 1)
    hub = figure.spots[0]
    marks = {mark.end: mark for mark in figure.marks}
    # Each end's badge on its own side of the spinner's row: "down" below it, "up" above
    # (down's was drawn at the top left, up's at the bottom).
    assert marks[End.DOWN].y > hub.box[3] and marks[End.UP].y < hub.box[1]
    assert marks[End.LEFT].x < hub.box[0] < hub.box[2] < marks[End.RIGHT].x


def _along(arm: list[Spot], layout: LayoutView, end: End) -> list[tuple[Spot, Spot, bool]]:
    """Each double of the arm after the first tile, the tile before it, and whether the double
    was laid crosswise (the view's fact)."""
    hub = layout.spinner or 0
    laid = {End.LEFT: tuple(reversed(layout.line[:hub])), End.RIGHT: layout.line[hub + 1:],
            End.UP: layout.up, End.DOWN: layout.down}[end]
    return [(after, before, tile.cross)
            for (before, after), tile in zip(pairwise(arm), laid[1:], strict=True)
            if after.tile.is_double]


def _doubles_lie_as_laid(view: TableView, figure: Figure) -> int:
    """Every double lies as it was laid: across the tile it follows when crosswise, the
    same way as that tile (a corner too) when along. Returns how many were looked at."""
    assert view.layout is not None
    seen = 0
    for end, arm in _arms(view.layout, figure).items():
        for double, before, cross in _along(arm, view.layout, end):
            assert (double.vertical != before.vertical) == cross, (end, double, before)
            seen += 1
    return seen


def test_a_double_laid_along_where_the_arm_turns_lies_along_and_the_tile_before_turns() -> None:
    view = laid_view("muggins", 2, ("0 3-3", "1 3-5 right", "0 5-6 right", "1 6-6 right along"),
                     spare="0-0 0-1 0-2 1-1 1-2")
    assert view.layout is not None
    # At the largest size the right arm has room for two tiles and a badge: the third must
    # turn, so the second (5-6) is the corner and 6-6 runs down after it, standing.
    figure = cross_at(view.layout, 80, AREA_W, AREA_H)
    arm = _arms(view.layout, figure)[End.RIGHT]
    assert [spot.vertical for spot in arm] == [False, True, True]
    assert _centre(arm[2])[1] > _centre(arm[1])[1]  # below the corner: running down
    assert _doubles_lie_as_laid(view, figure) == 1


def test_a_double_laid_along_after_a_short_arm_stands_along_it() -> None:
    """The tester's g028: 6-6 laid down along, under 2-6; it was drawn lying across."""
    view = laid_view("muggins", 2, ("0 2-2", "1 2-5 right", "0 2-6 down", "1 6-6 down along"),
                     spare="0-0 0-1 0-3 1-1 1-3")
    layout, figure = _cross(view)
    down = _arms(layout, figure)[End.DOWN]
    assert [spot.vertical for spot in down] == [True, True]
    assert _doubles_lie_as_laid(view, figure) == 1


def test_every_double_on_a_muggins_table_lies_as_it_was_laid() -> None:
    views = [laid_view("muggins", 2, CROSS, spare=SPARE), long_tables()[0]]
    for seats, seed in ((2, 7), (3, 7), (4, 3)):
        views += [v for v in hand_views("muggins", seats, seed)
                  if v.layout is not None and v.layout.spinner is not None]
    seen = 0
    for view in views:
        _, figure = _cross(view)
        seen += _doubles_lie_as_laid(view, figure)
    assert seen >= 3  # the deliberate cross alone lays three
