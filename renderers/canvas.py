"""Drawing helpers shared by every picture: text, pills, tiles, PNG encoding."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any, Literal

from PIL import Image, ImageChops, ImageDraw, ImageFont

from .errors import ViewMismatchError
from .fonts import fallback, fit, fit_name, font, printable, runs, ui_covers
from .labels import TableLabels
from .palettes import PALETTES
from .sprites import SUPERSAMPLE, Look, back_sprite, reduced, supersampled, tile_sprite
from .strokes import Stroke, lay, named, sprite_stroke
from .themes import Colour, Theme

# A picture holds a few dozen colours and their anti-aliased blends, so 256 palette entries
# lose nothing visible, and an 8-bit PNG is a third of the data to compress: about a third of
# the bytes and time of RGB. The renderers know their colours: each theme's 256 are learned
# once from the golden samples (renderers.palettes, made by ``python -m goldens.palettes``),
# so a picture's pixels are only mapped to the nearest of them, not searched for a palette of
# their own (an octree over a million pixels took longer than drawing the picture).
PALETTE_COLOURS = 256
# zlib's level 3, not its default 6: a table picture is compressed in 4 ms instead of 8 to 9
# and comes out about a quarter larger (32 KB -> 42 KB at 28 tiles), which a server uploads
# in well under a millisecond; the encoding is the largest part of a move's cost.
COMPRESS_LEVEL = 3
# Labels are laid out and rasterised by FreeType once and their masks kept: a table draws
# some thirty of them (names, counts, scores), nearly all the same as on the previous picture.
# A mask is some 2.5 KB: 1,024 of them hold every busy table's labels in under 3 MB.
LETTERING_CACHE = 1024

Anchor = Literal["la", "ra", "ma", "lm", "rm", "mm", "ls", "ms", "rs"]


@cache
def learned_palette(theme_name: str) -> Image.Image | None:
    """The theme's learned palette as a 1 x 1 palette picture (what ``quantize`` takes), or
    None for a theme without one."""
    colours = PALETTES.get(theme_name)
    if colours is None:
        return None
    palette = Image.new("P", (1, 1))
    palette.putpalette(colours)
    return palette


def encode(image: Image.Image, theme: Theme | None = None) -> bytes:
    """The picture as PNG bytes, in the ``theme``'s palette (without one, or for a theme
    without a learned palette, one searched for this picture). Pillow writes no timestamp,
    so equal pictures give equal bytes."""
    palette = learned_palette(theme.name) if theme is not None else None
    if palette is None:
        indexed = image.quantize(
            PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
    else:
        indexed = image.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    indexed.save(out, format="PNG", compress_level=COMPRESS_LEVEL)
    return out.getvalue()


def _ui_only(words: str) -> bool:
    covers = ui_covers()
    return all(ord(char) in covers for char in words)


@lru_cache(maxsize=LETTERING_CACHE)
def _lettering(words: str, size: int, bold: bool, anchor: Anchor,
               start: tuple[float, float]) -> tuple[Any, tuple[int, int]]:
    """FreeType's anti-aliased mask of ``words`` and its offset from the anchor point, for a
    pen at the fraction ``start`` of a pixel: what ``ImageDraw.text`` computes every time."""
    if _ui_only(words):
        return font(size, bold).getmask2(words, "L", anchor=anchor, start=start)
    return _mixed(words, size, bold, anchor, start)


def _mixed(words: str, size: int, bold: bool, anchor: Anchor,
           start: tuple[float, float]) -> tuple[Any, tuple[int, int]]:
    """The mask of words drawn in two fonts, run by run (:func:`renderers.fonts.runs`), on
    the UI font's baseline and placed at ``anchor`` by the UI font's ascent and descent, so
    that they line up with the words beside them."""
    ui = font(size, bold)
    ascent, descent = ui.getmetrics()
    pieces = runs(words)
    width = sum(_face(size, bold, which).getlength(run) for run, which in pieces)
    pen_x = start[0] - width * {"l": 0.0, "m": 0.5, "r": 1.0}[anchor[0]]
    pen_y = start[1] + {"a": ascent, "m": (ascent - descent) / 2, "s": 0.0}[anchor[1]]
    placed = []
    for run, which in pieces:
        face = _face(size, bold, which)
        whole_x, whole_y = math.floor(pen_x), math.floor(pen_y)
        mask, (left, top) = face.getmask2(run, "L", anchor="ls",
                                          start=(pen_x - whole_x, pen_y - whole_y))
        placed.append((mask, whole_x + left, whole_y + top))
        pen_x += face.getlength(run)
    drawn = [(mask, x, y) for mask, x, y in placed if mask.size[0] and mask.size[1]]
    if not drawn:
        return placed[0][0], (0, 0)
    left = min(x for _, x, _ in drawn)
    top = min(y for _, _, y in drawn)
    right = max(x + mask.size[0] for mask, x, _ in drawn)
    bottom = max(y + mask.size[1] for mask, _, y in drawn)
    sheet = Image.new("L", (right - left, bottom - top), 0)
    for mask, x, y in drawn:
        piece = Image.frombytes("L", mask.size, bytes(mask))
        sheet.paste(ImageChops.lighter(sheet.crop((x - left, y - top, x - left + piece.width,
                                                   y - top + piece.height)), piece),
                    (x - left, y - top))
    return sheet.im, (left, top)


def _face(size: int, bold: bool, which: int) -> ImageFont.FreeTypeFont:
    return fallback(size, bold, which) if which else font(size, bold)


@lru_cache(maxsize=LETTERING_CACHE)
def width_of(words: str, size: int, bold: bool = False) -> float:
    """How wide ``words`` are drawn at ``size``."""
    if _ui_only(words):
        return font(size, bold).getlength(words)
    return sum(_face(size, bold, which).getlength(run) for run, which in runs(words))


@lru_cache(maxsize=LETTERING_CACHE)
def fitted(words: str, size: int, bold: bool, max_width: float) -> str:
    """``words`` as the fonts draw them, shortened with an ellipsis to ``max_width``."""
    return fit(printable(words), lambda some: width_of(some, size, bold), max_width)


def fitted_name(name: str, size: int, bold: bool, max_width: float,
                first_shared: bool = False) -> str:
    """A person's ``name`` as the fonts draw it, shortened to ``max_width`` as
    :func:`renderers.fonts.fit_name` shortens names (initials, then an ellipsis)."""
    return fit_name(printable(name), lambda some: width_of(some, size, bold), max_width,
                    first_shared=first_shared)


def shared_first(names: Sequence[str]) -> tuple[bool, ...]:
    """For each of ``names``, whether another of them starts with the same word (two
    "Muhammad ..."): its first word then tells nobody apart (:func:`fitted_name`)."""
    firsts = [(name.removeprefix(ROBOT).split() or [""])[0].casefold() for name in names]
    return tuple(bool(first) and firsts.count(first) > 1 for first in firsts)


def letter(draw: ImageDraw.ImageDraw, xy: tuple[float, float], words: str, size: int,
           colour: Colour, *, bold: bool = False, anchor: Anchor = "la") -> None:
    """``ImageDraw.text`` for one line of drawable words, pixel for pixel, with the mask
    cached (see :data:`LETTERING_CACHE`): the mask is filled with ``colour`` where it is."""
    x, y = xy
    start = (math.modf(x)[0], math.modf(y)[0])
    mask, (left, top) = _lettering(words, size, bold, anchor, start)
    if not mask.size[0] or not mask.size[1]:
        return
    box = (int(x) + left, int(y) + top, int(x) + left + mask.size[0], int(y) + top + mask.size[1])
    lay(draw.im, Stroke(box, mask, colour, ("letters", words, size, bold, anchor, start)))


def text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], words: str, size: int,
         colour: Colour, *, bold: bool = False, anchor: Anchor = "la",
         max_width: float | None = None) -> float:
    """Draw ``words`` (shortened to ``max_width``); returns the width drawn."""
    words = printable(words) if max_width is None else fitted(words, size, bold, max_width)
    letter(draw, xy, words, size, colour, bold=bold, anchor=anchor)
    return width_of(words, size, bold)


@lru_cache(maxsize=256)
def rounded(width: int, height: int, radius: int, fill: Colour, outline: Colour | None = None,
            line: int = 0) -> Image.Image:
    """A smooth rounded rectangle (or circle) as an RGBA sprite: Pillow draws shapes without
    anti-aliasing, so it is drawn larger and reduced, once per size and colour."""
    k = SUPERSAMPLE
    image = supersampled((width * k, height * k))
    ImageDraw.Draw(image).rounded_rectangle(
        (0, 0, width * k - 1, height * k - 1), radius * k, fill=fill, outline=outline,
        width=line * k,
    )
    return named(reduced(image), "rounded", width, height, radius, fill, outline, line)


def pill(canvas: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float, words: str,
         size: int, fill: Colour, colour: Colour, *, align_right: bool = False,
         max_width: float = 400) -> float:
    """A rounded label whose top-left (or top-right) corner is (x, y); returns its width."""
    words = fitted(words, size, True, max_width - size)
    width = round(width_of(words, size, True)) + size
    height = round(size * 1.5)
    left = x - width if align_right else x
    paste(canvas, rounded(width, height, height // 2, fill), left, y)
    letter(draw, (left + width / 2, y + height / 2), words, size, colour, bold=True, anchor="mm")
    return width


def paste(canvas: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    """``sprite`` through its own alpha, its top-left corner at (x, y) rounded."""
    lay(canvas.im, sprite_stroke(sprite, round(x), round(y)))


def face_up(canvas: Image.Image, palette: Theme, x: float, y: float, first: int, second: int,
            side: int, vertical: bool, look: Look = Look.PLAIN) -> None:
    paste(canvas, tile_sprite(first, second, side, vertical, palette, look), x, y)


def row_width(count: int, side: int, vertical: bool) -> float:
    """How wide :func:`face_down_row` draws ``count`` face-down tiles."""
    gap = max(2, side // 6)
    return count * ((side if vertical else 2 * side) + gap) - gap


def face_down_row(canvas: Image.Image, palette: Theme, x: float, y: float, count: int, side: int,
                  vertical: bool, max_width: float) -> float:
    """``count`` face-down tiles in a row, or none if they do not all fit in ``max_width``
    (a partial row would misstate the count); returns the width used."""
    length = side if vertical else 2 * side
    gap = max(2, side // 6)
    needed = row_width(count, side, vertical)
    if count <= 0 or needed > max_width:
        return 0.0
    sprite = back_sprite(side, vertical, palette)
    for i in range(count):
        paste(canvas, sprite, x + i * (length + gap), y)
    return float(needed)


# A computer player's mark, as the bot's texts write it ("🤖 Rio"): no font here has the
# emoji, so the pictures draw it (:func:`robot`) where a name starts with it.
ROBOT = "\U0001f916"


def seat_names(names: Sequence[str], seats: int, labels: TableLabels) -> tuple[str, ...]:
    """Names the font can draw; a name with nothing drawable becomes "Player n"; a leading
    robot (a computer player's mark) is kept, to be drawn as a picture."""
    if len(names) != seats:
        raise ViewMismatchError(f"{seats} seats need {seats} names, not {len(names)}")
    shown = []
    for seat, name in enumerate(map(str, names)):
        computer = name.startswith(ROBOT)
        cleaned = printable(name.removeprefix(ROBOT)) or printable(
            labels.player.format(number=seat + 1))
        shown.append(f"{ROBOT} {cleaned}" if computer else cleaned)
    return tuple(shown)


@cache
def robot(size: int, colour: Colour) -> Image.Image:
    """The robot mark ``size`` px square: a head with an antenna, two eyes and a mouth."""
    big = size * SUPERSAMPLE
    sprite = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    clear = (0, 0, 0, 0)
    u = big / 20
    draw.line([(10 * u, 1.5 * u), (10 * u, 6 * u)], fill=colour, width=round(1.6 * u))
    draw.ellipse([8.3 * u, 0, 11.7 * u, 3.4 * u], fill=colour)
    draw.rounded_rectangle([1.5 * u, 5 * u, 18.5 * u, 19 * u], radius=4 * u, fill=colour)
    draw.ellipse([5 * u, 8.5 * u, 8.6 * u, 12.1 * u], fill=clear)
    draw.ellipse([11.4 * u, 8.5 * u, 15 * u, 12.1 * u], fill=clear)
    draw.rounded_rectangle([6.5 * u, 14.5 * u, 13.5 * u, 16.3 * u], radius=0.9 * u, fill=clear)
    return named(sprite.resize((size, size), Image.Resampling.LANCZOS), "robot", size, colour)
