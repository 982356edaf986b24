"""A driver's tasks end for sure (``benchmarks.fleet`` hung for good when a cancelled table
played on): ``settle`` and ``bounded`` give up on a task that does not end when cancelled,
and report it."""

from __future__ import annotations

import asyncio
import time

import pytest

from testservers.stopping import bounded, settle


async def stubborn(stop: asyncio.Event) -> str:
    """Swallows every cancellation until ``stop`` is set (as a table did on Python 3.11)."""
    while not stop.is_set():
        try:
            await asyncio.sleep(0.01)
        except asyncio.CancelledError:
            continue
    return "ended"


async def test_settle_cancels_and_reports_what_does_not_end() -> None:
    stop = asyncio.Event()
    obedient = asyncio.ensure_future(asyncio.sleep(60))
    failed = asyncio.ensure_future(_fails())
    kept = asyncio.ensure_future(stubborn(stop))
    await asyncio.sleep(0.05)
    started = time.monotonic()
    left = await settle([obedient, failed, kept], grace=0.3)
    assert time.monotonic() - started < 2
    assert left == {kept}
    assert obedient.cancelled() and failed.done()
    stop.set()
    assert await kept == "ended"


async def _fails() -> None:
    raise RuntimeError("a table's match broke")


async def test_bounded_returns_the_result_or_gives_up_on_time() -> None:
    assert await bounded(asyncio.sleep(0.01, result=7), seconds=5) == 7
    with pytest.raises(TimeoutError, match=r"not done in 0\.1s$"):
        await bounded(asyncio.sleep(60), seconds=0.1)
    stop = asyncio.Event()
    started = time.monotonic()
    with pytest.raises(TimeoutError, match=r"still running 0\.2s after being cancelled"):
        await bounded(stubborn(stop), seconds=0.1, grace=0.2)
    assert time.monotonic() - started < 2
    stop.set()
    await asyncio.sleep(0.05)  # it ends on its own
    with pytest.raises(RuntimeError, match="broke"):
        await bounded(_fails(), seconds=5)


async def test_bounded_passes_a_cancellation_on() -> None:
    waiting = asyncio.ensure_future(bounded(asyncio.sleep(60), seconds=30))
    await asyncio.sleep(0.05)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
