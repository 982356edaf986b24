"""Kolbasa's tiles cut off: out of play, set aside in a tray along the bottom of the layout's
area, named ("cut off") at its left.

A phone shows the group's picture some 400 px wide, so the tiles are drawn at
:data:`OFF_SIDE`, whose halves are 16 px there (each pip a dot of its own), and the name at
the smallest text size. Where one row would be wider than
the area, the tiles wrap onto further rows, as even as they go (a hand has cut off up to
some 20 tiles), rather than be drawn smaller: the figure gets the rest of the area's height
(the picture grows taller where its tiles would shrink, :func:`renderers.table.picture_height`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine import Tile

from .canvas import face_up, paste, rounded, text, width_of
from .fonts import SMALLEST_TEXT
from .labels import TableLabels
from .themes import Theme

Rect = tuple[int, int, int, int]
# A half's side: a tile lies 104 x 52 px of 1280, 16 px a half at a phone's 400, the least at
# which a six's pips stay six dots there (at 46 two of them may run together, at the 26 these
# tiles had, 8 px at 400, a six showed as two bars).
OFF_SIDE = 52
OFF_SIZE = SMALLEST_TEXT  # the tray's name, at most OFF_WORDS px wide
OFF_WORDS = 300
GAP = 8  # between two tiles, a row and the next
PAD = 12  # the tray's edge to what it holds
AFTER_WORDS = 16  # the name to the first tile
ABOVE = 16  # the figure's room to the tray


@dataclass(frozen=True, slots=True)
class Tray:
    """Where the tiles cut off go in an area ``width`` wide: the tray's size, the name's
    width, and how many tiles a row holds."""

    width: int
    height: int
    words: int
    per_row: int


def tray(count: int, labels: TableLabels, width: int) -> Tray | None:
    """The tray of ``count`` tiles cut off in an area ``width`` wide (None for none)."""
    if not count:
        return None
    words = round(min(width_of(labels.cut_off, OFF_SIZE), OFF_WORDS))
    room = width - 2 * PAD - words - AFTER_WORDS
    rows = -(-count // max(1, (room + GAP) // (2 * OFF_SIDE + GAP)))
    per_row = -(-count // rows)  # the rows as even as they go: 22 tiles in 8, 8 and 6
    tiles = per_row * (2 * OFF_SIDE + GAP) - GAP
    return Tray(2 * PAD + words + AFTER_WORDS + tiles,
                2 * PAD + rows * (OFF_SIDE + GAP) - GAP, words, per_row)


def tray_room(count: int, labels: TableLabels, width: int) -> int:
    """The height the tray of ``count`` tiles takes from the bottom of an area ``width``
    wide, with the room kept between it and the figure above (0 for none)."""
    shown = tray(count, labels, width)
    return shown.height + ABOVE if shown is not None else 0


def draw_cut_off(canvas: Image.Image, draw: ImageDraw.ImageDraw, off: Sequence[Tile],
                 palette: Theme, labels: TableLabels, area: Rect) -> None:
    """The tiles cut off, in rows in their tray along the bottom of ``area``, centred, the
    name beside the first row."""
    left, _, right, bottom = area
    shown = tray(len(off), labels, right - left)
    if shown is None:
        return
    x = (left + right - shown.width) // 2
    y = bottom - shown.height
    paste(canvas, rounded(shown.width, shown.height, 18, palette.panel, palette.panel_edge, 2),
          x, y)
    text(draw, (x + PAD, y + PAD + OFF_SIDE / 2), labels.cut_off, OFF_SIZE, palette.muted,
         anchor="lm", max_width=OFF_WORDS)
    first = x + PAD + shown.words + AFTER_WORDS
    for index, tile in enumerate(off):
        row, column = divmod(index, shown.per_row)
        face_up(canvas, palette, first + column * (2 * OFF_SIDE + GAP),
                y + PAD + row * (OFF_SIDE + GAP), tile.low, tile.high, OFF_SIDE, False)
