"""The fleet tests' PostgreSQL: one server per run, a fresh database per test (with the fleet's
tables), started here until testservers/postgres.py and tests/conftest.py provide them."""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Iterator

import asyncpg
import pytest
from pg_local import LocalPostgres, binaries

_names = itertools.count(1)

FLEET_DDL = """
CREATE TABLE IF NOT EXISTS games (game_id BIGSERIAL PRIMARY KEY, chat_id BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS fleet_updates (
    update_id BIGINT PRIMARY KEY, shard INTEGER NOT NULL, route_key BIGINT NOT NULL,
    body TEXT NOT NULL, received_at DOUBLE PRECISION NOT NULL, done_at DOUBLE PRECISION);
CREATE INDEX IF NOT EXISTS fleet_updates_waiting ON fleet_updates(shard, update_id)
    WHERE done_at IS NULL;
CREATE TABLE IF NOT EXISTS fleet_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS fleet_flood (chat_id BIGINT PRIMARY KEY,
    until DOUBLE PRECISION NOT NULL);
"""


@pytest.fixture(scope="session")
def postgres() -> Iterator[LocalPostgres]:
    if binaries() is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL binaries not found (CI must run every test)")
        pytest.skip("PostgreSQL binaries not found")
    server = LocalPostgres()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def database(postgres: LocalPostgres) -> AsyncIterator[str]:
    name = f"fleet_{os.getpid()}_{next(_names)}"
    admin = await asyncpg.connect(postgres.url())
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    url = postgres.url(name)
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(FLEET_DDL)
    finally:
        await conn.close()
    yield url
