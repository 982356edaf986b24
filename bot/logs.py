"""The bot's log lines: one per event, naming the chat and the game it concerns, as text or
as JSON lines (``LOG_FORMAT=json``, for log collectors), and never the token.

The chat and the game come from context variables, not from each message: the update's own
handler binds its chat (:func:`bind`), a committed change binds its game, and asyncio copies
them into the tasks started meanwhile (a game's syncs), so every line logged on the way says
where it belongs; a job starts from none (:class:`FreshJobQueue`). :class:`Redacting`
removes secrets from every line, whatever logged it: the token (PTB's error texts quote it,
and httpx logs request URLs, which contain it), the webhook's secret (PTB's debug lines quote
setWebhook's parameters) and DATABASE_URL's password (:func:`secrets_of`).
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Iterable, Mapping
from contextvars import ContextVar
from enum import StrEnum
from typing import Any, TextIO
from urllib.parse import unquote, urlsplit

from telegram.ext import Job, JobQueue

from .models import Game, Status

_chat: ContextVar[int | None] = ContextVar("log_chat", default=None)
_game: ContextVar[int | None] = ContextVar("log_game", default=None)
#: Loggers that say every request (httpx: with its URL, which holds the token), every job
#: run or every SQLite statement (aiosqlite: two lines each, most of a debugging bot's
#: lines): warnings only, even at LOG_LEVEL=DEBUG.
CHATTY = ("httpx", "httpcore", "aiohttp.access", "apscheduler", "aiosqlite")
REDACTED = "<token>"
#: A secret shorter than this is hidden only where it is quoted as such (``:password@``,
#: ``'secret'``): alone, it would mangle ordinary words.
SHORTEST_SECRET = 8
#: Secrets, or secrets and what each is replaced by (a plain secret: by ``<token>``).
Secrets = Mapping[str, str] | Iterable[str]


log = logging.getLogger(__name__)


class LogFormat(StrEnum):
    TEXT = "text"
    JSON = "json"


def bind(chat: int | None = None, game: int | None = None) -> None:
    """From now on, in this task and the tasks it starts, lines concern ``chat``/``game``."""
    if chat is not None:
        _chat.set(chat)
    if game is not None:
        _game.set(game)


def unbind() -> None:
    """From now on, in this task and the tasks it starts, lines concern no chat nor game."""
    _chat.set(None)
    _game.set(None)


class FreshJobQueue(JobQueue):  # type: ignore[type-arg]
    """PTB's job queue, whose every job starts with lines about no chat nor game. Its
    scheduler's timer is armed again from whatever task added the latest job (a move's
    update arming its turn timer, bound to that chat and game), and the jobs it runs took
    that task's context (operator QA: the health check's warning named an unrelated game).
    A job about a game binds its own."""

    @staticmethod
    async def job_callback(job_queue: JobQueue[Any], job: Job[Any]) -> None:
        unbind()  # (in the scheduler's task for this run: the job's own task copies it)
        await JobQueue.job_callback(job_queue, job)


class Context(logging.Filter):
    """Adds ``chat`` and ``game`` (None when unknown) to every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.chat = _chat.get()
        record.game = _game.get()
        return True


class Redacting(logging.Filter):
    """Replaces each secret in a record's message and traceback by its mark (``<token>``,
    ``<webhook-secret>``, ``<password>``), the longest first."""

    def __init__(self, secrets: Secrets) -> None:
        super().__init__()
        marks = secrets if isinstance(secrets, Mapping) else dict.fromkeys(secrets, REDACTED)
        self._secrets = sorted(((s, m) for s, m in marks.items() if s),
                               key=lambda pair: len(pair[0]), reverse=True)

    def redact(self, text: str) -> str:
        for secret, mark in self._secrets:
            text = text.replace(secret, mark)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        message = self.redact(record.getMessage())
        if record.exc_info:
            formatter = logging.Formatter()
            record.exc_text = self.redact(formatter.formatException(record.exc_info))
            record.exc_info = None
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        record.msg, record.args = message, None
        return True


class ForeseenErrors(logging.Filter):
    """python-telegram-bot's ERROR and traceback for a failure the bot expects, as the one
    WARNING line an operator needs: the last getUpdates of a stop, which a Telegram that no
    longer answers fails (operator QA); its updates come again at the next start."""

    LAST_POLL = "Error while calling `get_updates` one more time"

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == "telegram.ext.Updater" and str(record.msg).startswith(
                self.LAST_POLL):
            error = record.exc_info[1] if record.exc_info else None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.msg = ("the stop's last getUpdates failed (%s): Telegram may send the last "
                          "updates read again at the next start")
            record.args = (f"{type(error).__name__}: {error}" if error else "no answer",)
            record.exc_info, record.exc_text = None, None
        return True


