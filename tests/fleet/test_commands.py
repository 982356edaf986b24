"""``python -m bot.fleet`` as an operator meets it: --help answers (exit 0), a wrong role is a
usage error (exit 2), and a receiver debugging on a real PostgreSQL never logs the webhook
secret or the database's password."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bot.storage import Storage
from testservers.fleet import ROOT, SECRET, Fleet

#: The usage's first line (the role on the next).
USAGE = "usage: python -m bot.fleet [-h] [--rotate-webhook-secret] [--version]"

def fleet_command(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot.fleet", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=False)


def test_help_is_an_answer_and_a_wrong_role_a_usage_error() -> None:
    shown = fleet_command("--help")
    assert (shown.returncode, shown.stderr) == (0, "")
    assert shown.stdout.startswith(USAGE)
    assert "receiver" in shown.stdout and "worker" in shown.stdout and "README" in shown.stdout
    wrong = fleet_command("balancer")
    assert (wrong.returncode, wrong.stdout) == (2, "")
    assert wrong.stderr.splitlines()[0] == USAGE
    assert wrong.stderr.splitlines()[-1].startswith(
        "python -m bot.fleet: error: argument role: invalid choice: 'balancer'")
    assert fleet_command().returncode == 2
    worker = fleet_command("worker", "--rotate-webhook-secret")  # (a receiver's flag)
    assert (worker.returncode, worker.stdout) == (2, "")
    assert worker.stderr.splitlines()[-1] == (
        "python -m bot.fleet: error: --rotate-webhook-secret is a receiver's")


async def test_a_debugging_receiver_logs_neither_secret(fleet: Fleet, tmp_path: Path) -> None:
    password = "Sekr3tPassw0rd"  # PostgreSQL trusts the test's connections: any password does
    assert fleet.database_url is not None
    fleet.database_url = fleet.database_url.replace("postgres@", f"postgres:{password}@")
    fleet.settings["LOG_LEVEL"] = "DEBUG"
    storage = Storage(fleet.database_url)  # (the fleet's tables: the receiver registers once
    await storage.open()                  # the database accepted its FLEET_SHARDS)
    await storage.close()
    receiver = await fleet.add_receiver("receiver-1")
    for _ in range(600):  # setWebhook is called beside serving: until it is done
        if "webhook registered" in receiver.log.read_text():
            break
        await asyncio.sleep(0.05)
    await receiver.stop()
    text = receiver.log.read_text()
    assert "'secret_token': '<webhook-secret>'" in text  # PTB's setWebhook line
    assert SECRET not in text and password not in text


async def test_a_lone_worker_counts_in_english(fleet: Fleet) -> None:
    """One worker, one shard: its lines say "1 shard", "1 worker live", not "1 shards"."""
    fleet.settings["FLEET_SHARDS"] = "1"
    worker = await fleet.add_worker("worker-1")
    said: list[str] = []
    for _ in range(600):
        said = [line.split(" ", 3)[3] for line in worker.log.read_text().splitlines()]
        if any("workers live" in line or "worker live" in line for line in said) and any(
                line.startswith("bot.fleet.worker: took") for line in said):
            break
        await asyncio.sleep(0.05)
    await worker.stop()
    assert "bot.fleet.worker: fleet worker worker-1 started: 1 shard in the fleet" in said
    assert "bot.fleet.worker: took 1 shard (1 now): 0 open games" in said
    assert "bot.fleet.worker: 1 worker live: this one sends up to 30 a second" in said


def test_a_worker_with_no_token_waits_for_a_stop_when_the_compose_file_asks(
        tmp_path: Path) -> None:
    """compose.fleet.yaml sets ON_CONFIG_ERROR=wait: a worker that cannot start for its
    settings is not restarted in a loop (bot.cli.held)."""
    env = {k: v for k, v in os.environ.items() if k not in ("TELEGRAM_BOT_TOKEN", "DATABASE_URL")}
    env["ON_CONFIG_ERROR"] = "wait"
    process = subprocess.Popen([sys.executable, "-m", "bot.fleet", "worker"], cwd=tmp_path,
                               env=env, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        first, second = process.stderr.readline(), process.stderr.readline()
        assert first.startswith("domino-bot fleet worker: TELEGRAM_BOT_TOKEN is not set")
        assert second.startswith("waiting (ON_CONFIG_ERROR=wait) rather than exiting")
        time.sleep(0.3)
        assert process.poll() is None, "it waits"
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 2
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


async def test_sighup_stops_a_receiver_and_a_worker_as_sigterm_does(fleet: Fleet) -> None:
    """Operator QA: a closed terminal or logrotate's ``kill -HUP`` killed a process without
    its "stopped" line (bot.cli.STOP_SIGNALS)."""
    receiver = await fleet.add_receiver("receiver-1")
    worker = await fleet.add_worker("worker-1")
    for member, running in ((receiver, "receiver running"), (worker, "running: Ctrl-C")):
        for _ in range(600):
            if running in member.log.read_text():
                break
            await asyncio.sleep(0.05)
        assert member.process is not None
        member.process.send_signal(signal.SIGHUP)
        async with asyncio.timeout(30):
            assert await member.process.wait() == 0, member.log.read_text()
    assert receiver.log.read_text().splitlines()[-1].endswith("INFO bot: receiver stopped")
    assert worker.log.read_text().splitlines()[-1].endswith("INFO bot: stopped")
