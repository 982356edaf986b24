"""A scoreboard's query: the words that choose its game and period, and where this month and this
week start in the group's time zone."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from bot.errors import UserError
from bot.service.scoreboards import BoardQuery, month_start, parse_query


def test_scoreboard_words_choose_game_and_period() -> None:
    assert parse_query([]) == BoardQuery()
    assert parse_query(["PAIR", "month"]) == BoardQuery("pair", "month")
    assert parse_query(["all", "gaple-dead"]) == BoardQuery("gaple-dead", "all")
    assert parse_query(["week", "dead"]) == BoardQuery("gaple-dead", "week")
    # names of several words, and the periods in the bot's languages
    assert parse_query(["Домино", "парами", "неделя"]) == BoardQuery("pair", "week")
    assert parse_query(["BULAN", "Gaple", "with", "dead", "tiles"]) == BoardQuery(
        "gaple-dead", "month")
    assert parse_query(["allt"]) == BoardQuery(None, "all")
    with pytest.raises(UserError) as raised:
        parse_query(["pair", "Domino", "Prancis"])
    assert raised.value.params["word"] == "Domino Prancis"
    with pytest.raises(UserError) as raised:
        parse_query(["chess"])
    assert raised.value.params["word"] == "chess"
    for twice in (["month", "all"], ["week", "week"], ["pair", "dead"]):  # which one was meant?
        with pytest.raises(UserError) as raised:
            parse_query(twice)
        assert raised.value.params["word"] == twice[1]


def test_this_month_starts_at_midnight_of_the_first_in_the_groups_time_zone() -> None:
    now = datetime(2024, 3, 1, 2, 30, tzinfo=UTC).timestamp()
    assert month_start(now) == datetime(2024, 3, 1, tzinfo=UTC).timestamp()
    jakarta = ZoneInfo("Asia/Jakarta")
    assert month_start(now, jakarta) == datetime(2024, 3, 1, tzinfo=jakarta).timestamp()
    new_york = ZoneInfo("America/New_York")  # still February there
    assert month_start(now, new_york) == datetime(2024, 2, 1, tzinfo=new_york).timestamp()
    assert BoardQuery(period="month").since(now) == month_start(now)
    assert BoardQuery().since(now) is None


def test_this_week_starts_on_monday_at_midnight_in_the_groups_time_zone() -> None:
    wednesday = datetime(2024, 3, 6, 15, tzinfo=UTC).timestamp()
    assert BoardQuery(period="week").since(wednesday) == datetime(2024, 3, 4,
                                                                  tzinfo=UTC).timestamp()
    jakarta = ZoneInfo("Asia/Jakarta")
    monday_early = datetime(2024, 3, 4, 1, tzinfo=jakarta).timestamp()  # Sunday in UTC
    assert BoardQuery(period="week").since(monday_early, jakarta) == datetime(
        2024, 3, 4, tzinfo=jakarta).timestamp()
    assert BoardQuery().since(wednesday) is None
