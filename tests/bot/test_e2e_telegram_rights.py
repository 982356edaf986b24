"""A group that takes the bot's texts but not its photos, and a group deleted under a game
(QA): the first gets everything but the table, is told why, and gets the table once photos
are allowed; the second ends its game as when the bot is removed, in one line of the log."""

from __future__ import annotations

import inspect
import logging
from pathlib import Path
from typing import Any

import pytest
from bot_kit import NAMES, Group, complaints, counting_seeds, lobby_button

from bot.handlers.runtime import Runtime
from bot.models import Game, Status
from bot.publishing.groupsync import TABLE_REFUSED as TABLE_REFUSED_MSGID
from bot.storage import StorageUnavailableError
from fakeapi import FakeTelegramServer, FakeUser, StoredMessage
from fakeapi.players import Table

NO_PHOTOS_HERE = "I may not send photos in this group"
TABLE_REFUSED = "The group does not let me send photos"
NO_PHOTOS_PRIVATE = "I may not send photos in the group"
CALL = "the table is ready"
TABLE_KEPT = "I may not send messages in the group now, so its table cannot come down"
TABLE_KEPT_NOTE = "I may not send messages in the group ⁨Super⁩ now, so its table cannot come"


@pytest.fixture
def supergroup(telegram: FakeTelegramServer, tmp_path: Path) -> Group:
    users = [telegram.add_user(n, language_code="en") for n in ("Ayu", "Budi", "Sergei", "Dewi")]
    chat = telegram.add_group("Super", members=users, admins=users[:1], supergroup=True)
    return Group(telegram, chat, users, tmp_path / "bot.sqlite3", counting_seeds())


def texts(telegram: FakeTelegramServer, messages: list[StoredMessage], words: str
          ) -> list[StoredMessage]:
    return [m for m in messages if words in (m.text or "")]


def told_in_private(telegram: FakeTelegramServer, user: FakeUser) -> list[StoredMessage]:
    return texts(telegram, telegram.bot_messages(user.private_chat), NO_PHOTOS_PRIVATE)



async def photos_allowed_again(telegram: FakeTelegramServer, group: Group, table: Table,
                               runtime: Runtime) -> None:
    """Photos allowed in the group again: the next move brings a table picture down."""
    telegram.restrict_bot(group.chat, may_send=True)
    await table.play_one()
    await telegram.wait_for(lambda: group.game().messages.table_message is not None)
    await runtime.publisher.idle()
    assert telegram.bot_messages(group.chat)[-1].photo is not None

async def test_a_group_that_refuses_photos_gets_the_rest_and_the_table_once_allowed(
        telegram: FakeTelegramServer, supergroup: Group, caplog: pytest.LogCaptureFixture
) -> None:
    users, chat, group = supergroup.users, supergroup.chat, supergroup
    async with group.bot() as runtime:
        await group.open_table("gaple")
        call = await telegram.wait_for(lambda: next(
            (m for m in telegram.bot_messages(chat) if CALL in (m.text or "")), None))
        # Members may send no media, nor may the bot, which is not an admin: texts go.
        telegram.restrict_bot(chat, may_send=True, may_send_media=False)
        await runtime.publisher.idle()
        lobby = group.lobby()
        start = users[0].press(lobby, lobby_button(lobby, "s") or "")
        await telegram.wait_for(lambda: start.answered)
        table = Table(telegram, users)
        await table.play_one()  # the game goes on in private
        await runtime.publisher.idle()
        assert call.deleted  # the call to start is gone, as after any start
        game = group.game()
        assert game.status is Status.PLAYING and game.messages.table_message is None
        said = texts(telegram, telegram.bot_messages(chat), NO_PHOTOS_HERE)
        assert len(said) == 1, [m.text for m in telegram.bot_messages(chat)]
        for user in users:  # told in private, of photos, not of messages
            assert len(told_in_private(telegram, user)) == 1
            assert not texts(telegram, telegram.bot_messages(user.private_chat),
                             "may not send messages")
        # /table and "⬇ Table" say why the table is not there, not that it is at the bottom.
        before = len(telegram.bot_messages(chat))
        users[1].send(chat, "/table")
        await telegram.wait_for(lambda: len(telegram.bot_messages(chat)) > before)
        assert TABLE_REFUSED in (telegram.bot_messages(chat)[-1].text or "")
        users[2].send_private("/table")
        await telegram.wait_for(lambda: texts(
            telegram, telegram.bot_messages(users[2].private_chat), TABLE_REFUSED))
        hand = [m for m in telegram.bot_messages(users[0].private_chat) if m.photo][-1]
        tap = users[0].press(hand, "⬇ Table")
        await telegram.wait_for(lambda: tap.answered)
        assert (tap.answer_text or "").startswith(TABLE_REFUSED), tap.answer_text
        await table.play_one()
        await runtime.publisher.idle()
        assert len(texts(telegram, telegram.bot_messages(chat), NO_PHOTOS_HERE)) == 1
        # Photos allowed again: the table comes, and the game carries on in the group.
        telegram.restrict_bot(chat, may_send=True)
        await telegram.wait_for(lambda: group.game().messages.table_message is not None)
        await runtime.publisher.idle()
        newest = telegram.bot_messages(chat)[-1]
        assert newest.photo is not None
        assert newest.message_id == group.game().messages.table_message
        await table.play_one()
        await runtime.publisher.idle()
        for user in users:  # told once
            assert len(told_in_private(telegram, user)) == 1
    assert not complaints(caplog, logging.WARNING)


