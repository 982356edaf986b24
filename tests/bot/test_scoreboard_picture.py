"""The scoreboard picture in every language, drawn as /scoreboard draws it: the catalogues'
captions beside long names, with and without points (a board of one game, of every game)."""

from __future__ import annotations

import pytest
from bot_kit import drawn_words

from bot.i18n import LANGUAGES, Translator
from bot.presentation.boardtexts import picture_rows, scoreboard_labels, scoreboard_picture
from bot.service.ratings import Standing
from bot.service.scoreboards import Scoreboard
from renderers.fonts import ELLIPSIS, font
from renderers.scoreboard import NAME_SIZE, layout

# Names a group has, which were cut to four or five letters in Russian, Indonesian and
# Icelandic beside the hands won and points; the first three are on the podium, drawn bold.
NAMES = ("Александра", "Guðmundur", "Kurniawati", "Sergei", "Ólafur")
FIGURES = (  # rating, played, won, streak, hands won, points
    (1412, 34, 22, 3, 141, 1840), (1288, 31, 17, -1, 120, 1502), (1250, 27, 14, 2, 98, 1377),
    (1104, 40, 17, 0, 133, 2210), (640, 100, 31, -12, 320, 5120),
)


def board(points: bool) -> Scoreboard:
    """A board of one game (with its points) or of every game (points None), with matches
    stopped after someone left (the message names them, the picture's line has no room)."""
    standings = tuple(
        Standing(user, name, rating, 0.0, 0.0, 0.0, played, won, 0, 3 * hands, hands,
                 total if points else None, streak)
        for user, (name, (rating, played, won, streak, hands, total))
        in enumerate(zip(NAMES, FIGURES, strict=True), start=1))
    game = "pair" if points else None
    return Scoreboard(100, game, None, None, 31, standings, game, stopped=2)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("points", [True, False])
def test_names_and_captions_are_drawn_whole(
    monkeypatch: pytest.MonkeyPatch, language: str, points: bool
) -> None:
    drawn = drawn_words(monkeypatch)
    scoreboard_picture(Translator(language), board(points))
    assert set(NAMES) <= set(drawn)
    assert [words for words in drawn if ELLIPSIS in words] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_ten_letter_name_has_room_beside_every_column(language: str) -> None:
    labels = scoreboard_labels(Translator(language))
    widest = max(font(NAME_SIZE, True).getlength(name) for name in NAMES)
    for points in (True, False):
        placed = layout(labels, picture_rows(board(points)))
        assert placed.name_width >= widest, (language, points, placed.columns)
        assert {"rating", "played", "won", "hands_won"} <= set(placed.columns)
