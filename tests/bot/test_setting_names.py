"""Names that are no setting: a misspelt one in ``.env`` (or, close to a setting, in the
environment) is one warning naming the setting it may mean, and a missing required setting's
error names its near miss (operator QA: ``HTTP_PROT=18085`` and ``WEBHOK_URL`` were silently
ignored). Every name the docs, .env.example, the compose files and the code use is a setting,
so none is ever warned about. ``ON_CONFIG_ERROR`` is checked as every other value, and with
``LOG_FORMAT=json`` a settings error is a JSON line as every other fatal one."""

from __future__ import annotations

import json
import re
import signal
from pathlib import Path

import pytest
from test_startup import RUNNING, bot_process, run_bot, server_settings

from bot.settingnames import SETTINGS, Stray, strays, typo_of
from fakeapi import FakeTelegramServer

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "123456789:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-ZZ"
HTTP_PROT = ".env sets HTTP_PROT, which is no setting of this bot: did you mean HTTP_PORT?"
PINK = "TABLE_THEME must be one of classic, dark, not 'pink'"


def warnings_of(env: dict[str, str], dotenv: tuple[str, ...] = ()) -> list[str]:
    return [stray.warning() for stray in strays(env, dotenv)]


def test_a_misspelt_name_in_dotenv_is_said_with_the_setting_it_may_mean() -> None:
    env = {"HTTP_PROT": "18085", "WEBHOK_URL": "https://x", "http_port": "1", "FOO": "1",
           "TELEGRAM_BOT_TOKEN": TOKEN}
    assert warnings_of(env, tuple(env)) == [
        HTTP_PROT,
        ".env sets WEBHOK_URL, which is no setting of this bot: did you mean WEBHOOK_URL?",
        ".env sets http_port, which is no setting of this bot: did you mean HTTP_PORT?",
        ".env sets FOO, which is no setting of this bot (README.md's Settings table lists "
        "them)",
    ]


def test_what_the_process_itself_honours_is_not_said() -> None:
    """A .env given to ``docker run --env-file`` may rightly set the time zone, a proxy,
    Python's or libpq's variables."""
    names = ("TZ", "LANG", "LC_ALL", "PYTHONUNBUFFERED", "HTTPS_PROXY", "no_proxy",
             "PGSSLMODE", "MALLOC_ARENA_MAX", "SSL_CERT_FILE", "TMPDIR")
    assert warnings_of(dict.fromkeys(names, "x"), names) == []


def test_the_environment_is_said_only_where_it_looks_misspelt() -> None:
    env = dict.fromkeys(("HOME", "PATH", "HOSTNAME", "HTTP_PROXY", "CI", "CONTAINER_NAME",
                         "DATABASE_NAME", "PIP_CERT", "LOG_LEVEL"), "x")
    assert warnings_of(env) == []
    env["WEBHOK_URL"] = "https://x"
    assert warnings_of(env) == ["the environment sets WEBHOK_URL, which is no setting of this "
                                "bot: did you mean WEBHOOK_URL?"]
    assert warnings_of(env, ("WEBHOK_URL",))[0].startswith(".env sets WEBHOK_URL")


def test_a_missing_setting_names_its_near_miss() -> None:
    env = {"TELEGRAM_BOT_TOKNE": TOKEN}
    assert typo_of("TELEGRAM_BOT_TOKEN", env, ("TELEGRAM_BOT_TOKNE",)) == (
        " (.env sets TELEGRAM_BOT_TOKNE: a typo?)")
    assert typo_of("TELEGRAM_BOT_TOKEN", env) == (
        " (the environment sets TELEGRAM_BOT_TOKNE: a typo?)")
    assert typo_of("DATABASE_URL", env) == ""
    assert Stray("X", ".env", None).hint() == " (.env sets X: a typo?)"


# --- every name the project uses is a setting -----------------------------------------------

