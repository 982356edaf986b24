"""The syncs meeting Telegram out of reach, told in two lines.

Telegram's 5xx and time-outs fail every game's syncs at once: the first to meet them is one
WARNING line, the others DEBUG, and the first sync through after them says the outage's end,
``Telegram answers the syncs again after 32 s``. Such a sync waits however long it lasts
(given up after its retries, the player to move was not told until the game changed again).
Only the syncs tell whether Telegram answers them: its long polls may be answered while every
send fails (review: counting the polls gave such syncs up after their retries, and said
"reached Telegram again" between their tries). A sync failing while other syncs get through
fails alone (a 413, a request the transport cannot make): its own failure, given up after its
retries.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from ..serving.metrics import ApiOutcome
from .metering import outcome_of

log = logging.getLogger("bot.publishing.publisher")


class TelegramWaits:
    """Whether the syncs find Telegram out of reach, and how many of them got through."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._since: float | None = None  # when the syncs' outage began
        self._synced = 0  # syncs that got through

    @property
    def away(self) -> bool:
        """Whether the syncs meet an outage now."""
        return self._since is not None

    def heard(self) -> int:
        """How many syncs got through so far."""
        return self._synced

    def outage(self, error: Exception, heard_at: int | None) -> bool:
        """Whether ``error`` is Telegram out of reach for a sync whose network failures began
        when :meth:`heard` was ``heard_at`` (None: this is its first): no answer came (not a
        refusal, BadRequest) and no sync got through since."""
        return unanswered(error) and (heard_at is None or self.heard() == heard_at)

    def failed(self, channel: str, game_id: int, tries: int, error: Exception) -> int:
        """A sync met the outage (``tries`` times in a row): one line for all; what was
        heard by then (the sync's ``heard_at``)."""
        (log.debug if self.away else log.warning)(
            "%s sync of game %s failed (%d): %s", channel, game_id, tries, error)
        if self._since is None:
            self._since = self._clock()
        return self.heard()

    def worked(self) -> None:
        """A sync got through: after an outage, its end is said once."""
        self._synced += 1
        if self._since is not None:
            log.info("Telegram answers the syncs again after %.0f s",
                     self._clock() - self._since)
            self._since = None


def unanswered(error: Exception) -> bool:
    """Whether a call failed with no answer from Telegram (refused, reset, timed out), as
    the metrics count it (:func:`.metering.outcome_of`)."""
    return outcome_of(error) is ApiOutcome.NETWORK

