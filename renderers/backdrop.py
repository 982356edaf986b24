"""What every picture is drawn on: the background and the felt (:func:`backdrop`); and, for the
pictures of a match, the header row above the felt: the game's name, the hand (or the moment)
and its rules."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine import TableView

from .canvas import text, width_of
from .fonts import SMALLEST_TEXT
from .labels import TableLabels
from .themes import Theme, find_theme

WIDTH = 1280  # the group's pictures: a phone shows them some 400 px wide
HEADER = 76  # the header row above the felt
MARGIN = 14
TITLE_SIZE = 48
TITLE_GAP = 18  # between the game's name and the details after it
DETAILS_SIZE = SMALLEST_TEXT
DETAILS_LEAST = 120  # less room than this for the details, and they are left out


@lru_cache(maxsize=8)
def backdrop(theme_name: str, width: int, height: int) -> Image.Image:
    """The empty table, drawn once per theme and size and copied for every picture."""
    palette = find_theme(theme_name)
    image = Image.new("RGB", (width, height), palette.background)
    draw = ImageDraw.Draw(image)
    felt = (MARGIN, HEADER, width - MARGIN, height - MARGIN)
    draw.rounded_rectangle(felt, 30, fill=palette.felt, outline=palette.felt_edge, width=4)
    return image


def title_size(title: str, details: str, room: float) -> int:
    """The game's name's size in a header ``room`` px wide: :data:`TITLE_SIZE`, or smaller
    (to :data:`SMALLEST_TEXT`, the least a phone reads) where the name and the details
    would not fit beside each other whole."""
    details_width = width_of(details, DETAILS_SIZE) + TITLE_GAP
    for size in range(TITLE_SIZE, SMALLEST_TEXT, -2):
        if width_of(title, size, True) + details_width <= room:
            return size
    return SMALLEST_TEXT


def header(canvas: Image.Image, draw: ImageDraw.ImageDraw, view: TableView, palette: Theme,
           labels: TableLabels, reserved: float = 0, moment: str | None = None) -> None:
    """The game's name, the hand (or ``moment``), the set and the target; ``reserved`` px kept
    free at right. The name is drawn whole (smaller where it must be); the details take the
    room it leaves."""
    x = MARGIN + 8
    middle = HEADER // 2 + 2
    hand = moment or labels.hand.format(number=view.hand_number + 1)
    target = labels.target.format(target=view.target)
    details = [hand, labels.set_name.format(number=view.set), target] if view.set != 6 \
        else [hand, target]
    words = " · ".join(details)
    room = canvas.width - x - MARGIN - 8 - reserved
    title = labels.game_title(view.game)
    used = text(draw, (x, middle), title, title_size(title, words, room), palette.text,
                bold=True, anchor="lm", max_width=room)
    left = room - used - TITLE_GAP
    # Where the details do not fit whole, the set's name goes first (its tiles show it), then
    # the hand's number: the target is never cut ("to 5…" read as another target).
    while len(details) > 1 and width_of(" · ".join(details), DETAILS_SIZE) > left:
        details.pop(-2)
    if left >= DETAILS_LEAST:
        text(draw, (x + used + TITLE_GAP, middle + 2), " · ".join(details), DETAILS_SIZE,
             palette.muted, anchor="lm", max_width=left)
