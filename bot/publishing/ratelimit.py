"""Telegram's flood limits kept exactly, and a flood wait that pauses its own chat only.

What counts: the calls that put something in a chat, sends, edits, copies and forwards (not
``sendChatAction``). Telegram documents "no more than 20 messages per minute in one group,
about 30 messages per second overall, about one a second in one chat"; edits are counted too
(a bot editing fast is answered 429 like one sending fast), while answers to taps, deletes,
reads (getMe, getChat...) and getUpdates are not messages and are never held back. The fake
Bot API server counts the same calls (``fakeapi.ratelimit.counts_toward_limits``).

Each limit is a rolling window, not a token bucket: at most ``count`` counted calls in any
``period``; a group has a second, shorter one at the same rate (its pace, see
:data:`GROUP_BURST`). A call holds its slot from the moment it is let go until ``period`` after its
answer came back: Telegram counts it somewhere in between, so the next call that reuses the
slot cannot reach Telegram within ``period`` of it, whatever the latency. A call whose answer
never came (an error, a time-out) keeps its slot too: it may have counted.

A 429 (``RetryAfter``) pauses the one chat it came from for exactly ``retry_after`` seconds
from its answer: every call to that chat, counted or not, waits; every other chat goes on.
Outside the publisher's syncs the call is tried again after the pause (a command's reply);
inside a sync (``no_retries``) the error goes to the publisher, whose next sync draws the
latest state when the chat is free again, rather than sending a stale picture late.

In a fleet (:mod:`bot.fleet`) each worker sends for the chats of the shards it owns, so a
group's windows are kept by one worker; a person seated at tables of several workers' shards
hears from each, which keeps its part of their private chat's window (``senders``); the
overall one is shared, each worker taking its part (:meth:`FloodLimiter.share_overall`). The
other workers' sends are never in this one's windows: slots they may have used are counted as
used (:meth:`FloodLimiter._used_elsewhere`). A 429 is told to the other workers
(``on_pause``), which pause that chat too (:meth:`FloodLimiter.hold`). A worker giving
a shard away refuses its groups' calls from then on (:meth:`FloodLimiter.refuse`): a sync
still running there stops before its next call, and the next owner sends what is left.

Stopping (``drain``): from then on a 429 is not waited out, and after a grace period (at
once if a call fails meanwhile: Telegram is down) every call still waiting or in flight ends
with :class:`StoppingError`, so the bot stops within seconds even while Telegram fails every
call. What was committed stays in the database and
is sent after the restart.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeGuard

from telegram._utils.types import JSONDict
from telegram.error import (
    BadRequest,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)
from telegram.ext import BaseRateLimiter

from ..storage import fencing
from ..waiting import wait_set

log = logging.getLogger(__name__)

_EXEMPT = frozenset({"sendChatAction"})
_RETRIES: contextvars.ContextVar[bool] = contextvars.ContextVar("flood_retries", default=True)
# (the task that asked, its question): a task it starts inherits the context, not the question
_WANTED: contextvars.ContextVar[tuple[asyncio.Task[Any] | None, Callable[[], bool]] | None] = \
    contextvars.ContextVar("call_wanted", default=None)


def counted(endpoint: str) -> bool:
    """Whether Telegram counts the call towards its flood limits (sends, edits, copies,
    forwards)."""
    return endpoint.startswith(("send", "edit", "copy", "forward")) and endpoint not in _EXEMPT


class StoppingError(TelegramError):
    """The bot is stopping: the call was not made, and is not retried."""

    def __init__(self) -> None:
        super().__init__("the bot is stopping")


class AbandonedError(StoppingError, TimedOut):
    """The bot stopped while the call was in flight: Telegram may have acted on it (a
    ``TimedOut``, so ``delivery.outcome_unknown`` treats it as a lost answer)."""


class WithdrawnError(TelegramError):
    """The call was not made: when its turn to go came, it was no longer wanted
    (:func:`only_if`)."""

    def __init__(self) -> None:
        super().__init__("the call was no longer wanted")


@contextmanager
def only_if(wanted: Callable[[], bool]) -> Iterator[None]:
    """Inside: a call held back by a limit asks ``wanted()`` when its turn to go comes, with
    no await between that answer and the call going; False drops it (:class:`WithdrawnError`):
    what it says may have become untrue while it waited."""
    token = _WANTED.set((asyncio.current_task(), wanted))
    try:
        yield
    finally:
        _WANTED.reset(token)


@contextmanager
def no_retries() -> Iterator[None]:
    """Inside: a 429 is raised to the caller at once (its chat is still paused)."""
    token = _RETRIES.set(False)
    try:
        yield
    finally:
        _RETRIES.reset(token)


def private_chat(chat: int | str | None) -> TypeGuard[int]:
    """Whether ``chat`` is a person's private chat (a positive id); a group's, a supergroup's
    and a channel's are negative, and a channel may be named by its ``"@username"``."""
    return isinstance(chat, int) and chat > 0


