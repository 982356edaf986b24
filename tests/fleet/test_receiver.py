"""A receiver on a real PostgreSQL: the secret is checked, a second delivery of an update is
stored once, a private tap is routed to its game's group, and while the database is down the
answer is 503 (Telegram retries) until it is back, without a restart of the receiver."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import asyncpg
import pytest
from fleet_pg import database  # noqa: F401  (a fixture)

from bot.config import BotConfig
from bot.fleet.receiver import receiving
from bot.fleet.routing import shard_of
from bot.fleet.secretprint import SECRET_PRINT
from bot.fleet.settings import FleetSettings
from bot.gamemessages import Messages
from bot.models import Game, Player, SeatChange, Status
from bot.presentation.tilebuttons import Lay
from bot.serving.webserver import SECRET_HEADER, HttpSettings
from bot.storage import Storage
from engine import Tile
from testservers import PostgresServer, free_port
from testservers.corruption import damage_index
from testservers.fulldisk import CAUSE, FullDisk

SECRET = "fleet_secret-1"
SHARDS = 16
TOKEN = "123456:" + "A" * 35



class Hook:
    def __init__(self, client: aiohttp.ClientSession, port: int) -> None:
        self.client = client
        self.base = f"http://127.0.0.1:{port}"

    async def post(self, update: dict[str, Any], secret: str = SECRET) -> int:
        async with self.client.post(f"{self.base}/hook", json=update,
                                    headers={SECRET_HEADER: secret}) as answer:
            return answer.status

    async def ready(self) -> int:
        async with self.client.get(f"{self.base}/healthz/ready") as answer:
            return answer.status


@pytest.fixture
async def hook(database: str) -> AsyncIterator[Hook]:  # noqa: F811
    port = free_port()
    http = HttpSettings("https://fleet.example/hook", SECRET, "127.0.0.1", port)
    fleet = FleetSettings(database, SHARDS)
    async with receiving(BotConfig(TOKEN), http, fleet, register=False), \
            aiohttp.ClientSession() as client:
        hook = Hook(client, port)
        for _ in range(100):  # the pool connects in the background
            if await hook.ready() == 200:
                break
            await asyncio.sleep(0.05)
        for _ in range(100):  # ... and agrees with the database last on the webhook's secret
            if await secret_recorded(database):  # (CI: a test's server restart met it)
                break
            await asyncio.sleep(0.05)
        yield hook


async def secret_recorded(url: str) -> bool:
    """Whether a receiver has recorded the fleet's webhook secret (the end of its start's
    agreement with the database)."""
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval("SELECT count(*) FROM fleet_meta WHERE name = $1",
                                   SECRET_PRINT) == 1
    finally:
        await conn.close()


def group_message(update_id: int, chat: int = -1001, user: int = 5) -> dict[str, Any]:
    return {"update_id": update_id, "message": {
        "message_id": update_id, "date": 0, "text": "/newgame",
        "chat": {"id": chat, "type": "supergroup", "title": "g"},
        "from": {"id": user, "is_bot": False, "first_name": "A"}}}


async def stored(url: str) -> list[tuple[int, int, int]]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT update_id, shard, route_key FROM fleet_updates"
                                " ORDER BY update_id")
    finally:
        await conn.close()
    return [(r["update_id"], r["shard"], r["route_key"]) for r in rows]


async def test_the_secret_is_checked(hook: Hook, database: str,  # noqa: F811
                                     caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="bot.serving.webserver"):
        for _ in range(20):  # a scanner: one line, not one a request (operator QA)
            assert await hook.post(group_message(1), secret="wrong") == 403
        assert await hook.post(group_message(1), secret="") == 403
    assert [r.getMessage() for r in caplog.records if r.name == "bot.serving.webserver"] == [
        "webhook requests without the right secret token: 1 since the last such line (the "
        "latest from 127.0.0.1)"]
    assert await stored(database) == []
    assert await hook.post(group_message(1)) == 200
    assert await stored(database) == [(1, shard_of(-1001, SHARDS), -1001)]


async def test_a_second_delivery_is_stored_once(hook: Hook, database: str) -> None:  # noqa: F811
    assert await hook.post(group_message(7)) == 200
    assert await hook.post(group_message(7)) == 200  # Telegram did not see the first answer
    results = await asyncio.gather(*(hook.post(group_message(8)) for _ in range(5)))
    assert results == [200] * 5
    assert [row[0] for row in await stored(database)] == [7, 8]


async def test_a_private_tap_keeps_its_groups_order(hook: Hook, database: str) -> None:  # noqa: F811
    storage = Storage(database)
    await storage.open()
    try:
        game_id = await storage.insert_game(
            Game(0, -1005, Status.LOBBY, "gaple", {}, 1, [Player(1, "Ayu")], None, 0, "en",
                 Messages()), 0.0)
    finally:
        await storage.close()
    tap = {"update_id": 20, "callback_query": {
        "id": "q1", "chat_instance": "c", "data": Lay(game_id, 3, Tile(1, 2), None).encode(),
        "from": {"id": 42, "is_bot": False, "first_name": "B"},
        "message": {"message_id": 9, "date": 0, "chat": {"id": 42, "type": "private"}}}}
    assert await hook.post(tap) == 200
    assert await stored(database) == [(20, shard_of(-1005, SHARDS), -1005)]


async def test_503_while_the_database_is_down_then_200(
        hook: Hook, database: str, postgres: PostgresServer,  # noqa: F811
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    assert await hook.post(group_message(30)) == 200
    postgres.halt()  # as a crash would
    try:
        assert await hook.post(group_message(31)) == 503
        assert await hook.ready() == 503
        await asyncio.sleep(1.5)  # asyncpg's pool tries to reconnect its minimum meanwhile
    finally:
        postgres.start()
    for _ in range(100):  # the pool connects again by itself
        if await hook.post(group_message(31)) == 200:
            break
        await asyncio.sleep(0.1)
    assert await hook.ready() == 200
    assert [row[0] for row in await stored(database)] == [30, 31]
    noisy = [r for r in caplog.records if r.name.startswith("asyncpg")
             and (r.levelno >= logging.WARNING or r.exc_info)]
    assert not noisy, [r.getMessage() for r in noisy]  # the outage is the receiver's lines


async def test_503_while_the_servers_disk_is_full_in_one_line_then_200(
        hook: Hook, database: str, caplog: pytest.LogCaptureFixture) -> None:  # noqa: F811
    """A full disk (SQLSTATE 53100) is said as the storage says it, naming what to do (it was
    PostgreSQL's words alone, with its hint on a line of its own)."""
    caplog.set_level(logging.INFO, logger="bot.fleet.receiver")
    disk = FullDisk(database)
    await disk.install()
    await disk.fill()
    for update_id in (40, 41):
        assert await hook.post(group_message(update_id)) == 503
    await disk.fill(False)
    assert await hook.post(group_message(41)) == 200
    assert [row[0] for row in await stored(database)] == [41]
    assert [(r.levelname, r.getMessage()) for r in caplog.records
            if r.name == "bot.fleet.receiver"] == [
        ("WARNING", f"cannot store updates ({CAUSE}): answering 503 until the database is "
                    "back"),
        ("INFO", "storing updates again")]


async def test_503_while_the_queues_index_is_damaged_in_one_line_then_200_reindexed(
        hook: Hook, database: str, postgres: PostgresServer,  # noqa: F811
        caplog: pytest.LogCaptureFixture) -> None:
    """A damaged index (SQLSTATE XX002, damaged on disk for real) is said as the storage says
    it, naming the index to rebuild (it was the server's words alone, its hint on a line of
    its own); once rebuilt, updates are stored again."""
    caplog.set_level(logging.INFO, logger="bot.fleet.receiver")
    await damage_index(postgres, database, "fleet_updates_pkey")
    for _ in range(100):  # the pool connects again after the server's restart
        if await hook.ready() == 200:
            break
        await asyncio.sleep(0.05)
    for update_id in (50, 51):
        assert await hook.post(group_message(update_id)) == 503
    conn = await asyncpg.connect(database)
    try:
        await conn.execute("REINDEX INDEX fleet_updates_pkey")
    finally:
        await conn.close()
    assert await hook.post(group_message(51)) == 200
    assert [row[0] for row in await stored(database)] == [51]
    assert [(r.levelname, r.getMessage()) for r in caplog.records
            if r.name == "bot.fleet.receiver"] == [
        ("WARNING", 'cannot store updates (index "fleet_updates_pkey" contains unexpected zero '
                    "page at block 0 (an index on the PostgreSQL server is damaged: REINDEX "
                    "INDEX fleet_updates_pkey, see docs/OPERATIONS.md)): answering 503 until "
                    "the database is back"),
        ("INFO", "storing updates again")]


async def test_a_garbled_update_is_refused(hook: Hook) -> None:
    assert await hook.post({"no": "id"}) == 400
    body = json.dumps([1, 2])
    async with hook.client.post(f"{hook.base}/hook", data=body,
                                headers={SECRET_HEADER: SECRET}) as answer:
        assert answer.status == 400


async def test_a_player_handed_on_while_away_goes_to_the_matchs_group(
        hook: Hook, database: str) -> None:  # noqa: F811
    """Seated nowhere, his seat handed to a computer while he was away: his private /start
    and text go by the match's group, to the worker that holds it and offers the way back
    (review: they went by his own id, to a worker that may not hold it)."""
    budi = Player(42, "Budi")
    game = Game(0, -1006, Status.PLAYING, "gaple", {}, 1,
                [Player(1, "Ayu"), Player(-201, "🤖 Rio", "normal")], None, 0, "en",
                Messages(), seat_changes=[SeatChange(1, 0, 3, budi, away=True)])
    storage = Storage(database)
    await storage.open()
    try:
        game.game_id = await storage.insert_game(game, 0.0)
        await storage.save_seats(game, [], 0.0)
    finally:
        await storage.close()
    for update_id, text in ((30, "/start"), (31, "hello?")):
        assert await hook.post({"update_id": update_id, "message": {
            "message_id": update_id, "date": 0, "text": text,
            "chat": {"id": 42, "type": "private"},
            "from": {"id": 42, "is_bot": False, "first_name": "Budi"}}}) == 200
    assert await stored(database) == [(30, shard_of(-1006, SHARDS), -1006),
                                      (31, shard_of(-1006, SHARDS), -1006)]
