"""The seats around the table: one panel per player with name, tiles, dead, score and marker.

Every word is drawn at 32 px or more (a phone shows the 1280-px picture about 400 px wide), so
a long translation is never made smaller: a panel first leaves out its rows of face-down
tiles, then shows a face-down tile instead of the word "tiles", and only then shortens words.
One picture's panels all show "tiles" the same way (:func:`compact_tiles`): a reader compares
the seats, so a narrow panel's face-down tile is every panel's; and so the row of face-down tiles
after the word (:func:`tile_backs`): every panel shows it, or none does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from PIL import Image, ImageDraw

from engine import ActionKind, TableView

from .canvas import (
    ROBOT,
    face_down_row,
    fitted_name,
    paste,
    pill,
    robot,
    rounded,
    row_width,
    shared_first,
    text,
    width_of,
)
from .fonts import SMALLEST_TEXT, fit, font, printable
from .labels import TableLabels
from .sprites import back_sprite
from .themes import Colour, Theme

Rect = tuple[int, int, int, int]

NAME_SIZE = 44
CAPTION_SIZE = SMALLEST_TEXT
FIGURE_SIZE = 46
PILL_SIZE = SMALLEST_TEXT
PAD = 16
FIGURE_GAP = 8  # between a caption and its number
ITEM_GAP = 20  # between one figure and the next
HAND_BACK = 16  # a face-down tile in hand, standing: 16 x 32
DEAD_BACK = 14  # a dead tile, lying face down: 28 x 14
TALL_PANEL = 172  # a panel this tall shows its figures on two rows where one would cut words
ROW_STEP = 54  # between the two rows' baselines
NAME_LEAST = 120  # a name beside a pill keeps this much (its first letters) at least


@dataclass(frozen=True, slots=True)
class Seat:
    """What one panel shows, taken from the view."""

    name: str
    team: Colour | None  # the side's colour where sides hold several seats
    tiles: int
    dead: int | None  # None in games without dead tiles
    score: int | None  # None where the sides' scores are shown once, apart from the seats
    knocked: bool  # knocked since this seat last moved (not a knock from an earlier round)
    to_move: bool
    scored: int | None = None  # points scored during this hand, where a game scores in play
    won: bool = False  # the hand is over and this seat's side won it
    first_shared: bool = False  # another seat's name starts with the same word


def team_colour(view: TableView, side: int, palette: Theme) -> Colour | None:
    """The side's colour in games where sides are teams of several seats, else None."""
    if all(len(seats) == 1 for seats in view.sides):
        return None
    return palette.sides[side % len(palette.sides)]


def score_caption(view: TableView, labels: TableLabels) -> str:
    """"penalty" where a side's points count against it (the lowest total wins), else "score"."""
    return labels.penalty if view.lowest_total_wins else labels.score


def knocked_lately(view: TableView) -> frozenset[int]:
    """Seats whose last move was a knock made since the seat to move last moved: once a seat
    has its turn again, its old knock is stale; once the hand is over, every knock is (the
    table marks who won it instead, :func:`hand_winners`)."""
    if view.hand_over:
        return frozenset()
    history = view.history
    if view.to_move is None:
        recent = history[-view.seats :]
    else:
        since = max((i for i, move in enumerate(history) if move.seat == view.to_move),
                    default=-1)
        recent = history[since + 1 :]
    last = {move.seat: move.kind for move in recent}
    return frozenset(seat for seat, kind in last.items() if kind is ActionKind.KNOCK)


def hand_winners(view: TableView) -> frozenset[int]:
    """The seats of the side that won the hand, once it is over (none for a drawn hand, and
    none once the match is over: its last hand's winner need not be the match's, whom the
    match's result names)."""
    ended = view.result
    if ended is None or ended.winner is None or view.match_over:
        return frozenset()
    return frozenset(view.sides[ended.winner])


def signed(points: int) -> str:
    """A figure with its sign: +12, 0 (nothing has no sign), -6 (a debt): points scored during
    play or in a hand, a rating's change, a settlement; the bot's texts write them so too."""
    return f"{points:+d}" if points else "0"


def scores_in_play(view: TableView) -> bool:
    """Whether the game scores during play (or has this hand: Matador's optional points)."""
    return view.points_in_play or any(view.scored)


