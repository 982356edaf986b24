"""The update queue on a real PostgreSQL: stored once, handed over in order per route key,
one at a time per key, and handled once even when two feeders race for the same shard."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import AsyncIterator

import asyncpg
import pytest
from fleet_pg import database  # noqa: F401  (a fixture)

from bot.fleet.feeder import Feeder
from bot.fleet.listener import Listener
from bot.fleet.routing import shard_of
from bot.publishing.ratelimit import FloodLimiter, Limits
from bot.storage import fleet as sql
from bot.storage.fleet import QueuedUpdate

SHARDS = 8


@pytest.fixture
async def pool(database: str) -> AsyncIterator[asyncpg.Pool]:  # noqa: F811
    pool = await asyncpg.create_pool(database, min_size=1, max_size=8)
    try:
        yield pool
    finally:
        await pool.close()


async def put(pool: asyncpg.Pool, update_id: int, key: int) -> bool:
    body = json.dumps({"update_id": update_id, "message": {"chat": {"id": key}}})
    return await sql.insert_update(pool, update_id, shard_of(key, SHARDS), key, body,
                                   time.time())


async def until(condition: object, timeout: float = 10.0) -> None:
    start = time.monotonic()
    while not condition():  # type: ignore[operator]
        assert time.monotonic() - start < timeout, "timed out"
        await asyncio.sleep(0.02)


async def test_an_update_is_stored_once(pool: asyncpg.Pool) -> None:
    assert await put(pool, 10, -1001)
    assert not await put(pool, 10, -1001)  # Telegram's second delivery
    waiting = await sql.waiting_updates(pool, range(SHARDS))
    assert [(u.update_id, u.route_key, u.shard) for u in waiting] == [
        (10, -1001, shard_of(-1001, SHARDS))]
    assert shard_of(-1001, SHARDS) == (-1001 % SHARDS + SHARDS) % SHARDS == 7
    assert await sql.mark_done(pool, 10, time.time())
    assert not await sql.mark_done(pool, 10, time.time())  # once
    assert await sql.waiting_updates(pool, range(SHARDS)) == []


async def test_updates_of_one_key_go_in_order_one_at_a_time(pool: asyncpg.Pool) -> None:
    keys = [-100, -101, -102, 7, 8]
    order: dict[int, list[int]] = {k: [] for k in keys}
    busy: set[int] = set()
    overlapped = []
    side_by_side = 0

    async def handle(row: QueuedUpdate) -> None:
        nonlocal side_by_side
        if row.route_key in busy:
            overlapped.append(row.update_id)
        busy.add(row.route_key)
        side_by_side = max(side_by_side, len(busy))
        await asyncio.sleep(random.uniform(0, 0.01))
        order[row.route_key].append(row.update_id)
        busy.discard(row.route_key)
        await sql.mark_done(pool, row.update_id, time.time())

    feeder = Feeder(pool, handle, poll=0.2)
    feeder.own(range(SHARDS))
    feeder.start()
    try:
        rng = random.Random(5)
        for update_id in range(1, 201):
            await put(pool, update_id, rng.choice(keys))
        await until(lambda: sum(map(len, order.values())) == 200)
    finally:
        await feeder.stop()
    assert not overlapped
    assert side_by_side > 1  # different keys do run side by side
    for ids in order.values():
        assert ids == sorted(ids)
    assert await sql.waiting_updates(pool, range(SHARDS)) == []


async def test_two_feeders_racing_handle_each_update_once(pool: asyncpg.Pool) -> None:
    """Two workers both pulling one shard (a lock connection lost while its worker still
    runs): the fence, the mark in the effect's own transaction, lets one effect through."""
    async with pool.acquire() as conn:
        await conn.execute("CREATE TABLE effects (update_id BIGINT, worker TEXT)")
    refused = 0

    def handler(worker: str):  # type: ignore[no-untyped-def]
        async def handle(row: QueuedUpdate) -> None:
            nonlocal refused
            await asyncio.sleep(random.uniform(0, 0.005))
            async with pool.acquire() as conn, conn.transaction():
                if not await sql.mark_done(conn, row.update_id, time.time()):
                    refused += 1
                    return  # rolled back: another worker already handled it
                await conn.execute("INSERT INTO effects VALUES ($1, $2)", row.update_id, worker)
        return handle

    a, b = Feeder(pool, handler("a"), poll=0.05), Feeder(pool, handler("b"), poll=0.05)
    for feeder in (a, b):
        feeder.own(range(SHARDS))
        feeder.start()
    try:
        for update_id in range(1, 301):
            await put(pool, update_id, -200 - update_id % 3)
            if update_id % 50 == 0:
                await asyncio.sleep(0.05)
        await until(lambda: a.handled + b.handled >= 300)
        await asyncio.sleep(0.3)
    finally:
        await a.stop()
        await b.stop()
    rows = await pool.fetch("SELECT update_id, count(*) AS n, min(worker) AS w FROM effects"
                            " GROUP BY update_id")
    assert sorted(r["update_id"] for r in rows) == list(range(1, 301))
    assert all(r["n"] == 1 for r in rows)
    assert {r["w"] for r in rows} == {"a", "b"}  # both did work: they raced
    assert a.handled + b.handled == 300 + refused


