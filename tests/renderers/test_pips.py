"""Pips as on real tiles: the right number, inside the half, apart, symmetric; and drawn."""

from __future__ import annotations

import math
from collections import deque

import pytest
from PIL import Image

from renderers.pips import PIP_LAYOUTS, pip_radius
from renderers.sprites import Look, back_sprite, tile_sprite
from renderers.themes import THEMES, Theme, find_theme

NUMBERS = range(13)


@pytest.mark.parametrize("number", NUMBERS)
def test_each_number_has_that_many_pips(number: int) -> None:
    assert len(PIP_LAYOUTS[number]) == number


@pytest.mark.parametrize("number", NUMBERS)
def test_pips_stay_inside_the_half_and_do_not_touch(number: int) -> None:
    r = pip_radius(number)
    points = PIP_LAYOUTS[number]
    for x, y in points:
        assert r + 0.05 <= x <= 1 - r - 0.05 and r + 0.05 <= y <= 1 - r - 0.05
    for i, (ax, ay) in enumerate(points):
        for bx, by in points[i + 1 :]:
            assert math.dist((ax, ay), (bx, by)) >= 2.4 * r  # a clear gap between pips


@pytest.mark.parametrize("number", NUMBERS)
def test_patterns_look_the_same_turned_half_round(number: int) -> None:
    points = {(round(x, 6), round(y, 6)) for x, y in PIP_LAYOUTS[number]}
    turned = {(round(1 - x, 6), round(1 - y, 6)) for x, y in PIP_LAYOUTS[number]}
    assert points == turned


def _blobs(image: Image.Image, box: tuple[int, int, int, int], face: tuple[int, int, int]) -> int:
    """Connected patches clearly unlike the tile's face inside ``box``: the pips."""
    rgb = image.convert("RGB").crop(box)
    w, h = rgb.size
    pixels = rgb.load()
    assert pixels is not None
    marked = [[False] * w for _ in range(h)]

    def pip(x: int, y: int) -> bool:
        p = pixels[x, y]
        assert isinstance(p, tuple)
        return sum(abs(a - b) for a, b in zip(p, face, strict=False)) > 150

    count = 0
    for y in range(h):
        for x in range(w):
            if marked[y][x] or not pip(x, y):
                continue
            count += 1
            queue = deque([(x, y)])
            marked[y][x] = True
            while queue:
                cx, cy = queue.popleft()
                for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                    if 0 <= nx < w and 0 <= ny < h and not marked[ny][nx] and pip(nx, ny):
                        marked[ny][nx] = True
                        queue.append((nx, ny))
    return count


@pytest.mark.parametrize("theme_name", THEMES)
@pytest.mark.parametrize("number", NUMBERS)
def test_a_drawn_half_shows_its_number_of_pips(number: int, theme_name: str) -> None:
    palette: Theme = find_theme(theme_name)
    side, inset = 60, 8  # stay clear of the tile's edge and the dividing line
    sprite = tile_sprite(number, 0, side, True, palette)
    assert _blobs(sprite, (inset, inset, side - inset, side - inset), palette.tile_face) == number
    lying = tile_sprite(0, number, side, False, palette)
    box = (side + inset, inset, 2 * side - inset, side - inset)
    assert _blobs(lying, box, palette.tile_face) == number


def test_sprites_are_drawn_once_and_reused() -> None:
    palette = find_theme("classic")
    assert tile_sprite(3, 5, 40, False, palette) is tile_sprite(3, 5, 40, False, palette)
    assert back_sprite(20, True, palette) is back_sprite(20, True, palette)


def test_the_highlighted_tile_differs_from_the_plain_one() -> None:
    palette = find_theme("classic")
    plain = tile_sprite(3, 5, 40, False, palette)
    lit = tile_sprite(3, 5, 40, False, palette, Look.HIGHLIGHT)
    assert plain.tobytes() != lit.tobytes()
    assert lit.getpixel((2, 20))[:3] == palette.highlight  # type: ignore[index]
