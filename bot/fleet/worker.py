"""A worker: the bot's Application without an updater, fed from the fleet's queue.

Started from the Application's post_init (:func:`bot.app.build_application` with ``fleet``
settings), stopped before the Application stops. It owns shards (:mod:`bot.fleet.shards`);
for each shard it takes it does what the single process does at start-up, for it only: loads
its open games, resolves its overdue turns and arms its timers, and syncs every game with
committed announcements or messages to repair. It gives a shard back in the reverse order:
stops pulling, lets what is in flight finish, cancels the shard's timers, stops its groups'
syncs before their next call (a call in flight finishes), evicts its games, and forgets their
tables waiting to come down (/table) and what it knew of its chats' newest messages. Each update
is handled inside the fence (:mod:`bot.storage.fencing`): the first effect transaction or tap
answer marks it done, or the worker does after the handler.

A game whose chat changes shard (a group become a supergroup: its new id's shard may be
another worker's, where its updates now go) is let go the same way, alone, as soon as the
change is committed, and that shard's owner is told (NOTIFY) to read it and run it (or, not
told, finds it missing from its memory within a few sweeps: :meth:`GameMoves._look`, or
runs it as soon as anything reads it into memory: :meth:`GameMoves._loaded`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Collection

import asyncpg  # type: ignore[import-untyped]
from telegram.ext import Application

from ..handlers.runtime import KEY, Runtime
from ..logs import counted
from ..models import Game
from ..publishing.fleetshares import RAISE_MARGIN, for_update
from ..serving.webhook import read_update
from ..storage import fencing
from ..storage import fleet as sql
from ..storage.fleet import QueuedUpdate
from ..storage.outages import cause
from ..storage.restores import take_mark
from .feeder import DB_ERRORS, Feeder
from .listener import Listener
from .moves import SYNC_GRACE, GameMoves
from .routing import shard_of
from .settings import LISTEN_APPLICATION, LIVE_WORKERS, FleetSettings, application_name
from .shards import ShardKeeper, lock_key

log = logging.getLogger(__name__)
#: Seconds a shard given back waits for the handlers in flight, then for its games' syncs.
HANDLER_GRACE = 10.0
#: Handled updates are kept this long, so a late second delivery is still recognised (a
#: webhook Telegram could not deliver is kept up to 24 hours).
KEEP_DONE = 24 * 3600.0
PURGE_EVERY = 600.0
PURGE_FIRST = 60.0


class FleetWorker(GameMoves):
    def __init__(self, application: Application, settings: FleetSettings  # type: ignore[type-arg]
                 ) -> None:
        self.application = application
        self.settings = settings
        rt = application.bot_data[KEY]
        assert isinstance(rt, Runtime)
        self.rt = rt
        self.pool: asyncpg.Pool = rt.storage.pool
        url: str = rt.storage.pg_url
        self.feeder = Feeder(self.pool, self.handle, poll=settings.poll)
        self.keeper = ShardKeeper(url, settings.shards, lock_key(rt.config.token),
                                  settings.worker_name, self.take, self.give,
                                  tick=settings.tick)
        self.listener = Listener(url, {sql.UPDATES_CHANNEL: self._heard_update,
                                       sql.FLOOD_CHANNEL: self._heard_flood,
                                       sql.GAMES_CHANNEL: self._heard_games},
                                 application_name(LISTEN_APPLICATION, settings.worker_name))
        self.holding = frozenset()
        self._changed = None
        self._leaving = {}
        self._missing = set()
        self._unrun = set()
        self._adopting = {}
        self._purging: asyncio.Task[None] | None = None
        self._counting: asyncio.Task[None] | None = None
        self._sweeping: asyncio.Task[None] | None = None
        self._writes: set[asyncio.Task[None]] = set()
        self._senders_of: dict[int, tuple[int, float]] = {}  # a private chat: (count, until)
        self._giving: frozenset[int] = frozenset()  # shards being given back now

    # --- lifecycle ---------------------------------------------------------------------------
    async def start(self) -> None:
        await sql.agree_shards(self.pool, self.settings.shards)
        await self._unmark()
        for chat, until in (await sql.flood_waits(self.pool, time.time())).items():
            self.rt.limiter.hold(chat, until - time.time())
        self.rt.limiter.on_pause = self._paused
        self.rt.limiter.foreign = self._foreign
        self.rt.limiter.senders = self._senders
        self._changed = self.rt.service.on_change
        self.rt.service.on_change = self._on_change
        self.rt.service.on_load = self._loaded
        # A turn found overdue as a shard is taken waits for its group's queued updates.
        self.rt.timers.queued = lambda game: self.feeder.queued(game.chat_id)
        # Nothing counted goes before the others have seen this worker and shrunk their
        # parts of the overall limit (they count every tick), and a period more has passed.
        period = self.rt.limiter.limits.overall[1]
        self.rt.limiter.join_overall(await self._live(),
                                     2 * self.settings.tick + period * RAISE_MARGIN)
        self._counting = asyncio.create_task(self._count(), name="fleet-count")
        self.feeder.start()
        self.listener.start()
        self.keeper.start()
        self._purging = asyncio.create_task(self._purge(), name="fleet-purge")
        self._sweeping = asyncio.create_task(self._sweep(), name="fleet-sweep")
        log.info("fleet worker %s started: %s in the fleet", self.settings.worker_name,
                 counted(self.settings.shards, "shard"))

    async def _unmark(self) -> None:
        """A restored backup's mark (:mod:`bot.storage.restores`) left in the database, by a
        copy to PostgreSQL made before the copy left it behind, is taken away by the first
        worker: a fleet sends no game's messages anew (a tap on a hand message newer than
        its game knows gets the hand sent again, as after any restore without the mark), and
        a single bot started on the database later must not tell the groups that moves made
        since were undone (operator QA: it did, weeks after the copy)."""
        made = await take_mark(self.rt.storage)
        if made is not None:
            log.info("the database carried a restored backup's mark (made %s): removed; a "
                     "fleet sends no game's messages anew", time.strftime(
                         "%Y-%m-%d %H:%M:%S UTC", time.gmtime(made)))

    async def stop(self) -> None:
        """Give every shard back (what is in flight finishes), then stop listening."""
        for task in (self._purging, self._counting, self._sweeping):
            if task is not None:
                task.cancel()
        await self.keeper.stop()
        await self.feeder.stop()
        await self.listener.stop()
        if self._writes:
            await asyncio.gather(*self._writes, return_exceptions=True)

    # --- shards ------------------------------------------------------------------------------
    async def take(self, shards: frozenset[int]) -> None:
        """What start-up does, for ``shards``: their games loaded, overdue turns resolved and
        timers armed, committed announcements sent and messages synced."""
        rt, count = self.rt, self.settings.shards
        rt.limiter.admit([c for c in rt.limiter.refused
                          if isinstance(c, int) and shard_of(c, count) in shards])
        # (their people's commands were another's to answer until now)
        rt.limiter.took_chats(lambda chat: shard_of(chat, count) in shards)
        rt.limiter.admit_handlers(shards)
        self.holding |= shards
        try:
            games = await rt.service.load_open_games(shards=shards, shard_count=count)
            for person in {p.user_id for g in games for p in g.players}:
                self._senders_of.pop(person, None)  # (counted with these shards another's)
            # with their games closed lately: a closing edit the last owner's death cut off
            # is made (review: a table kept "My tiles" after its match ended), as at a start
            closed = await rt.service.closed_lately(shards, count)
            await self._run_games(games, set(await rt.service.outbox_games(shards, count))
                                  | set(closed))
        except BaseException:
            self.holding -= shards
            raise
        self.feeder.own(shards)
        log.info("took %s (%d now): %s", counted(len(shards), "shard"),
                 len(self.keeper.owned) + len(shards), counted(len(games), "open game"))

    async def give(self, shards: frozenset[int]) -> None:
        """Let ``shards`` go: stop pulling, finish in flight, cancel timers, evict."""
        rt, count = self.rt, self.settings.shards
        try:
            await self.feeder.release(shards, HANDLER_GRACE)
            rt.limiter.refuse_handlers(shards)  # (those left behind send nothing more)
            games = rt.service.games_in(shards, count)
            for game in games:
                rt.timers.cancel(game.game_id)
            # The groups' syncs stop before their next call (a call in flight finishes), so
            # nothing is sent twice: whatever is left, the next owner's first sync sends; the
            # hands being sent go on until the syncs settle, and no further.
            rt.limiter.refuse({g.chat_id for g in games})
            await self._reshare(shards, games)
            if not await self._stop_syncs({g.game_id: g.chat_id for g in games}):
                log.info("giving back %s: their games' messages still being sent after %.0f s, "
                         "stopped there (the next owner sends the rest)",
                         counted(len(shards), "shard"), 2 * SYNC_GRACE)
            async with contextlib.AsyncExitStack() as held:  # what runs inside a game's lock
                for game_id in sorted(g.game_id for g in games):  # (a timer job) finishes 1st
                    await held.enter_async_context(rt.locks.game(game_id))
                rt.service.evict(shards, count)  # and what waits for one finds the game gone
            rt.status_lines.forget(g.game_id for g in games)
            # a /table waiting, and the chats' newest messages: the next owner hears them
            rt.publisher.tables.forget([g.game_id for g in games])
            rt.publisher.group.tails.forget(lambda chat: shard_of(chat, count) in shards)
        finally:  # (raising or cancelled: the sweep lets go what is left of these shards)
            self.holding -= shards
            self._giving -= shards
        log.info("gave back %s: %s memory", counted(len(shards), "shard"),
                 counted(len(games), "game left", "games left"))

    # --- updates -----------------------------------------------------------------------------
    async def handle(self, row: QueuedUpdate) -> None:
        """One update, fenced; marked done after its handler unless an effect did it."""
        update = read_update(row.data(), self.application.bot)  # (None: one line, skipped)
        with fencing.handling(row.update_id, self._mark_for_answer) as fence, \
                for_update(row.shard):
            if update is not None:
                await self.application.process_update(update)
            if self.rt.limiter.refuses_handlers(row.shard):
                return  # (left behind, its replies refused: the next owner handles it again)
            await self._mark(row, fence)

    async def _mark_for_answer(self, fence: fencing.UpdateFence) -> bool:
        """Before a tap's answer: the update marked done with this handling's stamp (so the
        shard's next owner skips it, and answers nothing); False when another worker had.
        A failure to mark sends no answer (at most once: the player taps again)."""
        try:
            return await sql.mark_own(self.pool, fence.update_id, fence.stamp)
        except DB_ERRORS as error:
            log.warning("marking update %d before its answer failed (%s): not answered",
                        fence.update_id, cause(error))
            return False

    async def _mark(self, row: QueuedUpdate, fence: fencing.UpdateFence) -> None:
        attempt = 0
        while not fence.marked:
            try:
                await sql.mark_own(self.pool, row.update_id, fence.stamp)
                fence.marked = True  # (also when another worker had: nothing more to do)
            except DB_ERRORS as error:
                if row.shard not in self.feeder.owned:
                    return  # the next owner reads it again; its fence decides
                attempt += 1
                log.log(logging.WARNING if attempt == 1 else logging.DEBUG,
                        "marking update %d done failed (%s): trying again (attempt %d)",
                        row.update_id, cause(error), attempt)
                await asyncio.sleep(min(5.0, 0.5 * attempt))

    def _heard_update(self, payload: str | None) -> None:
        if payload is None or not payload.isdigit() or int(payload) in self.feeder.owned:
            self.feeder.wake()

    # --- flood waits, fleet-wide -------------------------------------------------------------
    def _paused(self, chat: int | str, seconds: float) -> None:
        if isinstance(chat, int):
            self._spawn(self._tell_flood(chat, time.time() + seconds), f"flood-{chat}")

    async def _tell_flood(self, chat: int, until: float) -> None:
        try:
            await sql.flood_wait(self.pool, chat, until)
        except DB_ERRORS as error:
            log.warning("telling the fleet of chat %s's flood wait failed: %s", chat, cause(error))

    def _heard_flood(self, payload: str | None) -> None:
        heard = None if payload is None else sql.parse_flood(payload)
        if heard is not None:
            chat, until = heard
            self.rt.limiter.hold(chat, until - time.time())

    # --- a private chat several workers send to ----------------------------------------------
    async def _reshare(self, shards: frozenset[int], games: list[Game]) -> None:
        """``games`` go to another worker with ``shards``, which sends their hands from now
        on: a person seated at a table this one keeps has one more sender, so this worker's
        part of their private chat shrinks now, before the lock goes, and not when the count
        it knew (up to a period old) is asked again: the next owner counts the window full
        as it takes the shard, then keeps its own part. (Made outside any game's sync, the
        smaller part applies without the two periods' wait of a hand's: that wait is for other
        workers' counts a period old, and here no other worker's count changes, the shard
        being another's before and after; the next owner counts the window full.)"""
        self._giving |= shards
        given = {g.game_id for g in games}
        kept = {p.user_id for g in self.rt.service.open_games() if g.game_id not in given
                for p in g.players if not p.is_computer}
        people = sorted(kept.intersection(
            p.user_id for g in games for p in g.players if not p.is_computer))
        for person in people:
            self._senders_of.pop(person, None)
        # Asked at once, not one after another: the handover waits for them.
        counts = await asyncio.gather(*(self._senders(person) for person in people))
        for person, senders in zip(people, counts, strict=True):
            # (at least this one and the next owner, even when the database cannot say)
            self.rt.limiter.share_private(person, max(2, senders))

    async def _senders(self, chat: int) -> int:
        """How many workers may send to this person's private chat now: this one, and the
        owner of each other shard among their open tables' groups (counted apart: two may be
        one worker; a shard being given back is another's, one being taken this one's).
        Asked again once a private window's period has passed; while the database cannot
        say, the last count (or this worker alone) is kept for a period too, not asked again
        by every waiting call."""
        now = time.monotonic()
        known = self._senders_of.get(chat)
        if known is not None and known[1] > now:
            return known[0]
        try:
            chats = await sql.chats_of_player(self.pool, chat)
        except DB_ERRORS:  # (the keeper says so)
            count = known[0] if known is not None else 1
        else:
            count = 1 + len({shard_of(c, self.settings.shards) for c in chats}
                            - (self.holding - self._giving))
        if len(self._senders_of) > 4096:
            self._senders_of = {k: v for k, v in self._senders_of.items() if v[1] > now}
        self._senders_of[chat] = (count, now + self.rt.limiter.limits.private[1])
        return count

    def _foreign(self, chat: int | str) -> bool:
        """A private chat whose own shard (its person's commands) another worker owns."""
        return isinstance(chat, int) and shard_of(chat, self.settings.shards) \
            not in self.keeper.owned

    # --- the overall limit, shared -----------------------------------------------------------
    async def _live(self) -> int:
        """The live workers, this one counted even before its lock connection is open
        (counting one too many only makes the parts smaller)."""
        live = await sql.connections(self.pool, LIVE_WORKERS)
        return max(1, live + (0 if self.keeper.connected else 1))

    async def _count(self) -> None:
        """Every tick, this worker's part of the overall limit from the live workers: apart
        from the keeper's ticks, which may be long (a shard's games loading)."""
        seen = 0
        while True:
            await asyncio.sleep(self.settings.tick)
            try:
                live = await self._live()
            except DB_ERRORS:
                continue  # (the keeper says so)
            self.rt.limiter.share_overall(live)
            if live != seen:
                log.info("%s: this one sends up to %d a second", counted(live, "worker live",
                                                                          "workers live"),
                         max(1, self.rt.limiter.limits.overall[0] // live))
                seen = live

    # --- housekeeping ------------------------------------------------------------------------
    async def _purge(self) -> None:
        """Every :data:`PURGE_EVERY` (the first soon after the start), :meth:`purge`."""
        await asyncio.sleep(PURGE_FIRST)
        while True:
            try:
                await self.purge()
            except DB_ERRORS as error:
                log.warning("trimming handled updates failed (%s): next time", cause(error))
            await asyncio.sleep(PURGE_EVERY)

    async def purge(self, now: float | None = None) -> int:
        """Drop the owned shards' updates handled more than :data:`KEEP_DONE` ago (each
        worker trims its own shards, so the operator has nothing to schedule)."""
        owned: Collection[int] = self.keeper.owned
        if not owned:
            return 0
        gone = await sql.forget_done(self.pool, owned, (now or time.time()) - KEEP_DONE)
        if gone:
            log.info("trimmed %s", counted(gone, "handled update"))
        return gone
