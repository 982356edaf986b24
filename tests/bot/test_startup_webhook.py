"""Webhook mode's start and its endpoint as an operator reads them (``python -m bot`` in a
subprocess against the fake Bot API server): a WEBHOOK_URL Telegram refuses is one line and
exit 2 (a setting to fix, not a restart), Telegram out of reach at setWebhook is tried again,
and an update python-telegram-bot cannot read is skipped in one line (200: not sent again)."""

from __future__ import annotations

import signal
from pathlib import Path

import aiohttp
from test_e2e_operations import free_port
from test_startup import RUNNING, STOPPED, bot_process, server_settings, started

from bot.serving.webserver import SECRET_HEADER
from fakeapi import FakeTelegramServer

URL = "https://bot.example/telegram"
REFUSED_URL = "https://bot.example:8081/telegram"  # (the fake refuses that port as Telegram)
SECRET = "webhook_secret-1"
REFUSAL = "Bad webhook: webhook can be set up only on ports 80, 88, 443 or 8443"


def webhook_settings(telegram: FakeTelegramServer, port: int, url: str = URL
                     ) -> dict[str, str]:
    return server_settings(telegram, WEBHOOK_URL=url, WEBHOOK_SECRET=SECRET,
                           HTTP_HOST="127.0.0.1", HTTP_PORT=str(port))


async def test_a_webhook_url_telegram_refuses_is_one_line_and_exit_2(
        telegram: FakeTelegramServer, tmp_path: Path) -> None:
    port = free_port()
    async with bot_process(tmp_path, **webhook_settings(telegram, port, REFUSED_URL)) as bot:
        assert await bot.ended() == 2
    assert "Traceback" not in bot.text()
    assert bot.unstamped() == [
        *started(tmp_path, polling=False)[:-1],
        f"INFO bot.serving.webserver: serving HTTP on 127.0.0.1:{port}",
        *STOPPED[1:-1],  # (what started is stopped)
        f"CRITICAL bot: Telegram refused WEBHOOK_URL {REFUSED_URL}: {REFUSAL}"]


async def test_telegram_out_of_reach_at_set_webhook_is_tried_again(
        telegram: FakeTelegramServer, tmp_path: Path) -> None:
    telegram.fail_next("setWebhook", error_code=502, description="Bad Gateway", times=2)
    port = free_port()
    async with bot_process(tmp_path, **webhook_settings(telegram, port)) as bot:
        await bot.until(lambda lines: any(line.endswith(RUNNING) for line in lines))
        bot.process.send_signal(signal.SIGTERM)
        assert await bot.ended() == 0
    assert "Traceback" not in bot.text()
    assert bot.unstamped() == [
        *started(tmp_path, polling=False)[:-1],
        f"INFO bot.serving.webserver: serving HTTP on 127.0.0.1:{port}",
        "WARNING bot.serving.webhook: setWebhook failed (Bad Gateway): trying again in 1 s "
        "(attempt 1)",
        "WARNING bot.serving.webhook: setWebhook failed (Bad Gateway): trying again in 2 s "
        "(attempt 2)",
        f"INFO bot.serving.webhook: webhook registered: Telegram posts updates to {URL}",
        RUNNING, *STOPPED]


async def test_an_update_that_cannot_be_read_is_skipped_in_one_line(
        telegram: FakeTelegramServer, tmp_path: Path) -> None:
    port = free_port()
    async with bot_process(tmp_path, **webhook_settings(telegram, port)) as bot:
        await bot.until(lambda lines: any(line.endswith(RUNNING) for line in lines))
        async with aiohttp.ClientSession() as client:
            for _ in range(2):  # (a second delivery is skipped the same way)
                async with client.post(f"http://127.0.0.1:{port}/telegram",
                                       json={"update_id": 99999999, "message": "garbage"},
                                       headers={SECRET_HEADER: SECRET}) as answer:
                    assert answer.status == 200
        bot.process.send_signal(signal.SIGTERM)
        assert await bot.ended() == 0
    assert "Traceback" not in bot.text()
    skipped = [line for line in bot.unstamped() if "99999999" in line]
    assert skipped == ["WARNING bot.serving.webhook: update 99999999 cannot be read: skipped "
                       "(AttributeError: 'str' object has no attribute 'copy')"] * 2
    assert not [line for line in bot.unstamped() if line.startswith("ERROR")]
