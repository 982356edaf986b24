"""Tile pictures, drawn once per (number, size, orientation, look, theme) and reused.

Each sprite is drawn four times larger and reduced, which smooths the pips' and corners'
edges; the caches make that cost a one-off, so a table costs one paste per tile.
A sprite is an RGBA image with the tile's soft shadow below and right of it: paste it at the
tile's top-left corner.

What is kept drawn is halves, not tiles. The reduction averages each 4x4 block by itself, and
a half's pips stay inside its own square, so every pixel of a tile's first square (left or
top) is the same whatever its second number is, and the other way round: a tile is its first
number's first half beside its second number's second half, copied, the very pixels of the
tile drawn whole. The halves a running bot uses are few (13 numbers against 169 ordered
pairs of the double-twelve set, at the sizes, orientations and looks of its tables and hands
of the moment), so a bot soon draws sprites only when a size it has not used for long comes
back. The cache holds :data:`HALVES_KEPT` of them, not all it could reach (1,352 pairs in a
theme, some 50 MB as Pillow allocates them), which a bot reached a few at a time over hundreds
of matches: its memory grew all along. Whole tiles, put together from their halves in
microseconds, are kept for the pictures of the moment.
"""

from __future__ import annotations

import enum
from functools import lru_cache

from PIL import Image, ImageDraw

from .pips import PIP_LAYOUTS, pip_radius
from .strokes import named
from .themes import Colour, Theme, find_theme

SUPERSAMPLE = 4
SHADOW_ALPHA = 110
#: Numbers' halves kept drawn. A pair of halves is some 38 KB, so keeping every (number, size,
#: orientation, look) the renderers can reach (1,352 in one theme) would cost 50 MB, filled a
#: few at a time over hundreds of matches: a bot's memory that kept growing. 256 hold what
#: the tables and hands of a busy bot use (it reached some 240 in 120 matches of 8 groups);
#: one drawn again costs under a millisecond.
HALVES_KEPT = 256
#: Whole tiles kept: those of the pictures being drawn now (the lines of a few tables at their
#: sizes, a few hands); any other is put together from its halves again (a copy, no drawing).
TILES_KEPT = 256


class Look(enum.Enum):
    PLAIN = "plain"
    HIGHLIGHT = "highlight"  # the tile just played / a tile that can be played
    DIM = "dim"  # a tile that cannot be played now
    DEAD = "dead"  # a dead tile shown face up after the hand


