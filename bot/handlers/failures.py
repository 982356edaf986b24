"""A database's failure met while handling an update, told in one line an operator can act
on: the disk full, the file gone read-only, PostgreSQL away. What the bot's own code got wrong
(a bug) is not one of these, and keeps its traceback."""

from __future__ import annotations

import sqlite3

from ..errors import StorageError
from ..storage.causes import hinted, server_hint, unusable


def database_failure(error: BaseException | None) -> str | None:
    """``error`` in one line when it is the database's failure (the storage's own error, or
    SQLite's: a move's commit on a full disk raises SQLite's ``database or disk is full``;
    or a PostgreSQL server's full disk met on a connection of the fleet's own); None for
    anything else."""
    if isinstance(error, StorageError):
        return str(error)
    if isinstance(error, sqlite3.Error):
        return hinted(str(error) or type(error).__name__)
    if error is None or server_hint(error) is None:
        return None
    return unusable(error)
