"""The bot as a process: started, kept trying while Telegram cannot be reached, and stopped by
a signal, with what goes wrong said in one line an operator can act on (never a traceback,
never the token).

- A token Telegram rejects (401): one line, exit 2.
- Telegram unreachable at start (no network, DNS, 5xx, timeouts), or PostgreSQL not up yet
  (refused, no answer, starting): one line per attempt and tries again, backing off up to
  :data:`MAX_BACKOFF` seconds (PostgreSQL: :data:`DATABASE_BACKOFF`, as a fleet receiver
  waits), until it answers or a signal stops the bot (exit 0). A bot polling, or a fleet
  worker, with ``HTTP_PORT`` serves HTTP meanwhile: ``/healthz/live`` answers (a container's
  HEALTHCHECK does not mark it unhealthy while it waits) and ``/healthz/ready`` says 503 until
  the bot runs.
  PostgreSQL refusing the bot (its password, a missing database): one line, exit 1.
- The database unusable (folder not writable, file locked or damaged, disk full): one line
  naming the path and the cause, exit 1. The same for an HTTP port already taken (exit 2),
  and a WEBHOOK_URL Telegram refuses (setWebhook's 400, its reason: exit 2; Telegram out of
  reach meanwhile is tried again, :func:`bot.serving.webhook.register`).
- SIGINT (Ctrl-C), SIGTERM and SIGHUP (a closed terminal, logrotate's ``kill -HUP``: the logs
  go to stderr, nothing to reopen): stopping starts at once (:func:`bot.app.begin_stop`) and
  the bot ends quietly, exit 0 (:data:`bot.cli.STOP_SIGNALS`).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import Awaitable, Callable
from functools import partial

from telegram.error import InvalidToken, NetworkError, RetryAfter
from telegram.ext import Application

from .app import begin_stop, running
from .cli import STOP_SIGNALS
from .config import BOT_PATH, TELEGRAM_API
from .errors import ConfigError, StorageError
from .handlers.runtime import KEY, Runtime
from .health import readiness
from .serving.webserver import Check, WebServer, build_web_app
from .storage import StorageUnavailableError
from .waiting import wait_set

log = logging.getLogger("bot")
#: Seconds one getUpdates waits for an update (PTB's run_polling default); stopping ends it.
POLL_TIMEOUT = 10
FIRST_BACKOFF = 1.0
MAX_BACKOFF = 60.0
#: The longest wait between two attempts to reach PostgreSQL at start: a receiver's
#: (:data:`bot.fleet.receiver.MAX_BACKOFF`), so that after a long outage a worker is not
#: left idle up to a minute after the server is back, while the receivers store updates.
DATABASE_BACKOFF = 10.0
TOKEN_REJECTED = ("Telegram rejected TELEGRAM_BOT_TOKEN: copy the token again from @BotFather "
                  "(/mybots, API Token) into .env, or /revoke it there for a new one")


def token_rejected(api_base_url: str) -> str:
    """What a start says when getMe is refused (401 or 404: PTB's ``InvalidToken``): from
    Telegram's own server, the token is wrong; from another (TELEGRAM_API_BASE_URL), its
    address may be (operator QA: a URL ending in /bot read as a rejected token, and a good
    token would have been revoked for it). Not PTB's message: it holds the token."""
    if api_base_url == TELEGRAM_API:
        return TOKEN_REJECTED
    return (f"the Bot API server at {api_base_url} (TELEGRAM_API_BASE_URL) refused getMe "
            f"(401 or 404): check TELEGRAM_API_BASE_URL first (that server's root, without "
            f"{BOT_PATH}: the bot adds it), then TELEGRAM_BOT_TOKEN")


def run(application: Application) -> int:  # type: ignore[type-arg]
    """Run ``application`` until SIGINT, SIGTERM or SIGHUP; the process's exit code."""
    loop = new_event_loop()
    asyncio.set_event_loop(loop)
    stopping = asyncio.Event()

    def on_signal() -> None:
        if stopping.is_set():
            return  # already stopping, within seconds
        log.info("stopping")
        stopping.set()
        begin_stop(application)

    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, on_signal)
    runtime_of(application).stop = on_signal
    try:
        return loop.run_until_complete(_serve(application, stopping))
    finally:
        _close(loop)


def new_event_loop() -> asyncio.AbstractEventLoop:
    """uvloop's event loop where it is installed (Linux, macOS): less CPU a move; else
    asyncio's own."""
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


