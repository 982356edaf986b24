"""A receiver: Telegram's webhook in front of the fleet's queue, and nothing else.

Each update is checked (the secret token header, as the single process checks it), routed
(:mod:`bot.fleet.routing`: a private tap names its game, whose chat one query finds) and
inserted once (``ON CONFLICT (update_id) DO NOTHING``) with a NOTIFY to the shard's worker;
the answer is 200 only after that transaction committed. A receiver that dies before it
answered loses nothing (Telegram sends the update again), a second delivery is stored once,
and while PostgreSQL cannot be reached the answer is 503, which Telegram retries. Receivers
keep no state: any number can stand behind one load balancer, with the same URL and secret.

A receiver files each update under its shard, so it must count the shards as the workers do:
before it stores anything it makes the workers' own check (:meth:`UpdateStore.agree`), and
with another ``FLEET_SHARDS`` than the database's it stops (one line, exit 2) rather than file
updates under shards no worker reads. A database that will not have it (a wrong password, a
database that does not exist, TLS refused) stops it too (one line, exit 1, as a worker's
start): answering 503 for ever would only hide the mistake while Telegram's retries run out.
So does a ``WEBHOOK_URL`` Telegram refuses (setWebhook's 400: one line, exit 2), and a token
it rejects (as a worker's start says it): every receiver registers the same URL, so none
would ever be posted to, and a receiver kept ready would only hide that behind the balancer;
Telegram out of reach is tried again instead. Its setWebhook goes out only after the
database accepted it (its ``FLEET_SHARDS`` agreed, and its ``WEBHOOK_SECRET``: the fleet's,
:mod:`bot.fleet.secretprint`): a receiver refused at its start has not pointed Telegram at
itself, with its own secret, before it stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import asyncpg  # type: ignore[import-untyped]
from telegram import Bot
from telegram.error import BadRequest, InvalidToken, TelegramError

from ..config import BotConfig
from ..errors import ConfigError, StorageError
from ..logs import counted
from ..serving.metrics import ApiOutcome, Metrics
from ..serving.webhook import refused_url
from ..serving.webserver import HttpSettings, WebhookEndpoint, WebServer, build_web_app
from ..storage import StorageUnavailableError
from ..storage import fleet as sql
from ..storage.outages import DATABASE_ERRORS, cause
from ..storage.owner import agree_bot_on, bot_id_of
from ..storage.postgres import PostgresEngine, quiet_pool_floor_retries
from .background import ended
from .routing import route_key, shard_of
from .secretprint import SecretWatch, agree_secret
from .settings import RECEIVER_APPLICATION, FleetSettings, application_name

log = logging.getLogger(__name__)
MAX_BACKOFF = 10.0
#: Seconds between two checks of FLEET_SHARDS at the start at most (a cheap query, and the
#: webhook waits for it: the first worker's migrations are not waited for long after).
AGREE_BACKOFF = 2.0


class UpdateStore:
    """The receiver's side of the queue: a connection pool, made at the start once PostgreSQL
    answers (one line per attempt, as a worker's start says it, and one when it does), and
    the insert that answers for each update (the pool reconnects by itself later)."""

    def __init__(self, url: str, shards: int, name: str = "",
                 on_refused: Callable[[], None] | None = None,
                 metrics: Metrics | None = None, bot_id: str = "", secret: str = "",
                 rotate_secret: bool = False) -> None:
        self.url = url
        self.bot_id = bot_id  # (the token's id: the database must be this bot's)
        #: WEBHOOK_SECRET: the fleet's (its fingerprint agreed), or recorded as the fleet's
        #: new one with ``rotate_secret`` (empty: not checked); then the fingerprint agreed.
        self.secret, self.rotate_secret = secret, rotate_secret
        self.secret_print: str | None = None
        self.metrics = metrics if metrics is not None else Metrics()
        self.shards = shards
        self.name = name  # (WORKER_NAME: its connections carry it, as a worker's do)
        self.on_refused = on_refused
        #: Why this receiver may not store updates: another shard count than the fleet's
        #: (exit 2), or a database that will not have it (a password, a missing database:
        #: exit 1, as a worker's start).
        self.refused: ConfigError | StorageError | None = None
        self.agreed = False
        #: Set once this receiver may store updates (:meth:`agree` passed): its webhook is
        #: registered only then, never by a receiver about to be refused.
        self.checked = asyncio.Event()
        self.pool: asyncpg.Pool | None = None
        self.stored = 0
        self._task: asyncio.Task[None] | None = None
        self._failing = False

    async def connect(self) -> None:
        """Make the pool, trying again until PostgreSQL answers, then :meth:`agree`."""
        attempt, delay = 1, 0.5
        quiet_pool_floor_retries()  # the outage is told by this loop's and put's own lines
        engine = PostgresEngine(self.url)  # its one line for a refusal, as a worker's start
        while self.pool is None:
            try:
                self.pool = await engine.connecting(lambda: asyncpg.create_pool(
                    self.url, min_size=1, max_size=10, server_settings={
                        "application_name": application_name(RECEIVER_APPLICATION, self.name)}))
            except StorageUnavailableError as error:
                log.warning("%s: trying again in %.1f s (attempt %d)", error, delay, attempt)
                await asyncio.sleep(delay)
                delay = min(MAX_BACKOFF, delay * 2)
                attempt += 1
            except StorageError as error:  # a server that will not have us: not waited for
                self.refuse(error)
                return
        if attempt > 1:
            log.info("connected to PostgreSQL after %s", counted(attempt - 1, "attempt"))
        await self._agree_at_start(self.pool)
        if self.secret_print is not None and self.refused is None:  # (until closed)
            await SecretWatch(self.secret_print).run(self.pool)

    async def _agree_at_start(self, pool: asyncpg.Pool) -> None:
        """:meth:`agree`, tried again until it passes (the fleet's tables not made yet, the
        database gone again) or refuses: the webhook waits for it (:attr:`checked`)."""
        attempt, delay = 1, 0.5
        while not self.agreed:
            try:
                await self.agree(pool)
            except ConfigError:  # refused: said by the receiver's stop
                return
            except DATABASE_ERRORS as error:
                log.log(logging.INFO if attempt == 1 else logging.DEBUG,
                        "FLEET_SHARDS not checked with the database yet (%s): the webhook is "
                        "registered once it is; trying again in %.1f s (attempt %d)",
                        cause(error), delay, attempt)
                await asyncio.sleep(delay)
                delay = min(AGREE_BACKOFF, delay * 2)
                attempt += 1
        if attempt > 1:
            log.info("FLEET_SHARDS checked with the database after %s",
                     counted(attempt - 1, "attempt"))

    async def agree(self, pool: asyncpg.Pool) -> None:
        """Agree on the shard count with the workers before storing anything, by their own
        check (:func:`~bot.storage.fleet.agree_shards`). Another count than the database's
        is :attr:`refused`, and ``on_refused`` told (the receiver stops: exit 2).

        When no process has recorded a count yet, the receiver records its own, as the first
        worker would: whoever comes first fixes the fleet's number, and a worker started later
        with another one refuses in one line rather than read shards no receiver files under.
        Waiting for a worker instead would gain nothing (both write the same row the same
        way) and hold the webhook's updates meanwhile. Before the first worker has made the
        fleet's tables (its migrations) the check fails like the insert would (503, Telegram
        retries); the start tries it again (:meth:`_agree_at_start`), and so does the next
        update. Then the webhook's secret (:func:`~bot.fleet.secretprint.agree_secret`):
        the fleet's, or the first receiver's, or (``rotate_secret``) made the fleet's."""
        where = PostgresEngine(self.url).name
        try:
            if self.bot_id:
                await agree_bot_on(pool, where, self.bot_id)
            await sql.agree_shards(pool, self.shards)
            if self.secret:
                self.secret_print = await agree_secret(pool, where, self.secret,
                                                       self.rotate_secret, self.name)
        except ConfigError as error:
            self.refuse(error)
            raise
        self.agreed = True
        self.checked.set()

    def refuse(self, error: ConfigError | StorageError) -> None:
        """This receiver may not store updates (nor be ready): ``on_refused`` is told (it
        stops)."""
        if self.refused is None:
            self.refused = error
            if self.on_refused is not None:
                self.on_refused()

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
        if pool is None or self.refused is not None:
            raise StorageError("the database is not reachable yet" if self.refused is None
                               else str(self.refused))
        try:
            if not self.agreed:
                await self.agree(pool)
            key = await route_key(update, lambda game_id: sql.chat_of_game(pool, game_id),
                                  lambda user_id: sql.chat_of_player(pool, user_id))
            key = 0 if key is None else key
            new = await sql.insert_update(
                pool, int(update["update_id"]), shard_of(key, self.shards), key,
                json.dumps(update, separators=(",", ":")), time.time())
        except ConfigError as error:
            raise StorageError(str(error)) from None
        except DATABASE_ERRORS as error:  # away, or its tables not made yet: 503
            if not self._failing:
                log.warning("cannot store updates (%s): answering 503 until the database is "
                            "back", cause(error))
            self._failing = True
            raise StorageError(f"the update could not be stored: {cause(error)}") from None
        if self._failing:
            log.info("storing updates again")
            self._failing = False
        self.stored += 1
        self.metrics.update_stored(new)

    async def ready(self) -> bool:
        """The database answers (a receiver that cannot commit is not ready)."""
        pool = self.pool
        return pool is not None and self.refused is None and await pool.fetchval("SELECT 1") == 1


