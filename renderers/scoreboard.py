"""A group's scoreboard as a picture: the players ranked, the top three marked with medals.

It takes plain rows, not the bot's types, so any caller that can count wins can draw one; every
word comes from :class:`ScoreboardLabels` (English defaults, filled from the bot's catalogues).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from .backdrop import HEADER, MARGIN, backdrop
from .canvas import Anchor, encode, paste, rounded, text
from .fonts import SMALLEST_TEXT, font, printable
from .themes import Colour, Theme, find_theme, hex_colour

WIDTH = 1280  # as wide as the table, so that a phone shows its words as large
COLUMNS_H = 52  # the row of column names
ROW_H = 72
PAD = 22
NAME_SIZE = 44
FIGURE_SIZE = 44
CAPTION_SIZE = SMALLEST_TEXT
TITLE_SIZE = 48
PLACE_R = 25  # a medal's radius
MEDALS: tuple[Colour, ...] = (hex_colour("#f5c542"), hex_colour("#c9d1d9"), hex_colour("#d08a4e"))
ON_MEDAL = hex_colour("#2a2000")
NO_STREAK = "\u2013"  # a dash: not a word, nothing to translate


@dataclass(frozen=True, slots=True)
class ScoreboardRow:
    """One player's line, already ranked: ``place`` counts from 1."""

    place: int
    name: str
    rating: int
    played: int
    won: int
    win_rate: float  # 0.0 to 1.0
    streak: int  # n > 0: n wins in a row; n < 0: -n losses in a row; 0: none
    hands_won: int | None = None  # hands won in those matches (None: not counted)
    points: int | None = None  # points scored in those matches


@dataclass(frozen=True, slots=True)
class ScoreboardLabels:
    place: str = "#"
    player: str = "player"
    rating: str = "rating"
    played: str = "played"
    won: str = "won"
    win_rate: str = "win rate"
    streak: str = "streak"
    hands_won: str = "hands"  # hands won
    points: str = "points"
    win_streak: str = "W{count}"
    loss_streak: str = "L{count}"
    percent: str = "{percent}%"
    unnamed: str = "Player {number}"  # a name with nothing the font can draw
    empty: str = "No finished matches yet"


ENGLISH_SCOREBOARD = ScoreboardLabels()


@dataclass(frozen=True, slots=True)
class _Column:
    right: int  # numbers and captions are right-aligned here
    width: int


# The name takes what the figures leave: from after the place badge to the rating column.
NAME_LEFT = MARGIN + PAD + 72
_RIGHT = WIDTH - MARGIN - PAD
# The figure columns from the right edge leftwards, with the room their widest figure needs;
# a column is as wide as its caption, up to COLUMN_MOST, so a translation is rarely cut.
FIGURE_ROOM = {"streak": 80, "points": 100, "hands_won": 80, "win_rate": 100, "won": 80,
               "played": 80, "rating": 100}
HAND_COLUMNS = ("hands_won", "points")  # shown when some row counts them
COLUMN_MOST = 210
COLUMN_GAP = 26


def shared_places(keys: Sequence[object]) -> list[int]:
    """Places for players already in order: equal ``keys`` share a place (and its medal), and
    the next place counts everyone above it (1, 2, 2, 4)."""
    places: list[int] = []
    for index, key in enumerate(keys):
        places.append(places[-1] if index and key == keys[index - 1] else index + 1)
    return places


def columns(labels: ScoreboardLabels, hands: bool = False) -> dict[str, _Column]:
    """The figure columns; ``hands``: with hands won and points."""
    caption = font(CAPTION_SIZE)
    placed, right = {}, _RIGHT
    for key, room in FIGURE_ROOM.items():
        if key in HAND_COLUMNS and not hands:
            continue
        width = round(min(COLUMN_MOST, max(room, caption.getlength(getattr(labels, key)))))
        placed[key] = _Column(right, width)
        right -= width + COLUMN_GAP
    return placed


def name_width(labels: ScoreboardLabels, hands: bool = False) -> int:
    rating = columns(labels, hands)["rating"]
    return rating.right - rating.width - NAME_LEFT - 12


def _height(rows: int, columns_h: int = COLUMNS_H) -> int:
    return HEADER + columns_h + max(rows, 1) * ROW_H + 2 * PAD


def caption_lines(words: str, width: float) -> list[str]:
    """A column's caption on one line, or on two where it is wider than its column and has
    more than one word (split where the longer line is shortest): no word is cut that fits."""
    face = font(CAPTION_SIZE)
    parts = words.split()
    if face.getlength(words) <= width or len(parts) < 2:
        return [words]
    splits = [(" ".join(parts[:i]), " ".join(parts[i:])) for i in range(1, len(parts))]
    return list(min(splits, key=lambda pair: max(map(face.getlength, pair))))


def columns_height(labels: ScoreboardLabels, hands: bool) -> int:
    """The row of column names: taller where a caption takes two lines."""
    two = any(len(caption_lines(getattr(labels, key), column.width)) > 1
              for key, column in columns(labels, hands).items())
    return COLUMNS_H + (CAPTION_SIZE + 4 if two else 0)


def streak_text(streak: int, labels: ScoreboardLabels) -> str:
    if streak > 0:
        return labels.win_streak.format(count=streak)
    if streak < 0:
        return labels.loss_streak.format(count=-streak)
    return NO_STREAK


