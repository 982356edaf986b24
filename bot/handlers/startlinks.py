"""What a plain /start means for someone the bot just sent to open the private chat.

A tap on Join (or /hand, /notify) from someone whose private chat with the bot is not open
answers with a link that opens it and sends ``/start <payload>``: the payload seats them or
sends their tiles. Some open the chat by hand instead and send a plain /start, and the table
they were joining was lost (newcomer QA): the payload the bot gave them a moment ago stands
in for the one their /start lacks. Kept in this process's memory only: a fleet worker that
serves the private chat but not the group simply greets them, as before.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

#: How long a link given stands in for a plain /start.
KEPT_SECONDS = 600.0
#: People remembered at most (the oldest forgotten first).
KEPT_MOST = 10_000


class StartLinks:
    """The last private-chat link's payload given to each person, for a while."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._given: OrderedDict[int, tuple[str, float]] = OrderedDict()

    def give(self, user_id: int, payload: str) -> None:
        self._given.pop(user_id, None)
        self._given[user_id] = (payload, self._clock())
        while len(self._given) > KEPT_MOST:
            self._given.popitem(last=False)

    def take(self, user_id: int) -> str:
        """The payload given to ``user_id`` within :data:`KEPT_SECONDS`, once; "" if none."""
        payload, at = self._given.pop(user_id, ("", 0.0))
        return payload if payload and self._clock() - at <= KEPT_SECONDS else ""
