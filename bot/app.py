"""Wiring: the Application, its handlers, and start-up recovery."""

from __future__ import annotations

import logging
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from telegram import BotCommand, Update
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    MessageHandler,
    filters,
)

from . import handlers
from .config import Settings
from .games import GameService
from .locks import Locks
from .pictures import PictureMaker
from .publisher import Publisher
from .runtime import KEY, Runtime
from .storage import Storage
from .texts import TextComposer

log = logging.getLogger(__name__)

COMMANDS = (
    ("newgame", "Open a domino table"),
    ("hand", "Send me my tiles again"),
    ("stop", "Stop the running game"),
    ("rules", "How the games are played"),
    ("scoreboard", "Who wins in this group"),
    ("help", "What I can do"),
)


def build_application(
    settings: Settings, seed_source: Callable[[], int] | None = None
) -> Application:  # type: ignore[type-arg]
    """The bot, ready to run: handlers registered, storage opened and games resumed on start."""
    limiter = AIORateLimiter(
        overall_max_rate=settings.messages_per_second,
        overall_time_period=1,
        group_max_rate=settings.group_messages_per_minute,
        group_time_period=60,
        max_retries=3,
    )
    application = (
        ApplicationBuilder()
        .token(settings.token)
        .base_url(settings.bot_url)
        .base_file_url(settings.file_url)
        .rate_limiter(limiter)
        .concurrent_updates(True)
        .post_init(_on_start)
        .post_shutdown(_on_stop)
        .build()
    )
    storage = Storage(settings.database_path)
    pictures = PictureMaker(settings.table_theme)
    locks = Locks()
    service = GameService(
        storage, TextComposer(pictures), seed_source or (lambda: secrets.randbits(64))
    )
    publisher = Publisher(application.bot, service, pictures, locks)
    application.bot_data[KEY] = Runtime(settings, storage, service, publisher, locks, pictures)

    application.add_handler(CommandHandler("start", handlers.start_command))
    application.add_handler(CommandHandler("newgame", handlers.newgame_command))
    application.add_handler(CommandHandler("stop", handlers.stop_command))
    application.add_handler(CommandHandler("hand", handlers.hand_command))
    application.add_handler(CommandHandler("rules", handlers.rules_command))
    application.add_handler(CommandHandler("help", handlers.help_command))
    application.add_handler(CommandHandler("scoreboard", handlers.scoreboard_command))
    application.add_handler(CallbackQueryHandler(handlers.button_handler))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, handlers.migrate_handler))
    application.add_error_handler(handlers.error_handler)
    return application


async def _on_start(application: Application) -> None:  # type: ignore[type-arg]
    """Open storage, learn our username, register commands, and resume every open game."""
    rt: Runtime = application.bot_data[KEY]
    await rt.storage.open()
    me = await application.bot.get_me()
    rt.publisher.bot_username = me.username or ""
    await application.bot.set_my_commands([BotCommand(c, d) for c, d in COMMANDS])
    games = await rt.service.load_open_games()
    for game_id in sorted({g.game_id for g in games} | set(await rt.storage.games_with_outbox())):
        if rt.service.game(game_id) is None:
            await rt.service.reload(game_id)  # a finished game with announcements left
        rt.publisher.request(game_id)
    log.info("resumed %d open games", len(games))


async def _on_stop(application: Application) -> None:  # type: ignore[type-arg]
    rt: Runtime = application.bot_data[KEY]
    await rt.publisher.idle()
    await rt.storage.close()


def allowed_updates() -> list[str]:
    return [Update.MESSAGE, Update.CALLBACK_QUERY]


@asynccontextmanager
async def running(application: Application) -> AsyncIterator[Application]:  # type: ignore[type-arg]
    """Run the bot inside an existing event loop (the demo and the end-to-end tests)."""
    await application.initialize()
    assert application.post_init is not None
    await application.post_init(application)
    assert application.updater is not None
    await application.updater.start_polling(
        poll_interval=0, timeout=1, allowed_updates=allowed_updates()
    )
    await application.start()
    try:
        yield application
    finally:
        await application.updater.stop()
        await application.stop()
        assert application.post_shutdown is not None
        await application.post_shutdown(application)
        await application.shutdown()
