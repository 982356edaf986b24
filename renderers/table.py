"""The group's picture: the laid tiles in the middle, the seats around them, the game's name,
the face-down tiles (the stock or the middle) and the scores.

The seats sit in the corners (and, at a five-seat table, the middle of the top edge), clockwise
in turn order from the bottom left, so the layout gets the whole width of the table between
them. Partnerships' scores stand once between the top seats; the status box (see
:mod:`renderers.board`) between the bottom ones. The picture is as wide as every other; a long
line or a big cross makes it taller (:func:`picture_height`), so that a phone, which shows it
some 400 px wide, still shows each tile's pips.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from PIL import Image, ImageDraw

from engine import TableView

from .backdrop import DETAILS_SIZE, HEADER, MARGIN, WIDTH, backdrop, header
from .board import draw_layout, draw_status, line_snake, tile_side, tile_sides
from .canvas import face_down_row, paste, rounded, seat_names, text
from .errors import ViewMismatchError
from .fonts import SMALLEST_TEXT, font
from .frames import Frame, framed
from .labels import ENGLISH, TableLabels
from .seats import (
    CAPTION_SIZE,
    FIGURE_SIZE,
    TALL_PANEL,
    Rect,
    Seat,
    compact_tiles,
    cuts_words,
    draw_seat,
    score_caption,
    seats_of,
    team_colour,
    tile_backs,
)
from .snake import Snake
from .sprites import back_sprite
from .themes import Theme, find_theme

# The picture is 1280 px wide and at least HEIGHT tall (4:3): a phone's chat shows it some 400
# px wide. A long line or a big cross makes it taller, a HEIGHT_STEP at a time up to TALLEST
# (4:5, still shown whole in a chat), until its tiles' halves reach COMFORTABLE px (20 at a
# phone's 400), or to the height that gives them the largest size: the room goes to the
# tiles. Steps of 160 px: a long hand's picture changes shape (and is drawn whole) some ten
# times, mostly as its tiles are drawn a size smaller, when every tile moves anyway.
HEIGHT, TALLEST, HEIGHT_STEP = 960, 1600, 160
COMFORTABLE = 64
INSET = 12
PANEL_W, PANEL_H = 480, 120
PANEL_W_3 = 401  # three seats share the top edge at a five-seat table

_TOP = HEADER + INSET
_LEFT, _RIGHT = MARGIN + INSET, WIDTH - MARGIN - INSET
# The tiles' area at the least height, between the top and the bottom panels.
LINE_AREA = (_LEFT + 4, _TOP + PANEL_H + 8, _RIGHT - 4, HEIGHT - MARGIN - INSET - PANEL_H - 8)
# Between the two top corners, where a four-seat table shows the pairs' scores.
TEAM_BOX = (_LEFT + PANEL_W + 14, _TOP, _RIGHT - PANEL_W - 14, _TOP + PANEL_H)


def _panel(left: int, top: int, width: int = PANEL_W) -> Rect:
    return (left, top, left + width, top + PANEL_H)


def slots(seats: int, height: int = HEIGHT) -> tuple[Rect, ...]:
    """The seats' places in turn order, clockwise from the bottom-left corner, on a picture
    ``height`` px tall."""
    bottom = height - MARGIN - INSET - PANEL_H
    if seats == 2:
        return (_panel(_LEFT, bottom), _panel(_RIGHT - PANEL_W, _TOP))
    if seats == 3:
        return (_panel(_LEFT, bottom), _panel(_LEFT, _TOP), _panel(_RIGHT - PANEL_W, _TOP))
    if seats == 4:
        return (_panel(_LEFT, bottom), _panel(_LEFT, _TOP), _panel(_RIGHT - PANEL_W, _TOP),
                _panel(_RIGHT - PANEL_W, bottom))
    if seats == 5:
        return (_panel(_LEFT, bottom), _panel(_LEFT, _TOP, PANEL_W_3),
                _panel((WIDTH - PANEL_W_3) // 2, _TOP, PANEL_W_3),
                _panel(_RIGHT - PANEL_W_3, _TOP, PANEL_W_3), _panel(_RIGHT - PANEL_W, bottom))
    raise ViewMismatchError(f"a table picture seats 2 to 5 players, not {seats}")


def _middle(canvas: Image.Image, draw: ImageDraw.ImageDraw, view: TableView, palette: Theme,
            labels: TableLabels) -> float:
    """The face-down tiles at the header's right end: the stock's size where the hand dealt
    a stock (its count beside one tile: it runs to dozens), else the middle's tiles, each
    drawn; returns the width used."""
    side, right, middle = 18, WIDTH - MARGIN - 8, HEADER // 2
    if view.stock_dealt:
        used = text(draw, (right, middle + 2), str(view.stock_count), 40, palette.text,
                    bold=True, anchor="rm")
        x = right - used - 10 - side
        paste(canvas, back_sprite(side, True, palette), x, middle - side + 2)
        words = text(draw, (x - 12, middle + 2), labels.stock, SMALLEST_TEXT, palette.muted,
                     anchor="rm", max_width=220)
        return used + 10 + side + 12 + words + 24
    if not view.middle_face_down:
        return 0
    row = face_down_row(canvas, palette, 0, -1000, view.middle_face_down, side, True, 1000)
    face_down_row(canvas, palette, right - row, middle - side + 2, view.middle_face_down,
                  side, True, row)
    used = text(draw, (right - row - 12, middle + 2), labels.middle, DETAILS_SIZE,
                palette.muted, anchor="rm", max_width=220)
    return row + 12 + used + 24


def scores_apart(view: TableView) -> bool:
    """Partnership scores are shown once, between the top seats, rather than on every panel."""
    return view.seats == 4 and any(len(seats) > 1 for seats in view.sides)


def _team_scores(canvas: Image.Image, draw: ImageDraw.ImageDraw, view: TableView,
                 palette: Theme, labels: TableLabels) -> None:
    """Each side's colour and score, once: the seats' panels carry the same colours."""
    left, top, right, bottom = TEAM_BOX
    paste(canvas, rounded(right - left, bottom - top, 18, palette.panel, palette.panel_edge, 2),
          left, top)
    centre = (left + right) / 2
    text(draw, (centre, top + 36), score_caption(view, labels), CAPTION_SIZE, palette.muted,
         anchor="mm", max_width=right - left - 24)
    r, spacing = 9, 24
    items = [(team_colour(view, side, palette), str(score))
             for side, score in enumerate(view.scores)]
    for size in range(FIGURE_SIZE, SMALLEST_TEXT - 1, -2):  # long scores: a little smaller
        widths = [2 * r + 8 + font(size, True).getlength(words) for _, words in items]
        if sum(widths) + spacing * (len(items) - 1) <= right - left - 24:
            break
    x = centre - (sum(widths) + spacing * (len(items) - 1)) / 2
    baseline = bottom - 20
    for (colour, words), width in zip(items, widths, strict=True):
        if colour is not None:
            paste(canvas, rounded(2 * r, 2 * r, r, colour), x, baseline - 14 - r)
        text(draw, (x + 2 * r + 8, baseline), words, size, palette.text, bold=True,
             anchor="ls")
        x += width + spacing


def panels(seats: Sequence[Seat], labels: TableLabels, caption: str,
           height: int = HEIGHT) -> tuple[Rect, ...]:
    """The seats' panels: their :func:`slots`, a row of them made taller (towards the tiles)
    where one row of figures would cut a seat's words (narrow panels, long translations)."""
    rects = slots(len(seats), height)
    tall = {rect[1] for rect, seat in zip(rects, seats, strict=True)
            if cuts_words(seat, labels, caption, rect[2] - rect[0])}
    extra = TALL_PANEL - PANEL_H
    return tuple((left, top, right, bottom + extra) if top == _TOP and top in tall else
                 (left, top - extra, right, bottom) if top in tall else (left, top, right, bottom)
                 for left, top, right, bottom in rects)


