"""End-to-end fixtures: the fake Bot API server and a group where the real bot runs."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from bot_kit import NAMES, Group, counting_seeds

from bot.storage import Storage
from fakeapi import FakeTelegramServer


@pytest.fixture
async def telegram() -> AsyncIterator[FakeTelegramServer]:
    async with FakeTelegramServer() as server:
        yield server
        server.assert_no_violations()


@pytest.fixture
def group(telegram: FakeTelegramServer, tmp_path: Path) -> Group:
    users = [telegram.add_user(name, language_code="en") for name in NAMES]
    chat = telegram.add_group("Domino evening", members=users, admins=users[:1])
    return Group(telegram, chat, users, tmp_path / "bot.sqlite3", counting_seeds())


@pytest.fixture
async def postgres_storage(postgres_url: str) -> AsyncIterator[Storage]:
    """The bot's storage, open on a fresh PostgreSQL database."""
    store = Storage(postgres_url)
    await store.open()
    yield store
    await store.close()

