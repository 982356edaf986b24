"""Simulated users: what they send reaches the bot as Telegram delivers it (privacy mode), deep
links open their private chat, and a tap on a button that is not there fails the test."""

from __future__ import annotations

from typing import Any

import pytest
import telegram
from fake_kit import keyboard
from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from fakeapi import FakeTelegramServer, ScenarioError


async def test_privacy_mode_delivers_only_commands_for_this_bot(
    server: FakeTelegramServer, alice: Any, group: Any
) -> None:
    alice.send(group, "good luck all")
    alice.send(group, "/newgame@other_bot")
    alice.send(group, "/newgame@domino_test_bot pair")
    alice.send(group, "/rules gaple")
    delivered = [u["message"]["text"] for u in server.updates]
    assert delivered == ["/newgame@domino_test_bot pair", "/rules gaple"]
    entity = server.updates[0]["message"]["entities"][0]
    assert entity == {"type": "bot_command", "offset": 0, "length": 24}


async def test_deep_link_starts_the_private_chat(
    server: FakeTelegramServer, ptb: telegram.Bot, group: Any
) -> None:
    carol = server.add_user("Carol")
    sent = await ptb.send_message(group.id, "lobby", reply_markup=keyboard("Join"))
    group.members[carol.id] = "member"
    tap = carol.press(server.message(group, sent.message_id), "Join")
    await ptb.answer_callback_query(tap.id, url="https://t.me/domino_test_bot?start=join-42")
    assert tap.start_payload == "join-42" and tap.url is not None
    carol.open_url(tap.url)
    start = server.updates[-1]["message"]
    assert start["text"] == "/start join-42" and start["chat"]["type"] == "private"
    await ptb.send_message(carol.id, "your hand")
    assert server.transcript(carol.private_chat).splitlines() == [
        "Carol: /start join-42",
        "bot #2: your hand",
    ]


async def test_pressing_a_missing_button_fails_loudly(
    server: FakeTelegramServer, ptb: telegram.Bot, alice: Any, group: Any
) -> None:
    link = InlineKeyboardMarkup(
        [[InlineKeyboardButton("Open", url="https://t.me/domino_test_bot")]]
    )
    sent = await ptb.send_message(group.id, "lobby", reply_markup=link)
    message = server.message(group, sent.message_id)
    with pytest.raises(ScenarioError, match="no button 'Join'"):
        alice.press(message, "Join")
    with pytest.raises(ScenarioError, match="no callback_data"):
        alice.press(message, "Open")
    outsider = server.add_user("Eve")
    with pytest.raises(ScenarioError, match="not a member"):
        outsider.press_raw(message, "x")
