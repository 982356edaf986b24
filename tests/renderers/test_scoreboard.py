"""The scoreboard picture: ranked rows, the podium marked, every word from the labels.

Its golden images are the ``scoreboard`` samples of goldens/samples.py, checked with the
others in test_golden_pictures.py.
"""

from __future__ import annotations

import io
import re
from dataclasses import fields, replace
from math import ceil

import pytest
from PIL import Image

from goldens.samples import scoreboard_rows, scoreboard_with_hands
from renderers import ScoreboardLabels, ScoreboardRow, UnknownThemeError, render_scoreboard
from renderers.backdrop import HEADER
from renderers.fonts import ELLIPSIS, font
from renderers.scoreboard import (
    CAPTION_SIZE,
    COLUMNS_H,
    ENGLISH_SCOREBOARD,
    MEDALS,
    NAME_ROOM,
    NAME_SIZE,
    PAD,
    ROW_H,
    WIDTH,
    caption_lines,
    columns_height,
    draw_scoreboard,
    figures,
    layout,
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
# The words of the bot's Icelandic catalogue: one long word ("sigurhlutfall", win rate) that
# cannot take two lines, and long names for the player and the hands.
ICELANDIC = replace(
    ENGLISH_SCOREBOARD, player="leikmaður", rating="einkunn", played="leikir", won="sigrar",
    win_rate="sigurhlutfall", streak="röð", hands_won="umferðir", points="stig",
    win_streak="S{count}", loss_streak="T{count}",
)
INDONESIAN = replace(
    ENGLISH_SCOREBOARD, player="pemain", played="main", won="menang", win_rate="% menang",
    streak="beruntun", hands_won="ronde", points="poin", win_streak="M{count}",
    loss_streak="K{count}",
)
# Names as long as a group's usually are, which were cut to four or five letters when the
# hands and points were shown (issue: the name column squeezed by the figures' fixed rooms).
LONG_NAMES = ("Александра", "Guðmundur", "Kurniawati", "Sergei")


def group_rows(hands: bool = True, points: bool = True) -> list[ScoreboardRow]:
    """A real-looking group: long names on the podium (drawn bold), four-digit points."""
    figures = ((1412, 34, 22, 3, 141, 1840), (1288, 31, 17, -1, 120, 1502),
               (1288, 27, 14, 2, 98, 1377), (1104, 40, 17, 0, 133, 2210),
               (640, 100, 31, -12, 320, 5120))
    names = (*LONG_NAMES, "Ólafur")
    return [ScoreboardRow(place, name, rating, played, won, won / played, streak,
                          hand if hands else None, point if points else None)
            for place, name, (rating, played, won, streak, hand, point)
            in zip(shared_places([f[0] for f in figures]), names, figures, strict=True)]


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
    allowed += [f"{word[0]}." for row in rows for word in row.name.split()]  # a long name's
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
    assert len(cut) < len(long.name.strip())  # (its first name kept, as the tables keep it)
    assert font(NAME_SIZE, True).getlength(cut) <= layout(ENGLISH_SCOREBOARD, [long]).name_width


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


def test_a_provisional_rating_is_drawn_with_its_mark(drawn_text: list[str]) -> None:
    """A player's first matches give a provisional rating (bot.service.ratings): "1158?"."""
    first = replace(scoreboard_rows()[0], rating=1158, provisional=True)
    render_scoreboard([first, *scoreboard_rows()[1:2]], title="S")
    assert "1158?" in drawn_text
    assert figures(scoreboard_rows()[1], ENGLISH_SCOREBOARD)["rating"].isdigit()


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
    """Issue 24.6: "доля побед" was cut to "доля п…"; its two words now stand on two lines
    where the names need the room (the catalogue's "% побед" beside hands won)."""
    assert caption_lines("доля побед", 120) == ["доля", "побед"]
    assert caption_lines("серия", 120) == ["серия"]
    catalogue = {"played": "партий", "win_rate": "% побед", "hands_won": "коны",
                 "points": "очки", "win_streak": "\u0412{count}", "loss_streak": "П{count}",
                 "percent": "{percent}%"}  # the bot's Russian words
    labels = replace(RUSSIAN, **catalogue)
    placed = layout(labels, group_rows(points=False))
    assert caption_lines("% побед", placed.columns["win_rate"].width) == ["%", "побед"]
    assert columns_height(labels, placed) > COLUMNS_H
    english = layout(ENGLISH_SCOREBOARD, group_rows(points=False))
    assert "win_rate" in english.columns  # room enough: "win rate" stays on one line
    assert columns_height(ENGLISH_SCOREBOARD, english) == COLUMNS_H


LANGUAGES = {"en": ENGLISH_SCOREBOARD, "ru": RUSSIAN, "id": INDONESIAN, "is": ICELANDIC}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("hands", "points"), [(False, False), (True, False), (True, True)])
def test_long_names_are_drawn_whole_in_every_language(
    drawn_text: list[str], language: str, hands: bool, points: bool
) -> None:
    """Names of ten letters keep every letter, with or without the hand columns, and no
    caption is cut: the 4-5 letters they had beside hands and points is what fails here."""
    labels = LANGUAGES[language]
    rows = group_rows(hands, points)
    assert font(NAME_SIZE, True).getlength("Александра") <= NAME_ROOM
    assert layout(labels, rows).name_width >= NAME_ROOM
    render_scoreboard(rows, title="S", labels=labels)
    assert set(LONG_NAMES) <= set(drawn_text)
    assert [words for words in drawn_text if ELLIPSIS in words] == []


