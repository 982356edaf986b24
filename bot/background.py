"""Tasks run beside the work that starts them, each held until it is done."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def held(tasks: set[asyncio.Task[T]], work: Coroutine[Any, Any, T], name: str,
         context: contextvars.Context | None = None) -> asyncio.Task[T]:
    """``work`` run as a task kept in ``tasks`` until it is done: the event loop keeps only a
    weak reference to a task, and one nobody holds may be collected half-way (the owner's
    ``tasks`` is also what it waits for when it stops)."""
    task = asyncio.create_task(work, name=name, context=context)
    tasks.add(task)
    task.add_done_callback(tasks.discard)
    return task
