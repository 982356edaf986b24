"""Kolbasa's tiles cut off, as a phone shows the group's picture (400 px wide): each tile large
enough that its pips are counted there (they were 26 px of 1280, 8 at 400, where a six showed
as two bars), named at no less than the smallest text size, wrapped onto rows inside the
layout's area below the figure rather than drawn smaller."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PIL import Image

import renderers.board
import renderers.cutoff
from engine import TableView
from goldens.golden import phone_view
from goldens.positions import hand_views
from goldens.samples import Sample, labels_for, names_for, samples
from renderers import render_table
from renderers.canvas import seat_names
from renderers.fonts import SMALLEST_TEXT
from renderers.labels import ENGLISH
from renderers.seats import score_caption, seats_of
from renderers.table import line_area, panels, scores_apart
from renderers.themes import THEMES, find_theme

PHONE = 400
LEAST_HALF = 16.0  # px at 400 wide: a tile cut off's half (its short side)
CUT = [s for s in samples() if s.kind == "table" and s.table is not None and s.table.layout.off]
Drawn = tuple[float, float, int, int, int, bool]  # x, y, first, second, side, standing


def most_cut_off() -> TableView:
    """Kolbasa for two, seed 137: after its 62nd move 22 tiles lie cut off, the most of any
    seeded hand (of 2 to 4 seats, 300 seeds each)."""
    view = hand_views("kolbasa", 2, 137)[62]
    assert len(view.layout.off) == 22
    return view


def _spy(monkeypatch: pytest.MonkeyPatch, module: Any) -> list[Drawn]:
    seen: list[Drawn] = []
    original: Callable[..., None] = module.face_up

    def spy(canvas: Image.Image, palette: Any, x: float, y: float, first: int, second: int,
            side: int, standing: bool, *rest: Any) -> None:
        seen.append((x, y, first, second, side, standing))
        original(canvas, palette, x, y, first, second, side, standing, *rest)

    monkeypatch.setattr(module, "face_up", spy)
    return seen


@pytest.fixture
def cut_off(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Drawn]]:
    """Every tile cut off drawn while the test runs."""
    yield _spy(monkeypatch, renderers.cutoff)


@pytest.fixture
def laid(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Drawn]]:
    """Every tile of the layout drawn while the test runs."""
    yield _spy(monkeypatch, renderers.board)


def _width(png: bytes) -> int:
    return int.from_bytes(png[16:20], "big")


def test_the_samples_show_tiles_cut_off() -> None:
    assert {s.table.seats for s in CUT if s.table is not None} >= {3, 4}


@pytest.mark.parametrize("sample", CUT, ids=[s.name for s in CUT])
def test_every_tile_cut_off_is_drawn_large_enough_for_a_phone(
        sample: Sample, cut_off: list[Drawn], drawn_sizes: list[tuple[str, int]]) -> None:
    assert sample.table is not None
    png = render_table(sample.table, sample.names, theme=sample.theme,
                       labels=labels_for(sample.table.game))
    assert sorted((first, second) for _, _, first, second, _, _ in cut_off) == sorted(
        (tile.low, tile.high) for tile in sample.table.layout.off)
    assert min(side for *_, side, _ in cut_off) * PHONE / _width(png) >= LEAST_HALF
    named = [size for words, size in drawn_sizes if words == ENGLISH.cut_off]
    assert named and min(named) >= SMALLEST_TEXT


def _dots(image: Image.Image, box: tuple[int, int, int, int], face: tuple[int, int, int],
          contrast: int) -> int:
    """How many separate dots (4-connected runs of pixels more than ``contrast`` off the
    tile's face in some channel) lie in ``box`` of ``image``."""
    left, top, right, bottom = box
    rgb = image.convert("RGB")
    inked = set()
    for x in range(left, right):
        for y in range(top, bottom):
            pixel = rgb.getpixel((x, y))
            assert isinstance(pixel, tuple)
            if max(abs(a - b) for a, b in zip(pixel, face, strict=True)) > contrast:
                inked.add((x, y))
    dots = 0
    while inked:
        dots += 1
        stack = [inked.pop()]
        while stack:
            x, y = stack.pop()
            for near in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if near in inked:
                    inked.remove(near)
                    stack.append(near)
    return dots


@pytest.mark.parametrize("theme", THEMES)
def test_each_pip_cut_off_is_a_dot_of_its_own_at_phone_width(
        theme: str, cut_off: list[Drawn]) -> None:
    """The hand with the most tiles cut off, at phone width: each half of each tile shows as
    many dots as it has pips (the six's three pips in a row ran together at 46 px)."""
    view = most_cut_off()
    png = render_table(view, names_for(2), theme=theme)
    with Image.open(io.BytesIO(png)) as full:
        scale = PHONE / full.width
    small = phone_view(png)
    face = find_theme(theme).tile_face
    wrong = []
    for x, y, first, second, side, standing in cut_off:
        assert not standing
        for half, pips in ((0, first), (1, second)):
            inset = 0.12 * side
            left, top, inner = x + half * side + inset, y + inset, side - 2 * inset
            box = (round(left * scale), round(top * scale), round((left + inner) * scale),
                   round((top + inner) * scale))
            dots = _dots(small, box, face, 110)
            if dots != pips:
                wrong.append((first, second, half, dots))
    assert len(cut_off) == 22 and wrong == []


def test_many_tiles_cut_off_wrap_inside_the_area_below_the_figure(
        cut_off: list[Drawn], laid: list[Drawn]) -> None:
    view = most_cut_off()
    png = render_table(view, names_for(2))
    with Image.open(io.BytesIO(png)) as full:
        height = full.height
    seats = seats_of(view, seat_names(names_for(2), 2, ENGLISH), find_theme("classic"),
                     scores_apart=scores_apart(view))
    left, _, right, bottom = line_area(panels(seats, ENGLISH, score_caption(view, ENGLISH),
                                              height))
    boxes = [(x, y, x + 2 * side, y + side) for x, y, *_, side, _ in cut_off]
    rows = sorted({box[1] for box in boxes})
    assert 1 < len(rows) <= 3  # wrapped, not shrunk
    assert all(left <= box[0] and box[2] <= right and box[3] <= bottom for box in boxes)
    assert not any(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
                   for i, a in enumerate(boxes) for b in boxes[i + 1:])
    figure = max(y + (2 * side if standing else side) for _, y, _, _, side, standing in laid)
    assert figure < rows[0]
