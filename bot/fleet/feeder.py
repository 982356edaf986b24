"""Pulling the owned shards' updates from the queue and handing them over in order.

Per route key (a group, or a private chat) one update at a time, in update_id order; different
keys run side by side. The queue is read when a receiver's NOTIFY names an owned shard, and
once a second besides (a notification lost with a dropped connection costs a second, not an
update). An update stays in the queue until it is marked done (by its effect transaction's
fence, or by the worker after its handler): a worker that dies leaves it to the next owner.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections import deque
from collections.abc import Callable, Collection, Coroutine
from typing import Any

import asyncpg  # type: ignore[import-untyped]

from ..logs import counted
from ..storage import fleet as sql
from ..storage.fleet import QueuedUpdate
from ..storage.outages import DATABASE_ERRORS, cause
from ..waiting import wait_set
from .background import ended

log = logging.getLogger(__name__)
Handle = Callable[[QueuedUpdate], Coroutine[Any, Any, None]]
DB_ERRORS = DATABASE_ERRORS  # (the storage's own list: one for every loop of the fleet)
#: Seconds a lost shard's handlers in flight may take before they are left behind.
LOST_GRACE = 10.0


class Feeder:
    """Feeds ``handle`` the waiting updates of the shards in :attr:`owned`."""

    def __init__(self, pool: asyncpg.Pool, handle: Handle, poll: float = 1.0,
                 batch: int = 1000) -> None:
        self.pool = pool
        self.handle = handle
        self.poll = poll
        self.batch = batch
        self.owned: frozenset[int] = frozenset()
        self._lanes: dict[int, deque[QueuedUpdate]] = {}
        self._runners: dict[int, asyncio.Task[None]] = {}
        self._queued: set[int] = set()  # update ids in a lane (waiting or being handled)
        # Update ids handled while a read of the queue was under way, by the read count at
        # their end: that read may still see them waiting, and must not queue them again.
        self._finished: dict[int, int] = {}
        self._reads = 0
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.handled = 0

    # --- the shards --------------------------------------------------------------------------
    def own(self, shards: Collection[int]) -> None:
        """Start pulling ``shards`` (loaded first: their games are in memory)."""
        self.owned = self.owned | frozenset(shards)
        self.wake()

    async def release(self, shards: Collection[int], grace: float | None = None) -> bool:
        """Stop pulling ``shards``: what waits is dropped (it stays in the queue for the next
        owner), what is being handled finishes (at most ``grace`` seconds, when given);
        whether it all finished."""
        gone = frozenset(shards)
        self.owned = self.owned - gone
        running = []
        for key, lane in list(self._lanes.items()):
            if lane and lane[0].shard in gone:
                while len(lane) > 1:  # the first may be in flight: its runner sees it go
                    self._queued.discard(lane.pop().update_id)
                runner = self._runners.get(key)
                if runner is not None:
                    running.append(runner)
        if running:
            done = asyncio.gather(*(asyncio.shield(r) for r in running), return_exceptions=True)
            try:
                async with asyncio.timeout(grace):
                    await done
            except TimeoutError:
                # INFO, not WARNING: nothing is lost and nothing is to be done (an update not
                # marked done stays in the queue, its effects fenced: the next owner plays it
                # once), as the worker's "giving back N shards: ... still being sent" line.
                log.info("%s of shards given back still running after %.0f s: left behind "
                         "(the shards' next owner handles what they had not finished)",
                         counted(sum(not r.done() for r in running), "handler"), grace)
                return False
        return True

    def wake(self) -> None:
        self._wake.set()

    def queued(self, key: int) -> bool:
        """Whether updates of route key ``key`` were pulled and wait here, or one is being
        handled (an overdue turn's time-out waits for them: ``Timers.resume``)."""
        return bool(self._lanes.get(key))

    # --- running -----------------------------------------------------------------------------
    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="fleet-feeder")

    async def stop(self) -> None:
        await ended(self._task)
        self._task = None
        await self.release(self.owned)

    async def idle(self) -> None:
        """Wait until nothing is queued here (tests)."""
        while self._runners:
            await asyncio.gather(*self._runners.values(), return_exceptions=True)

    async def _run(self) -> None:
        failing = 0
        while True:
            await wait_set(self._wake, self.poll)
            self._wake.clear()
            try:
                await self.pull()
                if failing:
                    log.info("reading the update queue again after %s",
                             counted(failing, "failure"))
                failing = 0
            except Exception as error:  # the database went away: the next round tries again
                failing += 1
                log.log(logging.WARNING if failing == 1 else logging.DEBUG,
                        "reading the update queue failed (%s): trying again (attempt %d)",
                        cause(error), failing)

    async def pull(self) -> int:
        """Queue what waits in the owned shards; how many updates were new here."""
        owned = self.owned
        if not owned:
            return 0
        self._reads += 1
        read = self._reads
        rows = await sql.waiting_updates(self.pool, owned, self.batch)
        new = 0
        for row in rows:
            if (row.update_id in self._queued or self._finished.get(row.update_id, 0) >= read
                    or row.shard not in self.owned):
                continue
            self._queued.add(row.update_id)
            self._lanes.setdefault(row.route_key, deque()).append(row)
            if row.route_key not in self._runners:
                self._runners[row.route_key] = asyncio.create_task(
                    self._lane(row.route_key), name=f"fleet-lane-{row.route_key}")
            new += 1
        for update_id in [u for u, at in self._finished.items() if at < read]:
            del self._finished[update_id]
        if len(rows) == self.batch:
            self.wake()  # more wait behind these
        return new

    async def _lane(self, key: int) -> None:
        """One route key's updates, one at a time, in order."""
        lane = self._lanes[key]
        try:
            while lane:
                row = lane[0]
                if row.shard not in self.owned:
                    break
                try:
                    # In a context of its own: what its handling binds to the log lines (its
                    # chat, the game it changed: bot.logs.bind) ends with it, and the key's
                    # next update starts with nothing bound, as the single bot's do.
                    await asyncio.create_task(self.handle(row), context=contextvars.copy_context())
                except Exception:
                    # Not marked done: it is read again, and so is what followed it (in order).
                    log.exception("update %d was not handled", row.update_id)
                    break
                lane.popleft()
                self._queued.discard(row.update_id)
                self._finished[row.update_id] = self._reads
                self.handled += 1
        finally:
            for row in lane:
                self._queued.discard(row.update_id)
            del self._lanes[key]
            del self._runners[key]
