"""The fleet as an operator runs it, for its end-to-end test and ``benchmarks.fleet``: the fake
Bot API server (Telegram, and the load balancer in front of the receivers), receivers and
workers as separate processes (``python -m bot.fleet receiver|worker``, or ``python -m bot`` for
the single process measured beside them), each logging to its own file, and tables of simulated
people (and computer players) who play through the fake server."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import asyncpg  # type: ignore[import-untyped]

from benchmarks.latency import cpu_seconds
from benchmarks.stopping import settle
from bot.wording import isolated
from engine.record import replay
from fakeapi import FakeChat, FakeTelegramServer, FakeUser, StoredMessage, WaitTimeoutError
from fakeapi.players import button, live_buttons, second_taps

ROOT = Path(__file__).resolve().parents[2]
SECRET = "fleet_secret-23"
#: What setWebhook registers: the load balancer's public URL. Nothing listens there; the fake
#: server plays the balancer and posts to the receivers it is told about (Webhook.balance).
BALANCER_URL = "https://127.0.0.1:8443/telegram"
MATCH_OVER = "The match is over"
#: A simulated person taps again when a tap is not answered within this (its worker died
#: between its commit and its answer, or the tap waits for the shard's new owner).
ANSWER_WAIT = 8.0
#: A table whose taps go unanswered this many times in a row is stuck: the run fails.
MAX_RETAPS = 5
PROBLEMS = ("ERROR", "Traceback", "CRITICAL")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@dataclass
class Member:
    """One process of the fleet; it may die (SIGKILL) and start again (a new life, same log)."""

    name: str
    argv: tuple[str, ...]
    env: dict[str, str]
    log: Path
    port: int | None = None
    process: asyncio.subprocess.Process | None = None
    earlier_cpu: float = 0.0  # the CPU seconds of its earlier lives

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.returncode is None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/telegram"

    async def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, *self.argv, env=self.env, cwd=ROOT, stdout=out, stderr=out)

    def cpu(self) -> float:
        """CPU seconds over all its lives (user + system, every thread)."""
        now = cpu_seconds(self.process.pid) if self.alive and self.process else 0.0
        return self.earlier_cpu + now

    async def kill(self) -> None:
        """SIGKILL: no clean-up of any kind, as when a machine dies."""
        await self._end(signal.SIGKILL)

    async def stop(self) -> None:
        await self._end(signal.SIGTERM)

    async def _end(self, how: signal.Signals) -> None:
        if self.process is None or not self.alive:
            return
        self.earlier_cpu += cpu_seconds(self.process.pid)
        self.process.send_signal(how)
        try:
            async with asyncio.timeout(20):
                await self.process.wait()
        except TimeoutError:
            self.process.kill()
            await self.process.wait()


@dataclass
class Fleet:
    """Receivers and workers (or one single process) against one fake server and database."""

    server: FakeTelegramServer
    database_url: str | None  # None: the single process on SQLite in ``folder``
    folder: Path
    settings: dict[str, str] = field(default_factory=dict)
    members: dict[str, Member] = field(default_factory=dict)

    def env(self, name: str, **more: str) -> dict[str, str]:
        env = {
            **os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1",
            "TELEGRAM_BOT_TOKEN": self.server.token,
            "TELEGRAM_API_BASE_URL": self.server.api_root,
            "WEBHOOK_URL": BALANCER_URL, "WEBHOOK_SECRET": SECRET,
            "COMPUTER_PAUSE_SECONDS": "0", "LOG_LEVEL": "INFO", "WORKER_NAME": name,
            "DATABASE_PATH": str(self.folder / "bot.sqlite3"), **self.settings, **more,
        }
        env.pop("DATABASE_URL", None)
        if self.database_url is not None:
            env["DATABASE_URL"] = self.database_url
        return env

    def _member(self, name: str, argv: tuple[str, ...], port: int | None) -> Member:
        more = {"HTTP_HOST": "127.0.0.1", "HTTP_PORT": str(port)} if port else {}
        member = Member(name, argv, self.env(name, **more), self.folder / f"{name}.log", port)
        self.members[name] = member
        return member

    def _balance(self) -> None:
        """The balancer knows every receiver that was started (a dead one too, until its
        health check would drop it: the fake skips it on failure, as Telegram retries)."""
        self.server.webhook.balance([m.url for m in self.members.values() if m.port])

    async def add_receiver(self, name: str) -> Member:
        member = self._member(name, ("-m", "bot.fleet", "receiver"), free_port())
        await member.start()
        await self.ready(member)
        self._balance()
        return member

    async def add_worker(self, name: str) -> Member:
        member = self._member(name, ("-m", "bot.fleet", "worker"), None)
        await member.start()
        return member

    async def add_single(self, name: str = "bot") -> Member:
        """``python -m bot`` in webhook mode: the single process, its own receiver."""
        member = self._member(name, ("-m", "bot"), free_port())
        await member.start()
        await self.ready(member)
        self._balance()
        return member

    async def ready(self, member: Member, timeout: float = 60.0) -> None:
        """Until its /healthz/ready answers 200 (its database reachable)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        async with aiohttp.ClientSession() as client:
            while True:
                if not member.alive:
                    raise AssertionError(f"{member.name} exited: see {member.log}")
                try:
                    async with client.get(f"http://127.0.0.1:{member.port}/healthz/ready") as r:
                        if r.status == 200:
                            return
                except aiohttp.ClientError:
                    pass
                if loop.time() > deadline:
                    raise AssertionError(f"{member.name} not ready in {timeout}s: see {member.log}")
                await asyncio.sleep(0.1)

    async def live_workers(self) -> int:
        """Workers PostgreSQL sees (their lock connections), as the workers count each other."""
        assert self.database_url is not None
        connection = await asyncpg.connect(self.database_url)
        try:
            count: int = await connection.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'domino-fleet/%'"
                " AND datname = current_database()")
        finally:
            await connection.close()
        return count

    async def wait_workers(self, count: int, timeout: float = 60.0) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while await self.live_workers() != count:
            dead = [m.name for m in self.members.values() if m.process and not m.alive
                    and m.process.returncode != -signal.SIGKILL]
            if dead or loop.time() > deadline:
                raise AssertionError(f"not {count} workers (exited: {dead}): see {self.folder}")
            await asyncio.sleep(0.2)

    def cpu(self, names: Sequence[str] | None = None) -> float:
        return sum(m.cpu() for n, m in self.members.items() if names is None or n in names)

    async def close(self) -> None:
        await asyncio.gather(*(m.stop() for m in self.members.values()))

    def log_problems(self) -> list[str]:
        """Lines of any member's log that say ERROR or show a traceback."""
        found = []
        for member in self.members.values():
            if member.log.exists():
                for line in member.log.read_text(errors="replace").splitlines():
                    if any(word in line for word in PROBLEMS):
                        found.append(f"{member.name}: {line}")
        return found


