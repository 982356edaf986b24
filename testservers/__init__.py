"""Real servers the tests and benchmarks start for themselves (not part of the product).

May import the standard library and the bot's own dependencies (asyncpg, aiohttp); pgcost also
runs benchmarks.latency, the whole bot. ``fleet`` (the fleet's processes) and ``tables`` (people
playing through the fake Bot API server), shared by the fleet tests and benchmarks.fleet, also
import fakeapi and two helpers of benchmarks (latency.cpu_seconds, stopping.settle); they are
not imported here, so that the PostgreSQL server alone needs none of that.
"""

from __future__ import annotations

from .postgres import PostgresServer, PostgresServerError, find_binaries, free_port

__all__ = ["PostgresServer", "PostgresServerError", "find_binaries", "free_port"]
