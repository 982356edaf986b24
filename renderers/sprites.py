"""Tile pictures, drawn once per (halves, size, orientation, look, theme) and reused.

Each sprite is drawn four times larger and reduced, which smooths the pips' and corners'
edges; the cache makes that cost a one-off, so a table costs one paste per tile.
A sprite is an RGBA image with the tile's soft shadow below and right of it: paste it at the
tile's top-left corner.
"""

from __future__ import annotations

import enum
from functools import lru_cache

from PIL import Image, ImageDraw

from .pips import PIP_LAYOUTS, pip_radius
from .themes import Colour, Theme, find_theme

SUPERSAMPLE = 4
SHADOW_ALPHA = 110


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


def _canvas(side: int, vertical: bool, palette: Theme) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A transparent supersampled canvas with the tile's shadow already drawn."""
    w, h = tile_size(side, vertical)
    off = shadow_offset(side)
    k = SUPERSAMPLE
    image = Image.new("RGBA", ((w + off) * k, (h + off) * k), (*palette.shadow, 0))
    draw = ImageDraw.Draw(image)
    radius = max(2, side // 8) * k
    draw.rounded_rectangle(
        (off * k, off * k, (w + off) * k - 1, (h + off) * k - 1),
        radius,
        fill=(*palette.shadow, SHADOW_ALPHA),
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


@lru_cache(maxsize=2048)
def _face(first: int, second: int, side: int, vertical: bool, look: Look,
          theme_name: str) -> Image.Image:
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
    return image.reduce(k)


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
    if side < 20:  # a small back reads better plain
        return image.reduce(k)
    draw.rounded_rectangle(
        (inset, inset, w * k - inset, h * k - inset), max(1, side // 12) * k,
        outline=palette.tile_back_edge, width=max(1, side // 16) * k,
    )
    return image.reduce(k)


def back_sprite(side: int, vertical: bool, palette: Theme) -> Image.Image:
    """A face-down tile (a hidden hand, a dead tile, the middle)."""
    return _back(side, vertical, palette.name)


def clear_cache() -> None:
    """Forget every sprite (the benchmark measures a cold start with this)."""
    _face.cache_clear()
    _back.cache_clear()
