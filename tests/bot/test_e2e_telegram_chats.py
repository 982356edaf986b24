"""What real Telegram does to a group a game is played in, which the game must survive: an
admin deleting its messages, closing its topic or forbidding the bot to write, the bot removed
and added back, the group upgraded to a supergroup, Telegram's own failures and flood waits.
Each ends with the game going on or a clear word, nothing lost, and no error logged."""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Iterable
from pathlib import Path

import pytest
from bot_kit import NAMES, Group, complaints, counting_seeds, die_after_commit, lobby_button

from bot.app import begin_stop
from bot.models import Status
from bot.storage import StorageUnavailableError
from fakeapi import FakeTelegramServer, FakeUser, RequestRecord
from fakeapi.players import Table, active_hand


@pytest.fixture
def forum_group(telegram: FakeTelegramServer, tmp_path: Path) -> Group:
    """A forum supergroup, played in its General topic; Ayu is its admin, the bot is not."""
    users = [telegram.add_user(name, language_code="en") for name in NAMES]
    chat = telegram.add_group("Domino club", members=users, admins=users[:1], forum=True)
    return Group(telegram, chat, users, tmp_path / "bot.sqlite3", counting_seeds())


@pytest.fixture
def supergroup(telegram: FakeTelegramServer, tmp_path: Path) -> Group:
    """A supergroup of four without topics; Ayu is its admin."""
    users = [telegram.add_user(n, language_code="en") for n in ("Ayu", "Budi", "Sergei", "Dewi")]
    chat = telegram.add_group("Super", members=users, admins=users[:1], supergroup=True)
    return Group(telegram, chat, users, tmp_path / "bot.sqlite3", counting_seeds())