# --- tables ----------------------------------------------------------------------------------
@dataclass
class Table:
    """A group where ``humans`` people (and computers in the other seats, of 4) play one match
    of ``game``: each person taps their own hand when it is their turn, and taps again when a
    tap is not answered within :data:`ANSWER_WAIT`."""

    server: FakeTelegramServer
    chat: FakeChat
    users: list[FakeUser]
    game: str
    rng: random.Random
    computers: int = 0
    moves: int = 0
    retaps: int = 0
    opened_after: int = 0  # the group's last message id before the match was opened
    _unanswered: int = 0  # taps unanswered in a row

    def whose_turn(self) -> tuple[FakeUser, StoredMessage] | None:
        """The person whose hand (among the last messages of their chat) waits for a tap."""
        for user in self.users:
            for message in reversed(self.server.world.recent_messages(user.private_chat, 4)):
                if message.from_bot and not message.deleted and live_buttons(message):
                    return user, message
        return None

    def over(self) -> bool:
        """The match opened last is over (said among the group's last messages, after it
        was opened)."""
        return any(m.message_id > self.opened_after and m.from_bot
                   and MATCH_OVER in (m.text or m.caption or "")
                   for m in self.server.world.recent_messages(self.chat, 8))

    async def _said(self, user: FakeUser, text: str, prefix: str) -> StoredMessage:
        before = len(self.server.bot_messages(self.chat))
        user.send(self.chat, text)
        found: StoredMessage = await self.server.wait_for(lambda: next(
            (m for m in self.server.bot_messages(self.chat)[before:] if button(m, prefix)),
            None), timeout=60, message=f"{self.chat.name}: {text}")
        return found

    async def _tap(self, user: FakeUser, message: StoredMessage, data: str) -> None:
        """A lobby tap, tapped again while it goes unanswered."""
        for _ in range(MAX_RETAPS):
            record = user.press_raw(message, data)
            try:
                await self.server.wait_for(lambda r=record: r.answered,  # type: ignore[misc]
                                           timeout=ANSWER_WAIT)
                return
            except WaitTimeoutError:
                self.retaps += 1
        raise WaitTimeoutError(f"{self.chat.name}: {data} unanswered\n{self.story()}")

    async def open(self) -> None:
        """Everyone opens the private chat; a lobby; computers and people sit; started."""
        last = self.server.world.recent_messages(self.chat, 1)
        self.opened_after = last[0].message_id if last else 0
        for user in self.users:
            user.send_private("/start")
        # As a person would: the greeting seen before joining. (In a fleet a private chat's
        # updates and a group's may be handled by two workers, in either order.)
        for user in self.users:
            await self.server.wait_for(lambda u=user: any(  # type: ignore[misc]
                m.from_bot for m in self.server.world.recent_messages(u.private_chat, 2)),
                timeout=60, message=f"{self.chat.name}: {user.first_name}'s /start")
        lobby = await self._said(self.users[0], f"/newgame {self.game}", "j:")
        game_id = (button(lobby, "j:") or "").split(":")[1]
        for user in self.users[1:]:
            await self._tap(user, lobby, button(lobby, "j:") or "")
        for _ in range(self.computers):
            await self._tap(self.users[0], lobby, f"a:{game_id}:2")
        await self._tap(self.users[0], lobby, button(lobby, "s:") or "")

    async def play(self, timeout: float = 60.0) -> None:
        """Play until the match is over; a tap unanswered in time is tapped again."""
        server = self.server
        while not self.over():
            try:
                await server.wait_for(lambda: self.whose_turn() is not None or self.over(),
                                      timeout=timeout)
            except WaitTimeoutError:
                raise WaitTimeoutError(f"{self.chat.name}: nobody's turn for {timeout}s\n"
                                       f"{self.story()}") from None
            turn = self.whose_turn()
            if turn is None:
                continue
            user, message = turn
            shown = live_buttons(message)
            if not await self._press(user, message, self.rng.choice(shown)):
                continue
            try:
                await server.wait_for(lambda m=message, s=shown: (  # type: ignore[misc]
                    m.deleted or live_buttons(m) != s), timeout=ANSWER_WAIT)
            except WaitTimeoutError:
                continue  # a refusal answered, the hand unchanged: look again
            follow = second_taps(live_buttons(message))
            if follow and not await self._press(user, message, self.rng.choice(follow)):
                continue
            self.moves += 1

    def story(self, lines: int = 30) -> str:
        """The end of what happened at this table: in the group and in its people's chats."""
        chats = [self.chat, *(user.private_chat for user in self.users)]
        return "\n".join(f"--- {chat.name}:\n" + "\n".join(
            self.server.transcript(chat).splitlines()[-lines:]) for chat in chats)

    async def keep_playing(self) -> None:
        """Match after match, until cancelled (the benchmarks' steady load)."""
        while True:
            await self.play()
            await self.open()

    async def _press(self, user: FakeUser, message: StoredMessage, label: str) -> bool:
        """Tap ``label``; False when it went unanswered (tapped again after a new look)."""
        if message.deleted:
            return False  # the bot replaced the hand meanwhile: look again
        record = user.press(message, label)
        try:
            await self.server.wait_for(lambda: record.answered, timeout=ANSWER_WAIT)
        except WaitTimeoutError:
            self.retaps += 1
            self._unanswered += 1
            if self._unanswered >= MAX_RETAPS:
                raise WaitTimeoutError(f"{self.chat.name}: {MAX_RETAPS} taps in a row "
                                       f"unanswered\n{self.story()}") from None
            return False
        self._unanswered = 0
        return True


