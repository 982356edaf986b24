"""Waiting for an event with a time limit, in a way a cancellation always gets through.

The bot does not use ``asyncio.wait_for`` for this: on Python 3.11 it drops a cancellation that
arrives just as the awaited thing finishes (CPython gh-86296; 3.12 rebuilt it on
``asyncio.timeout``) and returns as if nothing happened, so a loop woken by an event it is
cancelled beside runs on, and whatever awaits its end (a worker stopping) waits for ever.
``asyncio.timeout`` counts cancellations and never drops one. (The fake Telegram server has its
own copy of these lines: it is a separate tool and imports nothing from the bot.)
"""

from __future__ import annotations

import asyncio


async def wait_set(event: asyncio.Event, seconds: float | None) -> bool:
    """Until ``event`` is set (True) or ``seconds`` have passed (False; None: no limit)."""
    try:
        async with asyncio.timeout(seconds):
            await event.wait()
    except TimeoutError:
        return False
    return True
