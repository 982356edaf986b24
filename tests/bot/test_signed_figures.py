"""A signed figure reads the same in the texts as in the pictures: +13, 0, -13; a player whose
rating did not move reads "0", as the match-end picture draws it, never "+0"."""

from __future__ import annotations

from bot_kit import plain

from bot.i18n import translator
from bot.models import MatchRatings
from bot.presentation.matchendtexts import rating_line
from renderers import signed


def test_a_rating_that_did_not_move_reads_0_as_in_the_picture() -> None:
    line = plain(rating_line(translator("en"), "pair", ("Ayu", "Budi", "Sergei"),
                             MatchRatings((0, 13, -13))))
    assert line == ("Rating change on this group's Pair dominoes scoreboard: Ayu 0 · Budi +13 · "
                    "Sergei -13.")
    assert "+0" not in line
    for change in (0, 13, -13):  # the picture's figures, word for word
        assert f"Ayu {signed(change)}" in plain(
            rating_line(translator("en"), "pair", ("Ayu",), MatchRatings((change,))))


def test_who_left_the_match_comes_last_in_the_rating_line() -> None:
    line = plain(rating_line(translator("en"), "pair", ("Ayu", "🤖 Rio"),
                             MatchRatings((9, None), (("Sergei", -7),))))
    assert line == ("Rating change on this group's Pair dominoes scoreboard: Ayu +9 · Sergei "
                    "(left the match) -7.")
