"""Real servers the tests and benchmarks start for themselves (not part of the product).

May import the standard library, the bot's own dependencies (asyncpg, aiohttp) and fakeapi;
never benchmarks (which import this package), the tests or telegram (tests/test_imports.py
checks). ``fleet`` (the fleet's processes) and ``tables`` (people playing through the fake
Bot API server), shared by the fleet tests and benchmarks.fleet, import aiohttp and fakeapi;
they are not imported here, so that the PostgreSQL server alone needs neither; nor is
``composed`` (the fleet's compose file run under a container engine, by hand). ``stopping``
(ending a run's tasks for sure) and ``processes`` (a process's CPU time) are shared with the
benchmarks. ``fulldisk`` makes a PostgreSQL database's disk full, as the bot sees it;
``corruption`` damages a table's or an index's page on disk, as the server finds it.
"""

from __future__ import annotations

from .postgres import PostgresServer, PostgresServerError, find_binaries, free_port

__all__ = ["PostgresServer", "PostgresServerError", "find_binaries", "free_port"]
