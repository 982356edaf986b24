"""A backup stopped half way leaves nothing behind: SIGTERM and Ctrl-C remove its temporary
copy (``.NAME.PID.partial``) and say so in one line; what a backup killed outright left (it
could not remove it) the next backup to the same place removes (operator QA: a supervisor's
SIGTERM left hidden partial copies, a journal too, never removed)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from test_backup import ROOT, commit_moves, writing_database

from bot.storage.backup import back_up

#: The backup as an operator runs it, its check slowed to a minute (a big database), saying
#: on stdout when it gets there.
SLOWED = """
import sys, time
import bot.storage.backup as backup
check = backup._check
def slow(*args):
    print("checking", flush=True)
    time.sleep(60)
    check(*args)
backup._check = slow
raise SystemExit(backup.main(sys.argv[1:]))
"""


@pytest.mark.parametrize(("sig", "code", "line"), [
    (signal.SIGTERM, 143, "backup stopped (SIGTERM): nothing was written"),
    (signal.SIGHUP, 129, "backup stopped (SIGHUP): nothing was written"),  # (a closed terminal)
    (signal.SIGINT, 130, "backup interrupted: nothing was written"),
])
def test_a_stopped_backup_removes_its_partial_copy(
        tmp_path: Path, sig: signal.Signals, code: int, line: str) -> None:
    live = tmp_path / "live.sqlite3"
    db = writing_database(live)
    commit_moves(db, 100)
    backups = tmp_path / "backups"
    backups.mkdir()
    process = subprocess.Popen(
        [sys.executable, "-c", SLOWED, "backups/out.sqlite3", "--database", str(live)],
        cwd=tmp_path, env={"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None and process.stdout.readline() == "checking\n"
        assert [p.name for p in backups.iterdir()] == [f".out.sqlite3.{process.pid}.partial"]
        process.send_signal(sig)
        _, err = process.communicate(timeout=30)
    finally:
        process.kill()
        process.wait()
        db.close()
    assert (process.returncode, err) == (code, f"{line}\n")
    assert list(backups.iterdir()) == []


def gone_pid() -> int:
    """The pid of a process that has ended."""
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_a_later_backup_removes_what_a_killed_one_left(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"
    writing_database(live).close()
    backups = tmp_path / "backups"
    backups.mkdir()
    dead, alive = gone_pid(), os.getppid()
    left = [f".out.sqlite3.{dead}.partial", f".out.sqlite3.{dead}.partial-journal"]
    timed = f".dominoes-20261207-101010.sqlite3.{dead}.partial"
    kept = [f".out.sqlite3.{alive}.partial",  # a backup still running
            f".other.sqlite3.{dead}.partial", "notes.partial"]  # not this destination's
    for name in [*left, timed, *kept]:
        (backups / name).write_bytes(b"half")
    back_up(live, backups / "out.sqlite3")
    assert {p.name for p in backups.iterdir()} == {"out.sqlite3", timed, *kept}
    made = back_up(live, backups, folder=True)  # into the folder: every timed name's
    assert {p.name for p in backups.iterdir()} == {"out.sqlite3", made.path.name, *kept}
