"""The log lines' two formats: text with ``[chat=... game=...]``, and JSON lines; both name
the chat and game bound in their task, and neither ever shows the token."""

from __future__ import annotations

import asyncio
import contextvars
import io
import json
import logging
import re

import pytest
from _pytest.capture import CaptureFixture
from telegram.error import TimedOut

from bot.config import config_from_env
from bot.errors import ConfigError
from bot.logs import (
    LogFormat,
    bind,
    configure,
    counted,
    log_handler,
    secrets_of,
    token_secrets,
)
from bot.serving.webserver import http_settings_from_env

TOKEN = "123456789:AAEexampleexampleexampleexample0001"


def logged(form: LogFormat, write: object) -> list[str]:
    """The lines ``write()`` logs through a handler of ``form``, in a context of its own."""
    stream = io.StringIO()
    logger = logging.getLogger("bot.test_logs")
    logger.propagate = False
    logger.setLevel(logging.INFO)
    handler = log_handler(form, token_secrets(TOKEN), stream)
    logger.addHandler(handler)
    try:
        contextvars.copy_context().run(write, logger)  # type: ignore[arg-type]
    finally:
        logger.removeHandler(handler)
    return stream.getvalue().splitlines()


def events(logger: logging.Logger) -> None:
    logger.info("before any chat")
    bind(chat=-100123)
    logger.info("in the chat")
    bind(game=42)
    logger.warning("calling %s/bot%s/getMe", "https://api.telegram.org", TOKEN)
    try:
        raise ValueError(f"the token `{TOKEN}` was rejected")
    except ValueError:
        logger.exception("failed")


def test_text_lines_name_chat_and_game_and_hide_the_token() -> None:
    lines = logged(LogFormat.TEXT, events)
    stamp = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}"
    assert re.fullmatch(stamp + " INFO bot.test_logs: before any chat", lines[0])
    assert re.fullmatch(stamp + r" INFO bot.test_logs \[chat=-100123\]: in the chat", lines[1])
    assert re.fullmatch(stamp + r" WARNING bot.test_logs \[chat=-100123 game=42\]: calling "
                        r"https://api.telegram.org/bot<token>/getMe", lines[2])
    assert lines[3].endswith("ERROR bot.test_logs [chat=-100123 game=42]: failed")
    assert lines[-1] == "ValueError: the token `<token>` was rejected"
    assert all(TOKEN.partition(":")[2] not in line for line in lines)


def test_json_lines_are_one_object_each_with_chat_and_game() -> None:
    lines = [json.loads(line) for line in logged(LogFormat.JSON, events)]
    assert [(line["level"], line["message"], line.get("chat"), line.get("game"))
            for line in lines] == [
        ("INFO", "before any chat", None, None),
        ("INFO", "in the chat", -100123, None),
        ("WARNING", "calling https://api.telegram.org/bot<token>/getMe", -100123, 42),
        ("ERROR", "failed", -100123, 42),
    ]
    assert lines[-1]["traceback"].endswith("ValueError: the token `<token>` was rejected")
    assert all(line["logger"] == "bot.test_logs" for line in lines)


def test_tasks_started_after_binding_inherit_it() -> None:
    def in_tasks(logger: logging.Logger) -> None:
        async def game(number: int) -> None:
            bind(chat=-1, game=number)
            await asyncio.create_task(sync())

        async def sync() -> None:
            logger.info("synced")

        async def both() -> None:
            await asyncio.gather(game(1), game(2))

        asyncio.run(both())

    lines = sorted(json.loads(line)["game"] for line in logged(LogFormat.JSON, in_tasks))
    assert lines == [1, 2]


def test_the_format_is_a_setting() -> None:
    base = {"TELEGRAM_BOT_TOKEN": TOKEN}
    assert config_from_env(base).log_format is LogFormat.TEXT
    assert config_from_env({**base, "LOG_FORMAT": "JSON"}).log_format is LogFormat.JSON
    with pytest.raises(ConfigError, match=r"^LOG_FORMAT must be text or json, not 'xml'$"):
        config_from_env({**base, "LOG_FORMAT": "xml"})


