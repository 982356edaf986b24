"""The fake's conveniences for tests: waiting for what the bot does (with the chat's transcript
when it does not come, at once on a violation, and ending when cancelled), and every picture a
chat was shown."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import aiohttp
import pytest
import telegram
from fake_kit import call, png
from telegram import InputMediaPhoto

from fakeapi import FakeTelegramServer, ProtocolViolationError, WaitTimeoutError


async def test_wait_for_returns_the_value_or_explains_the_timeout(
    server: FakeTelegramServer, ptb: telegram.Bot, group: Any
) -> None:
    async def later() -> None:
        await asyncio.sleep(0.2)
        await ptb.send_message(group.id, "table ready")

    task = asyncio.create_task(later())
    message = await server.wait_for(lambda: server.last_bot_message(group), timeout=3)
    assert message.text == "table ready"
    await task
    with pytest.raises(WaitTimeoutError, match="bot #1: table ready"):
        await server.wait_for(lambda: False, timeout=0.2, message="never")
    await server.wait_idle(quiet=0.1, timeout=2)


async def test_wait_for_fails_at_once_on_a_violation(http: aiohttp.ClientSession) -> None:
    async with FakeTelegramServer() as server:  # (its violation is the point: not checked after)

        async def bad_request() -> None:
            await asyncio.sleep(0.1)
            await call(http, server, "sendMessage", chat_id=1)

        task = asyncio.create_task(bad_request())
        started = time.monotonic()
        with pytest.raises(ProtocolViolationError):
            await server.wait_for(lambda: False, timeout=5)
        assert time.monotonic() - started < 2
        await task


async def test_wait_for_ends_when_cancelled_as_the_server_changes(
    server: FakeTelegramServer,
) -> None:
    """A waiter cancelled while the change that woke it is still on its way to it stops: it
    must not return to its loop and wait on (Python 3.11's ``asyncio.wait_for`` returns the
    inner wait's result then and drops the cancellation; ``benchmarks.fleet``'s tables played
    on after being cancelled, and the run never ended)."""
    for turns in range(5):  # the cancellation lands 0, 1, ... loop turns after the change
        waiting = asyncio.create_task(server.wait_for(lambda: False, timeout=2))
        await asyncio.sleep(0.01)  # waiting for a change
        server._notify()  # a request arrived (the test pokes the fake's own signal)
        for _ in range(turns):
            await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting


async def test_photos_lists_every_picture_shown(
    server: FakeTelegramServer, ptb: telegram.Bot, group: Any
) -> None:
    sent = await ptb.send_photo(group.id, png("red"))
    await ptb.edit_message_media(InputMediaPhoto(png("green")), group.id, sent.message_id)
    await ptb.send_photo(group.id, png("blue", (60, 20)), caption="hand over")
    assert [p.data for p in server.photos(group)] == [
        png("red"),
        png("green"),
        png("blue", (60, 20)),
    ]
    assert server.transcript(group).splitlines()[-1] == "bot #2: [photo 60x20] hand over"