async def _serve(application: Application, stopping: asyncio.Event) -> int:  # type: ignore[type-arg]
    rt = runtime_of(application)
    started = asyncio.Event()
    try:
        await _serve_http_early(rt, started)
        for reach, longest in ((_reach_database, DATABASE_BACKOFF),
                               (_reach_telegram, MAX_BACKOFF)):
            if not await _keep_trying(stopping, partial(reach, application), longest):
                return 0  # stopped before it could be reached
        async with running(application, POLL_TIMEOUT):
            started.set()
            log.info("running: Ctrl-C or SIGTERM stops the bot")
            await stopping.wait()
    except InvalidToken:
        log.critical("%s", token_rejected(rt.config.api_base_url))
        rt.storage.engine.discard_unused()  # (a database file made by this start, empty)
        return 2
    except StorageError as error:
        log.critical("%s", error)
        return 1
    except ConfigError as error:
        log.critical("%s", error)
        return 2
    finally:
        if rt.web is not None:  # (stopped before the bot ran: running() stops it otherwise)
            await rt.web.stop()
            rt.web = None
    log.info("stopped")
    return 0


async def _serve_http_early(rt: Runtime, started: asyncio.Event) -> None:
    """A bot polling, or a fleet worker, with ``HTTP_PORT``: its health and metrics served
    from now on, before the database and Telegram are waited for, as a fleet receiver's are
    (:func:`bot.app._on_start` keeps this server). Ready only once the bot runs."""
    if rt.webhook or rt.http.port is None:
        return  # (a webhook's server comes up with its endpoint: bot.serving.webhook)
    checks = {name: _once(started, check) for name, check in readiness(rt).items()}
    web = WebServer(build_web_app(rt.metrics, checks), rt.http.host, rt.http.port)
    await web.start()  # (a port taken: its one line, exit 2)
    rt.web = web


def _once(started: asyncio.Event, check: Check) -> Check:
    """``check``, failing quietly (False, no line) until ``started`` is set."""
    async def checked() -> bool:
        if not started.is_set():
            return False
        result = check()
        return bool(await result if inspect.isawaitable(result) else result)
    return checked


# What a failed attempt to reach a service says, and the least seconds to wait before the next.
Failure = tuple[str, float]


async def _keep_trying(stopping: asyncio.Event,
                       attempt: Callable[[], Awaitable[Failure | None]],
                       longest: float = MAX_BACKOFF) -> bool:
    """Run ``attempt`` until it succeeds (True) or a signal stops the bot first (False): one
    line per failure, backing off up to ``longest`` seconds. What cannot be cured by
    waiting, ``attempt`` raises."""
    delay = FIRST_BACKOFF
    tries = 1
    while not stopping.is_set():
        failed = await attempt()
        if failed is None:
            return True
        what, least = failed
        wait = max(delay, least)
        log.warning("%s: trying again in %.0f s (attempt %d)", what, wait, tries)
        await wait_set(stopping, wait)
        delay = min(longest, delay * 2)
        tries += 1
    return False


async def _reach_telegram(application: Application) -> Failure | None:  # type: ignore[type-arg]
    """Initialize the bot (its first call, getMe, checks the token)."""
    try:
        await application.bot.initialize()
    except InvalidToken:
        raise
    except (NetworkError, RetryAfter) as error:
        where = runtime_of(application).config.api_base_url
        return (f"cannot reach Telegram at {where} ({error})",
                float(getattr(error, "retry_after", 0) or 0))
    return None


async def _reach_database(application: Application) -> Failure | None:  # type: ignore[type-arg]
    """The database checked before Telegram is waited for: SQLite's folder and file (what
    is wrong there is said at once, not once Telegram answers); on PostgreSQL, one connection
    made and closed: a server that is not up yet (its container starting beside the bot's, a
    restart) is waited for, not a reason to exit; one that refuses the bot (a password, a
    missing database) raises :class:`StorageError`."""
    try:
        await runtime_of(application).storage.engine.probe()
    except StorageUnavailableError as error:
        return str(error), 0.0
    return None


def runtime_of(application: Application) -> Runtime:  # type: ignore[type-arg]
    value = application.bot_data[KEY]
    assert isinstance(value, Runtime)
    return value


def _close(loop: asyncio.AbstractEventLoop) -> None:
    """End what is left (tasks a stop abandoned) without a word, then close the loop."""
    tasks = [task for task in asyncio.all_tasks(loop) if not task.done()]
    for task in tasks:
        task.cancel()
    if tasks:
        loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
    with contextlib.suppress(RuntimeError):
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.run_until_complete(loop.shutdown_default_executor())
    loop.close()