async def test_photos_refused_mid_game_take_the_stale_table_away(
        telegram: FakeTelegramServer, supergroup: Group) -> None:
    """The table posted before photos were refused would stand still, a turn and ends long
    gone, its buttons live (QA): it goes, and comes back below once photos are allowed."""
    chat, group = supergroup.chat, supergroup
    async with group.bot() as runtime:
        table = await group.start("gaple")
        await table.play_one()
        await runtime.publisher.idle()
        stale = telegram.message(chat, group.game().messages.table_message)  # type: ignore[arg-type]
        telegram.restrict_bot(chat, may_send=True, may_send_media=False)
        await table.play_one()
        await runtime.publisher.idle()
        assert stale.deleted and group.game().messages.table_message is None
        assert len(texts(telegram, telegram.bot_messages(chat), NO_PHOTOS_HERE)) == 1
        await photos_allowed_again(telegram, group, table, runtime)


async def test_a_hand_result_goes_in_words_where_photos_are_refused(
        telegram: FakeTelegramServer, supergroup: Group, caplog: pytest.LogCaptureFixture
) -> None:
    """No update says so (the members' permissions changed): Telegram refuses the bot's
    photos, the table and the hand's picture; the hand's result is told all the same."""
    users, chat, group = supergroup.users, supergroup.chat, supergroup
    for method in ("sendPhoto", "editMessageMedia"):
        telegram.fail_next(method, description="Bad Request: not enough rights to send photos "
                           "to the chat", chat=chat, times=10_000)
    async with group.bot() as runtime:
        table = await group.start("kolbasa", players=2)
        for _ in range(200):
            if any("Hand 1 is over" in (m.text or "") for m in telegram.bot_messages(chat)):
                break
            await table.play_one()
            await runtime.publisher.idle()
        assert any("Hand 1 is over" in (m.text or "") for m in telegram.bot_messages(chat))
        assert len(texts(telegram, telegram.bot_messages(chat), NO_PHOTOS_HERE)) == 1
        assert all(told_in_private(telegram, user) for user in users[:2])
    assert not complaints(caplog, logging.WARNING)


@pytest.mark.parametrize("kind", ["group", "supergroup"])
async def test_a_deleted_group_ends_its_game_as_a_removed_bot_does(
        telegram: FakeTelegramServer, tmp_path: Path, kind: str,
        caplog: pytest.LogCaptureFixture) -> None:
    """Telegram tells nothing when a group is deleted; its calls answer 403 "the group chat
    was deleted" (a basic group) or 400 "chat not found": the game ends, its players are told
    in private, and the log says so in a line."""
    caplog.set_level(logging.INFO)
    users = [telegram.add_user(name, language_code="en") for name in NAMES]
    chat = telegram.add_group("Gone", members=users, admins=users[:1],
                              supergroup=kind == "supergroup")
    group = Group(telegram, chat, users, tmp_path / "bot.sqlite3", counting_seeds())
    async with group.bot() as runtime:
        table = await group.start("pair")
        await table.play_one()
        await runtime.publisher.idle()
        game = group.game()
        telegram.delete_group(chat)
        await table.play_one()  # its sync finds the group gone
        await telegram.wait_for(lambda: game.status is Status.STOPPED)
        await runtime.publisher.idle()
    assert game.messages.bot_removed and game.messages.group_gone
    for user in users[:4]:
        last = [m for m in telegram.bot_messages(user.private_chat)
                if m.photo and not m.deleted][-1]
        assert (last.caption or "").endswith(  # (review: it said the bot was removed)
            "The game was stopped: its group was deleted."), last.caption
    assert not complaints(caplog, logging.WARNING)
    said = [r.getMessage() for r in caplog.records
            if r.name.startswith("bot.publishing") and r.levelno >= logging.INFO]
    assert len([line for line in said if "is gone" in line]) == 1, said
    assert not [r for r in caplog.records if r.exc_info], said


