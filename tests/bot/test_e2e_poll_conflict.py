"""Another process polling with the bot's token (operator QA: a second instance on another
database): Telegram ends each one's getUpdates with 409 Conflict. That is said as what it is,
once when it starts and once when it ends, not as a network outage at every poll."""

from __future__ import annotations

import asyncio
import logging

import httpx
import pytest
from bot_kit import Group
from telegram.error import Conflict

from bot.conflicts import CAUSE, PollConflict


async def other_process(url: str, seconds: float) -> int:
    """Poll as a second copy of the bot does, for ``seconds``; the polls it made."""
    polls = 0
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    async with httpx.AsyncClient(timeout=5) as client:
        while loop.time() < end:
            await client.post(f"{url}/getUpdates", json={"timeout": 1})
            polls += 1
            await asyncio.sleep(0.2)
    return polls


async def test_another_process_polling_is_one_error_then_one_line_when_it_stops(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    server = group.server
    with caplog.at_level(logging.INFO):
        async with group.bot() as runtime:
            runtime.conflict.quiet = 1.5
            url = f"{server.base_url}{server.token}"
            assert await other_process(url, 6.0) > 5
            await server.wait_for(lambda: not runtime.conflict.on, timeout=15)
    lines = [(r.levelno, r.getMessage()) for r in caplog.records]
    started = [line for line in lines if CAUSE in line[1]]
    assert len(started) == 1 and started[0][0] == logging.ERROR
    assert "Conflict: terminated by other getUpdates request" in started[0][1]
    ended = [line for line in lines if "polling alone again" in line[1]]
    assert len(ended) == 1 and ended[0][0] == logging.WARNING
    assert not any(text.startswith(("polling Telegram failed", "reached Telegram again"))
                   for _, text in lines)


def test_a_rolling_restart_is_one_error_and_its_end(caplog: pytest.LogCaptureFixture) -> None:
    """The old process polls a second more while the new one starts: the new one says so,
    and that it polls alone once nothing conflicted for a minute (no exit)."""
    now = [100.0]
    conflict = PollConflict(clock=lambda: now[0])
    with caplog.at_level(logging.INFO, logger="bot.conflicts"):
        conflict.conflicted(Conflict("Conflict: terminated by other getUpdates request"))
        now[0] = 101.0
        conflict.conflicted(Conflict("Conflict: terminated by other getUpdates request"))
        conflict.answered(sent=130.0)  # less than a minute without one: it may go on
        assert conflict.on
        conflict.answered(sent=161.5)
        conflict.answered(sent=171.5)
    assert not conflict.on
    assert [r.getMessage() for r in caplog.records][1:] == [
        "polling Telegram: no other process has taken this bot's updates for 60 s: polling "
        "alone again (the conflict lasted 1 s)"]
