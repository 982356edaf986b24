"""A tap's latency and a move's cost, measured from outside, against a bare echo bot.

    python -m benchmarks.latency [--moves N] [--tables T] [--game NAME]
                                 [--computer-tables C] [--computer-pause S]
                                 [--echo-loop uvloop|asyncio]

The real bot runs as a subprocess (``python -m bot``) against a fake Bot API server; beside it
runs ``benchmarks.echo_bot`` (an Application whose CallbackQueryHandler answers the query and
edits one message) against a second fake server in the same process, so that both bots meet
the same server code on the same event loop. The bot runs as the product does, on uvloop's event
loop where uvloop is installed (:func:`bot.launch.new_event_loop`); the echo bot on the loop
``--echo-loop`` names: ``uvloop`` (the default) compares like with like, ``asyncio`` is a bare
python-telegram-bot bot as it comes. Each side's loop is read from its process (whether it
loaded uvloop) and reported. Taps alternate between the two in one run: a
round is one move at each of the T tables of four simulated humans (all at once), then one
tap on each of the echo bot's T messages (all at once); each side waits until its bot has gone
quiet before the other's turn. Every picture the bot makes is drawn: nobody is a computer.

Per tap it records when the answer (answerCallbackQuery) and the table's edit (the first
edit or photo the bot sends to the group after the tap; for the echo bot its one edit) reach
the fake server. It prints their medians and 90th percentiles and the bot's ratios to the
echo bot's; the CPU time per move of the bot's process (utime + stime of all its threads,
from /proc/PID/stat) against the echo bot's per tap, and how much of it was the event loop's
thread (the rest: the pictures' thread and SQLite's); and the Bot API calls and the bytes of
pictures uploaded per move. The first ``--warmup`` rounds are not counted.

With ``--computer-tables C``, C more groups play matches of four computer players (hard)
throughout, each move after ``--computer-pause`` seconds: the human table's taps are then
measured beside that load (the bots do not wait for quiet then, the load never stops), and
the bot's CPU per move counts the computer tables' work too.

The last line is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fakeapi import FakeChat, FakeTelegramServer, FakeUser, StoredMessage
from fakeapi.players import button, live_buttons, second_taps
from testservers.processes import cpu_seconds, loop_thread_cpu_seconds

from .latency_measures import Side, Tap, costs, event_loop_of, ratio, summary

ROOT = Path(__file__).resolve().parents[1]
TABLE_METHODS = ("editMessageMedia", "editMessageCaption", "sendPhoto")
MATCH_OVER = "The match is over"


async def start_process(module: str, server: FakeTelegramServer, folder: Path,
                        extra: dict[str, str], profile: str | None = None
                        ) -> asyncio.subprocess.Process:
    env = {
        **os.environ, "PYTHONPATH": str(ROOT), "TELEGRAM_BOT_TOKEN": server.token,
        "TELEGRAM_API_BASE_URL": server.api_root, "LOG_LEVEL": "WARNING", **extra,
    }
    log = (folder / f"{module}.log").open("wb")
    profiler = ["-m", "cProfile", "-o", str(Path(profile).resolve())] if profile else []
    process = await asyncio.create_subprocess_exec(
        sys.executable, *profiler, "-m", module, env=env, cwd=folder, stdout=log, stderr=log)
    await server.wait_for(lambda: server.requests_for("getUpdates"), timeout=60,
                          message=f"{module} polling")
    return process


async def stop_process(process: asyncio.subprocess.Process | None) -> None:
    if process is None or process.returncode is not None:
        return
    process.terminate()
    try:
        await asyncio.wait_for(process.wait(), 15)
    except TimeoutError:
        process.kill()
        await process.wait()


# --- the domino bot's tables ---------------------------------------------------------------
@dataclass
class HumanTable:
    server: FakeTelegramServer
    chat: FakeChat
    users: list[FakeUser]
    game: str
    rng: random.Random
    matches: int = 0

    def whose_turn(self) -> tuple[FakeUser, StoredMessage] | None:
        for user in self.users:
            for message in reversed(self.server.bot_messages(user.private_chat)):
                if not message.deleted and live_buttons(message):
                    return user, message
        return None

    def over(self) -> int:
        return sum(MATCH_OVER in (m.text or m.caption or "")
                   for m in self.server.bot_messages(self.chat))

    async def open(self) -> None:
        """A lobby, everyone seated, started."""
        server, users = self.server, self.users
        lobbies = len([m for m in server.bot_messages(self.chat) if button(m, "j:")])
        users[0].send(self.chat, f"/newgame {self.game}")
        lobby = await server.wait_for(lambda: (lambda found: found[lobbies] if len(found) >
                                               lobbies else None)(
            [m for m in server.bot_messages(self.chat) if button(m, "j:")]), timeout=30)
        for user in users[1:]:
            record = user.press_raw(lobby, button(lobby, "j:") or "")
            await server.wait_for(lambda r=record: r.answered, timeout=30)  # type: ignore[misc]
        record = users[0].press_raw(lobby, button(lobby, "s:") or "")
        await server.wait_for(lambda: record.answered, timeout=30)

    async def move(self, side: Side, quiet: bool) -> None:
        """One move: wait for a turn, tap (twice when an end is chosen), wait for the table."""
        server = self.server
        if self.over() > self.matches:
            self.matches = self.over()
            await self.open()
        await server.wait_for(lambda: self.whose_turn() is not None or self.over() > self.matches,
                              timeout=60, message="nobody got a turn")
        turn = self.whose_turn()
        if turn is None:
            return await self.move(side, quiet)  # the match is over: the next one
        user, message = turn
        labels = live_buttons(message)
        at = time.monotonic()
        record = user.press(message, self.rng.choice(labels))
        await server.wait_for(lambda: record.answered, timeout=30, message="an answer")
        # A question's tap is answered before its edit: look once the message has changed.
        await server.wait_for(lambda: message.deleted or live_buttons(message) != labels,
                              timeout=30, message="the tapped hand message changed")
        follow = second_taps(live_buttons(message))
        if follow:
            side.taps.append(Tap(at, record, self.chat, acts=False))
            at = time.monotonic()
            record = user.press(message, self.rng.choice(follow))
            await server.wait_for(lambda: record.answered, timeout=30, message="an answer")
        side.taps.append(Tap(at, record, self.chat, acts=True))
        await server.wait_for(
            lambda: any(r.method in TABLE_METHODS and r.at >= at
                        for r in server.requests_for(chat=self.chat)),
            timeout=30, message="the table's edit")
        await server.wait_for(lambda: message.deleted or not live_buttons(message), timeout=30,
                              message="the played hand message updated")
        if quiet:
            await server.wait_idle(quiet=0.05, timeout=30)


async def human_tables(server: FakeTelegramServer, count: int, game: str, seed: int
                       ) -> list[HumanTable]:
    tables = []
    for number in range(count):
        users = [server.add_user(f"P{number}{name}", language_code="en", started=True)
                 for name in "ABCD"]
        chat = server.add_group(f"Table {number}", members=users, admins=users[:1])
        for user in users:
            user.send_private("/start")
        table = HumanTable(server, chat, users, game, random.Random(seed + number))
        await table.open()
        tables.append(table)
    return tables


async def said(server: FakeTelegramServer, user: FakeUser, chat: FakeChat, text: str,
               prefix: str) -> StoredMessage:
    """Send ``text`` to the group; the bot's next message with a ``prefix`` button."""
    before = len(server.bot_messages(chat))
    user.send(chat, text)
    found: StoredMessage = await server.wait_for(lambda: next(
        (m for m in server.bot_messages(chat)[before:] if button(m, prefix)), None), timeout=60)
    return found


