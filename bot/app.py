"""Wiring: the Application, its handlers, and start-up recovery."""

from __future__ import annotations

import asyncio
import logging
import secrets
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import partial
from typing import TYPE_CHECKING

from telegram import Update
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from engine import SEED_BYTES

from .config import BotConfig
from .conflicts import PollConflict, PollWatch, poll_failed
from .errors import ConfigError, StorageError
from .fleet.settings import (
    POOL_APPLICATION,
    SETTINGS_KEY,
    WORKER_KEY,
    FleetSettings,
    application_name,
)
from .fleet.worker import FleetWorker
from .handlers import buttons, chatevents, commands, infocommands, privatetext, start
from .handlers.boards import scoreboard_command, stats_command
from .handlers.commandmenu import register_commands
from .handlers.menu import language_command, settings_command
from .handlers.replays import replay_command
from .handlers.runtime import KEY, Runtime
from .handlers.timers import Timers
from .handlers.updates import error_handler
from .handlers.verify import verify_command
from .health import arriving, readiness, schedule_watch
from .logs import FreshJobQueue, StatusLines, bind, counted
from .models import Game
from .presentation.callbacks import PATTERNS
from .presentation.composer import TextComposer
from .presentation.pictures import PictureMaker
from .publishing.floodwindows import Limits
from .publishing.metering import MeteredLimiter
from .publishing.publisher import Publisher
from .publishing.ratelimit import FloodLimiter
from .publishing.replays import Replays
from .publishing.rewound import tell_rewound
from .publishing.tails import Tails
from .publishing.transport import bot_request, poll_request
from .reach import Reach
from .service import GameService
from .service.locks import Locks
from .serving.latency import TableLatency
from .serving.metrics import Metrics
from .serving.webhook import serving_webhook
from .serving.webserver import HttpSettings, WebServer, build_web_app, http_settings_from_env
from .storage import Storage
from .storage.owner import agree_bot, bot_id_of, refuse_if_other
from .storage.restores import take_mark

if TYPE_CHECKING:  # asyncpg is imported only where PostgreSQL is used
    from .storage.claim import DatabaseClaim

log = logging.getLogger(__name__)
#: Seconds a stopping bot goes on sending what is due, before it abandons the rest.
STOP_GRACE = 2.0
POLLING_TASK = "Updater:start_polling:polling_task"  # the name PTB 22 gives it
#: The long poll itself runs in a task of its own (PTB 22's ``polling_action_cb``), which the
#: polling task only waits for: cancelling the polling task leaves it holding getUpdates's one
#: connection, so PTB's last getUpdates (the one that confirms the updates read) timed out.
POLL_CALL = "polling_action_cb"
#: The interpreter's switch interval while the bot runs (Python's default: 5 ms). The pictures'
#: thread runs Python between Pillow's and zlib's calls (a picture's strokes, compared with the
#: last one's), and a thread waiting for the interpreter lock waits up to the interval before
#: the holder is asked to let go: each of a commit's hops to SQLite's thread, and the event
#: loop's turns, while a move's table is drawn. 0.5 ms lets the commit go on beside the picture
#: (issue 23: docs/PERFORMANCE.md).
SWITCH_INTERVAL = 0.0005


