"""The syncs meeting Telegram out of reach, told in two lines.

Telegram's 5xx and time-outs fail every game's syncs at once: the first to meet them is one
WARNING line, the others DEBUG, and the first sync through after them says the outage's end,
``Telegram answers the syncs again after 32 s``. Such a sync waits however long it lasts
(given up after its retries, the player to move was not told until the game changed again).
Only the syncs' calls tell whether Telegram answers them: its long polls may be answered while
every send fails (review: counting the polls gave such syncs up after their retries, and said
"reached Telegram again" between their tries); and a sync that had nothing to send got
through without Telegram (operator QA, Telegram frozen: "answers the syncs again after 0 s" 3
ms after the first time-out, then "failed while Telegram answers other calls"). A sync failing
while Telegram answers other syncs' calls fails alone (a 413, a request the transport cannot
make): its own failure, given up after its retries.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterator

from ..serving.metrics import ApiOutcome
from .metering import answers, outcome_of

log = logging.getLogger("bot.publishing.publisher")


class TelegramWaits:
    """Whether the syncs find Telegram out of reach, and how many of their calls it answered."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._since: float | None = None  # when the syncs' outage began
        self._answered = 0  # the syncs' calls Telegram answered
        self._answered_then = 0  # ... when the outage began

    @contextlib.contextmanager
    def watching(self) -> Iterator[None]:
        """The calls made in this block (a sync's, in its task and those it starts) are
        counted when Telegram answers them."""
        token = answers.set(self._heard_one)
        try:
            yield
        finally:
            answers.reset(token)

    def _heard_one(self) -> None:
        self._answered += 1

    @property
    def away(self) -> bool:
        """Whether the syncs meet an outage now."""
        return self._since is not None

    def heard(self) -> int:
        """How many of the syncs' calls Telegram answered so far."""
        return self._answered

    def outage(self, error: Exception, heard_at: int | None) -> bool:
        """Whether ``error`` is Telegram out of reach for a sync whose network failures began
        when :meth:`heard` was ``heard_at`` (None: this is its first): no answer came (not a
        refusal, BadRequest) and Telegram answered no sync's call since."""
        return unanswered(error) and (heard_at is None or self.heard() == heard_at)

    def failed(self, channel: str, game_id: int, tries: int, error: Exception) -> int:
        """A sync met the outage (``tries`` times in a row): one line for all; what was
        heard by then (the sync's ``heard_at``)."""
        (log.debug if self.away else log.warning)(
            "%s sync of game %s failed (%d): %s", channel, game_id, tries, error)
        if self._since is None:
            self._since = self._clock()
            self._answered_then = self._answered
        return self.heard()

    def worked(self) -> None:
        """A sync got through: after an outage, its end is said once, if Telegram answered
        a sync's call since it began (a sync may have had nothing to send)."""
        if self._since is not None and self._answered > self._answered_then:
            log.info("Telegram answers the syncs again after %.0f s",
                     self._clock() - self._since)
            self._since = None


def unanswered(error: Exception) -> bool:
    """Whether a call failed with no answer from Telegram (refused, reset, timed out), as
    the metrics count it (:func:`.metering.outcome_of`)."""
    return outcome_of(error) is ApiOutcome.NETWORK