async def tap(server: FakeTelegramServer, user: FakeUser, message: StoredMessage, data: str
              ) -> None:
    record = user.press_raw(message, data)
    await server.wait_for(lambda: record.answered, timeout=60)


async def computer_table(server: FakeTelegramServer, number: int, game: str,
                         stop: asyncio.Event) -> None:
    """A group where one person opens tables of three hard computer players, starts, and
    leaves at once (a computer takes the seat): four computers play, match after match."""
    user = server.add_user(f"C{number}", language_code="en", started=True)
    chat = server.add_group(f"Computers {number}", members=[user], admins=[user])
    user.send_private("/start")
    await server.wait_for(lambda: server.bot_messages(user.private_chat), timeout=30)
    played = 0
    while not stop.is_set():
        lobby = await said(server, user, chat, f"/newgame {game}", "j:")
        game_id = (button(lobby, "j:") or "").split(":")[1]
        for _ in range(3):
            await tap(server, user, lobby, f"a:{game_id}:2")
        await tap(server, user, lobby, button(lobby, "s:") or "")
        question = await said(server, user, chat, "/leave", "v:")
        await tap(server, user, question, button(question, "v:") or "")
        played += 1
        while not stop.is_set():
            over = sum(MATCH_OVER in (m.text or m.caption or "") for m in server.bot_messages(chat))
            if over >= played:
                break
            await asyncio.sleep(0.5)


