"""How a call whose answer never came is treated: what Telegram may have done, and how a
tap is answered within Telegram's window (see docs/ARCHITECTURE.md, "Lost answers")."""

from __future__ import annotations

import asyncio
import logging

from telegram import CallbackQuery
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TimedOut

from ..wording import toast

log = logging.getLogger(__name__)

#: Telegram keeps a tap's spinner for 15 s; answers are tried until a little before that.
ANSWER_WINDOW = 12.0
#: Errors raised before the request left: Telegram cannot have acted on it (httpx's, aiohttp's
#: and the bot's transport's own, ``transport.PoolTimeout``).
NOT_SENT = frozenset({"ConnectError", "ConnectTimeout", "PoolTimeout", "ConnectionTimeoutError",
                      "ClientConnectorError", "ClientConnectorDNSError",
                      "ClientConnectorCertificateError", "ClientConnectorSSLError",
                      "ClientProxyConnectionError"})
#: How the request classes word a failed connection (Telegram's own 5xx answers have no prefix).
CLIENT_ERROR_PREFIXES = ("httpx.", "aiohttp.")


def outcome_unknown(error: BaseException) -> bool:
    """True when Telegram may have acted although no answer came (a dropped connection, a
    read time-out); False when it answered (an error it gave) or the request never left."""
    if isinstance(error, (BadRequest, Forbidden, RetryAfter)):
        return False  # Telegram's own answers (both subclass NetworkError)
    if not isinstance(error, NetworkError):
        return False
    cause = error.__cause__
    if cause is not None and type(cause).__name__ in NOT_SENT:
        return False
    # PTB words Telegram's 5xx answers without a client's prefix: those were answered.
    return isinstance(error, TimedOut) or str(error).startswith(CLIENT_ERROR_PREFIXES)


#: Telegram's words refusing an answer that came too late or second.
LATE_ANSWER = ("query is too old", "query id is invalid", "already answered")


def late(error: BadRequest | Forbidden) -> bool:
    """Whether Telegram refused a tap's answer as too late (or as a second one)."""
    return any(words in error.message.lower() for words in LATE_ANSWER)


async def answer_tap(query: CallbackQuery, text: str | None, url: str | None) -> bool:
    """Answer a tap exactly once: retry what surely did not reach Telegram (a 5xx, a refused
    connection, a flood wait) within the window; never resend an answer that may have
    arrived, since Telegram refuses a second one. True when it was answered for sure."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + ANSWER_WINDOW
    text = toast(text) if text is not None else None
    pause = 0.25
    while True:
        try:
            await query.answer(text=text, url=url)
            return True
        except RetryAfter as exc:
            wait = exc.retry_after
            pause = wait if isinstance(wait, (int, float)) else wait.total_seconds()
        except (BadRequest, Forbidden) as exc:
            if late(exc):  # a slow handling, or answered already: nothing is wrong here
                log.info("tap %s not answered: Telegram says %s", query.id, exc.message)
            else:
                log.warning("tap %s refused by Telegram", query.id, exc_info=True)
            return False
        except NetworkError as exc:
            if outcome_unknown(exc):
                log.warning("answer to tap %s may be lost; not sent again", query.id)
                return False
        if loop.time() + pause > deadline:
            log.warning("tap %s left unanswered after retrying", query.id)
            return False
        await asyncio.sleep(pause)
        pause = min(pause * 2, 2.0)
