"""The mark of a backup's copy: written into the copy only, taken once by the bot's start."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from bot.storage import Storage
from bot.storage.backup import back_up
from bot.storage.restores import RESTORED, mark_copy, take_mark


async def test_a_marked_copy_is_taken_once_and_the_live_database_never_marked(
    tmp_path: Path,
) -> None:
    live = tmp_path / "live.sqlite3"
    storage = Storage(live)
    await storage.open()
    await storage.close()
    copy = back_up(live, tmp_path / "copy.sqlite3").path
    with contextlib.closing(sqlite3.connect(copy)) as connection:
        assert mark_copy(connection, made_at=1_700_000_000.5)
    for database, expected in ((live, None), (copy, 1_700_000_000.5)):
        storage = Storage(database)
        await storage.open()
        try:
            assert await take_mark(storage) == expected
            assert await take_mark(storage) is None  # the next start is an ordinary one
        finally:
            await storage.close()


async def test_the_mark_is_read_on_postgresql_too(database: Path | str) -> None:
    storage = Storage(database)
    await storage.open()
    try:
        assert await take_mark(storage) is None
        await storage.execute("INSERT INTO fleet_meta (name, value) VALUES (?, ?)",
                              (RESTORED, "12.0"))
        assert await take_mark(storage) == 12.0
        assert await take_mark(storage) is None
    finally:
        await storage.close()


def test_a_copy_older_than_the_marks_table_is_left_unmarked(tmp_path: Path) -> None:
    with contextlib.closing(sqlite3.connect(tmp_path / "old.sqlite3")) as connection:
        connection.execute("CREATE TABLE games (game_id INTEGER)")
        assert not mark_copy(connection)
