"""A second bot's receiver on a fleet's database is refused as its worker is (exit 2, one
line), before it files a single update of its bot's into the first bot's queue."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from test_bot_owner import OTHER_TOKEN, SECRET_PART, refusal

from bot.storage import Storage
from bot.storage.owner import agree_bot
from bot.storage.postgres import PostgresEngine
from fakeapi import FakeTelegramServer
from testservers import free_port
from testservers.fleet import Fleet, Member


@pytest.fixture
async def other_api() -> AsyncIterator[FakeTelegramServer]:
    async with FakeTelegramServer(token=OTHER_TOKEN, bot_username="other_bot") as server:
        yield server


async def test_a_second_bots_receiver_is_refused(fleet: Fleet,
                                                 other_api: FakeTelegramServer) -> None:
    assert fleet.database_url is not None
    storage = Storage(fleet.database_url)  # A's, as its first worker leaves it
    await storage.open()
    await agree_bot(storage, "7000000001", "domino_test_bot")
    await storage.close()
    port = free_port()
    env = fleet.env("receiver-b", TELEGRAM_BOT_TOKEN=other_api.token,
                    TELEGRAM_API_BASE_URL=other_api.api_root, HTTP_HOST="127.0.0.1",
                    HTTP_PORT=str(port))
    member = Member("receiver-b", ("-m", "bot.fleet", "receiver"), env,
                    fleet.folder / "receiver-b.log", port)
    fleet.members[member.name] = member
    await member.start()
    assert member.process is not None
    async with asyncio.timeout(60):  # (without the check it serves on, filing B's updates)
        assert await member.process.wait() == 2, member.log.read_text()
    text = member.log.read_text()
    critical = [line for line in text.splitlines() if "CRITICAL" in line]
    assert len(critical) == 1, text
    assert critical[0].endswith(refusal(PostgresEngine(fleet.database_url).name)), text
    assert "Traceback" not in text and SECRET_PART not in text
