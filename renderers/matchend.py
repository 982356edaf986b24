"""The end of a match: each side's final score, ranked, with a medal for the first three places
(tied sides share a place and its medal), partners together in one row, and, where the caller
gives them, how each player's rating moved (+12 in the accent colour, -8 in the knock colour),
and where the game settles the final scores (Six-matador), what each side receives or pays
beside its score, with its sign. A person a computer replaced during the match has a row of
their own below the sides, with their rating change and the caller's note (who played on for
them): the seat's row shows the computer and the seat's score alone (player QA: "1 🤖 Rio for
Budi -40" on the winning row read as the winner losing 40). The bot sends it with the
match-end message."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine import TableView

from .backdrop import HEADER, MARGIN, WIDTH, backdrop, header
from .canvas import encode, paste, pill, rounded, seat_names, shared_first, text
from .errors import ViewMismatchError
from .fonts import SMALLEST_TEXT
from .labels import ENGLISH, TableLabels
from .scoreboard import MEDALS, ON_MEDAL, PLACE_R, shared_places
from .seats import name_row, signed, team_colour
from .themes import Theme, find_theme

LINE_H = 60  # one player's line in a side's row
ROW_PAD = 16
ROW_GAP = 10
COLUMNS_H = 52
PAD = 22
NAME_SIZE = 44
FIGURE_SIZE = 46
SCORE_SIZE = 48
CAPTION_SIZE = SMALLEST_TEXT
SCORE_W = 240  # the score column, right-aligned at the row's right
RATING_W = 200  # the rating column, left of it
SETTLE_W = 260  # Six-matador: what each side receives or pays, between the two


def ranked_sides(view: TableView) -> list[tuple[int, int]]:
    """(place, side) from the best final score down: the lowest first where points count
    against a side; equal scores share a place."""
    against = view.lowest_total_wins
    order = sorted(range(len(view.sides)),
                   key=lambda side: view.scores[side] if against else -view.scores[side])
    keys = [view.scores[side] for side in order]
    return list(zip(shared_places(keys), order, strict=True))


#: A person a computer replaced: (name, note, rating change).
Replaced = tuple[str, str, int]


def _height(view: TableView, replaced: int = 0) -> int:
    rows = sum(len(seats) * LINE_H + 2 * ROW_PAD + ROW_GAP for seats in view.sides)
    rows += replaced * (LINE_H + 2 * ROW_PAD + ROW_GAP)
    return HEADER + PAD + COLUMNS_H + rows + PAD


def _replaced_row(canvas: Image.Image, draw: ImageDraw.ImageDraw, top: int, view: TableView,
                  person: Replaced, palette: Theme) -> int:
    """A replaced person's row: no place, no score, their name, the note and their rating
    change in its column; returns its height."""
    name, note, change = person
    height = LINE_H + 2 * ROW_PAD
    left, right = MARGIN + 12, WIDTH - MARGIN - 12
    paste(canvas, rounded(right - left, height, 18, palette.panel, palette.panel_edge, 2),
          left, top)
    y = top + height / 2
    name_left = left + 16 + 2 * PLACE_R + 20
    settle_right = right - PAD - SCORE_W
    rating_right = settle_right - (SETTLE_W if view.settlement is not None else 0)
    colour = palette.accent if change > 0 else palette.knock if change < 0 else palette.muted
    figure = text(draw, (rating_right, y + 14), signed(change), FIGURE_SIZE, colour,
                  bold=True, anchor="rs")
    room = rating_right - figure - 24 - name_left  # (no score: the row's words reach further)
    drawn = text(draw, (name_left, y), name, NAME_SIZE, palette.text, anchor="lm",
                 max_width=room * 0.55 if note else room)
    if note:
        text(draw, (name_left + drawn + 16, y + 2), note, CAPTION_SIZE, palette.muted,
             anchor="lm", max_width=room - drawn - 16)
    return height


def _side_row(canvas: Image.Image, draw: ImageDraw.ImageDraw, top: int, place: int, side: int,
              view: TableView, names: tuple[str, ...], changes: Sequence[int | None],
              palette: Theme) -> int:
    """One side's row; returns its height."""
    seats = view.sides[side]
    height = len(seats) * LINE_H + 2 * ROW_PAD
    left, right = MARGIN + 12, WIDTH - MARGIN - 12
    won = view.match_winner == side
    medal = place <= len(MEDALS)
    edge, line = (palette.winner, 4) if won else (MEDALS[place - 1], 2) if medal else (
        palette.panel_edge, 2)
    paste(canvas, rounded(right - left, height, 18, palette.panel, edge, line), left, top)
    middle = top + height / 2
    r = PLACE_R
    fill = MEDALS[place - 1] if medal else palette.panel_edge
    paste(canvas, rounded(2 * r, 2 * r, r, fill), left + 16, middle - r)
    text(draw, (left + 16 + r, middle), str(place), CAPTION_SIZE, ON_MEDAL if medal else
         palette.text, bold=True, anchor="mm")
    name_left = left + 16 + 2 * r + 20
    settle_right = right - PAD - SCORE_W
    rating_right = settle_right - (SETTLE_W if view.settlement is not None else 0)
    team = team_colour(view, side, palette)
    shared = shared_first(names)
    for index, seat in enumerate(seats):
        y = top + ROW_PAD + LINE_H * index + LINE_H / 2
        name_row(canvas, draw, name_left, y, rating_right - RATING_W - name_left, names[seat],
                 team, palette, size=NAME_SIZE, bold=won, first_shared=shared[seat])
        change = changes[seat] if seat < len(changes) else None
        if change is not None:
            colour = palette.accent if change > 0 else palette.knock if change < 0 \
                else palette.muted
            text(draw, (rating_right, y + 14), signed(change), FIGURE_SIZE, colour, bold=True,
                 anchor="rs")
    if view.settlement is not None:
        settled = view.settlement[side]
        colour = palette.accent if settled > 0 else palette.knock if settled < 0 \
            else palette.muted
        text(draw, (settle_right, middle + 15), signed(settled), FIGURE_SIZE, colour,
             bold=True, anchor="rs")
    text(draw, (right - PAD, middle + 17), str(view.scores[side]), SCORE_SIZE,
         palette.winner if won else palette.text, bold=True, anchor="rs")
    return height


