"""A receiver whose WEBHOOK_URL Telegram refuses (setWebhook's 400) stops, naming the setting
and Telegram's reason (``python -m bot.fleet receiver``: one line, exit 2), not ready
meanwhile; one that cannot reach Telegram keeps trying and serves."""

from __future__ import annotations

import asyncio
import logging

import aiohttp
import pytest
from fleet_pg import database  # noqa: F401  (a fixture)

from bot.config import BotConfig
from bot.errors import ConfigError
from bot.fleet.receiver import receiving
from bot.fleet.settings import FleetSettings
from bot.launch import token_rejected
from bot.serving.webserver import HttpSettings
from bot.storage import Storage
from fakeapi import FakeTelegramServer
from testservers import free_port
from testservers.fleet import Fleet

SECRET = "fleet_secret-1"
REFUSED_URL = "https://fleet.example:8081/hook"  # (the fake refuses that port, as Telegram)
REFUSAL = "Bad webhook: webhook can be set up only on ports 80, 88, 443 or 8443"


async def ready(port: int) -> int:
    async with aiohttp.ClientSession() as client, \
            client.get(f"http://127.0.0.1:{port}/healthz/ready") as answer:
        return answer.status


async def test_a_webhook_url_telegram_refuses_stops_the_receiver(
        bot_api: FakeTelegramServer, database: str,  # noqa: F811
        caplog: pytest.LogCaptureFixture) -> None:
    port = free_port()
    http = HttpSettings(REFUSED_URL, SECRET, "127.0.0.1", port)
    config = BotConfig(bot_api.token, api_base_url=bot_api.api_root)
    stopping = asyncio.Event()
    with pytest.raises(ConfigError) as refused:
        async with receiving(config, http, FleetSettings(database, 4), stopping=stopping):
            await asyncio.wait_for(stopping.wait(), 20)
            assert await ready(port) == 503  # (a balancer sends it nothing)
    assert str(refused.value) == f"Telegram refused WEBHOOK_URL {REFUSED_URL}: {REFUSAL}"
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


