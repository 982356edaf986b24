"""``python -m bot.fleet`` as an operator meets it: --help answers (exit 0), a wrong role is a
usage error (exit 2), and a receiver debugging on a real PostgreSQL never logs the webhook
secret or the database's password."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from fleet_kit import ROOT, SECRET, Fleet

USAGE = "usage: python -m bot.fleet [-h] [--version] {receiver,worker}"

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


async def test_a_debugging_receiver_logs_neither_secret(fleet: Fleet, tmp_path: Path) -> None:
    password = "Sekr3tPassw0rd"  # PostgreSQL trusts the test's connections: any password does
    assert fleet.database_url is not None
    fleet.database_url = fleet.database_url.replace("postgres@", f"postgres:{password}@")
    fleet.settings["LOG_LEVEL"] = "DEBUG"
    receiver = await fleet.add_receiver("receiver-1")
    for _ in range(600):  # setWebhook is called beside serving: until it is done
        if "webhook registered" in receiver.log.read_text():
            break
        await asyncio.sleep(0.05)
    await receiver.stop()
    text = receiver.log.read_text()
    assert "'secret_token': '<webhook-secret>'" in text  # PTB's setWebhook line
    assert SECRET not in text and password not in text
