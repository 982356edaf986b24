"""Start-up and shutdown as an operator reads them: ``python -m bot`` in a subprocess,
against the fake Bot API server or a port where nothing answers, with its whole output
checked (time stamps aside): one line for each failure, saying what to do, never a
traceback, never the token."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, closing
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from test_e2e_operations import free_port

from bot.launch import TOKEN_REJECTED, token_rejected
from bot.storage import Storage
from bot.storage.schema import MIGRATIONS
from fakeapi import FakeTelegramServer

#: The settings the bot reads: none may leak in from the environment the tests run in.
SETTINGS = ("TELEGRAM_BOT_TOKEN", "TELEGRAM_API_BASE_URL", "DATABASE_PATH", "LOG_LEVEL",
            "LOG_FORMAT", "WEBHOOK_URL", "WEBHOOK_SECRET", "HTTP_PORT", "HTTP_HOST",
            "ON_CONFIG_ERROR")
OTHER_TOKEN = "7000000002:AAAnotherTokenTelegramDoesNotKnow0001"
STAMP = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} ")
RUNNING = "INFO bot: running: Ctrl-C or SIGTERM stops the bot"
#: After the line naming the database (:func:`started`).
#: (Operator QA: a polling start named neither its mode nor its bot.)
POLLING = "INFO bot.app: polling for updates as @domino_test_bot (no WEBHOOK_URL set)"
STARTED = ["INFO bot.app: resumed 0 open games", POLLING,
           "INFO telegram.ext.Application: Application started", RUNNING]
STOPPED = ["INFO bot: stopping",
           "INFO telegram.ext.Application: Application is stopping. This might take a moment.",
           "INFO telegram.ext.Application: Application.stop() complete",
           "INFO bot: stopped"]
WAIT = 30.0  # seconds a step may take on a busy machine


def started(folder: Path, *, new: bool = True, name: str = "bot.sqlite3",
            polling: bool = True) -> list[str]:
    """The start-up lines of a bot on the database ``folder / name``: new (made by this
    start) or one an earlier start made; polling, or in webhook mode."""
    state = "new: created now" if new else f"schema {len(MIGRATIONS)}"
    return [f"INFO bot.app: database: {(folder / name).resolve()} ({state})",
            *(line for line in STARTED if polling or line != POLLING)]


def bot_env(folder: Path, **settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    env.update(PYTHONDONTWRITEBYTECODE="1", DATABASE_PATH=str(folder / "bot.sqlite3"))
    env.update(settings)
    return env


def run_bot(folder: Path, *args: str, module: str = "bot", **settings: str) -> tuple[int, str]:
    """Run ``python -m module args`` (the bot) to its end (a failure that needs no server)."""
    done = subprocess.run([sys.executable, "-m", module, *args], cwd=folder,
                          env=bot_env(folder, **settings), capture_output=True, text=True,
                          timeout=WAIT, check=False)
    return done.returncode, done.stdout + done.stderr


@dataclass
class Bot:
    """A running ``python -m bot`` and the lines it has written."""

    process: asyncio.subprocess.Process
    lines: list[str] = field(default_factory=list)

    async def read(self) -> None:
        assert self.process.stdout is not None
        async for raw in self.process.stdout:
            self.lines.append(raw.decode().rstrip("\n"))

    async def until(self, done: Callable[[list[str]], bool]) -> None:
        deadline = time.monotonic() + WAIT
        while not done(self.lines):
            assert self.process.returncode is None or done(self.lines), self.text()
            assert time.monotonic() < deadline, f"waited in vain; the bot wrote:\n{self.text()}"
            await asyncio.sleep(0.05)

    def text(self) -> str:
        return "\n".join(self.lines)

    def unstamped(self) -> list[str]:
        return [STAMP.sub("", line) for line in self.lines]

    def signal_group(self, sig: signal.Signals) -> None:
        """As a terminal's Ctrl-C does: every process of the bot's group gets it."""
        os.killpg(self.process.pid, sig)

    async def ended(self) -> int:
        return await asyncio.wait_for(self.process.wait(), WAIT)


@asynccontextmanager
async def bot_process(folder: Path, **settings: str) -> AsyncIterator[Bot]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=folder, env=bot_env(folder, **settings),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        start_new_session=True,  # its own process group, as in a terminal
    )
    bot = Bot(process)
    reader = asyncio.create_task(bot.read())
    try:
        yield bot
        await asyncio.wait_for(reader, WAIT)
    finally:
        if process.returncode is None:
            os.killpg(process.pid, signal.SIGKILL)
            await process.wait()
        reader.cancel()


def children(pid: int) -> list[int]:
    """The processes of ``pid``'s group but itself (the computer players' pool)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != pid:
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[3]) == pid:  # field 5: the group
                found.append(int(entry.name))
    return found


