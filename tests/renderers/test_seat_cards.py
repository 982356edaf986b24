"""One picture's seat panels read alike: a reader compares the seats, so every panel shows the
tiles the same way (the word, or a face-down tile for it) and every panel of a tall row gives
its scores a row of their own."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PIL import ImageDraw

import renderers.canvas
from bot.presentation.pictures import labels_for
from engine import TableView, table_view
from goldens.positions import played
from goldens.samples import Sample, names_for, render
from renderers import render_table
from renderers.canvas import seat_names
from renderers.seats import compact_tiles, score_caption, seats_of
from renderers.table import panels, picture_height, scores_apart
from renderers.themes import find_theme

LANGUAGES = ("en", "id", "is", "ru")


@pytest.fixture
def drawn_at(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, float]]]:
    """Every string the renderers draw while the test runs, with the y it is drawn at."""
    seen: list[tuple[str, float]] = []
    original = renderers.canvas.letter

    def recording(draw: ImageDraw.ImageDraw, xy: tuple[float, float], words: str,
                  *args: Any, **kwargs: Any) -> None:
        seen.append((words, xy[1]))
        original(draw, xy, words, *args, **kwargs)

    monkeypatch.setattr(renderers.canvas, "letter", recording)
    yield seen


def _table(game: str, seats: int, moves: int) -> TableView:
    return table_view(played(game, seats, moves, seed=1))


def test_five_russian_seats_all_show_a_face_down_tile_for_tiles() -> None:
    """The reported table: the narrow top panels have no room for "костяшки" beside the
    dead tiles, so the wide bottom ones show the face-down tile too, not the word."""
    view, labels = _table("gaple-dead", 5, 12), labels_for("ru", "gaple-dead")
    shown = seat_names(names_for(5), 5, labels)
    seats = seats_of(view, shown, find_theme("classic"), scores_apart=scores_apart(view))
    caption = score_caption(view, labels)
    rects = panels(seats, labels, caption, picture_height(view, labels))
    assert compact_tiles(seats, rects, labels, caption)
    english = labels_for("en", "gaple-dead")
    assert not compact_tiles(seats, panels(seats, english, score_caption(view, english)),
                             english, score_caption(view, english))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("game", "seats", "moves"), [
    ("muggins", 2, 6), ("six-matador", 3, 8), ("gaple-dead", 4, 10), ("gaple-dead", 5, 0),
    ("gaple-dead", 5, 12), ("gaple-dead", 5, 20), ("french", 5, 30)])
def test_every_panel_words_its_tiles_alike(language: str, game: str, seats: int, moves: int,
                                           drawn_at: list[tuple[str, float]]) -> None:
    labels = labels_for(language, game)
    view = _table(game, seats, moves)
    render_table(view, names_for(seats), labels=labels)
    words = [words for words, _ in drawn_at]
    assert words.count(labels.tiles) in (0, seats)
    assert words.count(labels.dead) == (seats if view.dead_tiles else 0)


def test_a_tall_row_gives_every_panel_its_scores_own_row(
        by_name: dict[str, Sample], drawn_at: list[tuple[str, float]]) -> None:
    """Muggins' top row is tall (a "hand +15" would cut its words): a panel whose words fit
    one row lays them out as its neighbour does, not on the scores' row."""
    render(by_name["table-muggins-4"])
    rows = {round(y) for words, y in drawn_at if words == "tiles" and y < 400}
    assert len(rows) == 1, rows
