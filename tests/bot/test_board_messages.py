"""The scoreboard's and /stats' messages from a known history of recorded results: every word
translated, an empty board, the period dated in the group's time zone, and the picture."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import fields
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from PIL import Image
from results_kit import (
    ANN,
    GROUP,
    OTHER_GROUP,
    at,
    storage_with_history,  # noqa: F401  (the fixture storage)
)

from bot.i18n import Translator
from bot.presentation import boardtexts
from bot.presentation.boardtexts import (
    board_heading,
    scoreboard_labels,
    scoreboard_picture,
    scoreboard_text,
    stats_text,
)
from bot.service.scoreboards import BoardQuery, player_stats, scoreboard
from bot.storage import Storage
from renderers import ScoreboardLabels


class Marking(Translator):
    """English, with every translated piece wrapped in ⟦ ⟧ so untranslated words stand out."""

    def __init__(self) -> None:
        super().__init__("en")

    def __call__(self, message: str, **params: object) -> str:
        return "⟦" + super().__call__(message, **params) + "⟧"

    def plural(self, singular: str, plural: str, count: int, **params: object) -> str:
        return "⟦" + super().plural(singular, plural, count, **params) + "⟧"


def untranslated(text: str, names: Sequence[str]) -> str:
    """What is left of ``text`` outside every translated piece, name, number and mark."""
    while "⟦" in text:
        text = re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
    for name in names:
        text = text.replace(name, " ")
    return re.sub(r"</?b>|[\d\s.,:;·()%]", "", text)


async def test_every_word_of_the_scoreboard_message_is_translated(storage: Storage) -> None:
    await storage.remember_user(ANN, "Ann <b>&", None, "en")
    for game in (None, "gaple-dead"):
        board = await scoreboard(storage, GROUP, game, since=at(4, 1))
        text = scoreboard_text(Marking(), board, limit=3)
        assert untranslated(text, ["Ann &lt;b&gt;&amp;", "Bob", "Cid", "Dee", "Eve"]) == ""
        assert "Ann &lt;b&gt;&amp;" in text and "<b>&" not in text
    text = scoreboard_text(Translator("en"), await scoreboard(storage, GROUP, "gaple-dead"), 3)
    assert "penalties" in text and "… and 1 more" in text and "since" not in text


async def test_every_word_of_the_stats_message_is_translated(storage: Storage) -> None:
    text = stats_text(Marking(), await player_stats(storage, ANN))
    assert untranslated(text, ["Ann"]) == ""
    english = stats_text(Translator("en"), await player_stats(storage, ANN))
    assert "Pair dominoes" in english and "in 2 groups" in english and "drawn 1" in english


async def test_an_empty_board_says_so(storage: Storage) -> None:
    board = await scoreboard(storage, OTHER_GROUP, "gaple")
    assert "No finished matches yet: open a table with /newgame." in scoreboard_text(
        Translator("en"), board)


async def test_the_period_is_dated_in_the_groups_time_zone(storage: Storage) -> None:
    now = datetime(2024, 5, 20, tzinfo=UTC).timestamp()
    jakarta = ZoneInfo("Asia/Jakarta")  # its May starts on 30 April, 17:00 UTC
    board = await scoreboard(storage, GROUP, since=BoardQuery(period="month").since(now, jakarta))
    assert "since 1 May" in scoreboard_text(Translator("en"), board, tz=jakarta)
    assert "since 30 April" in scoreboard_text(Translator("en"), board)
    assert board_heading(Translator("en"), board, jakarta)[1] == "since 1 May · 2 matches"
    # as people write a day, not 2024-05-01 (Icelandic QA)
    assert board_heading(Translator("ru"), board, jakarta)[1].startswith("с 1 мая · ")  # noqa: RUF001
    assert board_heading(Translator("is"), board, jakarta)[1].startswith("frá 1. maí · ")


async def test_the_picture_draws_the_best_players_with_translated_labels(
    storage: Storage,
) -> None:
    labels = scoreboard_labels(Marking())
    assert all(getattr(labels, f.name).startswith("⟦") for f in fields(labels))
    board = await scoreboard(storage, GROUP)
    heights = []
    for limit in (2, 5, 50):
        png = scoreboard_picture(Translator("en"), board, limit=limit)
        with Image.open(io.BytesIO(png)) as image:
            heights.append(image.height)
    assert heights[0] < heights[1] == heights[2]  # five players in the group


async def test_a_penalty_boards_picture_heads_its_points_column_penalty(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """Player QA: the gaple-dead board's picture said "points" beside a text saying they are
    penalties, the lower the better."""
    drawn: list[str] = []

    def render(*args: object, labels: ScoreboardLabels, **kwargs: object) -> bytes:
        drawn.append(labels.points)
        return b""

    monkeypatch.setattr(boardtexts, "render_scoreboard", render)
    for game in ("gaple-dead", "gaple"):
        scoreboard_picture(Marking(), await scoreboard(storage, GROUP, game))
    assert drawn == ["⟦penalty⟧", "⟦points⟧"]
