"""Resident memory over many short matches: does the bot's memory stay flat?

    python -m benchmarks.memory [--matches 1000] [--warm 100] [--every 100] [--groups 8]
                                [--game french] [--checkout PATH] [--log PATH]

One bot process (``python -m bot``, a subprocess) plays against the fake Bot API server of
``fakeapi/``, which runs in this process: the bot's resident memory (VmRSS from
/proc/<pid>/status) is then its own, never the fake server's, which keeps every message.
Each of ``--groups`` groups has one person and one computer player (easy) playing matches of
``--game`` to a target of 1, one after the other, each next one opened with the last one's
"Play again" button (which the bot reads back from SQLite), and /scoreboard after every tenth.
The fake server's records of a finished match are pruned before the next one, so the simulated
players stay as fast at the end as at the start.

It prints the bot's VmRSS (the median of 20 readings over two seconds: the other groups play
on, and the pictures they draw come and go by megabytes) after the first ``--warm`` matches,
every ``--every``, and after all of them, the growth between the two (the target: within 5%), the
resident memory of its child processes (the computer players' pool) beside it, and matches per
second over the whole run (about 0.5 on a 2-core machine: the whole run takes some 35 minutes;
``--matches 300 --warm 50 --every 50`` shows the trend in a quarter of an hour). ``--checkout``
runs the bot of another checkout (e.g. an older commit's worktree) for a before/after figure.
The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from fakeapi import FakeChat, FakeTelegramServer, FakeUser, StoredMessage
from fakeapi.players import Table, button

#: Seconds a simulated person waits before tapping what just arrived. A tap that reaches the
#: bot before the answer to its own send (which records the message's id) is refused as a
#: stray: no person is that fast, but a robot on a loaded machine is.
REACTION = 0.2
SAMPLES = 20


def rss_kib(pid: int) -> int:
    """The process's resident memory (VmRSS), in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


def descendants(pid: int) -> list[int]:
    """The process's children, theirs, and so on (the thinker's forkserver and workers)."""
    found: list[int] = []
    for children in Path(f"/proc/{pid}/task").glob("*/children"):
        for child in children.read_text().split():
            found += [int(child), *descendants(int(child))]
    return found


def workers_kib(pid: int) -> int:
    """The resident memory of the process's descendants, in KiB (0 when none)."""
    total = 0
    for child in descendants(pid):
        try:
            total += rss_kib(child)
        except (OSError, RuntimeError):
            pass  # gone meanwhile
    return total


@dataclass
class Run:
    server: FakeTelegramServer
    matches: int
    warm: int
    every: int
    game: str
    pid: int
    done: int = 0
    playing: int = 0
    started: float = field(default_factory=time.monotonic)
    # matches: (the bot's KiB, its descendants' KiB, seconds)
    marks: dict[int, tuple[int, int, float]] = field(default_factory=dict)

    async def finished_one(self) -> None:
        self.done += 1
        done = self.done
        if done == self.warm or done == self.matches or done % self.every == 0:
            # The other groups play on: pictures being drawn come and go by megabytes, so
            # the figure is the median of SAMPLES readings over two seconds.
            elapsed = time.monotonic() - self.started
            samples = []
            for _ in range(SAMPLES):
                samples.append(rss_kib(self.pid))
                await asyncio.sleep(2.0 / SAMPLES)
            kib = int(statistics.median(samples))
            self.marks[done] = (kib, workers_kib(self.pid), elapsed)
            print(f"{done:5} matches  VmRSS {kib / 1024:7.1f} MiB (from "
                  f"{min(samples) / 1024:.1f} to {max(samples) / 1024:.1f})  its workers "
                  f"{self.marks[done][1] / 1024:6.1f} MiB  {done / elapsed:5.2f} matches/s",
                  flush=True)

    def claim(self) -> bool:
        """Whether one more match may start (the run stops at ``matches``)."""
        if self.done + self.playing >= self.matches:
            return False
        self.playing += 1
        return True


async def wait_message(server: FakeTelegramServer, chat: FakeChat, prefix: str,
                       after: int) -> StoredMessage:
    """The bot's newest message in ``chat`` newer than ``after`` with a ``prefix`` button."""
    def found() -> StoredMessage | None:
        for message in reversed(server.bot_messages(chat)):
            if message.message_id > after and button(message, prefix):
                return message
        return None
    return await server.wait_for(found, timeout=60, message=f"no {prefix} button")


async def tap(server: FakeTelegramServer, user: FakeUser, message: StoredMessage,
              data: str) -> None:
    await asyncio.sleep(REACTION)
    record = user.press_raw(message, data)
    await server.wait_for(lambda: record.answered, timeout=60, message=f"{data} unanswered")


def prune(server: FakeTelegramServer, chats: tuple[FakeChat, ...], keep: StoredMessage) -> None:
    """Forget what the fake server recorded of a finished match (all but ``keep``)."""
    world = server.world
    ids = {chat.id for chat in chats}
    world.messages = {key: m for key, m in world.messages.items()
                      if key[0] not in ids or m is keep}
    world.callbacks = {k: c for k, c in world.callbacks.items() if not c.answered}
    world.files.clear()
    world.events.clear()
    server.requests.clear()


