"""A database's failure met while handling an update, told in one line an operator can act
on: the disk full, the file gone read-only, PostgreSQL away. What the bot's own code got wrong
(a bug) is not one of these, and keeps its traceback."""

from __future__ import annotations

import sqlite3

from ..errors import StorageError
from ..serving.metrics import Metrics, StorageCause
from ..storage import StorageUnavailableError
from ..storage.causes import (
    DISK_FULL,
    FULL,
    READ_ONLY,
    SERVER_FULL,
    hinted,
    server_hint,
    unusable,
)


def database_failure(error: BaseException | None, metrics: Metrics) -> str | None:
    """``error`` in one line when it is the database's failure (the storage's own error, or
    SQLite's: a move's commit on a full disk raises SQLite's ``database or disk is full``;
    or a PostgreSQL server's full disk met on a connection of the fleet's own), counted in
    ``metrics`` by its cause; None for anything else."""
    line = failure_line(error)
    if line is not None:
        metrics.storage_failed(StorageCause.UNAVAILABLE
                               if isinstance(error, StorageUnavailableError) else cause_of(line))
    return line


def cause_of(line: str) -> StorageCause:
    """What a database failure's one line (its hint, :mod:`bot.storage.causes`) says."""
    if FULL in line or SERVER_FULL in line or DISK_FULL in line:
        return StorageCause.DISK_FULL
    if "damaged" in line:  # (SQLite's file, the server's data or an index)
        return StorageCause.DAMAGED
    return StorageCause.READ_ONLY if READ_ONLY in line else StorageCause.OTHER


def failure_line(error: BaseException | None) -> str | None:
    """``error`` in one line when it is the database's failure, uncounted (a read whose
    failure the handler that follows meets and counts); None for anything else."""
    if isinstance(error, StorageError):
        return str(error)
    if isinstance(error, sqlite3.Error):
        return hinted(str(error) or type(error).__name__)
    if error is None or server_hint(error) is None:
        return None
    return unusable(error)
