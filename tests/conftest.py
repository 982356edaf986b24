"""Fixtures every test folder may use: one real PostgreSQL server per test run, and a fresh
database on it for each test that asks.

Without PostgreSQL's binaries the tests that need it are skipped with the reason, so a
developer without PostgreSQL runs everything else; in CI (``CI`` set) they fail instead:
nothing is skipped there.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from testservers import PostgresServer, find_binaries

_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """The test run's PostgreSQL server, started on first use and removed at the end."""
    if find_binaries() is None:
        reason = ("PostgreSQL is not installed (initdb, pg_ctl and postgres not found in "
                  "POSTGRES_BINDIR, /usr/lib/postgresql/*/bin or PATH): "
                  "apt-get install postgresql")
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


ENGINES = ("sqlite", "postgresql")


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    """Each storage test runs once on each engine: ``test_x[sqlite]``, ``test_x[postgresql]``."""
    return str(request.param)


@pytest.fixture
async def new_database(
    engine: str, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[Callable[[], Awaitable[Path | str]]]:
    """Makes fresh, empty databases of the test's engine: a SQLite path, or a PostgreSQL URL
    (the target ``Storage`` takes); those on PostgreSQL are dropped after the test."""
    server: PostgresServer | None = (
        request.getfixturevalue("postgres") if engine == "postgresql" else None)
    made: list[str] = []

    async def make() -> Path | str:
        number = next(_numbers)
        if server is None:
            return tmp_path / f"db{number}.sqlite3"
        name = f"test_{os.getpid()}_{number}"
        made.append(name)
        return await server.create_database(name)

    yield make
    for name in made:
        assert server is not None
        await server.drop_database(name)


@pytest.fixture
async def database(new_database: Callable[[], Awaitable[Path | str]]) -> Path | str:
    """One fresh database of the test's engine (see :func:`new_database`)."""
    return await new_database()
