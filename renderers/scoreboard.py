"""A group's scoreboard as a picture: the players ranked, the top three marked with medals.

It takes plain rows, not the bot's types, so any caller that can count wins can draw one; every
word comes from :class:`ScoreboardLabels` (English defaults, filled from the bot's catalogues).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import ceil

from PIL import Image, ImageDraw

from .backdrop import HEADER, MARGIN, backdrop
from .canvas import ROBOT, Anchor, encode, paste, rounded, shared_first, text
from .fonts import SMALLEST_TEXT, font, printable
from .seats import name_row
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
PROVISIONAL_MARK = "?"  # after a provisional rating, as chess sites mark one: not a word


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
    provisional: bool = False  # the rating is provisional: drawn with PROVISIONAL_MARK


def rating_text(rating: int, provisional: bool) -> str:
    """A rating as a board writes it: "1158", or "1158?" while it is provisional."""
    return f"{rating}{PROVISIONAL_MARK}" if provisional else str(rating)


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
# The figure columns from the right edge leftwards. A column is as wide as its widest figure in
# the rows, or its caption where that is wider (on two lines where it has two words and that is
# narrower), up to COLUMN_MOST: no fixed room, which left too little for the names.
FIGURES = ("streak", "points", "hands_won", "win_rate", "won", "played", "rating")
HAND_COLUMNS = ("hands_won", "points")  # each shown when some row counts it
COLUMN_MOST = 240  # "sigurhlutfall" (Icelandic: win rate) is 213
COLUMN_GAP = 26
# The room a name should have: a ten-letter name in bold ("Александра" is 251 px). Where the
# columns leave less, captions take two lines, then the least important columns are left
# out, in this order, until it has it: the win rate first (the played and won columns say it).
NAME_ROOM = 260
DROPPED_FIRST = ("win_rate", "streak", "won")


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the figures go: the columns shown, and the room left for the names."""

    columns: dict[str, _Column]
    name_width: int


def shared_places(keys: Sequence[object]) -> list[int]:
    """Places for players already in order: equal ``keys`` share a place (and its medal), and
    the next place counts everyone above it (1, 2, 2, 4)."""
    places: list[int] = []
    for index, key in enumerate(keys):
        places.append(places[-1] if index and key == keys[index - 1] else index + 1)
    return places


def figures(row: ScoreboardRow, labels: ScoreboardLabels) -> dict[str, str]:
    """The words of a row's figures, by column."""
    return {
        "rating": rating_text(row.rating, row.provisional),
        "played": str(row.played),
        "won": str(row.won),
        "win_rate": labels.percent.format(percent=round(100 * row.win_rate)),
        "streak": streak_text(row.streak, labels),
        "hands_won": NO_STREAK if row.hands_won is None else str(row.hands_won),
        "points": NO_STREAK if row.points is None else str(row.points),
    }


def _width(caption: str, widest: float, split: bool) -> int:
    """A column's width: its widest figure, or its caption where wider (``split``: the widest
    line of the caption on two lines, where it has two words and is wider than the figures)."""
    face = font(CAPTION_SIZE)
    lines = caption_lines(caption, widest) if split else [caption]
    return ceil(min(COLUMN_MOST, max(widest, *map(face.getlength, lines))))


def _placed(shown: Sequence[str], widths: dict[str, int]) -> Layout:
    placed, right = {}, _RIGHT
    for key in shown:
        placed[key] = _Column(right, widths[key])
        right -= widths[key] + COLUMN_GAP
    return Layout(placed, right + COLUMN_GAP - NAME_LEFT - 12)


def layout(labels: ScoreboardLabels, rows: Sequence[ScoreboardRow]) -> Layout:
    """The columns for ``rows``: hands won and points where some row counts them. Where the
    names would have less than NAME_ROOM, captions take two lines, and then the columns of
    DROPPED_FIRST are left out one by one until the names have it (or none is left)."""
    shown = [key for key in FIGURES if key not in HAND_COLUMNS
             or any(getattr(row, key) is not None for row in rows)]
    words = [figures(row, labels) for row in rows]
    widest = {key: max((font(FIGURE_SIZE, key == "rating").getlength(row[key]) for row in words),
                       default=0.0) for key in shown}
    widths = [{key: _width(getattr(labels, key), widest[key], split) for key in shown}
              for split in (False, True)]
    dropping = [key for key in DROPPED_FIRST if key in shown]
    while True:
        for width in widths:
            placed = _placed(shown, width)
            if placed.name_width >= NAME_ROOM:
                return placed
        if not dropping:
            return placed
        shown.remove(dropping.pop(0))


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


