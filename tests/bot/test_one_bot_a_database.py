"""One bot a SQLite database (:func:`bot.storage.sqlite.held_alone`): a second one waits a
few seconds for the first to stop (a supervisor may start it early), then refuses in one line;
a lock file another user left, not writable, still guards."""

from __future__ import annotations

import errno
import os
import threading
from pathlib import Path

import pytest

from bot.errors import StorageError
from bot.storage.sqlite import held_alone


def test_a_second_bot_refuses_once_its_wait_is_over(tmp_path: Path) -> None:
    database = tmp_path / "dominoes.sqlite3"
    refused = pytest.raises(StorageError, match=rf"another bot \(pid {os.getpid()}\) is using")
    with held_alone(database, wait=0), refused:
        held_alone(database, wait=0.5).__enter__()
    assert not first_holds(database)  # freed when the first one ended


def test_a_second_bot_takes_over_when_the_first_stops_within_its_wait(tmp_path: Path) -> None:
    database = tmp_path / "dominoes.sqlite3"
    first = held_alone(database, wait=0)
    first.__enter__()
    stopped = threading.Event()

    def stop() -> None:
        first.__exit__(None, None, None)
        stopped.set()
    timer = threading.Timer(0.5, stop)
    timer.start()
    try:
        with held_alone(database, wait=5):
            assert stopped.is_set()  # it waited for the first one, then took the lock
    finally:
        timer.join()


def first_holds(database: Path) -> bool:
    """Whether someone else holds the lock now."""
    try:
        with held_alone(database, wait=0):
            return False
    except StorageError:
        return True


def test_a_lock_file_it_cannot_write_is_locked_read_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    database = tmp_path / "dominoes.sqlite3"
    assert not first_holds(database)  # the file made, with this pid, and let go
    opened = os.open

    def no_writing(path: object, flags: int, *args: int) -> int:
        if flags & os.O_RDWR and str(path).endswith(".lock"):
            raise PermissionError(13, "Permission denied")  # (as root, chmod cannot show it)
        return opened(path, flags, *args)  # type: ignore[arg-type]
    monkeypatch.setattr(os, "open", no_writing)
    with held_alone(database, wait=0):
        monkeypatch.setattr(os, "open", opened)
        assert first_holds(database)  # guarded all the same


def test_the_refusal_names_the_database_by_its_absolute_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As the start-up line names it (docs/OPERATIONS.md): a relative DATABASE_PATH says
    which folder it was taken in."""
    monkeypatch.chdir(tmp_path)
    database = Path("data/dominoes.sqlite3")
    absolute = tmp_path.resolve() / database
    with held_alone(database, wait=0), pytest.raises(StorageError) as refused:
        held_alone(database, wait=0).__enter__()
    assert str(refused.value).startswith(f"cannot open the database {absolute}: another bot")


def test_a_second_bot_through_a_symbolic_link_is_refused(tmp_path: Path) -> None:
    """The lock sits beside the file itself: a bot started on a link to another bot's
    database (operator QA: DATABASE_PATH=link.sqlite3) does not lock a file of its own."""
    database = tmp_path / "data" / "dominoes.sqlite3"
    database.parent.mkdir()
    database.touch()
    link = tmp_path / "link.sqlite3"
    link.symlink_to(database)
    folder_link = tmp_path / "elsewhere"
    folder_link.symlink_to(database.parent, target_is_directory=True)
    for other in (link, folder_link / database.name):
        with held_alone(database, wait=0), pytest.raises(
                StorageError, match=rf"^cannot open the database {database}: another bot"):
            held_alone(other, wait=0).__enter__()
        with held_alone(other, wait=0):
            assert first_holds(database)
    assert not (tmp_path / "link.sqlite3.lock").exists()


def test_a_disk_too_full_for_the_pid_is_the_databases_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """0 bytes free (operator QA, a full tmpfs): the pid cannot be written into the lock
    file; the start ends with the line a full disk gives when opening the database."""
    database = tmp_path / "dominoes.sqlite3"

    def full(descriptor: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "write", full)
    with pytest.raises(StorageError) as refused:
        held_alone(database, wait=0).__enter__()
    assert str(refused.value) == (f"cannot open the database {database.resolve()}: database or "
                                  "disk is full (free some disk space)")
    monkeypatch.undo()
    assert not first_holds(database)  # let go with the refusal
