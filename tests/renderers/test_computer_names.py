"""Issue 24.8: a computer player reads the same on pictures as in texts, "🤖 Rio": no font of
the renderers has the emoji, so the robot is drawn as a picture before the name."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import renderers.result
import renderers.seats
from engine import table_view
from goldens.positions import played
from renderers import render_hand_result, render_table
from renderers.canvas import ROBOT, robot, seat_names
from renderers.labels import ENGLISH
from renderers.themes import Colour


def test_a_leading_robot_is_kept_and_the_rest_cleaned() -> None:
    names = seat_names([f"{ROBOT} Rio", ROBOT, "Ann 🎲"], 3, ENGLISH)
    assert names == (f"{ROBOT} Rio", f"{ROBOT} Player 2", "Ann")


def test_the_robot_is_drawn_and_only_the_name_lettered(drawn_text: list[str]) -> None:
    view = table_view(played("pair", 4, 5, seed=3))
    marked = render_table(view, ["Ann", f"{ROBOT} Rio", "Bo", "Cy"])
    assert "Rio" in drawn_text and not any(ROBOT in words for words in drawn_text)
    plain = render_table(view, ["Ann", "Rio", "Bo", "Cy"])
    with Image.open(io.BytesIO(marked)) as a, Image.open(io.BytesIO(plain)) as b:
        assert a.convert("RGB").tobytes() != b.convert("RGB").tobytes()
    mark = robot(32, (255, 255, 255))
    alpha = mark.getchannel("A")
    assert alpha.getextrema() == (0, 255)  # a shape, with the eyes cut out of the head
    assert alpha.getpixel((10, 16)) < 128 < alpha.getpixel((16, 8))


def test_a_hands_result_marks_the_computer_on_its_score_row_too(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The score rows under the open hands named "🤖 Euler" a bare "Euler" (a Kolbasa demo),
    while the row above showed the robot."""
    marks: list[int] = []

    def counted(size: int, colour: Colour) -> Image.Image:
        marks.append(size)
        return robot(size, colour)

    monkeypatch.setattr(renderers.seats, "robot", counted)
    monkeypatch.setattr(renderers.result, "robot", counted, raising=False)
    for game, seats in (("kolbasa", 3), ("pair", 4)):
        marks.clear()
        view = table_view(played(game, seats, 0, seed=2, until_over=True))
        names = ["Ann", f"{ROBOT} Rio", "Bo", "Cy"][:seats]
        render_hand_result(view, names)
        assert len(marks) == 2, game  # its hand's row, and its side's score row
