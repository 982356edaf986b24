"""The tiles on the table, for every game: one drawing, whose differences are facts of the view.

The layout's kind places the tiles: a line winds as a snake (:mod:`renderers.snake`), a
spinner's cross and a base's two ribbons run out as arms (:mod:`renderers.arms`). On a line the
tiles stand across it that the view says lie crosswise, where the game lays tiles so, and
otherwise every double, where the game stands doubles across.

Each open end has a badge: its number, or both numbers of a crosswise matador in one wider
badge; an end that takes only a matador (an honour, in French) is drawn in the knock colour and
an end that may not take a tile now (a ribbon waiting for the other) grey. Where the game scores
the count (Muggins), a crosswise double's badge reads the two halves it adds ("5+5") and an end
that adds nothing (an empty spinner arm) is a ring, so the badges add up to the count shown.
The status box says what those marks mean. The tiles a cut took out of play lie in a tray
below, named (:mod:`renderers.cutoff`). The status box, between the bottom seats, also shows a
double or triple header while the latest lay is the one that made it and, where the game scores
it, the open ends' count (in the accent colour when the latest lay scored it). What scored is
the engine's fact (each move's points in the view); nothing here works a scoring rule out again.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from PIL import Image, ImageDraw

from engine import (
    ActionKind,
    End,
    LayoutView,
    OpenEnd,
    PublicMove,
    ScoreReason,
    TableView,
    Tile,
)

from .arms import largest
from .canvas import face_up, paste, rounded, text, width_of
from .cutoff import draw_cut_off, tray_room
from .fonts import SMALLEST_TEXT, font
from .labels import TableLabels
from .ribbons import ribbon_names, ribbon_names_width
from .snake import (
    LARGEST_SIDE,
    SIDES,
    SMALLEST_SIDE,
    Across,
    Snake,
    Spot,
    least_heights,
    snake,
)
from .sprites import Look
from .themes import Colour, Theme

Rect = tuple[int, int, int, int]
COUNT_SIZE = 56
COUNT_ROOM = 64  # the count's row in the status box, above any legend
STATUS_SIZE = SMALLEST_TEXT
HEADERS = (ScoreReason.TRIPLE_HEADER, ScoreReason.DOUBLE_HEADER)
# A legend's words start 40 px into the box (its mark first) and may run to 6 px before its
# right edge: they are wrapped to that width, and a little less, so none is cut when drawn
# (the four-seat box is 240 px wide: "menunggu", 190 px, must fit).
LEGEND_INDENT = 48


def crosswise(layout: LayoutView) -> frozenset[Tile]:
    return frozenset(laid.tile for laid in layout.line if laid.cross)


def last_lay(view: TableView) -> PublicMove | None:
    """The latest tile laid this hand (the highlighted one), as the table saw it."""
    return next((m for m in reversed(view.history) if m.kind is ActionKind.PLAY), None)


def header_kind(view: TableView) -> ScoreReason | None:
    """A double or triple header (Bergen's), while the latest tile laid is the one that made
    it: the engine scored it (the move's points say so); nothing here works the rule out."""
    move = last_lay(view)
    reasons = move.reasons if move is not None else frozenset()
    return next((r for r in HEADERS if r in reasons), None)


def count_scored(view: TableView) -> bool:
    """Whether the open ends' count shown is one the latest lay scored."""
    move = last_lay(view)
    return move is not None and ScoreReason.FIFTEEN in move.reasons


def across(view: TableView) -> Across:
    """Which tiles of a line stand across it: those the view says lie crosswise, where the
    game lays tiles so; else every double, where the game stands doubles across."""
    layout = view.layout
    return crosswise(layout) if layout.crosswise else view.doubles_across


def line_snake(view: TableView, width: int, height: int) -> Snake:
    """The layout's line as a snake in an area of ``width`` x ``height``, its lead (the
    view's centre of the line) in the middle."""
    layout = view.layout
    return snake(layout.line, layout.center or 0, across(view), width, height)


def _spots(view: TableView, width: int, height: int,
           labels: TableLabels) -> tuple[tuple[Spot, ...], dict[End, tuple[int, int, int]], int]:
    """Every tile's place, where each end's mark goes (and, on a cross or ribbons, whether
    it points left, -1, or right, 1, so that a wider badge grows away from the tiles), and
    the badges' radius."""
    layout = view.layout
    if layout.kind == "line":
        laid = line_snake(view, width, height)
        marks = {}
        if laid.ends:
            marks = {End.LEFT: (laid.ends[0].x, laid.ends[0].y, 0),
                     End.RIGHT: (laid.ends[1].x, laid.ends[1].y, 0)}
        return laid.spots, marks, laid.badge_radius
    # Above the tray of tiles cut off along the bottom, centred in the rest.
    figure = largest(layout, width, height - tray_room(len(layout.off), labels, width),
                     ribbon_names_width(layout, labels))
    return (figure.spots, {m.end: (m.x, m.y, m.direction[0]) for m in figure.marks},
            figure.badge_radius)


def tile_side(view: TableView, width: int, height: int, labels: TableLabels) -> int:
    """The side of a half of the layout's tiles as drawn in an area of ``width`` x
    ``height`` (the largest while none is laid)."""
    spots = _spots(view, width, height, labels)[0]
    return spots[0].side if spots else LARGEST_SIDE


def tile_sides(view: TableView, width: int, heights: Iterable[int],
               labels: TableLabels) -> Iterator[int]:
    """:func:`tile_side` in an area ``width`` wide and each of ``heights`` tall, worked out
    as they are asked for."""
    layout = view.layout
    if layout.kind != "line":
        for height in heights:
            yield tile_side(view, width, height, labels)
        return
    # A line's rows depend on the width alone: each size is laid once, largest first, until
    # one fits the height asked for.
    sizes = least_heights(layout.line, layout.center or 0, across(view), width)
    known: list[tuple[int, float]] = []
    for height in heights:
        while not any(need <= height for _, need in known) and len(known) < len(SIDES):
            known.append(next(sizes))
        yield next((side for side, need in known if need <= height), SMALLEST_SIDE)


def end_mark(canvas: Image.Image, draw: ImageDraw.ImageDraw, centre: tuple[float, float],
             radius: int, end: OpenEnd, fill: Colour, colour: Colour, ring: Colour,
             counts: bool = False) -> int:
    """An end's badge centred at ``centre``: its number in a disc, or both numbers of a
    crosswise matador (or, where the count scores, both halves a crosswise double adds to
    it) in a wider one; returns its width."""
    width = mark_width(end, radius, counts)
    x, y = centre
    disc = rounded(width, 2 * radius, radius, fill, ring, max(2, radius // 8))
    paste(canvas, disc, x - width / 2, y - radius)
    text(draw, (x, y), badge_words(end, counts), _number_size(radius), colour, bold=True,
         anchor="mm")
    return width


def badge_words(end: OpenEnd, counts: bool = False) -> str:
    """What an end's badge says: its numbers, "3|4" at a crosswise matador; where the game
    scores the count (``counts``), a crosswise double's two halves, "5+5", as it adds both."""
    if counts and len(end.counted) > 1:
        return "+".join(str(n) for n in end.counted)
    return "|".join(str(n) for n in end.numbers)


def _number_size(radius: int) -> int:
    return max(SMALLEST_TEXT, int(radius * 1.15))


def mark_width(end: OpenEnd, radius: int, counts: bool = False) -> int:
    """How wide an end's badge is: a disc for one number (two digits fit in it), as wide as
    two numbers need for a crosswise matador's or a counted crosswise double's."""
    words = badge_words(end, counts)
    if words.isdigit():
        return 2 * radius
    return max(2 * radius, round(width_of(words, _number_size(radius), True)) + radius)


def counts_nothing(end: OpenEnd, counts: bool) -> bool:
    """Where the game scores the count, an end that adds nothing to it (an empty arm)."""
    return counts and not end.counted


def end_colours(end: OpenEnd, palette: Theme,
                counts: bool = False) -> tuple[Colour, Colour, Colour]:
    """An end mark's fill, number and ring: grey where no tile may go now (Kolbasa), the
    knock colour where only a matador may, a ring on the felt where the end counts nothing
    (``counts``: the game scores the count), else the accent."""
    if not end.open:
        return palette.panel, palette.muted, palette.panel_edge
    if end.only_matadors:
        return palette.knock, palette.on_accent, palette.felt_edge
    if counts_nothing(end, counts):
        return palette.felt, palette.accent, palette.accent
    return palette.accent, palette.on_accent, palette.felt_edge


def draw_layout(canvas: Image.Image, view: TableView, palette: Theme, labels: TableLabels,
                area: Rect) -> None:
    """The laid tiles and the open ends' marks in ``area``."""
    layout = view.layout
    left, top, right, bottom = area
    spots, marks, radius = _spots(view, right - left, bottom - top, labels)
    last = view.last_played
    for spot in spots:
        look = Look.HIGHLIGHT if spot.tile is last else Look.PLAIN
        face_up(canvas, palette, left + spot.x, top + spot.y, spot.first, spot.second,
                spot.side, spot.vertical, look)
    draw = ImageDraw.Draw(canvas)
    for end in layout.ends:
        if end.end not in marks:
            continue
        x, y, outward = marks[end.end]
        counts = layout.scores_count
        # A wider badge grows away from the tiles, but not out of the area.
        half = mark_width(end, radius, counts) / 2
        centre = min(max(x + outward * (half - radius), half), right - left - half)
        fill, colour, ring = end_colours(end, palette, counts)
        end_mark(canvas, draw, (left + centre, top + y), radius, end, fill, colour, ring,
                 counts)
    if layout.kind == "ribbons" and spots:
        ribbon_names(canvas, draw, spots, palette, labels, area)
    if layout.off:
        draw_cut_off(canvas, draw, layout.off, palette, labels, area)


def status_lines(view: TableView, labels: TableLabels) -> list[tuple[str, str | None]]:
    """What the status box says: (words, the legend it is: "matador" explains the knock
    colour's marks, "waits" the grey mark of a ribbon that must wait, "nothing" the ringed
    mark of an end that adds nothing to the count; None: plain words)."""
    layout = view.layout
    nothing: list[tuple[str, str | None]] = [(labels.counts_nothing, "nothing")] if any(
        e.open and counts_nothing(e, layout.scores_count) for e in layout.ends) else []
    if view.hand_over:
        return nothing  # the count and its ringed marks stay on the hand's last table
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
    return out + nothing


def shows_count(layout: LayoutView) -> bool:
    """Whether the status box shows the open ends' count: where the game scores it (Muggins;
    the view gives the count of every layout, and says whether it scores)."""
    return layout.scores_count


def draw_status(canvas: Image.Image, draw: ImageDraw.ImageDraw, view: TableView,
                palette: Theme, labels: TableLabels, box: Rect) -> None:
    """The open ends' count, a header, the legends of the marks, in ``box`` (if any)."""
    layout = view.layout
    counted = shows_count(layout)
    lines = status_lines(view, labels)
    if not counted and not lines:
        return
    left, top, right, bottom = box
    paste(canvas, rounded(right - left, bottom - top, 18, palette.panel, palette.panel_edge, 2),
          left, top)
    centre = (left + right) / 2
    # A legend's first line follows its mark; the lines after it start under the mark, so a
    # long word that would not fit beside it still shows whole. The count, if shown, first.
    rows = [(row, legend, index == 0) for words, legend in lines
            for index, row in enumerate(
                wrapped(words, right - left - 24, right - left - LEGEND_INDENT) if legend
                else wrapped(words, right - left - 24))]
    count_room = COUNT_ROOM if counted else 0
    step = min(44.0, (bottom - top - count_room) / (len(rows) + 0.5))
    y = (top + bottom) / 2 - (count_room + step * len(rows)) / 2
    if counted:
        _draw_count(draw, view, palette, labels, (left, right), y + count_room / 2 + 4)
    y += count_room + step / 2
    for words, legend, first in rows:
        if legend is None:
            text(draw, (centre, y), words, STATUS_SIZE, palette.accent, bold=True, anchor="mm",
                 max_width=right - left - 24)
        else:
            r = 10
            x = left + 12
            if first:  # the mark it explains, as the end's badge is drawn
                paste(canvas, _legend_mark(legend, r, palette), x, y - r)
            indent = 2 * r + 8 if first else 0
            text(draw, (x + indent, y), words, STATUS_SIZE, palette.text, anchor="lm",
                 max_width=right - x - indent - 6)
        y += step


def _legend_mark(legend: str, r: int, palette: Theme) -> Image.Image:
    """The mark a legend explains, drawn as the end's badge is."""
    if legend == "matador":
        return rounded(2 * r, 2 * r, r, palette.knock)
    if legend == "nothing":
        return rounded(2 * r, 2 * r, r, palette.felt, palette.accent, 3)
    return rounded(2 * r, 2 * r, r, palette.panel, palette.muted, 3)


def _draw_count(draw: ImageDraw.ImageDraw, view: TableView, palette: Theme,
                labels: TableLabels, span: tuple[int, int], y: float) -> None:
    """"count 15" centred in ``span`` at ``y``, in the accent colour when the latest lay
    scored it."""
    left, right = span
    count = str(view.layout.count)
    colour = palette.accent if count_scored(view) else palette.text
    used = text(draw, (0, -100), count, COUNT_SIZE, colour, bold=True)
    caption = font(STATUS_SIZE).getlength(labels.count)
    x = (left + right) / 2 - (caption + 12 + used) / 2
    text(draw, (x, y), labels.count, STATUS_SIZE, palette.muted, anchor="lm",
         max_width=right - left - used - 36)
    text(draw, (x + min(caption, right - left - used - 36) + 12, y), count, COUNT_SIZE, colour,
         bold=True, anchor="lm")


def wrapped(words: str, width: float, first: float | None = None) -> list[str]:
    """``words`` in lines of at most ``width`` px at the status size, the first line of at
    most ``first`` (a word longer than its line is cut when drawn)."""
    face = font(STATUS_SIZE)
    lines: list[str] = []
    for word in words.split():
        room = first if first is not None and len(lines) == 1 else width
        if lines and face.getlength(f"{lines[-1]} {word}") <= room:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines or [""]
