"""Whether Telegram answers the bot: each failure of a call that is tried again has its own
WARNING line (polling's, the periodic check's); the first answer after them is one INFO line,
``reached Telegram again after 42 s``, so an outage's end is in the log too, once."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


class Reach:
    """Since when Telegram has not answered (nothing while it does)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._since: float | None = None
        #: How many answers were told (a sync failing while this grows fails alone: it is no
        #: outage of Telegram's).
        self.answers = 0

    def failed(self, sent: float | None = None) -> None:
        """A call failed and its failure was logged: the outage starts, unless it runs (from
        when the call was ``sent``, for one that waited for an answer in vain)."""
        if self._since is None:
            self._since = self._clock() if sent is None else sent

    def answered(self, sent: float | None = None) -> None:
        """A call was answered: after failures, one line saying for how long they lasted,
        up to when the call was ``sent`` (a long poll is answered up to its time-out later,
        when that line comes)."""
        self.answers += 1
        if self._since is None:
            return
        end = self._clock() if sent is None else max(sent, self._since)
        log.info("reached Telegram again after %.0f s", end - self._since)
        self._since = None
