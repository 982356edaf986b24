"""A consistent copy of the live database, safe while the bot runs.

The bot keeps SQLite in WAL mode, so the database file alone can miss the latest commits (they
may still be in ``-wal``): copying it is not a backup. SQLite's online backup API reads one
snapshot through SQLite itself, and in WAL mode it does not block the bot's writes.

    python -m bot.storage.backup DEST [--database PATH] [--move]

DEST is a file, or a folder: one that exists, or any DEST ending in ``/`` (made if missing;
its parent must exist). In a folder the copy is named for the time,
``dominoes-YYYYMMDD-HHMMSS.sqlite3``. The database is
``--database``, else ``DATABASE_PATH`` (from the environment or ``.env``, as the bot reads it).
The copy is written beside DEST under a temporary name, checked with ``PRAGMA integrity_check``,
and only then renamed to DEST: a failed backup never leaves a half copy. Nor does one stopped
(SIGTERM, exit 143; a closed terminal's SIGHUP, 129; Ctrl-C, 130), once SQLite's step at hand
returns; one killed outright (SIGKILL) does, which the next backup to the same DEST (or folder)
removes. Prints one line; exit 0 on success, 1 on failure, 2 on a usage error. The copy is
readable by its owner alone (mode 0600): it holds every group's games.

``--move``: a copy to move the bot to another machine (the bot stopped first: one still holding
the database is refused; and never started again where it was): it carries no restore mark
(:mod:`.restores`), so its first start there tells no group that its moves were undone;
nothing was.

Restore: stop the bot; copy the backup over the database file; delete the database's ``-wal``
and ``-shm`` files if they are there (they belong to the old database); start the bot.

This tool is for SQLite only. On PostgreSQL (``DATABASE_URL``) the backup is PostgreSQL's own
``pg_dump`` (``pg_dump -Fc -f dominoes.dump "$DATABASE_URL"``, a consistent snapshot while the
fleet runs; restore with ``pg_restore -d "$DATABASE_URL" dominoes.dump`` into an empty
database); this tool refuses a PostgreSQL database and says so.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import sqlite3
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path

from ..cli import Stopped, program, stopped_by_signals
from ..config import BotConfig, load_dotenv_file
from ..errors import StorageError
from .causes import DAMAGED, damaged, hinted
from .core import is_postgres_url
from .restores import mark_copy
from .sqlite import ELSEWHERE, held_alone

_DEFAULT_DATABASE = next(f.default for f in fields(BotConfig) if f.name == "database_path")


PG_DUMP = ("the database is PostgreSQL (DATABASE_URL): back it up with pg_dump, e.g. "
           'pg_dump -Fc -f dominoes.dump "$DATABASE_URL"; this tool copies SQLite files')


class BackupError(StorageError):
    """A backup could not be made; the message is one line naming the path and the cause."""


@dataclass(frozen=True)
class Backup:
    """A finished backup: where it is and how big."""

    path: Path
    size: int
    seconds: float


#: The first bytes of every SQLite database file.
SQLITE_HEADER = b"SQLite format 3\x00"


def database_path(env: Mapping[str, str] | None = None) -> Path:
    """The database the bot uses: ``DATABASE_PATH`` or the bot's default."""
    env = os.environ if env is None else env
    text = env.get("DATABASE_PATH", "").strip()
    return Path(text) if text else Path(str(_DEFAULT_DATABASE))


