"""Copy a bot's SQLite database into PostgreSQL, so a group's history moves with it to the fleet.

    python -m bot.storage.copy SQLITE_PATH postgresql://user:password@host:port/database

The source is read through SQLite's backup API (a consistent snapshot, safe while the bot
runs; the source itself is never written), brought to this bot's schema on the side, and every
table is copied into the target in one transaction, ids and all; each id sequence then starts
after the highest id SQLite ever gave (its ``sqlite_sequence``), so no id is used twice. The
target database must exist (the copy makes its tables) and hold no rows, unless ``--replace``
says to empty it first. Prints a line a table and a total; exit 0 on success, 1 on failure
(one line, never the URL's password), 2 on a usage error. Stop the bot before the copy: what
it writes afterwards stays behind in SQLite. A target a bot or a fleet runs on is refused, with
``--replace`` too: the copy holds the bots' claim on it (:mod:`.claim`) while it copies.

A copy is not a restore of the target: a backup's mark (:mod:`.restores`) in the source is
not carried over (the fleet, or a bot started on the target later, would tell every group of
an open game that its moves were undone). The bot the source belongs to (:mod:`.owner`) is:
the source's record, else the bot of ``TELEGRAM_BOT_TOKEN`` (its id alone) when the copy's
environment or ``.env`` has one, else none (the first bot started on the target is recorded).
The source's other ``fleet_meta`` rows come as they are: a fleet's webhook secret's fingerprint
(:mod:`bot.fleet.secretprint`) among them, where the source records one (else the fleet's
first receiver records its own).

The target's migrations run in the copy's one transaction: a copy that fails, or is stopped
(SIGTERM, exit 143; Ctrl-C, 130; one line), leaves the target as it was, no table made, and
the temporary snapshot of the source removed. A stop that comes as the copy commits lets it
finish (cut in its commit, nobody could say whether it was made).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shutil
import signal
import sqlite3
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]

from ..cli import Stopped, past_stopping, run_stopping, stopped_by_signals, stops_deferred
from ..config import url_problem
from ..errors import StorageError
from .backup import BackupError, back_up
from .causes import hinted
from .claim import ClaimRefusedError, DatabaseClaim
from .core import is_postgres_url
from .owner import BOT_ID, BOT_USERNAME, bot_id_of
from .postgres import PgTx, PostgresEngine
from .restores import RESTORED


class CopyError(StorageError):
    """The copy cannot be made; the message is one line."""


@dataclass(frozen=True)
class Table:
    """A table as the source holds it: its columns, its rows, and SQLite's id high mark."""

    name: str
    columns: tuple[str, ...]
    rows: list[tuple[Any, ...]]
    high_id: int  # sqlite_sequence's value: the highest id ever given (0: none)


# How a SQLite value becomes the type PostgreSQL's column has (SQLite keeps whatever was
# written: a REAL column may hold 0, an int; asyncpg's binary COPY takes the exact type).
_TO_POSTGRES: dict[str, Callable[[Any], Any]] = {
    "bigint": int, "integer": int, "double precision": float,
    "text": lambda value: value if isinstance(value, str) else str(value),
    "bytea": lambda value: value.encode() if isinstance(value, str) else bytes(value),
}


def read_source(database: Path) -> list[Table]:
    """Every table of ``database``, at this bot's schema (migrated in a temporary copy)."""
    from . import Storage  # the package's class: the copy migrates as the bot would

    with _snapshot_folder() as folder:
        snapshot = folder / "source.sqlite3"
        try:
            back_up(database, snapshot, marked=False)  # a snapshot, not a restore
        except BackupError as error:
            raise CopyError(str(error)) from None

        async def migrate() -> None:
            storage = Storage(snapshot)
            try:
                await storage.open()
            finally:
                await storage.close()

        with stops_deferred():  # (aiosqlite's thread outlives a connect cut half way)
            asyncio.run(migrate())
        try:
            return _tables(snapshot)
        except sqlite3.Error as error:  # (the backup's check passed: hardly ever)
            raise CopyError(f"cannot read {database}: {hinted(str(error))}") from None


