"""The load balancer the fleet's compose file ships (deploy/haproxy.cfg), run for real in front of
two receivers: Telegram's POSTs (the fake server's webhook) go to HAProxy only, one receiver is
SIGKILLed mid-game, and every match still finishes with each tap answered once. The file is used
as it is, only its addresses made local (compose's service names and ports)."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fleet_kit import outcomes

from fakeapi import FakeTelegramServer
from testservers import free_port
from testservers.fleet import ROOT, Fleet, until_ready
from testservers.tables import open_tables

CONFIG = ROOT / "deploy" / "haproxy.cfg"
PLAN = tuple((f"{game} target=1", 2) for game in ("gaple", "pair", "muggins", "kolbasa"))


def local_config(frontend: int, receivers: dict[str, int]) -> str:
    """deploy/haproxy.cfg with compose's addresses replaced by this machine's ports."""
    text = CONFIG.read_text()
    text, bound = re.subn(r"(?m)^(\s*)bind :8080$", rf"\1bind 127.0.0.1:{frontend}", text)
    assert bound == 1, "the frontend's bind line changed: update this test"
    for name, port in receivers.items():
        text, found = re.subn(rf"\b{name}:8080\b", f"127.0.0.1:{port}", text)
        assert found == 1, f"no server line for {name}: update this test"
    return text


@pytest.fixture
def haproxy() -> str:
    found = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not Path(found).exists():
        reason = "HAProxy is not installed (apt install haproxy)"
        if os.environ.get("CI"):
            pytest.fail(f"CI runs every test: {reason}")
        pytest.skip(reason)
    return found


@pytest.fixture
async def balancer(haproxy: str, fleet: Fleet, tmp_path: Path) -> AsyncIterator[str]:
    """HAProxy on the shipped config, in front of receiver-1 and receiver-2 (started here)."""
    receivers = {name: (await fleet.add_receiver(name)).port or 0
                 for name in ("receiver-1", "receiver-2")}
    port = free_port()
    config = tmp_path / "haproxy.cfg"
    config.write_text(local_config(port, receivers))
    checked = subprocess.run([haproxy, "-c", "-f", str(config)], capture_output=True, text=True,
                             check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    log = (tmp_path / "haproxy.log").open("w")
    process = await asyncio.create_subprocess_exec(haproxy, "-db", "-f", str(config),
                                                   stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}/telegram"
    try:
        await _until_both_up(port)
        fleet.server.webhook.balance([url])  # Telegram knows one address: the balancer's
        yield url
    finally:
        process.terminate()
        await process.wait()
        log.close()


async def _until_both_up(port: int, timeout: float = 30.0) -> None:
    """Until a receiver answers ready through HAProxy (its checks have marked it up)."""
    await until_ready(port, timeout, 0.2, "HAProxy never reached a ready receiver")


async def test_the_shipped_balancer_carries_the_fleet_through_a_dying_receiver(
    balancer: str, fleet: Fleet, bot_api: FakeTelegramServer
) -> None:
    await fleet.add_worker("worker-1")
    await fleet.wait_workers(1)
    tables = await open_tables(bot_api, PLAN, seed=2400)

    killed_at: list[int] = []

    async def kill_a_receiver() -> None:
        while sum(t.moves for t in tables) < 12:
            await asyncio.sleep(0.1)
        await fleet.members["receiver-1"].kill()
        killed_at.append(sum(t.moves for t in tables))

    trouble = asyncio.create_task(kill_a_receiver())
    await asyncio.gather(*(table.play() for table in tables))
    await trouble
    await bot_api.wait_idle(quiet=1.0, timeout=60)

    results = await outcomes(fleet.database_url or "", [t.chat for t in tables])
    assert [r for r in results if not r.agrees] == []
    assert all(t.over() for t in tables)
    assert sum(t.moves for t in tables) > killed_at[0] + 10  # played on without receiver-1
    answers = bot_api.tap_answers()
    assert answers.twice == ()
    assert len(answers.unanswered) <= sum(t.retaps for t in tables)
    # Every update reached a receiver through HAProxy, the dead receiver's share retried on
    # the other one by HAProxy itself or by Telegram's webhook retry.
    assert {a.url for a in bot_api.webhook.attempts} == {balancer}
    bot_api.assert_no_violations()
    assert fleet.log_problems() == []


def test_the_shipped_config_starts_before_its_receivers_resolve(haproxy: str) -> None:
    """compose recreates a receiver with a new address (an upgrade): HAProxy looks the
    receivers' names up again while it runs (a resolvers section on every server), and starts
    with a name not resolvable yet (the server down until it is) rather than refuse to start.
    Checked on the file as it is: its compose names do not resolve here (before, HAProxy's
    check failed on them: "could not resolve address 'receiver-1'")."""
    checked = subprocess.run([haproxy, "-c", "-f", str(CONFIG)], capture_output=True,
                             text=True, check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    text = CONFIG.read_text()
    assert re.search(r"(?m)^resolvers compose\n\s+parse-resolv-conf$", text)
    assert re.search(r"(?m)^\s*default-server .*\bresolvers compose init-addr libc,none$", text)
