"""Same view, same picture: every sample matches its golden image within a small tolerance.

After an intended change of the pictures, regenerate them with
``python -m goldens --update`` (and ``--docs`` for the examples), look at them, and
commit them with the change.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

import renderers.canvas
from goldens import golden
from goldens.samples import Sample, render, samples

SAMPLES = samples()


@pytest.mark.parametrize("sample", SAMPLES, ids=[sample.name for sample in SAMPLES])
def test_the_picture_matches_its_golden_image(sample: Sample) -> None:
    difference = golden.check(sample)
    assert difference.acceptable, (
        f"{sample.name} differs from tests/renderers/golden/{sample.name}.png in "
        f"{difference.pixels} px (worst {difference.worst}); if the change is intended, run "
        "`python -m goldens --update` and look at the new pictures"
    )


def test_every_sample_has_a_golden_image_and_no_golden_is_stale() -> None:
    stored = {path.stem for path in golden.GOLDEN_DIR.glob("*.png")}
    assert stored == {sample.name for sample in SAMPLES}


@pytest.fixture(scope="module")
def reference() -> Image.Image:
    table = next(sample for sample in SAMPLES if sample.name == "table-pair-28")
    return golden.stored_size(render(table))


def test_a_missing_pip_is_flagged(reference: Image.Image) -> None:
    changed = reference.copy()
    # Cover one pip of the first tile with the tile's face colour.
    left, top = _first_dark_pixel_on_a_tile(changed)
    ImageDraw.Draw(changed).ellipse((left - 4, top - 1, left + 5, top + 8), fill=(251, 247, 234))
    assert not golden.compare(changed, reference).acceptable


def test_a_changed_word_is_flagged() -> None:
    table = next(sample for sample in SAMPLES if sample.name == "table-pair-opening")
    names = ("Þórdís Ægisdóttir", "Дмитрия", *table.names[2:])
    changed = golden.stored_size(render(replace(table, names=names)))
    assert not golden.compare(changed, golden.stored_size(render(table))).acceptable


@pytest.mark.parametrize("shift", [(1, 0), (0, 1)])
def test_glyphs_moved_by_a_pixel_and_faint_tone_changes_pass(
    reference: Image.Image, monkeypatch: pytest.MonkeyPatch, shift: tuple[int, int]
) -> None:
    """What a FreeType or Pillow update does to text: every glyph a pixel away."""
    original = renderers.canvas.letter

    def moved(draw: ImageDraw.ImageDraw, xy: Any, *args: Any, **kwargs: Any) -> Any:
        return original(draw, (xy[0] + shift[0], xy[1] + shift[1]), *args, **kwargs)

    monkeypatch.setattr(renderers.canvas, "letter", moved)
    for sample in SAMPLES[:4] + SAMPLES[-4:]:
        assert golden.check(sample).acceptable, sample.name
    toned = ImageChops.add(reference, Image.new("RGB", reference.size, (6, 6, 6)))
    assert golden.compare(toned, reference).acceptable


def test_a_picture_of_another_size_is_flagged(reference: Image.Image) -> None:
    assert not golden.compare(reference.crop((0, 0, 100, 100)), reference).acceptable


def _first_dark_pixel_on_a_tile(image: Image.Image) -> tuple[int, int]:
    """The top of the first pip found scanning the middle band of the picture."""
    pixels = image.load()
    assert pixels is not None
    for y in range(image.height // 4, image.height * 3 // 4):
        for x in range(image.width // 8, image.width * 7 // 8):
            p = pixels[x, y]
            assert isinstance(p, tuple)
            below = pixels[x, y - 3]
            assert isinstance(below, tuple)
            if sum(p) < 300 and sum(below) > 650:  # a pip's top edge on an ivory face
                return x, y
    raise AssertionError("no pip found")
