"""What the running bot says about itself: the readiness checks, the update counter, and the
jobs that refresh the gauges and make sure Telegram answered recently.

The metric objects are :class:`bot.serving.metrics.Metrics`; the parts that play, draw and
send record into them where it happens (service, pictures, limiter, buttons, group sync).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Mapping

from telegram import Update, WebhookInfo
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import Application, ContextTypes, JobQueue

from .errors import StorageError
from .handlers import speech
from .handlers.runtime import Runtime, runtime
from .handlers.updates import privacy_hides, thread_of
from .logs import bind, counted
from .models import Status
from .serving.latency import stamp_arrival
from .serving.webserver import Check

log = logging.getLogger(__name__)
#: Ready only if Telegram answered a call within this many seconds.
TELEGRAM_SILENCE = 300.0
#: Seconds between refreshes of the gauges (outbox, open tables).
GAUGES_EVERY = 15.0
#: Seconds between the calls that keep "Telegram answered" fresh while the bot is idle.
TELEGRAM_CHECK_EVERY = 60.0
#: Update fields, in the order an update is named by (the first one it has).
KINDS = (Update.MESSAGE, Update.CALLBACK_QUERY, Update.MY_CHAT_MEMBER, Update.EDITED_MESSAGE,
         Update.CHAT_MEMBER)


def readiness(rt: Runtime) -> Mapping[str, Check]:
    """Ready: the database answers, and Telegram answered within :data:`TELEGRAM_SILENCE`;
    in webhook mode besides, Telegram's webhook brings this bot its updates (the minute
    check's judgement, :mod:`.serving.webhookwatch`)."""

    async def database() -> bool:
        return await rt.storage.fetch_one("SELECT 1") is not None

    def telegram() -> bool:
        return rt.metrics.telegram_answered_within(TELEGRAM_SILENCE)

    def webhook() -> bool:
        return rt.webhook_watch.ok

    checks: dict[str, Check] = {"database": database, "telegram": telegram}
    if rt.webhook:
        checks["webhook"] = webhook
    return checks


async def arriving(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The first handler of every update (group -1): stamp its arrival, count it, bind its
    chat to the log lines its handling writes, note a group's new message, and learn the
    language its sender chose, for what it tells them alone (:mod:`.handlers.speech`)."""
    if not isinstance(update, Update):
        return
    stamp_arrival()
    kind = next((k for k in KINDS if getattr(update, k, None) is not None), "other")
    runtime(context).metrics.update_handled(kind)
    if update.effective_chat is not None:
        bind(chat=update.effective_chat.id)
    message = update.message  # a new one in a group: the newest of its place the bot knows
    if message is not None and message.chat.type != ChatType.PRIVATE:
        runtime(context).publisher.group.tails.saw(message.chat.id, thread_of(message),
                                                   message.message_id,
                                                   privacy_hides(message, context.bot.id,
                                                                 context.bot.username))
    await speech.learn(runtime(context), update)


def schedule_watch(application: Application) -> None:  # type: ignore[type-arg]
    """The gauges' job and Telegram's check, by name, from the bot's start."""
    job_queue: JobQueue = application.job_queue  # type: ignore[type-arg, assignment]
    job_queue.run_repeating(_gauges, GAUGES_EVERY, first=0.0, name="metrics-gauges")
    job_queue.run_repeating(_telegram, TELEGRAM_CHECK_EVERY, first=TELEGRAM_CHECK_EVERY,
                            name="telegram-check")


async def _gauges(context: ContextTypes.DEFAULT_TYPE) -> None:
    """Best effort: with the database away the gauges keep their last values (the storage
    says the outage, once), and the job never outlives its interval (the scheduler warned of
    a run skipped, every 15 s, through an outage: operator QA)."""
    with contextlib.suppress(StorageError, TimeoutError):
        async with asyncio.timeout(GAUGES_EVERY / 2):
            await refresh_gauges(runtime(context))


async def refresh_gauges(rt: Runtime) -> None:
    """The outbox's depth and age, and the games and lobbies open, as they are now."""
    depth, oldest = await rt.storage.outbox_backlog()
    rt.metrics.outbox(depth, 0.0 if oldest is None else max(0.0, time.time() - oldest))
    games = rt.service.open_games()
    lobbies = sum(1 for game in games if game.status is Status.LOBBY)
    rt.metrics.open_tables(len(games) - lobbies, lobbies)


async def _telegram(context: ContextTypes.DEFAULT_TYPE) -> None:
    """An idle bot makes no calls (a webhook's bot least of all): ask Telegram something
    cheap, and in webhook mode see what it reports of the webhook (:func:`_webhook`)."""
    rt = runtime(context)
    try:
        if rt.webhook:
            _webhook(rt, await context.bot.get_webhook_info())
        else:
            await context.bot.get_me()
    except TelegramError as error:
        log.warning("Telegram did not answer the check: %s", error)
        rt.reach.failed()
    else:
        rt.reach.answered()


def _webhook(rt: Runtime, info: WebhookInfo) -> None:
    """Telegram's backlog in the metrics, whether its webhook is still this bot's (another
    process's with the same token: :class:`~.serving.webhookwatch.WebhookWatch`'s ERROR), and
    else a delivery error new since the last check, in a WARNING."""
    rt.metrics.webhook_backlog(info.pending_update_count)
    since = time.time() - TELEGRAM_CHECK_EVERY
    new_error = (info.last_error_message
                 if info.last_error_message and info.last_error_date is not None
                 and info.last_error_date.timestamp() > since else None)
    assert rt.http.webhook_url is not None
    rt.webhook_watch.saw(info.url, info.pending_update_count, new_error, rt.http.webhook_url,
                         rt.metrics)
    if new_error is not None and rt.webhook_watch.ok:  # (else the watch's ERROR says why)
        log.warning("Telegram reports a webhook error: %s (%s waiting)", new_error,
                    counted(info.pending_update_count, "update"))
