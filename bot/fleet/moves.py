"""A game changing worker: a group become a supergroup changes id, and with it maybe shard (an
update's route key is its chat). The worker that moved the game lets it go when the new id's
shard is not one it holds, and tells (NOTIFY) that shard's owner, which reads the game and runs
it as it runs a shard's games when taking it; or, never told (the worker killed before it could
tell, or the NOTIFY lost), finds it missing from its memory at its next sweeps. A game read into
its memory before either (a tap naming it) is adopted as it is read. Mixed into
:class:`~bot.fleet.worker.FleetWorker`."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

import asyncpg  # type: ignore[import-untyped]

from ..background import held
from ..errors import StorageError
from ..handlers.runtime import Runtime
from ..logs import counted
from ..models import Game
from ..storage import fleet as sql
from ..storage.outages import cause
from .feeder import DB_ERRORS, Feeder
from .routing import shard_of
from .settings import FleetSettings

log = logging.getLogger(__name__)
#: Seconds a game let go waits for its syncs (as a shard given back does).
SYNC_GRACE = 5.0
#: Seconds between two looks for games in memory of shards this worker does not hold, and for
#: open games of the shards it holds missing from its memory.
SWEEP_EVERY = 5.0
#: What reading or writing the database raises when it fails (asyncpg's, or the storage's).
STORE_ERRORS: tuple[type[Exception], ...] = (*DB_ERRORS, StorageError)


class GameMoves:
    """Running the games of the shards held, and letting go of those that left them."""

    rt: Runtime
    pool: asyncpg.Pool
    settings: FleetSettings
    feeder: Feeder  # (its ``owned``: the shards loaded, whose updates are pulled)
    #: The shards whose games this worker runs: from the start of their loading until
    #: they are evicted (the keeper counts them its own only once loaded).
    holding: frozenset[int]
    _changed: Callable[[Game], None] | None  # the bot's, for games held
    _leaving: dict[int, bool]  # games being let go: whether their new owner is told
    _writes: set[asyncio.Task[None]]
    #: Open games of the shards loaded that memory lacked at the last sweep's look.
    _missing: set[int]
    #: Games whose adoption failed after they were read: the next look adopts them again.
    _unrun: set[int]
    #: The chats being adopted (how many adoptions each): what they read is theirs to run.
    _adopting: dict[int, int]

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        """Run ``work`` in a task :meth:`stop` waits for; what it raises is logged."""
        held(self._writes, work, name).add_done_callback(self._failed)

    @staticmethod
    def _failed(task: asyncio.Task[None]) -> None:
        error = None if task.cancelled() else task.exception()
        if error is not None:
            log.error("%s failed", task.get_name(), exc_info=error)

    async def _run_games(self, games: list[Game], repair: set[int]) -> None:
        """Games read from the database start running here, as at start-up: overdue turns
        resolved and timers armed, and each of them synced, with ``repair`` (games with
        announcements left). Those of a shard given back meanwhile are left alone."""
        rt, count = self.rt, self.settings.shards
        games = [g for g in games if shard_of(g.chat_id, count) in self.holding]
        rt.status_lines.loaded(games)  # started under the last owner
        running = {g.game_id for g in games}
        for game in games:
            self._taken_over(game)
        for game_id in sorted(repair | running):
            held = rt.service.game(game_id)
            if held is None:  # a finished game with announcements left
                held = await rt.service.reload(game_id)
            if held is not None and shard_of(held.chat_id, count) in self.holding:
                if game_id not in running:  # (its last hands may be left to send too)
                    self._taken_over(held)
                rt.limiter.admit_games([game_id])  # (if it was let go from here before)
                rt.publisher.request(game_id)
        await rt.timers.resume(games)

    def _taken_over(self, game: Game) -> None:
        """What the last owner sent lately to the chats a game's syncs send to (its group,
        its people, and those whose seat a computer took: told so) is not in this worker's
        windows: they are counted full (:meth:`FloodLimiter.taken_over
        <bot.publishing.ratelimit.FloodLimiter.taken_over>`); and its hands have had their
        first one (:meth:`~bot.publishing.fleetshares.FleetShares.hands_sent`)."""
        people = {p.user_id for p in game.players if not p.is_computer}
        # (a computer that gave a seat back is in the changes too: no chat of its own)
        left = {c.left.user_id for c in game.seat_changes if not c.left.is_computer}
        for chat in {game.chat_id} | people | left:
            self.rt.limiter.taken_over(chat)
        self.rt.limiter.hands_sent(people, game.game_id)  # (by the last owner: no first one)

    def _on_change(self, game: Game) -> None:
        """A committed change: told the bot (its publisher, its timers), unless the game's
        chat is in a shard this worker does not hold (its group became a supergroup in
        another's shard): then the game is let go to that shard's owner."""
        if shard_of(game.chat_id, self.settings.shards) in self.holding:
            if self._changed is not None:
                self._changed(game)
            return
        self._leave(game, tell=True)

    def _leave(self, game: Game, tell: bool) -> None:
        """Let ``game`` go (:meth:`_let_go`); with ``tell``, the owner of its chat's shard
        reads it then (this worker committed a change of it)."""
        self.rt.timers.cancel(game.game_id)
        self.rt.limiter.refuse({game.chat_id})  # a sync under way ends before its next call
        if game.game_id in self._leaving:
            self._leaving[game.game_id] |= tell
            return
        self._leaving[game.game_id] = tell
        self._spawn(self._let_go(game.game_id, game.chat_id), f"let-go-{game.game_id}")

    async def _let_go(self, game_id: int, chat_id: int) -> None:
        """As :meth:`give` for one game: its syncs end, it leaves memory (what holds its lock
        finishes first), and the owner of its chat's shard is told to read it, if it is to."""
        rt = self.rt
        try:
            if not await self._stop_syncs({game_id: chat_id}):
                log.info("letting game %s go: its messages still being sent after %.0f s, "
                         "stopped there (its next owner sends the rest)", game_id,
                         2 * SYNC_GRACE)
            async with rt.locks.game(game_id):
                game = rt.service.game(game_id)
                if game is not None and shard_of(game.chat_id, self.settings.shards) \
                        not in self.holding:  # (not back in a held shard meanwhile)
                    rt.service.forget([game_id])
                    rt.publisher.tables.forget([game_id])  # its chat's: another's to hear
                    rt.publisher.group.tails.forget(lambda chat: chat == game.chat_id)
                elif game is not None:  # its shard came here while its syncs ended: it stays
                    rt.limiter.admit_games([game_id])
                    rt.publisher.request(game_id)
            rt.status_lines.forget([game_id])
        finally:
            tell = self._leaving.pop(game_id, True)
        log.info("game %s of chat %s, of another worker's shard, let go", game_id, chat_id)
        if not tell:
            return
        for attempt in range(1, 4):
            try:
                await sql.games_moved(self.pool, chat_id)
                return
            except DB_ERRORS as error:
                log.warning("telling the owner of chat %s that game %s is theirs failed (%s): "
                            "attempt %d", chat_id, game_id, cause(error), attempt)
                await asyncio.sleep(attempt)

    async def _stop_syncs(self, games: dict[int, int]) -> bool:
        """Wait until no sync of ``games`` (their ids, with their chats) runs, at most
        :data:`SYNC_GRACE`; then refuse every call made for them, in private chats too
        (:meth:`FloodLimiter.refuse <bot.publishing.ratelimit.FloodLimiter.refuse>`), and wait
        a grace more for a call in flight: a hand that a sync still running past the grace
        would send, or one that a timer job's last commit requested, could otherwise reach a
        person after the next owner counted their window full as it took the game. Whether
        none runs any more."""
        settled = await self.rt.publisher.settled(list(games), SYNC_GRACE)
        self.rt.limiter.refuse((), games)
        return settled or await self.rt.publisher.settled(list(games), SYNC_GRACE)

    async def _sweep(self) -> None:
        """Every :data:`SWEEP_EVERY`, the games in memory of shards this worker does not hold
        are let go too, quietly (what read them changed nothing): read by an update of an
        upgraded group's old id handled here after its game had left (a tap routed before
        the upgrade was committed), or by a private command reading a person's games. And
        the open games of the shards it holds missing from memory are adopted (:meth:`_look`):
        games let go to it by a worker that could not tell it (killed before its NOTIFY, or
        the NOTIFY failed or was lost)."""
        count = self.settings.shards
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            for game in self.rt.service.games_in(frozenset(range(count)) - self.holding, count):
                if game.game_id not in self._leaving:
                    self._leave(game, tell=False)
            await self._look(at_once=False)

    async def _look(self, at_once: bool) -> None:
        """Adopt the games of the shards loaded that memory lacks: open ones missing at this
        look and the last (not one being opened now, whose table is in memory a moment after
        its row), or ``at_once`` (notifications may have been lost: with the games with
        announcements left too); and those whose adoption failed. Ids and chats are read, no
        match, unless a game is missing."""
        rt, count = self.rt, self.settings.shards
        shards = self.feeder.owned  # (not those a take is loading now)
        try:
            found = await sql.open_game_chats(rt.storage, shards, count)
            if at_once:
                found = await sql.outbox_game_chats(rt.storage, shards, count) | found
        except STORE_ERRORS as error:
            log.warning("looking for the games missing from memory failed (%s): next time",
                        cause(error))
            return
        except Exception:
            log.exception("looking for the games missing from memory failed: next time")
            return
        missing = {i for i in found if rt.service.game(i) is None and i not in self._leaving}
        self._unrun &= found.keys()
        if at_once:
            due = missing | self._unrun
        else:
            due = missing & self._missing | self._unrun
            self._missing = missing
        for chat in sorted({found[i] for i in due}):
            await self._adopt(chat)

    def _loaded(self, game: Game) -> None:
        """An open game memory lacked was read into it (a tap naming it, a command, a table
        opened where it is: :attr:`GameMemory.on_load <bot.service.memory.GameMemory.on_load>`),
        before anything adopted it: one of a shard loaded is adopted now, with its chat's other
        games, rather than waiting for its next move. (One of a shard being taken, the take
        runs; one of a shard not held, the sweep lets go.)"""
        chat = game.chat_id
        if shard_of(chat, self.settings.shards) in self.feeder.owned \
                and chat not in self._adopting:
            self._spawn(self._adopt(chat), f"adopt-{chat}")

    def _heard_games(self, payload: str | None) -> None:
        """Another worker let games of a chat go: if this one holds its shard, it reads them
        (None: notifications may have been lost; every held shard's open games missing from
        memory are read)."""
        if payload is None:
            self._spawn(self._look(at_once=True), "adopt-missing")
            return
        chat = int(payload) if payload.lstrip("-").isdigit() else None
        if chat is not None and shard_of(chat, self.settings.shards) in self.holding:
            self._spawn(self._adopt(chat), f"adopt-{chat}")

    async def _adopt(self, chat: int) -> None:
        """Read and run the games of ``chat``: its open ones, each under its lock (a tap that
        read it meanwhile keeps its object), and those with announcements left. Read under
        the chat's lock, so that a table being opened there is in memory first. A failure is
        logged, and the next sweep tries again."""
        rt, count = self.rt, self.settings.shards
        ids: set[int] = set()
        self._adopting[chat] = self._adopting.get(chat, 0) + 1
        try:
            async with rt.locks.chat(chat):
                found = await sql.open_games_in(rt.storage, chat)
                ids = {fresh.game_id for fresh in found}
                repair = set()
                for game_id in await sql.outbox_games_in(rt.storage, chat):
                    if game_id not in ids and await rt.service.find(game_id) is not None:
                        repair.add(game_id)
                games = []
                for fresh in found:
                    async with rt.locks.game(fresh.game_id):
                        if shard_of(chat, count) not in self.holding:
                            continue  # given back meanwhile
                        # A copy read before the game moved here (a private command) names
                        # its old chat's messages: the row's replace them.
                        held = rt.service.game(fresh.game_id)
                        game = await rt.service.reload(
                            fresh.game_id, whole=held is not None and held.chat_id != chat)
                    if game is not None and game.status.open:
                        games.append(game)
            await self._run_games(games, repair)
        except STORE_ERRORS as error:
            self._unrun |= ids
            log.warning("reading the games of chat %s failed (%s): the next sweep reads them",
                        chat, cause(error))
            return
        except Exception:
            self._unrun |= ids
            log.exception("adopting the games of chat %s failed: the next sweep tries again",
                          chat)
            return
        finally:
            if self._adopting[chat] > 1:
                self._adopting[chat] -= 1
            else:
                del self._adopting[chat]
        self._unrun -= ids
        if games or repair:
            log.info("took over %s of chat %s", counted(len(games) + len(repair), "game"),
                     chat)