def build_application(
    config: BotConfig, seed_source: Callable[[], bytes] | None = None,
    http: HttpSettings | None = None, fleet: FleetSettings | None = None,
) -> Application:  # type: ignore[type-arg]
    """The bot, ready to run: handlers registered, storage opened and games resumed on start.
    ``http`` says webhook or polling, and where the HTTP server listens (default: polling,
    no server). With ``fleet`` it is a fleet worker (:mod:`bot.fleet`): no updater and no
    webhook (the receivers take the updates), and the games of the shards it owns."""
    http = http if http is not None else http_settings_from_env({})
    if fleet is not None and http.webhook_url is not None:
        raise ConfigError("a fleet worker takes no webhook: the receivers do")
    metrics = Metrics()
    reach, conflict = Reach(), PollConflict()
    tails = Tails()  # the newest message the bot knows of in each place
    limiter = FloodLimiter(Limits(
        overall=(config.messages_per_second, 1.0),
        group=(config.group_messages_per_minute, config.group_rate_period),
        private=(config.private_messages_per_period, config.private_rate_period),
    ))
    builder = (
        ApplicationBuilder()
        .token(config.token)
        .base_url(config.bot_url)
        .base_file_url(config.file_url)
        .request(bot_request())
        .get_updates_request(poll_request(PollWatch(reach, conflict)))
        # counts every call, learns of every message sent, then limits it
        .rate_limiter(MeteredLimiter(limiter, metrics, on_answer=tails.answered))
        .concurrent_updates(True)
        .job_queue(FreshJobQueue())  # (each job's lines its own: none of an update's)
        .post_init(_on_start)
        .post_stop(_on_stop)
        .post_shutdown(_on_shutdown)
    )
    if http.webhook_url is not None or fleet is not None:
        builder = builder.updater(None)  # Telegram posts the updates: nothing polls
    application = builder.build()
    storage = Storage(config.database_url or config.database_path)
    pictures = PictureMaker(config.table_theme)
    pictures.on_drawn = metrics.picture_drawn
    limiter.on_flood_wait = metrics.flood_waited
    locks = Locks()
    service = GameService(
        storage, TextComposer(pictures), seed_source or (lambda: secrets.token_bytes(SEED_BYTES)),
        draw=pictures.drawn,
    )
    publisher = Publisher(application.bot, service, pictures, locks, limiter=limiter,
                          tails=tails)
    latency = TableLatency(metrics)
    publisher.group.on_table_shown = latency.shown
    assert application.job_queue is not None
    timers = Timers(application.job_queue, service, locks,
                    computer_pause=config.computer_pause)

    status_lines = StatusLines()

    def changed(game: Game) -> None:
        bind(chat=game.chat_id, game=game.game_id)  # this task's lines, and its syncs'
        status_lines.changed(game)
        publisher.request(game.game_id)
        timers.schedule(game)

    def moved(game: Game) -> None:
        metrics.move_played(game.game_name)
        latency.moved(game.game_id, game.move_no)

    service.on_change = changed
    service.on_move = moved
    service.on_moving = publisher.group.draw_early
    application.bot_data[KEY] = Runtime(
        config, storage, service, publisher, locks, pictures, timers, limiter, metrics, http,
        latency, Replays(application.bot, pictures), status_lines, reach=reach,
        conflict=conflict,
    )
    if fleet is not None:
        application.bot_data[SETTINGS_KEY] = fleet
        storage.name_connections(application_name(POOL_APPLICATION, fleet.worker_name))

    application.add_handler(TypeHandler(Update, arriving), group=-1)

    for name, callback in (
        ("start", start.start_command), ("newgame", commands.newgame_command),
        ("notify", infocommands.notify_command), ("table", commands.table_command),
        ("stop", commands.stop_command), ("leave", commands.leave_command),
        ("settings", settings_command), ("hand", commands.hand_command),
        ("language", language_command), ("lang", language_command),
        ("rules", infocommands.rules_command), ("help", infocommands.help_command),
        ("scoreboard", scoreboard_command), ("stats", stats_command),
        ("replay", replay_command),
        ("verify", verify_command),
    ):
        application.add_handler(CommandHandler(name, callback))
    for family in buttons.ROUTES:
        application.add_handler(
            CallbackQueryHandler(buttons.answering(family), pattern=PATTERNS[family])
        )
    application.add_handler(CallbackQueryHandler(buttons.unknown))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE,
                                           chatevents.migrate_handler))
    application.add_handler(MessageHandler(filters.StatusUpdate.FORUM_TOPIC_CLOSED,
                                           chatevents.topic_closed_handler))
    application.add_handler(MessageHandler(filters.ChatType.GROUPS,
                                           chatevents.topic_named_handler), group=1)
    # A person's plain text in private, answered once (groups send none: privacy mode)
    application.add_handler(MessageHandler(
        filters.ChatType.PRIVATE & filters.UpdateType.MESSAGE & filters.TEXT
        & ~filters.COMMAND & ~filters.FORWARDED & ~filters.VIA_BOT,
        privatetext.private_text_handler))
    application.add_handler(
        ChatMemberHandler(chatevents.membership_handler, ChatMemberHandler.MY_CHAT_MEMBER)
    )
    application.add_error_handler(error_handler)
    return application