def server_settings(server: FakeTelegramServer, **more: str) -> dict[str, str]:
    return {"TELEGRAM_BOT_TOKEN": server.token, "TELEGRAM_API_BASE_URL": server.api_root,
            **more}


# --- the token ---------------------------------------------------------------------------

def test_a_missing_token_is_one_line(tmp_path: Path) -> None:
    assert run_bot(tmp_path) == (2, "domino-bot: TELEGRAM_BOT_TOKEN is not set: put the token "
                                    "from @BotFather in .env (see .env.example)\n")


def test_a_malformed_token_is_one_line_without_the_token(tmp_path: Path) -> None:
    token = "12345:tooShortToBeAToken"
    code, output = run_bot(tmp_path, TELEGRAM_BOT_TOKEN=token)
    assert (code, output) == (2, "domino-bot: TELEGRAM_BOT_TOKEN does not look like a bot "
                                 "token (expected 123456789:AAE...)\n")


def rejected(server: FakeTelegramServer) -> str:
    """The line of a token refused by the fake server (TELEGRAM_API_BASE_URL's, not
    Telegram's own: its address is named first)."""
    return f"CRITICAL bot: {token_rejected(server.api_root)}"


async def test_a_rejected_token_is_one_line(telegram: FakeTelegramServer, tmp_path: Path
                                            ) -> None:
    settings = server_settings(telegram, TELEGRAM_BOT_TOKEN=OTHER_TOKEN)
    async with bot_process(tmp_path, **settings) as bot:
        assert await bot.ended() == 2
    assert bot.unstamped() == [rejected(telegram)]
    # Operator QA: the start left a 0-byte database behind; one made before is kept.
    assert not (tmp_path / "bot.sqlite3").exists()
    (tmp_path / "bot.sqlite3").touch()
    async with bot_process(tmp_path, **settings) as bot:
        assert await bot.ended() == 2
    assert (tmp_path / "bot.sqlite3").exists()


def test_telegrams_own_server_rejecting_the_token_says_to_copy_it_again() -> None:
    assert token_rejected("https://api.telegram.org") == TOKEN_REJECTED


async def test_a_wrong_api_address_is_said_before_the_token(telegram: FakeTelegramServer,
                                                            tmp_path: Path) -> None:
    """Operator QA: a TELEGRAM_API_BASE_URL with a wrong path (every call a 404) read
    "Telegram rejected TELEGRAM_BOT_TOKEN ... /revoke it": a good token would have been
    revoked. The line names the address and says to check it first."""
    wrong = f"{telegram.api_root}/api"
    async with bot_process(tmp_path, **server_settings(telegram,
                                                       TELEGRAM_API_BASE_URL=wrong)) as bot:
        assert await bot.ended() == 2
    assert bot.unstamped() == [
        f"CRITICAL bot: the Bot API server at {wrong} (TELEGRAM_API_BASE_URL) refused getMe "
        "(401 or 404): check TELEGRAM_API_BASE_URL first (that server's root, without /bot: "
        "the bot adds it), then TELEGRAM_BOT_TOKEN"]


#: What a bot that cannot start for its settings writes when ON_CONFIG_ERROR=wait.
WAITING = ("waiting (ON_CONFIG_ERROR=wait) rather than exiting, so that the container is not "
           "restarted in a loop: fix the setting, then recreate the container (docker compose "
           "up -d)")


async def test_a_missing_token_waits_for_a_stop_when_the_compose_files_ask(tmp_path: Path
                                                                         ) -> None:
    """compose's "restart: unless-stopped" restarted a bot that exited 2 in a loop."""
    async with bot_process(tmp_path, ON_CONFIG_ERROR="wait") as bot:
        await bot.until(lambda lines: WAITING in lines)
        await asyncio.sleep(0.3)
        assert bot.process.returncode is None, "it waits"
        bot.process.send_signal(signal.SIGTERM)  # (as docker stop does)
        assert await bot.ended() == 2
    assert bot.lines == ["domino-bot: TELEGRAM_BOT_TOKEN is not set: put the token from "
                         "@BotFather in .env (see .env.example)", WAITING]


