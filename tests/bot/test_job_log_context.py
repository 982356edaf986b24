"""Jobs start from a clean log context: the scheduler's timer is armed again from whatever
task added the last job (a move's update arming its turn timer, its lines bound to that
chat and game), and its jobs ran in that task's context (operator QA: 'WARNING bot.health
[chat=-4000000001 game=1]: Telegram did not answer the check: Timed out')."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest
from bot_kit import Group
from telegram.ext import Application

from bot.health import schedule_watch
from bot.logs import Context, bind


async def test_the_telegram_checks_warning_names_no_chat_nor_game(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    caplog.handler.addFilter(Context())
    async with group.bot():
        application: Application = group.extra["application"]  # type: ignore[type-arg, assignment]
        assert application.job_queue is not None
        schedule_watch(application)  # (as a bot serving its health does)
        [check] = application.job_queue.get_jobs_by_name("telegram-check")
        group.server.fail_next("getMe", error_code=502, description="Bad Gateway")

        async def a_moves_update() -> None:  # binds its game, then arms a job
            bind(chat=-4000000001, game=1)
            check.job.modify(next_run_time=dt.datetime.now(dt.UTC))

        await asyncio.create_task(a_moves_update())
        await group.server.wait_for(lambda: any(
            r.name == "bot.health" for r in caplog.records))
    [said] = [r for r in caplog.records if r.name == "bot.health"]
    assert "did not answer the check" in said.getMessage()
    assert (getattr(said, "chat", "?"), getattr(said, "game", "?")) == (None, None)
