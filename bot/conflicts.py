"""Another process polling Telegram with this bot's token: Telegram answers each getUpdates
the other one ends with 409 Conflict. That is no outage (Telegram answers; the updates go to
whichever process asked last, so players' taps are handled by either at random), and is said
so: one ERROR line naming the cause when it starts, one line when it ends, nothing per poll.

The bot does not exit for it: the other process may be a rolling restart's old one (polling
for a second), or somebody's short test with the production token, and a bot that exited
would leave the players with nothing (both would exit, were it two services).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from telegram.error import Conflict, TelegramError, TimedOut

from .reach import Reach

log = logging.getLogger(__name__)

#: Seconds without a Conflict, a poll answered, after which the other process is taken to be
#: gone: two processes polling end each other's polls at least every ~30 s (PTB waits at
#: most 30 s before polling again after a failure, and a poll lasts 10 s).
QUIET = 60.0
CAUSE = ("another process is getting this bot's updates with the same token: stop it, or "
         "give each bot its own token (@BotFather)")


class PollConflict:
    """Since when another process has been polling with this bot's token (nothing while
    none is)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, quiet: float = QUIET
                 ) -> None:
        self._clock = clock
        self.quiet = quiet
        self._since: float | None = None
        self._last = 0.0

    @property
    def on(self) -> bool:
        return self._since is not None

    def conflicted(self, error: TelegramError) -> None:
        """A getUpdates ended with 409 Conflict: the first says so."""
        now = self._clock()
        if self._since is None:
            self._since = now
            log.error("polling Telegram: %s (Telegram: %s)", CAUSE, error)
        self._last = now

    def answered(self, sent: float | None = None) -> None:
        """A getUpdates was answered (200): once no Conflict came for :attr:`quiet` seconds
        before it was ``sent``, the other process is gone, which one line says."""
        if self._since is None:
            return
        at = self._clock() if sent is None else sent
        if at - self._last < self.quiet:
            return
        log.warning("polling Telegram: no other process has taken this bot's updates for "
                    "%.0f s: polling alone again (the conflict lasted %.0f s)",
                    at - self._last, self._last - self._since)
        self._since = None


def poll_failed(reach: Reach, conflict: PollConflict, error: TelegramError) -> None:
    """A getUpdates that failed (PTB tries again by itself): one line, not a traceback (and
    the first one answered after it says so); another process polling, its own lines."""
    if isinstance(error, Conflict):
        conflict.conflicted(error)
        return
    log.warning("polling Telegram failed: %s (trying again)", error)
    reach.failed()


class PollWatch:
    """How the long polls end, for :func:`bot.publishing.transport.poll_request`: an answer
    ends an outage (and a conflict that went quiet), a time-out is a failure as any other's."""

    def __init__(self, reach: Reach, conflict: PollConflict) -> None:
        self.reach = reach
        self.conflict = conflict

    def answered(self, sent: float) -> None:
        self.reach.answered(sent)
        self.conflict.answered(sent)

    def timed_out(self, sent: float, error: TimedOut) -> None:
        """No answer in time (Telegram frozen): said as a 5xx is, the outage from ``sent``."""
        log.warning("polling Telegram failed: %s (trying again)", error)
        self.reach.failed(sent)
