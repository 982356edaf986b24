"""The group's notices that its table cannot be shown, the group refusing the bot's photos
(QA): "I may not send photos in this group …" and the answers to /table saying so stayed in
the topic once photos were allowed and the table came back, untrue. They go once a table is
posted there again, after a restart too (their ids are kept with the game's messages), and
a restart while photos are still refused does not say it twice."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from bot_kit import Group, complaints, counting_seeds

from fakeapi import FakeTelegramServer, StoredMessage

NO_PHOTOS_HERE = "I may not send photos in this group"
TABLE_REFUSED = "The group does not let me send photos"


@pytest.fixture
def supergroup(telegram: FakeTelegramServer, tmp_path: Path) -> Group:
    users = [telegram.add_user(n, language_code="en") for n in ("Ayu", "Budi", "Sergei", "Dewi")]
    chat = telegram.add_group("Super", members=users, admins=users[:1], supergroup=True)
    return Group(telegram, chat, users, tmp_path / "bot.sqlite3", counting_seeds())


def notices(telegram: FakeTelegramServer, group: Group) -> list[StoredMessage]:
    return [m for m in telegram.bot_messages(group.chat)
            if NO_PHOTOS_HERE in (m.text or "") or TABLE_REFUSED in (m.text or "")]


async def test_the_no_photos_notices_go_once_the_table_is_posted_again(
        telegram: FakeTelegramServer, supergroup: Group, caplog: pytest.LogCaptureFixture
) -> None:
    users, chat, group = supergroup.users, supergroup.chat, supergroup
    async with group.bot() as runtime:
        table = await group.start("gaple")
        await table.play_one()
        await runtime.publisher.idle()
        telegram.restrict_bot(chat, may_send=True, may_send_media=False, by=users[0])
        await table.play_one()
        await runtime.publisher.idle()
        before = len(telegram.bot_messages(chat))
        users[1].send(chat, "/table")
        await telegram.wait_for(lambda: len(telegram.bot_messages(chat)) > before)
        await runtime.publisher.idle()
        said = notices(telegram, group)
        assert [NO_PHOTOS_HERE in (m.text or "") for m in said] == [True, False]
        assert sorted(group.game().messages.photo_notices) == [m.message_id for m in said]
    async with group.bot() as runtime:  # restarted, photos still refused: not said again
        await table.play_one()
        await runtime.publisher.idle()
        assert notices(telegram, group) == said and not any(m.deleted for m in said)
        telegram.restrict_bot(chat, may_send=True, by=users[0])  # photos allowed again
        await telegram.wait_for(lambda: group.game().messages.table_message is not None)
        await runtime.publisher.idle()
        assert telegram.bot_messages(chat)[-1].photo is not None
        assert all(m.deleted for m in said), [m.text for m in said if not m.deleted]
        assert group.game().messages.photo_notices == []
        await table.play_one()
        await runtime.publisher.idle()
    assert not complaints(caplog, logging.WARNING)
