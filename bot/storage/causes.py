"""What a database's failures mean for an operator, in one line: the database's reason, and
what to do about it. One classification for the bot (:mod:`.sqlite`, :mod:`.postgres`), the
backup and the copy to PostgreSQL, so that a damaged file or a full disk reads the same in each
(docs/OPERATIONS.md's start-up table), never as a traceback.

PostgreSQL's are told by their SQLSTATE (asyncpg's errors carry it; asyncpg is not imported
here, so that SQLite alone never loads it): its class 53, insufficient resources, is the full
disk of a server (53100) and its kin, which no retry cures until the operator acts; so is its
damaged data (XX001, data_corrupted: "invalid page in block 0 of relation base/16384/16397")
or index (XX002, index_corrupted), as SQLite's damaged file is.
"""

from __future__ import annotations

import errno
import re
import sqlite3

DAMAGED = "the file is damaged or not SQLite: restore a backup"
FULL = "free some disk space"
LOCKED = "another process holds it: stop it, or use another file"
#: SQLite's own words for a full disk (an OS's ENOSPC is said with them too).
DISK_FULL = "database or disk is full"

READ_ONLY = "the database file or its folder is not writable"
DISK_FAILED = "the disk failed: check it, and free some space"

# SQLite's words, and what they usually mean for the operator.
_HINTS = {"is locked": LOCKED, "not a database": DAMAGED, "malformed": DAMAGED,
          "disk is full": FULL, "readonly database": READ_ONLY, "disk I/O error": DISK_FAILED}
# What no retry cures: the file damaged or not SQLite, the disk full (primary result codes).
_UNUSABLE = {sqlite3.SQLITE_CORRUPT: DAMAGED, sqlite3.SQLITE_NOTADB: DAMAGED,
             sqlite3.SQLITE_FULL: FULL}
_NO_SPACE = (errno.ENOSPC, errno.EDQUOT)
# SQLite's "disk I/O error"s that a full disk gives (operator QA: a tmpfs with 32 KB left).
_EXTENDED = {"SQLITE_IOERR_SHMSIZE": f"its -shm file cannot grow: {FULL}"}

#: What a PostgreSQL server's full disk (SQLSTATE 53100, asyncpg's DiskFullError) means.
SERVER_FULL = "free some disk space on the PostgreSQL server"
# PostgreSQL's resource failures, by SQLSTATE, and what they usually mean. Not 53300, too
# many connections: a connection freed lets the bot in, so it is an outage waited for as
# the server away is (:func:`bot.storage.outages.lost`).
_SQLSTATES = {
    "53000": "the PostgreSQL server lacks a resource",  # insufficient_resources
    "53100": SERVER_FULL,  # disk_full
    "53200": "the PostgreSQL server is out of memory",  # out_of_memory
    "53400": "a limit of the PostgreSQL server's configuration",  # configuration_limit_exceeded
}
#: Where an operator reads what to do with a damaged PostgreSQL database.
DAMAGED_DOCS = "see docs/OPERATIONS.md"
#: What PostgreSQL's damaged data (SQLSTATE XX001, data_corrupted: a table's page, a TOAST
#: value) means, in SQLite's words for its damaged file.
SERVER_DAMAGED = f"the data on the PostgreSQL server is damaged: restore a backup, {DAMAGED_DOCS}"
#: What a damaged index (XX002, index_corrupted) means: rebuilt from its table, nothing lost.
#: The server names the index in its words (``index "games_pkey" contains unexpected zero
#: page at block 0``): the hint then names it as well.
INDEX_DAMAGED = "an index on the PostgreSQL server is damaged: REINDEX {index}, " + DAMAGED_DOCS
_INDEX = re.compile(r'\bindex "([^"]+)"')
_PLAIN = re.compile(r"^[a-z_][a-z0-9_$]*$")


def hinted(text: str) -> str:
    """``text`` (SQLite's reason) with what it usually means, when it is one we know:
    ``database or disk is full (free some disk space)``."""
    return next((f"{text} ({hint})" for key, hint in _HINTS.items() if key in text), text)


def server_hint(error: BaseException) -> str | None:
    """What a PostgreSQL error that no retry cures (a full disk, no memory, damaged data or
    index) usually means, else None: by its SQLSTATE; the server's own hint follows, except a
    full disk's ("Check free disk space.") and a damaged index's ("Please REINDEX it.": ours
    names the index), or where to look."""
    state = getattr(error, "sqlstate", None)
    if state == "XX001":
        return SERVER_DAMAGED
    if state == "XX002":
        return _index_damaged(server_words(error))
    hint = _SQLSTATES.get(state) if isinstance(state, str) else None
    if hint is None or hint == SERVER_FULL:
        return hint
    said = getattr(error, "hint", None)
    return f"{hint}: {' '.join(said.split())}" if isinstance(said, str) and said.strip() \
        else f"{hint}: see its log"


def _index_damaged(words: str) -> str:
    """:data:`INDEX_DAMAGED`, naming the index the server's ``words`` name (quoted as SQL
    wants it), else "it"."""
    named = _INDEX.search(words)
    index = "it" if named is None else f"INDEX {named[1]}" if _PLAIN.match(named[1]) \
        else f'INDEX "{named[1]}"'
    return INDEX_DAMAGED.format(index=index)


def server_words(error: BaseException) -> str:
    """A PostgreSQL error's own message in one line, without the hint asyncpg adds on a line
    of its own (:func:`server_hint` says it, in the operator's words)."""
    said = getattr(error, "message", None)
    text = said if isinstance(said, str) and said.strip() else str(error)
    return " ".join(text.split()) or type(error).__name__


def damaged(error: BaseException) -> bool:
    """Whether ``error`` says the file is damaged or not SQLite (not: the disk is full)."""
    return isinstance(error, sqlite3.Error) and _hint(error) == DAMAGED


def unusable(error: BaseException) -> str | None:
    """The one line of a failure that leaves the database unusable until the operator acts
    (a damaged file, a full disk; an OS's "No space left on device" included; a PostgreSQL
    server's full disk or memory, its damaged data or index: :func:`server_hint`), else None
    (a busy file, a bug: for the caller to handle as before)."""
    if isinstance(error, OSError) and error.errno in _NO_SPACE:
        return f"{DISK_FULL} ({FULL})"
    served = server_hint(error)
    if served is not None:
        return f"{server_words(error)} ({served})"
    hint = _hint(error) if isinstance(error, sqlite3.Error) else None
    return None if hint is None else f"{error} ({hint})"


def _hint(error: sqlite3.Error) -> str | None:
    """What no retry cures, by SQLite's primary result code (or by its words, for an error
    raised without one)."""
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(code, int):
        return _UNUSABLE.get(code & 0xFF) or _EXTENDED.get(getattr(error, "sqlite_errorname", ""))
    return next((h for key, h in _HINTS.items() if key in str(error) and h in (DAMAGED, FULL)),
                None)
