"""The bot's HTTP side: Telegram's webhook, health checks and metrics, on one aiohttp server.

- ``POST <webhook path>``: an update from Telegram. The secret token header must match
  (compared in constant time; 403 otherwise); the JSON goes to ``put`` and the answer is 200
  only once ``put`` returned, so an update the bot could not queue is retried by Telegram.
  A POST to any other path is answered 404 and counted with the webhook's answers (a proxy
  forwarding Telegram's POSTs to the wrong path shows there, not only in getWebhookInfo).
- ``GET /healthz/live``: 200 while the event loop answers.
- ``GET /healthz/ready``: 200, or 503 naming the checks that failed (database, telegram,
  webhook).
- ``GET /metrics``: Prometheus' text format (bot/serving/metrics.py).

TLS is not served here: a public webhook URL ends at a reverse proxy (or a tunnel) that
forwards plain HTTP to this server.
"""

from __future__ import annotations

import asyncio
import hmac
import inspect
import logging
import os
import re
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

from ..errors import ConfigError, StorageError
from .metrics import Metrics

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
LIVE_PATH = "/healthz/live"
READY_PATH = "/healthz/ready"
METRICS_PATH = "/metrics"
CHECK_TIMEOUT = 2.0  # seconds a readiness check may take before it counts as failed
#: Seconds between two lines about webhook requests refused for their secret.
REFUSALS_EVERY = 60.0
_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")  # what setWebhook accepts

#: A readiness check: True when its part works. May be a coroutine function.
Check = Callable[[], Awaitable[bool] | bool]
#: Takes one decoded update; returns once the update is queued for the handlers.
Put = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass(frozen=True)
class WebhookEndpoint:
    """Where Telegram POSTs updates, the secret it must send, and where they go."""

    path: str
    secret_token: str = field(repr=False)
    put: Put


@dataclass(frozen=True)
class HttpSettings:
    """The HTTP side's settings: ``WEBHOOK_URL`` (empty: long polling), ``WEBHOOK_SECRET``
    (empty: a new random one at each start, which setWebhook then registers), ``HTTP_HOST``
    and ``HTTP_PORT`` (empty: no HTTP server in polling mode; 8080 in webhook mode)."""

    webhook_url: str | None
    webhook_secret: str = field(repr=False)
    host: str
    port: int | None

    @property
    def webhook_path(self) -> str:
        """The path Telegram POSTs to: the public URL's own path (the proxy keeps it)."""
        return urlsplit(self.webhook_url or "").path or "/"


def http_settings_from_env(env: Mapping[str, str] | None = None) -> HttpSettings:
    """Read the HTTP side's settings; raise :class:`ConfigError` with a one-line reason."""
    env = os.environ if env is None else env
    url = env.get("WEBHOOK_URL", "").strip() or None
    if url is not None and not re.match(r"^https://[^\s/]+(/\S*)?$", url):
        raise ConfigError("WEBHOOK_URL must be the public https:// URL Telegram should call")
    secret = env.get("WEBHOOK_SECRET", "").strip() or secrets.token_urlsafe(32)
    if not _SECRET.fullmatch(secret):
        raise ConfigError(
            "WEBHOOK_SECRET must be 1-256 characters of A-Z, a-z, 0-9, _ and - (Telegram's rule)"
        )
    port_text = env.get("HTTP_PORT", "").strip()
    port: int | None = 8080 if url is not None else None
    if port_text:
        if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
            raise ConfigError(f"HTTP_PORT must be a port number from 1 to 65535, not {port_text!r}")
        port = int(port_text)
    host = env.get("HTTP_HOST", "").strip() or "0.0.0.0"  # every interface: a container's port
    return HttpSettings(url, secret, host, port)


def build_web_app(
    metrics: Metrics, checks: Mapping[str, Check], webhook: WebhookEndpoint | None = None
) -> web.Application:
    """The aiohttp application; ``checks`` name the readiness checks (database, telegram)."""
    checks = dict(checks)
    failures = CheckFailures()

    async def ready(request: web.Request) -> web.Response:
        failed = [name for name, check in checks.items()
                  if not await _passes(name, check, failures)]
        if failed:
            return web.json_response({"ready": False, "failed": failed}, status=503)
        return web.json_response({"ready": True})

    async def exposition(request: web.Request) -> web.Response:
        body, content_type = metrics.exposition()
        return web.Response(body=body, headers={"Content-Type": content_type})

    strays = [] if webhook is None else [_counting_strays(metrics)]
    app = web.Application(client_max_size=1024 * 1024, middlewares=strays)
    app.router.add_get(LIVE_PATH, _live)
    app.router.add_get(READY_PATH, ready)
    app.router.add_get(METRICS_PATH, exposition)
    if webhook is not None:
        if not _SECRET.fullmatch(webhook.secret_token) or not webhook.path.startswith("/"):
            raise ConfigError("the webhook needs a path and a secret token Telegram accepts")

        refusals = Refusals()

        async def receive(request: web.Request) -> web.Response:
            response = await _receive(request, webhook, refusals)
            metrics.webhook_answered(response.status)
            return response

        app.router.add_post(webhook.path, receive)
        metrics.webhook_served()
    return app


