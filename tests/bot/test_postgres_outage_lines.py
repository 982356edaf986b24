"""A PostgreSQL outage as the log tells it: one WARNING when the first operation finds the
server away, however many operations wait for it and however often each tries again (a fleet
worker with four games wrote 122 lines for 22 s), then one INFO line when it answers again."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterator

import pytest

from bot.storage import Storage
from bot.storage.postgres import PostgresEngine
from testservers import PostgresServer


@pytest.fixture
def own_server() -> Iterator[PostgresServer]:
    """A server of this test's own, to stop and start (the session's serves the others)."""
    server = PostgresServer()
    server.start()
    yield server
    server.stop()


def lines(caplog: pytest.LogCaptureFixture) -> list[tuple[str, str]]:
    return [(r.levelname, r.getMessage()) for r in caplog.records
            if r.name == "bot.storage.postgres" and r.levelno >= logging.INFO]


async def outage(server: PostgresServer, storage: Storage, seconds: float) -> None:
    """The server away ``seconds`` while four operations wait for it."""
    server.halt()

    async def come_back() -> None:
        await asyncio.sleep(seconds)
        await asyncio.to_thread(server.start)

    returning = asyncio.create_task(come_back())
    await asyncio.gather(*(storage.save_chat_title(-chat, "t") for chat in range(1, 5)))
    await returning


async def test_an_outage_is_one_warning_and_its_end_one_line(
    own_server: PostgresServer, caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="bot.storage.postgres")
    url = await own_server.create_database("outage")
    storage = Storage(url)
    await storage.open()
    engine = storage.engine
    assert isinstance(engine, PostgresEngine)
    try:
        for _ in range(2):  # (the second outage is told again)
            caplog.clear()
            await outage(own_server, storage, 2.5)
            told = lines(caplog)
            assert len(told) == 2, told
            (level, away), (back_level, back) = told
            assert level == "WARNING" and away.startswith(
                f"PostgreSQL at {engine.name} is unavailable: ")
            assert away.endswith(": waiting for it (its operations tried again for up to 30 s "
                                 "each)")
            assert back_level == "INFO"
            assert re.fullmatch(rf"PostgreSQL at {re.escape(engine.name)} answers again after "
                                r"[2-4] s", back), back
            retries = [r for r in caplog.records if r.levelno == logging.DEBUG
                       and "trying again in" in r.getMessage()]
            assert len(retries) >= 8  # each operation's retries, seen when debugging
    finally:
        await storage.close()
