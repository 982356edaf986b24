"""What an operator relies on, with the real bot against the fake Bot API server: a whole
match in webhook mode (updates POSTed by the fake's webhook delivery, health read during the
game), and a backup taken mid-game restored into a bot that finishes that game."""

from __future__ import annotations

import logging
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from bot_kit import Group
from telegram.ext import Application

from bot.app import allowed_updates, build_application
from bot.handlers.runtime import KEY, Runtime
from bot.models import Status
from bot.serving.metrics import Metrics
from bot.serving.webhook import serving_webhook
from bot.serving.webserver import HttpSettings
from bot.storage.backup import back_up
from fakeapi import WebhookTiming
from fakeapi.players import Table

SECRET = "operator_secret-1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@asynccontextmanager
async def webhook_bot(
    group: Group, http: HttpSettings
) -> AsyncIterator[Application[Any, Any, Any, Any, Any, Any]]:
    """The bot's own Application in webhook mode: app.running's order, with the webhook where
    polling would be (what the lead wires into bot/app.py)."""
    application = build_application(group.settings(), seed_source=group.seeds)
    runtime: Runtime = application.bot_data[KEY]

    async def database_ok() -> bool:
        return await runtime.storage.fetch_one("SELECT 1") is not None

    await application.initialize()
    assert application.post_init is not None
    await application.post_init(application)
    await application.start()
    try:
        checks = {"database": database_ok}
        async with serving_webhook(application, http, Metrics(), checks, allowed_updates()):
            group.runtime = runtime
            yield application
            await runtime.publisher.idle()
    finally:
        await application.stop()
        assert application.post_stop is not None and application.post_shutdown is not None
        await application.post_stop(application)
        await application.shutdown()
        await application.post_shutdown(application)


async def test_a_whole_match_in_webhook_mode(group: Group) -> None:
    group.server.webhook.timing = WebhookTiming(timeout=5.0, first_retry=0.02, max_retry=0.2)
    port = free_port()
    url = f"http://127.0.0.1:{port}/telegram"
    http = HttpSettings(url, SECRET, "127.0.0.1", port)
    async with webhook_bot(group, http), aiohttp.ClientSession() as client:
        table = await group.start("gaple target=1", 4)
        for _ in range(3):
            await table.play_one()
        async with client.get(f"http://127.0.0.1:{port}/healthz/ready") as ready:
            assert (ready.status, await ready.json()) == (200, {"ready": True})
        async with client.post(url, json={"update_id": 10**9}) as forged:  # no secret
            assert forged.status == 403
        await table.play_until(group.match_over)
        finished = group.game()
    assert finished.status is Status.FINISHED and finished.match is not None
    assert group.server.webhook.target is not None
    assert group.server.webhook.target.secret_token == SECRET
    assert not group.server.requests_for("getUpdates")  # nothing but the webhook
    assert group.server.webhook.deliveries and all(
        a.delivered for a in group.server.webhook.attempts
    )


async def test_a_backup_taken_mid_game_restores_into_a_bot_that_finishes_it(
    group: Group, tmp_path: Path
) -> None:
    backup = tmp_path / "backup.sqlite3"
    async with group.bot():
        table = await group.start("gaple target=1", 4)
        for _ in range(4):
            await table.play_one()
        back_up(group.database, backup)  # while the bot runs, its commits partly in -wal
        playing = group.game()
    # Restore as docs/OPERATIONS.md says: with the bot stopped, the copy replaces the file
    # and the old -wal and -shm go.
    for leftover in (Path(f"{group.database}-wal"), Path(f"{group.database}-shm")):
        leftover.unlink(missing_ok=True)
    group.database.write_bytes(backup.read_bytes())
    assert group.game().status is Status.PLAYING
    assert group.game().game_id == playing.game_id
    async with group.bot():
        await Table(group.server, group.users[:4]).play_until(group.match_over)
        finished = group.game()
    assert finished.game_id == playing.game_id and finished.status is Status.FINISHED


async def test_stopping_during_a_long_poll_confirms_the_offset_without_an_error(
    group: Group, caplog: pytest.LogCaptureFixture,
) -> None:
    """A stop lands while getUpdates is held open: the poll is torn down and PTB's last
    getUpdates (which confirms what was fetched) must still go out, several times over."""
    server = group.server
    for _ in range(3):
        async with group.bot():
            await server.wait_for(lambda: server.world.updates.polls_waiting, timeout=10)
    complaints = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert complaints == []
