"""Sprites are drawn larger on premultiplied canvases and reduced: the very pixels Pillow gives
for the same drawing on a straight RGBA canvas (which it converts to premultiplied, reduces and
converts back), without converting a canvas sixteen times the sprite's size."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from renderers import canvas, sprites
from renderers.canvas import rounded
from renderers.sprites import (
    SUPERSAMPLE,
    Look,
    back_sprite,
    premultiplied,
    reduced,
    supersampled,
    tile_sprite,
)
from renderers.themes import THEMES, Colour, find_theme

SIZE = (24 * SUPERSAMPLE, 20 * SUPERSAMPLE)


def _shapes(draw: ImageDraw.ImageDraw, under: tuple[int, ...], over: tuple[int, ...],
            mark: tuple[int, ...]) -> None:
    """A translucent shadow, an opaque body with an outline across it, a pip on the body."""
    k = SUPERSAMPLE
    draw.rounded_rectangle((3 * k, 3 * k, 23 * k, 19 * k), 3 * k, fill=under)
    draw.rounded_rectangle((0, 0, 20 * k - 1, 16 * k - 1), 3 * k, fill=over,
                           outline=mark, width=k)
    draw.ellipse((5 * k + 1, 5 * k + 2, 11 * k - 1, 10 * k + 3), fill=mark)


@pytest.mark.parametrize("alpha", [0, 1, 2, 17, 64, 110, 127, 128, 200, 254, 255])
@pytest.mark.parametrize("colour", [(0, 0, 0), (255, 255, 255), (13, 201, 77), (128, 64, 250)])
def test_a_premultiplied_drawing_reduces_to_pillows_own_pixels(colour: Colour,
                                                              alpha: int) -> None:
    straight = Image.new("RGBA", SIZE, (*colour, 0))
    _shapes(ImageDraw.Draw(straight), (*colour, alpha), (250, 240, 220, 255), (20, 20, 90, 255))
    canvas = supersampled(SIZE)
    _shapes(ImageDraw.Draw(canvas), premultiplied(colour, alpha), (250, 240, 220),
            (20, 20, 90))
    expected = straight.reduce(SUPERSAMPLE)  # Pillow's way for RGBA: via premultiplied
    drawn = reduced(canvas)
    assert drawn.mode == expected.mode == "RGBA"
    assert drawn.tobytes() == expected.tobytes()


def test_premultiplying_rounds_as_pillow_converts() -> None:
    for alpha in range(256):
        for channel in (0, 1, 77, 128, 254, 255):
            pixel = Image.new("RGBA", (1, 1), (channel, channel, channel, alpha))
            assert premultiplied((channel, channel, channel), alpha) == \
                pixel.convert("RGBa").getpixel((0, 0))


@pytest.mark.parametrize("theme", THEMES)
def test_sprites_are_straight_rgba_with_a_soft_shadow(theme: str) -> None:
    """What the pictures paste: straight RGBA, opaque inside, the shadow translucent."""
    palette = find_theme(theme)
    for sprite in (tile_sprite(6, 5, 40, True, palette, Look.HIGHLIGHT),
                   back_sprite(40, False, palette)):
        assert sprite.mode == "RGBA"
        width, height = sprite.size
        assert sprite.getpixel((width // 4, height // 4))[3] == 255  # type: ignore[index]
        shadow = sprite.getpixel((width // 2, height - 1))  # below the tile's middle
        assert 0 < shadow[3] < 255  # type: ignore[index]
    panel = rounded(120, 40, 12, palette.panel, palette.panel_edge, 2)
    assert panel.mode == "RGBA" and panel.getpixel((60, 20)) == (*palette.panel, 255)


def test_the_sprites_are_pillows_straight_drawing_reduced(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every sprite (tiles in every look, backs, panels), drawn as before on straight RGBA
    canvases and reduced by Pillow, has the same pixels: a translucent colour drawn without
    :func:`premultiplied` would differ."""
    def drawn() -> list[bytes]:
        sprites.clear_cache()
        rounded.cache_clear()
        pictures = [tile_sprite(first, second, side, vertical, find_theme(theme), look)
                    for theme in THEMES for look in Look for vertical in (True, False)
                    for side in (9, 24, 41, 72) for first, second in ((0, 0), (6, 5), (12, 9))]
        pictures += [back_sprite(side, vertical, find_theme(theme))
                     for theme in THEMES for side in (9, 24, 72) for vertical in (True, False)]
        pictures += [rounded(width, 44, 22, find_theme(theme).panel, outline, line)
                     for theme in THEMES for width in (44, 130, 475)
                     for outline, line in ((None, 0), (find_theme(theme).panel_edge, 2))]
        return [p.mode.encode() + p.tobytes() for p in pictures]

    now = drawn()
    monkeypatch.setattr(sprites, "supersampled", lambda size: Image.new("RGBA", size))
    monkeypatch.setattr(canvas, "supersampled", lambda size: Image.new("RGBA", size))
    monkeypatch.setattr(sprites, "premultiplied", lambda colour, alpha: (*colour, alpha))
    monkeypatch.setattr(sprites, "reduced", lambda image: image.reduce(SUPERSAMPLE))
    monkeypatch.setattr(canvas, "reduced", lambda image: image.reduce(SUPERSAMPLE))
    straight = drawn()
    sprites.clear_cache()
    rounded.cache_clear()
    assert len(now) == len(straight) > 200
    assert [n for n, (a, b) in enumerate(zip(now, straight, strict=True)) if a != b] == []
