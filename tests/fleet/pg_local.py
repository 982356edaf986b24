"""A PostgreSQL server for the fleet's tests until testservers/postgres.py lands (storage
branch): initdb + pg_ctl as the postgres user, in a temp dir, on a free port, fsync off."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def binaries() -> Path | None:
    for found in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(found, "initdb").exists():
            return Path(found)
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class LocalPostgres:
    def __init__(self) -> None:
        bin_dir = binaries()
        assert bin_dir is not None
        self.bin = bin_dir
        self.dir = Path(tempfile.mkdtemp(prefix="fleet-pg-"))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]

    def _run(self, *args: str) -> None:
        command = [str(a) for a in args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def start(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        data = self.dir / "data"
        self._run(self.bin / "initdb", "-D", str(data), "-A", "trust", "-U", "postgres")
        self._run(self.bin / "pg_ctl", "-D", str(data), "-w", "-l", str(self.dir / "log"),
                  "-o", f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 "
                  "-c fsync=off -c synchronous_commit=off -c max_connections=200", "start")

    def restart(self) -> None:
        data = self.dir / "data"
        self._run(self.bin / "pg_ctl", "-D", str(data), "-w", "-m", "fast", "stop")
        self._run(self.bin / "pg_ctl", "-D", str(data), "-w", "-l", str(self.dir / "log"),
                  "-o", f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 "
                  "-c fsync=off -c synchronous_commit=off -c max_connections=200", "start")

    def stop(self) -> None:
        data = self.dir / "data"
        try:
            self._run(self.bin / "pg_ctl", "-D", str(data), "-w", "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"
