"""SQLite (aiosqlite), the default engine: one file, one connection, one process (which
:func:`held_alone` makes sure of)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from ..errors import StorageError
from .causes import hinted, unusable
from .tx import Engine, Row, StorageFailedError, Tx


class SqliteTx(Tx):
    dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection) -> None:
        super().__init__()
        self.db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return await _execute(self.db, sql, params)

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await _fetch_all(self.db, sql, params)

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return _first(await _fetch_all(self.db, sql, params))

    def ddl(self, script: str) -> str:
        return script


class SqliteEngine(Engine):
    """One SQLite connection; callers serialise per chat, SQLite serialises the rest."""

    dialect = "sqlite"

    def __init__(self, path: Path | str) -> None:
        # Absolute, as the start-up line names it: a relative path in a failure's line
        # ("the folder data is not writable") does not say which folder (operator QA).
        self.path = Path(path).absolute() if str(path) != ":memory:" else path
        self._db: aiosqlite.Connection | None = None
        # One connection is shared by every handler: a transaction must not interleave with
        # another's statements, and a read must not see another's uncommitted writes.
        self._lock = asyncio.Lock()
        self._created = False  # whether a probe of this start made the file

    @property
    def name(self) -> str:
        """The file's absolute path, not the path as configured: a relative one started from
        the wrong folder names a new file there, and this shows where."""
        return str(self.path.resolve() if isinstance(self.path, Path) else self.path)

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StorageError("storage is not open")
        return self._db

    async def probe(self) -> None:
        """The folder made, the file made (0600) and read the way the bot will read it: a
        folder that cannot be written or a file locked or damaged is said at once, before
        the bot waits for Telegram (which may not answer for hours)."""
        if not isinstance(self.path, Path):
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            folder = self.path.parent
            why = _in_the_way(folder)
            raise StorageError(f"cannot create the database folder {folder}" + (
                f": {why}" if why else f" ({_reason(error)})")) from None
        try:
            self._created = _create_private(self.path) or self._created
            await asyncio.to_thread(_probe, self.path)
        except sqlite3.Error as error:
            raise StorageError(f"cannot open the database {self.path}: {self._cause(error)}"
                               ) from None

    def discard_unused(self) -> None:
        """The file this start's probe made, still empty (never opened for the bot), is
        removed: a start with a rejected token left a 0-byte database behind (operator QA),
        which the next start would call existing. A file of any earlier start is kept."""
        if isinstance(self.path, Path) and self._created and self._db is None:
            with contextlib.suppress(OSError):
                if self.path.stat().st_size == 0:
                    self.path.unlink()
                    self._created = False

    async def open(self) -> None:
        await self.probe()
        try:
            self._db = await aiosqlite.connect(str(self.path), isolation_level=None)
            self._db.row_factory = aiosqlite.Row
            await self._db.execute("PRAGMA journal_mode=WAL")
            await self._db.execute("PRAGMA synchronous=FULL")
            await self._db.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as error:
            await self.close()
            raise StorageError(f"cannot open the database {self.path}: {self._cause(error)}"
                               ) from None

    def refused(self, error: Exception) -> StorageError | None:
        if not isinstance(error, sqlite3.Error):
            return None
        return StorageError(f"cannot open the database {self.path}: {self._cause(error)}")

    def _cause(self, error: sqlite3.Error) -> str:
        """SQLite's reason, and what it usually means for the operator."""
        text = str(error)
        if isinstance(self.path, Path) and "unable to open" in text:
            if self.path.is_dir():
                return (f"{self.path} is a folder: the database is a file, e.g. "
                        f"{self.path / 'dominoes.sqlite3'}")
            folder = self.path.parent
            try:  # SQLite does not say why: a file of our own in the folder does
                with tempfile.NamedTemporaryFile(dir=folder):
                    pass
            except OSError as probe:
                return (f"the folder {folder} is not writable: creating a file there fails "
                        f"({_reason(probe)})")
        return unusable(error) or hinted(text)

    async def close(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            await db.close()

    @contextlib.contextmanager
    def _usable(self) -> Iterator[None]:
        """A file found unusable (damaged, the disk full) raises :class:`StorageFailedError`,
        one line for the operator, as opening it would: a start that meets it after opening
        (resuming the games) ends with that line, not a traceback, and a running bot's syncs
        wait it out. Other errors pass as they are (a constraint, a bug)."""
        try:
            yield
        except sqlite3.Error as error:
            said = unusable(error)
            if said is None:
                raise
            raise StorageFailedError(f"cannot use the database {self.name}: {said}") from None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error: all or nothing."""
        db = self.db
        async with self._lock:
            with self._usable():
                await db.execute("BEGIN IMMEDIATE")
                tx = SqliteTx(db)
                try:
                    yield tx
                    await db.execute("COMMIT")
                except BaseException:
                    if db.in_transaction:  # a failed COMMIT must not leave it open
                        await db.execute("ROLLBACK")
                    tx.rolled_back()
                    raise

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement on its own: SQLite runs it in a transaction of its own (the
        connection is in autocommit mode), all or nothing and as durable as a COMMIT, in one
        hop to aiosqlite's thread rather than three (BEGIN, the statement, COMMIT)."""
        async with self._lock:
            with self._usable():
                return await _execute(self.db, sql, params)

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._lock:
            with self._usable():
                return await _fetch_all(self.db, sql, params)

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        async with self._lock:
            with self._usable():
                return _first(await _fetch_all(self.db, sql, params))

    def migration_lock(self) -> AbstractAsyncContextManager[None]:
        # A SQLite database serves one process; each migration is its own BEGIN IMMEDIATE
        # transaction, which another writer would wait for anyway.
        return contextlib.nullcontext()

    async def schema_version(self) -> int:
        row = await self.fetch_one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def set_schema_version(self, tx: Tx, version: int) -> None:
        await tx.execute(f"PRAGMA user_version = {int(version)}")


# Each call into aiosqlite is a hop to its thread and back (a queue, a thread switch, a wake of
# the event loop). A cursor used as a context manager took three a read (execute, fetch,
# close) and two a write: these take one, so a move's dozen queries cost a dozen hops.

async def _execute(db: aiosqlite.Connection, sql: str, params: Sequence[Any]) -> int:
    """A write's row count, in one hop: its cursor is left to be collected, as SQLite has
    already finished the statement (one that returns rows is closed, freeing it)."""
    cursor = await db.execute(sql, params)
    count = cursor.rowcount
    if cursor.description is not None:
        await cursor.close()
    return count


async def _fetch_all(db: aiosqlite.Connection, sql: str, params: Sequence[Any]) -> list[Row]:
    """Every row, read and the cursor closed in SQLite's thread: one hop."""
    return list(await db.execute_fetchall(sql, params))


def _first(rows: list[Row]) -> Row | None:
    """``fetch_one``'s row: its queries select one row (a key, an aggregate, a RETURNING)."""
    return rows[0] if rows else None


def _reason(error: OSError) -> str:
    """The OS's reason alone (``Permission denied``), without errno and path."""
    return error.strerror or str(error)


def _in_the_way(folder: Path) -> str | None:
    """``/dev/null is a file, not a folder`` when what stops ``folder`` being made is a file
    standing where one of its folders should be (the OS says only "File exists" or "Not a
    directory")."""
    existing = next((path for path in (folder, *folder.parents) if path.exists()), None)
    if existing is None or existing.is_dir():
        return None
    return f"{existing} is a file, not a folder"


def _create_private(path: Path) -> bool:
    """A new database file readable by its owner alone, as backups are (it holds every
    group's games); SQLite gives its journal files the database's mode. An existing file is
    left as it is; one that cannot be made is for opening it to explain. Whether it was
    made now."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except OSError:
        return False
    return True


def _probe(path: Path) -> None:
    """Open and read the file the way the bot will, in a thread of its own: what SQLite
    refuses (a folder not writable, a file locked or damaged) raises here, where nothing is
    left behind (a refused aiosqlite connection leaves its thread to a closing loop)."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA user_version").fetchone()