async def test_a_released_shard_is_no_longer_pulled(pool: asyncpg.Pool) -> None:
    handled: list[int] = []
    started = asyncio.Event()
    proceed = asyncio.Event()

    async def handle(row: QueuedUpdate) -> None:
        started.set()
        await proceed.wait()
        handled.append(row.update_id)
        await sql.mark_done(pool, row.update_id, time.time())

    feeder = Feeder(pool, handle, poll=0.05)
    feeder.own(range(SHARDS))
    feeder.start()
    try:
        for update_id in (1, 2, 3):
            await put(pool, update_id, -8)  # shard 0
        await started.wait()
        release = asyncio.create_task(feeder.release({0}))
        await asyncio.sleep(0.1)
        assert not release.done()  # the update in flight finishes first
        proceed.set()
        await release
        await put(pool, 4, -8)
        await put(pool, 5, -9)  # shard 7, still owned
        await until(lambda: 5 in handled)
        await asyncio.sleep(0.2)
    finally:
        await feeder.stop()
    assert handled == [1, 5]
    assert [u.update_id for u in await sql.waiting_updates(pool, [0])] == [2, 3, 4]


async def test_a_flood_wait_reaches_every_worker_for_that_chat_only(pool: asyncpg.Pool,
                                                                    database: str) -> None:  # noqa: F811
    """A 429 in one worker: written to fleet_flood and NOTIFYed; another worker's limiter
    pauses that chat (and no other) until then; a worker starting later reads it."""
    limiter = FloodLimiter(Limits())
    heard: list[str | None] = []

    def on_flood(payload: str | None) -> None:
        heard.append(payload)
        told = None if payload is None else sql.parse_flood(payload)
        if told is not None:
            limiter.hold(told[0], told[1] - time.time())

    listener = Listener(database, {sql.FLOOD_CHANNEL: on_flood})
    listener.start()
    try:
        await until(lambda: None in heard)  # listening
        await sql.flood_wait(pool, -1007, time.time() + 0.6)
        await until(lambda: len(heard) == 2)
        started = time.monotonic()
        await asyncio.wait_for(limiter.ready(-1008), 0.1)  # another chat goes on
        await limiter.ready(-1007)
        assert 0.4 < time.monotonic() - started < 0.9
    finally:
        await listener.stop()
    await sql.flood_wait(pool, -1009, time.time() + 30)
    assert set(await sql.flood_waits(pool, time.time())) == {-1009}  # -1007's is over


def test_each_worker_takes_its_share_of_the_overall_limit() -> None:
    limiter = FloodLimiter(Limits(overall=(30, 1.0)))
    shares = []
    for workers in (1, 2, 3, 4, 7, 40):
        limiter.share_overall(workers)
        shares.append(limiter._overall.count)
    assert shares == [30, 15, 10, 7, 4, 1]  # never more than 30 a second together
