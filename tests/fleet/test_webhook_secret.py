"""The fleet's WEBHOOK_SECRET, agreed through the database (:mod:`bot.fleet.secretprint`):
the first receiver records its fingerprint (never the secret), a receiver with another
secret is refused before it calls setWebhook (one line, exit 2: otherwise Telegram sends its
secret and every good receiver answers 403), ``--rotate-webhook-secret`` changes it on
purpose, and a receiver still on the old secret says so while running and is refused, the
rotation named, when started again."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest
from fleet_pg import database  # noqa: F401  (a fixture)

from bot.config import BotConfig
from bot.errors import ConfigError
from bot.fleet import secretprint
from bot.fleet.receiver import receiving
from bot.fleet.secretprint import SECRET_PRINT, SecretWatch, agree_secret, matches, refusal
from bot.fleet.settings import FleetSettings
from bot.serving.webserver import HttpSettings
from bot.storage import Storage
from bot.storage.postgres import PostgresEngine
from fakeapi import FakeTelegramServer
from testservers import free_port
from testservers.fleet import SECRET, Fleet, Member

OTHER = "typo_secret_other-7"  # (another receiver's WEBHOOK_SECRET)
HOOK = "https://fleet.example/hook"


def set_webhooks(server: FakeTelegramServer) -> list[str]:
    """The secrets setWebhook registered, in order."""
    return [str(r.params.get("secret_token")) for r in server.requests
            if r.method == "setWebhook" and r.ok]


async def fleet_meta(url: str) -> dict[str, str]:
    conn = await asyncpg.connect(url)
    try:
        return {r["name"]: r["value"] for r in await conn.fetch("SELECT * FROM fleet_meta")}
    finally:
        await conn.close()


@pytest.fixture
async def pool(database: str) -> AsyncIterator[Any]:  # noqa: F811
    made = await asyncpg.create_pool(database, min_size=1, max_size=2)
    try:
        yield made
    finally:
        await made.close()


async def until(test: Any, timeout: float = 20.0) -> None:
    async with asyncio.timeout(timeout):
        while not test():
            await asyncio.sleep(0.05)


async def registered(server: FakeTelegramServer, count: int) -> None:
    await until(lambda: len(set_webhooks(server)) == count)


def settings(secret: str) -> HttpSettings:
    return HttpSettings(HOOK, secret, "127.0.0.1", free_port())


# --- in the receiver ----------------------------------------------------------------------
async def test_the_first_receiver_records_a_fingerprint_and_the_same_secret_passes(
        bot_api: FakeTelegramServer, database: str) -> None:  # noqa: F811
    config = BotConfig(bot_api.token, api_base_url=bot_api.api_root)
    for number in (1, 2):  # the first records it, the second agrees
        async with receiving(config, settings(SECRET), FleetSettings(database, 4)):
            await registered(bot_api, number)
    stored = (await fleet_meta(database))[SECRET_PRINT]
    assert stored.startswith("scrypt$") and SECRET not in stored
    assert matches(SECRET, stored) and not matches(OTHER, stored)
    assert set_webhooks(bot_api) == [SECRET, SECRET]


async def test_a_receiver_with_another_secret_is_refused_before_set_webhook(
        bot_api: FakeTelegramServer, database: str, pool: Any) -> None:  # noqa: F811
    await agree_secret(pool, "x", SECRET)  # (the fleet's first receiver)
    stopping = asyncio.Event()
    config = BotConfig(bot_api.token, api_base_url=bot_api.api_root)
    with pytest.raises(ConfigError) as refused:
        async with receiving(config, settings(OTHER), FleetSettings(database, 4),
                             stopping=stopping):
            await asyncio.wait_for(stopping.wait(), 20)
            await asyncio.sleep(1.0)  # (time enough for a getMe and a setWebhook)
    assert str(refused.value) == str(refusal(PostgresEngine(database).name, None))
    assert [r.method for r in bot_api.requests] == []


async def test_a_rotation_registers_the_new_secret_and_the_old_one_is_refused(
        bot_api: FakeTelegramServer, database: str, pool: Any,  # noqa: F811
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """A receiver still running on the old secret says so once (a WARNING), and one started
    with it afterwards is refused, the rotation named."""
    monkeypatch.setattr(secretprint, "WATCH_EVERY", 0.1)
    caplog.set_level(logging.INFO)
    config = BotConfig(bot_api.token, api_base_url=bot_api.api_root)
    async with receiving(config, settings(SECRET), FleetSettings(database, 4)):
        await until(lambda: set_webhooks(bot_api) == [SECRET])
        async with receiving(config, settings(OTHER), FleetSettings(database, 4, "rotator"),
                             rotate_secret=True):
            await until(lambda: set_webhooks(bot_api) == [SECRET, OTHER])
            await until(lambda: "was rotated" in caplog.text)
            await asyncio.sleep(0.5)  # (a few more looks: told once)
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1, warnings
    assert warnings[0].startswith("the fleet's WEBHOOK_SECRET was rotated at ")
    assert warnings[0].endswith(" by rotator: Telegram now sends the new one, which this "
                                "receiver refuses (403): restart it with the fleet's new "
                                "WEBHOOK_SECRET")
    with pytest.raises(ConfigError) as refused:
        await agree_secret(pool, "db", SECRET)  # the old receiver, started again
    assert str(refused.value).startswith("WEBHOOK_SECRET is not the fleet's: the fleet's was "
                                         "rotated at ")
    assert " by rotator (the database db records the new one): " in str(refused.value)
    assert OTHER not in caplog.text and SECRET not in caplog.text


async def test_the_watch_tells_a_change_once(pool: Any, caplog: pytest.LogCaptureFixture
                                             ) -> None:
    agreed = await agree_secret(pool, "db", SECRET)
    watch = SecretWatch(agreed)
    await watch.check(pool)
    assert not [r for r in caplog.records if r.levelno == logging.WARNING]
    await agree_secret(pool, "db", OTHER, rotate=True, name="r-2")
    await watch.check(pool)
    await watch.check(pool)
    assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == 1


@pytest.mark.parametrize("stored", [
    "junk", "bcrypt$16384$8$1$00$00", "scrypt$x$8$1$00$00", "scrypt$16384$8$1$zz$00",
    "scrypt$99999999999999999999999$8$1$00$00", "scrypt$1099511627776$8$1$00$00"])
def test_a_fingerprint_this_version_cannot_read_is_another_secrets(stored: str) -> None:
    """(Refused in the one line, not a traceback.)"""
    assert not matches(SECRET, stored)


# --- as the operator sees it --------------------------------------------------------------
def receiver(fleet: Fleet, name: str, secret: str, *flags: str) -> Member:
    port = free_port()
    env = fleet.env(name, WEBHOOK_SECRET=secret, HTTP_HOST="127.0.0.1", HTTP_PORT=str(port))
    member = Member(name, ("-m", "bot.fleet", "receiver", *flags), env,
                    fleet.folder / f"{name}.log", port)
    fleet.members[name] = member
    return member


async def refused_line(member: Member) -> str:
    """``member`` exits 2 with one CRITICAL line and no traceback: that line's message."""
    return (await member.refused())[0]


