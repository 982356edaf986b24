"""/scoreboard in a forum topic: the board is the whole group's, and it says so, since a
topic's players would take it for their topic's."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from bot_kit import NAMES, Group, counting_seeds

from fakeapi import FakeTelegramServer

WHOLE_GROUP = "This board counts the games of every topic in this group."


async def test_the_board_asked_for_in_a_topic_says_it_counts_every_topic(
        telegram: FakeTelegramServer, tmp_path: Path) -> None:
    users = [telegram.add_user(name, language_code="en") for name in NAMES]
    chat = telegram.add_group("Domino club", members=users, admins=users[:1], forum=True)
    general = Group(telegram, chat, users, tmp_path / "bot.sqlite3", counting_seeds())
    topic = telegram.create_topic(chat, "Evening", users[0])
    evening = replace(general, topic=topic, extra={})
    async with general.bot():
        for place in (evening, general):
            place.send(users[1], "/scoreboard")
            await telegram.wait_for(lambda p=place: any(  # type: ignore[misc]
                "No finished matches yet" in m.content for m in p.messages()),
                message="no board")
    in_topic = [m.content for m in evening.messages()]
    in_general = [m.content for m in general.messages()]
    assert len(in_topic) == 1 and WHOLE_GROUP in in_topic[0]
    assert len(in_general) == 1 and WHOLE_GROUP not in in_general[0]
