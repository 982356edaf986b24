"""A player's own tiles for the private chat, beside the buttons: the playable ones raised and
outlined, the others dimmed, each named as its button is ("3-5"), in the order of the view's
hand, which is the buttons' order too (never re-sorted here). A hand of more than
:data:`PER_ROW` tiles (a Muggins or French hand after long draws, Kolbasa after taking a ribbon)
wraps into rows of equal length, read left to right and top to bottom as the buttons are: in
one row its tiles and labels would be a third of their size on a phone. While the player
picks how a tapped tile goes (an end, along or across, a ribbon), that tile alone is raised
(``chosen``): the picture shows which one is being placed."""

from __future__ import annotations

import math
from functools import partial

from PIL import Image, ImageDraw

from engine import HandEndReason, PlayerView, Tile

from .backdrop import HEADER, MARGIN, backdrop
from .board import end_colours, end_mark, mark_width
from .canvas import face_up, pill, text, width_of
from .fonts import SMALLEST_TEXT
from .frames import Frame, framed
from .labels import ENGLISH, TableLabels
from .ribbons import ARROW, end_arrow, ribbon_name, ribbon_name_width
from .sprites import Look
from .themes import Theme, find_theme

SIDE = 72  # tiles stand 72 x 144
DEAD_SIDE = 44
GAP = 20
RAISE = 18
EDGE = 44  # felt edge to the first tile
LABEL_SIZE = SMALLEST_TEXT  # as on the group pictures
TITLE_SIZE = 46
STATUS_H = 16 + 48 + 12  # the felt's top row, where "your turn" stands
MIN_WIDTH, MAX_WIDTH = 900, 1280
# At most 8 tiles a row: 8 fit the narrowest picture at full size, which a phone shows 400 px
# wide: tiles some 32 px across, labels 14 px high (15 in one row were 17 and 6).
PER_ROW = 8
ROW_GAP = 22  # from a row's labels to the next row's raised tiles
DEAD_WORD_MOST = 220  # the word before the dead tiles, at most
LABEL_APART = 12  # the least room between two tiles' labels
RIBBON_GAP = 14  # more room between a ribbon's mark and the next ribbon's name
ARROW_GAP = 6  # from an end's triangle to its mark
END_GAP = 10  # more room between an end's mark and the next end's triangle


def _looks(view: PlayerView, chosen: Tile | None = None) -> list[Look]:
    """Raised and outlined: playable now, or the tile ``chosen`` alone while its player
    picks how it goes. Dimmed: held but not playable on this turn (or not the one chosen)."""
    if chosen is not None:
        return [Look.HIGHLIGHT if tile == chosen else Look.DIM for tile in view.hand]
    if not view.my_turn or view.must_discard():
        return [Look.PLAIN] * len(view.hand)
    playable = view.playable()
    return [Look.HIGHLIGHT if tile in playable else Look.DIM for tile in view.hand]


