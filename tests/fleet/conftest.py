"""The fleet's fixtures: the fake Bot API server keeping Telegram's limits (as 429s), and an
empty fleet on a fresh PostgreSQL database that stops every process it started."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from fakeapi import FakeTelegramServer, RateLimits, WebhookTiming
from testservers.fleet import Fleet

#: Telegram's limits as the bot keeps them: 30 a second overall, 20 a minute per group and
#: 3 in 3 seconds per private chat.
TELEGRAM_LIMITS = RateLimits(overall_per_second=30, group_per_minute=20, private_per_period=3)
TIMING = WebhookTiming(timeout=5.0, first_retry=0.05, max_retry=0.5)


@pytest.fixture
async def bot_api() -> AsyncIterator[FakeTelegramServer]:
    async with FakeTelegramServer(rate_limits=TELEGRAM_LIMITS, webhook_timing=TIMING) as server:
        yield server


@pytest.fixture
async def fleet(bot_api: FakeTelegramServer, postgres_url: str, tmp_path: Path
                ) -> AsyncIterator[Fleet]:
    """No process yet: the test starts its receivers and workers (logs in ``tmp_path``)."""
    running = Fleet(bot_api, postgres_url, tmp_path)
    try:
        yield running
    finally:
        await running.close()
