"""The gauges' job through a database outage: best effort, quiet (the storage says the
outage once), never outliving its interval (operator QA: the scheduler warned of a run
skipped every 15 s)."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest
from bot_kit import Group

from bot.health import _gauges
from bot.storage import StorageUnavailableError


async def test_the_gauges_job_neither_raises_nor_warns_while_the_database_is_away(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    async with group.bot() as rt:
        context = SimpleNamespace(application=group.extra["application"])

        async def away() -> tuple[int, float | None]:
            raise StorageUnavailableError("PostgreSQL at db:5432/domino is unavailable")

        rt.storage.outbox_backlog = away  # type: ignore[method-assign]
        caplog.clear()
        with caplog.at_level(logging.DEBUG):
            await _gauges(context)  # type: ignore[arg-type]  # (raised: the job's error)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