def shadow_offset(side: int) -> int:
    return max(2, side // 14)


def tile_size(side: int, vertical: bool) -> tuple[int, int]:
    return (side, 2 * side) if vertical else (2 * side, side)


def _blend(a: Colour, b: Colour, t: float) -> Colour:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def premultiplied(colour: Colour, alpha: int) -> tuple[int, int, int, int]:
    """``colour`` at ``alpha`` as a premultiplied ("RGBa") picture holds it, rounded as
    Pillow converts a straight one (its ``MULDIV255``)."""
    def times(channel: int) -> int:
        product = channel * alpha + 128
        return ((product >> 8) + product) >> 8

    return times(colour[0]), times(colour[1]), times(colour[2]), alpha


def supersampled(size: tuple[int, int]) -> Image.Image:
    """An empty canvas for a sprite drawn :data:`SUPERSAMPLE` times larger, premultiplied:
    reducing averages premultiplied pixels (Pillow converts a straight RGBA picture to them
    before it reduces it, and back after), so a canvas drawn so is not converted at sixteen
    times the sprite's size. Opaque colours are drawn as they are; a translucent one through
    :func:`premultiplied`."""
    return Image.new("RGBa", size, (0, 0, 0, 0))


def reduced(image: Image.Image) -> Image.Image:
    """A :func:`supersampled` canvas at the sprite's size, as a straight RGBA picture: the
    very pixels of the same drawing made straight, reduced and made straight again."""
    return image.reduce(SUPERSAMPLE).convert("RGBA")


def _canvas(side: int, vertical: bool, palette: Theme) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A transparent supersampled canvas with the tile's shadow already drawn."""
    w, h = tile_size(side, vertical)
    off = shadow_offset(side)
    k = SUPERSAMPLE
    image = supersampled(((w + off) * k, (h + off) * k))
    draw = ImageDraw.Draw(image)
    radius = max(2, side // 8) * k
    draw.rounded_rectangle(
        (off * k, off * k, (w + off) * k - 1, (h + off) * k - 1),
        radius,
        fill=premultiplied(palette.shadow, SHADOW_ALPHA),
    )
    return image, draw


def _body(draw: ImageDraw.ImageDraw, side: int, vertical: bool, fill: Colour, edge: Colour,
          edge_width: int) -> None:
    w, h = tile_size(side, vertical)
    k = SUPERSAMPLE
    draw.rounded_rectangle(
        (0, 0, w * k - 1, h * k - 1), max(2, side // 8) * k, fill=fill, outline=edge,
        width=edge_width,
    )


def _pips(draw: ImageDraw.ImageDraw, number: int, origin: tuple[float, float], side: int,
          vertical: bool, colour: Colour) -> None:
    """The pips of one half, whose square starts at ``origin`` (supersampled pixels)."""
    k = SUPERSAMPLE
    span = side * k
    radius = pip_radius(number) * span
    for u, v in PIP_LAYOUTS[number]:
        # Layouts are for a standing tile; lying down, the tile is turned a quarter left.
        x, y = (u, v) if vertical else (v, 1 - u)
        cx, cy = origin[0] + x * span, origin[1] + y * span
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=colour)


def _draw(first: int, second: int, side: int, vertical: bool, look: Look,
          theme_name: str) -> Image.Image:
    """The tile drawn whole: supersampled, then reduced."""
    palette = find_theme(theme_name)
    k = SUPERSAMPLE
    image, draw = _canvas(side, vertical, palette)
    face, edge, pip_mix = palette.tile_face, palette.tile_edge, 0.0
    edge_width = max(1, side // 20) * k
    if look is Look.HIGHLIGHT:
        edge, edge_width = palette.highlight, max(3, side // 9) * k
    elif look is Look.DIM:
        face, edge, pip_mix = _blend(face, palette.dim, 0.5), _blend(edge, palette.dim, 0.5), 0.5
    elif look is Look.DEAD:
        edge, edge_width = palette.knock, max(2, side // 12) * k
    _body(draw, side, vertical, face, edge, edge_width)
    inset = side * k * 0.18
    divider = _blend(palette.tile_divider, palette.dim, pip_mix)
    line = max(1, side // 24) * k
    if vertical:
        mid = side * k
        draw.line((inset, mid, side * k - inset, mid), fill=divider, width=line)
        halves = ((0.0, 0.0), (0.0, float(side * k)))
    else:
        mid = side * k
        draw.line((mid, inset, mid, side * k - inset), fill=divider, width=line)
        halves = ((0.0, 0.0), (float(side * k), 0.0))
    for number, origin in zip((first, second), halves, strict=True):
        colour = _blend(palette.pips[number], palette.dim, pip_mix)
        _pips(draw, number, origin, side, vertical, colour)
    return reduced(image)


@lru_cache(maxsize=HALVES_KEPT)
def _halves(number: int, side: int, vertical: bool, look: Look,
            theme_name: str) -> tuple[Image.Image, Image.Image]:
    """``number``'s first and second halves (each with its part of the shadow), cut from the
    double drawn whole."""
    double = _draw(number, number, side, vertical, look, theme_name)
    w, h = double.size
    if vertical:
        return double.crop((0, 0, w, side)), double.crop((0, side, w, h))
    return double.crop((0, 0, side, h)), double.crop((side, 0, w, h))


@lru_cache(maxsize=TILES_KEPT)
def _face(first: int, second: int, side: int, vertical: bool, look: Look,
          theme_name: str) -> Image.Image:
    top, _ = _halves(first, side, vertical, look, theme_name)
    _, bottom = _halves(second, side, vertical, look, theme_name)
    image = Image.new("RGBA", (top.width, top.height + bottom.height) if vertical
                      else (top.width + bottom.width, top.height))
    image.paste(top, (0, 0))  # copied as they are, transparency and all
    image.paste(bottom, (0, side) if vertical else (side, 0))
    return named(image, "tile", first, second, side, vertical, look, theme_name)


def tile_sprite(first: int, second: int, side: int, vertical: bool, palette: Theme,
                look: Look = Look.PLAIN) -> Image.Image:
    """A face-up tile: ``first`` on the left (lying) or on top (standing)."""
    return _face(first, second, side, vertical, look, palette.name)


@lru_cache(maxsize=256)
def _back(side: int, vertical: bool, theme_name: str) -> Image.Image:
    palette = find_theme(theme_name)
    k = SUPERSAMPLE
    image, draw = _canvas(side, vertical, palette)
    _body(draw, side, vertical, palette.tile_back, palette.tile_back_edge, max(1, side // 12) * k)
    w, h = tile_size(side, vertical)
    inset = max(2, side // 5) * k
    if side >= 20:  # a small back reads better plain
        draw.rounded_rectangle(
            (inset, inset, w * k - inset, h * k - inset), max(1, side // 12) * k,
            outline=palette.tile_back_edge, width=max(1, side // 16) * k,
        )
    return named(reduced(image), "back", side, vertical, theme_name)


def back_sprite(side: int, vertical: bool, palette: Theme) -> Image.Image:
    """A face-down tile (a hidden hand, a dead tile, the middle)."""
    return _back(side, vertical, palette.name)


def clear_cache() -> None:
    """Forget every sprite (the benchmark measures a cold start with this)."""
    _face.cache_clear()
    _halves.cache_clear()
    _back.cache_clear()
