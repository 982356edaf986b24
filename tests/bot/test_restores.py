"""The mark of a backup's copy: written into the copy only, taken once by the bot's start."""

from __future__ import annotations

import contextlib
import itertools
import os
import sqlite3
from pathlib import Path

import pytest

from bot.gamemessages import Messages
from bot.models import Game, Player, Status
from bot.storage import Storage
from bot.storage.backup import back_up
from bot.storage.backup import main as backup_main
from bot.storage.restores import RESTORED, SKIPPED_IDS, mark_copy, take_mark
from bot.storage.sqlite import held_alone


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


async def test_a_restored_start_gives_new_games_ids_the_backups_later_games_never_had(
        database: Path | str) -> None:
    """Operator QA: the backup holds the counter of ids, so the first game after a restore
    took the id of a game started after the backup, whose old buttons ("Play again",
    "Check the deal") then acted on it. A marked start skips far past it, on both engines."""
    storage = Storage(database)
    await storage.open()

    chats = itertools.count(-100, -1)

    def lobby() -> Game:  # (in a chat of its own: one open table a chat)
        return Game(0, next(chats), Status.LOBBY, "pair", {}, 1, [Player(1, "Ayu")], None, 40,
                    "en", Messages())

    try:
        before = await storage.insert_game(lobby(), 0.0)
        assert await storage.insert_game(lobby(), 0.0) == before + 1  # (no mark: no gap)
        await storage.execute("INSERT INTO fleet_meta (name, value) VALUES (?, ?)",
                              (RESTORED, "12.0"))
        assert await take_mark(storage) == 12.0
        assert await storage.insert_game(lobby(), 0.0) > before + 1 + SKIPPED_IDS
    finally:
        await storage.close()


async def test_a_copy_made_to_move_the_bot_carries_no_mark(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Operator QA: a bot moved to another machine with its stopped database's backup told
    every group its moves were undone. ``--move`` copies without the mark; a backup, as
    before, with it."""
    live = tmp_path / "live.sqlite3"
    storage = Storage(live)
    await storage.open()
    await storage.close()
    for options, expected in ((["--move"], False), ([], True)):
        copy = tmp_path / f"copy{len(options)}.sqlite3"
        assert backup_main([*options, str(copy), "--database", str(live)]) == 0
        with contextlib.closing(sqlite3.connect(copy)) as connection:
            marks = connection.execute("SELECT count(*) FROM fleet_meta WHERE name=?",
                                       (RESTORED,)).fetchone()[0]
        assert marks == expected
    assert "unmarked: start it instead of the old bot" in capsys.readouterr().out


async def test_a_move_of_a_running_bots_database_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--move copies a stopped bot's database: one still running would make moves the copy
    misses, and two bots would run after the move. Refused while a bot holds it; a backup
    (without --move) is made as before."""
    live = tmp_path / "live.sqlite3"
    storage = Storage(live)
    await storage.open()
    await storage.close()
    with held_alone(live):  # as python -m bot holds it while it runs
        assert backup_main(["--move", str(tmp_path / "moved.sqlite3"),
                            "--database", str(live)]) == 1
        assert backup_main([str(tmp_path / "backup.sqlite3"), "--database", str(live)]) == 0
    said = capsys.readouterr().err
    assert said.startswith(f"backup failed: cannot open the database {live.resolve()}: "
                           f"another bot (pid {os.getpid()}) is using it: stop that one "
                           "first (--move copies the database of a stopped bot)\n"), said
    assert not (tmp_path / "moved.sqlite3").exists()
    assert backup_main(["--move", str(tmp_path / "moved.sqlite3"), "--database", str(live)]) == 0