def _place(canvas: Image.Image, draw: ImageDraw.ImageDraw, x: float, middle: float, place: int,
           palette: Theme) -> None:
    """The place: a medal disc for the first three, a plain number after them."""
    r = PLACE_R
    if place <= len(MEDALS):
        paste(canvas, rounded(2 * r, 2 * r, r, MEDALS[place - 1]), x, middle - r)
        text(draw, (x + r, middle), str(place), CAPTION_SIZE, ON_MEDAL, bold=True, anchor="mm")
    else:
        text(draw, (x + r, middle), str(place), CAPTION_SIZE, palette.muted, bold=True,
             anchor="mm")


def _row(canvas: Image.Image, draw: ImageDraw.ImageDraw, top: int, row: ScoreboardRow,
         palette: Theme, labels: ScoreboardLabels, hands: bool) -> None:
    left, right = MARGIN + 12, WIDTH - MARGIN - 12
    podium = row.place <= len(MEDALS)
    edge, line = (MEDALS[row.place - 1], 3) if podium else (palette.panel_edge, 1)
    paste(canvas, rounded(right - left, ROW_H - 8, 16, palette.panel, edge, line), left, top)
    middle = top + (ROW_H - 8) / 2
    _place(canvas, draw, left + 10, middle, row.place, palette)
    name = printable(row.name) or labels.unnamed.format(number=row.place)
    text(draw, (NAME_LEFT, middle), name, NAME_SIZE, palette.text, bold=podium, anchor="lm",
         max_width=name_width(labels, hands))
    streak_colour = palette.accent if row.streak > 0 else palette.knock if row.streak < 0 \
        else palette.muted
    figures: dict[str, tuple[str, Colour]] = {
        "rating": (str(row.rating), palette.winner if podium else palette.text),
        "played": (str(row.played), palette.text),
        "won": (str(row.won), palette.text),
        "win_rate": (labels.percent.format(percent=round(100 * row.win_rate)), palette.text),
        "streak": (streak_text(row.streak, labels), streak_colour),
        "hands_won": (NO_STREAK if row.hands_won is None else str(row.hands_won), palette.text),
        "points": (NO_STREAK if row.points is None else str(row.points), palette.text),
    }
    placed = columns(labels, hands)
    for key, column in placed.items():
        words, colour = figures[key]
        text(draw, (column.right, middle), words, FIGURE_SIZE, colour, bold=key == "rating",
             anchor="rm", max_width=column.width)


def _captions(draw: ImageDraw.ImageDraw, baseline: int, palette: Theme,
              labels: ScoreboardLabels, hands: bool) -> None:
    anchor: Anchor = "rs"
    text(draw, (MARGIN + 12 + 10 + PLACE_R, baseline), labels.place, CAPTION_SIZE,
         palette.muted, anchor="ms", max_width=60)
    text(draw, (NAME_LEFT, baseline), labels.player, CAPTION_SIZE, palette.muted, anchor="ls",
         max_width=name_width(labels, hands))
    for key, column in columns(labels, hands).items():
        lines = caption_lines(getattr(labels, key), column.width)
        for index, line in enumerate(lines):
            y = baseline - (len(lines) - 1 - index) * (CAPTION_SIZE + 4)
            text(draw, (column.right, y), line, CAPTION_SIZE, palette.muted, anchor=anchor,
                 max_width=column.width)


def draw_scoreboard(rows: Sequence[ScoreboardRow], title: str, subtitle: str, palette: Theme,
                    labels: ScoreboardLabels) -> Image.Image:
    """The scoreboard as a Pillow image (see :func:`render_scoreboard`)."""
    hands = any(row.hands_won is not None or row.points is not None for row in rows)
    columns_h = columns_height(labels, hands) if rows else COLUMNS_H
    canvas = backdrop(palette.name, WIDTH, _height(len(rows), columns_h)).copy()
    draw = ImageDraw.Draw(canvas)
    x, middle = MARGIN + 8, HEADER // 2 + 2
    used = text(draw, (x, middle), title, TITLE_SIZE, palette.text, bold=True, anchor="lm",
                max_width=WIDTH - 2 * x)
    if subtitle:
        text(draw, (x + used + 18, middle + 2), subtitle, CAPTION_SIZE, palette.muted,
             anchor="lm",
             max_width=WIDTH - 2 * x - used - 18)
    top = HEADER + PAD
    if not rows:
        text(draw, (WIDTH / 2, top + (COLUMNS_H + ROW_H) / 2), labels.empty, FIGURE_SIZE,
             palette.muted, anchor="mm", max_width=WIDTH - 4 * MARGIN)
        return canvas
    _captions(draw, top + columns_h - 14, palette, labels, hands)
    top += columns_h
    for row in rows:
        _row(canvas, draw, top, row, palette, labels, hands)
        top += ROW_H
    return canvas


def render_scoreboard(rows: Sequence[ScoreboardRow], *, title: str, subtitle: str = "",
                      labels: ScoreboardLabels | None = None, theme: str = "classic") -> bytes:
    """The ranked players as PNG bytes, in the order given (the caller ranks and trims, and
    gives tied players the same ``place``: :func:`shared_places`)."""
    palette = find_theme(theme)
    return encode(draw_scoreboard(rows, title, subtitle, palette, labels or ENGLISH_SCOREBOARD),
                  palette)
