"""The update queue on a real PostgreSQL: stored once, handed over in order per route key,
one at a time per key, and handled once even when two feeders race for the same shard."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import AsyncIterator

import asyncpg
import pytest
from fleet_kit import seated, until
from fleet_pg import database  # noqa: F401  (a fixture)
from telegram.error import BadRequest

from bot.fleet.feeder import Feeder
from bot.fleet.listener import Listener
from bot.fleet.routing import shard_of
from bot.logs import Context, bind
from bot.models import Game, Player, SeatChange, Status
from bot.publishing.delivery import answer_tap
from bot.publishing.floodwindows import Limits
from bot.publishing.ratelimit import FloodLimiter, StoppingError
from bot.storage import Storage, fencing
from bot.storage import fleet as sql
from bot.storage.fleet import QueuedUpdate
from testservers import PostgresServer
from testservers.corruption import damage_table

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


async def test_handled_updates_are_trimmed_by_shard_and_age(pool: asyncpg.Pool) -> None:
    for update_id, key in ((31, -8), (32, -8), (33, -9), (34, -8)):
        await put(pool, update_id, key)  # -8: shard 0; -9: shard 7
    await sql.mark_done(pool, 31, 100.0)
    await sql.mark_done(pool, 32, 300.0)
    await sql.mark_done(pool, 33, 100.0)
    assert await sql.forget_done(pool, [0], 200.0) == 1  # 32 too recent, 33 not this shard's
    left = await pool.fetch("SELECT update_id FROM fleet_updates ORDER BY update_id")
    assert [r["update_id"] for r in left] == [32, 33, 34]  # 34 waits: never trimmed


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


async def test_two_feeders_racing_handle_each_update_once(pool: asyncpg.Pool,
                                                         database: str) -> None:  # noqa: F811
    """Two workers both pulling one shard (a lock connection lost while its worker still
    runs): the fence, the mark in the effect's own transaction, lets one effect through and
    refuses the other (UpdateTakenError, rolled back); the worker's own mark comes after."""
    storage = Storage(database)
    await storage.open()
    refused: list[tuple[str, int]] = []

    def handler(worker: str):  # type: ignore[no-untyped-def]
        async def handle(row: QueuedUpdate) -> None:
            await asyncio.sleep(random.uniform(0, 0.005))
            with fencing.handling(row.update_id) as fence:
                try:  # an effect: a lobby opened in the update's chat
                    await storage.insert_game(seated(row.route_key, 1), time.time())
                except fencing.UpdateTakenError:
                    refused.append((worker, row.update_id))
                assert fence.marked or (worker, row.update_id) in refused
                if not fence.marked:
                    await sql.mark_done(pool, row.update_id, time.time())
        return handle

    a, b = Feeder(pool, handler("a"), poll=0.05), Feeder(pool, handler("b"), poll=0.05)
    try:
        for feeder in (a, b):
            feeder.own(range(SHARDS))
            feeder.start()
        for update_id in range(1, 301):
            await put(pool, update_id, -10_000 - update_id)
            if update_id % 50 == 0:
                await asyncio.sleep(0.05)
        await until(lambda: a.handled + b.handled >= 300 + len(refused) and
                    not a._runners and not b._runners)
        chats = [g.chat_id for g in await storage.open_games()]
    finally:
        await a.stop()
        await b.stop()
        await storage.close()
    assert sorted(chats) == sorted(-10_000 - u for u in range(1, 301))  # each once
    assert a.handled + b.handled == 300 + len(refused)
    assert a.handled and b.handled  # both did work: they raced
    assert refused  # and the fence turned second handlings away
    assert await sql.waiting_updates(pool, range(SHARDS)) == []


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


async def test_a_handler_left_behind_is_told_at_info(
        pool: asyncpg.Pool, caplog: pytest.LogCaptureFixture) -> None:
    """A handler still waiting (for the database, in an outage) when its shard is given back
    is left behind: nothing is lost (its update stays in the queue for the next owner), nor
    is there anything to do, so no WARNING (operator QA: an undocumented one in an outage)."""
    caplog.set_level(logging.INFO)
    started = asyncio.Event()

    async def handle(row: QueuedUpdate) -> None:
        started.set()
        await asyncio.Event().wait()  # (never ends)

    feeder = Feeder(pool, handle, poll=0.05)
    feeder.own(range(SHARDS))
    feeder.start()
    try:
        await put(pool, 1, -8)  # shard 0
        await started.wait()
        assert await feeder.release({0}, grace=0.2) is False
    finally:
        for runner in list(feeder._runners.values()):
            runner.cancel()
        await feeder.stop()
    assert [r.getMessage() for r in caplog.records if r.name == "bot.fleet.feeder"] == [
        "1 handler of shards given back still running after 0 s: left behind (the shards' "
        "next owner handles what they had not finished)"]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    assert [u.update_id for u in await sql.waiting_updates(pool, [0])] == [1]


