"""The thread that draws the pictures: off the event loop, the group's table first.

Drawing and encoding a picture takes milliseconds of CPU, most of it in Pillow and zlib with
the interpreter lock released, so a worker thread uses the second core while the event loop
answers taps. One thread: a FreeType face must not be used by two at once. After a move, the
table and the hands of the player who moved and of the next one are all waiting to be drawn:
the table is what the whole group is looking at, so it is drawn before any hand queued earlier
(a drawing already under way is finished first). A long drawing (a replay: a few hundred
milliseconds) comes in steps, and between two of its steps the thread draws whatever more
urgent came meanwhile, so no group's table waits for another group's replay.
"""

from __future__ import annotations

import asyncio
import enum
import itertools
import queue
import threading
from collections.abc import Callable, Generator
from dataclasses import dataclass


class Urgency(enum.IntEnum):
    """Lower is drawn first."""

    TABLE = 0
    HAND = 1
    REPLAY = 2  # a hand told again: asked for, not waited on by a game


#: A drawing in steps: a generator that yields between its steps and returns the picture.
Steps = Generator[None, None, bytes]


def _at_once(drawing: Callable[[], bytes]) -> Steps:
    """A drawing of one step."""
    return drawing()
    yield  # never reached: makes this a generator


@dataclass(frozen=True)
class _Job:
    steps: Steps  # not started until the thread takes it
    future: asyncio.Future[bytes]
    loop: asyncio.AbstractEventLoop


#: A place in the queue: (urgency, the order asked in, the job; None: the thread ends).
_Entry = tuple[int, int, _Job | None]


class Painter:
    """Runs drawings in one worker thread, most urgent first, then in the order asked."""

    def __init__(self, name: str = "pictures") -> None:
        self._jobs: queue.PriorityQueue[_Entry] = queue.PriorityQueue()
        self._numbers = itertools.count()
        self._name = name
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def draw(self, drawing: Callable[[], bytes], urgency: Urgency) -> asyncio.Future[bytes]:
        """The picture ``drawing`` makes, drawn in the worker thread."""
        return self.draw_steps(_at_once(drawing), urgency)

    def draw_steps(self, steps: Steps, urgency: Urgency) -> asyncio.Future[bytes]:
        """The picture ``steps`` returns, drawn in the worker thread; more urgent drawings
        asked for meanwhile are drawn between its steps."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bytes] = loop.create_future()
        self._start()
        self._jobs.put((urgency, next(self._numbers), _Job(steps, future, loop)))
        return future

    def close(self) -> None:
        """Let the worker thread end once it has drawn what it was asked for."""
        with self._lock:
            if self._thread is not None:
                self._jobs.put((len(Urgency), next(self._numbers), None))  # after every job
                self._thread = None

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name=self._name, daemon=True)
                self._thread.start()

    def _work(self) -> None:
        while True:
            urgency, number, job = self._jobs.get()
            if job is None:
                return
            if job.future.cancelled():
                job.steps.close()
                continue  # nobody waits for it any more (a stopping sync)
            try:
                while True:
                    next(job.steps)
                    if job.future.cancelled():  # nobody waits for the rest
                        job.steps.close()
                        break
                    if self._more_urgent_than(urgency):  # its turn again after those
                        self._jobs.put((urgency, number, job))
                        break
            except StopIteration as done:
                self._settle(job, done.value, None)
            except BaseException as error:  # handed to the awaiting coroutine
                self._settle(job, None, error)

    def _more_urgent_than(self, urgency: int) -> bool:
        """Whether a drawing more urgent than ``urgency`` waits (the queue's head is its
        most urgent)."""
        with self._jobs.mutex:
            return bool(self._jobs.queue) and self._jobs.queue[0][0] < urgency

    @staticmethod
    def _settle(job: _Job, picture: bytes | None, error: BaseException | None) -> None:
        def settle() -> None:
            if job.future.cancelled():
                return
            if error is not None:
                job.future.set_exception(error)
            else:
                assert picture is not None
                job.future.set_result(picture)

        try:
            job.loop.call_soon_threadsafe(settle)
        except RuntimeError:
            pass  # the event loop is closed: nobody waits for the picture