@asynccontextmanager
async def receiving(config: BotConfig, http: HttpSettings, fleet: FleetSettings,
                    register: bool = True, stopping: asyncio.Event | None = None,
                    rotate_secret: bool = False) -> AsyncIterator[WebServer]:
    """A receiver, serving until the block ends: the server up first, then (with
    ``register``), once the database accepted its ``FLEET_SHARDS``, setWebhook, tried again in
    the background while Telegram is unreachable (a receiver refused never registers).
    A receiver whose ``FLEET_SHARDS`` the database refuses sets ``stopping`` and raises the
    :class:`ConfigError` as the block ends (it stored nothing meanwhile: not ready); so does
    one the database will not have (a password, a missing database), with the
    :class:`StorageError`, and one whose ``WEBHOOK_URL`` or token Telegram refuses (the
    :class:`ConfigError` naming it), and one whose ``WEBHOOK_SECRET`` is not the fleet's
    (unless ``rotate_secret`` makes it the fleet's: :mod:`bot.fleet.secretprint`). A server
    not up yet is waited for."""
    if http.webhook_url is None or http.port is None:
        raise ConfigError("a receiver needs WEBHOOK_URL and HTTP_PORT")
    metrics = Metrics()  # (the webhook's answers, the updates stored, Telegram's calls)
    store = UpdateStore(fleet.database_url, fleet.shards, fleet.worker_name,
                        None if stopping is None else stopping.set, metrics,
                        bot_id_of(config.token), http.webhook_secret, rotate_secret)
    store.start()
    endpoint = WebhookEndpoint(http.webhook_path, http.webhook_secret, store.put)
    server = WebServer(build_web_app(metrics, {"database": store.ready}, endpoint),
                       http.host, http.port)
    try:
        await server.start()
    except BaseException:  # (the port taken: its one line, and nothing left running)
        await store.close()
        raise
    registering = (asyncio.create_task(_register_when_checked(config, http, store, metrics),
                                       name="set-webhook")
                   if register else None)
    try:
        yield server
    finally:
        await server.stop()
        if registering is not None:
            registering.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await registering
        await store.close()
    if store.refused is not None:
        raise store.refused


