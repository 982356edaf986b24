"""What the fleet costs a move, and how fast it recovers from a dead worker, beside the single
process in the same run.

    python -m benchmarks.fleet [--tables T] [--warmup S] [--seconds S] [--only MODE ...]

Modes, each on a fresh database, one after the other: ``single-sqlite`` (``python -m bot`` on
SQLite, webhook mode), ``single-postgresql`` (the same on PostgreSQL), ``fleet-1`` (one receiver,
one worker) and ``fleet-2`` (one receiver, two workers). In each, T tables of four simulated
people play match after match as fast as the bot answers (Telegram's limits raised, in the bot
and in the fake server, so the bot's own work is what is measured; this is a capacity test, not
a human pace). After ``--warmup`` seconds it measures for ``--seconds``: moves a second, CPU per
move of every bot process (receivers and workers together; user + system from /proc), and on
PostgreSQL per move: statements (pg_stat_statements), transactions and rows written
(pg_stat_database) and WAL bytes (pg_stat_wal).

Then ``takeover``: two workers, the tables playing, one worker SIGKILLed; for each group, the
time from the kill to the bot's next send or edit there; the largest is the time until every
orphaned game moves again.

The people, the fake server and the balancer run in this process, on the same 2 cores. The last
line is one JSON object with every figure. A mode that fails or sticks reports an error (and
where its processes' logs are kept) and the run goes on; SIGINT or SIGTERM stops the bot's
processes and the PostgreSQL server (at once if a second signal comes, or if the clean stop
takes over a minute) and prints nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]

from fakeapi import FakeTelegramServer
from fakeapi.ratelimit import counts_toward_limits
from testservers import PostgresServer
from testservers.fleet import Fleet
from testservers.stopping import bounded, settle
from testservers.tables import Table, open_tables

MODES = ("single-sqlite", "single-postgresql", "fleet-1", "fleet-2")
UNLIMITED = {"GROUP_MESSAGES_PER_MINUTE": "100000", "MESSAGES_PER_SECOND": "100000"}
GAME = "gaple"
#: The longest a mode's measurement may take before the mode fails (warmup and measure are
#: added to it), and how long tables get to stop when cancelled.
SPARE_SECONDS = 120.0
TABLES_STOP_SECONDS = 15.0


async def pg_counters(url: str) -> dict[str, float]:
    """The database's counters now (statements, transactions, rows written, WAL bytes)."""
    connection = await asyncpg.connect(url, timeout=30, command_timeout=30)
    try:
        await connection.execute("SELECT pg_stat_clear_snapshot()")
        row = await connection.fetchrow(
            "SELECT xact_commit + xact_rollback AS transactions,"
            " tup_inserted + tup_updated + tup_deleted AS rows_written"
            " FROM pg_stat_database WHERE datname = current_database()")
        wal = await connection.fetchval("SELECT wal_bytes FROM pg_stat_wal")
        statements = await connection.fetchval(
            "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements s"
            " JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = current_database()")
    finally:
        await connection.close(timeout=10)
    return {"transactions": float(row["transactions"]),
            "rows_written": float(row["rows_written"]),
            "wal_bytes": float(wal), "statements": float(statements)}


async def start(mode: str, fleet: Fleet) -> list[str]:
    """Start ``mode``'s processes; the names of those whose CPU counts."""
    if mode.startswith("single"):
        await fleet.add_single("bot")
        return ["bot"]
    workers = [f"worker-{n}" for n in range(1, int(mode.split("-")[1]) + 1)]
    await fleet.add_receiver("receiver-1")
    for name in workers:
        await fleet.add_worker(name)
    await fleet.wait_workers(len(workers))
    return ["receiver-1", *workers]


async def measured(fleet: Fleet, server: FakeTelegramServer, tables: list[Table],
                   names: list[str], warmup: float, seconds: float) -> dict[str, Any]:
    """Moves a second and the costs per move over ``seconds``, after ``warmup``."""
    await asyncio.sleep(warmup)
    calls = len(server.requests)
    url = fleet.database_url
    before = (sum(t.moves for t in tables), fleet.cpu(names), time.monotonic(),
              await pg_counters(url) if url else None)
    driver = sum(os.times()[:2])
    await asyncio.sleep(seconds)
    driver = sum(os.times()[:2]) - driver
    after = (sum(t.moves for t in tables), fleet.cpu(names), time.monotonic(),
             await pg_counters(url) if url else None)
    moves = after[0] - before[0]
    window = server.requests[calls:]
    sends = sum(r.ok and counts_toward_limits(r.method) for r in window)
    figures: dict[str, Any] = {
        "moves": moves, "moves_per_second": round(moves / (after[2] - before[2]), 2),
        "cpu_ms_per_move": round(1000 * (after[1] - before[1]) / moves, 2) if moves else None,
        "cpu_by_process_s": {n: round(fleet.members[n].cpu(), 2) for n in names},
        # what Telegram's limits count (sends and edits), and every Bot API call, per move
        "telegram_sends_per_move": round(sends / moves, 2) if moves else None,
        "bot_api_calls_per_move": round(len(window) / moves, 2) if moves else None,
        # this process (people, fake server, balancer): on the same cores as the bot
        "driver_cpu_share": round(driver / (after[2] - before[2]), 2),
    }
    if before[3] and after[3] and moves:
        for key in before[3]:
            figures[f"pg_{key}_per_move"] = round((after[3][key] - before[3][key]) / moves, 1)
    return figures


