"""Storage: migrations run once and in order; transactions are all or nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import StorageError
from bot.storage import MIGRATIONS, Storage


async def test_a_new_database_gets_the_latest_schema(tmp_path: Path) -> None:
    storage = Storage(tmp_path / "sub" / "db.sqlite3")
    await storage.open()
    assert await storage.schema_version() == len(MIGRATIONS)
    await storage.close()
    await storage.open()  # opening again migrates nothing and keeps the data
    assert await storage.schema_version() == len(MIGRATIONS)
    await storage.close()


async def test_a_database_newer_than_the_code_is_refused(tmp_path: Path) -> None:
    storage = Storage(tmp_path / "db.sqlite3")
    await storage.open()
    await storage.db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    await storage.close()
    with pytest.raises(StorageError):
        await storage.open()
    await storage.close()


async def test_a_failed_transaction_leaves_nothing_behind(tmp_path: Path) -> None:
    storage = Storage(tmp_path / "db.sqlite3")
    await storage.open()
    with pytest.raises(RuntimeError):
        async with storage.transaction() as db:
            await db.execute(
                "INSERT INTO outbox (game_id, chat_id, text, created_at) VALUES (1, 1, 'x', 0)"
            )
            raise RuntimeError("crash in the middle")
    assert await storage.pending_outbox(1) == []
    await storage.close()


async def test_remembered_users_keep_their_private_chat_flag(tmp_path: Path) -> None:
    storage = Storage(tmp_path / "db.sqlite3")
    await storage.open()
    await storage.remember_user(5, "Ann", "ann", "ru", private_ok=True)
    await storage.remember_user(5, "Ann B", "ann", "ru")  # a group command: flag unchanged
    assert await storage.private_ok(5)
    await storage.set_private_ok(5, False)
    assert not await storage.private_ok(5)
    assert await storage.user_language(5) == "ru"
    await storage.close()
