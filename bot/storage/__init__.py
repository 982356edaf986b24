"""SQLite storage (aiosqlite): games, users, chats, the outbox, and finished results.

Every accepted action is written in one transaction together with whatever it must announce
(the outbox), before anything is sent; a restart finds the same state and sends what is left.
The schema is versioned (:mod:`.schema`): each migration runs once, in order, in a transaction.
This package is the only place in the bot that writes SQL. May import the engine, aiosqlite and
the shared modules of ``bot`` (config, errors, models).
"""

from __future__ import annotations

from .chats import ChatRows, OutboxItem
from .games import GameRows, StaleMoveError, game_from_row
from .results import HandRecord, MatchRecord, ResultFilter, ResultRows, SeatRecord, penalty_points
from .schema import MIGRATIONS


class Storage(GameRows, ResultRows, ChatRows):
    """The bot's database: one connection, with the queries of every table."""


__all__ = [
    "MIGRATIONS",
    "HandRecord",
    "MatchRecord",
    "OutboxItem",
    "ResultFilter",
    "SeatRecord",
    "StaleMoveError",
    "Storage",
    "game_from_row",
    "penalty_points",
]
