"""Whether Telegram's webhook is still this bot's, judged from the minute check's
getWebhookInfo (:func:`bot.health._telegram`) in webhook mode.

Telegram keeps one webhook a token, the last one registered, and one secret with it. Another
process with this bot's token takes the updates away without this bot receiving anything
that says so: one that polls deletes the webhook (its url empty), one with a webhook of its
own registers its URL, and one that registers this bot's URL with another secret makes
Telegram send that secret, which this bot refuses (403) for every update. Each is one ERROR
line saying what happened and what to do, again at most every :data:`TOLD_EVERY` seconds
while it lasts, and one INFO line when it ends; the readiness check ``webhook`` fails
meanwhile (:attr:`WebhookWatch.ok`).

The 403s count only when Telegram itself reports them (getWebhookInfo's new error names 403)
and this bot's server refused requests for their secret since the last check: a scanner that
found the URL meets the same 403 (its rate-limited WARNING, :class:`~.webserver.Refusals`),
but must not make the bot unready.

The bot does not register its webhook again by itself: it cannot tell a mistake (a test run
with the production token) from the operator's own move (the bot moved to another machine,
to polling, to a fleet), and taking the webhook back would take the updates from the process
meant to have them; two bots doing so would take it from each other in a loop, the players'
taps going to either. So it says what to do: stop the other process, then restart this bot,
whose start registers WEBHOOK_URL and its secret again (docs/OPERATIONS.md).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from enum import Enum
from http import HTTPStatus

from ..logs import counted
from .metrics import Metrics

log = logging.getLogger(__name__)

#: Seconds between two ERROR lines about the same trouble while it lasts.
TOLD_EVERY = 600.0
FORBIDDEN = int(HTTPStatus.FORBIDDEN)  # the webhook's answer to another secret
DELIVERED = int(HTTPStatus.OK)
_FORBIDDEN = re.compile(rf"\b{FORBIDDEN}\b")
FIX = "stop the other process, then restart this bot (its start registers WEBHOOK_URL{} again)"


class Trouble(Enum):
    """Why Telegram's webhook does not bring the updates to this bot."""

    DELETED = "deleted"  # url empty: another process polls with this token
    TAKEN = "taken"  # another URL registered with this token
    SECRET = "secret"  # this URL registered again with another secret: 403 to every update


class WebhookWatch:
    """The trouble with this bot's webhook, if any, since when, and when it was last told."""

    def __init__(self, every: float = TOLD_EVERY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.every, self.clock = every, clock
        self.trouble: Trouble | None = None
        self._since = 0.0
        self._told = 0.0
        self._refused = 0  # the webhook's 403 answers at the last check
        self._delivered = 0  # and its 200s

    @property
    def ok(self) -> bool:
        """The readiness check ``webhook``: Telegram's webhook brings this bot its updates."""
        return self.trouble is None

    def saw(self, url: str, pending: int, new_error: str | None, mine: str,
            metrics: Metrics) -> None:
        """One getWebhookInfo: its ``url`` and ``pending`` count, its error when new since the
        last check; ``mine``: WEBHOOK_URL; ``metrics``: the webhook's answers since."""
        refused, delivered = metrics.webhook_answers(FORBIDDEN), metrics.webhook_answers(DELIVERED)
        refusing, delivering = refused > self._refused, delivered > self._delivered
        self._refused, self._delivered = refused, delivered
        if url != mine:
            trouble: Trouble | None = Trouble.TAKEN if url else Trouble.DELETED
        elif new_error is not None and _FORBIDDEN.search(new_error) and refusing:
            trouble = Trouble.SECRET
        elif self.trouble is Trouble.SECRET and not delivering and pending > 0:
            trouble = Trouble.SECRET  # (Telegram's retries further apart than a check)
        else:
            trouble = None
        self._judge(trouble, url, pending, mine)

    def _judge(self, trouble: Trouble | None, url: str, pending: int, mine: str) -> None:
        now = self.clock()
        if trouble is None:
            if self.trouble is not None:
                log.info("Telegram's webhook brings this bot its updates again, after %.0f s",
                         now - self._since)
            self.trouble = None
            return
        if trouble is not self.trouble:
            self.trouble, self._since = trouble, now
        elif now - self._told < self.every:
            return
        self._told = now
        lasting = (f" (for {now - self._since:.0f} s now)" if now > self._since else "")
        log.error("%s%s", _said(trouble, url, pending, mine), lasting)


def _said(trouble: Trouble, url: str, pending: int, mine: str) -> str:
    """The ERROR line's words for ``trouble``."""
    waiting = counted(pending, "update")
    if trouble is Trouble.DELETED:
        return ("Telegram's webhook was deleted: another process with this bot's token polls "
                f"for its updates (or deleteWebhook was called), and this bot gets none "
                f"({waiting} waiting): " + FIX.format(""))
    if trouble is Trouble.TAKEN:
        return (f"Telegram's webhook is {url}, not this bot's WEBHOOK_URL {mine}: another "
                "process with this bot's token registered its own, and this bot gets no "
                f"updates ({waiting} waiting): " + FIX.format(""))
    return ("Telegram posts the updates with another secret token, which this bot refuses "
            f"(403, {waiting} waiting): another process with this bot's token registered "
            "WEBHOOK_URL with another WEBHOOK_SECRET: " + FIX.format(" and its secret"))
