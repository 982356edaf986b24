"""The table of the games of seed 002: crosswise tiles, Muggins' cross, Kolbasa's ribbons, the
open ends with every number they show, and a status box for what scores or binds now.

An end's mark is the usual badge: two numbers (a crosswise matador at the end) share one wider
badge; an end that takes only a matador (an honour, in French) is drawn in the knock colour
and the status box says what that colour means; a Kolbasa ribbon that may not take the next
tile is drawn grey. The status box, between the bottom seats, shows Muggins' count (in the
accent colour when the latest lay scored it), Bergen's double or triple header (when the latest
lay made one), and the legends of those two colours. What scored is the engine's fact (each
move's points in the view); nothing here works a scoring rule out again.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine import (
    ActionKind,
    End,
    LayoutView,
    Placed,
    PublicMove,
    ScoreReason,
    TableView,
    Tile,
)
from engine.views import OpenEnd

from .arms import largest
from .canvas import face_up, paste, rounded, text, width_of
from .fonts import SMALLEST_TEXT, font
from .labels import TableLabels
from .snake import Spot, snake
from .sprites import Look, back_sprite
from .themes import Colour, Theme

Rect = tuple[int, int, int, int]
COUNT_SIZE = 56
STATUS_SIZE = SMALLEST_TEXT
OFF_SIDE = 26  # the tiles cut off, lying: 52 x 26
HEADERS = (ScoreReason.TRIPLE_HEADER, ScoreReason.DOUBLE_HEADER)
# A legend's words start 54 px into the box (its mark first) and may run to 10 px before its
# right edge: they are wrapped to that width, and a little less, so none is cut when drawn.
LEGEND_INDENT = 70


def crosswise(layout: LayoutView) -> frozenset[Tile]:
    return frozenset(laid.tile for laid in layout.line if laid.cross)


def last_lay(view: TableView) -> PublicMove | None:
    """The latest tile laid this hand (the highlighted one), as the table saw it."""
    return next((m for m in reversed(view.history) if m.kind is ActionKind.PLAY), None)


def header_kind(view: TableView) -> ScoreReason | None:
    """Bergen's double or triple header, while the latest tile laid is the one that made it:
    the engine scored it (the move's points say so); nothing here works the rule out."""
    move = last_lay(view)
    reasons = move.reasons if move is not None else frozenset()
    return next((r for r in HEADERS if r in reasons), None)


def count_scored(view: TableView) -> bool:
    """Muggins: the count shown is one the latest lay scored."""
    move = last_lay(view)
    return move is not None and ScoreReason.FIFTEEN in move.reasons


def _spots(layout: LayoutView, width: int, height: int,
           doubles_across: bool) -> tuple[tuple[Spot, ...], dict[End, tuple[int, int]], int]:
    """Every tile's place, where each end's mark goes, and the badges' radius."""
    if layout.kind == "line":
        placed = _placed(layout)
        laid = snake(placed, layout.center or 0, crosswise(layout) or doubles_across, width,
                     height)
        marks = {}
        if laid.ends:
            marks = {End.LEFT: (laid.ends[0].x, laid.ends[0].y),
                     End.RIGHT: (laid.ends[1].x, laid.ends[1].y)}
        return laid.spots, marks, laid.badge_radius
    figure = largest(layout, width, height)
    return figure.spots, {m.end: (m.x, m.y) for m in figure.marks}, figure.badge_radius


def _placed(layout: LayoutView) -> tuple[Placed, ...]:
    return tuple(Placed(laid.tile, laid.first, laid.second) for laid in layout.line)


def end_mark(canvas: Image.Image, draw: ImageDraw.ImageDraw, centre: tuple[float, float],
          radius: int, end: OpenEnd, fill: Colour, colour: Colour, ring: Colour) -> int:
    """An end's badge centred at ``centre``: its number, or both numbers of a crosswise
    matador in a wider one; returns its width."""
    words = "|".join(str(n) for n in end.numbers)
    width = end_widths(end, radius)
    x, y = centre
    disc = rounded(width, 2 * radius, radius, fill, ring, max(2, radius // 8))
    paste(canvas, disc, x - width / 2, y - radius)
    text(draw, (x, y), words, max(SMALLEST_TEXT, int(radius * 1.15)), colour, bold=True,
         anchor="mm")
    return width


def end_widths(end: OpenEnd, radius: int) -> int:
    """How wide an end's mark is: a disc, or wider for two numbers."""
    words = "|".join(str(n) for n in end.numbers)
    return max(2 * radius,
               round(width_of(words, max(SMALLEST_TEXT, int(radius * 1.15)), True)) + radius)


def end_colours(end: OpenEnd, palette: Theme) -> tuple[Colour, Colour, Colour]:
    """An end mark's fill, number and ring: grey where no tile may go now (Kolbasa), the
    knock colour where only a matador may, else the accent."""
    if not end.open:
        return palette.panel, palette.muted, palette.panel_edge
    if end.only_matadors:
        return palette.knock, palette.on_accent, palette.felt_edge
    return palette.accent, palette.on_accent, palette.felt_edge


def draw_layout(canvas: Image.Image, view: TableView, palette: Theme, labels: TableLabels,
                area: Rect) -> None:
    """The laid tiles and the open ends' marks in ``area``."""
    layout = view.layout
    left, top, right, bottom = area
    spots, marks, radius = _spots(layout, right - left, bottom - top, view.doubles_across)
    last = view.last_played
    for spot in spots:
        look = Look.HIGHLIGHT if spot.tile is last else Look.PLAIN
        face_up(canvas, palette, left + spot.x, top + spot.y, spot.first, spot.second,
                spot.side, spot.vertical, look)
    draw = ImageDraw.Draw(canvas)
    for end in layout.ends:
        if end.end not in marks:
            continue
        x, y = marks[end.end]
        fill, colour, ring = end_colours(end, palette)
        end_mark(canvas, draw, (left + x, top + y), radius, end, fill, colour, ring)
    if layout.off:
        _cut_off(canvas, draw, layout.off, palette, labels, area)


def _cut_off(canvas: Image.Image, draw: ImageDraw.ImageDraw, off: Sequence[Tile],
             palette: Theme, labels: TableLabels, area: Rect) -> None:
    """Kolbasa's tiles cut off, set aside in a row along the bottom of the area, named."""
    left, _, right, bottom = area
    gap = 6
    caption = min(font(STATUS_SIZE).getlength(labels.cut_off), 300.0)
    row = caption + 16 + len(off) * (2 * OFF_SIDE + gap) - gap
    x = (left + right - row) / 2
    y = bottom - OFF_SIDE / 2 - 8
    text(draw, (x, y), labels.cut_off, STATUS_SIZE, palette.muted, anchor="lm", max_width=300)
    x += caption + 16
    for tile in off:
        face_up(canvas, palette, x, y - OFF_SIDE / 2, tile.low, tile.high, OFF_SIDE, False)
        x += 2 * OFF_SIDE + gap


def status_lines(view: TableView, labels: TableLabels) -> list[tuple[str, str | None]]:
    """What the status box says: (words, the legend it is: "matador" explains the knock
    colour's marks, "waits" the grey mark of a ribbon that must wait; None: plain words)."""
    layout = view.layout
    if layout.plain or view.hand_over:
        return []
    out: list[tuple[str, str | None]] = []
    header = header_kind(view)
    if header is not None:
        words = labels.triple_header if header is ScoreReason.TRIPLE_HEADER \
            else labels.double_header
        out.append((words, None))
    if any(e.open and e.only_matadors for e in layout.ends):
        out.append((labels.only_matador, "matador"))
    if any(not e.open for e in layout.ends):
        out.append((labels.ribbon_waits, "waits"))
    return out


def draw_status(canvas: Image.Image, draw: ImageDraw.ImageDraw, view: TableView,
                palette: Theme, labels: TableLabels, box: Rect) -> None:
    """Muggins' count, Bergen's header, the legends of the marks, in ``box`` (if any)."""
    layout = view.layout
    spinner = layout.kind == "spinner"
    lines = status_lines(view, labels)
    if not spinner and not lines:
        return
    left, top, right, bottom = box
    paste(canvas, rounded(right - left, bottom - top, 18, palette.panel, palette.panel_edge, 2),
          left, top)
    centre = (left + right) / 2
    if spinner:
        colour = palette.accent if count_scored(view) else palette.text
        used = text(draw, (0, -100), str(layout.count), COUNT_SIZE, colour, bold=True)
        caption = font(STATUS_SIZE).getlength(labels.count)
        x = centre - (caption + 12 + used) / 2
        text(draw, (x, (top + bottom) / 2 + 4), labels.count, STATUS_SIZE, palette.muted,
             anchor="lm", max_width=right - left - used - 36)
        text(draw, (x + min(caption, right - left - used - 36) + 12, (top + bottom) / 2 + 4),
             str(layout.count), COUNT_SIZE, colour, bold=True, anchor="lm")
        return
    rows = [(row, legend, index == 0) for words, legend in lines
            for index, row in enumerate(
                wrapped(words, right - left - (LEGEND_INDENT if legend else 24)))]
    step = min(44.0, (bottom - top) / (len(rows) + 0.5))
    y = (top + bottom) / 2 - step * (len(rows) - 1) / 2
    for words, legend, first in rows:
        if legend is None:
            text(draw, (centre, y), words, STATUS_SIZE, palette.accent, bold=True, anchor="mm",
                 max_width=right - left - 24)
        else:
            r = 11
            x = left + 20
            if first:  # the mark it explains, as the end's badge is drawn
                disc = rounded(2 * r, 2 * r, r, palette.knock) if legend == "matador" else \
                    rounded(2 * r, 2 * r, r, palette.panel, palette.muted, 3)
                paste(canvas, disc, x, y - r)
            text(draw, (x + 2 * r + 12, y), words, STATUS_SIZE, palette.text, anchor="lm",
                 max_width=right - x - 2 * r - 22)
        y += step


def wrapped(words: str, width: float) -> list[str]:
    """``words`` in lines of at most ``width`` px at the status size (a word longer than that
    is cut when drawn)."""
    face = font(STATUS_SIZE)
    lines: list[str] = []
    for word in words.split():
        if lines and face.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines or [""]


def draw_stock(canvas: Image.Image, draw: ImageDraw.ImageDraw, view: TableView,
               palette: Theme, labels: TableLabels, right: float, middle: float) -> float:
    """The stock's size at the header's right end: a face-down tile, the count, the word;
    returns the width used."""
    side = 18
    used = text(draw, (right, middle + 2), str(view.stock_count), 40, palette.text, bold=True,
                anchor="rm")
    x = right - used - 10 - side
    paste(canvas, back_sprite(side, True, palette), x, middle - side + 2)
    words = text(draw, (x - 12, middle + 2), labels.stock, SMALLEST_TEXT, palette.muted,
                 anchor="rm", max_width=220)
    return used + 10 + side + 12 + words + 24
