"""Issue 24.6: what a phone shows. A chat shows a picture 400 px wide, so every sample is
measured there: the smallest text's capitals and the smallest tile's width (a half's side)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

import renderers.board
import renderers.hand
import renderers.result
from engine import TableView, table_view
from goldens.positions import hand_views, plain_line, played, walk, with_line
from goldens.samples import Sample, labels_for, render, samples
from renderers.backdrop import WIDTH
from renderers.fonts import font
from renderers.labels import ENGLISH, TableLabels
from renderers.snake import LARGEST_SIDE
from renderers.table import tile_size
from tests.renderers.test_labels_only_words import RUSSIAN

PHONE = 400
SMALLEST_CAPITALS = 9.0  # px at 400 wide: the grey labels were 7
LEAST_TILE = 14.0  # px at 400 wide: the least tile of any line or cross (its half's side)
SAMPLES = samples()


def capitals_at_phone(size: int, width: int) -> float:
    """How tall a capital letter of text drawn at ``size`` stands once the picture is shown
    ``PHONE`` px wide."""
    _, top, _, bottom = font(size).getbbox("H")
    return (bottom - top) * PHONE / width


def least_tile(sample: Sample) -> float:
    """A tile's short side at phone width: what the floor asks of ``sample``. A player's hand
    30 px, a hand's result 15; on the table, the picture grows taller for a long layout, so
    a line, a base's ribbons or a spinner's cross of up to 30 tiles keep 20 px, a line of up
    to 60 tiles 18 and any longer line :data:`LEAST_TILE` (they were 10 to 13 in a picture
    of fixed height)."""
    table = sample.table
    if sample.kind == "hand":
        return 30.0
    if sample.kind == "result":
        return 15.0
    assert table is not None
    laid = len(table.layout.line) + len(table.layout.up) + len(table.layout.down)
    return 20.0 if laid <= 30 else 18.0 if laid <= 60 else LEAST_TILE


@pytest.fixture
def drawn_tiles(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The side of every face-up tile drawn (but Kolbasa's tiles cut off: test_cut_off)."""
    seen: list[int] = []
    for module in (renderers.board, renderers.hand, renderers.result):
        face_up: Callable[..., None] = module.face_up

        def spy(*args: Any, _face_up: Callable[..., None] = face_up) -> None:
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


# Hands holding tiles (one kept after its player went out has none), and tables with a line.
TILED = [s for s in SAMPLES if (s.kind == "hand" and s.player is not None and s.player.hand)
         or (s.kind in ("table", "result") and s.table is not None and s.table.layout.line)]


@pytest.mark.parametrize("sample", TILED, ids=[sample.name for sample in TILED])
def test_every_tile_is_large_enough_at_phone_width(sample: Sample,
                                                   drawn_tiles: list[int]) -> None:
    width = _width(render(sample))
    assert drawn_tiles, sample.name
    smallest = min(drawn_tiles) * PHONE / width
    assert smallest >= least_tile(sample), f"{sample.name}: tiles {smallest:.1f} px"
    if sample.kind == "table":  # the size the tests below read is the size drawn
        assert sample.table is not None
        assert tile_size(sample.table, labels_for(sample.table.game)) == min(drawn_tiles)


def _at_phone(view: TableView, labels: TableLabels) -> float:
    return tile_size(view, labels) * PHONE / WIDTH


@pytest.mark.parametrize(("game", "seats", "labels"),
                         [("pair", 4, ENGLISH), ("gaple-dead", 5, RUSSIAN)])
def test_no_line_of_up_to_91_tiles_has_a_tile_under_the_floor(
        game: str, seats: int, labels: TableLabels) -> None:
    """Led from the middle or from either end (a line laid at one end only), with four seats'
    panels or five seats' taller ones (Russian words)."""
    base = table_view(played(game, seats, 3, seed=21, options={"set": 12}))
    sizes: dict[tuple[int, int], float] = {}
    for tiles in (*range(1, 91, 6), 91):
        line = walk(12)[:tiles]
        for lead in {0, tiles // 3, (tiles - 1) // 2, tiles - 1}:
            view = replace(with_line(base, tiles), layout=plain_line(line, lead))
            sizes[tiles, lead] = _at_phone(view, labels)
    worst = min(sizes, key=lambda key: sizes[key])
    assert sizes[worst] >= LEAST_TILE, (worst, sizes[worst])
    assert sizes[1, 0] == LARGEST_SIDE * PHONE / WIDTH  # short lines stay large


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_no_spinners_cross_has_a_tile_under_the_floor(seats: int) -> None:
    """Every position of seeded Muggins hands (a cross of 26 tiles with one long arm drew
    13 px when its spinner stayed in the middle)."""
    labels = labels_for("muggins")
    sizes = {(seed, move): _at_phone(view, labels)
             for seed in range(20)
             for move, view in enumerate(hand_views("muggins", seats, seed))}
    worst = min(sizes, key=lambda key: sizes[key])
    assert sizes[worst] >= LEAST_TILE, (worst, sizes[worst])


def test_no_label_is_cut_where_a_layout_has_room(drawn_text: list[str]) -> None:
    """Russian five-seat panels cut "мёрт…" and the hand's result "без костя…"; names may
    still be cut, the labels not."""
    from goldens.samples import names_for
    from renderers import render_hand_result, render_table

    labels = replace(RUSSIAN, went_out="без костяшек", tiles="костяшки", dead="мёртвые")
    for seed in (4, 8):
        dead = played("gaple-dead", 5, 6, seed=seed, options={"set": 9})
        render_table(table_view(dead), names_for(5), labels=labels)
        over = played("gaple-dead", 5, 0, seed=seed, until_over=True)
        render_hand_result(table_view(over), names_for(5), labels=labels)
    render_table(table_view(played("french", 5, 6, seed=4)), names_for(5), labels=labels)
    cut = [words for words in drawn_text if words.endswith("…")]
    # (a name may also have its first words cut to their initials: "Д. Александро…")
    forms = [" ".join([f"{w[0]}." for w in name.split()[:i]] + name.split()[i:])
             for name in names_for(5) for i in range(len(name.split()))]
    assert cut and all(any(form.startswith(words[:-1]) for form in forms)
                       for words in cut), cut
