"""Turn timers: jobs named per game in PTB's job queue, driven by deadlines in the database.

The database holds each open game's deadline, so a restart loses nothing: overdue turns are
resolved at start-up in deadline order, the others are scheduled again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from telegram.ext import ContextTypes, JobQueue

from .games import Game, GameService, Status
from .locks import Locks

log = logging.getLogger(__name__)


def job_data(context: ContextTypes.DEFAULT_TYPE) -> tuple[int, int]:
    assert context.job is not None
    data: tuple[int, int] = context.job.data  # type: ignore[assignment]
    return int(data[0]), int(data[1])


def job_names(game_id: int) -> tuple[str, str]:
    return f"turn:{game_id}", f"warn:{game_id}"


class Timers:
    def __init__(
        self, job_queue: JobQueue,  # type: ignore[type-arg]
        service: GameService, locks: Locks, clock: Callable[[], float] = time.time,
    ) -> None:
        self.job_queue = job_queue
        self.service = service
        self.locks = locks
        self.clock = clock

    def schedule(self, game: Game) -> None:
        """(Re)arm the game's timer jobs for its current turn, or clear them."""
        for name in job_names(game.game_id):
            for job in self.job_queue.get_jobs_by_name(name):
                job.schedule_removal()
        if game.status is not Status.PLAYING or game.deadline is None:
            return
        turn, warn = job_names(game.game_id)
        now = self.clock()
        data = (game.game_id, game.move_no)
        self.job_queue.run_once(self._expire, when=max(0.0, game.deadline - now), name=turn,
                                data=data)
        half_time = game.deadline - game.turn_seconds / 2 - now
        if not game.timer.warned and half_time > 0:
            self.job_queue.run_once(self._warn, when=half_time, name=warn, data=data)

    async def resume(self) -> None:
        """At start-up: resolve overdue turns in deadline order, arm the others."""
        games = sorted((g for g in self.service.open_games() if g.deadline is not None),
                       key=lambda g: g.deadline or 0.0)
        for game in games:
            if game.deadline is not None and game.deadline <= self.clock():
                await self.expire(game.game_id, game.move_no)
            else:
                self.schedule(game)

    async def expire(self, game_id: int, move_no: int) -> None:
        game = self.service.game(game_id)
        if game is None:
            return
        async with self.locks.game(game_id):
            await self.service.expire(game, move_no)

    async def _expire(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        game_id, move_no = job_data(context)
        try:
            await self.expire(game_id, move_no)
        except Exception:
            log.exception("turn timer of game %s failed", game_id)

    async def _warn(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        game_id, move_no = job_data(context)
        game = self.service.game(game_id)
        if game is None:
            return
        try:
            async with self.locks.game(game_id):
                await self.service.warn(game, move_no)
        except Exception:
            log.exception("turn warning of game %s failed", game_id)
