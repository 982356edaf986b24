"""Backups of the live database: consistent while another connection writes in WAL mode, and
one line (never a traceback) when a path is wrong, checked through a real subprocess."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot.storage import MIGRATIONS, Storage
from bot.storage.backup import PG_DUMP, BackupError, back_up, database_path

ROOT = Path(__file__).parents[2]
TOKEN = "123456789:AAE" + "x" * 32


def writing_database(path: Path) -> sqlite3.Connection:
    """A WAL database whose writer never checkpoints: commits stay in -wal, as under load."""
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("CREATE TABLE moves (id INTEGER PRIMARY KEY, game INTEGER)")
    db.execute("CREATE TABLE totals (moves INTEGER)")
    db.execute("INSERT INTO totals VALUES (0)")
    return db


def commit_moves(db: sqlite3.Connection, count: int) -> None:
    """One transaction: ``count`` moves and the total that must always match them."""
    db.execute("BEGIN IMMEDIATE")
    db.executemany("INSERT INTO moves (game) VALUES (?)", [(1,)] * count)
    db.execute("UPDATE totals SET moves = moves + ?", (count,))
    db.execute("COMMIT")


def rows(path: Path) -> tuple[int, int, str]:
    with contextlib.closing(sqlite3.connect(path)) as copy:
        moves = copy.execute("SELECT count(*) FROM moves").fetchone()[0]
        total = copy.execute("SELECT moves FROM totals").fetchone()[0]
        integrity = copy.execute("PRAGMA integrity_check").fetchone()[0]
    return moves, total, integrity


def test_a_backup_taken_during_writes_is_one_consistent_snapshot(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"
    db = writing_database(live)
    commit_moves(db, 500)
    plain_copy = tmp_path / "plain.sqlite3"
    plain_copy.write_bytes(live.read_bytes())
    with contextlib.closing(sqlite3.connect(plain_copy)) as copy:  # the file alone lacks
        assert copy.execute("SELECT * FROM sqlite_master").fetchall() == []  # what -wal holds

    stop = threading.Event()
    committed: list[int] = [500]

    def keep_writing() -> None:
        while not stop.is_set():
            commit_moves(db, 7)
            committed.append(committed[-1] + 7)

    writer = threading.Thread(target=keep_writing)
    writer.start()
    try:
        backups = [back_up(live, tmp_path / f"backup{n}.sqlite3") for n in range(5)]
    finally:
        stop.set()
        writer.join()
        db.close()
    assert len(committed) > 5  # the writer really wrote while the backups ran
    for backup in backups:
        moves, total, integrity = rows(backup.path)
        assert integrity == "ok" and moves == total and moves in committed and moves >= 500
        assert backup.size == backup.path.stat().st_size > 0
        assert not Path(f"{backup.path}-wal").exists()  # self-contained
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".partial")) == []


async def test_the_bots_own_database_backs_up_into_a_folder(tmp_path: Path) -> None:
    live = tmp_path / "data" / "dominoes.sqlite3"
    storage = Storage(live)
    await storage.open()
    try:
        backup = back_up(live, tmp_path)
    finally:
        await storage.close()
    assert backup.path.parent == tmp_path and backup.path.name.startswith("dominoes-")
    with contextlib.closing(sqlite3.connect(backup.path)) as copy:
        assert copy.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        # Marked, so that a bot started on it sends its games' messages anew; the live one not.
        marked = "SELECT count(*) FROM fleet_meta WHERE name='restored_backup'"
        assert copy.execute(marked).fetchone()[0] == 1
    with contextlib.closing(sqlite3.connect(live)) as database:
        assert database.execute(marked).fetchone()[0] == 0


def test_the_database_itself_is_no_destination(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"
    writing_database(live).close()
    with pytest.raises(BackupError, match="is the database itself"):
        back_up(live, tmp_path / "." / "live.sqlite3")


def test_database_path_reads_the_setting_or_the_bots_default() -> None:
    assert database_path({"DATABASE_PATH": "/data/x.sqlite3"}) == Path("/data/x.sqlite3")
    assert database_path({}) == Path("data/dominoes.sqlite3")


def run(args: list[str], cwd: Path, **env: str) -> tuple[int, str, str]:
    """``python -m bot.storage.backup`` in a clean environment, as an operator runs it."""
    environment = {"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT), **env}
    done = subprocess.run(
        [sys.executable, "-m", "bot.storage.backup", *args],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


def test_command_backs_up_the_configured_database_in_one_line(tmp_path: Path) -> None:
    live = tmp_path / "data" / "dominoes.sqlite3"
    live.parent.mkdir()
    db = writing_database(live)
    commit_moves(db, 3)
    (tmp_path / ".env").write_text(f"TELEGRAM_BOT_TOKEN={TOKEN}\n")  # beside the default path
    try:
        code, out, err = run(["copy.sqlite3"], tmp_path)
    finally:
        db.close()
    size = (tmp_path / "copy.sqlite3").stat().st_size
    expected = (f"backed up {tmp_path}/data/dominoes.sqlite3 to {tmp_path}/copy.sqlite3 "
                f"({size} bytes, integrity ok)\n")  # (absolute, as the bot logs it)
    assert (code, out, err) == (0, expected, "")
    assert rows(tmp_path / "copy.sqlite3") == (3, 3, "ok")


def test_command_bad_paths_are_one_line_and_a_failure(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"
    writing_database(live).close()
    (tmp_path / "notes.txt").write_text("not a database")
    cases = [
        (
            ["out.sqlite3", "--database", "missing.sqlite3"],
            {},
            f"backup failed: no database at {tmp_path}/missing.sqlite3\n",
        ),
        (
            ["out.sqlite3"],
            {"DATABASE_PATH": str(tmp_path / "gone" / "db.sqlite3"), "TELEGRAM_BOT_TOKEN": TOKEN},
            f"backup failed: no database at {tmp_path}/gone/db.sqlite3\n",
        ),
        (
            ["nowhere/out.sqlite3", "--database", "live.sqlite3"],
            {},
            f"backup failed: cannot write {tmp_path}/nowhere/out.sqlite3: No such file or "
            "directory\n",
        ),
        (
            ["notes.txt/out.sqlite3", "--database", "live.sqlite3"],
            {},
            f"backup failed: cannot write {tmp_path}/notes.txt/out.sqlite3: Not a directory\n",
        ),
        (
            ["out.sqlite3", "--database", "notes.txt"],
            {},
            f"backup failed: cannot read {tmp_path}/notes.txt: file is not a database (the "
            "file is damaged or not SQLite: restore a backup)\n",
        ),
        (  # a mistyped destination that names another file: kept (it was replaced)
            ["notes.txt", "--database", "live.sqlite3"],
            {},
            f"backup failed: {tmp_path}/notes.txt exists and is not an SQLite database: choose "
            "another "
            "destination (a backup replaces only an earlier backup)\n",
        ),
        (  # PostgreSQL is backed up by pg_dump: said, not tried (and no password shown)
            ["out.sqlite3", "--database", "postgresql://bot:sekret@db/domino"],
            {},
            f"backup failed: {PG_DUMP}\n",
        ),
        (
            ["out.sqlite3"],
            {"DATABASE_URL": "postgresql://bot:sekret@db/domino", "TELEGRAM_BOT_TOKEN": TOKEN},
            f"backup failed: {PG_DUMP}\n",
        ),
    ]
    for args, env, message in cases:
        assert run(args, tmp_path, **env) == (1, "", message), args
    assert sorted(p.name for p in tmp_path.iterdir()) == ["live.sqlite3", "notes.txt"]
    assert (tmp_path / "notes.txt").read_text() == "not a database"


def test_an_earlier_backup_is_replaced(tmp_path: Path) -> None:
    """A fixed destination (a cron job's, the Docker example's) takes each new backup."""
    live = tmp_path / "live.sqlite3"
    writing_database(live).close()
    first = back_up(live, tmp_path / "backup.sqlite3")
    assert back_up(live, first.path).path == first.path


def test_a_destination_ending_in_a_slash_is_a_folder_made_for_it(tmp_path: Path) -> None:
    live = tmp_path / "data" / "dominoes.sqlite3"
    live.parent.mkdir()
    db = writing_database(live)
    commit_moves(db, 2)
    (tmp_path / ".env").write_text(f"TELEGRAM_BOT_TOKEN={TOKEN}\n")
    try:
        first = run(["backups/"], tmp_path)
        second = run([f"more{os.sep}"], tmp_path)
    finally:
        db.close()
    for (code, out, err), folder in ((first, "backups"), (second, "more")):
        made = list((tmp_path / folder).iterdir())
        assert len(made) == 1 and made[0].name.startswith("dominoes-"), made
        size = made[0].stat().st_size
        assert (code, out, err) == (0, f"backed up {tmp_path}/data/dominoes.sqlite3 to "
                                       f"{tmp_path}/{folder}/{made[0].name} ({size} bytes, "
                                       "integrity ok)\n", "")
        assert rows(made[0]) == (2, 2, "ok")
    code, out, err = run(["nowhere/backups/"], tmp_path, DATABASE_PATH=str(live))
    assert (code, out) == (1, "")
    assert err == (f"backup failed: cannot write {tmp_path}/nowhere/backups: No such file or "
                   "directory\n")


def test_the_installed_command_names_itself(tmp_path: Path) -> None:
    """``domino-bot-backup --help`` says its own name, as pip's launcher runs it."""
    launcher = tmp_path / "domino-bot-backup"
    launcher.write_text("import sys\nfrom bot.storage.backup import main\nsys.exit(main())\n")
    done = subprocess.run(
        [sys.executable, str(launcher), "--help"], cwd=tmp_path, capture_output=True,
        text=True, timeout=60, check=False,
        env={"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT)})
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("usage: domino-bot-backup [-h]")
    code, out, err = run(["--help"], tmp_path)
    assert (code, err) == (0, "") and out.startswith("usage: python -m bot.storage.backup [-h]")
