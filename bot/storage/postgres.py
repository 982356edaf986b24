"""PostgreSQL (asyncpg), chosen by ``DATABASE_URL=postgresql://...``: a pool of connections that
many processes share, and a server that may go away and come back.

The same SQL as SQLite's (``?`` placeholders, rewritten here to ``$1, $2, ...``). What the server
refuses at start-up becomes a :class:`StorageError` with one line for the operator, and never
the URL's password. A connection lost to a restarting server fails the operation with
:class:`StorageUnavailableError`; :meth:`PostgresEngine.retrying` runs it again after a short
wait, for at most ``retry_for`` seconds, and the pool connects anew. The outage is told once
however many operations wait for it: a WARNING when the first fails, each retry at DEBUG, and
one INFO line, ``PostgreSQL at host:5432/db answers again after 22 s``, at the first answer.
A server that answers but cannot do the work until the operator acts (its disk full, out of
memory: :func:`.causes.unusable`) fails the operation with :class:`StorageFailedError`, one
line, as SQLite's full disk does: what runs on (a sync) waits it out, not a retry here.
"""

from __future__ import annotations

import asyncio
import logging
import re
import ssl
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from functools import lru_cache
from typing import Any
from urllib.parse import unquote, urlsplit

import asyncpg  # type: ignore[import-untyped]

from ..config import unencoded_password, url_problem
from ..errors import StorageError
from .causes import unusable
from .outages import cause, lost
from .schema import postgres_ddl
from .tx import Engine, Row, StorageFailedError, StorageUnavailableError, T, Tx

log = logging.getLogger(__name__)

# pg_advisory_lock's key for migrations (one bigint; the fleet's two-key locks are apart).
MIGRATION_LOCK = 0x646F6D696E6F  # "domino"
#: Seconds between asking for the migration lock another process holds, and how many asks
#: between two lines saying so.
MIGRATION_POLL = 0.5
MIGRATION_SAID_EVERY = 20
#: Seconds a statement may take before the pool gives up on it.
COMMAND_TIMEOUT = 60.0
#: Seconds a start-up probe waits for a server that does not answer (asyncpg's own: 60).
PROBE_TIMEOUT = 10.0
APPLICATION_NAME = "domino-bot"

#: What asyncpg's pool logs, with a traceback, at each attempt to reconnect its minimum of
#: connections while the server is away (asyncpg 0.30+).
POOL_FLOOR_RETRY = "Failed to restore the pool connection floor"


class PoolFloorRetries(logging.Filter):
    """asyncpg's pool warns, with a 17-line traceback, at each attempt to keep its floor of
    connections while PostgreSQL is away (a restart: several a second). The bot's own lines
    already say the server is away and when it answers again, once for each state: this one
    becomes a single DEBUG line with its cause, seen only when debugging."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith(POOL_FLOOR_RETRY):
            return True
        error = record.exc_info[1] if record.exc_info else None
        cause = (" ".join(str(error).split()) or type(error).__name__) if error else "?"
        record.msg, record.args = "the pool's minimum of connections not restored yet: %s", (
            cause,)
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        record.levelno, record.levelname = logging.DEBUG, logging.getLevelName(logging.DEBUG)
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


_POOL_FLOOR_RETRIES = PoolFloorRetries()


def quiet_pool_floor_retries() -> None:
    """Install :class:`PoolFloorRetries` on asyncpg's pool logger (once, however often
    called): every pool of the process, the bot's and a receiver's, makes one."""
    logging.getLogger("asyncpg.pool").addFilter(_POOL_FLOOR_RETRIES)


_TOKENS = re.compile(r"'(?:[^']|'')*'|\"[^\"]*\"|--[^\n]*|\?")


@lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...`` (none inside quotes or comments)."""
    count = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal count
        if match[0] != "?":
            return match[0]
        count += 1
        return f"${count}"

    return _TOKENS.sub(replace, sql)