async def play_group(run: Run, user: FakeUser, chat: FakeChat) -> None:
    server = run.server
    user.send_private("/start")
    user.send(chat, f"/newgame {run.game} target=1")
    lobby = await wait_message(server, chat, "a:", 0)
    await tap(server, user, lobby, button(lobby, "a:e") or button(lobby, "a:") or "")
    table = Table(server, [user])
    while run.claim():
        await tap(server, user, lobby, button(lobby, "s:") or "")
        end = await play_match(server, table, chat, lobby.message_id)
        if (run.done + 1) % 10 == 0:
            mark = end.message_id
            user.send(chat, "/scoreboard")
            await server.wait_for(lambda m=mark: any(  # type: ignore[misc]
                x.message_id > m and x.photo is not None and not button(x, "g:")
                for x in server.bot_messages(chat)), timeout=60, message="no scoreboard")
        prune(server, (chat, user.private_chat), end)
        run.playing -= 1
        await run.finished_one()
        if run.done + run.playing >= run.matches:
            return
        await tap(server, user, end, button(end, "g:") or "")
        lobby = await wait_message(server, chat, "s:", end.message_id)


async def play_match(server: FakeTelegramServer, table: Table, chat: FakeChat,
                     after: int) -> StoredMessage:
    """Play until the match's end offers "Play again" (a message newer than ``after``) and
    the table says the game is over; returns the match's end."""
    end = None
    while end is None:
        await server.wait_for(lambda: table.whose_turn() is not None
                              or _end(server, chat, after) is not None,
                              timeout=60, message="nobody got a turn")
        await asyncio.sleep(REACTION)
        await table.play_one(timeout=60, done=lambda: _end(server, chat, after) is not None)
        end = _end(server, chat, after)
    await server.wait_for(lambda: any(
        m.message_id > after and (m.caption or "").endswith("\nThis match is over.")
        for m in server.bot_messages(chat)),
        timeout=60, message="the table never said the match is over")
    return end


def _end(server: FakeTelegramServer, chat: FakeChat, after: int) -> StoredMessage | None:
    """The match-end announcement (its "Play again" button) newer than message ``after``."""
    return next((m for m in server.bot_messages(chat)
                 if m.message_id > after and button(m, "g:")), None)


async def measure(matches: int, warm: int, groups: int, game: str,
                  checkout: Path, keep_log: Path | None = None, every: int = 100
                  ) -> dict[str, object]:
    async with FakeTelegramServer() as server:
        pairs = []
        for n in range(groups):
            user = server.add_user(f"Player {n}", language_code="en", started=True)
            pairs.append((user, server.add_group(f"Group {n}", members=[user], admins=[user])))
        with tempfile.TemporaryDirectory() as folder:
            env = dict(os.environ, TELEGRAM_BOT_TOKEN=server.token,
                       TELEGRAM_API_BASE_URL=server.api_root,
                       DATABASE_PATH=str(Path(folder) / "bot.sqlite3"),
                       GROUP_MESSAGES_PER_MINUTE="100000", MESSAGES_PER_SECOND="100000",
                       COMPUTER_PAUSE_SECONDS="0", LOG_LEVEL="INFO",
                       PYTHONPATH=os.pathsep.join(
                           filter(None, (str(checkout), os.environ.get("PYTHONPATH")))))
            log = (Path(folder) / "bot.log").open("w")
            bot = subprocess.Popen([sys.executable, "-m", "bot"], cwd=checkout, env=env,
                                   stdout=log, stderr=subprocess.STDOUT)
            try:
                run = Run(server, matches, warm, every, game, bot.pid)
                await asyncio.gather(*(play_group(run, u, c) for u, c in pairs))
            finally:
                bot.send_signal(signal.SIGTERM)  # the fake server answers while it stops
                try:
                    await asyncio.to_thread(bot.wait, 15)
                except subprocess.TimeoutExpired:
                    bot.kill()
                    bot.wait()
                log.close()
                text = (Path(folder) / "bot.log").read_text()
                if keep_log is not None:
                    keep_log.write_text(text)
                errors = [line for line in text.splitlines()
                          if " ERROR " in line or " WARNING " in line]
                for line in errors[:5]:
                    print("bot:", line, file=sys.stderr)
    first, last = run.marks[warm], run.marks[matches]
    growth = 100.0 * (last[0] - first[0]) / first[0]
    return {
        "benchmark": "memory",
        "checkout": str(checkout),
        "game": game,
        "groups": groups,
        "matches": matches,
        "rss_kib_after_warm": first[0],
        "warm": warm,
        "rss_kib_after_all": last[0],
        "growth_percent": round(growth, 2),
        "target_percent": 5.0,
        "workers_rss_kib_after_warm": first[1],
        "workers_rss_kib_after_all": last[1],
        "matches_per_second": round(matches / last[2], 2),
        "bot_warnings_logged": len(errors),
        "violations": len(server.violations),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.memory",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--warm", type=int, default=100, help="matches before the first figure")
    parser.add_argument("--every", type=int, default=100, help="matches between readings")
    parser.add_argument("--groups", type=int, default=8, help="groups playing at once")
    parser.add_argument("--game", default="french")
    parser.add_argument("--checkout", type=Path, default=Path.cwd(),
                        help="the checkout whose bot runs (default: this one)")
    parser.add_argument("--log", type=Path, help="keep the bot's log here")
    args = parser.parse_args(argv)
    if not 0 < args.warm < args.matches:
        parser.error("--warm must be between 0 and --matches")
    if args.every < 1:
        parser.error("--every must be at least 1")
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # stop the bot with us
    figures = asyncio.run(measure(args.matches, args.warm, args.groups, args.game,
                                  args.checkout.resolve(), args.log, args.every))
    print(f"growth {figures['growth_percent']}% from match {args.warm} to {args.matches}")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
