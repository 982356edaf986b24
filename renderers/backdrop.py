"""What every picture is drawn on: the background and the felt (:func:`backdrop`); and, for the
pictures of a match, the header row above the felt: the game's name, the hand (or the moment)
and its rules."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine import TableView

from .canvas import text
from .fonts import SMALLEST_TEXT
from .labels import TableLabels
from .themes import Theme, find_theme

WIDTH = 1280  # the group's pictures: a phone shows them some 400 px wide
HEADER = 76  # the header row above the felt
MARGIN = 14
TITLE_SIZE = 48
DETAILS_SIZE = SMALLEST_TEXT


@lru_cache(maxsize=8)
def backdrop(theme_name: str, width: int, height: int) -> Image.Image:
    """The empty table, drawn once per theme and size and copied for every picture."""
    palette = find_theme(theme_name)
    image = Image.new("RGB", (width, height), palette.background)
    draw = ImageDraw.Draw(image)
    felt = (MARGIN, HEADER, width - MARGIN, height - MARGIN)
    draw.rounded_rectangle(felt, 30, fill=palette.felt, outline=palette.felt_edge, width=4)
    return image


def header(canvas: Image.Image, draw: ImageDraw.ImageDraw, view: TableView, palette: Theme,
           labels: TableLabels, reserved: float = 0, moment: str | None = None) -> None:
    """The game's name, the hand (or ``moment``), the set and the target; ``reserved`` px kept
    free at right."""
    x = MARGIN + 8
    middle = HEADER // 2 + 2
    used = text(draw, (x, middle), labels.game_title(view.game), TITLE_SIZE, palette.text,
                bold=True, anchor="lm", max_width=560)
    details = [moment or labels.hand.format(number=view.hand_number + 1)]
    if view.set != 6:
        details.append(labels.set_name.format(number=view.set))
    details.append(labels.target.format(target=view.target))
    text(draw, (x + used + 18, middle + 2), " · ".join(details), DETAILS_SIZE, palette.muted,
         anchor="lm", max_width=canvas.width - x - used - 18 - MARGIN - 8 - reserved)