@contextlib.contextmanager
def _snapshot_folder() -> Iterator[Path]:
    """A temporary folder for the source's snapshot, removed however the copy ends. A stop
    is held off while it is made and while it is removed: one landing between the folder's
    making and the promise to remove it, or in the removal, left it behind (CI, a loaded
    machine: SIGTERM as the folder appeared)."""
    folder: str | None = None
    try:
        with stops_deferred():
            folder = tempfile.mkdtemp(prefix="domino-copy-")
        yield Path(folder)
    finally:
        if folder is not None:
            with stops_deferred():
                shutil.rmtree(folder, ignore_errors=True)


def _tables(snapshot: Path) -> list[Table]:
    with contextlib.closing(sqlite3.connect(snapshot)) as db:
        names = [row[0] for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        marks = dict(db.execute("SELECT name, seq FROM sqlite_sequence").fetchall())
        tables = []
        for name in names:
            columns = tuple(row[1] for row in db.execute(f'PRAGMA table_info("{name}")'))
            rows = db.execute(f'SELECT * FROM "{name}" ORDER BY rowid').fetchall()
            tables.append(Table(name, columns, rows, int(marks.get(name, 0))))
    return tables


def for_target(tables: Sequence[Table], bot_id: str | None) -> tuple[list[Table], str]:
    """``tables`` as the target gets them: ``fleet_meta`` without a backup's mark, with the
    owning bot recorded (the source's record, else ``bot_id`` when given); and the line
    that says which bot the target belongs to."""
    out, line = [], "bot: none recorded: the first bot started on the target is"
    for table in tables:
        if table.name == "fleet_meta":
            name, value = table.columns.index("name"), table.columns.index("value")
            rows = [row for row in table.rows if row[name] != RESTORED]
            meta = {row[name]: row[value] for row in rows}
            if BOT_ID in meta:
                named = f" (@{meta[BOT_USERNAME]})" if meta.get(BOT_USERNAME) else ""
                line = f"bot: {meta[BOT_ID]}{named}, as the source records it"
            elif bot_id is not None:
                row: list[Any] = [None] * len(table.columns)
                row[name], row[value] = BOT_ID, bot_id
                rows.append(tuple(row))
                line = f"bot: {bot_id}, TELEGRAM_BOT_TOKEN's (the source records none)"
            table = Table(table.name, table.columns, rows, table.high_id)
        out.append(table)
    return out, line


def token_bot() -> str | None:
    """The id of the bot of ``TELEGRAM_BOT_TOKEN`` (the environment's, else ``.env``'s),
    if one is set: only the part before the colon is read."""
    import os

    from ..config import load_dotenv_file

    load_dotenv_file()
    bot_id = bot_id_of(os.environ.get("TELEGRAM_BOT_TOKEN", ""))
    return bot_id if bot_id.isdigit() else None


async def copy_into(tables: Sequence[Table], url: str, replace: bool = False) -> dict[str, int]:
    """Write ``tables`` into the database at ``url``; returns the rows copied, by table.
    Refused while a bot or a fleet runs on it: the copy holds the bot's claim on the
    database (:mod:`.claim`) from before its migrations to its commit, so no bot starts on
    it meanwhile either."""
    from . import Storage

    storage = Storage(url)
    engine = storage.engine
    assert isinstance(engine, PostgresEngine)
    claim = DatabaseClaim(engine, shared=False, on_taken=lambda why: None)
    try:
        try:
            await claim.take(wait=0, other="a bot")
        except ClaimRefusedError as refused:
            raise CopyError(f"cannot copy into {engine.name}: {refused.holders} running on "
                            "it: stop it first (the copy never writes into a database in use)"
                            ) from None
        await _copy_into(storage, engine, tables, replace)
    except asyncpg.PostgresError as error:  # (refused by the server: a type, a permission)
        raise CopyError(f"cannot copy into {engine.name}: {engine.cause(error)}") from None
    finally:
        await claim.release()  # (stopped while taking it too)
    return {table.name: len(table.rows) for table in tables}


async def _copy_into(storage: Any, engine: PostgresEngine, tables: Sequence[Table],
                     replace: bool) -> None:
    await engine.open()
    try:
        steps = storage.migrations(await storage.schema_version())
        async with engine.connection() as connection, connection.transaction():
            # The same migrations as a bot's (the target has this bot's schema), in the
            # copy's transaction: a copy that fails or is stopped leaves no table made.
            for number in steps:
                await storage.migrate_step(PgTx(connection), number)
            held = {t.name: await connection.fetchval(f'SELECT count(*) FROM "{t.name}"')
                    for t in tables}
            if any(held.values()) and not replace:
                full = ", ".join(f"{name} {count}" for name, count in held.items() if count)
                raise CopyError(f"{engine.name} already holds rows ({full}): copy into an "
                                "empty database, or pass --replace to empty it first")
            if replace:
                names = ", ".join(f'"{t.name}"' for t in tables)
                await connection.execute(f"TRUNCATE {names} RESTART IDENTITY")
            for table in tables:
                await _copy_table(connection, table)
            past_stopping()  # its commit next: a stop now lets it finish
    finally:
        await storage.close()


async def _copy_table(connection: Any, table: Table) -> None:
    types = dict(await connection.fetch(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = $1", table.name))
    missing = [c for c in table.columns if c not in types]
    if missing:
        raise CopyError(f"the target's table {table.name} has no column {missing[0]}")
    convert = [_TO_POSTGRES.get(types[column], lambda value: value) for column in table.columns]
    records = [tuple(None if value is None else to(value) for to, value in zip(convert, row,
                                                                             strict=True))
               for row in table.rows]
    if records:
        await connection.copy_records_to_table(table.name, records=records,
                                               columns=list(table.columns))
    for column in table.columns:
        sequence = await connection.fetchval("SELECT pg_get_serial_sequence($1, $2)",
                                             table.name, column)
        if sequence is not None:  # next id: after the highest SQLite gave or the table holds
            highest = await connection.fetchval(
                f'SELECT GREATEST(max("{column}"), $1) FROM "{table.name}"', table.high_id)
            await connection.execute("SELECT setval($1, $2, $3)", sequence,
                                     max(int(highest or 0), 1), bool(highest))


def copy(database: Path, url: str, replace: bool = False, bot_id: str | None = None
         ) -> tuple[dict[str, int], str]:
    """The copy, and the line saying whose the target is (:func:`for_target`); in
    :func:`~bot.cli.stopped_by_signals`, a stop cancels it (the transaction rolled back, the
    snapshot removed) and raises :class:`~bot.cli.Stopped`."""
    tables, owner = for_target(read_source(database), bot_id)
    return run_stopping(copy_into(tables, url, replace)), owner


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.storage.copy",
        description="Copy a bot's SQLite database into an empty PostgreSQL database.")
    parser.add_argument("source", type=Path, help="the bot's SQLite database file")
    parser.add_argument("target", help="postgresql://user:password@host:port/database")
    parser.add_argument("--replace", action="store_true",
                        help="empty the target's tables first (their rows are lost)")
    args = parser.parse_args(argv)
    if not is_postgres_url(args.target):
        parser.error("the target must be a postgresql:// URL")
    problem = url_problem(args.target)
    if problem is not None:
        parser.error(f"the target URL's {problem}")
    where = PostgresEngine(args.target).name
    try:
        # (until the lines below are out: a stop as the copy commits lets it finish)
        with stopped_by_signals(signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            counts, owner = copy(args.source, args.target, args.replace, token_bot())
            for name, count in counts.items():
                print(f"{name}: {count} row{'' if count == 1 else 's'}")
            print(owner)
            print(f"copied {sum(counts.values())} rows in {len(counts)} tables from "
                  f"{args.source} to {where}")
    except StorageError as error:  # (the engine's hints name the bot's setting: here, the URL)
        print(f"copy failed: {str(error).replace('DATABASE_URL', 'the target URL')}",
              file=sys.stderr)
        return 1
    except (Stopped, KeyboardInterrupt) as stop:
        signum = stop.signum if isinstance(stop, Stopped) else signal.SIGINT
        print(f"copy {STOPPED[signum == signal.SIGINT]} ({signal.Signals(signum).name}): "
              f"nothing was copied, {where} is as it was", file=sys.stderr)
        return 128 + signum
    return 0


#: How a stopped copy's line begins: stopped by SIGTERM, interrupted by Ctrl-C.
STOPPED = ("stopped", "interrupted")


if __name__ == "__main__":
    raise SystemExit(main())