def back_up(database: Path, destination: Path, *, folder: bool = False,
            marked: bool = True) -> Backup:
    """Copy ``database`` to ``destination`` (a file, or a folder to name one in; with
    ``folder``, a folder, made when missing). ``marked``: as a backup to restore, whose first
    start sends its games' messages anew (:mod:`.restores`); a snapshot read for another
    purpose (the copy to PostgreSQL) is not."""
    started = time.monotonic()
    if not database.is_file():
        raise BackupError(f"no database at {database}")
    if folder:
        _make_folder(destination)
    folder_given = destination if destination.is_dir() else None
    if folder_given is not None:
        destination = destination / f"dominoes-{time.strftime('%Y%m%d-%H%M%S')}.sqlite3"
    if destination.exists() and destination.samefile(database):
        raise BackupError(f"{destination} is the database itself: choose another destination")
    if destination.exists() and not _is_sqlite(destination):
        # An earlier backup may be replaced (a cron job's fixed name); a mistyped name must
        # not turn a configuration file into a database (operator QA: .env was replaced).
        raise BackupError(f"{destination} exists and is not an SQLite database: choose "
                          "another destination (a backup replaces only an earlier backup)")
    _remove_stale(destination, timed=destination.parent == folder_given)
    temporary = destination.with_name(f".{destination.name}.{os.getpid()}{PARTIAL}")
    try:
        _create(temporary)
        try:
            _copy(database, temporary, marked)
            _check(temporary, database)
            _sync(temporary)
            os.replace(temporary, destination)
        except BaseException:
            for left in (temporary, temporary.with_name(f"{temporary.name}-journal")):
                left.unlink(missing_ok=True)
            raise
    except OSError as error:
        raise BackupError(f"cannot write {destination}: {error.strerror or error}") from None
    _sync_folder(destination.parent)
    return Backup(destination, destination.stat().st_size, time.monotonic() - started)


#: How a backup's temporary copy is named: ``.NAME.PID.partial`` beside its destination.
PARTIAL = ".partial"
_STALE = re.compile(rf"^\.(?P<name>.+)\.(?P<pid>\d+){re.escape(PARTIAL)}(-journal)?$")
_TIMED = re.compile(r"^dominoes-\d{8}-\d{6}\.sqlite3$")


