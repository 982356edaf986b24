"""One picture's seat panels read alike: a reader compares the seats, so every panel shows the
tiles the same way (the word, or a face-down tile for it) and every panel of a tall row gives
its scores a row of their own."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PIL import ImageDraw

import renderers.canvas
import renderers.seats
import renderers.table
from bot.presentation.pictures import labels_for
from engine import TableView, table_view
from goldens.positions import played
from goldens.samples import Sample, names_for, render
from renderers import render_table
from renderers.canvas import seat_names
from renderers.seats import Seat, compact_tiles, score_caption, seats_of
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


@pytest.fixture
def hand_backs(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bool | None]]:
    """Each panel drawn while the test runs, in order: whether a row of face-down tiles
    follows its count (None where none could: no tiles in hand, or a face-down tile stands
    for the word "tiles")."""
    panels: list[bool | None] = []
    drawing_seat, drawing_row = renderers.table.draw_seat, renderers.seats.face_down_row

    def seat(canvas: Any, draw: Any, rect: Any, shown: Seat, *args: Any, **kwargs: Any) -> None:
        panels.append(False if shown.tiles > 0 and not kwargs.get("compact") else None)
        drawing_seat(canvas, draw, rect, shown, *args, **kwargs)

    def row(canvas: Any, palette: Any, x: float, y: float, count: int, side: int,
            vertical: bool, max_width: float) -> float:
        used = drawing_row(canvas, palette, x, y, count, side, vertical, max_width)
        if side == renderers.seats.HAND_BACK and vertical and used:
            panels[-1] = True
        return used

    monkeypatch.setattr(renderers.table, "draw_seat", seat)
    monkeypatch.setattr(renderers.seats, "face_down_row", row)
    yield panels


@pytest.mark.parametrize("language", ("en", "ru"))
@pytest.mark.parametrize(("game", "seats"), [
    ("french", 5), ("french", 3), ("kolbasa", 3), ("muggins", 2), ("six-matador", 4),
    ("gaple-dead", 5)])
def test_every_panel_or_none_shows_its_face_down_tiles(
        language: str, game: str, seats: int, hand_backs: list[bool | None]) -> None:
    """The tester's tables: French's five seats (the three narrow top panels showed no row
    of face-down tiles, the two bottom ones did), a Kolbasa seat holding 10 tiles without a
    row beside one holding 4 with it. One picture decides for every panel: a row after each
    count where every panel's fits, else none."""
    labels = labels_for(language, game)
    moves = (0, 8, 16)
    for played_moves in moves:
        render_table(_table(game, seats, played_moves), names_for(seats), labels=labels)
    assert len(hand_backs) == len(moves) * seats
    for first in range(0, len(hand_backs), seats):
        shown = {row for row in hand_backs[first:first + seats] if row is not None}
        assert len(shown) <= 1, (game, seats, language, hand_backs[first:first + seats])


def test_panels_with_room_all_show_their_face_down_tiles(
        hand_backs: list[bool | None]) -> None:
    """Three wide panels in English: every one has room for its row, and shows it."""
    render_table(_table("french", 3, 8), names_for(3), labels=labels_for("en", "french"))
    assert hand_backs == [True, True, True]
