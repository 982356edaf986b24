"""The storage's engine, its transactions and the schema migrations: what every query stands on.

``Connection(target)`` picks the engine from the target: a ``postgresql://`` URL is PostgreSQL
(:mod:`.postgres`), anything else a SQLite file (:mod:`.sqlite`), as the bot has always had.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from ..errors import StorageError
from ..i18n import Speech
from .schema import MIGRATIONS
from .tx import Engine, Row, T, Tx

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def marks(count: int) -> str:
    """``?, ?, ...``: the placeholders of an ``IN (...)`` list of ``count`` values."""
    return ", ".join("?" * count)


def is_postgres_url(target: Path | str) -> bool:
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


def engine_for(target: Path | str) -> Engine:
    if is_postgres_url(target):
        from .postgres import PostgresEngine  # asyncpg only where PostgreSQL is used

        return PostgresEngine(str(target))
    from .sqlite import SqliteEngine

    return SqliteEngine(target)


class Connection:
    """The database: a SQLite file (a path) or PostgreSQL (a ``postgresql://`` URL)."""

    def __init__(self, target: Path | str) -> None:
        self.engine = engine_for(target)
        #: Games whose outbox this process knows to be empty (SQLite only: one process
        #: writes the file, and every announcement it queues goes through ``GameRows``).
        self.outbox_empty: set[int] = set()
        #: Users' languages as last read by this process (SQLite only, as above: every write
        #: of a user's language goes through ``ChatRows.remember_user`` or ``choose_language``,
        #: which forget the user's).
        self.languages: dict[int, Speech] = {}
        #: The schema version the last :meth:`migrate` found (0: a new, empty database), for
        #: the start-up line that names the database (:meth:`described`).
        self.found_version: int | None = None

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self.engine.dialect

    @property
    def pg_url(self) -> str:
        """The PostgreSQL URL, for the fleet's own connections (locks, LISTEN)."""
        return str(self._postgres().url)

    @property
    def pool(self) -> Any:
        """The asyncpg pool, for the fleet's own queries."""
        return self._postgres().pool

    def name_connections(self, name: str) -> None:
        """On PostgreSQL, the ``application_name`` of the connections opened from now on (a
        fleet worker's carry its name); nothing on SQLite."""
        if self.engine.dialect == "postgresql":
            self._postgres().application_name = name

    def _postgres(self) -> Any:
        if self.engine.dialect != "postgresql":
            raise StorageError("this storage is SQLite: no PostgreSQL URL or pool")
        return self.engine

    async def open(self, schema_version: int | None = None) -> None:
        """Connect and migrate to the latest schema (or only up to ``schema_version``, which
        the migration tests use to make a database as an older bot left it)."""
        await self.engine.open()
        try:
            await self.migrate(schema_version)
        except StorageError:
            await self.close()
            raise
        except Exception as error:
            await self.close()
            refused = self.engine.refused(error)
            if refused is None:
                raise
            raise refused from None

    async def close(self) -> None:
        await self.engine.close()

    async def schema_version(self) -> int:
        return await self.engine.schema_version()

    async def migrate(self, up_to: int | None = None) -> None:
        async with self.engine.migration_lock():
            version = await self.schema_version()
            self.found_version = version
            for number in self.migrations(version, up_to):
                async with self.transaction() as tx:
                    await self.migrate_step(tx, number)

    def migrations(self, version: int, up_to: int | None = None) -> range:
        """The migrations a database at schema ``version`` needs (up to ``up_to``); one newer
        than this bot is refused, in one line."""
        if version > len(MIGRATIONS):
            raise StorageError(
                f"the database schema is version {version}, newer than this bot "
                f"({len(MIGRATIONS)}): run the newer bot, or to go back restore the "
                "backup made before its first start (an upgrade cannot be undone)"
            )
        return range(version + 1, (up_to or len(MIGRATIONS)) + 1)

    async def migrate_step(self, tx: Tx, number: int) -> None:
        """Migration ``number`` in ``tx``, the schema version with it (the copy to PostgreSQL
        runs them all in its own transaction: a copy that fails leaves no tables made)."""
        step = MIGRATIONS[number - 1]
        if isinstance(step, str):
            await tx.script(step)
        else:
            await step(tx)
        await self.engine.set_schema_version(tx, number)

    def described(self) -> str:
        """Which database this is and what opening it found, for the operator: a mistyped
        path makes a new, empty one (missing folders are created on purpose), which this
        says. Its name never holds a password."""
        found, latest = self.found_version, len(MIGRATIONS)
        if found is None:  # not opened yet
            return self.engine.name
        if found == 0:
            state = "new: created now"
        elif found == latest:
            state = f"schema {latest}"
        else:
            state = f"schema {latest}, upgraded from {found}"
        return f"{self.engine.name} ({state})"

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """All or nothing: commits when the block ends, rolls back on any error."""
        async with self.engine.transaction() as tx:
            yield tx

    async def write(self, work: Callable[[Tx], Awaitable[T]]) -> T:
        """``work`` in a transaction of its own; on PostgreSQL, run again from the start when
        the server was unreachable or the connection died (nothing of it was committed)."""
        async def attempt() -> T:
            async with self.engine.transaction() as tx:
                return await work(tx)
        return await self.engine.retrying(attempt)

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self.engine.fetch_all(sql, params)

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self.engine.fetch_one(sql, params)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement on its own, all or nothing; returns the rows it changed. On
        PostgreSQL it is run again if the server was lost: keep it idempotent."""
        return await self.engine.execute(sql, params)
