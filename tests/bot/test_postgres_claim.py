"""One bot a PostgreSQL database (:mod:`bot.storage.claim`): a second single bot is refused
in one line naming who holds it, fleet workers share it and keep a single bot out, a bot
stopping within the wait is waited for, and a claim whose connection was cut takes the lock
again, or stops the bot when another took it meanwhile. On a real PostgreSQL server."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg  # type: ignore[import-untyped]
import pytest
from test_startup import RUNNING, STAMP, bot_process, finish, server_settings

from bot.errors import StorageError
from bot.storage.claim import CLAIM_LOCK, DatabaseClaim
from bot.storage.postgres import PostgresEngine
from fakeapi import FakeTelegramServer

PIDS = r"PostgreSQL pids? \d+( from [\d.:a-f]+)?(, \d+( from [\d.:a-f]+)?)*"
REFUSED = r"^cannot use the database [^ ]+: {} using it: stop that first, or set another " \
          r"DATABASE_URL$"


def claim(url: str, *, shared: bool = False, told: list[str] | None = None,
          check_every: float = 2.0) -> DatabaseClaim:
    return DatabaseClaim(PostgresEngine(url), shared=shared,
                         on_taken=(told if told is not None else []).append,
                         check_every=check_every)


async def holders(url: str) -> list[int]:
    """The server pids of the connections holding the claim's lock."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND "
                                "granted AND classid = $1 AND objid = $2 AND objsubid = 1",
                                CLAIM_LOCK >> 32, CLAIM_LOCK & 0xFFFFFFFF)
        return sorted(row[0] for row in rows)
    finally:
        await conn.close()


async def cut(url: str, pid: int) -> None:
    """The server ends that connection, as a restart or a network cut would."""
    conn = await asyncpg.connect(url)
    try:
        assert await conn.fetchval("SELECT pg_terminate_backend($1)", pid)
    finally:
        await conn.close()


