"""Ending a driver's tasks for sure: a benchmark or test run must end even when a task it
cancels does not (Python 3.11's ``asyncio.wait_for`` can drop a cancellation, CPython gh-86296,
and a task may swallow one by mistake); what would not end is reported, not waited for. Shared
by the benchmarks and the test servers (:mod:`testservers.tables`), so it sits here, below
both."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterable
from typing import Any, TypeVar

T = TypeVar("T")
F = TypeVar("F", bound="asyncio.Future[Any]")


async def settle(tasks: Iterable[F], grace: float = 15.0) -> set[F]:
    """Cancel ``tasks`` and wait up to ``grace`` seconds for them to end; those still running
    then (a task that swallowed its cancellation) are returned, not waited for, so a stuck
    table cannot hang a run. Their exceptions are taken (they were the caller's to report)."""
    waiting = set(tasks)
    for task in waiting:
        task.cancel()
    if not waiting:
        return set()
    done, pending = await asyncio.wait(waiting, timeout=grace)
    for task in done:
        if not task.cancelled():
            task.exception()
    return pending


async def bounded(awaitable: Awaitable[T], seconds: float, grace: float = 15.0) -> T:
    """``awaitable``'s result, or TimeoutError after ``seconds``: unlike ``wait_for`` (which
    waits for the cancelled work to end, and on Python 3.11 can drop a cancellation), this
    gives up on work that does not end within ``grace`` seconds of being cancelled."""
    task = asyncio.ensure_future(awaitable)
    try:
        done, _ = await asyncio.wait({task}, timeout=seconds)
    finally:
        stuck = await settle({task}, grace) if not task.done() else set()
    if done:
        return task.result()
    raise TimeoutError(f"not done in {seconds}s" + (
        f", and still running {grace}s after being cancelled" if stuck else ""))
