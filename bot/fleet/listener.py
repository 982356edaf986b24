"""One dedicated connection LISTENing to the fleet's channels, made again while PostgreSQL is
away (a WARNING at the first failed attempt, the next ones at DEBUG, and one line once it
listens again). After every (re)connection each channel's callback is told
``None``: notifications sent meanwhile were lost, so whoever listens looks for themselves."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping

import asyncpg  # type: ignore[import-untyped]

from ..logs import counted
from ..storage.outages import DATABASE_ERRORS, cause
from .background import ended

log = logging.getLogger(__name__)
#: Told each notification's payload (None after a reconnection).
Heard = Callable[[str | None], None]
HEARTBEAT = 2.0  # seconds between two checks that the connection still answers
MAX_BACKOFF = 10.0


class Listener:
    def __init__(self, url: str, channels: Mapping[str, Heard], name: str = "") -> None:
        self.url = url
        self.channels = dict(channels)
        self.name = name  # its connection's application_name
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="fleet-listener")

    async def stop(self) -> None:
        await ended(self._task)
        self._task = None

    async def _run(self) -> None:
        attempt, delay = 1, 0.5
        while True:
            conn: asyncpg.Connection | None = None
            try:
                conn = await asyncpg.connect(
                    self.url, server_settings={"application_name": self.name} if self.name
                    else None)
                for channel, heard in self.channels.items():
                    await conn.add_listener(channel, _callback(heard))
                if attempt > 1:
                    log.info("listening again after %s", counted(attempt - 1, "attempt"))
                attempt, delay = 1, 0.5
                for heard in self.channels.values():
                    heard(None)
                while True:
                    await asyncio.sleep(HEARTBEAT)
                    await conn.fetchval("SELECT 1")
            except asyncio.CancelledError:
                raise
            except DATABASE_ERRORS as error:
                log.log(logging.WARNING if attempt == 1 else logging.DEBUG,
                        "listening for the fleet's notifications failed (%s): trying again "
                        "in %.1f s (attempt %d)", cause(error), delay, attempt)
                await asyncio.sleep(delay)
                delay = min(MAX_BACKOFF, delay * 2)
                attempt += 1
            finally:
                if conn is not None:
                    conn.terminate()


def _callback(heard: Heard) -> Callable[[object, int, str, str], None]:
    def callback(connection: object, pid: int, channel: str, payload: str) -> None:
        heard(payload)
    return callback
