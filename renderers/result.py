"""The end of a hand: every hand laid open with its total (where the pips count), the dead
tiles face up, the winner marked, the points the hand scored (a plain 0 for none) and the
match score."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine import HandEndReason, TableView, Tile

from .backdrop import HEADER, MARGIN, WIDTH, backdrop, header
from .canvas import (
    ROBOT,
    encode,
    face_up,
    paste,
    pill,
    robot,
    rounded,
    seat_names,
    shared_first,
    text,
    width_of,
)
from .errors import ViewMismatchError
from .fonts import SMALLEST_TEXT
from .labels import ENGLISH, TableLabels
from .seats import name_row, score_caption, signed, team_colour
from .sprites import Look
from .themes import Colour, Theme, find_theme

SIDE = 50  # tiles stand 50 x 100
ROW_H = 128
SCORE_ROW_H = 54
PAD = 18
NAME_W = 380
TOTAL_W = 180
PILL_SIZE = SMALLEST_TEXT
CAPTION_SIZE = SMALLEST_TEXT
NAME_SIZE = 44
FIGURE_SIZE = 46
LONG_GAP = 4  # between the small tiles of a hand too long for one row
LONG_SIDE = (ROW_H - 10 - 3 * LONG_GAP) // 4  # those tiles: two rows fill the row's height


def _height(view: TableView) -> int:
    return HEADER + PAD + view.seats * ROW_H + PAD + (len(view.sides) + 1) * SCORE_ROW_H + 2 * PAD


def _tiles(canvas: Image.Image, x: float, top: float, tiles: Sequence[Tile], look: Look,
           palette: Theme) -> float:
    """``tiles`` standing face up from ``x``; returns the x after the last one."""
    for tile in tiles:
        face_up(canvas, palette, x, top, tile.low, tile.high, SIDE, True, look)
        x += SIDE + 10
    return x


def _long_hand(canvas: Image.Image, x: float, top: float, tiles: Sequence[Tile],
               room: float, palette: Theme) -> float:
    """A hand too long for one row of full-size tiles in ``room`` px (a two-player French or
    Muggins hand after long draws): smaller tiles in two rows, filling the row's height;
    returns the x after the longer row."""
    per_row = -(-len(tiles) // 2)
    # LONG_SIDE always fits: 21 tiles a row, more than any hand of the games that draw holds
    side = int(min(LONG_SIDE, (room + LONG_GAP) // per_row - LONG_GAP))
    end = x
    for row in range(2):
        left, y = x, top + LONG_GAP + row * (2 * side + LONG_GAP)
        for tile in tiles[row * per_row:(row + 1) * per_row]:
            face_up(canvas, palette, left, y, tile.low, tile.high, side, True, Look.PLAIN)
            left += side + LONG_GAP
        end = max(end, left)
    return end


def _seat_row(canvas: Image.Image, draw: ImageDraw.ImageDraw, top: int, seat: int,
              view: TableView, name: str, team: Colour | None, palette: Theme,
              labels: TableLabels, first_shared: bool = False) -> None:
    assert view.result is not None and view.revealed_hands is not None
    result = view.result
    side = view.players[seat].side
    won = result.winner == side
    left, right = MARGIN + 12, WIDTH - MARGIN - 12
    edge, line = (palette.winner, 4) if won else (palette.panel_edge, 2)
    paste(canvas, rounded(right - left, ROW_H - 10, 18, palette.panel, edge, line), left, top)
    marked = won or result.out_seat == seat
    name_y = top + 34 if marked else top + (ROW_H - 10) // 2  # centred unless pills follow
    name_row(canvas, draw, left + PAD, name_y, NAME_W - PAD - 12, name, team, palette,
             first_shared=first_shared)
    x = float(left + PAD)
    dead = view.revealed_dead[seat] if view.revealed_dead is not None else ()
    # The pills keep to the name's column where tiles in hand follow; a seat that went out
    # holds none, and its words (a long one in some languages) may take the row up to its
    # dead tiles (gaple-dead: laid face down before it went out), or else the total's place.
    dead_width = 26 + width_of(labels.dead, CAPTION_SIZE) + len(dead) * (SIDE + 10) \
        if dead else 0.0
    pills_end = left + NAME_W if view.revealed_hands[seat] else \
        right - PAD - TOTAL_W - 60.0 - dead_width
    if won:
        # Whole where the row has room ("pemenang"): a pill after it keeps what is left.
        x += 8 + pill(canvas, draw, x, top + 62, labels.winner, PILL_SIZE, palette.winner,
                      palette.on_accent, max_width=max(NAME_W / 2, pills_end - x - (
                          NAME_W / 3 if result.out_seat == seat else 0)))
    if result.out_seat == seat:
        x += 8 + pill(canvas, draw, x, top + 62, labels.went_out, PILL_SIZE, palette.accent,
                      palette.on_accent, max_width=pills_end - x)
    pills_right = x
    tiles_top = top + (ROW_H - 10 - 2 * SIDE) // 2
    hand = view.revealed_hands[seat]
    room = right - PAD - TOTAL_W - 20 - (left + NAME_W) - dead_width
    if len(hand) * (SIDE + 10) - 10 > room:
        x = _long_hand(canvas, left + NAME_W, top, hand, room, palette)
    else:
        x = _tiles(canvas, left + NAME_W, tiles_top, hand, Look.PLAIN, palette)
    if not hand and not dead and result.out_seat != seat:
        # Out of tiles without ending the hand (Matador, Six-matador): an empty row read as
        # a seat left out (Icelandic QA).
        text(draw, (left + NAME_W, top + (ROW_H - 10) // 2), labels.no_tiles_left,
             CAPTION_SIZE, palette.muted, anchor="lm", max_width=max(room, 1.0))
    if dead:
        x = max(x, pills_right) + 16
        # The word takes what the dead tiles and the total leave: whole where it fits.
        room = right - PAD - TOTAL_W - 60 - x - 10 - len(dead) * (SIDE + 10)
        x += 10 + text(draw, (x, top + (ROW_H - 10) // 2), labels.dead, CAPTION_SIZE,
                       palette.knock, anchor="lm", max_width=max(130.0, room))
        _tiles(canvas, x, tiles_top, dead, Look.DEAD, palette)
    if not result.pips_count:
        return  # the pips count for nothing here (the hand's end says so)
    middle = top + (ROW_H - 10) // 2
    used = text(draw, (right - PAD, middle + 15), str(result.totals[seat]), 44, palette.text,
                bold=True, anchor="rs")
    text(draw, (right - PAD - used - 8, middle + 15), labels.total, CAPTION_SIZE,
         palette.muted, anchor="rs", max_width=TOTAL_W)


def _scores(canvas: Image.Image, draw: ImageDraw.ImageDraw, top: int, view: TableView,
            names: tuple[str, ...], palette: Theme, labels: TableLabels) -> None:
    """Per side: who, the points this hand scored, the match score."""
    assert view.result is not None
    result = view.result
    left, right = MARGIN + 12 + PAD, WIDTH - MARGIN - 12 - PAD
    points_x, score_x = right - 240, right
    baseline = top + SCORE_ROW_H - 14
    text(draw, (points_x, baseline), labels.points, CAPTION_SIZE, palette.muted, anchor="rs",
         max_width=220)
    text(draw, (score_x, baseline), score_caption(view, labels), CAPTION_SIZE, palette.muted,
         anchor="rs", max_width=220)
    for index, seats in enumerate(view.sides):
        baseline += SCORE_ROW_H
        won = result.winner == index
        colour = palette.winner if won else palette.text
        x = float(left)
        team = team_colour(view, index, palette)
        if team is not None:
            r = 9
            paste(canvas, rounded(2 * r, 2 * r, r, team), x, baseline - 13 - r)
            x += 2 * r + 10
        _who(canvas, draw, x, baseline, points_x - 160, [names[seat] for seat in seats],
             colour, won)
        points = result.points[index]
        text(draw, (points_x, baseline), signed(points), FIGURE_SIZE,
             colour if points or won else palette.muted, bold=True, anchor="rs")
        text(draw, (score_x, baseline), str(result.scores[index]), FIGURE_SIZE, colour,
             bold=True, anchor="rs")


def _who(canvas: Image.Image, draw: ImageDraw.ImageDraw, x: float, baseline: float,
         right: float, names: Sequence[str], colour: Colour, bold: bool) -> None:
    """A side's names on its score row, "Ann & Bo"; a computer's with its robot before it, as
    the rows above and the texts show it ("🤖 Rio"), not as a bare "Rio"."""
    if not any(name.startswith(ROBOT + " ") for name in names):
        text(draw, (x, baseline), " & ".join(names), CAPTION_SIZE, colour, bold=bold,
             anchor="ls", max_width=right - x)
        return
    mark = round(CAPTION_SIZE * 0.82)
    space = width_of(" ", CAPTION_SIZE, bold)
    for index, name in enumerate(names):
        if index:
            x += 2 * space + text(draw, (x + space, baseline), "&", CAPTION_SIZE, colour,
                                  bold=bold, anchor="ls")
        if name.startswith(ROBOT + " "):
            paste(canvas, robot(mark, colour), x, baseline - CAPTION_SIZE * 0.36 - mark / 2 - 2)
            x += mark + 8
            name = name.removeprefix(ROBOT + " ")
        x += text(draw, (x, baseline), name, CAPTION_SIZE, colour, bold=bold, anchor="ls",
                  max_width=max(right - x, 1))


def draw_hand_result(view: TableView, names: Sequence[str], palette: Theme,
                     labels: TableLabels) -> Image.Image:
    """The hand's result as a Pillow image (see :func:`render_hand_result`)."""
    result = view.result
    if result is None or view.revealed_hands is None:
        raise ViewMismatchError("the hand is not over yet: there is no result to draw")
    shown = seat_names(names, view.seats, labels)
    shared = shared_first(shown)
    canvas = backdrop(palette.name, WIDTH, _height(view)).copy()
    draw = ImageDraw.Draw(canvas)
    # The hand's own verdict, the last hand's too: the match's has its own picture next,
    # and "match won" above another seat's "winner" read as that seat winning the match (QA).
    if result.winner is None:
        verdict = labels.draw
    elif result.reason is HandEndReason.BLOCKED:
        verdict = labels.blocked
    else:
        verdict = ""
    reserved = 0.0
    if verdict:
        reserved = pill(canvas, draw, WIDTH - MARGIN - 8, HEADER // 2 + 2 - 24, verdict,
                        PILL_SIZE, palette.winner, palette.on_accent, align_right=True,
                        max_width=400)
    header(canvas, draw, view, palette, labels, reserved + 16)
    top = HEADER + PAD
    for player in view.players:
        team = team_colour(view, player.side, palette)
        _seat_row(canvas, draw, top, player.seat, view, shown[player.seat], team, palette, labels,
                  shared[player.seat])
        top += ROW_H
    _scores(canvas, draw, top, view, shown, palette, labels)
    return canvas


def render_hand_result(view: TableView, names: Sequence[str], *, theme: str = "classic",
                       labels: TableLabels | None = None) -> bytes:
    """The finished hand as PNG bytes. Raises :class:`ViewMismatchError` while it is on."""
    palette = find_theme(theme)
    return encode(draw_hand_result(view, names, palette, labels or ENGLISH), palette)
