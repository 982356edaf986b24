"""The names of the bot's settings, and what a name that is none of them looks like to the
operator: a misspelt setting (``HTTP_PROT=18085``) is otherwise silently ignored (operator
QA: no HTTP server, and no line about it).

The bot owns its ``.env`` file: every name there that is no setting (nor a variable the
process itself honours, :data:`PROCESS_VARIABLES`) gets one warning, naming the closest
setting when one is close. The process environment holds many variables of others
(``HOME``, a CI's, a container's): only those that look like a misspelt setting are said.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Mapping
from dataclasses import dataclass

#: The single bot's settings (README.md's Settings table, .env.example).
BOT_SETTINGS = (
    "TELEGRAM_BOT_TOKEN", "TELEGRAM_API_BASE_URL", "DATABASE_PATH", "DATABASE_URL",
    "LOG_LEVEL", "LOG_FORMAT", "WEBHOOK_URL", "WEBHOOK_SECRET", "HTTP_PORT", "HTTP_HOST",
    "TABLE_THEME", "COMPUTER_PAUSE_SECONDS", "GROUP_MESSAGES_PER_MINUTE",
    "MESSAGES_PER_SECOND", "ON_CONFIG_ERROR",
)
#: The fleet's own (bot.fleet.settings), and compose.fleet.yaml's (its PostgreSQL password).
FLEET_SETTINGS = ("FLEET_SHARDS", "WORKER_NAME", "POSTGRES_PASSWORD")
#: Read by the bot beside its settings: glibc's arenas (bot/trim.py).
OTHER_SETTINGS = ("MALLOC_ARENA_MAX",)
SETTINGS = frozenset(BOT_SETTINGS + FLEET_SETTINGS + OTHER_SETTINGS)
#: Variables that Python, the C library or the bot's libraries honour, which a .env given to
#: ``docker run --env-file`` may rightly hold: never warned about (compared in capitals).
PROCESS_VARIABLES = frozenset((
    "TZ", "LANG", "LANGUAGE", "TMPDIR", "HOME", "PATH", "HTTP_PROXY", "HTTPS_PROXY",
    "ALL_PROXY", "NO_PROXY", "SSL_CERT_FILE", "SSL_CERT_DIR",
))
#: Prefixes of such variables: Python's, the locale's, libpq's (asyncpg reads PGHOST...),
#: glibc's malloc tunables.
PROCESS_PREFIXES = ("PYTHON", "LC_", "PG", "MALLOC_")
#: How close an unknown name in ``.env`` must be to a setting to be offered it.
DOTENV_CUTOFF = 0.6
#: How close a name of the environment must be to a setting to be said at all (difflib's
#: ratio: HTTP_PROT for HTTP_PORT is 0.89; HTTP_PROXY, which is not a typo, 0.74).
ENVIRONMENT_CUTOFF = 0.85
DOTENV = ".env"
ENVIRONMENT = "the environment"


@dataclass(frozen=True, slots=True)
class Stray:
    """A name set where the bot looks (``.env``, or the environment) that is no setting."""

    name: str
    where: str  # DOTENV or ENVIRONMENT
    closest: str | None  # the setting it may have meant

    def warning(self) -> str:
        """Its operator-facing line (a log line, in English, as the settings' errors)."""
        line = f"{self.where} sets {self.name}, which is no setting of this bot"
        if self.closest is None:
            return line + " (README.md's Settings table lists them)"
        return f"{line}: did you mean {self.closest}?"

    def hint(self) -> str:
        """What the error of its missing setting adds: `` (.env sets X: a typo?)``."""
        return f" ({self.where} sets {self.name}: a typo?)"


def strays(env: Mapping[str, str], dotenv: Collection[str] = ()) -> list[Stray]:
    """The names no setting: every one in ``dotenv`` (the names ``.env`` sets), and those of
    ``env`` close to a setting; in ``.env``'s order, then the environment's."""
    found = [Stray(name, DOTENV, _closest(name, DOTENV_CUTOFF))
             for name in dotenv if _stray(name)]
    found += [Stray(name, ENVIRONMENT, closest) for name in env
              if name not in dotenv and _stray(name)
              and (closest := _closest(name, ENVIRONMENT_CUTOFF)) is not None]
    return found


def typo_of(setting: str, env: Mapping[str, str], dotenv: Collection[str] = ()) -> str:
    """What the error saying ``setting`` is missing adds when a name close to it is set
    (``TELEGRAM_BOT_TOKNE``): its :meth:`Stray.hint`, else nothing."""
    meant = [stray for stray in strays(env, dotenv) if stray.closest == setting]
    return meant[0].hint() if meant else ""


def _stray(name: str) -> bool:
    upper = name.upper()
    return (name not in SETTINGS and upper not in PROCESS_VARIABLES
            and not upper.startswith(PROCESS_PREFIXES))


def _closest(name: str, cutoff: float) -> str | None:
    """The setting ``name`` most looks like (in capitals: ``http_port`` means HTTP_PORT)."""
    close = difflib.get_close_matches(name.upper(), sorted(SETTINGS), n=1, cutoff=cutoff)
    return close[0] if close else None
