"""A database the bot made, then damaged in one page: SQLite opens it (its header and schema
are whole) and fails only reading the games ("database disk image is malformed")."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from bot.gamemessages import Messages
from bot.models import Game, Player, Status
from bot.storage import Storage

MALFORMED = "database disk image is malformed"
DAMAGED = f"{MALFORMED} (the file is damaged or not SQLite: restore a backup)"


async def damaged_database(path: Path, games: int = 3) -> Path:
    """``path``: the bot's database with ``games`` open lobbies, the games table's first page
    overwritten (its b-tree page header no longer one SQLite knows)."""
    storage = Storage(path)
    await storage.open()
    try:
        for number in range(games):
            lobby = Game(0, -1 - number, Status.LOBBY, "gaple", {}, 1, [Player(1, "A")], None,
                         0, "en", Messages())
            await storage.insert_game(lobby, 0.0)
    finally:
        await storage.close()
    with closing(sqlite3.connect(path)) as db:
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'"
                             ).fetchone()
        (size,) = db.execute("PRAGMA page_size").fetchone()
        db.execute("PRAGMA journal_mode=DELETE").fetchone()  # one file: no -wal beside it
    with path.open("r+b") as file:
        file.seek((root - 1) * size)
        file.write(b"\x00" * 12)  # no page type, no cells
    return path