def _counting_strays(metrics: Metrics) -> Middleware:
    """A POST no route takes (another path than the webhook's) counted as a webhook answer,
    404: Telegram's POSTs behind a proxy that forwards them to the wrong path."""

    @web.middleware
    async def counting(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await handler(request)
        except web.HTTPNotFound:
            if request.method == "POST":
                metrics.webhook_answered(web.HTTPNotFound.status_code)
            raise

    return counting


async def _live(request: web.Request) -> web.Response:
    return web.json_response({"live": True})


async def _passes(name: str, check: Check, failures: CheckFailures) -> bool:
    """Run one check; raising or taking longer than CHECK_TIMEOUT is failing (told by
    ``failures``: once when it starts, once when it ends)."""
    try:
        result = check()
        if inspect.isawaitable(result):
            async with asyncio.timeout(CHECK_TIMEOUT):
                result = await result
    except Exception as error:  # a broken check must answer 503, not 500
        failures.failed(name, error)
        return False
    if result:
        failures.passed(name)
    return bool(result)


class CheckFailures:
    """A readiness check that raises is told once when it starts failing and once when it
    passes again, not at every probe: a balancer or an orchestrator asks every few seconds,
    and an outage is a line when it starts and one when it ends (docs/OPERATIONS.md)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.since: dict[str, float] = {}

    def failed(self, name: str, error: Exception) -> None:
        if name in self.since:
            return
        self.since[name] = self.clock()
        if isinstance(error, TimeoutError):
            reason = f"no answer within {CHECK_TIMEOUT:g} s"
        else:
            reason = " ".join(str(error).split()) or type(error).__name__
        log.warning("readiness check %s failed (%s): answering 503 until it passes", name,
                    reason)

    def passed(self, name: str) -> None:
        since = self.since.pop(name, None)
        if since is not None:
            log.info("readiness check %s passes again after %.0f s", name, self.clock() - since)


class Refusals:
    """Webhook requests refused for their secret, told at most once a minute with their
    count: a scanner must not fill the log (behind a proxy each names only the proxy)."""

    def __init__(self, every: float = REFUSALS_EVERY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.every, self.clock = every, clock
        self.count = 0
        self.told: float | None = None

    def note(self, remote: str | None) -> None:
        self.count += 1
        now = self.clock()
        if self.told is None or now - self.told >= self.every:
            log.warning("webhook requests without the right secret token: %d since the last "
                        "such line (the latest from %s)", self.count, remote)
            self.count, self.told = 0, now


async def _receive(request: web.Request, webhook: WebhookEndpoint,
                   refusals: Refusals) -> web.Response:
    sent = request.headers.get(SECRET_HEADER, "").encode()
    if not hmac.compare_digest(sent, webhook.secret_token.encode()):
        refusals.note(request.remote)
        return web.Response(status=403)
    try:
        update = await request.json()
    except ValueError:
        return web.Response(status=400)
    if not isinstance(update, dict) or not isinstance(update.get("update_id"), int):
        return web.Response(status=400)
    try:
        await webhook.put(update)
    except StorageError as error:  # the database is away (said once by the receiver)
        log.debug("update %d not stored: %s", update["update_id"], error)
        return web.Response(status=503)
    except Exception:  # not queued: 503 makes Telegram send it again
        log.exception("update %d could not be queued", update["update_id"])
        return web.Response(status=503)
    return web.Response()


class WebServer:
    """The aiohttp server around :func:`build_web_app`: start in post_init, stop at shutdown."""

    def __init__(self, app: web.Application, host: str, port: int) -> None:
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=2.0)
        self._host = host
        self._port = port

    @property
    def port(self) -> int:
        """The bound port (the real one when started on port 0)."""
        return self._port

    async def start(self) -> None:
        """Listen; an address already in use is one :class:`ConfigError` line."""
        await self._runner.setup()
        site = web.TCPSite(self._runner, self._host, self._port)
        try:
            await site.start()
        except OSError as error:
            await self._runner.cleanup()
            raise ConfigError(
                f"cannot serve HTTP on {self._host}:{self._port}: {self._cause(error)}"
            ) from None
        self._port = self._runner.addresses[0][1]
        log.info("serving HTTP on %s:%d", self._host, self._port)

    def _cause(self, error: OSError) -> str:
        if isinstance(error, socket.gaierror):  # its errno is the resolver's, not the OS's
            return (f"the host name {self._host} cannot be resolved ({error.strerror}): set "
                    "HTTP_HOST to an address of this machine, or unset it for every interface")
        return os.strerror(error.errno).lower() if error.errno else str(error)

    async def stop(self) -> None:
        await self._runner.cleanup()
