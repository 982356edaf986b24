"""A database file that cannot be used any more, found after it opened: damaged in a page
(SQLite opens it, reading the games fails) or on a full disk. The bot, the backup and the
copy to PostgreSQL each say it in the one line docs/OPERATIONS.md shows for a damaged file
or a full disk, never with a traceback (operator QA)."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

import pytest
from damaged import DAMAGED, damaged_database
from test_startup import bot_process, finish, server_settings

from bot.errors import StorageError
from bot.gamemessages import Messages
from bot.models import Game, Player, Status
from bot.storage import Storage
from bot.storage.causes import unusable
from fakeapi import FakeTelegramServer


async def test_the_bot_on_a_damaged_database_says_so_in_one_line(
        telegram: FakeTelegramServer, tmp_path: Path) -> None:
    database = await damaged_database(tmp_path / "dominoes.sqlite3")
    settings = server_settings(telegram, DATABASE_PATH=str(database))
    async with bot_process(tmp_path, **settings) as bot:
        assert await bot.ended() == 1
    assert bot.unstamped() == [f"CRITICAL bot: cannot use the database {database}: {DAMAGED}"]


async def test_the_backup_of_a_damaged_database_says_so_in_one_line(tmp_path: Path) -> None:
    database = await damaged_database(tmp_path / "dominoes.sqlite3")
    code, out, err = await finish(tmp_path, "backups/", "--database", str(database),
                                  module="bot.storage.backup")
    assert (code, out) == (1, "")
    assert err == f"backup failed: cannot read {database}: {DAMAGED}\n"
    assert list((tmp_path / "backups").iterdir()) == []  # no copy, no partial left


async def test_the_copy_of_a_damaged_database_says_so_in_one_line(tmp_path: Path) -> None:
    """Refused while reading the source: the target is not reached (nothing listens)."""
    database = await damaged_database(tmp_path / "dominoes.sqlite3")
    target = "postgresql://bot:sekret@127.0.0.1:9/bot"
    code, out, err = await finish(tmp_path, str(database), target, module="bot.storage.copy")
    assert (code, out) == (1, "")
    assert err == f"copy failed: cannot read {database}: {DAMAGED}\n"


async def test_a_full_disk_while_resuming_is_the_databases_one_line(tmp_path: Path) -> None:
    """A write after opening that finds the disk full (operator QA: the start's resume,
    saving a restored game's messages) raises the storage's error, which the start says in
    one line (:func:`bot.launch._serve`), as a full disk met while opening is said. SQLite's
    page limit fails the write as a full disk does (SQLITE_FULL)."""
    database = tmp_path / "dominoes.sqlite3"
    storage = Storage(database)
    await storage.open()
    try:
        lobby = Game(0, -1, Status.LOBBY, "gaple", {}, 1, [Player(1, "A")], None, 0, "en",
                     Messages())
        lobby.game_id = await storage.insert_game(lobby, 0.0)
        row = await storage.fetch_one("PRAGMA page_count")
        assert row is not None
        await storage.execute(f"PRAGMA max_page_count = {int(row[0])}")
        lobby.messages.questions = list(range(10_000))  # more than a page: one more needed
        with pytest.raises(StorageError) as full:
            await storage.save_messages(lobby)
        assert str(full.value) == (f"cannot use the database {database.resolve()}: database or "
                                   "disk is full (free some disk space)")
        with pytest.raises(sqlite3.IntegrityError):  # what is not the file's state passes
            await storage.execute("INSERT INTO games (game_id) VALUES (?)", (lobby.game_id,))
    finally:
        await storage.close()


def sqlite_error(text: str, name: str) -> sqlite3.Error:
    """An error as SQLite raises it: its words, its (extended) result code and name."""
    error = sqlite3.OperationalError(text)
    error.sqlite_errorcode = getattr(sqlite3, name)
    error.sqlite_errorname = name
    return error


@pytest.mark.parametrize(("error", "line"), [
    (sqlite_error("database or disk is full", "SQLITE_FULL"),
     "database or disk is full (free some disk space)"),
    (OSError(errno.ENOSPC, "No space left on device"),
     "database or disk is full (free some disk space)"),
    (sqlite_error("database disk image is malformed", "SQLITE_CORRUPT"), DAMAGED),
    (sqlite_error("file is not a database", "SQLITE_NOTADB"),
     "file is not a database (the file is damaged or not SQLite: restore a backup)"),
    # a tmpfs with 32 KB left: the -shm file cannot grow (operator QA, at start)
    (sqlite_error("disk I/O error", "SQLITE_IOERR_SHMSIZE"),
     "disk I/O error (its -shm file cannot grow: free some disk space)"),
    (sqlite3.OperationalError("database or disk is full"),  # without its code: by its words
     "database or disk is full (free some disk space)"),
    # what waiting or the caller cures passes as it is
    (sqlite_error("database is locked", "SQLITE_BUSY"), None),
    (sqlite_error("UNIQUE constraint failed: games.game_id", "SQLITE_CONSTRAINT_PRIMARYKEY"),
     None),
    (OSError(errno.EACCES, "Permission denied"), None),
])
def test_what_leaves_a_file_unusable_is_one_line(error: BaseException, line: str | None
                                                 ) -> None:
    assert unusable(error) == line
