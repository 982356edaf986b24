"""What an operator relies on, on a real PostgreSQL: every process of a fleet uses the
database's ``FLEET_SHARDS`` (a receiver with another number refuses to start, as a worker
does, and a receiver that comes first records its own), a database that refuses them stops
both (exit 1, one line), and ``pg_stat_activity`` says which worker or receiver holds each
connection (``application_name``: ``<kind>/<WORKER_NAME>``)."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import asyncpg
import pytest
from fleet_pg import database  # noqa: F401  (a fixture)

from bot.config import BotConfig
from bot.errors import ConfigError
from bot.fleet.receiver import receiving
from bot.fleet.settings import FleetSettings, application_name
from bot.serving.webserver import SECRET_HEADER, HttpSettings
from bot.storage import Storage
from bot.storage import fleet as sql
from fakeapi import FakeTelegramServer
from testservers import free_port
from testservers.fleet import SECRET, Fleet

TOKEN = "123456:" + "A" * 35
#: docs/OPERATIONS.md's query: the live workers, by name, and how many shards each holds.
WHO_HOLDS_WHAT = """
    SELECT a.application_name, count(l.*) AS shards
      FROM pg_stat_activity a LEFT JOIN pg_locks l
        ON l.pid = a.pid AND l.locktype = 'advisory' AND l.granted
     WHERE a.application_name LIKE 'domino-fleet%' AND a.datname = current_database()
     GROUP BY a.application_name ORDER BY a.application_name"""
REFUSAL = ("FLEET_SHARDS is 8 here but 16 in the database: every process of a fleet must use "
           "the same number")



def group_message(update_id: int) -> dict[str, Any]:
    return {"update_id": update_id, "message": {
        "message_id": update_id, "date": 0, "text": "/newgame",
        "chat": {"id": -1001, "type": "supergroup", "title": "g"},
        "from": {"id": 5, "is_bot": False, "first_name": "A"}}}


async def query(url: str, sql_text: str) -> list[Any]:
    conn = await asyncpg.connect(url)
    try:
        return list(await conn.fetch(sql_text))
    finally:
        await conn.close()


async def record_shards(url: str, shards: int) -> None:
    """What the first worker does at its start (the same function)."""
    conn = await asyncpg.connect(url)
    try:
        await sql.agree_shards(conn, shards)
    finally:
        await conn.close()


async def wait_for(test: Any, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await test():
        assert loop.time() < deadline, "never happened"
        await asyncio.sleep(0.05)


def test_application_name_is_sanitised_and_cut() -> None:
    assert application_name("domino-fleet", "worker-1") == "domino-fleet/worker-1"
    assert application_name("domino-bot", "höst 7/é%x") == "domino-bot/h_st_7___x"
    long = application_name("domino-receiver", "n" * 60)
    assert len(long.encode()) == 63 and long.startswith("domino-receiver/nnn")
    assert application_name("domino-listen", "") == "domino-listen/_"


# --- FLEET_SHARDS, agreed -------------------------------------------------------------------
async def test_a_receiver_with_another_shard_count_refuses(database: str) -> None:  # noqa: F811
    await record_shards(database, 16)
    port = free_port()
    http = HttpSettings("https://fleet.example/hook", SECRET, "127.0.0.1", port)
    stopping = asyncio.Event()
    with pytest.raises(ConfigError) as refused:
        async with receiving(BotConfig(TOKEN), http, FleetSettings(database, 8),
                             register=False, stopping=stopping), \
                aiohttp.ClientSession() as client:
            async with asyncio.timeout(10):
                await stopping.wait()  # told as soon as its pool is made
            async with client.post(f"http://127.0.0.1:{port}/hook", json=group_message(1),
                                   headers={SECRET_HEADER: SECRET}) as answer:
                assert answer.status == 503  # nothing filed under a shard nobody reads
            async with client.get(f"http://127.0.0.1:{port}/healthz/ready") as answer:
                assert answer.status == 503
    assert str(refused.value) == REFUSAL
    assert await query(database, "SELECT * FROM fleet_updates") == []


async def test_a_receiver_that_comes_first_records_its_count(database: str) -> None:  # noqa: F811
    port = free_port()
    http = HttpSettings("https://fleet.example/hook", SECRET, "127.0.0.1", port)
    async with receiving(BotConfig(TOKEN), http, FleetSettings(database, 8), register=False), \
            aiohttp.ClientSession() as client:
        async def stored() -> bool:
            async with client.post(f"http://127.0.0.1:{port}/hook", json=group_message(1),
                                   headers={SECRET_HEADER: SECRET}) as answer:
                return answer.status == 200
        await wait_for(stored)
    rows = await query(database, "SELECT value FROM fleet_meta WHERE name='shards'")
    assert [r["value"] for r in rows] == ["8"]
    with pytest.raises(ConfigError, match="FLEET_SHARDS is 16 here but 8 in the database"):
        await record_shards(database, 16)  # a worker started later with another number


async def refused_at_start(fleet: Fleet, code: int, line_end: str) -> list[str]:
    """A receiver and a worker started against ``fleet``'s database: each exits ``code``
    with one CRITICAL line ending in ``line_end``, no traceback, no ERROR and no secret;
    their logs."""
    receiver = fleet._member("receiver-1", ("-m", "bot.fleet", "receiver"), free_port())
    worker = fleet._member("worker-1", ("-m", "bot.fleet", "worker"), None)
    await asyncio.gather(receiver.start(), worker.start())
    texts = []
    for member in (receiver, worker):
        assert member.process is not None
        async with asyncio.timeout(60):
            assert await member.process.wait() == code, member.log.read_text()
        text = member.log.read_text()
        critical = [line for line in text.splitlines() if "CRITICAL" in line]
        assert len(critical) == 1 and critical[0].endswith(line_end), text
        assert "Traceback" not in text and "ERROR" not in text, text
        assert SECRET not in text
        texts.append(text)
    return texts


async def test_a_receiver_and_a_worker_with_another_count_exit_2(fleet: Fleet) -> None:
    """As the operator sees it: one line each, the same one, exit 2, no traceback, no secret."""
    password = "Sekr3tPassw0rd"  # PostgreSQL trusts the test's connections: any password does
    assert fleet.database_url is not None
    storage = Storage(fleet.database_url)  # the fleet's tables, as the first worker makes them
    await storage.open()
    await storage.close()
    await record_shards(fleet.database_url, 16)
    fleet.database_url = fleet.database_url.replace("postgres@", f"postgres:{password}@")
    fleet.settings["FLEET_SHARDS"] = "8"
    for text in await refused_at_start(fleet, 2, REFUSAL):
        assert password not in text
    rows = await query(fleet.database_url, "SELECT value FROM fleet_meta WHERE name='shards'")
    assert [r["value"] for r in rows] == ["16"]
    # Telegram still posts to the fleet, with its secret (operator QA: the refused receiver's
    # setWebhook had gone out first, and the good receivers refused every update, 403).
    assert "setWebhook" not in webhook_calls(fleet.server)


def webhook_calls(server: FakeTelegramServer) -> list[str]:
    return [r.method for r in server.requests if r.method in ("getMe", "setWebhook")]


async def test_a_refused_receiver_never_registers_the_webhook(
        bot_api: FakeTelegramServer, database: str) -> None:  # noqa: F811
    """setWebhook waits for the database's word on FLEET_SHARDS: a receiver refused keeps the
    fleet's webhook and secret as they were, even while it is still being stopped."""
    await record_shards(database, 16)
    http = HttpSettings("https://fleet.example/hook", "typo_secret_other", "127.0.0.1",
                        free_port())
    stopping = asyncio.Event()
    with pytest.raises(ConfigError, match="FLEET_SHARDS is 8 here but 16"):
        async with receiving(BotConfig(bot_api.token, api_base_url=bot_api.api_root), http,
                             FleetSettings(database, 8), stopping=stopping):
            async with asyncio.timeout(10):
                await stopping.wait()
            await asyncio.sleep(1.0)  # (time enough for a getMe and a setWebhook)
    assert webhook_calls(bot_api) == []


