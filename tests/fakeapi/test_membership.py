"""Who is in a group and what the bot may do there, told as Telegram tells it: members and
admins, a migration, a blocked bot, a bot restricted, removed and added back, kept to texts, and
a group deleted."""

from __future__ import annotations

from typing import Any

import pytest
import telegram
from fake_kit import png

from fakeapi import FakeTelegramServer


async def test_migration_and_blocking_produce_valid_updates(
    server: FakeTelegramServer, alice: Any, group: Any
) -> None:
    new = server.migrate_group(group)
    alice.block_bot()
    alice.send(new, "/newgame")
    kinds = [
        (u.get("message") or {}).keys() & {"migrate_to_chat_id", "migrate_from_chat_id"}
        for u in server.updates
    ]
    assert kinds[:2] == [{"migrate_to_chat_id"}, {"migrate_from_chat_id"}]
    assert server.updates[2]["my_chat_member"]["new_chat_member"]["status"] == "kicked"
    for update in server.updates:
        assert server.schema.validate_object("Update", update) == []


async def test_chat_members_and_admins(
    server: FakeTelegramServer, ptb: telegram.Bot, alice: Any, group: Any
) -> None:
    owner = await ptb.get_chat_member(group.id, alice.id)
    assert owner.status == "creator"
    admins = await ptb.get_chat_administrators(group.id)
    assert [a.user.id for a in admins] == [alice.id]
    stranger = server.add_user("Zed")
    assert (await ptb.get_chat_member(group.id, stranger.id)).status == "left"
    assert (await ptb.get_me()).username == "domino_test_bot"
    server.assert_no_violations()


async def test_what_admins_and_time_do_to_a_group_is_told_as_telegram_tells_it(
    server: FakeTelegramServer, ptb: telegram.Bot, alice: Any,
) -> None:
    """Restricting the bot, adding it back, writing anonymously, deleting a message, a forum's
    General closed, a message grown old: valid updates, and Telegram's refusals."""
    bob = server.add_user("Bob", username="bob", started=True)
    group = server.add_group("Super", [alice, bob], owner=alice, supergroup=True)
    sent = await ptb.send_message(group.id, "hello")
    server.restrict_bot(group, may_send=False)
    with pytest.raises(telegram.error.BadRequest, match=r"(?i)not enough rights to send text"):
        await ptb.send_message(group.id, "again")
    await ptb.edit_message_text("edited", group.id, sent.message_id)  # edits still go
    assert (await ptb.get_chat_member(group.id, server.bot.id)).status == "restricted"
    server.restrict_bot(group, may_send=True)
    server.kick_bot(group)
    alice.send(group, "/help")  # the bot is not in the group: no update
    server.add_bot(group)
    channel = server.add_channel("News")
    server.send_as_chat(alice, group, "/newgame")
    server.send_as_chat(bob, group, "/newgame", as_chat=channel)
    message = server.message(group, sent.message_id)
    server.age(message, days=3)
    bob.press_raw(message, "x")
    with pytest.raises(telegram.error.BadRequest, match=r"(?i)can.t be deleted for everyone"):
        await ptb.delete_message(group.id, sent.message_id)
    server.delete_message(message, by=alice)
    with pytest.raises(telegram.error.BadRequest, match=r"(?i)message to edit not found"):
        await ptb.edit_message_text("gone", group.id, sent.message_id)
    forum = server.add_group("Forum", [alice], owner=alice, forum=True)
    server.close_general(forum, alice)
    with pytest.raises(telegram.error.BadRequest, match=r"(?i)topic_closed"):
        await ptb.send_message(forum.id, "in General")
    kinds = [next(k for k in u if k != "update_id") for u in server.updates]
    assert kinds == ["my_chat_member"] * 4 + ["message"] * 2 + ["callback_query", "message"]
    members = [u["my_chat_member"]["new_chat_member"]["status"] for u in server.updates[:4]]
    assert members == ["restricted", "member", "kicked", "member"]
    assert [u["message"]["from"]["username"] for u in server.updates[4:6]] == [
        "GroupAnonymousBot", "Channel_Bot"]
    assert server.updates[6]["callback_query"]["message"]["date"] == 0  # inaccessible
    for update in server.updates:
        assert server.schema.validate_object("Update", update) == []


async def test_a_bot_may_be_kept_to_texts_and_a_group_deleted_without_a_word(
    server: FakeTelegramServer, ptb: telegram.Bot, alice: Any,
) -> None:
    """An admin forbids the bot media alone: its texts go, its photos and new pictures are
    refused, and its member update says so; a deleted group refuses every call, a basic
    group with 403 "the group chat was deleted", a supergroup with "chat not found"."""
    group = server.add_group("Super", [alice], owner=alice, supergroup=True)
    picture = await ptb.send_photo(group.id, png("red"))
    server.restrict_bot(group, may_send=True, may_send_media=False)
    await ptb.send_message(group.id, "words go")
    with pytest.raises(telegram.error.BadRequest, match=r"(?i)not enough rights to send photos"):
        await ptb.send_photo(group.id, png("red"))
    with pytest.raises(telegram.error.BadRequest, match=r"(?i)not enough rights to send photos"):
        await ptb.edit_message_media(telegram.InputMediaPhoto(png("blue")), group.id,
                                     picture.message_id)
    member = server.updates[-1]["my_chat_member"]["new_chat_member"]
    assert member["status"] == "restricted" and member["can_send_messages"] is True
    assert member["can_send_photos"] is False
    assert server.schema.validate_object("Update", server.updates[-1]) == []
    server.restrict_bot(group, may_send=True)
    await ptb.send_photo(group.id, png("red"))
    basic = server.add_group("Basic", [alice], owner=alice)
    for chat, refusal in ((group, telegram.error.BadRequest), (basic, telegram.error.Forbidden)):
        server.delete_group(chat)
        with pytest.raises(refusal, match=r"(?i)chat not found|group chat was deleted"):
            await ptb.send_message(chat.id, "anyone?")