def seconds_of(error: RetryAfter) -> float:
    wait = error.retry_after
    return float(wait) if isinstance(wait, (int, float)) else wait.total_seconds()


# A group's budget is also spread over its window: at most this many calls in the part of
# its period that earns them (``Limits.group_pace``). Twenty edits a minute let go as they
# come would go out in the first seconds of a busy game and leave the group's table frozen
# for the rest of the minute while the players play on in private; three in any 9 s (at 20
# a minute) keep it moving every 3 s, the latest state each time, and still let a hand's
# result and its new table go together.
GROUP_BURST = 3
#: A fleet worker's larger share of the overall limit (a worker left) applies this many
#: periods after it was seen: the one that left may have sent until then, and clocks jitter.
RAISE_MARGIN = 1.1


@dataclass(frozen=True, slots=True)
class Limits:
    """The windows: (count, period in seconds) per group, per private chat and overall."""

    overall: tuple[int, float] = (30, 1.0)
    group: tuple[int, float] = (20, 60.0)
    private: tuple[int, float] = (3, 3.0)

    @property
    def group_pace(self) -> tuple[int, float]:
        """The group's shorter window, at the same rate: :data:`GROUP_BURST` calls in the
        time its budget earns them."""
        count, period = self.group
        burst = min(GROUP_BURST, count)
        return burst, period * burst / count


class Window:
    """At most ``count`` calls in any rolling ``period``: the answered calls' end times, and
    how many are still in flight (each holds a slot until ``period`` after its answer)."""

    __slots__ = ("count", "period", "_ends", "_open")

    def __init__(self, count: int, period: float) -> None:
        self.count = count
        self.period = period
        self._ends: deque[float] = deque()
        self._open = 0

    def free_at(self, now: float) -> float:
        """When a slot is free (``now`` if one is; inf while every slot is in flight)."""
        excess = self._open + self.held(now) - self.count
        if excess < 0:
            return now
        if excess >= len(self._ends):
            return math.inf
        return self._ends[excess] + self.period

    def held(self, now: float) -> int:
        """How many answered calls still hold a slot at ``now`` (older ends are dropped)."""
        while self._ends and self._ends[0] + self.period <= now:
            self._ends.popleft()
        return len(self._ends)

    def take(self) -> None:
        self._open += 1

    def finish(self, at: float) -> None:
        self._open -= 1
        self._ends.append(at)

    def add(self, sends: int, at: float) -> None:
        """``sends`` calls answered ``at``, made by another worker (each holds a slot)."""
        self._ends.extend([at] * sends)

    def idle(self, now: float) -> bool:
        """Nothing held at ``now``: no call in flight, none answered within a period."""
        return self._open == 0 and self.held(now) == 0


