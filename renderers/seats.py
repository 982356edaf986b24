"""The seats around the table: one panel per player with name, tiles, dead, score and markers."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine import TableView

from .canvas import face_down_row, paste, pill, rounded, text, turn_marker
from .fonts import fit, font, printable
from .labels import TableLabels
from .themes import Colour, Theme

Rect = tuple[int, int, int, int]

NAME_SIZE = 31
CAPTION_SIZE = 21
FIGURE_SIZE = 29
PILL_SIZE = 20
PAD = 16
SMALLEST_CAPTION = 16
FIGURE_GAP = 7  # between a caption and its number
ITEM_GAP = 16  # between one figure and the next
HAND_BACK = 14  # a face-down tile in hand, standing: 14 x 28
DEAD_BACK = 12  # a dead tile, lying face down: 24 x 12


@dataclass(frozen=True, slots=True)
class Seat:
    """What one panel shows, taken from the view."""

    name: str
    team: Colour | None  # the side's colour where sides hold several seats
    tiles: int
    dead: int | None  # None in games without dead tiles
    score: int
    knocked: bool
    to_move: bool


def team_colour(view: TableView, side: int, palette: Theme) -> Colour | None:
    """The side's colour in games where sides are teams of several seats, else None."""
    if all(len(seats) == 1 for seats in view.sides):
        return None
    return palette.sides[side % len(palette.sides)]


def seats_of(view: TableView, names: tuple[str, ...], palette: Theme) -> tuple[Seat, ...]:
    return tuple(
        Seat(
            names[p.seat],
            team_colour(view, p.side, palette),
            p.tile_count,
            p.dead_count if view.dead_tiles else None,
            view.scores[p.side],
            p.knocked,
            view.to_move == p.seat and not view.hand_over,
        )
        for p in view.players
    )


def name_row(canvas: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float,
             max_width: float, name: str, team: Colour | None, palette: Theme, *,
             to_move: bool = False, size: int = NAME_SIZE) -> None:
    """The turn arrow, the team dot and the name; (x, y) is the left end of the text's middle."""
    if to_move:
        turn_marker(draw, x, y, size * 0.62, palette.accent)
        x += 24
        max_width -= 24
    if team is not None:
        r = size // 4
        paste(canvas, rounded(2 * r, 2 * r, r, team), x, y - r)
        x += 2 * r + 8
        max_width -= 2 * r + 8
    text(draw, (x, y), name, size, palette.text, bold=True, anchor="lm", max_width=max_width)


def _markers(canvas: Image.Image, draw: ImageDraw.ImageDraw, right: float, y: float, seat: Seat,
             palette: Theme, labels: TableLabels, max_width: float) -> float:
    """The "to move" and "knock" pills, right-aligned at ``right``; returns the width used."""
    used = 0.0
    for shown, words, fill in (
        (seat.knocked, labels.knock, palette.knock),
        (seat.to_move, labels.to_move, palette.accent),
    ):
        if shown:
            used += 8 + pill(canvas, draw, right - used, y, words, PILL_SIZE, fill,
                             palette.on_accent, align_right=True, max_width=max_width - used)
    return used


def _figures(seat: Seat, labels: TableLabels, inner: float) -> tuple[int, list[str]]:
    """The caption size and captions for the figure row, made to fit ``inner`` px together
    with the numbers: a long translation gets a smaller size first, an ellipsis last."""
    captions = [labels.tiles] + ([labels.dead] if seat.dead is not None else []) + [labels.score]
    values = [seat.tiles] + ([seat.dead] if seat.dead is not None else []) + [seat.score]
    figures = sum(font(FIGURE_SIZE, True).getlength(str(v)) for v in values)
    room = inner - figures - len(values) * FIGURE_GAP - (len(values) - 1) * ITEM_GAP
    for size in range(CAPTION_SIZE, SMALLEST_CAPTION - 1, -1):
        face = font(size)
        if sum(face.getlength(printable(c)) for c in captions) <= room:
            return size, captions
    face = font(SMALLEST_CAPTION)
    share = room / len(captions)
    return SMALLEST_CAPTION, [fit(printable(c), face, share) for c in captions]


def _figure(draw: ImageDraw.ImageDraw, x: float, y: float, caption: str, value: int,
            palette: Theme, size: int, *, right_aligned: bool = False) -> float:
    """A caption with its number after it, on one baseline; returns the width used."""
    if right_aligned:
        used = text(draw, (x, y), str(value), FIGURE_SIZE, palette.text, bold=True, anchor="rs")
        return used + FIGURE_GAP + text(draw, (x - used - FIGURE_GAP, y), caption, size,
                                        palette.muted, anchor="rs")
    used = text(draw, (x, y), caption, size, palette.muted, anchor="ls") + FIGURE_GAP
    return used + text(draw, (x + used, y), str(value), FIGURE_SIZE, palette.text, bold=True,
                       anchor="ls")


def draw_seat(canvas: Image.Image, draw: ImageDraw.ImageDraw, rect: Rect, seat: Seat,
              palette: Theme, labels: TableLabels) -> None:
    """One panel: the name and markers on top; tiles, dead tiles and score below. The rows of
    face-down tiles only fill the room the words leave."""
    left, top, right, bottom = rect
    width, height = right - left, bottom - top
    edge, line = (palette.accent, 4) if seat.to_move else (palette.panel_edge, 2)
    paste(canvas, rounded(width, height, 18, palette.panel, edge, line), left, top)
    inner = width - 2 * PAD
    markers = _markers(canvas, draw, right - PAD + 8, top + 13, seat, palette, labels,
                       inner * 0.45)
    name_row(canvas, draw, left + PAD, top + 30, inner - markers - 8, seat.name, seat.team,
             palette, to_move=seat.to_move)
    size, captions = _figures(seat, labels, inner)
    baseline = bottom - 17
    score_width = _figure(draw, right - PAD, baseline, captions[-1], seat.score, palette, size,
                          right_aligned=True)
    x = float(left + PAD)
    x += _figure(draw, x, baseline, captions[0], seat.tiles, palette, size)
    end = right - PAD - score_width - ITEM_GAP
    dead_width = 0.0
    if seat.dead is not None:
        dead_width = font(size).getlength(captions[1]) + FIGURE_GAP + font(
            FIGURE_SIZE, True).getlength(str(seat.dead))
    room = end - x - dead_width - (ITEM_GAP if seat.dead is not None else 0)
    x += face_down_row(canvas, palette, x + ITEM_GAP / 2, baseline - 2 * HAND_BACK + 1,
                       seat.tiles, HAND_BACK, True, room - ITEM_GAP) + ITEM_GAP
    if seat.dead is not None:
        x += _figure(draw, x, baseline, captions[1], seat.dead, palette, size) + ITEM_GAP / 2
        face_down_row(canvas, palette, x, baseline - DEAD_BACK - 2, seat.dead, DEAD_BACK,
                      False, end - x)