# --- the echo bot ---------------------------------------------------------------------------
async def echo_messages(server: FakeTelegramServer, count: int) -> list[tuple[FakeUser,
                                                                                StoredMessage]]:
    out = []
    for number in range(count):
        user = server.add_user(f"E{number}", language_code="en", started=True)
        chat = server.add_group(f"Echo {number}", members=[user])
        user.send(chat, "/start")
        message = await server.wait_for(lambda c=chat: next(  # type: ignore[misc]
            iter(server.bot_messages(c)), None), timeout=30)
        out.append((user, message))
    return out


async def echo_tap(side: Side, user: FakeUser, message: StoredMessage, quiet: bool) -> None:
    server = side.server
    at = time.monotonic()
    record = user.press_raw(message, "tap")
    await server.wait_for(lambda: record.answered, timeout=30, message="the echo's answer")
    await server.wait_for(lambda: any(r.method == "editMessageText" and r.at >= at
                                      for r in server.requests_for(chat=message.chat)),
                          timeout=30, message="the echo's edit")
    side.taps.append(Tap(at, record, message.chat, acts=True))
    if quiet:
        await server.wait_idle(quiet=0.05, timeout=30)


async def run(moves: int, tables: int, game: str, warmup: int, computers: int,
              computer_pause: float, seed: int, profile: str | None = None,
              echo_loop: str = "uvloop") -> dict[str, Any]:
    stop = asyncio.Event()
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        async with FakeTelegramServer() as bot_api, FakeTelegramServer() as echo_api:
            bot = Side("bot", bot_api)
            echo = Side("echo", echo_api)
            try:
                bot.process = await start_process("bot", bot_api, folder, {
                    "DATABASE_PATH": str(folder / "bot.sqlite3"),
                    "GROUP_MESSAGES_PER_MINUTE": "1000000", "MESSAGES_PER_SECOND": "1000000",
                    "COMPUTER_PAUSE_SECONDS": str(computer_pause)}, profile)
                echo.process = await start_process("benchmarks.echo_bot", echo_api, folder,
                                                   {"ECHO_LOOP": echo_loop})
                loops = {"bot_loop": event_loop_of(bot.process.pid),
                         "echo_loop": event_loop_of(echo.process.pid)}
                background = [asyncio.create_task(computer_table(bot_api, n, game, stop))
                              for n in range(computers)]
                players = await human_tables(bot_api, tables, game, seed)
                echoes = await echo_messages(echo_api, tables)
                quiet = computers == 0
                await bot_api.wait_idle(quiet=0.05, timeout=30) if quiet else None
                rounds = max(1, -(-moves // tables))
                started = cpu = echo_cpu = loop_cpu = 0.0
                files_before: set[str] = set()
                for number in range(warmup + rounds):
                    if number == warmup:
                        bot.taps.clear()
                        echo.taps.clear()
                        started = time.monotonic()
                        files_before = set(bot_api.world.files)
                        cpu = cpu_seconds(bot.process.pid)
                        loop_cpu = loop_thread_cpu_seconds(bot.process.pid)
                        echo_cpu = cpu_seconds(echo.process.pid)
                    await asyncio.gather(*(t.move(bot, quiet) for t in players))
                    await asyncio.gather(*(echo_tap(echo, u, m, quiet) for u, m in echoes))
                cpu = cpu_seconds(bot.process.pid) - cpu
                loop_cpu = loop_thread_cpu_seconds(bot.process.pid) - loop_cpu
                echo_cpu = cpu_seconds(echo.process.pid) - echo_cpu
                stop.set()
                for task in background:
                    task.cancel()
                await asyncio.gather(*background, return_exceptions=True)
                bot_api.assert_no_violations()
                echo_api.assert_no_violations()
            finally:
                stop.set()
                await stop_process(bot.process)
                await stop_process(echo.process)
            played = [t for t in bot.taps if t.acts]
            figures = {
                "bot_answer_ms": summary(bot.answer_ms(played)),
                "bot_all_taps_answer_ms": summary(bot.answer_ms(bot.taps)),
                "bot_edit_ms": summary(bot.edit_ms(played, TABLE_METHODS)),
                "echo_answer_ms": summary(echo.answer_ms(echo.taps)),
                "echo_edit_ms": summary(echo.edit_ms(echo.taps, ("editMessageText",))),
            }
            ratios = {
                "answer_ratio": ratio(figures["bot_answer_ms"]["median"],
                                      figures["echo_answer_ms"]["median"]),
                "edit_ratio": ratio(figures["bot_edit_ms"]["median"],
                                    figures["echo_edit_ms"]["median"]),
                "edit_p90_ratio": ratio(figures["bot_edit_ms"]["p90"],
                                        figures["echo_edit_ms"]["p90"]),
            }
            chats = {t.chat.id for t in players} | {u.id for t in players for u in t.users}
            cpu_move = cpu * 1000 / max(1, len(played))
            echo_tap_cpu = echo_cpu * 1000 / max(1, len(echo.taps))
            return {
                "game": game, "tables": tables, "moves": len(played), "taps": len(bot.taps),
                "echo_taps": len(echo.taps), "computer_tables": computers, **loops,
                "seconds": round(time.monotonic() - started, 1),
                **figures, **ratios,
                "bot_cpu_ms_per_move": round(cpu_move, 2),
                "bot_loop_thread_cpu_ms_per_move": round(
                    loop_cpu * 1000 / max(1, len(played)), 2),
                "echo_cpu_ms_per_tap": round(echo_tap_cpu, 2),
                "cpu_ratio": ratio(cpu_move, echo_tap_cpu),
                **costs(bot_api, started, chats, played, max(1, len(played)), files_before),
            }


def report(figures: dict[str, Any]) -> list[str]:
    def row(name: str, key: str) -> str:
        value = figures[key]
        return f"{name:34} median {value['median']:8.2f} ms   p90 {value['p90']:8.2f} ms" \
               f"   (n={value['n']})"

    return [
        f"{figures['game']}: {figures['moves']} moves at {figures['tables']} table(s), "
        f"{figures['computer_tables']} computer table(s) beside, {figures['seconds']} s; "
        f"event loops: bot {figures['bot_loop']}, echo {figures['echo_loop']}",
        row("bot: tap -> answer (moves)", "bot_answer_ms"),
        row("bot: tap -> answer (every tap)", "bot_all_taps_answer_ms"),
        row("echo: tap -> answer", "echo_answer_ms"),
        f"{'answer ratio (bot / echo)':34} {figures['answer_ratio']}",
        row("bot: tap -> table edit", "bot_edit_ms"),
        row("echo: tap -> edit", "echo_edit_ms"),
        f"{'edit ratio (bot / echo)':34} {figures['edit_ratio']}  "
        f"(p90 {figures['edit_p90_ratio']})",
        f"{'bot CPU per move':34} {figures['bot_cpu_ms_per_move']} ms"
        + (" (with the computer tables' work)" if figures["computer_tables"] else "")
        + f", {figures['bot_loop_thread_cpu_ms_per_move']} ms of it the event loop's thread",
        f"{'echo CPU per tap':34} {figures['echo_cpu_ms_per_tap']} ms"
        f"   ratio {figures['cpu_ratio']}",
        f"{'Bot API calls per move':34} {figures['calls_per_move']}"
        f" ({figures['sends_and_edits_per_move']} sends and edits)",
        f"{'uploaded per move':34} {figures['kb_uploaded_per_move']} KB",
    ]


def main(argv: list[str] | None = None,
         runner: Callable[..., Any] = asyncio.run) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.latency",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200, help="measured moves in all")
    parser.add_argument("--tables", type=int, default=1, help="tables of four humans")
    parser.add_argument("--game", default="pair")
    parser.add_argument("--warmup", type=int, default=8, help="rounds not counted")
    parser.add_argument("--computer-tables", type=int, default=0,
                        help="groups of four computer players playing beside")
    parser.add_argument("--computer-pause", type=float, default=2.0,
                        help="seconds between computer moves (the bot's COMPUTER_PAUSE_SECONDS)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--echo-loop", choices=("uvloop", "asyncio"), default="uvloop",
                        help="the echo bot's event loop (the bot runs on uvloop where installed)")
    parser.add_argument("--profile", metavar="PATH",
                        help="run the bot under cProfile and keep its figures in PATH")
    args = parser.parse_args(argv)
    figures = runner(run(args.moves, args.tables, args.game, args.warmup,
                         args.computer_tables, args.computer_pause, args.seed, args.profile,
                         args.echo_loop))
    for line in report(figures):
        print(line)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
