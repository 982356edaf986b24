"""Kolbasa's two ribbons named as the buttons and captions name them: a triangle (▲ the upper
ribbon, the engine's left end; ▼ the lower, its right end) and its word, beside the base on the
table (:mod:`renderers.board`) and beside each end mark in a player's hand picture
(:mod:`renderers.hand`); and the same triangles for every other layout's ends there, as its
buttons mark them (◀ left, ▶ right, ▲ up, ▼ down)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from PIL import Image, ImageDraw

from engine import End, LayoutView

from .canvas import paste, text, width_of
from .fonts import SMALLEST_TEXT
from .labels import TableLabels
from .snake import Spot
from .strokes import named
from .themes import Colour, Theme

Rect = tuple[int, int, int, int]
RIBBON_SIZE = SMALLEST_TEXT  # Kolbasa's ribbons' names, at most RIBBON_WORDS px wide
RIBBON_WORDS = 220
ARROW = 13


@cache
def arrow(pointing: End, colour: Colour) -> Image.Image:
    """A triangle pointing the way ``pointing`` names, as the buttons' ◀ ▶ ▲ ▼ (the UI font
    has no such glyph); a sprite, pasted: the frame records only what is pasted or
    lettered."""
    size, last = ARROW, 2 * ARROW - 1
    corners = {End.UP: [(size, 0), (0, last), (last, last)],
               End.DOWN: [(size, last), (0, 0), (last, 0)],
               End.LEFT: [(0, size), (last, 0), (last, last)],
               End.RIGHT: [(last, size), (0, 0), (0, last)]}[pointing]
    sprite = Image.new("RGBA", (2 * size, 2 * size), (0, 0, 0, 0))
    ImageDraw.Draw(sprite).polygon(corners, fill=colour)
    return named(sprite, "arrow", pointing.value, colour)


def end_arrow(canvas: Image.Image, at: tuple[float, float], pointing: End,
              colour: Colour) -> float:
    """The triangle of :func:`arrow`, ending at ``at`` (its right edge's middle); returns how
    wide it is."""
    x, y = at
    paste(canvas, arrow(pointing, colour), x - 2 * ARROW, y - ARROW)
    return 2 * ARROW


def ribbon_word(end: End, labels: TableLabels) -> tuple[End, str]:
    """How Kolbasa's ribbon at ``end`` is named, as the buttons and captions name it: the
    engine's left end is the upper ribbon, its triangle pointing up (the buttons' ▲), the
    right end the lower, pointing down (▼)."""
    return (End.UP, labels.upper) if end is End.LEFT else (End.DOWN, labels.lower)


def ribbon_name_width(end: End, labels: TableLabels, words: bool = True) -> float:
    """How wide :func:`ribbon_name` draws the name of the ribbon at ``end``."""
    if not words:
        return 2 * ARROW
    return 2 * ARROW + 10 + min(width_of(ribbon_word(end, labels)[1], RIBBON_SIZE, True),
                                RIBBON_WORDS)


def ribbon_name(canvas: Image.Image, draw: ImageDraw.ImageDraw, at: tuple[float, float],
                end: End, palette: Theme, labels: TableLabels, words: bool = True) -> float:
    """Kolbasa's ribbon at ``end`` named, ending at ``at`` (its right edge's middle): the
    triangle of :func:`ribbon_word` and, with ``words``, its word after it; returns how wide.
    The table names both beside the base, a player's hand picture each beside its end mark."""
    x, y = at
    pointing, name = ribbon_word(end, labels)
    used = 0.0
    if words:
        used = text(draw, (x, y), name, RIBBON_SIZE, palette.text, bold=True, anchor="rm",
                    max_width=RIBBON_WORDS) + 10
    return used + end_arrow(canvas, (x - used, y), pointing, palette.accent)


def ribbon_names_width(layout: LayoutView, labels: TableLabels) -> int:
    """The room the ribbons' names take at the figure's left (none but Kolbasa's)."""
    if layout.kind != "ribbons":
        return 0
    return round(max(ribbon_name_width(end, labels) for end in (End.LEFT, End.RIGHT)) + 20)


def ribbon_names(canvas: Image.Image, draw: ImageDraw.ImageDraw, spots: Sequence[Spot],
                 palette: Theme, labels: TableLabels, area: Rect) -> None:
    """Kolbasa's two ribbons named as the buttons and captions name them, left of the base,
    each beside its own: "▲ upper" and "▼ lower" (the engine's left and right ends; player
    QA: "◀ left" by a ribbon running right was looked for off to the base's left)."""
    left, top, _, _ = area
    base = spots[0]  # the figure lays the base first
    x = left + base.x - 20
    for y, end in ((top + base.y + base.side / 2, End.LEFT),
                   (top + base.y + 1.5 * base.side, End.RIGHT)):
        ribbon_name(canvas, draw, (x, y), end, palette, labels)