def _remove_stale(destination: Path, *, timed: bool) -> None:
    """Remove what an earlier backup to the same destination left when it was killed
    outright (SIGKILL, a power cut: its ``except`` never ran): temporary copies whose
    process is gone. Into a folder, those of every timed name there. Best effort."""
    with contextlib.suppress(OSError):
        for entry in destination.parent.iterdir():
            found = _STALE.match(entry.name)
            if found is None or (found["name"] != destination.name and not (
                    timed and _TIMED.match(found["name"]))):
                continue
            if not _running(int(found["pid"])):
                entry.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs, other than this one (which has made no copy yet: a
    container's every run may have the same pid)."""
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's, or cannot tell: kept
        return True
    return True


def _is_sqlite(path: Path) -> bool:
    """Whether ``path`` is an SQLite database (an earlier backup), by its first bytes; an
    empty file counts, as SQLite's own empty database is one."""
    try:
        with path.open("rb") as file:
            head = file.read(len(SQLITE_HEADER))
    except OSError:
        return False  # (a folder, or unreadable: refused rather than replaced)
    return head in (b"", SQLITE_HEADER)


def _make_folder(folder: Path) -> None:
    if folder.exists() and not folder.is_dir():
        raise BackupError(f"{folder} is a file, not a folder: choose another destination")
    try:
        folder.mkdir(exist_ok=True)
    except OSError as error:
        raise BackupError(f"cannot write {folder}: {error.strerror or error}") from None


def names_folder(text: str) -> bool:
    """Whether a destination as typed names a folder: it ends with a path separator
    (``backups/``; a Path would drop that slash)."""
    return text.endswith(tuple(sep for sep in ("/", os.sep, os.altsep) if sep))


def _create(temporary: Path) -> None:
    """Claim the temporary file first: an unwritable folder fails here with its real cause."""
    os.close(os.open(temporary, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))


def _copy(database: Path, temporary: Path, marked: bool) -> None:
    try:
        # Read-only: the backup never changes the live database.
        source = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise BackupError(f"cannot open {database}: {hinted(str(error))}") from None
    try:
        target = sqlite3.connect(temporary)
        try:
            try:
                source.execute("SELECT count(*) FROM sqlite_master").fetchone()
            except sqlite3.Error as error:
                raise BackupError(f"cannot read {database}: {hinted(str(error))}") from None
            try:
                source.backup(target)  # every page in one step: one snapshot
                # A self-contained file: the copy needs no -wal beside it.
                target.execute("PRAGMA journal_mode=DELETE").fetchone()
                if marked:  # a bot started on this copy sends its games' messages anew
                    mark_copy(target)
            except sqlite3.Error as error:  # (a damaged page is the source's)
                where = f"read {database}" if damaged(error) else f"write {temporary.parent}"
                raise BackupError(f"cannot {where}: {hinted(str(error))}") from None
        finally:
            target.close()
    finally:
        source.close()


def _check(temporary: Path, database: Path) -> None:
    """The copy checked page by page: what is damaged there is the database's (the backup
    copies its pages as they are), said in the line a damaged database gives."""
    try:
        with contextlib.closing(sqlite3.connect(temporary)) as copy:
            rows = copy.execute("PRAGMA integrity_check").fetchall()
    except sqlite3.Error as error:
        raise BackupError(f"cannot read {database}: {hinted(str(error))}") from None
    if [tuple(row) for row in rows] != [("ok",)]:
        first = " ".join(str(rows[0][0]).split())  # (SQLite's own lines, as one)
        raise BackupError(f"the copy failed its integrity check: {first} "
                          f"({DAMAGED})")


def _sync(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _sync_folder(folder: Path) -> None:
    """Make the rename durable too (not possible everywhere: best effort)."""
    with contextlib.suppress(OSError):
        _sync(folder)


def _stopped(database: Path, move: bool) -> contextlib.AbstractContextManager[None]:
    """For ``--move``: the bot's lock on ``database`` (:func:`.sqlite.held_alone`), so that
    a bot still running is refused (a copy that would miss its next moves, and two bots
    after the move) and none starts on it while it is copied; else nothing."""
    if not move or not database.is_file():  # (no database: back_up says so)
        return contextlib.nullcontext()
    return held_alone(database, wait=0)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=program("bot.storage.backup"),
        description="Write a consistent copy of the bot's live SQLite database, safe while "
                    "the bot runs.",
    )
    parser.add_argument("destination", help="a file, or a folder (an existing one, or a name "
                                            "ending in / made if missing): the copy is then "
                                            "named for the time")
    parser.add_argument(
        "--database", help="the database (default: DATABASE_PATH, as the bot reads it)"
    )
    parser.add_argument(
        "--move", action="store_true",
        help="a copy to move the bot to another machine: stop the bot first (a running one "
             "is refused), and never start the old one again; the copy carries no restore "
             "mark, so its first start tells no group that its moves were undone (without "
             "--move, a restored backup does)")
    args = parser.parse_args(argv)
    load_dotenv_file()
    if is_postgres_url(args.database or os.environ.get("DATABASE_URL", "").strip()):
        print(f"backup failed: {PG_DUMP}", file=sys.stderr)
        return 1
    # Absolute, as the bot logs its database: a cron job's mail names where it looked.
    database = (Path(args.database) if args.database else database_path()).absolute()
    try:
        with stopped_by_signals(), _stopped(database, args.move):
            backup = back_up(database, Path(args.destination).absolute(),
                             folder=names_folder(args.destination), marked=not args.move)
    except BackupError as error:
        print(f"backup failed: {error}", file=sys.stderr)
        return 1
    except StorageError as error:  # (a bot runs on it: _stopped)
        print(f"backup failed: {str(error).removesuffix(ELSEWHERE)} (--move copies the "
              "database of a stopped bot)", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("backup interrupted: nothing was written", file=sys.stderr)
        return 130
    except Stopped as stop:
        print(f"backup stopped ({signal.Signals(stop.signum).name}): nothing was written",
              file=sys.stderr)
        return 128 + stop.signum
    kind = ", unmarked: start it instead of the old bot" if args.move else ""
    print(f"backed up {database} to {backup.path} ({backup.size} bytes, integrity ok{kind})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
