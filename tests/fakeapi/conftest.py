"""The fake server and a python-telegram-bot client of it, for the fake's own tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import telegram

from fakeapi import FakeTelegramServer


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegramServer]:
    """A fake server that no request may have broken the Bot API's rules on."""
    async with FakeTelegramServer() as fake:
        yield fake
        fake.assert_no_violations()


@pytest.fixture
async def ptb(server: FakeTelegramServer) -> AsyncIterator[telegram.Bot]:
    bot = telegram.Bot(server.token, base_url=server.base_url, base_file_url=server.base_file_url)
    async with bot:
        yield bot
