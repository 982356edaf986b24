"""Real servers the tests and benchmarks start for themselves (not part of the product).

May import the standard library and the bot's own dependencies (asyncpg); pgcost also runs
benchmarks.latency, the whole bot.
"""

from __future__ import annotations

from .postgres import PostgresServer, PostgresServerError, find_binaries, free_port

__all__ = ["PostgresServer", "PostgresServerError", "find_binaries", "free_port"]
