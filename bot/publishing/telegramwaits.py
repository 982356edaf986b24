"""The syncs meeting Telegram out of reach, told in two lines.

Telegram's 5xx and time-outs fail every game's syncs at once: the first to meet them is one
WARNING line, the others DEBUG, and the first sync through after them says the outage's end
(the reach's one line, shared with the long polls). Such a sync waits however long it lasts
(given up after its retries, the player to move was not told until the game changed again).
A sync failing so while Telegram answers the bot's other calls fails alone (a 413, a request
the transport cannot make): that is its own failure, given up after its retries (review: it
was tried for ever, with "reached Telegram again" between the tries).
"""

from __future__ import annotations

import logging

from ..reach import Reach
from ..serving.metrics import ApiOutcome
from .metering import outcome_of

log = logging.getLogger("bot.publishing.publisher")


class TelegramWaits:
    """Whether the syncs find Telegram out of reach, and how many answers were heard."""

    def __init__(self, reach: Reach) -> None:
        self.reach = reach
        self.away = False
        self._synced = 0  # syncs that got through

    def heard(self) -> int:
        """Telegram's answers so far: the syncs that got through and the calls told to the
        reach (the long polls, the health checks)."""
        return self._synced + self.reach.answers

    def outage(self, error: Exception, heard_at: int | None) -> bool:
        """Whether ``error`` is Telegram out of reach for a sync whose network failures began
        when :meth:`heard` was ``heard_at`` (None: this is its first): no answer came (not a
        refusal, BadRequest) and nothing was heard since."""
        return unanswered(error) and (heard_at is None or self.heard() == heard_at)

    def failed(self, channel: str, game_id: int, tries: int, error: Exception) -> int:
        """A sync met the outage (``tries`` times in a row): one line for all; what was
        heard by then (the sync's ``heard_at``)."""
        (log.debug if self.away else log.warning)(
            "%s sync of game %s failed (%d): %s", channel, game_id, tries, error)
        self.away = True
        self.reach.failed()
        return self.heard()

    def worked(self) -> None:
        """A sync got through: after an outage, its end is said once."""
        self._synced += 1
        if self.away:
            self.away = False
            self.reach.answered()


def unanswered(error: Exception) -> bool:
    """Whether a call failed with no answer from Telegram (refused, reset, timed out), as
    the metrics count it (:func:`.metering.outcome_of`)."""
    return outcome_of(error) is ApiOutcome.NETWORK

