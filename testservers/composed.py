"""``python -m testservers.composed CHECKOUT``: the fleet's compose file run as an operator runs
it, against the fake Bot API server, with a worker killed and PostgreSQL restarted mid-game.

Not part of the test suite: it needs a container engine and a compose tool (``docker
compose``, or ``podman-compose`` with Podman) and the images the compose file names. CHECKOUT
is a scratch checkout of this repository (its ``.env`` is written here, and the fleet's
volumes are removed before and after: a checkout with an ``.env`` of its own is refused).
The fake server listens on all interfaces; the containers reach it at ``--gateway``
(Podman's ``host.containers.internal``; with Docker on Linux, the compose network's gateway
address). Updates go by webhook to the balancer the compose file publishes on
127.0.0.1:8080, as Telegram's would through an HTTPS proxy.

The run: ``down -v``, ``build``, ``up -d``; nine tables of different games open at once; a
worker's container SIGKILLed and started again; PostgreSQL's container restarted; every
match must finish, with no refused call (the fake server checks each against the Bot API)
and no ERROR, CRITICAL or traceback in the bot's containers. Exit 0 when all held.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

from fakeapi import FakeTelegramServer

from .tables import Table, open_tables

COMPOSE_FILE = "compose.fleet.yaml"
#: The first line of the .env this writes: a checkout whose .env lacks it is not a scratch one.
MARK = "# written by python -m testservers.composed: a scratch checkout"
PLAN = [("pair", 2), ("gaple", 4), ("muggins", 3), ("kolbasa", 2), ("gaple-dead", 1),
        ("matador", 2), ("pair", 4), ("bergen", 2), ("french", 2)]
PROBLEMS = ("ERROR", "CRITICAL", "Traceback")
BOT_SERVICES = ("receiver-1", "receiver-2", "worker")


class Deployment:
    """The compose project in ``checkout``, driven by ``compose`` (a command) on ``engine``."""

    def __init__(self, checkout: Path, compose: list[str], engine: str) -> None:
        self.checkout, self.compose, self.engine = checkout, compose, engine
        # compose's project name, as compose makes it from the folder: its containers only
        self.project = re.sub(r"[^a-z0-9_-]", "", checkout.name.lower())

    def run(self, *args: str) -> str:
        """A compose command; its failure ends the run with what it printed."""
        started = time.monotonic()
        try:
            done = subprocess.run([*self.compose, "-f", COMPOSE_FILE, *args],
                                  cwd=self.checkout, capture_output=True, text=True, check=False)
        except FileNotFoundError:
            raise SystemExit(f"{self.compose[0]} is not installed (see --compose)") from None
        print(f"compose {' '.join(args)}: exit {done.returncode}, "
              f"{time.monotonic() - started:.1f} s", flush=True)
        if done.returncode:
            raise SystemExit(f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
        return done.stdout

    def containers(self, service: str) -> list[str]:
        return subprocess.run(
            [self.engine, "ps", "-a", "--format", "{{.Names}}",
             "--filter", f"label=com.docker.compose.project={self.project}",
             "--filter", f"label=com.docker.compose.service={service}"],
            capture_output=True, text=True, check=True).stdout.split()

    def engine_run(self, *args: str) -> None:
        subprocess.run([self.engine, *args], capture_output=True, check=True)

    def problems(self) -> dict[str, list[str]]:
        """The bot containers' log lines that tell of a failure."""
        found = {}
        for service in BOT_SERVICES:
            for name in self.containers(service):
                logs = subprocess.run([self.engine, "logs", name], capture_output=True,
                                      text=True, check=False)
                lines = [line for line in (logs.stdout + logs.stderr).splitlines()
                         if any(word in line for word in PROBLEMS)]
                if lines:
                    found[name] = lines
        return found