async def test_a_refused_receiver_held_by_on_config_error_wait_registers_nothing(
        fleet: Fleet) -> None:
    """The operator QA's case as it was run: `python -m bot.fleet receiver` with a mistyped
    WEBHOOK_SECRET and another FLEET_SHARDS, kept alive by ON_CONFIG_ERROR=wait; before the
    fix its getMe and setWebhook went out beside the refusal."""
    assert fleet.database_url is not None
    storage = Storage(fleet.database_url)
    await storage.open()
    await storage.close()
    await record_shards(fleet.database_url, 16)
    fleet.settings.update({"FLEET_SHARDS": "8", "ON_CONFIG_ERROR": "wait",
                           "WEBHOOK_SECRET": "typo_secret_other"})
    receiver = fleet._member("receiver-1", ("-m", "bot.fleet", "receiver"), free_port())
    await receiver.start()

    async def refused() -> bool:
        return "ON_CONFIG_ERROR=wait" in receiver.log.read_text()
    await wait_for(refused, 30)
    await asyncio.sleep(1.0)  # (time enough for a getMe and a setWebhook)
    assert receiver.alive and REFUSAL in receiver.log.read_text()
    assert webhook_calls(fleet.server) == []


async def test_a_receiver_started_before_the_fleets_tables_registers_once_they_are_made(
        bot_api: FakeTelegramServer, postgres_url: str) -> None:
    """No worker has migrated the database yet: the receiver cannot check FLEET_SHARDS, so it
    waits to register (updates would only be answered 503), and does once the first worker
    made the tables."""
    http = HttpSettings("https://fleet.example/hook", SECRET, "127.0.0.1", free_port())
    async with receiving(BotConfig(bot_api.token, api_base_url=bot_api.api_root), http,
                         FleetSettings(postgres_url, 8)):
        await asyncio.sleep(1.0)
        assert webhook_calls(bot_api) == []
        storage = Storage(postgres_url)  # the first worker's migrations
        await storage.open()
        await storage.close()

        async def registered() -> bool:
            return webhook_calls(bot_api) == ["getMe", "setWebhook"]
        await wait_for(registered, 20)
    rows = await query(postgres_url, "SELECT value FROM fleet_meta WHERE name='shards'")
    assert [r["value"] for r in rows] == ["8"]


