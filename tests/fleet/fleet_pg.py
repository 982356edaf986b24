"""The fleet tests' database: tests/conftest.py's fresh PostgreSQL database, with the fleet's
tables (made here until the storage branch's migration 8 makes them)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg
import pytest

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


@pytest.fixture
async def database(postgres_url: str) -> AsyncIterator[str]:
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute(FLEET_DDL)
    finally:
        await conn.close()
    yield postgres_url