async def test_a_bot_waiting_for_a_stop_takes_sighup_for_one(tmp_path: Path) -> None:
    async with bot_process(tmp_path, ON_CONFIG_ERROR="wait") as bot:
        await bot.until(lambda lines: WAITING in lines)
        bot.process.send_signal(signal.SIGHUP)
        assert await bot.ended() == 2


async def test_a_rejected_token_waits_for_a_stop_when_asked(telegram: FakeTelegramServer,
                                                            tmp_path: Path) -> None:
    settings = server_settings(telegram, TELEGRAM_BOT_TOKEN=OTHER_TOKEN,
                               ON_CONFIG_ERROR="wait")
    async with bot_process(tmp_path, **settings) as bot:
        await bot.until(lambda lines: any(WAITING in line for line in lines))
        await asyncio.sleep(0.3)
        assert bot.process.returncode is None, "it waits"
        bot.process.send_signal(signal.SIGTERM)
        assert await bot.ended() == 2
    assert bot.unstamped() == [rejected(telegram), f"WARNING bot: {WAITING}"]


async def test_the_token_is_in_no_line_even_when_debugging(telegram: FakeTelegramServer,
                                                           tmp_path: Path) -> None:
    settings = server_settings(telegram, TELEGRAM_BOT_TOKEN=OTHER_TOKEN, LOG_LEVEL="DEBUG")
    async with bot_process(tmp_path, **settings) as bot:
        assert await bot.ended() == 2
    secret = OTHER_TOKEN.partition(":")[2]
    assert bot.lines and secret not in bot.text() and "Traceback" not in bot.text()
    assert "bot<token>/" in bot.text() or "/bot<token>" in bot.text()  # PTB's URL, redacted
    assert bot.unstamped()[-1] == rejected(telegram)


async def test_a_debugging_bot_that_runs_never_logs_its_token(
    telegram: FakeTelegramServer, tmp_path: Path
) -> None:
    settings = server_settings(telegram, LOG_LEVEL="DEBUG", HTTP_PORT=str(free_port()))
    async with bot_process(tmp_path, **settings) as bot:
        await bot.until(lambda lines: any(line.endswith(RUNNING) for line in lines))
        bot.process.send_signal(signal.SIGTERM)
        assert await bot.ended() == 0
    assert telegram.token.partition(":")[2] not in bot.text()
    assert "Traceback" not in bot.text()
    assert not [line for line in bot.lines if "aiosqlite" in line]  # (two a statement)


# --- Telegram out of reach, signals -----------------------------------------------------------

ATTEMPT = re.compile(r"WARNING bot: cannot reach Telegram at http://127\.0\.0\.1:\d+ \(.+\): "
                     r"trying again in (\d+) s \(attempt (\d+)\)")


def attempts(lines: list[str]) -> list[tuple[int, int]]:
    return [(int(m[1]), int(m[2])) for line in lines
            if (m := ATTEMPT.fullmatch(STAMP.sub("", line)))]


async def test_telegram_out_of_reach_is_retried_until_it_answers(tmp_path: Path) -> None:
    port = free_port()  # nothing listens there yet
    server = FakeTelegramServer(port=port)
    settings = server_settings(server)
    async with bot_process(tmp_path, **settings) as bot:
        await bot.until(lambda lines: len(attempts(lines)) >= 2)
        async with server:
            await bot.until(lambda lines: any(line.endswith(RUNNING) for line in lines))
            bot.process.send_signal(signal.SIGTERM)
            assert await bot.ended() == 0
    tried = attempts(bot.lines)
    assert tried[:2] == [(1, 1), (2, 2)]  # backing off, one line per attempt
    assert bot.unstamped()[len(tried):] == started(tmp_path) + STOPPED


async def test_telegram_down_at_start_is_retried_until_it_answers(
    telegram: FakeTelegramServer, tmp_path: Path
) -> None:
    telegram.fail_every_call(502, "Bad Gateway")
    async with bot_process(tmp_path, **server_settings(telegram)) as bot:
        await bot.until(lambda lines: len(attempts(lines)) >= 2)
        telegram.end_outage()
        await bot.until(lambda lines: any(line.endswith(RUNNING) for line in lines))
        bot.process.send_signal(signal.SIGTERM)
        assert await bot.ended() == 0
    tried = attempts(bot.lines)
    assert all("(Bad Gateway)" in line for line in bot.lines[:len(tried)])
    assert bot.unstamped()[len(tried):] == started(tmp_path) + STOPPED