async def takeover(fleet: Fleet, server: FakeTelegramServer, tables: list[Table]) -> dict[str,
                                                                                        Any]:
    """SIGKILL worker-2 while every table plays; per group, the gap until the bot acts there
    again. Groups whose gap is well over the others' were the dead worker's."""
    await asyncio.sleep(3)
    killed = time.monotonic()
    await fleet.members["worker-2"].kill()
    await asyncio.sleep(15)
    gaps = []
    for table in tables:
        after = [r.at for r in server.requests_for(chat=table.chat)
                 if r.ok and counts_toward_limits(r.method) and r.at > killed]
        gaps.append(round(after[0] - killed, 2) if after else None)
    moved = [g for g in gaps if g is not None]
    return {"gaps_s": gaps, "every_game_moving_again_s": max(moved) if len(moved) == len(gaps)
            else None, "games_not_moving": len(gaps) - len(moved)}


async def one_mode(mode: str, postgres: PostgresServer, args: argparse.Namespace,
                   measure: Callable[[Fleet, FakeTelegramServer, list[Table], list[str]],
                                     Awaitable[dict[str, Any]]],
                   running: list[Fleet]) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix=f"fleet-{mode}-"))
    clean = False
    url = None
    if mode != "single-sqlite":
        url = await postgres.create_database(folder.name.replace("-", "_").lower())
        connection = await asyncpg.connect(url, timeout=30)
        await connection.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        await connection.close(timeout=10)
    async with FakeTelegramServer() as server:
        fleet = Fleet(server, url, folder, settings=dict(UNLIMITED))
        running.append(fleet)
        try:
            names = await start(mode, fleet)
            tables = await open_tables(server, [(GAME, 4)] * args.tables, seed=23)
            playing = [asyncio.ensure_future(t.keep_playing()) for t in tables]
            try:
                # a bot that stops answering fails its mode, not the whole run
                figures = await bounded(measure(fleet, server, tables, names),
                                        args.warmup + args.seconds + SPARE_SECONDS)
                failed = [t for t in playing if t.done() and not t.cancelled()]
                if failed:
                    figures["stuck_tables"] = [str(t.exception())[:300] for t in failed]
            finally:
                unstopped = await settle(playing, TABLES_STOP_SECONDS)
            if unstopped:  # left running (they end with the fake server): said, not waited for
                figures["tables_not_stopping"] = len(unstopped)
            figures["log_problems"] = fleet.log_problems()[:5]
            figures["violations"] = len(server.violations)
            clean = not any(figures.get(key) for key in (
                "log_problems", "violations", "stuck_tables", "tables_not_stopping"))
            if not clean:
                figures["logs"] = str(folder)
            return figures
        except Exception as error:  # one mode failing must not hide the others' figures
            return {"error": f"{type(error).__name__}: {error}"[:2000], "logs": str(folder)}
        finally:
            await fleet.close()
            running.remove(fleet)
            if clean:  # the logs of a mode that went well are not kept
                shutil.rmtree(folder, ignore_errors=True)


def stop_at_once(postgres: PostgresServer, running: list[Fleet], code: int) -> None:
    """The last resort on an interruption: every bot process killed, PostgreSQL stopped and
    its folder removed, the process gone (no clean-up of this process's own tasks)."""
    for fleet in running:
        for member in fleet.members.values():
            if member.alive and member.process is not None:
                member.process.kill()
    postgres.stop()
    os._exit(code)


def on_interrupt(postgres: PostgresServer, running: list[Fleet]) -> None:
    """SIGINT and SIGTERM: the first cancels the run (each mode stops its processes, then the
    PostgreSQL server is stopped); a second one, or a clean stop taking over a minute, stops
    everything at once."""
    loop = asyncio.get_running_loop()
    main_task = asyncio.current_task()
    assert main_task is not None
    signals: list[int] = []

    def interrupted(number: int) -> None:
        signals.append(number)
        print(f"... {signal.Signals(number).name}: stopping", file=sys.stderr)
        if len(signals) > 1:
            stop_at_once(postgres, running, 128 + number)
        main_task.cancel()
        loop.call_later(60, stop_at_once, postgres, running, 128 + number)

    for number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(number, interrupted, number)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    postgres = PostgresServer(settings={"shared_preload_libraries": "pg_stat_statements"})
    running: list[Fleet] = []
    on_interrupt(postgres, running)
    postgres.start()
    try:
        figures: dict[str, Any] = {"tables": args.tables, "game": GAME}
        for mode in args.only or MODES:
            print(f"... {mode}", file=sys.stderr)
            figures[mode] = await one_mode(
                mode, postgres, args,
                lambda fleet, server, tables, names: measured(
                    fleet, server, tables, names, args.warmup, args.seconds), running)
        if not args.only or "takeover" in args.only:
            print("... takeover", file=sys.stderr)
            figures["takeover"] = await one_mode(
                "fleet-2", postgres, args,
                lambda fleet, server, tables, names: takeover(fleet, server, tables), running)
        single = figures.get("single-postgresql", {}).get("cpu_ms_per_move")
        for mode in ("fleet-1", "fleet-2"):
            mine = figures.get(mode, {}).get("cpu_ms_per_move")
            if single and mine:
                figures[f"{mode}_cpu_vs_single_postgresql"] = round(mine / single, 2)
        return figures
    finally:
        postgres.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--only", nargs="*", choices=(*MODES, "takeover"))
    try:
        figures = asyncio.run(run(parser.parse_args(argv)))
    except asyncio.CancelledError:  # interrupted (on_interrupt): no figures
        sys.exit(130)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