def line_area(rects: Sequence[Rect]) -> Rect:
    """Where the tiles go: between the top and the bottom panels."""
    top = max(rect[3] for rect in rects if rect[1] == _TOP)
    bottom = min(rect[1] for rect in rects if rect[1] != _TOP)
    return (LINE_AREA[0], top + 8, LINE_AREA[2], bottom - 8)


def _panels_of(view: TableView, labels: TableLabels, height: int) -> tuple[Rect, ...]:
    """The view's panels on a picture ``height`` tall (names aside: they never move one)."""
    shown = seat_names([""] * view.seats, view.seats, labels)
    seats = seats_of(view, shown, find_theme("classic"), scores_apart=scores_apart(view))
    return panels(seats, labels, score_caption(view, labels), height)


def picture_height(view: TableView, labels: TableLabels = ENGLISH) -> int:
    """How tall the view's picture is: the least height (:data:`HEIGHT` and each
    :data:`HEIGHT_STEP` taller) whose tiles are :data:`COMFORTABLE`, else the least that
    gives the largest tiles: no taller than its tiles need, so the felt left empty is
    little (a growing line may so make its picture a step shorter, as its tiles shrink)."""
    left, top, right, bottom = line_area(_panels_of(view, labels, HEIGHT))
    heights = range(HEIGHT, TALLEST + 1, HEIGHT_STEP)
    areas = (bottom - top + height - HEIGHT for height in heights)
    sides: dict[int, int] = {}
    for height, side in zip(heights, tile_sides(view, right - left, areas, labels),
                            strict=True):
        if side >= COMFORTABLE:
            return height
        sides[height] = side
    best = max(sides.values())
    return min(height for height, side in sides.items() if side == best)