async def until(done: Callable[[], bool], seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "waited in vain"
        await asyncio.sleep(0.05)


async def test_a_second_single_bot_is_refused_naming_the_first(postgres_url: str) -> None:
    first = claim(postgres_url)
    await first.take(wait=0)
    try:
        (pid,) = await holders(postgres_url)
        for shared in (False, True):  # nor may a fleet worker start beside it
            with pytest.raises(StorageError, match=REFUSED.format(
                    rf"another bot \(PostgreSQL pid {pid}( from [\d.:a-f]+)?\) is")):
                await claim(postgres_url, shared=shared).take(wait=0.5)
    finally:
        await first.release()
    assert await holders(postgres_url) == []
    second = claim(postgres_url)
    await second.take(wait=0)  # free once the first let go
    await second.release()


async def test_fleet_workers_share_it_and_keep_a_single_bot_out(postgres_url: str) -> None:
    workers = [claim(postgres_url, shared=True) for _ in range(2)]
    for worker in workers:
        await worker.take(wait=0)
    try:
        pids = await holders(postgres_url)
        assert len(pids) == 2
        with pytest.raises(StorageError, match=REFUSED.format(
                rf"a fleet of 2 workers \({PIDS}\) is")) as refused:
            await claim(postgres_url).take(wait=0.3)
        assert all(str(pid) in str(refused.value) for pid in pids)
    finally:
        for worker in workers:
            await worker.release()


async def test_a_bot_waits_for_one_that_is_stopping(postgres_url: str) -> None:
    first = claim(postgres_url)
    await first.take(wait=0)

    releasing = asyncio.Event()

    async def stop_later() -> None:
        await asyncio.sleep(0.5)
        releasing.set()
        await first.release()
    stopping = asyncio.create_task(stop_later())
    second = claim(postgres_url)
    await second.take(wait=5)
    assert releasing.is_set()  # it waited for the first one, then took the lock
    await stopping
    await second.release()


async def test_a_cut_connection_takes_the_lock_again(postgres_url: str,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot.storage.claim")
    told: list[str] = []
    first = claim(postgres_url, told=told, check_every=0.1)
    await first.take(wait=0)
    try:
        (pid,) = await holders(postgres_url)
        await cut(postgres_url, pid)
        await until(lambda: "holding the database" in caplog.text)
        (again,) = await holders(postgres_url)
        assert again != pid and told == []
        with pytest.raises(StorageError):
            await claim(postgres_url).take(wait=0)
    finally:
        await first.release()


class Blackhole:
    """A TCP path to PostgreSQL whose connections so far can go silent, as a network cut
    does: nothing passes either way and neither end is told (the server keeps the session,
    and its locks); connections made after the cut pass."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.silent: set[int] = set()  # connections cut off
        self.made = 0
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    def cut(self) -> None:
        self.silent |= set(range(self.made))

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        number, self.made = self.made, self.made + 1
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.port)

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            while data := await source.read(65536):
                if number not in self.silent:
                    sink.write(data)
                    await sink.drain()
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer),
                             return_exceptions=True)

    def close(self) -> None:
        if self.server is not None:
            self.server.close()


async def test_its_own_old_session_cut_off_by_the_network_does_not_stop_it(
        postgres_url: str) -> None:
    """After a silent cut the server still holds the old session and its lock: the claim's
    new connection ends that session and takes the lock again, instead of taking its own
    old session for another bot's and stopping."""
    parts = urlsplit(postgres_url)
    path = Blackhole(parts.port or 5432)
    port = await path.start()
    via = urlunsplit(parts._replace(netloc=f"{parts.username}@127.0.0.1:{port}"))
    told: list[str] = []
    claim = DatabaseClaim(PostgresEngine(via), shared=False, on_taken=told.append,
                          check_every=0.1, alive_wait=0.5)
    await claim.take(wait=0)
    try:
        (old,) = await holders(postgres_url)
        path.cut()
        deadline = time.monotonic() + 15
        while (pids := await holders(postgres_url)) in ([old], []) and not told:
            assert time.monotonic() < deadline, "the lock was not taken again"
            await asyncio.sleep(0.1)
        assert told == [] and len(pids) == 1 and pids != [old]
    finally:
        await claim.release()
        path.close()


async def test_a_bot_that_took_it_meanwhile_stops_this_one(postgres_url: str) -> None:
    told: list[str] = []
    first = claim(postgres_url, told=told, check_every=0.5)
    await first.take(wait=0)
    (pid,) = await holders(postgres_url)
    await cut(postgres_url, pid)
    other = claim(postgres_url)
    await other.take(wait=2)  # in the gap before the first one looks again
    try:
        await until(lambda: bool(told))
        (holder,) = await holders(postgres_url)
        assert re.fullmatch(
            rf"lost the database [^ ]+ while PostgreSQL was away: another bot \(PostgreSQL pid "
            rf"{holder}( from [\d.:a-f]+)?\) is using it now: stopping", told[0]), told
    finally:
        await first.release()
        await other.release()


async def test_a_second_bot_process_is_one_line_and_a_killed_one_restarts(
        telegram: FakeTelegramServer, postgres_url: str, tmp_path: Path) -> None:
    settings = server_settings(telegram, DATABASE_URL=postgres_url)
    async with bot_process(tmp_path, **settings) as first:
        await first.until(lambda lines: any(line.endswith(RUNNING) for line in lines))
        code, out, err = await finish(tmp_path, **settings)
        assert (code, out) == (1, ""), err
        lines = [STAMP.sub("", line) for line in err.splitlines()]
        assert len(lines) == 1 and re.fullmatch("CRITICAL bot: " + REFUSED.format(
            r"another bot \(PostgreSQL pid \d+( from [\d.:a-f]+)?\) is")[1:], lines[0]), err
        os.killpg(first.process.pid, signal.SIGKILL)  # PostgreSQL frees its lock
        await first.process.wait()
    async with bot_process(tmp_path, **settings) as again:
        await again.until(lambda lines: any(line.endswith(RUNNING) for line in lines))
        again.process.send_signal(signal.SIGTERM)
        assert await again.ended() == 0
    assert not any(" ERROR " in line or "CRITICAL" in line for line in again.lines), \
        again.text()
