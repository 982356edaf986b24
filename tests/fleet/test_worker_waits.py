"""A fleet worker started while PostgreSQL is away, on a real server stopped and started again:
it waits as a receiver does, a line per attempt backing off to 10 s at most (not a minute:
after a long outage it would idle up to a minute once the server is back), and serves
``/healthz/live`` meanwhile (``/healthz/ready``: 503) so that a container's HEALTHCHECK does
not mark it unhealthy; once the server answers it runs and is ready."""

from __future__ import annotations

import asyncio
import re

import aiohttp

from testservers import PostgresServer, free_port
from testservers.fleet import Fleet, Member

ATTEMPT = re.compile(r".*WARNING bot: cannot connect to PostgreSQL at .*: trying again in "
                     r"(\d+) s \(attempt (\d+)\)")


def waits(text: str) -> list[int]:
    return [int(m[1]) for line in text.splitlines() if (m := ATTEMPT.fullmatch(line))]


async def status(port: int, path: str) -> int | None:
    try:
        async with aiohttp.ClientSession() as client, \
                client.get(f"http://127.0.0.1:{port}{path}") as answer:
            return answer.status
    except aiohttp.ClientError:
        return None  # refused: nothing listens


async def test_a_worker_waiting_for_postgresql_is_live_and_waits_10_s_at_most(
        fleet: Fleet, postgres: PostgresServer) -> None:
    server = PostgresServer(postgres.binaries)  # a server of its own, to stop and start
    server.start()
    try:
        url = server.url()
        server.halt()  # nothing answers on its port now
        port = free_port()
        fleet.database_url = url
        member = Member("worker-1", ("-m", "bot.fleet", "worker"), fleet.env(
            "worker-1", HTTP_HOST="127.0.0.1", HTTP_PORT=str(port)),
            fleet.folder / "worker-1.log", port)
        fleet.members[member.name] = member
        await member.start()
        async with asyncio.timeout(60):
            while len(waits(member.log.read_text())) < 5:  # 1 + 2 + 4 + 8 s, then the 5th
                assert member.alive, member.log.read_text()
                await asyncio.sleep(0.2)
        assert waits(member.log.read_text())[:5] == [1, 2, 4, 8, 10]
        assert await status(port, "/healthz/live") == 200
        assert await status(port, "/healthz/ready") == 503
        server.start()  # on the same port, with the same data
        await fleet.ready(member, timeout=60)
        assert await fleet.live_workers() == 1
        await member.stop()
        assert member.process is not None and member.process.returncode == 0
        text = member.log.read_text()
        assert "Traceback" not in text and "ERROR" not in text and "readiness" not in text, text
    finally:
        await fleet.close()
        server.stop()
