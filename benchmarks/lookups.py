"""A person's games looked up in a big bot's database: by their seats' rows (the ``seats``
table) against the way before it, every game's or result's players read as text, on each
engine in the same run.

    python -m benchmarks.lookups [--open 10000] [--finished 20000] [--hands 5] [--rounds 200]

Fills a database on each engine (SQLite in a temporary folder, and a PostgreSQL of its own
when this machine has one) with ``--open`` tables of four people being played and
``--finished`` finished matches of ``--hands`` hands each (the rows' columns as the bot
writes them, and the people who sat at each game through the bot's own :func:`sat_at`;
filled in a few big transactions, not as the bot writes them one by one); then times, for
people picked at random, the three lookups by person: their open tables (a fleet worker
asks it before their hands, a receiver for each of their private messages), the games of
their recent hands and their finished matches (/stats), each the new way and the old,
interleaved. The last line is one
JSON object: per engine and lookup, the median milliseconds both ways and their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.storage import Storage
from bot.storage.fleet import PLAYER_OPEN_GAMES
from bot.storage.games import HANDS_OF_PLAYER
from bot.storage.results import MATCHES_OF_PLAYER
from bot.storage.schema import sat_at
from bot.storage.tx import Tx
from testservers import PostgresServer
from testservers.postgres import find_binaries

# The same lookups before the seats' rows: the players' JSON matched as text.
TEXT_OPEN = ("SELECT game_id, chat_id, players FROM games WHERE status IN ('lobby', 'playing')"
             " AND players LIKE ? ORDER BY game_id DESC")
TEXT_HANDS = ("SELECT game_id, players FROM hand_results WHERE players LIKE ?"
              " ORDER BY game_id DESC, hand_number DESC LIMIT ? OFFSET ?")
TEXT_MATCHES = ("SELECT m.game_id, m.variant, m.chat_id, m.players, m.leavers"
                " FROM match_results m"
                " WHERE m.players LIKE ? OR m.leavers LIKE ? ORDER BY m.finished_at, m.game_id")

PEOPLE_PER_TABLE = 4


def _players(people: list[int]) -> str:
    return json.dumps([[p, f"p{p}"] for p in people], separators=(",", ":"))


async def fill(storage: Storage, open_tables: int, finished: int, hands: int,
               rng: random.Random) -> int:
    """The rows of ``finished`` matches, then ``open_tables`` tables being played; returns
    how many people there are (ids 1..n)."""
    people = max(PEOPLE_PER_TABLE, (open_tables + finished // 10) * PEOPLE_PER_TABLE // 2)

    async def write(tx: Tx, first: int, count: int, status: str) -> None:
        for game_id in range(first, first + count):
            seated = rng.sample(range(1, people + 1), PEOPLE_PER_TABLE)
            players = _players(seated)
            chat = -1_000_000 - game_id
            await tx.execute(
                "INSERT INTO games (game_id, chat_id, status, variant, options, creator_id,"
                " players, created_at, updated_at) VALUES (?, ?, ?, 'pair', '{}', ?, ?, 0, 0)",
                (game_id, chat, status, seated[0], players))
            await sat_at(tx, ((person, game_id) for person in seated))
            if status != "finished":
                continue
            for hand in range(hands):
                await tx.execute(
                    "INSERT INTO hand_results (game_id, hand_number, chat_id, variant, players,"
                    " winner_side, totals, points, finished_at)"
                    " VALUES (?, ?, ?, 'pair', ?, 0, '[0,0]', '[10,0]', ?)",
                    (game_id, hand, chat, players, float(game_id)))
            await tx.execute(
                "INSERT INTO match_results (game_id, chat_id, variant, players, sides,"
                " winner_side, scores, finished_at) VALUES (?, ?, 'pair', ?, '[[0,2],[1,3]]',"
                " 0, '[100,0]', ?)", (game_id, chat, players, float(game_id)))

    batch = 2000
    for first, last, status in (
        *((f, min(f + batch, finished + 1), "finished") for f in range(1, finished + 1, batch)),
        *((f, min(f + batch, finished + open_tables + 1), "playing")
          for f in range(finished + 1, finished + open_tables + 1, batch)),
    ):
        await storage.write(functools.partial(write, first=first, count=last - first,
                                              status=status))
    return people


Lookup = Callable[[int], Awaitable[Any]]  # a person's id -> rows


def _lookups(storage: Storage) -> dict[str, tuple[Lookup, Lookup]]:
    fetch = storage.fetch_all

    def pattern(person: int) -> str:
        return f"%[{person},%"

    return {
        "open_tables": (lambda p: fetch(PLAYER_OPEN_GAMES, [p]),
                        lambda p: fetch(TEXT_OPEN, [pattern(p)])),
        "recent_hands": (lambda p: fetch(HANDS_OF_PLAYER, [p, 64, 0]),
                         lambda p: fetch(TEXT_HANDS, [pattern(p), 64, 0])),
        "matches": (lambda p: fetch(MATCHES_OF_PLAYER, [p]),
                    lambda p: fetch(TEXT_MATCHES, [f"%{p}%", f"%{p}%"])),
    }


async def _timed(lookup: Lookup, person: int
                 ) -> tuple[float, set[int]]:
    """How long the lookup took, and the games it found where ``person`` sat."""
    start = time.perf_counter()
    rows = await lookup(person)
    took = (time.perf_counter() - start) * 1000
    return took, {int(row["game_id"]) for row in rows
                  if any(seat[0] == person for seat in json.loads(row["players"]))}


async def measure(storage: Storage, args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    started = time.perf_counter()
    people = await fill(storage, args.open, args.finished, args.hands, rng)
    filled = time.perf_counter() - started
    await storage.execute("ANALYZE")  # as autovacuum would soon: the planner's row counts
    figures: dict[str, Any] = {"fill_seconds": round(filled, 1), "people": people}
    for name, (by_seats, as_text) in _lookups(storage).items():
        seats_ms: list[float] = []
        text_ms: list[float] = []
        for _ in range(args.rounds):
            person = rng.randint(1, people)
            seats_took, seats_found = await _timed(by_seats, person)
            text_took, text_found = await _timed(as_text, person)
            if seats_found != text_found:
                raise SystemExit(f"{name}: person {person}: by seats {sorted(seats_found)},"
                                 f" as text {sorted(text_found)}")
            seats_ms.append(seats_took)
            text_ms.append(text_took)
        seats_median, text_median = statistics.median(seats_ms), statistics.median(text_ms)
        figures[name] = {"seats_ms": round(seats_median, 3), "text_ms": round(text_median, 3),
                         "ratio": round(text_median / seats_median, 1)}
    return figures


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="domino-lookups-") as folder:
        storage = Storage(Path(folder) / "bot.sqlite3")
        await storage.open()
        try:
            results["sqlite"] = await measure(storage, args)
        finally:
            await storage.close()
    if find_binaries() is not None and not args.sqlite_only:
        with PostgresServer() as server:
            storage = Storage(await server.create_database("lookups"))
            await storage.open()
            try:
                results["postgresql"] = await measure(storage, args)
            finally:
                await storage.close()
    return results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.lookups",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--open", type=int, default=10_000, help="tables being played")
    parser.add_argument("--finished", type=int, default=20_000, help="finished matches")
    parser.add_argument("--hands", type=int, default=5, help="hands of each finished match")
    parser.add_argument("--rounds", type=int, default=200, help="people looked up, each way")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sqlite-only", action="store_true", help="no PostgreSQL")
    args = parser.parse_args(argv)
    results = asyncio.run(main_async(args))
    for engine, figures in results.items():
        print(f"{engine}: {args.open} open tables, {args.finished} finished matches of "
              f"{args.hands} hands, {figures['people']} people (filled in "
              f"{figures['fill_seconds']} s)")
        for name in ("open_tables", "recent_hands", "matches"):
            row = figures[name]
            print(f"  {name:<13} by seats {row['seats_ms']:8.3f} ms   as text "
                  f"{row['text_ms']:8.3f} ms   {row['ratio']}x")
    print(json.dumps({"open": args.open, "finished": args.finished, "hands": args.hands,
                      **results}))


if __name__ == "__main__":
    main()
