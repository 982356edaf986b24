"""The copy to PostgreSQL stopped half way (SIGTERM, a supervisor's stop; Ctrl-C) leaves
nothing behind: its snapshot of the source removed, the target as it was (its transaction
rolled back, the tables its migrations made too), one line saying so, exit 143 or 130
(operator QA: SIGTERM ended it at once, its temporary folder left behind, and Ctrl-C inside
its event loop was a traceback)."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest
from test_postgres_copy import ROOT, STORED, run

from bot.cli import Stopped, stopped_by_signals
from bot.storage import Storage
from bot.storage.copy import read_source

ROWS = 300_000  # about 30 MB: some 4 s to copy here, 1.5 s of them reading the source


@pytest.fixture(scope="module")
def big_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bot's database big enough that a copy of it is still running when stopped."""
    path = tmp_path_factory.mktemp("big") / "bot.sqlite3"

    async def made() -> None:
        storage = Storage(path)
        await storage.open()
        await storage.close()

    asyncio.run(made())
    with sqlite3.connect(path) as db:
        db.executemany(
            "INSERT INTO users (user_id, name, username, updated_at) VALUES (?, ?, ?, 0)",
            ((i, f"Player {i} " + "x" * 60, f"user{i}") for i in range(1, ROWS + 1)))
    db.close()
    return path


async def tables_and_rows(url: str) -> dict[str, int]:
    """The target's tables, each with its rows."""
    connection = await asyncpg.connect(url)
    try:
        names = [r[0] for r in await connection.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")]
        return {name: await connection.fetchval(f'SELECT count(*) FROM "{name}"')
                for name in names}
    finally:
        await connection.close()


async def writing(url: str) -> bool:
    """Whether the copy has its transaction open on the target (its rows going in)."""
    connection = await asyncpg.connect(url)
    try:
        return bool(await connection.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND xact_start IS NOT NULL"
            " AND query NOT LIKE '%advisory%'"))
    finally:
        await connection.close()


async def until(check: Callable[[], Awaitable[bool]], process: subprocess.Popen[str]
                ) -> None:
    """Wait for ``check``, while the copy runs."""
    deadline = time.monotonic() + 60
    while not await check():
        assert process.poll() is None, "the copy ended before it was stopped"
        assert time.monotonic() < deadline
        await asyncio.sleep(0.01)


@pytest.mark.parametrize(("when", "sig", "code", "line"), [
    ("reading", signal.SIGTERM, 143, "copy stopped (SIGTERM)"),
    ("writing", signal.SIGTERM, 143, "copy stopped (SIGTERM)"),
    ("writing", signal.SIGINT, 130, "copy interrupted (SIGINT)"),
    ("replacing", signal.SIGTERM, 143, "copy stopped (SIGTERM)"),
    ("writing", signal.SIGHUP, 129, "copy stopped (SIGHUP)"),  # (a closed terminal)
])
async def test_a_stopped_copy_leaves_nothing_and_the_target_as_it_was(
        big_source: Path, postgres_url: str, tmp_path: Path, when: str, sig: signal.Signals,
        code: int, line: str) -> None:
    url = postgres_url.replace("postgres@", "postgres:sekret@")  # (trust: any password)
    name = url.rsplit("@", 1)[1].partition("?")[0]  # (its settings not named)
    args = [str(big_source), url]
    if when == "replacing":  # a target holding an earlier copy, emptied by this one
        small = tmp_path / "small.sqlite3"
        shutil.copyfile(STORED, small)
        assert (await run(str(small), url))[0] == 0
        args.append("--replace")
    before = await tables_and_rows(url)
    temporary = tmp_path / "tmp"  # where the copy keeps its snapshot of the source
    temporary.mkdir()
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.storage.copy", *args], cwd=ROOT,
        env={"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT), "TMPDIR": str(temporary)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        async def reading() -> bool:
            return any(temporary.iterdir())

        await until(reading if when == "reading" else lambda: writing(url), process)
        process.send_signal(sig)
        out, err = await asyncio.to_thread(process.communicate, timeout=60)
    finally:
        process.kill()
        process.wait()
    assert (process.returncode, out) == (code, "")
    assert err == f"{line}: nothing was copied, {name} is as it was\n"
    assert "sekret" not in err
    assert list(temporary.iterdir()) == []
    assert await tables_and_rows(url) == before  # no table made, no row changed
    assert (await run(str(big_source), url, *args[2:]))[0] == 0  # nothing holds it


@pytest.mark.parametrize("where", ["made", "removed"])
def test_a_stop_as_the_snapshots_folder_is_made_or_removed_leaves_no_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    """CI on a loaded machine: SIGTERM landed as the snapshot's folder was made, before its
    removal was promised, and the folder stayed. The signal is sent from inside the making
    (or the removal) here, where it lands at once."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    if where == "made":
        make = tempfile.mkdtemp

        def made_then_stopped(*args: Any, **kwargs: Any) -> str:
            folder = make(*args, **kwargs)
            os.kill(os.getpid(), signal.SIGTERM)
            return folder

        monkeypatch.setattr(tempfile, "mkdtemp", made_then_stopped)
    else:
        remove = shutil.rmtree

        def stopped_then_removed(path: Any, *args: Any, **kwargs: Any) -> None:
            os.kill(os.getpid(), signal.SIGTERM)
            remove(path, *args, **kwargs)

        monkeypatch.setattr(shutil, "rmtree", stopped_then_removed)
    with stopped_by_signals(), pytest.raises(Stopped):
        read_source(STORED)
    assert list(tmp_path.iterdir()) == []
