"""Issue 24.6: what a phone shows. A chat shows a picture 400 px wide, so every sample is
measured there: the smallest text's capitals and the smallest tile's width (a half's side)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

import renderers.board
import renderers.hand
import renderers.result
from goldens.samples import Sample, render, samples
from renderers.board import OFF_SIDE
from renderers.fonts import font

PHONE = 400
SMALLEST_CAPITALS = 9.0  # px at 400 wide: the grey labels were 7
SAMPLES = samples()


def capitals_at_phone(size: int, width: int) -> float:
    """How tall a capital letter of text drawn at ``size`` stands once the picture is shown
    ``PHONE`` px wide."""
    _, top, _, bottom = font(size).getbbox("H")
    return (bottom - top) * PHONE / width


def least_tile(sample: Sample) -> float:
    """A tile's short side at phone width: what the floor asks of ``sample``. A line or a
    base's ribbons of up to 24 tiles keep 20 px; longer lines and a spinner's cross, whose
    four arms need the height, at least 10; a hand's result 15, a player's hand 30."""
    table = sample.table
    if sample.kind == "hand":
        return 30.0
    if sample.kind == "result":
        return 15.0
    assert table is not None
    laid = len(table.layout.line) + len(table.layout.up) + len(table.layout.down)
    return 20.0 if table.layout.kind != "spinner" and laid <= 24 else 10.0


@pytest.fixture
def drawn_tiles(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The side of every face-up tile drawn (not the small row of tiles cut off)."""
    seen: list[int] = []
    for module in (renderers.board, renderers.hand, renderers.result):
        face_up: Callable[..., None] = module.face_up

        def spy(*args: Any, _face_up: Callable[..., None] = face_up) -> None:
            if args[6] != OFF_SIDE:
                seen.append(args[6])
            _face_up(*args)

        monkeypatch.setattr(module, "face_up", spy)
    yield seen


def _width(png: bytes) -> int:
    return int.from_bytes(png[16:20], "big")


@pytest.mark.parametrize("sample", SAMPLES, ids=[sample.name for sample in SAMPLES])
def test_every_text_is_readable_at_phone_width(sample: Sample,
                                               drawn_sizes: list[tuple[str, int]]) -> None:
    width = _width(render(sample))
    smallest = min(capitals_at_phone(size, width) for _, size in drawn_sizes)
    assert smallest >= SMALLEST_CAPITALS, f"{sample.name}: capitals {smallest:.1f} px"


TILED = [s for s in SAMPLES if s.kind == "hand"
         or (s.kind in ("table", "result") and s.table is not None and s.table.layout.line)]


@pytest.mark.parametrize("sample", TILED, ids=[sample.name for sample in TILED])
def test_every_tile_is_large_enough_at_phone_width(sample: Sample,
                                                   drawn_tiles: list[int]) -> None:
    width = _width(render(sample))
    assert drawn_tiles, sample.name
    smallest = min(drawn_tiles) * PHONE / width
    assert smallest >= least_tile(sample), f"{sample.name}: tiles {smallest:.1f} px"


def test_no_label_is_cut_where_a_layout_has_room(drawn_text: list[str]) -> None:
    """Russian five-seat panels cut "мёрт…" and the hand's result "без костя…"; names may
    still be cut, the labels not."""
    from dataclasses import replace

    from engine import table_view
    from goldens.positions import played
    from goldens.samples import names_for
    from renderers import render_hand_result, render_table
    from tests.renderers.test_labels_only_words import RUSSIAN

    labels = replace(RUSSIAN, went_out="без костяшек", tiles="костяшки", dead="мёртвые")
    for seed in (4, 8):
        dead = played("gaple-dead", 5, 6, seed=seed, options={"set": 9})
        render_table(table_view(dead), names_for(5), labels=labels)
        over = played("gaple-dead", 5, 0, seed=seed, until_over=True)
        render_hand_result(table_view(over), names_for(5), labels=labels)
    render_table(table_view(played("french", 5, 6, seed=4)), names_for(5), labels=labels)
    cut = [words for words in drawn_text if words.endswith("…")]
    assert cut and all(any(name.startswith(words[:-1]) for name in names_for(5))
                       for words in cut), cut
