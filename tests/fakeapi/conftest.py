"""The fake server and a python-telegram-bot client of it, for the fake's own tests, a plain
HTTP session, and a group of two with Alice, its owner, who has started the bot."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
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


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


@pytest.fixture
def alice(server: FakeTelegramServer) -> Any:
    return server.add_user("Alice", username="alice", started=True)


@pytest.fixture
def group(server: FakeTelegramServer, alice: Any) -> Any:
    bob = server.add_user("Bob", username="bob")
    return server.add_group("Domino night", [alice, bob], owner=alice)
