"""Telegram's refusals of a well-formed call: an edit that changes nothing, a flood limit, a tap
answered twice."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest
import telegram
from fake_kit import call, keyboard, png
from telegram import InputMediaPhoto

from fakeapi import FakeTelegramServer, RateLimits


async def test_edits_that_change_nothing_are_refused(
    server: FakeTelegramServer, ptb: telegram.Bot, group: Any
) -> None:
    text = await ptb.send_message(group.id, "lobby", reply_markup=keyboard("Join"))
    photo = await ptb.send_photo(
        group.id, png("red"), caption="table", reply_markup=keyboard("Hand")
    )
    same = [
        ptb.edit_message_text("lobby", group.id, text.message_id, reply_markup=keyboard("Join")),
        ptb.edit_message_reply_markup(group.id, text.message_id, reply_markup=keyboard("Join")),
        ptb.edit_message_caption(
            group.id, photo.message_id, caption="table", reply_markup=keyboard("Hand")
        ),
        ptb.edit_message_media(
            InputMediaPhoto(png("red"), caption="table"),
            group.id,
            photo.message_id,
            reply_markup=keyboard("Hand"),
        ),
    ]
    for edit in same:
        with pytest.raises(telegram.error.BadRequest, match="Message is not modified"):
            await edit
    await ptb.edit_message_text("lobby", group.id, text.message_id)  # drops the keyboard
    assert server.message(group, text.message_id).buttons == []
    assert len([e for e in server.errors if "not modified" in (e.description or "")]) == 4
    server.assert_no_violations()


async def test_rate_limits_answer_429_and_are_counted(http: aiohttp.ClientSession) -> None:
    async with FakeTelegramServer(rate_limits=RateLimits(group_per_minute=3)) as server:
        group = server.add_group("Fast", [server.add_user("Dan")])
        statuses = [
            (await call(http, server, "sendMessage", chat_id=group.id, text="x"))[0]
            for _ in range(4)
        ]
        assert statuses == [200, 200, 200, 429]
        _, body = await call(http, server, "sendMessage", chat_id=group.id, text="x")
        assert body["parameters"]["retry_after"] >= 1
        assert server.max_requests_in_window(group, 60) == 3


async def test_answering_a_query_twice_is_refused(
    server: FakeTelegramServer, ptb: telegram.Bot, alice: Any, group: Any
) -> None:
    sent = await ptb.send_message(group.id, "lobby", reply_markup=keyboard("Join"))
    tap = alice.press_raw(server.message(group, sent.message_id), "forged:1")
    await ptb.answer_callback_query(tap.id)
    with pytest.raises(telegram.error.BadRequest, match=r"(?i)query is too old"):
        await ptb.answer_callback_query(tap.id)
    assert tap.data == "forged:1"
