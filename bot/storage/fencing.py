"""The fence: each Telegram update changes the game state at most once, fleet-wide.

A fleet worker handles an update inside :func:`handling`. The first *effect* transaction of
that handling (a move, a lobby change, a status, a group's settings...) calls :func:`fence`
first, which marks the update done in ``fleet_updates`` in that same transaction: if another
worker already marked it (it took the update over after this one was presumed dead), nothing
was marked, :class:`UpdateTakenError` is raised and the transaction rolls back, so the update's
effects are applied by one worker only. With no fence set (the single process, timers) the
fence does nothing. Bookkeeping transactions (users seen, message ids, timer state, sent
outbox items) are not fenced: writing them twice is harmless.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from ..errors import StorageError
from .tx import Tx


class UpdateTakenError(StorageError):
    """Another worker has already handled this update: this handling must change nothing."""

    def __init__(self, update_id: int) -> None:
        super().__init__(f"update {update_id} was already handled by another worker")
        self.update_id = update_id


@dataclass(slots=True)  # not frozen: ``marked`` turns true once, in the handling's first effect
class UpdateFence:
    """The update being handled in this context, and whether it is marked done yet."""

    update_id: int
    marked: bool = False


current: ContextVar[UpdateFence | None] = ContextVar("update_fence", default=None)


@contextmanager
def handling(update_id: int) -> Iterator[UpdateFence]:
    """Handle ``update_id`` fenced: every effect transaction in this context marks it first."""
    fence_ = UpdateFence(update_id)
    token = current.set(fence_)
    try:
        yield fence_
    finally:
        current.reset(token)


async def fence(tx: Tx) -> None:
    """Mark the current update done in ``tx``, once; raise :class:`UpdateTakenError` when it
    was done already (by another worker). A rollback of ``tx`` unmarks it again."""
    update = current.get()
    if update is None or update.marked:
        return
    changed = await tx.execute(
        "UPDATE fleet_updates SET done_at=? WHERE update_id=? AND done_at IS NULL",
        (time.time(), update.update_id))
    if changed != 1:
        raise UpdateTakenError(update.update_id)
    update.marked = True

    def unmark() -> None:
        update.marked = False

    tx.on_rollback(unmark)