class FloodLimiter(BaseRateLimiter[None]):
    """The bot's rate limiter (see the module's docstring)."""

    def __init__(self, limits: Limits, max_retries: int = 3,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.max_retries = max_retries
        self.clock = clock
        self._overall = Window(*limits.overall)
        self._chats: dict[int | str, tuple[Window, ...]] = {}
        self._paused: dict[int | str, float] = {}
        self._changed = asyncio.Event()
        self._draining = False
        self._failing = False  # the last call failed for want of Telegram (5xx, network)
        self._closed = False
        self._refused: set[int | str] = set()  # chats whose calls end with StoppingError
        self._raising: asyncio.TimerHandle | None = None  # a larger overall share, soon
        self._raising_to = 0
        self._calls: set[asyncio.Task[Any]] = set()  # tasks with a call in flight
        self._abandoned: set[asyncio.Task[Any]] = set()
        #: How many calls each chat had answered with 429 (the benchmark reports them).
        self.flood_waits: dict[int | str, int] = {}
        #: Told the seconds of each flood wait (the metrics).
        self.on_flood_wait: Callable[[float], None] | None = None
        #: Whether another worker also sends to a private chat (a fleet: the chat's own shard
        #: is not this worker's); its window then starts with one send counted.
        self.foreign: Callable[[int | str], bool] | None = None
        #: How many workers may send to a private chat at once (a fleet: its person sits at
        #: tables of shards other workers own); each keeps that part of the chat's window.
        self.senders: Callable[[int], Awaitable[int]] | None = None
        #: Told each chat Telegram paused and for how many seconds (a fleet tells the others).
        self.on_pause: Callable[[int | str, float], None] | None = None

    async def initialize(self) -> None:
        """Nothing to open."""

    async def shutdown(self) -> None:
        self.close()

    # --- waiting for a slot --------------------------------------------------------------
    def _windows(self, chat: int | str) -> tuple[Window, ...]:
        """A chat's windows: a group's minute and its pace, or a private chat's one."""
        windows = self._chats.get(chat)
        if windows is None:
            if private_chat(chat):
                windows = (Window(*self.limits.private),)
                if self.foreign is not None and self.foreign(chat):
                    # Another worker answers this person's own commands (their /start's
                    # greeting, maybe just now): one send.
                    self._used_elsewhere(windows[0], 1)
            else:  # a group, a supergroup or a channel
                windows = (Window(*self.limits.group), Window(*self.limits.group_pace))
            if len(self._chats) > 4096:
                self._forget(self.clock())
            self._chats[chat] = windows
        return windows

    def _forget(self, now: float) -> None:
        """Forget the chats whose windows hold nothing at ``now``, but for a private chat's
        part (:meth:`_share_private`): forgotten, it would come back whole, and its growth,
        which counts the slots gained as used, would go unseen."""
        whole = self.limits.private[0]
        for key in [k for k, ws in self._chats.items() if all(w.idle(now) for w in ws)
                    and not (private_chat(k) and ws[0].count < whole)]:
            del self._chats[key]

    def _free_at(self, chat: int | str | None, count: bool, now: float) -> float:
        at = now
        if chat is not None:
            at = max(at, self._paused.get(chat, now))
            if count:
                at = max(at, *(window.free_at(now) for window in self._windows(chat)))
        if count:
            at = max(at, self._overall.free_at(now))
        return at

    async def _wait(self, chat: int | str | None, count: bool, take: bool = True
                    ) -> list[Window]:
        """Wait until the call may go, then take its slots (no await in between)."""
        while True:
            if self._closed or chat in self._refused:
                raise StoppingError
            now = self.clock()
            at = self._free_at(chat, count, now)
            if at <= now:
                if take and (asked := _WANTED.get()) is not None \
                        and asked[0] is asyncio.current_task() and not asked[1]():
                    raise WithdrawnError
                windows = [] if not (count and take) else [self._overall] if chat is None \
                    else [self._overall, *self._windows(chat)]
                for window in windows:
                    window.take()
                return windows
            changed = self._changed
            # a slot frees when its time comes
            await wait_set(changed, None if at == math.inf else at - now)

    async def ready(self, chat_id: int) -> None:
        """Wait until a counted call to ``chat_id`` could go now, without taking a slot: the
        publisher draws a table only then, so what it sends is the latest state."""
        await self._wait(chat_id, True, take=False)

    def free_now(self, chat_id: int) -> bool:
        """Whether a counted call to ``chat_id`` could go now (:meth:`ready` would not wait)."""
        now = self.clock()
        return not self._closed and chat_id not in self._refused \
            and self._free_at(chat_id, True, now) <= now

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    # --- one call ------------------------------------------------------------------------
    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | JSONDict | list[JSONDict]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: None,
    ) -> bool | JSONDict | list[JSONDict]:
        if endpoint == "answerCallbackQuery" and not await fencing.may_answer():
            log.info("tap of update %s: another worker handled it and answers it",
                     getattr(fencing.current.get(), "update_id", None))
            return True
        chat = _chat_of(data.get("chat_id"))
        count = counted(endpoint)
        if count and self.senders is not None and private_chat(chat):
            self._share_private(chat, await self.senders(chat))
        attempt = 0
        while True:
            windows = await self._wait(chat, count)
            try:
                result = await self._call(callback, args, kwargs)
                self._failing = False
                return result
            except RetryAfter as exc:
                if chat is None:
                    raise
                self._pause(chat, seconds_of(exc))
                attempt += 1
                if not _RETRIES.get() or self._draining or attempt > self.max_retries:
                    raise
                log.info("%s in chat %s: flood wait of %s s", endpoint, chat, seconds_of(exc))
            except NetworkError as exc:
                if not isinstance(exc, (BadRequest, Forbidden)):
                    self._failing = True
                    if self._draining:
                        self.close()  # stopping while Telegram fails: waiting is no use
                raise
            finally:
                end = self.clock()
                for window in windows:
                    window.finish(end)
                self._notify()

    def _share_private(self, chat: int, senders: int) -> None:
        """This worker's part of a private chat's window when ``senders`` workers may send
        there, none knowing the others' sends: together at most the chat's limit (up to as
        many senders as the window has slots; one each beyond that). A part that grows (a
        table elsewhere ended, or this worker took its shard over) gains slots that were the
        other workers' (:meth:`_used_elsewhere`)."""
        window = self._windows(chat)[0]
        share = max(1, self.limits.private[0] // max(1, senders))
        self._used_elsewhere(window, share - window.count)
        window.count = share

    def _used_elsewhere(self, window: Window, slots: int) -> None:
        """Slots another worker may have used are counted as used: its sends are never in
        this worker's windows, so ``slots`` sends answered just now are counted in
        ``window``, and none of those slots is used here until a period has passed. How many
        is the caller's: a private chat whose person another worker answers, one; a part of
        a private window that grows, the slots it gains; a chat taken over from a worker
        that died, all of the window but what this worker sent there itself."""
        if slots > 0:
            window.add(slots, self.clock())

    async def _call(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | JSONDict | list[JSONDict]]],
        args: Any,
        kwargs: dict[str, Any],
    ) -> bool | JSONDict | list[JSONDict]:
        """The call, in its caller's task (no extra hop: the bot records a sent message's id
        as soon as it can), which stopping may cancel: it then ends with AbandonedError."""
        task = asyncio.current_task()
        assert task is not None
        self._calls.add(task)
        try:
            return await callback(*args, **kwargs)
        except asyncio.CancelledError:
            if task in self._abandoned:
                raise AbandonedError from None
            raise
        finally:
            self._calls.discard(task)
            if task in self._abandoned:
                self._abandoned.discard(task)
                task.uncancel()

    def _pause(self, chat: int | str, seconds: float) -> None:
        """A 429 from ``chat``: nothing goes there for ``seconds`` from now (its answer)."""
        self.flood_waits[chat] = self.flood_waits.get(chat, 0) + 1
        if self.on_flood_wait is not None:
            self.on_flood_wait(seconds)
        if self.on_pause is not None:
            self.on_pause(chat, seconds)
        self.hold(chat, seconds)

    def hold(self, chat: int | str, seconds: float) -> None:
        """Nothing goes to ``chat`` for ``seconds`` from now (a flood wait; in a fleet, one
        another worker was told)."""
        now = self.clock()
        self._paused[chat] = max(self._paused.get(chat, 0.0), now + seconds)
        for key in [k for k, until in self._paused.items() if until <= now]:
            del self._paused[key]
        self._notify()

    def refuse(self, chats: Iterable[int | str]) -> None:
        """No call goes to ``chats`` any more (those waiting end at once) with
        :class:`StoppingError`: a fleet worker gave their shard to another, whose syncs send
        what is committed; a call in flight finishes."""
        self._refused.update(chats)
        self._notify()

    def admit(self, chats: Iterable[int | str]) -> None:
        """Calls to ``chats`` go again (their shard came back)."""
        self._refused.difference_update(chats)

    @property
    def refused(self) -> frozenset[int | str]:
        return frozenset(self._refused)

    def share_overall(self, workers: int, delay: float | None = None) -> None:
        """A fleet of ``workers``: this one may send its part of the overall limit (the
        parts never add up to more than the whole). A smaller part applies at once; a larger
        one (a worker left) only ``delay`` later (a period and :data:`RAISE_MARGIN`), since
        what the one that left sent in its last period still counts. Told the same count
        again, a raise already pending keeps its time; no raise comes before one pending
        (a worker joining waits its whole delay)."""
        total, period = self.limits.overall
        count = max(1, total // max(1, workers))
        if count <= self._overall.count:
            self._cancel_raise()
            self._overall.count = count
        elif self._raising is None or self._raising_to != count:
            loop = asyncio.get_running_loop()
            at = loop.time() + (period * RAISE_MARGIN if delay is None else delay)
            if self._raising is not None:  # a smaller part is due when the larger one was
                pending = self._raising.when()
                at = pending if count < self._raising_to else max(at, pending)
            self._cancel_raise()
            self._raising_to = count
            self._raising = loop.call_at(at, self._set_overall, count)

    def join_overall(self, workers: int, delay: float) -> None:
        """A worker joining a fleet of ``workers`` (itself counted): nothing counted goes
        until ``delay`` has passed (the others have seen it and shrunk their parts, and what
        they sent with their larger parts is a period old), then its part."""
        self._cancel_raise()
        self._overall.count = 0
        self.share_overall(workers, delay)

    def _cancel_raise(self) -> None:
        if self._raising is not None:
            self._raising.cancel()
            self._raising = None

    def _set_overall(self, count: int) -> None:
        self._raising = None
        self._overall.count = count
        self._notify()

    def taken_over(self, chat: int | str) -> None:
        """Another worker sent to ``chat`` until now: its short window (a private chat's 3 in
        3 s, a group's pace) is counted full (:meth:`_used_elsewhere`)."""
        window = self._windows(chat)[-1]
        whole = self.limits.private[0] if private_chat(chat) else window.count  # (a part grows)
        # (this worker's sends of more than a period ago, kept still, are not the last owner's)
        self._used_elsewhere(window, whole - window.held(self.clock()))

    # --- stopping ------------------------------------------------------------------------
    def drain(self, grace: float) -> None:
        """Stop retrying flood waits now, and close after ``grace`` seconds (at once while
        Telegram fails)."""
        if self._draining:
            return
        self._draining = True
        if self._failing:
            self.close()  # Telegram is down: nothing more will go out before the exit
        else:
            asyncio.get_running_loop().call_later(grace, self.close)

    @property
    def draining(self) -> bool:
        return self._draining

    def close(self) -> None:
        """Every call waiting or in flight ends with :class:`StoppingError`; no new one goes."""
        self._draining = self._closed = True
        for task in self._calls - self._abandoned:
            self._abandoned.add(task)
            task.cancel()
        self._notify()


def _chat_of(value: object) -> int | str | None:
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            return value  # "@channelname"
    return None
