"""Shard ownership on a real PostgreSQL: two keepers split the shards; when one's connection
dies (as a SIGKILLed worker's does) the other takes them all within a couple of seconds."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
from fleet_kit import in_process, seated, until
from fleet_pg import database  # noqa: F401  (a fixture)

from bot.app import running
from bot.fleet.routing import shard_of
from bot.fleet.settings import LIVE_WORKERS, WORKER_KEY
from bot.fleet.shards import ShardKeeper, lock_key
from bot.handlers.runtime import KEY
from bot.models import Status
from bot.presentation.composer import TextComposer
from bot.presentation.pictures import PictureMaker
from bot.service import GameService
from bot.storage import Storage
from fakeapi import FakeTelegramServer, StoredMessage, WebhookTiming
from testservers import PostgresServer

SHARDS = 64
LOCK_KEY = lock_key("123456:" + "A" * 35)


class Recorder:
    """What a keeper was told: the shards it holds by its callbacks' account."""

    def __init__(self) -> None:
        self.loaded: set[int] = set()
        self.given: list[frozenset[int]] = []

    async def take(self, shards: frozenset[int]) -> None:
        assert not shards & self.loaded, "a shard taken twice"
        self.loaded |= shards

    async def give(self, shards: frozenset[int]) -> None:
        self.given.append(shards)
        self.loaded -= shards


def keeper(url: str, name: str, recorder: Recorder, tick: float = 0.2) -> ShardKeeper:
    return ShardKeeper(url, SHARDS, LOCK_KEY, name, recorder.take, recorder.give, tick=tick)



@pytest.fixture
async def two(database: str) -> AsyncIterator[tuple[ShardKeeper, Recorder, ShardKeeper, Recorder]]:  # noqa: F811
    a_rec, b_rec = Recorder(), Recorder()
    a, b = keeper(database, "a", a_rec), keeper(database, "b", b_rec)
    a.start()
    b.start()
    try:
        yield a, a_rec, b, b_rec
    finally:
        await a.stop()
        await b.stop()


