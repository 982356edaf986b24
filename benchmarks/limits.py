"""Telegram's flood limits under load: many groups playing as fast as the bot lets them.

    python -m benchmarks.limits [--groups 4] [--seconds 60] [--group-period 30]
                                [--retry-after 10] [--limiters ours,aio]

In one process the bot plays against the fake Bot API server: ``--groups`` groups of four
simulated people (``fakeapi.players``) playing pair dominoes, each tapping the moment their
tiles arrive, so the limits bind everywhere. Each limiter (the bot's ``FloodLimiter``, and
python-telegram-bot's ``AIORateLimiter`` that the bot used before, as "aio") runs twice:
without and with a 429 ("retry after ``--retry-after``") injected in the first group a third
of the way in. It prints, from the fake server's own accounting:

- the worst rolling window of one group (Telegram: 20 sends and edits a minute; the period
  is shortened to ``--group-period`` seconds so a short run spans several) and the worst
  rolling second overall (Telegram: 30);
- calls that reached the flooded group during its flood wait (0 when retry_after is
  honoured);
- how long taps in the other groups waited for their answers while the flood wait lasted
  (median and p99), and in the same stretch of the run without the 429.

The last line is one JSON object with every figure. The four runs take about 5 minutes;
everything shares one process, so tap answers include the bot's own CPU time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

from telegram.ext import AIORateLimiter

from bot.app import begin_stop, build_application, running
from bot.config import BotConfig
from bot.publishing.floodwindows import Limits
from fakeapi import FakeChat, FakeTelegramServer, FakeUser
from fakeapi.players import Table, button

GROUP_LIMIT, OVERALL_LIMIT = 20, 30


class BeforeLimiter(AIORateLimiter):
    """PTB's AIORateLimiter (token buckets; one 429 pauses every call), as the bot had it."""

    async def ready(self, chat_id: int) -> None:
        return None  # it has no notion of waiting for a group's budget before drawing

    def drain(self, grace: float) -> None:
        return None


def before_limiter(limits: Limits) -> BeforeLimiter:
    return BeforeLimiter(overall_max_rate=limits.overall[0],
                         overall_time_period=limits.overall[1],
                         group_max_rate=limits.group[0], group_time_period=limits.group[1],
                         max_retries=3)


@dataclass
class Run:
    limiter: str
    flood: bool
    moves: int
    worst_group: int
    worst_overall: int
    early_calls: int
    flood_started: float | None
    waits: list[float]  # other groups' taps, answer time minus tap time, in the flood stretch

    def figures(self) -> dict[str, Any]:
        return {"limiter": self.limiter, "flood": self.flood, "moves": self.moves,
                "worst_group_window": self.worst_group, "worst_second": self.worst_overall,
                "early_calls": self.early_calls, "taps": len(self.waits),
                "tap_answer_median_ms": ms(percentile(self.waits, 50)),
                "tap_answer_p99_ms": ms(percentile(self.waits, 99))}


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


#: People do not tap a message within milliseconds of its arrival (a tap that races the
#: bot's own record of the message it just sent is refused as a stray).
PAUSE = 0.5


async def open_game(server: FakeTelegramServer, chat: FakeChat, users: list[FakeUser],
                    command: str = "/newgame pair target=1000", timeout: float = 300) -> None:
    """Four people open a table in ``chat``, join it and start; until the first turn."""
    for user in users:
        user.send_private("/start")
    users[0].send(chat, command)
    lobby = await server.wait_for(lambda: next(
        (m for m in server.bot_messages(chat) if button(m, "j:")), None), timeout=timeout)
    await asyncio.sleep(PAUSE)
    for user in users[1:]:
        record = user.press_raw(lobby, button(lobby, "j:") or "")
        await server.wait_for(lambda r=record: r.answered, timeout=timeout)  # type: ignore[misc]
    await server.wait_for(lambda: len(lobby.mentioned_user_ids) >= 4, timeout=timeout)
    await asyncio.sleep(PAUSE)
    record = users[0].press_raw(lobby, button(lobby, "s:") or "")
    await server.wait_for(lambda: record.answered, timeout=timeout)
    await server.wait_for(lambda: Table(server, users).whose_turn() is not None,
                          timeout=timeout)


