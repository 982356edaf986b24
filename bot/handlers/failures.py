"""A database's failure met while handling an update, told in one line an operator can act
on: the disk full, the file gone read-only, PostgreSQL away. What the bot's own code got wrong
(a bug) is not one of these, and keeps its traceback."""

from __future__ import annotations

import sqlite3

from ..errors import StorageError

#: What SQLite's words usually mean for the operator, the hints the storage gives the same
#: words at start (``bot.storage.sqlite.SqliteEngine._cause``): a commit that fails once the
#: bot runs says the same, without "cannot open".
_HINTS = {
    "disk is full": "free some disk space",
    "readonly database": "the database file or its folder is not writable",
    "disk I/O error": "the disk failed: check it, and free some space",
}


def database_failure(error: BaseException | None) -> str | None:
    """``error`` in one line when it is the database's failure (the storage's own error, or
    SQLite's: a move's commit on a full disk raises SQLite's ``database or disk is full``);
    None for anything else."""
    if isinstance(error, StorageError):
        return str(error)
    if not isinstance(error, sqlite3.Error):
        return None
    text = str(error) or type(error).__name__
    return next((f"{text} ({hint})" for key, hint in _HINTS.items() if key in text), text)
