"""The fleet tests' database: tests/conftest.py's fresh PostgreSQL database, migrated by the
bot's own storage (migration 8 makes the fleet's tables)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.storage import Storage


@pytest.fixture
async def database(postgres_url: str) -> AsyncIterator[str]:
    storage = Storage(postgres_url)
    await storage.open()
    await storage.close()
    yield postgres_url