async def play(table: Table, until: float) -> int:
    moves = 0
    while time.monotonic() < until:
        try:
            if await table.play_one(timeout=max(1.0, until - time.monotonic())) is not None:
                moves += 1
        except AssertionError:
            break  # the run ended while this table waited for its turn
    return moves


async def one_run(limiter: str, flood: bool, args: argparse.Namespace, folder: Path) -> Run:
    async with FakeTelegramServer() as server:
        groups: list[tuple[FakeChat, list[FakeUser]]] = []
        for g in range(args.groups):
            users = [server.add_user(f"P{g}x{n}", language_code="en") for n in range(4)]
            groups.append((server.add_group(f"Table {g}", members=users, admins=users[:1]),
                           users))
        settings = BotConfig(token=server.token, api_base_url=server.api_root,
                            database_path=folder / f"{limiter}-{flood}.db",
                            group_messages_per_minute=GROUP_LIMIT,
                            group_rate_period=args.group_period,
                            messages_per_second=OVERALL_LIMIT, computer_pause=0.0)
        seeds = (n.to_bytes(32, "big") for n in range(5000, 100_000))  # 32-byte deal seeds
        if limiter == "aio":
            with mock.patch("bot.app.FloodLimiter", before_limiter):
                application = build_application(settings, seed_source=lambda: next(seeds))
        else:
            application = build_application(settings, seed_source=lambda: next(seeds))
        async with running(application):
            await asyncio.gather(*(open_game(server, chat, users) for chat, users in groups))
            start = time.monotonic()
            until = start + args.seconds
            flooded = groups[0][0]
            players = [asyncio.create_task(play(Table(server, users), until))
                       for _, users in groups]
            await asyncio.sleep(args.seconds / 3)
            if flood:
                server.flood_wait(flooded, args.retry_after)
            stretch = time.monotonic()
            moves = sum(await asyncio.gather(*players))
            begin_stop(application)
        worst = server.worst_windows(args.group_period, 1.0)
        flood_record = next((r for r in server.requests
                             if r.status == 429 and r.chat_id == flooded.id), None)
        if flood_record is not None:
            stretch = flood_record.at
        others = {u.id for _, users in groups[1:] for u in users}
        waits = [c.answered_at - c.pressed_at for c in server.callbacks
                 if c.user.id in others and c.answered_at is not None
                 and stretch <= c.pressed_at <= stretch + args.retry_after]
        return Run(limiter, flood, moves, worst.group, worst.overall, len(server.early_calls),
                   None if flood_record is None else flood_record.at - start, waits)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    runs: list[Run] = []
    with tempfile.TemporaryDirectory() as folder:
        for limiter in args.limiters.split(","):
            for flood in (False, True):
                result = await one_run(limiter, flood, args, Path(folder))
                runs.append(result)
                f = result.figures()
                print(f"{limiter:4} {'429' if flood else 'none':4} moves={f['moves']:5} "
                      f"worst group window={f['worst_group_window']:3} (limit {GROUP_LIMIT}) "
                      f"worst second={f['worst_second']:3} (limit {OVERALL_LIMIT}) "
                      f"early calls={f['early_calls']} other groups' taps answered: "
                      f"median {f['tap_answer_median_ms']} ms, p99 {f['tap_answer_p99_ms']} ms "
                      f"({f['taps']} taps)", flush=True)
    summary: dict[str, Any] = {
        "groups": args.groups, "seconds": args.seconds, "group_period": args.group_period,
        "retry_after": args.retry_after, "runs": [r.figures() for r in runs]}
    for limiter in args.limiters.split(","):
        calm, flooded = (next(r for r in runs if r.limiter == limiter and r.flood is f)
                         for f in (False, True))
        p99 = (percentile(flooded.waits, 99), percentile(calm.waits, 99))
        if p99[0] is not None and p99[1]:
            summary[f"{limiter}_p99_ratio_with_429"] = round(p99[0] / p99[1], 2)
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=60.0, help="play time of each run")
    parser.add_argument("--group-period", type=float, default=30.0,
                        help="seconds of the group window (Telegram: 60)")
    parser.add_argument("--retry-after", type=int, default=10)
    parser.add_argument("--limiters", default="ours,aio", help="ours, aio, or both")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
