"""A throwaway PostgreSQL server for tests and benchmarks: a real server, never a mock.

``PostgresServer().start()`` makes a cluster in a temporary folder (``initdb``), starts it with
``pg_ctl`` on 127.0.0.1 and a free port, with fsync off (a test's data need not survive a power
cut), and ``stop()`` removes everything. PostgreSQL refuses to run as root: under root the
binaries run as the ``postgres`` user (``runuser``), which then owns the folder.

    server = PostgresServer()
    server.start()
    url = await server.create_database("game_test")  # postgresql://postgres@127.0.0.1:P/game_test?...
    server.halt()    # the server goes away (a crash, for restart tests); start() brings it back
    server.shut_down()  # stopped cleanly (its pages on disk); start() too
    server.stop()
"""

from __future__ import annotations

import atexit
import glob
import os
import re
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType

_TOOLS = ("initdb", "pg_ctl", "postgres")
_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


class PostgresServerError(RuntimeError):
    """The server cannot be made or started; the message says why in one line or two."""


def find_binaries() -> Path | None:
    """The folder holding initdb, pg_ctl and postgres: ``POSTGRES_BINDIR`` if set (that folder
    only), else Debian's /usr/lib/postgresql/<v>/bin (newest first), else wherever PATH finds
    initdb."""
    chosen = os.environ.get("POSTGRES_BINDIR", "").strip()
    if chosen:
        folders = [chosen]
    else:
        folders = sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                         key=lambda f: _version(Path(f).parent.name), reverse=True)
        initdb = shutil.which("initdb")
        if initdb is not None:
            folders.append(str(Path(initdb).resolve().parent))
    for folder in map(Path, folders):
        if all((folder / tool).is_file() for tool in _TOOLS):
            return folder
    return None


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text))


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    """One cluster in a temporary folder, served on 127.0.0.1; ``settings`` are extra server
    settings (``-c name=value``), e.g. ``{"shared_preload_libraries": "pg_stat_statements"}``."""

    def __init__(self, binaries: Path | None = None,
                 settings: Mapping[str, str] | None = None) -> None:
        self.binaries = binaries or find_binaries()
        self.settings = dict(settings or {})
        self.port = 0
        self.user = "postgres"  # the superuser initdb makes; trusted on 127.0.0.1
        self._folder: Path | None = None
        self._running = False

    # --- lifecycle ----------------------------------------------------------------------
    def start(self) -> None:
        """Make the cluster (first time) and start the server; returns when it accepts
        connections. Starting again after :meth:`halt` keeps the data and the port."""
        if self._running:
            return
        if self.binaries is None:
            raise PostgresServerError(
                "PostgreSQL is not installed (no initdb/pg_ctl in /usr/lib/postgresql/*/bin "
                "or PATH): install it, e.g. apt-get install postgresql")
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix="testpg-"))
            atexit.register(self.stop)
            self._own(self._folder)
            self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", self.user,
                      "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions")
        for attempt in range(3):  # a free port can be taken by another between probe and bind
            if not self.port or attempt:
                self.port = free_port()
            try:
                self._run("pg_ctl", "start", "-w", "-t", "60", "-D", str(self.data),
                          "-l", str(self.log), "-o", self._options())
            except PostgresServerError:
                if attempt == 2 or "could not bind" not in self.log_tail():
                    raise
                continue
            self._running = True
            return

    def halt(self) -> None:
        """Stop the server at once, as a crash would (``-m immediate``); the data stays and
        :meth:`start` serves it again on the same port."""
        if self._running and self._folder is not None:
            self._running = False
            self._run("pg_ctl", "stop", "-w", "-m", "immediate", "-D", str(self.data))

    def shut_down(self) -> None:
        """Stop the server as an operator does (``-m fast``: its sessions ended, every page
        written out by a shutdown checkpoint, nothing left to replay); the data stays and
        :meth:`start` serves it again on the same port, with nothing in its memory."""
        if self._running and self._folder is not None:
            self._running = False
            self._run("pg_ctl", "stop", "-w", "-m", "fast", "-D", str(self.data))

    def stop(self) -> None:
        """Stop the server and delete its folder."""
        try:
            self.halt()
        finally:
            folder, self._folder = self._folder, None
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
                atexit.unregister(self.stop)

    def __enter__(self) -> PostgresServer:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()

    # --- addresses and databases ----------------------------------------------------------
    def url(self, database: str = "postgres") -> str:
        if not self.port:
            raise PostgresServerError("the server is not started")
        # No SSL: the server is started without it, and asyncpg's default ("prefer") asks for
        # it on every connection; a query cancelled mid-negotiation left asyncpg's own future
        # unread, an asyncio ERROR line in a fleet test (CI; asyncpg issues 1211, 1310).
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}?sslmode=disable"

    async def create_database(self, name: str) -> str:
        """A new empty database; returns its URL."""
        await self._admin(f'CREATE DATABASE "{self._checked(name)}"')
        return self.url(name)

    async def drop_database(self, name: str) -> None:
        """Drop a database, closing whatever connections it still has."""
        await self._admin(f'DROP DATABASE IF EXISTS "{self._checked(name)}" WITH (FORCE)')

    async def _admin(self, sql: str) -> None:
        # The bot's own dependency (untyped); imported late so find_binaries needs none.
        import asyncpg  # type: ignore[import-untyped]

        connection = await asyncpg.connect(self.url(), timeout=30)
        try:
            await connection.execute(sql)
        finally:
            await connection.close()

    @staticmethod
    def _checked(name: str) -> str:
        if not _NAME.match(name):
            raise ValueError(f"not a plain database name: {name!r}")
        return name

    # --- files and commands ---------------------------------------------------------------
    @property
    def data(self) -> Path:
        assert self._folder is not None
        return self._folder / "data"

    @property
    def log(self) -> Path:
        assert self._folder is not None
        return self._folder / "server.log"

    def log_tail(self, lines: int = 5) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def _options(self) -> str:
        assert self._folder is not None
        # fsync off: writes reach the OS, not the disk. Commits stay synchronous, so a server
        # halted (killed) at once still has every commit when it starts again.
        settings = {"listen_addresses": "127.0.0.1", "port": str(self.port),
                    "unix_socket_directories": str(self._folder), "fsync": "off",
                    "full_page_writes": "off",
                    **self.settings}
        return " ".join(f"-c {name}={value}" for name, value in settings.items())

    @staticmethod
    def _as_root() -> bool:
        return hasattr(os, "geteuid") and os.geteuid() == 0

    def _own(self, folder: Path) -> None:
        """Under root the server runs as ``postgres``: it must own its folder."""
        if self._as_root():
            try:
                shutil.chown(folder, user="postgres", group=None)
            except LookupError:
                raise PostgresServerError(
                    "running as root, but there is no postgres user to run the server as "
                    "(install Debian's postgresql package, or run the tests as another user)"
                ) from None

    def _run(self, tool: str, *arguments: str) -> None:
        assert self.binaries is not None
        command = [str(self.binaries / tool), *arguments]
        if self._as_root():
            command = ["runuser", "-u", "postgres", "--", *command]
        try:
            result = subprocess.run(command, capture_output=True, text=True, timeout=120,
                                    cwd=self._folder, check=False)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise PostgresServerError(f"{tool} failed: {error}") from None
        if result.returncode != 0:
            said = (result.stderr.strip() or result.stdout.strip()).splitlines()[-1:] or [""]
            log = self.log_tail(3)
            raise PostgresServerError(f"{tool} failed ({result.returncode}): {said[0]}"
                                      + (f"\nserver log:\n{log}" if log else ""))