async def test_a_lobby_an_admin_deleted_is_posted_again_at_the_next_newgame(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    ayu, budi, sergei = group.users[:3]
    async with group.bot():
        await group.open_table("pair", 2)
        old = group.lobby()
        group.server.delete_message(old, by=ayu)  # the admin tidies the chat up
        group.send(sergei, "/newgame pair")  # where has the table gone?
        await group.server.wait_for(lambda: group.said("A table is already open here"))
        lobby = await group.server.wait_for(group._lobby_or_none)
        assert lobby is not old and not lobby.deleted
        assert ayu.id in lobby.mentioned_user_ids and budi.id in lobby.mentioned_user_ids
        sergei.send_private("/start")
        record = sergei.press(lobby, lobby_button(lobby, "j") or "")
        await group.server.wait_for(lambda: record.answered)
        await group.server.wait_for(lambda: sergei.id in lobby.mentioned_user_ids)
        assert group.game().status is Status.LOBBY
    assert not complaints(caplog)


async def test_a_deleted_lobby_whose_new_post_fails_once_is_posted_at_the_retry(
        group: Group) -> None:
    async with group.bot() as runtime:
        await group.open_table("pair", 2)
        old = group.lobby()
        group.server.delete_message(old, by=group.users[0])
        group.server.fail_next("sendMessage", error_code=502, description="Bad Gateway",
                               chat=group.chat)
        runtime.message_gone(group.game(), lobby=True)  # as /newgame finds it gone
        lobby = await group.server.wait_for(group._lobby_or_none, timeout=15)
        assert lobby is not old and not lobby.deleted


async def test_a_table_an_admin_deleted_comes_back_at_the_next_move_or_newgame(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    async with group.bot() as runtime:
        table = await group.start("pair")
        await table.play_one()
        await runtime.publisher.idle()
        first = group.game().messages.table_message
        assert first is not None
        group.server.delete_message(group.server.message(group.chat, first), by=group.users[0])
        await table.play_one()  # its edit finds the message gone: the table is sent anew
        await runtime.publisher.idle()
        second = group.game().messages.table_message
        assert second not in (None, first)
        assert not group.server.message(group.chat, second).deleted  # type: ignore[arg-type]
        group.server.delete_message(group.server.message(group.chat, second),  # type: ignore[arg-type]
                                    by=group.users[0])
        group.send(group.users[4], "/newgame gaple")  # nobody moves: the table is asked for
        await group.server.wait_for(lambda: group.said("A game is already running"))
        await group.server.wait_for(
            lambda: group.game().messages.table_message not in (first, second))
        await runtime.publisher.idle()
        third = group.server.message(group.chat, group.game().messages.table_message)  # type: ignore[arg-type]
        assert third.photo is not None and not third.deleted
    assert not complaints(caplog)


async def test_a_bot_removed_and_added_back_opens_a_new_table(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    async with group.bot() as runtime:
        table = await group.start("pair")
        await table.play_one()
        game = group.game()
        group.users[1].send(group.chat, "/help")  # read after the bot has gone: refused
        group.server.kick_bot(group.chat)
        await group.server.wait_for(lambda: game.status is Status.STOPPED)
        group.users[1].send(group.chat, "/help")  # gone: the bot reads nothing there
        await runtime.publisher.idle()
        table_message = group.server.message(group.chat, game.messages.table_message)  # type: ignore[arg-type]
        assert table_message.buttons  # the stop's edit was refused: it still offers moves
        group.server.add_bot(group.chat)
        # Back, the bot brings the stopped game's table to its end (player QA: it still said
        # whose turn it was, with buttons)
        await group.server.wait_for(lambda: not table_message.buttons,
                                    message="the old table kept its buttons")
        group.users[2].send(group.chat, "/newgame gaple")
        await group.server.wait_for(lambda: group.game().game_id != game.game_id)
        lobby = await group.server.wait_for(group._lobby_or_none)
        assert "Gaple" in (lobby.text or "")
    assert not complaints(caplog)


async def test_commands_in_a_closed_topic_leave_no_error(
        telegram: FakeTelegramServer, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    users = [telegram.add_user(n, language_code="en") for n in ("Ayu", "Budi")]
    chat = telegram.add_group("Forum", members=users, admins=users[:1], forum=True)
    topic = telegram.create_topic(chat, "Dominoes", users[0])
    group = Group(telegram, chat, users, tmp_path / "bot.sqlite3", counting_seeds(), topic=topic)
    async with group.bot() as runtime:
        telegram.close_topic(topic, users[0])
        for command in ("/help", "/rules", "/scoreboard", "/table", "/newgame pair"):
            users[0].send(chat, command, topic=topic)  # an admin still writes there
        await telegram.wait_for(lambda: telegram.world.updates.all_delivered)
        await telegram.wait_idle()
        await runtime.publisher.idle()
    # The table opened there could not be posted: nobody saw it, so General hears nothing of
    # it (player QA; its creator is told in private when the bot may write to them:
    # test_e2e_topics); the replies the topic refuses are not errors.
    assert not any("closed" in (m.text or "") for m in telegram.topic_messages(chat, None))
    assert not complaints(caplog)


async def test_a_game_in_a_closed_general_topic_plays_on_in_private_and_catches_up(
        forum_group: Group, caplog: pytest.LogCaptureFixture) -> None:
    group, server = forum_group, forum_group.server
    ayu = group.users[0]
    async with group.bot() as runtime:
        table = await group.start("gaple")
        await table.play_one()
        await runtime.publisher.idle()
        server.close_general(group.chat, ayu)
        ayu.send(group.chat, "/table")  # an admin may write there still; the bot may not
        await server.wait_for(lambda: all(
            any("may not send messages" in (m.text or "") for m in server.bot_messages(
                u.private_chat)) for u in group.users[:4]))
        await table.play_one()
        await runtime.publisher.idle()
        server.close_general(group.chat, ayu, closed=False)
        before = group.game().messages.table_message
        runtime.publisher.group.reposts.moved_at.clear()  # (the refused post's gap over)
        await table.play_one()  # the next sync posts what waited
        await server.wait_for(lambda: group.game().messages.table_message != before)
    assert not complaints(caplog)


async def test_a_bot_that_may_not_write_in_the_group_plays_on_in_private_and_catches_up(
        telegram: FakeTelegramServer, supergroup: Group, caplog: pytest.LogCaptureFixture) -> None:
    users, chat = supergroup.users, supergroup.chat
    group = supergroup
    async with group.bot() as runtime:
        table = await group.start("gaple")
        await table.play_one()
        await runtime.publisher.idle()
        telegram.restrict_bot(chat, may_send=False)
        users[1].send(chat, "/table")  # the table cannot come down: the players are told
        users[1].send(chat, "/help")  # nor can a reply go
        await telegram.wait_for(lambda: all(
            any("may not send messages" in (m.text or "") for m in telegram.bot_messages(
                u.private_chat)) for u in users))
        await table.play_one()  # the game goes on in private
        await runtime.publisher.idle()
        before = len(telegram.bot_messages(chat))
        telegram.restrict_bot(chat, may_send=True)
        await telegram.wait_for(lambda: len(telegram.bot_messages(chat)) > before)
        await runtime.publisher.idle()
        newest = telegram.bot_messages(chat)[-1]
        assert newest.photo is not None and newest.message_id == group.game().messages.table_message
        for user in users:  # told once
            told = [m for m in telegram.bot_messages(user.private_chat)
                    if "may not send messages" in (m.text or "")]
            assert len(told) == 1
    assert not complaints(caplog)


async def test_a_failure_while_telling_the_players_leaves_the_group_syncing(
        telegram: FakeTelegramServer, supergroup: Group) -> None:
    """Reading the players' languages for that word fails (a database blip): the group's syncs
    go on once the bot may write again, and a stop does not wait for a sync that is over."""
    users, chat = supergroup.users, supergroup.chat
    group = supergroup
    async with group.bot() as runtime:
        table = await group.start("gaple")
        await table.play_one()
        await runtime.publisher.idle()
        languages = runtime.storage.user_languages
        blips: list[object] = []

        async def blip(user_ids: Iterable[int]) -> dict[int, str]:
            if not any(frame.function == "tell_players" for frame in inspect.stack()):
                return await languages(user_ids)  # the hands' own reads go through
            runtime.storage.user_languages = languages  # type: ignore[method-assign]
            blips.append(user_ids)
            raise StorageUnavailableError("database is locked")  # once
        runtime.storage.user_languages = blip  # type: ignore[method-assign]
        telegram.restrict_bot(chat, may_send=False)
        users[1].send(chat, "/table")
        await telegram.wait_for(lambda: blips)
        await asyncio.wait_for(runtime.publisher.idle(), 10)  # over, and not left registered
        old = group.game().messages.table_message
        telegram.restrict_bot(chat, may_send=True)
        await table.play_one()  # the /table asked for comes down now
        await telegram.wait_for(lambda: group.game().messages.table_message != old and
                                telegram.bot_messages(chat)[-1].message_id
                                == group.game().messages.table_message)
        await asyncio.wait_for(runtime.publisher.idle(), 10)


async def test_after_an_upgrade_to_a_supergroup_no_old_message_id_is_edited_in_the_new_chat(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    """The old group's messages stay behind in it; the supergroup numbers its messages anew,
    so an old id there names some other message (here: the bot's answer to /help)."""
    ayu, budi = group.users[:2]
    async with group.bot() as runtime:
        await group.start("pair")
        budi.send(group.chat, "/leave")  # a question left unanswered in the old group
        asked = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat) if "Yes, leave" in str(
                m.button_texts)), None))
        group.chat = group.server.migrate_group(group.chat)
        await group.server.wait_for(lambda: group.service.open_game_in(group.chat.id) is not None)
        await runtime.publisher.idle()
        while group.chat.next_message_id < asked.message_id - 1:
            budi.send(group.chat, "chatter")
        assert group.chat.next_message_id == asked.message_id - 1
        budi.send(group.chat, "/help")
        helped = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if m.message_id == asked.message_id), None))
        text = helped.text
        ayu.send(group.chat, "/stop")
        stop = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat) if "Yes, stop the game" in str(
                m.button_texts)), None))
        ayu.press(stop, "Yes, stop the game")
        await group.server.wait_for(lambda: group.game().status is Status.STOPPED)
        await runtime.publisher.idle()
        assert helped.text == text and helped.edit_count == 0
    assert not complaints(caplog)


