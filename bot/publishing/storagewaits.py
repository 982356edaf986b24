"""The syncs waiting for the database to work again, told in two lines.

A full disk or a damaged file (:class:`~bot.storage.StorageFailedError`) fails every game's
syncs at once: the first to meet it is one WARNING line, the last through one INFO line (the
outage's end), every other try DEBUG (operator QA: each was an ERROR and a traceback, and the
game was stopped). PostgreSQL away is the engine's to tell (here DEBUG only).
"""

from __future__ import annotations

import logging
import time

from ..errors import StorageError
from ..storage import StorageFailedError

log = logging.getLogger("bot.publishing.publisher")

Key = tuple[int, str]  # a game's id and its channel ("group", "hands")


class StorageWaits:
    """Which syncs wait for the database, and since when."""

    def __init__(self) -> None:
        self._waiting: set[Key] = set()
        self._since = 0.0

    def failed(self, key: Key, outage: StorageError) -> None:
        """``key``'s sync could not do its work for ``outage``: said once for all."""
        game_id, channel = key
        failed = isinstance(outage, StorageFailedError)
        if failed and not self._waiting:
            self._since = time.monotonic()
        (log.warning if failed and not self._waiting else log.debug)(
            "%s sync of game %s waits for the database: %s", channel, game_id, outage)
        if failed:
            self._waiting.add(key)

    def waited(self, key: Key) -> bool:
        """Whether ``key``'s sync got through after the database failed it (its messages'
        ids, kept in memory meanwhile, are then saved again)."""
        return key in self._waiting

    def worked(self, key: Key) -> None:
        """``key``'s sync got through: when it was the last waiting, the outage's end."""
        if key not in self._waiting:
            return
        self._waiting.discard(key)
        if not self._waiting:
            log.info("the database works again after %.0f s: the syncs waiting for it went "
                     "through", time.monotonic() - self._since)

    def forget(self, key: Key) -> None:
        """``key``'s syncs stopped while waiting: its end is not known (a next start meets
        the outage again if it lasts)."""
        self._waiting.discard(key)
