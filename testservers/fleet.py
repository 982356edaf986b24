"""The fleet as an operator runs it, for the fleet tests and ``benchmarks.fleet`` alike:
receivers and workers as separate processes (``python -m bot.fleet receiver|worker``, or
``python -m bot`` for the single process measured beside them), each logging to its own file,
against the fake Bot API server (Telegram, and the load balancer in front of the receivers) and
one database. Here, not in the tests, so that the benchmark does not import a test module;
the people who play through the fake server are in :mod:`testservers.tables`."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import asyncpg  # type: ignore[import-untyped]

from fakeapi import FakeTelegramServer

from .postgres import free_port
from .processes import cpu_seconds

ROOT = Path(__file__).resolve().parents[1]
SECRET = "fleet_secret-23"
#: What setWebhook registers: the load balancer's public URL. Nothing listens there; the fake
#: server plays the balancer and posts to the receivers it is told about (Webhook.balance).
BALANCER_URL = "https://127.0.0.1:8443/telegram"
PROBLEMS = ("ERROR", "Traceback", "CRITICAL")


async def until_ready(port: int, timeout: float, interval: float, late: str,
                      failed: Callable[[], str | None] = lambda: None) -> None:
    """Until ``127.0.0.1:port/healthz/ready`` answers 200 (a refused or broken connection is
    tried again); AssertionError with ``late`` after ``timeout`` s, or with what ``failed``
    says as soon as it says something (the process behind it exited)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    async with aiohttp.ClientSession() as client:
        while True:
            if (reason := failed()) is not None:
                raise AssertionError(reason)
            with contextlib.suppress(aiohttp.ClientError):
                async with client.get(f"http://127.0.0.1:{port}/healthz/ready") as answer:
                    if answer.status == 200:
                        return
            if loop.time() > deadline:
                raise AssertionError(late)
            await asyncio.sleep(interval)


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

    async def refused(self) -> tuple[str, str]:
        """Start it and wait for it to be refused: exit 2 within a minute, with one CRITICAL
        line and no traceback; that line's message, and the whole log."""
        await self.start()
        assert self.process is not None
        async with asyncio.timeout(60):
            assert await self.process.wait() == 2, self.log.read_text()
        text = self.log.read_text()
        critical = [line for line in text.splitlines() if "CRITICAL" in line]
        assert len(critical) == 1 and "Traceback" not in text, text
        return critical[0].split(" CRITICAL bot: ", 1)[-1], text

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
        assert member.port is not None, f"{member.name} serves no HTTP port"

        def exited() -> str | None:
            return None if member.alive else f"{member.name} exited: see {member.log}"

        await until_ready(member.port, timeout, 0.1,
                          f"{member.name} not ready in {timeout}s: see {member.log}", exited)

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
