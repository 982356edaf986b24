"""A forum topic closed during a game (QA: closing a topic for a moment is routine moderation,
and it threw away an evening's match). Telegram lets admins who may manage topics write in a
closed topic: a bot that is one plays on there; one that is not ends the game, and its table
in the topic shows the stop (a bot may edit its messages in a closed topic), and its players
hear why in private."""

from __future__ import annotations

import time

from bot_kit import Group, plain
from test_e2e_topics import (  # noqa: F401 (a fixture)
    forum,
    place,
    running,
    told_in_general,
    under_way,
)

from bot.handlers.runtime import Runtime
from bot.models import Status
from fakeapi import FakeChat, FakeTelegramServer, FakeTopic, FakeUser, StoredMessage

#: What each player's last hand says of a game its closed topic ended.
STOPPED_CLOSED = "The game was stopped: its topic was closed, and I may not write there."


def set_bot_admin(server: FakeTelegramServer, chat: FakeChat, admin: bool, by: FakeUser) -> None:
    """An admin promotes the bot to an admin (who may manage topics), or demotes it: Telegram
    tells the bot with my_chat_member."""
    world = server.world
    old = world.member(chat, world.bot)
    chat.members[world.bot.id] = "administrator" if admin else "member"
    world.updates.push("my_chat_member", {
        "chat": chat.to_api(), "from": by.to_api(), "date": int(time.time()),
        "old_chat_member": old, "new_chat_member": world.member(chat, world.bot)})
    world.changed()


async def closed_by_an_admin_bot(server: FakeTelegramServer, chat: FakeChat, topic: FakeTopic,
                                 by: FakeUser) -> None:
    """The bot made an admin of the forum, then ``by`` closes the game's topic."""
    set_bot_admin(server, chat, True, by)
    await server.wait_idle()
    server.close_topic(topic, by)
    await server.wait_idle(quiet=0.5)


def topic_table(at: Group, message_id: int | None) -> StoredMessage:
    assert message_id is not None
    return at.server.message(at.chat, message_id)


async def stopped_in_its_topic(group: Group, at: Group, table_id: int | None,
                               runtime: Runtime) -> StoredMessage:
    """Once General was told the game's topic was closed: its table there, shown stopped
    (its buttons gone), all sent."""
    server = group.server
    await server.wait_for(lambda: told_in_general(group, "closed"),
                          message="General told that the topic was closed")
    shown = topic_table(at, table_id)
    await server.wait_for(lambda: not shown.buttons, message="the table's buttons gone")
    await server.wait_idle(quiet=0.5)
    await runtime.publisher.idle()
    return shown


def last_hand_text(server: FakeTelegramServer, user: FakeUser) -> str:
    hands = [m for m in server.bot_messages(user.private_chat) if m.photo]
    return plain(hands[-1].content)


async def test_a_bot_that_may_write_in_a_closed_topic_plays_its_game_on_there(
        forum: Group) -> None:  # noqa: F811
    server, ayu = forum.server, forum.users[0]
    async with under_way(forum) as (topic, at, table, runtime):
        game = at.game()
        await closed_by_an_admin_bot(server, forum.chat, topic, ayu)
        await runtime.publisher.idle()
        assert game.status is Status.PLAYING and game.thread_id == topic.thread_id
        await table.play_until(lambda: bool(at.hand_results()))  # a new send there, too
        await server.wait_idle()
        await runtime.publisher.idle()
        assert runtime.service.open_game_in(forum.chat.id, topic.thread_id) is game
        shown = topic_table(at, game.messages.table_message)
        assert shown.buttons and shown.thread_id == topic.thread_id
    assert not told_in_general(forum, "closed")
    assert not [e for e in server.errors if "TOPIC_CLOSED" in (e.description or "")]


async def test_a_topic_closed_to_the_bot_shows_the_stop_on_its_table_and_tells_why(
        forum: Group) -> None:  # noqa: F811
    """The bot may not write in the closed topic: the game ends as before, and its table
    there loses its buttons and says the game was stopped (QA: it still said "Your turn" with
    live buttons), and the players hear in private why."""
    server, ayu = forum.server, forum.users[0]
    async with under_way(forum) as (topic, at, _, runtime):
        game = at.game()
        table_id = game.messages.table_message
        server.close_topic(topic, ayu)
        shown = await stopped_in_its_topic(forum, at, table_id, runtime)
    assert game.status is Status.STOPPED and game.thread_id is None
    assert "The game was stopped." in plain(shown.content) and "turn" not in shown.content
    assert shown.thread_id == topic.thread_id
    for user in forum.users[:2]:
        assert STOPPED_CLOSED in last_hand_text(server, user)
    assert not [m for m in server.topic_messages(forum.chat, None) if m.photo]


async def test_a_bot_no_longer_admin_ends_the_game_when_the_closed_topic_refuses_it(
        forum: Group) -> None:  # noqa: F811
    """The bot played on in the closed topic as an admin, then lost its rights there: the
    first send the topic refuses ends the game as the close would have."""
    server, ayu = forum.server, forum.users[0]
    async with under_way(forum) as (topic, at, table, runtime):
        game = at.game()
        await closed_by_an_admin_bot(server, forum.chat, topic, ayu)
        await table.play_one()
        await server.wait_idle()
        await runtime.publisher.idle()
        assert game.status.open and game.thread_id == topic.thread_id  # (played on)
        table_id = game.messages.table_message
        set_bot_admin(server, forum.chat, False, ayu)
        await server.wait_idle()
        at.send(ayu, "/table")  # the table posted again below: refused now
        shown = await stopped_in_its_topic(forum, at, table_id, runtime)
    assert game.status is Status.STOPPED and game.thread_id is None
    assert "The game was stopped." in plain(shown.content)
    for user in forum.users[:2]:
        assert STOPPED_CLOSED in last_hand_text(server, user)
    assert len(told_in_general(forum, "closed")) == 1



async def test_a_lobby_left_in_a_topic_closed_to_the_bot_says_the_table_is_closed(
        forum: Group) -> None:  # noqa: F811
    server, ayu = forum.server, forum.users[0]
    topic = server.create_topic(forum.chat, "Evening", ayu)
    at = place(forum, topic, forum.users[:2])
    async with running(forum, at) as runtime:
        at.send(ayu, "/newgame gaple")
        lobby = await server.wait_for(at._lobby_or_none, message="a lobby in the topic")
        server.close_topic(topic, ayu)
        await server.wait_for(lambda: not lobby.buttons, message="the lobby's buttons gone")
        await server.wait_idle(quiet=0.5)
        await runtime.publisher.idle()
    assert at.game().status is Status.CANCELLED
    assert plain(lobby.content) == "This table was closed before the game started."
    assert told_in_general(forum, "closed")