async def test_ctrl_c_while_telegram_is_out_of_reach_ends_quietly(tmp_path: Path) -> None:
    settings = {"TELEGRAM_BOT_TOKEN": OTHER_TOKEN,
                "TELEGRAM_API_BASE_URL": f"http://127.0.0.1:{free_port()}"}
    async with bot_process(tmp_path, **settings) as bot:
        await bot.until(lambda lines: len(attempts(lines)) >= 1)
        bot.signal_group(signal.SIGINT)
        assert await bot.ended() == 0
    tried = attempts(bot.lines)
    assert bot.unstamped()[len(tried):] == ["INFO bot: stopping"]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGHUP])
async def test_ctrl_c_or_a_hangup_ends_the_bot_and_its_workers_quietly(
        telegram: FakeTelegramServer, tmp_path: Path, sig: signal.Signals) -> None:
    """Ctrl-C; or a closed terminal (SIGHUP to its whole group) or logrotate's ``kill -HUP``
    (operator QA: they killed the bot without its "stopping" and "stopped" lines)."""
    async with bot_process(tmp_path, **server_settings(telegram)) as bot:
        await bot.until(lambda lines: any(line.endswith(RUNNING) for line in lines))
        deadline = time.monotonic() + WAIT
        while len(children(bot.process.pid)) < 3:  # resource tracker, forkserver, a worker
            assert time.monotonic() < deadline, "the computer players' pool never started"
            await asyncio.sleep(0.05)
        bot.signal_group(sig)
        assert await bot.ended() == 0
    assert bot.unstamped() == started(tmp_path) + STOPPED, bot.text()


async def test_sigterm_ends_quietly_in_json_lines(telegram: FakeTelegramServer, tmp_path: Path
                                                  ) -> None:
    async with bot_process(tmp_path, LOG_FORMAT="json", **server_settings(telegram)) as bot:
        await bot.until(lambda lines: any("running: Ctrl-C" in line for line in lines))
        bot.process.send_signal(signal.SIGTERM)
        assert await bot.ended() == 0
    lines = [json.loads(line) for line in bot.lines]
    assert [f"{line['level']} {line['logger']}: {line['message']}" for line in lines] == (
        started(tmp_path) + STOPPED)
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line["time"])
               for line in lines)


# --- the database ------------------------------------------------------------------------

def unwritable_folder(tmp_path: Path) -> Path:
    """A folder this process cannot create files in (root ignores modes: a read-only
    filesystem's folder then)."""
    if os.geteuid() == 0:
        try:
            with open("/sys/.domino-probe", "w"):
                pass
        except OSError:
            return Path("/sys")
        pytest.skip("no folder root cannot write to")
    folder = tmp_path / "read-only"
    folder.mkdir(mode=0o555)
    return folder


async def test_a_database_folder_the_bot_cannot_write_is_one_line(
    telegram: FakeTelegramServer, tmp_path: Path
) -> None:
    database = unwritable_folder(tmp_path) / "dominoes.sqlite3"
    settings = server_settings(telegram, DATABASE_PATH=str(database))
    async with bot_process(tmp_path, **settings) as bot:
        assert await bot.ended() == 1
    assert len(bot.lines) == 1, bot.text()
    (line,) = bot.unstamped()
    assert re.fullmatch(
        rf"CRITICAL bot: cannot open the database {re.escape(str(database))}: the folder "
        rf"{re.escape(str(database.parent))} is not writable: creating a file there fails "
        r"\((Permission denied|Operation not "
        r"permitted|Read-only file system)\)", line), line


async def test_a_database_folder_the_bot_cannot_write_is_said_while_telegram_is_away(
    tmp_path: Path
) -> None:
    """The database is checked before Telegram is waited for: an operator offline (or
    behind a firewall) learns of the folder at once, not once Telegram answers."""
    database = unwritable_folder(tmp_path) / "dominoes.sqlite3"
    settings = {"TELEGRAM_BOT_TOKEN": OTHER_TOKEN, "DATABASE_PATH": str(database),
                "TELEGRAM_API_BASE_URL": f"http://127.0.0.1:{free_port()}"}
    async with bot_process(tmp_path, **settings) as bot:
        assert await bot.ended() == 1
    (line,) = bot.unstamped()
    assert line.startswith(f"CRITICAL bot: cannot open the database {database}: the folder ")


