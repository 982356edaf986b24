"""A long poll Telegram does not answer at all (frozen, not a 5xx) is a failed poll as a 502
is: PTB tries it again at once without a word (nor its error callback), so the transport
tells it (operator QA: an 80 s freeze had no 'polling Telegram failed' line, and 'reached
Telegram again after 15 s', counted from the health check's failure)."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest
from aiohttp import web
from telegram.error import TimedOut
from test_transport import _serve

from bot.conflicts import PollConflict, PollWatch
from bot.publishing.transport import poll_request
from bot.reach import Reach


async def test_a_poll_telegram_does_not_answer_is_a_failed_poll_from_its_send(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    frozen = True

    async def handler(request: web.Request) -> web.Response:
        if frozen:
            await asyncio.sleep(1)
        return web.json_response({"ok": True, "result": []})

    reach = Reach()
    request = poll_request(PollWatch(reach, PollConflict()))
    async for url in _serve(handler):
        await request.initialize()
        try:
            before = time.monotonic()
            with pytest.raises(TimedOut):
                await request.do_request(f"{url}/getUpdates", "POST", read_timeout=0.1,
                                         write_timeout=0.1)
            since = reach._since
            assert since is not None and before <= since < before + 0.1  # from its send
            frozen = False
            assert (await request.do_request(f"{url}/getUpdates", "POST"))[0] == 200
        finally:
            await request.shutdown()
    said = [r.getMessage() for r in caplog.records if r.name.startswith("bot.")]
    assert said == ["polling Telegram failed: Timed out (trying again)",
                    "reached Telegram again after 0 s"], said
