"""What a move costs PostgreSQL: statements, transactions and bytes of WAL per committed move,
measured on the whole bot (``benchmarks.latency``, humans tapping through a fake Bot API).

    python -m benchmarks.pgcost [--moves 200] [--base 40] [--game pair] [--sqlite]

Starts a PostgreSQL of its own with pg_stat_statements, runs the latency benchmark twice with
``DATABASE_URL`` set (``--base`` moves, then ``--base + --moves``, each on a new database) and
divides the difference by ``--moves``: start-up, migrations and warm-up cancel out. With
``--sqlite`` it runs the long benchmark once more on SQLite, for the CPU a move there. The last
line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
from pathlib import Path
from typing import Any

from benchmarks.latency import run
from testservers import PostgresServer
from testservers.processes import CLOCK_TICK, stat_fields

STATEMENTS = """
    SELECT coalesce(sum(calls), 0), coalesce(sum(wal_bytes), 0), coalesce(sum(rows), 0)
    FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1)
"""


def server_cpu_seconds(server: PostgresServer) -> float:
    """CPU the server has used: the postmaster's own and its ended backends' (reaped into
    its children's times), and its live processes' (/proc; Linux)."""
    postmaster = int((server.data / "postmaster.pid").read_text().split()[0])
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat_fields(stat)
        except OSError:
            continue  # a process that ended meanwhile
        pid, parent = int(stat.parent.name), int(fields[1])
        if pid == postmaster:
            total += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
        elif parent == postmaster:
            total += int(fields[11]) + int(fields[12])
    return total / CLOCK_TICK


async def _query(server: PostgresServer, sql: str, *args: Any) -> Any:
    import asyncpg  # type: ignore[import-untyped]

    connection = await asyncpg.connect(server.url())
    try:
        return await connection.fetchrow(sql, *args)
    finally:
        await connection.close()


async def measure(server: PostgresServer, name: str, moves: int, game: str) -> dict[str, Any]:
    """One latency run on a new database; what PostgreSQL counted for it, and the run's own
    figures."""
    os.environ["DATABASE_URL"] = await server.create_database(name)
    wal_before = (await _query(server, "SELECT wal_bytes FROM pg_stat_wal"))[0]
    cpu_before = server_cpu_seconds(server)
    try:
        figures = await run(moves, 1, game, 8, 0, 2.0, 1)
    finally:
        del os.environ["DATABASE_URL"]
    await asyncio.sleep(0.5)  # the bot's backends end and are reaped
    cpu = server_cpu_seconds(server) - cpu_before
    calls, wal, rows = await _query(server, STATEMENTS, name)
    commits = (await _query(server, "SELECT xact_commit FROM pg_stat_database WHERE datname = $1",
                            name))[0]
    wal_all = (await _query(server, "SELECT wal_bytes FROM pg_stat_wal"))[0] - wal_before
    return {"moves": figures["moves"], "statements": int(calls), "rows": int(rows),
            "commits": int(commits), "statement_wal_bytes": int(wal),
            "cluster_wal_bytes": int(wal_all), "server_cpu_ms": cpu * 1000,
            "cpu_ms_per_move": figures["bot_cpu_ms_per_move"],
            "edit_ms": figures["bot_edit_ms"]["median"]}


async def main(moves: int, base: int, game: str, sqlite: bool) -> dict[str, Any]:
    server = PostgresServer(settings={"shared_preload_libraries": "pg_stat_statements",
                                      "pg_stat_statements.track": "all"})
    server.start()
    try:
        await _query(server, "CREATE EXTENSION pg_stat_statements")
        short = await measure(server, "cost_short", base, game)
        long = await measure(server, "cost_long", base + moves, game)
    finally:
        server.stop()
    counted = long["moves"] - short["moves"]
    per_move = {key: round((long[key] - short[key]) / counted, 2) for key in (
        "statements", "rows", "commits", "statement_wal_bytes", "cluster_wal_bytes",
        "server_cpu_ms")}
    result: dict[str, Any] = {"game": game, "moves": counted, "per_move": per_move,
                              "postgresql_cpu_ms_per_move": long["cpu_ms_per_move"],
                              "postgresql_edit_ms": long["edit_ms"]}
    if sqlite:
        figures = await run(base + moves, 1, game, 8, 0, 2.0, 1)
        result["sqlite_cpu_ms_per_move"] = figures["bot_cpu_ms_per_move"]
        result["sqlite_edit_ms"] = figures["bot_edit_ms"]["median"]
    return result


def cli() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.pgcost", description=__doc__)
    parser.add_argument("--moves", type=int, default=200, help="moves measured")
    parser.add_argument("--base", type=int, default=40, help="moves of the short run")
    parser.add_argument("--game", default="pair")
    parser.add_argument("--sqlite", action="store_true", help="the same moves on SQLite too")
    args = parser.parse_args()
    result = asyncio.run(main(args.moves, args.base, args.game, args.sqlite))
    for key, value in result["per_move"].items():
        print(f"{key + ' per move':<34} {value}")
    print(json.dumps(result))


if __name__ == "__main__":
    cli()
