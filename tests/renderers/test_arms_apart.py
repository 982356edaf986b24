"""Muggins' arms stay apart: an arm that turns back beside another arm keeps a clear gap of felt
from it, and its end's badge never touches the other arm's tiles. A tester's table (the demo's
seed 17, hand 5) read two arms as one row: the right arm turned down and back left along the
bottom, its last tile and badge ("0", then "6") against the down arm's tiles."""

from __future__ import annotations

from picture_kit import dealt

from engine import End, TableView
from goldens.positions import hand_views
from renderers.arms import Figure, clearance_for, largest
from renderers.canvas import seat_names
from renderers.labels import ENGLISH
from renderers.seats import score_caption, seats_of
from renderers.table import line_area, panels, picture_height, scores_apart
from renderers.themes import find_theme

Box = tuple[float, float, float, float]
DIRECTIONS = {End.RIGHT: (1, 0), End.DOWN: (0, 1), End.LEFT: (-1, 0), End.UP: (0, -1)}

# ``python -m fakeapi.demo --game muggins --players 4 --seed 17``, hand 5, as dealt and played
# (group_100.png is the table after 2-2, group_102.png after 0-6).
TESTERS_HAND = dealt(
    "muggins",
    ("5-6 2-6 3-4 1-5 0-6", "1-1 2-5 0-0 5-5 1-4", "1-6 3-6 4-5 3-3 1-2", "2-2 2-4 0-1 3-5 6-6"),
    "0-3 2-3 1-3 0-4 0-5 0-2 4-6 4-4",
    ("0 3-4", "1 1-4 right", "2 1-2 right", "3 3-5 left", "0 1-5 left", "1 1-1 left cross",
     "2 1-6 down", "3 2-4 right", "0 5-6 down", "1 2-5 down", "2 4-5 right", "3 0-1 up",
     "0 2-6 down", "1 5-5 right along", "2 3-6 down", "3 draw", "3 0-3 up", "0 draw",
     "0 2-3 up", "1 draw", "1 1-3 down", "2 draw", "2 draw", "2 0-5 right", "3 2-2 up cross",
     "0 0-6 right"))


def _figure(view: TableView) -> Figure:
    """The cross as the table picture lays it: in the area between its panels, at its
    height."""
    seats = seats_of(view, seat_names([""] * view.seats, view.seats, ENGLISH),
                     find_theme("classic"), scores_apart=scores_apart(view))
    caption = score_caption(view, ENGLISH)
    left, top, right, bottom = line_area(panels(seats, ENGLISH, caption,
                                                picture_height(view, ENGLISH)))
    return largest(view.layout, right - left, bottom - top)


def _centre(box: Box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _boxes(view: TableView, figure: Figure) -> list[tuple[End, Box, bool]]:
    """Every tile's and badge's box but the spinner's, with its arm and whether it lies on
    the arm's own ray out of the spinner (its straight part: two arms' straight parts meet
    only about the spinner, whose cross keeps them as drawn)."""
    layout = view.layout
    hub = layout.spinner if layout.spinner is not None else layout.center or 0
    lengths = {End.LEFT: hub, End.RIGHT: len(layout.line) - hub - 1,
               End.UP: len(layout.up), End.DOWN: len(layout.down)}
    hx, hy = _centre(figure.spots[0].box)
    owned: list[tuple[End, Box]] = []
    index = 1
    for end, length in lengths.items():
        owned += [(end, spot.box) for spot in figure.spots[index:index + length]]
        index += length
    assert index == len(figure.spots)
    r = figure.badge_radius
    owned += [(m.end, (m.x - r, m.y - r, m.x + r, m.y + r)) for m in figure.marks]

    def on_ray(end: End, box: Box) -> bool:
        (dx, dy), (x, y) = DIRECTIONS[end], _centre(box)
        if dx:
            return abs(y - hy) <= 1 and (x - hx) * dx > 0
        return abs(x - hx) <= 1 and (y - hy) * dy > 0

    return [(end, box, on_ray(end, box)) for end, box in owned]


def _too_close(view: TableView, figure: Figure) -> list[tuple[End, Box, End, Box, float]]:
    """Pairs of boxes of different arms, one off its ray, nearer than the clearance."""
    clear = clearance_for(figure.side)
    boxes = _boxes(view, figure)
    close = []
    for i, (end, a, straight) in enumerate(boxes):
        for other, b, other_straight in boxes[i + 1:]:
            if end is other or (straight and other_straight):
                continue
            apart = max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])
            if apart < clear - 0.5:
                close.append((end, a, other, b, apart))
    return close


def test_the_testers_table_keeps_its_arms_apart() -> None:
    crosses = [v for v in TESTERS_HAND if v.layout.spinner is not None]
    assert len(crosses) == 21
    for view in crosses:
        figure = _figure(view)
        assert figure.fits
        assert _too_close(view, figure) == [], [str(t.tile) for t in view.layout.line]
        assert _figure(view) == figure  # the same view, the same layout


def test_random_muggins_tables_keep_their_arms_apart() -> None:
    """Every table of 24 hands of random legal moves (2 to 4 seats) whose cross fits its
    area: no arm's turned part or badge comes nearer another arm than the clearance."""
    fitted = checked = 0
    for seats in (2, 3, 4):
        for seed in range(1, 9):
            for view in hand_views("muggins", seats, seed):
                if view.layout.spinner is None:
                    continue
                figure = _figure(view)
                checked += 1
                if not figure.fits:
                    continue
                fitted += 1
                assert _too_close(view, figure) == [], (seats, seed, figure.side)
    assert fitted > 0.95 * checked > 300
