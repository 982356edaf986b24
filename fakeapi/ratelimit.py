"""Telegram's flood limits as token buckets, flood waits a test injects in one chat, and the
accounting tests and benchmarks read to check the bot's pace (the worst rolling windows)."""

from __future__ import annotations

import math
from bisect import bisect_left
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

_EXEMPT = frozenset({"sendChatAction"})


def counts_toward_limits(method: str) -> bool:
    """Requests that put something in a chat (sends, edits, copies, forwards) are the ones
    Telegram limits; answers to taps, deletes, reads and getUpdates are not messages."""
    return method.startswith(("send", "edit", "copy", "forward")) and method not in _EXEMPT


@dataclass(frozen=True)
class RateLimits:
    """Which limits to enforce with 429 answers; ``None`` turns one off.

    The defaults are those python-telegram-bot's AIORateLimiter keeps to (30 a second overall,
    20 a minute per group), so a bot using it never sees a 429 from them. Telegram's "about one
    message a second" per chat is available as ``chat_per_second``, and a private chat's own
    budget (the bot keeps 3 in 3 s) as ``private_per_period`` over ``private_period`` seconds.
    """

    overall_per_second: float | None = 30.0
    group_per_minute: float | None = 20.0
    chat_per_second: float | None = None
    private_per_period: float | None = None
    private_period: float = 3.0


@dataclass
class _Bucket:
    rate: float  # tokens per second
    capacity: float
    tokens: float
    updated: float

    def wait(self, now: float) -> float:
        """Seconds until a token is free (0 when one is free now)."""
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        return max(0.0, (1 - self.tokens) / self.rate)


@dataclass
class RateLimiter:
    """Token buckets per chat and overall; ``check`` answers a retry_after or ``None``."""

    limits: RateLimits
    _buckets: dict[object, _Bucket] = field(default_factory=dict)

    def _bucket(self, key: object, count: float, period: float, now: float) -> _Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = _Bucket(count / period, count, count, now)
            self._buckets[key] = bucket
        return bucket

    def check(self, chat_id: int | None, is_group: bool, now: float) -> int | None:
        limits = self.limits
        wanted: list[tuple[object, float, float]] = []
        if limits.overall_per_second is not None:
            wanted.append(("overall", limits.overall_per_second, 1.0))
        if chat_id is not None and is_group and limits.group_per_minute is not None:
            wanted.append((("group", chat_id), limits.group_per_minute, 60.0))
        if chat_id is not None and limits.chat_per_second is not None:
            wanted.append((("chat", chat_id), limits.chat_per_second, 1.0))
        if chat_id is not None and not is_group and limits.private_per_period is not None:
            wanted.append((("private", chat_id), limits.private_per_period, limits.private_period))
        buckets = [self._bucket(key, count, period, now) for key, count, period in wanted]
        wait = max((bucket.wait(now) for bucket in buckets), default=0.0)
        if wait > 0:
            return max(1, math.ceil(wait))
        for bucket in buckets:
            bucket.tokens -= 1
        return None


def max_in_window(times: Sequence[float], seconds: float) -> int:
    """The most events in any window of ``seconds`` (``times`` sorted ascending)."""
    best = 0
    for end, at in enumerate(times):
        start = bisect_left(times, at - seconds + 1e-9, 0, end + 1)
        best = max(best, end - start + 1)
    return best


@dataclass(frozen=True)
class Worst:
    """The most counted calls answered OK in any rolling window of a run: per group (its
    ``group_period``) and overall (its ``overall_period``)."""

    group_period: float
    overall_period: float
    per_group: dict[int, int]
    overall: int

    @property
    def group(self) -> int:
        """The worst group's worst window."""
        return max(self.per_group.values(), default=0)


def worst_windows(
    calls: Iterable[tuple[float, int | None]], groups: set[int], group_period: float = 60.0,
    overall_period: float = 1.0,
) -> Worst:
    """``calls``: (arrival time, chat id) of each counted call answered OK."""
    overall: list[float] = []
    per_group: dict[int, list[float]] = {}
    for at, chat_id in calls:
        overall.append(at)
        if chat_id in groups:
            per_group.setdefault(chat_id, []).append(at)
    return Worst(
        group_period, overall_period,
        {chat: max_in_window(sorted(times), group_period) for chat, times in per_group.items()},
        max_in_window(sorted(overall), overall_period),
    )


@dataclass
class FloodWaits:
    """429s a test injects in one chat, kept as Telegram keeps them: the armed call is answered
    "retry after N", and so is every call to that chat in the N seconds after it (each one
    recorded in ``early``: a bot that honours retry_after makes none)."""

    armed: dict[int, deque[int]] = field(default_factory=dict)
    until: dict[int, float] = field(default_factory=dict)
    early: list[tuple[int, float]] = field(default_factory=list)

    def arm(self, chat_id: int, retry_after: int, times: int = 1) -> None:
        self.armed.setdefault(chat_id, deque()).extend([retry_after] * times)

    def check(self, chat_id: int, now: float) -> int | None:
        """The retry_after to answer this call with, or None to let it through."""
        until = self.until.get(chat_id)
        if until is not None and now < until:
            self.early.append((chat_id, now))
            return max(1, math.ceil(until - now))
        armed = self.armed.get(chat_id)
        if armed:
            seconds = armed.popleft()
            self.until[chat_id] = now + seconds
            return seconds
        return None
