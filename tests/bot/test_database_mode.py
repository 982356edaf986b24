"""A new SQLite database is readable by its owner alone, as its backups are."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from bot.storage import Storage


async def test_a_new_database_and_its_journal_are_the_owners_alone(tmp_path: Path) -> None:
    path = tmp_path / "data" / "dominoes.sqlite3"
    storage = Storage(path)
    await storage.open()
    try:
        await storage.remember_user(5, "Ann", "ann", "en")  # written: the WAL file is made
        modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in path.parent.iterdir()
                 if p.name in (path.name, f"{path.name}-wal", f"{path.name}-shm")}
    finally:
        await storage.close()
    assert modes == dict.fromkeys(modes, 0o600) and path.name in modes and len(modes) >= 2


async def test_an_existing_database_keeps_its_mode(tmp_path: Path) -> None:
    """An operator's own choice (a group-readable file for a backup job) stays."""
    path = tmp_path / "dominoes.sqlite3"
    storage = Storage(path)
    await storage.open()
    await storage.close()
    os.chmod(path, 0o640)
    storage = Storage(path)
    await storage.open()
    await storage.close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
