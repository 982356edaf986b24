"""Telegram's flood limits kept exactly, and a flood wait that pauses its own chat only.

This is the bot's rate limiter (PTB's ``BaseRateLimiter``): it holds each call back until
its chat's windows and the overall one have a slot, pauses a chat Telegram answered 429, and
ends every call when the bot stops. What counts and how a window keeps a limit are
:mod:`.floodwindows`; what a fleet worker does with its share of the limits is
:mod:`.fleetshares` (a base of :class:`FloodLimiter`).

A 429 (``RetryAfter``) pauses the one chat it came from for exactly ``retry_after`` seconds
from its answer: every call to that chat, counted or not, waits; every other chat goes on.
Outside the publisher's syncs the call is tried again after the pause (a command's reply);
inside a sync (``no_retries``) the error goes to the publisher, whose next sync draws the
latest state when the chat is free again, rather than sending a stale picture late.

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
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from contextlib import contextmanager
from typing import Any

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
from .fleetshares import FleetShares
from .floodwindows import Limits, Window, counted, private_chat

log = logging.getLogger(__name__)

_RETRIES: contextvars.ContextVar[bool] = contextvars.ContextVar("flood_retries", default=True)
# (the task that asked, its question): a task it starts inherits the context, not the question
_WANTED: contextvars.ContextVar[tuple[asyncio.Task[Any] | None, Callable[[], bool]] | None] = \
    contextvars.ContextVar("call_wanted", default=None)


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


def seconds_of(error: RetryAfter) -> float:
    wait = error.retry_after
    return float(wait) if isinstance(wait, (int, float)) else wait.total_seconds()


class FloodLimiter(FleetShares, BaseRateLimiter[None]):
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
        self._refused_games: dict[int, tuple[int | str, float]] = {}  # and games' (chat, when)
        self._refused_shards: set[int] = set()  # and the handlers' of their updates
        self._hands_for: dict[int, dict[int, float]] = {}  # a private chat's recent games
        self._took: list[tuple[Callable[[int], bool], float]] = []  # shards taken lately
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
        #: tables of shards other workers own); each keeps that part of the chat's window,
        #: asked each time a counted call there may go.
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
                self._made_private(windows[0], chat)
            else:  # a group, a supergroup or a channel
                windows = (Window(*self.limits.group), Window(*self.limits.group_pace))
            if len(self._chats) > 4096:
                self._forget(self.clock())
            self._chats[chat] = windows
        return windows

    def _forget(self, now: float) -> None:
        """Forget the chats whose windows hold nothing at ``now``, but for a private chat's
        part (:meth:`share_private`): forgotten, it would come back whole, and its growth,
        which counts the slots gained as used, would go unseen."""
        for key in [k for k, ws in self._chats.items() if all(w.idle(now) for w in ws)
                    and not (private_chat(k)
                             and (ws[0].count, ws[0].period) != self.limits.private)]:
            del self._chats[key]
        self.forget_hands(self._chats)

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
            if count and self.senders is not None and private_chat(chat) and not self._closed:
                # (asked each time the call may go: a call that waited goes with its part of
                # now, not with the one of when it came, which may be more than a period old)
                self.share_private(chat, await self.senders(chat))
            if self._closed or self._refuses(chat, count):
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
        return not self._closed and not self._refuses(chat_id) \
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
