"""The fake's forum topics behave as Telegram's: ids, General, closed and deleted topics."""

from __future__ import annotations

from typing import Any

import pytest
import telegram

from fakeapi import FakeTelegramServer, ScenarioError


async def test_topic_messages_carry_their_thread_and_general_ones_none(
    server: FakeTelegramServer, ptb: telegram.Bot
) -> None:
    ayu = server.add_user("Ayu")
    forum = server.add_group("Club", [ayu], admins=[ayu], forum=True)
    topic = server.create_topic(forum, "Evening", ayu)
    in_topic = ayu.send(forum, "/newgame", topic=topic)
    in_general = ayu.send(forum, "/newgame")
    seen: dict[int, Any] = {u["message"]["message_id"]: u["message"] for u in server.updates}
    created = seen[topic.thread_id]  # a topic's id is that of the message that made it
    assert created["forum_topic_created"]["name"] == "Evening"
    message = seen[in_topic.message_id]
    assert (message["message_thread_id"], message["is_topic_message"]) == (topic.thread_id, True)
    assert message["reply_to_message"]["message_id"] == topic.thread_id
    assert message["chat"]["is_forum"] is True
    assert "message_thread_id" not in seen[in_general.message_id]
    assert "is_topic_message" not in seen[in_general.message_id]
    sent = await ptb.send_message(forum.id, "table", message_thread_id=topic.thread_id)
    assert sent.is_topic_message and sent.message_thread_id == topic.thread_id
    general = await ptb.send_message(forum.id, "General")
    assert general.message_thread_id is None and not general.is_topic_message
    assert [m.text for m in server.topic_messages(forum, topic)] == ["table"]
    assert [m.text for m in server.topic_messages(forum, None)] == ["General"]
    with pytest.raises(telegram.error.BadRequest, match=r"(?i)message thread not found"):
        await ptb.send_message(forum.id, "General is not thread 1", message_thread_id=1)


async def test_closed_and_deleted_topics_refuse_as_telegram_does(
    server: FakeTelegramServer, ptb: telegram.Bot
) -> None:
    ayu, budi = server.add_user("Ayu"), server.add_user("Budi")
    forum = server.add_group("Club", [ayu, budi], admins=[ayu], forum=True)
    topic = server.create_topic(forum, "Evening", ayu)
    table = await ptb.send_message(forum.id, "table", message_thread_id=topic.thread_id)
    server.close_topic(topic, ayu)
    assert "forum_topic_closed" in server.updates[-1]["message"]
    with pytest.raises(telegram.error.BadRequest, match=r"(?i)topic_closed"):
        await ptb.send_message(forum.id, "move", message_thread_id=topic.thread_id)
    with pytest.raises(ScenarioError, match="closed"):
        budi.send(forum, "hello?", topic=topic)
    server.reopen_topic(topic, ayu)
    await ptb.send_message(forum.id, "again", message_thread_id=topic.thread_id)
    server.delete_topic(topic)
    with pytest.raises(telegram.error.BadRequest, match=r"(?i)message thread not found"):
        await ptb.send_message(forum.id, "move", message_thread_id=topic.thread_id)
    with pytest.raises(telegram.error.BadRequest, match=r"(?i)message to edit not found"):
        await ptb.edit_message_text("edited", forum.id, table.message_id)
    assert not server.topic_messages(forum, topic)
    await ptb.send_message(forum.id, "General still works")


async def test_an_admin_bot_may_still_write_in_a_closed_topic(
    server: FakeTelegramServer, ptb: telegram.Bot
) -> None:
    """Closed topics take messages from admins who may manage topics."""
    ayu = server.add_user("Ayu")
    forum = server.add_group("Club", [ayu], admins=[ayu], forum=True, bot_is_admin=True)
    topic = server.create_topic(forum, "Evening", ayu)
    server.close_topic(topic, ayu)
    sent = await ptb.send_message(forum.id, "still here", message_thread_id=topic.thread_id)
    assert sent.message_thread_id == topic.thread_id


async def test_a_renamed_topic_says_its_new_name(server: FakeTelegramServer) -> None:
    ayu = server.add_user("Ayu")
    forum = server.add_group("Club", [ayu], admins=[ayu], forum=True)
    topic = server.create_topic(forum, "Evening", ayu)
    server.rename_topic(topic, "Late evening", ayu)
    said = server.updates[-1]["message"]
    assert said["forum_topic_edited"] == {"name": "Late evening"}
    assert said["message_thread_id"] == topic.thread_id and topic.name == "Late evening"
