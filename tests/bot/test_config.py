"""The bot's configuration: a missing or malformed token is one clear line, not a traceback;
a variable set but empty in the environment does not hide ``.env``'s value."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import config_from_env, load_dotenv_file
from bot.errors import ConfigError

TOKEN = "123456789:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-ZZ"
NOT_SET = ("TELEGRAM_BOT_TOKEN is not set: put the token from @BotFather in .env "
           "(see .env.example)")


def test_settings_read_every_variable() -> None:
    settings = config_from_env({
        "TELEGRAM_BOT_TOKEN": TOKEN, "TELEGRAM_API_BASE_URL": "http://127.0.0.1:8081/",
        "DATABASE_PATH": "/tmp/x.sqlite3", "LOG_LEVEL": "debug",
    })
    assert settings.bot_url == "http://127.0.0.1:8081/bot"
    assert settings.file_url == "http://127.0.0.1:8081/file/bot"
    assert settings.database_path == Path("/tmp/x.sqlite3")
    assert settings.log_level == "DEBUG"


def test_defaults() -> None:
    settings = config_from_env({"TELEGRAM_BOT_TOKEN": TOKEN})
    assert settings.api_base_url == "https://api.telegram.org"
    assert settings.database_path == Path("data/dominoes.sqlite3")


@pytest.mark.parametrize("env", [
    {}, {"TELEGRAM_BOT_TOKEN": "  "}, {"TELEGRAM_BOT_TOKEN": "not-a-token"},
    {"TELEGRAM_BOT_TOKEN": TOKEN, "LOG_LEVEL": "LOUD"},
    {"TELEGRAM_BOT_TOKEN": TOKEN, "TELEGRAM_API_BASE_URL": "ftp://x"},
    {"TELEGRAM_BOT_TOKEN": TOKEN, "GROUP_MESSAGES_PER_MINUTE": "0"},
    {"TELEGRAM_BOT_TOKEN": TOKEN, "TABLE_THEME": "pink"},
])
def test_bad_settings_raise_config_error(env: dict[str, str]) -> None:
    with pytest.raises(ConfigError):
        config_from_env(env)


@pytest.mark.parametrize("base", ["http://127.0.0.1:18081/bot", "http://127.0.0.1:18081/bot/"])
def test_an_api_address_ending_in_bot_is_refused_with_its_root(base: str) -> None:
    """Operator QA: TELEGRAM_API_BASE_URL takes the server's root (the bot adds /bot): one
    ending in /bot made every call a 404, reported as a rejected token."""
    with pytest.raises(ConfigError) as raised:
        config_from_env({"TELEGRAM_BOT_TOKEN": TOKEN, "TELEGRAM_API_BASE_URL": base})
    assert str(raised.value) == (
        "TELEGRAM_API_BASE_URL must be the Bot API server's root, without /bot (the bot adds "
        "/bot<token> itself): http://127.0.0.1:18081, not 'http://127.0.0.1:18081/bot'")


@pytest.mark.parametrize("quote", ['"', "'"])
def test_a_quoted_token_is_told_to_lose_its_quotes(quote: str) -> None:
    """``docker run --env-file`` keeps the quotes a .env may put around a value."""
    with pytest.raises(ConfigError, match="remove the quotes around it") as raised:
        config_from_env({"TELEGRAM_BOT_TOKEN": f"{quote}{TOKEN}{quote}"})
    assert TOKEN.partition(":")[2] not in str(raised.value)
    with pytest.raises(ConfigError) as plain:
        config_from_env({"TELEGRAM_BOT_TOKEN": '"not-a-token"'})
    assert "quotes" not in str(plain.value)


@pytest.mark.parametrize("token", ["", "garbage"])
def test_bot_stops_with_one_clear_line(tmp_path: Path, token: str) -> None:
    env = {"PATH": "/usr/bin:/bin", "TELEGRAM_BOT_TOKEN": token}
    result = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env | {"PYTHONPATH": str(Path.cwd())},
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "TELEGRAM_BOT_TOKEN" in lines[0]
    assert "Traceback" not in result.stderr


def test_a_theme_that_does_not_exist_is_one_line_naming_the_themes(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "TELEGRAM_BOT_TOKEN": TOKEN, "TABLE_THEME": "pink"}
    result = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env | {"PYTHONPATH": str(Path.cwd())},
        capture_output=True, text=True, timeout=60,
    )
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "domino-bot: TABLE_THEME must be one of classic, dark, not 'pink'\n"


def test_a_theme_is_read_in_any_case() -> None:
    assert config_from_env({"TELEGRAM_BOT_TOKEN": TOKEN, "TABLE_THEME": " Dark "}
                           ).table_theme == "dark"


def environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, dotenv: str,
                **variables: str) -> Path:
    """``.env`` written, the variables set (each key of both put back after the test)."""
    path = tmp_path / ".env"
    path.write_text(dotenv)
    for line in dotenv.splitlines():
        monkeypatch.delenv(line.partition("=")[0], raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    return path


def test_an_empty_variable_does_not_hide_the_value_in_dotenv(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    dotenv = environment(
        monkeypatch, tmp_path,
        f"TELEGRAM_BOT_TOKEN={TOKEN}\nDATABASE_PATH=/tmp/from-dotenv.sqlite3\nLOG_LEVEL=debug\n",
        TELEGRAM_BOT_TOKEN="", DATABASE_PATH="  ", LOG_LEVEL="warning")
    load_dotenv_file(dotenv)
    settings = config_from_env()
    assert settings.token == TOKEN
    assert settings.database_path == Path("/tmp/from-dotenv.sqlite3")
    assert settings.log_level == "WARNING"  # a value in the environment still wins


def test_with_the_token_in_neither_the_line_is_the_same(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    dotenv = environment(monkeypatch, tmp_path, "TELEGRAM_BOT_TOKEN=\nLOG_LEVEL=debug\n",
                         TELEGRAM_BOT_TOKEN="")
    load_dotenv_file(dotenv)
    with pytest.raises(ConfigError) as refused:
        config_from_env()
    assert str(refused.value) == NOT_SET


def test_the_bot_reads_dotenv_under_an_empty_variable(tmp_path: Path) -> None:
    """As an operator runs it: ``TELEGRAM_BOT_TOKEN= python -m bot`` with the token in
    ``.env``. The theme, also empty in the environment and wrong in ``.env``, stops the bot
    before it connects, and says both came from ``.env``."""
    (tmp_path / ".env").write_text(f"TELEGRAM_BOT_TOKEN={TOKEN}\nTABLE_THEME=pink\n")
    env = {"PATH": "/usr/bin:/bin", "TELEGRAM_BOT_TOKEN": "", "TABLE_THEME": ""}
    result = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env | {"PYTHONPATH": str(Path.cwd())},
        capture_output=True, text=True, timeout=60,
    )
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "domino-bot: TABLE_THEME must be one of classic, dark, not 'pink'\n"


def test_the_docs_say_an_empty_variable_does_not_hide_dotenv() -> None:
    """What the test above checks, as .env.example and --help tell it (they said only that a
    variable already set wins: operator QA found `HTTP_PORT=` did not unset .env's)."""
    from bot.__main__ import EPILOG

    root = Path(__file__).resolve().parents[2]
    header = (root / ".env.example").read_text().split("\n\n")[0]
    assert "win over this file,\n# unless empty" in header
    assert "(a variable already set wins, unless empty)" in EPILOG