async def test_two_keepers_split_the_shards(two: tuple[ShardKeeper, Recorder, ShardKeeper,
                                                       Recorder]) -> None:
    a, a_rec, b, b_rec = two
    await until(lambda: len(a.owned) == len(b.owned) == SHARDS // 2)
    assert a.owned.isdisjoint(b.owned)
    assert a.owned | b.owned == set(range(SHARDS))
    assert a_rec.loaded == a.owned and b_rec.loaded == b.owned
    assert await a.held() == set(a.owned)  # PostgreSQL agrees
    assert await b.held() == set(b.owned)


async def test_a_closing_keeper_gives_its_shards_back(
        two: tuple[ShardKeeper, Recorder, ShardKeeper, Recorder]) -> None:
    a, a_rec, b, b_rec = two
    await until(lambda: len(a.owned) == len(b.owned) == SHARDS // 2)
    mine = a.owned
    await a.stop()
    assert a_rec.given[-1] == mine and not a_rec.loaded  # let go in order: evicted, unlocked
    took = await until(lambda: len(b.owned) == SHARDS, timeout=3.0)
    assert took < 2.0
    assert b_rec.loaded == set(range(SHARDS))


async def test_a_killed_connection_frees_its_shards_at_once(
        two: tuple[ShardKeeper, Recorder, ShardKeeper, Recorder], database: str) -> None:  # noqa: F811
    """What a SIGKILL does to a worker, seen from PostgreSQL: its connection ends."""
    a, _, b, _ = two
    await until(lambda: len(a.owned) == len(b.owned) == SHARDS // 2)
    assert a._task is not None
    a._task.cancel()  # the victim's process is dead: nothing of it runs any more
    conn = await asyncpg.connect(database)
    try:
        pid = await conn.fetchval(
            "SELECT pid FROM pg_stat_activity WHERE application_name LIKE $1 AND pid <> ALL($2)"
            " AND datname=current_database()",
            LIVE_WORKERS, [await b._conn.fetchval("SELECT pg_backend_pid()")])  # type: ignore[union-attr]
        killed = time.monotonic()
        await conn.execute("SELECT pg_terminate_backend($1)", pid)
    finally:
        await conn.close()
    await until(lambda: len(b.owned) == SHARDS, timeout=3.0)
    took = time.monotonic() - killed
    print(f"takeover after a killed lock connection: {took:.2f} s")
    assert took < 2.0
    assert await b.held() == set(range(SHARDS))


async def test_a_third_keeper_gets_its_share(
        two: tuple[ShardKeeper, Recorder, ShardKeeper, Recorder], database: str) -> None:  # noqa: F811
    a, _, b, _ = two
    await until(lambda: len(a.owned) == len(b.owned) == SHARDS // 2)
    c_rec = Recorder()
    c = keeper(database, "c", c_rec)
    c.start()
    try:
        share = -(-SHARDS // 3)  # ceil: 22, 22 and 20
        await until(lambda: max(len(a.owned), len(b.owned)) <= share
                    and len(a.owned) + len(b.owned) + len(c.owned) == SHARDS)
        assert len(c.owned) >= SHARDS - 2 * share
        assert not (a.owned & c.owned) and not (b.owned & c.owned)
    finally:
        await c.stop()


async def test_a_shards_games_are_loaded_and_evicted_with_it(tmp_path: Path) -> None:
    """What a worker holds: the open games of its shards (the chat's shard, negative ids
    too), loaded into memory when it takes them and forgotten when it gives them back."""
    storage = Storage(tmp_path / "db.sqlite3")
    await storage.open()
    service = GameService(storage, TextComposer(PictureMaker("classic")))
    try:
        chats = [-1001, -1002, -1009, 6, 13]
        ids = {chat: await storage.insert_game(seated(chat, 1), 0.0) for chat in chats}
        finished = await storage.insert_game(seated(-1001, 1, thread=4), 0.0)
        done = await storage.load_game(finished)
        assert done is not None
        await storage.save_status(done, Status.FINISHED, [], 1.0)
        shards = 8
        mine = {shard_of(-1001, shards), shard_of(13, shards)}  # 7 and 5: -1009 is in 7 too
        loaded = await service.load_open_games(shards=mine, shard_count=shards)
        expected = {ids[c] for c in chats if shard_of(c, shards) in mine}
        assert {g.game_id for g in loaded} == expected == {ids[-1001], ids[-1009], ids[13]}
        assert {g.game_id for g in service.open_games()} == expected
        assert service.open_game_in(-1001) is not None and service.open_game_in(-1002) is None
        gone = service.evict({shard_of(13, shards)}, shards)
        assert [g.game_id for g in gone] == [ids[13]]
        assert service.open_game_in(13) is None and service.game(ids[13]) is None
        assert {g.game_id for g in service.open_games()} == {ids[-1001], ids[-1009]}
    finally:
        await storage.close()


# --- two workers and a receiver, in-process, against the fake Bot API ----------------------
SECRET = "handover_secret"



def join_data(message: StoredMessage) -> str | None:
    for row in message.buttons:
        for button in row:
            if button.callback_data and button.callback_data.startswith("j:"):
                return button.callback_data
    return None


async def test_a_worker_leaving_hands_its_table_over(postgres_url: str) -> None:
    """The whole path: the fake Bot API posts to a receiver, workers pull from the queue; a
    lobby opened on one worker is taken over by the other when the first leaves, and a Join
    tapped after that is handled there, once."""
    async with FakeTelegramServer() as server:
        server.webhook.timing = WebhookTiming(timeout=5.0, first_retry=0.02, max_retry=0.2)
        ayu, budi = server.add_user("Ayu"), server.add_user("Budi")
        chat = server.add_group("Dominoes", members=[ayu, budi], admins=[ayu])
        setup = in_process(server, postgres_url, SECRET, 4)
        workers = {name: setup.worker(name) for name in ("a", "b")}
        runs = {name: running(app) for name, app in workers.items()}
        await runs["a"].__aenter__()
        try:
            async with setup.receiver():
                await server.wait_for(lambda: server.webhook.target is not None)
                for user in (ayu, budi):
                    user.send_private("/start")
                ayu.send(chat, "/newgame gaple")
                lobby = await server.wait_for(
                    lambda: next((m for m in server.bot_messages(chat) if join_data(m)), None))
                await runs["b"].__aenter__()
                keepers = {n: app.bot_data[WORKER_KEY].keeper for n, app in workers.items()}
                await until(lambda: all(len(k.owned) == 2 for k in keepers.values()))
                shard = shard_of(chat.id, 4)
                owner = next(n for n, k in keepers.items() if shard in k.owned)
                other = "b" if owner == "a" else "a"
                await runs.pop(owner).__aexit__(None, None, None)  # its shards given back
                await until(lambda: shard in keepers[other].owned, timeout=3.0)
                rt = workers[other].bot_data[KEY]
                assert rt.service.open_game_in(chat.id) is not None  # loaded on taking it
                record = budi.press(lobby, join_data(lobby) or "")
                await server.wait_for(lambda: record.answered)
                await server.wait_for(lambda: budi.id in lobby.mentioned_user_ids)
                await rt.publisher.idle()
        finally:
            for run in runs.values():
                await run.__aexit__(None, None, None)
        assert sum(1 for c in server.callbacks if c.answered) == 1
        conn = await asyncpg.connect(postgres_url)
        try:
            assert await conn.fetchval(
                "SELECT count(*) FROM fleet_updates WHERE done_at IS NULL") == 0
        finally:
            await conn.close()
        server.assert_no_violations()


async def test_a_postgresql_restart_is_waited_for(database: str, postgres: PostgresServer,  # noqa: F811
                                                  caplog: pytest.LogCaptureFixture) -> None:
    """The server halts as in a crash: the keeper lets its shards go (their locks went with
    the connection), tries again with one line per attempt, and takes them all back."""
    rec = Recorder()
    k = keeper(database, "solo", rec, tick=0.1)
    k.start()
    try:
        await until(lambda: len(k.owned) == SHARDS)
        postgres.halt()
        try:
            await until(lambda: not k.owned and not rec.loaded)
            await asyncio.sleep(1.0)
            attempts = [r for r in caplog.records if "trying again" in r.getMessage()]
            assert attempts and all(r.exc_info is None for r in attempts)  # lines, no traces
        finally:
            postgres.start()
        await until(lambda: len(k.owned) == SHARDS, timeout=30.0)
        assert rec.loaded == set(range(SHARDS))
        assert await k.held() == set(range(SHARDS))
    finally:
        await k.stop()


async def test_a_worker_and_a_receiver_carry_on_after_postgresql_restarts(
        postgres_url: str, postgres: PostgresServer) -> None:
    """PostgreSQL halts as in a crash and comes back: the receiver answered 503 meanwhile
    (the fake Bot API delivers again), the worker took its shards back, and the Join tapped
    while the server was down is handled, once."""
    async with FakeTelegramServer() as server:
        server.webhook.timing = WebhookTiming(timeout=5.0, first_retry=0.05, max_retry=0.5)
        ayu, budi = server.add_user("Ayu"), server.add_user("Budi")
        chat = server.add_group("Dominoes", members=[ayu, budi], admins=[ayu])
        setup = in_process(server, postgres_url, SECRET, 4, name="solo")
        app = setup.worker("solo")
        async with running(app), setup.receiver():
            keeper = app.bot_data[WORKER_KEY].keeper
            await until(lambda: len(keeper.owned) == 4)
            for user in (ayu, budi):
                user.send_private("/start")
            ayu.send(chat, "/newgame gaple")
            lobby = await server.wait_for(
                lambda: next((m for m in server.bot_messages(chat) if join_data(m)), None))
            await app.bot_data[KEY].publisher.idle()
            postgres.halt()
            try:
                await until(lambda: not keeper.owned)
                record = budi.press(lobby, join_data(lobby) or "")
                await asyncio.sleep(1.0)
                assert not record.answered
            finally:
                postgres.start()
            await server.wait_for(lambda: record.answered, timeout=30.0)
            await server.wait_for(lambda: budi.id in lobby.mentioned_user_ids, timeout=10.0)
            assert len(keeper.owned) == 4
            await app.bot_data[KEY].publisher.idle()
        assert sum(1 for c in server.callbacks if c.answered) == 1
        server.assert_no_violations()
