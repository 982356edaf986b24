"""Turn timers: jobs named per game in PTB's job queue, driven by deadlines in the database.

The database holds each open game's deadline, so a restart loses nothing: at start-up every
open game's timers are armed again, an overdue turn's time-out a short grace later (for the
updates that waited meanwhile: :meth:`Timers.resume`). A fleet worker does the same for the
games of each shard it takes, and cancels their jobs when it gives one back.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from telegram.ext import ContextTypes, Job, JobQueue

from ..errors import StorageError, UserError
from ..logs import bind
from ..models import Game, Status
from ..service import GameService
from ..service.locks import Locks
from ..service.thinker import Thinker

log = logging.getLogger(__name__)


def job_data(context: ContextTypes.DEFAULT_TYPE) -> tuple[int, int]:
    assert context.job is not None
    data: tuple[int, int] = context.job.data  # type: ignore[assignment]
    return int(data[0]), int(data[1])


#: A timer job runs however late the event loop gets to it: APScheduler's default skips a job
#: more than a second late, which would leave that turn without its move until a restart.
LATE_OK = {"misfire_grace_time": None}


#: Seconds a turn found overdue when its game starts running (the bot's start, a fleet worker
#: taking its shard) waits before its time-out move is played: see :meth:`Timers.resume`.
OVERDUE_GRACE = 5.0
#: Seconds at most, past the grace, that such a time-out waits while updates of its game are
#: still queued here to be handled (:attr:`Timers.queued`), looking again every
#: :data:`OVERDUE_STEP`.
OVERDUE_WAIT = 30.0
OVERDUE_STEP = 0.5
#: Seconds before a timer job that failed (not refused: a database error, say) runs again,
#: doubled at each failure of the game's jobs in a row, up to :data:`RETRY_MOST`.
RETRY_FIRST = 2.0
RETRY_MOST = 60.0


def nothing_queued(game: Game) -> bool:
    return False


def job_names(game_id: int) -> tuple[str, str, str]:
    return f"turn:{game_id}", f"warn:{game_id}", f"computer:{game_id}"


class Timers:
    """Turn deadlines, half-time warnings, and the paced moves of computer players."""

    def __init__(
        self, job_queue: JobQueue,  # type: ignore[type-arg]
        service: GameService, locks: Locks, clock: Callable[[], float] = time.time,
        computer_pause: float = 2.0, thinker: Thinker | None = None,
        overdue_grace: float = OVERDUE_GRACE,
    ) -> None:
        self.job_queue = job_queue
        self.service = service
        self.locks = locks
        self.clock = clock
        self.computer_pause = computer_pause
        self.overdue_grace = overdue_grace
        #: Whether updates that may concern a game are queued here, still to be handled: a
        #: fleet worker's (its group's lane in the feeder); the single bot knows of none.
        self.queued: Callable[[Game], bool] = nothing_queued
        self._overdue: dict[int, float] = {}  # an overdue turn's game: how long it may wait
        self.thinker = thinker or Thinker()
        # The jobs armed, by name: found at once. The job queue finds a name by wrapping
        # every job it holds (``get_jobs_by_name``), three times a move: 1.7 ms a move with
        # 1,000 jobs armed, 9 ms with 5,000, on the event loop.
        self._armed: dict[str, Job[Any]] = {}
        self._failures: dict[int, int] = {}  # a game's timer jobs failed in a row: how many

    def cancel(self, game_id: int) -> None:
        """Remove the game's timer jobs (it ended, or its shard went to another worker)."""
        self._overdue.pop(game_id, None)
        self._failures.pop(game_id, None)  # (its turn's timers armed anew: the move was made)
        for name in job_names(game_id):
            job = self._armed.pop(name, None)
            # A job that has run is gone from the scheduler already: nothing to remove.
            if job is not None and self.job_queue.scheduler.get_job(job.job.id) is not None:
                job.schedule_removal()

    def _arm(self, name: str, when: float, data: tuple[int, int]) -> None:
        self._armed[name] = self.job_queue.run_once(self._job, when=when, name=name,
                                                    data=data, job_kwargs=LATE_OK)

    def schedule(self, game: Game, not_before: float = 0.0) -> None:
        """(Re)arm the game's timer jobs for its current turn, or clear them; its time-out
        in ``not_before`` seconds at the earliest."""
        self.cancel(game.game_id)
        if game.status is not Status.PLAYING:
            return
        turn, warn, move = job_names(game.game_id)
        data = (game.game_id, game.move_no)
        match = game.match
        if match is not None and match.to_move is not None and (
            game.players[match.to_move].is_computer
        ):
            # One computer move per pause: the group sees each move, not a burst.
            self._arm(move, self.computer_pause, data)
        if game.deadline is None:
            return
        now = self.clock()
        self._arm(turn, max(not_before, game.deadline - now), data)
        half_time = game.deadline - game.turn_seconds / 2 - now
        if not game.timer.warned and half_time > 0:
            self._arm(warn, half_time, data)

    async def resume(self, games: Iterable[Game] | None = None) -> None:
        """At start-up (or for the games of shards a fleet worker took): every open game's
        timers armed again; a turn already overdue (or due sooner) times out
        :attr:`overdue_grace` seconds from now, in deadline order, not at once.

        While no process ran the game (the bot restarting, a dead fleet worker's shard not
        taken yet), its player may have moved: the tap waits at Telegram (for the next
        getUpdates, or the webhook set at start) or in the fleet's queue (``fleet_updates``,
        pulled once the shard is taken), and is read only once the game runs again. A
        time-out played at once would come first and refuse a move made in time. The updates
        that waited come within a second or so of the start (the first poll, Telegram's
        delivery to the new webhook, the feeder's first pull of the shards taken); a move
        among them takes the game's lock, commits, and arms the timers of the next turn in
        place of the time-out job of the turn as loaded (one already running finds its move
        number out of date and does nothing). A turn nobody played is still resolved within
        seconds. (A tap made while the bot was down after the deadline counts too: a
        callback query does not say when it was made.)

        A fleet worker knows more: the updates it pulled for a game's group (:attr:`queued`).
        After a whole fleet was down, the backlog of every group may take longer than the
        grace to handle; there the time-out waits on while its group's updates are queued,
        up to :data:`OVERDUE_WAIT` more (a group chatting on must not hold a turn for ever,
        nor an update that is stuck). The single bot has no such count of its own (Telegram
        hands it what waited in the first polls, and each update is handled at once,
        concurrently): the grace alone."""
        games = self.service.open_games() if games is None else games
        for game in sorted(games, key=lambda g: g.deadline or 0.0):
            self.schedule(game, not_before=self.overdue_grace)
            now = self.clock()
            if game.deadline is not None and game.deadline - now < self.overdue_grace:
                self._overdue[game.game_id] = now + self.overdue_grace + OVERDUE_WAIT

    def _holds(self, game_id: int, move_no: int) -> bool:
        """Whether an overdue turn found at :meth:`resume` waits on (its time-out job is
        armed again for a step): updates of its game are still queued, within its wait."""
        until = self._overdue.get(game_id)
        if until is None:
            return False
        game = self.service.game(game_id)
        if game is not None and game.move_no == move_no and self.clock() < until \
                and self.queued(game):
            self._arm(job_names(game_id)[0], OVERDUE_STEP, (game_id, move_no))
            return True
        del self._overdue[game_id]
        return False

    async def _locked(
        self, action: Callable[[Game, int], Awaitable[object]], game_id: int, move_no: int
    ) -> None:
        """Run a service step for the turn made at ``move_no`` under the game's lock."""
        game = self.service.game(game_id)
        if game is None:
            return
        async with self.locks.game(game_id):
            if self.service.game(game_id) is game:  # (not evicted meanwhile: see _held)
                await action(game, move_no)

    async def _job(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Every timer job: a time-out, a half-time warning, or a computer player's move."""
        assert context.job is not None and context.job.name is not None
        kind = context.job.name.split(":")[0]
        game_id, move_no = job_data(context)
        game = self.service.game(game_id)  # (its lines are its game's: jobs start unbound)
        bind(chat=None if game is None else game.chat_id, game=game_id)
        try:
            if game_id in self._failures and not await self._reread(game_id, move_no):
                return
            if kind == "computer":
                await self.computer_move(game_id, move_no)
            elif kind == "turn" and self._holds(game_id, move_no):
                return
            else:
                action = {"turn": self.service.expire, "warn": self.service.warn}[kind]
                await self._locked(action, game_id, move_no)
        except UserError as refusal:
            # Expected: another process made this turn's move first (a fleet's shard changing
            # hands), and the commit's check refused this one; memory was read again.
            log.info("%s job of game %s refused: %s", kind, game_id, refusal.message)
            game = self.service.game(game_id)
            if kind == "computer" or (game is not None and game.move_no != move_no):
                self._again(game_id)  # (a turn's timers again only for a turn that moved on)
        except Exception as exc:
            # A database that failed (or any other error): memory was read again as the
            # database has it, and the job tries again a little later, each time later (a
            # table whose every human is away moves only by its time-outs).
            first = game_id not in self._failures
            delay = self._failed(game_id)
            # The database's trouble is one line; anything else is a bug, whose traceback
            # is shown at its first failure in a row (it is tried again all the same)
            expected = isinstance(exc, StorageError | OSError | sqlite3.Error)
            log.warning("%s job of game %s failed (%s): tried again in %g s", kind, game_id,
                        f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__,
                        delay, exc_info=None if expected or not first else exc)
            self._retry(context.job.name, game_id, move_no, delay)
        else:
            self._failures.pop(game_id, None)

    async def _reread(self, game_id: int, move_no: int) -> bool:
        """Before a job tries again what failed: the game read again from the database (its
        reading after the failure may have failed too, leaving memory ahead); False, with
        the timers of its turn armed, when it has moved on from ``move_no``."""
        if self.service.game(game_id) is not None:
            async with self.locks.game(game_id):
                game = await self.service.reload(game_id)
            if game is not None and game.move_no == move_no:
                return True
            if game is not None:
                self.schedule(game)
                return False
        self._failures.pop(game_id, None)
        return False

    def _failed(self, game_id: int) -> float:
        """Seconds until a failed job of the game runs again: :data:`RETRY_FIRST`, doubled
        at each failure in a row, :data:`RETRY_MOST` at most."""
        failures = self._failures.get(game_id, 0)
        self._failures[game_id] = failures + 1
        return min(RETRY_MOST, RETRY_FIRST * 2.0 ** min(failures, 16))

    def _retry(self, name: str, game_id: int, move_no: int, delay: float) -> None:
        """Arm a failed job again in ``delay`` seconds; if the game has moved on meanwhile
        (the database had another move), its current turn's timers instead."""
        game = self.service.game(game_id)
        if game is None:
            return
        if game.move_no != move_no or game.status is not Status.PLAYING:
            self.schedule(game)
            return
        armed = self._armed.get(name)
        if armed is not None and self.job_queue.scheduler.get_job(armed.job.id) is not None:
            return  # armed again meanwhile (by a resume): it runs then
        self._arm(name, delay, (game_id, move_no))

    def _again(self, game_id: int) -> None:
        """A computer's move failed, or a timer's move was refused (memory was behind the
        database: it was read again): its jobs are armed again from the state read, so the
        game never waits for a move nobody will make."""
        game = self.service.game(game_id)
        if game is not None:
            self.schedule(game)

    async def computer_move(self, game_id: int, move_no: int) -> None:
        """A computer player's move: asked under the game's lock, thought out in the
        thinker's pool with the lock free (taps and other games go on), and played under
        the lock again only if the game is still at ``move_no``."""
        game = self.service.game(game_id)
        if game is None:
            return
        async with self.locks.game(game_id):
            question = self.service.computer_question(game, move_no)
        if question is None:
            return
        choice = await self.thinker.choose(question)
        if choice is None:
            return  # the bot is stopping: the move is made after its restart
        async with self.locks.game(game_id):
            if self.service.game(game_id) is game:
                await self.service.computer_move(game, question, choice)
            # else a fleet worker gave the game's shard away while this player thought: the
            # next owner resumed the turn, and a stale object must not commit it here