async def open_tables(server: FakeTelegramServer, plan: Sequence[tuple[str, int]], seed: int
                      ) -> list[Table]:
    """One group per (game, people at the table) in ``plan``; 4 seats, computers in the rest;
    opened all at once."""
    tables = []
    for number, (game, people) in enumerate(plan):
        users = [server.add_user(f"T{number}{name}", language_code="en", started=True)
                 for name in "ABCD"[:people]]
        chat = server.add_group(f"Table {number}", members=users, admins=users[:1])
        tables.append(Table(server, chat, users, game, random.Random(seed + number),
                            computers=4 - people))
    opening = [asyncio.ensure_future(table.open()) for table in tables]
    try:
        await asyncio.gather(*opening)
    finally:  # one table failing to open stops the others (they would play on, unwatched)
        await settle(opening)
    return tables


# --- results -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Outcome:
    """One table's match as stored, against what the engine makes of its stored actions."""

    chat_id: int
    status: str
    stored_scores: tuple[int, ...] | None
    stored_winner: int | None
    replayed_scores: tuple[int, ...] | None
    replayed_winner: int | None
    hands_stored: int
    hands_replayed: int
    replay_error: str | None
    winner_name: str | None = None  # the replayed winner side's first player, as announced

    def announced_in(self, text: str) -> bool:
        """Whether the group's "The match is over" message names the replayed winner."""
        if self.replayed_winner is None:
            return "It is a draw." in text
        return "🏆 " + isolated(self.winner_name or "") in text

    @property
    def agrees(self) -> bool:
        return (self.status == "finished" and self.replay_error is None
                and self.stored_scores == self.replayed_scores
                and self.stored_winner == self.replayed_winner
                and self.hands_stored == self.hands_replayed)


