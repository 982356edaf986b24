"""Computer players think in a process pool, so that the event loop never waits for them.

A decision costs tens of milliseconds of pure Python for the hard player (it searches the
deals that fit what it has seen) and a few hundred for the expert, which in the bot's own
process would hold the interpreter lock while every other group waits. The pool's workers
get what a decision needs as plain data (a :class:`Question`: the match's record, the seat,
the level, the seed of its ``random.Random``) and answer with the index of the chosen action
among the seat's legal ones, so a decision is the same in a worker as inline. The caller
applies it only if the game is still at that move.

Workers start with "forkserver" (never a fork of the bot's threads and event loop). A pool
that breaks (a worker killed) or hangs is replaced, and that one decision is made in a thread
instead; the decisions the old pool still held are asked again of the new one: a game never
waits for a pool that is gone. A decision that raises leaves the pool as it is (the seat then
plays its safest move). Closing never waits for a worker.
Ctrl-C and a closed terminal, which reach every process of the bot's group, leave the pool's
processes to the bot, which stops them itself (:func:`_leave_with_the_bot`,
:func:`_hangups_held`). Workers leave when the bot's process dies, however it dies, and
the resource tracker then removes the pool's semaphores without a word (:data:`TRACKER_QUIET`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import random
import signal
import sys
import threading
import warnings
from collections.abc import Iterator
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import spawn
from multiprocessing.connection import wait

from engine import Match, ai, match_from_json, match_to_json, player_view

log = logging.getLogger(__name__)
#: After this long a worker is taken for hung: the pool is replaced, the move made inline.
PATIENCE = 10.0
#: How many times a decision is asked of a pool (each replaced under it) before it is made
#: in a thread.
ASKS = 3
#: A warnings filter for multiprocessing's resource tracker, a process that outlives a bot
#: killed by SIGKILL: it then removes the pool's queues' semaphores (five), as it is there to
#: do, but warns "There appear to be 5 leaked semaphore objects to clean up at shutdown", a
#: traceback-like line in the bot's log about nothing left behind. The tracker takes the
#: bot's ``-W`` options (``sys.warnoptions``) when it starts: this one silences its
#: ``resource_tracker: ...`` UserWarnings, and nothing else.
TRACKER_QUIET = "ignore:resource_tracker:UserWarning:multiprocessing.resource_tracker"


@dataclass(frozen=True, slots=True)
class Question:
    """Everything one decision needs, as plain (picklable) data."""

    record: str  # the match as JSON: options, deals, actions (never the deals' seeds)
    seat: int
    level: str
    seed: str  # for random.Random: the same question always gets the same answer
    move_no: int  # where the game was when asked; the answer counts only there

    @classmethod
    def of(cls, match: Match, seat: int, level: str, seed: str, move_no: int) -> Question:
        # Without the seeds: a seed makes the whole deal, every other seat's tiles included.
        return cls(match_to_json(match, seeds=False), seat, level, seed, move_no)


def decide(question: Question) -> int:
    """The index of the chosen action among the seat's legal actions (a worker runs this)."""
    match = match_from_json(question.record)
    view = player_view(match, question.seat)
    action = ai.player(question.level).choose(view, random.Random(question.seed))
    return view.legal.index(action)


def fallback(question: Question) -> int:
    """The index of the seat's safest action (what a time-out plays): the answer when the
    decision itself cannot be made."""
    view = player_view(match_from_json(question.record), question.seat)
    return view.legal.index(ai.safest_action(view))


def _raised_by_decide(future: Future[int] | None, exc: BaseException) -> bool:
    """Whether ``exc`` is what :func:`decide` raised in a worker (not a broken pool's error,
    nor the time-out of a hung one)."""
    return (future is not None and future.done() and not future.cancelled()
            and future.exception() is exc and not isinstance(exc, BrokenExecutor))


