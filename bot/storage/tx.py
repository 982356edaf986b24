"""What every query is written against, whichever engine is underneath: a transaction (:class:`Tx`)
and the engine that makes them (:class:`Engine`).

SQL is written once, in words both engines accept, with ``?`` placeholders (the PostgreSQL
backend rewrites them to ``$1, $2, ...``). The few places where the engines differ are kept to:
DDL (written for SQLite, translated by :func:`bot.storage.schema.postgres_ddl`); upserts as
``ON CONFLICT ... DO UPDATE / DO NOTHING``; new ids by ``RETURNING``; a nullable parameter
compared as ``coalesce(column, 0) = coalesce(CAST(? AS BIGINT), 0)``; and ``CAST(? AS ...)``
wherever PostgreSQL cannot tell a parameter's type from its place (``? IS NULL``, a select list).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar, Protocol, TypeVar

from ..errors import StorageError

T = TypeVar("T")


class Row(Protocol):
    """A result row: ``row["name"]`` and ``row[0]`` (sqlite3.Row and asyncpg.Record both)."""

    def __getitem__(self, key: int | str, /) -> Any: ...


class StorageUnavailableError(StorageError):
    """The database could not be reached (a lost connection, a server restarting); the
    transaction did not commit, or (if the connection died in the COMMIT) it is unknown."""


class StorageFailedError(StorageError):
    """The database answered, but cannot do the work until the operator acts: the disk is
    full, or the file damaged (:mod:`.causes` says which, in the message's one line). The
    transaction did not commit. What runs on (a sync) waits it out and tries again; a start
    that meets it ends with its line."""


class Tx(ABC):
    """One open transaction: all of its statements commit together, or none does."""

    dialect: ClassVar[str]

    def __init__(self) -> None:
        self._undo: list[Callable[[], None]] = []

    @abstractmethod
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; returns the number of rows it changed."""

    @abstractmethod
    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    @abstractmethod
    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...

    @abstractmethod
    def ddl(self, script: str) -> str:
        """SQLite's DDL in this engine's words."""

    async def script(self, ddl: str) -> None:
        """Run a migration's DDL: statements separated by ``;``, in SQLite's words."""
        for statement in self.ddl(ddl).split(";"):
            if statement.strip():
                await self.execute(statement.strip())

    def on_rollback(self, undo: Callable[[], None]) -> None:
        """Call ``undo`` if this transaction does not commit: state kept outside the database
        about what it wrote (the fence's mark) must not outlive a rollback."""
        self._undo.append(undo)

    def rolled_back(self) -> None:
        """The engine calls this when the transaction ends without committing."""
        undo, self._undo = self._undo, []
        for action in reversed(undo):
            action()


class Engine(ABC):
    """A connection (SQLite) or a pool (PostgreSQL), and the transactions made on it."""

    dialect: ClassVar[str]

    @property
    @abstractmethod
    def name(self) -> str:
        """Where the data is, for messages: a path, or host:port/database (never a password)."""

    @abstractmethod
    async def probe(self) -> None:
        """Check, before the bot starts, that the data can be reached, and leave nothing
        open: what waiting may cure raises :class:`StorageUnavailableError`, what it cannot
        :class:`StorageError` (one line for the operator)."""

    def discard_unused(self) -> None:
        """Remove what :meth:`probe` created for a start that ends before using it (a
        rejected token): nothing, unless the engine makes its database itself."""
        return None

    @abstractmethod
    async def open(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    def refused(self, error: Exception) -> StorageError | None:
        """An error met while opening (migrating) as one line for the operator; None for
        an error that is not the engine's (a bug: raised as it is)."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """A transaction that commits when the block ends, and rolls back on any error."""

    @abstractmethod
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement in a transaction of its own; the rows it changed."""

    @abstractmethod
    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    @abstractmethod
    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...

    @abstractmethod
    def migration_lock(self) -> AbstractAsyncContextManager[None]:
        """Held while migrating: two processes starting at once do not both migrate."""

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def set_schema_version(self, tx: Tx, version: int) -> None: ...

    async def retrying(self, operation: Callable[[], Awaitable[T]]) -> T:
        """Run ``operation``; an engine whose server can go away runs it again after a short
        wait when it failed for that reason (:class:`StorageUnavailableError`)."""
        return await operation()