async def test_a_damaged_queue_is_one_warning_naming_it_and_what_to_do(
        database: str, postgres: PostgresServer,  # noqa: F811
        caplog: pytest.LogCaptureFixture) -> None:
    """The queue's table damaged on disk for real (SQLSTATE XX001): the worker's loop says
    it once, in the storage's words for damaged data (it was the server's words alone, as
    if waiting would cure it), and handles nothing."""
    async with asyncpg.create_pool(database, min_size=1, max_size=2) as pool:
        for update_id in (1, 2):
            await put(pool, update_id, -8)
    path = await damage_table(postgres, database, "fleet_updates")  # (the server restarted)
    handled: list[int] = []

    async def handle(row: QueuedUpdate) -> None:
        handled.append(row.update_id)

    caplog.set_level(logging.DEBUG, logger="bot.fleet.feeder")
    async with asyncpg.create_pool(database, min_size=1, max_size=2) as pool:
        feeder = Feeder(pool, handle, poll=0.05)
        feeder.own(range(SHARDS))
        feeder.start()
        try:
            await until(lambda: len(caplog.records) >= 3)  # tried again, quietly
        finally:
            await feeder.stop()
    line = (f"reading the update queue failed (invalid page in block 0 of relation {path} "
            "(the data on the PostgreSQL server is damaged: restore a backup, see "
            "docs/OPERATIONS.md)): trying again (attempt {})")
    told = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert told[:3] == [("WARNING", line.format(1)), ("DEBUG", line.format(2)),
                        ("DEBUG", line.format(3))]
    assert not any(r.exc_info for r in caplog.records)
    assert handled == []


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


async def test_a_group_given_away_gets_no_more_calls_from_this_worker() -> None:
    """A worker giving a shard away refuses its groups' calls (a sync waiting for a slot
    ends), until the shard comes back."""
    limiter = FloodLimiter(Limits(group=(1, 60.0)))
    waiting = asyncio.create_task(limiter.ready(-5))  # (a slot is free: it goes)
    await waiting
    limiter.hold(-5, 30.0)  # a flood wait: a sync now waits here
    stuck = asyncio.create_task(limiter.ready(-5))
    await asyncio.sleep(0.05)
    assert not stuck.done()
    limiter.refuse([-5])
    with pytest.raises(StoppingError):
        await asyncio.wait_for(stuck, 1.0)
    await asyncio.wait_for(limiter.ready(-6), 0.1)  # other groups go on
    limiter.refuse([-7])
    with pytest.raises(StoppingError):
        await limiter.ready(-7)
    limiter.admit([-5, -7])  # the shard came back
    assert limiter.refused == frozenset()
    await asyncio.wait_for(limiter.ready(-7), 0.1)


async def test_a_larger_share_waits_a_period_and_a_taken_chat_starts_full() -> None:
    """A worker that left sent in its last second, which still counts: the survivors' larger
    share applies a period later. A chat taken over starts with its short window full."""
    limiter = FloodLimiter(Limits(overall=(30, 0.2), private=(3, 0.3)))
    limiter.share_overall(3)
    limiter.share_overall(2)
    assert limiter._overall.count == 10  # not yet
    await asyncio.sleep(0.15)
    limiter.share_overall(2)  # counted again: the raise keeps its time
    assert limiter._overall.count == 10
    await asyncio.sleep(0.15)
    assert limiter._overall.count == 15
    limiter.share_overall(3)  # a worker joined: at once
    assert limiter._overall.count == 10
    limiter.join_overall(3, 0.2)  # this one joining: nothing counted until the others shrank
    sent = asyncio.create_task(limiter.ready(-77))
    await asyncio.sleep(0.1)
    assert not sent.done()
    limiter.share_overall(4)  # another joined meanwhile: a smaller part, not later
    await asyncio.wait_for(sent, 0.15)
    assert limiter._overall.count == 7
    limiter.taken_over(42)
    started = time.monotonic()
    await limiter.ready(42)
    assert time.monotonic() - started > 0.25


async def test_a_taps_answer_goes_once_across_the_fleet(pool: asyncpg.Pool) -> None:
    """Before a tap's answer the update is marked done with the handling's own stamp: the
    same handling's effect and answer (in either order) both find it theirs, while another
    worker's handling of it sends no answer; outside a fleet's handling answers go at once."""
    limiter = FloodLimiter(Limits())
    calls: list[int] = []

    async def call(*args: object, **kwargs: object) -> bool:
        calls.append(1)
        return True

    async def answer() -> object:
        return await limiter.process_request(call, (), {}, "answerCallbackQuery", {}, None)

    async def mark(fence: fencing.UpdateFence) -> bool:
        return await sql.mark_own(pool, fence.update_id, fence.stamp)

    await put(pool, 21, -8)
    await put(pool, 22, -8)
    assert await answer() is True and calls == [1]  # no fence: the single process
    with fencing.handling(21, mark) as first:
        assert await asyncio.create_task(answer()) is True  # (in a task started inside too)
        assert first.marked and calls == [1, 1]
        first.marked = False  # an effect after the answer: the mark is its own
        assert await sql.mark_own(pool, 21, first.stamp)
    with fencing.handling(21, mark) as second:  # the shard's next owner
        assert await answer() is True
        assert not second.marked and calls == [1, 1]  # not answered again
    with fencing.handling(22, mark):
        assert await sql.mark_own(pool, 22, time.time())  # another worker's effect: first
        await answer()
    assert calls == [1, 1]
    assert await sql.waiting_updates(pool, range(SHARDS)) == []