async def _register_when_checked(config: BotConfig, http: HttpSettings, store: UpdateStore,
                                 metrics: Metrics) -> None:
    """setWebhook once ``store`` may store updates, and never before: a receiver refused at
    its start (another FLEET_SHARDS or WEBHOOK_SECRET than the fleet's, a database that will
    not have it) must not have pointed Telegram at itself with its own secret first
    (operator QA: a receiver with a mistyped WEBHOOK_SECRET and another FLEET_SHARDS exited 2
    after its setWebhook, and every good receiver refused every update, 403, from then on)."""
    await store.checked.wait()
    await _register(config, http, store.refuse, metrics)


async def _register(config: BotConfig, http: HttpSettings,
                    refused: Callable[[ConfigError], None], metrics: Metrics) -> None:
    """setWebhook (every receiver registers the same URL and secret: harmless); Telegram's
    refusal (400: the URL; 401: the token) goes to ``refused``, and is not tried again. Its
    calls (getMe, setWebhook) are counted in ``metrics`` as a worker's are."""
    from ..app import allowed_updates
    from ..launch import token_rejected
    from ..publishing.metering import outcome_of

    assert http.webhook_url is not None
    bot = Bot(config.token, base_url=config.bot_url, base_file_url=config.file_url)
    attempt, delay = 1, 1.0
    while True:
        method = "getMe"
        try:
            async with bot:  # getMe first: the token is checked
                metrics.api_call(method, ApiOutcome.OK)
                method = "setWebhook"
                await bot.set_webhook(http.webhook_url, secret_token=http.webhook_secret,
                                      allowed_updates=allowed_updates())
                metrics.api_call(method, ApiOutcome.OK)
            log.info("webhook registered: Telegram posts updates to %s", http.webhook_url)
            return
        except InvalidToken:  # as the worker's start says it (exit 2)
            metrics.api_call(method, ApiOutcome.REFUSED)
            refused(ConfigError(token_rejected(config.api_base_url)))
            return
        except BadRequest as error:
            metrics.api_call(method, ApiOutcome.REFUSED)
            refused(refused_url(http.webhook_url, error))
            return
        except TelegramError as error:
            metrics.api_call(method, outcome_of(error))
            log.warning("setWebhook failed (%s): trying again in %.0f s (attempt %d)",
                        error, delay, attempt)
        await asyncio.sleep(delay)
        delay = min(60.0, delay * 2)
        attempt += 1
