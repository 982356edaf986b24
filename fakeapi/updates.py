"""The update queue behind getUpdates and the webhook: increasing ids, offsets, long polling,
allowed_updates."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from .errors import ApiError
from .waiting import wait_set

#: Update kinds Telegram leaves out unless ``allowed_updates`` names them.
OPT_IN_KINDS = frozenset({"chat_member", "message_reaction", "message_reaction_count"})


def update_kind(update: dict[str, Any]) -> str:
    return next(key for key in update if key != "update_id")


class UpdateQueue:
    """Updates wait here until the bot confirms them by asking for a higher ``offset``.

    Only one long poll is served at a time: a newer getUpdates ends the older one with 409
    Conflict, which is how Telegram tells two running copies of a bot apart. While a webhook is
    set (``webhook_set``) getUpdates answers 409 too, and the webhook takes the updates one at a
    time (:meth:`next_wanted`, :meth:`confirm_delivered`).
    """

    def __init__(self, first_id: int = 1) -> None:
        self._next_id = first_id
        self._pending: list[dict[str, Any]] = []
        self._arrived = asyncio.Event()
        self._generation = 0
        self._closing = False
        self.allowed: frozenset[str] | None = None
        self.history: list[dict[str, Any]] = []
        self.delivered_through = first_id - 1
        self.polls_waiting = 0  # long polls held open right now (tests wait for one)
        self.webhook_set = False

    @property
    def last_id(self) -> int:
        return self._next_id - 1

    @property
    def all_delivered(self) -> bool:
        """Every update so far has been handed to the bot (or dropped by allowed_updates)."""
        return self.delivered_through >= self.last_id

    @property
    def pending(self) -> list[dict[str, Any]]:
        """Updates not yet confirmed by the bot."""
        return list(self._pending)

    def push(self, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        update = {"update_id": self._next_id, kind: payload}
        self._next_id += 1
        self._pending.append(update)
        self.history.append(update)
        self._wake()
        return update

    def drop_pending(self) -> None:
        """deleteWebhook(drop_pending_updates=True): forget what the bot has not fetched."""
        self._pending.clear()
        self.delivered_through = self.last_id

    def start_webhook(self) -> None:
        """setWebhook: a long poll still waiting ends with 409, as Telegram ends it."""
        self.webhook_set = True
        self._generation += 1
        self._wake()

    async def next_wanted(self) -> dict[str, Any] | None:
        """The oldest update the webhook must deliver, once there is one (None: closing)."""
        while not self._closing:
            self._drop_unwanted()
            if self._pending:
                return self._pending[0]
            await self._arrived.wait()
        return None

    def confirm_delivered(self, update_id: int) -> None:
        """The webhook answered 2xx: the update is delivered and leaves the queue."""
        self._pending = [u for u in self._pending if u["update_id"] != update_id]
        self.delivered_through = max(self.delivered_through, update_id)

    def close(self) -> None:
        """End every waiting long poll now (with an empty result)."""
        self._closing = True
        self._wake()

    def _wake(self) -> None:
        self._arrived.set()
        self._arrived = asyncio.Event()

    def _confirm(self, offset: int | None) -> None:
        if offset is None or offset == 0:
            return
        if offset < 0:
            self._pending = self._pending[offset:]
        else:
            self._pending = [u for u in self._pending if u["update_id"] >= offset]

    def _drop_unwanted(self) -> None:
        def wanted(update: dict[str, Any]) -> bool:
            kind = update_kind(update)
            return kind in self.allowed if self.allowed else kind not in OPT_IN_KINDS

        for update in self._pending:
            if not wanted(update):
                self.delivered_through = max(self.delivered_through, update["update_id"])
        self._pending = [u for u in self._pending if wanted(u)]

    async def get(
        self,
        offset: int | None,
        limit: int | None,
        timeout: int | None,
        allowed_updates: Sequence[str] | None,
    ) -> list[dict[str, Any]]:
        """Answer one getUpdates call, holding it up to ``timeout`` seconds for an update."""
        if self.webhook_set:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
        self._generation += 1
        generation = self._generation
        self._wake()  # an older poll still waiting now ends with 409 Conflict
        if allowed_updates is not None:
            self.allowed = frozenset(allowed_updates) or None
        self._confirm(offset)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(timeout or 0, 0)
        while True:
            self._drop_unwanted()
            batch = self._pending[: limit or 100]
            remaining = deadline - loop.time()
            if batch or self._closing or remaining <= 0:
                break
            arrived = self._arrived
            self.polls_waiting += 1
            try:
                await wait_set(arrived, remaining)
            finally:
                self.polls_waiting -= 1
            if self.webhook_set:
                raise ApiError(409, "Conflict: terminated by setWebhook request")
            if generation != self._generation:
                raise ApiError(
                    409,
                    "Conflict: terminated by other getUpdates request; "
                    "make sure that only one bot instance is running",
                )
        if batch:
            self.delivered_through = max(self.delivered_through, batch[-1]["update_id"])
        return batch