# --- one bot a database --------------------------------------------------------------------

#: Where Windows' lock sits in the lock file: past the pid, which another process must still
#: be able to read (a region msvcrt locks cannot be read by others).
_WINDOWS_LOCK_AT = 1 << 20


#: How long a bot waits for another on its database to stop before it refuses: a supervisor
#: may start the new one while the old one still sends what it holds (a stop takes up to
#: about four seconds).
STOPPING_WAIT = 6.0


#: The end of the line of a database another bot holds: what a second bot can do instead.
ELSEWHERE = ", or set another DATABASE_PATH"


@contextlib.contextmanager
def held_alone(path: Path, wait: float = STOPPING_WAIT) -> Iterator[None]:
    """Run a bot on ``path`` only while no other does: an exclusive lock on ``<path>.lock``
    (holding this process's pid), kept until the block ends or the process does. The OS frees
    it when the process dies, SIGKILL included, so a killed bot never blocks its own restart.
    What only reads the database (the backup, the copy to PostgreSQL) does not take it,
    but the backup's ``--move``, which copies a stopped bot's database, does.

    Another bot holding it for longer than ``wait`` seconds raises :class:`StorageError`, one
    line naming the database and the other's pid. Where the lock file cannot be made (a
    folder not writable) nothing is held: opening the database says why next; where it is
    not writable (left by another user) it is locked read-only, without a pid. The file stays
    when the bot stops (removing it would let two bots lock two different files). It sits
    beside the file itself: a symbolic link's target (a bot started through a link to another
    one's database is refused all the same). A disk too full to take the pid raises
    :class:`StorageError`, as opening the database on it would."""
    real = _real(path)
    lock = real.with_name(f"{real.name}.lock")
    writable = True
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    except PermissionError:
        writable = False
        descriptor = _opened(lock, os.O_RDONLY)
    except OSError:
        descriptor = -1
    try:
        if descriptor >= 0:
            waited = 0.0
            while not _lock(descriptor):
                if waited >= wait:
                    # (named as the start-up line names it: a relative DATABASE_PATH
                    # started from another folder is another file)
                    raise StorageError(f"cannot open the database {path.resolve()}: another bot"
                                       f"{_holder(descriptor)} is using it: stop that one "
                                       f"first{ELSEWHERE}")
                time.sleep(0.25)  # before the bot starts: nothing else runs yet
                waited += 0.25
            if writable:
                _write_pid(descriptor, path)
        yield
    finally:
        if descriptor >= 0:
            os.close(descriptor)  # frees the lock


