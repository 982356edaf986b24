"""The pictures' encoding: each theme's learned palette keeps every sample's colours (no
palette search per picture), and equal pictures give equal bytes."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image, ImageChops

from goldens.palettes import drawn
from goldens.samples import Sample, samples
from renderers.canvas import encode
from renderers.themes import THEMES, Theme, find_theme

SAMPLES = samples()


def channel_errors(original: Image.Image, png: bytes) -> list[int]:
    """Per value 0..255, how many pixels are that far off (the worst channel)."""
    with Image.open(io.BytesIO(png)) as stored:
        assert stored.mode == "P"  # 8-bit: a third of the bytes of RGB
        decoded = stored.convert("RGB")
    diff = ImageChops.difference(original, decoded)
    worst = ImageChops.lighter(ImageChops.lighter(diff.getchannel(0), diff.getchannel(1)),
                               diff.getchannel(2))
    return worst.histogram()


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("sample", SAMPLES, ids=[sample.name for sample in SAMPLES])
def test_the_learned_palette_keeps_every_colour_close(sample: Sample, theme: str) -> None:
    picture = drawn(replace(sample, theme=theme))
    histogram = channel_errors(picture, encode(picture, find_theme(theme)))
    worst = max(value for value, count in enumerate(histogram) if count)
    off = sum(histogram[25:])
    assert worst <= 48, f"a pixel is {worst} off"
    assert off <= picture.width * picture.height // 2000, f"{off} pixels more than 24 off"


def test_equal_pictures_give_equal_bytes() -> None:
    picture = drawn(SAMPLES[0])
    theme = find_theme(SAMPLES[0].theme)
    assert encode(picture, theme) == encode(picture.copy(), theme)


def test_a_theme_without_a_learned_palette_gets_one_searched() -> None:
    picture = drawn(SAMPLES[0])
    unknown = replace(find_theme("classic"), name="unlearned")
    assert isinstance(unknown, Theme)
    histogram = channel_errors(picture, encode(picture, unknown))
    assert sum(histogram[25:]) == 0