async def test_a_call_whose_id_is_not_saved_is_not_posted_twice(group: Group) -> None:
    """Saving a lobby's call's id fails (a database blip) once the call is posted: the call is
    not posted again, and it is still deleted at the start."""
    async with group.bot() as rt:
        save = rt.service.save_messages
        blips: list[int] = []

        async def blip(game: Game, *args: Any, **kwargs: Any) -> None:
            if not blips and any(f.function == "_keep" for f in inspect.stack()):
                blips.append(game.game_id)
                raise StorageUnavailableError("database is locked")
            await save(game, *args, **kwargs)
        rt.service.save_messages = blip  # type: ignore[method-assign]
        await group.open_table("pair")
        await rt.publisher.idle()
        calls = [m for m in group.server.messages(group.chat, include_deleted=True)
                 if m.from_bot and CALL in (m.text or "")]
        assert blips and len(calls) == 1
        lobby = group.lobby()
        start = group.users[0].press(lobby, lobby_button(lobby, "s") or "")
        await group.server.wait_for(lambda: start.answered)
        await group.server.wait_for(lambda: calls[0].deleted, message="the call stayed")
        await rt.publisher.idle()
        saved = await rt.storage.load_game(group.game().game_id)
        assert saved is not None and saved.messages.calls == []


async def test_a_call_whose_mark_as_sent_fails_is_not_posted_twice(group: Group) -> None:
    """Marking a posted call as sent fails (the database away past its retries): the sync
    is tried again, and marks it without posting it again (review)."""
    async with group.bot() as rt:
        done = rt.storage.outbox_done
        blips: list[int] = []

        async def blip(item_id: int) -> None:
            if not blips:
                blips.append(item_id)
                raise StorageUnavailableError("PostgreSQL is unavailable")
            await done(item_id)
        rt.storage.outbox_done = blip  # type: ignore[method-assign]
        await group.open_table("pair")
        await rt.publisher.idle()
        calls = [m for m in group.server.messages(group.chat, include_deleted=True)
                 if m.from_bot and CALL in (m.text or "")]
        assert blips and len(calls) == 1
        assert await rt.storage.pending_outbox(group.game().game_id) == []


async def test_table_asked_in_private_while_the_bot_may_not_write_says_so(
        telegram: FakeTelegramServer, supergroup: Group, caplog: pytest.LogCaptureFixture
) -> None:
    """The bot may send nothing in the group: /table and "⬇ Table" in private say the table
    cannot be posted there, not that it is at the bottom; once it may, they say so again."""
    users, chat, group = supergroup.users, supergroup.chat, supergroup
    muted = "I may not send messages in the group now"
    async with group.bot() as runtime:
        table = await group.start("gaple")
        await table.play_one()
        await runtime.publisher.idle()
        telegram.restrict_bot(chat, may_send=False)
        users[1].send(chat, "/table")
        await telegram.wait_for(lambda: all(texts(
            telegram, telegram.bot_messages(u.private_chat), "may not send messages")
            for u in users))
        users[2].send_private("/table")
        await telegram.wait_for(lambda: texts(
            telegram, telegram.bot_messages(users[2].private_chat), muted))
        hand = [m for m in telegram.bot_messages(users[0].private_chat) if m.photo][-1]
        tap = users[0].press(hand, "⬇ Table")
        await telegram.wait_for(lambda: tap.answered)
        assert (tap.answer_text or "").startswith(muted), tap.answer_text
        telegram.restrict_bot(chat, may_send=True)
        game_id = group.game().game_id  # (its update read, the bot may post again)
        await telegram.wait_for(lambda: runtime.publisher.tables.refused(game_id) is None)
        await runtime.publisher.idle()
        users[3].send_private("/table")
        await telegram.wait_for(lambda: texts(
            telegram, telegram.bot_messages(users[3].private_chat), "bottom of the group"))
    assert not complaints(caplog)


