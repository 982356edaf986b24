"""The bot's configuration, from the environment and an optional ``.env`` file (a group's
own settings are :class:`bot.service.settings.GroupSettings`)."""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .errors import ConfigError
from .logs import LogFormat
from .settingnames import typo_of

TOKEN_PATTERN = re.compile(r"^[0-9]{5,16}:[A-Za-z0-9_-]{30,64}$")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
#: Telegram's own Bot API server: TELEGRAM_API_BASE_URL's default.
TELEGRAM_API = "https://api.telegram.org"
#: What the bot adds to TELEGRAM_API_BASE_URL for its calls (``/bot<token>/getMe``).
BOT_PATH = "/bot"


@dataclass(frozen=True, slots=True)
class BotConfig:
    token: str
    api_base_url: str = TELEGRAM_API
    database_path: Path = Path("data/dominoes.sqlite3")
    # postgresql://user:pass@host:port/db: PostgreSQL instead of the SQLite file (the fleet).
    # Never shown: it may hold a password.
    database_url: str | None = field(default=None, repr=False)
    log_level: str = "INFO"
    log_format: LogFormat = LogFormat.TEXT  # json: one JSON object a line
    # Telegram's limits; tests against the fake server raise them to run fast.
    group_messages_per_minute: int = 20
    messages_per_second: int = 30
    group_rate_period: float = 60.0  # seconds the group budget spans (tests compress it)
    # "About one message a second" in one private chat, with short bursts (Telegram's FAQ).
    private_messages_per_period: int = 3
    private_rate_period: float = 3.0
    computer_pause: float = 2.0  # seconds between a computer player's turn and its move
    table_theme: str = "classic"

    @property
    def bot_url(self) -> str:
        return f"{self.api_base_url}{BOT_PATH}"

    @property
    def file_url(self) -> str:
        return f"{self.api_base_url}/file{BOT_PATH}"


def load_dotenv_file(path: Path = Path(".env")) -> frozenset[str]:
    """Read ``.env`` without overriding variables already set; the names it sets (for
    :func:`bot.settingnames.strays`). A variable set but empty (or blank) counts as unset,
    as the settings read it: ``.env``'s value then fills it in, where python-dotenv alone
    would leave it empty and the setting fall back to its default
    (``TELEGRAM_BOT_TOKEN= python -m bot`` would say the token is not set, though ``.env``
    has it)."""
    if not path.is_file():
        return frozenset()
    from dotenv import dotenv_values

    values = dotenv_values(path)
    for key, value in values.items():
        if value is not None and not os.environ.get(key, "").strip():
            os.environ[key] = value
    return frozenset(values)


def config_from_env(env: dict[str, str] | None = None,
                    dotenv: Collection[str] = ()) -> BotConfig:
    """Build :class:`BotConfig`; raise :class:`ConfigError` with a one-line reason (a
    missing token's names a misspelt one, set in ``.env``'s names ``dotenv`` or in ``env``)."""
    env = dict(os.environ) if env is None else env
    token = env.get("TELEGRAM_BOT_TOKEN", "").strip()
    if not token:
        typo = typo_of("TELEGRAM_BOT_TOKEN", env, dotenv)
        raise ConfigError("TELEGRAM_BOT_TOKEN is not set" + (
            typo or ": put the token from @BotFather in .env (see .env.example)"))
    if not TOKEN_PATTERN.match(token):
        quoted = len(token) > 1 and token[0] == token[-1] and token[0] in "'\""
        raise ConfigError(
            "TELEGRAM_BOT_TOKEN does not look like a bot token (expected 123456789:AAE...)"
            + (": remove the quotes around it (docker run --env-file keeps them)"
               if quoted and TOKEN_PATTERN.match(token[1:-1]) else "")
        )
    base = (env.get("TELEGRAM_API_BASE_URL", "").strip() or TELEGRAM_API).rstrip("/")
    if not re.match(r"^https?://[^\s/]+", base):
        raise ConfigError(f"TELEGRAM_API_BASE_URL must be an http(s) URL, not {base!r}")
    if base.endswith(BOT_PATH):  # (operator QA: its calls went to /bot/bot<token>: a 404)
        raise ConfigError(f"TELEGRAM_API_BASE_URL must be the Bot API server's root, without "
                          f"{BOT_PATH} (the bot adds {BOT_PATH}<token> itself): "
                          f"{base.removesuffix(BOT_PATH)}, not {base!r}")
    level = (env.get("LOG_LEVEL", "").strip() or "INFO").upper()
    if level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
    form = log_format_of(env)
    if form is None:
        raise ConfigError(f"LOG_FORMAT must be text or json, not {_log_format(env)!r}")
    path = env.get("DATABASE_PATH", "").strip() or "data/dominoes.sqlite3"
    url = env.get("DATABASE_URL", "").strip() or None
    if url is not None and not url.startswith(("postgresql://", "postgres://")):
        # Not the value itself in the message: it may hold a password.
        raise ConfigError("DATABASE_URL must be a PostgreSQL URL, postgresql://user:password@"
                          "host:port/database (unset it to use the SQLite file)")
    problem = None if url is None else url_problem(url)
    if problem is not None:
        raise ConfigError(f"DATABASE_URL's {problem}")
    return BotConfig(
        token=token,
        api_base_url=base,
        database_path=Path(path),
        database_url=url,
        log_level=level,
        log_format=form,
        group_messages_per_minute=_positive(env, "GROUP_MESSAGES_PER_MINUTE", 20),
        messages_per_second=_positive(env, "MESSAGES_PER_SECOND", 30),
        table_theme=_theme(env),
        computer_pause=_seconds(env, "COMPUTER_PAUSE_SECONDS", 2.0),
    )


