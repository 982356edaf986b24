"""Start-up refusals an operator reads, each saying what is really wrong: a database path that
is a folder or runs through a file, a folder that takes no files, a PostgreSQL URL whose
password holds an unencoded ``@``, an HTTP_HOST that names no host; and the end of an outage,
said once. (The start-up tests run the whole bot; these check the lines themselves.)"""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from bot_kit import Group

from bot.config import config_from_env, unencoded_password
from bot.errors import ConfigError, StorageError
from bot.fleet.settings import fleet_settings_from_env
from bot.reach import Reach
from bot.serving.metrics import Metrics
from bot.serving.webserver import WebServer, build_web_app
from bot.storage.copy import main as copy_main
from bot.storage.postgres import PostgresEngine
from bot.storage.sqlite import SqliteEngine

TOKEN = "123456:" + "A" * 35
ENCODE = "percent-encode each one (@ as %40, / as %2F, ? as %3F, # as %23)"


async def refusal(path: Path) -> str:
    engine = SqliteEngine(path)
    with pytest.raises(StorageError) as refused:
        await engine.open()
    return str(refused.value)


# --- SQLite ------------------------------------------------------------------------------

async def test_a_database_path_that_is_a_folder_says_so(tmp_path: Path) -> None:
    folder = tmp_path / "dominoes.sqlite3"
    folder.mkdir()
    assert await refusal(folder) == (
        f"cannot open the database {folder}: {folder} is a folder: the database is a file, "
        f"e.g. {folder / 'dominoes.sqlite3'}")


@pytest.mark.parametrize("below", ["x.sqlite3", "sub/x.sqlite3"])
async def test_a_file_where_the_databases_folder_should_be_says_so(tmp_path: Path, below: str
                                                                   ) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file, not a folder\n")
    database = blocker / below  # the OS says "File exists" or "Not a directory"
    assert await refusal(database) == (
        f"cannot create the database folder {database.parent}: {blocker} is a file, "
        "not a folder")


async def test_a_folder_that_takes_no_file_gives_the_reason_of_the_attempt() -> None:
    """/proc refuses a new file with "No such file or directory": the line says what was
    tried, so the reason does not contradict it."""
    if not Path("/proc/self").is_dir():
        pytest.skip("no /proc here")
    database = Path("/proc/dominoes.sqlite3")
    assert await refusal(database) == (
        f"cannot open the database {database}: the folder /proc is not writable: creating a "
        "file there fails (No such file or directory)")


