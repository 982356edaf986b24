"""Which shards this worker owns: one PostgreSQL session advisory lock per shard, held on a
dedicated connection, spread evenly over the live workers.

Each tick the keeper counts the live workers (the lock connections, named
``domino-fleet/<WORKER_NAME>``: :data:`~bot.fleet.settings.LIVE_WORKERS`), takes free shards
up to its share (``ceil(shards / live)``) and gives back what it holds beyond it. A worker
killed with SIGKILL drops its connection, PostgreSQL frees its locks at once, and the others
take its shards on their next tick. When the lock connection itself fails (PostgreSQL
restarting, a network cut) every shard is lost at once: the worker stops pulling them (what is
in flight finishes, its effects fenced), then the keeper reconnects (a WARNING at the first failed
attempt, the next ones at DEBUG, and one line once connected again) and takes its share again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import zlib
from collections.abc import Awaitable, Callable, Collection

import asyncpg  # type: ignore[import-untyped]

from ..errors import StorageError
from ..logs import counted
from ..storage import StorageUnavailableError
from ..storage import fleet as sql
from ..storage.outages import DATABASE_ERRORS, cause, lost
from .background import ended
from .settings import LIVE_WORKERS, LOCK_APPLICATION, application_name

log = logging.getLogger(__name__)
#: Told a set of shards: taken (load them), or given back / lost (let them go).
ShardsCall = Callable[[frozenset[int]], Awaitable[None]]
MAX_BACKOFF = 10.0


def lock_key(token: str) -> int:
    """The advisory lock namespace of one bot (its numeric id, folded into an int4), so that
    two bots sharing a PostgreSQL server do not share shards."""
    bot_id = token.partition(":")[0]
    return zlib.crc32(bot_id.encode()) & 0x7FFFFFFF


class ShardKeeper:
    """Holds this worker's shards; ``on_take`` runs before a shard is pulled from,
    ``on_give`` before its lock is let go (or after the connection holding it was lost)."""

    def __init__(self, url: str, shards: int, key: int, name: str,
                 on_take: ShardsCall, on_give: ShardsCall, tick: float = 0.5) -> None:
        self.url = url
        self.shards = shards
        self.key = key
        self.name = name
        self.on_take = on_take
        self.on_give = on_give
        self.tick = tick
        self.owned: frozenset[int] = frozenset()
        self.live = 1
        self._conn: asyncpg.Connection | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()
        # The order this worker prefers shards in: its own shuffle, so that keepers starting
        # together do not race for the same ones, and that each one's shards lie all over
        # the ring rather than in one run (chats made one after another have ids in a run).
        self._rank = {s: zlib.crc32(f"{name}:{s}".encode()) for s in range(shards)}

    # --- running ---------------------------------------------------------------------------
    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"shard-keeper-{self.name}")

    async def stop(self) -> None:
        """Give every shard back (finishing what is in flight), then close the connection."""
        self._stopping.set()
        await ended(self._task)
        if self.owned and self._conn is not None and not self._conn.is_closed():
            with contextlib.suppress(Exception):
                await self._give(self.owned)
        elif self.owned:
            await self._lose()
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
            self._conn = None

    async def _run(self) -> None:
        attempt = 1
        delay = self.tick
        while not self._stopping.is_set():
            try:
                if self._conn is None or self._conn.is_closed():
                    self._conn = await asyncpg.connect(self.url, server_settings={
                        "application_name": application_name(LOCK_APPLICATION, self.name)})
                    if attempt > 1:
                        log.info("shard locks: connected again after %s",
                                 counted(attempt - 1, "attempt"))
                    attempt, delay = 1, self.tick
                await self.balance()
                await asyncio.sleep(self.tick)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database went away (or loading a shard failed)
                if isinstance(error, (*DATABASE_ERRORS, StorageError)):  # said, not a bug
                    log.log(logging.WARNING if attempt == 1 else logging.DEBUG,
                            "shard locks: the database is %s (%s): trying again in %.1f s "
                            "(attempt %d)", "unreachable" if lost(error) or isinstance(
                                    error, StorageUnavailableError) else "refusing",
                                cause(error), delay, attempt)
                else:
                    log.exception("shard locks: trying again in %.1f s (attempt %d)", delay,
                                  attempt)
                await self._drop_connection()
                await self._lose()
                await asyncio.sleep(delay)
                delay = min(MAX_BACKOFF, delay * 2)
                attempt += 1

    @property
    def connected(self) -> bool:
        """Whether the lock connection is open (so counted among the live workers)."""
        return self._conn is not None and not self._conn.is_closed()

    async def _drop_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.terminate()

    # --- one tick --------------------------------------------------------------------------
    async def balance(self) -> None:
        """Take free shards up to this worker's share; give back what is beyond it."""
        conn = self._conn
        assert conn is not None
        live = await sql.live_workers(conn, LIVE_WORKERS)
        if live != self.live:
            log.info("%s: this one's share is %s", counted(live, "worker live", "workers live"),
                     counted(math.ceil(self.shards / live), "shard"))
            self.live = live
        target = math.ceil(self.shards / live)
        if len(self.owned) > target:
            extra = sorted(self.owned, key=self._order, reverse=True)[: len(self.owned) - target]
            await self._give(frozenset(extra))
            return
        taken: set[int] = set()
        for shard in sorted(range(self.shards), key=self._order):
            if len(self.owned) + len(taken) >= target:
                break
            if shard not in self.owned and await sql.try_lock(conn, self.key, shard):
                taken.add(shard)
        if taken:
            try:
                await self.on_take(frozenset(taken))
            except BaseException:
                for shard in taken:  # not loaded: not ours
                    with contextlib.suppress(Exception):
                        await sql.unlock(conn, self.key, shard)
                raise
            self.owned = self.owned | taken

    def _order(self, shard: int) -> int:
        return self._rank[shard]

    async def _give(self, shards: Collection[int]) -> None:
        given = frozenset(shards)
        await self.on_give(given)  # stop pulling, finish in flight, evict
        self.owned = self.owned - given
        conn = self._conn
        assert conn is not None
        for shard in sorted(given):
            await sql.unlock(conn, self.key, shard)

    async def _lose(self) -> None:
        """The connection holding the locks is gone: so are the shards."""
        if not self.owned:
            return
        lost, self.owned = self.owned, frozenset()
        log.warning("lost %s with the lock connection", counted(len(lost), "shard"))
        try:
            await self.on_give(lost)
        except Exception:
            log.exception("letting go of lost shards failed")

    async def held(self) -> set[int]:
        """What PostgreSQL says this keeper holds (tests)."""
        assert self._conn is not None
        return await sql.held_shards(self._conn, self.key)