def tile_size(view: TableView, labels: TableLabels = ENGLISH) -> int:
    """The side of a half of the view's laid tiles, as its picture draws them."""
    left, top, right, bottom = line_area(_panels_of(view, labels, picture_height(view, labels)))
    return tile_side(view, right - left, bottom - top, labels)


def line_layout(view: TableView, labels: TableLabels = ENGLISH) -> tuple[Snake, int, int]:
    """The snake of the view's line in the layout's area, and where that area starts."""
    left, top, right, bottom = line_area(_panels_of(view, labels, picture_height(view, labels)))
    return line_snake(view, right - left, bottom - top), left, top


def status_box(rects: Sequence[Rect]) -> Rect:
    """Between the bottom seats, or to the right edge where no seat sits at the bottom right."""
    bottom_row = [rect for rect in rects if rect[1] != _TOP]
    box = (TEAM_BOX[0], min(rect[1] for rect in bottom_row), TEAM_BOX[2],
           max(rect[3] for rect in bottom_row))
    if not any(rect[0] > WIDTH // 2 for rect in bottom_row):
        box = (box[0], box[1], _RIGHT, box[3])
    return box


def _compose(canvas: Image.Image, view: TableView, names: Sequence[str], palette: Theme,
             labels: TableLabels, newcomers: frozenset[int] = frozenset()) -> None:
    """Lay everything but the backdrop on ``canvas`` (as tall as :func:`picture_height`);
    ``newcomers``: see :func:`~renderers.seats.seats_of`."""
    shown = seat_names(names, view.seats, labels)
    draw = ImageDraw.Draw(canvas)
    header(canvas, draw, view, palette, labels, _middle(canvas, draw, view, palette, labels))
    apart = scores_apart(view)
    if apart:
        _team_scores(canvas, draw, view, palette, labels)
    caption = score_caption(view, labels)
    seats = seats_of(view, shown, palette, scores_apart=apart, newcomers=newcomers)
    rects = panels(seats, labels, caption, canvas.height)
    compact = compact_tiles(seats, rects, labels, caption)
    backs = tile_backs(seats, rects, labels, caption, compact)
    for seat, rect in zip(seats, rects, strict=True):
        draw_seat(canvas, draw, rect, seat, palette, labels, caption, compact=compact,
                  backs=backs)
    draw_layout(canvas, view, palette, labels, line_area(rects))
    draw_status(canvas, draw, view, palette, labels, status_box(rects))


def draw_table(view: TableView, names: Sequence[str], palette: Theme,
               labels: TableLabels, newcomers: frozenset[int] = frozenset()) -> Image.Image:
    """The table as a Pillow image (see :func:`render_table`)."""
    canvas = backdrop(palette.name, WIDTH, picture_height(view, labels)).copy()
    _compose(canvas, view, names, palette, labels, newcomers)
    return canvas


def table_picture(view: TableView, names: Sequence[str], *, theme: str = "classic",
                  labels: TableLabels | None = None, since: Frame | None = None,
                  newcomers: frozenset[int] = frozenset()) -> tuple[bytes, Frame]:
    """The table's PNG bytes (the same as :func:`render_table`'s) and its
    :class:`~renderers.frames.Frame`, drawn only where the picture differs from ``since``,
    the frame of the same table's previous picture (one of another height is drawn whole)."""
    palette = find_theme(theme)
    labels = labels or ENGLISH
    return framed(palette, WIDTH, picture_height(view, labels),
                  partial(_compose, view=view, names=names, palette=palette, labels=labels,
                          newcomers=newcomers),
                  since)


def render_table(view: TableView, names: Sequence[str], *, theme: str = "classic",
                 labels: TableLabels | None = None, newcomers: frozenset[int] = frozenset()
                 ) -> bytes:
    """The table as PNG bytes: the laid tiles, every seat with ``names[seat]``, scores and
    markers; 1280 px wide and 960 to 1600 tall (:func:`picture_height`). ``newcomers``: the
    seats whose player sat down since the seat last moved, whose last knock, another's, is
    not marked (:func:`~renderers.seats.seats_of`)."""
    return table_picture(view, names, theme=theme, labels=labels, newcomers=newcomers)[0]
