"""One bot a database (:mod:`bot.storage.owner`), on a real PostgreSQL: a second bot's worker
or single bot started on a fleet's database is refused in one line naming both bots (exit 2)
and never joins the fleet; the first bot to start records itself, an existing database adopts
it, and the receivers' check (:func:`~bot.storage.owner.agree_bot_on`) says the same."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
import pytest

from bot.errors import ConfigError
from bot.storage import Storage
from bot.storage.owner import BOT_ID, BOT_USERNAME, agree_bot, agree_bot_on, bot_id_of
from bot.storage.postgres import PostgresEngine
from fakeapi import FakeTelegramServer
from testservers.fleet import Fleet, Member

SECRET_PART = "AAOtherBotsSecretTokenPart000000000"
OTHER_TOKEN = f"7000000002:{SECRET_PART}"


def refusal(where: str) -> str:
    return (f"the database {where} belongs to bot 7000000001 (@domino_test_bot), not this "
            "one (7000000002): give each bot its own database")


@pytest.fixture
async def other_api() -> AsyncIterator[FakeTelegramServer]:
    """Bot B's Telegram: another token (id 7000000002), another username."""
    async with FakeTelegramServer(token=OTHER_TOKEN, bot_username="other_bot") as server:
        yield server


async def meta(url: str) -> dict[str, str]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT name, value FROM fleet_meta")
    finally:
        await conn.close()
    return {row["name"]: row["value"] for row in rows}


def other_bot(fleet: Fleet, api: FakeTelegramServer, name: str, argv: tuple[str, ...]
              ) -> Member:
    env = fleet.env(name, TELEGRAM_BOT_TOKEN=api.token, TELEGRAM_API_BASE_URL=api.api_root)
    env.pop("WEBHOOK_URL", None)  # (the single bot polls its own fake server)
    member = Member(name, argv, env, fleet.folder / f"{name}.log")
    fleet.members[name] = member
    return member


async def refused(member: Member, where: str) -> str:
    line, text = await member.refused()
    assert line.endswith(refusal(where)) and "ERROR" not in text, text
    assert SECRET_PART not in text
    return text


async def test_a_second_bots_worker_and_single_bot_are_refused(
        fleet: Fleet, other_api: FakeTelegramServer) -> None:
    assert fleet.database_url is not None
    where = PostgresEngine(fleet.database_url).name
    await fleet.add_worker("worker-a")
    await fleet.wait_workers(1)
    for _ in range(100):  # the worker records its bot as it starts
        if BOT_ID in await meta(fleet.database_url):
            break
        await asyncio.sleep(0.1)
    assert (await meta(fleet.database_url))[BOT_ID] == "7000000001"
    # B's worker shares the fleet's claim, then finds the database A's: it never counts as
    # live, takes no shard, plays nothing
    worker = other_bot(fleet, other_api, "worker-b", ("-m", "bot.fleet", "worker"))
    text = await refused(worker, where)
    assert "workers live" not in text and "took" not in text, text
    # B's single bot is kept out by the fleet's claim: the cause told is the owner
    await refused(other_bot(fleet, other_api, "single-b", ("-m", "bot")), where)
    assert await fleet.live_workers() == 1
    a_log = fleet.members["worker-a"].log.read_text()
    assert "2 workers live" not in a_log, a_log
    stored = await meta(fleet.database_url)
    assert stored[BOT_ID] == "7000000001" and stored[BOT_USERNAME] == "domino_test_bot"
    assert all(SECRET_PART not in value and ":" not in value for value in stored.values())
    # B asked Telegram who it is, and nothing more: no game of A's was touched with its token
    assert {r.method for r in other_api.requests} == {"getMe"}, other_api.requests


async def test_the_first_bot_is_recorded_and_another_refused_on_either_engine(
        database: Path | str) -> None:
    """Both engines (SQLite's file too: two tokens may take turns on one file): an existing
    database without the row adopts the first bot; the owner's restart, or a new token of the
    same bot (same id), is welcome; another bot is refused."""
    storage = Storage(database)
    await storage.open()
    try:
        await agree_bot(storage, bot_id_of("7000000001:AAsecret"), "domino_test_bot")
        await agree_bot(storage, "7000000001", "domino_test_bot")  # its restart
        await agree_bot(storage, bot_id_of("7000000001:AAnewSecretAfterRevoke"), "renamed_bot")
        with pytest.raises(ConfigError) as error:
            await agree_bot(storage, bot_id_of(OTHER_TOKEN), "other_bot")
        assert str(error.value) == (
            f"the database {storage.engine.name} belongs to bot 7000000001 (@renamed_bot), "
            "not this one (7000000002): give each bot its own database")
        rows = await storage.fetch_all("SELECT name, value FROM fleet_meta ORDER BY name")
        assert [(r["name"], r["value"]) for r in rows] == [
            (BOT_ID, "7000000001"), (BOT_USERNAME, "renamed_bot")]
    finally:
        await storage.close()


async def test_the_receivers_check_says_the_same(postgres_url: str) -> None:
    storage = Storage(postgres_url)
    await storage.open()
    await storage.close()
    where = PostgresEngine(postgres_url).name
    conn = await asyncpg.connect(postgres_url)
    try:
        await agree_bot_on(conn, where, "7000000001")  # a receiver first: it records its bot
        await conn.execute("INSERT INTO fleet_meta VALUES ('bot_username', 'domino_test_bot')")
        with pytest.raises(ConfigError, match=f"^{refusal(where)}$".replace("(", r"\(")
                           .replace(")", r"\)")):
            await agree_bot_on(conn, where, "7000000002")
    finally:
        await conn.close()
