"""The connection, its transactions and the schema migrations: what every query stands on."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from ..errors import StorageError
from .schema import MIGRATIONS


class Connection:
    """One SQLite connection; callers serialise per chat, SQLite serialises the rest."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path) if str(path) != ":memory:" else path
        self._db: aiosqlite.Connection | None = None
        # One connection is shared by every handler: a transaction must not interleave with
        # another's statements, and a read must not see another's uncommitted writes.
        self._lock = asyncio.Lock()

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StorageError("storage is not open")
        return self._db

    async def open(self, schema_version: int | None = None) -> None:
        """Connect and migrate to the latest schema (or only up to ``schema_version``, which
        the migration tests use to make a database as an older bot left it)."""
        if isinstance(self.path, Path):
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(str(self.path), isolation_level=None)
        self._db.row_factory = aiosqlite.Row
        await self._db.execute("PRAGMA journal_mode=WAL")
        await self._db.execute("PRAGMA synchronous=FULL")
        await self._db.execute("PRAGMA foreign_keys=ON")
        await self.migrate(schema_version)

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def schema_version(self) -> int:
        row = await self.fetch_one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def migrate(self, up_to: int | None = None) -> None:
        version = await self.schema_version()
        if version > len(MIGRATIONS):
            raise StorageError(
                f"the database schema is version {version}, newer than this bot "
                f"({len(MIGRATIONS)}): upgrade the bot"
            )
        for number in range(version + 1, (up_to or len(MIGRATIONS)) + 1):
            step = MIGRATIONS[number - 1]
            async with self.transaction() as db:
                if isinstance(step, str):
                    for statement in _statements(step):
                        await db.execute(statement)
                else:
                    await step(db)
                await db.execute(f"PRAGMA user_version = {number}")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error: all or nothing."""
        db = self.db
        async with self._lock:
            await db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                await db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:  # a failed COMMIT must not leave the transaction open
                    await db.execute("ROLLBACK")
                raise

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        async with self._lock, self.db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
        async with self._lock, self.db.execute(sql, params) as cursor:
            return await cursor.fetchone()

def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]
