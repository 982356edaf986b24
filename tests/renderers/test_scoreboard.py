"""The scoreboard picture: ranked rows, the podium marked, every word from the labels.

Its golden images are the ``scoreboard`` samples of goldens/samples.py, checked with the
others in test_golden_pictures.py.
"""

from __future__ import annotations

import io
import re
from dataclasses import fields

import pytest
from PIL import Image

from goldens.samples import scoreboard_rows, scoreboard_with_hands
from renderers import ScoreboardLabels, ScoreboardRow, UnknownThemeError, render_scoreboard
from renderers.backdrop import HEADER
from renderers.fonts import ELLIPSIS, font
from renderers.scoreboard import (
    COLUMNS_H,
    ENGLISH_SCOREBOARD,
    MEDALS,
    NAME_SIZE,
    PAD,
    ROW_H,
    WIDTH,
    caption_lines,
    columns,
    columns_height,
    draw_scoreboard,
    name_width,
    shared_places,
    streak_text,
)
from renderers.themes import find_theme

RUSSIAN = ScoreboardLabels(
    place="№",
    player="игрок",
    rating="рейтинг",
    played="матчей",
    won="побед",
    win_rate="доля побед",
    streak="серия",
    win_streak="Поб{count}",
    loss_streak="Пор{count}",
    percent="{percent} %",
    unnamed="Игрок {number}",
    empty="Сыгранных матчей пока нет",
    hands_won="партий",
    points="очков",
)


def _image(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB")


def test_every_label_is_translated_in_the_test() -> None:
    english = ScoreboardLabels()
    for field in fields(ScoreboardLabels):
        assert getattr(RUSSIAN, field.name) != getattr(english, field.name), field.name


def test_every_word_drawn_comes_from_the_labels_title_or_names(drawn_text: list[str]) -> None:
    rows = scoreboard_rows()
    render_scoreboard(rows, title="Таблица", subtitle="за май", labels=RUSSIAN)
    render_scoreboard(scoreboard_with_hands(rows), title="Таблица", labels=RUSSIAN)
    render_scoreboard((), title="Таблица", labels=RUSSIAN)
    allowed = ["Таблица", "за май"]
    for field in fields(RUSSIAN):
        allowed += re.split(r"\{\w+\}", getattr(RUSSIAN, field.name))
        allowed += getattr(RUSSIAN, field.name).split()  # a caption on two lines
    allowed += [word for row in rows for word in row.name.split()]
    leftover = []
    for drawn in drawn_text:
        for word in sorted((w for w in allowed if w.strip()), key=len, reverse=True):
            drawn = drawn.replace(word, " ")
        drawn = re.sub(r"\w*" + ELLIPSIS + "$", "", drawn)  # a word cut short
        leftover.append(re.sub(r"[\d\s\u2013%]", "", drawn))
    assert [word for word in leftover if word] == []
    assert "Игрок 7" in drawn_text  # the emoji-only name
    assert "Сыгранных матчей пока нет" in drawn_text


def test_long_names_are_cut_to_their_column(drawn_text: list[str]) -> None:
    long = ScoreboardRow(1, "Дмитрий Александрович Соколов-Микитов " * 3, 1000, 1, 1, 1.0, 1)
    render_scoreboard([long], title="Scoreboard")
    cut = next(words for words in drawn_text if words.startswith("Дмитрий"))
    assert cut.endswith(ELLIPSIS)
    assert font(NAME_SIZE, True).getlength(cut) <= name_width(ENGLISH_SCOREBOARD)


def test_the_picture_grows_with_its_rows_and_keeps_its_width() -> None:
    rows = scoreboard_rows()
    small, large = (_image(render_scoreboard(rows[:n], title="S")) for n in (2, 8))
    assert small.width == large.width == WIDTH
    assert large.height - small.height == 6 * ROW_H
    assert large.height < 1.5 * large.width  # still a phone-friendly shape with 8 players


def test_the_first_three_places_wear_medal_colours() -> None:
    palette = find_theme("classic")
    image = draw_scoreboard(scoreboard_rows(), "S", "", palette, ScoreboardLabels())
    for place in range(1, 6):
        top = HEADER + PAD + COLUMNS_H + (place - 1) * ROW_H
        border = image.getpixel((WIDTH // 2, top + 1))
        assert isinstance(border, tuple)
        medal = [_near(border, colour) for colour in MEDALS]
        assert medal == [index == place - 1 for index in range(len(MEDALS))], place


def test_tied_players_share_a_place_and_its_medal() -> None:
    assert shared_places([1412, 1288, 1288, 1104, 1001, 1001, 912]) == [1, 2, 2, 4, 5, 5, 7]
    assert shared_places([]) == []
    palette = find_theme("classic")
    rows = scoreboard_with_hands(scoreboard_rows())
    image = draw_scoreboard(rows, "S", "", palette, ScoreboardLabels())
    borders = []
    for index in range(4):
        pixel = image.getpixel((WIDTH // 2, HEADER + PAD + COLUMNS_H + index * ROW_H + 1))
        assert isinstance(pixel, tuple)
        borders.append([_near(pixel, colour) for colour in MEDALS])
    gold, silver = [True, False, False], [False, True, False]
    assert borders == [gold, silver, silver, [False, False, False]]  # 1, 2, 2, then 4


def test_hands_won_and_points_are_drawn_when_counted(drawn_text: list[str]) -> None:
    rows = scoreboard_with_hands(scoreboard_rows())
    render_scoreboard(rows[:1], title="S")
    assert {"hands", "points", "41", "1840"} <= set(drawn_text)
    drawn_text.clear()
    render_scoreboard(scoreboard_rows()[:1], title="S")
    assert "hands" not in drawn_text and "points" not in drawn_text


def _near(colour: tuple[int, ...], other: tuple[int, ...]) -> bool:
    return max(abs(a - b) for a, b in zip(colour, other, strict=True)) < 40


def test_the_same_rows_give_the_same_bytes() -> None:
    rows = scoreboard_rows()
    assert render_scoreboard(rows, title="S", theme="dark") == render_scoreboard(
        rows, title="S", theme="dark"
    )


def test_streaks_read_as_wins_or_losses() -> None:
    assert [streak_text(n, ScoreboardLabels()) for n in (3, -2, 0)] == ["W3", "L2", "\u2013"]


def test_an_unknown_theme_is_refused() -> None:
    with pytest.raises(UnknownThemeError):
        render_scoreboard([], title="S", theme="neon")



def test_a_column_caption_too_long_for_one_line_takes_two_whole() -> None:
    """Issue 24.6: "доля побед" was cut to "доля п…"; its two words now stand on two lines."""
    wide = columns(RUSSIAN, hands=True)["win_rate"].width
    assert caption_lines("доля побед", wide) == ["доля", "побед"]
    assert caption_lines("серия", wide) == ["серия"]
    assert columns_height(RUSSIAN, True) > COLUMNS_H
    assert columns_height(ScoreboardLabels(), True) == COLUMNS_H
