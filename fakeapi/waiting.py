"""Waiting for an event with a time limit, in a way a cancellation always gets through.

``asyncio.wait_for`` on Python 3.11 drops a cancellation that arrives while the awaited thing
has just finished (CPython gh-86296, fixed in 3.12 by rebuilding ``wait_for`` on
``asyncio.timeout``): it returns the result and the cancelled task runs on as if nothing had
happened. The fake's waiters are woken by every request, so with dozens of tables a cancellation
often lands just then: ``benchmarks.fleet``'s simulated people played on after being cancelled
and the run never ended. ``asyncio.timeout`` counts cancellations and never drops one.
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
