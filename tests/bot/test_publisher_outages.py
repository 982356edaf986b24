"""The publisher's syncs through outages, as the log tells them: PostgreSQL away is the
storage's one line (each sync's waits DEBUG, no traceback) and the sync waits for it, past its
retries for failures of its own; Telegram out of reach is one WARNING for all the games'
syncs, and its end one line."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import pytest
from bot_kit import Group
from telegram.error import NetworkError

from bot.publishing.publisher import MAX_RETRIES, Publisher
from bot.storage import StorageUnavailableError

AWAY = "PostgreSQL at 127.0.0.1:5432/domino is unavailable: connection refused"


def failing(publisher: Publisher, channel: str, error: Exception, times: int
            ) -> list[int]:
    """``channel``'s syncs (of every game) raise ``error`` ``times`` times each, then sync;
    the game ids of the calls."""
    sync = getattr(publisher, channel).sync
    calls: list[int] = []

    async def failing_sync(game_id: int) -> None:
        calls.append(game_id)
        if calls.count(game_id) <= times:
            raise error
        await sync(game_id)

    getattr(publisher, channel).sync = failing_sync
    return calls


def quick(monkeypatch: pytest.MonkeyPatch, publisher: Publisher) -> None:
    pause: Callable[[float], Awaitable[None]] = publisher._pause

    async def short(seconds: float) -> None:
        await pause(0.01)

    monkeypatch.setattr(publisher, "_pause", short)


async def test_a_sync_waits_for_the_database_in_one_line(
        group: Group, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="bot.publishing.publisher")
    async with group.bot() as runtime:
        publisher = runtime.publisher
        quick(monkeypatch, publisher)
        calls = failing(publisher, "group", StorageUnavailableError(AWAY), MAX_RETRIES + 2)
        await group.open_table("pair", 2)
        await publisher.idle()
        game = group.game()
        assert game.messages.lobby is not None  # synced once the database answered
        assert group.lobby().message_id == game.messages.lobby
        assert calls.count(game.game_id) >= MAX_RETRIES + 3  # (past its own retries)
    told = [(r.levelname, r.getMessage()) for r in caplog.records
            if r.name == "bot.publishing.publisher"]
    # (the storage says the outage once for all games: each sync's waits are DEBUG)
    assert {level for level, _ in told} == {"DEBUG"}
    assert (f"group sync of game {game.game_id} waits for the database: {AWAY}"
            in [message for _, message in told])
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def test_a_database_away_for_hours_is_waited_for_at_most_30_s_a_try(
        group: Group, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over a thousand tries (some 17 hours away) the pause stays 30 s (review: its power
    of two overflowed, and the sync was lost)."""
    async with group.bot() as runtime:
        publisher = runtime.publisher
        asked: list[float] = []

        async def no_wait(seconds: float) -> None:
            asked.append(seconds)

        monkeypatch.setattr(publisher, "_pause", no_wait)
        failing(publisher, "group", StorageUnavailableError(AWAY), 1100)
        await group.open_table("pair", 2)
        await publisher.idle()
        assert group.game().messages.lobby is not None  # synced once the database answered
    assert len(asked) >= 1100 and asked[:5] == [2.0, 4.0, 8.0, 16.0, 30.0]
    assert set(asked[5:]) == {30.0}


async def test_telegram_out_of_reach_is_one_line_for_every_sync(
        group: Group, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with group.bot() as runtime:
        publisher = runtime.publisher
        quick(monkeypatch, publisher)
        failing(publisher, "group", NetworkError("Bad Gateway"), 2)
        failing(publisher, "hands", NetworkError("Bad Gateway"), 2)
        await group.open_table("pair", 2)
        await publisher.idle()
        await asyncio.sleep(0)
        assert group.game().messages.lobby is not None
    failed = [r.getMessage() for r in caplog.records if r.name == "bot.publishing.publisher"]
    assert len(failed) == 1 and failed[0].endswith("failed (1): Bad Gateway"), failed
    assert [r.getMessage() for r in caplog.records if r.name == "bot.reach"] == [
        "reached Telegram again after 0 s"]