async def test_a_lobby_open_when_the_group_is_upgraded_is_posted_in_the_supergroup(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    sergei = group.users[2]
    async with group.bot():
        await group.open_table("pair", 2)
        group.chat = group.server.migrate_group(group.chat)
        lobby = await group.server.wait_for(group._lobby_or_none)  # (the supergroup's)
        sergei.send_private("/start")
        record = sergei.press(lobby, lobby_button(lobby, "j") or "")
        await group.server.wait_for(lambda: record.answered)
        await group.server.wait_for(lambda: sergei.id in lobby.mentioned_user_ids)
    assert not complaints(caplog)


async def test_a_group_upgraded_while_the_bot_was_down_gets_its_table_in_the_supergroup(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    async with group.bot() as runtime:
        table = await group.start("pair")
        await table.play_one()
        await runtime.publisher.idle()
        user, message = await group.server.wait_for(table.whose_turn)
        die_after_commit(runtime)  # the next move is committed, its table never sent
        before = group.game().move_no
        record = user.press(message, next(b.text for row in message.buttons for b in row
                                          if b.text.startswith("✅")))
        await group.server.wait_for(lambda: record.answered)
        await group.server.wait_for(lambda: group.game().move_no != before)
    old = group.chat
    group.chat = group.server.migrate_group(old)
    held = group.server.hold("getUpdates", after_acting=False)  # the upgrade is read late
    async with group.bot():  # its first sync edits the old group's table: Telegram says where
        await group.server.wait_for(lambda: any(
            r.chat_id == old.id and r.status == 400 for r in group.server.requests))
        held.release()
        await group.server.wait_for(lambda: any(m.photo for m in group.server.bot_messages(
            group.chat)))
        await table.play_one()
    assert not complaints(caplog)


async def test_telegrams_own_failures_are_retried_with_a_warning_not_an_error(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    async with group.bot() as runtime:
        group.server.fail_next("sendPhoto", error_code=502, description="Bad Gateway",
                               chat=group.chat)
        table = await group.start("pair")
        user, _ = await group.server.wait_for(table.whose_turn)
        after = group.users[(group.users.index(user) + 1) % 4]
        group.server.fail_next("sendPhoto", error_code=500, description="Internal Server Error",
                               chat=after.private_chat)
        await table.play_one()
        await table.play_one()  # the next player got their tiles after all
        await runtime.publisher.idle()
        assert group.server.message(group.chat, group.game().messages.table_message  # type: ignore[arg-type]
                                    ).photo is not None
    warned = complaints(caplog, logging.WARNING)
    # (one a failure, or one for both when the second came while the first was not yet
    # over: Telegram's outage is told once, however many syncs meet it)
    assert not complaints(caplog) and 1 <= len(warned) <= 2, warned
    assert all("sync of game" in line and "failed" in line for line in warned), warned
    assert not any(r.exc_info for r in caplog.records if r.levelno >= logging.WARNING)


async def test_a_command_reply_telegram_fails_is_one_warning_and_an_apology(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    async with group.bot():
        group.server.fail_next("sendMessage", error_code=502, description="Bad Gateway",
                               chat=group.chat)
        group.users[1].send(group.chat, "/help")
        await group.server.wait_for(lambda: group.said("Something went wrong"))
        group.server.drop_connection("sendMessage", after_acting=True, chat=group.chat)
        group.users[1].send(group.chat, "/rules gaple")  # it may have arrived: no apology
        await group.server.wait_for(lambda: group.server.dropped)
        await group.server.wait_idle()
    assert len([t for t in group.texts() if "Something went wrong" in t]) == 1
    warned = complaints(caplog, logging.WARNING)
    assert not complaints(caplog) and len(warned) == 2, warned
    assert not any(r.exc_info for r in caplog.records if r.levelno >= logging.WARNING)


async def test_flood_waits_on_a_reply_a_tap_and_a_hand_are_waited_out(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    server = group.server
    async with group.bot() as runtime:
        server.fail_next("sendMessage", retry_after=1, chat=group.chat)
        group.users[1].send(group.chat, "/help")  # a command's reply goes after the wait
        await server.wait_for(lambda: group.said("Dominoes for your group"))
        await group.open_table("gaple", 3)
        lobby = group.lobby()
        group.users[3].send_private("/start")
        server.fail_next("answerCallbackQuery", retry_after=1)
        record = group.users[3].press(lobby, lobby_button(lobby, "j") or "")
        await server.wait_for(lambda: record.answered)  # within Telegram's 15 s
        assert record.answer_text == "You joined the game."
        await server.wait_for(lambda: group.users[3].id in lobby.mentioned_user_ids)
        start = group.users[0].press(lobby, lobby_button(lobby, "s") or "")
        await server.wait_for(lambda: start.answered)
        table = Table(server, group.users[:4])
        user, _ = await server.wait_for(table.whose_turn)
        after = group.users[(group.users.index(user) + 1) % 4]
        server.flood_wait(after.private_chat, 2)  # their next tiles meet a 429
        await table.play_one()
        await server.wait_for(lambda: active_hand(server, after) is not None, timeout=10)
        await runtime.publisher.idle()
    assert [r.status for r in server.requests_for("sendMessage", group.chat)].count(429) == 1
    assert not server.early_calls  # nothing sent into a flood wait
    assert not complaints(caplog)


def muted_notices(telegram: FakeTelegramServer, user: FakeUser) -> list[RequestRecord]:
    """The bot's calls sending ``user`` the notice that it may not write in the group."""
    return [r for r in telegram.requests if r.method == "sendMessage"
            and r.chat_id == user.private_chat.id
            and "may not send messages" in str(r.params.get("text"))]


async def test_the_notice_that_the_bot_may_not_write_survives_a_flood_wait_and_a_blip(
        telegram: FakeTelegramServer, supergroup: Group, caplog: pytest.LogCaptureFixture) -> None:
    """Telegram answers one player's notice "retry after 1" and another's with a 502: each is
    sent again, the first once its wait is over; one who blocked the bot is tried once."""
    users, chat = supergroup.users, supergroup.chat
    ayu, budi, sergei, dewi = users
    group = supergroup
    async with group.bot() as runtime:
        table = await group.start("gaple")
        await table.play_one()
        await runtime.publisher.idle()
        dewi.block_bot()
        telegram.flood_wait(ayu.private_chat, 1)
        telegram.fail_next("sendMessage", error_code=502, description="Bad Gateway",
                           chat=budi.private_chat)
        telegram.restrict_bot(chat, may_send=False)
        budi.send(chat, "/table")
        await telegram.wait_for(lambda: all(
            any(r.ok for r in muted_notices(telegram, u)) for u in (ayu, budi, sergei)),
            timeout=20)
        await runtime.publisher.idle()
        tried = {u.first_name: [r.status for r in muted_notices(telegram, u)] for u in users}
        assert tried == {"Ayu": [429, 200], "Budi": [502, 200], "Sergei": [200],
                         "Dewi": [403]}
        assert telegram.early_calls == []  # its retry_after waited out
    assert not complaints(caplog)


async def test_a_long_flood_wait_on_that_notice_ends_when_the_bot_stops(
        telegram: FakeTelegramServer, supergroup: Group) -> None:
    """Telegram asks for ten minutes before a player's notice: a bot stopping meanwhile does
    not wait for them (the notice is not sent)."""
    users, chat = supergroup.users, supergroup.chat
    group = supergroup
    async with group.bot() as runtime:
        await group.start("gaple")
        await runtime.publisher.idle()
        telegram.fail_next("sendMessage", retry_after=600, chat=users[0].private_chat)
        telegram.restrict_bot(chat, may_send=False)
        users[1].send(chat, "/table")
        await telegram.wait_for(lambda: muted_notices(telegram, users[0]))
        begin_stop(group.extra["application"])  # type: ignore[arg-type]
        await asyncio.wait_for(runtime.publisher.idle(), 30)  # not the 600 s asked
        assert [r.status for r in muted_notices(telegram, users[0])] == [429]
