"""One bot a PostgreSQL database, as on SQLite (:func:`bot.storage.sqlite.held_alone`).

A single bot holds an exclusive session advisory lock on a connection of its own, and each
fleet worker a shared one: a second single bot is refused, and so is a single bot beside a
fleet or a worker beside a single bot, while the workers share it. Without it a second bot
started on the same database by mistake takes the first one's updates and webhook, and races
its timers. PostgreSQL frees the lock when the holder's connection ends (a SIGKILL too), so
a killed bot never blocks its own restart.

The lock lives as long as its connection. When that is lost (PostgreSQL restarting, a network
cut) the claim connects again and takes the lock again; if another bot took it meanwhile,
``on_taken`` is told, and the bot stops rather than run beside it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from ..errors import StorageError
from .postgres import MIGRATION_LOCK, PostgresEngine
from .sqlite import STOPPING_WAIT

log = logging.getLogger(__name__)

#: pg_advisory_lock's key of the claim (one bigint, beside the migrations').
CLAIM_LOCK = MIGRATION_LOCK + 1
#: Seconds between two checks that the claim's connection is still there.
CHECK_EVERY = 2.0
#: How long such a check may take before the connection counts as lost.
ALIVE_WAIT = 10.0
MAX_BACKOFF = 10.0
_POLL = 0.25

_HOLDERS = """
SELECT l.mode, a.pid, host(a.client_addr)
FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
  AND l.classid = $1 AND l.objid = $2
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
ORDER BY a.pid
"""


class ClaimRefusedError(StorageError):
    """Another process holds the claim: ``holders`` names it as :meth:`DatabaseClaim.take`
    found it, e.g. ``a bot (PostgreSQL pid 4711 from 10.0.0.7) is`` (the copy to PostgreSQL
    words its own refusal with it)."""

    def __init__(self, message: str, holders: str) -> None:
        super().__init__(message)
        self.holders = holders


class DatabaseClaim:
    """This process's part of the database: ``shared`` for a fleet worker, else the whole."""

    def __init__(self, engine: PostgresEngine, *, shared: bool,
                 on_taken: Callable[[str], None], check_every: float = CHECK_EVERY,
                 alive_wait: float = ALIVE_WAIT) -> None:
        self.engine = engine
        self.shared = shared
        self.on_taken = on_taken
        self.check_every = check_every
        self.alive_wait = alive_wait
        self._conn: Any = None
        self._pid: int | None = None  # the server's process of the session holding the lock
        self._watch: asyncio.Task[None] | None = None

    @property
    def _function(self) -> str:
        return "pg_try_advisory_lock_shared" if self.shared else "pg_try_advisory_lock"

    async def take(self, wait: float = STOPPING_WAIT, other: str = "another bot") -> None:
        """Hold the lock, waiting up to ``wait`` seconds for another bot to stop (a supervisor
        may start this one while the old one still sends what it holds); then watch it.
        Refused, :class:`ClaimRefusedError` says who holds it (a single bot called ``other``)."""
        self._conn = await self.engine.connect()
        waited = 0.0
        while not await self._try(self._conn):
            if waited >= wait:
                holders = await self._who(self._conn, other)
                await self._close()
                raise ClaimRefusedError(
                    f"cannot use the database {self.engine.name}: {holders} using it: stop "
                    "that first, or set another DATABASE_URL", holders)
            await asyncio.sleep(_POLL)
            waited += _POLL
        self._pid = self._conn.get_server_pid()
        self._watch = asyncio.create_task(self._watching(), name="database-claim")

    async def release(self) -> None:
        """Let the lock go (the connection closed): the bot is stopping."""
        task, self._watch = self._watch, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self._close()

    async def _try(self, conn: Any) -> bool:
        return bool(await conn.fetchval(f"SELECT {self._function}($1)", CLAIM_LOCK))

    async def _holders(self, conn: Any) -> list[Any]:
        """The sessions holding the lock: (mode, server pid, client address) each."""
        return list(await conn.fetch(_HOLDERS, CLAIM_LOCK >> 32, CLAIM_LOCK & 0xFFFFFFFF))

    async def _who(self, conn: Any, other: str = "another bot") -> str:
        """Who holds the lock, for the operator: another bot or a fleet, with the server's
        pids of their connections (``pg_stat_activity``) and where they come from."""
        rows = await self._holders(conn)
        if not rows:
            return f"{other} is"  # gone since: it was stopping
        where = ", ".join(f"{pid}" + (f" from {host}" if host else "")
                          for _mode, pid, host in rows)
        pids = f"PostgreSQL pid{'s' if len(rows) > 1 else ''} {where}"
        if any(mode != "ShareLock" for mode, _pid, _host in rows):
            return f"{other} ({pids}) is"
        workers = "a fleet worker" if len(rows) == 1 else f"a fleet of {len(rows)} workers"
        return f"{workers} ({pids}) is"

    async def _close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.close(), 5)
            if not conn.is_closed():
                conn.terminate()

    async def _watching(self) -> None:
        """Every ``check_every`` seconds: is the connection (so the lock) still there? If not,
        connect again and take the lock again, trying until the server answers."""
        while True:
            await asyncio.sleep(self.check_every)
            if await self._alive():
                continue
            await self._close()
            delay = self.check_every
            while True:
                try:
                    conn = await self.engine.connect()
                except StorageError as error:
                    log.debug("database claim: %s: trying again in %.1f s", error, delay)
                    await asyncio.sleep(delay)
                    delay = min(MAX_BACKOFF, delay * 2)
                    continue
                break
            if await self._retake(conn):
                continue
            return

    async def _alive(self) -> bool:
        conn = self._conn
        if conn is None or conn.is_closed():
            return False
        try:
            await asyncio.wait_for(conn.fetchval("SELECT 1"), self.alive_wait)
        except Exception:
            return False
        return True

    async def _retake(self, conn: Any) -> bool:
        """The lock taken again on a new connection; False (and ``on_taken`` told) when
        another bot took it while this one's connection was away. This bot's own old session
        may still hold it (a network cut the server has not noticed yet, a stalled server):
        that one is ended, and the lock waited for as for a bot that is stopping."""
        try:
            waited = 0.0
            while not await self._try(conn):
                rows = await self._holders(conn)
                old = self._pid
                if old is not None and any(pid == old for _mode, pid, _host in rows):
                    await conn.fetchval("SELECT pg_terminate_backend($1)", old)
                elif waited >= STOPPING_WAIT:
                    self.on_taken(f"lost the database {self.engine.name} while PostgreSQL was "
                                  f"away: {await self._who(conn)} using it now: stopping")
                    self._conn = conn  # closed by release() as the bot stops
                    return False
                await asyncio.sleep(_POLL)
                waited += _POLL
        except Exception as error:  # the server went away again: the next check retries
            log.debug("database claim: %s", error)
            conn.terminate()
            self._conn = None
            return True
        self._conn, self._pid = conn, conn.get_server_pid()
        log.info("holding the database %s again", self.engine.name)
        return True
