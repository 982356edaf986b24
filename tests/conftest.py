"""Fixtures every test folder may use: one real PostgreSQL server per test run, and a fresh
database on it for each test that asks.

Without PostgreSQL's binaries the tests that need it are skipped with the reason, so a
developer without PostgreSQL runs everything else; in CI (``CI`` set) they fail instead:
nothing is skipped there.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Iterator

import pytest

from testservers import PostgresServer, find_binaries

_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """The test run's PostgreSQL server, started on first use and removed at the end."""
    if find_binaries() is None:
        reason = ("PostgreSQL is not installed (initdb and pg_ctl not found in "
                  "/usr/lib/postgresql/*/bin or PATH): apt-get install postgresql")
        if os.environ.get("CI"):
            pytest.fail(f"CI runs every test: {reason}")
        pytest.skip(reason)
    server = PostgresServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
async def postgres_url(postgres: PostgresServer) -> AsyncIterator[str]:
    """The URL of a new, empty database for this test alone; dropped after it."""
    name = f"test_{os.getpid()}_{next(_numbers)}"
    url = await postgres.create_database(name)
    yield url
    await postgres.drop_database(name)