def _said(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _ready() -> int:
    """A worker's first task: importing the engine before a game waits for it."""
    return os.getpid()


def _leave_with_the_bot() -> None:
    """Each worker's initializer: exit as soon as the bot's process is gone.

    A worker waits for its next question on a queue whose writing end it holds itself, and
    it holds the forkserver's "alive" pipe too, so after a SIGKILL of the bot nothing it
    waits on ever ends: workers and forkserver would stay forever. The parent's sentinel
    (a pipe only the bot writes to) reaches its end when the bot dies; a thread waits for
    that. The forkserver and the resource tracker then see their own pipes end and exit.
    """
    parent = multiprocessing.parent_process()
    if parent is None:  # not a worker: run in the bot's own process
        return
    # Ctrl-C reaches every process of the terminal's group: the bot stops its workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sentinel = parent.sentinel

    def watch() -> None:
        wait([sentinel])
        os._exit(0)  # nothing of the bot is left to answer to

    threading.Thread(target=watch, name="leave-with-the-bot", daemon=True).start()


@contextlib.contextmanager
def _hangups_held() -> Iterator[None]:
    """SIGHUP blocked in this thread while the pool's processes start, which inherit it
    blocked: the forkserver, the resource tracker, and the workers the forkserver forks. A
    closed terminal hangs up every process of its group, as Ctrl-C interrupts them; the bot
    stops its workers itself (operator QA: a resource tracker killed by it was relaunched,
    and printed a traceback for each of the pool's locks at the stop). One that comes
    meanwhile is delivered afterwards."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGHUP})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


class Thinker:
    """The pool of worker processes; ``await choose(question)`` from the event loop."""

    def __init__(self, workers: int | None = None, method: str = "forkserver") -> None:
        self.workers = workers or max(1, min(4, (os.cpu_count() or 2) - 1))
        self.method = method if method in multiprocessing.get_all_start_methods() else "spawn"
        self.restarts = 0  # pools replaced after breaking or hanging
        self.inline = 0  # decisions made in a thread because the pool failed
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False
        #: Why no pool can be made here (a container without a writable /dev/shm, where
        #: its locks live): every decision is then made in a thread, said once.
        self.no_pool: str | None = None

    def start(self) -> None:
        """Start the workers now (at the bot's start) rather than on the first move; where
        the system gives no process pool, say so once and think in a thread from then on."""
        self._closed = False
        if self._pool is None and self.no_pool is None:
            if TRACKER_QUIET not in sys.warnoptions:  # before the tracker starts
                sys.warnoptions.append(TRACKER_QUIET)
            # ... and in the bot's own process: "process died unexpectedly, relaunching"
            # where its python cannot run (the pool's failure is said in one line below)
            warnings.filterwarnings("ignore", "resource_tracker:", UserWarning,
                                    "multiprocessing.resource_tracker")
            unrunnable = self._unrunnable()
            if unrunnable is not None:  # before any of the pool's locks is made
                self._think_inline(unrunnable)
                return
            context = multiprocessing.get_context(self.method)
            if self.method == "forkserver":
                context.set_forkserver_preload(["bot.service.thinker"])
            pool: ProcessPoolExecutor | None = None
            try:
                with _hangups_held():
                    pool = ProcessPoolExecutor(self.workers, mp_context=context,
                                               initializer=_leave_with_the_bot)
                    for _ in range(self.workers):  # the workers start here: this can fail
                        pool.submit(_ready)
            except (OSError, BrokenExecutor, RuntimeError) as exc:
                # Its queues' locks could not be made, or its workers could not start (a
                # forkserver refused: the venv's python not runnable by the service user).
                if pool is not None:
                    with contextlib.suppress(Exception):  # what it started, if anything
                        _stop(pool)
                self._think_inline(_said(exc))
                return
            self._pool = pool

    def _unrunnable(self) -> str | None:
        """Why the workers' python cannot be run by this user (forkserver and spawn run
        it anew: a venv's python left to another user), or None."""
        if self.method == "fork":
            return None
        executable = os.fsdecode(spawn.get_executable() or "")
        if executable and os.access(executable, os.X_OK):
            return None
        return f"its python {executable!r} cannot be run by this user"

    def _think_inline(self, cause: str) -> None:
        self.no_pool = cause
        log.warning("computer players think in a thread of the bot, not in worker"
                    " processes: the system gave no process pool (%s)", cause)

    async def choose(self, question: Question) -> int | None:
        """The chosen action's index (made in a thread when the pool fails); None once the
        thinker is closed: the bot is stopping, and the move is made after its restart.

        A decision still queued when the pool is replaced (another game's decision broke or
        hung it) was cancelled with that pool, not by this game: it is asked again, of the
        new pool. A decision that raises for its position leaves the pool as it is: it is
        made once more in a thread, and should that fail too the seat plays the safest move,
        as a time-out would (:func:`fallback`): a game never waits for a move that cannot be
        decided. Each answer depends only on the question (its record and seed)."""
        for _ in range(ASKS):
            if self._closed:
                return None
            pool: ProcessPoolExecutor | None = None
            future: Future[int] | None = None
            try:
                if self._pool is None:
                    self.start()
                pool = self._pool
                if pool is None:  # none can be made here (start said why): in a thread
                    break
                future = pool.submit(decide, question)
                async with asyncio.timeout(PATIENCE):
                    return await asyncio.wrap_future(future)
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if task is not None and task.cancelling():  # its caller stopped: it stops
                    raise
                if self._closed:  # closed under it: the bot is stopping
                    return None
                continue  # cancelled with its pool, replaced under it: ask the new one
            except Exception as exc:
                if self._closed:  # closed under it: the bot is stopping (operator QA: a warning)
                    return None
                if pool is not None and pool is not self._pool:
                    continue  # another decision broke or hung its pool: ask the new one
                if _raised_by_decide(future, exc):  # in a worker that is fine: kept
                    log.warning("a %s player's decision failed (%s): made again in a thread",
                                question.level, _said(exc))
                else:  # a broken or hung pool (or one that cannot start)
                    log.warning("the thinking pool failed (%s): replacing it", _said(exc))
                    self._replace()
                break
        self.inline += 1
        try:
            return await asyncio.to_thread(decide, question)
        except Exception as exc:
            log.warning("a %s player's decision failed (%s): its seat plays the safest move",
                        question.level, _said(exc))
            return fallback(question)

    def _replace(self) -> None:
        old, self._pool = self._pool, None
        self.restarts += 1
        if old is not None:
            _stop(old)
        if not self._closed:
            try:
                self.start()
            except Exception:
                log.exception("the thinking pool could not start again; thinking inline")

    def close(self) -> None:
        """Stop the workers without waiting for them (a SIGTERM must not wait on a move)."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            _stop(pool)


def _stop(pool: ProcessPoolExecutor) -> None:
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:  # a worker busy with a search is not waited for
        if process.is_alive():
            process.kill()
    # Its workers gone, the pool's manager thread ends at once; until it has, an exit right
    # after (a process refused at start) races it for the pool's wake-up pipe, which Python
    # 3.11 then writes after closing it: "Exception ignored ... Bad file descriptor".
    if isinstance(manager, threading.Thread) and manager is not threading.current_thread():
        manager.join(timeout=2.0)