async def _on_start(application: Application) -> None:  # type: ignore[type-arg]
    """Open storage, learn our username, register commands, and resume every open game."""
    rt: Runtime = application.bot_data[KEY]
    sys.setswitchinterval(SWITCH_INTERVAL)
    fleet = application.bot_data.get(SETTINGS_KEY)
    rt.claim = await claim_database(rt, shared=fleet is not None)  # before any migration
    await rt.storage.open()
    rt.timers.thinker.start()  # the computer players' process pool
    me = await application.bot.get_me()
    # one bot a database: another bot's token is refused before it touches a game (once)
    await agree_bot(rt.storage, bot_id_of(rt.config.token), me.username)
    rt.publisher.messenger.bot_username = me.username or ""
    await register_commands(application.bot)
    # (a fleet worker loads the games of each shard as it takes it)
    resumed = await _resume(rt) if fleet is None else 0
    if rt.webhook or rt.http.port is not None:  # someone reads health and metrics
        schedule_watch(application)
    if not rt.webhook and rt.http.port is not None and rt.web is None:  # polling, with
        # health and metrics (bot.launch serves them from before the waits: kept)
        rt.web = WebServer(build_web_app(rt.metrics, readiness(rt)), rt.http.host, rt.http.port)
        await rt.web.start()
    # once started (a failure before is its one line): a mistyped path shows as new
    log.info("database: %s", rt.storage.described())
    if fleet is None:
        log.info("resumed %s", counted(resumed, "open game"))
    else:
        worker = FleetWorker(application, fleet)
        await worker.start()
        application.bot_data[WORKER_KEY] = worker


async def claim_database(rt: Runtime, *, shared: bool) -> DatabaseClaim | None:
    """On PostgreSQL, this bot's hold on its database (:mod:`bot.storage.claim`): a fleet
    worker's shared, a single bot's whole; on SQLite ``bot.__main__`` holds the file."""
    engine = rt.storage.engine
    if engine.dialect != "postgresql":
        return None
    from .storage.claim import DatabaseClaim
    from .storage.postgres import PostgresEngine

    assert isinstance(engine, PostgresEngine)

    def taken(why: str) -> None:
        log.critical("%s", why)
        if rt.stop is not None:
            rt.stop()

    claim = DatabaseClaim(engine, shared=shared, on_taken=taken)
    try:
        await claim.take()  # refused: running() shuts what started down
    except StorageError:  # held by another bot's process: that is the cause to tell
        await refuse_if_other(engine, bot_id_of(rt.config.token))
        raise
    return claim


async def _resume(rt: Runtime) -> int:
    """Every open game back in memory, its overdue turns resolved and its timers armed, and a
    sync of each game with announcements left or messages to repair; how many are open."""
    games = await rt.service.load_open_games()
    rt.status_lines.loaded(games)
    backup = await take_mark(rt.storage)
    if backup is not None:  # what the chats show is newer than these games know
        log.info("started on a restored backup (made %s): the messages of %s are sent anew",
                 time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(backup)),
                 counted(len(games), "open game"))
        await tell_rewound(rt.storage, games, backup)  # (goes out before the tables)
        for game in games:
            await rt.service.fresh_turn(game)  # a whole turn from now, not an overdue one
            rt.publisher.send_anew(game)
            await rt.service.save_messages(game)  # kept if the bot stops before its sync
    # A game closed just before the stop may have its table's closing edit still to make
    # (it goes after the announcements, under the group's budget: QA, a SIGKILL seconds
    # after a match's end left its table saying whose turn it was, with My tiles). Its sync
    # edits nothing that is up to date.
    closed = await rt.service.closed_lately()
    for game_id in sorted({g.game_id for g in games} | set(await rt.service.outbox_games())
                          | set(closed)):
        if rt.service.game(game_id) is None:
            await rt.service.reload(game_id)  # a finished game with announcements left
        rt.publisher.request(game_id)
    await rt.timers.resume()
    return len(games)


