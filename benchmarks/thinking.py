"""How late the event loop runs while computer players think: in a thread, or in the pool.

    python -m benchmarks.thinking [--tables 10] [--level hard] [--pause 0.2] [--seconds 15]

``--tables`` computer players each decide a move (the bot's own ``Question``: a match's
record, seat, level, seed), wait ``--pause`` seconds, and decide again, for ``--seconds``;
meanwhile a probe that stands for a human's tap in another group sleeps 5 ms at a time and
records how late it wakes. Two runs of the same load, interleaved: the decisions in a thread
(``asyncio.to_thread``, what the bot did before: the thread holds the interpreter lock) and
in the :class:`bot.service.thinker.Thinker`'s process pool. It prints the probe's median, 95th
percentile and worst lateness of each, and decisions per second; the last line is one JSON
object with the ratios (thread / pool).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time
from collections.abc import Awaitable, Callable

from bot.service.thinker import Question, Thinker, decide
from engine import Match, ai, player_view

TICK = 0.005


def questions(level: str) -> list[Question]:
    """Positions from real Gaple hands (played by the easy player), a decision for each."""
    found: list[Question] = []
    for number in range(6):
        match = Match("gaple", 4, {})
        rng = random.Random(number)
        match.deal_hand(rng)
        while not match.hand.over and match.to_move is not None:
            seat = match.to_move
            if match.forced_action() is None and len(match.hand.moves) > 3:
                found.append(Question.of(match, seat, level, f"{number}:{seat}", number))
            match.apply(seat, ai.player("easy").choose(player_view(match, seat), rng))
    return found


async def probe(until: float) -> list[float]:
    late: list[float] = []
    while time.monotonic() < until:
        asked = time.monotonic()
        await asyncio.sleep(TICK)
        late.append((time.monotonic() - asked - TICK) * 1000)
    return late


async def load(choose: Callable[[Question], Awaitable[object]], asked: list[Question],
               tables: int, pause: float, seconds: float) -> dict[str, float]:
    until = time.monotonic() + seconds
    made = 0

    async def table(number: int) -> None:
        nonlocal made
        step = number
        while time.monotonic() < until:
            await choose(asked[step % len(asked)])
            made += 1
            step += tables
            await asyncio.sleep(pause)

    lateness = asyncio.ensure_future(probe(until))
    await asyncio.gather(*(table(n) for n in range(tables)))
    late = sorted(await lateness)
    return {"median_ms": round(statistics.median(late), 2),
            "p95_ms": round(late[int(len(late) * 0.95)], 2),
            "worst_ms": round(late[-1], 2),
            "decisions_per_second": round(made / seconds, 1)}


async def run(tables: int, level: str, pause: float, seconds: float) -> dict[str, object]:
    asked = questions(level)
    thinker = Thinker()
    thinker.start()
    await thinker.choose(asked[0])  # the workers are up

    async def in_thread(question: Question) -> object:
        return await asyncio.to_thread(decide, question)

    figures: dict[str, list[dict[str, float]]] = {"thread": [], "pool": []}
    try:
        for _ in range(2):  # interleaved: the machine's other load hits both alike
            figures["thread"].append(await load(in_thread, asked, tables, pause, seconds / 2))
            figures["pool"].append(await load(thinker.choose, asked, tables, pause, seconds / 2))
    finally:
        thinker.close()
    result: dict[str, object] = {"benchmark": "thinking", "tables": tables, "level": level,
                                 "pause_s": pause, "positions": len(asked)}
    for way, runs in figures.items():
        merged = {key: round(statistics.mean(r[key] for r in runs), 2) for key in runs[0]}
        result[way] = merged
        print(f"{way:6}  probe late: median {merged['median_ms']:6.2f} ms  p95 "
              f"{merged['p95_ms']:6.2f} ms  worst {merged['worst_ms']:7.2f} ms  "
              f"{merged['decisions_per_second']:6.1f} decisions/s", flush=True)
    thread, pool = figures["thread"], figures["pool"]
    for key in ("median_ms", "p95_ms"):
        ratio = statistics.mean(r[key] for r in thread) / max(
            0.01, statistics.mean(r[key] for r in pool))
        result[f"ratio_{key}"] = round(ratio, 1)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.thinking",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--level", choices=tuple(ai.LEVELS), default="hard")
    parser.add_argument("--pause", type=float, default=0.2, help="seconds between decisions")
    parser.add_argument("--seconds", type=float, default=15.0)
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(run(args.tables, args.level, args.pause, args.seconds))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