def columns_height(labels: ScoreboardLabels, placed: Layout) -> int:
    """The row of column names: taller where a caption takes two lines."""
    two = any(len(caption_lines(getattr(labels, key), column.width)) > 1
              for key, column in placed.columns.items())
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
         palette: Theme, labels: ScoreboardLabels, placed: Layout,
         first_shared: bool = False) -> None:
    left, right = MARGIN + 12, WIDTH - MARGIN - 12
    podium = row.place <= len(MEDALS)
    edge, line = (MEDALS[row.place - 1], 3) if podium else (palette.panel_edge, 1)
    paste(canvas, rounded(right - left, ROW_H - 8, 16, palette.panel, edge, line), left, top)
    middle = top + (ROW_H - 8) / 2
    _place(canvas, draw, left + 10, middle, row.place, palette)
    # A computer's name keeps its robot, drawn as the tables draw it (QA: "Rio" on the gold
    # place read as a person).
    name = row.name if printable(row.name.removeprefix(ROBOT)) else \
        labels.unnamed.format(number=row.place)
    name_row(canvas, draw, NAME_LEFT, middle, placed.name_width, name, None, palette,
             size=NAME_SIZE, bold=podium, first_shared=first_shared)
    colours: dict[str, Colour] = {
        "rating": palette.winner if podium else palette.text,
        "streak": palette.accent if row.streak > 0 else palette.knock if row.streak < 0
        else palette.muted,
    }
    words = figures(row, labels)
    for key, column in placed.columns.items():
        text(draw, (column.right, middle), words[key], FIGURE_SIZE,
             colours.get(key, palette.text), bold=key == "rating", anchor="rm",
             max_width=column.width)


def _captions(draw: ImageDraw.ImageDraw, baseline: int, palette: Theme,
              labels: ScoreboardLabels, placed: Layout) -> None:
    anchor: Anchor = "rs"
    text(draw, (MARGIN + 12 + 10 + PLACE_R, baseline), labels.place, CAPTION_SIZE,
         palette.muted, anchor="ms", max_width=60)
    text(draw, (NAME_LEFT, baseline), labels.player, CAPTION_SIZE, palette.muted, anchor="ls",
         max_width=placed.name_width)
    for key, column in placed.columns.items():
        lines = caption_lines(getattr(labels, key), column.width)
        for index, line in enumerate(lines):
            y = baseline - (len(lines) - 1 - index) * (CAPTION_SIZE + 4)
            text(draw, (column.right, y), line, CAPTION_SIZE, palette.muted, anchor=anchor,
                 max_width=column.width)


def draw_scoreboard(rows: Sequence[ScoreboardRow], title: str, subtitle: str, palette: Theme,
                    labels: ScoreboardLabels) -> Image.Image:
    """The scoreboard as a Pillow image (see :func:`render_scoreboard`)."""
    placed = layout(labels, rows)
    columns_h = columns_height(labels, placed) if rows else COLUMNS_H
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
    _captions(draw, top + columns_h - 14, palette, labels, placed)
    top += columns_h
    shared = shared_first([row.name for row in rows])  # (two "Muhammad ...": QA)
    for row, first_shared in zip(rows, shared, strict=True):
        _row(canvas, draw, top, row, palette, labels, placed, first_shared)
        top += ROW_H
    return canvas


def render_scoreboard(rows: Sequence[ScoreboardRow], *, title: str, subtitle: str = "",
                      labels: ScoreboardLabels | None = None, theme: str = "classic") -> bytes:
    """The ranked players as PNG bytes, in the order given (the caller ranks and trims, and
    gives tied players the same ``place``: :func:`shared_places`)."""
    palette = find_theme(theme)
    return encode(draw_scoreboard(rows, title, subtitle, palette, labels or ENGLISH_SCOREBOARD),
                  palette)