async def test_telegram_out_of_reach_is_tried_again(
        bot_api: FakeTelegramServer, database: str,  # noqa: F811
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    bot_api.fail_next("setWebhook", error_code=502, description="Bad Gateway")
    port = free_port()
    http = HttpSettings("https://fleet.example/hook", SECRET, "127.0.0.1", port)
    config = BotConfig(bot_api.token, api_base_url=bot_api.api_root)
    stopping = asyncio.Event()
    async with receiving(config, http, FleetSettings(database, 4), stopping=stopping):
        for _ in range(100):
            if "webhook registered" in caplog.text:
                break
            await asyncio.sleep(0.05)
        assert await ready(port) == 200
    assert not stopping.is_set()
    assert [r.getMessage() for r in caplog.records if r.name == "bot.fleet.receiver"
            and "setWebhook" in r.getMessage()] == [
        "setWebhook failed (Bad Gateway): trying again in 1 s (attempt 1)"]


async def test_a_token_telegram_rejects_stops_the_receiver(
        bot_api: FakeTelegramServer, database: str,  # noqa: F811
) -> None:
    port = free_port()
    http = HttpSettings("https://fleet.example/hook", SECRET, "127.0.0.1", port)
    config = BotConfig("7000000002:AAAnotherTokenTelegramDoesNotKnow0001",
                       api_base_url=bot_api.api_root)
    stopping = asyncio.Event()
    with pytest.raises(ConfigError) as refused:
        async with receiving(config, http, FleetSettings(database, 4), stopping=stopping):
            await asyncio.wait_for(stopping.wait(), 20)
            assert await ready(port) == 503
    assert str(refused.value) == token_rejected(bot_api.api_root)


async def test_python_m_bot_fleet_receiver_with_a_refused_url_exits_2(fleet: Fleet) -> None:
    """As the operator sees it: one CRITICAL line, exit 2 (systemd and Docker do not restart
    a setting to fix), no traceback. (The fleet's tables made first, as its first worker
    makes them: a receiver registers only once the database accepted its FLEET_SHARDS.)"""
    assert fleet.database_url is not None
    storage = Storage(fleet.database_url)
    await storage.open()
    await storage.close()
    fleet.settings["WEBHOOK_URL"] = REFUSED_URL
    receiver = fleet._member("receiver-1", ("-m", "bot.fleet", "receiver"), free_port())
    await receiver.start()
    assert receiver.process is not None
    async with asyncio.timeout(60):
        assert await receiver.process.wait() == 2, receiver.log.read_text()
    text = receiver.log.read_text()
    assert "Traceback" not in text and "ERROR" not in text and "WARNING" not in text, text
    assert [line.split(" ", 2)[2] for line in text.splitlines() if "CRITICAL" in line] == [
        f"CRITICAL bot: Telegram refused WEBHOOK_URL {REFUSED_URL}: {REFUSAL}"]


async def test_a_receiver_whose_port_is_taken_leaves_nothing_running(
        bot_api: FakeTelegramServer) -> None:
    """Its one line (ConfigError), and its database connector cancelled and its pool closed:
    nothing pending for the loop's close to destroy (operator QA: "Task was destroyed but it
    is pending! task: <Task pending name='receiver-pool' ...>")."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        http = HttpSettings("https://fleet.example/hook", SECRET, "127.0.0.1", port)
        config = BotConfig(bot_api.token, api_base_url=bot_api.api_root)
        fleet = FleetSettings(f"postgresql://u@127.0.0.1:{free_port()}/db", 4)
        with pytest.raises(ConfigError, match="address already in use"):
            async with receiving(config, http, fleet):
                pass
    left = [t for t in asyncio.all_tasks() if t.get_name() == "receiver-pool" and not t.done()]
    assert not left


async def test_python_m_bot_fleet_receiver_on_a_taken_port_exits_2_in_one_line(
        fleet: Fleet) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        receiver = fleet._member("receiver-1", ("-m", "bot.fleet", "receiver"),
                                 taken.getsockname()[1])
        await receiver.start()
        assert receiver.process is not None
        async with asyncio.timeout(60):
            assert await receiver.process.wait() == 2
    text = receiver.log.read_text()
    assert [line for line in text.splitlines() if line.strip()] == [
        line for line in text.splitlines() if "CRITICAL" in line], text
    assert "address already in use" in text


async def test_a_receivers_metrics_count_what_it_did(
        bot_api: FakeTelegramServer, database: str) -> None:  # noqa: F811
    """docs/OPERATIONS.md says to scrape every receiver's /metrics (operator QA: all zero
    after hundreds of POSTs and a setWebhook answered): the webhook's answers, the updates
    stored and found stored already, and Telegram's calls."""
    port = free_port()
    http = HttpSettings("https://fleet.example/hook", SECRET, "127.0.0.1", port)
    config = BotConfig(bot_api.token, api_base_url=bot_api.api_root)
    base = f"http://127.0.0.1:{port}"
    update = {"update_id": 1, "message": {
        "message_id": 1, "date": 0, "text": "/newgame",
        "chat": {"id": -1001, "type": "supergroup", "title": "g"},
        "from": {"id": 5, "is_bot": False, "first_name": "A"}}}
    async with receiving(config, http, FleetSettings(database, 4)), \
            aiohttp.ClientSession() as client:
        for _ in range(200):
            if await ready(port) == 200:
                break
            await asyncio.sleep(0.05)
        for secret in (SECRET, SECRET, "wrong"):
            async with client.post(f"{base}/hook", json=update,
                                   headers={"X-Telegram-Bot-Api-Secret-Token": secret}):
                pass
        for _ in range(200):  # (setWebhook runs in the background)
            async with client.get(f"{base}/metrics") as answer:
                text = await answer.text()
            if 'method="setWebhook"' in text:
                break
            await asyncio.sleep(0.05)
    values = {line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1])
              for line in text.splitlines() if line and not line.startswith("#")}
    assert values['domino_webhook_requests_total{status="200"}'] == 2
    assert values['domino_webhook_requests_total{status="403"}'] == 1
    assert values['domino_fleet_updates_stored_total{outcome="new"}'] == 1
    assert values['domino_fleet_updates_stored_total{outcome="duplicate"}'] == 1
    assert values['domino_bot_api_calls_total{method="setWebhook",outcome="ok"}'] == 1
    assert values['domino_bot_api_calls_total{method="getMe",outcome="ok"}'] == 1
    assert values["domino_bot_api_last_ok_timestamp_seconds"] > 0
