"""Stop and start: ``python -m bot`` as a subprocess against the fake Bot API server.

    python -m benchmarks.restart [--games 50] [--checkout PATH]

1. The bot runs at Telegram's limits (20 sends and edits a minute per group, 30 a second)
   and ``--games`` groups of four simulated people open pair tables and start them.
2. Telegram fails every call (502) but getUpdates, and in every group the player to move
   lays their first tile: the bot commits each move and cannot send anything. Then every
   call fails, getUpdates too, for ``--outage`` seconds, and the bot gets SIGTERM: the time
   until it exits is measured (SIGKILL after 30 s).
3. Telegram works again and the bot starts on the same database: the time until every
   group's table names the player whose tiles are live (the move made in the outage is
   shown), and the worst rolling windows (a minute per group, a second overall) of the
   restart, by the fake server's accounting.
4. SIGINT with Telegram working: the time until it exits.

``--checkout`` runs the bot of another checkout (e.g. the main branch, for a before/after
in one run); the fake server is this checkout's. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.limits import open_game
from fakeapi import FakeChat, FakeTelegramServer, FakeUser, StoredMessage
from fakeapi.players import Table, live_buttons
from fakeapi.ratelimit import counts_toward_limits, worst_windows

KILL_AFTER = 30.0


class Bot:
    """``python -m bot`` in a subprocess, with its log in ``folder``."""

    def __init__(self, server: FakeTelegramServer, folder: Path, checkout: Path | None) -> None:
        self.server = server
        self.folder = folder
        self.checkout = checkout
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0

    async def start(self) -> None:
        env = dict(os.environ, TELEGRAM_BOT_TOKEN=self.server.token,
                   TELEGRAM_API_BASE_URL=self.server.api_root,
                   DATABASE_PATH=str(self.folder / "bot.sqlite3"), LOG_LEVEL="WARNING")
        if self.checkout is not None:
            env["PYTHONPATH"] = str(self.checkout)
        self.starts += 1
        log = (self.folder / f"bot-{self.starts}.log").open("wb")
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=self.folder, env=env, stdout=log, stderr=log)

    async def stop(self, sig: int) -> tuple[float, bool]:
        """Send ``sig``; seconds until the bot exited, and whether it had to be killed."""
        process = self.process
        assert process is not None
        begun = time.monotonic()
        process.send_signal(sig)
        killed = False
        try:
            await asyncio.wait_for(process.wait(), KILL_AFTER)
        except TimeoutError:
            process.kill()
            await process.wait()
            killed = True
        return time.monotonic() - begun, killed

    async def kill(self) -> None:
        """However the benchmark ends, no bot is left running."""
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()


def table_message(server: FakeTelegramServer, chat: FakeChat) -> StoredMessage | None:
    return next((m for m in reversed(server.bot_messages(chat))
                 if m.photo is not None and "· hand" in (m.caption or "")), None)


def current(server: FakeTelegramServer, chat: FakeChat, users: list[FakeUser],
            mover: FakeUser) -> bool:
    """The table names the player whose tiles are live, and it is not the outage's mover."""
    turn = Table(server, users).whose_turn()
    table = table_message(server, chat)
    return (turn is not None and turn[0] is not mover and table is not None
            and f"Your turn, {turn[0].first_name}" in plain(table.caption or ""))


def plain(text: str) -> str:
    """``text`` without the isolates the bot wraps every name in (FSI ... PDI)."""
    return text.replace("\u2068", "").replace("\u2069", "")


async def run(args: argparse.Namespace) -> dict[str, Any]:
    figures: dict[str, Any] = {"games": args.games,
                               "checkout": str(args.checkout or "this one")}
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        async with FakeTelegramServer() as server:
            groups: list[tuple[FakeChat, list[FakeUser]]] = []
            for g in range(args.games):
                users = [server.add_user(f"P{g}x{n}", language_code="en") for n in range(4)]
                groups.append((server.add_group(f"Table {g}", members=users,
                                                admins=users[:1]), users))
            bot = Bot(server, folder, args.checkout)
            try:
                await measure(server, bot, groups, args, figures)
            finally:
                await bot.kill()
            figures["violations"] = len(server.violations)
    return figures


async def measure(server: FakeTelegramServer, bot: Bot,
                  groups: list[tuple[FakeChat, list[FakeUser]]], args: argparse.Namespace,
                  figures: dict[str, Any]) -> None:
    """The four steps of the module docstring, into ``figures``."""
    await bot.start()
    begun = time.monotonic()
    await asyncio.gather(*(open_game(server, chat, users, "/newgame pair")
                           for chat, users in groups))
    await server.wait_idle(quiet=1.0, timeout=300)
    figures["setup_seconds"] = round(time.monotonic() - begun, 1)
    print(f"{args.games} tables open in {figures['setup_seconds']} s", flush=True)

    server.fail_every_call(except_methods=("getUpdates",))
    movers: list[FakeUser] = []
    for _chat, users in groups:  # the hand's first tile: one tap plays it
        turn = Table(server, users).whose_turn()
        assert turn is not None
        user, hand = turn
        movers.append(user)
        user.press(hand, live_buttons(hand)[0])
    failing = len(server.requests)
    await server.wait_for(lambda: {r.chat_id for r in server.requests[failing:]
                                   if counts_toward_limits(r.method)}
                          >= {chat.id for chat, _ in groups}, timeout=120,
                          message="every game tried to sync its move")
    server.fail_every_call()
    await asyncio.sleep(args.outage)  # getUpdates fails too: PTB's polling backs off
    seconds, killed = await bot.stop(signal.SIGTERM)
    figures["sigterm_while_failing_seconds"] = round(seconds, 2)
    figures["sigterm_while_failing_killed"] = killed
    print(f"SIGTERM while every call fails: exited in {seconds:.2f} s"
          f"{' (killed)' if killed else ''}", flush=True)

    server.end_outage()
    restart = len(server.requests)
    await bot.start()
    begun = time.monotonic()
    await server.wait_for(lambda: all(
        current(server, chat, users, mover)
        for (chat, users), mover in zip(groups, movers, strict=True)),
        timeout=600, message="every table current after the restart")
    figures["restart_to_current_seconds"] = round(time.monotonic() - begun, 2)
    await server.wait_idle(quiet=1.0, timeout=300)
    calls = [(r.at, r.chat_id) for r in server.requests[restart:]
             if r.ok and counts_toward_limits(r.method)]
    worst = worst_windows(calls, {chat.id for chat, _ in groups})
    figures["restart_calls"] = len(calls)
    figures["restart_worst_group_minute"] = worst.group
    figures["restart_worst_second"] = worst.overall
    print(f"restart: every table current in {figures['restart_to_current_seconds']} s;"
          f" {len(calls)} sends/edits, worst group minute {worst.group} (limit 20), "
          f"worst second {worst.overall} (limit 30)", flush=True)

    seconds, killed = await bot.stop(signal.SIGINT)
    figures["sigint_healthy_seconds"] = round(seconds, 2)
    figures["sigint_healthy_killed"] = killed
    print(f"SIGINT with Telegram working: exited in {seconds:.2f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--outage", type=float, default=8.0,
                        help="seconds every call fails before SIGTERM")
    parser.add_argument("--checkout", type=Path, default=None,
                        help="run the bot of this checkout (e.g. /work/main)")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