# --- a database that refuses them stops them ------------------------------------------------
async def test_a_receiver_and_a_worker_a_database_refuses_exit_1(fleet: Fleet) -> None:
    """A database that does not exist is a mistake to fix, not an outage to wait out: the
    receiver stops as the worker does (one line each, exit 1), instead of answering 503 while
    Telegram's retries of the webhook run out."""
    password = "Sekr3tPassw0rd"
    assert fleet.database_url is not None
    base, _ = fleet.database_url.rsplit("/", 1)
    fleet.database_url = base.replace("postgres@", f"postgres:{password}@") + "/no_such_db"
    missing = ('/no_such_db: database "no_such_db" does not exist '
               "(create it (createdb), or fix DATABASE_URL)")
    for text in await refused_at_start(fleet, 1, missing):
        assert "WARNING" not in text, text  # not waited for
        assert password not in text
        assert SECRET not in text and password not in text
    assert "setWebhook" not in webhook_calls(fleet.server)


# --- pg_stat_activity names the processes ---------------------------------------------------
async def test_pg_stat_activity_names_each_worker_and_receiver(fleet: Fleet) -> None:
    assert fleet.database_url is not None
    url = fleet.database_url
    await fleet.add_worker("worker-1")
    await fleet.add_worker("worker 2%é")  # (a name PostgreSQL could not show as it is)
    await fleet.wait_workers(2)
    await fleet.add_receiver("receiver-1")
    expected = {"domino-fleet/worker-1", "domino-bot/worker-1", "domino-listen/worker-1",
                "domino-fleet/worker_2__", "domino-bot/worker_2__", "domino-listen/worker_2__",
                "domino-receiver/receiver-1"}
    seen: set[str] = set()

    async def named() -> bool:
        nonlocal seen
        rows = await query(url, "SELECT application_name FROM pg_stat_activity"
                                " WHERE datname = current_database() AND pid <> pg_backend_pid()")
        seen = {r["application_name"] for r in rows}
        return expected <= seen

    try:
        await wait_for(named, timeout=30)
    except AssertionError:
        raise AssertionError(f"seen {sorted(seen)}") from None
    assert seen == expected  # nothing unnamed, nothing named otherwise
    # What docs/OPERATIONS.md has the operator run: each worker's shards, by its name.
    held: dict[str, int] = {}

    async def shared() -> bool:
        nonlocal held
        rows = await query(url, WHO_HOLDS_WHAT)
        held = {r["application_name"]: r["shards"] for r in rows}
        return sorted(held.values()) == [32, 32]

    await wait_for(shared, timeout=30)
    assert set(held) == {"domino-fleet/worker-1", "domino-fleet/worker_2__"}