def settings(token: str, gateway: str, port: int) -> str:
    """The checkout's .env: the fake server's token and address, the fleet's secrets."""
    return "\n".join([
        MARK,
        f"TELEGRAM_BOT_TOKEN={token}",
        f"TELEGRAM_API_BASE_URL=http://{gateway}:{port}",
        "WEBHOOK_URL=https://bot.example.com/telegram",
        "WEBHOOK_SECRET=composed-check-secret",
        "POSTGRES_PASSWORD=composed-check-password",
        "COMPUTER_PAUSE_SECONDS=0.5",
        "LOG_LEVEL=INFO", ""])


async def check(deployment: Deployment, port: int, gateway: str) -> bool:
    server = FakeTelegramServer(port=port, host="0.0.0.0")  # the containers reach it
    await server.start()
    server.webhook.balance(["http://127.0.0.1:8080/telegram"])  # the published balancer
    (deployment.checkout / ".env").write_text(settings(server.token, gateway, port))
    try:
        await asyncio.to_thread(deployment.run, "down", "-v")
        await asyncio.to_thread(deployment.run, "build")
        await asyncio.to_thread(deployment.run, "up", "-d")
        await server.wait_for(lambda: any(r.method == "setWebhook" for r in server.requests),
                              timeout=180, message="no receiver registered the webhook")
        tables = await open_tables(server, PLAN, 7)
        plays = [asyncio.ensure_future(table.play(timeout=90)) for table in tables]
        await asyncio.sleep(8)
        await asyncio.to_thread(faults, deployment, tables)
        results = await asyncio.gather(*plays, return_exceptions=True)
        failed = report(tables, results)
        print(f"calls {len(server.requests)}, refused by the Bot API's rules "
              f"{len(server.violations)}", flush=True)
        problems = deployment.problems()
        for name, lines in problems.items():
            print(f"{name}:\n  " + "\n  ".join(lines[:5]), flush=True)
        return not failed and not server.violations and not problems
    finally:
        await server.stop()
        await asyncio.to_thread(deployment.run, "down", "-v")


def faults(deployment: Deployment, tables: list[Table]) -> None:
    """A worker SIGKILLed mid-game and started again 20 s later; then PostgreSQL restarted."""
    victim = deployment.containers("worker")[0]
    print(f"SIGKILL {victim} after {sum(t.moves for t in tables)} moves", flush=True)
    deployment.engine_run("kill", "--signal", "KILL", victim)
    time.sleep(20)
    deployment.engine_run("start", victim)
    time.sleep(5)
    database = deployment.containers("postgres")[0]
    started = time.monotonic()
    deployment.engine_run("restart", database)
    print(f"restarted {database} in {time.monotonic() - started:.1f} s", flush=True)


def report(tables: list[Table], results: list[BaseException | None]) -> bool:
    """One line a table; True when one failed."""
    failed = False
    for table, result in zip(tables, results, strict=True):
        outcome = "finished" if result is None else f"FAILED: {str(result)[:300]}"
        failed |= result is not None
        print(f"{table.game:11} {table.chat.name}: {table.moves} moves, {table.retaps} taps "
              f"again; {outcome}", flush=True)
    return failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m testservers.composed",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="a scratch checkout of this repository")
    parser.add_argument("--compose", default="podman-compose",
                        help="the compose command, e.g. 'docker compose' (default: %(default)s)")
    parser.add_argument("--engine", default="podman", help="podman or docker")
    parser.add_argument("--gateway", default="host.containers.internal",
                        help="how the containers reach this machine (default: %(default)s)")
    parser.add_argument("--port", type=int, default=18081, help="the fake server's port")
    args = parser.parse_args(argv)
    deployment = Deployment(args.checkout.resolve(), shlex.split(args.compose), args.engine)
    env = deployment.checkout / ".env"
    if env.exists() and not env.read_text().startswith(MARK):
        parser.error(f"{env} was not written by this check: it runs 'down -v' (the database's "
                     "volume goes) and writes .env, so give it a scratch checkout")
    ok = asyncio.run(check(deployment, args.port, args.gateway))
    print("the compose fleet held" if ok else "the compose fleet FAILED", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