def log_format_of(env: Mapping[str, str]) -> LogFormat | None:
    """``LOG_FORMAT``'s format; None when it names none (what a settings error is then
    written as: :func:`bot.cli.refused`)."""
    form = _log_format(env)
    return LogFormat(form) if form in tuple(LogFormat) else None


def _log_format(env: Mapping[str, str]) -> str:
    return (env.get("LOG_FORMAT", "").strip() or LogFormat.TEXT.value).lower()


#: Characters that end a URL's user and password where they stand unencoded.
_RESERVED = "@/?#"
#: After "DATABASE_URL's " (or another name for the URL).
UNENCODED_PASSWORD = ("user or password holds a character a URL reserves (@, /, ? or #), so "
                      "the host read from it is wrong: percent-encode each one (@ as %40, "
                      "/ as %2F, ? as %3F, # as %23)")


def unencoded_password(url: str) -> bool:
    """Whether ``url``'s user or password holds an unencoded ``@ / ? #`` (``p@ss``): the
    URL then splits at the wrong place, and the host asyncpg tries is the password's tail
    (or the port a piece of the password). All before the URL's last ``@`` is taken as the
    user and password, where a PostgreSQL URL's ``@`` belongs."""
    userinfo, at, _ = url.partition("://")[2].rpartition("@")
    return bool(at) and any(character in userinfo for character in _RESERVED)


def url_problem(url: str) -> str | None:
    """What is wrong with a PostgreSQL URL before any connection is tried, as the rest of a
    line starting "DATABASE_URL's " (or another name for the URL); None when nothing is.
    An unencoded character in the user or password (:data:`UNENCODED_PASSWORD`), or a port
    that is not a number from 1 to 65535 (asyncpg raises a bare ValueError for
    ``host:abc`` and ``host:5432:1``, and tries ``host:99999`` for ever)."""
    if unencoded_password(url):
        return UNENCODED_PASSWORD
    netloc = re.split(r"[/?#]", url.partition("://")[2], maxsplit=1)[0]
    _, at, hosts = netloc.rpartition("@")
    for host in hosts.split(","):  # (asyncpg takes several: h1:5432,h2:5433)
        if host.startswith("["):  # an IPv6 address: [::1]:5432
            rest = host.partition("]")[2]
            port = rest.removeprefix(":") if rest.startswith(":") else rest
        else:
            port = host.partition(":")[2]
        if port and not (port.isdigit() and 1 <= int(port) <= 65535):
            # (with no "@" what stands before the ":" may be a user, and after it a password)
            return ("port must be a number from 1 to 65535" + (f", not {port!r}" if at else "")
                    + ": postgresql://user:password@host:5432/database")
    return None


def _theme(env: dict[str, str]) -> str:
    from renderers import THEMES  # here: the backup tool reads this module, not the pictures

    theme = (env.get("TABLE_THEME", "").strip() or "classic").lower()
    if theme not in THEMES:
        raise ConfigError(f"TABLE_THEME must be one of {', '.join(THEMES)}, not {theme!r}")
    return theme


def _positive(env: dict[str, str], name: str, default: int) -> int:
    text = env.get(name, "").strip()
    if not text:
        return default
    if not text.isdigit() or int(text) <= 0:
        raise ConfigError(f"{name} must be a positive whole number, not {text!r}")
    return int(text)


def _seconds(env: dict[str, str], name: str, default: float) -> float:
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 60:
        raise ConfigError(f"{name} must be a number of seconds from 0 to 60, not {text!r}")
    return value
