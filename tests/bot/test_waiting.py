"""A task of the bot that waits for an event and is cancelled just as the event fires stops:
it does not return to its loop and wait on (Python 3.11's ``asyncio.wait_for`` dropped such a
cancellation, CPython gh-86296; a worker's feeder cancelled so would have kept the worker from
ever stopping)."""

from __future__ import annotations

import asyncio

import pytest

from bot.publishing.floodwindows import Limits
from bot.publishing.ratelimit import FloodLimiter
from bot.waiting import wait_set


async def test_wait_set_says_whether_the_event_came() -> None:
    event = asyncio.Event()
    assert not await wait_set(event, 0.01)
    asyncio.get_running_loop().call_later(0.01, event.set)
    assert await wait_set(event, 5)
    assert await wait_set(event, None)


@pytest.mark.parametrize("turns", range(5))  # loop turns between the event and the cancel
async def test_a_wait_cancelled_as_its_event_fires_ends(turns: int) -> None:
    event = asyncio.Event()
    waiting = asyncio.ensure_future(wait_set(event, 5))
    await asyncio.sleep(0.01)
    event.set()
    for _ in range(turns):
        await asyncio.sleep(0)
    if waiting.done():  # it had seen the event before the cancellation came
        assert waiting.result() is True
        return
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting


@pytest.mark.parametrize("turns", range(5))
async def test_a_call_waiting_for_its_chat_cancelled_as_the_limiter_changes_ends(
        turns: int) -> None:
    """The rate limiter's waiters loop on its "changed" event; one cancelled as another chat's
    pause wakes them ends with the cancellation, not when its own chat frees."""
    limiter = FloodLimiter(Limits())
    limiter.hold(-5, 2.0)
    waiting = asyncio.ensure_future(limiter.ready(-5))
    await asyncio.sleep(0.01)
    limiter.hold(-6, 1.0)  # wakes every waiter to look again
    for _ in range(turns):
        await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
