"""A player's own tiles for the private chat, beside the buttons: the playable ones raised and
outlined, the others dimmed, each named as its button is ("3-5"), in the order of the view's
hand, which is the buttons' order too (never re-sorted here)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine import PlayerView

from .board import end_colours, end_mark, end_widths
from .canvas import badge, encode, face_up, pill, text
from .fonts import SMALLEST_TEXT
from .labels import ENGLISH, TableLabels
from .sprites import Look
from .table import HEADER, MARGIN, backdrop
from .themes import Theme, find_theme

SIDE = 72  # tiles stand 72 x 144
DEAD_SIDE = 44
GAP = 20
RAISE = 18
EDGE = 44  # felt edge to the first tile
LABEL_SIZE = SMALLEST_TEXT  # as on the group pictures
TITLE_SIZE = 40
STATUS_H = 16 + 48 + 12  # the felt's top row, where "your turn" stands
MIN_WIDTH, MAX_WIDTH = 900, 1280


def _looks(view: PlayerView) -> list[Look]:
    """Raised and outlined: playable now. Dimmed: held but not playable on this turn."""
    if not view.my_turn or view.must_discard():
        return [Look.PLAIN] * len(view.hand)
    playable = view.playable()
    return [Look.HIGHLIGHT if tile in playable else Look.DIM for tile in view.hand]


def _sizes(view: PlayerView) -> tuple[int, int, int, int]:
    """(tile side, dead tile side, content width, canvas width): tiles shrink only when a hand
    is too long for the widest picture."""
    side, dead_side = SIDE, DEAD_SIDE
    while True:
        tiles = len(view.hand) * (side + GAP) - GAP
        dead = len(view.dead) * (dead_side + GAP // 2) + GAP + 100 if view.dead else 0
        content = max(tiles, 0) + dead
        if content + 2 * (MARGIN + EDGE) <= MAX_WIDTH or side <= 32:
            width = max(MIN_WIDTH, min(MAX_WIDTH, content + 2 * (MARGIN + EDGE)))
            return side, dead_side, content, width
        side -= 4
        dead_side = max(28, dead_side - 2)


def _header(canvas: Image.Image, draw: ImageDraw.ImageDraw, view: PlayerView, palette: Theme,
            labels: TableLabels) -> None:
    middle = HEADER // 2 + 2
    right = canvas.width - MARGIN - 8.0
    layout = view.table.layout
    # The ends only while the picture is current: a waiting player's picture is not drawn
    # again after others' moves (nor does its caption name what they change), so ends shown
    # there would go stale. The group's table shows them all the time.
    current = view.my_turn or view.table.result is not None or view.table.to_move is None
    if not current:
        layout, ends = None, None
    elif layout is not None:
        ends = None
    else:
        ends = view.table.ends
    if layout is not None and layout.ends:  # every open end, with all its numbers
        radius = 28
        for end in reversed(layout.ends):
            fill, colour, ring = end_colours(view.table.game, end, palette)
            width = end_widths(end, radius)
            end_mark(canvas, draw, (right - width / 2, middle), radius, end, fill, colour, ring)
            right -= width + 10
        right -= text(draw, (right, middle), labels.ends, LABEL_SIZE, palette.muted,
                      anchor="rm", max_width=180) + 20
    if ends is not None:
        radius = 28
        for number in reversed(ends):
            badge(canvas, draw, (right - radius, middle), radius, number, palette.accent,
                  palette.on_accent, palette.felt_edge)
            right -= 2 * radius + 10
        right -= text(draw, (right, middle), labels.ends, LABEL_SIZE, palette.muted,
                      anchor="rm", max_width=180) + 20
    x = MARGIN + 8.0
    title = f"{labels.your_tiles} · {labels.hand.format(number=view.table.hand_number + 1)}"
    text(draw, (x, middle), title, TITLE_SIZE, palette.text, bold=True, anchor="lm",
         max_width=right - x - 18)


def _status(canvas: Image.Image, draw: ImageDraw.ImageDraw, view: PlayerView, palette: Theme,
            labels: TableLabels) -> None:
    """What the player must do now, centred on the felt above the tiles."""
    if view.must_discard():
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


def draw_hand(view: PlayerView, palette: Theme, labels: TableLabels) -> Image.Image:
    """The player's tiles as a Pillow image (see :func:`render_hand`)."""
    side, dead_side, content, width = _sizes(view)
    height = HEADER + STATUS_H + RAISE + 2 * side + 14 + LABEL_SIZE + 30 + MARGIN
    canvas = backdrop(palette.name, width, height).copy()
    draw = ImageDraw.Draw(canvas)
    _header(canvas, draw, view, palette, labels)
    _status(canvas, draw, view, palette, labels)
    top = HEADER + STATUS_H + RAISE
    label_y = top + 2 * side + 14
    x = (width - content) / 2
    for tile, look in zip(view.hand, _looks(view), strict=True):
        lift = RAISE if look is Look.HIGHLIGHT else 0
        face_up(canvas, palette, x, top - lift, tile.low, tile.high, side, True, look)
        colour = palette.muted if look is Look.DIM else palette.text
        text(draw, (x + side / 2, label_y), str(tile), LABEL_SIZE, colour,
             bold=look is Look.HIGHLIGHT, anchor="ma")
        x += side + GAP
    if view.dead:
        x += GAP
        dead_top = top + 2 * side - 2 * dead_side
        x += 10 + text(draw, (x, dead_top + dead_side), labels.dead, LABEL_SIZE, palette.knock,
                       anchor="lm", max_width=110)
        for tile in view.dead:
            face_up(canvas, palette, x, dead_top, tile.low, tile.high, dead_side, True, Look.DEAD)
            x += dead_side + GAP // 2
    return canvas


def render_hand(view: PlayerView, *, theme: str = "classic",
                labels: TableLabels | None = None) -> bytes:
    """The player's hand as PNG bytes, the tiles they may play now standing out."""
    palette = find_theme(theme)
    return encode(draw_hand(view, palette, labels or ENGLISH), palette)