async def test_a_players_private_chat_is_routed_by_their_newest_open_game(
        pool: asyncpg.Pool, database: str) -> None:  # noqa: F811
    storage = Storage(database)
    await storage.open()
    try:
        older, newer = seated(-100, 1), seated(-200, 1)
        newer.players.append(Player(12, "Budi"))
        for game in (older, newer):
            await storage.insert_game(game, time.time())
        other = seated(-300, 1)
        other.players[0] = Player(123, "Sergei")  # 12's digits inside another id
        await storage.insert_game(other, time.time())
    finally:
        await storage.close()
    assert await sql.chat_of_player(pool, 1) == -200
    assert await sql.chat_of_player(pool, 12) == -200
    assert await sql.chat_of_player(pool, 123) == -300
    assert await sql.chat_of_player(pool, 5) is None


async def test_a_player_handed_on_while_away_is_routed_to_that_match(
        pool: asyncpg.Pool, database: str) -> None:  # noqa: F811
    """Seated nowhere, a person whose seat a computer was handed while they were away is
    routed by that match's group, so that the worker holding it offers the way back to their
    /start, /hand or text (review: they went by their own id, to a worker that may not hold
    it); not one who left with /leave, nor one who took the seat back and left, nor once
    the match is over; a table where they sit comes first."""
    budi, rio = Player(12, "Budi"), Player(-201, "🤖 Rio", "normal")

    def handed(chat: int, *changes: SeatChange, status: Status = Status.PLAYING) -> Game:
        game = seated(chat, 1)
        game.status = status
        game.players.append(rio if changes[-1].left == budi else budi)
        game.seat_changes = list(changes)
        return game
    away, left = SeatChange(1, 0, 3, budi, away=True), SeatChange(1, 0, 3, budi)
    storage = Storage(database)
    await storage.open()
    try:
        for game in (handed(-400, away), handed(-500, left),
                     handed(-600, away, SeatChange(1, 0, 5, rio), left),
                     handed(-700, away, status=Status.FINISHED)):
            game.game_id = await storage.insert_game(game, time.time())
            await storage.save_seats(game, [], time.time())  # (its changes)
        assert await sql.chat_of_player(pool, 12) == -400
        assert await sql.chats_of_player(pool, 12) == [-400]
        await storage.insert_game(seated(-800, 12), time.time())  # (a table he sits at)
        assert await sql.chats_of_player(pool, 12) == [-800, -400]
    finally:
        await storage.close()


async def test_a_late_answer_refused_is_one_line_at_info(caplog: pytest.LogCaptureFixture
                                                         ) -> None:
    """A tap answered too late (a slow handling, a takeover) is no error: one INFO line."""

    class Query:
        id = "77"

        def __init__(self, refusal: str) -> None:
            self.refusal = refusal

        async def answer(self, text: str | None = None, url: str | None = None) -> bool:
            raise BadRequest(self.refusal)

    caplog.set_level(logging.INFO, logger="bot.publishing.delivery")
    too_old = "Query is too old and response timeout expired or query id is invalid"
    assert not await answer_tap(Query(too_old), None, None)  # type: ignore[arg-type]
    [record] = caplog.records
    assert (record.levelno, record.exc_info) == (logging.INFO, None)
    caplog.clear()
    assert not await answer_tap(Query("Bad Request: text is too long"),  # type: ignore[arg-type]
                                None, None)
    assert caplog.records[0].levelno == logging.WARNING


async def test_a_private_chat_another_worker_answers_starts_with_one_send() -> None:
    """The person's own commands (their /start's greeting) come from the worker owning their
    private chat's shard: another worker's window for that chat counts one send already."""
    limiter = FloodLimiter(Limits(private=(1, 0.3)))
    limiter.foreign = lambda chat: chat == 42
    await asyncio.wait_for(limiter.ready(43), 0.05)  # this worker's own: free
    started = time.monotonic()
    await limiter.ready(42)
    assert time.monotonic() - started > 0.25


async def test_each_update_starts_with_no_chat_or_game_bound(pool: asyncpg.Pool) -> None:
    """One key's updates run one after the other in one lane: what an update's handling
    bound to its log lines (its chat, the game it changed) is not carried to the next."""
    seen: list[tuple[object, object]] = []

    async def handle(row: QueuedUpdate) -> None:
        record = logging.LogRecord("t", logging.INFO, "", 0, "", None, None)
        Context().filter(record)
        seen.append((record.chat, record.game))  # type: ignore[attr-defined]
        bind(chat=row.route_key, game=row.update_id)
        await sql.mark_done(pool, row.update_id, time.time())

    feeder = Feeder(pool, handle, poll=0.05)
    feeder.own(range(SHARDS))
    for update_id in (41, 42, 43):
        await put(pool, update_id, -1001)
    feeder.start()
    try:
        await until(lambda: len(seen) == 3)
    finally:
        await feeder.stop()
    assert seen == [(None, None)] * 3