async def test_a_relative_database_path_is_named_absolute_in_its_lines(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Operator QA: "cannot open the database data/dominoes.sqlite3: the folder data is not
    writable" did not say which folder, where the start-up line names it absolute."""
    (tmp_path / "data").write_text("a file, not a folder\n")
    monkeypatch.chdir(tmp_path)
    assert await refusal(Path("data/x/dominoes.sqlite3")) == (
        f"cannot create the database folder {tmp_path / 'data' / 'x'}: {tmp_path / 'data'} "
        "is a file, not a folder")
    if Path("/proc/self").is_dir():
        monkeypatch.chdir("/")
        assert await refusal(Path("proc/dominoes.sqlite3")) == (
            "cannot open the database /proc/dominoes.sqlite3: the folder /proc is not "
            "writable: creating a file there fails (No such file or directory)")


# --- PostgreSQL's URL --------------------------------------------------------------------

@pytest.mark.parametrize("url", [
    "postgresql://bot:p@ss@db:5432/domino", "postgresql://bot:p/ss@db:5432/domino",
    "postgresql://bot:p?ss@db/domino", "postgres://bot:p#ss@db/domino",
    "postgresql://b@t:pass@db/domino"])
def test_an_unencoded_reserved_character_in_the_password_is_named(url: str) -> None:
    assert unencoded_password(url)
    with pytest.raises(ConfigError) as refused:
        config_from_env({"TELEGRAM_BOT_TOKEN": TOKEN, "DATABASE_URL": url})
    assert str(refused.value).startswith("DATABASE_URL's user or password holds a character ")
    assert str(refused.value).endswith(ENCODE)
    with pytest.raises(ConfigError, match=r"^DATABASE_URL's user or password"):
        fleet_settings_from_env({"DATABASE_URL": url})


@pytest.mark.parametrize("url", [
    "postgresql://bot:p%40ss@db:5432/domino", "postgresql://bot:pa:ss@db/domino",
    "postgresql://db/domino?sslmode=require", "postgresql:///domino?host=/run/postgresql",
    "postgresql://bot:pass@db1:5432,db2:5432/domino"])
def test_a_well_encoded_url_passes(url: str) -> None:
    assert not unencoded_password(url)
    assert config_from_env({"TELEGRAM_BOT_TOKEN": TOKEN, "DATABASE_URL": url}).database_url == url


@pytest.mark.parametrize(("url", "port"), [
    ("postgresql://u:x@127.0.0.1:abc/domino", "abc"),
    ("postgresql://u:x@127.0.0.1:55439:1/domino", "55439:1"),
    ("postgresql://u:x@127.0.0.1:99999/domino", "99999"),
    ("postgresql://u:x@127.0.0.1:0/domino", "0"),
    ("postgresql://u:x@db1:5432,db2:x/domino", "x"),
    ("postgresql://u:x@[::1]:65536/domino", "65536")])
def test_a_port_that_is_no_port_is_a_setting_refused(url: str, port: str) -> None:
    """Not asyncpg's "invalid literal for int()" at the first connection (exit 1), nor a
    server tried for ever at port 99999 (operator QA): a malformed setting, exit 2."""
    said = (f"DATABASE_URL's port must be a number from 1 to 65535, not {port!r}: "
            "postgresql://user:password@host:5432/database")
    with pytest.raises(ConfigError) as refused:
        config_from_env({"TELEGRAM_BOT_TOKEN": TOKEN, "DATABASE_URL": url})
    assert str(refused.value) == said
    with pytest.raises(ConfigError) as refused:
        fleet_settings_from_env({"DATABASE_URL": url})
    assert str(refused.value) == said


def test_a_url_without_its_host_does_not_quote_the_password_as_a_port() -> None:
    with pytest.raises(ConfigError) as refused:
        config_from_env({"TELEGRAM_BOT_TOKEN": TOKEN,
                         "DATABASE_URL": "postgresql://bot:secret/domino"})
    assert "secret" not in str(refused.value)


def test_python_m_bot_with_a_bad_port_exits_2_in_one_line(tmp_path: Path) -> None:
    env = {"PATH": os.environ["PATH"], "TELEGRAM_BOT_TOKEN": TOKEN,
           "DATABASE_URL": "postgresql://u:x@127.0.0.1:abc/domino"}
    for module in (["bot"], ["bot.fleet", "worker"]):
        ran = subprocess.run([sys.executable, "-m", *module], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=60)
        assert ran.returncode == 2, ran.stderr
        assert ran.stderr.count("\n") == 1 and "port must be a number from 1 to 65535, " \
            "not 'abc'" in ran.stderr and "Traceback" not in ran.stderr, ran.stderr


def test_the_engine_names_the_hosts_of_a_url_with_several() -> None:
    engine = PostgresEngine("postgresql://u:secret@db1:5432,db2:5433/domino")
    assert engine.name == "db1:5432,db2:5433/domino"


async def test_the_engine_names_no_piece_of_such_a_password() -> None:
    """urlsplit reads "postgresql://bot:se/cret@db/x" as host "bot" and path "/cret@db/x":
    neither the name nor the refusal may quote those pieces."""
    engine = PostgresEngine("postgresql://bot:se/cret@db:5432/domino")
    assert "cret" not in engine.name
    with pytest.raises(StorageError) as refused:
        await engine.open()
    assert str(refused.value) == f"cannot connect to PostgreSQL: the URL's user or password " \
        f"holds a character a URL reserves (@, /, ? or #), so the host read from it is wrong: " \
        f"{ENCODE}"


def test_the_copy_tool_refuses_such_a_target_in_its_usage_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as ended:
        copy_main([str(tmp_path / "bot.sqlite3"), "postgresql://bot:p@ss@db/domino"])
    assert ended.value.code == 2
    error = capsys.readouterr().err
    assert "error: the target URL's user or password" in error and "ss@db" not in error


# --- HTTP_HOST ---------------------------------------------------------------------------

async def test_an_http_host_that_names_no_host_says_so() -> None:
    server = WebServer(build_web_app(Metrics(), {}), "nonexistent.invalid", 0)
    with pytest.raises(ConfigError) as refused:
        await server.start()
    assert re.fullmatch(
        r"cannot serve HTTP on nonexistent\.invalid:0: the host name nonexistent\.invalid "
        r"cannot be resolved \([^()]+\): set HTTP_HOST to an address of this machine, or "
        r"unset it for every interface", str(refused.value)), str(refused.value)


# --- Telegram out of reach, and back -----------------------------------------------------

def test_the_first_answer_after_failures_is_one_line_with_the_outages_length(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [100.0]
    reach = Reach(clock=lambda: now[0])
    with caplog.at_level(logging.INFO, logger="bot.reach"):
        reach.answered()  # nothing failed: nothing to say
        reach.failed()
        now[0] = 130.0
        reach.failed()  # the same outage: it started at 100
        now[0] = 142.4
        reach.answered()
        reach.answered()
        reach.failed()
        now[0] = 160.0
        reach.answered(sent=150.0)  # a long poll sent at 150, answered at 160: back at 150
    assert [r.getMessage() for r in caplog.records] == ["reached Telegram again after 42 s",
                                                        "reached Telegram again after 8 s"]


async def test_polling_says_once_that_it_reaches_telegram_again(
    group: Group, caplog: pytest.LogCaptureFixture
) -> None:
    server = group.server

    def lines(text: str) -> list[logging.LogRecord]:
        return [r for r in caplog.records if r.getMessage().startswith(text)]

    with caplog.at_level(logging.INFO):
        async with group.bot():
            server.fail_every_call(502, "Bad Gateway")
            await server.wait_for(lambda: len(lines("polling Telegram failed")) >= 2)
            server.end_outage()
            await server.wait_for(lambda: bool(lines("reached Telegram again after ")))
            polls = sum(r.method == "getUpdates" for r in server.requests)
            await server.wait_for(lambda: sum(r.method == "getUpdates" for r in server.requests)
                                  > polls + 2)  # polling goes on: no more lines
    [back] = lines("reached Telegram again after ")
    assert back.levelno == logging.INFO and back.name == "bot.reach"
    assert re.fullmatch(r"reached Telegram again after \d+ s", back.getMessage())