def _changed(status: str) -> int:
    """Rows a statement changed, from its status ("UPDATE 1", "INSERT 0 1", "CREATE TABLE")."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def _not_up_yet(error: BaseException) -> bool:
    """A connection refused in a way that waiting may cure (:func:`lost`), not TLS: a
    certificate, a host name or a server without SSL does not come right by itself."""
    return lost(error) and not isinstance(error, ssl.SSLError) \
        and "rejected SSL upgrade" not in str(error)


class PgTx(Tx):
    dialect = "postgresql"

    def __init__(self, connection: Any) -> None:
        super().__init__()
        self.connection = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _changed(await self.connection.execute(numbered(sql), *params))

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self.connection.fetch(numbered(sql), *params))

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        row: Row | None = await self.connection.fetchrow(numbered(sql), *params)
        return row

    def ddl(self, script: str) -> str:
        return postgres_ddl(script)


class PostgresEngine(Engine):
    """A pool of connections to one database."""

    dialect = "postgresql"

    def __init__(self, url: str, *, max_size: int = 10, retry_for: float = 30.0) -> None:
        self.url = url
        self.max_size = max_size
        self.retry_for = retry_for  # seconds an operation keeps trying a server that is away
        #: What pg_stat_activity shows for its connections (a fleet worker's carry its name).
        self.application_name = APPLICATION_NAME
        self._pool: Any = None
        #: Since when (monotonic) the server has not answered an operation (None: it does).
        self._away_since: float | None = None
        parts = urlsplit(url)
        self._password = unquote(parts.password or "")
        try:
            where = f"{parts.hostname or 'localhost'}:{parts.port or 5432}"
        except ValueError:  # several hosts (h1:5432,h2:5433), or a port that is not a number
            where = parts.netloc.rpartition("@")[2] or "?"
        self._name = f"{where}/{parts.path.lstrip('/') or parts.username or 'postgres'}"
        if unencoded_password(url):  # what urlsplit read is pieces of the password
            self._name = "the URL's host"

    @property
    def name(self) -> str:
        return self._name

    @property
    def pool(self) -> Any:
        """The asyncpg pool (for the fleet's own queries). Its connections come back as
        they went (no RESET ALL / UNLISTEN / unlock round trip on each release, a third of a
        move's statements): leave no session state on one (SET, LISTEN, session advisory
        locks belong on a connection of one's own)."""
        if self._pool is None:
            raise StorageError("storage is not open")
        return self._pool

    async def open(self) -> None:
        quiet_pool_floor_retries()
        self._pool = await self.connecting(lambda: asyncpg.create_pool(
            self.url, min_size=1, max_size=self.max_size, command_timeout=COMMAND_TIMEOUT,
            server_settings={"application_name": self.application_name}, reset=_as_it_is))

    async def connect(self) -> Any:
        """A connection of its own, outside the pool (for a session's advisory lock)."""
        return await self.connecting(lambda: asyncpg.connect(
            self.url, server_settings={"application_name": self.application_name}))

    async def probe(self) -> None:
        """Connect once and hang up: a server not there yet (refused, no answer, unknown
        host, starting up, full) raises :class:`StorageUnavailableError`, one that will not
        have us (a password, a missing database) :class:`StorageError`."""
        connection = await self.connecting(
            lambda: asyncpg.connect(self.url, timeout=PROBE_TIMEOUT))
        with suppress(*_LOST):
            await connection.close(timeout=PROBE_TIMEOUT)

    async def connecting(self, connect: Callable[[], Awaitable[Any]]) -> Any:
        """What ``connect`` makes; refused, one line for the operator (a server that cannot
        be reached yet as :class:`StorageUnavailableError`: worth waiting for)."""
        problem = url_problem(self.url)
        if problem is not None:
            raise StorageError(f"cannot connect to PostgreSQL: the URL's {problem}")
        try:
            return await connect()
        except Exception as error:  # asyncpg raises many kinds: each gets its one line
            kind = StorageUnavailableError if _not_up_yet(error) else StorageError
            raise kind(
                f"cannot connect to PostgreSQL at {self.name}: {self.cause(error)}") from None

    def cause(self, error: BaseException) -> str:
        """asyncpg's reason in one line, what it usually means, and no password."""
        return cause(error, self._password)

    def refused(self, error: Exception) -> StorageError | None:
        if isinstance(error, StorageError):
            return error
        if not isinstance(error, (asyncpg.PostgresError, *_LOST)):
            return None
        return StorageError(f"cannot migrate PostgreSQL at {self.name}: {self.cause(error)}")

    def unavailable(self, error: BaseException) -> StorageUnavailableError:
        return StorageUnavailableError(
            f"PostgreSQL at {self.name} is unavailable: {self.cause(error)}")

    def outage(self, error: BaseException, connection: Any = None) -> StorageError | None:
        """``error`` as the storage's outage: the server lost (:meth:`unavailable`), or
        unable to do the work until the operator acts, its disk full or out of memory
        (:class:`StorageFailedError`, in SQLite's words for its own: ``cannot use the
        database HOST:5432/db: could not extend file ...: No space left on device (free some
        disk space on the PostgreSQL server)``); None for anything else (a constraint, a bug:
        raised as it is)."""
        if lost(error, connection):
            return self.unavailable(error)
        if unusable(error) is not None:
            return StorageFailedError(f"cannot use the database {self.name}: "
                                      f"{self.cause(error)}")
        return None

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            try:
                async with asyncio.timeout(10):
                    await pool.close()
            except (TimeoutError, *_LOST):
                pool.terminate()

    async def retrying(self, operation: Callable[[], Awaitable[T]]) -> T:
        deadline = time.monotonic() + self.retry_for
        wait = 0.1
        while True:
            try:
                result = await operation()
            except StorageUnavailableError as error:
                self._went_away(error)
                if time.monotonic() + wait > deadline:
                    raise
                log.debug("%s: trying again in %.1f s", error, wait)
            else:
                self._answered()
                return result
            await asyncio.sleep(wait)
            wait = min(wait * 2, 2.0)

    def _went_away(self, error: StorageUnavailableError) -> None:
        """An operation found the server away: the outage's one WARNING line, at its start."""
        if self._away_since is None:
            self._away_since = time.monotonic()
            log.warning("%s: waiting for it (its operations tried again for up to %.0f s "
                        "each)", error, self.retry_for)

    def _answered(self) -> None:
        """An operation was answered: after an outage, one line saying how long it lasted."""
        if self._away_since is not None:
            since, self._away_since = self._away_since, None
            log.info("PostgreSQL at %s answers again after %.0f s", self.name,
                     time.monotonic() - since)

    async def _acquire(self) -> Any:
        try:
            return await self.pool.acquire()
        except Exception as error:
            if (outage := self.outage(error)) is not None:
                raise outage from None
            raise

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[Any]:
        """A connection of the pool; a lost server raises :class:`StorageUnavailableError`,
        one that cannot do the work (its disk full) :class:`StorageFailedError`."""
        pool = self.pool
        connection = await self._acquire()
        try:
            yield connection
        except Exception as error:
            if (outage := self.outage(error)) is not None:
                raise outage from None
            raise
        finally:
            await pool.release(connection)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """BEGIN ... COMMIT on a connection of the pool, or ROLLBACK on any error. Reaching
        the server is tried again (``retry_for``); losing it inside the block is not."""
        connection, transaction = await self.retrying(self._begin)
        tx = PgTx(connection)
        try:
            try:
                yield tx
            except BaseException:
                try:
                    await transaction.rollback()
                except Exception as error:  # a lost connection: the server rolled it back
                    if not lost(error, connection):
                        raise
                raise
            await transaction.commit()
        except BaseException as error:
            tx.rolled_back()
            if isinstance(error, Exception) and (
                    outage := self.outage(error, connection)) is not None:
                raise outage from None
            raise
        finally:
            await self.pool.release(connection)

    async def _begin(self) -> tuple[Any, Any]:
        pool = self.pool
        connection = await self._acquire()
        try:
            transaction = connection.transaction()
            await transaction.start()
        except BaseException as error:
            await pool.release(connection)
            if isinstance(error, Exception) and (outage := self.outage(error)) is not None:
                raise outage from None
            raise
        return connection, transaction

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement, atomic on its own (no BEGIN and COMMIT round trips); run again when
        the server was lost, so it must be idempotent (our single writes are)."""
        async def run() -> int:
            async with self.connection() as connection:
                return _changed(await connection.execute(numbered(sql), *params))
        return await self.retrying(run)

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async def fetch() -> list[Row]:
            async with self.connection() as connection:
                return list(await connection.fetch(numbered(sql), *params))
        return await self.retrying(fetch)

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        async def fetch() -> Row | None:
            async with self.connection() as connection:
                row: Row | None = await connection.fetchrow(numbered(sql), *params)
                return row
        return await self.retrying(fetch)

    @asynccontextmanager
    async def migration_lock(self) -> AsyncIterator[None]:
        """A session advisory lock on a connection of its own, held while migrating."""
        async with self.connection() as connection:
            # Asked again and again rather than waited for: a wait is one statement, which the
            # pool's command time-out (a minute) would end while another process migrates a
            # big database.
            asked = 0
            while not await connection.fetchval("SELECT pg_try_advisory_lock($1)",
                                                MIGRATION_LOCK):
                if asked % MIGRATION_SAID_EVERY == 0:
                    log.info("waiting for another process to migrate the database")
                asked += 1
                await asyncio.sleep(MIGRATION_POLL)
            try:
                yield
            finally:
                await connection.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)

    async def schema_version(self) -> int:
        exists = await self.fetch_one("SELECT to_regclass('schema_version') IS NOT NULL")
        if exists is None or not exists[0]:
            return 0
        row = await self.fetch_one("SELECT version FROM schema_version")
        return int(row[0]) if row else 0

    async def set_schema_version(self, tx: Tx, version: int) -> None:
        await tx.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                         " id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)")
        await tx.execute("INSERT INTO schema_version (id, version) VALUES (1, ?)"
                         " ON CONFLICT (id) DO UPDATE SET version = excluded.version",
                         (version,))


_LOST = (OSError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError)


async def _as_it_is(connection: Any) -> None:
    """The pool's reset: asyncpg has already ended any open transaction; nothing else."""
