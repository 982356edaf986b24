"""A receiver: Telegram's webhook in front of the fleet's queue, and nothing else.

Each update is checked (the secret token header, as the single process checks it), routed
(:mod:`bot.fleet.routing`: a private tap names its game, whose chat one query finds) and
inserted once (``ON CONFLICT (update_id) DO NOTHING``) with a NOTIFY to the shard's worker;
the answer is 200 only after that transaction committed. A receiver that dies before it
answered loses nothing (Telegram sends the update again), a second delivery is stored once,
and while PostgreSQL cannot be reached the answer is 503, which Telegram retries. Receivers
keep no state: any number can stand behind one load balancer, with the same URL and secret.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg  # type: ignore[import-untyped]
from telegram import Bot
from telegram.error import InvalidToken, TelegramError

from ..config import BotConfig
from ..errors import ConfigError, StorageError
from ..serving.metrics import Metrics
from ..serving.webserver import HttpSettings, WebhookEndpoint, WebServer, build_web_app
from ..storage import fleet as sql
from ..storage.postgres import quiet_pool_floor_retries
from .background import ended
from .routing import route_key, shard_of
from .settings import FleetSettings

log = logging.getLogger(__name__)
MAX_BACKOFF = 10.0
DB_ERRORS = (OSError, asyncpg.PostgresError, asyncpg.InterfaceError)


class UpdateStore:
    """The receiver's side of the queue: a connection pool, made again while PostgreSQL is
    away (one line per attempt), and the insert that answers for each update."""

    def __init__(self, url: str, shards: int) -> None:
        self.url = url
        self.shards = shards
        self.pool: asyncpg.Pool | None = None
        self.stored = 0
        self._task: asyncio.Task[None] | None = None
        self._failing = False

    async def connect(self) -> None:
        """Make the pool, trying again until PostgreSQL answers."""
        attempt, delay = 1, 0.5
        quiet_pool_floor_retries()  # the outage is told by this loop's and put's own lines
        while self.pool is None:
            try:
                self.pool = await asyncpg.create_pool(self.url, min_size=1, max_size=10)
            except DB_ERRORS as error:
                log.warning("cannot reach the database (%s): trying again in %.1f s "
                            "(attempt %d)", error, delay, attempt)
                await asyncio.sleep(delay)
                delay = min(MAX_BACKOFF, delay * 2)
                attempt += 1

    def start(self) -> None:
        self._task = asyncio.create_task(self.connect(), name="receiver-pool")

    async def close(self) -> None:
        await ended(self._task)
        if self.pool is not None:
            await self.pool.close()
            self.pool = None

    async def put(self, update: dict[str, Any]) -> None:
        """Store ``update`` (once); raises while it cannot be committed (the answer is 503)."""
        pool = self.pool
        if pool is None:
            raise StorageError("the database is not reachable yet")
        try:
            key = await route_key(update, lambda game_id: sql.chat_of_game(pool, game_id),
                                  lambda user_id: sql.chat_of_player(pool, user_id))
            key = 0 if key is None else key
            await sql.insert_update(pool, int(update["update_id"]), shard_of(key, self.shards),
                                    key, json.dumps(update, separators=(",", ":")), time.time())
        except DB_ERRORS as error:
            if not self._failing:
                log.warning("cannot store updates (%s): answering 503 until the database is "
                            "back", error)
            self._failing = True
            raise StorageError(f"the update could not be stored: {error}") from None
        if self._failing:
            log.info("storing updates again")
            self._failing = False
        self.stored += 1

    async def ready(self) -> bool:
        """The database answers (a receiver that cannot commit is not ready)."""
        pool = self.pool
        return pool is not None and await pool.fetchval("SELECT 1") == 1


@asynccontextmanager
async def receiving(config: BotConfig, http: HttpSettings, fleet: FleetSettings,
                    register: bool = True) -> AsyncIterator[WebServer]:
    """A receiver, serving until the block ends: the server up first, then (with
    ``register``) setWebhook, tried again in the background while Telegram is unreachable."""
    if http.webhook_url is None or http.port is None:
        raise ConfigError("a receiver needs WEBHOOK_URL and HTTP_PORT")
    store = UpdateStore(fleet.database_url, fleet.shards)
    store.start()
    metrics = Metrics()
    endpoint = WebhookEndpoint(http.webhook_path, http.webhook_secret, store.put)
    server = WebServer(build_web_app(metrics, {"database": store.ready}, endpoint),
                       http.host, http.port)
    await server.start()
    registering = (asyncio.create_task(_register(config, http), name="set-webhook")
                   if register else None)
    try:
        yield server
    finally:
        await server.stop()
        if registering is not None:
            registering.cancel()
            with contextlib.suppress(asyncio.CancelledError, InvalidToken):
                await registering
        await store.close()


async def _register(config: BotConfig, http: HttpSettings) -> None:
    """setWebhook (every receiver registers the same URL and secret: harmless)."""
    from ..app import allowed_updates

    assert http.webhook_url is not None
    bot = Bot(config.token, base_url=config.bot_url, base_file_url=config.file_url)
    attempt, delay = 1, 1.0
    while True:
        try:
            async with bot:  # getMe first: the token is checked
                await bot.set_webhook(http.webhook_url, secret_token=http.webhook_secret,
                                      allowed_updates=allowed_updates())
            log.info("webhook registered: Telegram posts updates to %s", http.webhook_url)
            return
        except InvalidToken:
            log.critical("Telegram rejected TELEGRAM_BOT_TOKEN")
            raise
        except TelegramError as error:
            log.warning("setWebhook failed (%s): trying again in %.0f s (attempt %d)",
                        error, delay, attempt)
        await asyncio.sleep(delay)
        delay = min(60.0, delay * 2)
        attempt += 1
