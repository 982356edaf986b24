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

from bot.config import config_from_env
from bot.errors import ConfigError
from bot.logs import LogFormat, bind, log_handler, token_secrets

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