def draw_match_end(view: TableView, names: Sequence[str], changes: Sequence[int | None],
                   palette: Theme, labels: TableLabels, replaced: Sequence[Replaced] = ()
                   ) -> Image.Image:
    """The match's end as a Pillow image (see :func:`render_match_end`)."""
    if not view.match_over:
        raise ViewMismatchError("the match is not over yet: there are no final scores")
    if changes and len(changes) != view.seats:
        raise ViewMismatchError(f"{view.seats} seats need {view.seats} rating changes")
    shown = seat_names(names, view.seats, labels)
    canvas = backdrop(palette.name, WIDTH, _height(view, len(replaced))).copy()
    draw = ImageDraw.Draw(canvas)
    verdict = labels.match_won if view.match_winner is not None else labels.match_drawn
    reserved = pill(canvas, draw, WIDTH - MARGIN - 8, HEADER // 2 + 2 - 24, verdict,
                    CAPTION_SIZE, palette.winner, palette.on_accent, align_right=True,
                    max_width=400)
    header(canvas, draw, view, palette, labels, reserved + 16, labels.match_over)
    top = HEADER + PAD
    right = WIDTH - MARGIN - 12 - PAD
    baseline = top + COLUMNS_H - 14
    caption = labels.penalty if view.lowest_total_wins else labels.final_score
    text(draw, (right, baseline), caption, CAPTION_SIZE, palette.muted, anchor="rs",
         max_width=SCORE_W)
    rating_right = right - SCORE_W
    if view.settlement is not None:
        text(draw, (rating_right, baseline), labels.settlement, CAPTION_SIZE, palette.muted,
             anchor="rs", max_width=SETTLE_W - 20)
        rating_right -= SETTLE_W
    if replaced or any(change is not None for change in changes):
        # The names' column has no heading: "rating change" may reach over it.
        text(draw, (rating_right, baseline), labels.rating, CAPTION_SIZE, palette.muted,
             anchor="rs", max_width=rating_right - MARGIN - 120)
    top += COLUMNS_H
    for place, side in ranked_sides(view):
        top += _side_row(canvas, draw, top, place, side, view, shown, changes, palette)
        top += ROW_GAP
    for person in replaced:
        top += _replaced_row(canvas, draw, top, view, person, palette) + ROW_GAP
    return canvas


def render_match_end(view: TableView, names: Sequence[str], *,
                     rating_changes: Sequence[int | None] = (), theme: str = "classic",
                     labels: TableLabels | None = None, replaced: Sequence[Replaced] = ()
                     ) -> bytes:
    """The final scores as PNG bytes: ``rating_changes[seat]`` (if given) is how that seat's
    rating moved, None for a seat without one (a computer player); ``replaced``: the people
    a computer replaced during the match, each (name, note, rating change), on rows of
    their own below the sides. Raises :class:`ViewMismatchError` while the match is on."""
    palette = find_theme(theme)
    return encode(draw_match_end(view, names, rating_changes, palette, labels or ENGLISH,
                                 replaced), palette)
