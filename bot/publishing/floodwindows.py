"""Telegram's flood limits as values: which calls count, the limits, and the rolling window
that keeps one of them.

They are apart from the limiter (:mod:`.ratelimit`), which holds calls back with them,
because they know nothing of waiting, pauses, stopping or the fleet: the configuration
(:mod:`bot.app`) and the benchmarks name a :class:`Limits` without it, and the tests count
what :func:`counted` counts.

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
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import TypeGuard

_EXEMPT = frozenset({"sendChatAction"})


def counted(endpoint: str) -> bool:
    """Whether Telegram counts the call towards its flood limits (sends, edits, copies,
    forwards)."""
    return endpoint.startswith(("send", "edit", "copy", "forward")) and endpoint not in _EXEMPT


def private_chat(chat: int | str | None) -> TypeGuard[int]:
    """Whether ``chat`` is a person's private chat (a positive id); a group's, a supergroup's
    and a channel's are negative, and a channel may be named by its ``"@username"``."""
    return isinstance(chat, int) and chat > 0


# A group's budget is also spread over its window: at most this many calls in the part of
# its period that earns them (``Limits.group_pace``). Twenty edits a minute let go as they
# come would go out in the first seconds of a busy game and leave the group's table frozen
# for the rest of the minute while the players play on in private; three in any 9 s (at 20
# a minute) keep it moving every 3 s, the latest state each time, and still let a hand's
# result and its new table go together.
GROUP_BURST = 3


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
    """At most ``count`` calls in any rolling ``period``, and none before ``opens``: the
    answered calls' end times, and how many are still in flight (each holds a slot until
    ``period`` after its answer)."""

    __slots__ = ("count", "period", "opens", "_ends", "_open")

    def __init__(self, count: int, period: float) -> None:
        self.count = count
        self.period = period
        #: No call before this (a fleet worker's part of a private chat that shrank waits
        #: until the other workers' parts are current); apart from the ends, kept in time
        #: order as they come.
        self.opens = -math.inf
        self._ends: deque[float] = deque()
        self._open = 0

    def free_at(self, now: float) -> float:
        """When a slot is free and the window open (``now`` if both; inf while every slot
        is in flight)."""
        excess = self._open + self.held(now) - self.count
        if excess < 0:
            return max(now, self.opens)
        if excess >= len(self._ends):
            return math.inf
        return max(self._ends[excess] + self.period, self.opens)

    def close_until(self, at: float) -> None:
        """No call before ``at`` (nor before a later time it was closed until)."""
        self.opens = max(self.opens, at)

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
        """Nothing held at ``now``: no call in flight, none answered within a period, not
        closed."""
        return self._open == 0 and self.held(now) == 0 and self.opens <= now