def _rows(count: int) -> int:
    """How many rows a hand of ``count`` tiles takes: rows of at most :data:`PER_ROW`."""
    return max(1, -(-count // PER_ROW))


def _dead_word(labels: TableLabels) -> float:
    """The room for the word before the player's dead tiles: the word in their language,
    whole (110 px cut the Russian "мёртвые" to "мёр…"), up to :data:`DEAD_WORD_MOST`."""
    return min(width_of(labels.dead, LABEL_SIZE), DEAD_WORD_MOST)


def _dead_width(view: PlayerView, dead_side: int, labels: TableLabels) -> float:
    """How wide the dead tiles are with their word, beside the last row (0: none)."""
    if not view.dead:
        return 0.0
    return len(view.dead) * (dead_side + GAP // 2) + GAP + 10 + _dead_word(labels)


def _gap(view: PlayerView, side: int) -> int:
    """From one tile to the next in a row: :data:`GAP`, or more where the labels under them
    are wider than a tile (double-twelve tiles like 11-11 beside tiles made smaller for the
    dead ones), so that a label never runs into its neighbour's."""
    widest = max((width_of(str(tile), LABEL_SIZE, True) for tile in view.hand), default=0.0)
    return max(GAP, math.ceil(widest + LABEL_APART - side))


def _sizes(view: PlayerView, labels: TableLabels) -> tuple[int, int, int, int]:
    """(tile side, dead tile side, content width, canvas width): the widest row's tiles, and
    the dead tiles beside the last row; tiles shrink only when that is too wide for the
    widest picture."""
    side, dead_side = SIDE, DEAD_SIDE
    rows = _rows(len(view.hand))
    per_row = -(-len(view.hand) // rows)
    last = len(view.hand) - per_row * (rows - 1)
    while True:
        dead = _dead_width(view, dead_side, labels)
        pitch = side + _gap(view, side)
        content = round(max(per_row * pitch - pitch + side,
                            max(last * pitch - pitch + side, 0) + dead))
        if content + 2 * (MARGIN + EDGE) <= MAX_WIDTH or side <= 32:
            width = max(MIN_WIDTH, min(MAX_WIDTH, content + 2 * (MARGIN + EDGE)))
            return side, dead_side, content, width
        side -= 4
        dead_side = max(28, dead_side - 2)


def row_pitch(side: int) -> int:
    """From one row's tops to the next: the tiles, their labels, room for a raised tile."""
    return RAISE + 2 * side + 14 + LABEL_SIZE + ROW_GAP


def _header(canvas: Image.Image, draw: ImageDraw.ImageDraw, view: PlayerView, palette: Theme,
            labels: TableLabels) -> None:
    middle = HEADER // 2 + 2
    right = canvas.width - MARGIN - 8.0
    # The ends only while the picture is current: a waiting player's picture is not drawn
    # again after others' moves (nor does its caption name what they change), so ends shown
    # there would go stale. The group's table shows them all the time. Nor once the hand is
    # over: the picture kept after it shows what was left in hand, and no end is open to play.
    current = view.my_turn or view.table.to_move is None
    ends = view.table.layout.ends if current and view.table.result is None else ()
    # Kolbasa's two ends are its ribbons, each mark named as the table and the buttons name
    # it ("▲ upper", "▼ lower"): bare numbers did not say which ribbon was which. Every
    # other end has its button's triangle before it (◀ left, ▶ right, ▲ up, ▼ down): four
    # bare Muggins circles did not say which button was which.
    ribbons = view.table.layout.kind == "ribbons"
    x = MARGIN + 8.0
    number = labels.hand.format(number=view.table.hand_number + 1)
    title = f"{labels.your_tiles} · {number}"
    radius = 28
    counts = view.table.layout.scores_count

    def marks(names: bool) -> float:
        return sum(mark_width(end, radius, counts) + 10
                   + (ribbon_name_width(end.end, labels, names) + 10 + RIBBON_GAP if ribbons
                      else 2 * ARROW + ARROW_GAP + END_GAP) for end in ends)

    word = min(width_of(labels.ends, LABEL_SIZE), 180) + 20 if ends and not ribbons else 0.0
    names = True

    def fits(words: str, reserved: float) -> bool:
        return width_of(words, TITLE_SIZE, True) <= right - x - 18 - reserved

    # The title keeps the hand's number whole: where Muggins' four ends leave too little
    # room, the word "ends" goes first, then "Your tiles" (a private chat's tiles are its own).
    # Kolbasa's "upper" and "lower" go only once "Your tiles" has gone; the triangles stay.
    if ends and not fits(title, marks(names) + word):
        if ribbons and fits(number, marks(names)):
            title = number
        elif ribbons:
            names = False
            title = title if fits(title, marks(names)) else number
        elif fits(title, marks(names)):
            word = 0.0
        else:
            title = number
            word = word if fits(title, marks(names) + word) else 0.0
    for end in reversed(ends):  # every open end, with all its numbers, as the table marks it
        fill, colour, ring = end_colours(end, palette, counts)
        width = mark_width(end, radius, counts)
        end_mark(canvas, draw, (right - width / 2, middle), radius, end, fill, colour, ring,
                 counts)
        right -= width + 10
        if ribbons:
            right -= ribbon_name(canvas, draw, (right, middle), end.end, palette, labels,
                                 names) + 10 + RIBBON_GAP
        else:
            right -= end_arrow(canvas, (right + 10 - ARROW_GAP, middle), end.end,
                               palette.accent) + ARROW_GAP + END_GAP
    if word:
        right -= text(draw, (right, middle), labels.ends, LABEL_SIZE, palette.muted,
                      anchor="rm", max_width=180) + 20
    text(draw, (x, middle), title, TITLE_SIZE, palette.text, bold=True, anchor="lm",
         max_width=right - x - 18)


def _status(canvas: Image.Image, draw: ImageDraw.ImageDraw, view: PlayerView, palette: Theme,
            labels: TableLabels) -> None:
    """What the player must do now, centred on the felt above the tiles; once the hand is
    over, that it is, and how where that is short to say."""
    result = view.table.result
    if result is not None:
        if result.out_seat == view.seat:
            words, fill = labels.you_went_out, palette.winner
        elif result.reason is HandEndReason.BLOCKED:
            words, fill = labels.hand_blocked, palette.muted
        else:
            words, fill = labels.hand_over, palette.muted
    elif view.must_discard():
        words, fill = labels.lay_dead, palette.knock
    elif view.must_knock():
        words, fill = labels.knock, palette.knock
    elif view.my_turn:
        words, fill = labels.your_turn, palette.accent
    else:
        return
    room = canvas.width - 2 * (MARGIN + EDGE)
    width = pill(canvas, draw, 0, -1000, words, LABEL_SIZE, fill, palette.on_accent,
                 max_width=room)
    pill(canvas, draw, (canvas.width - width) / 2, HEADER + 16, words, LABEL_SIZE, fill,
         palette.on_accent, max_width=room)


def _size(view: PlayerView, labels: TableLabels) -> tuple[int, int]:
    """The picture's width and height."""
    side, _, _, width = _sizes(view, labels)
    rows = _rows(len(view.hand))
    return width, (HEADER + STATUS_H + RAISE + (rows - 1) * row_pitch(side) + 2 * side + 14
                   + LABEL_SIZE + 30 + MARGIN)


def _compose(canvas: Image.Image, view: PlayerView, palette: Theme, labels: TableLabels,
             chosen: Tile | None = None) -> None:
    """Lay everything but the backdrop on ``canvas`` (of :func:`_size`)."""
    side, dead_side, _, width = _sizes(view, labels)
    rows = _rows(len(view.hand))
    per_row = -(-len(view.hand) // rows)
    pitch = row_pitch(side)
    draw = ImageDraw.Draw(canvas)
    _header(canvas, draw, view, palette, labels)
    _status(canvas, draw, view, palette, labels)
    if not view.hand and not view.dead:  # went out: the felt says so rather than lie bare
        text(draw, (width / 2, HEADER + STATUS_H + RAISE + side), labels.no_tiles_left,
             TITLE_SIZE, palette.muted, anchor="mm", max_width=width - 2 * (MARGIN + EDGE))
    looks = _looks(view, chosen)
    gap = _gap(view, side)
    x = top = 0.0
    for row in range(rows):
        tiles = view.hand[row * per_row:(row + 1) * per_row]
        top = HEADER + STATUS_H + RAISE + row * pitch
        row_width = max(len(tiles) * (side + gap) - gap, 0.0)
        if row == rows - 1:
            row_width += _dead_width(view, dead_side, labels)
        x = (width - row_width) / 2
        label_y = top + 2 * side + 14
        for tile, look in zip(tiles, looks[row * per_row:(row + 1) * per_row], strict=True):
            lift = RAISE if look is Look.HIGHLIGHT else 0
            face_up(canvas, palette, x, top - lift, tile.low, tile.high, side, True, look)
            colour = palette.muted if look is Look.DIM else palette.text
            text(draw, (x + side / 2, label_y), str(tile), LABEL_SIZE, colour,
                 bold=look is Look.HIGHLIGHT, anchor="ma")
            x += side + gap
    if view.dead:  # beside the last row
        x += GAP
        dead_top = top + 2 * side - 2 * dead_side
        x += 10 + text(draw, (x, dead_top + dead_side), labels.dead, LABEL_SIZE, palette.knock,
                       anchor="lm", max_width=_dead_word(labels))
        for tile in view.dead:
            face_up(canvas, palette, x, dead_top, tile.low, tile.high, dead_side, True, Look.DEAD)
            x += dead_side + GAP // 2


def draw_hand(view: PlayerView, palette: Theme, labels: TableLabels,
              chosen: Tile | None = None) -> Image.Image:
    """The player's tiles as a Pillow image (see :func:`render_hand`)."""
    canvas = backdrop(palette.name, *_size(view, labels)).copy()
    _compose(canvas, view, palette, labels, chosen)
    return canvas


def hand_picture(view: PlayerView, *, theme: str = "classic", labels: TableLabels | None = None,
                 since: Frame | None = None, chosen: Tile | None = None
                 ) -> tuple[bytes, Frame]:
    """The hand's PNG bytes (the same as :func:`render_hand`'s) and its
    :class:`~renderers.frames.Frame`, drawn only where the picture differs from ``since``,
    the frame of the same player's previous hand picture (a picture of another size is
    simply drawn whole)."""
    palette, words = find_theme(theme), labels or ENGLISH
    return framed(palette, *_size(view, words),
                  partial(_compose, view=view, palette=palette, labels=words, chosen=chosen),
                  since)


def render_hand(view: PlayerView, *, theme: str = "classic",
                labels: TableLabels | None = None, chosen: Tile | None = None) -> bytes:
    """The player's hand as PNG bytes, the tiles they may play now standing out, or only
    ``chosen``, a tile of the hand its player is placing (see :func:`_looks`)."""
    return hand_picture(view, theme=theme, labels=labels, chosen=chosen)[0]
