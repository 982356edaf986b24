"""SQLite storage (aiosqlite): games, users, chats, the outbox, and finished results.

Every accepted action is written in one transaction together with whatever it must announce
(the outbox), before anything is sent; a restart finds the same state and sends what is left.
The schema is versioned: each migration runs once, in order, inside a transaction.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from .errors import StorageError

MIGRATIONS: tuple[str, ...] = (
    # 1: the first schema
    """
    CREATE TABLE users (
        user_id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        username TEXT,
        language TEXT,
        private_ok INTEGER NOT NULL DEFAULT 0,  -- has a private chat with the bot
        updated_at REAL NOT NULL
    );
    CREATE TABLE chats (
        chat_id INTEGER PRIMARY KEY,
        title TEXT,
        language TEXT,
        settings TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE games (
        game_id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby','playing','finished','stopped','cancelled')),
        variant TEXT NOT NULL,
        options TEXT NOT NULL,
        creator_id INTEGER NOT NULL,
        players TEXT NOT NULL,
        match TEXT,
        move_no INTEGER NOT NULL DEFAULT 0,
        language TEXT NOT NULL DEFAULT 'en',
        messages TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX games_one_open_per_chat ON games(chat_id)
        WHERE status IN ('lobby', 'playing');
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL,
        chat_id INTEGER NOT NULL,
        text TEXT NOT NULL,
        photo BLOB,
        created_at REAL NOT NULL
    );
    CREATE TABLE hand_results (
        game_id INTEGER NOT NULL,
        hand_number INTEGER NOT NULL,
        chat_id INTEGER NOT NULL,
        variant TEXT NOT NULL,
        players TEXT NOT NULL,
        winner_side INTEGER,
        totals TEXT NOT NULL,
        points TEXT NOT NULL,
        finished_at REAL NOT NULL,
        PRIMARY KEY (game_id, hand_number)
    );
    CREATE TABLE match_results (
        game_id INTEGER PRIMARY KEY,
        chat_id INTEGER NOT NULL,
        variant TEXT NOT NULL,
        players TEXT NOT NULL,
        sides TEXT NOT NULL,
        winner_side INTEGER,
        scores TEXT NOT NULL,
        finished_at REAL NOT NULL
    );
    """,
    # 2: turn timers, and the settings a game started with
    """
    ALTER TABLE games ADD COLUMN turn_seconds INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN deadline REAL;
    ALTER TABLE games ADD COLUMN timer TEXT NOT NULL DEFAULT '{}';
    CREATE INDEX games_deadline ON games(deadline) WHERE deadline IS NOT NULL;
    """,
    # 3: buttons on announcements (offering a computer player for an absent one)
    """
    ALTER TABLE outbox ADD COLUMN buttons TEXT;
    """,
)


@dataclass(frozen=True, slots=True)
class OutboxItem:
    id: int
    game_id: int
    chat_id: int
    text: str
    photo: bytes | None
    buttons: list[list[list[str]]] | None = None


class Storage:
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

    async def open(self) -> None:
        if isinstance(self.path, Path):
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(str(self.path), isolation_level=None)
        self._db.row_factory = aiosqlite.Row
        await self._db.execute("PRAGMA journal_mode=WAL")
        await self._db.execute("PRAGMA synchronous=FULL")
        await self._db.execute("PRAGMA foreign_keys=ON")
        await self.migrate()

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def schema_version(self) -> int:
        row = await self.fetch_one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def migrate(self) -> None:
        version = await self.schema_version()
        if version > len(MIGRATIONS):
            raise StorageError(
                f"the database schema is version {version}, newer than this bot "
                f"({len(MIGRATIONS)}): upgrade the bot"
            )
        for number in range(version + 1, len(MIGRATIONS) + 1):
            async with self.transaction() as db:
                for statement in _statements(MIGRATIONS[number - 1]):
                    await db.execute(statement)
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

    # --- users and chats ---------------------------------------------------------------
    async def remember_user(
        self, user_id: int, name: str, username: str | None, language: str | None,
        private_ok: bool | None = None,
    ) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO users (user_id, name, username, language, private_ok, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(user_id) DO UPDATE SET name=excluded.name,"
                " username=excluded.username, language=excluded.language,"
                " private_ok=CASE WHEN ? IS NULL THEN users.private_ok"
                " ELSE excluded.private_ok END,"
                " updated_at=excluded.updated_at",
                (user_id, name, username, language, int(bool(private_ok)), time.time(),
                 private_ok),
            )

    async def set_private_ok(self, user_id: int, ok: bool) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE users SET private_ok=?, updated_at=? WHERE user_id=?",
                (int(ok), time.time(), user_id),
            )

    async def private_ok(self, user_id: int) -> bool:
        row = await self.fetch_one("SELECT private_ok FROM users WHERE user_id=?", (user_id,))
        return bool(row and row["private_ok"])

    async def user_language(self, user_id: int) -> str | None:
        row = await self.fetch_one("SELECT language FROM users WHERE user_id=?", (user_id,))
        return row["language"] if row else None

    async def chat_settings(self, chat_id: int) -> str | None:
        row = await self.fetch_one("SELECT settings FROM chats WHERE chat_id=?", (chat_id,))
        return str(row["settings"]) if row else None

    async def save_chat_settings(self, chat_id: int, settings: str) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO chats (chat_id, settings) VALUES (?, ?)"
                " ON CONFLICT(chat_id) DO UPDATE SET settings=excluded.settings",
                (chat_id, settings),
            )

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: everything of the old id moves to the new one."""
        async with self.transaction() as db:
            for table in ("games", "outbox", "hand_results", "match_results"):
                await db.execute(
                    f"UPDATE {table} SET chat_id=? WHERE chat_id=?", (new_chat_id, old_chat_id)
                )
            await db.execute(
                "INSERT OR IGNORE INTO chats (chat_id, title, language, settings)"
                " SELECT ?, title, language, settings FROM chats WHERE chat_id=?",
                (new_chat_id, old_chat_id),
            )

    # --- outbox ------------------------------------------------------------------------
    async def pending_outbox(self, game_id: int) -> list[OutboxItem]:
        rows = await self.fetch_all(
            "SELECT id, game_id, chat_id, text, photo, buttons FROM outbox WHERE game_id=?"
            " ORDER BY id",
            (game_id,),
        )
        return [
            OutboxItem(r["id"], r["game_id"], r["chat_id"], r["text"], r["photo"],
                       json.loads(r["buttons"]) if r["buttons"] else None)
            for r in rows
        ]

    async def games_with_outbox(self) -> list[int]:
        rows = await self.fetch_all("SELECT DISTINCT game_id FROM outbox ORDER BY game_id")
        return [int(r["game_id"]) for r in rows]

    async def outbox_done(self, item_id: int) -> None:
        async with self.transaction() as db:
            await db.execute("DELETE FROM outbox WHERE id=?", (item_id,))


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