def documented() -> dict[str, set[str]]:
    """The names each place gives as settings."""
    example = (ROOT / ".env.example").read_text()
    readme = (ROOT / "README.md").read_text()
    compose = "".join((ROOT / name).read_text() for name in ("compose.yaml", "compose.fleet.yaml"))
    unit = (ROOT / "deploy" / "domino-bot.service").read_text()
    return {
        ".env.example": set(re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=", example, re.MULTILINE)),
        # (the settings tables: README's, and its fleet section's)
        "README.md": set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \|", readme, re.MULTILINE)),
        # (what compose reads from .env, and what it sets for the bot)
        "compose files": set(re.findall(r"\$\{([A-Z][A-Z0-9_]+)", compose))
        | set(re.findall(r"^ {6}([A-Z][A-Z0-9_]+): ", compose, re.MULTILINE))
        - {"POSTGRES_USER", "POSTGRES_DB"},  # (the postgres image's, beside its password)
        "deploy/domino-bot.service": {name for line in unit.splitlines()
                                      if line.startswith("Environment=")
                                      for name in re.findall(r"([A-Z][A-Z0-9_]+)=", line)},
    }


def read_in_code() -> set[str]:
    """The names the bot's code reads from its environment."""
    names: set[str] = set()
    for path in (ROOT / "bot").rglob("*.py"):
        text = path.read_text()
        names |= set(re.findall(r"(?:env|environ)\.get\(\s*\"([A-Z][A-Z0-9_]+)\"", text))
        names |= set(re.findall(r"_(?:positive|seconds)\(env, \"([A-Z][A-Z0-9_]+)\"", text))
        names |= set(re.findall(r"\"([A-Z][A-Z0-9_]+)\" in os\.environ", text))
        names |= set(re.findall(r"^[A-Z_]+_SETTING = \"([A-Z][A-Z0-9_]+)\"", text, re.MULTILINE))
    return names


def test_every_name_the_docs_and_examples_give_is_a_setting() -> None:
    places = documented()
    assert all(places.values()), places  # (each place found some)
    assert {"TELEGRAM_BOT_TOKEN", "FLEET_SHARDS", "WORKER_NAME", "ON_CONFIG_ERROR"} <= (
        places["README.md"])
    unknown = {place: names - SETTINGS for place, names in places.items() if names - SETTINGS}
    assert unknown == {}


def test_every_name_the_code_reads_is_a_setting() -> None:
    names = read_in_code()
    assert {"TELEGRAM_BOT_TOKEN", "HTTP_PORT", "COMPUTER_PAUSE_SECONDS", "ON_CONFIG_ERROR",
            "MALLOC_ARENA_MAX", "WORKER_NAME"} <= names
    assert names - SETTINGS == set()


# --- as an operator runs it ------------------------------------------------------------------

def test_a_misspelt_token_in_dotenv_is_named_in_the_one_line(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(f"TELEGRAM_BOT_TOKNE={TOKEN}\n")
    assert run_bot(tmp_path) == (2, "domino-bot: TELEGRAM_BOT_TOKEN is not set (.env sets "
                                    "TELEGRAM_BOT_TOKNE: a typo?)\n")


def test_a_misspelt_name_is_said_before_a_settings_error(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(f"TELEGRAM_BOT_TOKEN={TOKEN}\nHTTP_PROT=18085\n")
    assert run_bot(tmp_path, TABLE_THEME="pink") == (
        2, f"domino-bot: {HTTP_PROT}\ndomino-bot: {PINK}\n")


def test_on_config_error_is_checked_as_every_other_setting(tmp_path: Path) -> None:
    """Operator QA: ``wiat`` exited as ``exit`` does, without a word."""
    assert run_bot(tmp_path, TELEGRAM_BOT_TOKEN=TOKEN, ON_CONFIG_ERROR="wiat") == (
        2, "domino-bot: ON_CONFIG_ERROR must be exit or wait, not 'wiat'\n")


@pytest.mark.parametrize("module", ["bot", "bot.fleet"])
def test_a_settings_error_follows_log_format(tmp_path: Path, module: str) -> None:
    """Operator QA: with LOG_FORMAT=json a bad setting was the one plain line."""
    (tmp_path / ".env").write_text("HTTP_PROT=18085\n")
    args = ("worker",) if module == "bot.fleet" else ()
    code, output = run_bot(tmp_path, *args, module=module, TELEGRAM_BOT_TOKEN=TOKEN,
                           TABLE_THEME="pink", LOG_FORMAT="json")
    lines = [json.loads(line) for line in output.splitlines()]
    assert code == 2
    assert [(line["level"], line["logger"], line["message"]) for line in lines] == [
        ("WARNING", "bot", HTTP_PROT), ("CRITICAL", "bot", PINK)]
    # A LOG_FORMAT it cannot read: the plain line.
    assert run_bot(tmp_path, TELEGRAM_BOT_TOKEN=TOKEN, LOG_FORMAT="yaml") == (
        2, f"domino-bot: {HTTP_PROT}\ndomino-bot: LOG_FORMAT must be text or json, not 'yaml'\n")


def test_a_fleet_process_names_a_misspelt_database_url(tmp_path: Path) -> None:
    code, output = run_bot(tmp_path, "worker", module="bot.fleet", TELEGRAM_BOT_TOKEN=TOKEN,
                           DATABSE_URL="postgresql://x@db/domino")
    assert (code, output) == (2, "domino-bot fleet worker: fleet mode needs DATABASE_URL="
                                 "postgresql://user:password@host:port/db (the environment sets "
                                 "DATABSE_URL: a typo?)\n")


async def test_a_running_bot_says_a_misspelt_name_once(telegram: FakeTelegramServer,
                                                       tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("HTTP_PROT=18085\nTZ=UTC\n")
    async with bot_process(tmp_path, **server_settings(telegram)) as bot:
        await bot.until(lambda lines: any(line.endswith(RUNNING) for line in lines))
        bot.process.send_signal(signal.SIGTERM)
        assert await bot.ended() == 0
    said = [line for line in bot.unstamped() if "no setting" in line]
    assert said == [f"WARNING bot: {HTTP_PROT}"]
    assert bot.unstamped()[0] == said[0]  # before the bot reaches anything