async def test_a_damaged_database_is_one_line(telegram: FakeTelegramServer, tmp_path: Path
                                              ) -> None:
    database = tmp_path / "dominoes.sqlite3"
    database.write_bytes(b"these are not the bytes of a database\n" * 200)
    settings = server_settings(telegram, DATABASE_PATH=str(database))
    async with bot_process(tmp_path, **settings) as bot:
        assert await bot.ended() == 1
    assert bot.unstamped() == [
        f"CRITICAL bot: cannot open the database {database}: file is not a database "
        "(the file is damaged or not SQLite: restore a backup)"]


async def test_a_locked_database_is_one_line(telegram: FakeTelegramServer, tmp_path: Path
                                             ) -> None:
    database = tmp_path / "dominoes.sqlite3"
    with closing(sqlite3.connect(database, isolation_level=None)) as other:
        other.execute("CREATE TABLE held (x)")
        other.execute("BEGIN EXCLUSIVE")  # another process holds the file
        settings = server_settings(telegram, DATABASE_PATH=str(database))
        async with bot_process(tmp_path, **settings) as bot:
            assert await bot.ended() == 1
        other.execute("ROLLBACK")
    assert bot.unstamped() == [
        f"CRITICAL bot: cannot open the database {database}: database is locked "
        "(another process holds it: stop it, or use another file)"]


async def test_the_database_is_named_and_a_new_one_said_to_be_new(
    telegram: FakeTelegramServer, tmp_path: Path
) -> None:
    """A mistyped DATABASE_PATH makes a new, empty database (its missing folders too): the
    start-up names the file and says it was made now; the next start, which schema it has."""
    name = "typo/dominoes.sqlite3"
    settings = server_settings(telegram, DATABASE_PATH=str(tmp_path / name))
    for new in (True, False):
        async with bot_process(tmp_path, **settings) as bot:
            await bot.until(lambda lines: any(line.endswith(RUNNING) for line in lines))
            bot.process.send_signal(signal.SIGTERM)
            assert await bot.ended() == 0
        assert bot.unstamped() == started(tmp_path, new=new, name=name) + STOPPED


async def test_a_database_an_older_bot_left_is_said_to_be_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = Storage(path)
    await old.open(schema_version=len(MIGRATIONS) - 1)
    await old.close()
    storage = Storage(path)
    await storage.open()
    try:
        assert storage.described() == (
            f"{path.resolve()} (schema {len(MIGRATIONS)}, upgraded from {len(MIGRATIONS) - 1})")
    finally:
        await storage.close()


