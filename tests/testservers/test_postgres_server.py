"""The test PostgreSQL server: it serves real databases, survives a crash with its data, and
says plainly when PostgreSQL is missing."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import pytest

from testservers import PostgresServer, PostgresServerError


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