def _real(path: Path) -> Path:
    """``path`` with its symbolic links followed, as far as they lead (a loop of them: as
    given, which SQLite cannot open either)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def _write_pid(descriptor: int, path: Path) -> None:
    """This process's pid in the lock file, for a refused bot to name; a disk too full for
    it is the database's one line (:func:`.causes.unusable`), any other failure leaves the
    file without a pid (the lock holds all the same)."""
    try:
        os.ftruncate(descriptor, 0)
        os.lseek(descriptor, 0, os.SEEK_SET)
        os.write(descriptor, f"{os.getpid()}\n".encode())
    except OSError as error:
        said = unusable(error)
        if said is not None:
            raise StorageError(f"cannot open the database {path.resolve()}: {said}") from None


def _opened(path: Path, flags: int) -> int:
    """The file opened with ``flags``, or -1 where it cannot be."""
    try:
        return os.open(path, flags)
    except OSError:
        return -1


def _lock(descriptor: int) -> bool:
    """Lock the file without waiting; False when another process holds it. Where the file
    cannot be locked at all (no such call here, a filesystem without locks), True: the bot
    runs unguarded, as it did before."""
    if sys.platform == "win32":
        import msvcrt

        os.lseek(descriptor, _WINDOWS_LOCK_AT, os.SEEK_SET)
        try:
            msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
        except OSError:  # Windows says only that the region is locked
            return False
        return True
    try:
        import fcntl
    except ImportError:
        return True
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except (BlockingIOError, PermissionError):
        return False
    except OSError:
        return True
    return True


def _holder(descriptor: int) -> str:
    """`` (pid 1234)``: the lock holder's pid as it wrote it, or nothing when unknown."""
    try:
        os.lseek(descriptor, 0, os.SEEK_SET)
        text = os.read(descriptor, 32).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return f" (pid {text})" if text.isdigit() else ""