def seats_of(view: TableView, names: tuple[str, ...], palette: Theme, *,
             scores_apart: bool, newcomers: frozenset[int] = frozenset()) -> tuple[Seat, ...]:
    """What each seat's panel shows. ``newcomers``: seats whose player sat down after the
    seat's last move (the caller knows who sat where; the view does not): that move was
    another's, so a knock of it is not marked beside the name shown (whose it was not)."""
    knocked, won = knocked_lately(view) - newcomers, hand_winners(view)
    in_play = scores_in_play(view) and len(view.scored) == len(view.sides)
    # Once the hand is over, all it gave each side (going out, a blocked hand's points): what
    # its score went up by, as the hand's result shows it.
    hand = view.result.points if view.result is not None else view.scored
    shared = shared_first(names)
    return tuple(
        Seat(
            names[p.seat],
            team_colour(view, p.side, palette),
            p.tile_count,
            p.dead_count if view.dead_tiles else None,
            None if scores_apart else view.scores[p.side],
            p.seat in knocked,
            view.to_move == p.seat and not view.hand_over,
            hand[p.side] if in_play else None,
            p.seat in won,
            shared[p.seat],
        )
        for p in view.players
    )


def name_width(name: str, team: Colour | None, size: int = NAME_SIZE) -> float:
    """How wide :func:`name_row` draws ``name`` whole: its team dot, robot and letters."""
    width = 0.0
    if team is not None:
        width += 2 * (size // 4) + 10
    if name.startswith(ROBOT + " "):
        width += round(size * 0.82) + 10
        name = name.removeprefix(ROBOT + " ")
    return width + width_of(printable(name), size, True)


def name_row(canvas: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float,
             max_width: float, name: str, team: Colour | None, palette: Theme, *,
             size: int = NAME_SIZE, colour: Colour | None = None, bold: bool = True,
             first_shared: bool = False) -> None:
    """The team dot and the name; (x, y) is the left end of the text's middle;
    ``first_shared``: another name at the table starts with the same word."""
    if team is not None:
        r = size // 4
        paste(canvas, rounded(2 * r, 2 * r, r, team), x, y - r)
        x += 2 * r + 10
        max_width -= 2 * r + 10
    if name.startswith(ROBOT + " "):  # a computer player: the texts' "🤖 Rio"
        mark = round(size * 0.82)
        paste(canvas, robot(mark, colour or palette.text), x, y - mark / 2 - 2)
        x += mark + 10
        max_width -= mark + 10
        name = name.removeprefix(ROBOT + " ")
    text(draw, (x, y), fitted_name(name, size, bold, max_width, first_shared), size,
         colour or palette.text, bold=bold, anchor="lm")


def _marker(canvas: Image.Image, draw: ImageDraw.ImageDraw, right: float, y: float, seat: Seat,
            palette: Theme, labels: TableLabels, max_width: float) -> float:
    """The "to move", "winner" or "knock" pill, right-aligned at ``right``; returns the width
    used."""
    if seat.to_move:
        words, fill = labels.to_move, palette.accent
    elif seat.won:
        words, fill = labels.winner, palette.winner
    elif seat.knocked:
        words, fill = labels.knock, palette.knock
    else:
        return 0.0
    return pill(canvas, draw, right, y, words, PILL_SIZE, fill, palette.on_accent,
                align_right=True, max_width=max_width)


@dataclass(frozen=True, slots=True)
class _Figures:
    """The bottom row's words as they will be drawn: ``tiles`` is None where a face-down tile
    stands for the word."""

    tiles: str | None
    dead: str | None
    score: str | None
    scored: str | None = None


@lru_cache(maxsize=2048)  # asked some 5 times a seat and picture, of the same few seats
def _fitted(seat: Seat, labels: TableLabels, score_word: str, inner: float,
            compact: bool = False) -> _Figures:
    """The words that fit ``inner`` px; ``compact``: a face-down tile for "tiles" even where
    the word fits (another panel of the picture needs the tile)."""
    caption, figure = font(CAPTION_SIZE), font(FIGURE_SIZE, True)
    values = [str(seat.tiles)] + [str(v) for v in (seat.dead, seat.score) if v is not None]
    if seat.scored is not None:
        values.append(signed(seat.scored))
    fixed = sum(figure.getlength(v) for v in values)
    fixed += len(values) * FIGURE_GAP + (len(values) - 1) * ITEM_GAP
    words = [printable(labels.dead) if seat.dead is not None else None,
             printable(score_word) if seat.score is not None else None,
             printable(labels.in_play) if seat.scored is not None else None]
    others = sum(caption.getlength(w) for w in words if w is not None)
    tiles = printable(labels.tiles)
    if not compact and fixed + caption.getlength(tiles) + others <= inner:
        return _Figures(tiles, *words)
    room = inner - fixed - HAND_BACK
    if others <= room:
        return _Figures(None, *words)
    shown = [w for w in words if w is not None]
    share = room / len(shown) if shown else 0
    dead, score, scored = (fit(w, caption, share) if w is not None else None for w in words)
    return _Figures(None, dead, score, scored)


def cuts_words(seat: Seat, labels: TableLabels, score_word: str, width: float) -> bool:
    """Whether a panel ``width`` wide would cut or leave out a word of its figures' row."""
    inner = width - 2 * PAD
    return _fitted(seat, labels, score_word, inner) != _fitted(seat, labels, score_word,
                                                               float("inf"))


def _tiles_row(seat: Seat, height: int) -> Seat:
    """What the row with the tiles shows: a tall panel (:data:`TALL_PANEL`) gives the scores
    a row of their own."""
    return replace(seat, score=None, scored=None) if height >= TALL_PANEL else seat


def compact_tiles(seats: Sequence[Seat], rects: Sequence[Rect], labels: TableLabels,
                  score_word: str) -> bool:
    """Whether the picture's panels show a face-down tile instead of the word "tiles": all
    do where one panel has no room for the word (a five-seat table's narrow top panels in a
    long translation), so that every seat's figures read alike."""
    return any(
        _fitted(_tiles_row(seat, bottom - top), labels, score_word, right - left - 2 * PAD).tiles
        is None
        for seat, (left, top, right, bottom) in zip(seats, rects, strict=True))


def _figure_width(caption: str | None, value: int | str) -> float:
    """How wide :func:`_figure` draws a caption (None: a face-down tile) and its number."""
    shown = width_of(printable(caption), CAPTION_SIZE) if caption is not None else HAND_BACK
    return shown + FIGURE_GAP + width_of(str(value), FIGURE_SIZE, True)


def _words(seat: Seat, labels: TableLabels, score_word: str, width: int, height: int,
           compact: bool) -> _Figures:
    """The words a panel ``width`` x ``height`` draws: a tall one's scores whole, on their
    own row."""
    words = _fitted(_tiles_row(seat, height), labels, score_word, width - 2 * PAD, compact)
    if height < TALL_PANEL:
        return words
    whole = _fitted(seat, labels, score_word, float("inf"))
    return replace(words, score=whole.score, scored=whole.scored)


def _scores_width(seat: Seat, words: _Figures) -> float:
    """How much of the bottom row the scores take at its right end, with the gap before."""
    width = 0.0
    if seat.score is not None:
        width += _figure_width(words.score, seat.score) + ITEM_GAP
    if seat.scored is not None:
        width += _figure_width(words.scored, signed(seat.scored)) + ITEM_GAP
    return width


def _backs_room(seat: Seat, words: _Figures, width: int, height: int) -> float | None:
    """The room for the row of face-down tiles after "tiles N" on a panel ``width`` x
    ``height`` that draws ``words`` (:func:`_words`): up to the dead tiles' figure and the
    scores on its row (None: a face-down tile stands for the word, with no row after it)."""
    if words.tiles is None:
        return None
    room = width - 2 * PAD - _figure_width(words.tiles, seat.tiles) - ITEM_GAP
    if height < TALL_PANEL:
        room -= _scores_width(seat, words)
    if seat.dead is not None:
        room -= _figure_width(words.dead or "", seat.dead) + ITEM_GAP
    return room


def tile_backs(seats: Sequence[Seat], rects: Sequence[Rect], labels: TableLabels,
               score_word: str, compact: bool) -> bool:
    """Whether the picture's panels show a row of face-down tiles after "tiles N": only
    where every panel's whole row fits (a five-seat table's narrow top panels, a seat with
    many tiles, leave every panel without it), so that every seat's tiles read alike."""
    for seat, (left, top, right, bottom) in zip(seats, rects, strict=True):
        width, height = right - left, bottom - top
        room = _backs_room(seat, _words(seat, labels, score_word, width, height, compact),
                           width, height)
        if room is None or (seat.tiles > 0 and row_width(seat.tiles, HAND_BACK, True) > room):
            return False
    return True


def _figure(canvas: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float,
            caption: str | None, value: int | str, palette: Theme, *,
            right_aligned: bool = False, colour: Colour | None = None) -> float:
    """A caption (or, for None, a face-down tile) with its number after it, on one baseline;
    returns the width used."""
    if right_aligned:
        used = text(draw, (x, y), str(value), FIGURE_SIZE, colour or palette.text, bold=True,
                    anchor="rs")
        assert caption is not None
        return used + FIGURE_GAP + text(draw, (x - used - FIGURE_GAP, y), caption,
                                        CAPTION_SIZE, palette.muted, anchor="rs")
    if caption is None:
        paste(canvas, back_sprite(HAND_BACK, True, palette), x, y - 2 * HAND_BACK + 2)
        used = float(HAND_BACK + FIGURE_GAP)
    else:
        used = text(draw, (x, y), caption, CAPTION_SIZE, palette.muted, anchor="ls") + FIGURE_GAP
    return used + text(draw, (x + used, y), str(value), FIGURE_SIZE, palette.text, bold=True,
                       anchor="ls")


def draw_seat(canvas: Image.Image, draw: ImageDraw.ImageDraw, rect: Rect, seat: Seat,
              palette: Theme, labels: TableLabels, score_word: str, *,
              compact: bool = False, backs: bool = True) -> None:
    """One panel: the name and marker on top; tiles, dead tiles and score below. The rows of
    face-down tiles only fill the room the words leave; ``compact``: a face-down tile for the
    word "tiles" (:func:`compact_tiles`); ``backs``: a row of them after "tiles N", where it
    fits (:func:`tile_backs`)."""
    left, top, right, bottom = rect
    width, height = right - left, bottom - top
    edge, line = (palette.accent, 4) if seat.to_move else (palette.panel_edge, 2)
    paste(canvas, rounded(width, height, 18, palette.panel, edge, line), left, top)
    inner = width - 2 * PAD
    name_y = top + 36
    # The pill keeps half the panel, or all that the name leaves of it: the name keeps its
    # first letters at least (five seats' narrow panels cut "pemenang" beside "Di").
    marker = _marker(canvas, draw, right - PAD + 6, name_y - round(PILL_SIZE * 0.75), seat,
                     palette, labels, max(inner * 0.5, inner - 12 - min(
                         name_width(seat.name, seat.team), NAME_LEAST)))
    # The frame and the pill mark the seat to move: no arrow, so a long name keeps its room.
    name_row(canvas, draw, left + PAD, name_y, inner - marker - (12 if marker else 0),
             seat.name, seat.team, palette, first_shared=seat.first_shared)
    baseline = bottom - 20
    # A tall panel (a row where one row of figures would cut a seat's words) gives the scores
    # a row of their own, whole, in every panel of its row alike.
    two_rows = height >= TALL_PANEL
    words = _words(seat, labels, score_word, width, height, compact)
    end = float(right - PAD)
    if seat.score is not None:
        end -= _figure(canvas, draw, end, baseline, words.score, seat.score, palette,
                       right_aligned=True) + ITEM_GAP
    if seat.scored is not None:
        colour = palette.knock if seat.scored < 0 else palette.accent if seat.scored else None
        end -= _figure(canvas, draw, end, baseline, words.scored, signed(seat.scored), palette,
                       right_aligned=True, colour=colour) + ITEM_GAP
    if two_rows:
        end, baseline = float(right - PAD), baseline - ROW_STEP
    x = float(left + PAD)
    x += _figure(canvas, draw, x, baseline, words.tiles, seat.tiles, palette)
    room = _backs_room(seat, words, width, height) if backs else None
    if room is not None:  # with the word, a row of backs shows the count too
        x += face_down_row(canvas, palette, x + ITEM_GAP / 2, baseline - 2 * HAND_BACK + 2,
                           seat.tiles, HAND_BACK, True, room)
    x += ITEM_GAP
    if seat.dead is not None:
        x += _figure(canvas, draw, x, baseline, words.dead, seat.dead, palette) + ITEM_GAP / 2
        face_down_row(canvas, palette, x, baseline - DEAD_BACK - 4, seat.dead, DEAD_BACK,
                      False, end - x)