async def test_a_relative_database_path_is_named_absolute(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """DATABASE_PATH=dominoes.sqlite3 in the wrong working folder makes a new file there: the
    start-up line names it by its absolute path, which shows the folder."""
    monkeypatch.chdir(tmp_path)
    storage = Storage("dominoes.sqlite3")
    await storage.open()
    try:
        assert storage.described() == (
            f"{tmp_path.resolve() / 'dominoes.sqlite3'} (new: created now)")
    finally:
        await storage.close()


async def test_an_http_port_already_taken_is_one_line(telegram: FakeTelegramServer,
                                                      tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        settings = server_settings(telegram, HTTP_HOST="127.0.0.1", HTTP_PORT=str(port))
        async with bot_process(tmp_path, **settings) as bot:
            assert await bot.ended() == 2
    assert bot.unstamped() == [
        f"CRITICAL bot: cannot serve HTTP on 127.0.0.1:{port}: address already in use"]


async def finish(folder: Path, *args: str, module: str = "bot", **settings: str
                 ) -> tuple[int, str, str]:
    """Run ``python -m module args`` to its end without blocking the fake server's loop."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", module, *args, cwd=folder, env=bot_env(folder, **settings),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(process.communicate(), WAIT)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_a_second_bot_on_the_same_database_is_refused(telegram: FakeTelegramServer,
                                                           tmp_path: Path) -> None:
    database = tmp_path / "bot.sqlite3"
    async with bot_process(tmp_path, **server_settings(telegram)) as first:
        await first.until(lambda lines: any(line.endswith(RUNNING) for line in lines))
        code, out, err = await finish(tmp_path, **server_settings(
            telegram, HTTP_PORT=str(free_port())))
        assert (code, out) == (1, ""), err
        assert [STAMP.sub("", line) for line in err.splitlines()] == [
            f"CRITICAL bot: cannot open the database {database}: another bot (pid "
            f"{first.process.pid}) is using it: stop that one first, or set another "
            "DATABASE_PATH"]
        # What reads the database beside the bot still works: the backup (the copy to
        # PostgreSQL reads it the same way).
        code, out, err = await finish(tmp_path, "backups/", module="bot.storage.backup")
        assert (code, err) == (0, ""), err
        assert out.startswith(f"backed up {database} to {tmp_path}/backups/dominoes-")
        os.killpg(first.process.pid, signal.SIGKILL)  # no clean stop: the OS frees the lock
        await first.process.wait()
    async with bot_process(tmp_path, **server_settings(telegram)) as again:
        await again.until(lambda lines: any(line.endswith(RUNNING) for line in lines))
        again.process.send_signal(signal.SIGTERM)
        assert await again.ended() == 0
    assert again.unstamped() == started(tmp_path, new=False) + STOPPED


async def test_another_bot_on_a_stopped_bots_file_is_refused(telegram: FakeTelegramServer,
                                                               tmp_path: Path) -> None:
    """One bot a database, on SQLite too: a file holds its bot's games, which another bot's
    token cannot play (a .env copied for a new bot, DATABASE_PATH left as it was)."""
    async with bot_process(tmp_path, **server_settings(telegram)) as first:
        await first.until(lambda lines: any(line.endswith(RUNNING) for line in lines))
        first.process.send_signal(signal.SIGTERM)
        assert await first.ended() == 0
    async with FakeTelegramServer(token=OTHER_TOKEN, bot_username="other_bot") as other:
        code, out, err = await finish(tmp_path, **server_settings(other))
    assert (code, out) == (2, ""), err
    database = (tmp_path / "bot.sqlite3").resolve()
    assert [STAMP.sub("", line) for line in err.splitlines()] == [
        f"CRITICAL bot: the database {database} belongs to bot 7000000001 (@domino_test_bot), "
        "not this one (7000000002): give each bot its own database"]
    assert {r.method for r in other.requests} == {"getMe"}, other.requests


def test_help_and_version_answer_without_starting_the_bot(tmp_path: Path) -> None:
    def command(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "bot", *args], cwd=tmp_path,
                              env=bot_env(tmp_path, TELEGRAM_BOT_TOKEN=OTHER_TOKEN,
                                          TELEGRAM_API_BASE_URL="http://127.0.0.1:9"),
                              capture_output=True, text=True, timeout=WAIT, check=False)

    shown = command("--help")
    assert (shown.returncode, shown.stderr) == (0, ""), shown.stderr
    assert shown.stdout.startswith("usage: python -m bot [-h] [--version]")
    assert "environment" in shown.stdout and ".env" in shown.stdout
    assert "README" in shown.stdout
    version = command("--version")
    assert (version.returncode, version.stdout, version.stderr) == (0, "domino-bot 0.1.0\n", "")
    wrong = command("--polling")
    assert (wrong.returncode, wrong.stdout) == (2, "")
    assert wrong.stderr.splitlines() == [
        "usage: python -m bot [-h] [--version]",
        "python -m bot: error: unrecognized arguments: --polling"]
    assert not (tmp_path / "bot.sqlite3").exists()  # none of them started the bot


async def test_a_debugging_webhook_bot_never_logs_its_secret(telegram: FakeTelegramServer,
                                                             tmp_path: Path) -> None:
    secret = "MySecretValue123"
    settings = server_settings(telegram, LOG_LEVEL="DEBUG", HTTP_PORT=str(free_port()),
                               WEBHOOK_URL="https://bot.example/telegram",
                               WEBHOOK_SECRET=secret)
    async with bot_process(tmp_path, **settings) as bot:
        await bot.until(lambda lines: any(line.endswith(RUNNING) for line in lines))
        bot.process.send_signal(signal.SIGTERM)
        assert await bot.ended() == 0
    assert "'secret_token': '<webhook-secret>'" in bot.text()  # PTB's setWebhook line
    assert secret not in bot.text()