def test_every_caption_drawn_fits_its_column() -> None:
    for labels in LANGUAGES.values():
        for rows in (group_rows(False, False), group_rows(True, False), group_rows()):
            placed = layout(labels, rows)
            player = font(CAPTION_SIZE).getlength(labels.player)
            assert player <= placed.name_width
            for key, column in placed.columns.items():
                lines = caption_lines(getattr(labels, key), column.width)
                assert max(map(font(CAPTION_SIZE).getlength, lines)) <= column.width, key


def test_columns_are_as_wide_as_their_widest_figure() -> None:
    narrow = replace(ENGLISH_SCOREBOARD, points="pts")
    small = [replace(row, points=96) for row in group_rows()]
    large = [replace(row, points=120_000) for row in group_rows()]
    figure, caption = font(44), font(CAPTION_SIZE)
    assert figure.getlength("96") < caption.getlength("pts") < figure.getlength("1840")
    assert layout(narrow, small).columns["points"].width == ceil(caption.getlength("pts"))
    assert layout(narrow, group_rows()).columns["points"].width == ceil(
        figure.getlength("5120"))
    assert layout(narrow, large).columns["points"].width == ceil(figure.getlength("120000"))


def test_the_win_rate_is_left_out_first_where_names_lack_room(drawn_text: list[str]) -> None:
    """Beside hands and points Russian's captions leave the names too little: the win rate
    goes (played and won say it); with room to spare every column stays."""
    rows = group_rows()
    render_scoreboard(rows, title="S", labels=RUSSIAN)
    assert "доля" not in drawn_text and "65 %" not in drawn_text
    assert {"рейтинг", "матчей", "побед", "партий", "очков"} <= set(drawn_text)
    assert list(layout(ENGLISH_SCOREBOARD, group_rows(False, False)).columns) == [
        "streak", "win_rate", "won", "played", "rating"]


def test_a_hand_column_no_row_counts_is_left_out(drawn_text: list[str]) -> None:
    render_scoreboard(group_rows(points=False), title="S")
    assert "hands" in drawn_text and "points" not in drawn_text
    assert "points" not in layout(ENGLISH_SCOREBOARD, group_rows(points=False)).columns


def test_two_names_sharing_a_first_word_stay_apart(drawn_text: list[str]) -> None:
    """Indonesian QA: two rows read "Muhammad" and "Muhammad"; their first words go to their
    initials, as on the tables, so the words that tell them apart stay."""
    rows = [ScoreboardRow(place, name, 1000, 1, 1, 1.0, 1) for place, name in enumerate(
        ("Muhammad Rizky Pratama Wijayakusuma", "Muhammad Fajar Nugroho Setiabudi"), start=1)]
    render_scoreboard(rows, title="Scoreboard")
    drawn = [words for words in drawn_text if words.startswith("M")]
    assert len(drawn) == 2 and drawn[0] != drawn[1], drawn
    assert all(words.startswith("M. ") for words in drawn), drawn
