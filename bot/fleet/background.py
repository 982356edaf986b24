"""The fleet's background loops (the feeder, the listener, the shard keeper, the receiver's
connector) end the same way: cancelled, and waited for until they have."""

from __future__ import annotations

import asyncio
import contextlib


async def ended(task: asyncio.Task[None] | None) -> None:
    """Cancel ``task`` (if any) and wait until it has finished."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