async def test_a_table_the_group_refuses_to_post_again_stays_and_is_edited(
        telegram: FakeTelegramServer, supergroup: Group, caplog: pytest.LogCaptureFixture
) -> None:
    """An admin took the bot's right to send, and someone asks for the table (QA): its post
    below is refused, the table above stays and is edited at each move (it was deleted, and
    the group left with no table); the players hear why once, and so does the one who asked;
    once the bot may write again, the table comes down."""
    users, chat, group = supergroup.users, supergroup.chat, supergroup
    players, dewi = users[:2], users[3]  # Dewi plays not: a member who asks
    async with group.bot() as runtime:
        dewi.send_private("/start")  # (so that the bot may write to her)
        table = await group.start("kolbasa", players=2)
        await table.play_one()
        await runtime.publisher.idle()
        shown = group.game().messages.table_message
        assert shown is not None
        telegram.restrict_bot(chat, may_send=False)
        await table.play_one()  # (its edits go)
        await runtime.publisher.idle()
        before = len(telegram.requests)
        dewi.send(chat, "/table")
        await telegram.wait_for(lambda: any(
            r.method == "sendPhoto" for r in telegram.requests[before:]))
        await runtime.publisher.idle()
        calls = telegram.requests[before:]
        assert not [r for r in calls if r.method == "deleteMessage"], calls
        # (in the group: Telegram refuses a muted bot's photo in the words it refuses photos
        # alone with, so the reason is tried in words, refused too)
        assert [(r.method, r.chat_id) for r in calls if not r.ok] == [
            ("sendPhoto", chat.id), ("sendMessage", chat.id)], calls
        message = telegram.message(chat, shown)
        assert not message.deleted and group.game().messages.table_message == shown
        await telegram.wait_for(lambda: all(
            texts(telegram, telegram.bot_messages(u.private_chat), TABLE_KEPT_NOTE)
            for u in (*players, dewi)))
        assert not texts(telegram, telegram.bot_messages(users[2].private_chat), "may not")
        edits = len(message.versions)
        await table.play_one()  # the table is the group's still
        await runtime.publisher.idle()
        assert len(message.versions) > edits and message.current.photo is not None
        hand = [m for m in telegram.bot_messages(users[0].private_chat) if m.photo][-1]
        tap = users[0].press(hand, "⬇ Table")  # asked again: answered at once
        await telegram.wait_for(lambda: tap.answered)
        assert (tap.answer_text or "").startswith(TABLE_KEPT), tap.answer_text
        # The bot may write again: the table asked for comes down, the one above goes.
        telegram.restrict_bot(chat, may_send=True)
        await telegram.wait_for(lambda: group.game().messages.table_message != shown)
        await runtime.publisher.idle()
        assert message.deleted
        assert telegram.bot_messages(chat)[-1].message_id == group.game().messages.table_message
        for user in (*players, dewi):  # told once
            assert len(texts(telegram, telegram.bot_messages(user.private_chat),
                             TABLE_KEPT_NOTE)) == 1
    assert not complaints(caplog)


async def test_a_table_asked_for_where_only_photos_are_refused_says_so_in_the_group(
        telegram: FakeTelegramServer, supergroup: Group, caplog: pytest.LogCaptureFixture
) -> None:
    """Photos refused mid-game, texts not, and a player asks for the table (review): the
    group and the players hear that photos are refused, not that the bot may not write
    (which the group, reading the bot's words, would see to be false); the table comes down
    once photos are allowed."""
    users, chat, group = supergroup.users, supergroup.chat, supergroup
    async with group.bot() as runtime:
        table = await group.start("gaple")
        await table.play_one()
        await runtime.publisher.idle()
        telegram.restrict_bot(chat, may_send=True, may_send_media=False)
        users[1].send(chat, "/table")
        await telegram.wait_for(lambda: texts(
            telegram, telegram.bot_messages(chat), NO_PHOTOS_HERE))
        await telegram.wait_for(lambda: all(told_in_private(telegram, u) for u in users))
        await runtime.publisher.idle()
        game_id = group.game().game_id
        assert runtime.publisher.tables.refused(game_id) == TABLE_REFUSED_MSGID
        for user in users:
            assert not texts(telegram, telegram.bot_messages(user.private_chat),
                             "may not send messages")
        before = len(telegram.bot_messages(chat))
        users[2].send(chat, "/table")  # asked again: answered with the reason
        await telegram.wait_for(lambda: len(telegram.bot_messages(chat)) > before)
        assert TABLE_REFUSED in (telegram.bot_messages(chat)[-1].text or "")
        assert len(texts(telegram, telegram.bot_messages(chat), NO_PHOTOS_HERE)) == 1
        await photos_allowed_again(telegram, group, table, runtime)
        for user in users:  # told once
            assert len(told_in_private(telegram, user)) == 1
    assert not complaints(caplog, logging.WARNING)