async def outcomes(database_url: str, chats: Sequence[FakeChat]) -> list[Outcome]:
    """Each chat's one game: its stored result and the engine's replay of its action log."""
    connection = await asyncpg.connect(database_url)
    try:
        found = []
        for chat in chats:
            game = await connection.fetchrow(
                "SELECT game_id, status, match, players FROM games WHERE chat_id=$1", chat.id)
            assert game is not None, f"{chat.name} has no game"
            result = await connection.fetchrow(
                "SELECT winner_side, scores FROM match_results WHERE game_id=$1", game["game_id"])
            hands = await connection.fetchval(
                "SELECT count(*) FROM hand_results WHERE game_id=$1", game["game_id"])
            names = [str(player[1]) for player in json.loads(game["players"])]
            found.append(_outcome(chat.id, game["status"], game["match"], result, hands, names))
        return found
    finally:
        await connection.close()


def _outcome(chat_id: int, status: str, match_json: str | None,
             result: asyncpg.Record | None, hands: int, names: Sequence[str]) -> Outcome:
    replayed = replay(json.loads(match_json)) if match_json else None
    match = replayed.match if replayed else None
    winner = match.winner if match is not None else None
    winner_name = names[match.sides[winner][0]] if match is not None and winner is not None \
        else None
    error = (replayed.error.message if replayed and replayed.error
             else None if match is not None else "no match stored")
    return Outcome(
        chat_id, status,
        tuple(json.loads(result["scores"])) if result else None,
        result["winner_side"] if result else None,
        tuple(match.scores) if match is not None and match.over else None,
        winner, hands, len(match.hands) if match is not None else 0, error, winner_name)