async def test_python_m_bot_fleet_receiver_with_another_secret_then_a_rotation(
        fleet: Fleet) -> None:
    assert fleet.database_url is not None
    storage = Storage(fleet.database_url)  # the fleet's tables, as its first worker makes them
    await storage.open()
    await storage.close()
    where = PostgresEngine(fleet.database_url).name
    first = receiver(fleet, "receiver-1", SECRET)
    await first.start()
    await until(lambda: set_webhooks(fleet.server) == [SECRET], 60)
    # Another secret: refused before its setWebhook; the fleet's webhook stays as it was.
    assert await refused_line(receiver(fleet, "receiver-2", OTHER)) == str(refusal(where, None))
    assert set_webhooks(fleet.server) == [SECRET]
    # The rotation: the new secret registered; the old one refused at a restart, named.
    rotating = receiver(fleet, "receiver-3", OTHER, "--rotate-webhook-secret")
    await rotating.start()
    await until(lambda: set_webhooks(fleet.server) == [SECRET, OTHER], 60)
    await first.stop()
    line = await refused_line(receiver(fleet, "receiver-1b", SECRET))
    assert line.startswith("WEBHOOK_SECRET is not the fleet's: the fleet's was rotated at ")
    assert f" by receiver-3 (the database {where} records the new one): start this receiver " \
           "with the fleet's WEBHOOK_SECRET, or rotate it deliberately (--rotate-webhook-" \
           "secret, then restart every other receiver with the new one)" in line
    assert set_webhooks(fleet.server) == [SECRET, OTHER]
    stored = (await fleet_meta(fleet.database_url))[SECRET_PRINT]
    digest = stored.rsplit("$", 1)[1]
    for member in fleet.members.values():
        text = member.log.read_text()
        assert SECRET not in text and OTHER not in text and digest not in text, text
