"""A forum's bot removed and added back: a table its removal stopped in a topic is brought
to its end there too, not only General's (review)."""

from __future__ import annotations

from pathlib import Path

from bot_kit import NAMES, Group, counting_seeds

from bot.models import Status
from fakeapi import FakeTelegramServer


async def test_a_topics_table_stopped_by_the_bots_removal_ends_when_it_is_back(
        telegram: FakeTelegramServer, tmp_path: Path) -> None:
    users = [telegram.add_user(name, language_code="en") for name in NAMES[:4]]
    chat = telegram.add_group("Domino club", members=users, admins=users[:1], forum=True)
    topic = telegram.create_topic(chat, "Evening", users[0])
    group = Group(telegram, chat, users, tmp_path / "bot.sqlite3", counting_seeds(),
                  topic=topic)
    async with group.bot() as runtime:
        table = await group.start("pair")
        await table.play_one()
        game = group.game()
        assert game.thread_id == topic.thread_id
        telegram.kick_bot(chat)
        await telegram.wait_for(lambda: game.status is Status.STOPPED)
        await runtime.publisher.idle()
        shown = telegram.message(chat, game.messages.table_message)  # type: ignore[arg-type]
        assert shown.buttons  # the stop's edit was refused
        telegram.add_bot(chat)
        await telegram.wait_for(lambda: not shown.buttons,
                                message="the topic's old table kept its buttons")
        assert "The game was stopped." in shown.content
