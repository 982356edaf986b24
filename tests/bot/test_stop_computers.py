"""SIGTERM while computer players are moving: the bot stops quietly (no ERROR, no traceback,
no warning about the thinking pool), as OPERATIONS.md promises. A stop there logged a timer
job cancelled mid-way and the pool "failed: replacing it" (operator QA)."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

from bot_kit import Group, lobby_button
from test_startup import RUNNING, bot_process, server_settings

from bot.app import begin_stop, build_application, running
from fakeapi import FakeTelegramServer
from fakeapi.players import Table


async def test_a_stop_while_computers_play_is_quiet(telegram: FakeTelegramServer,
                                                    tmp_path: Path) -> None:
    ayu = telegram.add_user("Ayu", language_code="en", started=True)
    chat = telegram.add_group("Domino evening", members=[ayu], admins=[ayu])
    settings = server_settings(telegram, COMPUTER_PAUSE_SECONDS="0")
    async with bot_process(tmp_path, **settings) as bot:
        await bot.until(lambda lines: any(line.endswith(RUNNING) for line in lines))
        ayu.send_private("/start")
        ayu.send(chat, "/newgame pair")
        lobby = await telegram.wait_for(lambda: next(
            (m for m in telegram.bot_messages(chat) if lobby_button(m, "j")), None))
        game_id = (lobby_button(lobby, "j") or "").split(":")[1]
        for tap in [f"a:{game_id}:2"] * 3 + [lobby_button(lobby, "s") or ""]:
            record = ayu.press_raw(lobby, tap)
            await telegram.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
        table = Table(telegram, [ayu])
        await table.play_one()
        await table.play_one()  # the three computers played between: they play on now
        bot.process.send_signal(signal.SIGTERM)
        assert await bot.ended() == 0
    noisy = [line for line in bot.lines if "ERROR" in line or "CRITICAL" in line
             or "Traceback" in line or "WARNING" in line]
    assert noisy == [], bot.text()


async def test_no_timer_starts_once_stopping_has_begun(group: Group) -> None:
    """What makes the stop above quiet, without its timing: a job due after the stop began
    (a computer's move, a turn's time-out) does not run; the next start arms it again."""
    ran: list[str] = []

    async def job(_context: object) -> None:
        ran.append("ran")
    async with group.bot():
        application = group.extra["application"]
        assert application.job_queue is not None
        application.job_queue.run_once(job, 0.3, name="probe")
        begin_stop(application)
        await asyncio.sleep(0.8)
        assert ran == []


async def test_a_stop_begun_while_starting_starts_no_timer_either(group: Group) -> None:
    """SIGTERM while the games are loaded (before the job queue runs): once it runs, it is
    paused at once, as a stop begun later would have it."""
    ran: list[str] = []

    async def job(_context: object) -> None:
        ran.append("ran")
    application = build_application(group.settings(), seed_source=group.seeds)
    begin_stop(application)
    async with running(application):
        assert application.job_queue is not None
        application.job_queue.run_once(job, 0.2, name="probe")
        await asyncio.sleep(0.6)
    assert ran == []
