"""A game changing worker: a group become a supergroup changes id, and with it maybe shard (an
update's route key is its chat). The worker that moved the game lets it go when the new id's
shard is not one it holds, and tells (NOTIFY) that shard's owner, which reads the game and runs
it as it runs a shard's games when taking it. Mixed into :class:`~bot.fleet.worker.FleetWorker`."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

import asyncpg  # type: ignore[import-untyped]

from ..handlers.runtime import Runtime
from ..logs import counted
from ..models import Game
from ..storage import fleet as sql
from .feeder import DB_ERRORS, Feeder
from .routing import shard_of
from .settings import FleetSettings

log = logging.getLogger(__name__)
#: Seconds a game let go waits for its syncs (as a shard given back does).
SYNC_GRACE = 5.0
#: Seconds between two looks for games in memory of shards this worker does not hold.
SWEEP_EVERY = 5.0


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

    async def _run_games(self, games: list[Game], repair: set[int]) -> None:
        """Games read from the database start running here, as at start-up: overdue turns
        resolved and timers armed, and each of them synced, with ``repair`` (games with
        announcements left)."""
        rt = self.rt
        rt.status_lines.loaded(games)  # started under the last owner
        for game in games:  # what the last owner sent lately is not in this one's windows
            for chat in {game.chat_id} | {p.user_id for p in game.players
                                          if not p.is_computer}:
                rt.limiter.taken_over(chat)
        for game_id in sorted(repair | {g.game_id for g in games}):
            if rt.service.game(game_id) is None:
                await rt.service.reload(game_id)  # a finished game with announcements left
            rt.publisher.request(game_id)
        await rt.timers.resume(games)

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
        task = asyncio.create_task(self._let_go(game.game_id, game.chat_id),
                                   name=f"let-go-{game.game_id}")
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def _let_go(self, game_id: int, chat_id: int) -> None:
        """As :meth:`give` for one game: its syncs end, it leaves memory (what holds its lock
        finishes first), and the owner of its chat's shard is told to read it, if it is to."""
        rt = self.rt
        try:
            deadline = time.monotonic() + SYNC_GRACE
            while rt.publisher._busy(game_id) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            async with rt.locks.game(game_id):
                game = rt.service.game(game_id)
                if game is not None and shard_of(game.chat_id, self.settings.shards) \
                        not in self.holding:  # (not back in a held shard meanwhile)
                    rt.service.forget([game_id])
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
                            "attempt %d", chat_id, game_id, error, attempt)
                await asyncio.sleep(attempt)

    async def _sweep(self) -> None:
        """Every :data:`SWEEP_EVERY`, the games in memory of shards this worker does not hold
        are let go too, quietly (what read them changed nothing): read by an update of an
        upgraded group's old id handled here after its game had left (a tap routed before
        the upgrade was committed), or by a private command reading a person's games."""
        count = self.settings.shards
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            for game in self.rt.service.games_in(frozenset(range(count)) - self.holding, count):
                if game.game_id not in self._leaving:
                    self._leave(game, tell=False)

    def _heard_games(self, payload: str | None) -> None:
        """Another worker let games of a chat go: if this one holds its shard, it reads them
        (None: notifications may have been lost; every held shard's open games missing from
        memory are read)."""
        chat = int(payload) if payload is not None and payload.lstrip("-").isdigit() else None
        if payload is not None and (
                chat is None or shard_of(chat, self.settings.shards) not in self.holding):
            return
        task = asyncio.create_task(self._adopt(chat), name=f"adopt-{chat}")
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def _adopt(self, chat: int | None) -> None:
        """Read and run the games of ``chat`` (None: those of the held shards not in memory),
        each under its lock (a tap that read it meanwhile keeps its object)."""
        rt, count = self.rt, self.settings.shards
        # (None: of the shards loaded, not those a take is loading now)
        shards = self.feeder.owned if chat is None else frozenset({shard_of(chat, count)})
        try:
            found = await sql.open_games_of(rt.storage, shards, count)
            outbox = await rt.service.outbox_games(shards, count)
            held = {i for i in [g.game_id for g in found] + outbox if rt.service.game(i)}

            def wanted(game_id: int, game_chat: int) -> bool:
                return game_chat == chat if chat is not None else game_id not in held
            repair = set()
            for game_id in outbox:
                done = await rt.service.find(game_id)
                if done is not None and wanted(game_id, done.chat_id):
                    repair.add(game_id)
            games = []
            for fresh in found:
                if not wanted(fresh.game_id, fresh.chat_id):
                    continue
                async with rt.locks.game(fresh.game_id):
                    if shard_of(fresh.chat_id, count) not in self.holding:
                        continue  # given back meanwhile
                    game = await rt.service.reload(fresh.game_id)
                if game is not None and game.status.open:
                    games.append(game)
            await self._run_games(games, repair)
        except DB_ERRORS as error:
            log.warning("reading the games of chat %s failed (%s): its next move or this "
                        "worker's next take of its shard reads them", chat, error)
            return
        if games or repair:
            log.info("took over %s of chat %s", counted(len(games) + len(repair), "game"),
                     chat)

