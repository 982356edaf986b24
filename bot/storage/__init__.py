"""The bot's storage: games, users, chats, the outbox, and finished results, on SQLite
(aiosqlite, the default: one file, one process) or PostgreSQL (asyncpg, ``DATABASE_URL``: many
processes, the fleet).

Every accepted action is written in one transaction together with whatever it must announce
(the outbox), before anything is sent; a restart finds the same state and sends what is left.
The schema is versioned (:mod:`.schema`): each migration runs once, in order, in a transaction,
on either engine. This package is the only place in the bot that writes SQL; its SQL is written
once for both engines (:mod:`.tx` lists where they differ). May import the engine, aiosqlite,
asyncpg and the shared modules of ``bot`` (config, errors, models).
"""

from __future__ import annotations

from .chats import ChatRows, OutboxItem
from .core import is_postgres_url
from .fencing import UpdateFence, UpdateTakenError, fence, handling
from .games import GameRows, StaleMoveError, game_from_row
from .results import (
    HandRecord,
    MatchRecord,
    ResultFilter,
    ResultRows,
    SeatRecord,
    leavers_of,
    penalty_points,
)
from .schema import MIGRATIONS
from .subscriptions import Notice, SubscriptionRows
from .tx import Row, StorageFailedError, StorageUnavailableError, Tx


class Storage(GameRows, ResultRows, ChatRows, SubscriptionRows):
    """The bot's database, with the queries of every table: ``Storage(path)`` is SQLite,
    ``Storage("postgresql://...")`` PostgreSQL."""


__all__ = [
    "MIGRATIONS",
    "HandRecord",
    "MatchRecord",
    "Notice",
    "OutboxItem",
    "ResultFilter",
    "Row",
    "SeatRecord",
    "StaleMoveError",
    "Storage",
    "StorageFailedError",
    "StorageUnavailableError",
    "Tx",
    "UpdateFence",
    "UpdateTakenError",
    "fence",
    "game_from_row",
    "handling",
    "is_postgres_url",
    "leavers_of",
    "penalty_points",
]