def begin_stop(application: Application) -> None:  # type: ignore[type-arg]
    """Stopping starts: flood waits and failed syncs are no longer waited out or retried,
    and after ``STOP_GRACE`` seconds every call still waiting or in flight is abandoned.
    What was committed stays in the database (the outbox included) and the syncs after the
    restart send it."""
    rt: Runtime = application.bot_data[KEY]
    rt.stopping = True
    rt.publisher.stop_retrying()
    rt.limiter.drain(STOP_GRACE)
    # No timer starts any more (a turn's time-out, a computer's move): one started while the
    # job queue shuts down was cancelled mid-way, an ERROR and a traceback in the log
    # (operator QA). The jobs are the games' state, armed again at the next start.
    scheduler = application.job_queue.scheduler if application.job_queue else None
    if scheduler is not None and scheduler.running:
        scheduler.pause()  # (a paused one: nothing)
    # PTB's polling sleeps up to 30 s between failed getUpdates, and its stop waits for
    # that sleep: end it now (its stop takes the cancellation; the offset is not advanced,
    # so no update is lost).
    for task in asyncio.all_tasks():
        if task.get_name() == POLLING_TASK or _is_long_poll(task):
            task.cancel()


def _is_long_poll(task: asyncio.Task[object]) -> bool:
    return getattr(task.get_coro(), "__qualname__", "").endswith(POLL_CALL)


async def _on_stop(application: Application) -> None:  # type: ignore[type-arg]
    """Finish sending while the HTTP client is still open (before shutdown closes it), for
    as long as the grace period lasts."""
    rt: Runtime = application.bot_data[KEY]
    begin_stop(application)
    await rt.publisher.idle()
    await rt.replays.idle(STOP_GRACE)  # a replay still drawn after that is given up


async def _on_shutdown(application: Application) -> None:  # type: ignore[type-arg]
    rt: Runtime = application.bot_data[KEY]
    if rt.web is not None:
        await rt.web.stop()
        rt.web = None
    rt.timers.thinker.close()  # (never waits for a worker)
    rt.publisher.close()
    await rt.storage.close()
    claim, rt.claim = rt.claim, None
    if claim is not None:  # the last thing: another bot may start on the database now
        await claim.release()


def allowed_updates() -> list[str]:
    return [Update.MESSAGE, Update.CALLBACK_QUERY, Update.MY_CHAT_MEMBER]


@asynccontextmanager
async def running(
    application: Application, poll_timeout: int = 1,  # type: ignore[type-arg]
) -> AsyncIterator[Application]:  # type: ignore[type-arg]
    """Run the bot inside an existing event loop: long polling (each getUpdates waiting up to
    ``poll_timeout`` seconds), or in webhook mode the webhook served where polling would
    start (its server up before setWebhook, down first)."""
    rt: Runtime = application.bot_data[KEY]
    await application.initialize()
    assert application.post_init is not None and application.post_shutdown is not None
    try:
        await application.post_init(application)
    except BaseException:  # what did start (storage, the pool) must not keep the process
        # The syncs the resume asked for stop first: the storage closes under them next
        # (operator QA: each was an ERROR with a traceback before the start's one line).
        await rt.publisher.abandon()
        await application.shutdown()
        await application.post_shutdown(application)
        raise
    updater = application.updater
    if updater is not None:
        await updater.start_polling(poll_interval=0, timeout=poll_timeout,
                                    allowed_updates=allowed_updates(),
                                    error_callback=partial(poll_failed, rt.reach, rt.conflict))
        log.info("polling for updates as @%s (no WEBHOOK_URL set)",
                 rt.publisher.messenger.bot_username)
    await application.start()
    if rt.stopping:  # stopped while starting: the job queue, started now, starts no timer
        begin_stop(application)
    try:
        if rt.webhook:
            async with serving_webhook(application, rt.http, rt.metrics, readiness(rt),
                                       allowed_updates()):
                yield application
        else:  # polling, or a fleet worker (fed from the fleet's queue)
            yield application
    finally:
        # The same order as run_polling: stop, post_stop, shutdown, post_shutdown; a fleet
        # worker first gives its shards back (what is in flight finishes, with the job queue).
        worker = application.bot_data.pop(WORKER_KEY, None)
        if worker is not None:
            await worker.stop()
        if updater is not None:
            await updater.stop()
        await application.stop()
        assert application.post_stop is not None and application.post_shutdown is not None
        await application.post_stop(application)
        await application.shutdown()
        await application.post_shutdown(application)
