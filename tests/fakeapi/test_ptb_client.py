"""python-telegram-bot's own ``telegram.Bot`` and a whole PTB ``Application`` against the fake:
their real requests (form data, multipart uploads, attach:// media) validate cleanly, Telegram's
errors reach them as PTB's exceptions, and the fake never leans on the library it tests."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path
from typing import Any

import pytest
import telegram
from fake_kit import keyboard, png
from telegram import InputMediaPhoto

from fakeapi import FakeTelegramServer


def test_the_fake_never_imports_telegram() -> None:
    """fakeapi is a protocol fake: it must not lean on the library it is testing."""
    package = Path(__file__).parents[2] / "fakeapi"
    imported = set()
    for source in package.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    assert "aiohttp" in imported and "telegram" not in imported


async def test_ptb_photo_callback_and_media_edit_validate_cleanly(
    server: FakeTelegramServer, ptb: telegram.Bot, alice: Any, group: Any
) -> None:
    sent = await ptb.send_photo(
        group.id,
        png("red"),
        caption="<b>Table</b>",
        parse_mode="HTML",
        reply_markup=keyboard("Join"),
    )
    stored = server.message(group, sent.message_id)
    tap = alice.press(stored, "Join")
    updates = await ptb.get_updates(timeout=1)
    query = updates[-1].callback_query
    assert query is not None and query.data == "join" and query.from_user.id == alice.id
    await ptb.answer_callback_query(query.id, text="Seated")
    edited = await ptb.edit_message_media(
        InputMediaPhoto(png("blue"), caption="Bob to play"),
        chat_id=group.id,
        message_id=sent.message_id,
        reply_markup=keyboard("Leave", "Start"),
    )
    assert isinstance(edited, telegram.Message)
    downloaded = await (await ptb.get_file(edited.photo[-1].file_id)).download_as_bytearray()
    server.assert_no_violations()
    assert (tap.answered, tap.answer_text) == (True, "Seated")
    assert stored.edit_count == 1 and stored.caption == "Bob to play"
    assert stored.button_texts == ["Leave", "Start"]
    assert bytes(downloaded) == stored.photo_bytes == png("blue")
    assert stored.versions[0].photo is not None and stored.versions[0].photo.data == png("red")
    assert sent.caption_entities[0].type == "bold"


async def test_ptb_long_poll_is_held_until_an_update_arrives(
    server: FakeTelegramServer, ptb: telegram.Bot, alice: Any
) -> None:
    poll = asyncio.create_task(ptb.get_updates(timeout=5))
    await asyncio.sleep(0.3)
    assert not poll.done()
    alice.send_private("/hand")
    updates = await asyncio.wait_for(poll, 2)
    assert updates[0].message is not None and updates[0].message.text == "/hand"
    server.assert_no_violations()


async def test_ptb_everyday_methods_validate_cleanly(
    server: FakeTelegramServer, alice: Any, group: Any
) -> None:
    from telegram import BotCommand, BotCommandScopeAllGroupChats, LinkPreviewOptions
    from telegram.ext import Defaults, ExtBot

    bot = ExtBot(
        server.token,
        base_url=server.base_url,
        base_file_url=server.base_file_url,
        defaults=Defaults(parse_mode="HTML"),
    )
    async with bot:
        await bot.set_my_commands(
            [BotCommand("newgame", "Start a game")], scope=BotCommandScopeAllGroupChats()
        )
        commands = await bot.get_my_commands(scope=BotCommandScopeAllGroupChats())
        await bot.set_my_description("Dominoes for groups", language_code="en")
        await bot.send_chat_action(group.id, "upload_photo")
        hand = await bot.send_message(
            alice.id,
            "<i>Your hand</i>",
            link_preview_options=LinkPreviewOptions(is_disabled=True),
            reply_markup=keyboard("Play"),
        )
        reply = await bot.send_message(alice.id, "again", reply_to_message_id=hand.message_id)
        await bot.edit_message_reply_markup(alice.id, hand.message_id, reply_markup=None)
        await bot.pin_chat_message(alice.id, hand.message_id, disable_notification=True)
        await bot.unpin_chat_message(alice.id)
        await bot.delete_message(alice.id, reply.message_id)
        info = await bot.get_chat(group.id)
        await bot.get_webhook_info()
    server.assert_no_violations()
    assert ("editMessageReplyMarkup", "parse_mode") in server.ignored_parameters
    assert [c.command for c in commands] == ["newgame"] and info.title == "Domino night"
    stored = server.message(alice.private_chat, hand.message_id)
    assert stored.text == "Your hand" and stored.buttons == [] and not stored.pinned
    assert server.message(alice.private_chat, reply.message_id).deleted


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_ptb_sees_telegram_errors_as_its_exceptions(
    server: FakeTelegramServer, ptb: telegram.Bot, alice: Any, group: Any
) -> None:
    carol = server.add_user("Carol")
    with pytest.raises(telegram.error.Forbidden, match="can't initiate conversation"):
        await ptb.send_message(carol.id, "your hand")
    alice.block_bot()
    with pytest.raises(telegram.error.Forbidden, match="bot was blocked by the user"):
        await ptb.send_message(alice.id, "your hand")
    carol.delete_account()
    with pytest.raises(telegram.error.BadRequest, match="Chat not found"):
        await ptb.send_message(carol.id, "your hand")
    server.fail_next("sendMessage", retry_after=1)
    with pytest.raises(telegram.error.RetryAfter, match="Retry in 1 seconds"):
        await ptb.send_message(group.id, "hello")
    await ptb.send_message(group.id, "hello")
    supergroup = server.migrate_group(group)
    with pytest.raises(telegram.error.ChatMigrated) as migrated:
        await ptb.send_message(group.id, "hello")
    assert migrated.value.new_chat_id == supergroup.id
    server.assert_no_violations()


async def test_ptb_application_polls_and_answers_through_the_fake(
    server: FakeTelegramServer, alice: Any, group: Any
) -> None:
    from telegram.ext import (
        AIORateLimiter,
        ApplicationBuilder,
        CallbackQueryHandler,
        CommandHandler,
        ContextTypes,
    )

    async def newgame(update: telegram.Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        await context.bot.send_photo(
            update.effective_chat.id, png("white"), caption="Lobby", reply_markup=keyboard("Join")
        )

    async def join(update: telegram.Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None and query.message is not None
        await query.answer("Welcome")
        await query.edit_message_caption("Lobby: Alice", reply_markup=keyboard("Leave"))

    application = (
        ApplicationBuilder()
        .token(server.token)
        .base_url(server.base_url)
        .base_file_url(server.base_file_url)
        .rate_limiter(AIORateLimiter())
        .build()
    )
    application.add_handler(CommandHandler("newgame", newgame))
    application.add_handler(CallbackQueryHandler(join))
    async with application:
        assert application.updater is not None
        await application.updater.start_polling(poll_interval=0, timeout=2)
        await application.start()
        alice.send(group, "/newgame@domino_test_bot")
        lobby = await server.wait_for(lambda: server.last_bot_message(group), timeout=5)
        tap = alice.press(lobby, "Join")
        await server.wait_for(lambda: lobby.caption == "Lobby: Alice", timeout=5)
        await server.wait_idle(quiet=0.2, timeout=5)
        await application.updater.stop()
        await application.stop()
    assert tap.answer_text == "Welcome" and lobby.button_texts == ["Leave"]
    assert {r.method for r in server.requests} >= {"getMe", "deleteWebhook", "getUpdates"}
    server.assert_no_violations()
