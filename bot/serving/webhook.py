"""Webhook mode: Telegram POSTs each update to the bot's HTTP server instead of the bot
polling. The server goes up first, then setWebhook registers the URL and its secret, so the
first update already finds it; on the way out the server stops first (Telegram keeps what it
cannot deliver and sends it after the restart), and the webhook stays registered for that.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any

from telegram import Update
from telegram.ext import Application

from ..errors import ConfigError
from .metrics import Metrics
from .webserver import Check, HttpSettings, WebhookEndpoint, WebServer, build_web_app

log = logging.getLogger(__name__)


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
        await application.update_queue.put(Update.de_json(data, application.bot))

    endpoint = WebhookEndpoint(http.webhook_path, http.webhook_secret, put)
    server = WebServer(build_web_app(metrics, checks, endpoint), http.host, http.port)
    await server.start()
    try:
        await application.bot.set_webhook(
            http.webhook_url, secret_token=http.webhook_secret, allowed_updates=allowed_updates
        )
        log.info("webhook registered: Telegram posts updates to %s", http.webhook_url)
        yield server
    finally:
        await server.stop()
