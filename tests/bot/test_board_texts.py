"""The scoreboard's and /stats' lines for a player who played no hand of their matches (a
computer took their seat before the first hand ended): no "hands won: 0 of 0"."""

from __future__ import annotations

from dataclasses import replace

from bot.i18n import Translator
from bot.presentation.boardtexts import ALL_GAMES, picture_rows, scoreboard_text, stats_text
from bot.service.ratings import Standing
from bot.service.scoreboards import GameStats, PlayerStats, Scoreboard

# (names come isolated, U+2068 ... U+2069, so a right-to-left name keeps the line in order)
AWAY = Standing(user_id=1, name="Budi", rating=970, skill=-0.2, mu=24.0, sigma=8.0, played=1,
                won=0, drawn=0, hands_played=0, hands_won=0, points=None, streak=-1)
PLAYED = Standing(user_id=2, name="Ayu", rating=1030, skill=0.2, mu=26.0, sigma=8.0, played=1,
                  won=1, drawn=0, hands_played=5, hands_won=3, points=None, streak=1)


def test_a_player_without_hands_shows_the_match_alone() -> None:
    board = Scoreboard(chat_id=-1, game=None, since=None, until=None, matches=1,
                       standings=(PLAYED, AWAY))
    lines = scoreboard_text(Translator("en"), board).splitlines()
    assert lines[-3] == "1. <b>⁨Ayu⁩</b>, rating 1030?: won 1 of 1 (100%); hands won: 3 of 5"
    assert lines[-2] == "2. <b>⁨Budi⁩</b>, rating 970?: won 0 of 1 (0%)"
    assert lines[-1] == PROVISIONAL


def test_their_stats_have_no_empty_line() -> None:
    gaple = GameStats(game="gaple", standing=AWAY, groups=1)
    stats = PlayerStats(user_id=1, name="Budi", games=(gaple,))
    assert stats_text(Translator("en"), stats).splitlines() == [
        "<b>⁨Budi⁩</b>: figures across groups", "", "<b>Gaple</b>, rating 970?",
        "won 0 of 1 (0%)", "in 1 group", "", PROVISIONAL]


PROVISIONAL = ("? after a rating: provisional, fewer than 5 matches played; a scoreboard lists "
               "it after the established ones.")


def test_only_a_provisional_rating_is_marked_and_the_mark_explained_where_one_is() -> None:
    """A rating is provisional for a player's first matches (bot.service.ratings): the board
    marks it "1030?" as chess sites do, and says once what the mark means."""
    regular = replace(PLAYED, user_id=3, name="Citra", rating=1100, played=12, won=7)
    t = Translator("en")
    alone = Scoreboard(chat_id=-1, game=None, since=None, until=None, matches=12,
                       standings=(regular,))
    assert scoreboard_text(t, alone).splitlines()[-1] == (
        "1. <b>⁨Citra⁩</b>, rating 1100: won 7 of 12 (58%); hands won: 3 of 5")
    both = replace(alone, standings=(regular, PLAYED))
    lines = scoreboard_text(t, both).splitlines()
    assert lines[-2].startswith("2. <b>⁨Ayu⁩</b>, rating 1030?: ") and lines[-1] == PROVISIONAL
    assert [(row.rating, row.provisional) for row in picture_rows(both)] == [
        (1100, False), (1030, True)]
    stats = PlayerStats(user_id=3, name="Citra", games=(GameStats("gaple", 1, regular),))
    assert "?" not in stats_text(t, stats)


def test_a_board_of_several_games_says_its_ratings_are_no_one_games() -> None:
    """Review: the match's line tells the change on that game's board; a bare /scoreboard of
    a group that played several games rates them all together, and says so."""
    t = Translator("en")
    mixed = Scoreboard(chat_id=-1, game=None, since=None, until=None, matches=2,
                       standings=(PLAYED, AWAY))
    note = t(ALL_GAMES)
    assert note in scoreboard_text(t, mixed).splitlines()
    for one in (replace(mixed, points_game="gaple"), replace(mixed, game="gaple")):
        assert note not in scoreboard_text(t, one)
