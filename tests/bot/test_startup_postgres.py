"""Start-up on PostgreSQL as an operator reads it: ``python -m bot`` with ``DATABASE_URL`` in a
subprocess. A server that is not up yet (its container starting beside the bot's, a host
rebooting) is waited for, a line per attempt, as Telegram out of reach is; a server that will
not have the bot (a database that does not exist) is one line and exit 1; a signal while
waiting ends the bot quietly."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import pytest
from test_e2e_operations import free_port
from test_startup import RUNNING, STAMP, STARTED, STOPPED, bot_process, server_settings

from bot.errors import StorageError
from bot.storage import StorageUnavailableError
from bot.storage.postgres import PostgresEngine
from bot.storage.schema import MIGRATIONS
from fakeapi import FakeTelegramServer
from testservers import PostgresServer

ATTEMPT = re.compile(r"WARNING bot: cannot connect to PostgreSQL at 127\.0\.0\.1:(\d+)/postgres: "
                     r".*Connection refused.*: trying again in (\d+) s \(attempt (\d+)\)")


def attempts(lines: list[str]) -> list[tuple[int, int, int]]:
    """(port, seconds, attempt) of each line that says PostgreSQL is waited for."""
    return [(int(m[1]), int(m[2]), int(m[3])) for line in lines
            if (m := ATTEMPT.fullmatch(STAMP.sub("", line)))]


def problems(lines: list[str]) -> list[str]:
    return [line for line in lines if "CRITICAL" in line or "ERROR" in line
            or "Traceback" in line]


async def test_postgresql_not_up_yet_is_waited_for(postgres: PostgresServer,
                                                   telegram: FakeTelegramServer,
                                                   tmp_path: Path) -> None:
    server = PostgresServer(postgres.binaries)  # a server of its own, to stop and start
    server.start()
    try:
        url, port = server.url(), server.port
        server.halt()  # nothing answers on its port now
        async with bot_process(tmp_path, **server_settings(telegram, DATABASE_URL=url)) as bot:
            await bot.until(lambda lines: len(attempts(lines)) >= 2)
            server.start()  # on the same port, with the same data
            assert server.port == port
            await bot.until(lambda lines: any(line.endswith(RUNNING) for line in lines))
            bot.process.send_signal(signal.SIGTERM)
            assert await bot.ended() == 0
    finally:
        server.stop()
    tried = attempts(bot.lines)
    assert tried[:2] == [(port, 1, 1), (port, 2, 2)]  # backing off, one line per attempt
    assert not problems(bot.lines), bot.text()
    assert bot.unstamped()[-1] == "INFO bot: stopped"


async def test_ctrl_c_while_postgresql_is_out_of_reach_ends_quietly(
    telegram: FakeTelegramServer, tmp_path: Path
) -> None:
    url = f"postgresql://postgres:sekret@127.0.0.1:{free_port()}/postgres"
    async with bot_process(tmp_path, **server_settings(telegram, DATABASE_URL=url)) as bot:
        await bot.until(lambda lines: len(attempts(lines)) >= 1)
        bot.signal_group(signal.SIGINT)
        assert await bot.ended() == 0
    tried = attempts(bot.lines)
    assert bot.unstamped()[len(tried):] == ["INFO bot: stopping"]
    assert "sekret" not in bot.text()


async def test_a_database_that_does_not_exist_is_one_line(postgres: PostgresServer,
                                                          telegram: FakeTelegramServer,
                                                          tmp_path: Path) -> None:
    url = postgres.url("no_such_database")
    async with bot_process(tmp_path, **server_settings(telegram, DATABASE_URL=url)) as bot:
        assert await bot.ended() == 1
    assert bot.unstamped() == [
        f"CRITICAL bot: cannot connect to PostgreSQL at 127.0.0.1:{postgres.port}/"
        'no_such_database: database "no_such_database" does not exist '
        "(create it (createdb), or fix DATABASE_URL)"], bot.text()


async def test_the_database_is_named_without_its_password(postgres_url: str,
                                                          telegram: FakeTelegramServer,
                                                          tmp_path: Path) -> None:
    """The start-up names the database (host:port/database, no password) and says whether
    it was new; the test server trusts every connection, so any password does."""
    url = postgres_url.replace("postgresql://postgres@", "postgresql://postgres:sekret@")
    assert "sekret" in url
    where = url.rpartition("@")[2].partition("?")[0]  # (its settings not named)
    settings = server_settings(telegram, DATABASE_URL=url)
    for state in ("new: created now", f"schema {len(MIGRATIONS)}"):
        async with bot_process(tmp_path, **settings) as bot:
            await bot.until(lambda lines: any(line.endswith(RUNNING) for line in lines))
            bot.process.send_signal(signal.SIGTERM)
            assert await bot.ended() == 0
        assert bot.unstamped() == [
            f"INFO bot.app: database: {where} ({state})", *STARTED, *STOPPED], bot.text()
        assert "sekret" not in bot.text()


async def test_a_server_that_will_not_speak_tls_is_not_waited_for(postgres: PostgresServer
                                                                  ) -> None:
    """sslmode=require against a server without TLS: waiting cures nothing, so the probe
    says so at once (one line, exit 1), where a refused connection is waited for."""
    engine = PostgresEngine(postgres.url().replace("sslmode=disable", "sslmode=require"))
    with pytest.raises(StorageError) as refused:
        await engine.probe()
    assert not isinstance(refused.value, StorageUnavailableError), refused.value
    assert "SSL" in str(refused.value)
    with pytest.raises(StorageUnavailableError):
        await PostgresEngine(f"postgresql://postgres@127.0.0.1:{free_port()}/postgres").probe()
