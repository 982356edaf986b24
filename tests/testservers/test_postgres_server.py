"""The test PostgreSQL server: it serves real databases, survives a crash with its data, and
says plainly when PostgreSQL is missing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from testservers import PostgresServer, PostgresServerError

ROOT = Path(__file__).parents[2]


async def test_each_database_is_new_and_apart(postgres: PostgresServer) -> None:
    first = await postgres.create_database("apart_one")
    second = await postgres.create_database("apart_two")
    one = await asyncpg.connect(first)
    await one.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)")
    await one.close()
    two = await asyncpg.connect(second)
    assert await two.fetchval("SELECT to_regclass('t')") is None
    assert await two.fetchval("SHOW fsync") == "off"
    await two.close()
    for name in ("apart_one", "apart_two"):
        await postgres.drop_database(name)


async def test_a_halted_server_comes_back_with_its_data(postgres: PostgresServer) -> None:
    url = await postgres.create_database("halted")
    db = await asyncpg.connect(url)
    await db.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (7)")
    await db.close()
    postgres.halt()
    with pytest.raises(OSError):
        await asyncpg.connect(url)
    postgres.start()
    db = await asyncpg.connect(url)
    assert await db.fetchval("SELECT x FROM t") == 7
    await db.close()
    await postgres.drop_database("halted")


def test_without_binaries_the_error_says_what_to_install(tmp_path: Path) -> None:
    server = PostgresServer(binaries=None)
    server.binaries = None  # as on a machine without PostgreSQL
    with pytest.raises(PostgresServerError, match="apt-get install postgresql"):
        server.start()
    empty = PostgresServer(binaries=tmp_path)
    with pytest.raises(PostgresServerError, match="initdb failed"):
        empty.start()
    empty.stop()


def test_a_database_name_is_checked() -> None:
    with pytest.raises(ValueError, match="plain database name"):
        PostgresServer._checked('x"; DROP DATABASE postgres; --')


@pytest.mark.parametrize("ci", [False, True])
def test_without_postgresql_its_tests_skip_except_in_ci(ci: bool) -> None:
    """A developer without PostgreSQL runs everything else; CI runs everything or fails."""
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["POSTGRES_BINDIR"] = "/nonexistent"
    if ci:
        env["CI"] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs",
         f"{__file__}::test_each_database_is_new_and_apart"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)
    if ci:
        assert done.returncode == 1 and "CI runs every test: PostgreSQL is not installed" \
            in done.stdout
    else:
        assert done.returncode == 0 and "SKIPPED [1]" in done.stdout
        assert "PostgreSQL is not installed" in done.stdout
