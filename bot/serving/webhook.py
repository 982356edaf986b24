"""Webhook mode: Telegram POSTs each update to the bot's HTTP server instead of the bot
polling. The server goes up first, then setWebhook registers the URL and its secret, so the
first update already finds it; on the way out the server stops first (Telegram keeps what it
cannot deliver and sends it after the restart), and the webhook stays registered for that.

A URL Telegram refuses (a port it does not call, a host it cannot resolve: its 400) is a
setting to fix, one :class:`ConfigError` line (exit 2); Telegram out of reach meanwhile is
tried again, one line per attempt. An update python-telegram-bot cannot read is skipped (one
line, answered 200): Telegram would send it again and again otherwise.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any

from telegram import Bot, Update
from telegram.error import BadRequest, NetworkError, RetryAfter
from telegram.ext import Application

from ..errors import ConfigError
from .metrics import Metrics
from .webserver import Check, HttpSettings, WebhookEndpoint, WebServer, build_web_app

log = logging.getLogger(__name__)
#: Seconds between two attempts at setWebhook while Telegram is out of reach, at most.
MAX_BACKOFF = 60.0


def read_update(data: dict[str, Any], bot: Bot) -> Update | None:
    """The update ``data`` holds; None, said in one WARNING line, when python-telegram-bot
    cannot read it (nothing would handle it, and refusing it makes Telegram send it again)."""
    try:
        return Update.de_json(data, bot)
    except Exception as error:
        log.warning("update %s cannot be read: skipped (%s: %s)", data.get("update_id"),
                    type(error).__name__, error)
        return None


def refused_url(url: str, error: BadRequest) -> ConfigError:
    """Telegram's 400 to setWebhook as the setting to fix."""
    return ConfigError(f"Telegram refused WEBHOOK_URL {url}: {error.message}")


async def register(
    bot: Bot, url: str, secret: str, allowed_updates: Sequence[str],
    stopped: Callable[[], bool] = lambda: False,
) -> bool:
    """setWebhook, tried again (one WARNING line per attempt, backing off) while Telegram is
    out of reach, until it answers or ``stopped``; whether it registered. Its refusal (400)
    raises :class:`ConfigError`."""
    attempt, delay = 1, 1.0
    while not stopped():
        try:
            await bot.set_webhook(url, secret_token=secret, allowed_updates=allowed_updates)
        except BadRequest as error:
            raise refused_url(url, error) from None
        except (NetworkError, RetryAfter) as error:
            wait = max(delay, float(getattr(error, "retry_after", 0) or 0))
            log.warning("setWebhook failed (%s): trying again in %.0f s (attempt %d)",
                        error, wait, attempt)
            await _sleep_unless(stopped, wait)
            delay = min(MAX_BACKOFF, delay * 2)
            attempt += 1
            continue
        log.info("webhook registered: Telegram posts updates to %s", url)
        return True
    return False


async def _sleep_unless(stopped: Callable[[], bool], seconds: float) -> None:
    """Sleep ``seconds``, ending within a fifth of a second once ``stopped``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not stopped() and (left := end - loop.time()) > 0:
        await asyncio.sleep(min(0.2, left))


@asynccontextmanager
async def serving_webhook(
    application: Application,  # type: ignore[type-arg]
    http: HttpSettings,
    metrics: Metrics,
    checks: Mapping[str, Check],
    allowed_updates: Sequence[str],
) -> AsyncIterator[WebServer]:
    """Serve the webhook (and health and metrics) for ``application``, which runs without an
    updater: use it where polling would start, inside initialize/start ... stop/shutdown."""
    if http.webhook_url is None or http.port is None:
        raise ConfigError("webhook mode needs WEBHOOK_URL and HTTP_PORT")

    async def put(data: dict[str, Any]) -> None:
        update = read_update(data, application.bot)
        if update is not None:
            await application.update_queue.put(update)

    def stopped() -> bool:  # (the runtime's flag, bot.app.begin_stop: serving knows no game)
        return bool(getattr(application.bot_data.get("runtime"), "stopping", False))

    endpoint = WebhookEndpoint(http.webhook_path, http.webhook_secret, put)
    server = WebServer(build_web_app(metrics, checks, endpoint), http.host, http.port)
    await server.start()
    try:
        await register(application.bot, http.webhook_url, http.webhook_secret,
                       allowed_updates, stopped)
        yield server
    finally:
        await server.stop()
