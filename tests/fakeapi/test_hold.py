"""The fake server's hold: a call's answer kept back, to play out races a real network makes
(a user taps a message whose send the bot has not heard back from yet)."""

from __future__ import annotations

import asyncio
from typing import Any

import telegram
from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from fakeapi import FakeTelegramServer


def go() -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton("Go", callback_data="go")]])


async def test_a_send_held_after_acting_can_be_tapped_before_its_answer(
    server: FakeTelegramServer, ptb: telegram.Bot, alice: Any
) -> None:
    held = server.hold("sendMessage", after_acting=True, chat=alice.private_chat)
    sending = asyncio.create_task(ptb.send_message(alice.id, "Your turn", reply_markup=go()))
    await server.wait_for(lambda: held.holding)
    message = server.last_bot_message(alice.private_chat)
    assert message is not None and message.text == "Your turn"
    assert held.result["message_id"] == message.message_id
    tap = alice.press(message, "Go")  # the user sees it and taps, the bot does not know it yet
    updates = await ptb.get_updates(timeout=1)
    assert updates[-1].callback_query is not None and updates[-1].callback_query.id == tap.id
    assert not sending.done()
    held.release()
    sent = await sending
    assert sent.message_id == message.message_id
    assert not held.holding


async def test_an_edit_held_before_acting_changes_nothing_until_released(
    server: FakeTelegramServer, ptb: telegram.Bot, alice: Any
) -> None:
    sent = await ptb.send_message(alice.id, "Pick a tile", reply_markup=go())
    held = server.hold("editMessageText", after_acting=False)
    editing = asyncio.create_task(ptb.edit_message_text("Which end?", chat_id=alice.id,
                                                        message_id=sent.message_id))
    await server.wait_for(lambda: held.holding)
    message = server.message(alice.private_chat, sent.message_id)
    await ptb.send_chat_action(alice.id, "typing")  # other calls go on meanwhile
    assert message.text == "Pick a tile" and not editing.done()
    held.release()
    await editing
    assert message.text == "Which end?"


async def test_a_forgotten_hold_ends_after_its_timeout(
    server: FakeTelegramServer, ptb: telegram.Bot, alice: Any
) -> None:
    held = server.hold("sendMessage", after_acting=True, timeout=0.2)
    sent = await asyncio.wait_for(ptb.send_message(alice.id, "Hello"), 5)
    assert sent.text == "Hello" and not held.holding