class TextFormatter(logging.Formatter):
    """``time LEVEL logger [chat=... game=...]: message`` on one line (a traceback
    follows on its own lines only for an unexpected error)."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s%(where)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        parts = [f"{name}={value}" for name in ("chat", "game")
                 if (value := getattr(record, name, None)) is not None]
        record.where = f" [{' '.join(parts)}]" if parts else ""
        return super().format(record)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, chat, game (and the
    traceback as one string)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in ("chat", "game"):
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["traceback"] = record.exc_text
        return json.dumps(line, ensure_ascii=False)


def log_handler(form: LogFormat, secrets: Secrets = (),
                stream: TextIO | None = None) -> logging.Handler:
    """A handler writing ``form`` lines to ``stream`` (stderr), with the chat and game
    context and the secrets redacted."""
    handler = logging.StreamHandler(sys.stderr if stream is None else stream)
    handler.addFilter(Context())
    handler.addFilter(ForeseenErrors())
    handler.addFilter(Redacting(secrets))
    handler.setFormatter(JsonFormatter() if form is LogFormat.JSON else TextFormatter())
    return handler


def configure(level: str, form: LogFormat, secrets: Secrets = ()) -> None:
    """The process's logging: one handler on stderr (:func:`log_handler`), and the request
    loggers quiet."""
    handler = log_handler(form, secrets)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in CHATTY:
        logging.getLogger(name).setLevel(logging.WARNING)


def counted(count: int, noun: str, plural: str = "") -> str:
    """``1 game``, ``2 games``: a count and its noun, for the operator's lines (English,
    not the catalogues)."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def token_secrets(token: str) -> tuple[str, ...]:
    """What of a bot token must never be logged: the token, and its part after the colon (a
    URL may quote either)."""
    return (token, token.partition(":")[2])


def secrets_of(token: str, webhook_secret: str | None = None,
               database_url: str | None = None) -> dict[str, str]:
    """Every secret a process's settings hold, each with its mark: the token, the webhook's
    secret, and DATABASE_URL's password (as the URL quotes it, and decoded), given before
    the host or as its ``password=`` parameter (as libpq and asyncpg also take it)."""
    hidden = dict.fromkeys(token_secrets(token), REDACTED)
    if webhook_secret:
        _hide(hidden, webhook_secret, "'{}'", "<webhook-secret>")
    parts = urlsplit(database_url or "")
    password = parts.password or ""
    for form in {password, unquote(password)} - {""}:
        _hide(hidden, form, ":{}@", "<password>")
    for name, _, value in (pair.partition("=") for pair in parts.query.split("&")):
        if name == "password":
            for form in {value, unquote(value)} - {""}:
                _hide(hidden, form, "password={}", "<password>")
    return hidden


def _hide(hidden: dict[str, str], secret: str, quoted: str, mark: str) -> None:
    """``secret`` where ``quoted`` quotes it, and anywhere when long enough."""
    hidden[quoted.format(secret)] = quoted.format(mark)
    if len(secret) >= SHORTEST_SECRET:
        hidden[secret] = mark


class StatusLines:
    """One line when a game opens, starts or ends, each said once: a game loaded as it was (at
    a restart, or by a fleet worker taking its shard over) is not said to start again."""

    def __init__(self) -> None:
        self._said: dict[int, Status] = {}  # the open games' last status said (or loaded)

    def loaded(self, games: Iterable[Game]) -> None:
        """``games`` are back in memory as they were: nothing happened to them."""
        for game in games:
            if game.status.open:
                self._said[game.game_id] = game.status

    def forget(self, game_ids: Iterable[int]) -> None:
        """``game_ids`` left this process (a fleet worker gave their shard away)."""
        for game_id in game_ids:
            self._said.pop(game_id, None)

    def changed(self, game: Game) -> None:
        """A committed change of ``game``: its line, if its status is new."""
        if self._said.get(game.game_id) is not game.status:
            if game.status is Status.LOBBY:
                log.info("table opened: %s", game.game_name)
            elif game.status is Status.PLAYING:
                log.info("game started: %s, %d players", game.game_name, len(game.players))
            else:
                log.info("game %s", game.status.value)
        if game.status.open:
            self._said[game.game_id] = game.status
        else:
            self._said.pop(game.game_id, None)
