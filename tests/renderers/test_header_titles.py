"""Issue 24.6: every game's name, in every language the bot speaks, is drawn whole in the
pictures' header (the table, a hand's result, a match's end), beside the longest details the
header shows (a hand in two figures, the double-12 set) and the widest thing kept at its right
(the middle's face-down tiles, a verdict's pill); smaller where it must be, never below the
smallest text. The Icelandic "Gaple með dauðum steinum" was cut."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest

from bot.gamebook import PRESENTATIONS
from bot.i18n import LANGUAGES
from bot.presentation.pictures import labels_for
from engine import TableView, table_view
from goldens.positions import finished, played
from goldens.samples import names_for
from renderers import render_hand_result, render_match_end, render_table
from renderers.backdrop import TITLE_SIZE
from renderers.fonts import SMALLEST_TEXT


@cache
def _views() -> tuple[TableView, ...]:
    """The widest headers: a table with the middle's tiles at its right, a blocked hand's
    result and a drawn match's end (their pills), all in hand 12 of a double-12 game."""
    table = table_view(played("gaple-dead", 4, 3, seed=21, options={"set": 12}))
    assert table.middle_face_down
    result = table_view(played("gaple-dead", 4, 0, seed=8, until_over=True))
    end = table_view(finished("gaple-dead", 4, 3, 40))
    return tuple(replace(view, hand_number=11, set=12, target=500)
                 for view in (table, result, end))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_games_name_is_drawn_whole_in_every_language(
        language: str, drawn_sizes: list[tuple[str, int]]) -> None:
    for game in PRESENTATIONS:
        labels = labels_for(language, game)
        title = labels.game_title(game)
        for render, view in zip((render_table, render_hand_result, render_match_end), _views(),
                                strict=True):
            drawn_sizes.clear()
            render(replace(view, game=game), names_for(4), labels=labels)
            sizes = [size for words, size in drawn_sizes if words == title]
            assert sizes, (language, game, render.__name__)
            assert SMALLEST_TEXT <= sizes[0] <= TITLE_SIZE


def test_a_short_name_keeps_the_title_size(drawn_sizes: list[tuple[str, int]]) -> None:
    table = _views()[0]
    labels = labels_for("en", "gaple")
    render_table(replace(table, game="gaple"), names_for(4), labels=labels)
    assert (labels.game_title("gaple"), TITLE_SIZE) in drawn_sizes


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_target_is_never_cut_from_the_headers_details(
        language: str, drawn_sizes: list[tuple[str, int]]) -> None:
    """Beside a long name and the middle's tiles, the details lose the set's name first, then
    the hand's number, never the target in part: an Icelandic gaple-dead table with the
    double-9 set read "Umferð 1 · sett 9-9 · upp í 5…"."""
    for game in PRESENTATIONS:
        labels = labels_for(language, game)
        target = labels.target.format(target=500)
        for render, view in zip((render_table, render_hand_result, render_match_end), _views(),
                                strict=True):
            drawn_sizes.clear()
            render(replace(view, game=game), names_for(4), labels=labels)
            drawn = [words for words, _ in drawn_sizes]
            details = drawn[drawn.index(labels.game_title(game)) + 1]  # drawn after the name
            assert details.endswith(target), (language, game, render.__name__, details)
