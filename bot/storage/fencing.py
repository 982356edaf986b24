"""The fence: each Telegram update changes the game state at most once, fleet-wide.

A fleet worker handles an update inside :func:`handling`. The first *effect* transaction of
that handling (a move, a lobby change, a status, a group's settings...) calls :func:`fence`
first, which marks the update done in ``fleet_updates`` in that same transaction: if another
worker already marked it (it took the update over after this one was presumed dead), nothing
was marked, :class:`UpdateTakenError` is raised and the transaction rolls back, so the update's
effects are applied by one worker only. With no fence set (the single process, timers) the
fence does nothing. Bookkeeping transactions (users seen, message ids, timer state, sent
outbox items) are not fenced: writing them twice is harmless.

A tap's answer is at most once too (:func:`may_answer`): before it goes, the update is marked
done in its own transaction if no effect has marked it yet, and when another worker had, the
answer is not sent. Each handling marks with its own stamp, so its effects and its answer
(in either order, even at once) all find the mark their own.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

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
    #: Marks the update done in its own transaction (``done_at`` = ``stamp``); whether it is
    #: this handling's (a fleet worker gives it; None: answers are not gated).
    mark: Callable[[UpdateFence], Awaitable[bool]] | None = None
    #: This handling's ``done_at``: a mark already bearing it is its own. (Time, plus a
    #: random fraction of a millisecond so that two handlings never share one.)
    stamp: float = field(default_factory=lambda: time.time() + secrets.randbelow(10**6) / 1e9)


current: ContextVar[UpdateFence | None] = ContextVar("update_fence", default=None)


@contextmanager
def handling(update_id: int, mark: Callable[[UpdateFence], Awaitable[bool]] | None = None
             ) -> Iterator[UpdateFence]:
    """Handle ``update_id`` fenced: every effect transaction in this context marks it first
    (and, given ``mark``, every tap's answer: :func:`may_answer`)."""
    fence_ = UpdateFence(update_id, mark=mark)
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
        "UPDATE fleet_updates SET done_at=? WHERE update_id=? AND (done_at IS NULL OR done_at=?)",
        (update.stamp, update.update_id, update.stamp))
    if changed != 1:
        raise UpdateTakenError(update.update_id)
    update.marked = True

    def unmark() -> None:
        update.marked = False

    tx.on_rollback(unmark)


async def may_answer() -> bool:
    """Whether a tap's answer may go: in a fleet worker's handling, the update is marked done
    first unless an effect has marked it already; False when another worker had marked it
    (it handled the update, and answered or will). Outside a fleet: True at once."""
    update = current.get()
    if update is None or update.marked or update.mark is None:
        return True
    if not await update.mark(update):
        return False
    update.marked = True
    return True