def test_the_webhook_secret_and_the_database_password_are_never_logged(
    capsys: CaptureFixture[str],
) -> None:
    """Through the process's own logging (:func:`configure`, as ``python -m bot`` and
    ``python -m bot.fleet`` set it up): PTB's debug line quotes setWebhook's secret_token,
    and a URL may quote the database's password."""
    env = {"TELEGRAM_BOT_TOKEN": TOKEN, "LOG_LEVEL": "DEBUG",
           "WEBHOOK_URL": "https://bot.example/telegram", "WEBHOOK_SECRET": "MySecretValue123",
           "DATABASE_URL": "postgresql://domino:pa%40ss-word-1@db.example:5432/domino"}
    config, http = config_from_env(env), http_settings_from_env(env)
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        secrets = secrets_of(config.token, http.webhook_secret, config.database_url)
        configure(config.log_level, config.log_format, secrets)
        logging.getLogger("telegram.ext.ExtBot").debug(
            "Calling Bot API endpoint `%s` with parameters `%s`", "setWebhook",
            {"url": http.webhook_url, "secret_token": "MySecretValue123"})
        logging.getLogger("bot.storage").warning(
            "cannot reach %s (password pa@ss-word-1 rejected)", env["DATABASE_URL"])
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in handlers:
            root.addHandler(handler)
        root.setLevel(level)
    lines = [line.split(" ", 2)[2] for line in capsys.readouterr().err.splitlines()]
    assert lines == [
        "DEBUG telegram.ext.ExtBot: Calling Bot API endpoint `setWebhook` with parameters "
        "`{'url': 'https://bot.example/telegram', 'secret_token': '<webhook-secret>'}`",
        "WARNING bot.storage: cannot reach postgresql://domino:<password>@db.example:5432/domino "
        "(password <password> rejected)",
    ]


def test_a_short_secret_is_hidden_only_where_it_is_a_password() -> None:
    """A short password would mangle ordinary words if replaced everywhere: only the URL's
    ``:password@`` is hidden then."""
    secrets = secrets_of(TOKEN, "abc", "postgresql://bot:pass@db/domino")
    assert secrets[":pass@"] == ":<password>@" and "pass" not in secrets
    assert secrets["'abc'"] == "'<webhook-secret>'" and "abc" not in secrets


def test_a_password_given_as_the_urls_parameter_is_hidden_too() -> None:
    """libpq and asyncpg also take the password as ``?password=``."""
    secrets = secrets_of(TOKEN, None, "postgresql://bot@db/domino?sslmode=require&"
                                      "password=sw%40rdfish-long")
    assert secrets["sw%40rdfish-long"] == secrets["sw@rdfish-long"] == "<password>"
    short = secrets_of(TOKEN, None, "postgresql://bot@db/domino?password=pw")
    assert short["password=pw"] == "password=<password>" and "pw" not in short


def test_counts_agree_with_their_nouns() -> None:
    assert [counted(n, "open game") for n in (0, 1, 2)] == [
        "0 open games", "1 open game", "2 open games"]
    assert counted(1, "worker live", "workers live") == "1 worker live"
    assert counted(3, "worker live", "workers live") == "3 workers live"


def test_a_stops_last_poll_that_fails_is_one_warning_line() -> None:
    """PTB logs an ERROR and a traceback when the last getUpdates of a stop fails (Telegram
    no longer answering): the operator reads one WARNING line saying what it means."""
    stream = io.StringIO()
    updater = logging.getLogger("telegram.ext.Updater")
    handler = log_handler(LogFormat.TEXT, (), stream)
    updater.addHandler(handler)
    try:
        raise TimedOut("Timed out")
    except TimedOut:  # as PTB's Updater logs it
        updater.exception("Error while calling `get_updates` one more time to mark all "
                          "fetched updates. Suppressing error to ensure graceful shutdown.")
    finally:
        updater.removeHandler(handler)
    [line] = stream.getvalue().splitlines()
    assert line.endswith("WARNING telegram.ext.Updater: the stop's last getUpdates failed "
                         "(TimedOut: Timed out): Telegram may send the last updates read "
                         "again at the next start")
